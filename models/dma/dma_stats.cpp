// dma_stats.cpp: the DMA engine's statistics, declared once.
#include "dma/dma_stats.h"

#include <cstdio>

namespace nicsim {

namespace {
using S = DmaSnapshot;
using C = DmaCounters;
using D = stats::Decl<S>;
using E = stats::Edges<S>;
using stats::Kind;

/* The per-queue and per-vector families are reported with several queues. */
bool several_queues(const E &e) { return e.b.rx_queues > 1 || e.b.tx_queues > 1; }

/* One direction's queues: frames (what) and mean ring occupancy per queue. */
void queues(const E &e, stats::FamilyOut &out, bool rx, bool occupancy) {
  if (!several_queues(e)) return;
  char name[96], desc[160];
  const char *dir = rx ? "rx" : "tx";
  const uint32_t n = rx ? e.b.rx_queues : e.b.tx_queues;
  for (uint32_t q = 0; q < n; q++) {
    if (occupancy) {
      const uint64_t *oa = rx ? e.a.rxq_occ_integral : e.a.txq_occ_integral;
      const uint64_t *ob = rx ? e.b.rxq_occ_integral : e.b.txq_occ_integral;
      std::snprintf(name, sizeof name, "nic.%sq%u.occupancy", dir, q);
      std::snprintf(desc, sizeof desc, "Mean descriptors %s queue %u's ring gave the device in the window",
                    rx ? "RX" : "TX", q);
      out.add(name, desc, static_cast<double>(ob[q] - oa[q]) / e.run.win_ps);
    } else {
      const uint64_t *fa = rx ? e.a.c.rxq_frames : e.a.c.txq_frames;
      const uint64_t *fb = rx ? e.b.c.rxq_frames : e.b.c.txq_frames;
      std::snprintf(name, sizeof name, "nic.%sq%u.pkts", dir, q);
      std::snprintf(desc, sizeof desc, "%s queue %u in the window",
                    rx ? "RX frames the NIC wrote back on RX" : "TX frames the NIC read from TX", q);
      out.add(name, desc, static_cast<double>(fb[q] - fa[q]));
    }
  }
}

/* MSIs (suppressed false) or suppressed conditions per vector. */
void vectors(const E &e, stats::FamilyOut &out, bool suppressed) {
  if (!several_queues(e)) return;
  char name[96], desc[160];
  for (uint32_t v = 0; v < e.b.vectors; v++) {
    if (suppressed) {
      std::snprintf(name, sizeof name, "irq.vec%u.suppressed", v);
      std::snprintf(desc, sizeof desc, "Moderation conditions met on vector %u while it was masked, in the window", v);
      out.add(name, desc, static_cast<double>(e.b.vec[v].suppressed - e.a.vec[v].suppressed));
    } else {
      std::snprintf(name, sizeof name, "irq.vec%u.count", v);
      std::snprintf(desc, sizeof desc, "MSIs the NIC raised on vector %u (queue pair %u) in the window", v, v);
      out.add(name, desc, static_cast<double>(e.b.vec[v].raised - e.a.vec[v].raised));
    }
  }
}

const D kDecls[] = {
    D::stat("rx.drops_nodesc", "frames", Kind::Count, "Frames the NIC dropped for want of an RX descriptor",
            [](const E &e) { return e.delta(&S::c, &C::rx_drop_nodesc); }),
    D::stat("nic.desc_fetch_reqs", "requests", Kind::Count, "Descriptor read requests (RX and TX)",
            [](const E &e) { return e.delta(&S::c, &C::desc_fetch_reqs); }),
    D::stat("nic.desc_fetched", "descriptors", Kind::Count, "Descriptors fetched (RX and TX)",
            [](const E &e) { return e.delta(&S::c, &C::desc_fetched); }),
    D::stat("nic.desc_writebacks", "writes", Kind::Count, "Descriptor status write-back requests",
            [](const E &e) { return e.delta(&S::c, &C::desc_writebacks); }),
    D::stat("nic.data_read_bytes", "B", Kind::Count, "TX frame bytes the DMA engine read from host memory",
            [](const E &e) { return e.delta(&S::c, &C::data_read_bytes); }),
    D::stat("nic.data_write_bytes", "B", Kind::Count, "RX frame bytes the DMA engine wrote to host memory",
            [](const E &e) { return e.delta(&S::c, &C::data_write_bytes); }),
    D::stat("nic.rx_ring_occupancy", "descriptors", Kind::Real,
            "Time-averaged RX descriptors owned by the device, summed over the RX queues", stats::time_avg<&S::rx_occ_integral>),
    D::stat("nic.tx_ring_occupancy", "descriptors", Kind::Real,
            "Time-averaged TX descriptors owned by the device, summed over the TX queues", stats::time_avg<&S::tx_occ_integral>),
    D::stat("nic.rx_ring_occupancy_max", "descriptors", Kind::Count,
            "Whole run: most RX descriptors the device owned at once in one ring", stats::at_finish<&S::rx_occ_max>),
    D::stat("nic.tx_ring_occupancy_max", "descriptors", Kind::Count,
            "Whole run: most TX descriptors the device owned at once in one ring", stats::at_finish<&S::tx_occ_max>),
    D::stat("nic.rx_read_grants", "requests", Kind::Count, "Read tags the arbiter granted to the RX channel",
            stats::delta<&S::rx_read_grants>),
    D::stat("nic.tx_read_grants", "requests", Kind::Count, "Read tags the arbiter granted to the TX channel",
            stats::delta<&S::tx_read_grants>),
    D::stat("irq.count", "interrupts", Kind::Count, "Interrupts (MSI) the NIC raised",
            [](const E &e) { return e.delta(&S::irq, &IrqCounters::raised); }),
    D::stat("irq.per_sec", "1/s", Kind::Real, "Interrupts per second of simulated time",
            [](const E &e) { return e.delta(&S::irq, &IrqCounters::raised) / e.win_s(); }),
    D::stat("irq.suppressed", "interrupts", Kind::Count,
            "Moderation conditions met while masked, folded into a later interrupt",
            [](const E &e) { return e.delta(&S::irq, &IrqCounters::suppressed); }),
    D::stat("irq.throttled", "interrupts", Kind::Count,
            "Interrupts merged into one deferred by ITR throttling (nic.irq_itr_usecs)",
            [](const E &e) { return e.delta(&S::irq, &IrqCounters::throttled); }),
    D::stat("irq.moderation_changes", "writes", Kind::Count,
            "Coalescing register writes that changed a frame count or timer while interrupts were enabled: adaptive "
            "moderation's decisions (driver.rx_coal_adaptive)",
            [](const E &e) { return e.delta(&S::irq, &IrqCounters::moderation_changes); }),
    D::family("nic.rxq<q>.pkts", "frames", Kind::Count,
              "With `nic.rx_queues` or `nic.tx_queues` above 1: RX frames the NIC wrote back on RX queue q in the "
              "window.",
              [](const E &e, stats::FamilyOut &out) { queues(e, out, true, false); }),
    D::family("nic.rxq<q>.occupancy", "descriptors", Kind::Real,
              "With several queues: mean descriptors RX queue q's ring gave the device in the window.",
              [](const E &e, stats::FamilyOut &out) { queues(e, out, true, true); }),
    D::family("nic.txq<q>.pkts", "frames", Kind::Count,
              "With several queues: TX frames the NIC read from TX queue q in the window.",
              [](const E &e, stats::FamilyOut &out) { queues(e, out, false, false); }),
    D::family("nic.txq<q>.occupancy", "descriptors", Kind::Real,
              "With several queues: mean descriptors TX queue q's ring gave the device in the window.",
              [](const E &e, stats::FamilyOut &out) { queues(e, out, false, true); }),
    D::family("irq.vec<v>.count", "interrupts", Kind::Count,
              "With several queues: MSIs the NIC raised on vector v (queue pair v) in the window.",
              [](const E &e, stats::FamilyOut &out) { vectors(e, out, false); }),
    D::family("irq.vec<v>.suppressed", "interrupts", Kind::Count,
              "With several queues: moderation conditions met on vector v while it was masked, in the window.",
              [](const E &e, stats::FamilyOut &out) { vectors(e, out, true); }),
};
}  // namespace

const stats::Table<DmaSnapshot> kDmaStats = stats::table("dma", kDecls);

}  // namespace nicsim
