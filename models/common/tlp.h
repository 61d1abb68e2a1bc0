/*
 * tlp.h: the TLM-2.0 boundary between nicsim's DMA engine, interconnect and
 * host memory: a tlm_generic_payload plus this extension carrying the TLP
 * attributes. Users can put their own interconnect or memory model behind it.
 *
 * Protocol (blocking transport, b_transport):
 *  - Device DMA (NIC initiator -> interconnect "dev" target):
 *      READ returns when the last completion byte has arrived at the device;
 *      WRITE (posted) returns when the request has left the device (its TLPs
 *      are serialised); the bytes reach memory later, at their arrival time.
 *      An MSI is a 4-byte WRITE to the platform's MSI address with
 *      purpose Msi.
 *  - CPU MMIO (CPU initiator -> interconnect "host" target), address = BAR0
 *      offset: WRITE is posted (returns at once; applied at arrival); READ
 *      returns when the completion has arrived back at the CPU.
 *  - Interconnect -> host memory and interconnect -> device registers: the
 *      access takes effect at the simulated time of the call, zero delay.
 * The caller's delay argument is honoured as a start offset and returned as 0
 * (the target waits internally), so timing does not depend on the initiator
 * being approximately or loosely timed.
 */
#ifndef NICSIM_MODELS_COMMON_TLP_H
#define NICSIM_MODELS_COMMON_TLP_H

#include <cstdint>
#include <tlm>

namespace nicsim {

/* What a DMA transfer is for: the interconnect counts per purpose and a
 * device's batching policy keys on it. */
enum class DmaPurpose : uint8_t { DescFetch, DescWriteBack, Data, Msi, Mmio, Other };

struct TlpExt : tlm::tlm_extension<TlpExt> {
  DmaPurpose purpose = DmaPurpose::Other;
  bool relaxed_ordering = false; /* RO attribute (DMA_ATTR_WEAK_ORDERING) */
  bool no_snoop = false;
  uint8_t traffic_class = 0;
  uint16_t queue = 0; /* device queue, for per-queue accounting */

  tlm::tlm_extension_base *clone() const override { return new TlpExt(*this); }
  void copy_from(const tlm::tlm_extension_base &other) override {
    *this = static_cast<const TlpExt &>(other);
  }
};

}  // namespace nicsim
#endif
