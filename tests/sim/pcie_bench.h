/*
 * pcie_bench.h: a PcieLink between a scripted device and a scripted CPU, with
 * real HostMemory and a logging BAR0, plus the Gen1 x1 parameters whose
 * timings the PCIe tests compute by hand. Shared by test_pcie_link.cpp and
 * test_pcie_model.cpp.
 */
#ifndef NICSIM_TESTS_SIM_PCIE_BENCH_H
#define NICSIM_TESTS_SIM_PCIE_BENCH_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "memory/host_memory.h"
#include "pcie/pcie_link.h"
#include "sim_test_util.h"

namespace nicsim {
namespace test {

constexpr uint64_t kMem = 1ull << 20;     /* host memory of the bench, bytes */
constexpr uint64_t kMsi = 0xFEE00000ull;  /* MSI address, outside memory */

/* Gen1 x1 (4 ns per wire byte), 3DW headers, 100 ns each way, 200 ns root
 * complex. The hand-computed timings count TLPs only, so DLLPs and SKPs are
 * off unless a test turns them on. */
inline PcieParams gen1x1() {
  PcieParams p;
  p.gen = 1;
  p.lanes = 1;
  p.mps = 256;
  p.mrrs = 512;
  p.rcb = 64;
  p.addr_bits = 32;
  p.mem_size = kMem;
  p.latency_ps = 100000;
  p.rd_latency_ps = 200000;
  p.dllp = false;
  p.skp = false;
  return p;
}

/* The link between a scripted device and a scripted CPU, with host memory. */
struct Bench {
  HostMemory *mem;
  PcieLink *link;
  ScriptedInitiator *dev;
  ScriptedInitiator *cpu;
  RegTarget *regs;
  ScriptedThread *probe;
  std::vector<std::string> violations;
  std::vector<std::pair<uint64_t, uint32_t>> msis; /* (time ps, data) */

  explicit Bench(const PcieParams &p) {
    init_systemc();
    mem = &make<HostMemory>("mem", kMem, kMsi);
    link = &make<PcieLink>("pcie", p);
    dev = &make<ScriptedInitiator>("dev");
    cpu = &make<ScriptedInitiator>("cpu");
    regs = &make<RegTarget>("regs");
    probe = &make<ScriptedThread>("probe");
    dev->socket.bind(link->dev);
    cpu->socket.bind(link->host);
    link->mem.bind(mem->tgt);
    link->regs.bind(regs->socket);
    mem->on_msi = [this](uint32_t d) { msis.push_back({now_ps(), d}); };
    mem->on_violation = [this](const std::string &c, const std::string &m) { violations.push_back(c + ": " + m); };
    link->on_violation = mem->on_violation;
  }
  void run(uint64_t until_ps) { sc_core::sc_start(ps(until_ps)); }
};

/* Scripts b's device to write 1500 B of 0x77 at 0x1000 and then MSI vector
 * 3; at the MSI's arrival (recorded in b.msis) *data_there says whether both
 * ends of the data were in memory. */
inline void data_then_msi(Bench &b, bool *data_there) {
  *data_there = false;
  b.mem->on_msi = [&b, data_there](uint32_t d) {
    b.msis.push_back({now_ps(), d});
    *data_there = b.mem->data()[0x1000] == 0x77 && b.mem->data()[0x1000 + 1499] == 0x77;
  };
  b.dev->script = [](ScriptedInitiator &d) {
    std::vector<uint8_t> buf(1500, 0x77);
    d.transfer(tlm::TLM_WRITE_COMMAND, 0x1000, buf.data(), 1500);
    uint32_t vec = 3;
    d.transfer(tlm::TLM_WRITE_COMMAND, kMsi, reinterpret_cast<uint8_t *>(&vec), 4, DmaPurpose::Msi);
  };
}

}  // namespace test
}  // namespace nicsim
#endif
