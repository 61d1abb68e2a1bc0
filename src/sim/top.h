/*
 * top.h: the SystemC top of one nicsim run: NIC (with its wire peer), the
 * interconnect (PCIe link, or with bus.enabled the AXI-like on-chip bus and
 * its register port), host memory and CPU core, bound together; the
 * statistics of every model, snapshotted at the edges of the measurement
 * window and at the finish; and the run's outcome (violations, drain,
 * kernel check) for nicsim_simulate to turn into metrics or an error.
 */
#ifndef NICSIM_SIM_TOP_H
#define NICSIM_SIM_TOP_H

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>

#include "bus/axi_bus.h"
#include "bus/axi_reg_port.h"
#include "common/stats.h"
#include "config/config.h"
#include "cpu/cpu_core.h"
#include "memory/host_memory.h"
#include "nic/nic_device.h"
#include "pcie/pcie_link.h"
#include "results/metrics.h"
#include "traffic/wire_peer.h"

namespace nicsim {

/* The modules of one simulation and what happened in it. */
class Top : public sc_core::sc_module {
  /* First member: the modules below are built from it. */
  nicsim_config m_cfg;

 public:
  /* How the run ended. */
  struct Outcome {
    bool violated = false;     /* an invariant broke during the run */
    std::string component;     /* reporting module (SystemC name) */
    double time_ns = 0;        /* simulated time of the violation */
    std::string msg;
    bool end_seen = false;     /* the CPU reached the end of the drain */
    int64_t rx_in_flight = 0;  /* at the end of the drain: RX frames neither received nor dropped */
    int64_t tx_in_flight = 0;  /* TX frames handed to the driver and not yet at the wire peer */
    uint64_t nic_in_flight = 0;
    uint64_t end_ps = 0;       /* when the CPU first checked, at or after duration + drain */
    bool drained = false;      /* everything finished (possibly after the end of the drain) */
    uint64_t drained_ps = 0;   /* when it was first seen finished */
    int64_t rx_final = 0;      /* rx_in_flight then (0, or negative: duplicates) */
    int64_t tx_final = 0;
    bool finished = false;     /* the driver was removed and the kernel checked */
    int check_rc = 0;          /* nk_kernel_check's result */
    std::string check_msg;
  };

  HostMemory mem;
  /* The interconnect: the PCIe link, or (bus.enabled) the bus for device DMA
   * and interrupts plus the register port for CPU MMIO; the others are null. */
  std::unique_ptr<PcieLink> pcie;
  std::unique_ptr<AxiBus> bus;
  std::unique_ptr<AxiRegPort> bus_regs;
  NicDevice nic;
  CpuCore cpu;

  /* Builds and binds every module for cfg (copied; the modules read the copy). */
  Top(sc_core::sc_module_name name, const nicsim_config &cfg);
  ~Top() override;

  /* Simulated time (ps) by which the run must have finished; nicsim_simulate runs this long at most. */
  uint64_t time_limit_ps() const;
  /* How the run ended (read after sc_start returns). */
  const Outcome &outcome() const { return m_out; }
  /* Fills res with every statistic of the run's models; wall_s: the run's wall-clock time. */
  size_t fill_results(nicsim_results *res, double wall_s);

 private:
  /* Every registered statistic's snapshot at edge e, now (after the link's
   * posted writes committed by now have reached memory). */
  void snapshot(stats::Edge e);
  void snapshot_thread();
  void report(const std::string &component, const std::string &msg, double time_ns);
  bool check_drained();
  /* traffic.mode forward, after the drain: every frame the wire peer sent
   * came back forwarded or was dropped with a counted cause (the NIC, a
   * stopped TX queue, XDP). False with a message otherwise. */
  bool forward_conservation(std::string *msg);
  /* "" if the driver's live mappings (or coherent allocations) let the device
   * read (write = false) or write [pa, pa + len), else what is wrong. */
  std::string dma_permission(uint64_t pa, uint32_t len, bool write) const;

  /* The earliest of the run's edges (m_edges_ps) at or after now: a
   * snapshot, the end, the time limit; UINT64_MAX past them all. */
  uint64_t next_edge_ps(uint64_t now) const;

  uint64_t m_warmup_ps;
  uint64_t m_duration_ps;
  uint64_t m_end_ps;
  uint64_t m_edges_ps[4] = {}; /* warm-up, end of traffic, end, time limit (set once) */
  stats::Registry m_stats;     /* the statistics of every model built */
  Outcome m_out;
};

}  // namespace nicsim
#endif
