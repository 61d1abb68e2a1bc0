// test_errors.cpp: collecting every error of a file (issue 27; struct
// nc_errors, nc_scenario_load_all, nc_scenario_resolve_all,
// nicsim_check_config_all): the loader goes on past unknown keys, wrong
// types, out-of-range values, bad enums, duplicate keys and sweep errors;
// the rules run on what was accepted and skip those that blame a refused
// value; a syntax error stays a single error; the one-error API is unchanged.
#include <cstring>
#include <string>
#include <vector>

#include "config_test_util.h"
#include "sim/sim.h"

namespace {

// An error list that frees itself.
struct Errors {
  nc_errors l{};
  Errors() = default;
  Errors(const Errors &) = delete;
  Errors &operator=(const Errors &) = delete;
  ~Errors() { nc_errors_free(&l); }
  // "line:col" of each kept error, in list order.
  std::vector<std::string> at() const {
    std::vector<std::string> v;
    for (size_t i = 0; i < l.n; i++)
      v.push_back(std::to_string(l.v[i].where.line) + ":" + std::to_string(l.v[i].where.col));
    return v;
  }
  std::string text() const {
    std::string s;
    for (size_t i = 0; i < l.n; i++) s += printed(l.v[i]);
    return s;
  }
  bool has(const char *msg_part) const {
    for (size_t i = 0; i < l.n; i++)
      if (std::strstr(l.v[i].msg, msg_part)) return true;
    return false;
  }
};

// A scenario loaded with nc_scenario_load_string_all; frees itself.
struct LoadedAll {
  nc_scenario *s = nullptr;
  int rc = 0;
  LoadedAll() = default;
  LoadedAll(const LoadedAll &) = delete;
  LoadedAll &operator=(const LoadedAll &) = delete;
  ~LoadedAll() { nc_scenario_free(s); }
};

// Loads text as t.yaml collecting errors, then (if the scenario is usable)
// checks the base point as `nicsim validate` does; returns the load's rc.
int check_all(const std::string &text, Errors &e, LoadedAll &l, nicsim_config *c) {
  l.rc = nc_scenario_load_string_all("t.yaml", text.c_str(), &l.s, &e.l);
  if (l.s) {
    nc_scenario_resolve_all(l.s, -1, nullptr, 0, c, &e.l);
    if (!e.l.no_rules) nicsim_check_config_all(c, &e.l);
  }
  nc_errors_sort(&e.l);
  return l.rc;
}

const char *const kFive =
    "name: five\n"                  // 1
    "nic:\n"                        // 2
    "  desc_spacng: 32\n"           // 3: unknown key
    "  rx_ring_size: 99999999\n"    // 4: out of range
    "traffic:\n"                    // 5
    "  mode: sideways\n"            // 6: bad enum
    "  frame_bytes: 9000\n"         // 7: a cross-layer rule (driver.rx_buf_bytes 2048)
    "run:\n"                        // 8
    "  seed: 1\n"                   // 9
    "  seed: 2\n";                  // 10: duplicate key

TEST(ConfigErrors, EveryErrorOfAFileInFileOrder) {
  Errors e;
  LoadedAll l;
  nicsim_config c;
  EXPECT_EQ(check_all(kFive, e, l, &c), -1);
  ASSERT_NE(l.s, nullptr) << "single-key errors leave the scenario usable for the rules";
  const std::vector<std::string> want = {"3:3", "4:17", "6:9", "7:16", "10:3"};
  EXPECT_EQ(e.at(), want) << e.text();
  EXPECT_EQ(nc_errors_count(&e.l), 5u) << e.text();
  for (size_t i = 0; i < e.l.n; i++) EXPECT_STREQ(e.l.v[i].where.file, "t.yaml");
  EXPECT_STREQ(e.l.v[0].msg, "unknown key 'nic.desc_spacng'");
  EXPECT_STREQ(e.l.v[0].hint, "did you mean 'nic.desc_spacing'?");
  EXPECT_TRUE(std::strstr(e.l.v[1].msg, "nic.rx_ring_size")) << e.l.v[1].msg;
  EXPECT_TRUE(std::strstr(e.l.v[2].msg, "sideways")) << e.l.v[2].msg;
  EXPECT_STREQ(e.l.v[3].msg, "traffic.frame_bytes = 9000 does not fit in driver.rx_buf_bytes = 2048");
  EXPECT_STREQ(e.l.v[4].msg, "duplicate key 'run.seed' (first defined at t.yaml:9:3)");

  // The one-error API still stops at the first: the same as the list's first
  // found (the unknown key; duplicate keys are found while parsing).
  Loaded one;
  load_text(one, kFive);
  EXPECT_EQ(one.rc, -1);
  EXPECT_EQ(one.s, nullptr);
  EXPECT_EQ(where(one.err), "t.yaml:10:3") << printed(one.err);
}

TEST(ConfigErrors, RefusedValuesTakeNoPartInTheRules) {
  // nic.line_rate_gbps is refused: the rule traffic.rate_gbps <= line rate
  // would otherwise compare with the default 10 Gbit/s, which nobody wrote.
  Errors e;
  LoadedAll l;
  nicsim_config c;
  check_all("nic: {line_rate_gbps: fast}\ntraffic: {rate_gbps: 25}\n", e, l, &c);
  ASSERT_EQ(e.l.n, 1u) << e.text();
  EXPECT_EQ(e.at()[0], "1:23");
  EXPECT_FALSE(e.has("exceeds")) << e.text();
  EXPECT_GT(e.l.skipped, 0u);
  EXPECT_EQ(c.origin[NC_KEY_nic_line_rate_gbps].layer, NC_LAYER_REFUSED);

  // With a valid line rate the same rule is reported.
  Errors e2;
  LoadedAll l2;
  check_all("nic: {line_rate_gbps: 10}\ntraffic: {rate_gbps: 25}\n", e2, l2, &c);
  EXPECT_EQ(l2.rc, 0);
  ASSERT_EQ(e2.l.n, 1u) << e2.text();
  EXPECT_TRUE(e2.has("exceeds nic.line_rate_gbps")) << e2.text();
  EXPECT_EQ(e2.l.skipped, 0u);
}

TEST(ConfigErrors, RulesOfTheModelsAreCollectedPerGroup) {
  // The run's window (src/sim) and a cross-layer rule, broken together.
  Errors e;
  LoadedAll l;
  nicsim_config c;
  EXPECT_EQ(check_all("run:\n  warmup_us: 3000\ntraffic:\n  frame_bytes: 9000\n", e, l, &c), 0);
  EXPECT_EQ(e.at(), (std::vector<std::string>{"2:14", "4:16"})) << e.text();
  EXPECT_TRUE(e.has("run.warmup_us (3000 us) must be below run.duration_us")) << e.text();
}

TEST(ConfigErrors, SyntaxErrorIsTheOnlyError) {
  Errors e;
  LoadedAll l;
  nicsim_config c;
  EXPECT_EQ(check_all("nic:\n  desc_spacng: 32\n  rx_ring_size: [1, 2\nrun: {seed: 1}\n", e, l, &c), -1);
  EXPECT_EQ(l.s, nullptr);
  ASSERT_EQ(nc_errors_count(&e.l), 1u) << e.text();
  EXPECT_TRUE(std::strstr(e.l.v[0].msg, "YAML syntax error")) << e.text();
  EXPECT_GE(e.l.v[0].where.line, 3);
  EXPECT_GE(e.l.v[0].where.col, 1);
}

TEST(ConfigErrors, ValidFileHasNoErrorAndResolvesAsBefore) {
  const char *text = "nic: {desc_spacing: 32}\nsweep:\n  axes: {nic.rx_ring_size: [256, 512]}\n";
  Errors e;
  LoadedAll l;
  nicsim_config c;
  EXPECT_EQ(check_all(text, e, l, &c), 0);
  EXPECT_EQ(nc_errors_count(&e.l), 0u) << e.text();
  Loaded one;
  load_text(one, text);
  ASSERT_EQ(one.rc, 0);
  for (long p = -1; p < 2; p++) {
    nicsim_config a, b;
    nc_error err{};
    ASSERT_EQ(nc_scenario_resolve_all(l.s, p, nullptr, 0, &a, &e.l), 0);
    ASSERT_EQ(resolve(one, p, &b, &err), 0);
    for (size_t k = 0; k < NC_KEY__COUNT; k++) {
      char va[128], vb[128];
      nc_value_format(&a, &nc_keys()[k], va, sizeof va);
      nc_value_format(&b, &nc_keys()[k], vb, sizeof vb);
      EXPECT_STREQ(va, vb) << nc_keys()[k].path;
      EXPECT_EQ(a.origin[k].layer, b.origin[k].layer) << nc_keys()[k].path;
    }
  }
  EXPECT_EQ(nc_errors_count(&e.l), 0u);
}

TEST(ConfigErrors, SweepErrorsAreCollectedAndItsPointsSkipped) {
  Errors e;
  LoadedAll l;
  nicsim_config c;
  check_all("sweep:\n"
            "  axes: {nic.desc_spacng: [16, 32]}\n"  // 2: unknown axis key
            "  repeats: 0\n"                          // 3: out of range
            "  pionts: []\n"                          // 4: unknown sweep key
            "traffic: {mode: sideways}\n",            // 5: bad enum
            e, l, &c);
  EXPECT_EQ(e.at(), (std::vector<std::string>{"2:10", "3:12", "4:3", "5:17"})) << e.text();
  EXPECT_TRUE(e.l.no_points);
  ASSERT_NE(l.s, nullptr);
  EXPECT_EQ(nc_scenario_npoints(l.s), 0u);
}

TEST(ConfigErrors, PlatformAndOverlayErrorsAreCollected) {
  TempDir d;
  d.write("p.yaml", "nic:\n  desc_spacng: 32\n  line_rate_gbps: -1\n");
  std::string scen = d.write("s.yaml", "platform: p.yaml\ntraffic: {mode: sideways}\n");
  std::string ov = d.write("o.yaml", "run: {seed: x}\ncpu: {bogus: 1}\n");
  Errors e;
  nc_scenario *s = nullptr;
  EXPECT_EQ(nc_scenario_load_all(scen.c_str(), &s, &e.l), -1);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(nc_scenario_add_overlay_all(s, ov.c_str(), &e.l), -1);
  nc_errors_sort(&e.l);
  // In file order, the files in the order read: the platform (read where
  // the scenario names it, on its line 1), the scenario, the overlay.
  std::vector<std::string> got;
  for (size_t i = 0; i < e.l.n; i++) got.push_back(where(e.l.v[i]).substr(d.path.size() + 1));
  EXPECT_EQ(got, (std::vector<std::string>{"p.yaml:2:3", "p.yaml:3:19", "s.yaml:2:17", "o.yaml:1:13",
                                           "o.yaml:2:7"}))
      << e.text();
  EXPECT_TRUE(std::strstr(e.l.v[0].hint, "(platform named at")) << e.l.v[0].hint;
  EXPECT_FALSE(std::strstr(e.l.v[2].hint, "(platform named at")) << e.l.v[2].hint;
  nc_scenario_free(s);
}

TEST(ConfigErrors, TheListKeepsAThousandAndCountsTheRest) {
  std::string text = "nic:\n";
  for (int i = 0; i < NC_ERRORS_KEPT + 20; i++) text += "  k" + std::to_string(i) + ": 1\n";
  Errors e;
  LoadedAll l;
  l.rc = nc_scenario_load_string_all("t.yaml", text.c_str(), &l.s, &e.l);
  EXPECT_EQ(l.rc, -1);
  EXPECT_EQ(e.l.n, (size_t)NC_ERRORS_KEPT);
  EXPECT_EQ(nc_errors_count(&e.l), (size_t)NC_ERRORS_KEPT + 20);

  // Printing stops at the cap and says how many more there are.
  char *buf = nullptr;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  nc_errors_print(&e.l, 3, f);
  fclose(f);
  std::string out(buf, len);
  free(buf);
  EXPECT_EQ(out.find("t.yaml:2:3: error: unknown key 'nic.k0'"), 0u) << out;
  EXPECT_NE(out.find("t.yaml:4:3: error: unknown key 'nic.k2'"), std::string::npos) << out;
  EXPECT_EQ(out.find("nic.k3'"), std::string::npos) << out;
  EXPECT_NE(out.find("... and " + std::to_string(NC_ERRORS_KEPT + 17) + " more errors\n"), std::string::npos)
      << out;
}

TEST(ConfigErrors, SameErrorFromSeveralPointsIsOne) {
  // The cross-layer rule is broken in every point of the sweep: one error.
  Errors e;
  LoadedAll l;
  l.rc = nc_scenario_load_string_all(
      "t.yaml", "traffic: {frame_bytes: 9000}\nsweep: {axes: {nic.rx_ring_size: [256, 512, 1024]}}\n", &l.s, &e.l);
  ASSERT_EQ(l.rc, 0);
  nicsim_config c;
  for (long p = -1; p < 3; p++) EXPECT_EQ(nc_scenario_resolve_all(l.s, p, nullptr, 0, &c, &e.l), -1);
  EXPECT_EQ(nc_errors_count(&e.l), 1u) << e.text();
}

}  // namespace
