// test_sweeps.cpp: sweeps at scale: dry run, shards merged equal a full run,
// resume after a killed sweep equals a full run, another sweep's directory is
// refused, GNU parallel, plots (PNG and SVG), the report and the demo.
#include <jansson.h>
#include <pty.h>
#include <signal.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <regex>

#include "cli_test_util.h"

using nicsim_cli_test::children_of;
using nicsim_cli_test::Cli;
using nicsim_cli_test::data;
using nicsim_cli_test::exists;
using nicsim_cli_test::lines_of;
using nicsim_cli_test::list_dir;
using nicsim_cli_test::slurp;

namespace {

class Sweeps : public Cli {};

// Splits one CSV line written by nicsim (these fields hold no quotes).
std::vector<std::string> split(const std::string &line) {
  std::vector<std::string> out;
  std::string f;
  std::stringstream ss(line);
  while (std::getline(ss, f, ',')) out.push_back(f);
  if (!line.empty() && line.back() == ',') out.push_back("");
  return out;
}

// The CSV without its wall-clock column (the one figure that is not deterministic).
std::string without_wall(const std::string &csv) {
  std::vector<std::string> lines = lines_of(csv);
  if (lines.empty()) return "";
  std::vector<std::string> head = split(lines[0]);
  size_t col = head.size();
  for (size_t i = 0; i < head.size(); i++)
    if (head[i] == "sim.wall_s") col = i;
  EXPECT_LT(col, head.size()) << "no sim.wall_s column";
  std::string out;
  for (const std::string &l : lines) {
    std::vector<std::string> f = split(l);
    EXPECT_EQ(f.size(), head.size()) << l;
    for (size_t i = 0; i < f.size(); i++)
      if (i != col) out += f[i] + ",";
    out += "\n";
  }
  return out;
}

// Every point file of two directories: the same names, the same documents
// apart from sim.wall_s.
void expect_same_points(const std::string &a, const std::string &b) {
  std::set<std::string> fa = list_dir(a + "/points"), fb = list_dir(b + "/points");
  EXPECT_EQ(fa, fb);
  for (const std::string &f : fa) {
    json_t *ja = json_load_file((a + "/points/" + f).c_str(), 0, nullptr);
    json_t *jb = json_load_file((b + "/points/" + f).c_str(), 0, nullptr);
    ASSERT_TRUE(ja && jb) << f;
    json_object_del(json_object_get(ja, "metrics"), "sim.wall_s");
    json_object_del(json_object_get(jb, "metrics"), "sim.wall_s");
    EXPECT_TRUE(json_equal(ja, jb)) << f;
    json_decref(ja);
    json_decref(jb);
  }
}

// True if a program is on PATH.
bool have_program(const char *name) {
  std::string cmd = std::string("command -v ") + name + " >/dev/null 2>&1";
  return system(cmd.c_str()) == 0;
}

TEST_F(Sweeps, DryRunListsThePointsAndSimulatesNothing) {
  auto r = run({"sweep", data("sweep-spec.yaml"), "--dry-run", "-o", path("out")});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  std::vector<std::string> l = lines_of(r.out);
  ASSERT_EQ(l.size(), 9u) << r.out;
  EXPECT_TRUE(std::regex_search(l[0], std::regex("^# +label +traffic.frame_bytes +nic.desc_spacing "
                                                 "+nic.rx_ring_size +run.seed$")))
      << l[0];
  EXPECT_TRUE(std::regex_search(
      l[8], std::regex("^7 +traffic.frame_bytes=1518/nic.desc_spacing=64/nic.rx_ring_size=512/"
                       "repeat=2 +1518 +64 +512 +2$")))
      << l[8];
  EXPECT_NE(r.err.find("8 points, config hash "), std::string::npos) << r.err;
  EXPECT_FALSE(exists(path("out")));

  // The three shards list every point once, each with its estimated cost.
  std::multiset<int> indices;
  for (const char *k : {"1/3", "2/3", "3/3"}) {
    auto s = run({"sweep", data("sweep-spec.yaml"), "-n", "--shard", k});
    ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
    l = lines_of(s.out);
    ASSERT_GE(l.size(), 3u) << s.out;
    EXPECT_TRUE(std::regex_search(l[0], std::regex(" run.seed +est.cost$"))) << l[0];
    for (size_t i = 1; i < l.size(); i++) indices.insert(std::stoi(l[i]));
  }
  EXPECT_EQ(indices, (std::multiset<int>{0, 1, 2, 3, 4, 5, 6, 7}));

  for (const char *bad : {"0/3", "4/3", "3", "1/0", "a/b", "1/3x"}) {
    auto b = run({"sweep", data("sweep-spec.yaml"), "-n", "--shard", bad});
    EXPECT_EQ(b.status, 2) << bad << NICSIM_SHOW(b);
    EXPECT_NE(b.err.find("--shard expects K/N"), std::string::npos) << b.err;
  }
}

TEST_F(Sweeps, UnknownPlotMetricIsBadInputBeforeSimulating) {
  std::ofstream(path("p.yaml")) << "platform: x86-gen3\n"
                                   "sweep: {axes: {nic.desc_spacing: [16, 32]}}\n"
                                   "plots:\n"
                                   "  - {x: nic.desc_spacing, y: [rx.gbps, rx.gbs]}\n";
  auto r = run({"sweep", path("p.yaml"), "-o", path("out")});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find(path("p.yaml") + ":4:40: error: plot 'plot1': unknown metric 'rx.gbs'"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(exists(path("out/results.csv")));
}

TEST_F(Sweeps, ShardsMergedEqualAFullRun) {
  auto full = run({"sweep", data("sweep-spec.yaml"), "-j2", "-o", path("full")});
  ASSERT_EQ(full.status, 0) << NICSIM_SHOW(full);
  EXPECT_EQ(full.err.find("\033["), std::string::npos) << "no bar when stderr is a file";
  for (const char *k : {"1", "2", "3"}) {
    auto s = run({"sweep", data("sweep-spec.yaml"), "-j2", "--shard", std::string(k) + "/3", "-o",
                  path(std::string("shard") + k)});
    ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  }
  EXPECT_EQ(list_dir(path("shard1/points")).size(), 3u);
  EXPECT_EQ(list_dir(path("shard3/points")).size(), 2u);

  // Missing shards: exit 1 naming what is missing.
  auto part = run({"merge", path("shard1"), path("shard2"), "-o", path("part")});
  EXPECT_EQ(part.status, 1) << NICSIM_SHOW(part);
  EXPECT_NE(part.err.find("2 of 8 points have no results"), std::string::npos) << part.err;

  auto m = run({"merge", path("shard1"), path("shard2"), path("shard3"), "-o", path("all")});
  ASSERT_EQ(m.status, 0) << NICSIM_SHOW(m);
  std::string a = slurp(path("full/results.csv")), b = slurp(path("all/results.csv"));
  ASSERT_EQ(lines_of(a).size(), 9u) << a;
  EXPECT_EQ(without_wall(a), without_wall(b));
  expect_same_points(path("full"), path("all"));
  EXPECT_EQ(m.out, full.out) << "the same table";

  // Merging into the first shard works too; another sweep is refused.
  auto m2 = run({"merge", path("shard1"), path("shard2"), path("shard3"), "-q"});
  ASSERT_EQ(m2.status, 0) << NICSIM_SHOW(m2);
  EXPECT_EQ(without_wall(slurp(path("shard1/results.csv"))), without_wall(a));
  auto other = run({"sweep", data("sweep.yaml"), "-o", path("other"), "-q"});
  ASSERT_EQ(other.status, 0) << NICSIM_SHOW(other);
  auto bad = run({"merge", path("full"), path("other"), "-o", path("x")});
  EXPECT_EQ(bad.status, 2) << NICSIM_SHOW(bad);
  EXPECT_NE(bad.err.find("holds another sweep"), std::string::npos) << bad.err;
  auto notdir = run({"merge", path("nowhere")});
  EXPECT_EQ(notdir.status, 2) << NICSIM_SHOW(notdir);
  EXPECT_NE(notdir.err.find("is not a sweep directory"), std::string::npos) << notdir.err;
}

TEST_F(Sweeps, ResumeAfterAKilledSweepEqualsAFullRun) {
  // Long enough points that the sweep is still running when it is killed.
  const std::string dur = "run.duration_us=20000";
  auto full = run({"sweep", data("sweep.yaml"), "-j2", "-o", path("full"), "--set", dur, "-q"});
  ASSERT_EQ(full.status, 0) << NICSIM_SHOW(full);

  pid_t pid = start({"sweep", data("sweep.yaml"), "-j1", "-o", path("out"), "--set", dur});
  ASSERT_GT(pid, 0);
  bool killed = false;
  for (int i = 0; i < 20000 && !killed; i++) {
    if (list_dir(path("out/points")).size() >= 1) {
      kill(pid, SIGKILL);  // the parent: its worker dies writing to the closed pipe
      killed = true;
    } else {
      usleep(500);
    }
  }
  auto k = finish(pid);
  ASSERT_TRUE(killed) << NICSIM_SHOW(k);
  ASSERT_EQ(k.status, 128 + SIGKILL) << "the sweep finished before it was killed";
  size_t done = list_dir(path("out/points")).size();
  ASSERT_GE(done, 1u);
  ASSERT_LT(done, 4u);
  EXPECT_TRUE(exists(path("out/sweep.json")));
  for (int i = 0; i < 2000 && !children_of(pid).empty(); i++) usleep(1000);

  auto r = run({"sweep", data("sweep.yaml"), "-j2", "-o", path("out"), "--set", dur, "--resume"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find(", " + std::to_string(done) + " already done"), std::string::npos) << r.err;
  int ran = 0;
  for (const std::string &l : lines_of(r.err)) ran += std::regex_search(l, std::regex("^\\[[1-4]/4\\] "));
  EXPECT_EQ(ran, 4 - static_cast<int>(done)) << r.err;
  EXPECT_EQ(without_wall(slurp(path("out/results.csv"))), without_wall(slurp(path("full/results.csv"))));
  expect_same_points(path("full"), path("out"));
  EXPECT_EQ(r.out, full.out);
}

// --shard K/N balances the points' estimated costs, ties dealt as a Latin
// square over the swept values (docs/sweeps.md): with a 3 x 3 sweep whose
// cost follows the frame size and N = 3, every shard holds every frame size
// and every coalescing timer once, where slicing by index mod N gave each
// shard one timer; together the shards hold every point once.
TEST_F(Sweeps, EveryShardHoldsEveryValueOfEveryAxis) {
  std::ofstream(path("coal.yaml")) << "name: coal\nplatform: x86-gen3\nrun: {duration_us: 100, warmup_us: 20}\n"
                                      "sweep:\n  axes:\n    traffic.frame_bytes: [64, 512, 1518]\n"
                                      "    nic.irq_coal_usecs: [5, 10, 20]\n";
  std::set<std::string> all;
  for (const char *k : {"1", "2", "3"}) {
    auto r = run({"sweep", path("coal.yaml"), "-n", "--shard", std::string(k) + "/3"});
    ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
    std::set<std::string> frames, timers;
    std::vector<std::string> l = lines_of(r.out);
    ASSERT_EQ(l.size(), 4u) << r.out;
    for (size_t i = 1; i < l.size(); i++) {
      std::smatch m;
      ASSERT_TRUE(std::regex_search(l[i], m, std::regex("traffic.frame_bytes=([0-9]+)/nic.irq_coal_usecs=([0-9]+)")))
          << l[i];
      frames.insert(m[1]);
      timers.insert(m[2]);
      EXPECT_TRUE(all.insert(m[0]).second) << "in two shards: " << m[0];
    }
    EXPECT_EQ(frames, (std::set<std::string>{"64", "512", "1518"})) << "shard " << k << ":\n" << r.out;
    EXPECT_EQ(timers, (std::set<std::string>{"5", "10", "20"})) << "shard " << k << ":\n" << r.out;
  }
  EXPECT_EQ(all.size(), 9u);
}

TEST_F(Sweeps, ResumeRerunsAKilledWorkersPoint) {
  const std::string dur = "run.duration_us=20000";
  pid_t pid = start({"sweep", data("sweep.yaml"), "-o", path("out"), "-j2", "--set", dur});
  ASSERT_GT(pid, 0);
  pid_t victim = -1;
  for (int i = 0; i < 5000 && victim < 0; i++) {
    std::vector<pid_t> kids = children_of(pid);
    if (!kids.empty()) victim = kids[0]; else usleep(1000);
  }
  ASSERT_GT(victim, 0);
  kill(victim, SIGKILL);
  auto k = finish(pid);
  ASSERT_EQ(k.status, 1) << NICSIM_SHOW(k);
  // Three point files and the killed point's failure record (docs/sweeps.md).
  auto errors = [this] {
    size_t n = 0;
    for (const std::string &f : list_dir(path("out/points"))) n += f.find(".error") != std::string::npos;
    return n;
  };
  ASSERT_EQ(list_dir(path("out/points")).size(), 4u);
  ASSERT_EQ(errors(), 1u);

  auto r = run({"sweep", data("sweep.yaml"), "-o", path("out"), "-j2", "--set", dur, "--resume"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("3 already done"), std::string::npos) << r.err;
  EXPECT_EQ(errors(), 0u) << "the point simulated: its failure record is gone";
  auto full = run({"sweep", data("sweep.yaml"), "-o", path("full"), "-j2", "--set", dur, "-q"});
  ASSERT_EQ(full.status, 0) << NICSIM_SHOW(full);
  EXPECT_EQ(without_wall(slurp(path("out/results.csv"))), without_wall(slurp(path("full/results.csv"))));
  expect_same_points(path("full"), path("out"));
}

TEST_F(Sweeps, ResumeRerunsPointsWhoseConfigChanged) {
  auto a = run({"sweep", data("sweep.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(a.status, 0) << NICSIM_SHOW(a);
  // Hand-edit one point's config: --resume must not trust it.
  std::string p = path("out/points/1-before_nic.desc_spacing_32.json");
  json_t *doc = json_load_file(p.c_str(), 0, nullptr);
  ASSERT_TRUE(doc);
  json_object_set_new(json_object_get(json_object_get(doc, "config"), "nic"), "desc_spacing",
                      json_integer(64));
  ASSERT_EQ(json_dump_file(doc, p.c_str(), JSON_INDENT(2)), 0);
  json_decref(doc);
  auto r = run({"sweep", data("sweep.yaml"), "-o", path("out"), "--resume"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("rerunning before/nic.desc_spacing=32: " + p + " holds another configuration"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("3 already done"), std::string::npos) << r.err;
}

TEST_F(Sweeps, AnotherSweepsDirectoryIsNotOverwrittenWithoutForce) {
  auto a = run({"sweep", data("sweep.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(a.status, 0) << NICSIM_SHOW(a);
  std::string csv = slurp(path("out/results.csv"));
  // The same sweep again is fine (and rewrites its results).
  auto again = run({"sweep", data("sweep.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(again.status, 0) << NICSIM_SHOW(again);
  // A different config (here one --set) is another sweep.
  auto b = run({"sweep", data("sweep.yaml"), "-o", path("out"), "--set", "run.seed=5"});
  EXPECT_EQ(b.status, 2) << NICSIM_SHOW(b);
  EXPECT_NE(b.err.find("holds the results of another sweep (scenario 'cli-sweep', config hash"),
            std::string::npos)
      << b.err;
  EXPECT_NE(b.err.find("--force"), std::string::npos) << b.err;
  EXPECT_EQ(without_wall(slurp(path("out/results.csv"))), without_wall(csv)) << "left alone";
  // A different scenario into the same directory: refused; with --force, replaced.
  auto c = run({"sweep", data("sweep-spec.yaml"), "-o", path("out"), "-q"});
  EXPECT_EQ(c.status, 2) << NICSIM_SHOW(c);
  auto d = run({"sweep", data("sweep-spec.yaml"), "-o", path("out"), "-q", "--force"});
  ASSERT_EQ(d.status, 0) << NICSIM_SHOW(d);
  EXPECT_EQ(list_dir(path("out/points")).size(), 8u) << "the other sweep's points are gone";
  EXPECT_EQ(lines_of(slurp(path("out/results.csv"))).size(), 9u);
  // Results without a manifest are refused too.
  (void)!system(("mkdir -p " + path("plain") + " && echo x > " + path("plain/results.csv")).c_str());
  auto e = run({"sweep", data("sweep.yaml"), "-o", path("plain"), "-q"});
  EXPECT_EQ(e.status, 2) << NICSIM_SHOW(e);
  EXPECT_NE(e.err.find("holds results without a sweep.json"), std::string::npos) << e.err;
}

TEST_F(Sweeps, RepeatsGiveDistinctSeedsInTheCsv) {
  auto r = run({"sweep", data("sweep-spec.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  std::vector<std::string> l = lines_of(slurp(path("out/results.csv")));
  ASSERT_EQ(l.size(), 9u);
  std::vector<std::string> head = split(l[0]);
  ASSERT_GE(head.size(), 6u);
  EXPECT_EQ(head[4], "run.seed");
  for (size_t i = 1; i < l.size(); i++) EXPECT_EQ(split(l[i])[4], i % 2 ? "1" : "2") << l[i];
}

TEST_F(Sweeps, GnuParallelRunsTheShards) {
  if (!have_program("parallel"))
    GTEST_SKIP() << "GNU parallel is not installed (Debian package 'parallel'); "
                    "scripts/install-deps.sh installs it";
  auto full = run({"sweep", data("sweep-spec.yaml"), "-j1", "-o", path("full"), "-q"});
  ASSERT_EQ(full.status, 0) << NICSIM_SHOW(full);
  std::string cmd = "parallel --will-cite --halt now,fail=1 -j 3 '" + std::string(NICSIM_BIN) +
                    "' sweep '" + data("sweep-spec.yaml") + "' -j1 -q --shard {}/3 -o '" +
                    path("shard") + "{}' ::: 1 2 3 > '" + path("parallel.log") + "' 2>&1";
  ASSERT_EQ(system(cmd.c_str()), 0) << slurp(path("parallel.log"));
  auto m = run({"merge", path("shard1"), path("shard2"), path("shard3"), "-o", path("all")});
  ASSERT_EQ(m.status, 0) << NICSIM_SHOW(m);
  EXPECT_EQ(without_wall(slurp(path("all/results.csv"))), without_wall(slurp(path("full/results.csv"))));
  expect_same_points(path("full"), path("all"));
}

TEST_F(Sweeps, ProgressBarOnATerminalOnly) {
  // stderr a terminal: one redrawn bar line (done/total, failures, ETA), no
  // per-point lines.
  int master = -1;
  pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    execl(NICSIM_BIN, NICSIM_BIN, "sweep", data("sweep-spec.yaml").c_str(), "-j2", "-o",
          path("out").c_str(), (char *)nullptr);
    _exit(127);
  }
  std::string tty;
  char buf[4096];
  for (;;) {
    ssize_t n = read(master, buf, sizeof buf);
    if (n <= 0) break;  // EIO once the child has exited
    tty.append(buf, static_cast<size_t>(n));
  }
  int st = 0;
  ASSERT_EQ(waitpid(pid, &st, 0), pid);
  close(master);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << tty;
  EXPECT_NE(tty.find("\r\x1b[K[..............................] 0/8 points, 0 failed, ETA --:--"),
            std::string::npos)
      << tty;
  EXPECT_NE(tty.find("\r\x1b[K[##############################] 8/8 points, 0 failed, ETA 0:00"),
            std::string::npos)
      << tty;
  EXPECT_EQ(tty.find("[1/8] "), std::string::npos) << tty;
  // stderr not a terminal: plain lines, no escape sequences; -q: nothing but errors.
  auto r = run({"sweep", data("sweep-spec.yaml"), "-j2", "-o", path("out")});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_EQ(r.err.find('\r'), std::string::npos);
  EXPECT_EQ(r.err.find("\x1b"), std::string::npos);
  EXPECT_NE(r.err.find("[8/8] "), std::string::npos) << r.err;
  auto q = run({"sweep", data("sweep-spec.yaml"), "-j2", "-o", path("out"), "-q"});
  ASSERT_EQ(q.status, 0) << NICSIM_SHOW(q);
  EXPECT_EQ(nicsim_cli_test::without_sanitizer_noise(q.err), "");
}

// PNG signature and an SVG root element.
void expect_png_and_svg(const std::string &stem) {
  std::string png = slurp(stem + ".png"), svg = slurp(stem + ".svg");
  ASSERT_GT(png.size(), 1000u) << stem << ".png";
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << stem;
  ASSERT_GT(svg.size(), 500u) << stem << ".svg";
  EXPECT_TRUE(std::regex_search(svg, std::regex("^<\\?xml[^>]*\\?>\\s*<svg[\\s>]"))) << svg.substr(0, 200);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST_F(Sweeps, DeclaredPlotsRenderAsPngAndSvgWithTheirScripts) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  auto s = run({"sweep", data("sweep-spec.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  auto p = run({"plot", path("out")});
  ASSERT_EQ(p.status, 0) << NICSIM_SHOW(p);
  EXPECT_EQ(list_dir(path("out/plots")),
            (std::set<std::string>{"rate.dat", "rate.gp", "rate.png", "rate.svg", "tlps.dat",
                                   "tlps.gp", "tlps.png", "tlps.svg"}));
  expect_png_and_svg(path("out/plots/rate"));
  expect_png_and_svg(path("out/plots/tlps"));
  std::string gp = slurp(path("out/plots/rate.gp"));
  EXPECT_NE(gp.find("set terminal pngcairo noenhanced"), std::string::npos) << gp;
  EXPECT_NE(gp.find("set terminal svg noenhanced"), std::string::npos) << gp;
  EXPECT_NE(gp.find("set title \"RX rate by frame size\""), std::string::npos) << gp;
  EXPECT_NE(gp.find("set xlabel \"traffic.frame_bytes (B)\""), std::string::npos) << gp;
  EXPECT_NE(gp.find("set ylabel \"rx.gbps (Gbit/s)\""), std::string::npos) << gp;
  EXPECT_NE(gp.find("title \"nic.desc_spacing=64\""), std::string::npos) << gp;
  EXPECT_NE(slurp(path("out/plots/tlps.gp")).find("set logscale y"), std::string::npos);
  EXPECT_NE(slurp(path("out/plots/tlps.gp")).find("histogram"), std::string::npos);
  // Repeats are averaged: one row per frame size, one column per spacing.
  std::vector<std::string> dat = lines_of(slurp(path("out/plots/rate.dat")));
  ASSERT_EQ(dat.size(), 3u);
  EXPECT_EQ(dat[1].substr(0, 4), "256\t");
  EXPECT_EQ(dat[2].substr(0, 5), "1518\t");
}

TEST_F(Sweeps, DefaultPlotsAreTheHeadlineMetricsAgainstTheFirstSweptKey) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  auto s = run({"sweep", data("sweep.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  auto p = run({"plot", path("out"), "-q"});
  ASSERT_EQ(p.status, 0) << NICSIM_SHOW(p);
  expect_png_and_svg(path("out/plots/throughput"));
  expect_png_and_svg(path("out/plots/cpu_util"));
  std::string gp = slurp(path("out/plots/throughput.gp"));
  EXPECT_NE(gp.find("set xlabel \"nic.desc_spacing (B)\""), std::string::npos) << gp;
  EXPECT_NE(gp.find("title \"driver.napi_budget=64"), std::string::npos) << gp;
  auto none = run({"plot", path("nowhere")});
  EXPECT_EQ(none.status, 2) << NICSIM_SHOW(none);
}

TEST_F(Sweeps, ReportHasSetupPlotsDeltasAndMechanisms) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  auto s = run({"sweep", data("sweep-spec.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  auto r = run({"report", path("out"), "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  std::string md = slurp(path("out/report.md")), html = slurp(path("out/report.html"));
  for (const char *want :
       {"# Sweep report: cli-sweep-spec", "## Setup", "| pcie.gen | 3 |", "## Plots",
        "![rate](plots/rate.svg)", "## Key metrics", "## Mechanisms", "TLPs/pkt",
        "uncached loads/pkt", "IRQ/s",
        "Baseline for the deltas: traffic.frame_bytes=1518/nic.desc_spacing=16/nic.rx_ring_size=256/repeat=1",
        "| 4 | traffic.frame_bytes=1518/nic.desc_spacing=16/nic.rx_ring_size=256/repeat=1 (baseline) |"})
    EXPECT_NE(md.find(want), std::string::npos) << want << "\n" << md;
  EXPECT_TRUE(std::regex_search(md, std::regex("\\| [0-9.]+ \\([-+][0-9.]+%\\) \\|"))) << md;
  EXPECT_NE(html.find("<img src=\"plots/tlps.svg\""), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"base\">"), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);
  // Another baseline by label; an unknown one is bad input.
  auto b = run({"report", path("out"), "--no-plots", "-q", "--baseline",
                "traffic.frame_bytes=256/nic.desc_spacing=64/nic.rx_ring_size=512/repeat=2"});
  ASSERT_EQ(b.status, 0) << NICSIM_SHOW(b);
  EXPECT_NE(slurp(path("out/report.md")).find("| 3 | traffic.frame_bytes=256/nic.desc_spacing=64/nic.rx_ring_size=512/repeat=2 (baseline) |"),
            std::string::npos);
  auto u = run({"report", path("out"), "--no-plots", "--baseline", "nope"});
  EXPECT_EQ(u.status, 2) << NICSIM_SHOW(u);
  EXPECT_NE(u.err.find("no point labelled 'nope'"), std::string::npos) << u.err;
}

// Writes a two-point sweep over frame size (short runs) on platform, with yaml
// appended (plots), to file.
void write_tiny_sweep(const std::string &file, const char *platform, const std::string &yaml) {
  std::ofstream(file) << "name: tiny\nplatform: " << platform
                      << "\nrun: {duration_us: 60, warmup_us: 10}\n"
                         "sweep: {axes: {traffic.frame_bytes: [256, 1518]}}\n"
                      << yaml;
}

// sweep.json records the command line's --set overrides and overlays, and
// the report's setup lists them: a reader sees every change to the points.
TEST_F(Sweeps, TheReportListsTheOverrides) {
  write_tiny_sweep(path("x.yaml"), "x86-gen3", "");
  auto s = run({"sweep", path("x.yaml"), "-o", path("out"), "-q", "--set", "run.seed=7", "--set",
                "nic.rx_ring_size=256"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  json_t *m = json_load_file(path("out/sweep.json").c_str(), 0, nullptr);
  ASSERT_NE(m, nullptr);
  json_t *o = json_object_get(m, "overrides");
  ASSERT_EQ(json_array_size(o), 2u);
  EXPECT_STREQ(json_string_value(json_array_get(o, 0)), "run.seed=7");
  EXPECT_STREQ(json_string_value(json_array_get(o, 1)), "nic.rx_ring_size=256");
  EXPECT_EQ(json_array_size(json_object_get(m, "overlays")), 0u);
  json_decref(m);
  auto r = run({"report", path("out"), "-q", "--no-plots"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  const std::string md = slurp(path("out/report.md")), html = slurp(path("out/report.html"));
  EXPECT_NE(md.find("- Overrides (--set): run.seed=7, nic.rx_ring_size=256"), std::string::npos) << md;
  EXPECT_NE(md.find("- Overlay files (--overlay): none"), std::string::npos) << md;
  EXPECT_NE(html.find("<li>Overrides (--set): run.seed=7, nic.rx_ring_size=256</li>"), std::string::npos) << html;
  // What limits throughput: each bottleneck with its points, then every point's verdict.
  EXPECT_NE(md.find("\n## What limits throughput\n"), std::string::npos) << md;
  EXPECT_TRUE(std::regex_search(md, std::regex("\n- [a-z0-9.]+: [12] of 2 points \\(#0")) ) << md;
  EXPECT_TRUE(std::regex_search(md, std::regex("\n\\| 1 \\| traffic.frame_bytes=1518 \\| [^|]+; next: ")) ) << md;
  EXPECT_NE(html.find("<h2>What limits throughput</h2>"), std::string::npos) << html;
}

TEST_F(Sweeps, PlotTextsAreShownAndNeverRunByGnuplot) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  // Each text would create a file if gnuplot ran or expanded it: backquotes
  // (command substitution), quotes that end the string early, a macro.
  const std::string touch = "touch " + path("pwned");
  write_tiny_sweep(path("x.yaml"), "x86-gen3",
                   "plots:\n"
                   "  - name: p\n"
                   "    x: traffic.frame_bytes\n"
                   "    y: rx.gbps\n"
                   "    ylabel: \"`" + touch + "1`\"\n"
                   "    title: \"'''; system '" + touch + "2'; print '\"\n"
                   "    xlabel: \"\\\"; system \\\"" + touch + "3\\\"; x=\\\"@m \\\\ $1\"\n");
  auto s = run({"sweep", path("x.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  auto p = run({"plot", path("out"), "-q"});
  ASSERT_EQ(p.status, 0) << NICSIM_SHOW(p);
  for (const char *n : {"pwned1", "pwned2", "pwned3"}) EXPECT_FALSE(exists(path(n))) << n;
  // The script holds each text with ` @ ' " \ $ as octal escapes; the plot shows it as written.
  std::string gp = slurp(path("out/plots/p.gp")), svg = slurp(path("out/plots/p.svg"));
  EXPECT_NE(gp.find("set ylabel \"\\140" + touch + "1\\140\"\n"), std::string::npos) << gp;
  EXPECT_NE(gp.find("set title \"\\047\\047\\047; system \\047" + touch +
                    "2\\047; print \\047\"\n"),
            std::string::npos)
      << gp;
  EXPECT_NE(gp.find("set xlabel \"\\042; system \\042" + touch +
                    "3\\042; x=\\042\\100m \\134 \\044\\061\"\n"),
            std::string::npos)
      << gp;
  EXPECT_NE(svg.find("`" + touch + "1`"), std::string::npos) << svg;
  EXPECT_NE(svg.find("'''; system '" + touch + "2'; print '"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("\"; system \"" + touch + "3\"; x=\"@m \\ $1"),
            std::string::npos)
      << svg;
}

TEST_F(Sweeps, ASweepJsonPlotThatIsNoFileNameIsRefused) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  write_tiny_sweep(path("x.yaml"), "x86-gen3",
                   "plots: [{name: p, x: traffic.frame_bytes, y: rx.gbps}]\n");
  auto s = run({"sweep", path("x.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  std::string manifest = slurp(path("out/sweep.json"));
  size_t at = manifest.find("\"name\": \"p\"");
  ASSERT_NE(at, std::string::npos) << manifest;
  for (const char *bad : {"../../p", ""}) {
    std::string m = manifest;
    m.replace(at, 11, std::string("\"name\": \"") + bad + "\"");
    std::ofstream(path("out/sweep.json")) << m;
    auto p = run({"plot", path("out")});
    EXPECT_EQ(p.status, 2) << bad << NICSIM_SHOW(p);
    EXPECT_NE(p.err.find("sweep.json: plot 1 has"), std::string::npos) << p.err;
    EXPECT_FALSE(exists(path("out/plots"))) << bad;
    EXPECT_FALSE(exists(path("p.gp"))) << bad;
  }
}

TEST_F(Sweeps, DefaultPlotsLeaveOutMetricsABusPlatformDoesNotReport) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  // No plots: declared: the defaults. A bus run reports no pcie.* metrics.
  for (const char *platform : {"a3700-mvneta", "jh7100-stmmac"}) {
    std::string dir = path(platform);
    write_tiny_sweep(path("bus.yaml"), platform, "");
    auto s = run({"sweep", path("bus.yaml"), "-o", dir, "-q"});
    ASSERT_EQ(s.status, 0) << platform << NICSIM_SHOW(s);
    auto r = run({"report", dir, "-q"});
    ASSERT_EQ(r.status, 0) << platform << NICSIM_SHOW(r);
    EXPECT_TRUE(exists(dir + "/report.md")) << platform;
    EXPECT_TRUE(exists(dir + "/plots/throughput.svg")) << platform;
    EXPECT_TRUE(exists(dir + "/plots/cpu_util.svg")) << platform;
    EXPECT_FALSE(exists(dir + "/plots/pcie_up_util.svg")) << platform;
    EXPECT_FALSE(exists(dir + "/plots/pcie_up_util.gp")) << platform;
  }
}

TEST_F(Sweeps, ReportChecksTheBaselineBeforeRenderingAnything) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  write_tiny_sweep(path("x.yaml"), "x86-gen3", "");
  auto s = run({"sweep", path("x.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  auto u = run({"report", path("out"), "--baseline", "nope"});
  EXPECT_EQ(u.status, 2) << NICSIM_SHOW(u);
  EXPECT_NE(u.err.find("no point labelled 'nope'"), std::string::npos) << u.err;
  EXPECT_EQ(u.err.find("nicsim: plot"), std::string::npos) << u.err;
  EXPECT_FALSE(exists(path("out/plots")));
  EXPECT_FALSE(exists(path("out/report.md")));
}

TEST_F(Sweeps, QuietHidesGnuplotsOutputUnlessItFails) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  // rx.drops is 0 at every point: gnuplot warns "empty y range".
  write_tiny_sweep(path("x.yaml"), "x86-gen3",
                   "plots: [{name: drops, x: traffic.frame_bytes, y: rx.drops}]\n");
  auto s = run({"sweep", path("x.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  auto loud = run({"plot", path("out")});
  ASSERT_EQ(loud.status, 0) << NICSIM_SHOW(loud);
  EXPECT_NE(loud.err.find("empty y range"), std::string::npos) << loud.err;
  for (const char *cmd : {"plot", "report"}) {
    auto q = run({cmd, path("out"), "-q"});
    ASSERT_EQ(q.status, 0) << cmd << NICSIM_SHOW(q);
    EXPECT_EQ(nicsim_cli_test::without_sanitizer_noise(q.err), "") << cmd;
  }
  // Zeros on a log scale: gnuplot fails, and -q shows what it said.
  std::string m = slurp(path("out/sweep.json"));
  size_t at = m.find("\"logy\": false");
  ASSERT_NE(at, std::string::npos) << m;
  m.replace(at, 13, "\"logy\": true");
  std::ofstream(path("out/sweep.json")) << m;
  auto f = run({"plot", path("out"), "-q"});
  EXPECT_EQ(f.status, 1) << NICSIM_SHOW(f);
  EXPECT_NE(f.err.find("drops.gp\" line"), std::string::npos) << f.err;
  EXPECT_NE(f.err.find("gnuplot failed on"), std::string::npos) << f.err;
  // A metric no point has: refused before gnuplot, saying so (exit 2).
  at = m.find("\"rx.drops\"");
  ASSERT_NE(at, std::string::npos) << m;
  m.replace(at, 10, "\"bus.data.bursts\"");
  std::ofstream(path("out/sweep.json")) << m;
  f = run({"plot", path("out"), "-q"});
  EXPECT_EQ(f.status, 2) << NICSIM_SHOW(f);
  EXPECT_NE(f.err.find("plot 'drops': no point of "), std::string::npos) << f.err;
  EXPECT_NE(f.err.find("has a value of bus.data.bursts: nothing to draw"), std::string::npos) << f.err;
  EXPECT_EQ(f.err.find("gnuplot"), std::string::npos) << f.err;
}

// Plots for a review: Okabe-Ito colours with a shape and dash per line,
// fractions in per cent as the tables show them, and with repeats error
// bars from the least to the greatest repeat.
TEST_F(Sweeps, PlotsUseAColourBlindPalettePerCentAndErrorBars) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  std::ofstream(path("x.yaml")) << "name: tiny\nplatform: x86-gen3\nrun: {duration_us: 60, warmup_us: 10}\n"
                                   "sweep: {axes: {traffic.frame_bytes: [256, 1518]}, repeats: 2}\n"
                                   "plots: [{name: cpu, x: traffic.frame_bytes, y: cpu.util}]\n";
  auto s = run({"sweep", path("x.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  auto p = run({"plot", path("out"), "-q"});
  ASSERT_EQ(p.status, 0) << NICSIM_SHOW(p);
  const std::string gp = slurp(path("out/plots/cpu.gp"));
  EXPECT_NE(gp.find("set linetype 1 lc rgb \"#0072B2\" lw 2 pt 7"), std::string::npos) << gp;
  EXPECT_EQ(gp.find("#F0E442"), std::string::npos) << "no yellow on white";
  EXPECT_NE(gp.find("set ylabel \"cpu.util (%)\""), std::string::npos) << gp;
  EXPECT_NE(gp.find("with yerrorlines"), std::string::npos) << gp;
  // The .dat holds per cent: cpu.util of the first point times 100.
  json_t *pt = nullptr;
  for (const std::string &f : list_dir(path("out/points")))
    if (f.rfind("0-", 0) == 0) pt = json_load_file(path("out/points/" + f).c_str(), 0, nullptr);
  ASSERT_NE(pt, nullptr);
  const double util = json_number_value(json_object_get(json_object_get(pt, "metrics"), "cpu.util"));
  json_decref(pt);
  ASSERT_GT(util, 0);
  std::vector<std::string> dat = lines_of(slurp(path("out/plots/cpu.dat")));
  ASSERT_GE(dat.size(), 2u);
  const double mean = std::stod(dat[1].substr(dat[1].find('\t') + 1));
  EXPECT_NEAR(mean, 100 * util, 1e-9 * 100 * util) << "per cent, not a fraction: " << dat[1];
}

// A plot's data file, as nicsim plot writes it: per panel (block), its
// title, then per row (x) each column's mean, least and greatest value.
struct DatPanel {
  std::string title;                                       // "" for a lone panel
  std::vector<std::string> cols;                           // mean columns' headers
  std::map<std::string, std::vector<double>> rows;         // x -> means, mins, maxes
};
std::vector<DatPanel> read_dat(const std::string &file) {
  std::vector<DatPanel> out;
  std::string text = slurp(file);
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find("\n\n\n", at);
    std::string block = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    at = end == std::string::npos ? text.size() : end + 3;
    DatPanel p;
    for (const std::string &l : lines_of(block)) {
      if (l.rfind("# panel ", 0) == 0) {
        p.title = l.substr(l.find(": ") + 2);
      } else if (l.rfind("# ", 0) == 0) {
        std::vector<std::string> f;
        std::stringstream ss(l);
        std::string c;
        while (std::getline(ss, c, '\t')) f.push_back(c);
        p.cols.assign(f.begin() + 1, f.begin() + 1 + (f.size() - 1) / 3);
      } else if (!l.empty()) {
        std::stringstream ss(l);
        std::string x, c;
        std::getline(ss, x, '\t');
        std::vector<double> v;
        while (std::getline(ss, c, '\t')) v.push_back(c == "NaN" ? NAN : std::stod(c));
        p.rows[x] = v;
      }
    }
    out.push_back(p);
  }
  return out;
}

// A point file's resolved config value (section.key) and metric.
struct PointFile {
  json_t *j = nullptr;
  explicit PointFile(const std::string &file) : j(json_load_file(file.c_str(), 0, nullptr)) {}
  ~PointFile() { json_decref(j); }
  json_t *key(const char *section, const char *k) const {
    return json_object_get(json_object_get(json_object_get(j, "config"), section), k);
  }
  double metric(const char *name) const {
    return json_number_value(json_object_get(json_object_get(j, "metrics"), name));
  }
};

size_t count_of(const std::string &s, const std::string &what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) n++;
  return n;
}

// A third swept key (the line rate, which moves rx.gbps) is drawn as one
// panel per value, never averaged: every cell of the .dat is one point's own
// value, its least and greatest the same; each panel's reference line is
// its points' configured line rate. Declared panels make the leftover key
// lines.
TEST_F(Sweeps, AThirdSweptKeyBecomesPanelsWithTheirOwnLineRate) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  std::ofstream(path("x.yaml"))
      << "name: third\nplatform: x86-gen3\nrun: {duration_us: 60, warmup_us: 10}\n"
         "sweep: {axes: {traffic.frame_bytes: [256, 1518], nic.desc_spacing: [16, 64],\n"
         "               nic.line_rate_gbps: [10, 25]}}\n"
         "plots:\n"
         "  - {name: rate, x: traffic.frame_bytes, series: nic.desc_spacing, y: rx.gbps}\n"
         "  - {name: byrate, x: traffic.frame_bytes, y: rx.gbps, panels: nic.line_rate_gbps}\n"
         "  - {name: cpu, x: traffic.frame_bytes, series: nic.desc_spacing, y: cpu.util}\n";
  auto s = run({"sweep", path("x.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  auto p = run({"plot", path("out"), "-q"});
  ASSERT_EQ(p.status, 0) << NICSIM_SHOW(p);
  expect_png_and_svg(path("out/plots/rate"));
  const std::string gp = slurp(path("out/plots/rate.gp"));
  EXPECT_EQ(count_of(gp, "set multiplot layout 1,2 title \"rx.gbps vs traffic.frame_bytes\""), 2u) << gp;
  EXPECT_EQ(count_of(gp, "set title \"nic.line_rate_gbps="), 4u) << gp;  // 2 panels, PNG and SVG
  EXPECT_NE(gp.find("\"rate.dat\" index 1 using 1:"), std::string::npos) << gp;
  EXPECT_EQ(gp.find("yerrorlines"), std::string::npos) << "no repeats, no error bars\n" << gp;
  EXPECT_NE(gp.find("set yrange ["), std::string::npos) << "panels share a y range\n" << gp;
  std::vector<DatPanel> dat = read_dat(path("out/plots/rate.dat"));
  ASSERT_EQ(dat.size(), 2u);
  size_t checked = 0;
  std::set<std::string> rates;
  for (const std::string &f : list_dir(path("out/points"))) {
    PointFile pt(path("out/points/" + f));
    ASSERT_NE(pt.j, nullptr) << f;
    const double rate = json_number_value(pt.key("nic", "line_rate_gbps"));
    char title[64], col[64];
    snprintf(title, sizeof title, "nic.line_rate_gbps=%g", rate);
    snprintf(col, sizeof col, "nic.desc_spacing=%lld rx.gbps",
             (long long)json_integer_value(pt.key("nic", "desc_spacing")));
    const std::string x = std::to_string(json_integer_value(pt.key("traffic", "frame_bytes")));
    rates.insert(title);
    for (const DatPanel &d : dat) {
      if (d.title != title) continue;
      size_t c = std::find(d.cols.begin(), d.cols.end(), col) - d.cols.begin();
      ASSERT_LT(c, d.cols.size()) << col;
      ASSERT_EQ(d.rows.count(x), 1u) << x;
      const std::vector<double> &v = d.rows.at(x);
      ASSERT_EQ(v.size(), 3 * d.cols.size());
      const double own = pt.metric("rx.gbps");
      EXPECT_NEAR(v[c], own, 1e-9 * own) << f << ": the point's own value, not an average";
      EXPECT_EQ(v[c + d.cols.size()], v[c + 2 * d.cols.size()]) << f << ": one point per cell";
      checked++;
    }
  }
  EXPECT_EQ(checked, 8u);
  EXPECT_EQ(rates.size(), 2u);
  // The two line rates' panels differ: averaging would have hidden this.
  EXPECT_GT(dat[1].rows.at("1518")[0], 1.5 * dat[0].rows.at("1518")[0]);
  // Each panel its own reference line, from its points' configuration.
  const size_t p10 = gp.find("set title \"nic.line_rate_gbps=10\""), p25 = gp.find("set title \"nic.line_rate_gbps=25\"");
  ASSERT_NE(p10, std::string::npos);
  ASSERT_NE(p25, std::string::npos);
  EXPECT_NE(gp.find("10 with lines lc rgb \"#777777\" lw 1.5 dt 2 title \"line rate 10 Gbit/s\"", p10), std::string::npos) << gp;
  EXPECT_NE(gp.find("25 with lines lc rgb \"#777777\" lw 1.5 dt 2 title \"line rate 25 Gbit/s\"", p25), std::string::npos) << gp;
  EXPECT_LT(gp.find("line rate 10 Gbit/s", p10), p25) << gp;
  // Declared panels: the spacing (varying, not in panels) becomes lines.
  const std::string by = slurp(path("out/plots/byrate.gp"));
  EXPECT_EQ(count_of(by, "set multiplot layout 1,2"), 2u) << by;
  EXPECT_NE(by.find("title \"nic.desc_spacing=64\""), std::string::npos) << by;
  // A utilisation plot: a 100 % line, and values in per cent.
  const std::string cpu = slurp(path("out/plots/cpu.gp"));
  EXPECT_NE(cpu.find("100 with lines lc rgb \"#777777\" lw 1.5 dt 2 title \"100 %\""), std::string::npos) << cpu;
  EXPECT_EQ(cpu.find("line rate"), std::string::npos) << cpu;
}

// Repeats (points apart from run.seed) are still averaged, with error bars
// from the least to the greatest; the line-rate line follows --set.
TEST_F(Sweeps, RepeatsAreAveragedAndTheLineRateLineFollowsTheConfig) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  std::ofstream(path("x.yaml")) << "name: rep\nplatform: x86-gen3\nrun: {duration_us: 60, warmup_us: 10}\n"
                                   "traffic: {frame_dist: imix}\n"
                                   "sweep: {axes: {traffic.frame_bytes: [256, 1518]}, repeats: 2}\n"
                                   "plots: [{name: rate, x: traffic.frame_bytes, y: rx.gbps}]\n";
  for (const char *rate : {"10", "40"}) {
    const std::string out = path(std::string("out") + rate);
    auto s = run({"sweep", path("x.yaml"), "-o", out, "-q", "--set",
                  std::string("nic.line_rate_gbps=") + rate});
    ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
    auto p = run({"plot", out, "-q"});
    ASSERT_EQ(p.status, 0) << NICSIM_SHOW(p);
    const std::string gp = slurp(out + "/plots/rate.gp");
    EXPECT_EQ(gp.find("multiplot"), std::string::npos) << "repeats are no panels\n" << gp;
    EXPECT_NE(gp.find("with yerrorlines"), std::string::npos) << gp;
    EXPECT_NE(gp.find(std::string(rate) + " with lines lc rgb \"#777777\" lw 1.5 dt 2 title \"line rate " +
                      rate + " Gbit/s\""),
              std::string::npos)
        << gp;
    EXPECT_EQ(count_of(gp, "line rate "), 2u) << gp;  // once per terminal, no other rate
    // Each row: the mean of the two seeds, and their least and greatest.
    std::map<std::string, std::vector<double>> seen;
    for (const std::string &f : list_dir(out + "/points")) {
      PointFile pt(out + "/points/" + f);
      ASSERT_NE(pt.j, nullptr) << f;
      seen[std::to_string(json_integer_value(pt.key("traffic", "frame_bytes")))].push_back(
          pt.metric("rx.gbps"));
    }
    std::vector<DatPanel> dat = read_dat(out + "/plots/rate.dat");
    ASSERT_EQ(dat.size(), 1u);
    ASSERT_EQ(seen.size(), 2u);
    for (auto &kv : seen) {
      ASSERT_EQ(kv.second.size(), 2u);
      const std::vector<double> &v = dat[0].rows.at(kv.first);
      ASSERT_EQ(v.size(), 3u);
      const double a = kv.second[0], b = kv.second[1];
      EXPECT_NEAR(v[0], (a + b) / 2, 1e-9 * (a + b)) << kv.first;
      EXPECT_NEAR(v[1], std::min(a, b), 1e-9 * (a + b)) << kv.first;
      EXPECT_NEAR(v[2], std::max(a, b), 1e-9 * (a + b)) << kv.first;
    }
  }
}

// Beyond 12 panels a plot is refused (exit 2), saying what to do; declaring
// panels: KEY then draws the other key as lines.
TEST_F(Sweeps, TooManyPanelsIsRefusedWithWhatToDo) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  const std::string head = "name: many\nplatform: x86-gen3\nrun: {duration_us: 20, warmup_us: 5}\n"
                           "sweep: {axes: {traffic.frame_bytes: [1518], nic.desc_spacing: [16, 32, 64],\n"
                           "               nic.rx_ring_size: [64, 128, 256, 512, 1024]}}\n";
  std::ofstream(path("x.yaml")) << head << "plots: [{name: p, x: traffic.frame_bytes, y: rx.gbps}]\n";
  auto s = run({"sweep", path("x.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  auto p = run({"plot", path("out"), "-q"});
  EXPECT_EQ(p.status, 2) << NICSIM_SHOW(p);
  EXPECT_NE(p.err.find("plot 'p' would need 15 panels, one per combination of nic.desc_spacing, "
                       "nic.rx_ring_size"),
            std::string::npos)
      << p.err;
  EXPECT_NE(p.err.find("'panels: KEY'"), std::string::npos) << p.err;
  EXPECT_FALSE(exists(path("out/plots/p.gp")));
  // The same points with panels declared: 3 panels of 5 lines.
  std::ofstream(path("x.yaml")) << head
                                << "plots: [{name: p, x: traffic.frame_bytes, y: rx.gbps, panels: nic.desc_spacing}]\n";
  s = run({"sweep", path("x.yaml"), "-o", path("out"), "-q", "--resume"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  p = run({"plot", path("out"), "-q"});
  ASSERT_EQ(p.status, 0) << NICSIM_SHOW(p);
  const std::string gp = slurp(path("out/plots/p.gp"));
  EXPECT_EQ(count_of(gp, "set multiplot layout 2,2"), 2u) << gp;
  EXPECT_EQ(count_of(gp, "set title \"nic.desc_spacing="), 6u) << gp;
  EXPECT_EQ(count_of(gp, "title \"nic.rx_ring_size="), 30u) << gp;  // 5 lines x 3 panels x 2
}

// A sweep without declared plots whose other keys would make too many panels
// still gets its default plots: panels by the first varying keys whose value
// combinations fit in 12, the other keys as lines; nothing is averaged.
TEST_F(Sweeps, DefaultPlotsOfManyKeysChoosePanelsThatFit) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  // x traffic.frame_bytes, series nic.desc_spacing; the other two keys make
  // 5 x 3 = 15 combinations, more than 12 panels: nic.rx_ring_size (5) makes
  // the panels and nic.tx_ring_size the lines with the series.
  std::ofstream(path("y.yaml")) << "name: many\nplatform: x86-gen3\nrun: {duration_us: 20, warmup_us: 5}\n"
                                   "sweep: {axes: {traffic.frame_bytes: [1518], nic.desc_spacing: [16, 32],\n"
                                   "               nic.rx_ring_size: [64, 128, 256, 512, 1024],\n"
                                   "               nic.tx_ring_size: [64, 128, 256]}}\n";
  auto s = run({"sweep", path("y.yaml"), "-o", path("out2"), "-q"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  auto p = run({"plot", path("out2"), "-q"});
  ASSERT_EQ(p.status, 0) << NICSIM_SHOW(p);
  EXPECT_EQ(read_dat(path("out2/plots/throughput.dat")).size(), 5u);
  const std::string gp2 = slurp(path("out2/plots/throughput.gp"));
  EXPECT_EQ(count_of(gp2, "set title \"nic.rx_ring_size="), 10u) << gp2;  // 5 panels x 2 terminals
  EXPECT_GT(count_of(gp2, "nic.desc_spacing=16, nic.tx_ring_size=64"), 0u) << "the key beyond the panels is a line\n"
                                                                          << gp2;
}

// A bad panels key is a config error at its own line and column (exit 2).
TEST_F(Sweeps, ABadPanelsKeyIsAConfigErrorAtItsPlace) {
  const std::string head = "name: bad\nplatform: x86-gen3\n"
                           "sweep: {axes: {traffic.frame_bytes: [256, 1518], nic.desc_spacing: [16, 64]}}\n"
                           "plots:\n";
  struct Case {
    const char *line, *key, *msg;
  } cases[] = {
      {"  - {name: p, x: traffic.frame_bytes, y: rx.gbps, panels: nic.rx_ring_size}", "nic.rx_ring_size",
       "plot 'p': panels key 'nic.rx_ring_size' is not a swept key"},
      {"  - {name: p, x: traffic.frame_bytes, y: rx.gbps, panels: [nic.desc_spacing, traffic.frame_bytes]}",
       "traffic.frame_bytes]", "plot 'p': panels key 'traffic.frame_bytes' is already x"},
      {"  - {name: p, x: traffic.frame_bytes, y: rx.gbps, panels: {a: b}}", "{a: b}",
       "plot panels must be a swept key or a list"},
  };
  for (const Case &c : cases) {
    std::ofstream(path("p.yaml")) << head << c.line << "\n";
    auto r = run({"validate", path("p.yaml")});
    EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
    const size_t col = std::string(c.line).find(c.key) + 1;
    EXPECT_NE(r.err.find(path("p.yaml") + ":5:" + std::to_string(col) + ": error: " + c.msg), std::string::npos)
        << c.line << "\n" << r.err;
  }
}

TEST_F(Sweeps, ReportListsThePlotsInTheirDeclaredOrder) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  write_tiny_sweep(path("x.yaml"), "x86-gen3",
                   "plots:\n"
                   "  - {name: zeta, x: traffic.frame_bytes, y: rx.gbps}\n"
                   "  - {name: alpha, x: traffic.frame_bytes, y: cpu.util}\n"
                   "  - {name: mid, x: traffic.frame_bytes, y: irq.per_sec}\n");
  auto s = run({"sweep", path("x.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  auto r = run({"report", path("out"), "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  std::string md = slurp(path("out/report.md"));
  size_t z = md.find("![zeta]"), a = md.find("![alpha]"), mid = md.find("![mid]");
  ASSERT_NE(mid, std::string::npos) << md;
  EXPECT_LT(z, a) << md;
  EXPECT_LT(a, mid) << md;
  // --no-plots: the same order, then SVGs nicsim did not draw, alphabetically.
  std::ofstream(path("out/plots/extra-b.svg")) << "<svg/>";
  std::ofstream(path("out/plots/extra-a.svg")) << "<svg/>";
  auto n = run({"report", path("out"), "-q", "--no-plots"});
  ASSERT_EQ(n.status, 0) << NICSIM_SHOW(n);
  md = slurp(path("out/report.md"));
  std::vector<size_t> at;
  for (const char *name : {"![zeta]", "![alpha]", "![mid]", "![extra-a]", "![extra-b]"})
    at.push_back(md.find(name));
  for (size_t i = 0; i + 1 < at.size(); i++) EXPECT_LT(at[i], at[i + 1]) << i << "\n" << md;
  EXPECT_NE(at.back(), std::string::npos) << md;
}

TEST_F(Sweeps, DemoRunsTheBuiltInSweepIntoAReport) {
  if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian: gnuplot-nox)";
  auto r = run({"demo", "-o", path("demo"), "-j2"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.out.find("Report: " + path("demo") + "/report.html"), std::string::npos) << r.out;
  EXPECT_EQ(lines_of(slurp(path("demo/results.csv"))).size(), 10u);
  expect_png_and_svg(path("demo/plots/rx_throughput"));
  EXPECT_NE(slurp(path("demo/report.md")).find("# Sweep report: demo-sweep"), std::string::npos);
  // Again: every point is already there.
  auto again = run({"demo", "-o", path("demo"), "-j2"});
  ASSERT_EQ(again.status, 0) << NICSIM_SHOW(again);
  EXPECT_NE(again.err.find("9 already done"), std::string::npos) << again.err;
}

// Every file of a directory tree (relative name -> contents).
std::map<std::string, std::string> tree(const std::string &dir) {
  std::map<std::string, std::string> out;
  for (const std::string &f : list_dir(dir)) {
    struct stat st;
    std::string p = dir + "/" + f;
    if (stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      for (auto &kv : tree(p)) out[f + "/" + kv.first] = kv.second;
    } else {
      out[f] = slurp(p);
    }
  }
  return out;
}

TEST_F(Sweeps, MergeIntoAnotherSweepsDirectoryIsRefusedAndLeavesItUntouched) {
  auto a = run({"sweep", data("sweep.yaml"), "-o", path("a"), "-q"});
  ASSERT_EQ(a.status, 0) << NICSIM_SHOW(a);
  auto o = run({"sweep", data("sweep.yaml"), "-o", path("other"), "-q", "--set", "run.seed=5"});
  ASSERT_EQ(o.status, 0) << NICSIM_SHOW(o);
  auto before = tree(path("other"));
  auto m = run({"merge", path("a"), "-o", path("other")});
  EXPECT_EQ(m.status, 2) << NICSIM_SHOW(m);
  EXPECT_NE(m.err.find(path("other") + " holds the results of another sweep (scenario 'cli-sweep'"),
            std::string::npos)
      << m.err;
  EXPECT_EQ(tree(path("other")), before) << "the other sweep's files were changed";
  auto r = run({"sweep", data("sweep.yaml"), "-o", path("other"), "-q", "--set", "run.seed=5",
                "--resume"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  // Results without a manifest are another sweep's too.
  ASSERT_EQ(mkdir(path("plain").c_str(), 0700), 0);
  std::ofstream(path("plain/results.csv")) << "x\n";
  auto p = run({"merge", path("a"), "-o", path("plain")});
  EXPECT_EQ(p.status, 2) << NICSIM_SHOW(p);
  EXPECT_NE(p.err.find("holds results without a sweep.json"), std::string::npos) << p.err;
  EXPECT_EQ(list_dir(path("plain")), std::set<std::string>{"results.csv"});
}

TEST_F(Sweeps, MergeChecksEveryInputPointBeforeWritingAnything) {
  for (const char *k : {"1", "2"}) {
    auto s = run({"sweep", data("sweep.yaml"), "--shard", std::string(k) + "/2", "-o",
                  path(std::string("s") + k), "-q"});
    ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  }
  auto m = run({"merge", path("s1"), path("s2"), "-o", path("all"), "-q"});
  ASSERT_EQ(m.status, 0) << NICSIM_SHOW(m);
  auto good = tree(path("all"));
  const std::string p1 = path("s2/points/1-before_nic.desc_spacing_32.json");
  const std::string p3 = path("s2/points/3-after_nic.desc_spacing_32.json");
  const std::string saved1 = slurp(p1), saved3 = slurp(p3);

  // An empty point file: named with line:col (1-based), OUT untouched.
  std::ofstream(p1, std::ios::trunc).close();
  auto e = run({"merge", path("s1"), path("s2"), "-o", path("all")});
  EXPECT_EQ(e.status, 2) << NICSIM_SHOW(e);
  EXPECT_NE(e.err.find("nicsim merge: " + p1 + ":1:1: "), std::string::npos) << e.err;
  EXPECT_EQ(e.err.find(path("all/points")), std::string::npos) << e.err;
  EXPECT_EQ(tree(path("all")), good);

  // A metric that is not a number: the file is named.
  json_t *doc = json_loads(saved1.c_str(), 0, nullptr);
  ASSERT_TRUE(doc);
  json_object_set_new(json_object_get(doc, "metrics"), "rx.gbps", json_string("fast"));
  ASSERT_EQ(json_dump_file(doc, p1.c_str(), JSON_INDENT(2)), 0);
  json_decref(doc);
  auto n = run({"merge", path("s1"), path("s2"), "-o", path("all")});
  EXPECT_EQ(n.status, 2) << NICSIM_SHOW(n);
  EXPECT_NE(n.err.find(p1 + ": metric rx.gbps is not a number"), std::string::npos) << n.err;
  EXPECT_EQ(tree(path("all")), good);

  // Another point's results under this point's name.
  std::ofstream(p1, std::ios::trunc) << saved1;
  std::ofstream(p3, std::ios::trunc) << saved1;
  auto l = run({"merge", path("s1"), path("s2"), "-o", path("all")});
  EXPECT_EQ(l.status, 2) << NICSIM_SHOW(l);
  EXPECT_NE(l.err.find(p3 + " holds point 'before/nic.desc_spacing=32', not "
                            "'after/nic.desc_spacing=32'"),
            std::string::npos)
      << l.err;
  EXPECT_EQ(tree(path("all")), good);
  auto rep = run({"report", path("s2"), "--no-plots", "-q"});
  EXPECT_EQ(rep.status, 2) << NICSIM_SHOW(rep);
  EXPECT_NE(rep.err.find(p3 + " holds point"), std::string::npos) << rep.err;
}

TEST_F(Sweeps, ACorruptManifestIsNamedWithItsParseError) {
  auto a = run({"sweep", data("sweep.yaml"), "-o", path("out"), "-q"});
  ASSERT_EQ(a.status, 0) << NICSIM_SHOW(a);
  const std::string man = path("out/sweep.json"), saved = slurp(man);
  std::ofstream(man, std::ios::trunc).close();
  auto r = run({"sweep", data("sweep.yaml"), "-o", path("out"), "--resume"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("nicsim sweep: " + man + ":1:1: "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("without a sweep.json"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(man), "") << "left for the user to look at";
  for (auto c : {run({"report", path("out"), "--no-plots"}), run({"merge", path("out")})}) {
    EXPECT_EQ(c.status, 2) << NICSIM_SHOW(c);
    EXPECT_NE(c.err.find(man + ":1:1: "), std::string::npos) << c.err;
  }
  std::ofstream(man, std::ios::trunc) << saved.substr(0, 40);
  auto t = run({"sweep", data("sweep.yaml"), "-o", path("out"), "--resume"});
  EXPECT_EQ(t.status, 2) << NICSIM_SHOW(t);
  EXPECT_NE(t.err.find(man + ":"), std::string::npos) << t.err;
  // A "points" count that does not match the labels.
  json_t *doc = json_loads(saved.c_str(), 0, nullptr);
  ASSERT_TRUE(doc);
  json_object_set_new(doc, "points", json_integer(-1));
  ASSERT_EQ(json_dump_file(doc, man.c_str(), JSON_INDENT(2)), 0);
  json_decref(doc);
  auto p = run({"report", path("out"), "--no-plots", "-q"});
  EXPECT_EQ(p.status, 2) << NICSIM_SHOW(p);
  EXPECT_NE(p.err.find(man + ": \"points\" must be the number of labels (4)"), std::string::npos)
      << p.err;
  // --force replaces what it cannot read.
  std::ofstream(man, std::ios::trunc).close();
  auto f = run({"sweep", data("sweep.yaml"), "-o", path("out"), "-q", "--force"});
  EXPECT_EQ(f.status, 0) << NICSIM_SHOW(f);
}

}  // namespace

// ---- The report's Summary (issue 27): every figure checked against results.csv.

// results.csv as rows of column name -> cell (labels hold no commas here).
static std::vector<std::map<std::string, std::string>> csv_rows(const std::string &csv) {
  std::vector<std::string> lines = lines_of(csv);
  std::vector<std::map<std::string, std::string>> rows;
  if (lines.empty()) return rows;
  std::vector<std::string> head = split(lines[0]);
  for (size_t i = 1; i < lines.size(); i++) {
    std::vector<std::string> f = split(lines[i]);
    std::map<std::string, std::string> row;
    for (size_t c = 0; c < head.size() && c < f.size(); c++) row[head[c]] = f[c];
    rows.push_back(row);
  }
  return rows;
}

// The index of the point labelled label in DIR/sweep.json.
static size_t point_index(const std::string &dir, const std::string &label) {
  json_t *m = json_load_file((dir + "/sweep.json").c_str(), 0, nullptr);
  EXPECT_NE(m, nullptr);
  size_t i, n = json_array_size(json_object_get(m, "labels"));
  for (i = 0; i < n; i++)
    if (label == json_string_value(json_array_get(json_object_get(m, "labels"), i))) break;
  json_decref(m);
  EXPECT_LT(i, n) << label;
  return i;
}

static std::string fmt(const char *f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

// Frame size 64 / 1518 B at 10 GbE line rate, a label with Markdown and HTML
// metacharacters, and two points that fail at run time (a dma-bench whose
// drain is too short: CliSim.SweepGoesOnAfterFailingPointsAndExits1).
TEST_F(Sweeps, TheReportSummaryNamesBestWorstBottleneckAndFailedPoints) {
  std::ofstream(path("s.yaml")) << "name: summary\nplatform: x86-gen3\n"
                                   "run: {duration_us: 60, warmup_us: 10}\n"
                                   "sweep:\n"
                                   "  axes: {traffic.frame_bytes: [64, 1518]}\n"
                                   "  points:\n"
                                   "    - {label: \"ok<b>|*x*\", driver.napi_budget: 64}\n"
                                   "    - {label: \"dma[1]\", workload.kind: dma-bench, pcie.tags: 1,\n"
                                   "       workload.window_bytes: 2097152, run.drain_us: 0.01}\n";
  auto s = run({"sweep", path("s.yaml"), "-o", path("out"), "-q", "-j2"});
  ASSERT_EQ(s.status, 1) << NICSIM_SHOW(s);
  auto rows = csv_rows(slurp(path("out/results.csv")));
  ASSERT_EQ(rows.size(), 2u);
  // The best and worst by rx.gbps, from the CSV; the baseline is point 0.
  size_t best = 0, worst = 0;
  for (size_t i = 0; i < rows.size(); i++) {
    if (std::stod(rows[i]["rx.gbps"]) > std::stod(rows[best]["rx.gbps"])) best = i;
    if (std::stod(rows[i]["rx.gbps"]) < std::stod(rows[worst]["rx.gbps"])) worst = i;
  }
  // The mechanism: 1518 B frames fill the wire, 64 B ones load the CPU with 19x the packets.
  EXPECT_EQ(rows[best]["traffic.frame_bytes"], "1518");
  EXPECT_EQ(rows[worst]["traffic.frame_bytes"], "64");
  const double b = std::stod(rows[best]["rx.gbps"]), w = std::stod(rows[worst]["rx.gbps"]);
  ASSERT_EQ(point_index(path("out"), rows[0]["label"]), 0u);
  const double base = std::stod(rows[0]["rx.gbps"]);  // the baseline: the first point
  auto md_label = [](std::string l) {
    std::string o;
    for (char c : l) o += std::string(std::strchr("\\`*[]<>|", c) ? "\\" : "") + c;
    return o;
  };
  auto r = run({"report", path("out"), "--no-plots", "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  std::string md = slurp(path("out/report.md")), html = slurp(path("out/report.html"));
  EXPECT_EQ(md.find("# Sweep report: summary\n\n## Summary\n\n- Headline metric: rx.gbps (RX)"), 0u) << md;
  const std::string best_line =
      "- Best: " + fmt("%.3f", b) + " Gbit/s at #" +
      std::to_string(point_index(path("out"), rows[best]["label"])) + " " +
      md_label(rows[best]["label"]) + " (" + fmt("%+.1f %%", 100 * (b - base) / base) + ", " +
      fmt("%+.3f", b - base) + " Gbit/s against the baseline)\n";
  EXPECT_NE(md.find(best_line), std::string::npos) << best_line << md;
  EXPECT_NE(md.find("- Worst: " + fmt("%.3f", w) + " Gbit/s at #" +
                    std::to_string(point_index(path("out"), rows[worst]["label"])) + " " +
                    md_label(rows[worst]["label"]) + " (the baseline)\n"),
            std::string::npos)
      << md;
  // Where the bottleneck moves: the frame size decides it.
  std::string lim = rows[0]["bottleneck"] == rows[1]["bottleneck"]
                        ? rows[0]["bottleneck"] + " at every point with results"
                        : rows[0]["bottleneck"] + " at traffic.frame_bytes = 64; " +
                              rows[1]["bottleneck"] + " at traffic.frame_bytes = 1518";
  EXPECT_NE(md.find("- Bottleneck: " + lim + "\n"), std::string::npos) << lim << "\n" << md;
  // The failed points with their error records.
  EXPECT_NE(md.find("- 2 of 4 points have results; 2 without:\n"), std::string::npos) << md;
  for (size_t i : {2, 3}) {
    const std::string label = i == 2 ? "dma[1]/traffic.frame_bytes=64" : "dma[1]/traffic.frame_bytes=1518";
    std::string err = lines_of(slurp(path("out/points/" + std::to_string(i) + "-dma_1__traffic.frame_bytes_" +
                                          (i == 2 ? "64" : "1518") + ".error")))[0];
    ASSERT_EQ(err.rfind("simulation error in ", 0), 0u) << err;
    EXPECT_NE(md.find("  - #" + std::to_string(i) + " " + md_label(label) + ": " + err + "\n"),
              std::string::npos)
        << err << "\n" << md;
    EXPECT_NE(html.find("<li>#" + std::to_string(i) + " " + label + ": " + err + "</li>"),
              std::string::npos)
        << html;
  }
  // Labels and error texts are escaped: no tag, table cell or link opens.
  EXPECT_NE(html.find("ok&lt;b&gt;|*x*/traffic.frame_bytes=1518"), std::string::npos) << html;
  EXPECT_EQ(html.find("ok<b>"), std::string::npos) << html;
  EXPECT_EQ(md.find("ok<b>"), std::string::npos) << md;
  std::ofstream(path("out/points/2-dma_1__traffic.frame_bytes_64.error"))
      << "<script>alert(1)</script> | *y* [z](javascript:x)\n";
  r = run({"report", path("out"), "--no-plots", "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  md = slurp(path("out/report.md"));
  html = slurp(path("out/report.html"));
  EXPECT_NE(md.find(": \\<script\\>alert(1)\\</script\\> \\| \\*y\\* \\[z\\](javascript:x)\n"),
            std::string::npos)
      << md;
  EXPECT_NE(html.find(": &lt;script&gt;alert(1)&lt;/script&gt; | *y* [z](javascript:x)</li>"),
            std::string::npos)
      << html;
  EXPECT_EQ(html.find("<script>"), std::string::npos) << html;
}

// cpu.cores (zipped with the queue pairs, one vector per core) at 64 and
// 1518 B: the line where throughput stops scaling, computed again here from
// results.csv with the documented 5 % rule.
TEST_F(Sweeps, TheReportSummarySaysWhereThroughputStopsScaling) {
  std::ofstream(path("c.yaml")) << "name: cores\nplatform: x86-gen3\n"
                                   "traffic: {mode: rx, rate_gbps: 0, flows: 16}\n"
                                   "cpu: {locking: txq, irq_affinity: spread}\n"
                                   "nic: {rx_ring_size: 64}\n"
                                   "run: {duration_us: 300, warmup_us: 50, drain_us: 2000}\n"
                                   "sweep:\n"
                                   "  axes: {traffic.frame_bytes: [64, 1518]}\n"
                                   "  zip: {cpu.cores: [1, 2, 4, 8], nic.rx_queues: [1, 2, 4, 8],\n"
                                   "        nic.tx_queues: [1, 2, 4, 8]}\n";
  auto s = run({"sweep", path("c.yaml"), "-o", path("out"), "-q", "-j2"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  auto rows = csv_rows(slurp(path("out/results.csv")));
  ASSERT_EQ(rows.size(), 8u);
  auto r = run({"report", path("out"), "--no-plots", "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  const std::string md = slurp(path("out/report.md"));
  std::map<std::string, std::string> stops;
  for (const char *frame : {"64", "1518"}) {
    std::vector<std::pair<int, double>> v;
    for (auto &row : rows)
      if (row["traffic.frame_bytes"] == frame)
        v.push_back({std::stoi(row["cpu.cores"]), std::stod(row["rx.gbps"])});
    std::sort(v.begin(), v.end());
    ASSERT_EQ(v.size(), 4u);
    size_t k = 0;
    while (k + 1 < v.size() && 100 * (v[k + 1].second - v[k].second) / v[k].second >= 5) k++;
    std::string line = "  - throughput ";
    if (k + 1 < v.size())
      line += "stops scaling at cpu.cores = " + std::to_string(v[k].first) + " (" +
              fmt("%+.1f %%", 100 * (v[k + 1].second - v[k].second) / v[k].second) + " from " +
              std::to_string(v[k].first) + " to " + std::to_string(v[k + 1].first) + ")";
    else
      line += "keeps scaling up to cpu.cores = 8 (every step gains 5 % or more)";
    line += std::string(", with nic.rx_queues, nic.tx_queues, at traffic.frame_bytes = ") + frame + "\n";
    EXPECT_NE(md.find(line), std::string::npos) << line << md;
    stops[frame] = k + 1 < v.size() ? std::to_string(v[k].first) : "none";
    if (std::string(frame) == "64") {  // a second core takes half the polling: 64 B frames scale
      EXPECT_GE(v[1].second, 1.05 * v[0].second);
    }
  }
  // One core keeps up with 1518 B at 10 GbE: the wire limits, more cores gain nothing.
  EXPECT_EQ(stops["1518"], "1");
  EXPECT_NE(md.find("- Scaling along each numeric swept key (where a step to the next value gains less than 5 % of rx.gbps"),
            std::string::npos) << md;
}

// ---- Shards balanced by estimated cost (issue 27).

// A point's estimated cost by the formula of docs/sweeps.md ("Distributing"),
// for an RX point at 10 GbE line rate with the default 2000 us drain.
static unsigned long long doc_cost(double duration_us, int frame_bytes) {
  const unsigned long long ns = std::llround((duration_us + 2000) * 1000), mbps = 10000;
  return ns * mbps / 1000 / (8 * (frame_bytes + 20)) + 2000;
}

// One shard's dry run: its points (index -> frame size, estimated cost) and
// the total it reports on stderr.
struct ShardList {
  std::map<int, std::pair<std::string, unsigned long long>> points;
  unsigned long long total = 0, all = 0, mean = 0;
  std::string out;
};


// Frame size 64 / 256 / 1518 B x a second key, in 3 shards: each shard's
// estimated total within the greedy (LPT) bound of the mean, the largest
// point's cost (docs/sweeps.md), every point in exactly one shard, the same
// assignment on a second run; where the second key costs nothing
// (nic.irq_coal_usecs), each shard still holds every frame size.
TEST_F(Sweeps, ShardsBalanceTheEstimatedCost) {
  auto shard_list = [this](const std::string &file, const std::string &k) {
    ShardList s;
    auto r = run({"sweep", file, "-n", "--shard", k + "/3"});
    EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
    s.out = r.out;
    for (const std::string &l : lines_of(r.out)) {
      std::smatch m;
      if (std::regex_search(l, m, std::regex("^([0-9]+) +traffic.frame_bytes=([0-9]+)/.* ([0-9]+)$")))
        s.points[std::stoi(m[1])] = {m[2], std::stoull(m[3])};
    }
    std::smatch m;
    EXPECT_TRUE(std::regex_search(r.err, m, std::regex("shard " + k + "/3: estimated cost ([0-9]+) of ([0-9]+) "
                                                       "\\(mean per shard ([0-9]+);")))
        << r.err;
    if (m.size() == 4) {
      s.total = std::stoull(m[1]);
      s.all = std::stoull(m[2]);
      s.mean = std::stoull(m[3]);
    }
    return s;
  };
  for (const char *second : {"nic.irq_coal_usecs: [5, 10, 20]", "run.duration_us: [100, 400, 1600]"}) {
    SCOPED_TRACE(second);
    std::ofstream(path("b.yaml")) << "name: bal\nplatform: x86-gen3\nrun: {duration_us: 100, warmup_us: 20}\n"
                                     "sweep:\n  axes:\n    traffic.frame_bytes: [64, 256, 1518]\n    "
                                  << second << "\n";
    const bool costly = std::string(second).rfind("run.duration_us", 0) == 0;
    std::map<int, int> seen;
    unsigned long long sum = 0, largest = 0;
    std::vector<ShardList> shards;
    for (const char *k : {"1", "2", "3"}) shards.push_back(shard_list(path("b.yaml"), k));
    for (size_t k = 0; k < 3; k++) {
      const ShardList &s = shards[k];
      unsigned long long total = 0;
      std::set<std::string> frames;
      for (auto &[i, p] : s.points) {
        seen[i]++;
        // The estimate is the documented formula of the point's config.
        static const double durations[3] = {100, 400, 1600};
        const double dur = costly ? durations[i % 3] : 100;
        EXPECT_EQ(p.second, doc_cost(dur, std::stoi(p.first))) << i;
        total += p.second;
        largest = std::max(largest, p.second);
        frames.insert(p.first);
      }
      EXPECT_EQ(total, s.total) << s.out;
      sum += total;
      if (!costly) {
        EXPECT_EQ(frames, (std::set<std::string>{"64", "256", "1518"})) << s.out;
      }
      // The same assignment on a second run.
      EXPECT_EQ(shard_list(path("b.yaml"), std::to_string(k + 1)).out, s.out);
    }
    EXPECT_EQ(seen.size(), 9u);
    for (auto &[i, n] : seen) EXPECT_EQ(n, 1) << "point " << i;
    EXPECT_EQ(sum, shards[0].all);
    const double mean = sum / 3.0;
    for (const ShardList &s : shards) {
      EXPECT_LE(std::fabs(double(s.total) - mean), double(largest)) << s.out;
      if (!costly) {
        EXPECT_EQ(double(s.total), mean) << "a Latin square of equal shares";
      }
    }
  }
}
