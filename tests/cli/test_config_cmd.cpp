// test_config_cmd.cpp: finding your way without simulating: `nicsim
// platforms` lists every built-in platform with its facts; `nicsim config`
// prints a point's resolved configuration with the origin of each value.
#include <dirent.h>

#include <string>

#include "cli_test_util.h"

using nicsim_cli_test::Cli;
using nicsim_cli_test::data;
using nicsim_cli_test::lines_of;

namespace {

// The line of text that starts with prefix ("" if none).
std::string line_starting(const std::string &text, const std::string &prefix) {
  for (const std::string &l : lines_of(text))
    if (l.rfind(prefix, 0) == 0) return l;
  return "";
}

TEST_F(Cli, PlatformsListsEveryPlatformFileWithItsFacts) {
  auto r = run({"platforms"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_EQ(r.err, "");
  DIR *d = opendir(NICSIM_PLATFORMS);
  ASSERT_NE(d, nullptr);
  size_t n = 0;
  while (dirent *e = readdir(d)) {
    std::string f = e->d_name;
    if (f.size() < 6 || f.substr(f.size() - 5) != ".yaml") continue;
    std::string name = f.substr(0, f.size() - 5);
    std::string l = line_starting(r.out, name + " ");
    EXPECT_FALSE(l.empty()) << name << " not listed:\n" << r.out;
    EXPECT_LE(l.size(), 160u) << "one line each: " << l;
    n++;
  }
  closedir(d);
  EXPECT_EQ(lines_of(r.out).size(), n + 1) << "a header and a line per platform";
  // Facts come from the resolved platform, not from its comment.
  std::string s7 = line_starting(r.out, "i40e-sparc-s7 ");
  for (const char *w : {"sparc", "40 G", "i40e", "PCIe Gen3 x8", "SPARC S7"})
    EXPECT_NE(s7.find(w), std::string::npos) << w << " in: " << s7;
  EXPECT_NE(line_starting(r.out, "jh7100-stmmac ").find("bus "), std::string::npos);
}

// The current x86 servers (issue 27) are listed with their multi-core facts:
// several cores, the Ethernet rate and the link, from the resolved platform.
TEST_F(Cli, PlatformsListsTheCurrentX86Servers) {
  auto r = run({"platforms"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  std::string g4 = line_starting(r.out, "x86-gen4-25g ");
  ASSERT_FALSE(g4.empty()) << r.out;
  for (const char *w : {"x86 x16 2400 MHz", "25 G", "generic", "PCIe Gen4 x8", "Ice Lake-SP"})
    EXPECT_NE(g4.find(w), std::string::npos) << w << " in: " << g4;
  std::string g5 = line_starting(r.out, "x86-gen5-100g ");
  ASSERT_FALSE(g5.empty()) << r.out;
  for (const char *w : {"x86 x32 2100 MHz", "100 G", "generic", "PCIe Gen5 x16", "Sapphire Rapids"})
    EXPECT_NE(g5.find(w), std::string::npos) << w << " in: " << g5;
}

TEST_F(Cli, PlatformsTakesNoArguments) {
  auto r = run({"platforms", "x86-gen3"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unexpected argument"), std::string::npos) << r.err;
}

TEST_F(Cli, ConfigSaysWhereEachValueCameFrom) {
  auto r = run({"config", data("good.yaml"), "--set", "nic.desc_spacing=64"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  std::string spacing = line_starting(r.out, "  desc_spacing ");
  EXPECT_NE(spacing.find("64"), std::string::npos) << spacing;
  EXPECT_NE(spacing.find("<command line>:1:18 (--set)"), std::string::npos) << spacing;
  std::string dur = line_starting(r.out, "  duration_us ");
  EXPECT_NE(dur.find("good.yaml:7:16 (scenario)"), std::string::npos) << dur;
  std::string kind = line_starting(r.out, "  kind ");
  EXPECT_NE(kind.find("x86-gen3.yaml:"), std::string::npos) << kind;
  EXPECT_NE(kind.find("(platform)"), std::string::npos) << kind;
  EXPECT_NE(r.out.find("\nnic:\n"), std::string::npos) << "grouped by section";
}

TEST_F(Cli, ConfigChangedLeavesOutTheDefaults) {
  auto all = run({"config", data("good.yaml")});
  auto changed = run({"config", data("good.yaml"), "--changed"});
  ASSERT_EQ(all.status, 0) << NICSIM_SHOW(all);
  ASSERT_EQ(changed.status, 0) << NICSIM_SHOW(changed);
  EXPECT_LT(lines_of(changed.out).size(), lines_of(all.out).size());
  EXPECT_EQ(changed.out.find(" default\n"), std::string::npos) << changed.out;
  EXPECT_NE(all.out.find(" default\n"), std::string::npos);
}

TEST_F(Cli, ConfigOfAPointAndItsErrors) {
  auto r = run({"config", NICSIM_SEEDS "/lan743x-dspace.yaml", "--point", "after/x64"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.out.find("point after/x64"), std::string::npos) << r.out;
  auto bad = run({"config", NICSIM_SEEDS "/lan743x-dspace.yaml", "--point", "nope"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("the points are: before/x64"), std::string::npos) << bad.err;
  auto typo = run({"config", data("typo.yaml")});
  EXPECT_EQ(typo.status, 2);
  EXPECT_NE(typo.err.find("typo.yaml:"), std::string::npos) << typo.err;
}

TEST_F(Cli, ConfigEscapesWhatItQuotes) {
  // A label with a terminal escape reaches the screen as \xNN.
  FILE *f = fopen("esc.yaml", "w");
  ASSERT_NE(f, nullptr);
  fputs("name: \"evil\\e]52;c;aGk=\\a\"\nplatform: x86-gen3\n", f);
  fclose(f);
  auto r = run({"config", "esc.yaml"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(r.out.find('\a'), std::string::npos);
  EXPECT_NE(r.out.find("evil\\x1B]52"), std::string::npos) << r.out.substr(0, 200);
}

}  // namespace
