/* nic_rx_method_test.cpp: the DMA engine's RX data path as an SC_METHOD over
 * a real PcieLink (DmaEngine::rx_data_method, the link's device_write_nb)
 * against the same path as the SC_THREAD (Params::rx_method = false). Each
 * case runs once per mode, each in a child process (SystemC elaborates once
 * per process), and must give the same counters, host memory and DMA
 * timeline (trace file, every request's start and end), and so must the
 * method with lookahead (it skips start waits while nothing else can run:
 * the same requests at the same times), besides its own
 * hand-derived checks: multi-buffer frames, RX disabled and re-enabled in
 * the middle of a frame, a ring halted by a bad descriptor, descriptor
 * starvation then refill, and posted-credit stalls on the link. */
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "sim/model_params.h"
#include "../sim/pcie_bench.h"
#include "common/child_process.h"
#include "common/lookahead.h"
#include "dma/dma_engine.h"
#include "dma/generic_desc_codec.h"
#include "hw/generic_nic_regs.h"
#include "mac/mac.h"
#include "memory/host_memory.h"
#include "models/nic_sim.h"
#include "net/frame.h"
#include "common/trace.h"
#include "pcie/pcie_link.h"
#include "traffic/wire_peer.h"

using namespace nicsim;
using namespace nicsim_test;

namespace {

/* What a case's run leaves behind; filled in the child, checked in the parent. */
struct Result {
  bool ran = false;
  bool method = false; /* engine.rx_is_method() */
  uint64_t rx_dma_frames = 0, desc_writebacks = 0, data_write_bytes = 0, busy_cycles = 0, rx_drop_nodesc = 0;
  uint64_t fetch_reqs = 0, fetched = 0;
  uint64_t mac_rx_frames = 0, mac_rx_drops = 0, fifo_frames = 0, irqs = 0, msis = 0;
  uint64_t up_tlps = 0, credit_stalls = 0, credit_stall_ps = 0, dma_reqs = 0, dma_bytes = 0;
  uint64_t line_waits = 0, credit_waits = 0; /* the method's link waits */
  uint64_t lookaheads = 0;                   /* start waits the method skipped (lookahead on) */
  uint64_t mem_hash = 0;                     /* FNV-1a of the RX ring and buffers */
  uint32_t violations = 0;
  char first_violation[160] = {};
  uint64_t probe[8] = {}; /* the case's own observations */
};

constexpr uint64_t kRing = 0x10000;
constexpr uint64_t kBufs = 0x100000;
constexpr uint32_t kStride = 2048;
constexpr uint64_t kMem = 4u << 20;
constexpr uint64_t kMsi = 0xFEE00000ull;

/* Mac + WirePeer + DmaEngine behind a PcieLink with host memory, and a
 * driver thread doing MMIO through the link. */
class LinkRig : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<LinkRig> dma;
  tlm_utils::simple_target_socket<LinkRig> regs;
  tlm_utils::simple_initiator_socket<LinkRig> mmio;
  HostMemory mem;
  PcieLink link;
  GenericDescCodec codec;
  Mac mac;
  WirePeer peer;
  DmaEngine engine;
  std::function<void(LinkRig &)> driver;
  std::vector<std::string> violations;
  uint64_t msis = 0;

  LinkRig(sc_core::sc_module_name name, const nicsim_config &cfg, const PcieParams &pp, const DmaEngine::Params &ep)
      : sc_core::sc_module(name),
        dma("dma"),
        regs("regs"),
        mmio("mmio"),
        mem("mem", kMem, kMsi),
        link("pcie", pp),
        mac("mac", nic_params(cfg).mac),
        peer("peer", nic_params(cfg).peer, mac),
        engine("dma_engine", ep, codec, mac, dma) {
    mac.set_tx_sink(&peer);
    dma.bind(link.dev);
    link.regs.bind(regs);
    mmio.bind(link.host);
    link.mem.bind(mem.tgt);
    regs.register_b_transport(this, &LinkRig::b_regs);
    auto v = [this](const std::string &who, const std::string &msg) { violations.push_back(who + ": " + msg); };
    engine.set_violation_handler(v);
    link.on_violation = v;
    mem.on_violation = v;
    mem.on_msi = [this](uint32_t) { msis++; };
    SC_HAS_PROCESS(LinkRig);
    SC_THREAD(run);
  }

  void wr(uint32_t off, uint32_t v) {
    uint8_t b[4] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v >> 16),
                    static_cast<uint8_t>(v >> 24)};
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(off);
    gp.set_data_ptr(b);
    gp.set_data_length(4);
    gp.set_streaming_width(4);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    mmio->b_transport(gp, d);
  }
  void put_desc(uint32_t idx, uint16_t buf_len) {
    gn_rx_desc d{kBufs + static_cast<uint64_t>(idx) * kStride, buf_len, 0, GN_DESC_OWN, 0};
    std::memcpy(mem.data() + kRing + static_cast<uint64_t>(idx) * 16, &d, sizeof d);
  }
  gn_rx_desc desc(uint32_t idx) const {
    gn_rx_desc d;
    std::memcpy(&d, mem.data() + kRing + static_cast<uint64_t>(idx) * 16, sizeof d);
    return d;
  }
  /* Of descriptors 0..n-1, those written back with one whole frame of len
   * bytes (EOP; frame f, intact, in its buffer). */
  uint64_t intact_frames(uint32_t n, uint16_t len) const {
    uint64_t ok = 0;
    for (uint32_t f = 0; f < n; f++) {
      nf_header h;
      const gn_rx_desc d = desc(f);
      ok += d.pkt_len == len && d.flags == GN_DESC_EOP && nf_check(mem.data() + d.buf_addr, len, 11, &h) == NF_OK &&
            h.seq == f;
    }
    return ok;
  }
  /* Ring of `size` at kRing (spacing 16), n descriptors of buf_len, RX_BUF_SIZE
   * rx_buf, MSI per frame, RX enabled. */
  void setup(uint32_t size, uint32_t n, uint16_t buf_len, uint32_t rx_buf) {
    wr(GN_REG_DESC_SPACING, 16);
    wr(GN_REG_RX_RING_LO, static_cast<uint32_t>(kRing));
    wr(GN_REG_RX_RING_HI, 0);
    wr(GN_REG_RX_RING_SIZE, size);
    wr(GN_REG_RX_BUF_SIZE, rx_buf);
    for (uint32_t i = 0; i < n; i++) put_desc(i, buf_len);
    wr(GN_REG_MSI_ADDR_LO, static_cast<uint32_t>(kMsi));
    wr(GN_REG_MSI_ADDR_HI, 0);
    wr(GN_REG_MSI_DATA, 1);
    wr(GN_REG_COAL_FRAMES, 1);
    wr(GN_REG_COAL_USECS, 0);
    wr(GN_REG_INT_MASK, 0);
    wr(GN_REG_RX_TAIL, n % size);
    wr(GN_REG_CTRL, GN_CTRL_RX_EN);
  }

 private:
  void run() {
    if (driver) driver(*this);
  }
  void b_regs(tlm::tlm_generic_payload &p, sc_core::sc_time &d) { engine.reg_transport(p, d); }
};

/* Gen1 x1 (4 ns per wire byte), 100 ns each way: slow enough that a frame's
 * buffers take microseconds, so the driver can act in the middle of one. */
PcieParams slow_link() {
  PcieParams p = test::gen1x1(); /* tests/sim/pcie_bench.h, with DLLPs and SKPs on */
  p.mem_size = kMem;
  p.dllp = true;
  p.skp = true;
  return p;
}

struct Case {
  nicsim_config cfg;
  PcieParams link = slow_link();
  uint64_t run_ps = 0;
  std::function<void(LinkRig &, Result &)> driver; /* runs in the driver thread */
};

/* How a case runs: the RX path as the thread, as the method, or as the
 * method with lookahead (common/lookahead.h) up to the end of the run. */
enum class Mode { Thread, Method, Lookahead };

/* Runs c in this process in mode, writing the trace to trace_path. */
void run_case(const Case &c, Mode mode, const char *trace_path, Result *out) {
  setup_systemc();
  const bool method = mode != Mode::Thread;
  set_lookahead_limit_ps(mode == Mode::Lookahead ? c.run_ps : 0);
  DmaEngine::Params ep = nic_params(c.cfg).dma;
  ep.rx_method = method;
  TraceWriter::open_global(trace_path);
  static LinkRig *rig = nullptr; /* SystemC owns the modules until exit */
  rig = new LinkRig("rig", c.cfg, c.link, ep);
  Result &r = *out;
  rig->driver = [&c, &r](LinkRig &g) { c.driver(g, r); };
  rig->engine.set_trace(TraceWriter::global());
  sc_core::sc_start(sc_core::sc_time(static_cast<double>(c.run_ps), sc_core::SC_PS));
  TraceWriter::close_global();
  const DmaEngine::Counters &e = rig->engine.counters();
  r.ran = true;
  r.method = rig->engine.rx_is_method();
  r.rx_dma_frames = e.rx_dma_frames;
  r.desc_writebacks = e.desc_writebacks;
  r.data_write_bytes = e.data_write_bytes;
  r.busy_cycles = e.busy_cycles;
  r.rx_drop_nodesc = e.rx_drop_nodesc;
  r.fetch_reqs = e.desc_fetch_reqs;
  r.fetched = e.desc_fetched;
  r.mac_rx_frames = rig->mac.counters().rx_frames;
  r.mac_rx_drops = rig->mac.counters().rx_drop_fifo;
  r.fifo_frames = rig->mac.rx_fifo().frames();
  r.irqs = rig->engine.irq_counters().raised;
  r.msis = rig->msis;
  const PcieDirCounters up = rig->link.up_counters();
  r.up_tlps = up.tlps;
  r.credit_stalls = up.credit_stalls;
  r.credit_stall_ps = up.credit_stall_ps;
  PcieReadStats *rs = new PcieReadStats; /* ~120 KB: not on the stack */
  rig->link.read_stats(*rs);
  r.dma_reqs = rs->dma.reqs;
  r.dma_bytes = rs->dma.bytes;
  delete rs;
  r.line_waits = rig->engine.rx_nb_line_waits();
  r.credit_waits = rig->engine.rx_nb_credit_waits();
  r.lookaheads = rig->engine.rx_nb_lookaheads();
  uint64_t h = 1469598103934665603ull;
  for (uint64_t a = kRing; a < kBufs + 256ull * kStride; a++) h = (h ^ rig->mem.data()[a]) * 1099511628211ull;
  r.mem_hash = h;
  r.violations = static_cast<uint32_t>(rig->violations.size());
  if (!rig->violations.empty())
    std::snprintf(r.first_violation, sizeof r.first_violation, "%s", rig->violations[0].c_str());
}

/* Runs c in a child process; false if the child failed. */
bool in_child(const Case &c, Mode mode, const std::string &trace_path, Result *out) {
  return in_child_process(
      [&](Result *r) {
        run_case(c, mode, trace_path.c_str(), r);
        return 0;
      },
      out);
}

/* The trace file's records, sorted: spans that end at the same picosecond
 * are written in the order their processes run, and the method runs before
 * the threads woken at that instant; the spans themselves must not differ. */
std::vector<std::string> records(const std::string &path) {
  std::ifstream f(path);
  std::vector<std::string> v;
  for (std::string line; std::getline(f, line);) v.push_back(line);
  std::sort(v.begin(), v.end());
  return v;
}

/* Expects a (a method run) and t (the thread's) to agree on everything. */
void expect_same(const Result &a, const Result &t) {
  EXPECT_EQ(a.rx_dma_frames, t.rx_dma_frames);
  EXPECT_EQ(a.desc_writebacks, t.desc_writebacks);
  EXPECT_EQ(a.data_write_bytes, t.data_write_bytes);
  EXPECT_EQ(a.busy_cycles, t.busy_cycles);
  EXPECT_EQ(a.rx_drop_nodesc, t.rx_drop_nodesc);
  EXPECT_EQ(a.fetch_reqs, t.fetch_reqs);
  EXPECT_EQ(a.fetched, t.fetched);
  EXPECT_EQ(a.mac_rx_frames, t.mac_rx_frames);
  EXPECT_EQ(a.mac_rx_drops, t.mac_rx_drops);
  EXPECT_EQ(a.fifo_frames, t.fifo_frames);
  EXPECT_EQ(a.irqs, t.irqs);
  EXPECT_EQ(a.msis, t.msis);
  EXPECT_EQ(a.up_tlps, t.up_tlps);
  EXPECT_EQ(a.credit_stalls, t.credit_stalls);
  EXPECT_EQ(a.credit_stall_ps, t.credit_stall_ps);
  EXPECT_EQ(a.dma_reqs, t.dma_reqs);
  EXPECT_EQ(a.dma_bytes, t.dma_bytes);
  EXPECT_EQ(a.mem_hash, t.mem_hash);
  EXPECT_EQ(a.violations, t.violations);
  EXPECT_STREQ(a.first_violation, t.first_violation);
  for (int i = 0; i < 8; i++) EXPECT_EQ(a.probe[i], t.probe[i]) << "probe " << i;
}

/* Runs c as a method, as a method with lookahead and as a thread; all three
 * must agree on everything, DMA timeline included. la: the lookahead run. */
void run_modes(const Case &c, const char *name, Result *m, Result *t, Result *la = nullptr) {
  const std::string base = ::testing::TempDir() + "nicsim_rxm_" + name + "_" + std::to_string(getpid());
  Result la_local;
  if (!la) la = &la_local;
  ASSERT_TRUE(in_child(c, Mode::Method, base + ".m.json", m));
  ASSERT_TRUE(in_child(c, Mode::Lookahead, base + ".l.json", la));
  ASSERT_TRUE(in_child(c, Mode::Thread, base + ".t.json", t));
  EXPECT_TRUE(m->ran && la->ran && t->ran);
  EXPECT_TRUE(m->method);
  EXPECT_TRUE(la->method);
  EXPECT_FALSE(t->method);
  {
    SCOPED_TRACE("method vs thread");
    expect_same(*m, *t);
  }
  {
    SCOPED_TRACE("method with lookahead vs thread");
    expect_same(*la, *t);
  }
  EXPECT_EQ(m->lookaheads, 0u); /* lookahead off: no limit set */
  EXPECT_EQ(la->line_waits, m->line_waits);
  EXPECT_EQ(la->credit_waits, m->credit_waits);
  EXPECT_EQ(t->line_waits, 0u); /* the thread never uses the non-blocking entry */
  EXPECT_EQ(t->credit_waits, 0u);
  const std::vector<std::string> tm = records(base + ".m.json"), tl = records(base + ".l.json"),
                                 tt = records(base + ".t.json");
  /* The timeline holds the fetch, data and write-back spans before the halt
   * (tracks are named only once used, so metadata lines are few). */
  EXPECT_GE(std::count_if(tm.begin(), tm.end(),
                          [](const std::string &l) { return l.find("\"ph\":\"X\"") != std::string::npos; }),
            4);
  EXPECT_TRUE(tm == tt) << "the DMA timelines differ: " << base << ".{m,t}.json";
  EXPECT_TRUE(tl == tt) << "the DMA timelines differ: " << base << ".{l,t}.json";
  if (!::testing::Test::HasFailure()) {
    std::remove((base + ".m.json").c_str());
    std::remove((base + ".l.json").c_str());
    std::remove((base + ".t.json").c_str());
  }
}

/* The frame of buffers [first, first + n) of r's memory, each chunk as long as its write-back says. */
std::vector<uint8_t> gather(const LinkRig &g, uint32_t first, uint32_t n) {
  std::vector<uint8_t> f;
  for (uint32_t i = first; i < first + n; i++) {
    const gn_rx_desc d = g.desc(i);
    f.insert(f.end(), g.mem.data() + d.buf_addr, g.mem.data() + d.buf_addr + d.pkt_len);
  }
  return f;
}

void poll_until(const std::function<bool()> &cond) {
  while (!cond()) sc_core::wait(ns(4));
}

}  // namespace

/* 1518 B frames (1514 B without FCS) into 512 B buffers: 512 + 512 + 490,
 * three descriptors and three write-backs per frame, EOP on the third. */
TEST(NicRxMethod, MultiBufferFramesMatchTheThread) {
  Case c;
  c.cfg = rx_config(1518, 6);
  c.run_ps = 200000000; /* 200 us */
  c.driver = [](LinkRig &g, Result &r) {
    g.setup(64, 63, 512, 0);
    sc_core::wait(us(190));
    int ok = 0;
    for (uint32_t f = 0; f < 6; f++) {
      const gn_rx_desc a = g.desc(3 * f), b = g.desc(3 * f + 1), e = g.desc(3 * f + 2);
      std::vector<uint8_t> fr = gather(g, 3 * f, 3);
      nf_header hdr;
      ok += a.pkt_len == 512 && b.pkt_len == 512 && e.pkt_len == 490 && a.flags == 0 && b.flags == 0 &&
            e.flags == GN_DESC_EOP && fr.size() == 1514 && nf_check(fr.data(), 1514, 11, &hdr) == NF_OK &&
            hdr.seq == f;
    }
    r.probe[0] = static_cast<uint64_t>(ok);
  };
  Result m, t;
  run_modes(c, "multibuf", &m, &t);
  EXPECT_EQ(m.rx_dma_frames, 6u);
  EXPECT_EQ(m.desc_writebacks, 18u);
  EXPECT_EQ(m.data_write_bytes, 6u * 1514);
  EXPECT_EQ(m.busy_cycles, 18u * 4); /* desc_proc_cycles per descriptor */
  EXPECT_EQ(m.probe[0], 6u) << "frames intact, split 512 + 512 + 490";
  /* The link saw, per frame, 3 data writes + 3 write-backs (16 B) + 1 MSI (4 B), plus the fetches. */
  EXPECT_EQ(m.dma_reqs, 6u * 7 + m.fetch_reqs);
  EXPECT_EQ(m.dma_bytes, 6u * (1514 + 3 * 16 + 4) + 16 * m.fetched);
  EXPECT_EQ(m.msis, 6u);
  EXPECT_EQ(m.violations, 0u) << m.first_violation;
}

/* RX_EN cleared while a 1514 B frame is half written into 256 B buffers:
 * the buffer in flight finishes, no further one starts until RX_EN is set
 * again; then the frame and the one queued behind it complete. */
TEST(NicRxMethod, RxDisabledMidFrameResumesWhenEnabled) {
  Case c;
  c.cfg = rx_config(1518, 2);
  c.run_ps = 200000000;
  c.driver = [](LinkRig &g, Result &r) {
    g.setup(64, 63, 256, 0);
    poll_until([&g] { return g.engine.counters().data_write_bytes > 0; });
    g.wr(GN_REG_CTRL, 0);
    sc_core::wait(us(20));
    const uint64_t stalled = g.engine.counters().data_write_bytes;
    sc_core::wait(us(20));
    r.probe[0] = stalled;
    r.probe[1] = g.engine.counters().data_write_bytes;
    r.probe[2] = g.engine.counters().rx_dma_frames;
    g.wr(GN_REG_CTRL, GN_CTRL_RX_EN);
    sc_core::wait(us(100));
    std::vector<uint8_t> f0 = gather(g, 0, 6), f1 = gather(g, 6, 6);
    nf_header h0, h1;
    r.probe[3] = f0.size() == 1514 && nf_check(f0.data(), 1514, 11, &h0) == NF_OK && h0.seq == 0;
    r.probe[4] = f1.size() == 1514 && nf_check(f1.data(), 1514, 11, &h1) == NF_OK && h1.seq == 1;
  };
  Result m, t;
  run_modes(c, "rxen", &m, &t);
  EXPECT_GT(m.probe[0], 0u);
  EXPECT_LT(m.probe[0], 1514u) << "the frame is stopped in the middle";
  EXPECT_EQ(m.probe[0] % 256, 0u) << "only whole 256 B buffers were written";
  EXPECT_EQ(m.probe[1], m.probe[0]) << "nothing moves while RX is disabled";
  EXPECT_EQ(m.probe[2], 0u);
  EXPECT_EQ(m.rx_dma_frames, 2u);
  EXPECT_EQ(m.desc_writebacks, 12u); /* 5 x 256 + 234 per frame */
  EXPECT_EQ(m.data_write_bytes, 2u * 1514);
  EXPECT_EQ(m.probe[3], 1u);
  EXPECT_EQ(m.probe[4], 1u);
  EXPECT_EQ(m.violations, 0u) << m.first_violation;
}

/* Descriptor 2 has no buffer (buf_len 0, RX_BUF_SIZE 0): frames 0 and 1
 * land, the ring halts at descriptor 2 with one violation, the other frames
 * stay in the FIFO, and setting RX_EN again does not restart a halted ring. */
TEST(NicRxMethod, RingHaltStopsTheRxPath) {
  Case c;
  c.cfg = rx_config(64, 5);
  c.run_ps = 100000000;
  c.driver = [](LinkRig &g, Result &r) {
    for (uint32_t i = 0; i < 8; i++) g.put_desc(i, i == 2 ? 0 : 2048);
    g.wr(GN_REG_DESC_SPACING, 16);
    g.wr(GN_REG_RX_RING_LO, static_cast<uint32_t>(kRing));
    g.wr(GN_REG_RX_RING_HI, 0);
    g.wr(GN_REG_RX_RING_SIZE, 64);
    g.wr(GN_REG_RX_BUF_SIZE, 0);
    g.wr(GN_REG_RX_TAIL, 8);
    g.wr(GN_REG_CTRL, GN_CTRL_RX_EN);
    sc_core::wait(us(40));
    r.probe[0] = g.engine.counters().rx_dma_frames;
    g.wr(GN_REG_CTRL, GN_CTRL_RX_EN); /* a control write wakes the path: still halted */
    sc_core::wait(us(40));
    r.probe[1] = g.engine.rx_ring().halted();
  };
  Result m, t;
  run_modes(c, "halt", &m, &t);
  EXPECT_EQ(m.probe[0], 2u);
  EXPECT_EQ(m.rx_dma_frames, 2u);
  EXPECT_EQ(m.desc_writebacks, 2u);
  EXPECT_EQ(m.data_write_bytes, 2u * 60);
  EXPECT_EQ(m.probe[1], 1u);
  EXPECT_EQ(m.mac_rx_frames, 5u);
  EXPECT_EQ(m.fifo_frames, 3u); /* frame 2 stays (only its last buffer's write pops it), 3 and 4 behind it */
  EXPECT_EQ(m.violations, 1u);
  EXPECT_NE(std::strstr(m.first_violation, "has no buffer"), nullptr) << m.first_violation;
}

/* 20 frames of 64 B, 4 descriptors at first: 4 frames land, 16 wait in the
 * FIFO (no drop without rx_drop_nodesc); 30 us later the driver refills 16
 * descriptors and every frame lands, none before the refill. */
TEST(NicRxMethod, DescriptorStarvationThenRefill) {
  Case c;
  c.cfg = rx_config(64, 20);
  c.run_ps = 150000000;
  c.driver = [](LinkRig &g, Result &r) {
    g.setup(64, 4, 2048, 0);
    sc_core::wait(us(30));
    r.probe[0] = g.engine.counters().rx_dma_frames;
    r.probe[1] = g.mac.rx_fifo().frames();
    for (uint32_t i = 4; i < 20; i++) g.put_desc(i, 2048);
    g.wr(GN_REG_RX_TAIL, 20);
    r.probe[2] = g.engine.counters().rx_dma_frames; /* the tail write has not reached the device yet */
    sc_core::wait(us(100));
    r.probe[3] = g.intact_frames(20, 60);
  };
  Result m, t;
  run_modes(c, "starve", &m, &t);
  EXPECT_EQ(m.probe[0], 4u);
  EXPECT_EQ(m.probe[1], 16u);
  EXPECT_EQ(m.probe[2], 4u);
  EXPECT_EQ(m.rx_dma_frames, 20u);
  EXPECT_EQ(m.probe[3], 20u);
  EXPECT_EQ(m.mac_rx_drops, 0u);
  EXPECT_EQ(m.violations, 0u) << m.first_violation;
}

/* The root port takes one posted header and 16 data credits (one 256 B
 * TLP): every MWr after the first waits for the UpdateFC of the one before,
 * the data's as well as the write-backs' and the MSIs'; the method waits for
 * credits and, behind the MSI thread's stalled writes, in the ordering line. */
TEST(NicRxMethod, PostedCreditStallsMatchTheThread) {
  Case c;
  c.cfg = rx_config(1518, 8);
  c.link.rc_ph_credits = 1;
  c.link.rc_pd_credits = 16;
  c.run_ps = 300000000;
  c.driver = [](LinkRig &g, Result &r) {
    g.setup(64, 63, 2048, 0);
    sc_core::wait(us(290));
    r.probe[0] = g.intact_frames(8, 1514);
  };
  Result m, t, la;
  run_modes(c, "credits", &m, &t, &la);
  /* Some start edges were skipped, some of them into a credit wait. */
  EXPECT_GT(la.lookaheads, 0u);
  EXPECT_EQ(m.rx_dma_frames, 8u);
  EXPECT_EQ(m.probe[0], 8u);
  EXPECT_EQ(m.msis, 8u);
  /* Per frame 6 data TLPs (1514 = 5 x 256 + 234), 1 write-back, 1 MSI. */
  EXPECT_GE(m.up_tlps, 8u * 8);
  EXPECT_GT(m.credit_stalls, 8u * 6);
  EXPECT_GT(m.credit_waits, 0u);
  EXPECT_GT(m.line_waits, 0u);
  EXPECT_EQ(m.violations, 0u) << m.first_violation;
}

/* Batched write-back (4 descriptors a request): 10 frames of 64 B arrive
 * faster than the Gen1 x1 link writes them, so the FIFO empties only after
 * the last: write-backs of frames 0-3 and 4-7 when the fourth of each
 * completes, of 8-9 by rx_flush_all before the path waits for a frame (a
 * flush that writes, after which the thread waited without looking again). */
TEST(NicRxMethod, BatchedWriteBacksMatchTheThread) {
  Case c;
  c.cfg = rx_config(64, 10);
  c.cfg.nic.wb_mode = NC_WB_BATCH;
  c.cfg.nic.wb_threshold = 4;
  c.run_ps = 100000000;
  c.driver = [](LinkRig &g, Result &r) {
    g.setup(64, 63, 2048, 0);
    sc_core::wait(us(90));
    r.probe[0] = g.intact_frames(10, 60);
  };
  Result m, t, la;
  run_modes(c, "batch", &m, &t, &la);
  EXPECT_GT(la.lookaheads, 0u);
  EXPECT_EQ(m.rx_dma_frames, 10u);
  EXPECT_EQ(m.desc_writebacks, 3u); /* 4 + 4 packed descriptors, then 2 */
  EXPECT_EQ(m.probe[0], 10u);
  EXPECT_EQ(m.violations, 0u) << m.first_violation;
}

TEST(NicRxMethod, AFrameThatComesDuringTheFlushBeforeAWaitIsTakenAtOnce) {
  /* Batched write-backs (threshold 4): after frames 0..4 the FIFO is empty
   * and one write-back is pending, so the engine writes it back before it
   * waits for a frame. Frame 5 comes during that write-back, and no frame
   * after it: the engine must look again after the flush and take it (it
   * used to wait for the next frame, which under a closed loop never came).
   * The peer sends nothing (TX mode); the driver thread puts the frames in
   * the MAC's RX FIFO itself. */
  Case c;
  c.cfg = rx_config(64, 1);
  c.cfg.traffic.mode = NC_MODE_TX;
  c.cfg.nic.wb_mode = NC_WB_BATCH;
  c.cfg.nic.wb_threshold = 4;
  c.run_ps = 60000000;
  c.driver = [](LinkRig &g, Result &r) {
    g.setup(64, 63, 2048, 0);
    sc_core::wait(us(20)); /* descriptors fetched */
    auto put = [&g](uint64_t seq) {
      uint8_t *p = g.mac.rx_begin(60);
      nf_fill(p, 60, 11, 0, seq);
      g.mac.rx_end();
    };
    for (uint64_t f = 0; f < 5; f++) put(f);
    /* Frame 4 leaves the FIFO at the end of its data write; the flush of its
     * write-back starts at the next clock edge and takes over 100 ns on this
     * Gen1 x1 link: frame 5 comes 20 ns into it. */
    while (g.mac.rx_fifo().frames_held() > 0) sc_core::wait(sc_core::sc_time(100, sc_core::SC_PS));
    r.probe[0] = g.engine.counters().desc_writebacks;
    sc_core::wait(sc_core::sc_time(20, sc_core::SC_NS));
    r.probe[1] = g.engine.counters().desc_writebacks; /* still in the flush: not counted yet */
    put(5);
    sc_core::wait(us(20));
    r.probe[2] = g.intact_frames(6, 60);
  };
  Result m, t;
  run_modes(c, "flushwake", &m, &t);
  EXPECT_EQ(m.probe[0], 1u); /* frames 0..3 written back together */
  EXPECT_EQ(m.probe[1], 1u);
  EXPECT_EQ(m.rx_dma_frames, 6u);
  EXPECT_EQ(m.fifo_frames, 0u);
  EXPECT_EQ(m.probe[2], 6u);
}
