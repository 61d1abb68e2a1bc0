/*
 * sim_test_util.h: SystemC harness pieces for the host-side model tests: quiet
 * set-up with a 1 ps resolution, a scripted TLM initiator and a BAR0 register
 * target that logs what reaches it and when.
 */
#ifndef NICSIM_TESTS_SIM_SIM_TEST_UTIL_H
#define NICSIM_TESTS_SIM_SIM_TEST_UTIL_H

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <utility>
#include <vector>

#include "common/tlp.h"

namespace nicsim {
namespace test {

/* Quiet SystemC with the 1 ps resolution every nicsim model needs. Call first. */
inline void init_systemc() {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
}

/* Current simulated time in ps. */
inline uint64_t now_ps() { return sc_core::sc_time_stamp().value(); }
/* A time of v ps. */
inline sc_core::sc_time ps(uint64_t v) { return sc_core::sc_time::from_value(v); }

/* Modules are built on the heap and never destroyed: each test is its own
 * process, and SystemC threads may still be suspended when the test ends. */
template <class T, class... A>
T &make(A &&...a) {
  return *new T(std::forward<A>(a)...);
}

/* A thread running a script (set before sc_start), for probes and stimuli. */
class ScriptedThread : public sc_core::sc_module {
 public:
  std::function<void()> script;

  /* A thread named name. */
  explicit ScriptedThread(sc_core::sc_module_name name) : sc_module(name) {
    SC_HAS_PROCESS(ScriptedThread);
    SC_THREAD(run);
  }

 private:
  void run() {
    if (script) script();
  }
};

/* An initiator with two threads, each running a script (set before sc_start),
 * both issuing transfers on the one socket as a device's engines do. */
class ScriptedInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<ScriptedInitiator> socket;
  std::function<void(ScriptedInitiator &)> script;
  std::function<void(ScriptedInitiator &)> script2;

  /* An initiator named name. */
  explicit ScriptedInitiator(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
    SC_HAS_PROCESS(ScriptedInitiator);
    SC_THREAD(run);
    SC_THREAD(run2);
  }

  /* One blocking transfer of len bytes at addr; returns the response status. */
  tlm::tlm_response_status transfer(tlm::tlm_command cmd, uint64_t addr, uint8_t *data, uint32_t len,
                                    DmaPurpose purpose = DmaPurpose::Data) {
    tlm::tlm_generic_payload p;
    TlpExt ext;
    ext.purpose = purpose;
    p.set_extension(&ext);
    p.set_command(cmd);
    p.set_address(addr);
    p.set_data_ptr(data);
    p.set_data_length(len);
    p.set_streaming_width(len);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, d);
    p.clear_extension(&ext);
    return p.get_response_status();
  }

 private:
  void run() {
    if (script) script(*this);
  }
  void run2() {
    if (script2) script2(*this);
  }
};

/* A BAR0 target: 32-bit registers, a read answer delay, and a log of accesses. */
class RegTarget : public sc_core::sc_module {
 public:
  /* One access as the device saw it. */
  struct Access {
    uint64_t time_ps;
    bool write;
    uint64_t off;
    uint32_t val;
  };
  tlm_utils::simple_target_socket<RegTarget> socket;
  uint32_t regs[1024] = {};
  uint64_t read_delay_ps = 0; /* the device takes this long to answer a read, ps */
  std::vector<Access> log;

  /* A register file named name. */
  explicit RegTarget(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
    socket.register_b_transport(this, &RegTarget::b_transport);
  }

 private:
  void b_transport(tlm::tlm_generic_payload &p, sc_core::sc_time &) {
    const uint64_t off = p.get_address();
    uint32_t v = 0;
    if (p.is_write()) {
      std::memcpy(&v, p.get_data_ptr(), 4);
      regs[off / 4] = v;
      log.push_back({now_ps(), true, off, v});
    } else {
      if (read_delay_ps) wait(ps(read_delay_ps));
      v = regs[off / 4];
      std::memcpy(p.get_data_ptr(), &v, 4);
      log.push_back({now_ps(), false, off, v});
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

}  // namespace test
}  // namespace nicsim
#endif
