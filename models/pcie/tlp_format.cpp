// tlp_format.cpp: TLP sizes, serialisation and splitting rules, with the PCIe
// Base Specification sections they come from (3.0 numbering unless noted).
#include "pcie/tlp_format.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace nicsim {

namespace {

/* Raw signalling rate per lane, in MT/s, by generation (Base Spec 3.0 §4.2,
 * 4.0 §4.2, 5.0 §4.2: 2.5, 5.0, 8.0, 16.0, 32.0 GT/s). */
constexpr uint64_t kMegaTransfers[6] = {0, 2500, 5000, 8000, 16000, 32000};

uint64_t gcd_u64(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

}  // namespace

TlpFormat::TlpFormat(const PcieParams &p) : m_p(p) {
  if (p.gen < 1 || p.gen > 5) throw std::invalid_argument("pcie.gen must be 1..5, got " + std::to_string(p.gen));
  if (p.lanes < 1 || p.lanes > 32) throw std::invalid_argument("pcie.lanes out of range: " + std::to_string(p.lanes));
  if (p.mps < p.rcb || (p.mps & (p.mps - 1)) || p.mrrs == 0 || (p.mrrs & (p.mrrs - 1)) ||
      p.rcb == 0 || (p.rcb & (p.rcb - 1)))
    throw std::invalid_argument("pcie.mps, pcie.mrrs and the RCB must be powers of two with mps >= RCB");

  /* Link overhead per TLP (Base Spec 3.0 §3.5.2, "LCRC, Sequence Number, and
   * Retry Management"): the data link layer adds a 2-byte sequence number
   * and a 4-byte LCRC.
   *  - 8b/10b (2.5 and 5 GT/s, §4.2.1.2 "Framing and Application of Symbols
   *    to Lanes"): the physical layer frames the TLP with one STP and one END
   *    symbol: 1 + 2 + 4 + 1 = 8 bytes.
   *  - 128b/130b (8 GT/s and up, §4.2.2.3.1 "Framing Tokens"): a 4-byte STP
   *    token carries the length and the 12-bit sequence number, no END:
   *    4 + 4 = 8 bytes.
   * With pcie.ecrc the transaction layer appends a 4-byte TLP digest
   * (§2.7.1). 128b/130b sync headers are in the encoding factor; SKP ordered
   * sets are sent separately (PcieDirection). Left out: lane padding of
   * framing on wide links. */
  m_overhead = (p.gen <= 2 ? 1u + 2u + 4u + 1u : 4u + 4u) + (p.ecrc ? 4u : 0u);

  /* Serialisation: every byte is 8 bits before encoding; 8b/10b sends 10
   * bits per 8 (§4.2.1.1), 128b/130b 130 bits per 128 (§4.2.2.1). Lanes
   * carry bytes in parallel (byte striping, §4.2.1.2 / §4.2.2.2).
   * t[ps] = bytes * 8 * den / num / (MT/s * 1e6) * 1e12 / lanes. */
  const uint64_t enc_num = p.gen <= 2 ? 8 : 128;
  const uint64_t enc_den = p.gen <= 2 ? 10 : 130;
  m_ps_num = 8ull * enc_den * 1000000ull;
  m_ps_den = enc_num * kMegaTransfers[p.gen] * static_cast<uint64_t>(p.lanes);
  const uint64_t g = gcd_u64(m_ps_num, m_ps_den);
  m_ps_num /= g;
  m_ps_den /= g;

  /* Ack coalescing (Base Spec 1.1 §3.5.3.1, Table 3-7, "Unadjusted
   * AckNak_LATENCY_TIMER Limits" at 2.5 GT/s): ((MPS + TLPOverhead) x
   * AckFactor / LinkWidth + InternalDelay) symbol times, TLPOverhead = 28,
   * InternalDelay = 19; AckFactor 1.4 (x1-x4), 2.5 (x8), 3.0 (x12+) for MPS
   * 128-256 B, 1.0 (x1-x8) and 2.0 (x12+) for 512 B, 1.0 above. The same
   * formula is applied in symbol times at every rate (the later tables for
   * 5 and 8 GT/s are not reproduced). UpdateFC DLLPs use the same time
   * (§2.6.1.2, Table 2-46 has the same form). */
  double factor = 1.0;
  if (p.mps <= 256)
    factor = p.lanes <= 4 ? 1.4 : p.lanes <= 8 ? 2.5 : 3.0;
  else if (p.mps == 512)
    factor = p.lanes <= 8 ? 1.0 : 2.0;
  const double ack_symbols = (static_cast<double>(p.mps) + 28.0) * factor / p.lanes + 19.0;
  m_ack_ps = p.ack_latency_ps ? p.ack_latency_ps
                              : static_cast<uint64_t>(std::llround(ack_symbols * symbol_ps()));

  /* SKP ordered sets (§4.2.7): 8b/10b: one every 1180 to 1538 symbol times,
   * COM + 3 SKP = 4 symbols on every lane; 128b/130b (§4.2.7.3 of 3.0): one
   * every 370 to 375 blocks, 16 symbols per lane. The lower interval is used. */
  const double interval_symbols = p.gen <= 2 ? 1180.0 : 370.0 * 16.0;
  const uint32_t skp_symbols = p.gen <= 2 ? 4u : 16u;
  m_skp_interval_ps = static_cast<uint64_t>(std::llround(interval_symbols * symbol_ps()));
  m_skp_ps = static_cast<uint64_t>(std::llround(skp_symbols * symbol_ps()));
  m_skp_bytes = skp_symbols * static_cast<uint32_t>(p.lanes);
}

double TlpFormat::symbol_ps() const {
  /* One byte per lane: lanes bytes over the whole link. */
  return static_cast<double>(m_p.lanes) * static_cast<double>(m_ps_num) / static_cast<double>(m_ps_den);
}

uint32_t TlpFormat::header_bytes(TlpKind k, uint64_t addr) const {
  /* Completions always have a 3DW header (§2.2.9, "Completion Rules"). */
  if (k == TlpKind::Completion) return 12;
  /* Memory requests (§2.2.4.1, "Address-Based Routing Rules"): a 32-bit
   * address uses the 3DW format and must be used below 4 GiB; addresses at
   * or above 4 GiB use the 4DW (64-bit) format. With addr_bits = 64 the
   * platform's DMA memory stands for memory above 4 GiB (a server whose
   * buffers and rings lie in high memory, 64-bit DMA mask), so every request
   * to [0, mem_size) is 4DW; other addresses (e.g. the MSI doorbell) follow
   * their literal value. */
  const bool high = addr >= k4GiB || (m_p.addr_bits == 64 && addr < m_p.mem_size);
  return high ? 16 : 12;
}

uint32_t TlpFormat::wire_bytes(TlpKind k, uint64_t addr, uint32_t payload) const {
  /* An MRd carries no data (§2.2.7); its Length field only names the request. */
  const uint32_t data = k == TlpKind::MemRead ? 0 : payload;
  return data + header_bytes(k, addr) + m_overhead;
}

uint32_t TlpFormat::bar_wire_bytes(TlpKind k, uint32_t payload) const {
  /* BAR0 is a 32-bit memory BAR (below 4 GiB), so its requests are 3DW. */
  const uint32_t data = k == TlpKind::MemRead ? 0 : payload;
  return data + 12 + m_overhead;
}

uint64_t TlpFormat::serialise_ps(uint64_t wire_bytes) const {
  return (wire_bytes * m_ps_num + m_ps_den / 2) / m_ps_den;
}

double TlpFormat::effective_gbps() const {
  /* bytes per ps -> Gbit/s */
  return 8.0 * 1000.0 * static_cast<double>(m_ps_den) / static_cast<double>(m_ps_num);
}

uint32_t TlpFormat::write_chunk(uint64_t addr, uint64_t remaining) const {
  /* §2.2.7 ("Memory, I/O, and Configuration Request Rules"): a request's
   * payload must not exceed Max_Payload_Size (§7.8.4, Device Control) and
   * must not cross a 4 KiB boundary. */
  const uint64_t to_4k = k4KiB - (addr & (k4KiB - 1));
  return static_cast<uint32_t>(std::min<uint64_t>({remaining, m_p.mps, to_4k}));
}

uint32_t TlpFormat::read_chunk(uint64_t addr, uint64_t remaining) const {
  /* §7.8.4: a read request asks for at most Max_Read_Request_Size; §2.2.7:
   * and never across a 4 KiB boundary. */
  const uint64_t to_4k = k4KiB - (addr & (k4KiB - 1));
  return static_cast<uint32_t>(std::min<uint64_t>({remaining, m_p.mrrs, to_4k}));
}

uint32_t TlpFormat::completion_chunk(uint64_t addr, uint64_t remaining) const {
  /* §2.3.1.1 ("Data Return for Read Requests"): a read may be answered by
   * several completions; each but the last must end on an RCB-aligned
   * address, and none may carry more than MPS. Model: the root complex sends
   * the largest completions allowed, so the first one ends at the last RCB
   * boundary within MPS of its start and the rest are MPS each. */
  const uint64_t end = ((addr + m_p.mps) / m_p.rcb) * m_p.rcb;
  return static_cast<uint32_t>(std::min<uint64_t>(remaining, end - addr));
}

uint32_t TlpFormat::count_write_tlps(uint64_t addr, uint64_t len) const {
  uint32_t n = 0;
  for (uint64_t off = 0; off < len; n++) off += write_chunk(addr + off, len - off);
  return n;
}

uint32_t TlpFormat::count_read_requests(uint64_t addr, uint64_t len) const {
  uint32_t n = 0;
  for (uint64_t off = 0; off < len; n++) off += read_chunk(addr + off, len - off);
  return n;
}

uint32_t TlpFormat::count_completions(uint64_t addr, uint64_t len) const {
  uint32_t n = 0;
  for (uint64_t off = 0; off < len;) {
    const uint32_t req = read_chunk(addr + off, len - off);
    for (uint64_t c = 0; c < req; n++) c += completion_chunk(addr + off + c, req - c);
    off += req;
  }
  return n;
}

}  // namespace nicsim
