// wire_peer_stats.cpp: the wire peer's statistics, declared once.
#include "traffic/wire_peer_stats.h"

namespace nicsim {

namespace {
using S = WirePeerCounters;
using D = stats::Decl<S>;
using E = stats::Edges<S>;
using stats::Kind;

const D kDecls[] = {
    D::stat("total.rx.sent", "frames", Kind::Count, "Whole run: frames the wire peer sent to the NIC",
            stats::at_finish<&S::rx_offered_frames>),
    D::stat("total.tx.received", "frames", Kind::Count,
            "Whole run: frames the wire peer received intact (tcp: also duplicates it discarded)",
            [](const E &e) { return static_cast<double>(e.f.tx_ok + e.f.tx_dups); }),
};
}  // namespace

const stats::Table<WirePeerCounters> kWirePeerStats = stats::table("peer", kDecls);

}  // namespace nicsim
