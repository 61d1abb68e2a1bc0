// cpu_core.cpp: the platform ops with their costs (cache, coherence,
// write-combining, MMIO), the core's local time and its syncs, the profile
// accounting, and the module's threads, which run the parts (KernelScheduler,
// HostApp).
#include "cpu/cpu_core.h"

#include "common/lookahead.h"
#include "common/ps_time.h"
#include "common/tlp.h"
#include "common/trace.h"
#include "memory/iommu.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "nicsim's simulated memory is little-endian and accessed natively: build on a little-endian host"
#endif

namespace nicsim {

using sc_core::sc_time;

namespace {

/* Simulated time is kernel_now_ps() (common/ps_time.h): sc_time_stamp()
 * read inline, no call per charge. The CPU never acts ahead of the kernel. */
sc_time ps(uint64_t v) { return sc_time::from_value(v); }

CpuCore *core(void *ctx) { return static_cast<CpuCore *>(ctx); }
uint64_t op_load(void *ctx, uint64_t pa, unsigned size) { return core(ctx)->load(pa, size); }
void op_store(void *ctx, uint64_t pa, uint64_t val, unsigned size) { core(ctx)->store(pa, val, size); }
void op_copy(void *ctx, uint64_t dst, uint64_t src, uint64_t len) { core(ctx)->copy(dst, src, len); }
void op_cache_maint(void *ctx, uint64_t pa, uint64_t len, enum nk_cache_op op) {
  core(ctx)->cache_maint(pa, len, op);
}
uint32_t op_mmio_read32(void *ctx, uint32_t off) { return core(ctx)->mmio_read32(off); }
void op_mmio_write32(void *ctx, uint32_t off, uint32_t val) { core(ctx)->mmio_write32(off, val); }
void op_barrier(void *ctx, enum nk_barrier b) { core(ctx)->barrier(b); }
void op_charge(void *ctx, double cycles) { core(ctx)->charge(cycles); }
void op_set_attr(void *ctx, uint64_t pa, uint64_t len, enum nk_mem_attr attr) {
  core(ctx)->set_attr(pa, len, attr);
}
void op_host_rx(void *ctx, uint64_t pa, uint32_t len) { core(ctx)->host_rx(pa, len); }
void op_timer_arm(void *ctx, int id, uint64_t delay_ns) { core(ctx)->timer_arm(id, delay_ns); }
double op_user_copy_cycles(void *ctx, uint64_t dst, uint64_t src, uint64_t len) {
  return core(ctx)->user_copy_cycles(dst, src, len);
}

void op_exec(void *ctx, double instructions, double cycles, int bucket) {
  core(ctx)->exec(instructions, cycles, bucket);
}
void op_read_headers(void *ctx, uint64_t pa, uint32_t len, unsigned misaligned) {
  core(ctx)->read_headers(pa, len, misaligned);
}
double op_stream_read_cycles(void *ctx, uint64_t pa, uint64_t len) { return core(ctx)->stream_read_cycles(pa, len); }

void op_iommu_map(void *ctx, uint64_t pa, uint64_t len, bool map) { core(ctx)->iommu_map(pa, len, map); }
void op_iommu_inv(void *ctx, uint64_t pa, uint64_t len, enum nk_iommu_inv why) { core(ctx)->iommu_inv(pa, len, why); }
void op_spin(void *ctx, unsigned id, bool acquire) { core(ctx)->spin(id, acquire); }
uint64_t op_now_ns(void *ctx) { return core(ctx)->local_time_ps() / 1000u; }

/* One core, or cpu.locking big: spinlocks are free (the kernel lock serialises). */
const nk_platform_ops kOps = {op_load,    op_store,  op_copy,     op_cache_maint, op_mmio_read32, op_mmio_write32,
                              op_barrier, op_charge, op_set_attr, op_host_rx,     op_timer_arm,
                              op_user_copy_cycles,
                              op_iommu_map, nullptr, op_now_ns,
                              op_exec,      op_read_headers, op_stream_read_cycles, op_iommu_inv};
/* cpu.locking txq with several cores: the kernel's spinlocks spin. */
const nk_platform_ops kOpsTxq = {op_load,    op_store,  op_copy,     op_cache_maint, op_mmio_read32, op_mmio_write32,
                                 op_barrier, op_charge, op_set_attr, op_host_rx,     op_timer_arm,
                                 op_user_copy_cycles,
                                 op_iommu_map, op_spin, op_now_ns,
                                 op_exec,      op_read_headers, op_stream_read_cycles, op_iommu_inv};

}  // namespace

void CpuCore::Params::bind(ParamBinder &b) {
  b.key("cpu.cores", cores);
  b.key("cpu.app_core", app_core);
  b.key("cpu.locking", txq_locking, {{"big", false}, {"txq", true}});
  b.key("cpu.irq_affinity", irq_spread, {{"core0", false}, {"spread", true}});
  b.key("cpu.clock_mhz", clock_mhz);
  b.key("cpu.quantum_ns", quantum_ps, Conv::NsToPs);
  b.key("cpu.cached_access_cycles", cached_access_cycles);
  b.key("cpu.uncached_store_cycles", uncached_store_cycles);
  b.key("cpu.mmio_write_cycles", mmio_write_cycles);
  b.key("cpu.barrier_cycles", barrier_cycles);
  b.key("cpu.cache_maint_cycles_per_line", cache_maint_cycles_per_line);
  b.key("cpu.llc_hit_cycles", llc_hit_cycles);
  b.key("cpu.cache_sets", cache_sets);
  b.key("cpu.cache_ways", cache_ways);
  b.key("cpu.cache_line_bytes", cache_line_bytes);
  b.key("cpu.msi_latency_ns", msi_latency_ps, Conv::NsToPs);
  b.key("cpu.wc_buffers", wc_buffers);
  b.key("cpu.wc_flush_cycles", wc_flush_cycles);
  b.key("cpu.kernel_ipc", kernel_ipc);
  b.key("cpu.isa", isa,
        {{"auto", -2}, {"x86-64", NK_ISA_X86_64}, {"arm64", NK_ISA_ARM64}, {"armv7", NK_ISA_ARMV7},
         {"riscv64", NK_ISA_RISCV64}, {"sparc64", NK_ISA_SPARC64}, {"mips32", NK_ISA_MIPS32}, {"none", -1}});
  b.key("cpu.out_of_order", out_of_order);
  b.key("cpu.mlp_lines", mlp_lines);
  b.key("cpu.unaligned_trap_cycles", unaligned_trap_cycles);
  memcpy.bind(b);
  softirq.bind(b);
  stack.bind(b);
  app.bind(b);
}

ParamCheck CpuCore::Params::validate() const {
  if (cores >= 2 && app_core >= cores)
    return param_error({"cpu.app_core", "cpu.cores"},
                       "set cpu.app_core below " + std::to_string(cores) + ", or cpu.cores to at least " +
                           std::to_string(app_core + 1),
                       "cpu.app_core = %d names no core: cpu.cores is %d", app_core, cores);
  if (!pow2(cache_line_bytes))
    return param_error({"cpu.cache_line_bytes"}, "use a power of two, e.g. " + nearest_pow2(cache_line_bytes, 16, 512),
                       "cpu.cache_line_bytes = %u is not a power of two", cache_line_bytes);
  /* The cache model keeps a copy of every line's bytes: bound its size by
   * what a real per-core data cache plausibly is (a last-level slice). */
  const double mib = 1024.0 * 1024.0;
  const double cache_bytes = double(cache_sets) * double(cache_ways) * double(cache_line_bytes);
  if (cache_bytes > 64.0 * mib)
    return param_error({"cpu.cache_sets", "cpu.cache_ways", "cpu.cache_line_bytes"},
                       "cache_sets x cache_ways x cache_line_bytes must be at most 64 MiB; "
                       "model the per-core cache the driver's data lives in",
                       "cpu cache of %u sets x %u ways x %u B = %.0f MiB is too large", cache_sets, cache_ways,
                       cache_line_bytes, cache_bytes / mib);
  /* traffic.mode forward: the kernel's IPv4 forwarding of UDP/IPv4 test frames (forward.c). */
  const bool forward = app.mode == HostApp::Params::Mode::Forward;
  if (forward && stack.tcp)
    return param_error({"traffic.mode", "traffic.protocol"}, "use traffic.protocol udp with traffic.mode forward",
                       "traffic.mode = forward forwards UDP/IPv4 frames (RFC 2544-style), but traffic.protocol = tcp "
                       "would need a TCP sender and receiver on the wire");
  /* The send buffer bounds the application's UDP sends (HostStack). */
  if (stack.sndbuf_bytes > 0 && (!app.sends || stack.tcp))
    return param_error({"traffic.sndbuf_bytes", "traffic.mode", "traffic.protocol"},
                       "set traffic.sndbuf_bytes to 0, or use traffic.mode tx or bidir with traffic.protocol udp",
                       "traffic.sndbuf_bytes = %lld limits the host's UDP sender, but %s has none",
                       static_cast<long long>(stack.sndbuf_bytes),
                       !app.sends ? (forward ? "traffic.mode = forward" : "traffic.mode = rx") : "traffic.protocol = tcp");
  /* pktgen (net/core/pktgen.c) only sends, and sends UDP frames of one flow from no socket. */
  if (app.pktgen && !app.sends)
    return param_error({"traffic.sender", "traffic.mode"},
                       "use traffic.sender socket, or traffic.mode tx or bidir",
                       "traffic.sender = pktgen only sends, but traffic.mode = %s has the host send nothing of its own%s",
                       forward ? "forward" : "rx", forward ? " (it forwards what the wire peer sends)" : "");
  if (app.pktgen && stack.tcp)
    return param_error({"traffic.sender", "traffic.protocol"},
                       "use traffic.protocol udp with pktgen, or traffic.sender socket for TCP",
                       "traffic.sender = pktgen sends UDP frames, but traffic.protocol = tcp");
  if (app.pktgen && app.flows != 1)
    return param_error({"traffic.sender", "traffic.flows"},
                       "set traffic.flows to 1 with pktgen, or use traffic.sender socket",
                       "traffic.sender = pktgen sends one flow on TX queue 0 (queue_map 0), but traffic.flows = %lld",
                       static_cast<long long>(app.flows));
  if (app.pktgen && stack.sndbuf_bytes > 0)
    return param_error({"traffic.sender", "traffic.sndbuf_bytes"},
                       "set traffic.sndbuf_bytes to 0 with pktgen (it has no socket), or use traffic.sender socket",
                       "traffic.sndbuf_bytes = %lld is a socket's buffer, but traffic.sender = pktgen has no socket",
                       static_cast<long long>(stack.sndbuf_bytes));
  if (!app.pktgen && app.clone_skb > 0)
    return param_error({"traffic.pktgen_clone_skb", "traffic.sender"},
                       "set traffic.pktgen_clone_skb to 0, or traffic.sender pktgen",
                       "traffic.pktgen_clone_skb = %lld is pktgen's, but traffic.sender = socket",
                       static_cast<long long>(app.clone_skb));
  /* SOCK_MIN_SNDBUF: 2 x (2048 + SKB_DATA_ALIGN(sizeof(struct sk_buff)));
   * Linux raises a smaller SO_SNDBUF to it. */
  if (stack.sndbuf_bytes > 0 && stack.sndbuf_bytes < 4608)
    return param_error({"traffic.sndbuf_bytes"}, "use at least 4608 (Linux's SOCK_MIN_SNDBUF), or 0 for a paced sender",
                       "traffic.sndbuf_bytes = %lld is below Linux's smallest send buffer",
                       static_cast<long long>(stack.sndbuf_bytes));
  return std::nullopt;
}

CpuCore::CpuCore(sc_core::sc_module_name name, const Params &p, HostMemoryIf &mem)
    : sc_module(name),
      mmio("mmio"),
      m_p(p),
      m_mem(mem),
      m_bytes(mem.data()),
      m_mem_size(mem.size()),
      m_ncores(std::max(1, p.cores)),
      m_app_core(p.cores >= 2 ? p.app_core : 0),
      m_cores(static_cast<size_t>(std::max(1, p.cores))),
      m_cur(&m_cores[0]),
      m_txq(p.cores >= 2 && p.txq_locking),
      m_spread(p.cores >= 2 && p.irq_spread),
      m_ps_per_cycle(1e6 / p.clock_mhz),
      m_uncached_load_ps(p.uncached_load_ps),
      m_cache(p.cache_sets, p.cache_ways, p.cache_line_bytes),
      m_memcpy(p.memcpy),
      m_dram_ps(p.dram_ps),
      m_prof_memcpy(nk_prof_id("memcpy", NK_CLASS_OTHER)),
      m_prof_cache_maint(nk_prof_id("cache_maint", NK_CLASS_OTHER)),
      m_wc(p.wc_buffers),
      m_irq(*this, p.msi_latency_ps),
      m_locks(*this),
      m_stack(*this, p.stack),
      m_app(*this, p.app),
      m_sched(*this, p.end_ps) {
  m_mmio_gps.reset(new tlm::tlm_generic_payload[m_cores.size()]);
  m_platform.ops = m_txq ? &kOpsTxq : &kOps;
  m_platform.ctx = this;
  m_platform.mem = mem.data();
  m_platform.mem_size = mem.size();
  m_platform.coherent_dma = p.coherent_dma;
  m_platform.msi_addr = mem.msi_addr();
  tlm::tlm_global_quantum::instance().set(ps(p.quantum_ps));
  for (CoreCtx &x : m_cores) x.qk.reset(kernel_now_ps());
  if (m_ncores >= 2) m_prof_lock_wait = nk_prof_id("lock_wait", NK_CLASS_OTHER);
  if (p.iommu) {
    m_prof_iommu_map = nk_prof_id("iommu_map", NK_CLASS_OTHER);
    m_prof_iommu_unmap = nk_prof_id("iommu_unmap", NK_CLASS_OTHER);
    /* Where perf shows the spin on the sync: VT-d's qi_submit_sync, SMMUv3's
     * arm_smmu_cmdq_issue_cmdlist (its CMD_SYNC poll is inlined there). */
    m_prof_iommu_inv = nk_prof_id(p.iommu_smmuv3 ? "arm_smmu_cmdq_issue_cmdlist" : "qi_submit_sync", NK_CLASS_OTHER);
  }
  std::memset(m_prof_cls, -1, sizeof m_prof_cls);
  /* The C code's own instructions (src/kernel/icount.h), weighed by cpu.isa's code. */
  int isa = p.isa;
  if (isa == -2) {
    switch (p.memcpy.kind) {
      case CpuKind::Arm64: isa = NK_ISA_ARM64; break;
      case CpuKind::Riscv: isa = NK_ISA_RISCV64; break;
      case CpuKind::Sparc: isa = NK_ISA_SPARC64; break;
      case CpuKind::Mips: isa = NK_ISA_MIPS32; break;
      default: isa = NK_ISA_X86_64; break;
    }
  }
  if (isa >= 0) {
    nk_icount_select(static_cast<nk_isa>(isa));
    nk_icount_set_sink(&CpuCore::code_sink, this);
  }
  if (TraceWriter *t = TraceWriter::global()) {
    /* Each core's busy fraction (charged time over the trace's sample interval). */
    for (size_t c = 0; c < m_cores.size(); c++)
      m_cores[c].busy_trace = t->sampler(("cpu" + std::to_string(c) + " busy").c_str(), 1.0);
  }

  /* The device's accesses to memory reach the cache (snoop, DDIO, staleness). */
  mem.on_dma = [this](uint64_t pa, uint32_t len, bool write) { dma_access(pa, len, write); };

  SC_HAS_PROCESS(CpuCore);
  SC_METHOD(msi_arrive);
  sensitive << m_irq.msi_queue();
  dont_initialize();
  SC_THREAD(thread);
  /* The C driver and kernel layer run on this thread's stack. */
  set_stack_size(1 << 20);
  if (m_ncores >= 2) {
    SC_THREAD(app_thread);
    set_stack_size(1 << 20);
  }
  /* spread: a thread for every other core that takes vectors. */
  for (int c = 1; m_spread && c < m_ncores; c++) {
    if (c == m_app_core) continue;
    sc_core::sc_spawn_options opts;
    opts.set_stack_size(1 << 20);
    const std::string nm = "irq_core" + std::to_string(c);
    sc_core::sc_spawn([this, c] { m_sched.irq_core_thread(c); }, nm.c_str(), &opts);
  }
}

CpuCore::~CpuCore() {
  /* What runs from here on (the driver's remove) is charged to no core. */
  nk_icount_set_sink(nullptr, nullptr);
  /* nk_kernel_destroy runs the driver's remove if it has not run, and that
   * needs this (no longer running) thread; a kernel left mid-run is leaked. */
  if (m_kernel && m_sched.removed()) nk_kernel_destroy(m_kernel);
}

void CpuCore::set_window(uint64_t start_ps, uint64_t end_ps) {
  m_win_start_ps = start_ps;
  m_win_end_ps = end_ps;
}

/* ---- time and accounting ------------------------------------------------ */

void CpuCore::sync() {
  nk_icount_flush();
  if (m_cur->qk.local_ps() != 0) qk_sync();
}

void CpuCore::load_sync() {
  nk_icount_flush();
  if (m_cur->qk.local_ps() == 0) return;
  if (!try_skip_sync()) qk_sync();
}

void CpuCore::quantum_sync() {
  nk_icount_flush();
  if (!try_skip_sync()) qk_sync();
}

bool CpuCore::try_skip_sync() {
  /* Waiting would let every other process run up to the local time first.
   * If none of them can touch memory, raise an interrupt or read the run's
   * counters by then (strictly before: same-time order is the kernel's),
   * the core sees exactly what it would after the wait. One core only (a
   * second core is another process sharing its state); not with --trace
   * (the file's order). */
  if (!quiet_until || m_ncores >= 2 || m_sched.tracing() || m_irq.msi_in_flight()) return false;
  const uint64_t local = local_time_ps();
  if (!m_quiet_valid) {
    m_quiet_cache = quiet_until();
    m_quiet_valid = true;
  }
  if (local < m_quiet_cache) {
    m_cur->qk.skip_sync(local);
    return true;
  }
  /* No process at all can run up to the local time (the kernel says so):
   * memory then changes only by the posted writes already queued, which
   * quiet_through hands to memory up to the local time, as the resume after
   * the wait would (docs/host.md, "Lookahead"). */
  if (!quiet_through || !sim_ok()) return false;
  if (m_kq_gen != m_activity_gen || local >= m_kq_until) {
    m_kq_until = kernel_quiet_until();
    m_kq_gen = m_activity_gen;
  }
  if (local <= kernel_now_ps() || local >= m_kq_until) return false;
  if (!m_commit_valid || local >= m_commit_until) {
    /* Writes committed by then go to memory first (or an edge is in the way). */
    const uint64_t until = quiet_through(local);
    if (until == 0) return false;
    m_commit_until = until;
    m_commit_valid = true;
    m_quiet_valid = false; /* writes were handed to memory: the bound may move later */
  }
  m_cur->qk.skip_sync(local);
  return true;
}

void CpuCore::qk_sync() {
  /* tlm_quantumkeeper::sync: wait out the local time, then reset. */
  QuantumKeeper &qk = m_cur->qk;
  suspend([&qk] {
    sc_core::wait(ps(qk.local_ps()));
    qk.reset(kernel_now_ps());
  });
}

void CpuCore::enter_core(int c) {
  m_cur = &m_cores[static_cast<size_t>(c)];
  if (m_ncores < 2) return;
  nk_prof_restore(&m_cur->prof);
  nk_kernel_set_current(m_cur->kern);
  if (m_spread) nk_kernel_set_cpu(c);
}

void CpuCore::account(double cycles, uint64_t start_ps, uint64_t dur_ps, int self) {
  const int id = nk_prof_current();
  const int caller = (id >= 0 && id < NK_PROF_MAX) ? id : kUnattributed;
  /* Self cycles to the bucket doing the work (memcpy, cache_maint or the
   * caller itself), class cycles to the caller's class, as perf report
   * splits self and children. */
  const int b = (self >= 0 && self < NK_PROF_MAX) ? self : caller;
  const int cls = caller == kUnattributed ? NK_CLASS_OTHER : prof_class(caller);
  m_bucket_total[b] += cycles;
  m_class_total[cls] += cycles;
  m_busy_total += cycles;
  if (m_ncores >= 2) {
    m_cur->busy_total += cycles;
    m_cur->bucket_total[b] += cycles;
  }
  const uint64_t end_ps = start_ps + dur_ps;
  if (m_cur->busy_trace) m_cur->busy_trace->add_span(start_ps, end_ps);
  double in_win = 0;
  if (start_ps >= m_win_start_ps && end_ps <= m_win_end_ps) {
    in_win = cycles;
  } else if (end_ps > m_win_start_ps && start_ps < m_win_end_ps && dur_ps > 0) {
    /* Straddles an edge of the window: the part inside it. */
    const uint64_t in = std::min(end_ps, m_win_end_ps) - std::max(start_ps, m_win_start_ps);
    in_win = cycles * static_cast<double>(in) / static_cast<double>(dur_ps);
  }
  m_bucket_window[b] += in_win;
  m_class_window[cls] += in_win;
  if (m_ncores >= 2) {
    m_cur->busy_window += in_win;
    m_cur->bucket_window[b] += in_win;
  }
  /* Inclusive time: the working bucket and every distinct profiled function
   * on the call stack (a recursive frame counts once). */
  m_incl_total[b] += cycles;
  m_incl_window[b] += in_win;
  /* Each distinct id once, in the order of its outermost frame, b not
   * again: an id is marked with this charge's stamp when counted. */
  const int *stack = nullptr;
  const int depth = nk_prof_active(&stack);
  const uint64_t stamp = ++m_incl_stamp;
  m_incl_seen[b] = stamp;
  for (int i = 0; i < depth; i++) {
    const int id = stack[i];
    if (id < 0 || id >= NK_PROF_MAX || m_incl_seen[id] == stamp) continue;
    m_incl_seen[id] = stamp;
    m_incl_total[id] += cycles;
    m_incl_window[id] += in_win;
  }
}

int CpuCore::prof_class(int id) {
  /* A registered bucket's class never changes (nk_prof_id returns the
   * existing id), and the current bucket is always registered. */
  int8_t &c = m_prof_cls[id];
  if (c < 0) c = static_cast<int8_t>(nk_prof_class(id));
  return c;
}

void CpuCore::spend(double cycles, int self) {
  if (cycles <= 0) return;
  /* Simulated time cannot move before the sync below (nothing here waits). */
  const uint64_t now = kernel_now_ps();
  CoreCtx &c = *m_cur;
  const uint64_t start = now + c.qk.local_ps();
  const double t = cycles * m_ps_per_cycle + c.frac_ps;
  const uint64_t whole = static_cast<uint64_t>(t);
  c.frac_ps = t - static_cast<double>(whole);
  if (whole) c.qk.inc(whole);
  account(cycles, start, whole, self);
  if (c.qk.need_sync(now)) quantum_sync();
}

void CpuCore::spend_ps(uint64_t t_ps, int self) {
  if (t_ps == 0) return;
  const uint64_t now = kernel_now_ps();
  CoreCtx &c = *m_cur;
  const uint64_t start = now + c.qk.local_ps();
  c.qk.inc(t_ps);
  account(static_cast<double>(t_ps) / m_ps_per_cycle, start, t_ps, self);
  if (c.qk.need_sync(now)) quantum_sync();
}

double CpuCore::core_busy_cycles(int c, bool in_window) const {
  if (c < 0 || c >= m_ncores || m_ncores < 2) return c == 0 ? busy_cycles(in_window) : 0;
  const CoreCtx &x = m_cores[static_cast<size_t>(c)];
  return in_window ? x.busy_window : x.busy_total;
}

double CpuCore::core_bucket_cycles(int c, int id, bool in_window) const {
  if (c < 0 || c >= m_ncores || id < 0 || id > kUnattributed) return 0;
  if (m_ncores < 2) return bucket_cycles(id, in_window);
  const CoreCtx &x = m_cores[static_cast<size_t>(c)];
  return in_window ? x.bucket_window[id] : x.bucket_total[id];
}

double CpuCore::bucket_cycles(int id, bool in_window) const {
  if (id < 0 || id > kUnattributed) return 0;
  return in_window ? m_bucket_window[id] : m_bucket_total[id];
}

double CpuCore::bucket_incl_cycles(int id, bool in_window) const {
  if (id < 0 || id > kUnattributed) return 0;
  return in_window ? m_incl_window[id] : m_incl_total[id];
}

double CpuCore::class_cycles(nk_class c, bool in_window) const {
  if (c < 0 || c >= NK_CLASS__COUNT) return 0;
  return in_window ? m_class_window[c] : m_class_total[c];
}

double CpuCore::busy_cycles(bool in_window) const {
  if (!in_window) return m_busy_total;
  double sum = 0;
  for (int id = 0; id <= kUnattributed; id++) sum += m_bucket_window[id];
  return sum;
}

/* ---- checks ---------------------------------------------------------------- */

void CpuCore::violation(const std::string &msg) {
  if (m_violated) return; /* the first one stops the run; the driver may run on until the next wait */
  m_violated = true;
  if (on_violation) on_violation(name(), msg, static_cast<double>(local_time_ps()) / 1000.0);
  note_activity(); /* the run stops (sc_stop) */
}

bool CpuCore::range_violation(uint64_t pa, uint64_t len, const char *what) {
  char msg[200];
  std::snprintf(msg, sizeof msg, "CPU %s out of range: address 0x%" PRIx64 ", length %" PRIu64
                " B; host memory is [0, 0x%" PRIx64 ")", what, pa, len, m_mem_size);
  violation(msg);
  return false;
}

bool CpuCore::size_violation(unsigned size, const char *what) {
  char msg[80];
  std::snprintf(msg, sizeof msg, "CPU %s of %u bytes: one access is 1, 2, 4 or 8 bytes", what, size);
  violation(msg);
  return false;
}

void CpuCore::check_owned(uint64_t pa, uint64_t len) {
  if (!device_owns || len == 0) return;
  const uint64_t hit = device_owns(pa) ? pa : device_owns(pa + len - 1) ? pa + len - 1 : UINT64_MAX;
  if (hit == UINT64_MAX) return;
  char msg[200];
  std::snprintf(msg, sizeof msg,
                "CPU store to 0x%" PRIx64 " (%" PRIu64 " B) lands in a descriptor slot the device owns", pa, len);
  violation(msg);
}

/* ---- platform operations ------------------------------------------------- */

uint64_t CpuCore::load(uint64_t pa, unsigned size) {
  if (!check_size(size, "load") || !check_range(pa, size, "load")) return 0;
  /* The device may have written this memory: catch up with simulated time
   * so every DMA write completed by the load's time is visible. */
  load_sync();
  uint64_t v = 0;
  if (m_mem.attr(pa) == NK_MEM_CACHED) {
    count([](CpuCounters &c) { c.cached_loads++; });
    cached_read(pa, size, reinterpret_cast<uint8_t *>(&v));
  } else {
    std::memcpy(&v, m_bytes + pa, size);
    /* An uncached load drains the write-combining buffers (Intel SDM vol. 3A
     * §11.3.1); a WC load first sends out the buffer of its own line. */
    wc_bursts(m_mem.attr(pa) == NK_MEM_WC ? m_wc.flush_line(pa) : m_wc.flush_all());
    /* Uncached (Normal-NC, Device) and write-combining loads go to memory; the
     * core stalls, and longer if the DRAM channel is busy. */
    count([](CpuCounters &c) { c.uncached_loads++; });
    spend_ps(m_uncached_load_ps + m_mem.cpu_dram_access(local_time_ps(), m_cache.line_bytes()));
  }
  return v;
}

void CpuCore::store(uint64_t pa, uint64_t val, unsigned size) {
  if (!check_size(size, "store") || !check_range(pa, size, "store")) return;
  check_owned(pa, size);
  std::memcpy(m_bytes + pa, &val, size);
  if (m_mem.attr(pa) == NK_MEM_CACHED) {
    count([](CpuCounters &c) { c.cached_stores++; });
    /* Write-allocate; a miss does not stall the core (the store buffer). */
    const Cache::Line *before = m_cache.find(pa);
    const Cache::Line *before_end = m_cache.find(pa + size - 1);
    if (!before || !before_end) {
      count([](CpuCounters &c) { c.cache_misses++; });
      /* The line is read in (RFO) behind the store buffer: the channel is busy, the core is not. */
      m_mem.cpu_dram_access(local_time_ps(), m_cache.line_bytes());
    }
    cache_write(pa, size);
    spend(m_p.cached_access_cycles);
  } else if (m_mem.attr(pa) == NK_MEM_WC) {
    /* Merged into a write-combining buffer; a burst leaves when a line fills
     * or the oldest buffer is evicted for a new line. */
    count([](CpuCounters &c) { c.wc_stores++; });
    spend(m_p.cached_access_cycles);
    wc_bursts(m_wc.store(pa, size));
  } else {
    wc_bursts(m_wc.flush_all()); /* an uncached store drains the WC buffers first */
    count([](CpuCounters &c) { c.uncached_stores++; });
    m_mem.cpu_dram_access(local_time_ps(), m_cache.line_bytes()); /* buffered: no stall */
    spend(m_p.uncached_store_cycles);
  }
}

void CpuCore::copy(uint64_t dst, uint64_t src, uint64_t len) {
  if (!check_range(dst, len, "memcpy destination") || !check_range(src, len, "memcpy source")) return;
  check_owned(dst, len);
  /* memcpy reads its source through the cache: a stale line is old data. */
  if (len > 0 && m_mem.attr(src) == NK_MEM_CACHED) check_stale(src, len, "memcpy from");
  std::memmove(m_bytes + dst, m_bytes + src, len);
  /* With a DRAM bandwidth: the lines the copy streams from or to DRAM
   * (source misses, destination RFOs, uncached lines), B. */
  const bool dram = len > 0 && m_mem.dram_limited();
  const uint64_t lb = m_cache.line_bytes();
  uint64_t dram_bytes = 0;
  if (dram) {
    const uint64_t lines = (dst + len - 1) / lb - dst / lb + 1;
    if (m_mem.attr(dst) == NK_MEM_CACHED) {
      for (uint64_t a = m_cache.line_base(dst); a < dst + len; a += lb)
        if (!m_cache.find(a)) dram_bytes += lb;
    } else if (m_mem.attr(dst) == NK_MEM_UNCACHED) {
      dram_bytes += lines * lb;
    }
    if (m_mem.attr(src) != NK_MEM_CACHED) dram_bytes += ((src + len - 1) / lb - src / lb + 1) * lb;
  }
  /* The lines it touches become resident (the cost of their misses is part
   * of the per-byte rates); the destination's are dirty. */
  if (len > 0) {
    if (m_mem.attr(src) == NK_MEM_CACHED)
      for (uint64_t a = m_cache.line_base(src); a < src + len; a += m_cache.line_bytes()) {
        if (Cache::Line *l = m_cache.find(a)) {
          m_cache.touch(l);
        } else {
          m_cache.fill(a, m_bytes);
          if (dram) dram_bytes += lb;
        }
      }
    if (m_mem.attr(dst) == NK_MEM_CACHED) cache_write(dst, len);
    if (m_mem.attr(dst) == NK_MEM_WC) {
      /* Into write-combining memory: the bytes merge line by line in the WC buffers. */
      unsigned bursts = 0;
      for (uint64_t a = dst; a < dst + len;) {
        const uint64_t n = std::min(dst + len, (a & ~(WcBuffers::kLineBytes - 1)) + WcBuffers::kLineBytes) - a;
        bursts += m_wc.store(a, static_cast<unsigned>(n));
        a += n;
      }
      wc_bursts(bursts);
    }
  }
  uint64_t dram_wait = 0, dram_service = 0;
  if (dram_bytes) dram_wait = m_mem.cpu_dram_access(local_time_ps(), dram_bytes, &dram_service);
  const bool aligned = ((dst ^ src) & 7) == 0;
  count([len, aligned](CpuCounters &c) {
    c.copies++;
    c.copy_bytes += len;
    (aligned ? c.memcpy_bytes_aligned : c.memcpy_bytes_misaligned) += len;
  });
  /* Self cycles to the memcpy bucket; the caller's class still gets them. */
  const double cycles = memcpy_cycles(m_memcpy, dst, src, len);
  spend(cycles, m_prof_memcpy);
  /* The copy lasts at least as long as the DRAM channel needs for its lines
   * (its rates include the misses on an idle channel). */
  const double copy_ps = cycles * m_ps_per_cycle;
  if (dram_bytes && static_cast<double>(dram_wait + dram_service) > copy_ps)
    spend_ps(static_cast<uint64_t>(static_cast<double>(dram_wait + dram_service) - copy_ps), m_prof_memcpy);
}

void CpuCore::cache_maint(uint64_t pa, uint64_t len, nk_cache_op op) {
  if (len == 0 || !check_range(pa, len, "cache maintenance")) return;
  const uint64_t line = static_cast<uint64_t>(m_p.cache_line_bytes);
  const uint64_t lines = (pa + len + line - 1) / line - pa / line;
  /* Clean writes dirty lines back (memory already holds their bytes) and
   * keeps them; invalidate drops them, so the next load reads memory. */
  for (uint64_t a = pa & ~(line - 1); a < pa + len; a += line) {
    Cache::Line *l = m_cache.find(a);
    if (!l) continue;
    if (op == NK_CACHE_CLEAN)
      l->dirty = false;
    else
      m_cache.drop(l);
  }
  count([lines](CpuCounters &c) { c.cache_lines += lines; });
  const double cycles = static_cast<double>(lines) * m_p.cache_maint_cycles_per_line;
  spend(cycles, m_prof_cache_maint);
}

/* ---- the data cache ---------------------------------------------------------- */

void CpuCore::cached_read(uint64_t pa, unsigned len, uint8_t *out) {
  std::memcpy(out, m_bytes + pa, len);
  double hit_cycles = 0;
  uint64_t stall_ps = 0;
  for (uint64_t a = m_cache.line_base(pa); a < pa + len; a += m_cache.line_bytes()) {
    Cache::Line *l = m_cache.find(a);
    if (!l) {
      /* A miss: the core stalls for the DRAM round trip, then the line is resident. */
      count([](CpuCounters &c) { c.cache_misses++; });
      stall_ps += m_dram_ps + m_mem.cpu_dram_access(local_time_ps() + stall_ps, m_cache.line_bytes());
      m_cache.fill(a, m_bytes);
      continue;
    }
    m_cache.touch(l);
    if (l->llc) {
      /* DDIO placed it in the LLC: the first touch brings it to the core. */
      count([](CpuCounters &c) { c.llc_hits++; });
      hit_cycles += m_p.llc_hit_cycles;
      l->llc = false;
    } else {
      hit_cycles += m_p.cached_access_cycles;
    }
    if (l->stale) {
      /* The core reads its cached copy, not what the device wrote. */
      const uint64_t lo = std::max(a, pa), hi = std::min(a + m_cache.line_bytes(), pa + len);
      if (std::memcmp(m_cache.data(l) + (lo - a), m_bytes + lo, hi - lo) != 0) {
        check_stale(lo, hi - lo, "load from");
        std::memcpy(out + (lo - pa), m_cache.data(l) + (lo - a), hi - lo);
      }
    }
  }
  spend(hit_cycles);
  spend_ps(stall_ps);
}

void CpuCore::cache_write(uint64_t pa, uint64_t len) {
  for (uint64_t a = m_cache.line_base(pa); a < pa + len; a += m_cache.line_bytes()) {
    Cache::Line *l = m_cache.find(a);
    if (!l) {
      l = m_cache.fill(a, m_bytes); /* memory already holds the new bytes */
    } else {
      m_cache.touch(l);
      const uint64_t lo = std::max(a, pa), hi = std::min(a + m_cache.line_bytes(), pa + len);
      std::memcpy(m_cache.data(l) + (lo - a), m_bytes + lo, hi - lo);
    }
    l->dirty = true;
  }
}

bool CpuCore::check_stale(uint64_t pa, uint64_t len, const char *what) {
  for (uint64_t a = m_cache.line_base(pa); a < pa + len; a += m_cache.line_bytes()) {
    Cache::Line *l = m_cache.find(a);
    if (!l || !l->stale) continue;
    const uint64_t lo = std::max(a, pa), hi = std::min(a + m_cache.line_bytes(), pa + len);
    if (std::memcmp(m_cache.data(l) + (lo - a), m_bytes + lo, hi - lo) == 0) continue;
    const char *fn = nk_prof_name(nk_prof_current());
    char msg[400];
    std::snprintf(msg, sizeof msg,
                  "stale read: CPU %s 0x%" PRIx64 " (%" PRIu64 " B, in %s) used the cached copy of line 0x%" PRIx64
                  " that the device rewrote at %.3f ns on a non-coherent platform; the CPU sees old data. "
                  "Missing dma_sync_single_for_cpu (or dma_unmap) before the CPU read the buffer",
                  what, pa, len, fn ? fn : "?", a, static_cast<double>(l->dev_ps) / 1000.0);
    violation(msg);
    return true;
  }
  return false;
}

void CpuCore::dma_access(uint64_t pa, uint32_t len, bool write) {
  if (len == 0) return;
  /* A posted write applied lazily reaches memory at its commit time, not now. */
  const uint64_t t = dma_time ? dma_time() : kernel_now_ps();
  const uint64_t line = m_cache.line_bytes();
  for (uint64_t a = m_cache.line_base(pa); a < pa + len; a += line) {
    Cache::Line *l = m_cache.find(a);
    if (m_p.coherent_dma) {
      /* Coherent: the root complex snoops. A read gets the CPU's data
       * (memory holds it already); a write invalidates the line, or with
       * DDIO allocates it in the last-level cache with the new bytes. */
      if (!write) continue;
      if (m_p.ddio) {
        if (!l) l = m_cache.fill(a, m_bytes);
        else std::memcpy(m_cache.data(l), m_bytes + a, line);
        l->dirty = false;
        l->stale = false;
        l->llc = true;
        m_total.ddio_fills++;
        if (in_window(t)) m_window.ddio_fills++;
      } else if (l) {
        m_cache.drop(l);
        m_total.snoop_invalidates++;
        if (in_window(t)) m_window.snoop_invalidates++;
      }
      continue;
    }
    if (!l) continue;
    /* Non-coherent: nothing snoops the CPU's cache. */
    if (l->dirty && !m_violated) {
      char msg[400];
      std::snprintf(msg, sizeof msg,
                    "DMA %s of 0x%" PRIx64 " (%" PRIu32 " B) while the CPU cache holds dirty line 0x%" PRIx64
                    " on a non-coherent platform: %s. Missing dma_map_single or dma_sync_single_for_device",
                    write ? "write" : "read", pa, len, a,
                    write ? "its later write-back would overwrite the device's data"
                          : "the device reads memory without the CPU's newest bytes");
      m_violated = true;
      if (on_violation) on_violation(name(), msg, static_cast<double>(t) / 1000.0);
    }
    if (write) {
      l->stale = true;
      l->dev_ps = t;
    }
  }
}

tlm::tlm_generic_payload &CpuCore::mmio_payload(tlm::tlm_command cmd, uint32_t off, uint32_t val) {
  /* Each core its own payload and buffer: another core's access may run
   * while this one waits for the round trip (cpu.locking txq). */
  tlm::tlm_generic_payload &gp = m_mmio_gps[m_cur - m_cores.data()];
  m_cur->mmio_buf = val;
  tlm_prepare(gp, cmd, off, reinterpret_cast<unsigned char *>(&m_cur->mmio_buf), 4);
  return gp;
}

uint32_t CpuCore::mmio_read32(uint32_t off) {
  wc_bursts(m_wc.flush_all()); /* an uncached (UC) access drains the WC buffers */
  sync();
  const uint64_t t0 = kernel_now_ps();
  count([](CpuCounters &c) { c.mmio_reads++; });
  tlm::tlm_generic_payload &gp = mmio_payload(tlm::TLM_READ_COMMAND, off, 0);
  const uint32_t &buf = m_cur->mmio_buf;
  sc_time d = sc_core::SC_ZERO_TIME;
  suspend([this, &gp, &d] {
    mmio->b_transport(gp, d);
    if (d != sc_core::SC_ZERO_TIME) wait(d);
  });
  /* The core stalled for the whole round trip. */
  const uint64_t dur = kernel_now_ps() - t0;
  account(static_cast<double>(dur) / m_ps_per_cycle, t0, dur);
  if (!gp.is_response_ok()) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "MMIO read of BAR0 offset 0x%" PRIx32 " failed: %s", off,
                  gp.get_response_string().c_str());
    violation(msg);
  }
  return buf;
}

void CpuCore::mmio_write32(uint32_t off, uint32_t val) {
  /* The write enters the interconnect at the core's time, after every
   * earlier store (which is already in memory). */
  wc_bursts(m_wc.flush_all()); /* an uncached (UC) access drains the WC buffers */
  sync();
  count([](CpuCounters &c) { c.mmio_writes++; });
  tlm::tlm_generic_payload &gp = mmio_payload(tlm::TLM_WRITE_COMMAND, off, val);
  sc_time d = sc_core::SC_ZERO_TIME;
  suspend([this, &gp, &d] { mmio->b_transport(gp, d); });
  if (d != sc_core::SC_ZERO_TIME) m_cur->qk.inc(d.value());
  if (!gp.is_response_ok()) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "MMIO write of BAR0 offset 0x%" PRIx32 " failed: %s", off,
                  gp.get_response_string().c_str());
    violation(msg);
  }
  spend(m_p.mmio_write_cycles);
}

void CpuCore::barrier(nk_barrier b) {
  count([](CpuCounters &c) { c.barriers++; });
  spend(m_p.barrier_cycles);
  /* Store-ordering barriers (sfence/mfence; dmb st) send out the WC buffers; rmb does not. */
  if (b == NK_BARRIER_MB || b == NK_BARRIER_WMB || b == NK_BARRIER_DMA_WMB) wc_bursts(m_wc.flush_all());
}

void CpuCore::wc_bursts(unsigned n) {
  if (n == 0) return;
  count([n](CpuCounters &c) { c.wc_flushes += n; });
  for (unsigned i = 0; i < n; i++) m_mem.cpu_dram_access(local_time_ps(), WcBuffers::kLineBytes);
  spend(static_cast<double>(n) * m_p.wc_flush_cycles);
}

void CpuCore::iommu_map(uint64_t pa, uint64_t len, bool map) {
  (void)pa; /* the page-table work costs the same wherever the mapping is */
  if (!m_p.iommu || len == 0) return;
  if (map) {
    count([](CpuCounters &c) { c.iommu_maps++; });
    spend(m_p.iommu_map_cycles, m_prof_iommu_map);
    return;
  }
  count([](CpuCounters &c) { c.iommu_unmaps++; });
  spend(m_p.iommu_unmap_cycles, m_prof_iommu_unmap);
}

void CpuCore::iommu_inv(uint64_t pa, uint64_t len, nk_iommu_inv why) {
  if (!m_p.iommu) return;
  const uint32_t cmds =
      Iommu::inv_commands(m_p.iommu_smmuv3 ? IommuParams::Kind::Smmuv3 : IommuParams::Kind::Vtd, pa, len);
  /* The commands and the sync into the queue (16 B each: two 8-byte
   * stores), then the tail / PROD register write. */
  spend(2.0 * (cmds + 1) * m_p.cached_access_cycles + m_p.uncached_store_cycles, m_prof_iommu_inv);
  /* The queue is shared by the cores: the submission happens at this core's time. */
  sync();
  const uint64_t t = local_time_ps();
  const uint64_t done = m_mem.iommu_queue_invalidate(t, pa, len);
  /* The poll sees the status the IOMMU wrote: a miss on its line. */
  const uint64_t wait = done - t + m_dram_ps;
  count([cmds, wait, why](CpuCounters &c) {
    c.iommu_inv_cmds += cmds;
    c.iommu_inv_syncs++;
    c.iommu_inv_wait_ps += wait;
    if (why == NK_IOMMU_INV_FQ_FULL) c.iommu_fq_flushes_full++;
    if (why == NK_IOMMU_INV_FQ_TIMER) c.iommu_fq_flushes_timer++;
  });
  spend_ps(wait, m_prof_iommu_inv);
}

void CpuCore::charge(double cycles) { spend(cycles); }

void CpuCore::set_attr(uint64_t pa, uint64_t len, nk_mem_attr attr) {
  if (!check_range(pa, len, "set_attr")) return;
  /* Remapping flushes the range (as the kernel's remap does): no cached copy survives. */
  if (len > 0)
    for (uint64_t a = m_cache.line_base(pa); a < pa + len; a += m_cache.line_bytes())
      if (Cache::Line *l = m_cache.find(a)) m_cache.drop(l);
  m_mem.set_attr(pa, len, attr);
}

void CpuCore::thread() {
  enter_core(0);
  if (m_program) {
    m_program(*this);
    sync();
    return;
  }
  m_sched.kernel_main();
}

void CpuCore::app_thread() {
  enter_core(m_app_core);
  if (m_program) {
    if (m_app_program) {
      m_app_program(*this);
      sync();
    }
    return;
  }
  m_app.run();
}

}  // namespace nicsim
