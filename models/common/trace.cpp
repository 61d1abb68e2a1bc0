/* trace.cpp: the Chrome/Perfetto trace-event writer (see trace.h). */
#include "common/trace.h"

#include <cerrno>
#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstring>

namespace nicsim {
namespace {

TraceWriter *g_trace = nullptr;

/* Room kept below the size cap for the closing note and bracket. */
constexpr uint64_t kTailBytes = 256;

}  // namespace

TraceWriter::TraceWriter(std::FILE *f, bool owned, const Limits &lim) : m_f(f), m_owned(owned), m_lim(lim) {
  put("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  begin_event();
  put("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"nic\"}}");
}

TraceWriter *TraceWriter::global() { return g_trace; }

bool TraceWriter::open_global(const char *path) {
  if (g_trace) close_global();
  std::FILE *f = std::fopen(path, "w");
  if (!f) return false;
  g_trace = new TraceWriter(f, true, Limits());
  return true;
}

bool TraceWriter::close_global() { return finish_global(nullptr); }

void TraceWriter::start_global(std::FILE *f, const Limits &lim) {
  if (g_trace) close_global();
  g_trace = new TraceWriter(f, false, lim);
}

bool TraceWriter::finish_global(Report *r) {
  if (!g_trace) return true;
  bool ok = g_trace->finish(r);
  delete g_trace;
  g_trace = nullptr;
  return ok;
}

bool TraceWriter::finish(Report *r) {
  if (m_rep.truncated) {
    /* Say so in the trace itself, as a global instant at the first event left out. */
    begin_event();
    putf("{\"name\":\"trace truncated: size cap of %" PRIu64 " bytes reached\",\"ph\":\"i\",\"s\":\"g\","
         "\"pid\":1,\"tid\":0,\"ts\":",
         m_lim.max_bytes);
    put_us(m_rep.truncated_ps);
    put("}");
  }
  put("\n]}\n");
  bool ok = !m_failed && !std::ferror(m_f) && std::fflush(m_f) == 0;
  int e = errno;
  if (m_owned && std::fclose(m_f) != 0) ok = false, e = errno;
  if (!ok && e == 0) e = EIO;
  if (r) *r = m_rep;
  errno = ok ? 0 : e;
  return ok;
}

void TraceWriter::put(const char *s) {
  if (m_failed) return;
  const size_t n = std::strlen(s);
  if (std::fwrite(s, 1, n, m_f) != n) m_failed = true;
  m_rep.bytes += n;
}

void TraceWriter::putf(const char *fmt, ...) {
  if (m_failed) return;
  va_list ap;
  va_start(ap, fmt);
  const int n = std::vfprintf(m_f, fmt, ap);
  va_end(ap);
  if (n < 0) m_failed = true;
  else m_rep.bytes += static_cast<uint64_t>(n);
}

/* Writes ps as microseconds with six decimals (exact, no floating point). */
void TraceWriter::put_us(uint64_t ps) { putf("%" PRIu64 ".%06" PRIu64, ps / 1000000u, ps % 1000000u); }

bool TraceWriter::want(uint64_t start_ps, uint64_t end_ps) {
  if (m_failed || m_rep.truncated) return false;
  if (end_ps < m_lim.from_ps || start_ps >= m_lim.to_ps) return false;
  if (m_lim.max_bytes && m_rep.bytes + kTailBytes + 512 > m_lim.max_bytes) {
    m_rep.truncated = true;
    m_rep.truncated_ps = start_ps;
    return false;
  }
  m_rep.events++;
  return true;
}

void TraceWriter::begin_event() {
  if (!m_first) put(",\n");
  m_first = false;
}

uint32_t TraceWriter::track(const char *name) {
  uint32_t tid = m_next_tid++;
  m_names.emplace_back(name);
  m_named.push_back(false);
  return tid;
}

/* A track is named (thread_name, thread_sort_index) just before its first
 * event, so a trace names no track that stayed empty (the TX queues' tracks
 * of an RX-only run, say). */
void TraceWriter::name_track(uint32_t tid) {
  if (tid == 0 || tid > m_named.size() || m_named[tid - 1]) return;
  m_named[tid - 1] = true;
  begin_event();
  putf("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"args\":{\"name\":\"%s\"}}", tid,
       m_names[tid - 1].c_str());
  begin_event();
  putf("{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"args\":{\"sort_index\":%u}}", tid,
       tid);
}

void TraceWriter::complete(uint32_t tid, const char *name, uint64_t start_ps, uint64_t end_ps, uint64_t addr,
                           uint32_t len) {
  if (!want(start_ps, end_ps)) return;
  name_track(tid);
  begin_event();
  putf("{\"name\":\"%s\",\"cat\":\"dma\",\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":", name, tid);
  put_us(start_ps);
  put(",\"dur\":");
  put_us(end_ps >= start_ps ? end_ps - start_ps : 0);
  putf(",\"args\":{\"addr\":\"0x%" PRIx64 "\",\"len\":%u}}", addr, len);
}

void TraceWriter::poll(uint32_t tid, uint64_t start_ps, uint64_t end_ps, int work, int budget) {
  if (!want(start_ps, end_ps)) return;
  name_track(tid);
  begin_event();
  putf("{\"name\":\"napi_poll\",\"cat\":\"napi\",\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":", tid);
  put_us(start_ps);
  put(",\"dur\":");
  put_us(end_ps >= start_ps ? end_ps - start_ps : 0);
  putf(",\"args\":{\"work\":%d,\"budget\":%d}}", work, budget);
}

void TraceWriter::instant(uint32_t tid, const char *name, uint64_t ps) {
  if (!want(ps, ps)) return;
  name_track(tid);
  begin_event();
  putf("{\"name\":\"%s\",\"cat\":\"irq\",\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":%u,\"ts\":", name, tid);
  put_us(ps);
  put("}");
}

void TraceWriter::tlp(uint32_t tid, const char *type, uint64_t start_ps, uint64_t end_ps, uint64_t addr,
                      uint32_t len, int tag) {
  if (!want(start_ps, end_ps)) return;
  name_track(tid);
  begin_event();
  putf("{\"name\":\"%s\",\"cat\":\"tlp\",\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":", type, tid);
  put_us(start_ps);
  put(",\"dur\":");
  put_us(end_ps >= start_ps ? end_ps - start_ps : 0);
  putf(",\"args\":{\"len\":%u,\"addr\":\"0x%" PRIx64 "\"", len, addr);
  if (tag >= 0) putf(",\"tag\":%d", tag);
  put("}}");
}

void TraceWriter::dllp(uint32_t tid, const char *type, uint64_t start_ps, uint64_t end_ps) {
  if (!want(start_ps, end_ps)) return;
  name_track(tid);
  begin_event();
  putf("{\"name\":\"%s\",\"cat\":\"dllp\",\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":", type, tid);
  put_us(start_ps);
  put(",\"dur\":");
  put_us(end_ps >= start_ps ? end_ps - start_ps : 0);
  put("}");
}

void TraceWriter::counter(const char *name, uint64_t ps, double value) {
  if (!want(ps, ps)) return;
  begin_event();
  putf("{\"name\":\"%s\",\"cat\":\"counter\",\"ph\":\"C\",\"pid\":1,\"ts\":", name);
  put_us(ps);
  putf(",\"args\":{\"value\":%.10g}}", value);
}

TraceSampler *TraceWriter::sampler(const char *name, double scale) {
  m_samplers.emplace_back(new TraceSampler(this, name, scale));
  return m_samplers.back().get();
}

void TraceWriter::end_run(uint64_t end_ps) {
  (void)end_ps; /* the open interval is written as it stands (its rate over a whole interval) */
  for (auto &s : m_samplers)
    if (s->m_acc || s->m_nonzero) s->close(s->m_cur + 1);
}

void TraceSampler::close(uint64_t k) {
  const uint64_t S = m_t->m_lim.sample_ps;
  if (m_acc || m_nonzero) {
    m_t->counter(m_name.c_str(), m_cur * S, static_cast<double>(m_acc) * m_scale / static_cast<double>(S));
    m_nonzero = m_acc != 0;
  }
  if (m_nonzero && k > m_cur + 1) {
    m_t->counter(m_name.c_str(), (m_cur + 1) * S, 0);
    m_nonzero = false;
  }
  m_acc = 0;
  m_cur = k;
}

void TraceSampler::add(uint64_t ps, uint64_t amount) {
  const uint64_t k = ps / m_t->m_lim.sample_ps;
  if (k > m_cur) close(k);
  m_acc += amount;
}

void TraceSampler::add_span(uint64_t start_ps, uint64_t end_ps) {
  const uint64_t S = m_t->m_lim.sample_ps;
  while (start_ps < end_ps) {
    const uint64_t k = start_ps / S;
    if (k > m_cur) close(k);
    const uint64_t part = std::min(end_ps, (m_cur + 1) * S) - start_ps;
    m_acc += part;
    start_ps += part;
  }
}

}  // namespace nicsim

extern "C" int nicsim_trace_open(const char *path) {
  return nicsim::TraceWriter::open_global(path) ? 0 : -1;
}

extern "C" int nicsim_trace_close(void) {
  if (nicsim::TraceWriter::close_global()) return 0;
  if (errno == 0) errno = EIO;
  return -1;
}

/* Microseconds to picoseconds, saturating (a negative or NaN bound is 0). */
static uint64_t us_to_ps_sat(double us) {
  if (!(us > 0)) return 0;
  if (us >= 1.8e13) return UINT64_MAX;
  return static_cast<uint64_t>(us * 1e6 + 0.5);
}

extern "C" int nicsim_trace_start(std::FILE *f, double from_us, double to_us, uint64_t max_bytes) {
  if (!f) {
    errno = EINVAL;
    return -1;
  }
  nicsim::TraceWriter::Limits lim;
  lim.from_ps = us_to_ps_sat(from_us);
  lim.to_ps = to_us > 0 ? us_to_ps_sat(to_us) : UINT64_MAX;
  lim.max_bytes = max_bytes;
  nicsim::TraceWriter::start_global(f, lim);
  return 0;
}

extern "C" int nicsim_trace_set_detail(int tlp, double sample_us) {
  nicsim::TraceWriter *t = nicsim::TraceWriter::global();
  const uint64_t s = us_to_ps_sat(sample_us);
  if (!t || s == 0) {
    errno = EINVAL;
    return -1;
  }
  t->set_detail(tlp != 0, s);
  return 0;
}

extern "C" void nicsim_trace_end_run(uint64_t end_ps) {
  if (nicsim::TraceWriter *t = nicsim::TraceWriter::global()) t->end_run(end_ps);
}

extern "C" int nicsim_trace_finish(uint64_t *bytes, int *truncated, double *truncated_at_us) {
  nicsim::TraceWriter::Report r;
  const bool ok = nicsim::TraceWriter::finish_global(&r);
  if (bytes) *bytes = r.bytes;
  if (truncated) *truncated = r.truncated ? 1 : 0;
  if (truncated_at_us) *truncated_at_us = static_cast<double>(r.truncated_ps) / 1e6;
  if (ok) return 0;
  if (errno == 0) errno = EIO;
  return -1;
}
