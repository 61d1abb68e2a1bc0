// top_stats.cpp: the run's statistics and the system-level ones that span models, declared once.
#include "sim/top_stats.h"

#include <algorithm>
#include <cstdio>

namespace nicsim {

namespace {
using stats::Kind;
using RD = stats::Decl<RunFacts>;
using RE = stats::Edges<RunFacts>;

const RD kRunDecls[] = {
    RD::stat("sim.time_ns", "ns", Kind::Count, "Simulated time at the end of the run, drain included",
             [](const RE &e) { return static_cast<double>(e.run.end_ps / 1000); }),
    RD::stat("sim.events", "events", Kind::Count, "SystemC delta cycles executed (kernel activations)",
             [](const RE &e) { return static_cast<double>(e.run.events); }),
    RD::stat("sim.wall_s", "s", Kind::Wall, "Wall-clock time of the simulation (not deterministic)",
             [](const RE &e) { return e.run.wall_s; }),
    RD::extra("sim.drain_extended_us", "us", Kind::Real,
              "How much longer than run.drain_us the drain ran: the configured drain was too short and was extended "
              "automatically",
              [](const RE &e) { return e.run.drain_extended_us; },
              [](const RE &e) { return e.run.drain_extended_us >= 0; }),
};

using S = SystemSnapshot;
using D = stats::Decl<S>;
using E = stats::Edges<S>;

/* CPU time per GB, as the mvneta seed measured it ("sending 1GB in
 * mvneta_tx() costs N ns"): inclusive time in the function (itself and all
 * it calls) per GB of its direction's frame bytes with FCS: RX functions
 * per GB delivered, TX functions per GB the MAC sent, others per GB of
 * both. For the functions of cpu.profile.<function>. */
void ns_per_gb(const E &e, stats::FamilyOut &out) {
  char name[96], desc[160];
  const CpuSnapshot &c = e.f.cpu;
  const double tx_bytes = e.delta(&S::mac, &MacCounters::tx_wire_bytes);
  for (int id = 0; id <= CpuSnapshot::kUnattributed; id++) {
    if (c.bucket[id] <= 0 || c.busy <= 0) continue;
    const bool none = id == CpuSnapshot::kUnattributed;
    const char *fn = none ? "unattributed" : c.fn[id] ? c.fn[id] : "unknown";
    const nk_class fcls = c.fn_class[id];
    const double rx_gb = static_cast<double>(c.window.rx_frame_bytes) / 1e9, tx_gb = tx_bytes / 1e9;
    const double dir_gb = fcls == NK_CLASS_RX ? rx_gb : fcls == NK_CLASS_TX ? tx_gb : rx_gb + tx_gb;
    if (dir_gb <= 0) continue;
    std::snprintf(name, sizeof name, "cpu.ns_per_gb.%s", stats::ident(fn).c_str());
    std::snprintf(desc, sizeof desc, "CPU time in %s and its callees per GB of %s frame bytes",
                  none ? "no profiled function" : fn,
                  fcls == NK_CLASS_RX ? "RX" : fcls == NK_CLASS_TX ? "TX" : "RX plus TX");
    out.add(name, desc, c.incl[id] / (c.clock_mhz / 1000.0) / dir_gb);
  }
}

/* The fwd.* metrics are reported in traffic.mode forward only. */
bool forwarding(const E &e) { return e.f.peer.forward; }

const D kSystemDecls[] = {
    D::stat("cpu.cycles_per_tx_pkt", "cycles", Kind::Real,
            "CPU cycles in TX context (xmit, TX clean, TX stack) per transmitted frame",
            [](const E &e) {
              const double tx_pkts = e.delta(&S::mac, &MacCounters::tx_wire_frames);
              return tx_pkts > 0 ? e.f.cpu.class_cycles[NK_CLASS_TX] / tx_pkts : 0;
            }),
    D::stat("cpu.instructions_per_tx_pkt", "instructions", Kind::Real,
            "Instructions in TX context (xmit, TX clean, TX stack) per transmitted frame",
            [](const E &e) {
              const double tx_pkts = e.delta(&S::mac, &MacCounters::tx_wire_frames);
              return tx_pkts > 0 ? e.f.cpu.instr[NK_CLASS_TX] / tx_pkts : 0;
            }),
    D::derived("nic.desc_fetch_reqs_per_pkt", "requests", Kind::Real,
               "Descriptor read requests per frame (RX plus TX frames)",
               [](const stats::Values &v) {
                 const double frames = v("rx.pkts") + v("tx.pkts");
                 return frames > 0 ? v("nic.desc_fetch_reqs") / frames : 0;
               }),
    D::stat("tcp.acks", "frames", Kind::Count, "traffic.protocol tcp: ACK frames sent by the host and the wire peer",
            [](const E &e) {
              return static_cast<double>(e.f.cpu.window.tcp_acks_sent +
                                         (e.b.peer.tcp_acks_sent - e.a.peer.tcp_acks_sent));
            }),
    D::stat("tcp.retransmits", "frames", Kind::Count,
            "traffic.protocol tcp: data segments sent again (go-back-N after a duplicate ACK or an RTO)",
            [](const E &e) {
              return static_cast<double>(e.f.cpu.window.tcp_retransmits +
                                         (e.b.peer.tcp_retransmits - e.a.peer.tcp_retransmits));
            }),
    D::stat("tcp.inflight_max", "B", Kind::Count,
            "traffic.protocol tcp, whole run: most unacknowledged payload bytes one flow had (peer's RX flows, host's "
            "TX flow)",
            [](const E &e) {
              return static_cast<double>(std::max(e.f.peer.tcp_inflight_max, e.f.cpu.tcp_inflight_max));
            }),
    /* traffic.mode forward (docs/kernel.md, "Forwarding"): what came back to the
     * wire peer, as an RFC 2544 tester counts it at its receive port. */
    D::extra("fwd.mpps", "Mpkt/s", Kind::Real,
             "traffic.mode forward: frames the wire peer received back forwarded (intact, in order) per second, in "
             "millions, by their arrival in the window",
             [](const E &e) { return e.delta(&S::peer, &WirePeerCounters::fwd_frames) / (e.win_ns() / 1000.0); },
             forwarding),
    D::extra("fwd.gbps", "Gbit/s", Kind::Real,
             "traffic.mode forward: Ethernet frame bits (FCS included, preamble and IFG excluded) the wire peer "
             "received back forwarded per second",
             [](const E &e) { return e.delta(&S::peer, &WirePeerCounters::fwd_bytes) * 8.0 / e.win_ns(); },
             forwarding),
    D::extra("fwd.pkts", "frames", Kind::Count,
             "traffic.mode forward: frames the wire peer received back forwarded in the window",
             [](const E &e) { return e.delta(&S::peer, &WirePeerCounters::fwd_frames); }, forwarding),
    D::extra("fwd.loss", "fraction", Kind::Real,
             "traffic.mode forward: frame loss rate (RFC 2544 26.3) of the window: 1 - frames received back / "
             "frames the wire peer sent (0 when the host forwards everything; by arrival and by sending)",
             [](const E &e) {
               const double sent = e.delta(&S::peer, &WirePeerCounters::rx_offered_frames);
               const double back = e.delta(&S::peer, &WirePeerCounters::fwd_frames);
               return sent > 0 && back < sent ? 1.0 - back / sent : 0.0;
             },
             forwarding),
    D::extra("fwd.drops_txq", "frames", Kind::Count,
             "traffic.mode forward: packets the forwarding path dropped in the window because their TX queue was "
             "stopped or the driver refused them (nicsim has no qdisc to hold them)",
             [](const E &e) {
               return static_cast<double>(e.b.cpu.kstats.fwd_drops_txq - e.a.cpu.kstats.fwd_drops_txq);
             },
             forwarding),
    D::extra("total.fwd", "frames", Kind::Count,
             "traffic.mode forward, whole run: frames the wire peer received back forwarded (IPv4 forwarding, or "
             "XDP_TX with driver.xdp tx)",
             [](const E &e) { return static_cast<double>(e.f.peer.fwd_frames); }, forwarding),
    D::extra("total.fwd.drops_txq", "frames", Kind::Count,
             "traffic.mode forward, whole run: packets the forwarding path dropped at a stopped TX queue or a "
             "driver's refusal",
             [](const E &e) { return static_cast<double>(e.f.cpu.kstats.fwd_drops_txq); }, forwarding),
    D::family("cpu.ns_per_gb.<function>", "ns/GB", Kind::Real,
              "Inclusive CPU time in the function and its callees per 10^9 frame bytes of its direction (RX "
              "functions per GB received, TX per GB sent, others both): the mvneta seed's measure (docs/host.md).",
              ns_per_gb),
};
}  // namespace

const stats::Table<RunFacts> kRunStats = stats::table("run", kRunDecls);
const stats::Table<SystemSnapshot> kSystemStats = stats::table("system", kSystemDecls);

}  // namespace nicsim
