/*
 * schema.h: every configuration key nicsim knows, declared once.
 *
 * Each section is an X-macro list. One entry:
 *   X(section, name, TYPE, unit, default, min, max, choices, doc)
 * TYPE is BOOL, INT (int64_t), REAL (double), ENUM (int index into the
 * '|'-separated choices) or STR (char[NC_STR_MAX]). The default is a string,
 * parsed by the same code as a file value, so a default cannot escape its own
 * validation. min and max bound INT and REAL values (inclusive).
 *
 * The list generates the struct nicsim_config fields, the key table the loader
 * walks, the resolved-config JSON and docs/config.md. Units go in the key name
 * (latency_ns, clock_mhz), snake_case.
 */
#ifndef NICSIM_CONFIG_SCHEMA_H
#define NICSIM_CONFIG_SCHEMA_H

#define NC_INF 1e300

/* run: how long to simulate and what to measure. */
#define NC_SECTION_run(X)                                                                   \
  X(run, duration_us, REAL, "us", "2000", 1, 1e7, "",                                     \
    "Simulated time during which traffic is offered; metrics cover [warmup_us, duration_us]") \
  X(run, warmup_us, REAL, "us", "200", 0, 1e7, "",                                        \
    "Start of the measurement window; must be below duration_us")                          \
  X(run, drain_us, REAL, "us", "2000", 0, 1e6, "",                                        \
    "Time after traffic stops for in-flight frames to finish before conservation is checked") \
  X(run, seed, INT, "", "1", 0, 9.2e18, "",                                               \
    "Seed of every random stream; same config and seed give bit-identical results")       \
  X(run, lookahead, BOOL, "", "true", 0, 0, "",                                           \
    "Speed only: a model about to wait while the kernel has nothing else to run up to then acts ahead instead; false gives the same results (all but sim.events), slower. Not used with cpu.locking txq on several cores")

/* cpu: the host CPU that runs the C driver. */
#define NC_SECTION_cpu(X)                                                                   \
  X(cpu, kind, ENUM, "", "x86", 0, 0, "x86|arm64|riscv|sparc|mips",                       \
    "Instruction-set family; selects memcpy and copy-to-user paths and where an unaligned-access trap is charged (mips: do_ade)") \
  X(cpu, clock_mhz, REAL, "MHz", "2000", 1, 10000, "", "Core clock")                      \
  X(cpu, cores, INT, "cores", "1", 1, 64, "",                                             \
    "Host CPU cores: core 0 takes the NIC's interrupts and softirqs (unless cpu.irq_affinity spread); with 2 or more the application runs on cpu.app_core") \
  X(cpu, app_core, INT, "", "1", 1, 63, "",                                               \
    "With cpu.cores >= 2, the core running the host application (TX stack, copy to user); below cpu.cores. Ignored with 1 core") \
  X(cpu, locking, ENUM, "", "big", 0, 0, "big|txq",                                       \
    "With cpu.cores >= 2: big = one kernel lock serialises every kernel entry; txq = no big lock, the TX queue lock around xmit and the drivers' TX clean (Linux's). Ignored with 1 core") \
  X(cpu, irq_affinity, ENUM, "", "core0", 0, 0, "core0|spread",                         \
    "With cpu.cores >= 2: core0 = core 0 takes every interrupt vector and polls every NAPI context; spread = vector v on core v mod cpu.cores (the application core too), each core polling its own NAPI contexts in its own NET_RX softirq. Ignored with 1 core") \
  X(cpu, quantum_ns, REAL, "ns", "1000", 1, 1e6, "",                                      \
    "Temporal-decoupling quantum: the CPU runs ahead of the model by at most this much")   \
  X(cpu, cached_access_cycles, REAL, "cycles", "1", 0, 1e4, "",                           \
    "Cost of a load or store to cacheable memory that hits the core's data cache")                                \
  X(cpu, uncached_store_cycles, REAL, "cycles", "10", 0, 1e5, "",                         \
    "Cost of a buffered store to uncached memory")                                         \
  X(cpu, mmio_write_cycles, REAL, "cycles", "50", 0, 1e5, "",                             \
    "Cost to issue a posted MMIO write (writel)")                                          \
  X(cpu, barrier_cycles, REAL, "cycles", "20", 0, 1e5, "",                                \
    "Cost of a memory barrier (mb/wmb/rmb/dma_wmb/dma_rmb)")                               \
  X(cpu, memcpy_cycles_per_byte, REAL, "cycles/B", "0.125", 0, 1e3, "",                   \
    "memcpy cost per byte when (dst ^ src) is 8-byte aligned")                             \
  X(cpu, memcpy_misaligned_cycles_per_byte, REAL, "cycles/B", "0.125", 0, 1e3, "",        \
    "memcpy cost per byte when (dst ^ src) is not 8-byte aligned")                         \
  X(cpu, memcpy_call_cycles, REAL, "cycles", "20", 0, 1e5, "", "Fixed cost of one memcpy call") \
  X(cpu, cache_line_bytes, INT, "B", "64", 16, 512, "", "Cache line size")                \
  X(cpu, cache_maint_cycles_per_line, REAL, "cycles", "20", 0, 1e5, "",                   \
    "Cost to clean or invalidate one cache line (non-coherent DMA sync)")                  \
  X(cpu, irq_entry_cycles, REAL, "cycles", "1000", 0, 1e7, "",                            \
    "Hard-IRQ entry plus exit (vector dispatch, register save/restore)")                   \
  X(cpu, softirq_cycles, REAL, "cycles", "500", 0, 1e7, "",                               \
    "Cost to raise and enter the NET_RX softirq and call one NAPI poll")                   \
  X(cpu, ksoftirqd_defer, BOOL, "", "true", 0, 0, "",                                     \
    "NET_RX raised while ksoftirqd is runnable is left to it at IRQ exit and local_bh_enable (Linux v4.9 to v6.4, 'softirq: Let ksoftirqd do its job'); false: __do_softirq runs at every IRQ exit (before v4.9, and from v6.5)") \
  X(cpu, softirq_max_restart, INT, "", "10", 1, 1000, "",                                 \
    "net_rx_action runs __do_softirq makes at most before it wakes ksoftirqd (MAX_SOFTIRQ_RESTART)") \
  X(cpu, hz, INT, "Hz", "250", 100, 1000, "",                                              \
    "Kernel tick rate (CONFIG_HZ): jiffies bound __do_softirq (MAX_SOFTIRQ_TIME, 2 ms rounded up to jiffies) and net_rx_action (2 jiffies)") \
  X(cpu, netdev_budget, INT, "packets", "300", 1, 1000000, "",                             \
    "Packets one net_rx_action processes over its NAPI polls before it yields (net.core.netdev_budget)") \
  X(cpu, stack_rx_cycles_per_byte, REAL, "cycles/B", "0.25", 0, 1e3, "",                  \
    "Copy to user space per received byte, with cpu.user_copy per_byte only (memcpy prices the copy itself)") \
  X(cpu, user_copy, ENUM, "", "per_byte", 0, 0, "per_byte|memcpy",                        \
    "Copies between user space and skbs: per_byte charges stack_rx_cycles_per_byte per delivered byte " \
    "and stack_tx_cycles_per_byte per sent byte; memcpy copies each L4 payload between its place in the " \
    "skb and the application's buffer at the cost of the CPU kind's copy routine (length and relative " \
    "alignment, cpu.memcpy_*, and the source lines that miss the cache, cpu.mlp_lines)")    \
  X(cpu, stack_tx_cycles_per_byte, REAL, "cycles/B", "0.25", 0, 1e3, "",                  \
    "Copy from user space per sent byte, with cpu.user_copy per_byte only")               \
  X(cpu, kernel_ipc, REAL, "instructions/cycle", "2", 0.01, 16, "",                       \
    "The core's instructions per cycle on kernel network code whose data is in its cache: turns the stack's " \
    "instruction counts (stack.*) and the drivers' and kernel layer's own code (cpu.isa) into cycles") \
  X(cpu, isa, ENUM, "", "auto", 0, 0, "auto|x86-64|arm64|armv7|riscv64|sparc64|mips32|none", \
    "Whose compiled code weighs each basic block the C drivers and kernel layer run (instructions per block of " \
    "that ISA's object code, charged at cpu.kernel_ipc; docs/host.md, \"The code's own instructions\"); auto: " \
    "cpu.kind's 64-bit ISA (mips: mips32); none: only their platform operations cost") \
  X(cpu, out_of_order, BOOL, "", "true", 0, 0, "",                                        \
    "The core executes out of order: of the lines one read of packet headers misses, only the first stalls " \
    "it for the whole latency and the others overlap (cpu.mlp_lines); an in-order core stalls for each") \
  X(cpu, mlp_lines, REAL, "lines", "10", 1, 256, "",                                      \
    "Memory-level parallelism: cache-line misses the core keeps in flight at once; a copy whose source "  \
    "lines miss lasts at least their latency / mlp_lines each")                            \
  X(cpu, syscall_cycles, REAL, "cycles", "300", 0, 1e7, "",                                \
    "Entry and exit of one system call (lmbench lat_syscall null), charged to each recvmsg and sendmsg") \
  X(cpu, context_switch_cycles, REAL, "cycles", "3000", 0, 1e8, "",                       \
    "One context switch (lmbench lat_ctx): a reader woken for data and going back to sleep costs two (bucket __schedule)") \
  X(cpu, unaligned_trap_cycles, REAL, "cycles", "0", 0, 1e7, "",                          \
    "Cost of one load the core cannot do unaligned in hardware (trap and emulation); 0: unaligned loads cost nothing extra") \
  X(cpu, net_ip_align_bytes, INT, "B", "2", 0, 2, "",                                     \
    "NET_IP_ALIGN of the kernel: headroom bytes before a received frame so that its IP header is 4-byte aligned " \
    "(Linux: 2, and 0 on x86 and ppc64)")                                                  \
  X(cpu, cache_sets, INT, "sets", "512", 1, 65536, "",                                     \
    "Sets of the core's data cache; its size is cache_sets x cache_ways x cache_line_bytes") \
  X(cpu, cache_ways, INT, "ways", "8", 1, 32, "", "Associativity of the core's data cache (LRU)") \
  X(cpu, llc_hit_cycles, REAL, "cycles", "40", 0, 1e5, "",                                \
    "Cost of the first CPU load of a line a DMA write placed in the last-level cache (memory.ddio)") \
  X(cpu, memcpy_byte_loop_cycles_per_byte, REAL, "cycles/B", "6", 0, 1e4, "",             \
    "riscv memcpy byte loop (lb/sb) per byte: short copies, heads, tails, (dst ^ src) & 7 != 0") \
  X(cpu, msi_latency_ns, REAL, "ns", "0", 0, 1e6, "",                                     \
    "Interrupt controller delivery: from the MSI write reaching memory to the core seeing the vector") \
  X(cpu, wc_buffers, INT, "buffers", "10", 1, 64, "",                                      \
    "Write-combining buffers of 64 B: stores to WC memory merge in them and leave as one burst per line") \
  X(cpu, wc_flush_cycles, REAL, "cycles", "10", 0, 1e5, "",                                \
    "Cost of one write-combining burst leaving the core (buffer full, evicted, or flushed by a barrier or uncached access)")

/* stack: the Linux network stack's own parts, in instructions per call (the kernel's code: the
 * same on every core kind; cpu.kernel_ipc turns them into cycles). docs/host.md, "The stack". */
#define NC_SECTION_stack(X)                                                                 \
  X(stack, gro_instructions, REAL, "instructions", "188", 0, 1e7, "",                      \
    "napi_gro_receive per received frame: the GRO attempt (dev_gro_receive, inet and UDP/TCP gro_receive), or the merge") \
  X(stack, netif_receive_instructions, REAL, "instructions", "374", 0, 1e7, "",            \
    "__netif_receive_skb_core per packet GRO hands up (protocol dispatch to ip_rcv)")      \
  X(stack, ip_rcv_instructions, REAL, "instructions", "310", 0, 1e7, "",                   \
    "ip_rcv per packet: header checks, early demux or route, ip_local_deliver")            \
  X(stack, udp_rcv_instructions, REAL, "instructions", "600", 0, 1e7, "",                  \
    "udp_rcv per datagram: socket lookup, checksum, enqueue on the socket")                \
  X(stack, tcp_rcv_instructions, REAL, "instructions", "1100", 0, 1e7, "",                 \
    "tcp_v4_rcv per data packet (a GRO packet counts once): established path, queue to the socket") \
  X(stack, tcp_ack_instructions, REAL, "instructions", "700", 0, 1e7, "",                  \
    "tcp_ack per ACK the host's TCP sender receives (in tcp_v4_rcv): window, SACK, retransmit queue") \
  X(stack, tcp_send_ack_instructions, REAL, "instructions", "700", 0, 1e7, "",             \
    "tcp_send_ack per ACK the TCP receiver sends: build and transmit the ACK segment down to ip_output") \
  X(stack, sock_wakeup_instructions, REAL, "instructions", "600", 0, 1e7, "",              \
    "sock_def_readable waking the sleeping reader (try_to_wake_up), once per read the reader makes") \
  X(stack, udp_recvmsg_instructions, REAL, "instructions", "1400", 0, 1e7, "",             \
    "udp_recvmsg per datagram read: dequeue and socket accounting (not the system call, the copy or the free)") \
  X(stack, tcp_recvmsg_instructions, REAL, "instructions", "500", 0, 1e7, "",              \
    "tcp_recvmsg per skb the reader consumes (not the system call, the copy or the free)") \
  X(stack, udp_sendmsg_instructions, REAL, "instructions", "1000", 0, 1e7, "",             \
    "udp_sendmsg per datagram: socket, route, UDP header, ip_make_skb (not the system call, the copy, the skb or ip_output)") \
  X(stack, tcp_sendmsg_instructions, REAL, "instructions", "1500", 0, 1e7, "",             \
    "tcp_sendmsg per segment sent: queueing, tcp_write_xmit, __tcp_transmit_skb (not the system call, the copy, the skb or ip_output)") \
  X(stack, ip_output_instructions, REAL, "instructions", "500", 0, 1e7, "",                \
    "ip_output per packet sent (data or ACK): IP header, netfilter hooks, neighbour, qdisc and dev_queue_xmit up to the driver") \
  X(stack, fib_lookup_instructions, REAL, "instructions", "150", 0, 1e7, "",               \
    "traffic.mode forward: fib_table_lookup per forwarded packet (ip_route_input_slow's fib_lookup) on a "  \
    "small table held in cache: a trie walk of a few levels (key, index, child per level) and the leaf's "  \
    "alias and nexthop checks (E from net/ipv4/fib_trie.c; bounded above by Bernat 2017, \"IPv4 route "    \
    "lookup on Linux\": 50 ns median fib_lookup with a 500,000-route full view on a 3.4 GHz i5-4670K, "     \
    "about 170 cycles with its cache misses; docs/kernel.md \"Forwarding\")")                              \
  X(stack, ip_forward_instructions, REAL, "instructions", "350", 0, 1e7, "",               \
    "traffic.mode forward: ip_forward and ip_forward_finish per forwarded packet, with ip_route_input_slow's " \
    "part around the lookup (nexthop's cached input route, skb_dst_set): pkt_type and xfrm checks, TTL "    \
    "check, skb_cow headroom check, ip_decrease_ttl, the empty NF_INET_FORWARD hook, IP_INC_STATS, "         \
    "dst_output (E from net/ipv4/ip_forward.c and route.c of v5.4; the header loads and stores are counted " \
    "apart, docs/kernel.md \"Forwarding\")")                                                                \
  X(stack, alloc_skb_instructions, REAL, "instructions", "191", 0, 1e7, "",                \
    "__alloc_skb per skb (napi_alloc_skb, netdev_alloc_skb, a send's skb): slab allocation and clearing the head") \
  X(stack, free_skb_instructions, REAL, "instructions", "147", 0, 1e7, "",                 \
    "kfree_skb per skb freed (consumed by the reader, TX completion, a drop): release of data and head") \
  X(stack, pktgen_xmit_instructions, REAL, "instructions", "150", 0, 1e7, "",              \
    "traffic.sender pktgen: pktgen_xmit per packet: the thread's loop, skb users bump, HARD_TX_LOCK, "  \
    "local_bh_disable/enable and its counters, not the driver (E: Brouer's pktgen figures, docs/host.md)") \
  X(stack, pktgen_fill_instructions, REAL, "instructions", "300", 0, 1e7, "",              \
    "traffic.sender pktgen: fill_packet_ipv4 per skb built (not cloned): Ethernet, IP and UDP headers, " \
    "ip_send_check, the pktgen header and its timestamp; not the skb allocation or the payload's zeroing " \
    "(cpu.stack_tx_cycles_per_byte) (E)")                                                \
  X(stack, xdp_prog_instructions, REAL, "instructions", "30", 0, 1e7, "",                \
    "driver.xdp: bpf_prog_run_xdp per frame running the built-in program (a JITed 2-instruction program "  \
    "returning its verdict): the indirect call into the JIT image with its retpoline, prologue, the 2 "    \
    "instructions, epilogue and return (E: a few tens of x86 instructions; bounded by Hoiland-Jorgensen "  \
    "et al., CoNEXT 2018, whose whole XDP_DROP path runs at 24 Mpps on one 3.6 GHz core, about 150 "        \
    "cycles per packet, docs/drivers.md \"XDP\")")

/* memory: host memory seen by the CPU and by DMA. */
#define NC_SECTION_memory(X)                                                                \
  X(memory, size_mb, INT, "MiB", "64", 1, 4096, "",                                       \
    "Simulated host memory holding rings and buffers (real bytes)")                        \
  X(memory, coherent_dma, BOOL, "", "true", 0, 0, "",                                     \
    "Whether device DMA is cache-coherent; if false, dma_alloc_coherent memory is uncached") \
  X(memory, uncached_load_ns, REAL, "ns", "100", 0, 1e6, "",                              \
    "Latency of one CPU load from uncached memory; the core stalls for it")                \
  X(memory, dram_latency_ns, REAL, "ns", "90", 0, 1e6, "",                                \
    "Latency of a CPU load that misses the data cache; the core stalls for it")            \
  X(memory, ddio, BOOL, "", "false", 0, 0, "",                                            \
    "Coherent DMA writes allocate their lines in the last-level cache (DDIO) instead of invalidating them") \
  X(memory, dram_bw_gbps, REAL, "GB/s", "0", 0, 1e4, "",                                  \
    "Peak DRAM bandwidth (10^9 B/s): every DMA access and CPU DRAM access occupies the channel for bytes / bandwidth and waits while it is busy; 0: unlimited") \
  X(memory, llc_mb, REAL, "MiB", "0", 0, 1e5, "",                                         \
    "Last-level cache size: dma-bench's host-warm window is in it only if it fits; 0: any window fits")

/* pcie: the PCIe link between the NIC and the root complex. */
#define NC_SECTION_pcie(X)                                                                  \
  X(pcie, gen, INT, "", "3", 1, 5, "", "PCIe generation (1-5: 2.5/5/8/16/32 GT/s)")       \
  X(pcie, lanes, INT, "", "8", 1, 16, "", "Link width; one of 1, 2, 4, 8, 16")            \
  X(pcie, mps, INT, "B", "256", 128, 4096, "", "Max payload size; a power of two")       \
  X(pcie, mrrs, INT, "B", "512", 128, 4096, "", "Max read request size; a power of two") \
  X(pcie, addr_bits, INT, "", "64", 32, 64, "", "Address width: 32 (3DW headers) or 64 (4DW)") \
  X(pcie, latency_ns, REAL, "ns", "150", 0, 1e6, "",                                      \
    "One-way latency through both PHYs and the wire, for every TLP")                       \
  X(pcie, rd_latency_ns, REAL, "ns", "300", 0, 1e6, "",                                   \
    "Host-side read latency: root complex plus memory, from MRd arrival to first CplD")     \
  X(pcie, rcb, INT, "B", "64", 64, 128, "",                                               \
    "Read completion boundary of the root port: 64 or 128")                                \
  X(pcie, ecrc, BOOL, "", "false", 0, 0, "", "Every TLP carries a 4-byte ECRC digest")     \
  X(pcie, tags, INT, "tags", "256", 1, 1024, "",                                          \
    "Most non-posted requests (MRd) the device may have outstanding: 32 (5-bit tags), 256 (8-bit)") \
  X(pcie, dllp, BOOL, "", "true", 0, 0, "",                                               \
    "Send Ack and UpdateFC DLLPs in the opposite direction of the TLPs they answer")        \
  X(pcie, skp, BOOL, "", "true", 0, 0, "",                                                \
    "Send SKP ordered sets at the spec's interval on both directions")                     \
  X(pcie, ack_latency_ns, REAL, "ns", "0", 0, 1e6, "",                                    \
    "Ack and UpdateFC coalescing time; 0: the spec's AckNak latency formula")              \
  X(pcie, rc_ph_credits, INT, "credits", "0", 0, 127, "",                                 \
    "Posted header credits the root port advertises; 0: infinite")                          \
  X(pcie, rc_pd_credits, INT, "credits", "0", 0, 2047, "",                                \
    "Posted data credits (16 B each) the root port advertises; 0: infinite")               \
  X(pcie, rc_nph_credits, INT, "credits", "0", 0, 127, "",                                \
    "Non-posted header credits the root port advertises; 0: infinite")                      \
  X(pcie, rc_serialize_writes, BOOL, "", "false", 0, 0, "",                               \
    "Root complex commits each posted write line only after the previous one, unless RO")  \
  X(pcie, rc_write_commit_ns, REAL, "ns", "0", 0, 1e6, "",                                \
    "Coherence commit time of one cache line of a posted write at the root complex")        \
  X(pcie, rc_partial_write_ns, REAL, "ns", "0", 0, 1e6, "",                               \
    "Root complex read-for-ownership and merge of each cache line a posted write covers only in part; later writes and reads wait for it")  \
  X(pcie, rc_cpl_ns_per_line, REAL, "ns", "0", 0, 1e6, "",                                \
    "Completion pacing: root-complex time to produce one cache line of read-completion data, shared by all reads; 0: unpaced") \
  X(pcie, rc_cold_read_ns, REAL, "ns", "0", 0, 1e6, "",                                   \
    "Extra latency of a device read request that misses the last-level cache and goes to DRAM, once per request") \
  X(pcie, pch_hop_ns, REAL, "ns", "0", 0, 1e6, "",                                        \
    "Chipset-attached port: one-way latency of the PCH and its DMI link, added to every TLP in both directions; 0: a CPU root port")

/* nic: the network interface controller. */
#define NC_SECTION_nic(X)                                                                   \
  X(nic, family, ENUM, "", "generic", 0, 0, "generic|lan743x|stmmac|i40e|mvneta",         \
    "Device family: descriptor format and quirks; driver.name must name the same family") \
  X(nic, line_rate_gbps, REAL, "Gbit/s", "10", 1, 100, "",                                \
    "Ethernet line rate; one of 1, 2.5, 10, 25, 40, 100")                                   \
  X(nic, clock_mhz, REAL, "MHz", "250", 1, 10000, "", "NIC core clock")                   \
  X(nic, desc_spacing, INT, "B", "16", 4, 4096, "",                                       \
    "Distance between the starts of consecutive descriptors; at least the descriptor size") \
  X(nic, rx_ring_size, INT, "descriptors", "512", 8, 65536, "", "RX descriptor ring entries") \
  X(nic, tx_ring_size, INT, "descriptors", "512", 8, 65536, "", "TX descriptor ring entries") \
  X(nic, rx_fifo_bytes, INT, "B", "65536", 2048, 1 << 26, "",                             \
    "RX packet FIFO; a frame that does not fit is dropped and counted")                    \
  X(nic, desc_fetch_max, INT, "descriptors", "8", 1, 256, "",                             \
    "Most descriptors fetched by one read request when they are contiguous")               \
  X(nic, desc_proc_cycles, INT, "cycles", "4", 0, 1e6, "",                                \
    "NIC core cycles to process one descriptor")                                           \
  X(nic, irq_coal_frames, INT, "frames", "32", 1, 65536, "",                              \
    "Raise an interrupt once this many frames have completed")                             \
  X(nic, irq_coal_usecs, REAL, "us", "50", 0, 1e6, "",                                    \
    "Or once the oldest un-notified completion is this old (0: no timer)")                 \
  X(nic, rx_irq_coal_frames, INT, "frames", "-1", -1, 65536, "",                          \
    "Per-direction coalescing: interrupt once this many RX frames have completed, counted apart from TX (-1: nic.irq_coal_frames, counted with TX)") \
  X(nic, rx_irq_coal_usecs, REAL, "us", "-1", -1, 1e6, "",                                \
    "Per-direction coalescing: or once the oldest un-notified RX completion is this old (-1: nic.irq_coal_usecs; 0: no timer)") \
  X(nic, tx_irq_coal_frames, INT, "frames", "-1", -1, 65536, "",                          \
    "Per-direction coalescing: interrupt once this many TX completions, counted apart from RX (-1: nic.irq_coal_frames)") \
  X(nic, tx_irq_coal_usecs, REAL, "us", "-1", -1, 1e6, "",                                \
    "Per-direction coalescing: or once the oldest un-notified TX completion is this old (-1: nic.irq_coal_usecs; 0: no timer)") \
  X(nic, irq_coal_timer, ENUM, "", "absolute", 0, 0, "absolute|restart",                  \
    "Coalescing timer: absolute counts from the first un-notified completion; restart is re-armed by every completion (Xilinx AXI DMA's delay timer, several SoC MACs)") \
  X(nic, reg_read_ns, REAL, "ns", "100", 0, 1e6, "",                                      \
    "Device time to answer an MMIO register read")                                         \
  X(nic, max_read_reqs, INT, "requests", "32", 1, 256, "",                                \
    "Outstanding DMA read requests (descriptor fetches and TX data) of the whole engine")  \
  X(nic, desc_cache_entries, INT, "descriptors", "0", 0, 4096, "",                        \
    "Descriptors each ring's on-chip cache holds; 0 means two fetch batches")              \
  X(nic, desc_prefetch_threshold, INT, "descriptors", "0", 0, 4096, "",                   \
    "Fetch only while the cache holds at most this many unprocessed descriptors (0: whenever a batch fits)") \
  X(nic, rx_drop_nodesc, BOOL, "", "false", 0, 0, "",                                     \
    "A frame whose RX queue has no descriptor left is dropped (rx.drops_nodesc) instead of waiting in the FIFO and blocking the frames behind it (as Intel 82599 SRRCTL.DROP_EN, which ixgbe sets with several RX queues and no flow control)") \
  X(nic, wb_mode, ENUM, "", "desc", 0, 0, "desc|batch|head",                              \
    "Status write-back: desc: each descriptor; batch: wb_threshold at a time; head: TX head index to memory") \
  X(nic, wb_threshold, INT, "descriptors", "4", 1, 256, "",                               \
    "Completed descriptors per write-back in batch and head modes")                        \
  X(nic, dma_arbitration, ENUM, "", "rx_priority", 0, 0, "rx_priority|round_robin",       \
    "Which channel gets a free read tag first: RX always, or RX and TX in turn")           \
  X(nic, read_reqs_per_channel, INT, "requests", "0", 0, 256, "",                         \
    "Outstanding read requests each channel (RX, TX) may hold, within the shared max_read_reqs; 0: no per-channel limit") \
  X(nic, desc_fetch_spaced, ENUM, "", "single", 0, 0, "single|span",                      \
    "Descriptors spaced wider than their size: one read per descriptor (single), or one read spanning up to desc_fetch_max of them and their gaps (span)") \
  X(nic, desc_prefetch_spaced, BOOL, "", "true", 0, 0, "",                                \
    "Descriptors spaced wider than their size are prefetched into the ring's cache (true) or fetched only when the cache has none left (false)") \
  X(nic, dma_issue_ns, REAL, "ns", "0", 0, 1e6, "",                                       \
    "Least time between the starts of two DMA requests of the engine (its request issue rate); 0: no limit") \
  X(nic, tx_fifo_bytes, INT, "B", "0", 0, 1 << 26, "",                                    \
    "MAC TX FIFO; 0 means two longest frames")                                             \
  X(nic, irq_itr_usecs, REAL, "us", "0", 0, 1e6, "",                                      \
    "ITR throttling: least time between two interrupts (0: no throttling)")                \
  X(nic, csr_clock_mhz, REAL, "MHz", "250", 1, 10000, "",                                 \
    "CSR (register interface) clock; stmmac's RX watchdog (RX_WATCHDOG) counts its cycles")             \
  X(nic, stmmac_asp, BOOL, "", "false", 0, 0, "",                                          \
    "stmmac: the core has the safety package (HW feature ASP); stmmac_interrupt then reads " \
    "its MTL and DMA safety interrupt status on every interrupt")                          \
  X(nic, pause_enable, BOOL, "", "false", 0, 0, "",                                        \
    "IEEE 802.3x flow control: the MAC sends PAUSE when the RX FIFO fills, the peer obeys") \
  X(nic, pause_quanta, INT, "512 bit times", "65535", 1, 65535, "",                       \
    "Pause time an XOFF asks for (IEEE 802.3 Annex 31B pause_time)")                       \
  X(nic, pause_xoff_bytes, INT, "B", "0", 0, 1 << 26, "",                                 \
    "RX FIFO fill that sends XOFF; 0 means rx_fifo_bytes minus two longest frames")        \
  X(nic, pause_xon_bytes, INT, "B", "0", 0, 1 << 26, "",                                  \
    "RX FIFO fill at or below which XON (pause_time 0) follows; 0 means half of XOFF")     \
  X(nic, rx_desc_bytes, INT, "B", "32", 16, 32, "",                                       \
    "i40e RX descriptor size, 16 or 32 (the other families have fixed sizes)")            \
  X(nic, rx_queues, INT, "queues", "1", 1, 16, "",                                        \
    "RX queues (descriptor rings); frames are spread over them by RSS; more than 1 needs the generic or i40e family") \
  X(nic, tx_queues, INT, "queues", "1", 1, 16, "",                                        \
    "TX queues (descriptor rings); host flow f uses queue f mod tx_queues; more than 1 needs the generic or i40e family") \
  X(nic, rss_table_size, INT, "entries", "128", 1, 512, "",                               \
    "RSS indirection table entries (a power of two); the driver fills entry i with queue i mod rx_queues") \
  X(nic, rss_key, STR, "", "", 0, 0, "",                                                  \
    "RSS Toeplitz key, 80 hex digits (40 B); empty: the Microsoft RSS verification key")

/* driver: the C driver and its knobs. */
#define NC_SECTION_driver(X)                                                                \
  X(driver, name, ENUM, "", "generic", 0, 0, "generic|mvneta|lan743x|stmmac|i40e",        \
    "C driver to run (src/drivers); it must match nic.family")                            \
  X(driver, napi_budget, INT, "packets", "64", 1, 4096, "", "NAPI poll budget")          \
  X(driver, rx_buf_bytes, INT, "B", "2048", 256, 65536, "", "Size of each RX buffer")     \
  X(driver, rx_coal_adaptive, ENUM, "", "none", 0, 0, "none|dim|itr",                     \
    "Adaptive interrupt moderation: none (the configured coalescing); dim, the kernel's net_dim library (lib/dim) run at the end of every NAPI poll and writing its profile to the vector's RX coalescing registers (generic driver); or itr, i40e's adaptive ITR (i40e_update_enable_itr, v4.10: every 100 polls each direction's bytes per microsecond pick a latency class, and both ITRs take the larger; i40e only)") \
  X(driver, copybreak_bytes, INT, "B", "-1", -1, 65535, "",                               \
    "RX copybreak: frames up to this size (without FCS) are copied into a fresh small skb and the DMA buffer stays in its slot (0: off; -1: the driver's own, mvneta's rx_copybreak of 256 B; only mvneta has one: the others refuse a value above 0, docs/drivers.md says why)") \
  X(driver, page_pool, ENUM, "", "auto", 0, 0, "auto|true|false",                        \
    "Where RX buffers come from: true, a page_pool that recycles them (PP_FLAG_DMA_SYNC_DEV, dma_sync_size); " \
    "false, the driver's scheme from before page_pool; auto, what the modelled driver version does. "  \
    "stmmac: true by default (v5.4 on: each frame copied out of a recycled page) or false (v4.14 to v5.3: " \
    "an skb armed in every RX slot, mapped at refill, unmapped at receive and passed up without a copy); " \
    "mvneta: false by default (the seed era) or true (v5.5's page_pool driver: rx_sync used, no copybreak); " \
    "generic: true only; i40e and lan743x: false only (their own page reuse and skb slots; docs/drivers.md)") \
  X(driver, rx_sync, ENUM, "", "full", 0, 0, "full|used",                                 \
    "mvneta on non-coherent DMA: full syncs the whole RX buffer for the CPU and, refilling, for the device (dma_unmap/dma_map of the seed era); used syncs only the received length for the CPU and lets the page_pool sync only that length for the device when the buffer comes back (PP_FLAG_DMA_SYNC_DEV, dma_sync_size); the other drivers refuse used: their code fixes the lengths (docs/drivers.md)") \
  X(driver, reuse_desc_reads, BOOL, "", "true", 0, 0, "",                                 \
    "mvneta: keep descriptor fields read once in locals (true, upstream) or re-read them " \
    "from the uncached descriptor as before the patch (false)")                            \
  X(driver, shadow_dma_addr, BOOL, "", "true", 0, 0, "",                                  \
    "mvneta: take the RX buffer DMA address from a cacheable shadow array (true) or from " \
    "the uncached descriptor (false)")                                                      \
  X(driver, rx_buf_offset, INT, "B", "66", 0, 256, "",                                    \
    "stmmac: bytes before the frame in each RX buffer; NET_SKB_PAD + NET_IP_ALIGN = 66 "    \
    "(after the patch), 0 before")                                                          \
  X(driver, rx_coal_frames, INT, "frames", "0", 0, 1024, "",                              \
    "stmmac: set RDES3 IOC on every this many RX descriptors; 0: none, the RX watchdog "    \
    "alone interrupts")                                                                     \
  X(driver, rx_riwt, INT, "256 CSR cycles", "160", 16, 255, "",                           \
    "stmmac: RX interrupt watchdog written to DMA_CHAN_RX_WATCHDOG (DEF_DMA_RIWT 0xa0)")    \
  X(driver, tx_coal_frames, INT, "frames", "25", 1, 1024, "",                             \
    "stmmac: set TDES2 IOC on every this many TX frames (STMMAC_TX_FRAMES)")               \
  X(driver, tx_coal_timer_us, REAL, "us", "1000", 1, 1e6, "",                             \
    "stmmac: software timer that cleans TX when no IOC came (STMMAC_COAL_TX_TIMER)")       \
  X(driver, tx_coal_per_packet, BOOL, "", "true", 0, 0, "",                               \
    "stmmac: count tx_coal_frames per packet (true, after the patch) or per descriptor")   \
  X(driver, stmmac_queues, INT, "queues", "1", 1, 8, "",                                   \
    "stmmac: MTL queues and DMA channels set up (plat->rx/tx_queues_to_use); every "       \
    "interrupt reads each one's MTL and DMA status. Traffic uses queue 0, the rest idle")   \
  X(driver, stmmac_tbu, BOOL, "", "false", 0, 0, "",                                       \
    "stmmac (dwmac4 DMA): enable the Transmit Buffer Unavailable interrupt (TBUE in "       \
    "DMA_CHAN_INTR_NORMAL, the seed's patch 3): the DMA interrupts when it has sent every "  \
    "descriptor it was given, so frames coalesced without IOC are cleaned at once")         \
  X(driver, dma_weak_ordering, BOOL, "", "true", 0, 0, "",                                \
    "i40e: map RX buffers with DMA_ATTR_WEAK_ORDERING (relaxed-ordering writes where the " \
    "platform honours it)")                                                                 \
  X(driver, bql, BOOL, "", "false", 0, 0, "",                                             \
    "Byte queue limits (CONFIG_BQL): where the driver's Linux source calls "                \
    "netdev_tx_sent_queue and netdev_tx_completed_queue (mvneta, stmmac, i40e; lan743x "   \
    "and generic do not), a TX queue stops once its bytes in flight reach a limit that "   \
    "adapts to completions (lib/dynamic_queue_limits.c). Off by default: nicsim has no "   \
    "qdisc, so a stopped sender retries itself (docs/kernel.md)")                          \
  X(driver, bql_limit_min, INT, "B", "0", 0, 1879048192, "",                              \
    "BQL: smallest limit (sysfs byte_queue_limits/limit_min)")                             \
  X(driver, bql_limit_max, INT, "B", "1879048192", 0, 1879048192, "",                     \
    "BQL: largest limit (byte_queue_limits/limit_max; Linux's DQL_MAX_LIMIT by default)")  \
  X(driver, bql_hold_time_ms, INT, "ms", "1000", 1, 3600000, "",                          \
    "BQL: how long slack must persist before the limit shrinks (byte_queue_limits/"        \
    "hold_time; Linux: HZ jiffies, 1 s)")                                                 \
  X(driver, xdp, ENUM, "", "off", 0, 0, "off|pass|drop|tx",                               \
    "XDP (mvneta v5.5, i40e v5.4): a built-in program runs on every received frame in its RX buffer " \
    "before any skb exists and returns this verdict: pass (on to the skb path), drop (the buffer is " \
    "recycled: mvneta's page_pool, i40e's reuse in place) or tx (the frame goes back out of the same port " \
    "from the RX path, XDP_TX: mvneta on its TX queue, i40e on the queue pair's own XDP ring, a device TX " \
    "queue after nic.tx_queues); off: no program (docs/drivers.md, \"XDP\"). Needs traffic.protocol udp; " \
    "tx needs traffic.mode rx or forward")

/* traffic: what is offered on the wire and by the host. */
#define NC_SECTION_traffic(X)                                                               \
  X(traffic, mode, ENUM, "", "rx", 0, 0, "rx|tx|bidir|forward",                           \
    "rx: wire to host; tx: host to wire; bidir: both; forward: the host forwards what it receives "  \
    "back out of the same port (IPv4 forwarding, or XDP_TX with driver.xdp tx), the wire peer counts " \
    "what comes back (RFC 2544-style; udp only, docs/kernel.md \"Forwarding\")")                                     \
  X(traffic, frame_bytes, INT, "B", "1518", 64, 9018, "",                                 \
    "Ethernet frame size including FCS, excluding preamble and IFG")                       \
  X(traffic, rate_gbps, REAL, "Gbit/s", "0", 0, 100, "",                                  \
    "Offered load per direction in frame bits per second; 0 means line rate")              \
  X(traffic, sndbuf_bytes, INT, "B", "0", 0, 1ll << 30, "",                               \
    "Host UDP sender's socket send buffer (SO_SNDBUF). 0: the application is paced at "     \
    "rate_gbps. Above 0: with rate_gbps 0 it is not paced (netperf UDP_STREAM, iperf3 -u "  \
    "-b 0): it sends while its skbs not yet freed by TX completion (truesize) stay below "  \
    "this, then sleeps until they fall to half (sock_def_write_space)")                    \
  X(traffic, tx_pacing, ENUM, "", "strict", 0, 0, "strict|average",                      \
    "Paced host sender: strict: a late core sends at once but banks no credit (a constant-rate " \
    "source); average: it keeps the average rate since its first frame, sending back to back " \
    "until it has caught up (iperf3 -b)")                                                   \
  X(traffic, frame_dist, ENUM, "", "fixed", 0, 0, "fixed|imix",                           \
    "Wire RX frame sizes: fixed (frame_bytes) or simple IMIX 64/594/1518 B at 7:4:1, seeded") \
  X(traffic, flows, INT, "flows", "1", 1, 256, "",                                        \
    "Wire RX flows; frame n belongs to flow n mod flows, each flow numbered in order")     \
  X(traffic, protocol, ENUM, "", "udp", 0, 0, "udp|tcp",                                  \
    "udp: frames at the offered rate, no ACKs (iperf3 -u); tcp: simplified windowed TCP with ACKs and GRO (docs/nic.md)") \
  X(traffic, tcp_window_bytes, INT, "B", "262144", 1, 1ll << 30, "",                      \
    "tcp: most unacknowledged payload bytes per flow (Linux tcp_rmem autotuning default scale, 256 KiB)") \
  X(traffic, tcp_ack_every, INT, "segments", "2", 1, 1024, "",                            \
    "tcp: receiver ACKs once this many segments are unacknowledged (delayed ACK, RFC 1122/5681)") \
  X(traffic, tcp_burst_segments, INT, "segments", "44", 1, 1024, "",                      \
    "tcp: wire peer sends a flow's segments in bursts of this many (TSO, 64 KiB gso_max_size / 1448)") \
  X(traffic, read_bytes, INT, "B", "131072", 64, 1ll << 30, "",                           \
    "Bytes the application asks for per read() or write() (iperf3's TCP default, -l 128 KiB): a TCP " \
    "reader's recvmsg calls per batch, a TCP sender's sendmsg calls per segment, and where in its buffer " \
    "each payload lands with cpu.user_copy memcpy")                                        \
  X(traffic, tcp_rto_us, REAL, "us", "200000", 1, 1e9, "",                                \
    "tcp: retransmission timeout: no ACK progress for this long sends the flow back to its oldest unacknowledged segment (Linux TCP_RTO_MIN 200 ms)") \
  X(traffic, sender, ENUM, "", "socket", 0, 0, "socket|pktgen",                           \
    "Host sender in tx / bidir mode: socket: the application's sendmsg through the UDP/IP stack; " \
    "pktgen: the kernel's packet generator thread (net/core/pktgen.c) calling the driver's "  \
    "ndo_start_xmit directly on TX queue 0 (queue_map 0), no socket or stack cost, not paced when rate_gbps is 0 " \
    "(delay 0); udp, one flow")                                                             \
  X(traffic, pktgen_clone_skb, INT, "packets", "0", 0, 1e9, "",                           \
    "sender pktgen: its clone_skb: each skb it builds is sent this many times in all (pktgen_xmit's " \
    "++clone_count >= clone_skb, users bumped per send), so 0 and 1 build a fresh skb per packet; " \
    "the repeats carry the same sequence number")

/* workload: what kind of simulation to build. */
#define NC_SECTION_workload(X)                                                              \
  X(workload, kind, ENUM, "", "nic", 0, 0, "nic|dma-bench",                              \
    "nic: a NIC with driver and traffic; dma-bench: a DMA initiator alone on the link")     \
  X(workload, op, ENUM, "", "write", 0, 0, "read|write|read_write",                       \
    "dma-bench: DMA reads, posted writes, or both alternately")                            \
  X(workload, size_bytes, INT, "B", "64", 1, 1048576, "", "dma-bench: bytes per DMA request") \
  X(workload, outstanding, INT, "requests", "8", 1, 1024, "",                             \
    "dma-bench: requests the initiator keeps in flight")                                   \
  X(workload, window_bytes, INT, "B", "1048576", 1, 1ll << 32, "",                        \
    "dma-bench: host memory window the requests walk through, from address 0")              \
  X(workload, relaxed_ordering, BOOL, "", "false", 0, 0, "",                              \
    "dma-bench: requests carry the Relaxed Ordering attribute (DMA_ATTR_WEAK_ORDERING)")    \
  X(workload, pattern, ENUM, "", "seq", 0, 0, "seq|random|page_stride",                   \
    "dma-bench: where requests go in the window: in order, at random request-aligned offsets, or one per 4 KiB page in turn (pcie-bench's access patterns)") \
  X(workload, host_cache, ENUM, "", "warm", 0, 0, "warm|cold",                            \
    "dma-bench: the host touched the window just before (warm: its lines are in the last-level cache if it fits, memory.llc_mb) or not (cold: reads go to DRAM)")

/* bus: the AXI-like on-chip bus of SoC NICs (both workloads). */
#define NC_SECTION_bus(X)                                                                   \
  X(bus, enabled, BOOL, "", "false", 0, 0, "",                                            \
    "The device reaches memory, and the CPU its registers, over the on-chip bus instead of the PCIe link") \
  X(bus, width_bytes, INT, "B", "16", 1, 128, "", "Data bytes per beat; a power of two")   \
  X(bus, clock_mhz, REAL, "MHz", "250", 1, 10000, "", "Bus clock")                         \
  X(bus, burst_beats, INT, "beats", "16", 1, 256, "",                                     \
    "Most beats per burst (AXI3: 16, AXI4 INCR: 256)")                                     \
  X(bus, rd_latency_ns, REAL, "ns", "100", 0, 1e6, "",                                    \
    "Read address accepted to first data beat ready: interconnect plus memory")             \
  X(bus, wr_latency_ns, REAL, "ns", "50", 0, 1e6, "",                                     \
    "Last write beat to the write response, when the data is in memory")                   \
  X(bus, outstanding, INT, "bursts", "8", 1, 1024, "",                                    \
    "Most bursts in flight, reads and writes together")

/* iommu: DMA address translation on the device's path (optional). */
#define NC_SECTION_iommu(X)                                                                 \
  X(iommu, enabled, BOOL, "", "false", 0, 0, "",                                          \
    "Shorthand for iommu.mode: true is strict unless iommu.mode says lazy; an explicit iommu.mode off with true (or strict/lazy with an explicit false) is an error") \
  X(iommu, mode, ENUM, "", "off", 0, 0, "off|strict|lazy",                                \
    "Translate device DMA through an IOMMU (IOTLB per 4 KiB page, page walks on misses, map/unmap costs). strict: every dma_unmap_* invalidates its IOTLB entries and waits for the invalidation queue's sync; lazy: unmaps go to a per-CPU flush queue, flushed (one domain-wide invalidation + sync) when full or on its timer, as Linux iommu.strict=0") \
  X(iommu, kind, ENUM, "", "vtd", 0, 0, "vtd|smmuv3",                                     \
    "Invalidation queue's command format. vtd: Intel VT-d queued invalidation, one page-selective IOTLB descriptor (address mask) per range plus an invalidation-wait descriptor; smmuv3: Arm SMMUv3 command queue, one CMD_TLBI_NH_VA per 4 KiB page (no range invalidation) plus CMD_SYNC. Both 16-byte entries (S: VT-d spec 6.5.2, SMMUv3 spec 4.1)") \
  X(iommu, map_cycles, REAL, "cycles", "500", 0, 1e7, "",                                 \
    "CPU cost of creating one IOMMU mapping in dma_map_* and coherent allocations (IOVA allocation, page-table writes). E: Peleg et al. (USENIX ATC 2015), Malka et al. (ASPLOS 2015) report Linux maps in the hundreds of cycles") \
  X(iommu, unmap_cycles, REAL, "cycles", "500", 0, 1e7, "",                               \
    "CPU cost of removing one IOMMU mapping in dma_unmap_* without its IOTLB invalidation (page-table clear, IOVA free); the invalidation is the queue's (iommu.inv_*). E: as map_cycles, the same page-table work undone") \
  X(iommu, inv_cmd_ns, REAL, "ns", "150", 0, 1e6, "",                                     \
    "IOMMU time to carry out one IOTLB invalidation command it has fetched from the queue. E: Malka et al. (ASPLOS 2015) and Peleg et al. (ATC 2015) put a strict unmap's invalidation at ~2000 cycles (~1 us) on Xeons; with the fetch, sync and poll below, 150 ns per command and 350 ns per sync give that") \
  X(iommu, inv_sync_ns, REAL, "ns", "350", 0, 1e6, "",                                    \
    "IOMMU time to complete one sync (VT-d invalidation-wait, SMMUv3 CMD_SYNC) once the commands before it are done: draining translations in flight, then its status write to memory. E: see inv_cmd_ns") \
  X(iommu, fq_size, INT, "entries", "256", 2, 1048576, "",                                \
    "Per-CPU flush queue entries (lazy mode): a flush when a CPU's queue holds fq_size - 1 unmaps. S: Linux IOVA_FQ_SIZE 256 (include/linux/iova.h v4.14-v5.13; IOVA_DEFAULT_FQ_SIZE in drivers/iommu/dma-iommu.c since)") \
  X(iommu, fq_timeout_ms, REAL, "ms", "10", 0.001, 1e4, "",                               \
    "Flush-queue timer (lazy mode): armed at an unmap when not pending, it flushes every CPU's queue when it expires. S: Linux IOVA_FQ_TIMEOUT 10 ms (IOVA_DEFAULT_FQ_TIMEOUT since v6.4)") \
  X(iommu, iotlb_entries, INT, "entries", "64", 1, 65536, "",                             \
    "IOTLB entries (4 KiB pages); a multiple of iotlb_ways")                             \
  X(iommu, iotlb_ways, INT, "ways", "64", 1, 65536, "",                                   \
    "IOTLB associativity (LRU); iotlb_entries / iotlb_ways sets")                        \
  X(iommu, walk_levels, INT, "reads", "4", 1, 6, "",                                      \
    "Dependent page-table reads per IOTLB miss, each a DRAM access (memory.dram_latency_ns plus channel queueing)")

/* All sections, in the order they appear in output. */
#define NC_SECTIONS(S) S(run) S(cpu) S(stack) S(memory) S(iommu) S(pcie) S(bus) S(nic) S(driver) S(traffic) S(workload)

/* Enum values; the order must match the choices strings above (checked by a test). */
enum nc_cpu_kind { NC_CPU_X86, NC_CPU_ARM64, NC_CPU_RISCV, NC_CPU_SPARC, NC_CPU_MIPS };
enum nc_nic_family { NC_NIC_GENERIC, NC_NIC_LAN743X, NC_NIC_STMMAC, NC_NIC_I40E, NC_NIC_MVNETA };
enum nc_driver_name { NC_DRIVER_GENERIC, NC_DRIVER_MVNETA, NC_DRIVER_LAN743X, NC_DRIVER_STMMAC, NC_DRIVER_I40E };
enum nc_traffic_mode { NC_MODE_RX, NC_MODE_TX, NC_MODE_BIDIR, NC_MODE_FORWARD };
enum nc_nic_wb_mode { NC_WB_DESC, NC_WB_BATCH, NC_WB_HEAD };
enum nc_nic_dma_arbitration { NC_ARB_RX_PRIORITY, NC_ARB_ROUND_ROBIN };
enum nc_traffic_frame_dist { NC_DIST_FIXED, NC_DIST_IMIX };
enum nc_traffic_protocol { NC_PROTO_UDP, NC_PROTO_TCP };
enum nc_traffic_sender { NC_SENDER_SOCKET, NC_SENDER_PKTGEN };
enum nc_traffic_tx_pacing { NC_PACING_STRICT, NC_PACING_AVERAGE };
enum nc_cpu_user_copy { NC_USER_COPY_PER_BYTE, NC_USER_COPY_MEMCPY };
enum nc_cpu_locking { NC_LOCKING_BIG, NC_LOCKING_TXQ };
enum nc_cpu_irq_affinity { NC_IRQ_AFFINITY_CORE0, NC_IRQ_AFFINITY_SPREAD };
enum nc_cpu_isa { NC_ISA_AUTO, NC_ISA_X86_64, NC_ISA_ARM64, NC_ISA_ARMV7, NC_ISA_RISCV64, NC_ISA_SPARC64, NC_ISA_MIPS32, NC_ISA_NONE };
enum nc_workload_kind { NC_WORKLOAD_NIC, NC_WORKLOAD_DMA_BENCH };
enum nc_workload_op { NC_WORKLOAD_READ, NC_WORKLOAD_WRITE, NC_WORKLOAD_READ_WRITE };
enum nc_workload_pattern { NC_PATTERN_SEQ, NC_PATTERN_RANDOM, NC_PATTERN_PAGE_STRIDE };
enum nc_workload_host_cache { NC_HOST_CACHE_WARM, NC_HOST_CACHE_COLD };
enum nc_nic_desc_fetch_spaced { NC_FETCH_SPACED_SINGLE, NC_FETCH_SPACED_SPAN };
enum nc_nic_irq_coal_timer { NC_COAL_TIMER_ABSOLUTE, NC_COAL_TIMER_RESTART };
enum nc_driver_rx_sync { NC_RX_SYNC_FULL, NC_RX_SYNC_USED };
enum nc_driver_page_pool { NC_PAGE_POOL_AUTO, NC_PAGE_POOL_TRUE, NC_PAGE_POOL_FALSE };
enum nc_driver_rx_coal_adaptive { NC_ADAPTIVE_NONE, NC_ADAPTIVE_DIM, NC_ADAPTIVE_ITR };
enum nc_iommu_mode { NC_IOMMU_OFF, NC_IOMMU_STRICT, NC_IOMMU_LAZY };
enum nc_iommu_kind { NC_IOMMU_VTD, NC_IOMMU_SMMUV3 };
enum nc_driver_xdp { NC_XDP_OFF, NC_XDP_PASS, NC_XDP_DROP, NC_XDP_TX };

#endif
