/*
 * tlp_format.h: the arithmetic of PCIe TLPs: header and link-layer overhead in
 * bytes, serialisation time on the wire, and how transfers split into TLPs
 * (MPS, MRRS, 4 KiB, RCB). Pure functions of PcieParams, no SystemC.
 */
#ifndef NICSIM_MODELS_PCIE_TLP_FORMAT_H
#define NICSIM_MODELS_PCIE_TLP_FORMAT_H

#include <cstdint>

#include "pcie/pcie_params.h"

namespace nicsim {

/* Transaction-layer packet types the link carries. */
enum class TlpKind : uint8_t {
  MemWrite,   /* MWr: posted, header + payload */
  MemRead,    /* MRd: header only */
  Completion, /* CplD: 3DW completion header + payload */
};

/* TLP sizes, serialisation times and splitting rules for one link. */
class TlpFormat {
 public:
  static constexpr uint64_t k4GiB = 1ull << 32;
  static constexpr uint32_t k4KiB = 4096;

  /* Rules for the link described by p. */
  explicit TlpFormat(const PcieParams &p);

  /* Transaction-layer header bytes of a TLP of kind k addressed to addr (bus address). */
  uint32_t header_bytes(TlpKind k, uint64_t addr) const;
  /* Data-link plus physical-layer bytes added to every TLP (sequence number, LCRC, framing). */
  uint32_t link_overhead_bytes() const { return m_overhead; }
  /* Bytes one TLP occupies on the link: payload (bytes) + header + link overhead. */
  uint32_t wire_bytes(TlpKind k, uint64_t addr, uint32_t payload) const;
  /* Wire bytes of a TLP to or from a 32-bit BAR (CPU MMIO): 3DW requests, payload in bytes. */
  uint32_t bar_wire_bytes(TlpKind k, uint32_t payload) const;
  /* Time to serialise wire_bytes (bytes) over all lanes, in ps, rounded to the nearest ps. */
  uint64_t serialise_ps(uint64_t wire_bytes) const;
  /* Data rate after line encoding, all lanes together, in Gbit/s. */
  double effective_gbps() const;
  /* Time of one symbol on one lane (one byte per lane), ps (not rounded). */
  double symbol_ps() const;

  /* Wire bytes of one DLLP (Ack, UpdateFC): 6 B plus framing. */
  uint32_t dllp_wire_bytes() const { return 8; }
  /* Time from a TLP's arrival to the Ack (or UpdateFC) DLLP that covers it, ps:
   * pcie.ack_latency_ns, or the spec's AckNak latency formula. */
  uint64_t ack_latency_ps() const { return m_ack_ps; }
  /* Start-to-start interval of SKP ordered sets, ps. */
  uint64_t skp_interval_ps() const { return m_skp_interval_ps; }
  /* Time one SKP ordered set occupies the link, ps. */
  uint64_t skp_ps() const { return m_skp_ps; }
  /* Bytes of one SKP ordered set over all lanes. */
  uint32_t skp_wire_bytes() const { return m_skp_bytes; }

  /* Payload bytes of the next MWr of a device write at addr with remaining bytes left:
   * at most MPS, never crossing a 4 KiB boundary. */
  uint32_t write_chunk(uint64_t addr, uint64_t remaining) const;
  /* Bytes requested by the next MRd of a device read: at most MRRS, never crossing 4 KiB. */
  uint32_t read_chunk(uint64_t addr, uint64_t remaining) const;
  /* Payload bytes of the next CplD answering a read at addr with remaining bytes left:
   * at most MPS, and ending on an RCB boundary unless it is the last one. */
  uint32_t completion_chunk(uint64_t addr, uint64_t remaining) const;

  /* Number of MWr TLPs for a write of len bytes at addr. */
  uint32_t count_write_tlps(uint64_t addr, uint64_t len) const;
  /* Number of MRd TLPs for a read of len bytes at addr. */
  uint32_t count_read_requests(uint64_t addr, uint64_t len) const;
  /* Number of CplD TLPs answering a read of len bytes at addr (all its MRds). */
  uint32_t count_completions(uint64_t addr, uint64_t len) const;

  /* The parameters the rules were made from. */
  const PcieParams &params() const { return m_p; }

 private:
  PcieParams m_p;
  uint32_t m_overhead;    /* bytes per TLP below the transaction layer */
  uint64_t m_ps_num;      /* serialise_ps(n) = round(n * m_ps_num / m_ps_den) */
  uint64_t m_ps_den;
  uint64_t m_ack_ps;
  uint64_t m_skp_interval_ps;
  uint64_t m_skp_ps;
  uint32_t m_skp_bytes;
};

}  // namespace nicsim
#endif
