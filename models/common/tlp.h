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
 *  - Interconnect -> host memory: the root complex / bus calls the memory
 *      when it serves an MRd (READ) or commits a posted write (WRITE), with
 *      TlpExt carrying the originating TLP's type, tag and attributes. The
 *      memory may return a delay D in b_transport's delay argument: a READ's
 *      data is available D after the call (the completions leave then); a
 *      WRITE is complete (committed) D after the call. docs/embedding.md.
 *  - Interconnect -> device registers: the access takes effect at the
 *      simulated time of the call, zero delay.
 * The caller's delay argument is honoured as a start offset and returned as 0
 * (the target waits internally), so timing does not depend on the initiator
 * being approximately or loosely timed.
 */
#ifndef NICSIM_MODELS_COMMON_TLP_H
#define NICSIM_MODELS_COMMON_TLP_H

#include <cstdint>
#include <tlm>

#include "common/dma_purpose.h"

namespace nicsim {

/* Sets p up for one access of len bytes at addr from or into data: no byte
 * enables, no DMI, response incomplete. Every initiator in nicsim does this
 * before its b_transport (extensions are the caller's). */
inline void tlm_prepare(tlm::tlm_generic_payload &p, tlm::tlm_command cmd, uint64_t addr, unsigned char *data,
                        uint32_t len) {
  p.set_command(cmd);
  p.set_address(addr);
  p.set_data_ptr(data);
  p.set_data_length(len);
  p.set_streaming_width(len);
  p.set_byte_enable_ptr(nullptr);
  p.set_byte_enable_length(0);
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

/* The request TLP a host-memory access comes from (None: not set, e.g. device DMA requests). */
enum class TlpType : uint8_t { None, MemRead, MemWrite };

/* A TLP's ordering and traffic attributes, as carried along with a request. */
struct TlpAttrs {
  bool relaxed_ordering = false;
  bool no_snoop = false;
  uint8_t traffic_class = 0;
};

struct TlpExt : tlm::tlm_extension<TlpExt> {
  DmaPurpose purpose = DmaPurpose::Other;
  bool relaxed_ordering = false; /* RO attribute (DMA_ATTR_WEAK_ORDERING) */
  bool no_snoop = false;
  uint8_t traffic_class = 0;
  uint16_t queue = 0; /* device queue, for per-queue accounting */
  /* Set by the interconnect on host-memory accesses: */
  TlpType type = TlpType::None; /* MemRead for an MRd served, MemWrite for a posted write committed */
  uint16_t tag = 0;             /* the MRd's tag (PCIe, 0..pcie.tags-1); 0 for writes and on the bus */

  /* The attributes as one value. */
  TlpAttrs attrs() const {
    TlpAttrs a;
    a.relaxed_ordering = relaxed_ordering;
    a.no_snoop = no_snoop;
    a.traffic_class = traffic_class;
    return a;
  }

  tlm::tlm_extension_base *clone() const override { return new TlpExt(*this); }
  void copy_from(const tlm::tlm_extension_base &other) override {
    *this = static_cast<const TlpExt &>(other);
  }
};

}  // namespace nicsim
#endif
