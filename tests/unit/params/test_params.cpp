// test_params.cpp: models' Params filled through their bind() from config
// keys (units converted, choices mapped by name), the binder's refusal of
// misuse, and validate() failures as config errors at the blamed key's
// file:line:col.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "config/config.h"
#include "sim/model_params.h"
#include "sim/params.h"
#include "sim/sim.h"

namespace {

nicsim_config defaults() {
  nicsim_config c;
  nc_config_defaults(&c);
  return c;
}

/* A config with --set style overrides applied to the defaults. */
nicsim_config with(std::initializer_list<const char *> sets) {
  nicsim_config c = defaults();
  for (const char *s : sets) {
    nc_error e{};
    EXPECT_EQ(nc_config_set(&c, s, &e), 0) << s << ": " << e.msg;
  }
  return c;
}

TEST(Params, BindConvertsUnitsAsTheModelsComputeThem) {
  const nicsim_config c = with({"pcie.latency_ns=150.4", "pcie.rd_latency_ns=0.0006", "bus.clock_mhz=333",
                                "memory.size_mb=256", "memory.dram_latency_ns=90.5"});
  const nicsim::PcieParams p = nicsim::pcie_params(c);
  EXPECT_EQ(p.latency_ps, 150400u);
  EXPECT_EQ(p.rd_latency_ps, 1u) << "0.6 ps rounds to the nearest ps";
  EXPECT_EQ(p.mps, 256u);
  EXPECT_EQ(p.mem_size, 256ull << 20) << "a fact of the host, from memory.size_mb";
  EXPECT_EQ(nicsim::bus_params(c).cycle_ps, 3003u) << "333 MHz: a 3003 ps period";
  const nicsim::HostMemory::Params m = nicsim::memory_params(c);
  EXPECT_EQ(m.size_bytes, 256ull << 20);
  EXPECT_EQ(m.iommu.read_ps, 90500u);
}

TEST(Params, ChoicesMapByNameToTheModelsOwnValues) {
  nicsim::NicDevice::Params p = nicsim::nic_params(with({"nic.wb_mode=batch", "nic.wb_threshold=4",
                                                         "nic.dma_arbitration=round_robin", "nic.family=i40e",
                                                         "driver.name=i40e", "traffic.mode=tx"}));
  EXPECT_EQ(p.family, nicsim::NicDevice::Family::I40e);
  EXPECT_EQ(p.dma.wb_threshold, 4u);
  EXPECT_FALSE(p.dma.tx_head_wb);
  EXPECT_FALSE(p.dma.rx_read_priority);
  EXPECT_EQ(p.peer.mode, nicsim::WirePeer::Params::Mode::Tx);
  EXPECT_FALSE(p.peer.send);
  p = nicsim::nic_params(with({"nic.wb_mode=desc", "nic.wb_threshold=4"}));
  EXPECT_EQ(p.dma.wb_threshold, 1u) << "wb_mode desc writes each descriptor back";
  p = nicsim::nic_params(with({"nic.wb_mode=head"}));
  EXPECT_TRUE(p.dma.tx_head_wb);
  EXPECT_EQ(p.dma.desc_cache_entries, 2 * p.dma.desc_fetch_max) << "0: two fetch batches";
}

TEST(Params, CrossLayerFactsComeFromSrcSim) {
  const nicsim_config c = with({"traffic.frame_bytes=9018", "nic.family=stmmac", "driver.name=stmmac",
                                "driver.stmmac_tbu=true", "run.duration_us=300", "run.seed=9000000000000000001"});
  const nicsim::NicDevice::Params p = nicsim::nic_params(c);
  EXPECT_EQ(p.mac.max_frame_bytes, 9018u);
  EXPECT_EQ(p.mac.tx_fifo_bytes, 2u * 9018u);
  EXPECT_TRUE(p.dma.tx_irq_on_drain) << "driver.stmmac_tbu on the stmmac family";
  EXPECT_EQ(p.dma.coal_usecs, 0) << "stmmac's timer is its RX watchdog, off until the driver writes it";
  EXPECT_EQ(p.peer.duration_ps, 300000000u);
  EXPECT_EQ(p.peer.seed, 9000000000000000001ull) << "an integer key is copied exactly, not through a double";
  EXPECT_EQ(p.peer.line_rate_gbps, p.mac.line_rate_gbps);
  EXPECT_FALSE(nicsim::nic_params(with({"driver.stmmac_tbu=true"})).dma.tx_irq_on_drain) << "not on the generic NIC";
}

/* Params that bind what they should not. */
struct BadKey {
  int x = 0;
  void bind(nicsim::ParamBinder &b) { b.key("pcie.no_such_key", x); }
};
struct BadType {
  bool x = false;
  void bind(nicsim::ParamBinder &b) { b.key("pcie.mps", x); }
};
struct MissingChoice {
  int x = 0;
  void bind(nicsim::ParamBinder &b) { b.key("traffic.mode", x, {{"rx", 1}, {"bidir", 3}}); }
};

TEST(Params, TheBinderRefusesMisuse) {
  const nicsim_config c = defaults();
  EXPECT_THROW(nicsim::bind_params<BadKey>(c), std::logic_error);
  EXPECT_THROW(nicsim::bind_params<BadType>(c), std::logic_error);
  EXPECT_EQ(nicsim::bind_params<MissingChoice>(c).x, 1);
  EXPECT_THROW(nicsim::bind_params<MissingChoice>(with({"traffic.mode=tx"})), std::logic_error)
      << "a choice the model does not list";
}

TEST(Params, ValidateNamesKeysNotPlaces) {
  nicsim::PcieParams p;
  p.lanes = 3;
  const nicsim::ParamCheck e = p.validate();
  ASSERT_TRUE(e);
  ASSERT_EQ(e->keys.size(), 1u);
  EXPECT_EQ(e->keys[0], "pcie.lanes");
  EXPECT_EQ(e->msg, "pcie.lanes = 3 is not a PCIe link width");
  EXPECT_EQ(e->hint, "use 1, 2, 4, 8 or 16");
  EXPECT_FALSE(nicsim::PcieParams{}.validate());
}

/* The error nicsim_check_config gives for a scenario's text (t.yaml) and --set overrides. */
nc_error checked(const char *text, std::initializer_list<const char *> sets = {}) {
  nc_scenario *s = nullptr;
  nc_error e{};
  EXPECT_EQ(nc_scenario_load_string("t.yaml", text, &s, &e), 0) << e.msg;
  nicsim_config c;
  EXPECT_EQ(nc_scenario_resolve(s, -1, sets.begin(), sets.size(), &c, &e), 0) << e.msg;
  nc_scenario_free(s);
  EXPECT_EQ(nicsim_check_config(&c, &e), -1) << "accepted: " << text;
  return e;
}

std::string where(const nc_error &e) {
  return std::string(e.where.file) + ":" + std::to_string(e.where.line) + ":" + std::to_string(e.where.col);
}

TEST(Params, AValidateFailureIsAConfigErrorAtTheBlamedKey) {
  nc_error e = checked("pcie:\n  gen: 4\n  lanes: 3\n");
  EXPECT_EQ(where(e), "t.yaml:3:10");
  EXPECT_STREQ(e.msg, "pcie.lanes = 3 is not a PCIe link width");
  EXPECT_STREQ(e.hint, "use 1, 2, 4, 8 or 16");
  /* A rule on two keys blames the one set latest: here the --set. */
  e = checked("pcie: {mps: 512}\n", {"pcie.rc_pd_credits=8"});
  EXPECT_EQ(where(e), "<command line>:1:20");
  EXPECT_NE(std::string(e.msg).find("cannot cover one max-payload TLP"), std::string::npos) << e.msg;
  /* The models a run builds are the ones checked: no PCIe link on the bus. */
  nc_scenario *s = nullptr;
  ASSERT_EQ(nc_scenario_load_string("t.yaml", "bus: {enabled: true}\npcie: {lanes: 3}\n", &s, &e), 0);
  nicsim_config c;
  ASSERT_EQ(nc_scenario_resolve(s, -1, nullptr, 0, &c, &e), 0) << e.msg;
  nc_scenario_free(s);
  EXPECT_EQ(nicsim_check_config(&c, &e), 0) << e.msg;
}

}  // namespace
