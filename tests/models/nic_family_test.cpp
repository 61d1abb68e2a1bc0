/* nic_family_test.cpp: the lan743x and stmmac descriptor families on the
 * fake host: layouts, DSPACE fetch batching, lan743x TX head write-back,
 * stmmac IOC bits and the RX watchdog (RIWT). */
#include <gtest/gtest.h>

#include <cstring>

#include "dma/dma_engine.h"
#include "dma/nic_clock.h"
#include "hw/i40e_regs.h"
#include "hw/lan743x_regs.h"
#include "hw/mvneta_regs.h"
#include "hw/stmmac_regs.h"
#include "models/nic_sim.h"

using namespace nicsim;
using namespace nicsim_test;

namespace {

using tlm::TLM_READ_COMMAND;
using tlm::TLM_WRITE_COMMAND;

constexpr uint64_t kHeadWb = 0x80000;

template <typename D>
D get_desc(const FakeHost &h, uint64_t ring, uint32_t spacing, uint32_t idx) {
  D d;
  std::memcpy(&d, &h.mem[ring + static_cast<uint64_t>(idx) * spacing], sizeof d);
  return d;
}
template <typename D>
void put_desc(FakeHost &h, uint64_t ring, uint32_t spacing, uint32_t idx, const D &d) {
  std::memcpy(&h.mem[ring + static_cast<uint64_t>(idx) * spacing], &d, sizeof d);
}

/* Ring registers, MSI, coalescing and mask, like FakeHost::setup_rx but
 * without writing generic descriptors. */
void program(FakeHost &h, bool rx, uint32_t ring_size, uint32_t spacing, uint32_t coal_frames,
             uint32_t coal_usecs) {
  h.wr(GN_REG_DESC_SPACING, spacing);
  h.wr(rx ? GN_REG_RX_RING_LO : GN_REG_TX_RING_LO, static_cast<uint32_t>(rx ? kRxRing : kTxRing));
  h.wr(rx ? GN_REG_RX_RING_HI : GN_REG_TX_RING_HI, 0);
  h.wr(rx ? GN_REG_RX_RING_SIZE : GN_REG_TX_RING_SIZE, ring_size);
  if (rx) h.wr(GN_REG_RX_BUF_SIZE, 2048);
  h.wr(GN_REG_MSI_ADDR_LO, static_cast<uint32_t>(kMsiAddr));
  h.wr(GN_REG_MSI_ADDR_HI, 0);
  h.wr(GN_REG_MSI_DATA, kMsiData);
  h.wr(GN_REG_COAL_FRAMES, coal_frames);
  h.wr(GN_REG_COAL_USECS, coal_usecs);
  h.wr(GN_REG_INT_MASK, 0);
}

lan743x_rx_desc lan_rx(uint64_t buf) {
  return lan743x_rx_desc{LAN743X_RX_DESC_DATA0_OWN | 2048u, static_cast<uint32_t>(buf),
                         static_cast<uint32_t>(buf >> 32), 0};
}

/* lan743x RX with DSPACE spacing: frames land, write-back format, fetches. */
void run_lan743x_rx(uint32_t spacing, uint64_t frames, uint64_t expect_reqs) {
  setup_systemc();
  nicsim_config cfg = rx_config(1518, frames);
  cfg.nic.family = NC_NIC_LAN743X;
  cfg.nic.desc_spacing = spacing;
  NicSim s(cfg);
  s.host.driver = [&](FakeHost &h) {
    program(h, true, 64, spacing, 32, 0);
    for (uint32_t i = 0; i < 63; i++) put_desc(h, kRxRing, spacing, i, lan_rx(kRxBufs + i * kBufStride));
    h.wr(GN_REG_RX_TAIL, 63);
    h.wr(GN_REG_CTRL, GN_CTRL_RX_EN);
  };
  sc_core::sc_start(us(60));
  const NicCounts c(s.nic);
  ASSERT_EQ(c.dma.c.rx_dma_frames, frames);
  EXPECT_EQ(c.dma.c.desc_fetch_reqs, expect_reqs);
  for (const auto &a : s.host.accesses(TLM_READ_COMMAND, DmaPurpose::DescFetch)) {
    EXPECT_EQ(a.len, spacing == 16 ? 8u * 16 : 16u);
  }
  for (uint32_t i = 0; i < frames; i++) {
    lan743x_rx_desc d = get_desc<lan743x_rx_desc>(s.host, kRxRing, spacing, i);
    EXPECT_EQ(d.data0 & LAN743X_RX_DESC_DATA0_OWN, 0u) << i;
    EXPECT_EQ(d.data0 & (LAN743X_RX_DESC_DATA0_FS | LAN743X_RX_DESC_DATA0_LS),
              LAN743X_RX_DESC_DATA0_FS | LAN743X_RX_DESC_DATA0_LS);
    /* FRAME_LENGTH counts the FCS, as the driver's skb_put(len - 4) expects. */
    EXPECT_EQ((d.data0 & LAN743X_RX_DESC_DATA0_FRAME_LENGTH_MASK) >> LAN743X_RX_DESC_DATA0_FRAME_LENGTH_SHIFT,
              1518u);
    EXPECT_EQ(d.data1, static_cast<uint32_t>(kRxBufs + i * kBufStride)); /* address kept */
    nf_header hdr;
    ASSERT_EQ(nf_check(&s.host.mem[kRxBufs + i * kBufStride], 1514, 11, &hdr), NF_OK) << i;
    EXPECT_EQ(hdr.seq, i);
  }
  /* Device ownership covers the 16 descriptor bytes, not DSPACE padding. */
  EXPECT_TRUE(s.what.empty());
}

}  // namespace

TEST(Lan743x, Dspace64FetchesOneDescriptorPerRequest) {
  /* 24 frames: 24 fetches for them and 16 more that fill the cache. */
  run_lan743x_rx(64, 24, 24 + 16);
}

TEST(Lan743x, Dspace16FetchesEightPerRequest) {
  /* 24 frames use 3 batches of 8; two more batches fill the cache. */
  run_lan743x_rx(16, 24, 3 + 2);
}

TEST(Lan743x, TxCompletionIsAHeadWriteBackAndDescriptorsStayUntouched) {
  setup_systemc();
  nicsim_config cfg = default_config();
  cfg.traffic.mode = NC_MODE_TX;
  cfg.run.seed = 11;
  cfg.nic.family = NC_NIC_LAN743X;
  NicSim s(cfg);
  const uint32_t frames = 10;
  s.host.driver = [&](FakeHost &h) {
    program(h, false, 64, 16, 1, 0);
    h.wr(GN_REG_TX_HEAD_WB_LO, static_cast<uint32_t>(kHeadWb));
    h.wr(GN_REG_CTRL, GN_CTRL_TX_EN);
    for (uint32_t i = 0; i < frames; i++) {
      uint64_t buf = kTxBufs + i * kBufStride;
      nf_fill(&h.mem[buf], 1514, 11, 0, i);
      /* No OWN bit: ownership is the tail. */
      lan743x_tx_desc d{LAN743X_TX_DESC_DATA0_FS | LAN743X_TX_DESC_DATA0_LS | LAN743X_TX_DESC_DATA0_FCS | 1514u,
                        static_cast<uint32_t>(buf), 0, 1514u << 16};
      put_desc(h, kTxRing, 16, i, d);
      h.wr(GN_REG_TX_TAIL, i + 1);
      sc_core::wait(us(2));
    }
  };
  sc_core::sc_start(us(40));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.peer.tx_ok, frames);
  EXPECT_EQ(c.peer.tx_errors, 0u);
  auto wb = s.host.accesses(TLM_WRITE_COMMAND, DmaPurpose::DescWriteBack);
  ASSERT_EQ(wb.size(), frames); /* nic.wb_mode desc: one head write per completion */
  for (const auto &a : wb) {
    EXPECT_EQ(a.addr, kHeadWb);
    EXPECT_EQ(a.len, 4u);
  }
  uint32_t head = 0;
  std::memcpy(&head, &s.host.mem[kHeadWb], 4);
  EXPECT_EQ(head, frames);
  for (uint32_t i = 0; i < frames; i++) {
    lan743x_tx_desc d = get_desc<lan743x_tx_desc>(s.host, kTxRing, 16, i);
    EXPECT_EQ(d.data0, LAN743X_TX_DESC_DATA0_FS | LAN743X_TX_DESC_DATA0_LS | LAN743X_TX_DESC_DATA0_FCS | 1514u);
  }
  EXPECT_EQ(c.dma.irq.raised, frames);
  EXPECT_TRUE(s.what.empty());
}

TEST(Stmmac, RxIocBitsAloneDecideInterruptsWithoutTheWatchdog) {
  setup_systemc();
  const uint64_t frames = 12;
  nicsim_config cfg = rx_config(1518, frames);
  cfg.nic.family = NC_NIC_STMMAC;
  /* RX_WATCHDOG is never written: the watchdog stays off (reset value 0). */
  NicSim s(cfg);
  s.host.driver = [&](FakeHost &h) {
    program(h, true, 64, 16, 1, 0); /* COAL_FRAMES 1 has no effect: no frame counter */
    for (uint32_t i = 0; i < 63; i++) {
      uint64_t buf = kRxBufs + i * kBufStride;
      uint32_t des3 = STMMAC_RDES3_OWN | STMMAC_RDES3_BUFFER1_VALID_ADDR;
      if (i % 4 == 3) des3 |= STMMAC_RDES3_INT_ON_COMPLETION_EN;
      put_desc(h, kRxRing, 16, i, stmmac_dma_desc{static_cast<uint32_t>(buf), 0, 0, des3});
    }
    h.wr(GN_REG_RX_TAIL, 63);
    h.wr(GN_REG_CTRL, GN_CTRL_RX_EN);
  };
  sc_core::sc_start(us(60));
  const NicCounts c(s.nic);
  ASSERT_EQ(c.dma.c.rx_dma_frames, frames);
  EXPECT_EQ(c.dma.irq.raised, frames / 4);
  auto wb = s.host.accesses(TLM_WRITE_COMMAND, DmaPurpose::DescWriteBack);
  ASSERT_EQ(wb.size(), frames);
  ASSERT_EQ(s.host.msi_ps.size(), frames / 4);
  for (size_t k = 0; k < s.host.msi_ps.size(); k++) {
    EXPECT_GE(s.host.msi_ps[k], wb[4 * k + 3].end_ps);
    if (4 * k + 4 < wb.size()) {
      EXPECT_LT(s.host.msi_ps[k], wb[4 * k + 4].start_ps);
    }
  }
  for (uint32_t i = 0; i < frames; i++) {
    stmmac_dma_desc d = get_desc<stmmac_dma_desc>(s.host, kRxRing, 16, i);
    EXPECT_EQ(d.des3 & STMMAC_RDES3_OWN, 0u);
    EXPECT_EQ(d.des3 & (STMMAC_RDES3_FIRST_DESCRIPTOR | STMMAC_RDES3_LAST_DESCRIPTOR),
              STMMAC_RDES3_FIRST_DESCRIPTOR | STMMAC_RDES3_LAST_DESCRIPTOR);
    EXPECT_EQ(d.des3 & STMMAC_RDES3_PACKET_SIZE_MASK, 1518u); /* with FCS, as dwmac4 reports it */
    nf_header hdr;
    ASSERT_EQ(nf_check(&s.host.mem[kRxBufs + i * kBufStride], 1514, 11, &hdr), NF_OK) << i;
  }
  EXPECT_TRUE(s.what.empty());
}

TEST(Stmmac, RxWatchdogFiresRiwtTimes256CsrCyclesAfterACompletionWithoutIoc) {
  setup_systemc();
  const uint64_t frames = 10;
  nicsim_config cfg = rx_config(1518, frames);
  cfg.nic.family = NC_NIC_STMMAC;
  cfg.nic.csr_clock_mhz = 250;
  NicSim s(cfg);
  s.host.driver = [&](FakeHost &h) {
    h.wr(GN_REG_DESC_SPACING, 16); /* COAL_USECS is not written: the timer is the watchdog */
    h.wr(GN_REG_RX_WATCHDOG, 10);   /* RWT 10: 10 x 256 / 250 MHz = 10.24 us */
    h.wr(GN_REG_RX_RING_LO, static_cast<uint32_t>(kRxRing));
    h.wr(GN_REG_RX_RING_HI, 0);
    h.wr(GN_REG_RX_RING_SIZE, 64);
    h.wr(GN_REG_RX_BUF_SIZE, 2048);
    h.wr(GN_REG_MSI_ADDR_LO, static_cast<uint32_t>(kMsiAddr));
    h.wr(GN_REG_MSI_DATA, kMsiData);
    h.wr(GN_REG_INT_MASK, 0);
    for (uint32_t i = 0; i < 63; i++) {
      uint64_t buf = kRxBufs + i * kBufStride;
      uint32_t des3 = STMMAC_RDES3_OWN | STMMAC_RDES3_BUFFER1_VALID_ADDR;
      if (i == 3 || i == 7) des3 |= STMMAC_RDES3_INT_ON_COMPLETION_EN;
      put_desc(h, kRxRing, 16, i, stmmac_dma_desc{static_cast<uint32_t>(buf), 0, 0, des3});
    }
    h.wr(GN_REG_RX_TAIL, 63);
    h.wr(GN_REG_CTRL, GN_CTRL_RX_EN);
  };
  sc_core::sc_start(us(60));
  const NicCounts c(s.nic);
  ASSERT_EQ(c.dma.c.rx_dma_frames, frames);
  auto wb = s.host.accesses(TLM_WRITE_COMMAND, DmaPurpose::DescWriteBack);
  ASSERT_EQ(wb.size(), frames);
  /* IOC on frames 3 and 7 (frames arrive 1.23 us apart, well inside the
   * 10.24 us watchdog); frames 8 and 9 have none: the watchdog armed by
   * frame 8 fires 10 x 256 / 250 MHz = 10.24 us later. */
  ASSERT_EQ(c.dma.irq.raised, 3u);
  ASSERT_EQ(s.host.msi_ps.size(), 3u);
  EXPECT_EQ(s.host.msi_ps[2], NicClock(250).after_cycles(wb[8].end_ps + 10240000u, 0));
}

TEST(Stmmac, TxInterruptsOnlyForDescriptorsWithIoc) {
  setup_systemc();
  nicsim_config cfg = default_config();
  cfg.traffic.mode = NC_MODE_TX;
  cfg.run.seed = 11;
  cfg.nic.family = NC_NIC_STMMAC;
  NicSim s(cfg);
  const uint32_t frames = 7;
  s.host.driver = [&](FakeHost &h) {
    program(h, false, 64, 16, 1, 20); /* a 20 us watchdog: RX only, TX never arms it */
    h.wr(GN_REG_CTRL, GN_CTRL_TX_EN);
    for (uint32_t i = 0; i < frames; i++) {
      uint64_t buf = kTxBufs + i * kBufStride;
      nf_fill(&h.mem[buf], 1514, 11, 0, i);
      uint32_t des2 = 1514u | (i % 3 == 2 ? STMMAC_TDES2_INTERRUPT_ON_COMPLETION : 0u);
      uint32_t des3 = STMMAC_TDES3_OWN | STMMAC_TDES3_FIRST_DESCRIPTOR | STMMAC_TDES3_LAST_DESCRIPTOR | 1514u;
      put_desc(h, kTxRing, 16, i, stmmac_dma_desc{static_cast<uint32_t>(buf), 0, des2, des3});
      h.wr(GN_REG_TX_TAIL, i + 1);
      sc_core::wait(us(2));
    }
  };
  sc_core::sc_start(us(60));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.peer.tx_ok, frames);
  EXPECT_EQ(c.dma.irq.raised, 2u); /* frames 2 and 5; frame 6 waits for a later interrupt */
  for (uint32_t i = 0; i < frames; i++) {
    stmmac_dma_desc d = get_desc<stmmac_dma_desc>(s.host, kTxRing, 16, i);
    EXPECT_EQ(d.des3 & STMMAC_TDES3_OWN, 0u) << i;
    EXPECT_NE(d.des3 & STMMAC_TDES3_LAST_DESCRIPTOR, 0u) << i;
  }
  EXPECT_TRUE(s.what.empty());
}

namespace {

/* i40e RX with rx_desc_bytes and DESC_SPACING 16: the RX ring is packed at
 * its own descriptor size, so fetches batch 8 descriptors. */
void run_i40e_rx(uint32_t rx_bytes) {
  setup_systemc();
  const uint64_t frames = 24;
  nicsim_config cfg = rx_config(1518, frames);
  cfg.nic.family = NC_NIC_I40E;
  cfg.nic.rx_desc_bytes = rx_bytes;
  NicSim s(cfg);
  s.host.driver = [&](FakeHost &h) {
    program(h, true, 64, 16, 32, 0);
    for (uint32_t i = 0; i < 63; i++) {
      i40e_32byte_rx_desc d{kRxBufs + i * kBufStride, 0, 0, 0};
      std::memcpy(&h.mem[kRxRing + static_cast<uint64_t>(i) * rx_bytes], &d, rx_bytes);
    }
    h.wr(GN_REG_RX_TAIL, 63);
    h.wr(GN_REG_CTRL, GN_CTRL_RX_EN);
  };
  sc_core::sc_start(us(60));
  const NicCounts c(s.nic);
  ASSERT_EQ(c.dma.c.rx_dma_frames, frames);
  EXPECT_EQ(c.dma.c.desc_fetch_reqs, 3u + 2u); /* 3 batches for the frames, 2 fill the cache */
  for (const auto &a : s.host.accesses(TLM_READ_COMMAND, DmaPurpose::DescFetch)) EXPECT_EQ(a.len, 8 * rx_bytes);
  auto wb = s.host.accesses(TLM_WRITE_COMMAND, DmaPurpose::DescWriteBack);
  ASSERT_EQ(wb.size(), frames);
  for (size_t i = 0; i < wb.size(); i++) {
    EXPECT_EQ(wb[i].addr, kRxRing + i * rx_bytes);
    EXPECT_EQ(wb[i].len, rx_bytes);
  }
  for (uint32_t i = 0; i < frames; i++) {
    i40e_32byte_rx_desc d{};
    std::memcpy(&d, &s.host.mem[kRxRing + static_cast<uint64_t>(i) * rx_bytes], rx_bytes);
    EXPECT_EQ(d.hdr_addr & 3u, 3u) << i; /* DD | EOF */
    EXPECT_EQ((d.hdr_addr & I40E_RXD_QW1_LENGTH_PBUF_MASK) >> I40E_RXD_QW1_LENGTH_PBUF_SHIFT, 1514u) << i;
    nf_header hdr;
    ASSERT_EQ(nf_check(&s.host.mem[kRxBufs + i * kBufStride], 1514, 11, &hdr), NF_OK) << i;
  }
  EXPECT_TRUE(s.what.empty());
}

}  // namespace

TEST(I40e, Rx32ByteDescriptorsArePackedAndWrittenBackWithDdEofAndLength) { run_i40e_rx(32); }

TEST(I40e, Rx16ByteDescriptors) { run_i40e_rx(16); }

TEST(I40e, TxDescriptorsCompleteWithDescDone) {
  setup_systemc();
  nicsim_config cfg = default_config();
  cfg.traffic.mode = NC_MODE_TX;
  cfg.run.seed = 11;
  cfg.nic.family = NC_NIC_I40E;
  NicSim s(cfg);
  const uint32_t frames = 8;
  auto qw1 = [](uint64_t len) {
    return I40E_TX_DESC_DTYPE_DATA | ((I40E_TX_DESC_CMD_EOP | I40E_TX_DESC_CMD_RS) << I40E_TXD_QW1_CMD_SHIFT) |
           (len << I40E_TXD_QW1_TX_BUF_SZ_SHIFT);
  };
  s.host.driver = [&](FakeHost &h) {
    program(h, false, 64, 16, 1, 0);
    h.wr(GN_REG_CTRL, GN_CTRL_TX_EN);
    for (uint32_t i = 0; i < frames; i++) {
      uint64_t buf = kTxBufs + i * kBufStride;
      nf_fill(&h.mem[buf], 1514, 11, 0, i);
      put_desc(h, kTxRing, 16, i, i40e_tx_desc{buf, qw1(1514)});
    }
    h.wr(GN_REG_TX_TAIL, frames);
  };
  sc_core::sc_start(us(40));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.peer.tx_ok, frames);
  for (uint32_t i = 0; i < frames; i++) {
    i40e_tx_desc d = get_desc<i40e_tx_desc>(s.host, kTxRing, 16, i);
    EXPECT_EQ(d.cmd_type_offset_bsz & I40E_TXD_QW1_DTYPE_MASK, I40E_TX_DESC_DTYPE_DESC_DONE) << i;
    EXPECT_EQ(d.cmd_type_offset_bsz & ~I40E_TXD_QW1_DTYPE_MASK, qw1(1514) & ~I40E_TXD_QW1_DTYPE_MASK) << i;
  }
  EXPECT_TRUE(s.what.empty());
}

TEST(Mvneta, RxFramesLandAfterTheMarvellHeaderIn32ByteDescriptors) {
  setup_systemc();
  const uint64_t frames = 24;
  nicsim_config cfg = rx_config(1518, frames);
  cfg.nic.family = NC_NIC_MVNETA;
  cfg.nic.desc_spacing = 32;
  NicSim s(cfg);
  s.host.driver = [&](FakeHost &h) {
    program(h, true, 64, 32, 32, 0);
    for (uint32_t i = 0; i < 63; i++) {
      mvneta_rx_desc d{};
      d.buf_phys_addr = static_cast<uint32_t>(kRxBufs + i * kBufStride);
      d.buf_cookie = 1000 + i;
      put_desc(h, kRxRing, 32, i, d);
    }
    h.wr(GN_REG_RX_TAIL, 63);
    h.wr(GN_REG_CTRL, GN_CTRL_RX_EN);
  };
  sc_core::sc_start(us(60));
  const NicCounts c(s.nic);
  ASSERT_EQ(c.dma.c.rx_dma_frames, frames);
  EXPECT_EQ(c.dma.c.desc_fetch_reqs, 3u + 2u); /* packed 32 B: 8 per request */
  for (const auto &a : s.host.accesses(TLM_READ_COMMAND, DmaPurpose::DescFetch)) EXPECT_EQ(a.len, 8u * 32);
  auto data = s.host.accesses(TLM_WRITE_COMMAND, DmaPurpose::Data);
  ASSERT_EQ(data.size(), frames);
  for (uint32_t i = 0; i < frames; i++) {
    EXPECT_EQ(data[i].addr, kRxBufs + i * kBufStride + MVNETA_MH_SIZE) << i; /* 2 B in: misaligned */
    mvneta_rx_desc d = get_desc<mvneta_rx_desc>(s.host, kRxRing, 32, i);
    EXPECT_EQ(d.status & MVNETA_RXD_FIRST_LAST_DESC, MVNETA_RXD_FIRST_LAST_DESC) << i;
    EXPECT_EQ(d.data_size, 1514u + MVNETA_MH_SIZE + 4u) << i; /* the driver subtracts FCS + MH */
    EXPECT_EQ(d.buf_cookie, 1000u + i);                        /* the driver's field is kept */
    nf_header hdr;
    ASSERT_EQ(nf_check(&s.host.mem[kRxBufs + i * kBufStride + MVNETA_MH_SIZE], 1514, 11, &hdr), NF_OK) << i;
    EXPECT_EQ(hdr.seq, i);
  }
  EXPECT_TRUE(s.what.empty());
}

TEST(Mvneta, TxIsCompletedByTheSentCountWithoutWriteBack) {
  setup_systemc();
  nicsim_config cfg = default_config();
  cfg.traffic.mode = NC_MODE_TX;
  cfg.run.seed = 11;
  cfg.nic.family = NC_NIC_MVNETA;
  cfg.nic.desc_spacing = 32;
  NicSim s(cfg);
  const uint32_t frames = 8;
  uint32_t head = 0;
  s.host.driver = [&](FakeHost &h) {
    program(h, false, 64, 32, 1, 0);
    h.wr(GN_REG_CTRL, GN_CTRL_TX_EN);
    for (uint32_t i = 0; i < frames; i++) {
      uint64_t buf = kTxBufs + i * kBufStride;
      nf_fill(&h.mem[buf], 1514, 11, 0, i);
      mvneta_tx_desc d{};
      d.command = MVNETA_TXD_FLZ_DESC;
      d.data_size = 1514;
      d.buf_phys_addr = static_cast<uint32_t>(buf);
      put_desc(h, kTxRing, 32, i, d);
    }
    h.wr(GN_REG_TX_TAIL, frames);
    sc_core::wait(us(30));
    head = h.rd(GN_REG_TX_HEAD);
  };
  sc_core::sc_start(us(40));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.peer.tx_ok, frames);
  EXPECT_EQ(head, frames);
  EXPECT_EQ(c.dma.c.desc_writebacks, 0u);
  EXPECT_TRUE(s.host.accesses(TLM_WRITE_COMMAND, DmaPurpose::DescWriteBack).empty());
  EXPECT_TRUE(s.what.empty());
}
