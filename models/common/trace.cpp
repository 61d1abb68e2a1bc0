/* trace.cpp: the Chrome/Perfetto trace-event writer (see trace.h). */
#include "common/trace.h"

#include <cerrno>
#include <cinttypes>

namespace nicsim {
namespace {

TraceWriter *g_trace = nullptr;

/* Writes ps as microseconds with six decimals (exact, no floating point). */
void put_us(std::FILE *f, uint64_t ps) {
  std::fprintf(f, "%" PRIu64 ".%06" PRIu64, ps / 1000000u, ps % 1000000u);
}

}  // namespace

TraceWriter::TraceWriter(std::FILE *f) : m_f(f) {
  std::fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", m_f);
  begin_event();
  std::fputs("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"nic\"}}", m_f);
}

TraceWriter *TraceWriter::global() { return g_trace; }

bool TraceWriter::open_global(const char *path) {
  if (g_trace) close_global();
  std::FILE *f = std::fopen(path, "w");
  if (!f) return false;
  g_trace = new TraceWriter(f);
  return true;
}

bool TraceWriter::close_global() {
  if (!g_trace) return true;
  std::fputs("\n]}\n", g_trace->m_f);
  bool ok = !std::ferror(g_trace->m_f);
  if (std::fclose(g_trace->m_f) != 0) ok = false;
  delete g_trace;
  g_trace = nullptr;
  return ok;
}

void TraceWriter::begin_event() {
  if (!m_first) std::fputs(",\n", m_f);
  m_first = false;
}

uint32_t TraceWriter::track(const char *name) {
  uint32_t tid = m_next_tid++;
  begin_event();
  std::fprintf(m_f, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"args\":{\"name\":\"%s\"}}",
               tid, name);
  begin_event();
  std::fprintf(m_f, "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"args\":{\"sort_index\":%u}}",
               tid, tid);
  return tid;
}

void TraceWriter::complete(uint32_t tid, const char *name, uint64_t start_ps, uint64_t end_ps, uint64_t addr,
                           uint32_t len) {
  begin_event();
  std::fprintf(m_f, "{\"name\":\"%s\",\"cat\":\"dma\",\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":", name, tid);
  put_us(m_f, start_ps);
  std::fputs(",\"dur\":", m_f);
  put_us(m_f, end_ps >= start_ps ? end_ps - start_ps : 0);
  std::fprintf(m_f, ",\"args\":{\"addr\":\"0x%" PRIx64 "\",\"len\":%u}}", addr, len);
}

void TraceWriter::poll(uint32_t tid, uint64_t start_ps, uint64_t end_ps, int work, int budget) {
  begin_event();
  std::fprintf(m_f, "{\"name\":\"napi_poll\",\"cat\":\"napi\",\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":", tid);
  put_us(m_f, start_ps);
  std::fputs(",\"dur\":", m_f);
  put_us(m_f, end_ps >= start_ps ? end_ps - start_ps : 0);
  std::fprintf(m_f, ",\"args\":{\"work\":%d,\"budget\":%d}}", work, budget);
}

void TraceWriter::instant(uint32_t tid, const char *name, uint64_t ps) {
  begin_event();
  std::fprintf(m_f, "{\"name\":\"%s\",\"cat\":\"irq\",\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":%u,\"ts\":", name,
               tid);
  put_us(m_f, ps);
  std::fputs("}", m_f);
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
