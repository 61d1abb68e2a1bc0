// test_platforms.cpp: the current x86 servers (configs/platforms/
// x86-gen4-25g.yaml and x86-gen5-100g.yaml) with their own multi-core,
// multi-queue defaults (issue 27, "Platforms"): line-rate RX of 1518 B UDP
// frames spreads over one softirq core per RX queue, none of them saturated,
// and reaches the line rate; the same host with one queue pair puts every
// frame on core 0, so the spread assertions can fail. Each run in its own
// process.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"

namespace {

using nicsim::test::expect_conservation;
using nicsim::test::metric;
using nicsim::test::run_in_child;

/* A built-in platform as the platform of a scenario, RX of 1518 B frames at
 * the line rate, with overrides. The window starts after the driver's probe
 * (it posts rx_queues x 2048 RX buffers while the wire already sends). */
nicsim_config rx_on(const char *platform, const std::vector<std::string> &sets) {
  const std::string text = std::string("name: platform-test\nplatform: ") + platform +
                           "\ntraffic: {mode: rx, frame_bytes: 1518, rate_gbps: 0}\n"
                           "run: {duration_us: 2000, warmup_us: 500, drain_us: 2000, seed: 1}\n";
  nc_scenario *s = nullptr;
  nc_error e;
  nicsim_config c;
  EXPECT_EQ(nc_scenario_load_string("platform-test.yaml", text.c_str(), &s, &e), 0) << e.msg;
  std::vector<const char *> v;
  for (const std::string &x : sets) v.push_back(x.c_str());
  EXPECT_EQ(nc_scenario_resolve(s, -1, v.data(), v.size(), &c, &e), 0) << e.msg;
  nc_scenario_free(s);
  return c;
}

double core_metric(const nicsim_results &r, int core, const char *what) {
  char name[64];
  std::snprintf(name, sizeof name, "cpu.core%d.%s", core, what);
  return metric(r, name);
}

/* The line rate in frame bits (rx.delivered_gbps counts them, FCS
 * included): each 1518 B frame takes 1538 B of wire time with its preamble
 * and inter-frame gap. */
double frame_line_gbps(const nicsim_config &c) { return c.nic.line_rate_gbps * 1518.0 / 1538.0; }

/* What the platform's defaults are: several cores, an RX queue per softirq
 * core, each vector on its own core, Linux's locking, enough flows for RSS
 * to use every queue, and the reader on a core that takes no vector. */
void expect_multicore_defaults(const nicsim_config &c) {
  EXPECT_GE(c.cpu.cores, 2);
  EXPECT_GE(c.nic.rx_queues, 2);
  EXPECT_EQ(c.nic.tx_queues, c.nic.rx_queues);
  EXPECT_EQ(c.cpu.irq_affinity, NC_IRQ_AFFINITY_SPREAD);
  EXPECT_EQ(c.cpu.locking, NC_LOCKING_TXQ);
  EXPECT_GE(c.traffic.flows, c.nic.rx_queues);
  EXPECT_GE(c.cpu.app_core, c.nic.rx_queues) << "the reader's core takes no vector";
  EXPECT_LT(c.cpu.app_core, c.cpu.cores);
}

/* A run with the defaults: every frame delivered, the line rate reached,
 * one polling core per RX queue (vector q on core q), each queue carrying
 * its share (RSS), and no softirq core near saturation. Returns the busiest
 * softirq core's utilisation. */
double expect_spread_at_line_rate(const nicsim_config &c, const nicsim_results &r) {
  expect_conservation(r);
  EXPECT_EQ(metric(r, "rx.drops"), 0);
  EXPECT_GE(metric(r, "rx.delivered_gbps"), 0.95 * frame_line_gbps(c));
  const int queues = static_cast<int>(c.nic.rx_queues);
  const double pkts = metric(r, "rx.pkts");
  EXPECT_GT(pkts, 1000);
  for (int q = 0; q < queues; q++) {
    const std::string name = "nic.rxq" + std::to_string(q) + ".pkts";
    EXPECT_GE(metric(r, name.c_str()), 0.5 * pkts / queues) << "RX queue " << q;
  }
  int polling = 0;
  double busiest = 0;
  for (int k = 0; k < static_cast<int>(c.cpu.cores); k++) {
    SCOPED_TRACE("core " + std::to_string(k));
    if (core_metric(r, k, "rx_queue_mask") == 0) continue;
    polling++;
    EXPECT_GT(core_metric(r, k, "softirqs"), 0);
    const double u = core_metric(r, k, "util");
    if (u > busiest) busiest = u;
  }
  EXPECT_EQ(polling, queues) << "one softirq core per RX queue";
  EXPECT_LT(busiest, 0.5) << "no softirq core near saturation";
  EXPECT_GT(busiest, 0.02);
  return busiest;
}

TEST(Platforms, Gen4At25GbeSpreadsOverItsCoresAndReachesTheLineRate) {
  const nicsim_config c = rx_on("x86-gen4-25g", {});
  EXPECT_EQ(c.nic.line_rate_gbps, 25.0);
  EXPECT_EQ(c.pcie.gen, 4);
  expect_multicore_defaults(c);
  nicsim_results r;
  ASSERT_TRUE(run_in_child(c, &r));
  expect_spread_at_line_rate(c, r);
  /* The reader (UDP recvmsg and the copy to user space) keeps up on its core. */
  EXPECT_LT(core_metric(r, static_cast<int>(c.cpu.app_core), "util"), 0.5);
  EXPECT_EQ(core_metric(r, static_cast<int>(c.cpu.app_core), "rx_queue_mask"), 0);
}

TEST(Platforms, Gen5At100GbeSpreadsOverItsCoresAndReachesTheLineRate) {
  const nicsim_config c = rx_on("x86-gen5-100g", {});
  EXPECT_EQ(c.nic.line_rate_gbps, 100.0);
  EXPECT_EQ(c.pcie.gen, 5);
  EXPECT_EQ(c.pcie.lanes, 16);
  expect_multicore_defaults(c);
  nicsim_results r;
  ASSERT_TRUE(run_in_child(c, &r));
  expect_spread_at_line_rate(c, r);
}

/* The contrast: the Gen4 host with one queue pair. Every frame goes to
 * queue 0, whose vector core 0 takes: one polling core, close to saturation
 * (about 94 % at 25 GbE), so the assertions above fail on it. */
TEST(Platforms, Gen4WithOneQueuePairPutsTheWorkOnOneCore) {
  const nicsim_config c = rx_on("x86-gen4-25g", {"nic.rx_queues=1", "nic.tx_queues=1"});
  nicsim_results r;
  ASSERT_TRUE(run_in_child(c, &r));
  expect_conservation(r);
  EXPECT_EQ(core_metric(r, 0, "rx_queue_mask"), 1);
  for (int k = 1; k < static_cast<int>(c.cpu.cores); k++)
    EXPECT_EQ(core_metric(r, k, "rx_queue_mask"), 0) << "core " << k;
  EXPECT_GT(core_metric(r, 0, "util"), 0.8);
}

}  // namespace
