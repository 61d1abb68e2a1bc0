// stats_results.cpp: statistics into nicsim_results, and the top's own registrations.
#include "sim/stats_results.h"

#include <systemc>

#include "cpu/cpu_core.h"
#include "mac/mac.h"
#include "nic/nic_device.h"
#include "sim/top_stats.h"
#include "traffic/wire_peer.h"

namespace nicsim {

namespace {

nicsim_metric_kind kind_of(stats::Kind k) { return static_cast<nicsim_metric_kind>(k); }

/* Columns by catalogue index, everything else as an extra. */
class ResultsSink : public stats::Sink {
 public:
  explicit ResultsSink(nicsim_results *res) : m_res(res) {}
  void value(const stats::Info &info, double v) override {
    const long id = info.extra ? -1 : nicsim_metric_find(info.name);
    if (id >= 0)
      nicsim_results_set(m_res, id, v);
    else if (nicsim_results_set_extra(m_res, info.name, info.unit, kind_of(info.kind), info.desc, v) != 0)
      m_dropped++;
  }
  void instance(const stats::Info &family, const char *name, const char *desc, double v) override {
    if (nicsim_results_set_extra(m_res, name, family.unit, kind_of(family.kind), desc, v) != 0) m_dropped++;
  }
  size_t dropped() const { return m_dropped; }

 private:
  nicsim_results *m_res;
  size_t m_dropped = 0;
};

}  // namespace

stats::Run run_facts(uint64_t warmup_ps, uint64_t duration_ps, uint64_t end_ps, double wall_s) {
  stats::Run run;
  run.win_ps = static_cast<double>(duration_ps - warmup_ps);
  run.end_ps = end_ps;
  run.events = sc_core::sc_delta_count();
  run.wall_s = wall_s;
  return run;
}

void add_run_stats(stats::Registry &r) {
  r.add(kRunStats, [](RunFacts &, stats::Edge) {});
}

void add_system_stats(stats::Registry &r, const NicDevice &nic, const CpuCore &cpu) {
  r.add(kSystemStats, [&nic, &cpu](SystemSnapshot &s, stats::Edge) {
    cpu.stats_snapshot(s.cpu);
    s.mac = nic.mac().counters();
    s.peer = nic.peer().counters();
  });
}

size_t fill_results(const stats::Registry &r, const stats::Run &run, nicsim_results *res) {
  nicsim_results_init(res);
  ResultsSink sink(res);
  r.emit(run, sink);
  return sink.dropped();
}

}  // namespace nicsim
