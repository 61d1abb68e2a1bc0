// test_bus_nic.cpp: the NIC workload over the AXI-like on-chip bus (bus.enabled):
// whole runs of the generic NIC and driver at 1 GbE (conservation, line-rate
// throughput on a fast bus, a narrow slow bus capping throughput at width x
// clock, bus metrics instead of PCIe ones, wired interrupts), the CPU's
// register path (readl round trip, posted writel, program order), the wired
// interrupt waiting for earlier writes, and the config rules.
#include <gtest/gtest.h>


#include <cmath>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "sim/model_params.h"
#include "bus/axi_bus.h"
#include "common/child_process.h"
#include "bus/axi_reg_port.h"
#include "config/config.h"
#include "cpu/cpu_core.h"
#include "memory/host_memory.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"
#include "sim_test_util.h"

namespace {

using nicsim::test::metric;
using nicsim::test::run_ok;

constexpr double kFrame = 1518;                          /* traffic.frame_bytes below */
constexpr double kLineGbps = 1.0 * kFrame / (kFrame + 20); /* 1 GbE: preamble, SFD and IFG take 20 B per frame */

/* Generic NIC and driver at 1 GbE, 1518 B frames, over the bus (schema
 * defaults: 16 B x 250 MHz = 32 Gbit/s per data channel), plus overrides.
 * A 1518 B frame takes 12.304 us at 1 Gbit/s: ~146 frames in the 1.8 ms window. */
nicsim_config make_cfg(std::initializer_list<const char *> sets) {
  return nicsim::test::checked_config({"bus.enabled=true", "nic.line_rate_gbps=1", "traffic.frame_bytes=1518",
                                       "run.warmup_us=200", "run.duration_us=2000", "run.drain_us=2000"},
                                      sets);
}

/* Checks common to every bus run: conservation, no PCIe metrics, bus metrics present. */
void expect_bus_run(const nicsim_results &r) {
  EXPECT_EQ(metric(r, "total.rx.sent"), metric(r, "total.rx.received") + metric(r, "total.rx.dropped"));
  EXPECT_EQ(metric(r, "total.tx.sent"), metric(r, "total.tx.received"));
  double v = 0;
  EXPECT_FALSE(nicsim_results_get(&r, "pcie.up.tlps", &v)) << "no PCIe link in a bus run";
  EXPECT_FALSE(nicsim_results_get(&r, "pcie.up.data.tlps", &v)) << "no per-purpose PCIe traffic either";
  EXPECT_TRUE(nicsim_results_get(&r, "bus.rd_util", &v));
  EXPECT_TRUE(nicsim_results_get(&r, "bus.wr_util", &v));
  EXPECT_GT(metric(r, "bus.bursts"), 0);
  /* The interrupt is a wire: it never takes a burst. */
  EXPECT_EQ(metric(r, "bus.msi.bursts"), 0);
  EXPECT_EQ(metric(r, "bus.mmio.bursts"), 0);
}

TEST(BusNic, RxAtLineRateOnAFastBusConservesFramesAndReportsBusMetrics) {
  const nicsim_config cfg = make_cfg({"traffic.mode=rx"});
  nicsim_results r;
  run_ok(cfg, &r);
  expect_bus_run(r);
  EXPECT_EQ(metric(r, "rx.drops"), 0);
  /* Frames are counted by send time: within one frame of line rate (1/146). */
  EXPECT_NEAR(metric(r, "rx.gbps") / kLineGbps, 1.0, 0.01) << metric(r, "rx.gbps");
  const double pkts = metric(r, "rx.pkts");
  ASSERT_GT(pkts, 140);
  /* Every received frame is written over the bus: its 1514 B (no FCS) of
   * data, counted by bus time, within a frame at each window edge. */
  EXPECT_NEAR(metric(r, "bus.data.bytes"), metric(r, "nic.data_write_bytes"), 2 * (kFrame - 4));
  EXPECT_NEAR(metric(r, "bus.data.bytes") / (kFrame - 4), pkts, 2);
  EXPECT_GT(metric(r, "bus.desc_fetch.bursts"), 0);
  EXPECT_GT(metric(r, "bus.desc_writeback.bursts"), 0);
  /* Write channel: ~1.5 kB per 12.3 us over 32 Gbit/s is about 3 % busy. */
  EXPECT_GT(metric(r, "bus.wr_util"), 0.02);
  EXPECT_LT(metric(r, "bus.wr_util"), 0.05);
  /* dma.* come from the bus; data dominates the payload. */
  EXPECT_NEAR(metric(r, "dma.gbps"), metric(r, "rx.gbps"), 0.05 * metric(r, "rx.gbps"));
  /* Interrupts reach the CPU as wired interrupts, each one taken. */
  EXPECT_GT(metric(r, "irq.count"), 0);
  EXPECT_NEAR(metric(r, "bus.irqs"), metric(r, "irq.count"), 1.0);
  EXPECT_NEAR(metric(r, "cpu.irqs"), metric(r, "irq.count"), 1.0);
  /* The driver's doorbells (writel) went over the register port. */
  EXPECT_GT(metric(r, "cpu.mmio_writes"), 0);
}

TEST(BusNic, TxAtLineRateOnAFastBus) {
  const nicsim_config cfg = make_cfg({"traffic.mode=tx"});
  nicsim_results r;
  run_ok(cfg, &r);
  expect_bus_run(r);
  EXPECT_NEAR(metric(r, "tx.gbps") / kLineGbps, 1.0, 0.01) << metric(r, "tx.gbps");
  /* TX frames are read over the bus: 1514 B of data each. */
  EXPECT_NEAR(metric(r, "bus.data.bytes") / (kFrame - 4), metric(r, "tx.pkts"), 2);
  EXPECT_GT(metric(r, "bus.rd_util"), 0.02);
  EXPECT_GT(metric(r, "dma.rd_latency_ns"), cfg.bus.rd_latency_ns);
}

TEST(BusNic, BidirAtLineRateOnAFastBus) {
  const nicsim_config cfg = make_cfg({"traffic.mode=bidir"});
  nicsim_results r;
  run_ok(cfg, &r);
  expect_bus_run(r);
  EXPECT_EQ(metric(r, "rx.drops"), 0);
  EXPECT_NEAR(metric(r, "rx.gbps") / kLineGbps, 1.0, 0.01) << metric(r, "rx.gbps");
  EXPECT_NEAR(metric(r, "tx.gbps") / kLineGbps, 1.0, 0.01) << metric(r, "tx.gbps");
  /* Both directions' frames cross the bus: RX as writes, TX as reads. */
  EXPECT_NEAR(metric(r, "bus.data.bytes") / (kFrame - 4), metric(r, "rx.pkts") + metric(r, "tx.pkts"), 4);
}

/* The 1.8 ms window of make_cfg, in seconds. */
constexpr double kWindowS = 1.8e-3;

TEST(BusNic, ANarrowSlowBusCapsRxAtWidthTimesClock) {
  /* 4 B x 12.5 MHz = 50 MB/s = 0.4 Gbit/s on the write-data channel, less
   * than the 1 GbE wire: the RX FIFO overflows and the bus sets the rate.
   * Each frame is its 1514 B of data (no FCS) plus a 16 B descriptor
   * write-back on the write channel: 50e6 / 1530 = 32,680 frames/s (a
   * part-word beat at the buffer's start or end adds at most 0.3 %).
   * rx.gbps counts frames by send time, so under overload it includes the
   * backlog delivered in the drain (docs/metrics.md): the rate the bus
   * carries is measured on the DMA side, by bus time. */
  const nicsim_config cfg = make_cfg({"traffic.mode=rx", "bus.width_bytes=4", "bus.clock_mhz=12.5"});
  nicsim_results r;
  run_ok(cfg, &r);
  expect_bus_run(r);
  EXPECT_GT(metric(r, "rx.drops"), 0) << "the wire offers more than the bus carries";
  EXPECT_GT(metric(r, "bus.wr_util"), 0.99) << "the write channel is the bottleneck";
  EXPECT_NEAR(metric(r, "bus.desc_writeback.bytes") / metric(r, "nic.desc_writebacks"), 16, 1e-9);
  const double want_fps = 4 * 12.5e6 / (kFrame - 4 + 16);
  const double fps = metric(r, "nic.data_write_bytes") / (kFrame - 4) / kWindowS;
  EXPECT_NEAR(fps / want_fps, 1.0, 0.015) << fps << " vs " << want_fps;
  /* Well below the 81,275 frames/s of the wire: fewer frames reach the host. */
  EXPECT_LT(metric(r, "rx.gbps"), 0.7 * kLineGbps);
}

TEST(BusNic, ANarrowSlowBusCapsTxAtWidthTimesClock) {
  /* Same bus, TX: each frame's 1514 B are read on the read-data channel
   * (4 B x 12.5 MHz = 0.4 Gbit/s) with its 16 B descriptor fetch (fetched
   * in batches): 50e6 / 1530 = 32,680 frames/s, 1518 B each on the wire =
   * 0.3969 Gbit/s. The stack's backlog in the TX ring drains slowly: a
   * long drain. */
  const nicsim_config cfg =
      make_cfg({"traffic.mode=tx", "bus.width_bytes=4", "bus.clock_mhz=12.5", "run.drain_us=8000"});
  nicsim_results r;
  run_ok(cfg, &r);
  expect_bus_run(r);
  EXPECT_GT(metric(r, "bus.rd_util"), 0.99);
  const double want_gbps = 4 * 12.5e6 / (kFrame - 4 + 16) * kFrame * 8 / 1e9;
  EXPECT_NEAR(metric(r, "tx.gbps") / want_gbps, 1.0, 0.015) << metric(r, "tx.gbps") << " vs " << want_gbps;
}

TEST(BusNic, WiredInterruptsTakeTheControllerLatency) {
  /* A wired interrupt reaches the core cpu.msi_latency_ns after the device
   * asserts it; irq.latency_ns counts from there to the kernel taking it. */
  const nicsim_config cfg = make_cfg({"traffic.mode=rx", "cpu.msi_latency_ns=700"});
  nicsim_results r;
  run_ok(cfg, &r);
  EXPECT_GT(metric(r, "cpu.irqs"), 0);
  EXPECT_GE(metric(r, "irq.latency_ns"), 700.0);
  EXPECT_NEAR(metric(r, "bus.irqs"), metric(r, "irq.count"), 1.0);
}

TEST(BusNic, TheNicWorkloadOverTheBusIsAcceptedAndANonPowerOfTwoWidthRefused) {
  nicsim_config ok = nicsim::test::config_with({"workload.kind=nic", "bus.enabled=true"}, {});
  nc_error e;
  EXPECT_EQ(nc_config_check(&ok, &e), 0) << e.msg;
  nicsim_config bad = nicsim::test::config_with({"workload.kind=nic", "bus.enabled=true", "bus.width_bytes=12"}, {});
  EXPECT_EQ(nc_config_check(&bad, &e), 0) << "the bus's own rule: its Params' (AxiParams::validate)";
  EXPECT_EQ(nicsim_check_config(&bad, &e), -1);
  EXPECT_NE(std::strstr(e.msg, "bus.width_bytes"), nullptr) << e.msg;
  EXPECT_NE(std::strstr(e.msg, "power of two"), nullptr) << e.msg;
  EXPECT_NE(std::strstr(e.hint, "8 or 16"), nullptr) << e.hint;
  /* Without the bus the width is not used, hence not checked. */
  nicsim_config off = nicsim::test::config_with({"bus.width_bytes=12"}, {});
  EXPECT_EQ(nicsim_check_config(&off, &e), 0) << e.msg;
}

/* ---- the register port and the wired interrupt, model level ---------------- */

using nicsim::test::make;
using nicsim::test::now_ps;
using nicsim::test::ps;

/* A core at 2 GHz (500 ps per cycle) whose MMIO goes over the bus's register
 * port to a register file answering reads in reg_read_ns; bus at 250 MHz
 * (4 ns per cycle), 16 B wide. */
struct RegBench {
  nicsim_config cfg;
  nicsim::HostMemory *mem;
  nicsim::CpuCore *cpu;
  nicsim::AxiRegPort *port;
  nicsim::test::RegTarget *regs;
  nicsim::test::ScriptedInitiator *rc;

  RegBench(double rd_latency_ns, double wr_latency_ns, double reg_read_ns) {
    nicsim::test::init_systemc();
    nc_config_defaults(&cfg);
    cfg.cpu.clock_mhz = 2000;
    cfg.memory.size_mb = 1;
    cfg.bus.enabled = true;
    cfg.bus.width_bytes = 16;
    cfg.bus.clock_mhz = 250;
    cfg.bus.rd_latency_ns = rd_latency_ns;
    cfg.bus.wr_latency_ns = wr_latency_ns;
    mem = &make<nicsim::HostMemory>("mem", 1ull << 20, 0xFEE00000ull);
    cpu = &make<nicsim::CpuCore>("cpu", nicsim::cpu_params(cfg), *mem);
    port = &make<nicsim::AxiRegPort>("port", nicsim::bus_params(cfg));
    regs = &make<nicsim::test::RegTarget>("regs");
    regs->read_delay_ps = static_cast<uint64_t>(std::llround(reg_read_ns * 1000));
    rc = &make<nicsim::test::ScriptedInitiator>("rc"); /* memory's target socket must be bound */
    rc->socket.bind(mem->tgt);
    cpu->mmio.bind(port->host);
    port->regs.bind(regs->socket);
  }
  void run() { sc_core::sc_start(ps(100000000)); }
};

/* Busy CPU cycles of `reads` readl calls over the bus with bus.rd_latency_ns = lat. */
double read_cycles(double lat, int reads) {
  RegBench b(lat, 50, 100);
  double cycles = -1;
  b.cpu->set_program([&](nicsim::CpuCore &c) {
    const double before = c.busy_cycles(false);
    for (int i = 0; i < reads; i++) c.mmio_read32(0x10);
    cycles = c.busy_cycles(false) - before;
  });
  b.run();
  return cycles;
}

/* read_cycles in a child process (one SystemC simulation per process). */
double read_cycles_in_child(double lat, int reads) {
  double v = NAN;
  EXPECT_TRUE(nicsim_test::in_child_process(
      [=](double *out) {
        *out = read_cycles(lat, reads);
        return 0;
      },
      &v));
  return v;
}

TEST(BusNicMmio, EachReadStallsTheCoreForTheBusRoundTrip) {
  /* Per readl: 4 ns read address + 100 ns rd_latency + 100 ns register
   * (nic.reg_read_ns) + 4 ns data beat = 208 ns = 416 cycles at 2 GHz. */
  EXPECT_DOUBLE_EQ(read_cycles(100, 10), 10 * 416.0);
}

TEST(BusNicMmio, ReadCostRisesWithTheBusReadLatency) {
  /* 300 ns more bus read latency: 600 more cycles per readl, nothing else. */
  const double lo = read_cycles_in_child(100, 20);
  const double hi = read_cycles_in_child(400, 20);
  EXPECT_DOUBLE_EQ(lo, 20 * 416.0);
  EXPECT_DOUBLE_EQ(hi - lo, 20 * 600.0);
}

TEST(BusNicMmio, WritesArePostedAndAReadWaitsForThem) {
  /* wr_latency 300 ns > the read's 4 + 100 ns: the read must still see the write. */
  RegBench b(100, 300, 100);
  double write_cycles = -1;
  uint32_t seen = 0;
  uint64_t t_write = 0;
  b.cpu->set_program([&](nicsim::CpuCore &c) {
    c.sync();
    t_write = now_ps();
    const double before = c.busy_cycles(false);
    c.mmio_write32(0x20, 0xabc);
    write_cycles = c.busy_cycles(false) - before;
    seen = c.mmio_read32(0x20);
  });
  b.run();
  /* The CPU pays only cpu.mmio_write_cycles for a write. */
  EXPECT_DOUBLE_EQ(write_cycles, b.cfg.cpu.mmio_write_cycles);
  EXPECT_EQ(seen, 0xabcu);
  ASSERT_EQ(b.regs->log.size(), 2u);
  /* The write reaches the register after its one beat (4 ns) and wr_latency. */
  EXPECT_TRUE(b.regs->log[0].write);
  EXPECT_EQ(b.regs->log[0].time_ps - t_write, 4000u + 300000u);
  /* The read samples it after the write arrived, then answers in 100 ns. */
  EXPECT_FALSE(b.regs->log[1].write);
  EXPECT_EQ(b.regs->log[1].time_ps - t_write, 4000u + 300000u + 100000u);
  EXPECT_EQ(b.port->counters().writes, 1u);
  EXPECT_EQ(b.port->counters().reads, 1u);
}

TEST(BusNicIrq, AWiredInterruptWaitsForTheEarlierWritesResponse) {
  nicsim::test::init_systemc();
  nicsim_config cfg;
  nc_config_defaults(&cfg);
  cfg.bus.width_bytes = 16;
  cfg.bus.clock_mhz = 250;
  cfg.bus.wr_latency_ns = 50;
  auto &mem = make<nicsim::HostMemory>("mem", 1ull << 20, 0xFEE00000ull);
  auto &bus = make<nicsim::AxiBus>("bus", nicsim::bus_params(cfg));
  auto &dev = make<nicsim::test::ScriptedInitiator>("dev");
  dev.socket.bind(bus.dev);
  bus.mem.bind(mem.tgt);
  std::vector<std::pair<uint64_t, uint32_t>> irqs;
  uint64_t t_back = 0;
  uint32_t in_mem_at_irq = 0;
  mem.on_msi = [&](uint32_t) { ADD_FAILURE() << "a wired interrupt never reaches memory"; };
  static uint8_t buf[256];
  std::memset(buf, 0x5a, sizeof buf);
  dev.script = [&](nicsim::test::ScriptedInitiator &d) {
    /* 256 B: one burst of 16 beats (64 ns), in memory 50 ns after its last beat. */
    EXPECT_EQ(d.transfer(tlm::TLM_WRITE_COMMAND, 0x1000, buf, 256), tlm::TLM_OK_RESPONSE);
    uint8_t vec[4] = {3, 0, 0, 0};
    EXPECT_EQ(d.transfer(tlm::TLM_WRITE_COMMAND, 0xFEE00000ull, vec, 4, nicsim::DmaPurpose::Msi),
              tlm::TLM_OK_RESPONSE);
    t_back = now_ps();
  };
  bus.on_irq = [&](uint32_t v) {
    irqs.emplace_back(now_ps(), v);
    in_mem_at_irq = mem.data()[0x1000 + 255];
  };
  sc_core::sc_start(ps(10000000));
  EXPECT_EQ(t_back, 64000u) << "the write returns at its last beat; the interrupt takes no bus time";
  ASSERT_EQ(irqs.size(), 1u);
  EXPECT_EQ(irqs[0].first, 64000u + 50000u);
  EXPECT_EQ(irqs[0].second, 3u);
  EXPECT_EQ(in_mem_at_irq, 0x5au) << "the data is in memory when the interrupt is asserted";
  const nicsim::AxiCounters c = bus.counters();
  EXPECT_EQ(c.irqs, 1u);
  EXPECT_EQ(c.wr_bursts, 1u);
  EXPECT_EQ(c.purpose_bytes[static_cast<size_t>(nicsim::DmaPurpose::Msi)], 0u);
}

}  // namespace
