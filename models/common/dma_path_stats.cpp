// dma_path_stats.cpp: the dma.* statistics of the device's requests, on the PCIe link or the bus.
#include "common/dma_path_stats.h"

namespace nicsim {

namespace {
using S = DmaPathCounters;
using D = stats::Decl<S>;
using E = stats::Edges<S>;
using stats::Kind;

const D kDecls[] = {
    D::stat("dma.gbps", "Gbit/s", Kind::Real,
            "Payload bits of the device's DMA requests (reads, writes, MSIs) completed in the window per second",
            [](const E &e) { return e.delta(&S::bytes) * 8.0 / (e.run.win_ps / 1000.0); }),
    D::stat("dma.rd_latency_ns", "ns", Kind::Real,
            "Mean device DMA read latency per request, from handing it to the link to its last byte back",
            [](const E &e) { return e.b.rd_latency.mean_ps_since(e.a.rd_latency) / 1000.0; }),
    D::stat("dma.rd_latency_ns.p99", "ns", Kind::Real,
            "99th percentile device DMA read latency per request (within 1/128)",
            [](const E &e) { return e.b.rd_latency.quantile_ps_since(e.a.rd_latency, 0.99) / 1000.0; }),
};
}  // namespace

const stats::Table<DmaPathCounters> kDmaPathStats = stats::table("dma", kDecls);

}  // namespace nicsim
