// dma_params.cpp: the DMA engine's nic.* keys and its rules on them (dma_engine.h).
#include <string>

#include "dma/dma_engine.h"

namespace nicsim {

void DmaEngine::Params::bind(ParamBinder &b) {
  b.key("nic.clock_mhz", clock_mhz);
  b.key("nic.desc_spacing", desc_spacing);
  b.key("nic.desc_fetch_max", desc_fetch_max);
  b.key("nic.desc_cache_entries", desc_cache_entries);
  if (desc_cache_entries == 0) desc_cache_entries = 2 * desc_fetch_max; /* two fetch batches */
  b.key("nic.desc_proc_cycles", desc_proc_cycles);
  enum class Wb { Desc, Batch, Head } wb = Wb::Desc;
  b.key("nic.wb_mode", wb, {{"desc", Wb::Desc}, {"batch", Wb::Batch}, {"head", Wb::Head}});
  b.key("nic.wb_threshold", wb_threshold);
  if (wb == Wb::Desc) wb_threshold = 1;
  tx_head_wb = wb == Wb::Head;
  b.key("nic.rx_drop_nodesc", rx_drop_nodesc);
  b.key("nic.desc_prefetch_threshold", prefetch_threshold);
  b.key("nic.max_read_reqs", max_read_reqs);
  b.key("nic.dma_arbitration", rx_read_priority, {{"rx_priority", true}, {"round_robin", false}});
  b.key("nic.read_reqs_per_channel", read_reqs_per_channel);
  b.key("nic.desc_fetch_spaced", fetch_spaced_span, {{"single", false}, {"span", true}});
  b.key("nic.desc_prefetch_spaced", prefetch_spaced);
  b.key("nic.dma_issue_ns", issue_ns);
  b.key("nic.irq_itr_usecs", itr_usecs);
  b.key("nic.irq_coal_frames", coal_frames);
  b.key("nic.irq_coal_usecs", coal_usecs);
  b.key("nic.rx_irq_coal_frames", dir_coal_frames[0]);
  b.key("nic.rx_irq_coal_usecs", dir_coal_usecs[0]);
  b.key("nic.tx_irq_coal_frames", dir_coal_frames[1]);
  b.key("nic.tx_irq_coal_usecs", dir_coal_usecs[1]);
  b.key("nic.irq_coal_timer", coal_timer_restart, {{"absolute", false}, {"restart", true}});
  b.key("nic.reg_read_ns", reg_read_ns);
  b.key("nic.csr_clock_mhz", csr_clock_mhz);
  b.key("nic.rx_queues", rx_queues);
  b.key("nic.tx_queues", tx_queues);
}

ParamCheck DmaEngine::Params::validate() const {
  /* A ring's descriptor cache takes whole fetch batches. */
  if (desc_cache_entries < desc_fetch_max)
    return param_error({"nic.desc_cache_entries", "nic.desc_fetch_max"},
                       "set nic.desc_cache_entries to at least " + std::to_string(desc_fetch_max) +
                           " (or 0: two fetch batches), or nic.desc_fetch_max to at most " +
                           std::to_string(desc_cache_entries),
                       "nic.desc_cache_entries = %u cannot hold one fetch batch (nic.desc_fetch_max = %u descriptors)",
                       desc_cache_entries, desc_fetch_max);
  return std::nullopt;
}

}  // namespace nicsim
