/* mem_access.h: an interconnect's access to host memory across the TLM
 * boundary: one reused generic payload carrying the request's TlpExt
 * (purpose, type, tag, attributes), the delay the target returns handed
 * back. PcieLink (the root complex) and AxiBus both reach memory this way,
 * so a user's memory target sees the same contract from either. */
#ifndef NICSIM_MODELS_COMMON_MEM_ACCESS_H
#define NICSIM_MODELS_COMMON_MEM_ACCESS_H

#include <cstdint>
#include <systemc>
#include <tlm>

#include "common/tlp.h"

namespace nicsim {

class HostMemAccess {
 public:
  HostMemAccess() : m_ext(new TlpExt) { m_gp.set_extension(m_ext); }
  HostMemAccess(const HostMemAccess &) = delete;
  HostMemAccess &operator=(const HostMemAccess &) = delete;

  /* One access now through mem (an initiator socket bound to the memory
   * target), for a request of type (read or write), tag and attrs. False if
   * the target answered with an error; *delay_ps gets the delay it returned, ps. */
  template <class Socket>
  bool operator()(Socket &mem, tlm::tlm_command cmd, uint64_t addr, uint8_t *data, uint32_t len,
                  DmaPurpose purpose, const TlpAttrs &attrs, uint16_t tag, uint64_t *delay_ps) {
    tlm_prepare(m_gp, cmd, addr, data, len);
    m_ext->purpose = purpose;
    m_ext->relaxed_ordering = attrs.relaxed_ordering;
    m_ext->no_snoop = attrs.no_snoop;
    m_ext->traffic_class = attrs.traffic_class;
    m_ext->type = cmd == tlm::TLM_READ_COMMAND ? TlpType::MemRead : TlpType::MemWrite;
    m_ext->tag = tag;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    mem->b_transport(m_gp, d);
    *delay_ps = d.value();
    return m_gp.is_response_ok();
  }

 private:
  tlm::tlm_generic_payload m_gp; /* used without waiting: never on a thread's stack */
  TlpExt *m_ext;                 /* owned by m_gp */
};

}  // namespace nicsim
#endif
