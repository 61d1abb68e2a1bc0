// dma_purpose.cpp: the names of the DMA purposes (see dma_purpose.h).
#include "common/dma_purpose.h"

namespace nicsim {

const char *dma_purpose_name(DmaPurpose p) {
  static const char *const kNames[kDmaPurposes] = {"desc_fetch", "desc_writeback", "data", "msi", "mmio", "other"};
  const size_t i = static_cast<size_t>(p);
  return i < kDmaPurposes ? kNames[i] : "other";
}

}  // namespace nicsim
