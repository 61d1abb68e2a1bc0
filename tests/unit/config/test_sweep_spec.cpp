// test_sweep_spec.cpp: the sweep specification beyond cartesian axes: zipped
// axes, repeats with seeds, the baseline label and declared plots (src/config/sweep.h).
#include <string>
#include <vector>

#include "config/sweep.h"
#include "config_test_util.h"

namespace {

std::vector<std::string> labels_of(const Loaded &l) {
  std::vector<std::string> out;
  for (size_t i = 0; i < nc_scenario_npoints(l.s); i++) out.push_back(nc_scenario_point_label(l.s, i));
  return out;
}

std::vector<std::string> swept_of(const Loaded &l) {
  std::vector<std::string> out;
  for (size_t i = 0; i < nc_scenario_nswept(l.s); i++) out.push_back(nc_scenario_swept_key(l.s, i));
  return out;
}

// Loads text, expecting an error at `at` whose message contains msg.
void expect_error(const std::string &text, const std::string &at, const std::string &msg) {
  Loaded l;
  load_text(l, text);
  ASSERT_NE(l.rc, 0) << text;
  EXPECT_EQ(where(l.err), at) << printed(l.err);
  EXPECT_NE(std::string(l.err.msg).find(msg), std::string::npos) << printed(l.err);
  EXPECT_NE(l.err.hint[0], '\0') << "every sweep error has a hint: " << printed(l.err);
}

TEST(SweepSpec, CartesianAxesVaryTheLastFastest) {
  Loaded l;
  load_text(l, "sweep:\n  axes:\n    traffic.frame_bytes: [64, 1518]\n    nic.desc_spacing: [16, 32, 64]\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  EXPECT_EQ(labels_of(l), (std::vector<std::string>{
                              "traffic.frame_bytes=64/nic.desc_spacing=16",
                              "traffic.frame_bytes=64/nic.desc_spacing=32",
                              "traffic.frame_bytes=64/nic.desc_spacing=64",
                              "traffic.frame_bytes=1518/nic.desc_spacing=16",
                              "traffic.frame_bytes=1518/nic.desc_spacing=32",
                              "traffic.frame_bytes=1518/nic.desc_spacing=64"}));
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(resolve(l, 4, &c, &e), 0) << printed(e);
  EXPECT_EQ(c.traffic.frame_bytes, 1518);
  EXPECT_EQ(c.nic.desc_spacing, 32);
}

TEST(SweepSpec, ZippedAxesVaryTogether) {
  Loaded l;
  load_text(l,
            "sweep:\n"
            "  axes:\n"
            "    traffic.frame_bytes: [64, 1518]\n"
            "  zip:\n"
            "    nic.desc_spacing: [16, 64]\n"
            "    nic.rx_ring_size: [256, 1024]\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  EXPECT_EQ(labels_of(l),
            (std::vector<std::string>{
                "traffic.frame_bytes=64/nic.desc_spacing=16/nic.rx_ring_size=256",
                "traffic.frame_bytes=64/nic.desc_spacing=64/nic.rx_ring_size=1024",
                "traffic.frame_bytes=1518/nic.desc_spacing=16/nic.rx_ring_size=256",
                "traffic.frame_bytes=1518/nic.desc_spacing=64/nic.rx_ring_size=1024"}));
  EXPECT_EQ(swept_of(l), (std::vector<std::string>{"traffic.frame_bytes", "nic.desc_spacing",
                                                   "nic.rx_ring_size"}));
  nicsim_config c;
  nc_error e{};
  for (long i = 0; i < 4; i++) {
    ASSERT_EQ(resolve(l, i, &c, &e), 0) << printed(e);
    EXPECT_EQ(c.nic.rx_ring_size, c.nic.desc_spacing == 16 ? 256 : 1024) << i;
    EXPECT_EQ(c.traffic.frame_bytes, i < 2 ? 64 : 1518) << i;
    EXPECT_EQ(where(c.origin[NC_KEY_nic_rx_ring_size]), i % 2 ? "t.yaml:6:29" : "t.yaml:6:24");
  }
}

TEST(SweepSpec, SeveralZipGroupsAreSeveralDimensions) {
  Loaded l;
  load_text(l,
            "sweep:\n"
            "  zip:\n"
            "    - {nic.desc_spacing: [16, 64], nic.rx_ring_size: [256, 1024]}\n"
            "    - {traffic.frame_bytes: [64, 128, 256], run.duration_us: [300, 400, 500]}\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  ASSERT_EQ(nc_scenario_npoints(l.s), 6u);
  EXPECT_EQ(labels_of(l)[5],
            "nic.desc_spacing=64/nic.rx_ring_size=1024/traffic.frame_bytes=256/run.duration_us=500");
}

TEST(SweepSpec, ZipErrorsNameThePlace) {
  expect_error("sweep:\n  zip:\n    nic.desc_spacing: [16, 32]\n    nic.rx_ring_size: [256]\n",
               "t.yaml:4:23", "zipped key nic.rx_ring_size has 1 values but nic.desc_spacing");
  expect_error("sweep:\n  axes:\n    nic.desc_spacing: [16, 32]\n  zip:\n    nic.desc_spacing: [8, 4]\n",
               "t.yaml:5:5", "nic.desc_spacing is swept twice (first at t.yaml:3:5)");
  expect_error("sweep:\n  zip: 3\n", "t.yaml:2:8", "sweep.zip must be a mapping");
  expect_error("sweep:\n  zip: []\n", "t.yaml:2:8", "sweep.zip must be a mapping");
}

TEST(SweepSpec, RepeatsRunEachPointWithSuccessiveSeeds) {
  Loaded l;
  load_text(l,
            "run: {seed: 40}\n"
            "sweep:\n"
            "  repeats: 3\n"
            "  points:\n"
            "    - label: a\n"
            "    - {label: b, nic.desc_spacing: 32}\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  EXPECT_EQ(labels_of(l), (std::vector<std::string>{"a/repeat=1", "a/repeat=2", "a/repeat=3",
                                                    "b/repeat=1", "b/repeat=2", "b/repeat=3"}));
  EXPECT_EQ(swept_of(l), (std::vector<std::string>{"nic.desc_spacing", "run.seed"}));
  EXPECT_EQ(nc_scenario_repeats(l.s), 3u);
  nicsim_config c;
  nc_error e{};
  for (long i = 0; i < 6; i++) {
    ASSERT_EQ(resolve(l, i, &c, &e), 0) << printed(e);
    EXPECT_EQ(c.run.seed, 40 + i % 3) << i;
    EXPECT_EQ(where(c.origin[NC_KEY_run_seed]), "t.yaml:3:12");
  }
  // --set still wins (every repeat alike, as with any swept key).
  ASSERT_EQ(resolve(l, 2, &c, &e, {"run.seed=7"}), 0) << printed(e);
  EXPECT_EQ(c.run.seed, 7);
  // The base point ignores the sweep.
  ASSERT_EQ(resolve(l, -1, &c, &e), 0) << printed(e);
  EXPECT_EQ(c.run.seed, 40);
}

TEST(SweepSpec, RepeatsAlone) {
  Loaded l;
  load_text(l, "sweep: {repeats: 2}\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  EXPECT_EQ(labels_of(l), (std::vector<std::string>{"repeat=1", "repeat=2"}));
  expect_error("sweep: {repeats: 0}\n", "t.yaml:1:18", "sweep.repeats must be a whole number");
  expect_error("sweep: {repeats: two}\n", "t.yaml:1:18", "sweep.repeats must be a whole number");
  expect_error("sweep: {repeats: 1001}\n", "t.yaml:1:18", "sweep.repeats must be a whole number");
}

TEST(SweepSpec, RepeatSeedOutOfRangeIsAnErrorAtRepeats) {
  Loaded l;
  load_text(l, "run: {seed: 9200000000000000000}\nsweep: {repeats: 2}\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  nicsim_config c;
  nc_error e{};
  EXPECT_EQ(resolve(l, 0, &c, &e), 0) << printed(e);
  EXPECT_NE(resolve(l, 1, &c, &e), 0);
  EXPECT_EQ(where(e), "t.yaml:2:18");
}

TEST(SweepSpec, BaselineNamesAPoint) {
  Loaded l;
  load_text(l, "sweep:\n  axes: {nic.desc_spacing: [16, 32]}\n  baseline: nic.desc_spacing=32\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  EXPECT_EQ(nc_scenario_baseline(l.s), 1);
  Loaded none;
  load_text(none, "sweep:\n  axes: {nic.desc_spacing: [16, 32]}\n");
  ASSERT_EQ(none.rc, 0) << printed(none.err);
  EXPECT_EQ(nc_scenario_baseline(none.s), -1);
  expect_error("sweep:\n  axes: {nic.desc_spacing: [16, 32]}\n  baseline: spacing=32\n",
               "t.yaml:3:13", "sweep.baseline 'spacing=32' is not a point label");
}

TEST(SweepSpec, PlotsAreDeclaredWithAxesKindAndLabels) {
  Loaded l;
  load_text(l,
            "sweep:\n"
            "  axes: {nic.desc_spacing: [16, 32], traffic.frame_bytes: [64, 1518]}\n"
            "plots:\n"
            "  - name: tput\n"
            "    title: RX rate\n"
            "    x: nic.desc_spacing\n"
            "    y: [rx.gbps, tx.gbps]\n"
            "    series: traffic.frame_bytes\n"
            "    kind: bar\n"
            "    logy: true\n"
            "    ylabel: Rate (Gbit/s)\n"
            "  - {x: label, y: cpu.util}\n");
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  ASSERT_EQ(nc_scenario_nplots(l.s), 2u);
  const nc_plot *p = nc_scenario_plot(l.s, 0);
  EXPECT_STREQ(p->name, "tput");
  EXPECT_STREQ(p->title, "RX rate");
  EXPECT_STREQ(p->x, "nic.desc_spacing");
  EXPECT_STREQ(p->series, "traffic.frame_bytes");
  ASSERT_EQ(p->ny, 2u);
  EXPECT_STREQ(p->y[1], "tx.gbps");
  EXPECT_EQ(where(p->y_at[1]), "t.yaml:7:18");
  EXPECT_EQ(p->kind, NC_PLOT_BAR);
  EXPECT_TRUE(p->logy);
  EXPECT_FALSE(p->logx);
  EXPECT_STREQ(p->ylabel, "Rate (Gbit/s)");
  const nc_plot *q = nc_scenario_plot(l.s, 1);
  EXPECT_STREQ(q->name, "plot2");
  EXPECT_EQ(q->kind, NC_PLOT_LINE);
  EXPECT_EQ(q->ny, 1u);
  EXPECT_EQ(nc_scenario_plot(l.s, 2), nullptr);
}

TEST(SweepSpec, PlotErrorsNameThePlace) {
  const std::string sw = "sweep: {axes: {nic.desc_spacing: [16, 32]}}\n";
  expect_error(sw + "plots:\n  - {x: nic.rx_ring_size, y: rx.gbps}\n", "t.yaml:3:5",
               "plot 'plot1': 'nic.rx_ring_size' is not a swept key");
  expect_error(sw + "plots:\n  - {x: nic.desc_spacing, y: rx.gbps, series: traffic.mode}\n",
               "t.yaml:3:5", "'traffic.mode' is not a swept key");
  expect_error(sw + "plots:\n  - {x: nic.desc_spacing}\n", "t.yaml:3:5", "plot 1 has no y");
  expect_error(sw + "plots:\n  - {x: nic.desc_spacing, y: rx.gbps, kind: pie}\n", "t.yaml:3:45",
               "plot kind must be line or bar");
  expect_error(sw + "plots:\n  - {x: nic.desc_spacing, y: rx.gbps, logx: 1}\n", "t.yaml:3:45",
               "plot logx must be true or false");
  expect_error(sw + "plots:\n  - {x: nic.desc_spacing, y: rx.gbps, colour: red}\n", "t.yaml:3:39",
               "unknown plot key 'colour'");
  expect_error(sw + "plots:\n  - {name: a/b, x: nic.desc_spacing, y: rx.gbps}\n", "t.yaml:3:12",
               "plot name 'a/b' holds '/'");
  expect_error(sw + "plots:\n  - {name: a, x: label, y: rx.gbps}\n  - {name: a, x: label, y: cpu.util}\n",
               "t.yaml:4:5", "two plots are named 'a'");
  expect_error("plots:\n  - {x: label, y: rx.gbps}\n", "t.yaml:2:5", "plots are declared but there is no sweep");
}

}  // namespace
