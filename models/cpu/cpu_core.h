/*
 * cpu_core.h: the host CPU running nicsim's C kernel layer and driver
 * natively in SystemC threads. CpuCore is the module the top and embedders
 * wire: it implements the platform ops (platform.h), where every operation
 * charges its cost in cycles to the current profile bucket and moves the
 * core's local time (loosely timed, QuantumKeeper); loads of DMA-visible
 * memory and MMIO synchronise first, so they see exactly the DMA writes
 * completed by then. It keeps the data cache, coherence with the device's
 * DMA, the write-combining buffers and MMIO, and owns the parts that run on
 * top of the ops (docs/host.md, "Where is X"):
 *   IrqController   - MSI input, per-core pending vectors, kernel timers;
 *   KernelLocks     - the kernel lock (cpu.locking big) and spinlocks (txq);
 *   KernelScheduler - the main loop per core: IRQs, timers, NET_RX softirq,
 *                     end of run;
 *   HostStack       - the host sink, the TCP sender and ACKs, the socket
 *                     send buffer;
 *   HostApp         - the application: paced sender, reader (copy to user).
 * With cpu.cores >= 2 the module holds several core contexts (each with its
 * own local time and thread): core 0 takes interrupts, softirqs and timers,
 * cpu.app_core runs the application (TX stack, copy to user space), and
 * cpu.locking says what serialises them. With cpu.irq_affinity spread,
 * vector v goes to core v mod cores instead, and every core runs its own
 * NET_RX softirq over its own poll list (the application core between its
 * sends).
 */
#ifndef NICSIM_MODELS_CPU_CPU_CORE_H
#define NICSIM_MODELS_CPU_CPU_CORE_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "common/params.h"
#include "cpu/cache.h"
#include "cpu/cpu_counters.h"
#include "cpu/host_app.h"
#include "cpu/host_stack.h"
#include "cpu/irq_controller.h"
#include "cpu/kernel_locks.h"
#include "cpu/kernel_scheduler.h"
#include "cpu/memcpy_cost.h"
#include "cpu/quantum_keeper.h"
#include "cpu/wc_buffers.h"
#include "kernel/icount.h"
#include "kernel/kernel.h"
#include "kernel/platform.h"
#include "memory/host_memory.h"

namespace nicsim {

struct CpuSnapshot;
class TraceSampler;
namespace stats {
class Registry;
}

/* The core, its interrupt input and its MMIO initiator. */
class CpuCore : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<CpuCore> mmio; /* to the interconnect's host side (BAR0 offsets) */

  /* The host: its cores and their costs, its view of memory, its stack and
   * application, and how its kernel layer is created. */
  struct Params {
    int cores = 1;                     /* cpu.cores */
    int app_core = 1;                  /* cpu.app_core: the application's core (cores >= 2) */
    bool txq_locking = false;          /* cpu.locking txq (else big) */
    bool irq_spread = false;           /* cpu.irq_affinity spread (else core0) */
    double clock_mhz = 2000;           /* cpu.clock_mhz: core clock, MHz */
    uint64_t quantum_ps = 1000000;     /* cpu.quantum_ns: decoupling quantum, ps */
    double cached_access_cycles = 1;   /* cpu.cached_access_cycles: cycles */
    double uncached_store_cycles = 10; /* cpu.uncached_store_cycles: cycles */
    double mmio_write_cycles = 50;     /* cpu.mmio_write_cycles: cycles */
    double barrier_cycles = 20;        /* cpu.barrier_cycles: cycles */
    double cache_maint_cycles_per_line = 20; /* cpu.cache_maint_cycles_per_line: cycles */
    double llc_hit_cycles = 40;        /* cpu.llc_hit_cycles: cycles */
    uint32_t cache_sets = 512;         /* cpu.cache_sets */
    uint32_t cache_ways = 8;           /* cpu.cache_ways */
    uint32_t cache_line_bytes = 64;    /* cpu.cache_line_bytes: B */
    uint64_t msi_latency_ps = 0;       /* cpu.msi_latency_ns: ps */
    uint32_t wc_buffers = 10;          /* cpu.wc_buffers */
    double wc_flush_cycles = 10;       /* cpu.wc_flush_cycles: cycles */
    double kernel_ipc = 2;             /* cpu.kernel_ipc: instructions per cycle of the kernel's own code */
    bool out_of_order = true;          /* cpu.out_of_order: misses overlap (else each stalls in full) */
    int isa = -2;                      /* cpu.isa: enum nk_isa whose code weighs the C code; -1 none, -2 auto (cpu.kind's) */
    double mlp_lines = 10;             /* cpu.mlp_lines: misses a core keeps in flight */
    double unaligned_trap_cycles = 0;  /* cpu.unaligned_trap_cycles: one trapped unaligned load, cycles */
    MemcpyParams memcpy;               /* cpu.kind, cpu.memcpy_* */
    SoftirqParams softirq;             /* cpu.ksoftirqd_defer, cpu.softirq_max_restart, cpu.hz */
    /* Facts of other layers the host sees (src/sim fills them). */
    uint64_t uncached_load_ps = 100000; /* memory.uncached_load_ns: ps */
    uint64_t dram_ps = 90000;           /* memory.dram_latency_ns: ps */
    bool coherent_dma = true;           /* memory.coherent_dma */
    bool ddio = false;                  /* memory.ddio */
    bool iommu = false;                 /* iommu.mode not off: the DMA API maps through the IOMMU */
    bool iommu_smmuv3 = false;          /* iommu.kind smmuv3 (else VT-d): the invalidation queue's commands */
    double iommu_map_cycles = 500;      /* iommu.map_cycles: cycles */
    double iommu_unmap_cycles = 500;    /* iommu.unmap_cycles: cycles */
    uint64_t end_ps = 4000000000ull;    /* run.duration_us + run.drain_us: the kernel's main loop ends, ps */
    HostStack::Params stack;
    HostApp::Params app;
    /* Creates the kernel layer on platform p (src/sim: nk_kernel_create with
     * the run's config, which the kernel and driver read); NULL with err
     * filled if it cannot. Unset: the core runs only set_program's code. */
    std::function<nk_kernel *(const nk_platform *p, char *err, size_t errlen)> make_kernel;
    /* The cpu.* and traffic.* keys. */
    void bind(ParamBinder &b);
    /* The host's own rules: the application's core, the cache's geometry,
     * the UDP sender's send buffer. */
    ParamCheck validate() const;
  };

  /* A core configured by p, on memory mem (HostMemory, or an embedder's own
   * HostMemoryIf), which must outlive the core. */
  CpuCore(sc_core::sc_module_name name, const Params &p, HostMemoryIf &mem);
  ~CpuCore() override;

  /* The platform the kernel layer runs on (ops, ctx, memory, MSI address). */
  const nk_platform &platform() const { return m_platform; }

  /* Runs f in the core's thread instead of the kernel main loop (unit tests). */
  void set_program(std::function<void(CpuCore &)> f) { m_program = std::move(f); }
  /* With cpu.cores >= 2 and a program: runs f in the application core's
   * thread as well (unit tests of the locks). */
  void set_app_program(std::function<void(CpuCore &)> f) { m_app_program = std::move(f); }
  /* Measurement window [start_ps, end_ps) (ps) for the windowed counters. */
  void set_window(uint64_t start_ps, uint64_t end_ps);
  /* Interrupt controller input: an MSI with data word `data` arrived now; the
   * core sees it cpu.msi_latency_ns later. */
  void raise_msi(uint32_t data) { m_irq.raise_msi(data); }
  /* The kernel layer the core runs (NULL before the driver's probe); it lives
   * until the core is destroyed. The device model asks it for DMA attributes. */
  const nk_kernel *kernel() const { return m_kernel; }
  /* Vectors the core has been signalled and not yet taken (bit per vector). */
  uint64_t irqs_pending() const { return m_irq.pending(); }

  /* ---- platform operations (the ops table calls these) ---------------- */
  /* Load of size bytes (1, 2, 4, 8) at pa; syncs first. */
  uint64_t load(uint64_t pa, unsigned size);
  /* Store of size bytes at pa; checks device ownership of descriptor slots. */
  void store(uint64_t pa, uint64_t val, unsigned size);
  /* memcpy of len bytes inside simulated memory. */
  void copy(uint64_t dst, uint64_t src, uint64_t len);
  /* Cycles the CPU kind's copy-to-user routine takes for len bytes from src
   * to dst (usercopy_cycles), charging nothing: ops->user_copy_cycles. */
  double user_copy_cycles(uint64_t dst, uint64_t src, uint64_t len) const {
    return usercopy_cycles(m_memcpy, dst, src, len);
  }
  /* Cache maintenance over [pa, pa + len) (bytes), per line. */
  void cache_maint(uint64_t pa, uint64_t len, nk_cache_op op);
  /* Register read at BAR0 offset off: a full round trip over the interconnect. */
  uint32_t mmio_read32(uint32_t off);
  /* Posted register write at BAR0 offset off. */
  void mmio_write32(uint32_t off, uint32_t val);
  /* A memory barrier of kind b. */
  void barrier(nk_barrier b);
  /* Software work of `cycles` CPU cycles. */
  void charge(double cycles);
  /* The stack's own code: `instructions` at cpu.kernel_ipc plus `cycles` of
   * fixed work, self time of bucket (current one if negative): ops->exec. */
  void exec(double instructions, double cycles, int bucket);
  /* nk_icount's sink: the C code's own instructions, to the current bucket. */
  static void code_sink(void *ctx, double instructions);
  double instructions(nk_class c) const { return m_instr_window[c]; }
  double code_instructions() const { return m_code_instr_window; }
  /* The stack's header loads over [pa, pa + len): missed lines stall the core
   * as its kind does (cpu.out_of_order, cpu.mlp_lines), and `misaligned`
   * loads trap on a core that cannot load unaligned (cpu.unaligned_trap_cycles):
   * ops->read_headers. */
  void read_headers(uint64_t pa, uint32_t len, unsigned misaligned);
  /* Cycles to stream [pa, pa + len) from memory for a copy: its missed lines'
   * DRAM latency over cpu.mlp_lines; the lines become resident, nothing is
   * charged: ops->stream_read_cycles. */
  double stream_read_cycles(uint64_t pa, uint64_t len);
  /* Memory attribute of [pa, pa + len) (bytes). */
  void set_attr(uint64_t pa, uint64_t len, nk_mem_attr attr);
  /* The stack hands the frame at pa (len bytes, no FCS) to the host sink. */
  void host_rx(uint64_t pa, uint32_t len) { m_stack.host_rx(pa, len); }
  /* (Re)arms kernel timer id delay_ns after the core's local time
   * (NK_TIMER_CANCEL cancels); the main loop runs it when due. */
  void timer_arm(int id, uint64_t delay_ns) { m_irq.timer_arm(id, delay_ns); }
  /* The kernel acquired (acquire true) or released spinlock id (1 ..
   * NK_SPIN_MAX): ops->spin, set with cpu.locking txq and 2 or more cores.
   * A core that finds it held spins (busy, bucket lock_wait) until the
   * holder's release; taking a lock the core holds, or releasing one it
   * does not hold, is a violation. */
  void spin(unsigned id, bool acquire) { m_locks.spin(id, acquire); }
  /* The DMA API mapped (map true) or unmapped [pa, pa + len): with the
   * IOMMU on charges iommu.map_cycles / unmap_cycles (buckets iommu_map,
   * iommu_unmap); else nothing. */
  void iommu_map(uint64_t pa, uint64_t len, bool map);
  /* The kernel invalidates [pa, pa + len) (len 0: the domain) and waits
   * (platform.h iommu_inv): the core writes the commands and the sync into
   * the queue (two cached stores each), rings the doorbell (an uncached
   * store), then spins until the IOMMU's status write (HostMemoryIf::
   * iommu_queue_invalidate) and its own poll's miss on that line
   * (memory.dram_latency_ns), in bucket qi_submit_sync (VT-d) or
   * arm_smmu_cmdq_issue_cmdlist (SMMUv3); nothing with the IOMMU off. */
  void iommu_inv(uint64_t pa, uint64_t len, nk_iommu_inv why);

  /* ---- the device side ------------------------------------------------- */
  /* A DMA access of len bytes at pa has just been applied to memory (now, in
   * simulated time): snoops (coherent) or marks cached copies stale and
   * checks for dirty lines (non-coherent). HostMemory calls it. */
  void dma_access(uint64_t pa, uint32_t len, bool write);
  /* The core's data cache. */
  const Cache &cache() const { return m_cache; }
  /* Profile bucket ids of memcpy and cache maintenance (self cycles). */
  int memcpy_bucket() const { return m_prof_memcpy; }
  int cache_maint_bucket() const { return m_prof_cache_maint; }
  /* Profile buckets of IOMMU map and unmap (-1 unless iommu.enabled). */
  int iommu_map_bucket() const { return m_prof_iommu_map; }
  int iommu_unmap_bucket() const { return m_prof_iommu_unmap; }
  int iommu_inv_bucket() const { return m_prof_iommu_inv; }
  /* The core's write-combining buffers. */
  const WcBuffers &wc() const { return m_wc; }

  /* ---- time and results ---------------------------------------------- */
  /* The core's local time: simulated time plus its decoupling offset, in ps
   * (sc_time_stamp() read inline: the parts ask for it per frame). */
  uint64_t local_time_ps() const {
    return sc_core::sc_get_curr_simcontext()->time_stamp().value() + m_cur->qk.local_ps();
  }
  /* Waits until simulated time catches up with the local time. */
  void sync();
  /* Its statistics (cpu_stats.h): what it counts now, and its table read that way. */
  void stats_snapshot(CpuSnapshot &s) const;
  void add_stats(stats::Registry &r) const;
  /* Counters of the whole run. */
  const CpuCounters &total() const { return m_total; }
  /* Counters of the measurement window (by the core's local time). */
  const CpuCounters &window() const { return m_window; }
  /* Cycles charged to profile bucket id (nk_prof_id; kUnattributed for none). */
  double bucket_cycles(int id, bool in_window) const;
  /* Inclusive cycles of bucket id: its own plus those of everything it
   * called (perf's "children"), as a timer around the function measures. */
  double bucket_incl_cycles(int id, bool in_window) const;
  /* Cycles charged to all buckets of class c. */
  double class_cycles(nk_class c, bool in_window) const;
  /* All charged cycles (busy cycles). */
  double busy_cycles(bool in_window) const;
  /* Cycles per ps of simulated time (clock_mhz / 1e6). */
  double cycles_per_ps() const { return 1.0 / m_ps_per_cycle; }
  /* Frames the host sink saw out of sequence order (should be zero). */
  uint64_t rx_sequence_gaps() const { return m_stack.rx_sequence_gaps(); }
  /* tcp: the most payload bytes the host's TX flow ever had unacknowledged. */
  uint64_t tcp_inflight_max() const { return m_stack.tcp_inflight_max(); }
  /* Cores (cpu.cores) and the application's core (0 with one core). */
  int cores() const { return m_ncores; }
  int app_core() const { return m_app_core; }
  /* Busy cycles of core c (cores >= 2; with one core see busy_cycles). */
  double core_busy_cycles(int c, bool in_window) const;
  /* Cycles core c charged to bucket id (cores >= 2). */
  double core_bucket_cycles(int c, int id, bool in_window) const;
  /* Profile bucket of the lock spin (cores >= 2; -1 with one core). */
  int lock_wait_bucket() const { return m_prof_lock_wait; }
  /* cpu.locking txq with 2 or more cores: no big kernel lock, spinlocks spin. */
  bool txq_locking() const { return m_txq; }
  /* cpu.irq_affinity spread with 2 or more cores: vector v on core v mod cores. */
  bool spread_irqs() const { return m_spread; }
  /* The core that takes interrupt vector vec. */
  int irq_core(int vec) const { return m_irq.core_of(vec); }
  /* NET_RX softirq runs that polled, and NAPI polls, of core c in the window
   * (counted with cpu.irq_affinity spread only; 0 otherwise). */
  uint64_t core_softirqs(int c) const;
  uint64_t core_napi_polls(int c) const;
  /* Bit q set: core c's softirq handed a frame of RX queue q to the stack
   * (whole run; the kernel's nk_cpu_stats.rxq_mask; spread only). */
  uint64_t core_rx_queue_mask(int c) const;

  static constexpr int kUnattributed = NK_PROF_MAX; /* bucket of charges outside any profiled function */

  /* ---- hooks set by the top ------------------------------------------- */
  /* Ownership check: true if pa lies in a descriptor slot the device owns. */
  std::function<bool(uint64_t)> device_owns;
  /* Earliest simulated time (ps) at which anything outside the core can
   * change what it observes: a DMA access to host memory, an interrupt
   * reaching the core, a snapshot of the run's counters. With one core a
   * load whose local time is before it need not wait (load_sync). Unset:
   * every load waits. */
  std::function<uint64_t()> quiet_until;
  /* Lookahead past quiet_until, once the SystemC kernel has said it has
   * nothing to run up to local time t (ps, common/lookahead.h): 0 if an
   * edge of the run (a snapshot, the end) falls at or before t; else hands
   * memory every DMA write committed by t, as `resumed` does after a wait,
   * and returns how far that holds: the next queued commit or read answer,
   * or edge, after t (UINT64_MAX: none). With one core a sync at local time
   * t is then skipped (try_skip_sync), and later ones before that bound
   * need no call. Unset: never. */
  std::function<uint64_t(uint64_t)> quiet_through;
  /* Called each time a core's thread resumes, before it touches host memory
   * or the run's counters: an interconnect that applies its posted writes
   * lazily hands memory every write committed by now (PcieLink::apply_posted).
   * Unset: nothing to do. */
  std::function<void()> resumed;
  /* Simulated time (ps) of the DMA access being reported to the core (a
   * lazily applied posted write's commit, PcieLink::mem_access_ps). Unset:
   * the current time. */
  std::function<uint64_t()> dma_time;
  /* Invariant violation: component, message, simulated time in ns. */
  std::function<void(const std::string &, const std::string &, double)> on_violation;
  /* At and after the end of the run: true once nothing is in flight. */
  std::function<bool()> drained;
  /* After the driver was removed: nk_kernel_check's result (0 or -1) and message. */
  std::function<void(int, const std::string &)> on_finished;

 private:
  friend class IrqController;
  friend class KernelLocks;
  friend class KernelScheduler;
  friend class HostStack;
  friend class HostApp;

  /* One core's context: its local time and the process-global "current CPU"
   * state of the kernel layer, saved while its thread is suspended. */
  struct CoreCtx {
    QuantumKeeper qk;
    double frac_ps = 0; /* sub-ps remainder of local time */
    uint32_t mmio_buf = 0; /* its MMIO access's data word */
    nk_prof_state prof{};
    nk_kernel *kern = nullptr;
    double busy_total = 0, busy_window = 0;
    TraceSampler *busy_trace = nullptr; /* the trace's busy-fraction counter (nullptr: no trace) */
    double bucket_total[NK_PROF_MAX + 1] = {};
    double bucket_window[NK_PROF_MAX + 1] = {};
    uint64_t softirqs_window = 0, napi_polls_window = 0; /* spread: its NET_RX work in the window */
  };
  /* Runs f, which may suspend the calling core's thread, and then makes the
   * caller's core current again (its context, profiler state, kernel) and
   * calls the resumed hook. Every wait of a core's thread goes through here. */
  template <typename F>
  void suspend(F f) {
    nk_icount_flush(); /* the code run so far is charged before time moves */
    m_quiet_valid = false; /* simulated time may move; other processes may run */
    m_commit_valid = false;
    m_activity_gen++;
    if (m_ncores < 2) {
      f();
      if (resumed) resumed();
      return;
    }
    CoreCtx *me = m_cur;
    nk_prof_save(&me->prof);
    me->kern = nk_kernel_get_current();
    f();
    m_cur = me;
    nk_prof_restore(&me->prof);
    nk_kernel_set_current(me->kern);
    if (m_spread) nk_kernel_set_cpu(cur_core());
    if (resumed) resumed();
  }
  /* The current core's quantum keeper sync, as a suspension point. */
  void qk_sync();
  /* sync() before a load of memory: skipped (the quantum keeper's next sync
   * point moved as sync would have) when nothing can change memory or the
   * interrupt state up to and including the core's local time. */
  void load_sync();
  /* The quantum keeper's sync at a charge that reached the next sync point,
   * skipped as load_sync's when try_skip_sync allows. */
  void quantum_sync();
  /* True (and the sync point moved as a sync would move it) if the current
   * core need not wait out its local time: one core, no trace, no MSI on its
   * way, and nothing outside the core can act up to its local time
   * (quiet_until, or quiet_through's lookahead). */
  bool try_skip_sync();
  /* Makes core c current at the start of its thread. */
  void enter_core(int c);
  /* The index of the current core. */
  int cur_core() const { return static_cast<int>(m_cur - m_cores.data()); }
  /* Vectors the current core takes (bit per vector). */
  uint64_t my_vectors() const { return m_irq.vectors(cur_core()); }
  /* Core 0's thread (KernelScheduler::kernel_main, or a test's program),
   * the application core's (HostApp::run), and the MSI method. */
  void thread();
  void app_thread();
  void msi_arrive() { m_irq.msi_arrive(); }
  /* Moves local time by cycles and charges them to bucket self (the current
   * one if negative) and the current bucket's class. */
  void spend(double cycles, int self = -1);
  /* Moves local time by t_ps (ps) and charges the equivalent cycles. */
  void spend_ps(uint64_t t_ps, int self = -1);
  /* Charges cycles that took dur_ps starting at start_ps (time already passed)
   * to bucket self (the current one if negative) and to the class of the
   * current bucket (the caller's). */
  void account(double cycles, uint64_t start_ps, uint64_t dur_ps, int self = -1);
  /* The class of registered bucket id (< NK_PROF_MAX): nk_prof_class, looked up once. */
  int prof_class(int id);
  /* The class of the bucket charged now (the caller's, as account's). */
  int prof_class_now() {
    const int id = nk_prof_current();
    return id >= 0 && id < NK_PROF_MAX ? prof_class(id) : NK_CLASS_OTHER;
  }
  /* A cacheable load of len bytes at pa into out: hit, DDIO or miss costs;
   * a stale cached copy is what the core reads (and a violation). */
  void cached_read(uint64_t pa, unsigned len, uint8_t *out);
  /* Brings the lines of [pa, pa + len) in (if absent) and copies memory's
   * current bytes of that range into them, dirty (a CPU write). */
  void cache_write(uint64_t pa, uint64_t len);
  /* A violation if a cached line of [pa, pa + len) holds a stale copy that
   * differs from memory (the CPU would read old data); what names the access. */
  bool check_stale(uint64_t pa, uint64_t len, const char *what);
  /* Write-combining bursts that left the core: counted, each a 64 B DRAM
   * write (no stall), cpu.wc_flush_cycles each. */
  void wc_bursts(unsigned n);
  /* The current core's MMIO payload, set up for a 4-byte access at BAR0
   * offset off (val: the data of a write). */
  tlm::tlm_generic_payload &mmio_payload(tlm::tlm_command cmd, uint32_t off, uint32_t val);
  bool in_window(uint64_t t_ps) const { return t_ps >= m_win_start_ps && t_ps < m_win_end_ps; }
  /* Counts into the total and, if t_ps is in the window, the window counters. */
  template <typename F>
  void count_at(uint64_t t_ps, F f) {
    f(m_total);
    if (in_window(t_ps)) f(m_window);
  }
  /* count_at the core's local time. */
  template <typename F>
  void count(F f) {
    count_at(local_time_ps(), f);
  }
  /* True if [pa, pa + len) lies in host memory; else a violation naming what. */
  bool check_range(uint64_t pa, uint64_t len, const char *what) {
    return (pa < m_mem_size && len <= m_mem_size - pa) || range_violation(pa, len, what);
  }
  /* True if size is 1, 2, 4 or 8 bytes; else a violation naming what. */
  bool check_size(unsigned size, const char *what) {
    return (size == 1 || size == 2 || size == 4 || size == 8) || size_violation(size, what);
  }
  /* check_range's and check_size's reports (out of line); return false. */
  bool range_violation(uint64_t pa, uint64_t len, const char *what);
  bool size_violation(unsigned size, const char *what);
  void check_owned(uint64_t pa, uint64_t len);
  void violation(const std::string &msg);

  const Params m_p;
  HostMemoryIf &m_mem;
  uint8_t *m_bytes;
  uint64_t m_mem_size;
  nk_platform m_platform;
  int m_ncores;
  int m_app_core;
  std::vector<CoreCtx> m_cores;
  CoreCtx *m_cur; /* the core whose thread runs now */
  bool m_txq;     /* cpu.locking txq with cores >= 2 */
  bool m_spread;  /* cpu.irq_affinity spread with cores >= 2 */
  int m_prof_lock_wait = -1;
  double m_ps_per_cycle;
  uint64_t m_uncached_load_ps;
  uint64_t m_win_start_ps = 0;
  uint64_t m_win_end_ps = UINT64_MAX;
  std::function<void(CpuCore &)> m_program;
  std::function<void(CpuCore &)> m_app_program;
  nk_kernel *m_kernel = nullptr; /* created by KernelScheduler::kernel_main */
  std::unique_ptr<tlm::tlm_generic_payload[]> m_mmio_gps; /* MMIO payload per core */
  CpuCounters m_total;
  CpuCounters m_window;
  double m_bucket_total[NK_PROF_MAX + 1] = {};
  double m_bucket_window[NK_PROF_MAX + 1] = {};
  double m_incl_total[NK_PROF_MAX + 1] = {};  /* self + children, per bucket */
  double m_incl_window[NK_PROF_MAX + 1] = {};
  double m_class_total[NK_CLASS__COUNT] = {};
  double m_class_window[NK_CLASS__COUNT] = {};
  double m_instr_window[NK_CLASS__COUNT] = {}; /* instructions charged in the window (exec), by class */
  double m_code_instr_window = 0;              /* of which the C code's own (cpu.isa) */
  int8_t m_prof_cls[NK_PROF_MAX]; /* prof_class's answers (-1: not looked up) */
  /* account: the charge (a stamp per charge, never wrapping) that last
   * counted each bucket's inclusive time */
  uint64_t m_incl_seen[NK_PROF_MAX + 1] = {};
  uint64_t m_incl_stamp = 0;
  Cache m_cache;
  MemcpyParams m_memcpy;
  uint64_t m_dram_ps;   /* memory.dram_latency_ns in ps */
  int m_prof_memcpy;
  int m_prof_cache_maint;
  int m_prof_iommu_map = -1;
  int m_prof_iommu_unmap = -1;
  int m_prof_iommu_inv = -1;
  WcBuffers m_wc;
  /* quiet_until() as of the thread's last resume (try_skip_sync): while the
   * thread runs no other process does, so nothing can queue an earlier
   * access; a lookahead's writes handed to memory only make it later. */
  uint64_t m_quiet_cache = 0;
  bool m_quiet_valid = false;
  /* kernel_quiet_until() as of generation m_kq_gen of m_activity_gen, which
   * moves whenever the core's thread may have given the kernel something to
   * do (a suspension, an event notification: note_activity). */
  uint64_t m_kq_until = 0, m_kq_gen = UINT64_MAX, m_activity_gen = 0;
  /* quiet_through's last bound: no commit or edge before it (while the
   * thread runs; m_commit_valid false after a suspension) */
  uint64_t m_commit_until = 0;
  bool m_commit_valid = false;
  void note_activity() { m_activity_gen++; }
  double m_busy_total = 0; /* sum of m_bucket_total */
  bool m_violated = false;

  /* The parts (constructed in this order, after everything above). */
  IrqController m_irq;
  KernelLocks m_locks;
  HostStack m_stack;
  HostApp m_app; /* after m_stack: its send interval asks for the socket send buffer */
  KernelScheduler m_sched;
};

}  // namespace nicsim
#endif
