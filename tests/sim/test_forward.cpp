// test_forward.cpp: traffic.mode forward on whole runs (schema defaults: an
// x86 core, the generic driver, 10 GbE, PCIe Gen3 x8). At 64 B the wire
// brings 14.88 Mpps, more than the NET_RX core can take either way: a
// forwarded packet costs that core more (route lookup, ip_forward,
// ip_output, the driver's xmit and TX clean) than one delivered to a socket
// whose reader runs on the other core, so it forwards fewer packets per
// second than it receives in rx mode. At 1518 B the same host forwards at
// the wire's rate with no loss. XDP_TX (mvneta) forwards more than the IP
// path on the same host. Every frame the peer sent comes back or is dropped
// with a cause. Each run in its own child process.
#include <gtest/gtest.h>

#include <cstdio>
#include <initializer_list>
#include <string>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"

namespace {

using nicsim::test::checked_config;
using nicsim::test::expect_conservation;
using nicsim::test::metric;
using nicsim::test::run_in_child;

nicsim_results run(std::initializer_list<const char *> base, std::initializer_list<const char *> sets) {
  nicsim_results r;
  EXPECT_TRUE(run_in_child(checked_config(base, sets), &r));
  return r;
}

/* Two cores: NET_RX on core 0, the reader (rx mode) on core 1. */
nicsim_results two_cores(const char *mode, std::initializer_list<const char *> sets) {
  const char *m = mode[0] == 'r' ? "traffic.mode=rx" : "traffic.mode=forward";
  return run({m, "cpu.cores=2", "cpu.app_core=1", "run.duration_us=1000", "run.warmup_us=200"}, sets);
}

/* Forwarding end to end, whole run: every frame the peer sent came back
 * forwarded, or was dropped by the NIC, at a stopped TX queue or by XDP. */
void expect_forward_conservation(const nicsim_results &r) {
  expect_conservation(r);
  const double xdp_drops = metric(r, "total.rx.xdp") - metric(r, "total.tx.xdp");
  EXPECT_EQ(metric(r, "total.rx.sent"),
            metric(r, "total.fwd") + metric(r, "total.rx.dropped") + metric(r, "total.fwd.drops_txq") + xdp_drops);
  /* What the driver took back out is what the peer received. */
  EXPECT_EQ(metric(r, "total.tx.sent") + metric(r, "total.tx.xdp"), metric(r, "total.fwd"));
}

}  // namespace

TEST(Forward, ForwardsFewerPacketsThanItsNetRxCoreReceives) {
  const nicsim_results rx = two_cores("rx", {"traffic.frame_bytes=64"});
  const nicsim_results fwd = two_cores("forward", {"traffic.frame_bytes=64"});
  expect_conservation(rx);
  expect_forward_conservation(fwd);
  std::printf("64 B, NET_RX on core 0: rx %.3f Mpps (core 0 %.0f %%), forward %.3f Mpps (core 0 %.0f %%)\n",
              metric(rx, "rx.mpps"), 100 * metric(rx, "cpu.core0.util"), metric(fwd, "fwd.mpps"),
              100 * metric(fwd, "cpu.core0.util"));
  /* Both saturate the NET_RX core, and the wire's 14.88 Mpps are more than either takes. */
  EXPECT_GT(metric(rx, "cpu.core0.util"), 0.99);
  EXPECT_GT(metric(fwd, "cpu.core0.util"), 0.99);
  EXPECT_GT(metric(fwd, "rx.drops"), 0);
  EXPECT_GT(metric(fwd, "fwd.loss"), 0.5);
  /* The forwarding path's extra work per packet on that core. */
  EXPECT_GT(metric(fwd, "fwd.mpps"), 0);
  EXPECT_LT(metric(fwd, "fwd.mpps"), metric(rx, "rx.mpps"));
  EXPECT_GT(metric(fwd, "cpu.profile.fib_table_lookup"), 0);
  EXPECT_GT(metric(fwd, "cpu.profile.ip_forward"), 0);
  /* Nothing is delivered locally: no socket, no reader. */
  double v = 0;
  EXPECT_FALSE(nicsim_results_get(&fwd, "cpu.profile.udp_rcv", &v) && v > 0);
  EXPECT_FALSE(nicsim_results_get(&fwd, "cpu.profile.udp_recvmsg", &v) && v > 0);
  /* What came back is what went out of the MAC. */
  EXPECT_EQ(metric(fwd, "fwd.pkts"), metric(fwd, "tx.pkts"));
}

TEST(Forward, ReachesTheWireRateAt1518B) {
  const nicsim_results fwd = run({"traffic.mode=forward", "run.duration_us=1000", "run.warmup_us=200"}, {});
  expect_forward_conservation(fwd);
  /* 1518 B frames with 20 B of preamble and gap at 10 Gbit/s: 10 x 1518 / 1538
   * Gbit/s of frame bits, 10e9 / (1538 x 8) frames per second. */
  const double gbps = 10.0 * 1518 / 1538, mpps = 10e3 / (1538 * 8);
  std::printf("1518 B: forwarded %.3f Gbit/s, %.4f Mpps (wire %.3f, %.4f)\n", metric(fwd, "fwd.gbps"),
              metric(fwd, "fwd.mpps"), gbps, mpps);
  EXPECT_NEAR(metric(fwd, "fwd.gbps"), gbps, 0.005 * gbps);
  EXPECT_NEAR(metric(fwd, "fwd.mpps"), mpps, 0.005 * mpps);
  EXPECT_EQ(metric(fwd, "fwd.loss"), 0);
  EXPECT_EQ(metric(fwd, "total.rx.dropped"), 0);
  EXPECT_EQ(metric(fwd, "total.fwd.drops_txq"), 0);
  EXPECT_EQ(metric(fwd, "total.fwd"), metric(fwd, "total.rx.sent"));
}

TEST(Forward, XdpTxForwardsMoreThanTheIpPath) {
  const std::initializer_list<const char *> mvneta = {
      "nic.family=mvneta",    "driver.name=mvneta",     "nic.desc_spacing=32", "memory.coherent_dma=false",
      "traffic.mode=forward", "traffic.frame_bytes=64", "nic.rx_ring_size=128", "nic.tx_ring_size=532",
      "driver.rx_sync=used",  "run.duration_us=1000", "run.warmup_us=200"};
  const nicsim_results ip = run(mvneta, {});
  const nicsim_results xdp = run(mvneta, {"driver.xdp=tx"});
  expect_forward_conservation(ip);
  expect_forward_conservation(xdp);
  std::printf("mvneta 64 B forward: IP path %.3f Mpps, XDP_TX %.3f Mpps\n", metric(ip, "fwd.mpps"),
              metric(xdp, "fwd.mpps"));
  /* XDP_TX: every forwarded frame is an XDP_TX frame; no skb, no stack. */
  EXPECT_EQ(metric(xdp, "total.fwd"), metric(xdp, "total.tx.xdp"));
  EXPECT_EQ(metric(xdp, "total.rx.received"), 0);
  EXPECT_EQ(metric(ip, "total.tx.xdp"), 0);
  /* No skb, no copy, no stack: well above the IP path on the saturated core. */
  EXPECT_GT(metric(xdp, "fwd.mpps"), 1.2 * metric(ip, "fwd.mpps"));
  EXPECT_GT(metric(ip, "cpu.util"), 0.99);
  EXPECT_GT(metric(xdp, "cpu.util"), 0.99);
}

/* i40e (40 GbE): XDP_TX on the queue pair's own XDP ring (a device TX queue
 * after nic.tx_queues) is the forwarding; the stack's TX queue stays idle. */
TEST(Forward, I40eForwardsWithXdpTxOnItsXdpRing) {
  const std::initializer_list<const char *> i40e = {"nic.family=i40e", "driver.name=i40e", "nic.line_rate_gbps=40",
                                                    "traffic.mode=forward", "traffic.frame_bytes=64",
                                                    "run.duration_us=500", "run.warmup_us=100"};
  const nicsim_results ip = run(i40e, {});
  const nicsim_results xdp = run(i40e, {"driver.xdp=tx"});
  expect_forward_conservation(ip);
  expect_forward_conservation(xdp);
  std::printf("i40e 64 B forward at 40 GbE: IP path %.3f Mpps, XDP_TX %.3f Mpps\n", metric(ip, "fwd.mpps"),
              metric(xdp, "fwd.mpps"));
  EXPECT_EQ(metric(xdp, "total.fwd"), metric(xdp, "total.tx.xdp"));
  EXPECT_EQ(metric(xdp, "total.tx.sent"), 0) << "nothing went out through the stack's TX queue";
  EXPECT_GT(metric(xdp, "fwd.pkts"), 0);
  EXPECT_GT(metric(xdp, "fwd.mpps"), 2 * metric(ip, "fwd.mpps"));
}

TEST(Forward, ConfigRulesNameTheKeyAndTheFix) {
  nicsim_config c = nicsim::test::config_with({"traffic.mode=forward", "traffic.protocol=tcp"}, {});
  nc_error e;
  EXPECT_NE(nicsim_check_config(&c, &e), 0);
  EXPECT_NE(std::string(e.msg).find("traffic.mode = forward"), std::string::npos) << e.msg;
  EXPECT_NE(std::string(e.hint).find("traffic.protocol udp"), std::string::npos) << e.hint;
  c = nicsim::test::config_with({"traffic.mode=forward", "traffic.sender=pktgen"}, {});
  EXPECT_NE(nicsim_check_config(&c, &e), 0);
  EXPECT_NE(std::string(e.msg).find("traffic.mode = forward"), std::string::npos) << e.msg;
  /* driver.xdp tx is allowed with forward (and rx), refused with tx. */
  c = nicsim::test::config_with({"nic.family=mvneta", "driver.name=mvneta", "nic.desc_spacing=32",
                                 "traffic.mode=forward", "driver.xdp=tx"},
                                {});
  EXPECT_EQ(nicsim_check_config(&c, &e), 0) << e.msg;
  c = nicsim::test::config_with({"nic.family=mvneta", "driver.name=mvneta", "nic.desc_spacing=32",
                                 "traffic.mode=tx", "driver.xdp=tx"},
                                {});
  EXPECT_NE(nicsim_check_config(&c, &e), 0);
  EXPECT_NE(std::string(e.hint).find("traffic.mode: forward"), std::string::npos) << e.hint;
}
