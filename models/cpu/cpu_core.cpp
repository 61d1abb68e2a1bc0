// cpu_core.cpp: the platform ops with their costs, the interrupt input and the
// kernel main loop (IRQ, NAPI softirq, paced host application, end of run).
#include "cpu/cpu_core.h"
#include "drivers/driver.h"

#include "common/lookahead.h"

#include "common/tlp.h"
#include "common/trace.h"

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

/* sc_core::sc_time_stamp() in ps, read inline (the same member the library's
 * out-of-line sc_time_stamp returns; no call per charge). */
uint64_t now_ps() { return sc_core::sc_get_curr_simcontext()->time_stamp().value(); }
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

void op_iommu_map(void *ctx, uint64_t pa, uint64_t len, bool map) { core(ctx)->iommu_map(pa, len, map); }
void op_spin(void *ctx, unsigned id, bool acquire) { core(ctx)->spin(id, acquire); }
uint64_t op_now_ns(void *ctx) { return core(ctx)->local_time_ps() / 1000u; }

/* One core, or cpu.locking big: spinlocks are free (the kernel lock serialises). */
const nk_platform_ops kOps = {op_load,    op_store,  op_copy,     op_cache_maint, op_mmio_read32, op_mmio_write32,
                              op_barrier, op_charge, op_set_attr, op_host_rx,     op_timer_arm,
                              op_user_copy_cycles,
                              op_iommu_map, nullptr, op_now_ns};
/* cpu.locking txq with several cores: the kernel's spinlocks spin. */
const nk_platform_ops kOpsTxq = {op_load,    op_store,  op_copy,     op_cache_maint, op_mmio_read32, op_mmio_write32,
                                 op_barrier, op_charge, op_set_attr, op_host_rx,     op_timer_arm,
                                 op_user_copy_cycles,
                                 op_iommu_map, op_spin, op_now_ns};

constexpr size_t kMaxFlows = 256; /* flows the host sink tracks */
constexpr int kMaxVectors = 64;   /* interrupt vectors (bits of m_irq_pending) */
constexpr uint64_t kDrainPollPs = 1000000; /* 1 us: drain re-check period after the end of the run */

}  // namespace

CpuCore::CpuCore(sc_core::sc_module_name name, const nicsim_config &cfg, HostMemoryIf &mem)
    : sc_module(name),
      mmio("mmio"),
      m_cfg(cfg),
      m_mem(mem),
      m_bytes(mem.data()),
      m_mem_size(mem.size()),
      m_ncores(static_cast<int>(cfg.cpu.cores)),
      m_app_core(cfg.cpu.cores >= 2 ? static_cast<int>(cfg.cpu.app_core) : 0),
      m_cores(static_cast<size_t>(std::max<int64_t>(1, cfg.cpu.cores))),
      m_cur(&m_cores[0]),
      m_ps_per_cycle(1e6 / cfg.cpu.clock_mhz),
      m_uncached_load_ps(static_cast<uint64_t>(std::llround(cfg.memory.uncached_load_ns * 1000.0))),
      m_traffic_end_ps(static_cast<uint64_t>(std::llround(cfg.run.duration_us * 1e6))),
      m_end_ps(static_cast<uint64_t>(std::llround((cfg.run.duration_us + cfg.run.drain_us) * 1e6))),
      m_cache(static_cast<uint32_t>(cfg.cpu.cache_sets), static_cast<uint32_t>(cfg.cpu.cache_ways),
              static_cast<uint32_t>(cfg.cpu.cache_line_bytes)),
      m_memcpy(MemcpyParams::from_config(cfg)),
      m_dram_ps(static_cast<uint64_t>(std::llround(cfg.memory.dram_latency_ns * 1000.0))),
      m_msi_ps(static_cast<uint64_t>(std::llround(cfg.cpu.msi_latency_ns * 1000.0))),
      m_prof_memcpy(nk_prof_id("memcpy", NK_CLASS_OTHER)),
      m_prof_cache_maint(nk_prof_id("cache_maint", NK_CLASS_OTHER)),
      m_wc(static_cast<unsigned>(cfg.cpu.wc_buffers)),
      m_msi_queue("msi_queue"),
      m_flows(kMaxFlows) {
  m_mmio_gps.reset(new tlm::tlm_generic_payload[m_cores.size()]);
  m_txq = cfg.cpu.cores >= 2 && cfg.cpu.locking == NC_LOCKING_TXQ;
  m_spread = cfg.cpu.cores >= 2 && cfg.cpu.irq_affinity == NC_IRQ_AFFINITY_SPREAD;
  /* The vectors each core takes: all on core 0, or vector v on core v mod cores. */
  m_vec_mask.assign(m_cores.size(), 0);
  for (int v = 0; v < kMaxVectors; v++) m_vec_mask[static_cast<size_t>(irq_core(v))] |= 1ull << v;
  m_core_irq_events.reset(new sc_core::sc_event[m_cores.size()]);
  m_lock_wake.reset(new sc_core::sc_event[m_cores.size()]);
  for (LockState &l : m_locks) l.waiters.reserve(m_cores.size()); /* no allocation while spinning */
  m_napi_tid.assign(m_cores.size() * NK_NAPI_TRACKS, 0);
  m_platform.ops = m_txq ? &kOpsTxq : &kOps;
  if (m_txq && cfg.traffic.protocol == NC_PROTO_TCP) m_ack_backlog.reserve(kAckBacklog);
  m_platform.ctx = this;
  m_platform.mem = mem.data();
  m_platform.mem_size = mem.size();
  m_platform.coherent_dma = cfg.memory.coherent_dma;
  m_platform.msi_addr = mem.msi_addr();
  tlm::tlm_global_quantum::instance().set(ps(static_cast<uint64_t>(std::llround(cfg.cpu.quantum_ns * 1000.0))));
  for (CoreCtx &x : m_cores) x.qk.reset(now_ps());
  if (m_ncores < 1) m_ncores = 1;
  if (m_ncores >= 2) m_prof_lock_wait = nk_prof_id("lock_wait", NK_CLASS_OTHER);
  if (cfg.iommu.enabled) {
    m_prof_iommu_map = nk_prof_id("iommu_map", NK_CLASS_OTHER);
    m_prof_iommu_unmap = nk_prof_id("iommu_unmap", NK_CLASS_OTHER);
  }
  for (nf_seq_track &t : m_flows) t = nf_seq_track{0, 0, 0, 0};
  for (uint64_t &d : m_timer_due_ps) d = UINT64_MAX;
  std::memset(m_prof_cls, -1, sizeof m_prof_cls);
  m_tcp = cfg.traffic.protocol == NC_PROTO_TCP;
  m_tx_flows = static_cast<uint64_t>(std::max<int64_t>(1, cfg.traffic.flows));
  m_sndbuf = static_cast<uint64_t>(std::max<int64_t>(0, cfg.traffic.sndbuf_bytes));
  m_tcp_seg_payload = nf_tcp_payload(static_cast<uint32_t>(cfg.traffic.frame_bytes));
  m_tcp_win_segs = std::max<uint64_t>(1, static_cast<uint64_t>(cfg.traffic.tcp_window_bytes) / m_tcp_seg_payload);
  m_tcp_rto_ps = static_cast<uint64_t>(std::llround(cfg.traffic.tcp_rto_us * 1e6));
  m_snd.init(m_tcp_win_segs, false);

  /* The device's accesses to memory reach the cache (snoop, DDIO, staleness). */
  mem.on_dma = [this](uint64_t pa, uint32_t len, bool write) { dma_access(pa, len, write); };

  SC_HAS_PROCESS(CpuCore);
  SC_METHOD(msi_arrive);
  sensitive << m_msi_queue;
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
    sc_core::sc_spawn([this, c] { irq_core_thread(c); }, nm.c_str(), &opts);
  }
}

CpuCore::~CpuCore() {
  /* nk_kernel_destroy runs the driver's remove if it has not run, and that
   * needs this (no longer running) thread; a kernel left mid-run is leaked. */
  if (m_kernel && m_removed) nk_kernel_destroy(m_kernel);
}

void CpuCore::set_window(uint64_t start_ps, uint64_t end_ps) {
  m_win_start_ps = start_ps;
  m_win_end_ps = end_ps;
}

/* ---- time and accounting ------------------------------------------------ */

uint64_t CpuCore::local_time_ps() const { return now_ps() + m_cur->qk.local_ps(); }

void CpuCore::sync() {
  if (m_cur->qk.local_ps() != 0) qk_sync();
}

void CpuCore::load_sync() {
  if (m_cur->qk.local_ps() == 0) return;
  if (!try_skip_sync()) qk_sync();
}

void CpuCore::quantum_sync() {
  if (!try_skip_sync()) qk_sync();
}

bool CpuCore::try_skip_sync() {
  /* Waiting would let every other process run up to the local time first.
   * If none of them can touch memory, raise an interrupt or read the run's
   * counters by then (strictly before: same-time order is the kernel's),
   * the core sees exactly what it would after the wait. One core only (a
   * second core is another process sharing its state); not with --trace
   * (the file's order). */
  if (!quiet_until || m_ncores >= 2 || m_trace || m_msi_count != 0) return false;
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
  if (local <= now_ps() || local >= m_kq_until) return false;
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
    qk.reset(now_ps());
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
  const uint64_t now = now_ps();
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
  const uint64_t now = now_ps();
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

uint64_t CpuCore::rx_sequence_gaps() const {
  uint64_t g = 0;
  for (const nf_seq_track &t : m_flows) g += t.gaps;
  return g;
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
    spend(m_cfg.cpu.cached_access_cycles);
  } else if (m_mem.attr(pa) == NK_MEM_WC) {
    /* Merged into a write-combining buffer; a burst leaves when a line fills
     * or the oldest buffer is evicted for a new line. */
    count([](CpuCounters &c) { c.wc_stores++; });
    spend(m_cfg.cpu.cached_access_cycles);
    wc_bursts(m_wc.store(pa, size));
  } else {
    wc_bursts(m_wc.flush_all()); /* an uncached store drains the WC buffers first */
    count([](CpuCounters &c) { c.uncached_stores++; });
    m_mem.cpu_dram_access(local_time_ps(), m_cache.line_bytes()); /* buffered: no stall */
    spend(m_cfg.cpu.uncached_store_cycles);
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
  const uint64_t line = static_cast<uint64_t>(m_cfg.cpu.cache_line_bytes);
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
  const double cycles = static_cast<double>(lines) * m_cfg.cpu.cache_maint_cycles_per_line;
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
      hit_cycles += m_cfg.cpu.llc_hit_cycles;
      l->llc = false;
    } else {
      hit_cycles += m_cfg.cpu.cached_access_cycles;
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
  const uint64_t t = dma_time ? dma_time() : now_ps();
  const uint64_t line = m_cache.line_bytes();
  for (uint64_t a = m_cache.line_base(pa); a < pa + len; a += line) {
    Cache::Line *l = m_cache.find(a);
    if (m_cfg.memory.coherent_dma) {
      /* Coherent: the root complex snoops. A read gets the CPU's data
       * (memory holds it already); a write invalidates the line, or with
       * DDIO allocates it in the last-level cache with the new bytes. */
      if (!write) continue;
      if (m_cfg.memory.ddio) {
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
  const uint64_t t0 = now_ps();
  count([](CpuCounters &c) { c.mmio_reads++; });
  tlm::tlm_generic_payload &gp = mmio_payload(tlm::TLM_READ_COMMAND, off, 0);
  const uint32_t &buf = m_cur->mmio_buf;
  sc_time d = sc_core::SC_ZERO_TIME;
  suspend([this, &gp, &d] {
    mmio->b_transport(gp, d);
    if (d != sc_core::SC_ZERO_TIME) wait(d);
  });
  /* The core stalled for the whole round trip. */
  const uint64_t dur = now_ps() - t0;
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
  spend(m_cfg.cpu.mmio_write_cycles);
}

void CpuCore::barrier(nk_barrier b) {
  count([](CpuCounters &c) { c.barriers++; });
  spend(m_cfg.cpu.barrier_cycles);
  /* Store-ordering barriers (sfence/mfence; dmb st) send out the WC buffers; rmb does not. */
  if (b == NK_BARRIER_MB || b == NK_BARRIER_WMB || b == NK_BARRIER_DMA_WMB) wc_bursts(m_wc.flush_all());
}

void CpuCore::wc_bursts(unsigned n) {
  if (n == 0) return;
  count([n](CpuCounters &c) { c.wc_flushes += n; });
  for (unsigned i = 0; i < n; i++) m_mem.cpu_dram_access(local_time_ps(), WcBuffers::kLineBytes);
  spend(static_cast<double>(n) * m_cfg.cpu.wc_flush_cycles);
}

void CpuCore::iommu_map(uint64_t pa, uint64_t len, bool map) {
  if (!m_cfg.iommu.enabled || len == 0) return;
  if (map) {
    count([](CpuCounters &c) { c.iommu_maps++; });
    spend(m_cfg.iommu.map_cycles, m_prof_iommu_map);
    return;
  }
  count([](CpuCounters &c) { c.iommu_unmaps++; });
  spend(m_cfg.iommu.unmap_cycles, m_prof_iommu_unmap);
  /* Strict mode: the unmap returns once the IOTLB invalidation is done, so
   * it takes effect at the core's time; no DMA after it uses the old entry. */
  sync();
  m_mem.iommu_invalidate(pa, len);
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

void CpuCore::host_rx(uint64_t pa, uint32_t len) {
  if (!check_range(pa, len, "host_rx")) return;
  nf_header hdr;
  const nf_verdict v = nf_check(m_bytes + pa, len, static_cast<uint64_t>(m_cfg.run.seed), &hdr);
  if (v != NF_OK) {
    char msg[240];
    std::snprintf(msg, sizeof msg, "host received a corrupted frame at 0x%" PRIx64 " (%" PRIu32 " B): %s", pa, len,
                  nf_verdict_str(v));
    violation(msg);
    return;
  }
  /* Causality: time is monotonic, so a frame cannot reach the host stack
   * before the wire peer sent it. */
  if (hdr.ts_ps > local_time_ps()) {
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  "host received flow %" PRIu32 " frame %" PRIu64 " at %.3f ns, before it was sent (%.3f ns): "
                  "simulated time ran backwards",
                  hdr.flow, hdr.seq, static_cast<double>(local_time_ps()) / 1000.0,
                  static_cast<double>(hdr.ts_ps) / 1000.0);
    violation(msg);
    return;
  }
  if (m_tcp && nf_is_ack(&hdr)) {
    nf_sack sack;
    nf_ack_sack(m_bytes + pa, len, &sack);
    if (!m_sock_owned)
      tcp_ack_received(hdr, sack);
    else if (m_ack_backlog.size() < kAckBacklog) /* full: dropped, as beyond Linux's backlog limit */
      m_ack_backlog.push_back(BackloggedAck{hdr, sack});
    const uint64_t ack_bytes = static_cast<uint64_t>(len) + NF_FCS_LEN;
    count_at(hdr.ts_ps, [ack_bytes](CpuCounters &c) {
      c.rx_frames++;
      c.rx_frame_bytes += ack_bytes;
      c.tcp_acks_received++;
    });
    return;
  }
  if (hdr.flow >= m_flows.size()) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "host received a frame of flow %" PRIu32 "; the sink tracks flows below %zu",
                  hdr.flow, m_flows.size());
    violation(msg);
    return;
  }
  nf_seq_track &t = m_flows[hdr.flow];
  const uint64_t expected = t.next_seq;
  if (!nf_seq_accept(&t, hdr.seq)) {
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  "host received flow %" PRIu32 " frame %" PRIu64 " out of order (expected %" PRIu64
                  " or later): reordered or duplicated",
                  hdr.flow, hdr.seq, expected);
    violation(msg);
    return;
  }
  if (m_tcp && hdr.seq != expected) {
    /* TCP delivers every segment in order: the stack dropped out-of-order ones. */
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  "host received TCP flow %" PRIu32 " segment %" PRIu64 " but expected %" PRIu64
                  ": the stack delivered a gap",
                  hdr.flow, hdr.seq, expected);
    violation(msg);
    return;
  }
  /* A frame belongs to the measurement window by when the wire peer sent it
   * (its timestamp), not by when a NAPI batch happened to deliver it: with
   * batched delivery a window edge can fall in the middle of a backlog, and
   * counting by delivery time could report more than the line carried. A
   * frame sent inside the window and delivered during the drain counts. */
  const uint64_t bytes = static_cast<uint64_t>(len) + NF_FCS_LEN;
  count_at(hdr.ts_ps, [bytes](CpuCounters &c) {
    c.rx_frames++;
    c.rx_frame_bytes += bytes;
  });
  /* ... and, as iperf reports it, by when the stack received it: under
   * overload a backlog built in the window but delivered in the drain does
   * not count here. */
  count([bytes](CpuCounters &c) { c.rx_goodput_bytes += bytes; });
}

void CpuCore::tcp_ack_received(const nf_header &h, const nf_sack &sack) {
  const uint32_t flow = nf_flow_id(&h);
  if (flow != 0 || h.seq > m_snd.max()) {
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  "host received an ACK of flow %" PRIu32 " up to segment %" PRIu64
                  "; the host sends flow 0 and has sent %" PRIu64 " segments",
                  flow, h.seq, m_snd.max());
    violation(msg);
    return;
  }
  if (m_snd.on_ack(h.seq, sack) == TcpSackSender::Ack::kProgress) m_tcp_progress_ps = local_time_ps();
}

bool CpuCore::send_acks() {
  /* spread: one core sends the queue at a time (it sends every ACK queued
   * meanwhile too); a second sender would send the head twice. */
  if (m_ack_sender >= 0) return true;
  m_ack_sender = cur_core();
  const bool ok = send_acks_locked();
  m_ack_sender = -1;
  return ok;
}

bool CpuCore::send_acks_locked() {
  while (!m_violated && nk_kernel_ack_peek(m_kernel, nullptr, nullptr)) {
    /* The ACK with its SACK blocks; popped once the driver took it. */
    const int rc = nk_kernel_xmit_ack(m_kernel);
    check_fault();
    if (rc == NETDEV_TX_BUSY) return false;
    if (rc != NETDEV_TX_OK) {
      char msg[96];
      std::snprintf(msg, sizeof msg, "nk_kernel_xmit of an ACK failed with %d", rc);
      violation(msg);
      return true;
    }
    count([](CpuCounters &c) {
      c.tx_frames++;
      c.tcp_acks_sent++;
    });
  }
  return true;
}

/* ---- interrupts and the main loop --------------------------------------- */

void CpuCore::raise_msi(uint32_t data) {
  /* The interrupt controller decodes the MSI data word as the vector number
   * (what nk_msi_data programs into the device). */
  if (data >= static_cast<uint32_t>(kMaxVectors)) {
    char msg[120];
    std::snprintf(msg, sizeof msg, "MSI with data 0x%" PRIx32 " names no interrupt vector (0..%d)", data,
                  kMaxVectors - 1);
    if (on_violation) on_violation(name(), msg, static_cast<double>(now_ps()) / 1000.0);
    return;
  }
  if (!(m_irq_raised & (1ull << data))) {
    m_irq_raised |= 1ull << data;
    m_irq_arrival_ps[data] = now_ps();
  }
  if (m_msi_ps == 0) {
    m_irq_pending |= 1ull << data;
    irq_event(irq_core(static_cast<int>(data))).notify();
    note_activity();
    return;
  }
  /* Through the interrupt controller: the same latency for every MSI, so
   * they reach the core in arrival order. */
  if (m_msi_count == kMsiRing) {
    char msg[120];
    std::snprintf(msg, sizeof msg, "more than %u MSIs in flight to the core at once", kMsiRing);
    if (on_violation) on_violation(name(), msg, static_cast<double>(now_ps()) / 1000.0);
    return;
  }
  m_msi_ring[(m_msi_head + m_msi_count++) % kMsiRing] = data;
  m_msi_queue.notify(ps(m_msi_ps));
  note_activity();
}

void CpuCore::msi_arrive() {
  if (m_msi_count == 0) return;
  const uint32_t data = m_msi_ring[m_msi_head];
  m_msi_head = (m_msi_head + 1) % kMsiRing;
  m_msi_count--;
  m_irq_pending |= 1ull << data;
  irq_event(irq_core(static_cast<int>(data))).notify();
  note_activity();
}

void CpuCore::deliver_irqs() {
  const uint64_t mine = my_vectors();
  while (m_irq_pending & mine) {
    const int vec = __builtin_ctzll(m_irq_pending & mine);
    m_irq_pending &= ~(1ull << vec);
    m_irq_raised &= ~(1ull << vec);
    /* Interrupt latency: from the MSI reaching memory to the kernel taking it
     * (controller latency plus whatever the core was busy with). */
    const uint64_t t = local_time_ps();
    const uint64_t lat = t > m_irq_arrival_ps[vec] ? t - m_irq_arrival_ps[vec] : 0;
    count([lat](CpuCounters &c) {
      c.irqs++;
      c.irq_latency_ps += lat;
      c.irq_latency_max_ps = std::max(c.irq_latency_max_ps, lat);
    });
    nk_kernel_irq(m_kernel, vec);
    check_fault();
  }
}

void CpuCore::timer_arm(int id, uint64_t delay_ns) {
  if (id < 0 || id >= NK_TIMER_MAX) {
    char msg[96];
    std::snprintf(msg, sizeof msg, "kernel armed timer %d; the core has timers 0..%d", id, NK_TIMER_MAX - 1);
    violation(msg);
    return;
  }
  if (delay_ns == NK_TIMER_CANCEL) {
    m_timer_due_ps[id] = UINT64_MAX;
    return;
  }
  const uint64_t t = local_time_ps();
  const uint64_t d = delay_ns > (UINT64_MAX - t) / 1000 ? UINT64_MAX - 1 : t + delay_ns * 1000;
  m_timer_due_ps[id] = d;
  /* Core 0 runs the timers. Armed from another core (stmmac's TX timer from
   * the sender's xmit), the expiry must reach core 0, which may be idle
   * until its next interrupt: wake it then (a needless wake is harmless,
   * its loop looks again). */
  if (m_ncores >= 2 && m_cur != &m_cores[0] && d != UINT64_MAX - 1) {
    m_irq_event.notify(ps(d - now_ps()));
    note_activity();
  }
}

uint64_t CpuCore::next_timer_ps() const {
  uint64_t due = UINT64_MAX;
  for (uint64_t d : m_timer_due_ps) due = std::min(due, d);
  return due;
}

bool CpuCore::run_timers(uint64_t t_ps) {
  bool ran = false;
  for (;;) {
    int id = -1;
    for (int i = 0; i < NK_TIMER_MAX; i++)
      if (m_timer_due_ps[i] <= t_ps && (id < 0 || m_timer_due_ps[i] < m_timer_due_ps[id])) id = i;
    if (id < 0) return ran;
    /* Like an interrupt: taken between work items, at or after its expiry;
     * the callback may re-arm it (a later expiry, not run in this pass). */
    m_timer_due_ps[id] = UINT64_MAX;
    nk_kernel_timer(m_kernel, id);
    check_fault();
    ran = true;
    if (m_violated) return ran;
  }
}

void CpuCore::check_fault() {
  /* The kernel layer caught a driver bug; it runs no more driver code. */
  const char *f = nk_kernel_fault(m_kernel);
  if (f && f[0]) violation(std::string("kernel fault: ") + f);
}

void CpuCore::lock_kernel() {
  if (m_ncores < 2 || m_txq) return;
  lock(0);
}

void CpuCore::unlock_kernel() {
  if (m_ncores < 2 || m_txq) return;
  unlock(0);
}

std::string CpuCore::lock_name(unsigned id) const {
  return id == 0 ? std::string("the kernel lock") : "spinlock " + std::to_string(id);
}

void CpuCore::spin(unsigned id, bool acquire) {
  if (m_ncores < 2) return;
  if (id == 0 || id >= static_cast<unsigned>(kLocks)) {
    char msg[120];
    std::snprintf(msg, sizeof msg, "kernel used spinlock id %u; the platform has ids 1..%d", id, NK_SPIN_MAX);
    violation(msg);
    return;
  }
  if (acquire)
    lock(id);
  else
    unlock(id);
}

void CpuCore::lock(unsigned id) {
  LockState &l = m_locks[id];
  const int me = static_cast<int>(m_cur - m_cores.data());
  /* Decide at the core's true time: with its local time ahead, the lock's
   * state would be read out of order with the other core's. */
  sync();
  if (l.owner == me) {
    violation("core " + std::to_string(me) + " took " + lock_name(id) + ", which it already holds");
    return;
  }
  const uint64_t t0 = local_time_ps();
  if (l.owner >= 0 || !l.waiters.empty()) {
    /* Queue behind the earlier waiters (same time: lower core first) and
     * spin until a release hands the lock over (unlock). */
    const std::pair<uint64_t, int> w(t0, me);
    l.waiters.insert(std::upper_bound(l.waiters.begin(), l.waiters.end(), w), w);
    sc_core::sc_event &ev = m_lock_wake[static_cast<size_t>(me)];
    while (l.owner != me) suspend([this, &ev] { wait(ev); });
    /* The spin: from wanting the lock to the holder's release (its local
     * time, which may still be ahead of this core's). Busy cycles. */
    const uint64_t t1 = local_time_ps();
    if (t1 > t0) account(static_cast<double>(t1 - t0) / m_ps_per_cycle, t0, t1 - t0, m_prof_lock_wait);
    if (l.free_ps > t1) spend_ps(l.free_ps - t1, m_prof_lock_wait);
    return;
  }
  /* Free: take it, then spin until its release if that was at the
   * releaser's local time, still ahead (the spin may suspend this thread,
   * so the lock is taken first). */
  l.owner = me;
  if (++l.inside != 1) {
    violation(std::to_string(l.inside) + " cores hold " + lock_name(id) + " at once (lock broken)");
  }
  if (l.free_ps > t0) spend_ps(l.free_ps - t0, m_prof_lock_wait);
}

void CpuCore::unlock(unsigned id) {
  LockState &l = m_locks[id];
  const int me = static_cast<int>(m_cur - m_cores.data());
  if (l.owner != me) {
    violation("core " + std::to_string(me) + " released " + lock_name(id) +
              (l.owner < 0 ? std::string(", which no core holds") : ", held by core " + std::to_string(l.owner)));
    if (l.owner < 0) return;
  }
  l.inside--;
  l.owner = -1;
  l.free_ps = local_time_ps();
  if (l.waiters.empty()) return;
  /* Hand it to the first waiter, which resumes at this core's local time. */
  const int next = l.waiters.front().second;
  l.waiters.erase(l.waiters.begin());
  l.owner = next;
  if (++l.inside != 1) {
    violation(std::to_string(l.inside) + " cores hold " + lock_name(id) + " at once (lock broken)");
  }
  m_lock_wake[static_cast<size_t>(next)].notify(ps(m_cur->qk.local_ps()));
  note_activity();
}

void CpuCore::sock_release() {
  m_sock_owned = false;
  /* release_sock: the ACKs that arrived while the socket was owned, in order. */
  for (const BackloggedAck &a : m_ack_backlog) tcp_ack_received(a.h, a.sack);
  m_ack_backlog.clear();
}

void CpuCore::kernel_work_done() {
  if (m_ncores < 2) return;
  m_kwork_gen++;
  m_app_event.notify(ps(m_cur->qk.local_ps()));
  note_activity();
}

void CpuCore::tcp_sent(uint64_t t, uint64_t tseq, bool rtx) {
  if (m_snd.una() == m_snd.max()) m_tcp_progress_ps = t; /* the RTO runs from the first unacknowledged segment */
  if (rtx) count([](CpuCounters &c) { c.tcp_retransmits++; });
  m_snd.sent(tseq, rtx);
  m_tcp_inflight_max = std::max(m_tcp_inflight_max, (m_snd.max() - m_snd.una()) * m_tcp_seg_payload);
}

bool CpuCore::sndbuf_wait(bool *waiting) {
  if (m_sndbuf == 0) return false;
  const uint64_t wmem = nk_kernel_sk_wmem(m_kernel);
  if (*waiting) {
    if (2 * wmem > m_sndbuf) return true;
    *waiting = false;
  }
  if (wmem < m_sndbuf) return false;
  *waiting = true;
  count([](CpuCounters &c) { c.tx_sndbuf_waits++; });
  return true;
}

double CpuCore::app_interval_ps() const {
  if (m_cfg.traffic.rate_gbps > 0) return m_cfg.traffic.frame_bytes * 8.0 * 1000.0 / m_cfg.traffic.rate_gbps;
  if (m_sndbuf > 0) return 0;
  return (m_cfg.traffic.frame_bytes + 20) * 8.0 * 1000.0 / m_cfg.nic.line_rate_gbps;
}

void CpuCore::app_xmit_done(int rc, uint64_t t, double interval_ps, uint64_t *seq, double *next_send_ps) {
  if (rc == NETDEV_TX_OK) {
    (*seq)++;
    count([](CpuCounters &c) { c.tx_frames++; });
    if (m_cfg.traffic.tx_pacing == NC_PACING_AVERAGE) {
      /* The average rate since the first frame (*seq is now 1 after it): a
       * late sender catches up back to back (iperf3 -b). */
      *next_send_ps = (*seq == 1 ? static_cast<double>(t) : *next_send_ps) + interval_ps;
      return;
    }
    /* Next frame one interval later, but no credit for time lost while
     * the core was busy elsewhere beyond the current frame. */
    *next_send_ps = std::max(*next_send_ps + interval_ps, static_cast<double>(t));
  } else if (rc == NETDEV_TX_BUSY) {
    count([](CpuCounters &c) { c.tx_busy++; });
  } else {
    char msg[96];
    std::snprintf(msg, sizeof msg, "nk_kernel_xmit failed with %d", rc);
    violation(msg);
  }
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
  while (!m_probed) {
    if (m_violated) return;
    suspend([this] { wait(m_probe_event | m_end_event); });
  }
  nk_kernel *k = m_kernel;
  const bool app = m_cfg.traffic.mode == NC_MODE_TX || m_cfg.traffic.mode == NC_MODE_BIDIR;
  const uint32_t frame_bytes = static_cast<uint32_t>(m_cfg.traffic.frame_bytes);
  const double interval_ps = app_interval_ps();
  bool sock_waiting = false; /* traffic.sndbuf_bytes: asleep until the socket has room */
  double next_send_ps = 0;
  uint64_t seq = 0;
  bool tx_blocked = false;
  uint64_t blocked_gen = 0; /* core 0's kernel work pass when the send got NETDEV_TX_BUSY */
  bool prepaid = false;     /* the stack cost of the frame to send is charged (it waits in the qdisc) */
  /* spread: this core's vectors and NET_RX softirq share it with the
   * application as on one core (kernel_main): a hard IRQ runs first, then
   * softirq and application by consumed cycles (CFS between ksoftirqd and
   * the task; a softirq newly raised starts level, so it runs on IRQ exit). */
  bool ack_blocked = false;
  double vr_softirq = 0, vr_app = 0;
  bool rx_was_ready = false, app_was_ready = false;
  int ran = 0; /* what the last iteration ran: 1 softirq work, 2 application */
  double busy_mark = 0;
  for (;;) {
    if (m_violated || m_removed) {
      sync();
      return;
    }
    const uint64_t t = local_time_ps();
    if (m_spread) {
      const double d = m_cur->busy_total - busy_mark;
      busy_mark = m_cur->busy_total;
      if (ran == 1) vr_softirq += d;
      if (ran == 2) vr_app += d;
      ran = 1;
      if (irq_core_irqs(&tx_blocked, &ack_blocked)) continue;
      if (irq_core_acks(&ack_blocked)) continue;
      if (tx_blocked && m_kwork_gen != blocked_gen && !nk_kernel_tx_stopped(k)) tx_blocked = false;
      const bool rx_ready = nk_kernel_napi_pending(k);
      const bool send_ready = app && t < m_traffic_end_ps && !tx_blocked && !(m_tcp && !m_snd.can_send()) &&
                              !sndbuf_wait(&sock_waiting) && static_cast<double>(t) >= next_send_ps;
      const bool app_ready = nk_kernel_user_copy_pending(k) > 0 || send_ready;
      if (rx_ready && !rx_was_ready) vr_softirq = std::max(vr_softirq, vr_app);
      if (app_ready && !app_was_ready) vr_app = std::max(vr_app, vr_softirq);
      rx_was_ready = rx_ready;
      app_was_ready = app_ready;
      if (rx_ready && (!app_ready || vr_softirq <= vr_app)) {
        irq_core_softirq(&ack_blocked);
        if (tx_blocked && m_kwork_gen != blocked_gen && !nk_kernel_tx_stopped(k)) tx_blocked = false;
        if (m_cur->qk.need_sync(now_ps())) qk_sync();
        continue;
      }
      ran = 2;
    }
    /* The reader copies what the softirq delivered (process context, no lock). */
    if (nk_kernel_user_copy_pending(k)) {
      nk_kernel_user_copy(k);
      if (m_cur->qk.need_sync(now_ps())) qk_sync();
      continue;
    }
    if (tx_blocked && m_kwork_gen != blocked_gen && !nk_kernel_tx_stopped(k)) tx_blocked = false;
    bool tcp_closed = false;
    if (m_tcp && app && t < m_traffic_end_ps) {
      if (m_snd.una() < m_snd.max() && t >= m_tcp_progress_ps + m_tcp_rto_ps) {
        m_snd.on_rto();
        m_tcp_progress_ps = t;
      }
      tcp_closed = !m_snd.can_send();
    }
    const bool app_active = app && t < m_traffic_end_ps && !tx_blocked && !tcp_closed && !sndbuf_wait(&sock_waiting);
    if (app_active && static_cast<double>(t) >= next_send_ps) {
      /* The stack's work runs outside the kernel lock, then the driver's xmit inside it
       * (cpu.locking txq: no kernel lock; the xmit takes the TX queue lock). */
      if (!prepaid) {
        nk_kernel_stack_tx(k, frame_bytes);
        prepaid = true;
      }
      lock_kernel();
      if (m_removed || m_violated || m_removing) {
        unlock_kernel();
        continue;
      }
      /* txq: core 0 runs meanwhile; its ACK processing waits for the socket. */
      if (m_txq && m_tcp) sock_lock();
      m_in_kernel++;
      bool rtx = false;
      const uint64_t tseq = m_tcp ? m_snd.peek(&rtx) : 0;
      /* udp: frame n is flow n mod traffic.flows (as the wire peer's), so flows spread over TX queues */
      const int rc = nk_kernel_xmit_prepared(k, frame_bytes, m_tcp ? 0 : static_cast<uint32_t>(seq % m_tx_flows),
                                             m_tcp ? tseq : seq / m_tx_flows);
      check_fault();
      m_in_kernel--;
      if (m_removing && m_in_kernel == 0) {
        m_app_out_event.notify(ps(m_cur->qk.local_ps()));
        note_activity();
      }
      unlock_kernel();
      if (rc == NETDEV_TX_OK && m_tcp) tcp_sent(t, tseq, rtx);
      if (m_sock_owned) sock_release();
      app_xmit_done(rc, t, interval_ps, &seq, &next_send_ps);
      if (rc == NETDEV_TX_OK) {
        prepaid = false;
      } else if (rc == NETDEV_TX_BUSY) {
        tx_blocked = true;
        blocked_gen = m_kwork_gen;
      }
      if (m_cur->qk.need_sync(now_ps())) qk_sync();
      continue;
    }
    /* Idle: wait for core 0's kernel work, the next send or an RTO. */
    sync();
    const uint64_t now = now_ps();
    uint64_t wake = UINT64_MAX;
    if (app_active) wake = std::min(wake, static_cast<uint64_t>(std::ceil(next_send_ps)));
    if (tcp_closed && m_snd.una() < m_snd.max()) wake = std::min(wake, m_tcp_progress_ps + m_tcp_rto_ps);
    if (app && t < m_traffic_end_ps) wake = std::min(wake, m_traffic_end_ps);
    if (wake <= now) continue;
    if (m_spread) {
      /* Its own vectors wake it too (one raised during the sync is pending already). */
      if (m_irq_pending & my_vectors()) continue;
      sc_core::sc_event &ev = irq_event(cur_core());
      if (wake == UINT64_MAX)
        suspend([this, &ev] { wait(m_app_event | ev); });
      else
        suspend([this, &ev, wake, now] { wait(ps(wake - now), m_app_event | ev); });
      continue;
    }
    if (wake == UINT64_MAX)
      suspend([this] { wait(m_app_event); });
    else
      suspend([this, wake, now] { wait(ps(wake - now), m_app_event); });
  }
}

void CpuCore::thread() {
  enter_core(0);
  if (m_program) {
    m_program(*this);
    sync();
    return;
  }
  kernel_main();
}

void CpuCore::finish() {
  sync();
  if (m_txq) {
    /* No kernel lock: the application's xmit must be out of the driver
     * before its remove (it enters no more once m_removing is set). */
    m_removing = true;
    while (m_in_kernel) suspend([this] { wait(m_app_out_event); });
  }
  lock_kernel();
  nk_kernel_remove(m_kernel);
  m_removed = true;
  unlock_kernel();
  kernel_work_done();
  char err[512] = "";
  const int rc = nk_kernel_check(m_kernel, err, sizeof err);
  sync();
  if (on_finished) on_finished(rc, err);
  note_activity();
}

void CpuCore::napi_hook(void *ctx, int index, int rx_queue, bool end, int work, int budget) {
  (void)rx_queue;
  CpuCore *c = static_cast<CpuCore *>(ctx);
  if (!c->m_trace || index < 0 || index >= NK_NAPI_TRACKS) return;
  const uint64_t t = c->local_time_ps();
  if (!end) {
    c->m_napi_start_ps[index] = t;
    return;
  }
  /* A NAPI context's polls run on the core whose softirq polls it: core 0,
   * or with spread the core that takes its vector. */
  const int core = c->cur_core();
  uint32_t &tid = c->m_napi_tid[static_cast<size_t>(core * NK_NAPI_TRACKS + index)];
  if (tid == 0) {
    char name[32];
    std::snprintf(name, sizeof name, "cpu%d.napi%d", core, index);
    tid = c->m_trace->track(name);
  }
  c->m_trace->poll(tid, c->m_napi_start_ps[index], t, work, budget);
}

uint64_t CpuCore::core_softirqs(int c) const {
  return c >= 0 && c < m_ncores ? m_cores[static_cast<size_t>(c)].softirqs_window : 0;
}

uint64_t CpuCore::core_napi_polls(int c) const {
  return c >= 0 && c < m_ncores ? m_cores[static_cast<size_t>(c)].napi_polls_window : 0;
}

uint64_t CpuCore::core_rx_queue_mask(int c) const {
  return m_spread && m_kernel ? nk_kernel_cpu_stats(m_kernel, c).rxq_mask : 0;
}

void CpuCore::count_softirq(uint64_t polls_before) {
  if (!m_spread) return;
  const uint64_t polls = nk_kernel_cpu_stats(m_kernel, cur_core()).napi_polls - polls_before;
  if (!in_window(local_time_ps())) return;
  m_cur->softirqs_window++;
  m_cur->napi_polls_window += polls;
}

bool CpuCore::enter_irq_kernel() {
  lock_kernel();
  if (m_removed || m_violated || m_removing) {
    unlock_kernel();
    return false;
  }
  m_in_kernel++;
  return true;
}

void CpuCore::leave_irq_kernel() {
  m_in_kernel--;
  if (m_removing && m_in_kernel == 0) {
    m_app_out_event.notify(ps(m_cur->qk.local_ps()));
    note_activity();
  }
  unlock_kernel();
}

bool CpuCore::irq_core_irqs(bool *tx_blocked, bool *ack_blocked) {
  if (!(m_irq_pending & my_vectors())) return false;
  if (enter_irq_kernel()) {
    deliver_irqs();
    leave_irq_kernel();
  } else {
    m_irq_pending &= ~my_vectors(); /* the driver is being removed: nothing takes them */
  }
  kernel_work_done();
  if (tx_blocked && *tx_blocked && !nk_kernel_tx_stopped(m_kernel)) *tx_blocked = false;
  if (*ack_blocked && !nk_kernel_tx_stopped(m_kernel)) *ack_blocked = false;
  return true;
}

void CpuCore::irq_core_softirq(bool *ack_blocked) {
  if (!enter_irq_kernel()) return;
  count([](CpuCounters &c) { c.softirqs++; });
  const uint64_t polls = nk_kernel_cpu_stats(m_kernel, cur_core()).napi_polls;
  nk_kernel_softirq(m_kernel);
  check_fault();
  count_softirq(polls);
  /* The TCP receiver's ACKs go out from the softirq, after the poll. */
  if (m_tcp && !*ack_blocked && !send_acks()) *ack_blocked = true;
  leave_irq_kernel();
  kernel_work_done();
  if (*ack_blocked && !nk_kernel_tx_stopped(m_kernel)) *ack_blocked = false;
}

bool CpuCore::irq_core_acks(bool *ack_blocked) {
  if (!m_tcp || *ack_blocked || m_ack_sender >= 0 || !nk_kernel_ack_peek(m_kernel, nullptr, nullptr)) return false;
  if (enter_irq_kernel()) {
    if (!send_acks()) *ack_blocked = true;
    leave_irq_kernel();
  }
  kernel_work_done();
  if (m_cur->qk.need_sync(now_ps())) qk_sync();
  return true;
}

void CpuCore::irq_core_thread(int c) {
  enter_core(c);
  while (!m_probed) {
    if (m_violated) return;
    suspend([this] { wait(m_probe_event | m_end_event); });
  }
  bool ack_blocked = false; /* tcp: an ACK got NETDEV_TX_BUSY; retry after kernel work */
  for (;;) {
    if (m_violated || m_removed || m_removing) {
      sync();
      return;
    }
    if (irq_core_irqs(nullptr, &ack_blocked)) continue;
    if (irq_core_acks(&ack_blocked)) continue;
    if (nk_kernel_napi_pending(m_kernel)) {
      irq_core_softirq(&ack_blocked);
      /* Let the rest of the model catch up between polls. */
      if (m_cur->qk.need_sync(now_ps())) qk_sync();
      continue;
    }
    /* Idle: wait for one of its vectors (or, with ACKs waiting, for any
     * core's kernel work that may have woken the TX queue). */
    sync();
    if ((m_irq_pending & my_vectors()) || nk_kernel_napi_pending(m_kernel)) continue; /* raised during the sync */
    sc_core::sc_event &ev = irq_event(c);
    if (m_tcp && nk_kernel_ack_peek(m_kernel, nullptr, nullptr))
      suspend([this, &ev] { wait(ev | m_app_event | m_end_event); });
    else
      suspend([this, &ev] { wait(ev | m_end_event); });
  }
}

void CpuCore::kernel_main() {
  m_end_event.notify(ps(m_end_ps - now_ps()));
  note_activity();
  char err[512] = "";
  m_kernel = nk_kernel_create(&m_platform, &m_cfg, err, sizeof err);
  if (!m_kernel) {
    violation(std::string("kernel create failed: ") + err);
    return;
  }
  if (nk_driver_probe(m_kernel, err, sizeof err) != 0) {
    violation(std::string("driver probe failed: ") + err);
    return;
  }
  check_fault();
  m_probed = true;
  m_probe_event.notify(ps(m_cur->qk.local_ps()));
  note_activity();
  m_trace = TraceWriter::global();
  if (m_trace) nk_kernel_set_napi_hook(m_kernel, &CpuCore::napi_hook, this);

  /* The host application: frames of traffic.frame_bytes, flow 0, paced at
   * traffic.rate_gbps frame bits per second, or back to back at the line
   * rate with preamble and inter-frame gap (20 B) when it is 0. With
   * several cores it runs on its own (app_thread). */
  const bool app = m_ncores < 2 && (m_cfg.traffic.mode == NC_MODE_TX || m_cfg.traffic.mode == NC_MODE_BIDIR);
  const uint32_t frame_bytes = static_cast<uint32_t>(m_cfg.traffic.frame_bytes);
  const double interval_ps = app_interval_ps();
  bool sock_waiting = false; /* traffic.sndbuf_bytes: asleep until the socket has room */
  double next_send_ps = 0;
  uint64_t seq = 0;
  bool tx_blocked = false; /* got NETDEV_TX_BUSY; retry after the next interrupt work */
  bool ack_blocked = false; /* tcp: an ACK got NETDEV_TX_BUSY; the same */
  bool end_reached = false;
  double vr_softirq = 0, vr_app = 0; /* CPU cycles each context has consumed (CFS vruntime) */
  bool rx_was_ready = false, app_was_ready = false;

  for (;;) {
    if (m_violated) {
      sync();
      return;
    }
    const uint64_t t = local_time_ps();
    if (t >= m_end_ps) {
      if (!end_reached) {
        end_reached = true;
        sync();
      }
      if (!drained || drained()) {
        finish();
        return;
      }
    }
    if (m_irq_pending & my_vectors()) {
      lock_kernel();
      deliver_irqs();
      unlock_kernel();
      kernel_work_done();
      if (tx_blocked && !nk_kernel_tx_stopped(m_kernel)) tx_blocked = false;
      if (ack_blocked && !nk_kernel_tx_stopped(m_kernel)) ack_blocked = false;
      continue;
    }
    if (next_timer_ps() <= t) {
      lock_kernel();
      run_timers(t);
      unlock_kernel();
      kernel_work_done();
      if (tx_blocked && !nk_kernel_tx_stopped(m_kernel)) tx_blocked = false;
      if (ack_blocked && !nk_kernel_tx_stopped(m_kernel)) ack_blocked = false;
      continue;
    }
    /* Softirq work (NAPI) and the application share the core by consumed
     * CPU time, as CFS shares it between ksoftirqd and the sending thread
     * under load: the one that has run less goes next; one that was not
     * runnable starts level with the other, banking no credit. */
    /* tcp: ACKs the stack queued and could not send yet (softirq context). */
    if (m_tcp && !ack_blocked && m_ack_sender < 0 && nk_kernel_ack_peek(m_kernel, nullptr, nullptr)) {
      const double before = busy_cycles(false);
      lock_kernel();
      if (!send_acks()) ack_blocked = true;
      unlock_kernel();
      kernel_work_done();
      vr_softirq += busy_cycles(false) - before;
      if (m_cur->qk.need_sync(now_ps())) qk_sync();
      continue;
    }
    /* tcp: the host sends lost segments (SACK recovery) or new data while
     * its window is open; with no ACK progress for tcp_rto_us every
     * segment not SACKed is lost (an ACK or a segment was lost). */
    bool tcp_closed = false;
    if (m_tcp && app && t < m_traffic_end_ps) {
      if (m_snd.una() < m_snd.max() && t >= m_tcp_progress_ps + m_tcp_rto_ps) {
        m_snd.on_rto();
        m_tcp_progress_ps = t;
      }
      tcp_closed = !m_snd.can_send();
    }
    const bool rx_ready = nk_kernel_napi_pending(m_kernel);
    const bool app_active = app && t < m_traffic_end_ps && !tx_blocked && !tcp_closed && !sndbuf_wait(&sock_waiting);
    const bool app_ready = app_active && static_cast<double>(t) >= next_send_ps;
    if (rx_ready && !rx_was_ready) vr_softirq = std::max(vr_softirq, vr_app);
    if (app_ready && !app_was_ready) vr_app = std::max(vr_app, vr_softirq);
    rx_was_ready = rx_ready;
    app_was_ready = app_ready;
    if (rx_ready && (!app_ready || vr_softirq <= vr_app)) {
      const double before = busy_cycles(false);
      count([](CpuCounters &c) { c.softirqs++; });
      lock_kernel();
      const uint64_t polls = m_spread ? nk_kernel_cpu_stats(m_kernel, 0).napi_polls : 0;
      nk_kernel_softirq(m_kernel);
      check_fault();
      count_softirq(polls);
      /* The TCP receiver's ACKs go out from the softirq, after the poll. */
      if (m_tcp && !ack_blocked && !send_acks()) ack_blocked = true;
      unlock_kernel();
      kernel_work_done();
      vr_softirq += busy_cycles(false) - before;
      if (tx_blocked && !nk_kernel_tx_stopped(m_kernel)) tx_blocked = false;
      if (ack_blocked && !nk_kernel_tx_stopped(m_kernel)) ack_blocked = false;
      /* Let the rest of the model catch up between polls. */
      if (m_cur->qk.need_sync(now_ps())) qk_sync();
      continue;
    }
    if (app_ready) {
      const double before = busy_cycles(false);
      bool rtx = false;
      const uint64_t tseq = m_tcp ? m_snd.peek(&rtx) : 0;
      /* udp: frame n is flow n mod traffic.flows (as the wire peer's), so flows spread over TX queues */
      const int rc = nk_kernel_xmit(m_kernel, frame_bytes, m_tcp ? 0 : static_cast<uint32_t>(seq % m_tx_flows),
                                    m_tcp ? tseq : seq / m_tx_flows);
      check_fault();
      vr_app += busy_cycles(false) - before;
      if (rc == NETDEV_TX_OK && m_tcp) tcp_sent(t, tseq, rtx);
      app_xmit_done(rc, t, interval_ps, &seq, &next_send_ps);
      /* Queue stopped or no skb free: retry once interrupt work has run. */
      if (rc == NETDEV_TX_BUSY) tx_blocked = true;
      if (m_cur->qk.need_sync(now_ps())) qk_sync();
      continue;
    }
    /* Idle: wait for an interrupt, the next send, or the end of the run. */
    sync();
    const uint64_t now = now_ps();
    /* Past the end with work still in flight: look again every microsecond
     * (frames leaving on the wire need no interrupt to finish). */
    uint64_t wake = end_reached ? now + kDrainPollPs : UINT64_MAX;
    if (app_active) wake = std::min(wake, static_cast<uint64_t>(std::ceil(next_send_ps)));
    if (tcp_closed && m_snd.una() < m_snd.max()) wake = std::min(wake, m_tcp_progress_ps + m_tcp_rto_ps);
    wake = std::min(wake, next_timer_ps()); /* a kernel timer expires */
    if (wake <= now) continue;
    /* A timeout left pending when the interrupt comes first stays in the
     * kernel's timed queue until it expires: only near ones are used; the
     * end of the run is an event notified once. */
    if (wake == UINT64_MAX)
      suspend([this] { wait(m_irq_event | m_end_event); });
    else
      suspend([this, wake, now] { wait(ps(wake - now), m_irq_event | m_end_event); });
  }
}

}  // namespace nicsim
