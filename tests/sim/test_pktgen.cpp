// test_pktgen.cpp: traffic.sender pktgen (net/core/pktgen.c) on whole runs
// (the default x86 platform, 10 GbE, one core, 64 B TX): with no socket
// and no UDP/IP stack it sends more packets per second than the socket
// sender, its clone_skb re-sends the same skb for fewer cycles per packet
// than a fresh skb each, and it charges no udp_sendmsg, ip_output or
// copy_from_user. Each TEST is one or more simulation runs in child
// processes.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"

namespace {

using nicsim::test::checked_config;
using nicsim::test::expect_conservation;
using nicsim::test::metric;
using nicsim::test::run_in_child;

/* 64 B frames sent as fast as the sender runs (the socket sender paced at
 * the line, 14.88 Mpps, which it cannot reach) for 1 ms. */
nicsim_results tx64(std::initializer_list<const char *> sets) {
  nicsim_results r;
  EXPECT_TRUE(run_in_child(checked_config({"traffic.mode=tx", "traffic.frame_bytes=64", "run.duration_us=1000",
                                           "run.warmup_us=200"},
                                          sets),
                           &r));
  return r;
}

double cycles_per_pkt(const nicsim_results &r) { return metric(r, "cpu.busy_cycles") / metric(r, "tx.pkts"); }

/* The profile share of fn, 0 if the run charged it nothing (no metric). */
double profile(const nicsim_results &r, const char *fn) {
  double v = 0;
  const std::string name = std::string("cpu.profile.") + fn;
  return nicsim_results_get(&r, name.c_str(), &v) ? v : 0;
}

}  // namespace

TEST(Pktgen, SendsMorePacketsPerSecondThanTheSocketSender) {
  const nicsim_results sock = tx64({});
  const nicsim_results pg = tx64({"traffic.sender=pktgen"});
  expect_conservation(sock);
  expect_conservation(pg);
  std::printf("64 B TX, one core: socket %.3f Mpps, %.0f cycles/pkt; pktgen %.3f Mpps, %.0f cycles/pkt\n",
              metric(sock, "tx.mpps"), cycles_per_pkt(sock), metric(pg, "tx.mpps"), cycles_per_pkt(pg));
  EXPECT_GT(metric(pg, "tx.mpps"), 1.3 * metric(sock, "tx.mpps"));
  EXPECT_LT(cycles_per_pkt(pg), cycles_per_pkt(sock));
  EXPECT_EQ(metric(pg, "tx.pktgen_clones"), 0);
  EXPECT_EQ(metric(sock, "tx.pktgen_clones"), 0);
}

TEST(Pktgen, CloneSkbCostsFewerCyclesPerPacket) {
  const nicsim_results fresh = tx64({"traffic.sender=pktgen"});
  const nicsim_results cloned = tx64({"traffic.sender=pktgen", "traffic.pktgen_clone_skb=16"});
  expect_conservation(fresh);
  expect_conservation(cloned);
  std::printf("pktgen 64 B: clone_skb 0 %.3f Mpps, %.0f cycles/pkt; clone_skb 16 %.3f Mpps, %.0f cycles/pkt\n",
              metric(fresh, "tx.mpps"), cycles_per_pkt(fresh), metric(cloned, "tx.mpps"), cycles_per_pkt(cloned));
  EXPECT_LT(cycles_per_pkt(cloned), 0.95 * cycles_per_pkt(fresh));
  EXPECT_GE(metric(cloned, "tx.mpps"), metric(fresh, "tx.mpps"));
  /* 15 of every 16 frames re-send the skb (the window cuts a run of 16 at each end). */
  const double pkts = metric(cloned, "tx.pkts"), clones = metric(cloned, "tx.pktgen_clones");
  EXPECT_NEAR(clones / pkts, 15.0 / 16.0, 0.01);
  EXPECT_EQ(profile(cloned, "fill_packet_ipv4") < profile(fresh, "fill_packet_ipv4"), true);
}

TEST(Pktgen, ChargesNoSocketOrStack) {
  const nicsim_results pg = tx64({"traffic.sender=pktgen"});
  EXPECT_EQ(profile(pg, "udp_sendmsg"), 0);
  EXPECT_EQ(profile(pg, "ip_output"), 0);
  EXPECT_EQ(profile(pg, "copy_from_user"), 0);
  EXPECT_GT(profile(pg, "pktgen_xmit"), 0);
  EXPECT_GT(profile(pg, "fill_packet_ipv4"), 0);
  EXPECT_GT(profile(pg, "__alloc_skb"), 0);
  EXPECT_EQ(metric(pg, "tx.wmem_max"), 0); /* no socket owns its skbs */
}

TEST(Pktgen, OnSeveralCoresItRunsOnTheAppCore) {
  const nicsim_results pg = tx64({"traffic.sender=pktgen", "cpu.cores=2", "traffic.pktgen_clone_skb=4"});
  expect_conservation(pg);
  EXPECT_GT(metric(pg, "tx.pkts"), 0);
  EXPECT_GT(metric(pg, "tx.pktgen_clones"), 0);
}

/* Every seed driver's ndo_start_xmit under pktgen, with clone_skb 8 (one skb
 * mapped again per clone: DMA_TO_DEVICE mappings of the same data overlap on
 * the ring): frames are conserved, the driver's end-of-run check passes
 * (run_in_child fails otherwise), 7 of every 8 frames are clones, and the
 * driver sends them for fewer cycles per packet than the socket sender's. */
TEST(Pktgen, EverySeedDriverSendsItsClones) {
  const std::initializer_list<const char *> drivers[] = {
      {"nic.family=mvneta", "driver.name=mvneta", "nic.desc_spacing=32"},
      {"nic.family=lan743x", "driver.name=lan743x"},
      {"nic.family=stmmac", "driver.name=stmmac"},
      {"nic.family=i40e", "driver.name=i40e"},
  };
  for (const auto &d : drivers) {
    std::vector<std::string> pg_sets(d.begin(), d.end()), sock_sets(d.begin(), d.end());
    for (const char *s : {"traffic.mode=tx", "traffic.frame_bytes=64", "run.duration_us=1000", "run.warmup_us=200"}) {
      pg_sets.push_back(s);
      sock_sets.push_back(s);
    }
    pg_sets.push_back("traffic.sender=pktgen");
    pg_sets.push_back("traffic.pktgen_clone_skb=8");
    SCOPED_TRACE(pg_sets[1]);
    nicsim_results pg, sock;
    ASSERT_TRUE(run_in_child(nicsim::test::checked_config(pg_sets), &pg));
    ASSERT_TRUE(run_in_child(nicsim::test::checked_config(sock_sets), &sock));
    expect_conservation(pg);
    const double pkts = metric(pg, "tx.pkts");
    ASSERT_GT(pkts, 100);
    EXPECT_NEAR(metric(pg, "tx.pktgen_clones") / pkts, 7.0 / 8.0, 0.02);
    std::printf("%s 64 B TX: socket %.0f cycles/pkt, pktgen clone_skb 8 %.0f cycles/pkt\n", pg_sets[1].c_str(),
                cycles_per_pkt(sock), cycles_per_pkt(pg));
    EXPECT_LT(cycles_per_pkt(pg), cycles_per_pkt(sock));
  }
}

TEST(Pktgen, ConfigErrorsNameTheKeyAndTheFix) {
  struct Case {
    std::initializer_list<const char *> sets;
    const char *want;
  };
  const Case cases[] = {
      {{"traffic.sender=pktgen", "traffic.mode=rx"}, "traffic.sender = pktgen only sends"},
      {{"traffic.sender=pktgen", "traffic.mode=tx", "traffic.protocol=tcp"}, "traffic.sender = pktgen sends UDP"},
      {{"traffic.sender=pktgen", "traffic.mode=tx", "traffic.flows=4"}, "traffic.flows"},
      {{"traffic.mode=tx", "traffic.pktgen_clone_skb=8"}, "traffic.pktgen_clone_skb = 8 is pktgen's"},
  };
  for (const Case &c : cases) {
    nicsim_config cfg = nicsim::test::config_with(c.sets, {});
    nc_error e;
    ASSERT_NE(nicsim_check_config(&cfg, &e), 0) << c.want;
    EXPECT_NE(std::string(e.msg).find(c.want), std::string::npos) << e.msg;
  }
}
