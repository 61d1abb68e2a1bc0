// mvneta_rig.h: the mvneta driver probed on a counting platform with a fake
// mvneta device, on the shared driver rig (host sink, "interrupt, then
// softirqs" step).
#ifndef NICSIM_TESTS_DRIVERS_MVNETA_RIG_H
#define NICSIM_TESTS_DRIVERS_MVNETA_RIG_H

#include "drivers/mvneta.h"
#include "unit/drivers/driver_rig.h"
#include "unit/drivers/mvneta/fake_mvneta.h"

struct MvnetaRig : DriverRig<FakeMvneta, MVNETA_IRQ_VEC> {
  mvneta_port *pp = nullptr;

  // Creates the kernel (test_config: rings of 64, budget 16; 32 B spacing;
  // edit via tweak) and probes "mvneta" with the knobs as given.
  bool start(bool coherent, bool reuse_desc_reads = true, bool shadow_dma_addr = true, const Tweak &tweak = {},
             uint64_t mem_bytes = kMemBytes) {
    t.cfg.driver.name = NC_DRIVER_MVNETA;
    t.cfg.nic.family = NC_NIC_MVNETA;
    t.cfg.nic.desc_spacing = 32;
    t.cfg.driver.reuse_desc_reads = reuse_desc_reads;
    t.cfg.driver.shadow_dma_addr = shadow_dma_addr;
    if (!create(coherent, tweak, mem_bytes)) return false;
    nic = std::make_unique<FakeMvneta>(t.cp, seed());
    route_reg_reads();
    return probe(&pp);
  }
};

#endif
