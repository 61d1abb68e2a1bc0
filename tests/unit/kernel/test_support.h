// test_support.h: a kernel-layer instance on a counting platform with a
// small test config, shared by the kernel and driver unit tests.
#ifndef NICSIM_TESTS_KERNEL_TEST_SUPPORT_H
#define NICSIM_TESTS_KERNEL_TEST_SUPPORT_H

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "config/config.h"
#include "kernel/kernel.h"
#include "unit/kernel/counting_platform.h"

// Schema defaults with small rings and budget so tests run fast.
inline nicsim_config test_config() {
  nicsim_config c;
  nc_config_defaults(&c);
  c.nic.rx_ring_size = 64;
  c.nic.tx_ring_size = 64;
  c.driver.napi_budget = 16;
  c.traffic.mode = NC_MODE_BIDIR;
  return c;
}

// A kernel on a counting platform. Edit cfg, then create().
struct TestKernel {
  counting_platform cp{};
  nicsim_config cfg = test_config();
  nk_kernel *k = nullptr;
  const nk_driver *drv = nullptr; /* the driver table create() passes (its properties size the pools) */
  std::string err;

  TestKernel() = default;
  TestKernel(const TestKernel &) = delete;
  TestKernel &operator=(const TestKernel &) = delete;
  ~TestKernel() {
    if (k) nk_kernel_destroy(k);
    cp_fini(&cp);
  }

  // Creates the platform (mem_bytes of memory) and the kernel; false with err set on failure.
  bool create(bool coherent, uint64_t mem_bytes = 16u << 20) {
    if (cp_init(&cp, mem_bytes, coherent, static_cast<uint32_t>(cfg.cpu.cache_line_bytes)) != 0) {
      err = "cp_init failed";
      return false;
    }
    char buf[512] = "";
    k = nk_kernel_create(&cp.plat, &cfg, drv, buf, sizeof buf);
    err = buf;
    if (k) nk_kernel_set_current(k);
    return k != nullptr;
  }
  net_device *dev() { return nk_kernel_netdev(k); }
  const char *fault() const { return nk_kernel_fault(k); }
  // nk_kernel_check's message, or "" if it passes.
  std::string check() {
    char buf[512] = "";
    return nk_kernel_check(k, buf, sizeof buf) == 0 ? std::string() : std::string(buf);
  }
  // "" if every spinlock taken was released once, none is held and none was
  // misused (taken while held, released while free); else what is wrong.
  std::string locks_balanced() const {
    if (cp.c.spin_misuse) return std::to_string(cp.c.spin_misuse) + " spinlock misuses";
    if (cp_spins_held(&cp)) return std::to_string(cp_spins_held(&cp)) + " spinlocks still held";
    for (int id = 0; id <= NK_SPIN_MAX; id++)
      if (cp.c.spin_acquires[id] != cp.c.spin_releases[id])
        return "spinlock " + std::to_string(id) + ": " + std::to_string(cp.c.spin_acquires[id]) + " acquires, " +
               std::to_string(cp.c.spin_releases[id]) + " releases";
    return "";
  }
  // Simulated-memory physical address of p.
  uint64_t pa(const void *p) const { return static_cast<uint64_t>(static_cast<const uint8_t *>(p) - cp.mem); }
  // Cycles charged to the named profile bucket (0 if it does not exist).
  double bucket(const char *name) const {
    int id = nk_prof_find(name);
    return id < 0 ? 0.0 : cp.c.bucket_cycles[id];
  }
  // Instructions the stack exec'd in the named profile bucket (0 if it does not exist).
  double instr(const char *name) const {
    int id = nk_prof_find(name);
    return id < 0 ? 0.0 : cp.c.bucket_instructions[id];
  }
  // Fixed cycles (not instructions) the reader's one read of n datagrams of
  // len bytes charges on the counting platform: two context switches, n
  // system calls, and the copy at cpu.stack_rx_cycles_per_byte.
  static double reader_cycles(const nc_cpu &cpu, uint64_t n, uint32_t len) {
    return 2 * cpu.context_switch_cycles + static_cast<double>(n) * (cpu.syscall_cycles + cpu.stack_rx_cycles_per_byte * len);
  }
  // Fixed cycles of one UDP send of len bytes: its system call and the copy.
  static double send_cycles(const nc_cpu &cpu, uint32_t len) {
    return cpu.syscall_cycles + cpu.stack_tx_cycles_per_byte * len;
  }
  // Platform operations made in the named profile bucket (0 if it does not exist).
  uint64_t bucket_ops(const char *name) const {
    int id = nk_prof_find(name);
    return id < 0 ? 0 : cp.c.bucket_ops[id];
  }
};

#endif
