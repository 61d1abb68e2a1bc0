// generic_rig.h: the generic driver probed on a counting platform with a fake
// NIC, on the shared driver rig (host sink, "interrupt, then softirqs" step).
#ifndef NICSIM_TESTS_DRIVERS_GENERIC_RIG_H
#define NICSIM_TESTS_DRIVERS_GENERIC_RIG_H

#include "drivers/generic.h"
#include "unit/drivers/driver_rig.h"
#include "unit/drivers/fake_generic_nic.h"

struct GenericRig : DriverRig<FakeGenericNic, GENERIC_IRQ_VEC> {
  generic_priv *priv = nullptr;

  // Creates the kernel (edit t.cfg first via tweak) and probes "generic".
  bool start(bool coherent, const Tweak &tweak = {}, uint64_t mem_bytes = kMemBytes) {
    t.cfg.driver.name = NC_DRIVER_GENERIC;
    if (!create(coherent, tweak, mem_bytes)) return false;
    nic = std::make_unique<FakeGenericNic>(t.cp, seed());
    return probe(&priv);
  }
};

#endif
