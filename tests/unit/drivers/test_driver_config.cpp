// test_driver_config.cpp: each C driver's config rules (struct nk_driver's
// check_config): the keys a rule involves, its message and hint; and
// nk_driver_check_config, which reports them as config errors at the blamed
// key's file:line:col before anything is simulated.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "drivers/driver.h"
#include "unit/config/config_test_util.h"

namespace {

// The schema defaults with --set overrides (their origins "<command line>").
nicsim_config config_with(std::initializer_list<const char *> sets) {
  nicsim_config c;
  nc_config_defaults(&c);
  for (const char *s : sets) {
    nc_error e{};
    EXPECT_EQ(nc_config_set(&c, s, &e), 0) << printed(e);
  }
  return c;
}

// What a driver's check_config says about a config.
struct Outcome {
  int rc = 0;
  std::vector<nc_key_id> keys;
  std::string msg, hint;
};

// Runs drv.check_config on c.
Outcome check(const nk_driver &drv, const nicsim_config &c) {
  nk_config_error e;
  std::memset(&e, 0, sizeof e);
  Outcome o;
  o.rc = drv.check_config(&c, &e);
  o.keys.assign(e.keys, e.keys + e.nkeys);
  o.msg = e.msg;
  o.hint = e.hint;
  return o;
}

using Keys = std::vector<nc_key_id>;

TEST(DriverConfig, EveryDriverChecksTheConfigAndAcceptsAWorkingOne) {
  const struct {
    const nk_driver *drv;
    std::initializer_list<const char *> sets;
  } cases[] = {{&nk_driver_generic, {}},
               {&nk_driver_mvneta, {"nic.desc_spacing=32"}},
               {&nk_driver_lan743x, {}},
               {&nk_driver_stmmac, {}},
               {&nk_driver_i40e, {}}};
  for (const auto &k : cases) {
    ASSERT_NE(k.drv->check_config, nullptr) << k.drv->name;
    Outcome o = check(*k.drv, config_with(k.sets));
    EXPECT_EQ(o.rc, 0) << k.drv->name << ": " << o.msg;
  }
}

// Expects drv.check_config to reject c for the rule on keys, with msg and hint.
void expect_rejects(const nk_driver &drv, const nicsim_config &c, const Keys &keys, const std::string &msg,
                    const std::string &hint) {
  Outcome o = check(drv, c);
  EXPECT_EQ(o.rc, -1) << drv.name << " accepted it";
  EXPECT_EQ(o.keys, keys) << o.msg;
  EXPECT_EQ(o.msg, msg);
  EXPECT_EQ(o.hint, hint);
}

// A config with one field set beyond the schema's range (only a hand-built
// config, not a resolved one, gets there), for the rules that guard the C code.
template <typename F>
nicsim_config hand_built(std::initializer_list<const char *> sets, F tweak) {
  nicsim_config c = config_with(sets);
  tweak(c);
  return c;
}

TEST(DriverConfig, Generic) {
  expect_rejects(nk_driver_generic, config_with({"nic.desc_spacing=20"}), {NC_KEY_nic_desc_spacing},
                 "nic.desc_spacing = 20: the generic NIC needs a multiple of 8 (the 64-bit buffer address must stay "
                 "aligned) of at least 16",
                 "use a multiple of 8 of at least 16, e.g. 24");
  expect_rejects(nk_driver_generic, hand_built({}, [](nicsim_config &c) { c.nic.tx_ring_size = 1; }),
                 {NC_KEY_nic_tx_ring_size},
                 "nic.tx_ring_size = 1: the generic driver's TX ring needs at least 2 descriptors", "use at least 2");
  expect_rejects(nk_driver_generic, config_with({"driver.rx_buf_bytes=65536"}), {NC_KEY_driver_rx_buf_bytes},
                 "driver.rx_buf_bytes = 65536: the generic RX descriptor's buf_len is 16 bits (max 65535)",
                 "use at most 65535");
  expect_rejects(
      nk_driver_generic, config_with({"traffic.frame_bytes=1518", "driver.rx_buf_bytes=1024"}),
      {NC_KEY_traffic_frame_bytes, NC_KEY_driver_rx_buf_bytes},
      "traffic.frame_bytes = 1518 needs 1514-byte RX buffers but driver.rx_buf_bytes = 1024: the generic "
      "NIC does not chain buffers",
      "set driver.rx_buf_bytes to at least 1514, or traffic.frame_bytes to at most 1028, or traffic.mode: tx");
  EXPECT_EQ(check(nk_driver_generic, config_with({"traffic.mode=tx", "driver.rx_buf_bytes=1024"})).rc, 0)
      << "TX-only traffic never lands in RX buffers";
}

TEST(DriverConfig, Mvneta) {
  expect_rejects(nk_driver_mvneta, config_with({"nic.desc_spacing=36"}), {NC_KEY_nic_desc_spacing},
                 "nic.desc_spacing = 36: mvneta needs a multiple of 8 (the 64-bit buffer address must stay aligned) "
                 "of at least 32",
                 "use a multiple of 8 of at least 32, e.g. 40");
  expect_rejects(nk_driver_mvneta,
                 hand_built({"nic.desc_spacing=32"}, [](nicsim_config &c) { c.nic.tx_ring_size = 2; }),
                 {NC_KEY_nic_tx_ring_size},
                 "nic.tx_ring_size = 2: the mvneta driver's TX ring needs at least 3 descriptors", "use at least 3");
  expect_rejects(
      nk_driver_mvneta, hand_built({"nic.desc_spacing=32"}, [](nicsim_config &c) { c.memory.size_mb = 8192; }),
      {NC_KEY_memory_size_mb},
      "memory.size_mb = 8192: mvneta descriptors hold 32-bit buffer addresses (at most 4096 MiB)", "use at most 4096");
  expect_rejects(
      nk_driver_mvneta, config_with({"nic.desc_spacing=32", "driver.rx_buf_bytes=1579"}),
      {NC_KEY_traffic_frame_bytes, NC_KEY_driver_rx_buf_bytes},
      "traffic.frame_bytes = 1518 needs driver.rx_buf_bytes >= 1580 for mvneta (NET_SKB_PAD 64 + Marvell "
      "header 2 + frame without FCS); it is 1579",
      "set driver.rx_buf_bytes to at least 1580, or traffic.frame_bytes to at most 1517, or traffic.mode: tx");
  EXPECT_EQ(check(nk_driver_mvneta, config_with({"nic.desc_spacing=32", "driver.rx_buf_bytes=1580"})).rc, 0);
  EXPECT_EQ(
      check(nk_driver_mvneta, config_with({"nic.desc_spacing=32", "traffic.mode=tx", "driver.rx_buf_bytes=1024"})).rc,
      0);
}

TEST(DriverConfig, Lan743x) {
  expect_rejects(nk_driver_lan743x, config_with({"nic.desc_spacing=48"}), {NC_KEY_nic_desc_spacing},
                 "nic.desc_spacing = 48: lan743x DSPACE is 16, 32, 64 or 128 bytes",
                 "use 16, 32, 64 or 128 (DMAC_CFG MAX_DSPACE)");
  expect_rejects(nk_driver_lan743x, config_with({"nic.rx_ring_size=60"}), {NC_KEY_nic_rx_ring_size},
                 "nic.rx_ring_size = 60: lan743x needs a multiple of 8 (it moves RX_TAIL only at indices with index & "
                 "7 == 7)",
                 "use a multiple of 8, e.g. 64");
  expect_rejects(nk_driver_lan743x, hand_built({}, [](nicsim_config &c) { c.nic.tx_ring_size = 1; }),
                 {NC_KEY_nic_tx_ring_size},
                 "nic.tx_ring_size = 1: the lan743x driver's TX ring needs at least 2 descriptors", "use at least 2");
}

TEST(DriverConfig, Stmmac) {
  expect_rejects(nk_driver_stmmac, config_with({"nic.desc_spacing=32"}), {NC_KEY_nic_desc_spacing},
                 "nic.desc_spacing = 32: stmmac's normal descriptors are packed, 16 bytes apart",
                 "use 16: stmmac rings are packed (DMA_BUS_MODE descriptor skip length 0)");
  expect_rejects(nk_driver_stmmac, config_with({"nic.tx_ring_size=32"}), {NC_KEY_nic_tx_ring_size},
                 "nic.tx_ring_size = 32 is not an stmmac ring size",
                 "use a power of two from 64 to 1024 (DMA_MIN/MAX_RX_SIZE in stmmac_ethtool.c), e.g. 64");
  expect_rejects(nk_driver_stmmac, config_with({"nic.rx_ring_size=96"}), {NC_KEY_nic_rx_ring_size},
                 "nic.rx_ring_size = 96 is not an stmmac ring size",
                 "use a power of two from 64 to 1024 (DMA_MIN/MAX_RX_SIZE in stmmac_ethtool.c), e.g. 128");
  expect_rejects(
      nk_driver_stmmac, config_with({"driver.rx_buf_bytes=300", "driver.rx_buf_offset=66"}),
      {NC_KEY_driver_rx_buf_bytes, NC_KEY_driver_rx_buf_offset},
      "driver.rx_buf_bytes = 300 leaves 234 bytes after driver.rx_buf_offset = 66: stmmac needs at least 256",
      "set driver.rx_buf_bytes to at least 322, or driver.rx_buf_offset to at most 44");
  // 1536 - 66 = 1470, rounded down to 8: 1464 < the 1514 bytes of a 1518-byte frame.
  expect_rejects(nk_driver_stmmac, config_with({"driver.rx_buf_bytes=1536", "driver.rx_buf_offset=66"}),
                 {NC_KEY_traffic_frame_bytes, NC_KEY_driver_rx_buf_bytes, NC_KEY_driver_rx_buf_offset},
                 "traffic.frame_bytes = 1518 needs 1514 bytes of RX buffer but driver.rx_buf_bytes = 1536 minus "
                 "driver.rx_buf_offset = 66 leaves 1464: the stmmac model takes one buffer per frame",
                 "set driver.rx_buf_bytes to at least 1586 (driver.rx_buf_offset + the frame, rounded up to 8), or "
                 "traffic.frame_bytes to at most 1468, or traffic.mode: tx");
  EXPECT_EQ(check(nk_driver_stmmac, config_with({"driver.rx_buf_bytes=1586", "driver.rx_buf_offset=66"})).rc, 0)
      << "the hint's value is enough";
  EXPECT_NE(check(nk_driver_stmmac, config_with({"driver.rx_buf_bytes=1585", "driver.rx_buf_offset=66"})).rc, 0)
      << "and the least that is";
  expect_rejects(
      nk_driver_stmmac, hand_built({"traffic.mode=tx"}, [](nicsim_config &c) { c.traffic.frame_bytes = 20000; }),
      {NC_KEY_traffic_frame_bytes}, "traffic.frame_bytes = 20000: a TX buffer holds at most 16383 bytes (TDES2)",
      "set traffic.frame_bytes to at most 16387, or traffic.mode: rx");
}

TEST(DriverConfig, I40e) {
  const char *rings = "use a multiple of 32 from 64 to 4096, e.g. ";
  expect_rejects(nk_driver_i40e, config_with({"nic.rx_ring_size=100"}), {NC_KEY_nic_rx_ring_size},
                 "i40e: nic.rx_ring_size = 100: ring sizes must be multiples of 32 in [64, 4096] "
                 "(I40E_REQ_DESCRIPTOR_MULTIPLE, ethtool -G limits)",
                 std::string(rings) + "128");
  EXPECT_EQ(check(nk_driver_i40e, config_with({"nic.tx_ring_size=32"})).hint, std::string(rings) + "64");
  expect_rejects(nk_driver_i40e, config_with({"nic.rx_desc_bytes=24"}), {NC_KEY_nic_rx_desc_bytes},
                 "i40e: nic.rx_desc_bytes = 24 is not an i40e RX descriptor size", "use 16 or 32");
  expect_rejects(nk_driver_i40e, config_with({"nic.desc_spacing=64"}),
                 {NC_KEY_nic_desc_spacing, NC_KEY_nic_rx_desc_bytes},
                 "i40e: nic.desc_spacing = 64: i40e descriptors are packed", "use 16 or 32 (nic.rx_desc_bytes): i40e rings are packed");
  const char *buf =
      "i40e: driver.rx_buf_bytes = %d is not a receive buffer size the queue context can express (it "
      "counts 128-byte DBUFF units; the write-back length is 14 bits)";
  char msg[256];
  std::snprintf(msg, sizeof msg, buf, 2000);
  expect_rejects(nk_driver_i40e, config_with({"driver.rx_buf_bytes=2000"}), {NC_KEY_driver_rx_buf_bytes}, msg,
                 "use a multiple of 128 of at most 16256, e.g. 1920 or 2048");
  std::snprintf(msg, sizeof msg, buf, 16384);
  expect_rejects(nk_driver_i40e, config_with({"driver.rx_buf_bytes=16384"}), {NC_KEY_driver_rx_buf_bytes}, msg,
                 "use a multiple of 128 of at most 16256, e.g. 16256");
  EXPECT_EQ(check(nk_driver_i40e, config_with({"driver.rx_buf_bytes=16256"})).rc, 0);
}

// The error nk_driver_check_config gives for a resolved scenario (text as
// t.yaml, with --set overrides), which must pass the config checker itself.
nc_error driver_error(const std::string &text, std::initializer_list<const char *> sets = {},
                      const char *name = "t.yaml") {
  Loaded l;
  load_text(l, text, name);
  EXPECT_EQ(l.rc, 0) << printed(l.err);
  nicsim_config c;
  nc_error e{};
  if (l.rc != 0) return e;
  EXPECT_EQ(resolve(l, -1, &c, &e, sets), 0) << printed(e);
  EXPECT_EQ(nk_driver_check_config(&c, &e), -1) << "accepted:\n" << text;
  return e;
}

TEST(DriverConfigError, IsReportedAtTheBlamedKeysOrigin) {
  const std::string i40e = "nic: {family: i40e}\ndriver: {name: i40e, rx_buf_bytes: 2000}\n";
  nc_error e = driver_error(i40e);
  EXPECT_EQ(where(e), "t.yaml:2:36");
  EXPECT_STREQ(e.hint, "use a multiple of 128 of at most 16256, e.g. 1920 or 2048");
  EXPECT_EQ(printed(e),
            "t.yaml:2:36: error: i40e: driver.rx_buf_bytes = 2000 is not a receive buffer size the "
            "queue context can express (it counts 128-byte DBUFF units; the write-back length is 14 "
            "bits)\n  hint: use a multiple of 128 of at most 16256, e.g. 1920 or 2048\n");
  e = driver_error("nic: {family: i40e}\ndriver: {name: i40e}\n", {"driver.rx_buf_bytes=2000"});
  EXPECT_EQ(where(e), "<command line>:1:21");
}

TEST(DriverConfigError, BlamesTheKeySetLatest) {
  // stmmac: rx_buf_bytes - rx_buf_offset below 256. Both in the scenario: the
  // first of the rule's keys (rx_buf_bytes) is blamed.
  const std::string base = "nic: {family: stmmac}\ntraffic: {frame_bytes: 256}\n";
  nc_error e = driver_error(base + "driver: {name: stmmac, rx_buf_bytes: 300, rx_buf_offset: 66}\n");
  EXPECT_EQ(where(e), "t.yaml:3:38");
  // The offset set later (--set) is blamed.
  e = driver_error(base + "driver: {name: stmmac, rx_buf_bytes: 300}\n", {"driver.rx_buf_offset=66"});
  EXPECT_EQ(where(e), "<command line>:1:22");
  // The platform sets rx_buf_bytes, the scenario the offset: the scenario's is blamed.
  TempDir dir;
  dir.write("plat.yaml", "driver: {rx_buf_bytes: 300}\n");
  e = driver_error("platform: plat.yaml\n" + base + "driver: {name: stmmac, rx_buf_offset: 66}\n", {},
                   (dir.path + "/t.yaml").c_str());
  EXPECT_EQ(where(e), dir.path + "/t.yaml:4:39");
}

// driver.copybreak_bytes and driver.page_pool against what each driver has
// (struct nk_driver's has_copybreak, page_pool_default, page_pool_choice).
TEST(DriverConfigError, CopybreakAndPagePoolOnlyWhereTheDriverHasThem) {
  const std::string stmmac = "nic: {family: stmmac}\ndriver: {name: stmmac, copybreak_bytes: 256}\n";
  nc_error e = driver_error(stmmac);
  EXPECT_EQ(where(e), "t.yaml:2:41");
  EXPECT_NE(std::string(e.msg).find("driver.copybreak_bytes = 256: the stmmac driver has no RX copybreak"),
            std::string::npos)
      << e.msg;
  for (const char *d : {"generic", "i40e", "lan743x"}) {
    e = driver_error(std::string("nic: {family: ") + d + "}\ndriver: {name: " + d + "}\n",
                     {"driver.copybreak_bytes=128"});
    EXPECT_NE(std::string(e.msg).find(std::string("the ") + d + " driver has no RX copybreak"), std::string::npos)
        << e.msg;
  }
  // rx_sync used where the driver's code fixes the sync lengths.
  e = driver_error("nic: {family: stmmac}\ndriver: {name: stmmac, rx_sync: used}\n");
  EXPECT_EQ(where(e), "t.yaml:2:33");
  EXPECT_NE(std::string(e.msg).find("driver.rx_sync = used: the stmmac driver's sync lengths are fixed by its code"),
            std::string::npos)
      << e.msg;
  // A page_pool value the driver does not model.
  e = driver_error("nic: {family: lan743x}\ndriver: {name: lan743x, page_pool: true}\n");
  EXPECT_STREQ(e.hint, "set driver.page_pool: auto");
  EXPECT_NE(std::string(e.msg).find("the lan743x driver has no page_pool version modelled"), std::string::npos)
      << e.msg;
  e = driver_error("driver: {page_pool: false}\n");
  EXPECT_NE(std::string(e.msg).find("the generic driver always takes its RX buffers from a page_pool"),
            std::string::npos)
      << e.msg;
  // The drivers that model both accept both, and auto.
  for (const char *pp : {"auto", "true", "false"}) {
    nicsim_config c = config_with({"nic.family=stmmac", "driver.name=stmmac"});
    nc_error e2{};
    ASSERT_EQ(nc_config_set(&c, (std::string("driver.page_pool=") + pp).c_str(), &e2), 0) << printed(e2);
    EXPECT_EQ(nk_driver_check_config(&c, &e2), 0) << pp << ": " << printed(e2);
    c = config_with({"nic.family=mvneta", "driver.name=mvneta", "nic.desc_spacing=32"});
    ASSERT_EQ(nc_config_set(&c, (std::string("driver.page_pool=") + pp).c_str(), &e2), 0) << printed(e2);
    EXPECT_EQ(nk_driver_check_config(&c, &e2), 0) << pp << ": " << printed(e2);
  }
}

TEST(DriverConfig, StmmacWithoutPagePoolHasItsBufferAtTheSkbsData) {
  // v4.14 to v5.3: the frame is at skb->data, NET_SKB_PAD + NET_IP_ALIGN in.
  expect_rejects(nk_driver_stmmac, config_with({"driver.page_pool=false", "driver.rx_buf_offset=0"}),
                 {NC_KEY_driver_rx_buf_offset, NC_KEY_driver_page_pool},
                 "driver.rx_buf_offset = 0 with driver.page_pool = false: each RX buffer is an skb's data, "
                 "NET_SKB_PAD + NET_IP_ALIGN = 66 bytes into it (cpu.net_ip_align_bytes = 2)",
                 "set driver.rx_buf_offset: 66, or remove it, or set driver.page_pool: auto");
  EXPECT_EQ(check(nk_driver_stmmac, config_with({"driver.page_pool=false", "driver.rx_buf_offset=66"})).rc, 0);
  // The default offset (66) follows the skb on a core without NET_IP_ALIGN (64).
  EXPECT_EQ(check(nk_driver_stmmac, config_with({"driver.page_pool=false", "cpu.net_ip_align_bytes=0"})).rc, 0);
  EXPECT_NE(check(nk_driver_stmmac, config_with({"driver.page_pool=false", "cpu.net_ip_align_bytes=0",
                                                 "driver.rx_buf_offset=66"}))
                .rc,
            0);
}

// mvneta: page_pool false is the seed-era driver, true v5.5's.
TEST(DriverConfig, MvnetaPagePoolAgainstXdpSyncAndCopybreak) {
  const char *sp = "nic.desc_spacing=32";
  expect_rejects(nk_driver_mvneta, config_with({sp, "driver.page_pool=false", "driver.rx_sync=used"}),
                 {NC_KEY_driver_page_pool, NC_KEY_driver_rx_sync},
                 "driver.rx_sync = used with driver.page_pool = false: syncing only the received length for the "
                 "device is the page_pool's dma_sync_size (v5.5); the seed-era driver unmaps and maps the whole "
                 "buffer",
                 "set driver.page_pool: true (or auto), or driver.rx_sync: full");
  expect_rejects(nk_driver_mvneta, config_with({sp, "driver.page_pool=true", "driver.rx_sync=full"}),
                 {NC_KEY_driver_rx_sync, NC_KEY_driver_page_pool},
                 "driver.rx_sync = full with driver.page_pool = true: v5.5's page_pool driver syncs only the "
                 "received length (dma_sync_size)",
                 "remove driver.rx_sync (page_pool true implies used), or set driver.page_pool: auto");
  expect_rejects(nk_driver_mvneta, config_with({sp, "driver.page_pool=true", "driver.copybreak_bytes=256"}),
                 {NC_KEY_driver_copybreak_bytes, NC_KEY_driver_page_pool},
                 "driver.copybreak_bytes = 256 with driver.page_pool = true: v5.5's page_pool driver builds every "
                 "skb on its page and has no copybreak",
                 "leave driver.copybreak_bytes at -1 (or 0), or set driver.page_pool: auto");
  EXPECT_NE(check(nk_driver_mvneta, config_with({sp, "driver.page_pool=false", "driver.xdp=drop"})).rc, 0);
  EXPECT_EQ(check(nk_driver_mvneta, config_with({sp, "driver.page_pool=true", "driver.xdp=drop"})).rc, 0);
  EXPECT_EQ(check(nk_driver_mvneta, config_with({sp, "driver.page_pool=true"})).rc, 0)
      << "rx_sync left at its default follows the page_pool driver";
}

TEST(DriverConfigError, OnlyNicWorkloadsProbeADriver) {
  nicsim_config c = config_with({"nic.family=i40e", "driver.name=i40e", "driver.rx_buf_bytes=2000"});
  nc_error e{};
  EXPECT_EQ(nk_driver_check_config(&c, &e), -1);
  c = config_with({"workload.kind=dma-bench", "driver.name=i40e", "driver.rx_buf_bytes=2000"});
  EXPECT_EQ(nk_driver_check_config(&c, &e), 0) << "a DMA benchmark runs no driver";
  c = config_with({});
  EXPECT_EQ(nk_driver_check_config(&c, &e), 0) << printed(e);
}

}  // namespace
