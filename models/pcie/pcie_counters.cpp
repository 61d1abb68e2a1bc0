// pcie_counters.cpp: names of the DMA purposes used in per-purpose metrics.
#include "pcie/pcie_counters.h"

namespace nicsim {

const char *dma_purpose_name(DmaPurpose p) {
  switch (p) {
    case DmaPurpose::DescFetch: return "desc_fetch";
    case DmaPurpose::DescWriteBack: return "desc_writeback";
    case DmaPurpose::Data: return "data";
    case DmaPurpose::Msi: return "msi";
    case DmaPurpose::Mmio: return "mmio";
    case DmaPurpose::Other: return "other";
  }
  return "other";
}

}  // namespace nicsim
