/* nic_sim.h: a NicDevice wired to a FakeHost, as the simulation glue wires it
 * to the interconnect, for the NicDevice-level tests. */
#ifndef NICSIM_TESTS_MODELS_NIC_SIM_H
#define NICSIM_TESTS_MODELS_NIC_SIM_H

#include <string>
#include <vector>

#include "dma/dma_engine.h"
#include "dma/dma_stats.h"
#include "mac/mac.h"
#include "models/test_rig.h"
#include "nic/nic_device.h"
#include "sim/model_params.h"
#include "traffic/wire_peer.h"

namespace nicsim_test {

/* Construct after setup_systemc(); the host's driver runs as a thread. */
struct NicSim {
  nicsim::NicDevice nic;
  FakeHost host;
  std::vector<std::string> who;  /* on_violation components */
  std::vector<std::string> what; /* on_violation messages */

  explicit NicSim(const nicsim_config &cfg) : nic("nic", nicsim::nic_params(cfg)), host("host") {
    nic.dma.bind(host.dma_target);
    host.mmio.bind(nic.regs);
    nic.on_violation = [this](const std::string &c, const std::string &m) {
      who.push_back(c);
      what.push_back(m);
    };
  }
};

/* The NIC's counters now, as its parts count them (the peer's read first:
 * it hands the MAC its arrivals up to now); the DMA engine's as its
 * statistics snapshot (counters, per-vector interrupts, rings). */
struct NicCounts {
  nicsim::WirePeerCounters peer;
  nicsim::MacCounters mac;
  nicsim::DmaSnapshot dma;
  NicCounts() = default;
  explicit NicCounts(const nicsim::NicDevice &nic) : peer(nic.peer().counters()), mac(nic.mac().counters()) {
    nic.engine().stats_snapshot(dma);
  }
};

/* Config for n frames of frame_bytes offered back to back at 10G (mode rx). */
inline nicsim_config rx_config(uint32_t frame_bytes, uint64_t frames) {
  nicsim_config cfg = default_config();
  cfg.traffic.mode = NC_MODE_RX;
  cfg.traffic.frame_bytes = frame_bytes;
  cfg.traffic.rate_gbps = 0;
  double interval_ns = (frame_bytes + 20) * 0.8;
  cfg.run.duration_us = (static_cast<double>(frames) - 0.5) * interval_ns / 1000.0;
  cfg.run.seed = 11;
  return cfg;
}

}  // namespace nicsim_test
#endif
