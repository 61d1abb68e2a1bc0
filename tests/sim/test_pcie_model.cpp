// test_pcie_model.cpp: the PCIe link's DLLPs, SKP ordered sets, flow-control
// credits, tags, read statistics and root-complex write ordering (relaxed
// ordering, serialising root complex), against hand-computed values.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "pcie/latency_hist.h"
#include "pcie/pcie_direction.h"
#include "pcie/pcie_link.h"
#include "pcie_bench.h"
#include "sim_test_util.h"

namespace nicsim {
namespace {

using test::now_ps;
using test::ps;
using test::Bench;
using test::gen1x1;

/* Gen3 x8, 4DW headers, 100 ns each way; no DLLPs or SKPs. */
PcieParams gen3x8() {
  PcieParams p = gen1x1();
  p.gen = 3;
  p.lanes = 8;
  p.addr_bits = 64;
  return p;
}

/* A posted write carrying the RO attribute as the DMA engine sets it from DMA_ATTR_WEAK_ORDERING. */
tlm::tlm_response_status write_ro(test::ScriptedInitiator &d, uint64_t addr, uint8_t *data, uint32_t len) {
  tlm::tlm_generic_payload p;
  TlpExt ext;
  ext.purpose = DmaPurpose::Data;
  ext.relaxed_ordering = true;
  p.set_extension(&ext);
  p.set_command(tlm::TLM_WRITE_COMMAND);
  p.set_address(addr);
  p.set_data_ptr(data);
  p.set_data_length(len);
  p.set_streaming_width(len);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  d.socket->b_transport(p, t);
  p.clear_extension(&ext);
  return p.get_response_status();
}

TEST(LatencyHist, ExactBelow256AndWithin1Of128Above) {
  for (uint64_t v = 0; v < 256; v++) {
    EXPECT_EQ(LatencyHist::bucket_low(LatencyHist::bucket(v)), v);
  }
  uint64_t prev_low = 0;
  for (size_t i = 1; i < LatencyHist::kBuckets; i++) {
    const uint64_t low = LatencyHist::bucket_low(i);
    ASSERT_GT(low, prev_low) << i;
    ASSERT_EQ(LatencyHist::bucket(low), i) << i;
    ASSERT_EQ(LatencyHist::bucket(low + LatencyHist::bucket_width(i) - 1), i) << i;
    if (low >= 256) {
      ASSERT_LE(LatencyHist::bucket_width(i) * 128, low) << i;
    }
    prev_low = low;
  }
  LatencyHist h;
  const LatencyHist empty;
  for (uint64_t v = 1; v <= 100; v++) h.add(v);
  EXPECT_DOUBLE_EQ(h.mean_ps_since(empty), 50.5);
  EXPECT_DOUBLE_EQ(h.quantile_ps_since(empty, 0.5), 50);
  EXPECT_DOUBLE_EQ(h.quantile_ps_since(empty, 0.99), 99);
  const LatencyHist mid = h;
  h.add(1000000);
  EXPECT_DOUBLE_EQ(h.mean_ps_since(mid), 1000000);
  /* 1e6 lies in a bucket 4096 wide: within 1/128 of the value. */
  EXPECT_NEAR(h.quantile_ps_since(mid, 0.99), 1000000, 1000000.0 / 128);
}

TEST(TlpFormatDllp, AckLatencyFollowsTheSpecFormulaAndEcrcAddsFourBytes) {
  PcieParams p = gen1x1();
  p.mps = 128;
  /* (128 + 28) x 1.4 / 1 + 19 = 237.4 symbol times of 4 ns. */
  EXPECT_EQ(TlpFormat(p).ack_latency_ps(), 949600u);
  p.mps = 256;
  p.lanes = 8;
  /* (256 + 28) x 2.5 / 8 + 19 = 107.75 symbol times. */
  EXPECT_EQ(TlpFormat(p).ack_latency_ps(), 431000u);
  p.ack_latency_ps = 123000;
  EXPECT_EQ(TlpFormat(p).ack_latency_ps(), 123000u);
  EXPECT_EQ(TlpFormat(p).dllp_wire_bytes(), 8u);

  PcieParams q = gen3x8();
  EXPECT_EQ(TlpFormat(q).wire_bytes(TlpKind::MemWrite, 0x100, 64), 88u);
  q.ecrc = true;
  EXPECT_EQ(TlpFormat(q).wire_bytes(TlpKind::MemWrite, 0x100, 64), 92u);
}

TEST(TlpFormatDllp, SkpIntervalsAndSizes) {
  /* 8b/10b: 4 symbols every 1180 symbol times; Gen1 x1: 4 ns per symbol. */
  TlpFormat g1(gen1x1());
  EXPECT_EQ(g1.skp_interval_ps(), 4720000u);
  EXPECT_EQ(g1.skp_ps(), 16000u);
  EXPECT_EQ(g1.skp_wire_bytes(), 4u);
  /* 128b/130b: 16 symbols every 370 blocks of 16; 8 GT/s: 1.015625 ns per symbol. */
  TlpFormat g3(gen3x8());
  EXPECT_EQ(g3.skp_interval_ps(), 6012500u);
  EXPECT_EQ(g3.skp_ps(), 16250u);
  EXPECT_EQ(g3.skp_wire_bytes(), 128u);
}

TEST(PcieDllp, OneAckCoversEveryTlpArrivedBeforeItsTimerExpires) {
  PcieParams p = gen1x1();
  p.dllp = true;
  p.ack_latency_ps = 500000;
  Bench b(p);
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(64, 1);
    d.transfer(tlm::TLM_WRITE_COMMAND, 0x100, buf.data(), 64); /* arrives 436 ns */
    d.transfer(tlm::TLM_WRITE_COMMAND, 0x200, buf.data(), 64); /* arrives 772 ns: before the Ack at 936 ns */
    wait(ps(2000000 - now_ps()));
    d.transfer(tlm::TLM_WRITE_COMMAND, 0x300, buf.data(), 64); /* arrives 2436 ns: a second Ack at 2936 ns */
  };
  uint64_t at_900 = 99, at_940 = 99;
  b.probe->script = [&] {
    wait(ps(900000));
    at_900 = b.link->down_counters().dllps;
    wait(ps(40000));
    at_940 = b.link->down_counters().dllps;
  };
  b.run(5000000);
  EXPECT_EQ(at_900, 0u);
  EXPECT_EQ(at_940, 1u);
  const PcieDirCounters down = b.link->down_counters();
  EXPECT_EQ(down.dllps, 2u);
  EXPECT_EQ(down.dllp_bytes, 16u);
  EXPECT_EQ(down.tlps, 0u);
  /* The Acks took the downstream wire: 2 x 8 B x 4 ns. */
  EXPECT_EQ(down.busy_ps, 64000u);
  EXPECT_EQ(b.link->up_counters().dllps, 0u);
}

TEST(PcieDllp, ReadCompletionsAreAckedByTheDeviceUpstream) {
  PcieParams p = gen1x1();
  p.dllp = true;
  p.ack_latency_ps = 50000;
  Bench b(p);
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(512);
    d.transfer(tlm::TLM_READ_COMMAND, 0x1000, buf.data(), 512); /* 1 MRd, 2 CplDs of 256 B */
  };
  b.run(10000000);
  /* The MRd is acked downstream; the two CplDs (1104 ns apart, timer 50 ns) are acked one by one. */
  EXPECT_EQ(b.link->down_counters().dllps, 1u);
  EXPECT_EQ(b.link->up_counters().dllps, 2u);
  EXPECT_EQ(b.link->up_counters().dllp_bytes, 16u);
}

TEST(PcieSkp, IdleLinkSendsSkpsAtTheSpecInterval) {
  PcieParams p = gen1x1();
  p.skp = true;
  Bench b(p);
  PcieDirCounters at10{};
  b.probe->script = [&] {
    wait(ps(10000000));
    at10 = b.link->up_counters();
  };
  b.run(20000000);
  /* SKPs at 4.72 and 9.44 us: 2 x 4 B, 2 x 16 ns busy. */
  EXPECT_EQ(at10.skps, 2u);
  EXPECT_EQ(at10.skp_bytes, 8u);
  EXPECT_EQ(at10.busy_ps, 32000u);
  EXPECT_EQ(at10.tlps, 0u);
}

TEST(PcieSkp, AnSkpDueDuringATlpDelaysTheNextOne) {
  PcieParams p = gen1x1();
  p.skp = true;
  Bench b(p);
  std::vector<uint64_t> done;
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(256, 3);
    /* 276 wire bytes = 1104 ns each; the SKP due at 4720 ns falls inside the 5th TLP [4416, 5520). */
    for (int i = 0; i < 6; i++) {
      d.transfer(tlm::TLM_WRITE_COMMAND, 0x1000 + 256u * i, buf.data(), 256);
      done.push_back(now_ps());
    }
  };
  b.run(20000000);
  ASSERT_EQ(done.size(), 6u);
  EXPECT_EQ(done[4], 5520000u);
  EXPECT_EQ(done[5], 5520000u + 16000u + 1104000u);
}

/* Gen1 x1 below: 4 ns per byte, so a DLLP (8 B) takes 32 ns and a 100-byte TLP 400 ns; 100 ns latency. */
constexpr uint64_t kNs = 1000;

TEST(PcieDirectionDllp, AQueuedDllpIsBookedAtItsSendTimeBeforeALaterTlp) {
  const TlpFormat fmt(gen1x1());
  PcieDirection d(fmt, 100 * kNs);
  d.queue_dllp(1000 * kNs);
  EXPECT_EQ(d.dllps_pending(), 1u);
  /* The DLLP took [1000, 1032) ns: the TLP offered at 1010 ns starts at 1032 (not at 1010,
   * as if the DLLP were not there, nor at 1042, as if it were sent at 1010). */
  const TlpReservation r = d.reserve(1010 * kNs, 100, 64, DmaPurpose::Data);
  EXPECT_EQ(r.start_ps, 1032 * kNs);
  EXPECT_EQ(r.end_ps, 1432 * kNs);
  EXPECT_EQ(r.arrival_ps, 1532 * kNs);
  EXPECT_EQ(d.dllps_pending(), 0u);
  const PcieDirCounters c = d.counters(2000 * kNs);
  EXPECT_EQ(c.dllps, 1u);
  EXPECT_EQ(c.dllp_bytes, 8u);
  EXPECT_EQ(c.tlps, 1u);
  EXPECT_EQ(c.busy_ps, 432 * kNs);
}

TEST(PcieDirectionDllp, ADllpDueAtTheInstantOfATlpGoesFirstOneDueAPicosecondLaterAfter) {
  const TlpFormat fmt(gen1x1());
  PcieDirection d(fmt, 100 * kNs);
  d.queue_dllp(1000 * kNs);
  EXPECT_EQ(d.reserve(1000 * kNs, 100, 64, DmaPurpose::Data).start_ps, 1032 * kNs);
  d.queue_dllp(3000 * kNs + 1);
  EXPECT_EQ(d.reserve(3000 * kNs, 100, 64, DmaPurpose::Data).start_ps, 3000 * kNs);
  EXPECT_EQ(d.dllps_pending(), 1u);
  /* At 3000 ns + 1 ps the second DLLP is due, queued behind the TLP [3000, 3400): counted, its
   * wire time not yet; busy so far: 32 + 400 ns, and 1 ps of the second TLP. */
  const PcieDirCounters c = d.counters(3000 * kNs + 1);
  EXPECT_EQ(c.dllps, 2u);
  EXPECT_EQ(c.busy_ps, 432 * kNs + 1);
  EXPECT_EQ(d.counters(3000 * kNs).dllps, 1u);
  EXPECT_EQ(d.dllps_pending(), 1u); /* reading does not book */
}

TEST(PcieDirectionDllp, ADllpDueWhileTheWireIsBusyWaitsForTheTlpInProgress) {
  const TlpFormat fmt(gen1x1());
  PcieDirection d(fmt, 100 * kNs);
  EXPECT_EQ(d.reserve(1000 * kNs, 100, 64, DmaPurpose::Data).end_ps, 1400 * kNs);
  d.queue_dllp(1200 * kNs);
  EXPECT_EQ(d.counters(1100 * kNs).dllps, 0u);
  EXPECT_EQ(d.free_ps(1100 * kNs), 1400 * kNs);
  const PcieDirCounters c = d.counters(1200 * kNs);
  EXPECT_EQ(c.dllps, 1u);
  EXPECT_EQ(c.busy_ps, 200 * kNs);
  EXPECT_EQ(d.free_ps(1200 * kNs), 1432 * kNs);
  EXPECT_EQ(d.dllps_pending(), 1u);
  /* The DLLP goes right after the TLP, [1400, 1432); a TLP offered at 1300 ns follows it. */
  EXPECT_EQ(d.reserve(1300 * kNs, 100, 64, DmaPurpose::Data).start_ps, 1432 * kNs);
  EXPECT_EQ(d.dllps_pending(), 0u);
}

TEST(PcieDirectionDllp, DllpsQueuedOutOfOrderAreBookedInSendTimeOrder) {
  const TlpFormat fmt(gen1x1());
  PcieDirection d(fmt, 100 * kNs);
  d.queue_dllp(3000 * kNs);
  d.queue_dllp(2000 * kNs);
  d.queue_dllp(2000 * kNs);
  /* The two due at 2000 ns: [2000, 2064) ns; the one at 3000 ns is not due by 2010. */
  EXPECT_EQ(d.counters(2500 * kNs).dllps, 2u);
  EXPECT_EQ(d.counters(2500 * kNs).busy_ps, 64 * kNs);
  EXPECT_EQ(d.reserve(2010 * kNs, 100, 64, DmaPurpose::Data).start_ps, 2064 * kNs);
  EXPECT_EQ(d.dllps_pending(), 1u);
  EXPECT_EQ(d.reserve(3010 * kNs, 100, 64, DmaPurpose::Data).start_ps, 3032 * kNs);
  EXPECT_EQ(d.counters(4000 * kNs).dllps, 3u);
  /* One due before the last reservation could no longer be booked at its time. */
  EXPECT_THROW(d.queue_dllp(3009 * kNs), std::logic_error);
  d.queue_dllp(3010 * kNs);
  EXPECT_EQ(d.dllps_pending(), 1u);
}

TEST(PcieDirectionDllp, AnSkpDueBeforeAQueuedDllpGoesFirst) {
  PcieParams p = gen1x1();
  p.skp = true;
  const TlpFormat fmt(p);
  PcieDirection d(fmt, 100 * kNs);
  /* SKP due at 4720 ns, 16 ns; the DLLP due at 4725 ns follows it: [4736, 4768); the TLP then. */
  d.queue_dllp(4725 * kNs);
  EXPECT_EQ(d.reserve(4730 * kNs, 100, 64, DmaPurpose::Data).start_ps, 4768 * kNs);
  const PcieDirCounters c = d.counters(5000 * kNs);
  EXPECT_EQ(c.skps, 1u);
  EXPECT_EQ(c.dllps, 1u);
  EXPECT_EQ(c.busy_ps, (16 + 32 + 232) * kNs);
}

TEST(PcieDirectionDllp, QueuedDllpsGiveWhatDllpsSentAtTheirSendTimeGive) {
  /* The eager twin gets each DLLP by reserve_dllp(due) at its due time, before anything else at
   * that time (as the link's former DLLP method did: methods run before threads); the lazy one
   * queues it ahead. Random TLPs, DLLPs and reads, with SKPs: every result must agree. */
  PcieParams p = gen1x1();
  p.skp = true;
  const TlpFormat fmt(p);
  PcieDirection lazy(fmt, 100 * kNs);
  PcieDirection eager(fmt, 100 * kNs);
  std::vector<uint64_t> due; /* the eager twin's DLLPs not sent yet, sorted */
  std::mt19937_64 rng(12345);
  uint64_t t = 0;
  int reads = 0, tlps = 0;
  /* Times on a 4 ns grid, so that DLLPs often fall due at the instant of a TLP or a read. */
  for (int i = 0; i < 20000; i++) {
    if (rng() % 4) t += (rng() % 75) * 4 * kNs; /* a quarter of the operations at the same instant */
    while (!due.empty() && due.front() <= t) {
      eager.reserve_dllp(due.front());
      due.erase(due.begin());
    }
    const uint64_t op = rng() % 10;
    if (op < 4) {
      const uint32_t bytes = 20 + static_cast<uint32_t>(rng() % 280);
      const TlpReservation a = lazy.reserve(t, bytes, bytes - 20, DmaPurpose::Data);
      const TlpReservation b = eager.reserve(t, bytes, bytes - 20, DmaPurpose::Data);
      ASSERT_EQ(a.start_ps, b.start_ps) << i;
      ASSERT_EQ(a.arrival_ps, b.arrival_ps) << i;
      tlps++;
    } else if (op < 8) {
      const uint64_t at = t + (rng() % 375) * 4 * kNs;
      lazy.queue_dllp(at);
      due.insert(std::upper_bound(due.begin(), due.end(), at), at);
    } else {
      const PcieDirCounters a = lazy.counters(t);
      const PcieDirCounters b = eager.counters(t);
      ASSERT_EQ(a.dllps, b.dllps) << i;
      ASSERT_EQ(a.skps, b.skps) << i;
      ASSERT_EQ(a.busy_ps, b.busy_ps) << i;
      ASSERT_EQ(a.tlps, b.tlps) << i;
      ASSERT_EQ(lazy.free_ps(t), eager.free_ps(t)) << i;
      reads++;
    }
  }
  EXPECT_GT(reads, 1000);
  EXPECT_GT(tlps, 5000);
  EXPECT_GT(lazy.counters(t).dllps, 5000u);
}

TEST(PcieCredits, TooFewPostedDataCreditsThrottleToOneTlpPerCreditRoundTrip) {
  PcieParams p = gen1x1();
  p.dllp = true;
  p.ack_latency_ps = 200000;
  p.rc_pd_credits = 16; /* one 256 B TLP */
  Bench b(p);
  uint64_t last = 0;
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(256, 7);
    for (int i = 0; i < 10; i++) d.transfer(tlm::TLM_WRITE_COMMAND, 0x1000 + 256u * i, buf.data(), 256);
    last = now_ps();
  };
  b.run(50000000);
  /* Round trip of a credit: 1104 ns TLP + 100 ns + 200 ns UpdateFC timer + 32 ns DLLP + 100 ns = 1536 ns.
   * TLP k starts at k x 1536 ns; the 10th has left at 9 x 1536 + 1104 ns. */
  EXPECT_EQ(last, 9u * 1536000u + 1104000u);
  const PcieDirCounters up = b.link->up_counters();
  EXPECT_EQ(up.credit_stalls, 9u);
  EXPECT_EQ(up.credit_stall_ps, 9u * (1536000u - 1104000u));
  /* Each write was returned by its own UpdateFC, besides the Acks. */
  EXPECT_GE(b.link->down_counters().dllps, 10u);
  for (int i = 0; i < 10; i++) EXPECT_EQ(b.mem->data()[0x1000 + 256 * i + 255], 7) << i;
  EXPECT_TRUE(b.violations.empty());
}

TEST(PcieCredits, NonPostedHeaderCreditsLimitReadsInFlight) {
  PcieParams p = gen1x1();
  p.mrrs = 128;
  p.ack_latency_ps = 100000;
  p.rc_nph_credits = 1;
  Bench b(p);
  uint64_t done = 0;
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(256);
    d.transfer(tlm::TLM_READ_COMMAND, 0x2000, buf.data(), 256); /* 2 MRds of 128 B */
    done = now_ps();
  };
  b.run(20000000);
  /* MRd 1: 20 B = 80 ns, arrives 180 ns, the root complex takes it at 380 ns and frees its credit;
   * UpdateFC at 480 ns, back at 480 + 32 + 100 = 612 ns: MRd 2 leaves then, arrives 792 ns, answered
   * at 992 ns; its CplD (128 + 20 B = 592 ns) is behind MRd 1's (380..972 ns): 992 + 592 + 100 ns. */
  EXPECT_EQ(done, 992000u + 592000u + 100000u);
  EXPECT_EQ(b.link->up_counters().credit_stalls, 1u);
  EXPECT_EQ(b.link->up_counters().credit_stall_ps, 612000u); /* offered at 0, right after MRd 1 */
}

TEST(PcieTags, ReadsBeyondTheTagLimitWaitForTheFirstCompletion) {
  PcieParams p = gen1x1();
  p.tags = 2;
  Bench b(p);
  uint64_t done = 0;
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(1536);
    d.transfer(tlm::TLM_READ_COMMAND, 0x0, buf.data(), 1536); /* 3 MRds of 512 B */
    done = now_ps();
  };
  b.run(50000000);
  static PcieReadStats s; /* ~120 KB: not on the test thread's coroutine stack */
  b.link->read_stats(s);
  EXPECT_EQ(s.mrds, 3u);
  EXPECT_EQ(s.tag_stalls, 1u);
  EXPECT_EQ(s.outstanding_max, 2u);
  EXPECT_EQ(s.latency.count(), 3u);
  EXPECT_EQ(b.link->outstanding(), 0u);
  /* MRd 1: sent at 0 (80 ns), arrives 180, answered at 380 ns; its 2 CplDs of 256 B (1104 ns each)
   * arrive at 2688 ns, which frees a tag. MRd 2 (on the wire at 80) is answered at 460 ns, its CplDs queue
   * behind: [2588, 4796), arriving 4896 ns. MRd 3 leaves at 2688 ns, is answered at 3068 ns, and
   * its CplDs run [4796, 7004), arriving 7104 ns. */
  EXPECT_EQ(done, 7104000u);
  const LatencyHist none;
  EXPECT_NEAR(s.latency.quantile_ps_since(none, 0.01), 2688000.0, 2688000.0 / 128);
  /* Latency counts from entering the link: MRd 2 entered at 0, queued behind MRd 1 on the wire. */
  EXPECT_NEAR(s.latency.quantile_ps_since(none, 1.0), 4896000.0, 4896000.0 / 128);
  EXPECT_NEAR(s.latency.mean_ps_since(none), (2688000.0 + 4896000.0 + 4416000.0) / 3, 1e-6);
  EXPECT_TRUE(b.violations.empty());
}

TEST(PcieTags, OutstandingMeanIsTheTimeAverage) {
  PcieParams p = gen1x1();
  Bench b(p);
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(64);
    d.transfer(tlm::TLM_READ_COMMAND, 0x0, buf.data(), 64);
  };
  b.run(10000000);
  static PcieReadStats s; /* ~120 KB: not on the test thread's coroutine stack */
  b.link->read_stats(s);
  /* One MRd outstanding from 0 to its CplD's arrival: 80 + 100 + 200 + (64 + 20) x 4 + 100 = 816 ns. */
  EXPECT_DOUBLE_EQ(s.outstanding_area, 816000.0);
  EXPECT_EQ(s.outstanding_max, 1u);
  EXPECT_EQ(s.latency.count(), 1u);
  EXPECT_EQ(s.dma.reqs, 1u);
  EXPECT_EQ(s.dma.bytes, 64u);
}

/* N posted 64 B writes back to back; returns the time the root complex has committed them all. */
uint64_t serialised_writes(bool ro, int n, uint64_t *first_arrival) {
  PcieParams p = gen3x8();
  p.rc_serialize_writes = true;
  p.rc_commit_ps = 500000;
  Bench b(p);
  b.dev->script = [&, n, ro](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(64, 9);
    for (int i = 0; i < n; i++) {
      if (ro)
        write_ro(d, 0x4000 + 64u * i, buf.data(), 64);
      else
        d.transfer(tlm::TLM_WRITE_COMMAND, 0x4000 + 64u * i, buf.data(), 64);
    }
  };
  uint64_t commit = 0;
  uint8_t before = 0xFF, after = 0;
  b.probe->script = [&] {
    wait(ps(200000)); /* all 8 writes have been sent (11.2 ns each) */
    commit = b.link->last_commit_ps();
    wait(ps(commit - now_ps() - 1));
    before = b.mem->data()[0x4000 + 64 * (n - 1)];
    wait(ps(1));
    after = b.mem->data()[0x4000 + 64 * (n - 1)];
  };
  b.run(100000000);
  EXPECT_EQ(before, 0) << "the last write is visible before its commit";
  EXPECT_EQ(after, 9) << "the last write is not visible at its commit";
  *first_arrival = TlpFormat(p).serialise_ps(88) + p.latency_ps;
  return commit;
}

TEST(PcieOrdering, SerialisingRootComplexCommitsNWritesInNTimesTheCommitLatency) {
  uint64_t a0 = 0;
  const uint64_t c = serialised_writes(false, 8, &a0);
  EXPECT_EQ(c, a0 + 8u * 500000u);
}

TEST(PcieOrdering, RelaxedOrderingWritesPipelineOnASerialisingRootComplex) {
  uint64_t a0 = 0;
  const uint64_t c = serialised_writes(true, 8, &a0);
  /* The 8th write arrives 7 TLP times after the first and commits one commit latency later. */
  const uint64_t tlp = TlpFormat(gen3x8()).serialise_ps(88);
  EXPECT_EQ(c, a0 + 7 * tlp + 500000u);
}

TEST(PcieOrdering, AStrongWriteWaitsForEarlierRelaxedOnesAndAReadForEveryWrite) {
  PcieParams p = gen3x8();
  p.rc_serialize_writes = true;
  p.rc_commit_ps = 500000;
  Bench b(p);
  uint64_t strong_commit = 0, read_done = 0;
  uint8_t seen = 0;
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(256, 5); /* 4 cache lines */
    write_ro(d, 0x8000, buf.data(), 256);
    d.transfer(tlm::TLM_WRITE_COMMAND, 0x9000, buf.data(), 64);
    strong_commit = b.link->last_commit_ps();
    uint8_t r = 0;
    d.transfer(tlm::TLM_READ_COMMAND, 0x9000, &r, 1);
    seen = r;
    read_done = now_ps();
  };
  b.run(100000000);
  const TlpFormat f(p);
  const uint64_t a_ro = f.serialise_ps(256 + 24) + p.latency_ps;
  const uint64_t a_strong = a_ro + f.serialise_ps(64 + 24);
  /* RO: its 4 lines commit together at a_ro + 500 ns; the strong write waits for that, then its line. */
  EXPECT_EQ(strong_commit, std::max(a_strong, a_ro + 500000) + 500000);
  /* The read is answered no earlier than that commit, and sees the write. */
  EXPECT_EQ(seen, 5);
  EXPECT_GE(read_done, strong_commit);
  EXPECT_TRUE(b.violations.empty());
}

}  // namespace
}  // namespace nicsim
