// test_scenario.cpp: platforms, resolution order with origins, --set in resolve, sweeps (axes,
// points, both), labels, swept keys, and the built-in scenarios and platforms.
#include <cstring>
#include <string>
#include <vector>

#include "config/builtin.h"
#include "config_test_util.h"

namespace {

// Labels of all points of a loaded scenario.
std::vector<std::string> labels(const Loaded &l) {
  std::vector<std::string> v;
  for (size_t i = 0; i < nc_scenario_npoints(l.s); i++) v.push_back(nc_scenario_point_label(l.s, i));
  return v;
}

// Swept keys of a loaded scenario.
std::vector<std::string> swept(const Loaded &l) {
  std::vector<std::string> v;
  for (size_t i = 0; i < nc_scenario_nswept(l.s); i++) v.push_back(nc_scenario_swept_key(l.s, i));
  return v;
}

// Loads text and expects an error at `at` whose message contains `msg`.
void expect_error(const std::string &text, const std::string &at, const std::string &msg,
                  const std::string &hint = "", const char *name = "t.yaml") {
  Loaded l;
  load_text(l, text, name);
  ASSERT_EQ(l.rc, -1) << "accepted:\n" << text;
  EXPECT_EQ(where(l.err), at) << printed(l.err);
  EXPECT_NE(std::string(l.err.msg).find(msg), std::string::npos) << printed(l.err);
  if (!hint.empty()) {
    EXPECT_NE(std::string(l.err.hint).find(hint), std::string::npos) << printed(l.err);
  }
}

// A platform file used by several tests.
const char *const kPlatform =
    "name: test-platform\n"
    "cpu:\n"
    "  clock_mhz: 3000\n"
    "  kind: arm64\n"
    "nic:\n"
    "  desc_spacing: 32\n"
    "driver:\n"
    "  napi_budget: 32\n"
    "pcie: {lanes: 4}\n";

TEST(ConfigResolve, OrderDefaultsPlatformScenarioPointSet) {
  TempDir d;
  d.write("plat/p.yaml", kPlatform);
  std::string scen = d.write("s.yaml",
                             "platform: plat/p.yaml\n"
                             "nic:\n"
                             "  desc_spacing: 48\n"
                             "driver: {napi_budget: 16}\n"
                             "pcie: {lanes: 2}\n"
                             "sweep:\n"
                             "  points:\n"
                             "    - label: pt\n"
                             "      driver.napi_budget: 8\n"
                             "      pcie.lanes: 16\n");
  Loaded l;
  l.rc = nc_scenario_load(scen.c_str(), &l.s, &l.err);
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(resolve(l, 0, &c, &e, {"pcie.lanes=1"}), 0) << printed(e);
  const std::string plat = d.path + "/plat/p.yaml";
  // default only
  EXPECT_EQ(c.traffic.frame_bytes, 1518);
  EXPECT_EQ(origin_of(c, "traffic.frame_bytes"), "<default>:0:0");
  // platform over default
  EXPECT_EQ(c.cpu.clock_mhz, 3000.0);
  EXPECT_EQ(c.cpu.kind, NC_CPU_ARM64);
  EXPECT_EQ(origin_of(c, "cpu.clock_mhz"), plat + ":3:14");
  // scenario over platform
  EXPECT_EQ(c.nic.desc_spacing, 48);
  EXPECT_EQ(origin_of(c, "nic.desc_spacing"), scen + ":3:17");
  // point over scenario
  EXPECT_EQ(c.driver.napi_budget, 8);
  EXPECT_EQ(origin_of(c, "driver.napi_budget"), scen + ":9:27");
  // --set over point
  EXPECT_EQ(c.pcie.lanes, 1);
  EXPECT_EQ(origin_of(c, "pcie.lanes"), "<command line>:1:12");
  EXPECT_STREQ(c.platform, "plat/p.yaml");
  EXPECT_STREQ(c.label, "pt");
  EXPECT_STREQ(c.name, "s");
  // The base point ignores the sweep.
  ASSERT_EQ(resolve(l, -1, &c, &e), 0) << printed(e);
  EXPECT_EQ(c.driver.napi_budget, 16);
  EXPECT_EQ(c.pcie.lanes, 2);
  EXPECT_STREQ(c.label, "");
}

// Overlays (--overlay, nicsim calibrate's calibrated.yaml): after the sweep
// point, before --set, in the order added, errors located in the overlay.
TEST(ConfigOverlay, AppliesAfterThePointAndBeforeSet) {
  TempDir d;
  std::string scen = d.write("s.yaml", "nic: {desc_spacing: 48}\n"
                                       "sweep:\n"
                                       "  points:\n"
                                       "    - {label: pt, driver.napi_budget: 8}\n");
  std::string ov1 = d.write("o1.yaml", "name: calibrated\n"
                                       "# C: fitted\n"
                                       "driver.napi_budget: 32\n"
                                       "nic: {reg_read_ns: 700, desc_spacing: 64}\n");
  std::string ov2 = d.write("o2.yaml", "nic.reg_read_ns: 900\n");
  Loaded l;
  l.rc = nc_scenario_load(scen.c_str(), &l.s, &l.err);
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  nc_error e{};
  ASSERT_EQ(nc_scenario_add_overlay(l.s, ov1.c_str(), &e), 0) << printed(e);
  ASSERT_EQ(nc_scenario_add_overlay(l.s, ov2.c_str(), &e), 0) << printed(e);
  EXPECT_EQ(nc_scenario_noverlays(l.s), 2u);
  EXPECT_EQ(std::string(nc_scenario_overlay_file(l.s, 1)), ov2);
  EXPECT_TRUE(nc_scenario_overlay_sets(l.s, 0, nc_key_find("driver.napi_budget")));
  EXPECT_FALSE(nc_scenario_overlay_sets(l.s, 1, nc_key_find("driver.napi_budget")));
  nicsim_config c;
  ASSERT_EQ(resolve(l, 0, &c, &e, {"nic.desc_spacing=16"}), 0) << printed(e);
  EXPECT_EQ(c.driver.napi_budget, 32); // over the point
  EXPECT_EQ(origin_of(c, "driver.napi_budget"), ov1 + ":3:21");
  EXPECT_EQ(c.origin[NC_KEY_driver_napi_budget].layer, NC_LAYER_OVERLAY);
  EXPECT_EQ(c.nic.reg_read_ns, 900.0); // the later overlay wins
  EXPECT_EQ(c.nic.desc_spacing, 16);   // --set wins over the overlay
  EXPECT_STREQ(c.name, "s");           // an overlay's name names nothing
}

TEST(ConfigOverlay, ErrorsAreLocatedInTheOverlay) {
  TempDir d;
  Loaded l;
  load_text(l, "nic: {desc_spacing: 32}\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  struct Case {
    const char *text, *where, *msg, *hint;
  } cases[] = {
      {"nic.reg_read_n: 5\n", ":1:1", "unknown key 'nic.reg_read_n'", "did you mean 'nic.reg_read_ns'?"},
      {"nic: {reg_read_ns: -1}\n", ":1:20", "out of range", ""},
      {"platform: x86-gen3\n", ":1:1", "'platform' is not allowed in an overlay", "an overlay holds"},
      {"sweep: {axes: {nic.desc_spacing: [16]}}\n", ":1:1", "'sweep' is not allowed in an overlay", ""},
      {"nic.reg_read_ns: 5\nnic: {reg_read_ns: 6}\n", ":2:7", "set twice", ""},
      {"nic.reg_read_ns: [5, 6]\n", ":1:18", "takes a single value", "an overlay sets one value"},
  };
  for (const Case &c : cases) {
    std::string p = d.write("bad.yaml", c.text);
    nc_error e{};
    EXPECT_EQ(nc_scenario_add_overlay(l.s, p.c_str(), &e), -1) << c.text;
    EXPECT_EQ(where(e), p + c.where) << c.text << printed(e);
    EXPECT_NE(std::string(e.msg).find(c.msg), std::string::npos) << printed(e);
    EXPECT_NE(std::string(e.hint).find(c.hint), std::string::npos) << printed(e);
  }
  EXPECT_EQ(nc_scenario_noverlays(l.s), 0u);
  nc_error e{};
  EXPECT_EQ(nc_scenario_add_overlay(l.s, (d.path + "/missing.yaml").c_str(), &e), -1);
  EXPECT_NE(std::string(e.msg).find("cannot"), std::string::npos) << printed(e);
}

TEST(ConfigResolve, SetErrorsInResolve) {
  Loaded l;
  load_text(l, "nic: {desc_spacing: 32}\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  nicsim_config c;
  nc_error e{};
  EXPECT_EQ(resolve(l, -1, &c, &e, {"nic.desc_spacing=64", "nic.desc_spacng=16"}), -1);
  EXPECT_STREQ(e.msg, "unknown key 'nic.desc_spacng'");
  EXPECT_STREQ(e.hint, "did you mean 'nic.desc_spacing'?");
  EXPECT_EQ(resolve(l, -1, &c, &e, {"traffic.mode=both"}), -1);
  EXPECT_EQ(where(e), "<command line>:1:14");
  EXPECT_EQ(resolve(l, -1, &c, &e, {"traffic.mode"}), -1);
  EXPECT_STREQ(e.msg, "--set 'traffic.mode' has no '='");
  // The last --set of a key wins.
  ASSERT_EQ(resolve(l, -1, &c, &e, {"nic.desc_spacing=64", "nic.desc_spacing=128"}), 0);
  EXPECT_EQ(c.nic.desc_spacing, 128);
}

TEST(ConfigResolve, PointOutOfRange) {
  Loaded l;
  load_text(l, "sweep: {axes: {nic.desc_spacing: [16, 32]}}\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  nicsim_config c;
  nc_error e{};
  EXPECT_EQ(resolve(l, 2, &c, &e), -1);
  EXPECT_STREQ(e.msg, "sweep point 2 does not exist");
  EXPECT_STREQ(e.hint, "points are numbered 0 to 1");
  EXPECT_EQ(resolve(l, -2, &c, &e), -1);
  Loaded l2;
  load_text(l2, "nic: {desc_spacing: 32}\n");
  EXPECT_EQ(resolve(l2, 0, &c, &e), -1);
  EXPECT_STREQ(e.hint, "this scenario has no sweep; resolve point -1");
}

TEST(ConfigPlatform, NoPlatformMeansDefaults) {
  Loaded l;
  load_text(l, "traffic: {mode: tx}\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  nicsim_config c, def;
  nc_error e{};
  ASSERT_EQ(resolve(l, -1, &c, &e), 0) << printed(e);
  nc_config_defaults(&def);
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    const char *p = nc_keys()[i].path;
    if (std::strcmp(p, "traffic.mode") != 0) {
      EXPECT_EQ(value_of(c, p), value_of(def, p)) << p;
    }
  }
  EXPECT_EQ(c.traffic.mode, NC_MODE_TX);
}

TEST(ConfigPlatform, BuiltinByName) {
  Loaded l;
  load_text(l, "platform: x86-gen3\nnic: {desc_spacing: 64}\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(resolve(l, -1, &c, &e), 0) << printed(e);
  EXPECT_STREQ(c.platform, "x86-gen3");
  EXPECT_EQ(c.nic.desc_spacing, 64);
  // Keys the platform sets come from it, with their line in the built-in file.
  const std::string origin = origin_of(c, "cpu.kind");
  const std::string file = "<builtin>/configs/platforms/x86-gen3.yaml:";
  ASSERT_EQ(origin.compare(0, file.size(), file), 0) << origin;
  const char *text = nicsim_builtin_find("configs/platforms/x86-gen3.yaml");
  ASSERT_NE(text, nullptr);
  int line = 1;
  for (const char *p = std::strstr(text, "  kind: x86"); p > text; p--) line += p[-1] == '\n';
  EXPECT_EQ(origin, file + std::to_string(line) + ":9");
}

TEST(ConfigPlatform, UnknownBuiltinGetsSuggestion) {
  expect_error("platform: x86-gen4\n", "t.yaml:1:11", "unknown platform 'x86-gen4'",
               "did you mean 'x86-gen3'?");
  expect_error("platform: zzzzzzzzzzzzzz\n", "t.yaml:1:11", "unknown platform 'zzzzzzzzzzzzzz'",
               "built-in platforms: ");
  expect_error("platform: [a]\n", "t.yaml:1:11", "platform must be a name or a path");
}

TEST(ConfigPlatform, MissingFileIsReportedAtTheScenario) {
  TempDir d;
  std::string scen = d.write("s.yaml", "nic: {desc_spacing: 32}\nplatform: nope/p.yaml\n");
  Loaded l;
  l.rc = nc_scenario_load(scen.c_str(), &l.s, &l.err);
  ASSERT_EQ(l.rc, -1);
  EXPECT_EQ(where(l.err), scen + ":2:11");
  EXPECT_EQ(std::string(l.err.msg), "cannot read platform file '" + d.path +
                                        "/nope/p.yaml': cannot open the file: No such file or "
                                        "directory");
}

TEST(ConfigPlatform, ErrorInsidePlatformNamesItsFile) {
  TempDir d;
  d.write("p.yaml", "cpu:\n  clock_mhz: fast\n");
  std::string scen = d.write("s.yaml", "platform: p.yaml\n");
  Loaded l;
  l.rc = nc_scenario_load(scen.c_str(), &l.s, &l.err);
  ASSERT_EQ(l.rc, -1);
  EXPECT_EQ(where(l.err), d.path + "/p.yaml:2:14");
  EXPECT_NE(std::strstr(l.err.msg, "invalid value 'fast' for cpu.clock_mhz"), nullptr);
  EXPECT_EQ(std::string(l.err.hint),
            "write a decimal number such as 2.5 or 1e3 (platform named at " + scen + ":1:11)");
  // A YAML-level error in the platform gets a pointer back to the scenario.
  d.write("q.yaml", "cpu: [\n");
  scen = d.write("s2.yaml", "name: x\nplatform: q.yaml\n");
  Loaded l2;
  l2.rc = nc_scenario_load(scen.c_str(), &l2.s, &l2.err);
  ASSERT_EQ(l2.rc, -1);
  EXPECT_EQ(std::string(l2.err.where.file), d.path + "/q.yaml");
  EXPECT_NE(std::string(l2.err.hint).find("(platform named at " + scen + ":2:11)"),
            std::string::npos)
      << l2.err.hint;
  d.write("r.yaml", "");
  scen = d.write("s3.yaml", "name: x\nplatform: r.yaml\n");
  Loaded l3;
  l3.rc = nc_scenario_load(scen.c_str(), &l3.s, &l3.err);
  ASSERT_EQ(l3.rc, -1);
  EXPECT_STREQ(l3.err.msg, "the file is empty");
}

TEST(ConfigPlatform, PlatformFileHoldsOnlySections) {
  TempDir d;
  d.write("p.yaml", "name: p\nplatform: x86-gen3\n");
  d.write("q.yaml", "sweep: {axes: {nic.desc_spacing: [16]}}\n");
  d.write("r.yaml", "nics: {desc_spacing: 16}\n");
  for (const char *pf : {"p.yaml", "q.yaml", "r.yaml"}) {
    std::string scen = d.write("s.yaml", std::string("platform: ") + pf + "\n");
    Loaded l;
    l.rc = nc_scenario_load(scen.c_str(), &l.s, &l.err);
    ASSERT_EQ(l.rc, -1) << pf;
    EXPECT_EQ(std::string(l.err.where.file), d.path + "/" + pf);
    if (std::strcmp(pf, "r.yaml") == 0) {
      EXPECT_NE(std::strstr(l.err.msg, "not a nicsim platform file: unknown top-level key"), nullptr)
          << l.err.msg;
      EXPECT_EQ(std::string(l.err.hint).rfind("did you mean 'nic'? (platform named at ", 0), 0u)
          << l.err.hint;
    } else {
      EXPECT_NE(std::strstr(l.err.msg, "is not allowed in a platform file"), nullptr);
    }
  }
}

TEST(ConfigSweep, AxesOnly) {
  Loaded l;
  load_text(l,
            "sweep:\n"
            "  axes:\n"
            "    nic.desc_spacing: [16, 0x20, 64, 128]\n"
            "    traffic.mode: [rx, bidir]\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  std::vector<std::string> want;
  for (const char *sp : {"16", "32", "64", "128"})
    for (const char *m : {"rx", "bidir"})
      want.push_back(std::string("nic.desc_spacing=") + sp + "/traffic.mode=" + m);
  EXPECT_EQ(labels(l), want);
  EXPECT_EQ(swept(l), (std::vector<std::string>{"nic.desc_spacing", "traffic.mode"}));
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(resolve(l, 3, &c, &e), 0) << printed(e);
  EXPECT_EQ(c.nic.desc_spacing, 32);
  EXPECT_EQ(c.traffic.mode, NC_MODE_BIDIR);
  EXPECT_STREQ(c.label, "nic.desc_spacing=32/traffic.mode=bidir");
  EXPECT_EQ(origin_of(c, "nic.desc_spacing"), "t.yaml:3:28");
  EXPECT_EQ(origin_of(c, "traffic.mode"), "t.yaml:4:24");
  EXPECT_EQ(nc_scenario_find_point(l.s, "nic.desc_spacing=128/traffic.mode=rx"), 6);
  EXPECT_EQ(nc_scenario_find_point(l.s, "nic.desc_spacing=0x20/traffic.mode=rx"), -1);
  EXPECT_EQ(nc_scenario_point_label(l.s, 8), nullptr);
}

TEST(ConfigSweep, PointsOnly) {
  TempDir d;
  d.write("other.yaml", kPlatform);
  std::string scen = d.write("s.yaml",
                             "platform: x86-gen3\n"
                             "sweep:\n"
                             "  points:\n"
                             "    - label: before\n"
                             "      driver.napi_budget: 64\n"
                             "    - label: after\n"
                             "      platform: other.yaml\n"
                             "      driver.napi_budget: 16\n"
                             "      nic: {rx_ring_size: 256}\n");
  Loaded l;
  l.rc = nc_scenario_load(scen.c_str(), &l.s, &l.err);
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  EXPECT_EQ(labels(l), (std::vector<std::string>{"before", "after"}));
  EXPECT_EQ(swept(l),
            (std::vector<std::string>{"driver.napi_budget", "platform", "nic.rx_ring_size"}));
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(resolve(l, 0, &c, &e), 0) << printed(e);
  EXPECT_STREQ(c.platform, "x86-gen3");
  EXPECT_EQ(c.cpu.kind, NC_CPU_X86);
  EXPECT_EQ(c.nic.rx_ring_size, 512);
  ASSERT_EQ(resolve(l, 1, &c, &e), 0) << printed(e);
  EXPECT_STREQ(c.platform, "other.yaml");
  EXPECT_EQ(c.cpu.kind, NC_CPU_ARM64);
  EXPECT_EQ(c.cpu.clock_mhz, 3000.0);
  EXPECT_EQ(c.driver.napi_budget, 16);
  EXPECT_EQ(c.nic.rx_ring_size, 256);
  EXPECT_EQ(origin_of(c, "cpu.clock_mhz"), d.path + "/other.yaml:3:14");
  EXPECT_EQ(origin_of(c, "nic.rx_ring_size"), scen + ":9:27");
  EXPECT_STREQ(c.label, "after");
  EXPECT_EQ(nc_scenario_find_point(l.s, "after"), 1);
  EXPECT_EQ(nc_scenario_find_point(l.s, "nope"), -1);
}

TEST(ConfigSweep, PointsCrossedWithAxes) {
  Loaded l;
  load_text(l,
            "name: lan743x-dspace\n"
            "nic: {desc_spacing: 64}\n"
            "sweep:\n"
            "  axes:\n"
            "    nic.desc_spacing: [16, 32]\n"
            "    traffic.mode: [rx, bidir]\n"
            "  points:\n"
            "    - label: before\n"
            "      driver.napi_budget: 64\n"
            "    - label: after\n"
            "      driver.napi_budget: 16\n"
            "      memory: {coherent_dma: false}\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  EXPECT_EQ(labels(l), (std::vector<std::string>{
                           "before/nic.desc_spacing=16/traffic.mode=rx",
                           "before/nic.desc_spacing=16/traffic.mode=bidir",
                           "before/nic.desc_spacing=32/traffic.mode=rx",
                           "before/nic.desc_spacing=32/traffic.mode=bidir",
                           "after/nic.desc_spacing=16/traffic.mode=rx",
                           "after/nic.desc_spacing=16/traffic.mode=bidir",
                           "after/nic.desc_spacing=32/traffic.mode=rx",
                           "after/nic.desc_spacing=32/traffic.mode=bidir",
                       }));
  EXPECT_EQ(swept(l), (std::vector<std::string>{"nic.desc_spacing", "traffic.mode",
                                                "driver.napi_budget", "memory.coherent_dma"}));
  long i = nc_scenario_find_point(l.s, "after/nic.desc_spacing=32/traffic.mode=rx");
  ASSERT_EQ(i, 6);
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(resolve(l, i, &c, &e), 0) << printed(e);
  EXPECT_EQ(c.driver.napi_budget, 16);
  EXPECT_FALSE(c.memory.coherent_dma);
  EXPECT_EQ(c.nic.desc_spacing, 32);
  EXPECT_EQ(c.traffic.mode, NC_MODE_RX);
  EXPECT_STREQ(c.name, "lan743x-dspace");
  ASSERT_EQ(resolve(l, 1, &c, &e), 0) << printed(e);
  EXPECT_EQ(c.driver.napi_budget, 64);
  EXPECT_TRUE(c.memory.coherent_dma);
  // Every point resolves.
  for (long p = 0; p < static_cast<long>(nc_scenario_npoints(l.s)); p++)
    EXPECT_EQ(resolve(l, p, &c, &e), 0) << p << ": " << printed(e);
}

TEST(ConfigSweep, PlatformAxis) {
  TempDir d;
  d.write("p.yaml", kPlatform);
  std::string scen = d.write("s.yaml", "sweep:\n  axes:\n    platform: [x86-gen3, p.yaml]\n");
  Loaded l;
  l.rc = nc_scenario_load(scen.c_str(), &l.s, &l.err);
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  EXPECT_EQ(labels(l), (std::vector<std::string>{"platform=x86-gen3", "platform=p.yaml"}));
  EXPECT_EQ(swept(l), (std::vector<std::string>{"platform"}));
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(resolve(l, 1, &c, &e), 0) << printed(e);
  EXPECT_EQ(c.cpu.clock_mhz, 3000.0);
  EXPECT_STREQ(c.platform, "p.yaml");
}

TEST(ConfigSweep, DuplicateLabels) {
  expect_error("sweep:\n  points:\n    - label: a\n    - label: b\n    - label: a\n",
               "t.yaml:5:14", "duplicate point label 'a' (first at t.yaml:3:14)");
  expect_error("sweep:\n  axes:\n    nic.desc_spacing: [16, 32, 0x10]\n", "t.yaml:3:32",
               "duplicate value '16' in sweep axis nic.desc_spacing (first at t.yaml:3:24)");
}

TEST(ConfigSweep, BadValuesFailAtLoadWithPosition) {
  expect_error("sweep:\n  axes:\n    nic.desc_spacing: [16, 32, 99999]\n", "t.yaml:3:32",
               "nic.desc_spacing = 99999 is out of range; expected an integer in [4, 4096] (B)");
  expect_error("sweep:\n  points:\n    - label: a\n      traffic.mode: sideways\n", "t.yaml:4:21",
               "invalid value 'sideways' for traffic.mode");
  expect_error("sweep:\n  axes:\n    nic.desc_spacng: [16]\n", "t.yaml:3:5",
               "unknown key 'nic.desc_spacng'", "did you mean 'nic.desc_spacing'?");
  expect_error("sweep:\n  axes:\n    nic: [16]\n", "t.yaml:3:5",
               "sweep axis 'nic' is a section, not a key");
  expect_error("sweep:\n  axes:\n    nic.desc_spacing: 16\n", "t.yaml:3:23",
               "sweep axis nic.desc_spacing needs a non-empty list of values, but it is a single value");
  expect_error("sweep:\n  axes:\n    nic.desc_spacing: []\n", "t.yaml:3:23",
               "needs a non-empty list of values, but it is an empty list");
  expect_error("sweep:\n  axes:\n    nic.desc_spacing: [[16]]\n", "t.yaml:3:24",
               "value 1 of sweep axis nic.desc_spacing is a list");
  expect_error("sweep:\n  axes: {}\n", "t.yaml:2:9", "sweep.axes must be a non-empty mapping");
  expect_error("sweep: {}\n", "t.yaml:1:8", "sweep must be a mapping with 'axes' and/or 'points'");
  expect_error("sweep:\n  axis: {nic.desc_spacing: [16]}\n", "t.yaml:2:3",
               "unknown key 'sweep.axis'", "did you mean 'axes'?");
  expect_error("sweep:\n  points: {label: a}\n", "t.yaml:2:11",
               "sweep.points must be a non-empty list of points, but it is a mapping");
  expect_error("sweep:\n  points:\n    - nic.desc_spacing: 16\n", "t.yaml:3:7",
               "sweep point 1 has no label");
  expect_error("sweep:\n  points:\n    - label: ''\n", "t.yaml:3:14", "the point label is empty");
  expect_error("sweep:\n  points:\n    - label: a\n      name: x\n", "t.yaml:4:7",
               "'name' cannot be set in a sweep point");
  expect_error("sweep:\n  points:\n    - label: a\n      lable: x\n", "t.yaml:4:7",
               "unknown key 'lable' in a sweep point", "did you mean 'label'?");
  expect_error("sweep:\n  points:\n    - label: a\n      platform: nowhere\n", "t.yaml:4:17",
               "unknown platform 'nowhere'");
}

TEST(ConfigSweep, PointMayNotSetAnAxisKey) {
  expect_error("sweep:\n"
               "  axes:\n"
               "    nic.desc_spacing: [16, 32]\n"
               "  points:\n"
               "    - label: a\n"
               "      nic.desc_spacing: 64\n",
               "t.yaml:6:25",
               "nic.desc_spacing is set by sweep point 'a' and is also a sweep axis (at t.yaml:3:5)");
}

TEST(ConfigSweep, TooManyPoints) {
  std::string text = "sweep:\n  axes:\n";
  const char *keys[] = {"nic.rx_ring_size", "nic.tx_ring_size", "driver.napi_budget",
                        "nic.desc_fetch_max", "nic.irq_coal_frames", "nic.desc_proc_cycles"};
  for (const char *k : keys) {
    text += std::string("    ") + k + ": [";
    for (int i = 0; i < 10; i++) text += (i ? ", " : "") + std::to_string(8 + i);
    text += "]\n";
  }
  expect_error(text, "t.yaml:2:3", "the sweep has more than 100000 points");
}

TEST(ConfigSweep, LabelLengthIsLimited) {
  std::string text = "sweep:\n  points:\n    - label: " + std::string(250, 'x') +
                     "\n  axes:\n    nic.desc_spacing: [16]\n";
  expect_error(text, "t.yaml:2:3", "is longer than 255 bytes");
}

TEST(ConfigBuiltin, ErrorPositionsNameTheBuiltinFile) {
  expect_error("name: x\nnic:\n  desc_spacng: 16\n", "<builtin>/scenarios/x.yaml:3:3",
               "unknown key 'nic.desc_spacng'", "", "<builtin>/scenarios/x.yaml");
  // Relative platform paths of a built-in scenario resolve inside the table.
  Loaded l;
  load_text(l, "platform: ../../configs/platforms/x86-gen3.yaml\n",
            "<builtin>/scenarios/seeds/s.yaml");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(resolve(l, -1, &c, &e), 0) << printed(e);
  EXPECT_EQ(origin_of(c, "cpu.kind").rfind("<builtin>/configs/platforms/x86-gen3.yaml:", 0), 0u);
  expect_error("platform: ../../../etc/passwd.yaml\n", "<builtin>/scenarios/seeds/s.yaml:1:11",
               "leaves the built-in file table", "", "<builtin>/scenarios/seeds/s.yaml");
  expect_error("platform: ../configs/platforms/x86-gen3.yaml\n",
               "<builtin>/scenarios/seeds/s.yaml:1:11",
               "no built-in file 'scenarios/configs/platforms/x86-gen3.yaml'", "",
               "<builtin>/scenarios/seeds/s.yaml");
}

TEST(ConfigBuiltin, DefaultScenarioLoads) {
  ASSERT_NE(nicsim_builtin_find("scenarios/default.yaml"), nullptr)
      << "scenarios/default.yaml is missing from the built-in table";
  Loaded l;
  l.rc = nc_scenario_load(nullptr, &l.s, &l.err);
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(resolve(l, -1, &c, &e), 0) << printed(e);
  EXPECT_GT(std::strlen(c.name), 0u);
  Loaded l2;
  l2.rc = nc_scenario_load_builtin("default", &l2.s, &l2.err);
  ASSERT_EQ(l2.rc, 0) << printed(l2.err);
  Loaded l3;
  l3.rc = nc_scenario_load_builtin("no-such-scenario", &l3.s, &l3.err);
  ASSERT_EQ(l3.rc, -1);
  EXPECT_STREQ(l3.err.msg, "no built-in scenario 'no-such-scenario'");
  EXPECT_NE(std::strstr(l3.err.hint, "scenarios/default.yaml"), nullptr);
}

// Every built-in scenario loads and every point of it resolves; every
// built-in platform loads as the platform of a scenario and resolves.
TEST(ConfigBuiltin, EveryBuiltinFileLoadsAndResolves) {
  size_t nscen = 0, nplat = 0;
  for (const nicsim_builtin_file *f = nicsim_builtin_files; f->path; f++) {
    std::string path = f->path;
    Loaded l;
    if (path.rfind("scenarios/", 0) == 0) {
      l.rc = nc_scenario_load_builtin(f->path, &l.s, &l.err);
      nscen++;
    } else if (path.rfind("configs/platforms/", 0) == 0) {
      std::string name = path.substr(18, path.size() - 18 - 5);
      load_text(l, "platform: " + name + "\n");
      nplat++;
    } else {
      ADD_FAILURE() << "unexpected built-in file " << path;
      continue;
    }
    ASSERT_EQ(l.rc, 0) << path << ": " << printed(l.err);
    nicsim_config c;
    nc_error e{};
    EXPECT_EQ(resolve(l, -1, &c, &e), 0) << path << ": " << printed(e);
    for (size_t p = 0; p < nc_scenario_npoints(l.s); p++)
      EXPECT_EQ(resolve(l, static_cast<long>(p), &c, &e), 0)
          << path << " point " << nc_scenario_point_label(l.s, p) << ": " << printed(e);
  }
  EXPECT_GE(nscen, 1u);
  EXPECT_GE(nplat, 1u);
}

}  // namespace
