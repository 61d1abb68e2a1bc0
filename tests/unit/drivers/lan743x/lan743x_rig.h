// lan743x_rig.h: the lan743x driver probed on a counting platform with a fake
// LAN743x, on the shared driver rig (host sink, "interrupt, then softirqs" step).
#ifndef NICSIM_TESTS_DRIVERS_LAN743X_RIG_H
#define NICSIM_TESTS_DRIVERS_LAN743X_RIG_H

#include "drivers/lan743x.h"
#include "unit/drivers/driver_rig.h"
#include "unit/drivers/lan743x/fake_lan743x.h"

struct Lan743xRig : DriverRig<FakeLan743x, LAN743X_IRQ_VEC> {
  // rx->buffer_length since v5.12: MTU 1500 + ETH_HLEN 14 + ETH_FCS_LEN 4 +
  // RX_HEAD_PADDING 0 (the LAN7430 platforms' driver.rx_buf_bytes).
  static constexpr int64_t kBufferLength = 1518;
  lan743x_adapter *adapter = nullptr;

  // Creates the kernel (edit t.cfg first via tweak) and probes "lan743x".
  bool start(bool coherent, const Tweak &tweak = {}, uint64_t mem_bytes = kMemBytes) {
    t.cfg.driver.name = NC_DRIVER_LAN743X;
    t.cfg.nic.family = NC_NIC_LAN743X;
    t.cfg.driver.rx_buf_bytes = kBufferLength;
    if (!create(coherent, tweak, mem_bytes)) return false;
    nic = std::make_unique<FakeLan743x>(t.cp, seed());
    route_reg_reads();
    return probe(&adapter);
  }
};

#endif
