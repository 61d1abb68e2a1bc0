// flow_control.cpp: credit accounting of one flow-control type with scheduled returns.
#include "pcie/flow_control.h"

#include <algorithm>
#include <stdexcept>

#include "common/trace.h"

namespace nicsim {

FcCredits::FcCredits(uint32_t hdr_limit, uint32_t data_limit) : m_hdr_limit(hdr_limit), m_data_limit(data_limit) {}

bool FcCredits::fits(uint32_t hu, uint32_t du, uint32_t hdr, uint32_t data) const {
  return (!m_hdr_limit || hu + hdr <= m_hdr_limit) && (!m_data_limit || du + data <= m_data_limit);
}

uint64_t FcCredits::ready_ps(uint64_t now_ps, uint32_t hdr, uint32_t data) {
  if (infinite()) return now_ps;
  if ((m_hdr_limit && hdr > m_hdr_limit) || (m_data_limit && data > m_data_limit))
    throw std::logic_error("a TLP needs more flow-control credits than the receiver advertises");
  while (!m_returns.empty() && m_returns.front().at_ps <= now_ps) {
    m_hdr_used -= m_returns.front().hdr;
    m_data_used -= m_returns.front().data;
    if (m_trace) trace_avail(m_returns.front().at_ps);
    m_returns.pop();
  }
  m_ready_at_ps = now_ps;
  if (fits(m_hdr_used, m_data_used, hdr, data)) return now_ps;
  uint32_t hu = m_hdr_used, du = m_data_used;
  for (size_t i = 0; i < m_returns.size(); i++) {
    const Return &r = m_returns.at(i);
    hu -= r.hdr;
    du -= r.data;
    if (fits(hu, du, hdr, data)) return r.at_ps;
  }
  throw std::logic_error("flow-control credits never come back");
}

void FcCredits::consume(uint32_t hdr, uint32_t data, uint64_t return_ps) {
  if (infinite()) return;
  if (!m_hdr_limit) hdr = 0;
  if (!m_data_limit) data = 0;
  m_last_return_ps = std::max(m_last_return_ps, return_ps);
  m_hdr_used += hdr;
  m_data_used += data;
  Return r;
  r.at_ps = m_last_return_ps;
  r.hdr = hdr;
  r.data = data;
  m_returns.push(r);
  if (m_trace) trace_avail(m_ready_at_ps);
}

void FcCredits::set_trace(TraceWriter *t, const char *hdr_name, const char *data_name) {
  m_trace = t;
  m_trace_name[0] = m_hdr_limit ? hdr_name : nullptr;
  m_trace_name[1] = m_data_limit ? data_name : nullptr;
  if (t) trace_avail(0); /* the advertised credits, from the start */
}

void FcCredits::trace_avail(uint64_t ps) {
  const int64_t avail[2] = {static_cast<int64_t>(m_hdr_limit) - m_hdr_used,
                            static_cast<int64_t>(m_data_limit) - m_data_used};
  for (int i = 0; i < 2; i++) {
    if (!m_trace_name[i] || avail[i] == m_traced[i]) continue;
    m_traced[i] = avail[i];
    m_trace->counter(m_trace_name[i], ps, static_cast<double>(avail[i]));
  }
}

}  // namespace nicsim
