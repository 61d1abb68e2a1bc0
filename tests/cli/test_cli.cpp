// test_cli.cpp: nicsim without simulating: --version, --help, usage errors,
// config errors as file:line:col, validate, checks made before simulating.
#include <regex>

#include "cli_test_util.h"

using nicsim_cli_test::Cli;
using nicsim_cli_test::data;
using nicsim_cli_test::exists;
using nicsim_cli_test::lines_of;
using nicsim_cli_test::list_dir;

namespace {

TEST_F(Cli, Version) {
  for (const char *opt : {"--version", "-V"}) {
    auto r = run({opt});
    EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
    EXPECT_EQ(r.out, std::string("nicsim ") + NICSIM_EXPECTED_VERSION + "\n");
    EXPECT_EQ(r.err, "");
  }
  EXPECT_EQ(std::string(NICSIM_EXPECTED_VERSION), "0.1.0");
}

TEST_F(Cli, HelpListsCommandsAndExitCodes) {
  for (auto args : {std::initializer_list<std::string>{"--help"}, {"-h"}, {"help"}}) {
    auto r = run(args);
    EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
    EXPECT_EQ(r.err, "");
    for (const char *word :
         {"usage: nicsim", "run", "validate", "sweep", "--version", "Exit status"})
      EXPECT_NE(r.out.find(word), std::string::npos) << word << "\n" << r.out;
  }
}

TEST_F(Cli, CommandHelpListsEveryOption) {
  struct {
    const char *cmd;
    std::vector<const char *> words;
  } cases[] = {
      {"run",
       {"usage: nicsim run", "--set KEY=VALUE", "-s,", "--point LABEL", "-p,", "--json FILE",
        "--csv FILE", "--quiet", "-q,", "--help", "Exit status", "Examples"}},
      {"validate",
       {"usage: nicsim validate", "--set KEY=VALUE", "--help", "OK (N points)", "Exit status"}},
      {"sweep",
       {"usage: nicsim sweep", "--output DIR", "-o,", "--jobs N", "-j,", "--set KEY=VALUE",
        "--quiet", "results.csv", "points/<index>-<label>.json", "Exit status"}},
  };
  for (const auto &c : cases) {
    for (const char *h : {"--help", "-h"}) {
      auto r = run({c.cmd, h});
      EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
      EXPECT_EQ(r.err, "");
      for (const char *w : c.words)
        EXPECT_NE(r.out.find(w), std::string::npos) << c.cmd << ": " << w;
    }
    auto r = run({"help", c.cmd});
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find(c.words[0]), std::string::npos);
  }
}

TEST_F(Cli, NoCommandIsAUsageError) {
  auto r = run({});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("no command"), std::string::npos);
  EXPECT_NE(r.err.find("usage: nicsim"), std::string::npos);
}

TEST_F(Cli, UnknownCommandIsAUsageError) {
  auto r = run({"frobnicate"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("unknown command 'frobnicate'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("usage: nicsim"), std::string::npos) << r.err;
  r = run({"help", "frobnicate"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
}

TEST_F(Cli, UnknownOptionsAreUsageErrors) {
  struct {
    std::initializer_list<std::string> args;
    const char *msg, *usage;
  } cases[] = {
      {{"--frob"}, "unknown option '--frob'", "usage: nicsim"},
      {{"run", "--frob"}, "unknown option '--frob'", "usage: nicsim run"},
      {{"run", "-x"}, "unknown option '-x'", "usage: nicsim run"},
      {{"run", "--json"}, "option '--json' needs a value", "usage: nicsim run"},
      {{"run", "--quiet=yes"}, "option '--quiet' takes no value", "usage: nicsim run"},
      {{"run", "a.yaml", "b.yaml"}, "one scenario at a time", "usage: nicsim run"},
      {{"validate", "--jobs", "2"}, "unknown option '--jobs'", "usage: nicsim validate"},
      {{"validate"}, "no scenario file given", "usage: nicsim validate"},
      {{"sweep", "-j"}, "option '-j' needs a value", "usage: nicsim sweep"},
      {{"sweep"}, "no scenario file given", "usage: nicsim sweep"},
      {{"sweep", "x.yaml", "-j", "0"}, "-j expects a number", "usage: nicsim sweep"},
      {{"sweep", "x.yaml", "-jfour"}, "-j expects a number", "usage: nicsim sweep"},
  };
  for (const auto &c : cases) {
    auto r = run(c.args);
    EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
    EXPECT_EQ(r.out, "") << c.msg;
    EXPECT_NE(r.err.find(c.msg), std::string::npos) << c.msg << "\n" << r.err;
    EXPECT_NE(r.err.find(c.usage), std::string::npos) << r.err;
  }
}

TEST_F(Cli, MisspeltKeyIsLocatedAndExits2) {
  for (const char *cmd : {"validate", "run", "sweep"}) {
    auto r = run({cmd, data("typo.yaml")});
    EXPECT_EQ(r.status, 2) << cmd << "\n" << NICSIM_SHOW(r);
    EXPECT_EQ(r.out, "") << cmd;
    EXPECT_TRUE(std::regex_search(r.err, std::regex("typo\\.yaml:3:3: error: .*desc_spacng")))
        << cmd << "\n"
        << r.err;
    EXPECT_NE(r.err.find("desc_spacing"), std::string::npos) << "a suggestion\n" << r.err;
  }
}

TEST_F(Cli, BadSetIsAUsageError) {
  struct {
    const char *set, *msg;
  } cases[] = {
      {"novalue", "--set expects KEY=VALUE"},           {"=5", "--set expects KEY=VALUE"},
      {"nic.desc_spacing=abc", "<command line>:1:"},    {"nic.desc_spacng=32", "<command line>:1:"},
      {"nic.desc_spacing=999999", "<command line>:1:"},
  };
  for (const auto &c : cases) {
    for (const char *cmd : {"validate", "run"}) {
      auto r = run({cmd, data("good.yaml"), "--set", c.set});
      EXPECT_EQ(r.status, 2) << cmd << " --set " << c.set << "\n" << NICSIM_SHOW(r);
      EXPECT_EQ(r.out, "");
      EXPECT_NE(r.err.find(c.msg), std::string::npos) << c.set << "\n" << r.err;
      EXPECT_EQ(r.err.find("simulating"), std::string::npos) << "failed before simulating";
    }
  }
}

TEST_F(Cli, ValidateReportsOkWithThePointCount) {
  auto r = run({"validate", data("good.yaml")});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_EQ(r.out, data("good.yaml") + ": OK (1 point)\n");
  EXPECT_EQ(r.err, "");

  r = run({"validate", data("sweep.yaml"), data("good.yaml"), "--set", "nic.rx_ring_size=256"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_EQ(r.out,
            data("sweep.yaml") + ": OK (4 points)\n" + data("good.yaml") + ": OK (1 point)\n");
}

TEST_F(Cli, ValidateGoesOnAfterABadFileAndExits2) {
  auto r = run({"validate", data("typo.yaml"), data("good.yaml"), "missing.yaml"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_EQ(r.out, data("good.yaml") + ": OK (1 point)\n");
  EXPECT_NE(r.err.find("typo.yaml:3:3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("missing.yaml"), std::string::npos) << r.err;
}

TEST_F(Cli, UsageLineListsEveryCommand) {
  auto help = run({"--help"});
  ASSERT_EQ(help.status, 0) << NICSIM_SHOW(help);
  auto usage = run({});
  ASSERT_EQ(usage.status, 2) << NICSIM_SHOW(usage);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(usage.err, m, std::regex("commands: ([a-z, ]+)\n"))) << usage.err;
  std::string listed = ", " + m[1].str() + ",";
  // Every command of the --help table ("  NAME  summary" under "Commands:"), and help.
  std::vector<std::string> names = {"help"};
  bool in_table = false;
  for (const std::string &l : lines_of(help.out)) {
    if (l == "Commands:") {
      in_table = true;
    } else if (in_table && std::regex_search(l, m, std::regex("^  ([a-z]+) "))) {
      names.push_back(m[1]);
    } else if (in_table) {
      break;
    }
  }
  EXPECT_GE(names.size(), 10u) << help.out;
  for (const std::string &n : names)
    EXPECT_NE(listed.find(", " + n + ","), std::string::npos) << n << "\n" << usage.err;
}

TEST_F(Cli, ValidateRunsTheSweepsPlotChecks) {
  const char *head =
      "platform: x86-gen3\n"
      "sweep: {axes: {nic.desc_spacing: [16, 32]}}\n"
      "plots:\n";
  std::ofstream(path("metric.yaml"))
      << head << "  - name: p\n    x: nic.desc_spacing\n    y: rx.gbsp\n";
  std::ofstream(path("name.yaml"))
      << head << "  - name: \"\"\n    x: nic.desc_spacing\n    y: rx.gbps\n";
  struct {
    const char *file, *cmd, *msg;
  } cases[] = {
      {"metric.yaml", "validate", ":6:8: error: plot 'p': unknown metric 'rx.gbsp'"},
      {"metric.yaml", "sweep", ":6:8: error: plot 'p': unknown metric 'rx.gbsp'"},
      {"name.yaml", "validate", ":4:11: error: plot name is empty"},
      {"name.yaml", "sweep", ":4:11: error: plot name is empty"},
  };
  for (const auto &c : cases) {
    auto r = std::string(c.cmd) == "sweep" ? run({c.cmd, path(c.file), "--dry-run"})
                                           : run({c.cmd, path(c.file)});
    EXPECT_EQ(r.status, 2) << c.cmd << " " << c.file << NICSIM_SHOW(r);
    EXPECT_EQ(r.out, "") << c.cmd << " " << c.file;
    EXPECT_NE(r.err.find(path(c.file) + c.msg), std::string::npos) << c.msg << "\n" << r.err;
  }
  auto r = run({"validate", path("metric.yaml")});
  EXPECT_NE(r.err.find("hint: did you mean 'rx.gbps'?"), std::string::npos) << r.err;
}

TEST_F(Cli, RunUnknownPointListsTheLabels) {
  auto r = run({"run", data("sweep.yaml"), "--point", "middle"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("--point middle: no such point"), std::string::npos) << r.err;
  for (const char *label : {"before/nic.desc_spacing=16", "before/nic.desc_spacing=32",
                            "after/nic.desc_spacing=16", "after/nic.desc_spacing=32"})
    EXPECT_NE(r.err.find(label), std::string::npos) << label << "\n" << r.err;

  r = run({"run", data("good.yaml"), "-p", "before"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("has no sweep points"), std::string::npos) << r.err;
}

TEST_F(Cli, RunChecksOutputPathsBeforeSimulating) {
  auto r = run({"run", data("good.yaml"), "--json", path("no/such/dir/out.json")});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("no/such/dir"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("No such file or directory"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("simulating"), std::string::npos);

  r = run({"run", data("good.yaml"), "--csv", dir_});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("Is a directory"), std::string::npos) << r.err;
}

TEST_F(Cli, SweepNeedsASweep) {
  auto r = run({"sweep", data("good.yaml"), "-o", path("out")});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("has no sweep"), std::string::npos) << r.err;
  EXPECT_FALSE(exists(path("out"))) << "nothing created for a bad input";
}

TEST_F(Cli, SweepResolvesEveryPointBeforeStarting) {
  auto r = run({"sweep", data("sweep.yaml"), "-o", path("out"), "--set", "nic.desc_fetch_max=0"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("<command line>:1:"), std::string::npos) << r.err;
  EXPECT_FALSE(exists(path("out")));
}

// A config the config checker accepts but the driver cannot run (i40e RX
// buffers are whole 128-byte units): validate, run and sweep reject it with
// the key's place and a hint, before simulating, as any other config error.
TEST_F(Cli, DriverConfigRulesAreConfigErrors) {
  std::ofstream(path("i40e.yaml")) << "name: i40e\n"
                                      "platform: i40e-x86\n"
                                      "driver:\n"
                                      "  rx_buf_bytes: 2000\n";
  std::ofstream(path("ok.yaml")) << "name: i40e\nplatform: i40e-x86\n";
  const char *hint = "  hint: use a multiple of 128 of at most 16256, e.g. 1920 or 2048\n";
  for (const char *cmd : {"validate", "run"}) {
    auto r = run({cmd, path("i40e.yaml")});
    EXPECT_EQ(r.status, 2) << cmd << "\n" << NICSIM_SHOW(r);
    EXPECT_EQ(r.out, "") << cmd;
    EXPECT_NE(r.err.find(path("i40e.yaml") + ":4:17: error: i40e: driver.rx_buf_bytes = 2000 is not a receive "
                                             "buffer size"),
              std::string::npos)
        << cmd << "\n"
        << r.err;
    EXPECT_NE(r.err.find(hint), std::string::npos) << cmd << "\n" << r.err;
    EXPECT_EQ(r.err.find("simulating"), std::string::npos) << "failed before simulating";

    r = run({cmd, path("ok.yaml"), "--set", "driver.rx_buf_bytes=2000"});
    EXPECT_EQ(r.status, 2) << cmd << " --set\n" << NICSIM_SHOW(r);
    EXPECT_EQ(r.out, "") << cmd;
    EXPECT_NE(r.err.find("<command line>:1:21: error: i40e: driver.rx_buf_bytes = 2000"), std::string::npos)
        << cmd << "\n"
        << r.err;
    EXPECT_NE(r.err.find(hint), std::string::npos) << cmd << "\n" << r.err;
  }
  auto r = run({"validate", path("ok.yaml"), "--set", "driver.rx_buf_bytes=1920"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);

  // A sweep checks every point before it starts: the second point is bad.
  std::ofstream(path("sweep.yaml")) << "name: i40e-sweep\n"
                                       "platform: i40e-x86\n"
                                       "sweep: {axes: {driver.rx_buf_bytes: [2048, 2000]}}\n";
  for (const char *cmd : {"validate", "sweep"}) {
    r = std::string(cmd) == "sweep" ? run({cmd, path("sweep.yaml"), "-o", path("out")})
                                    : run({cmd, path("sweep.yaml")});
    EXPECT_EQ(r.status, 2) << cmd << "\n" << NICSIM_SHOW(r);
    EXPECT_EQ(r.out, "") << cmd;
    EXPECT_NE(r.err.find(path("sweep.yaml") + ":3:44: error: i40e: driver.rx_buf_bytes = 2000"), std::string::npos)
        << cmd << "\n"
        << r.err;
  }
  EXPECT_FALSE(exists(path("out"))) << "no point of a bad sweep runs";
}

TEST_F(Cli, SweepUnusableOutputDirectory) {
  FILE *f = fopen(path("file").c_str(), "w");
  ASSERT_NE(f, nullptr);
  fclose(f);
  auto r = run({"sweep", data("sweep.yaml"), "-o", path("file/out")});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("cannot create"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Not a directory"), std::string::npos) << r.err;
  EXPECT_EQ(list_dir(dir_), std::set<std::string>{"file"});
}

}  // namespace

// `nicsim validate` reports every error of a file (issue 27): an unknown
// key, an out-of-range value, a bad enum, a duplicate key and a cross-layer
// rule, each at its own line and column, in file order, then the count.
TEST_F(Cli, ValidateReportsEveryErrorInFileOrder) {
  const std::string f = data("many-errors.yaml");
  auto r = run({"validate", f});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_EQ(r.out, "");
  // Each error's "file:line:col: error:" line, in the order printed.
  std::vector<std::string> at;
  for (const std::string &l : lines_of(r.err))
    if (l.rfind(f + ":", 0) == 0 && l.find(": error: ") != std::string::npos)
      at.push_back(l.substr(f.size() + 1, l.find(": error: ") - f.size() - 1));
  const std::vector<std::string> want = {"6:3", "7:17", "9:9", "10:16", "13:3"};
  EXPECT_EQ(at, want) << r.err;
  EXPECT_NE(r.err.find("did you mean 'nic.desc_spacing'?"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("duplicate key 'run.seed' (first defined at " + f + ":12:3)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("traffic.frame_bytes = 9000 does not fit in driver.rx_buf_bytes"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("\n5 errors in " + f + "\n"), std::string::npos) << r.err;

  // run, sweep and config stop at the same file with the same list.
  for (const char *cmd : {"run", "sweep", "config"}) {
    auto c = run({cmd, f});
    EXPECT_EQ(c.status, 2) << cmd << "\n" << NICSIM_SHOW(c);
    EXPECT_EQ(c.err.find("simulating"), std::string::npos) << cmd;
    for (const std::string &w : want)
      EXPECT_NE(c.err.find(f + ":" + w + ": error: "), std::string::npos) << cmd << " " << w << "\n" << c.err;
  }
}

// The list printed is capped at 50 errors, then says how many more there are.
TEST_F(Cli, ValidateCapsTheListAt50) {
  std::string text = "nic:\n";
  const int n = 70;
  for (int i = 0; i < n; i++) text += "  bogus_key_" + std::to_string(i) + ": 1\n";
  const std::string f = path("seventy.yaml");
  std::ofstream(f) << text;
  auto r = run({"validate", f});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  int shown = 0;
  for (const std::string &l : lines_of(r.err))
    if (l.find(": error: unknown key 'nic.bogus_key_") != std::string::npos) shown++;
  EXPECT_EQ(shown, 50) << r.err;
  EXPECT_NE(r.err.find("... and " + std::to_string(n - 50) + " more errors\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(std::to_string(n) + " errors in " + f), std::string::npos) << r.err;
  // The first shown is the first in the file.
  EXPECT_NE(r.err.find(f + ":2:3: error: unknown key 'nic.bogus_key_0'"), std::string::npos) << r.err;
}

// A YAML syntax error ends the check: one error with its line and column.
TEST_F(Cli, ValidateSyntaxErrorIsOneError) {
  const std::string f = path("syntax.yaml");
  std::ofstream(f) << "nic:\n  desc_spacng: 32\n  rx_ring_size: [1, 2\nrun: {seed: 1}\n";
  auto r = run({"validate", f});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  int errors = 0;
  for (const std::string &l : lines_of(r.err))
    if (l.find(": error: ") != std::string::npos) errors++;
  EXPECT_EQ(errors, 1) << r.err;
  EXPECT_TRUE(std::regex_search(r.err, std::regex("syntax\\.yaml:[0-9]+:[0-9]+: error: YAML syntax error")))
      << r.err;
  EXPECT_NE(r.err.find("1 error in " + f), std::string::npos) << r.err;
}
