/* test_rig.h: shared pieces of the NIC model tests: schema-default config,
 * SystemC set-up, a fake host (memory behind a TLM target with fixed
 * latencies, an MMIO initiator, a driver thread) and an engine rig that
 * builds Mac + WirePeer + DmaEngine with non-default engine parameters. */
#ifndef NICSIM_TESTS_MODELS_TEST_RIG_H
#define NICSIM_TESTS_MODELS_TEST_RIG_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "common/tlp.h"
#include "config/config.h"
#include "dma/dma_engine.h"
#include "dma/generic_desc_codec.h"
#include "hw/generic_nic_regs.h"
#include "mac/mac.h"
#include "common/ps_time.h"
#include "net/frame.h"
#include "sim/model_params.h"
#include "traffic/wire_peer.h"

namespace nicsim_test {

/* ---- config: every key at its schema default -------------------------- */

inline void set_default(bool &f, const char *def, const char *) { f = std::strcmp(def, "true") == 0; }
inline void set_default(int64_t &f, const char *def, const char *) {
  f = static_cast<int64_t>(std::strtod(def, nullptr));
}
inline void set_default(double &f, const char *def, const char *) { f = std::strtod(def, nullptr); }
inline void set_default(int &f, const char *def, const char *choices) {
  /* index of def among the '|'-separated choices */
  int i = 0;
  size_t n = std::strlen(def);
  for (const char *p = choices; *p; i++) {
    const char *e = std::strchr(p, '|');
    size_t len = e ? static_cast<size_t>(e - p) : std::strlen(p);
    if (len == n && std::strncmp(p, def, n) == 0) {
      f = i;
      return;
    }
    if (!e) break;
    p = e + 1;
  }
  f = 0;
}
inline void set_default(char (&f)[NC_STR_MAX], const char *def, const char *) {
  std::snprintf(f, sizeof f, "%s", def);
}

/* A config with every key at its schema default (no config library needed). */
inline nicsim_config default_config() {
  nicsim_config c;
  std::memset(&c, 0, sizeof c);
#define NICSIM_TEST_DEFAULT(sec, name, type, unit, def, min, max, choices, doc) \
  set_default(c.sec.name, def, choices);
#define NICSIM_TEST_SECTION(sec) NC_SECTION_##sec(NICSIM_TEST_DEFAULT)
  NC_SECTIONS(NICSIM_TEST_SECTION)
#undef NICSIM_TEST_SECTION
#undef NICSIM_TEST_DEFAULT
  return c;
}

/* 1 ps resolution, no banner, no "simulation stopped" message on stdout. */
inline void setup_systemc() {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
}

inline sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }
inline sc_core::sc_time us(double v) { return sc_core::sc_time(v, sc_core::SC_US); }
using nicsim::now_ps; /* common/ps_time.h: the current simulated time in ps */

/* ---- memory layout the tests use --------------------------------------- */
constexpr uint64_t kRxRing = 0x10000;
constexpr uint64_t kTxRing = 0x40000;
constexpr uint64_t kRxBufs = 0x100000;
constexpr uint64_t kTxBufs = 0x300000;
constexpr uint32_t kBufStride = 2048;
constexpr uint64_t kMemBytes = 8u << 20;
constexpr uint64_t kMsiAddr = 0xFEE00000ull;
constexpr uint32_t kMsiData = 0x4041;

/* ---- the fake host ------------------------------------------------------- */

/* Host memory behind the device's DMA socket (READ waits read_latency then
 * copies; WRITE waits write_latency, applies and returns), an MSI
 * catcher at kMsiAddr, an MMIO initiator for the driver thread, and a log
 * of every DMA access. */
class FakeHost : public sc_core::sc_module {
 public:
  struct Access {
    tlm::tlm_command cmd;
    uint64_t addr;
    uint32_t len;
    nicsim::DmaPurpose purpose;
    uint64_t start_ps; /* call time */
    uint64_t end_ps;   /* return time */
  };

  tlm_utils::simple_target_socket<FakeHost> dma_target;
  tlm_utils::simple_initiator_socket<FakeHost> mmio;
  std::vector<uint8_t> mem;
  std::vector<Access> log;
  std::vector<uint64_t> msi_ps;
  std::vector<uint32_t> msi_data;
  sc_core::sc_event msi_event;
  sc_core::sc_time read_latency = ns(200);
  sc_core::sc_time write_latency = ns(10);
  std::function<void(FakeHost &)> driver;
  bool keep_log = true; /* off for long runs */

  explicit FakeHost(sc_core::sc_module_name name)
      : sc_core::sc_module(name), dma_target("dma_target"), mmio("mmio"), mem(kMemBytes) {
    dma_target.register_b_transport(this, &FakeHost::b_transport);
    SC_HAS_PROCESS(FakeHost);
    SC_THREAD(run);
  }

  /* MMIO register read/write from the driver thread. */
  uint32_t rd(uint32_t off) {
    uint8_t b[4] = {};
    access(tlm::TLM_READ_COMMAND, off, b);
    return static_cast<uint32_t>(b[0] | (b[1] << 8) | (b[2] << 16)) | (static_cast<uint32_t>(b[3]) << 24);
  }
  void wr(uint32_t off, uint32_t v) {
    uint8_t b[4] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8),
                    static_cast<uint8_t>(v >> 16), static_cast<uint8_t>(v >> 24)};
    access(tlm::TLM_WRITE_COMMAND, off, b);
  }
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t off, uint8_t *b, uint32_t len = 4) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(off);
    gp.set_data_ptr(b);
    gp.set_data_length(len);
    gp.set_streaming_width(len);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    mmio->b_transport(gp, d);
    return gp.get_response_status();
  }

  /* Descriptors in host memory. */
  gn_rx_desc rx_desc(uint32_t spacing, uint32_t idx) const {
    gn_rx_desc d;
    std::memcpy(&d, &mem[kRxRing + static_cast<uint64_t>(idx) * spacing], sizeof d);
    return d;
  }
  void put_rx_desc(uint32_t spacing, uint32_t idx, uint64_t buf, uint16_t buf_len, uint16_t flags) {
    gn_rx_desc d{buf, buf_len, 0, flags, 0};
    std::memcpy(&mem[kRxRing + static_cast<uint64_t>(idx) * spacing], &d, sizeof d);
  }
  gn_tx_desc tx_desc(uint32_t spacing, uint32_t idx) const {
    gn_tx_desc d;
    std::memcpy(&d, &mem[kTxRing + static_cast<uint64_t>(idx) * spacing], sizeof d);
    return d;
  }
  void put_tx_desc(uint32_t spacing, uint32_t idx, uint64_t buf, uint16_t len, uint16_t flags) {
    gn_tx_desc d{buf, len, flags, 0};
    std::memcpy(&mem[kTxRing + static_cast<uint64_t>(idx) * spacing], &d, sizeof d);
  }

  /* Programs the RX ring: n descriptors (buffers of buf_len bytes) owned by
   * the device, tail = n; MSI, coalescing and the mask; RX enabled. */
  void setup_rx(uint32_t ring_size, uint32_t spacing, uint32_t n, uint16_t buf_len, uint32_t coal_frames,
                uint32_t coal_usecs, bool unmask) {
    wr(GN_REG_DESC_SPACING, spacing);
    wr(GN_REG_RX_RING_LO, static_cast<uint32_t>(kRxRing));
    wr(GN_REG_RX_RING_HI, 0);
    wr(GN_REG_RX_RING_SIZE, ring_size);
    wr(GN_REG_RX_BUF_SIZE, buf_len);
    for (uint32_t i = 0; i < n; i++) put_rx_desc(spacing, i, kRxBufs + i * kBufStride, buf_len, GN_DESC_OWN);
    wr(GN_REG_MSI_ADDR_LO, static_cast<uint32_t>(kMsiAddr));
    wr(GN_REG_MSI_ADDR_HI, 0);
    wr(GN_REG_MSI_DATA, kMsiData);
    wr(GN_REG_COAL_FRAMES, coal_frames);
    wr(GN_REG_COAL_USECS, coal_usecs);
    wr(GN_REG_INT_MASK, unmask ? 0 : GN_INT_ALL);
    wr(GN_REG_RX_TAIL, n % ring_size);
    wr(GN_REG_CTRL, rd(GN_REG_CTRL) | GN_CTRL_RX_EN);
  }

  /* Programs the TX ring (empty) and enables TX. */
  void setup_tx(uint32_t ring_size, uint32_t spacing, uint32_t coal_frames, uint32_t coal_usecs, bool unmask) {
    wr(GN_REG_DESC_SPACING, spacing);
    wr(GN_REG_TX_RING_LO, static_cast<uint32_t>(kTxRing));
    wr(GN_REG_TX_RING_HI, 0);
    wr(GN_REG_TX_RING_SIZE, ring_size);
    wr(GN_REG_MSI_ADDR_LO, static_cast<uint32_t>(kMsiAddr));
    wr(GN_REG_MSI_ADDR_HI, 0);
    wr(GN_REG_MSI_DATA, kMsiData);
    wr(GN_REG_COAL_FRAMES, coal_frames);
    wr(GN_REG_COAL_USECS, coal_usecs);
    wr(GN_REG_INT_MASK, unmask ? 0 : GN_INT_ALL);
    wr(GN_REG_CTRL, rd(GN_REG_CTRL) | GN_CTRL_TX_EN);
  }

  /* DMA accesses matching cmd and purpose. */
  std::vector<Access> accesses(tlm::tlm_command cmd, nicsim::DmaPurpose purpose) const {
    std::vector<Access> out;
    for (const Access &a : log) {
      if (a.cmd == cmd && a.purpose == purpose) out.push_back(a);
    }
    return out;
  }

 private:
  void run() {
    if (driver) driver(*this);
  }

  void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &d) {
    /* The delay is a start offset (tlp.h); it is folded into the one wait below. */
    sc_core::sc_time offset = d;
    d = sc_core::SC_ZERO_TIME;
    Access a{gp.get_command(), gp.get_address(), gp.get_data_length(), nicsim::DmaPurpose::Other,
             now_ps() + offset.value(), 0};
    if (const nicsim::TlpExt *e = gp.get_extension<nicsim::TlpExt>()) a.purpose = e->purpose;
    if (a.cmd == tlm::TLM_WRITE_COMMAND && a.addr == kMsiAddr) {
      uint32_t v = 0;
      std::memcpy(&v, gp.get_data_ptr(), 4);
      msi_ps.push_back(a.start_ps);
      msi_data.push_back(v);
      msi_event.notify(offset);
      wait(offset + write_latency);
    } else if (a.addr + a.len > mem.size()) {
      if (offset != sc_core::SC_ZERO_TIME) wait(offset);
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      a.end_ps = now_ps();
      log.push_back(a);
      return;
    } else if (a.cmd == tlm::TLM_READ_COMMAND) {
      wait(offset + read_latency);
      std::memcpy(gp.get_data_ptr(), &mem[a.addr], a.len);
    } else {
      /* Posted: the bytes land after the request has left the device, so the
       * device has moved its head before the driver can see the write. */
      wait(offset + write_latency);
      std::memcpy(&mem[a.addr], gp.get_data_ptr(), a.len);
    }
    a.end_ps = now_ps();
    if (keep_log) log.push_back(a);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

/* ---- engine rig: the NIC parts with chosen engine parameters ------------- */

class EngineRig : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<EngineRig> dma;
  tlm_utils::simple_target_socket<EngineRig> regs;
  nicsim::GenericDescCodec codec;
  nicsim::Mac mac;
  nicsim::WirePeer peer;
  nicsim::DmaEngine engine;
  std::vector<std::string> violations;

  EngineRig(sc_core::sc_module_name name, const nicsim_config &cfg, const nicsim::DmaEngine::Params &ep)
      : sc_core::sc_module(name),
        dma("dma"),
        regs("regs"),
        mac("mac", nicsim::nic_params(cfg).mac),
        peer("peer", nicsim::nic_params(cfg).peer, mac),
        engine("dma_engine", ep, codec, mac, dma) {
    mac.set_tx_sink(&peer);
    regs.register_b_transport(this, &EngineRig::b_regs);
    engine.set_violation_handler(
        [this](const std::string &who, const std::string &msg) { violations.push_back(who + ": " + msg); });
  }

 private:
  void b_regs(tlm::tlm_generic_payload &p, sc_core::sc_time &d) { engine.reg_transport(p, d); }
};

}  // namespace nicsim_test
#endif
