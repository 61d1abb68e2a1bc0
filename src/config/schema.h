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
    "Seed of every random stream; same config and seed give bit-identical results")

/* cpu: the host CPU that runs the C driver. */
#define NC_SECTION_cpu(X)                                                                   \
  X(cpu, kind, ENUM, "", "x86", 0, 0, "x86|arm64|riscv|sparc",                            \
    "Instruction-set family; selects memcpy and cache-maintenance behaviour")              \
  X(cpu, clock_mhz, REAL, "MHz", "2000", 1, 10000, "", "Core clock")                      \
  X(cpu, quantum_ns, REAL, "ns", "1000", 1, 1e6, "",                                      \
    "Temporal-decoupling quantum: the CPU runs ahead of the model by at most this much")   \
  X(cpu, cached_access_cycles, REAL, "cycles", "1", 0, 1e4, "",                           \
    "Cost of a load or store to cacheable memory (L1 hit)")                                \
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
  X(cpu, stack_rx_cycles_per_pkt, REAL, "cycles", "1500", 0, 1e8, "",                     \
    "Network-stack cost per received packet above the driver (IP/UDP, socket)")            \
  X(cpu, stack_rx_cycles_per_byte, REAL, "cycles/B", "0.25", 0, 1e3, "",                  \
    "Network-stack cost per received byte (copy to user space)")                           \
  X(cpu, stack_tx_cycles_per_pkt, REAL, "cycles", "1500", 0, 1e8, "",                     \
    "Network-stack cost per sent packet above the driver")                                 \
  X(cpu, stack_tx_cycles_per_byte, REAL, "cycles/B", "0.25", 0, 1e3, "",                  \
    "Network-stack cost per sent byte (copy from user space)")

/* memory: host memory seen by the CPU and by DMA. */
#define NC_SECTION_memory(X)                                                                \
  X(memory, size_mb, INT, "MiB", "64", 1, 4096, "",                                       \
    "Simulated host memory holding rings and buffers (real bytes)")                        \
  X(memory, coherent_dma, BOOL, "", "true", 0, 0, "",                                     \
    "Whether device DMA is cache-coherent; if false, dma_alloc_coherent memory is uncached") \
  X(memory, uncached_load_ns, REAL, "ns", "100", 0, 1e6, "",                              \
    "Latency of one CPU load from uncached memory; the core stalls for it")

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
    "Host-side read latency: root complex plus memory, from MRd arrival to first CplD")

/* nic: the network interface controller. */
#define NC_SECTION_nic(X)                                                                   \
  X(nic, family, ENUM, "", "generic", 0, 0, "generic", "Device family (descriptor format and quirks)") \
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
  X(nic, reg_read_ns, REAL, "ns", "100", 0, 1e6, "",                                      \
    "Device time to answer an MMIO register read")

/* driver: the C driver and its knobs. */
#define NC_SECTION_driver(X)                                                                \
  X(driver, name, ENUM, "", "generic", 0, 0, "generic", "Driver to run")                   \
  X(driver, napi_budget, INT, "packets", "64", 1, 4096, "", "NAPI poll budget")          \
  X(driver, rx_buf_bytes, INT, "B", "2048", 256, 65536, "", "Size of each RX buffer")

/* traffic: what is offered on the wire and by the host. */
#define NC_SECTION_traffic(X)                                                               \
  X(traffic, mode, ENUM, "", "rx", 0, 0, "rx|tx|bidir",                                   \
    "rx: wire to host; tx: host to wire; bidir: both")                                     \
  X(traffic, frame_bytes, INT, "B", "1518", 64, 9018, "",                                 \
    "Ethernet frame size including FCS, excluding preamble and IFG")                       \
  X(traffic, rate_gbps, REAL, "Gbit/s", "0", 0, 100, "",                                  \
    "Offered load per direction in frame bits per second; 0 means line rate")

/* workload: what kind of simulation to build. */
#define NC_SECTION_workload(X)                                                              \
  X(workload, kind, ENUM, "", "nic", 0, 0, "nic", "nic: a NIC with driver and traffic")

/* All sections, in the order they appear in output. */
#define NC_SECTIONS(S) S(run) S(cpu) S(memory) S(pcie) S(nic) S(driver) S(traffic) S(workload)

/* Enum values; the order must match the choices strings above (checked by a test). */
enum nc_cpu_kind { NC_CPU_X86, NC_CPU_ARM64, NC_CPU_RISCV, NC_CPU_SPARC };
enum nc_nic_family { NC_NIC_GENERIC };
enum nc_driver_name { NC_DRIVER_GENERIC };
enum nc_traffic_mode { NC_MODE_RX, NC_MODE_TX, NC_MODE_BIDIR };
enum nc_workload_kind { NC_WORKLOAD_NIC };

#endif
