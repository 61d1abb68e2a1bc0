// dma_stats_read.cpp: the DMA engine's statistics snapshot and its registration (the table: dma_stats.cpp).
#include "dma/dma_engine.h"
#include "dma/dma_stats.h"

#include <algorithm>

namespace nicsim {

void DmaEngine::stats_snapshot(DmaSnapshot &s) const {
  s.c = m_cnt;
  s.irq = irq_counters();
  s.rx_queues = rx_queues();
  s.tx_queues = tx_queues();
  s.vectors = vectors();
  for (uint32_t v = 0; v < vectors(); v++) s.vec[v] = irq_counters(v);
  s.rx_occ_integral = s.tx_occ_integral = 0;
  s.rx_occ_max = s.tx_occ_max = 0;
  for (uint32_t q = 0; q < rx_queues(); q++) {
    s.rxq_occ_integral[q] = rx_ring(q).occupancy_integral();
    s.rx_occ_integral += s.rxq_occ_integral[q];
    s.rx_occ_max = std::max<uint64_t>(s.rx_occ_max, rx_ring(q).occupancy_max());
  }
  for (uint32_t q = 0; q < tx_queues(); q++) {
    s.txq_occ_integral[q] = tx_ring(q).occupancy_integral();
    s.tx_occ_integral += s.txq_occ_integral[q];
    s.tx_occ_max = std::max<uint64_t>(s.tx_occ_max, tx_ring(q).occupancy_max());
  }
  s.rx_read_grants = m_tags.granted(true);
  s.tx_read_grants = m_tags.granted(false);
}

void DmaEngine::add_stats(stats::Registry &r) const {
  r.add(kDmaStats, [this](DmaSnapshot &s, stats::Edge) { stats_snapshot(s); });
}

}  // namespace nicsim
