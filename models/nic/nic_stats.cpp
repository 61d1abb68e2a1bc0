// nic_stats.cpp: the NIC's drop statistics, declared once.
#include "nic/nic_stats.h"

namespace nicsim {

namespace {
using S = NicDrops;
using D = stats::Decl<S>;
using E = stats::Edges<S>;
using stats::Kind;

const D kDecls[] = {
    D::stat("rx.drops", "frames", Kind::Count, "Frames the NIC dropped (FIFO overflow, no descriptor)",
            [](const E &e) { return static_cast<double>((e.b.fifo + e.b.nodesc) - (e.a.fifo + e.a.nodesc)); }),
    D::stat("total.rx.dropped", "frames", Kind::Count, "Whole run: frames the NIC dropped and counted",
            [](const E &e) { return static_cast<double>(e.f.fifo + e.f.nodesc); }),
};
}  // namespace

const stats::Table<NicDrops> kNicStats = stats::table("nic", kDecls);

}  // namespace nicsim
