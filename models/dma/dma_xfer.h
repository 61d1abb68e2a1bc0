/* dma_xfer.h: one reusable DMA transfer context (payload plus TLP
 * extension) of a DMA-engine process, issuing blocking transactions on the
 * engine's initiator socket at NIC clock edges. */
#ifndef NICSIM_MODELS_DMA_DMA_XFER_H
#define NICSIM_MODELS_DMA_DMA_XFER_H

#include <cstdint>
#include <functional>
#include <string>
#include <tlm>

#include "common/tlp.h"
#include "dma/nic_clock.h"

namespace nicsim {

class TraceWriter;

/* Each SC_THREAD that issues DMA owns one DmaXfer, so no payload is shared
 * or allocated per transfer. Only callable from an SC_THREAD. */
class DmaXfer {
 public:
  /* Called with a message when a transfer gets an error response. */
  using ErrorFn = std::function<void(const std::string &)>;

  /* socket: the engine's initiator socket; clock: transfers start on its
   * edges; on_error: reports failed transfers. */
  DmaXfer(tlm::tlm_initiator_socket<> &socket, const NicClock &clock, ErrorFn on_error);
  DmaXfer(const DmaXfer &) = delete;
  DmaXfer &operator=(const DmaXfer &) = delete;

  /* Reads len bytes at bus address addr into dst; returns when the data is
   * back (tlp.h READ semantics). The request starts at the first clock edge
   * at or after max(now, start_ps), passed to the target as the b_transport
   * delay (tlp.h: a start offset), which saves a wait here. False on an
   * error response. relaxed_ordering: the TLPs carry the RO attribute. */
  bool read(uint64_t addr, uint8_t *dst, uint32_t len, DmaPurpose purpose, uint16_t queue,
            uint64_t start_ps = 0, bool relaxed_ordering = false);
  /* Posted write of len bytes from src to addr; returns when the request
   * has left the device. Start time, RO and result as for read(). */
  bool write(uint64_t addr, const uint8_t *src, uint32_t len, DmaPurpose purpose, uint16_t queue,
             uint64_t start_ps = 0, bool relaxed_ordering = false);
  /* Records every transfer as a span on track tid of t (nullptr: none). */
  void set_trace(TraceWriter *t, uint32_t tid) {
    m_trace = t;
    m_trace_tid = tid;
  }

 private:
  bool run(tlm::tlm_command cmd, uint64_t addr, uint8_t *data, uint32_t len, DmaPurpose purpose,
           uint16_t queue, uint64_t start_ps, bool relaxed_ordering);

  tlm::tlm_initiator_socket<> &m_socket;
  const NicClock &m_clock;
  ErrorFn m_on_error;
  tlm::tlm_generic_payload m_gp;
  TlpExt *m_ext; /* owned by m_gp */
  TraceWriter *m_trace = nullptr;
  uint32_t m_trace_tid = 0;
};

}  // namespace nicsim
#endif
