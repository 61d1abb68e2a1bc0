/*
 * cpu_counters.h: what the simulated CPU counts, for the whole run and for
 * the measurement window (attributed by the CPU's local time).
 */
#ifndef NICSIM_MODELS_CPU_CPU_COUNTERS_H
#define NICSIM_MODELS_CPU_CPU_COUNTERS_H

#include <cstdint>

namespace nicsim {

/* Event counts of the CPU core (cycles are kept per profile bucket in CpuCore). */
struct CpuCounters {
  uint64_t uncached_loads = 0;  /* loads from uncached memory */
  uint64_t uncached_stores = 0; /* stores to uncached memory */
  uint64_t cached_loads = 0;    /* loads from cacheable memory through the ops */
  uint64_t cached_stores = 0;   /* stores to cacheable memory through the ops */
  uint64_t copies = 0;          /* memcpy calls */
  uint64_t copy_bytes = 0;      /* bytes copied, B */
  uint64_t cache_lines = 0;     /* cache lines cleaned or invalidated */
  uint64_t cache_misses = 0;    /* cacheable loads and stores that missed the data cache */
  uint64_t llc_hits = 0;        /* first loads of lines a DDIO write placed in the LLC */
  uint64_t unaligned_traps = 0; /* the stack's header loads that trapped unaligned (cpu.unaligned_trap_cycles) */
  uint64_t memcpy_bytes_aligned = 0;    /* memcpy bytes with (dst ^ src) & 7 == 0, B */
  uint64_t memcpy_bytes_misaligned = 0; /* memcpy bytes with (dst ^ src) & 7 != 0, B */
  uint64_t snoop_invalidates = 0; /* CPU cache lines a coherent DMA write invalidated */
  uint64_t ddio_fills = 0;      /* CPU cache lines a coherent DMA write allocated or updated (DDIO) */
  uint64_t barriers = 0;        /* memory barriers */
  uint64_t mmio_reads = 0;      /* device register reads */
  uint64_t mmio_writes = 0;     /* device register writes */
  uint64_t irqs = 0;            /* interrupt vectors delivered to the kernel */
  uint64_t irq_latency_ps = 0;  /* sum over them of MSI arrival at memory to the kernel taking it, ps */
  uint64_t irq_latency_max_ps = 0; /* the longest of those, ps */
  uint64_t softirqs = 0;        /* NET_RX softirq runs */
  /* who ran them (cpu/softirq.h) */
  uint64_t softirq_do = 0;        /* __do_softirq runs begun at IRQ exit or local_bh_enable */
  uint64_t softirq_restarts = 0;  /* net_rx_action runs of __do_softirq beyond its first */
  uint64_t softirq_deferred = 0;  /* exits to task context that left pending NET_RX to a runnable ksoftirqd */
  uint64_t ksoftirqd_wakeups = 0; /* times ksoftirqd was woken with NET_RX work */
  uint64_t ksoftirqd_rounds = 0;  /* net_rx_action runs of ksoftirqd */
  double softirq_do_cycles = 0;   /* cycles of the NET_RX rounds __do_softirq ran */
  double ksoftirqd_cycles = 0;    /* cycles of the NET_RX rounds ksoftirqd ran */
  uint64_t rx_frames = 0;       /* frames the host sink received intact */
  uint64_t rx_frame_bytes = 0;  /* their Ethernet bytes, FCS included, B */
  uint64_t rx_delivered_bytes = 0; /* data frames' bytes (FCS included) by when the stack got them, B */
  uint64_t rx_goodput_bytes = 0;   /* their L4 payload bytes (what iperf counts), by the same time, B */
  uint64_t tx_frames = 0;       /* frames the host application handed to the driver */
  uint64_t tx_busy = 0;         /* NETDEV_TX_BUSY answers to the application */
  uint64_t tx_pktgen_clones = 0; /* traffic.sender pktgen: frames sent from an skb already sent (clone_skb) */
  uint64_t tx_sndbuf_waits = 0; /* times the UDP sender slept on its socket send buffer */
  /* traffic.protocol tcp */
  uint64_t tcp_acks_sent = 0;     /* ACK frames the host handed to the driver (counted in tx_frames too) */
  uint64_t tcp_acks_received = 0; /* ACK frames the host sink received (counted in rx_frames too) */
  uint64_t tcp_retransmits = 0;   /* data segments the host application sent again */
  /* write-combining memory and the IOMMU */
  uint64_t wc_stores = 0;    /* stores to write-combining memory (merged in the WC buffers) */
  uint64_t wc_flushes = 0;   /* write-combining bursts that left the core */
  uint64_t iommu_maps = 0;   /* IOMMU mappings created (iommu.mode not off) */
  uint64_t iommu_unmaps = 0; /* IOMMU mappings removed */
  uint64_t iommu_inv_cmds = 0;         /* IOTLB invalidation commands the CPU queued (syncs not counted) */
  uint64_t iommu_inv_syncs = 0;        /* syncs it queued and waited for (one per submission) */
  uint64_t iommu_inv_wait_ps = 0;      /* time it spun waiting for them, ps */
  uint64_t iommu_fq_flushes_full = 0;  /* lazy mode: flushes because a CPU's flush queue was full */
  uint64_t iommu_fq_flushes_timer = 0; /* lazy mode: flushes by the flush queue's timer */
};

}  // namespace nicsim
#endif
