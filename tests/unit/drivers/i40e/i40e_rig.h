// i40e_rig.h: the i40e driver probed on a counting platform with a fake i40e
// device, on the shared driver rig (host sink, "interrupt, then softirqs" step).
#ifndef NICSIM_TESTS_DRIVERS_I40E_I40E_RIG_H
#define NICSIM_TESTS_DRIVERS_I40E_I40E_RIG_H

#include "drivers/i40e.h"
#include "unit/drivers/driver_rig.h"
#include "unit/drivers/i40e/fake_i40e_nic.h"

struct I40eRig : DriverRig<FakeI40eNic, I40E_IRQ_VEC> {
  i40e_priv *priv = nullptr;

  // Creates the kernel (edit t.cfg first via tweak) and probes "i40e".
  bool start(bool coherent, const Tweak &tweak = {}, uint64_t mem_bytes = kMemBytes) {
    t.cfg.driver.name = NC_DRIVER_I40E;
    t.cfg.nic.family = NC_NIC_I40E;
    if (!create(coherent, tweak, mem_bytes)) return false;
    nic = std::make_unique<FakeI40eNic>(t.cp, seed(), static_cast<uint32_t>(t.cfg.nic.rx_desc_bytes),
                                        t.cfg.nic.wb_mode == NC_WB_HEAD);
    return probe(&priv);
  }
};

#endif
