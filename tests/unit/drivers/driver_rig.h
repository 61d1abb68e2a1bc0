// driver_rig.h: what every driver unit-test rig shares: a kernel on the
// counting platform, the family's fake device, a checking host sink (nf_check
// and per-flow sequence tracking), the CPU's "interrupt, then softirqs" step
// and frame bookkeeping. A family rig derives from DriverRig<its fake device,
// its IRQ vector>; its start() sets the family's config, then calls create(),
// builds its device (routing register hooks to it) and calls probe().
#ifndef NICSIM_TESTS_DRIVERS_DRIVER_RIG_H
#define NICSIM_TESTS_DRIVERS_DRIVER_RIG_H

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "drivers/driver.h"
#include "net/frame.h"
#include "unit/kernel/test_support.h"

// Nic: the family's fake device (irq_due, irq_sent, complete_rx, complete_tx);
// IrqVec: the vector the driver requests.
template <class Nic, int IrqVec>
struct DriverRig {
  // Edits the test config before the kernel is created.
  using Tweak = std::function<void(nicsim_config &)>;
  static constexpr uint64_t kMemBytes = 16u << 20;  // simulated memory unless a test asks for more

  TestKernel t;
  std::unique_ptr<Nic> nic;
  // The driver's remove (in the kernel's destruction) still writes registers,
  // which the hooks route to the fake device: remove while it is alive.
  ~DriverRig() {
    if (t.k) nk_kernel_destroy(t.k);
    t.k = nullptr;
  }
  std::string probe_err;
  // host sink: every frame checked, per-flow order tracked
  uint64_t rx_ok = 0, rx_bad = 0;
  std::map<uint32_t, nf_seq_track> flows;
  nf_header last_rx{};  // the last frame that passed nf_check

  // Runs softirqs until no NAPI is scheduled.
  void softirqs() {
    while (nk_kernel_napi_pending(t.k)) nk_kernel_softirq(t.k);
  }

  // Delivers the interrupt (if the device would raise one now) and runs
  // softirqs until NAPI is idle; repeats while the device has more to signal.
  // Returns the number of interrupts taken.
  int service() {
    int irqs = 0;
    while (nic->irq_due()) {
      nic->irq_sent();
      nk_kernel_irq(t.k, IrqVec);
      irqs++;
      softirqs();
    }
    return irqs;
  }

  // Completes n RX frames of frame_bytes on flow 1, starting at *seq.
  void rx_frames(int n, uint32_t frame_bytes, uint64_t *seq) {
    for (int i = 0; i < n; i++) ASSERT_EQ(nic->complete_rx(frame_bytes, 1, (*seq)++), "") << i;
  }
  // Completes total RX frames (flow 1, from *seq) per_poll at a time, each
  // batch followed by service(): frames arriving over several interrupts.
  void rx_in_batches(uint64_t total, uint64_t per_poll, uint32_t frame_bytes, uint64_t *seq) {
    for (uint64_t sent = 0; sent < total;) {
      const uint64_t n = total - sent < per_poll ? total - sent : per_poll;
      rx_frames(static_cast<int>(n), frame_bytes, seq);
      service();
      sent += n;
    }
  }
  // Completes n RX frames as rx_frames does, zeroes the platform's counts and
  // services: the counts are then what the driver did for those frames.
  // Returns the interrupts taken.
  int rx_counted(int n, uint32_t frame_bytes, uint64_t *seq) {
    rx_frames(n, frame_bytes, seq);
    cp_reset_counts(&t.cp);
    return service();
  }
  // Completes n RX frames (flow 1) and sends and completes one TX frame (flow
  // 2), all of frame_bytes, zeroes the platform's counts and services: the
  // counts are then what one interrupt does for both. Returns the interrupts
  // taken, or -1 (a failure) if the driver refused the frame.
  int rx_tx_counted(int n, uint32_t frame_bytes) {
    uint64_t seq = 0;
    rx_frames(n, frame_bytes, &seq);
    const auto sent = nk_kernel_xmit(t.k, frame_bytes, 2, 0);
    EXPECT_EQ(sent, NETDEV_TX_OK);
    if (sent != NETDEV_TX_OK) return -1;
    nf_seq_track track{};
    tx_complete(1, &track);
    cp_reset_counts(&t.cp);
    return service();
  }
  // Completes n TX descriptors and checks the frames' flow-2 sequence.
  void tx_complete(int n, nf_seq_track *track) {
    for (int i = 0; i < n; i++) {
      nf_header h{};
      ASSERT_EQ(nic->complete_tx(&h), "") << i;
      ASSERT_TRUE(nf_seq_accept(track, h.seq)) << "TX frame out of order: seq " << h.seq;
    }
  }

 protected:
  // Applies tweak to t.cfg and creates the kernel (false, with probe_err, on
  // failure); frames the host receives go to this rig's sink.
  bool create(bool coherent, const Tweak &tweak, uint64_t mem_bytes = kMemBytes) {
    if (tweak) tweak(t.cfg);
    t.drv = nk_driver_of(&t.cfg);
    if (!t.create(coherent, mem_bytes)) {
      probe_err = t.err;
      return false;
    }
    t.cp.user = this;
    t.cp.on_host_rx = &DriverRig::host_rx;
    return true;
  }
  // The frame seed of the run (what the fake device fills and checks frames with).
  uint64_t seed() const { return static_cast<uint64_t>(t.cfg.run.seed); }
  // Register reads answered by nic->read_reg (devices with read-side effects).
  void route_reg_reads() {
    t.cp.on_mmio_read = [](void *u, uint32_t off) { return self(u)->nic->read_reg(off); };
  }
  // Probes the configured driver; on success *priv is its netdev_priv area.
  template <class Priv>
  bool probe(Priv **priv) {
    char err[512] = "";
    int rc = nk_driver_probe(t.k, err, sizeof err);
    probe_err = err;
    if (rc != 0) return false;
    *priv = static_cast<Priv *>(netdev_priv(t.dev()));
    return true;
  }
  // The rig behind a platform hook's user pointer.
  static DriverRig *self(void *u) { return static_cast<DriverRig *>(u); }

 private:
  // The host sink: counts intact, in-order frames per flow; anything else is bad.
  static void host_rx(void *u, uint64_t, const uint8_t *buf, uint32_t len) {
    DriverRig *r = self(u);
    nf_header h{};
    if (nf_check(buf, len, r->seed(), &h) != NF_OK) {
      r->rx_bad++;
      return;
    }
    r->last_rx = h;
    if (nf_seq_accept(&r->flows[h.flow], h.seq))
      r->rx_ok++;
    else
      r->rx_bad++;
  }
};

// Expected acquires of lock id 1 (TX queue 0's lock) and id 2 (the driver's
// first spin_lock_init), while transmitting and while cleaning.
struct TxLocks {
  uint64_t xmit_q, xmit_own, clean_q, clean_own;
};

// The TX lock counts of a family (docs/kernel.md, "Spinlocks"): starts r,
// transmits three 200 B frames, completes them on the device, then runs
// clean(r) (the interrupt, poll or timer that reclaims them; it asserts its
// own outcome). Every lock taken is released, and the frames are counted.
template <class Rig, class Clean>
void expect_tx_locks(Rig &r, TxLocks want, Clean clean) {
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  cp_reset_counts(&r.t.cp);
  for (uint64_t i = 0; i < 3; i++) ASSERT_EQ(nk_kernel_xmit(r.t.k, 200, 2, i), NETDEV_TX_OK);
  EXPECT_EQ(r.t.cp.c.spin_acquires[1], want.xmit_q);
  EXPECT_EQ(r.t.cp.c.spin_acquires[2], want.xmit_own);
  EXPECT_EQ(r.t.locks_balanced(), "");
  nf_seq_track track{};
  r.tx_complete(3, &track);
  cp_reset_counts(&r.t.cp);
  clean(r);
  EXPECT_EQ(r.t.cp.c.spin_acquires[1], want.clean_q);
  EXPECT_EQ(r.t.cp.c.spin_acquires[2], want.clean_own);
  EXPECT_EQ(r.t.locks_balanced(), "");
  EXPECT_EQ(r.t.dev()->stats.tx_packets, 3u);
  EXPECT_EQ(r.t.check(), "");
}

// The built-in XDP program ran once per frame: stack.xdp_prog_instructions
// each, under bpf_prog_run_xdp's profile name; with only_it, nothing else
// executed (no stack part ran).
inline void expect_xdp_prog_ran(const cp_counts &c, const nicsim_config &cfg, uint64_t frames, bool only_it) {
  const int prog = nk_prof_find(NK_PROF_XDP_PROG);
  ASSERT_GE(prog, 0);
  const double want = static_cast<double>(frames) * cfg.stack.xdp_prog_instructions;
  EXPECT_DOUBLE_EQ(c.bucket_instructions[prog], want);
  if (only_it) {
    EXPECT_DOUBLE_EQ(c.instructions, want);
  }
}

// The kernel's count of XDP verdicts, each exactly.
inline void expect_xdp_verdicts(nk_kernel *k, uint64_t pass, uint64_t drop, uint64_t tx, uint64_t tx_errors) {
  const nk_kernel_stats *ks = nk_kernel_get_stats(k);
  EXPECT_EQ(ks->xdp_pass, pass);
  EXPECT_EQ(ks->xdp_drop, drop);
  EXPECT_EQ(ks->xdp_tx, tx);
  EXPECT_EQ(ks->xdp_tx_errors, tx_errors);
}

#endif
