/*
 * dma_purpose.h: what a DMA transfer is for, and its one name table (metric
 * names such as pcie.up.desc_fetch.tlps, and the trace's span names). No
 * SystemC: statistics tables use it.
 */
#ifndef NICSIM_MODELS_COMMON_DMA_PURPOSE_H
#define NICSIM_MODELS_COMMON_DMA_PURPOSE_H

#include <cstddef>
#include <cstdint>

namespace nicsim {

/* What a DMA transfer is for: the interconnect counts per purpose and a
 * device's batching policy keys on it. */
enum class DmaPurpose : uint8_t { DescFetch, DescWriteBack, Data, Msi, Mmio, Other };

/* Number of DmaPurpose values (per-purpose arrays are indexed by the enum). */
constexpr size_t kDmaPurposes = static_cast<size_t>(DmaPurpose::Other) + 1;

/* Short lower-case name of a purpose: "desc_fetch", "desc_writeback", "data", "msi", "mmio", "other". */
const char *dma_purpose_name(DmaPurpose p);

}  // namespace nicsim
#endif
