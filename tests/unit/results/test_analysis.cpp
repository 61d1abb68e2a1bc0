// test_analysis.cpp: the bottleneck verdict of src/results/analysis.c on
// synthetic metrics: which resource wins, ties, the lock, "none" and its
// drop note, the summary line and the JSON object.
#include <gtest/gtest.h>

#include <string>

#include "results/analysis.h"
#include "results_test_util.h"

using nicsim_test::default_config;
using nicsim_test::make_zeroed;

namespace {

// nicsim_results_set by metric name, whatever integer type its id has.
template <class T>
void set_by(void (*f)(nicsim_results *, T, double), nicsim_results *r, const char *name, double v) {
  long id = nicsim_metric_find(name);
  ASSERT_GE(id, 0) << name;
  f(r, static_cast<T>(id), v);
}

struct Analysis : ::testing::Test {
  void SetUp() override {
    cfg = default_config();
    res = make_zeroed<nicsim_results>();
    nicsim_results_init(res.get());
  }
  void set(const char *name, double v) {
    if (nicsim_metric_find(name) >= 0)
      set_by(nicsim_results_set, res.get(), name, v);
    else
      ASSERT_EQ(nicsim_results_set_extra(res.get(), name, "fraction", NM_KIND_REAL, "test", v), 0);
  }
  std::string analyse(std::string *line = nullptr) {
    nicsim_analyse(cfg.get(), res.get(), &a);
    if (line) {
      char buf[400];
      nicsim_analysis_line(&a, buf, sizeof buf);
      *line = buf;
    }
    return nicsim_analysis_bottleneck(&a);
  }
  // RX frames of 1518 B delivered at mpps million per second.
  void rx_rate(double mpps) {
    set("rx.mpps", mpps);
    set("rx.gbps", mpps * 1e6 * 1518 * 8 / 1e9);
    set("rx.delivered_gbps", mpps * 1e6 * 1518 * 8 / 1e9);
  }
  // A 10 G RX run at line rate with 1518 B frames: the wire carries
  // 812,744 frames/s of 1518 + 20 B.
  void line_rate_rx() {
    set("rx.pkts", 1463);
    set("rx.drops", 0);
    set("rx.mpps", 0.812744);
    set("rx.gbps", 0.812744e6 * 1518 * 8 / 1e9);
    set("rx.delivered_gbps", 0.812744e6 * 1518 * 8 / 1e9);  // the stack kept up
    set("nic.rx_ring_occupancy", 480);
    set("pcie.up.util", 0.18);
    set("pcie.down.util", 0.01);
    set("cpu.util", 0.6);
  }
  nicsim_test::cptr<nicsim_config> cfg;
  nicsim_test::cptr<nicsim_results> res;
  nicsim_analysis a;
};

TEST_F(Analysis, TheWireAtLineRate) {
  line_rate_rx();
  std::string line;
  EXPECT_EQ(analyse(&line), "wire.rx");
  EXPECT_NEAR(a.res[a.bottleneck].util, 1.0, 1e-6);
  EXPECT_EQ(line, "wire RX 100 %; next: core 0 60 %");
}

TEST_F(Analysis, AWireThatLosesNothingWinsATie) {
  line_rate_rx();
  set("cpu.util", 0.995);  // busy, but every frame offered was delivered
  EXPECT_EQ(analyse(), "wire.rx");
  set("rx.drops", 100);    // frames lost: the core is the cause
  set("cpu.util", 1.0);
  EXPECT_EQ(analyse(), "cpu.core0");
}

TEST_F(Analysis, AHostThatFallsBehindTheWireIsTheLimitNotTheWire) {
  // A one-core 25 GbE host: every frame reaches the ring and none is dropped
  // in a short run, but the stack takes half of them in the window; the rest
  // wait and are delivered in the drain.
  line_rate_rx();
  set("cpu.util", 1.0);
  set("rx.delivered_gbps", 0.5 * 0.812744e6 * 1518 * 8 / 1e9);
  std::string line;
  EXPECT_EQ(analyse(&line), "cpu.core0");
  EXPECT_NEAR(a.rx_backlog_frac, 0.5, 1e-9);
  EXPECT_EQ(line.rfind("core 0 100 %; next: wire RX 100 %; the host stack took only 50 % of the "
                       "frames the wire brought in the window",
                       0),
            0u)
      << line;
  // Within 2 % it kept up: the wire that lost nothing wins the tie again.
  set("rx.delivered_gbps", 0.99 * 0.812744e6 * 1518 * 8 / 1e9);
  EXPECT_EQ(analyse(&line), "wire.rx");
  EXPECT_EQ(line.find("took only"), std::string::npos) << line;
}

TEST_F(Analysis, TheHighestSaturatedResourceWins) {
  line_rate_rx();
  set("rx.drops", 500);  // the wire no longer delivers line rate
  rx_rate(0.5);
  set("pcie.up.util", 0.99);
  set("cpu.util", 0.7);
  EXPECT_EQ(analyse(), "pcie.up");
  EXPECT_STREQ(a.res[a.next].name, "cpu.core0");
}

TEST_F(Analysis, ATieGoesToTheCauseNotTheSymptom) {
  line_rate_rx();
  set("rx.drops", 500);
  rx_rate(0.5);
  set("cpu.util", 1.0);
  set("nic.rx_ring_occupancy", 0.5);  // an empty ring: 0.999, within the tie of the core's 1.0
  EXPECT_EQ(analyse(), "cpu.core0");
  EXPECT_STREQ(a.res[a.next].name, "ring.rx");
}

TEST_F(Analysis, ACoreSplitsItsTimeByWork) {
  line_rate_rx();
  set("cpu.util", 1.0);
  rx_rate(0.4);
  set("cpu.profile.stack_rx", 0.5);
  set("cpu.profile.copy_to_user", 0.3);
  set("cpu.profile.mvneta_isr", 0.2);
  std::string line;
  EXPECT_EQ(analyse(&line), "cpu.core0");
  EXPECT_EQ(line.rfind("core 0 100 % (softirq 50 %, app 30 %, IRQ 20 %)", 0), 0u) << line;
}

TEST_F(Analysis, NothingSaturatedIsNoneAndDropsAreSaid) {
  line_rate_rx();
  rx_rate(0.3);
  set("rx.drops", 100);
  set("rx.drops_fifo", 100);
  std::string line;
  EXPECT_EQ(analyse(&line), "none");
  EXPECT_EQ(a.bottleneck, -1);
  EXPECT_NE(line.find("none saturated; highest: core 0 60 %"), std::string::npos) << line;
  EXPECT_NE(line.find("6.4 % of RX frames dropped (FIFO full 100, no descriptor 0)"), std::string::npos)
      << line;
}

// Frames an XDP program dropped or sent back were served by the host: the
// drop share is of delivered + XDP + dropped, not of delivered alone (which
// is 0 when every frame is XDP_DROP).
TEST_F(Analysis, FramesXdpTookCountAsServedInTheDropShare) {
  line_rate_rx();
  rx_rate(0);
  set("rx.pkts", 0);
  set("xdp.drop", 300);
  set("xdp.tx", 0);
  set("xdp.tx_errors", 0);
  set("rx.drops", 100);
  set("rx.drops_fifo", 100);
  std::string line;
  EXPECT_EQ(analyse(&line), "none");
  EXPECT_DOUBLE_EQ(a.rx_drop_frac, 100.0 / 400.0);
  EXPECT_NE(line.find("25.0 % of RX frames dropped"), std::string::npos) << line;
  set("xdp.drop", 0);
  set("xdp.tx", 250);
  set("xdp.tx_errors", 50);
  analyse(&line);
  EXPECT_DOUBLE_EQ(a.rx_drop_frac, 100.0 / 400.0) << "XDP_TX and its ring-full losses were taken by the host";
}

TEST_F(Analysis, TheLockLimitsWhenASaturatedCoreWaitsForIt) {
  cfg->cpu.cores = 2;
  line_rate_rx();
  rx_rate(0.3);
  set("cpu.core0.util", 1.0);
  set("cpu.core0.profile.stack_rx", 1.0);
  set("cpu.core1.util", 1.0);
  set("cpu.core1.profile.lock_wait", 0.7);
  set("cpu.core1.profile.stack_tx", 0.3);
  EXPECT_EQ(analyse(), "cpu.lock");
  EXPECT_STREQ(a.res[0].name, "cpu.lock");
  // Below the share a core's lock wait is only a figure.
  set("cpu.core1.profile.lock_wait", 0.1);
  set("cpu.core1.profile.stack_tx", 0.9);
  EXPECT_EQ(analyse(), "cpu.core0");
}

TEST_F(Analysis, ResourcesTheRunLacksAreLeftOut) {
  line_rate_rx();
  analyse();
  for (size_t i = 0; i < a.n; i++) {
    EXPECT_STRNE(a.res[i].name, "bus");
    EXPECT_STRNE(a.res[i].name, "pcie.rc");
    EXPECT_STRNE(a.res[i].name, "dram");  // no DRAM limit configured
    EXPECT_STRNE(a.res[i].name, "wire.tx");
  }
}

TEST_F(Analysis, TheJsonObjectHasTheVerdictAndEveryUtilisation) {
  line_rate_rx();
  analyse();
  json_t *j = nicsim_analysis_to_json(&a);
  ASSERT_NE(j, nullptr);
  EXPECT_STREQ(json_string_value(json_object_get(j, "bottleneck")), "wire.rx");
  EXPECT_STREQ(json_string_value(json_object_get(j, "next")), "cpu.core0");
  json_t *u = json_object_get(j, "utilisation");
  EXPECT_EQ(json_object_size(u), a.n);
  EXPECT_DOUBLE_EQ(json_real_value(json_object_get(u, "pcie.up")), 0.18);
  json_decref(j);
}

TEST_F(Analysis, EveryNameIsDocumented) {
  // docs/analysis.md lists every resource name the analysis can report.
  std::string doc;
  FILE *f = fopen(NICSIM_SOURCE_DIR "/docs/analysis.md", "r");
  ASSERT_NE(f, nullptr);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) doc.append(buf, n);
  fclose(f);
  for (const char *const *p = nicsim_resource_names(); *p; p++)
    EXPECT_NE(doc.find(std::string("`") + *p + "`"), std::string::npos) << *p;
}

}  // namespace
