// systemc_kernel_bench.cpp: the bare SystemC kernel micro-benchmarks of `nicsim bench`:
// processes that only notify and wait, counting their own activations, so the
// wall time per delta cycle is the kernel's own cost on this machine.
#include "sim/systemc_kernel_bench.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <systemc>

namespace {

struct KbenchInfo {
  const char *name, *desc;
};

const KbenchInfo kInfo[NICSIM_SC_BENCH__COUNT] = {
    {"event_delta_threads", "two SC_THREADs ping-pong an event: notify(SC_ZERO_TIME), wait(event)"},
    {"event_timed_threads", "two SC_THREADs ping-pong an event: notify(1 ns), wait(event)"},
    {"timed_wait_thread", "one SC_THREAD: wait(1 ns) in a loop"},
    {"event_delta_methods", "two SC_METHODs ping-pong an event by static sensitivity: notify(SC_ZERO_TIME)"},
    {"timed_method", "one SC_METHOD: next_trigger(1 ns)"},
};

/* Every variant in one module; the constructor registers only the chosen
 * variant's processes. Each process body counts one activation per run. */
SC_MODULE(KernelBench) {
  sc_core::sc_event ev_a, ev_b;
  uint64_t count = 0;
  const uint64_t limit;
  const sc_core::sc_time delay;

  SC_HAS_PROCESS(KernelBench);
  KernelBench(sc_core::sc_module_name nm, int kind, uint64_t n)
      : sc_module(nm), limit(n),
        delay(kind == NICSIM_SC_BENCH_EVENT_TIMED_THREADS ? sc_core::sc_time(1, sc_core::SC_NS)
                                                        : sc_core::SC_ZERO_TIME) {
    switch (kind) {
    case NICSIM_SC_BENCH_EVENT_DELTA_THREADS:
    case NICSIM_SC_BENCH_EVENT_TIMED_THREADS:
      SC_THREAD(ping_thread);
      SC_THREAD(pong_thread);
      break;
    case NICSIM_SC_BENCH_TIMED_WAIT_THREAD:
      SC_THREAD(timed_thread);
      break;
    case NICSIM_SC_BENCH_EVENT_DELTA_METHODS:
      SC_METHOD(ping_method);
      sensitive << ev_a; /* runs once at initialisation too: the kick-off */
      SC_METHOD(pong_method);
      sensitive << ev_b;
      dont_initialize();
      break;
    case NICSIM_SC_BENCH_TIMED_METHOD:
      SC_METHOD(timed_method);
      break;
    default:
      break;
    }
  }

  /* Returns when the budget is spent; the other thread then waits forever
   * and the simulation starves, which ends sc_start(). */
  void ping_thread() {
    for (;;) {
      if (count >= limit) return;
      ++count;
      ev_b.notify(delay);
      wait(ev_a);
    }
  }
  void pong_thread() {
    for (;;) {
      wait(ev_b);
      if (count >= limit) return;
      ++count;
      ev_a.notify(delay);
    }
  }
  void timed_thread() {
    const sc_core::sc_time ns(1, sc_core::SC_NS);
    for (;;) {
      if (count >= limit) return;
      ++count;
      wait(ns);
    }
  }
  void ping_method() {
    if (count >= limit) return;
    ++count;
    ev_b.notify(sc_core::SC_ZERO_TIME);
  }
  void pong_method() {
    if (count >= limit) return;
    ++count;
    ev_a.notify(sc_core::SC_ZERO_TIME);
  }
  void timed_method() {
    if (count >= limit) return; /* no next_trigger: never runs again */
    ++count;
    next_trigger(1, sc_core::SC_NS);
  }
};

/* SystemC reports: errors keep their default action (throw); nothing else shows. */
void quiet_handler(const sc_core::sc_report &rep, const sc_core::sc_actions &actions) {
  if (rep.get_severity() >= sc_core::SC_WARNING && (actions & sc_core::SC_DISPLAY))
    std::fprintf(stderr, "nicsim: systemc %s: %s\n", rep.get_msg_type(), rep.get_msg());
  sc_core::sc_report_handler::default_handler(rep, actions & ~(sc_core::SC_DISPLAY | sc_core::SC_LOG));
}

}  // namespace

extern "C" const char *nicsim_sc_bench_name(int kind) {
  return kind >= 0 && kind < NICSIM_SC_BENCH__COUNT ? kInfo[kind].name : nullptr;
}

extern "C" const char *nicsim_sc_bench_desc(int kind) {
  return kind >= 0 && kind < NICSIM_SC_BENCH__COUNT ? kInfo[kind].desc : nullptr;
}

extern "C" int nicsim_sc_bench_run(int kind, uint64_t activations, struct nicsim_sc_bench_result *out, char *err,
                                   size_t n) {
  static bool s_used = false;
  std::memset(out, 0, sizeof *out);
  if (kind < 0 || kind >= NICSIM_SC_BENCH__COUNT) {
    std::snprintf(err, n, "unknown kernel benchmark %d", kind);
    return -1;
  }
  if (s_used) {
    std::snprintf(err, n, "nicsim_sc_bench_run called twice in one process; SystemC elaborates once per process");
    return -1;
  }
  s_used = true;
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  sc_core::sc_report_handler::set_handler(quiet_handler);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  KernelBench *top = nullptr; /* never deleted: the threads stay suspended */
  try {
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    top = new KernelBench("kbench", kind, activations);
    const uint64_t d0 = sc_core::sc_delta_count();
    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    out->wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out->deltas = sc_core::sc_delta_count() - d0;
    out->sim_ns = static_cast<double>(sc_core::sc_time_stamp().value()) / 1000.0;
    out->activations = top->count;
  } catch (const sc_core::sc_report &r) {
    std::snprintf(err, n, "%s: %s", r.get_msg_type(), r.get_msg());
    return -1;
  } catch (const std::exception &e) {
    std::snprintf(err, n, "%s", e.what());
    return -1;
  }
  if (out->activations != activations) {
    std::snprintf(err, n, "kernel benchmark %s stopped after %llu of %llu activations", kInfo[kind].name,
                  static_cast<unsigned long long>(out->activations), static_cast<unsigned long long>(activations));
    return -1;
  }
  return 0;
}
