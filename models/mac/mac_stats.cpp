// mac_stats.cpp: the MAC's statistics, declared once.
#include "mac/mac_stats.h"

namespace nicsim {

namespace {
using S = MacCounters;
using D = stats::Decl<S>;
using E = stats::Edges<S>;
using stats::Kind;

const D kDecls[] = {
    D::stat("rx.drops_fifo", "frames", Kind::Count, "Frames the NIC dropped because the MAC RX FIFO was full",
            stats::delta<&S::rx_drop_fifo>),
    D::stat("tx.gbps", "Gbit/s", Kind::Real,
            "Ethernet frame bits (FCS included, preamble and IFG excluded) the MAC put on the wire per second",
            [](const E &e) { return e.delta(&S::tx_wire_bytes) * 8.0 / e.win_ns(); }),
    D::stat("tx.mpps", "Mpkt/s", Kind::Real, "Frames the MAC put on the wire per second, in millions",
            [](const E &e) { return e.delta(&S::tx_wire_frames) / (e.win_ns() / 1000.0); }),
    D::stat("tx.pkts", "frames", Kind::Count, "Frames the MAC put on the wire", stats::delta<&S::tx_wire_frames>),
    D::stat("nic.pause_frames", "frames", Kind::Count,
            "IEEE 802.3x PAUSE frames the MAC sent (XOFF, refreshes and XON; nic.pause_enable)",
            [](const E &e) {
              return static_cast<double>((e.b.pause_xoff + e.b.pause_xon) - (e.a.pause_xoff + e.a.pause_xon));
            }),
};
}  // namespace

const stats::Table<MacCounters> kMacStats = stats::table("mac", kDecls);

}  // namespace nicsim
