// sim.cpp: nicsim_simulate: sets SystemC up quietly, builds the top from the
// resolved config, runs it, checks the run's invariants and fills the metrics.
#include "sim/sim.h"

#include <chrono>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <algorithm>
#include <cmath>
#include <systemc>

#include "common/lookahead.h"
#include "sim/dma_bench_top.h"
#include "sim/model_params.h"
#include "sim/top.h"
#include "traffic/wire_peer.h"

namespace {

bool g_verbose = false;

/* SystemC reports: nothing may reach stdout. Warnings and (if verbose) info
 * go to stderr; errors keep their default action (throw). */
void report_handler(const sc_core::sc_report &rep, const sc_core::sc_actions &actions) {
  const bool show = rep.get_severity() >= sc_core::SC_WARNING || g_verbose;
  if (show && (actions & sc_core::SC_DISPLAY))
    std::fprintf(stderr, "nicsim: systemc %s: %s\n", rep.get_msg_type(), rep.get_msg());
  sc_core::sc_report_handler::default_handler(rep, actions & ~(sc_core::SC_DISPLAY | sc_core::SC_LOG));
}

void set_error(nicsim_sim_error *err, const char *component, double time_ns, const char *fmt, ...) {
  if (!err) return;
  std::snprintf(err->component, sizeof err->component, "%s", component);
  err->time_ns = time_ns;
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
}

/* A run whose metrics did not all fit the result table: its results would be
 * incomplete without saying so. Returns 1. */
int too_many_metrics(nicsim_sim_error *err, size_t dropped) {
  set_error(err, "top", static_cast<double>(sc_core::sc_time_stamp().value()) / 1000.0,
            "%zu metrics did not fit the result table (at most %d extras: NICSIM_MAX_EXTRA_METRICS in "
            "results/metrics.h); fewer cores, queues or profiled functions report fewer",
            dropped, NICSIM_MAX_EXTRA_METRICS);
  return 1;
}

/* Turns the outcome of a finished run into an error; returns 1 if there is one. */
int check_outcome(const nicsim::Top &top, const nicsim_config &cfg, nicsim_sim_error *err) {
  const nicsim::Top::Outcome &o = top.outcome();
  const double end_ns = (cfg.run.duration_us + cfg.run.drain_us) * 1000.0;
  if (o.violated) {
    set_error(err, o.component.c_str(), o.time_ns, "%s", o.msg.c_str());
    return 1;
  }
  if (!o.end_seen) {
    set_error(err, "top.cpu", static_cast<double>(sc_core::sc_time_stamp().value()) / 1000.0,
              "the CPU never reached the end of the drain (%.3f us): it is stuck waiting (an MMIO read "
              "that is never answered, or no event left to wake it)",
              end_ns / 1000.0);
    return 1;
  }
  /* Frames still in flight at the end of the drain that all finished later:
   * the drain was too short for this configuration and was extended
   * (sim.drain_extended_us); their final counts are what conservation checks. */
  const bool extended = (o.rx_in_flight > 0 || o.tx_in_flight > 0) && o.drained;
  const int64_t rx_left = extended ? o.rx_final : o.rx_in_flight;
  const int64_t tx_left = extended ? o.tx_final : o.tx_in_flight;
  if (rx_left < 0 || tx_left < 0) {
    set_error(err, "top", static_cast<double>(extended ? o.drained_ps : o.end_ps) / 1000.0,
              "more frames arrived than were sent (rx: %" PRId64 ", tx: %" PRId64
              " extra): frames were duplicated",
              -std::min<int64_t>(rx_left, 0), -std::min<int64_t>(tx_left, 0));
    return 1;
  }
  if (!extended && (o.rx_in_flight > 0 || o.tx_in_flight > 0)) {
    set_error(err, "top", static_cast<double>(o.end_ps) / 1000.0,
              "conservation: %" PRId64 " RX and %" PRId64 " TX frames were still in flight at the end of the "
              "drain (%" PRIu64 " inside the NIC) and had not finished %.3f us later, at the limit of the "
              "automatic drain extension (10 x run.drain_us, at least 10 ms): frames were lost "
              "(neither delivered nor counted as drops), or the host needs a longer run.drain_us",
              o.rx_in_flight, o.tx_in_flight, o.nic_in_flight,
              static_cast<double>(top.time_limit_ps() - o.end_ps) / 1e6);
    return 1;
  }
  if (!o.finished) {
    set_error(err, "top.cpu", end_ns, "the run drained but the driver was never removed");
    return 1;
  }
  const uint64_t tx_errors = top.nic.peer().counters().tx_errors;
  if (tx_errors) {
    set_error(err, "top.nic", end_ns,
              "the wire peer received %" PRIu64 " corrupted, duplicated or reordered TX frames", tx_errors);
    return 1;
  }
  if (o.check_rc != 0) {
    set_error(err, "top.cpu", end_ns, "kernel check after driver remove: %s", o.check_msg.c_str());
    return 1;
  }
  return 0;
}

/* workload.kind = dma-bench: the bench initiator, the link and host memory; no NIC, no CPU. */
int run_dma_bench(const nicsim_config &cfg, nicsim_results *res, nicsim_sim_error *err,
                  std::chrono::steady_clock::time_point wall0) {
  nicsim::DmaBenchTop *top = nullptr; /* never deleted, as the NIC top */
  try {
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    top = new nicsim::DmaBenchTop("top", cfg);
    sc_core::sc_start(sc_core::sc_time::from_value(top->time_limit_ps()));
    nicsim_trace_end_run(sc_core::sc_time_stamp().value());
  } catch (const sc_core::sc_report &r) {
    set_error(err, "systemc", static_cast<double>(sc_core::sc_time_stamp().value()) / 1000.0, "%s: %s",
              r.get_msg_type(), r.get_msg());
    return 1;
  } catch (const std::exception &e) {
    set_error(err, "sim", static_cast<double>(sc_core::sc_time_stamp().value()) / 1000.0, "%s", e.what());
    return 1;
  }
  if (const size_t dropped =
          top->fill_results(res, std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count()))
    return too_many_metrics(err, dropped);
  if (top->violated()) {
    set_error(err, top->component().c_str(), top->violation_time_ns(), "%s", top->message().c_str());
    return 1;
  }
  if (top->bench.stopped() < cfg.workload.outstanding) {
    set_error(err, "top.bench", static_cast<double>(top->time_limit_ps()) / 1000.0,
              "%u of %u dma-bench requests were still in flight at the end of the drain: run.drain_us = %g is "
              "too short",
              static_cast<unsigned>(cfg.workload.outstanding - top->bench.stopped()),
              static_cast<unsigned>(cfg.workload.outstanding), cfg.run.drain_us);
    return 1;
  }
  return 0;
}

}  // namespace

extern "C" int nicsim_simulate(const struct nicsim_config *cfg, struct nicsim_results *res,
                               struct nicsim_sim_error *err, int verbose) {
  static bool s_used = false;
  if (err) std::memset(err, 0, sizeof *err);
  if (s_used) {
    set_error(err, "sim", 0, "nicsim_simulate called twice in one process; SystemC elaborates once per process");
    return 1;
  }
  s_used = true;
  g_verbose = verbose != 0;
  const auto wall0 = std::chrono::steady_clock::now();

  /* Quiet SystemC: no banner, no info reports on stdout. */
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  sc_core::sc_report_handler::set_handler(report_handler);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);

  /* An unchecked config (an embedding program's) that breaks a rule of
   * the configuration or of a model is refused here, as a clear error;
   * the driver checks its own rules again at probe. */
  nc_error ce;
  if (nc_config_check(cfg, &ce) != 0 || nicsim::check_model_params(*cfg, &ce) != 0) {
    set_error(err, "config", 0, "%s%s%s%s", ce.msg, ce.hint[0] ? " (" : "", ce.hint, ce.hint[0] ? ")" : "");
    return 1;
  }

  if (cfg->workload.kind == NC_WORKLOAD_DMA_BENCH) return run_dma_bench(*cfg, res, err, wall0);

  /* Never deleted: the CPU thread may be suspended inside driver code at the
   * end (or the elaboration failed half-way); the modules go with the process. */
  nicsim::Top *top = nullptr;
  try {
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    top = new nicsim::Top("top", *cfg);
    if (verbose)
      std::fprintf(stderr, "nicsim: simulating %.1f us of traffic plus %.1f us of drain\n", cfg->run.duration_us,
                   cfg->run.drain_us);
    /* The RX method may act ahead up to, not at, the end of this sc_start
     * (common/lookahead.h): nothing it does then can be seen before. Not
     * with several cores under cpu.locking txq: their shared kernel state
     * (the skb pool) is used in the order the kernel resumes the cores,
     * and acting ahead changes that order for cores due at the same time
     * (docs/nic.md, "Lookahead"). */
    const bool txq_cores = cfg->cpu.cores >= 2 && cfg->cpu.locking == NC_LOCKING_TXQ;
    nicsim::set_lookahead_limit_ps(cfg->run.lookahead && !txq_cores ? top->time_limit_ps() : 0);
    sc_core::sc_start(sc_core::sc_time::from_value(top->time_limit_ps()));
    nicsim_trace_end_run(sc_core::sc_time_stamp().value());
  } catch (const sc_core::sc_report &r) {
    set_error(err, "systemc", static_cast<double>(sc_core::sc_time_stamp().value()) / 1000.0, "%s: %s",
              r.get_msg_type(), r.get_msg());
    return 1;
  } catch (const std::exception &e) {
    set_error(err, "sim", static_cast<double>(sc_core::sc_time_stamp().value()) / 1000.0, "%s", e.what());
    return 1;
  }

  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  const size_t dropped = top->fill_results(res, wall_s);
  const int rc = dropped ? too_many_metrics(err, dropped) : check_outcome(*top, *cfg, err);
  if (verbose)
    std::fprintf(stderr, "nicsim: %s after %.3f s wall, %" PRIu64 " delta cycles\n", rc ? "failed" : "done", wall_s,
                 static_cast<uint64_t>(sc_core::sc_delta_count()));
  return rc;
}
