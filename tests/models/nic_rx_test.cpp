/* nic_rx_test.cpp: the NIC's receive path through NicDevice: frames in host
 * buffers, write-back and head, descriptor fetch batching, FIFO overflow
 * conservation, ownership, registers. */
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "dma/dma_engine.h"
#include "mac/mac.h"
#include "models/nic_sim.h"

using namespace nicsim;
using namespace nicsim_test;

namespace {

using tlm::TLM_READ_COMMAND;
using tlm::TLM_WRITE_COMMAND;

/* Checks frame seq in RX buffer idx (dma_len bytes). */
void expect_frame(const FakeHost &h, uint32_t idx, uint32_t dma_len, uint64_t seed, uint64_t seq) {
  nf_header hdr;
  ASSERT_EQ(nf_check(&h.mem[kRxBufs + static_cast<uint64_t>(idx) * kBufStride], dma_len, seed, &hdr), NF_OK)
      << "buffer " << idx;
  EXPECT_EQ(hdr.seq, seq) << "buffer " << idx;
}

/* F frames of 64 B with ring size 256 and the given spacing and fetch
 * batch; returns after checking exact fetch counts. */
void run_fetch_count(uint32_t spacing, uint32_t fetch_max, uint64_t frames, uint64_t expect_reqs,
                     uint64_t expect_fetched) {
  setup_systemc();
  nicsim_config cfg = rx_config(64, frames);
  cfg.nic.desc_fetch_max = fetch_max;
  NicSim s(cfg);
  s.host.driver = [spacing](FakeHost &h) { h.setup_rx(256, spacing, 255, 2048, 32, 0, true); };
  sc_core::sc_start(us(80));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.dma.c.rx_dma_frames, frames);
  EXPECT_EQ(c.dma.c.desc_fetch_reqs, expect_reqs);
  EXPECT_EQ(c.dma.c.desc_fetched, expect_fetched);
  auto fetches = s.host.accesses(TLM_READ_COMMAND, DmaPurpose::DescFetch);
  ASSERT_EQ(fetches.size(), expect_reqs);
  uint32_t batch = spacing == GN_DESC_SIZE ? fetch_max : 1;
  for (size_t i = 0; i < fetches.size(); i++) {
    EXPECT_EQ(fetches[i].len, batch * GN_DESC_SIZE) << i;
    EXPECT_EQ(fetches[i].addr, kRxRing + i * batch * spacing) << i;
  }
  for (uint32_t i = 0; i < frames; i++) expect_frame(s.host, i, 60, 11, i);
  EXPECT_TRUE(s.what.empty());
}

}  // namespace

TEST(NicRx, FramesLandIntactWithWriteBackAndHead) {
  setup_systemc();
  const uint64_t frames = 40;
  NicSim s(rx_config(1518, frames));
  uint32_t head_seen = 0;
  s.host.driver = [&](FakeHost &h) {
    h.setup_rx(64, 16, 63, 2048, 1, 0, true);
    sc_core::wait(us(80));
    head_seen = h.rd(GN_REG_RX_HEAD);
  };
  sc_core::sc_start(us(100));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.peer.rx_offered_frames, frames);
  EXPECT_EQ(c.peer.rx_offered_bytes, frames * 1518);
  EXPECT_EQ(c.dma.c.rx_dma_frames, frames);
  EXPECT_EQ(c.mac.rx_drop_fifo, 0u);
  EXPECT_EQ(c.dma.c.data_write_bytes, frames * 1514);
  EXPECT_EQ(c.dma.c.desc_writebacks, frames);
  EXPECT_EQ(s.nic.frames_in_flight(), 0u);
  EXPECT_EQ(head_seen, frames);
  for (uint32_t i = 0; i < frames; i++) {
    gn_rx_desc d = s.host.rx_desc(16, i);
    EXPECT_EQ(d.flags, GN_DESC_EOP) << i;
    EXPECT_EQ(d.pkt_len, 1514) << i;
    EXPECT_EQ(d.buf_len, 2048) << i;
    EXPECT_EQ(d.buf_addr, kRxBufs + i * kBufStride) << i;
    expect_frame(s.host, i, 1514, 11, i);
  }
  gn_rx_desc next = s.host.rx_desc(16, frames);
  EXPECT_EQ(next.flags, GN_DESC_OWN);
  EXPECT_EQ(next.pkt_len, 0);
  /* Per frame: data write, then its 16 B write-back, then the MSI (COAL_FRAMES 1). */
  auto data = s.host.accesses(TLM_WRITE_COMMAND, DmaPurpose::Data);
  auto wb = s.host.accesses(TLM_WRITE_COMMAND, DmaPurpose::DescWriteBack);
  ASSERT_EQ(data.size(), frames);
  ASSERT_EQ(wb.size(), frames);
  ASSERT_EQ(s.host.msi_ps.size(), frames);
  for (uint32_t i = 0; i < frames; i++) {
    EXPECT_EQ(data[i].len, 1514u);
    EXPECT_EQ(wb[i].len, 16u);
    EXPECT_EQ(wb[i].addr, kRxRing + i * 16);
    EXPECT_LE(data[i].end_ps, wb[i].start_ps);
    EXPECT_LE(wb[i].end_ps, s.host.msi_ps[i]);
    EXPECT_EQ(s.host.msi_data[i], kMsiData);
    EXPECT_EQ(wb[i].start_ps % 4000, 0u) << "DMA requests start on 250 MHz clock edges";
  }
  EXPECT_EQ(c.dma.irq.raised, frames);
  EXPECT_EQ(c.dma.c.busy_cycles, frames * 4); /* desc_proc_cycles per descriptor */
  EXPECT_TRUE(s.what.empty());
}

TEST(NicRx, FrameLargerThanBufferSpansDescriptors) {
  setup_systemc();
  const uint64_t frames = 5;
  NicSim s(rx_config(1518, frames));
  s.host.driver = [](FakeHost &h) { h.setup_rx(64, 16, 63, 1024, 32, 0, true); };
  sc_core::sc_start(us(50));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.dma.c.rx_dma_frames, frames);
  EXPECT_EQ(c.dma.c.desc_writebacks, 2 * frames);
  for (uint32_t f = 0; f < frames; f++) {
    gn_rx_desc a = s.host.rx_desc(16, 2 * f), b = s.host.rx_desc(16, 2 * f + 1);
    EXPECT_EQ(a.pkt_len, 1024);
    EXPECT_EQ(a.flags, 0);
    EXPECT_EQ(b.pkt_len, 1514 - 1024);
    EXPECT_EQ(b.flags, GN_DESC_EOP);
    std::vector<uint8_t> frame(1514);
    std::memcpy(frame.data(), &s.host.mem[a.buf_addr], 1024);
    std::memcpy(frame.data() + 1024, &s.host.mem[b.buf_addr], 490);
    nf_header hdr;
    ASSERT_EQ(nf_check(frame.data(), 1514, 11, &hdr), NF_OK);
    EXPECT_EQ(hdr.seq, f);
  }
}

TEST(NicRx, OneFetchPerDescriptorWhenSpacingLeavesGaps) {
  /* Spacing 64: one 16 B read per descriptor. The cache (2 x 8 entries)
   * stays full, so after 100 frames 100 + 16 descriptors were fetched. */
  run_fetch_count(64, 8, 100, 116, 116);
}

TEST(NicRx, PackedDescriptorsAreFetchedEightPerRequest) {
  /* Spacing 16, desc_fetch_max 8: 96 frames use 12 reads; 2 more refill the cache. */
  run_fetch_count(16, 8, 96, 14, 112);
}

TEST(NicRx, PackedDescriptorsAreFetchedFourPerRequest) {
  run_fetch_count(16, 4, 96, 26, 104);
}

TEST(NicRx, FetchBatchesStopAtTheRingEnd) {
  setup_systemc();
  const uint64_t frames = 30;
  NicSim s(rx_config(64, frames));
  s.host.driver = [](FakeHost &h) {
    h.setup_rx(20, 16, 19, 2048, 32, 0, true);
    while (h.rd(GN_REG_RX_HEAD) != 19) sc_core::wait(ns(500));
    /* Give back 19 and 0..9: the tail wraps to 10. */
    for (uint32_t i : {19u, 0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u})
      h.put_rx_desc(16, i, kRxBufs + (20 + i) * kBufStride, 2048, GN_DESC_OWN);
    h.wr(GN_REG_RX_TAIL, 10);
  };
  sc_core::sc_start(us(40));
  auto f = s.host.accesses(TLM_READ_COMMAND, DmaPurpose::DescFetch);
  ASSERT_EQ(f.size(), 6u);
  const uint32_t lens[] = {128, 128, 48, 16, 128, 32};
  const uint64_t addrs[] = {0, 128, 256, 19 * 16, 0, 128};
  for (size_t i = 0; i < 6; i++) {
    EXPECT_EQ(f[i].len, lens[i]) << i;
    EXPECT_EQ(f[i].addr, kRxRing + addrs[i]) << i;
  }
  const NicCounts c(s.nic);
  EXPECT_EQ(c.dma.c.desc_fetched, 30u);
  EXPECT_EQ(c.dma.c.rx_dma_frames, frames);
  EXPECT_EQ(s.nic.engine().rx_ring().head(), 10u);
  EXPECT_TRUE(s.what.empty());
}

TEST(NicRx, WithoutDescriptorsTheFifoFillsAndDropsAreCounted) {
  setup_systemc();
  const uint64_t frames = 200;
  nicsim_config cfg = rx_config(64, frames);
  cfg.nic.rx_fifo_bytes = 2048;
  NicSim s(cfg);
  s.host.driver = [](FakeHost &h) { h.setup_rx(64, 16, 0, 2048, 32, 0, true); };
  sc_core::sc_start(us(30));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.peer.rx_offered_frames, frames);
  EXPECT_EQ(c.dma.c.rx_dma_frames, 0u);
  EXPECT_EQ(s.nic.frames_in_flight(), 34u); /* floor(2048 / 60) frames fit */
  EXPECT_EQ(c.mac.rx_drop_fifo, frames - 34);
  EXPECT_EQ(c.dma.c.rx_drop_nodesc, 0u);
  EXPECT_EQ(c.dma.c.desc_fetch_reqs, 0u);
}

TEST(NicRx, SlowRefillOverflowIsConservedAtEveryInstant) {
  setup_systemc();
  const uint64_t frames = 2000;
  nicsim_config cfg = rx_config(64, frames);
  cfg.nic.rx_fifo_bytes = 2048;
  NicSim s(cfg);
  uint64_t checks = 0, mismatches = 0, delivered = 0, bad = 0, last_seq = 0;
  s.host.driver = [&](FakeHost &h) {
    const uint32_t size = 64;
    h.setup_rx(size, 16, 8, 2048, 32, 0, true);
    uint32_t clean = 0, tail = 8;
    for (int round = 0; round < 100; round++) {
      sc_core::wait(us(2));
      /* Conservation holds at every instant. */
      const NicCounts c(s.nic);
      checks++;
      if (c.peer.rx_offered_frames != c.dma.c.rx_dma_frames + c.mac.rx_drop_fifo + s.nic.frames_in_flight()) mismatches++;
      /* Reap completed descriptors (at most 8 per round), check, re-arm. */
      for (int k = 0; k < 8; k++) {
        gn_rx_desc d = h.rx_desc(16, clean);
        if (d.flags & GN_DESC_OWN || !(d.flags & GN_DESC_EOP)) break;
        nf_header hdr;
        if (nf_check(&h.mem[d.buf_addr], d.pkt_len, 11, &hdr) != NF_OK ||
            (delivered > 0 && hdr.seq <= last_seq)) {
          bad++;
        }
        last_seq = hdr.seq;
        delivered++;
        h.put_rx_desc(16, tail, d.buf_addr, 2048, GN_DESC_OWN);
        tail = (tail + 1) % size;
        clean = (clean + 1) % size;
      }
      h.wr(GN_REG_RX_TAIL, tail);
    }
  };
  sc_core::sc_start(us(250));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.peer.rx_offered_frames, frames);
  EXPECT_GT(c.mac.rx_drop_fifo, 0u);
  EXPECT_GT(c.dma.c.rx_dma_frames, 0u);
  EXPECT_EQ(c.peer.rx_offered_frames, c.dma.c.rx_dma_frames + c.mac.rx_drop_fifo + s.nic.frames_in_flight());
  EXPECT_EQ(checks, 100u);
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(bad, 0u);
  EXPECT_LE(delivered, c.dma.c.rx_dma_frames);
  EXPECT_GE(delivered + 8, c.dma.c.rx_dma_frames);
}

TEST(NicRx, DescriptorWithoutOwnIsAnOwnershipViolation) {
  setup_systemc();
  NicSim s(rx_config(64, 20));
  s.host.driver = [](FakeHost &h) {
    h.setup_rx(16, 16, 0, 2048, 32, 0, true);
    for (uint32_t i = 0; i < 8; i++)
      h.put_rx_desc(16, i, kRxBufs + i * kBufStride, 2048, i == 3 ? 0 : GN_DESC_OWN);
    h.wr(GN_REG_RX_TAIL, 8);
  };
  sc_core::sc_start(us(10));
  ASSERT_EQ(s.what.size(), 1u);
  EXPECT_NE(s.who[0].find("dma"), std::string::npos) << s.who[0];
  EXPECT_NE(s.what[0].find("RX descriptor 3"), std::string::npos) << s.what[0];
  EXPECT_NE(s.what[0].find("OWN"), std::string::npos) << s.what[0];
  EXPECT_EQ(s.nic.engine().counters().desc_fetch_reqs, 1u); /* the ring halts */
}

TEST(NicRx, TailBeyondTheRingIsAViolation) {
  setup_systemc();
  NicSim s(rx_config(64, 1));
  s.host.driver = [](FakeHost &h) {
    h.setup_rx(16, 16, 0, 2048, 32, 0, true);
    h.wr(GN_REG_RX_TAIL, 16);
  };
  sc_core::sc_start(us(2));
  ASSERT_EQ(s.what.size(), 1u);
  EXPECT_NE(s.what[0].find("beyond the end"), std::string::npos) << s.what[0];
}

TEST(NicRx, TailMovedBackOverFetchedDescriptorsIsAViolation) {
  setup_systemc();
  NicSim s(rx_config(64, 1));
  s.host.driver = [](FakeHost &h) {
    h.setup_rx(16, 16, 8, 2048, 32, 0, true);
    sc_core::wait(us(2)); /* the 8 descriptors are in the cache by now */
    h.wr(GN_REG_RX_TAIL, 4);
  };
  sc_core::sc_start(us(4));
  ASSERT_EQ(s.what.size(), 1u);
  EXPECT_NE(s.what[0].find("tail moved back"), std::string::npos) << s.what[0];
}

/* Runs f once in an SC_THREAD (set_tail notifies an event). */
struct OnceThread : sc_core::sc_module {
  std::function<void()> f;
  explicit OnceThread(sc_core::sc_module_name n, std::function<void()> fn) : sc_module(n), f(std::move(fn)) {
    SC_HAS_PROCESS(OnceThread);
    SC_THREAD(run);
  }
  void run() { f(); }
};

TEST(NicRx, DescRingOwnsTheSameBytesWithAnySpacing) {
  setup_systemc();
  /* 8 descriptors of 16 B from 0x10000, tail 5: slots 0..4 owned. A power
   * of two spacing takes the shift-and-mask path, 24 and 48 the division. */
  int checked = 0;
  OnceThread t("t", [&checked] {
    for (uint32_t spacing : {16u, 24u, 32u, 48u, 64u}) {
      DescRing r(4);
      r.set_base_lo(0x10000);
      r.set_size(8);
      r.set_geometry(spacing, 16);
      ASSERT_EQ(r.set_tail(5), nullptr);
      for (uint64_t pa = 0x10000 - 8; pa < 0x10000 + 9 * spacing; pa++) {
        const uint64_t off = pa - 0x10000;
        const bool want = pa >= 0x10000 && off / spacing < 5 && off % spacing < 16;
        EXPECT_EQ(r.owns(pa), want) << "spacing " << spacing << " pa 0x" << std::hex << pa;
        checked++;
      }
    }
  });
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_NS));
  EXPECT_EQ(checked, 5 * 8 + 9 * (16 + 24 + 32 + 48 + 64));
}

TEST(NicRx, DescRingOwnsAWrappedRangeAndNothingPastTheTopOfTheAddressSpace) {
  setup_systemc();
  /* owns() rejects an address outside the ring's span with one compare and
   * finds [head, tail) without dividing; checked against the definition
   * (slot index, bytes in the slot, circular distance from head). Ring 1:
   * 8 slots from 0x10000, head 5, tail 2: slots 5, 6, 7, 0, 1 owned. Ring 2:
   * 8 slots of 64 B from 2^64 - 0x100: slots 4..7 would lie past 2^64 and
   * an address just above 0 must not wrap into them. */
  int checked = 0, owned = 0;
  OnceThread t("t", [&checked, &owned] {
    for (uint32_t spacing : {16u, 24u, 64u}) {
      DescRing r(4);
      r.set_base_lo(0x10000);
      r.set_size(8);
      r.set_geometry(spacing, 16);
      ASSERT_EQ(r.set_tail(5), nullptr);
      r.advance_head(5);
      ASSERT_EQ(r.set_tail(2), nullptr);
      ASSERT_EQ(r.owned(), 5u);
      for (uint64_t pa = 0x10000 - 8; pa < 0x10000 + 9 * spacing; pa++) {
        const uint64_t off = pa - 0x10000, idx = off / spacing;
        const bool want = pa >= 0x10000 && idx < 8 && off % spacing < 16 && (idx >= 5 || idx < 2);
        EXPECT_EQ(r.owns(pa), want) << "spacing " << spacing << " pa 0x" << std::hex << pa;
        checked++;
        owned += want;
      }
    }
    DescRing top(4);
    top.set_base_hi(0xFFFFFFFFu);
    top.set_base_lo(0xFFFFFF00u);
    top.set_size(8);
    top.set_geometry(64, 16);
    ASSERT_EQ(top.set_tail(7), nullptr);
    for (uint64_t pa = 0; pa < 0x400; pa++) {
      EXPECT_FALSE(top.owns(pa)) << "pa 0x" << std::hex << pa;
      checked++;
    }
    for (uint64_t pa = 0xFFFFFFFFFFFFFF00ull; pa != 0; pa++) {
      const uint64_t off = pa - 0xFFFFFFFFFFFFFF00ull;
      EXPECT_EQ(top.owns(pa), off % 64 < 16) << "pa 0x" << std::hex << pa;
      checked++;
      owned += off % 64 < 16;
    }
  });
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_NS));
  /* 5 owned slots x 16 B per spacing, then 4 slots x 16 B below 2^64. */
  EXPECT_EQ(owned, 3 * 5 * 16 + 4 * 16);
  EXPECT_EQ(checked, 3 * 8 + 9 * (16 + 24 + 64) + 0x400 + 0x100);
}

TEST(NicRx, DeviceOwnsExactlyTheDescriptorBytesFromHeadToTail) {
  setup_systemc();
  NicSim s(rx_config(1518, 4));
  s.host.driver = [](FakeHost &h) {
    h.setup_rx(16, 64, 10, 2048, 32, 0, true);
    h.wr(GN_REG_CTRL, 0); /* RX off: frames wait in the FIFO */
    sc_core::wait(us(10));
    h.wr(GN_REG_CTRL, GN_CTRL_RX_EN);
  };
  sc_core::sc_start(us(5));
  EXPECT_TRUE(s.nic.device_owns(kRxRing));
  EXPECT_TRUE(s.nic.device_owns(kRxRing + 15));
  EXPECT_FALSE(s.nic.device_owns(kRxRing + 16)); /* padding between descriptors */
  EXPECT_TRUE(s.nic.device_owns(kRxRing + 9 * 64 + 8));
  EXPECT_FALSE(s.nic.device_owns(kRxRing + 10 * 64)); /* tail: the driver's */
  EXPECT_FALSE(s.nic.device_owns(kRxRing - 1));
  EXPECT_EQ(s.nic.frames_in_flight(), 4u);
  sc_core::sc_start(us(20));
  EXPECT_EQ(s.nic.engine().counters().rx_dma_frames, 4u);
  EXPECT_FALSE(s.nic.device_owns(kRxRing + 3 * 64));
  EXPECT_TRUE(s.nic.device_owns(kRxRing + 4 * 64));
  EXPECT_EQ(s.nic.frames_in_flight(), 0u);
}

TEST(NicRx, RegisterReadsCostTheirTimeAndStatusClearsOnRead) {
  setup_systemc();
  nicsim_config cfg = rx_config(1518, 1);
  cfg.nic.reg_read_ns = 150;
  NicSim s(cfg);
  uint64_t read_ps = 0;
  uint32_t st1 = 0xFFFF, st2 = 0xFFFF, reserved = 0xFFFF, spacing = 0, head = 0;
  tlm::tlm_response_status beyond = tlm::TLM_OK_RESPONSE, narrow = tlm::TLM_OK_RESPONSE;
  s.host.driver = [&](FakeHost &h) {
    h.setup_rx(16, 16, 8, 2048, 32, 0, false);
    sc_core::wait(us(5));
    uint64_t t0 = now_ps();
    st1 = h.rd(GN_REG_INT_STATUS);
    read_ps = now_ps() - t0;
    st2 = h.rd(GN_REG_INT_STATUS);
    reserved = h.rd(0x0F0);
    spacing = h.rd(GN_REG_DESC_SPACING);
    h.wr(GN_REG_RX_HEAD, 7); /* read-only: ignored */
    head = h.rd(GN_REG_RX_HEAD);
    uint8_t b[8] = {};
    beyond = h.access(tlm::TLM_READ_COMMAND, GN_BAR0_SIZE, b);
    narrow = h.access(tlm::TLM_READ_COMMAND, GN_REG_CTRL, b, 2);
  };
  sc_core::sc_start(us(10));
  EXPECT_EQ(read_ps, 150000u);
  EXPECT_EQ(st1, GN_INT_RX);
  EXPECT_EQ(st2, 0u);
  EXPECT_EQ(reserved, 0u);
  EXPECT_EQ(spacing, 16u);
  EXPECT_EQ(head, 1u);
  EXPECT_EQ(beyond, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(narrow, tlm::TLM_BURST_ERROR_RESPONSE);
  const NicCounts c(s.nic);
  EXPECT_EQ(c.dma.irq.raised, 0u); /* masked all along */
  EXPECT_EQ(c.dma.c.mmio_reads, 1u + 5u); /* setup_rx reads CTRL once; failed accesses do not count */
}
