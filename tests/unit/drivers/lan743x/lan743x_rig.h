// lan743x_rig.h: the lan743x driver probed on a counting platform with a fake
// LAN743x and a checking host sink, plus the CPU's "interrupt, then softirqs" step.
#ifndef NICSIM_TESTS_DRIVERS_LAN743X_RIG_H
#define NICSIM_TESTS_DRIVERS_LAN743X_RIG_H

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "drivers/driver.h"
#include "drivers/lan743x.h"
#include "net/frame.h"
#include "unit/drivers/lan743x/fake_lan743x.h"
#include "unit/kernel/test_support.h"

struct Lan743xRig {
  TestKernel t;
  std::unique_ptr<FakeLan743x> nic;
  lan743x_adapter *adapter = nullptr;
  std::string probe_err;
  // host sink: every frame checked, per-flow order tracked
  uint64_t rx_ok = 0, rx_bad = 0;
  std::map<uint32_t, nf_seq_track> flows;

  // Creates the kernel (edit t.cfg first via tweak) and probes "lan743x".
  bool start(bool coherent, const std::function<void(nicsim_config &)> &tweak = {},
             uint64_t mem_bytes = 16u << 20) {
    t.cfg.driver.name = NC_DRIVER_LAN743X;
    t.cfg.nic.family = NC_NIC_LAN743X;
    if (tweak) tweak(t.cfg);
    if (!t.create(coherent, mem_bytes)) {
      probe_err = t.err;
      return false;
    }
    nic = std::make_unique<FakeLan743x>(t.cp, static_cast<uint64_t>(t.cfg.run.seed));
    t.cp.user = this;
    t.cp.on_mmio_read = [](void *u, uint32_t off) { return static_cast<Lan743xRig *>(u)->nic->read_reg(off); };
    t.cp.on_host_rx = [](void *u, uint64_t, const uint8_t *buf, uint32_t len) {
      auto *r = static_cast<Lan743xRig *>(u);
      nf_header h{};
      if (nf_check(buf, len, static_cast<uint64_t>(r->t.cfg.run.seed), &h) != NF_OK) {
        r->rx_bad++;
        return;
      }
      if (nf_seq_accept(&r->flows[h.flow], h.seq))
        r->rx_ok++;
      else
        r->rx_bad++;
    };
    char err[512] = "";
    int rc = nk_kernel_probe(t.k, err, sizeof err);
    probe_err = err;
    if (rc != 0) return false;
    adapter = static_cast<lan743x_adapter *>(netdev_priv(t.dev()));
    return true;
  }

  // Delivers the interrupt (if the device would raise one now) and runs
  // softirqs until NAPI is idle; repeats while the device has more to signal.
  // Returns the number of interrupts taken.
  int service() {
    int irqs = 0;
    while (nic->irq_due()) {
      nic->irq_sent();
      nk_kernel_irq(t.k, LAN743X_IRQ_VEC);
      irqs++;
      while (nk_kernel_napi_pending(t.k)) nk_kernel_softirq(t.k);
    }
    return irqs;
  }

  // Completes n RX frames of frame_bytes on flow 1, starting at *seq.
  void rx_frames(int n, uint32_t frame_bytes, uint64_t *seq) {
    for (int i = 0; i < n; i++) ASSERT_EQ(nic->complete_rx(frame_bytes, 1, (*seq)++), "") << i;
  }
  // Completes n TX descriptors and checks the frames' flow-2 sequence.
  void tx_complete(int n, nf_seq_track *track) {
    for (int i = 0; i < n; i++) {
      nf_header h{};
      ASSERT_EQ(nic->complete_tx(&h), "") << i;
      ASSERT_TRUE(nf_seq_accept(track, h.seq)) << "TX frame out of order: seq " << h.seq;
    }
  }
};

#endif
