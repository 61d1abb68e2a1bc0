/* host_app.h: the host application, part of CpuCore: in tx / bidir mode a
 * sender of test frames (paced at traffic.rate_gbps or the line rate,
 * strict or average pacing, udp flows spread over the TX queues, or the
 * TCP sender's segments), and the reader that copies what the stack
 * delivered to user space. With one core it runs on core 0 between the
 * kernel's work (KernelScheduler::kernel_main calls its steps); with
 * cpu.cores >= 2 it runs on cpu.app_core in its own thread (run). */
#ifndef NICSIM_MODELS_CPU_HOST_APP_H
#define NICSIM_MODELS_CPU_HOST_APP_H

#include <cstdint>

#include "common/params.h"

namespace nicsim {

class CpuCore;

class HostApp {
 public:
  /* The sender and reader of the test traffic. */
  struct Params {
    enum class Mode : uint8_t { Rx, Tx, Bidir, Forward };
    Mode mode = Mode::Rx;         /* traffic.mode */
    bool sends = false;           /* traffic.mode tx or bidir: the application sends */
    uint32_t frame_bytes = 1518;  /* traffic.frame_bytes: frame size, B */
    int64_t flows = 1;            /* traffic.flows: udp frame n is flow n mod flows */
    double rate_gbps = 0;         /* traffic.rate_gbps: frame bits per second, Gbit/s (0: line rate) */
    bool average_pacing = false;  /* traffic.tx_pacing average (else strict) */
    bool pktgen = false;          /* traffic.sender pktgen: the kernel's packet generator sends (no socket, no stack) */
    int64_t clone_skb = 0;        /* traffic.pktgen_clone_skb: sends of each skb pktgen builds */
    double line_rate_gbps = 10;   /* the NIC's line rate, Gbit/s (src/sim: nic.line_rate_gbps) */
    uint64_t traffic_end_ps = 2000000000ull; /* the application stops, ps (src/sim: run.duration_us) */
    /* The traffic.* keys. */
    void bind(ParamBinder &b);
  };
  /* The application of core, configured by p. */
  HostApp(CpuCore &core, const Params &p);

  /* True in tx / bidir mode: the application sends. */
  bool sends() const { return m_sends; }
  /* The application core's thread (cpu.cores >= 2): sends frames and copies
   * to user space; with cpu.irq_affinity spread it shares the core with the
   * core's own vectors and NET_RX softirq as kernel_main does on one core. */
  void run();

  /* ---- the sender's steps on one core (kernel_main) ------------------- */
  /* tcp, while app sends at local time t: the RTO check; true if the
   * window is closed. */
  bool tcp_closed(uint64_t t, bool app);
  /* True if app sends at t (before the end of traffic), is not blocked
   * (tx_blocked: NETDEV_TX_BUSY; tcp_closed) and has socket memory. */
  bool active(uint64_t t, bool app, bool tx_blocked, bool tcp_closed);
  /* True if the application (sending if app) is a runnable task at t: a
   * frame is due and nothing blocks it (NETDEV_TX_BUSY, the TCP window, the
   * socket's memory). Changes nothing: for the scheduler's need_resched. */
  bool runnable(uint64_t t, bool app, bool tx_blocked);
  /* True if its next frame is due at local time t. */
  bool due(uint64_t t) const { return static_cast<double>(t) >= m_next_send_ps; }
  /* Sends the next frame at local time t through nk_kernel_xmit (stack and
   * driver), or pktgen's nk_kernel_pktgen_xmit (traffic.sender pktgen);
   * returns the driver's answer (NETDEV_TX_BUSY: retry later). */
  int xmit(uint64_t t);
  /* True with traffic.sender pktgen. */
  bool pktgen() const { return m_p.pktgen; }
  /* The earliest of wake, the next send (active) and the RTO (tcp_closed), ps. */
  uint64_t next_wake(uint64_t wake, bool active, bool tcp_closed) const;

 private:
  /* The next frame's flow and sequence number: udp frame n is flow n mod
   * traffic.flows, number n div flows in it (as the wire peer's); tcp flow
   * 0, the segment tseq. */
  uint32_t frame_flow() const;
  uint64_t frame_seq(uint64_t tseq) const;
  /* The xmit of a frame at local time t returned rc: counts the frame and
   * paces the next one (strict or average, traffic.tx_pacing), counts a
   * NETDEV_TX_BUSY refusal, or reports any other result as a violation. */
  void xmit_done(int rc, uint64_t t, bool clone = false);
  /* pktgen_xmit of the next frame (the seq of a new skb: the distinct skbs sent so far). */
  int pktgen_xmit(bool *clone);
  /* The send interval: traffic.rate_gbps frame bits, else the line rate
   * with preamble and IFG, or 0 (as fast as it runs) for a sender with a
   * socket send buffer and no rate. */
  double interval_ps() const;

  CpuCore &m_core;
  const Params m_p;
  const bool m_sends;
  const uint32_t m_frame_bytes;
  const uint64_t m_tx_flows;       /* udp: frame n is flow n mod this (traffic.flows) */
  const uint64_t m_traffic_end_ps; /* run.duration_us: the application stops */
  double m_interval_ps = 0;
  double m_next_send_ps = 0;
  uint64_t m_seq = 0;          /* frames sent */
  uint64_t m_clones = 0;       /* pktgen: of those, re-sends of an skb already sent */
  bool m_sock_waiting = false; /* traffic.sndbuf_bytes: asleep until the socket has room */
};

}  // namespace nicsim
#endif
