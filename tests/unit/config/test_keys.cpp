// test_keys.cpp: the key table, spelling suggestions, the value parser (via
// --set), value formatting, error printing and the built-in file table.
#include <cmath>
#include <cstring>
#include <set>
#include <string>

#include "config/builtin.h"
#include "config_test_util.h"

namespace {

// Applies one --set to a default config; returns rc and fills e.
int set1(nicsim_config *c, const char *arg, nc_error *e) {
  nc_config_defaults(c);
  return nc_config_set(c, arg, e);
}

TEST(ConfigKeyTable, PathsAreUniqueAndFindable) {
  const nc_key *keys = nc_keys();
  std::set<std::string> paths;
  std::set<size_t> offsets;
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    const nc_key &k = keys[i];
    EXPECT_EQ(std::string(k.path), std::string(k.section) + "." + k.name);
    EXPECT_TRUE(paths.insert(k.path).second) << k.path;
    EXPECT_TRUE(offsets.insert(k.offset).second) << k.path;
    EXPECT_EQ(nc_key_find(k.path), &k);
    EXPECT_GT(std::strlen(k.doc), 0u) << k.path;
    EXPECT_LT(k.offset, sizeof(nicsim_config));
  }
  EXPECT_EQ(nc_key_find("nic.desc_spacing"), &keys[NC_KEY_nic_desc_spacing]);
  EXPECT_EQ(nc_key_find("nic.desc_spacng"), nullptr);
  EXPECT_EQ(nc_key_find("nic"), nullptr);
  EXPECT_EQ(nc_key_find(""), nullptr);
  EXPECT_EQ(nc_key_find(nullptr), nullptr);
}

TEST(ConfigKeyTable, OffsetsPointAtTheFields) {
  nicsim_config c;
  nc_config_defaults(&c);
  c.nic.desc_spacing = 48;
  c.traffic.rate_gbps = 7.5;
  c.cpu.kind = NC_CPU_RISCV;
  c.memory.coherent_dma = false;
  EXPECT_EQ(value_of(c, "nic.desc_spacing"), "48");
  EXPECT_EQ(value_of(c, "traffic.rate_gbps"), "7.5");
  EXPECT_EQ(value_of(c, "cpu.kind"), "riscv");
  EXPECT_EQ(value_of(c, "memory.coherent_dma"), "false");
}

TEST(ConfigKeySuggest, MisspellingsAndWrongSections) {
  auto sug = [](const char *p) {
    const nc_key *k = nc_key_suggest(p);
    return std::string(k ? k->path : "(none)");
  };
  EXPECT_EQ(sug("nic.desc_spacng"), "nic.desc_spacing");
  EXPECT_EQ(sug("nic.spacing"), "nic.desc_spacing");
  EXPECT_EQ(sug("nics.desc_spacing"), "nic.desc_spacing");
  EXPECT_EQ(sug("cpu.napi_budget"), "driver.napi_budget");
  EXPECT_EQ(sug("desc_spacing"), "nic.desc_spacing");
  EXPECT_EQ(sug("traffic.mod"), "traffic.mode");
  EXPECT_EQ(sug("run.durration_us"), "run.duration_us");
  EXPECT_EQ(sug("pcie.line_rate_gbps"), "nic.line_rate_gbps");
  EXPECT_EQ(sug("zzz.qqqqqq"), "(none)");
  EXPECT_EQ(sug("nic.x"), "(none)");
  EXPECT_EQ(sug(""), "(none)");
  EXPECT_EQ(nc_key_suggest(nullptr), nullptr);
}

TEST(ConfigDefaults, EveryDefaultParsesAndIsInRange) {
  nicsim_config defaults;
  nc_config_defaults(&defaults);
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    const nc_key &k = nc_keys()[i];
    nicsim_config c;
    nc_error e{};
    std::string arg = std::string(k.path) + "=" + k.def;
    ASSERT_EQ(set1(&c, arg.c_str(), &e), 0) << k.path << ": " << printed(e);
    if (k.type == NC_INT || k.type == NC_REAL) {
      double v = nc_value_number(&c, &k);
      EXPECT_GE(v, k.min) << k.path;
      EXPECT_LE(v, k.max) << k.path;
      EXPECT_LE(k.min, k.max) << k.path;
    }
    EXPECT_EQ(value_of(c, k.path), value_of(defaults, k.path)) << k.path;
    EXPECT_STREQ(defaults.origin[i].file, "<default>") << k.path;
    EXPECT_EQ(defaults.origin[i].line, 0);
  }
}

TEST(ConfigDefaults, PassTheSemanticChecks) {
  nicsim_config c;
  nc_config_defaults(&c);
  nc_error e{};
  EXPECT_EQ(nc_config_check(&c, &e), 0) << printed(e);
}

// Number of '|'-separated choices of an ENUM key.
size_t nchoices(const char *path) {
  const nc_key *k = nc_key_find(path);
  size_t n = 1;
  for (const char *p = k->choices; *p; p++) n += *p == '|';
  return n;
}

// The enum value that `path=choice` stores.
int enum_of(const char *path, const char *choice) {
  nicsim_config c;
  nc_error e{};
  std::string arg = std::string(path) + "=" + choice;
  EXPECT_EQ(set1(&c, arg.c_str(), &e), 0) << printed(e);
  return static_cast<int>(nc_value_number(&c, nc_key_find(path)));
}

TEST(ConfigEnums, ChoiceOrderMatchesTheCEnums) {
  EXPECT_EQ(nchoices("cpu.kind"), 5u);
  EXPECT_EQ(enum_of("cpu.kind", "x86"), NC_CPU_X86);
  EXPECT_EQ(enum_of("cpu.kind", "arm64"), NC_CPU_ARM64);
  EXPECT_EQ(enum_of("cpu.kind", "riscv"), NC_CPU_RISCV);
  EXPECT_EQ(enum_of("cpu.kind", "sparc"), NC_CPU_SPARC);
  EXPECT_EQ(enum_of("cpu.kind", "mips"), NC_CPU_MIPS);
  EXPECT_EQ(nchoices("nic.family"), 5u);
  EXPECT_EQ(enum_of("nic.family", "generic"), NC_NIC_GENERIC);
  EXPECT_EQ(enum_of("nic.family", "lan743x"), NC_NIC_LAN743X);
  EXPECT_EQ(enum_of("nic.family", "stmmac"), NC_NIC_STMMAC);
  EXPECT_EQ(enum_of("nic.family", "i40e"), NC_NIC_I40E);
  EXPECT_EQ(enum_of("nic.family", "mvneta"), NC_NIC_MVNETA);
  EXPECT_EQ(nchoices("nic.wb_mode"), 3u);
  EXPECT_EQ(enum_of("nic.wb_mode", "desc"), NC_WB_DESC);
  EXPECT_EQ(enum_of("nic.wb_mode", "batch"), NC_WB_BATCH);
  EXPECT_EQ(enum_of("nic.wb_mode", "head"), NC_WB_HEAD);
  EXPECT_EQ(nchoices("nic.dma_arbitration"), 2u);
  EXPECT_EQ(enum_of("nic.dma_arbitration", "rx_priority"), NC_ARB_RX_PRIORITY);
  EXPECT_EQ(enum_of("nic.dma_arbitration", "round_robin"), NC_ARB_ROUND_ROBIN);
  EXPECT_EQ(nchoices("driver.name"), 5u);
  EXPECT_EQ(enum_of("driver.name", "generic"), NC_DRIVER_GENERIC);
  EXPECT_EQ(enum_of("driver.name", "mvneta"), NC_DRIVER_MVNETA);
  EXPECT_EQ(enum_of("driver.name", "lan743x"), NC_DRIVER_LAN743X);
  EXPECT_EQ(enum_of("driver.name", "stmmac"), NC_DRIVER_STMMAC);
  EXPECT_EQ(enum_of("driver.name", "i40e"), NC_DRIVER_I40E);
  EXPECT_EQ(nchoices("traffic.mode"), 4u);
  EXPECT_EQ(enum_of("traffic.mode", "rx"), NC_MODE_RX);
  EXPECT_EQ(enum_of("traffic.mode", "tx"), NC_MODE_TX);
  EXPECT_EQ(enum_of("traffic.mode", "bidir"), NC_MODE_BIDIR);
  EXPECT_EQ(enum_of("traffic.mode", "forward"), NC_MODE_FORWARD);
  EXPECT_EQ(nchoices("traffic.frame_dist"), 2u);
  EXPECT_EQ(enum_of("traffic.frame_dist", "fixed"), NC_DIST_FIXED);
  EXPECT_EQ(enum_of("traffic.frame_dist", "imix"), NC_DIST_IMIX);
  EXPECT_EQ(nchoices("traffic.protocol"), 2u);
  EXPECT_EQ(enum_of("traffic.protocol", "udp"), NC_PROTO_UDP);
  EXPECT_EQ(enum_of("traffic.protocol", "tcp"), NC_PROTO_TCP);
  EXPECT_EQ(nchoices("traffic.tx_pacing"), 2u);
  EXPECT_EQ(enum_of("traffic.tx_pacing", "strict"), NC_PACING_STRICT);
  EXPECT_EQ(enum_of("traffic.tx_pacing", "average"), NC_PACING_AVERAGE);
  EXPECT_EQ(nchoices("traffic.sender"), 2u);
  EXPECT_EQ(enum_of("traffic.sender", "socket"), NC_SENDER_SOCKET);
  EXPECT_EQ(enum_of("traffic.sender", "pktgen"), NC_SENDER_PKTGEN);
  EXPECT_EQ(nchoices("cpu.user_copy"), 2u);
  EXPECT_EQ(enum_of("cpu.user_copy", "per_byte"), NC_USER_COPY_PER_BYTE);
  EXPECT_EQ(enum_of("cpu.user_copy", "memcpy"), NC_USER_COPY_MEMCPY);
  EXPECT_EQ(nchoices("cpu.locking"), 2u);
  EXPECT_EQ(enum_of("cpu.locking", "big"), NC_LOCKING_BIG);
  EXPECT_EQ(enum_of("cpu.locking", "txq"), NC_LOCKING_TXQ);
  EXPECT_EQ(nchoices("cpu.irq_affinity"), 2u);
  EXPECT_EQ(enum_of("cpu.irq_affinity", "core0"), NC_IRQ_AFFINITY_CORE0);
  EXPECT_EQ(enum_of("cpu.irq_affinity", "spread"), NC_IRQ_AFFINITY_SPREAD);
  EXPECT_EQ(nchoices("workload.kind"), 2u);
  EXPECT_EQ(enum_of("workload.kind", "nic"), NC_WORKLOAD_NIC);
  EXPECT_EQ(enum_of("workload.kind", "dma-bench"), NC_WORKLOAD_DMA_BENCH);
  EXPECT_EQ(nchoices("workload.op"), 3u);
  EXPECT_EQ(enum_of("workload.op", "read"), NC_WORKLOAD_READ);
  EXPECT_EQ(enum_of("workload.op", "write"), NC_WORKLOAD_WRITE);
  EXPECT_EQ(enum_of("workload.op", "read_write"), NC_WORKLOAD_READ_WRITE);
  EXPECT_EQ(nchoices("workload.pattern"), 3u);
  EXPECT_EQ(enum_of("workload.pattern", "seq"), NC_PATTERN_SEQ);
  EXPECT_EQ(enum_of("workload.pattern", "random"), NC_PATTERN_RANDOM);
  EXPECT_EQ(enum_of("workload.pattern", "page_stride"), NC_PATTERN_PAGE_STRIDE);
  EXPECT_EQ(nchoices("workload.host_cache"), 2u);
  EXPECT_EQ(enum_of("workload.host_cache", "warm"), NC_HOST_CACHE_WARM);
  EXPECT_EQ(enum_of("workload.host_cache", "cold"), NC_HOST_CACHE_COLD);
  EXPECT_EQ(nchoices("nic.desc_fetch_spaced"), 2u);
  EXPECT_EQ(enum_of("nic.desc_fetch_spaced", "single"), NC_FETCH_SPACED_SINGLE);
  EXPECT_EQ(enum_of("nic.desc_fetch_spaced", "span"), NC_FETCH_SPACED_SPAN);
  EXPECT_EQ(nchoices("nic.irq_coal_timer"), 2u);
  EXPECT_EQ(enum_of("nic.irq_coal_timer", "absolute"), NC_COAL_TIMER_ABSOLUTE);
  EXPECT_EQ(enum_of("nic.irq_coal_timer", "restart"), NC_COAL_TIMER_RESTART);
  EXPECT_EQ(nchoices("driver.rx_sync"), 2u);
  EXPECT_EQ(enum_of("driver.rx_sync", "full"), NC_RX_SYNC_FULL);
  EXPECT_EQ(enum_of("driver.rx_sync", "used"), NC_RX_SYNC_USED);
  EXPECT_EQ(nchoices("driver.rx_coal_adaptive"), 3u);
  EXPECT_EQ(enum_of("driver.rx_coal_adaptive", "none"), NC_ADAPTIVE_NONE);
  EXPECT_EQ(enum_of("driver.rx_coal_adaptive", "dim"), NC_ADAPTIVE_DIM);
  EXPECT_EQ(enum_of("driver.rx_coal_adaptive", "itr"), NC_ADAPTIVE_ITR);
  EXPECT_EQ(nchoices("iommu.mode"), 3u);
  EXPECT_EQ(enum_of("iommu.mode", "off"), NC_IOMMU_OFF);
  EXPECT_EQ(enum_of("iommu.mode", "strict"), NC_IOMMU_STRICT);
  EXPECT_EQ(enum_of("iommu.mode", "lazy"), NC_IOMMU_LAZY);
  EXPECT_EQ(nchoices("iommu.kind"), 2u);
  EXPECT_EQ(enum_of("iommu.kind", "vtd"), NC_IOMMU_VTD);
  EXPECT_EQ(enum_of("iommu.kind", "smmuv3"), NC_IOMMU_SMMUV3);
  EXPECT_EQ(nchoices("driver.xdp"), 4u);
  EXPECT_EQ(enum_of("driver.xdp", "off"), NC_XDP_OFF);
  EXPECT_EQ(enum_of("driver.xdp", "pass"), NC_XDP_PASS);
  EXPECT_EQ(enum_of("driver.xdp", "drop"), NC_XDP_DROP);
  EXPECT_EQ(enum_of("driver.xdp", "tx"), NC_XDP_TX);
  EXPECT_EQ(nchoices("driver.page_pool"), 3u);
  EXPECT_EQ(enum_of("driver.page_pool", "auto"), NC_PAGE_POOL_AUTO);
  EXPECT_EQ(enum_of("driver.page_pool", "true"), NC_PAGE_POOL_TRUE);
  EXPECT_EQ(enum_of("driver.page_pool", "false"), NC_PAGE_POOL_FALSE);
  EXPECT_EQ(nchoices("cpu.isa"), 8u);
  EXPECT_EQ(enum_of("cpu.isa", "auto"), NC_ISA_AUTO);
  EXPECT_EQ(enum_of("cpu.isa", "x86-64"), NC_ISA_X86_64);
  EXPECT_EQ(enum_of("cpu.isa", "arm64"), NC_ISA_ARM64);
  EXPECT_EQ(enum_of("cpu.isa", "armv7"), NC_ISA_ARMV7);
  EXPECT_EQ(enum_of("cpu.isa", "riscv64"), NC_ISA_RISCV64);
  EXPECT_EQ(enum_of("cpu.isa", "sparc64"), NC_ISA_SPARC64);
  EXPECT_EQ(enum_of("cpu.isa", "mips32"), NC_ISA_MIPS32);
  EXPECT_EQ(enum_of("cpu.isa", "none"), NC_ISA_NONE);
  // Every ENUM key is covered above.
  size_t enums = 0;
  for (size_t i = 0; i < NC_KEY__COUNT; i++) enums += nc_keys()[i].type == NC_ENUM;
  EXPECT_EQ(enums, 26u);
}

TEST(ConfigSet, StoresValueWithCommandLineOrigin) {
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(set1(&c, "nic.desc_spacing=32", &e), 0) << printed(e);
  EXPECT_EQ(c.nic.desc_spacing, 32);
  EXPECT_EQ(origin_of(c, "nic.desc_spacing"), "<command line>:1:18");
  ASSERT_EQ(nc_config_set(&c, "nic.desc_spacing=0x40", &e), 0);
  EXPECT_EQ(c.nic.desc_spacing, 64);
  ASSERT_EQ(nc_config_set(&c, "traffic.mode=bidir", &e), 0);
  EXPECT_EQ(c.traffic.mode, NC_MODE_BIDIR);
  ASSERT_EQ(nc_config_set(&c, "memory.coherent_dma=false", &e), 0);
  EXPECT_FALSE(c.memory.coherent_dma);
  ASSERT_EQ(nc_config_set(&c, "traffic.rate_gbps=2.5", &e), 0);
  EXPECT_DOUBLE_EQ(c.traffic.rate_gbps, 2.5);
  ASSERT_EQ(nc_config_set(&c, "run.seed=9000000000000000000", &e), 0);
  EXPECT_EQ(c.run.seed, INT64_C(9000000000000000000));
  EXPECT_EQ(origin_of(c, "run.seed"), "<command line>:1:10");
}

TEST(ConfigSet, UnknownKeyGetsASuggestion) {
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(set1(&c, "nic.desc_spacng=32", &e), -1);
  EXPECT_STREQ(e.msg, "unknown key 'nic.desc_spacng'");
  EXPECT_STREQ(e.hint, "did you mean 'nic.desc_spacing'?");
  EXPECT_EQ(where(e), "<command line>:1:1");
  EXPECT_EQ(printed(e), "<command line>:1:1: error: unknown key 'nic.desc_spacng'\n"
                        "  hint: did you mean 'nic.desc_spacing'?\n");
  ASSERT_EQ(set1(&c, "nic=32", &e), -1);
  EXPECT_STREQ(e.msg, "'nic' is a section, not a key");
  EXPECT_NE(std::strstr(e.hint, "desc_spacing"), nullptr);
  ASSERT_EQ(set1(&c, "platform=x86-gen3", &e), -1);
  EXPECT_STREQ(e.msg, "'platform' cannot be changed with --set");
  ASSERT_EQ(set1(&c, "bogus.thing=1", &e), -1);
  EXPECT_STREQ(e.msg, "unknown key 'bogus.thing'");
  EXPECT_NE(std::strstr(e.hint, "docs/config.md"), nullptr);
}

TEST(ConfigSet, BadValueIsLocatedAtTheValue) {
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(set1(&c, "nic.desc_spacing=16.5", &e), -1);
  EXPECT_EQ(where(e), "<command line>:1:18");
  EXPECT_STREQ(e.msg,
               "invalid value '16.5' for nic.desc_spacing; expected an integer in [4, 4096] (B)");
  EXPECT_STREQ(e.hint, "write a whole number, in decimal or in hex like 0x40");
  ASSERT_EQ(set1(&c, "nic.desc_spacing=", &e), -1);
  EXPECT_STREQ(e.msg, "missing value for nic.desc_spacing; expected an integer in [4, 4096] (B)");
  // The value before a failed --set is kept.
  EXPECT_EQ(c.nic.desc_spacing, 16);
}

TEST(ConfigSet, MissingEqualsSign) {
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(set1(&c, "nic.desc_spacing", &e), -1);
  EXPECT_STREQ(e.msg, "--set 'nic.desc_spacing' has no '='");
  EXPECT_STREQ(e.hint, "write --set KEY=VALUE, e.g. --set nic.desc_spacing=32");
  EXPECT_EQ(where(e), "<command line>:1:1");
  ASSERT_EQ(set1(&c, "=5", &e), -1);
  EXPECT_STREQ(e.msg, "--set '=5' has no key before '='");
}

// The error message of `path=value`, or "" if it is accepted.
std::string reject(const char *arg, std::string *hint = nullptr) {
  nicsim_config c;
  nc_error e{};
  if (set1(&c, arg, &e) == 0) return "";
  if (hint) *hint = e.hint;
  return e.msg;
}

TEST(ConfigValues, Integers) {
  std::string hint;
  EXPECT_EQ(reject("nic.rx_ring_size=0x200"), "");
  EXPECT_EQ(reject("nic.rx_ring_size=+64"), "");
  EXPECT_EQ(reject("nic.desc_spacing=5000"),
            "nic.desc_spacing = 5000 is out of range; expected an integer in [4, 4096] (B)");
  EXPECT_EQ(reject("memory.size_mb=-64"),
            "memory.size_mb = -64 is out of range; expected an integer in [1, 4096] (MiB)");
  EXPECT_EQ(reject("run.seed=99999999999999999999999"),
            "run.seed = 99999999999999999999999 is out of range; expected an integer in [0, "
            "9200000000000000000]");
  EXPECT_EQ(reject("run.seed=-9223372036854775808"),
            "run.seed = -9223372036854775808 is out of range; expected an integer in [0, "
            "9200000000000000000]");
  EXPECT_EQ(reject("nic.desc_spacing=1e3"),
            "invalid value '1e3' for nic.desc_spacing; expected an integer in [4, 4096] (B)");
  EXPECT_EQ(reject("nic.desc_spacing=0x"),
            "invalid value '0x' for nic.desc_spacing; expected an integer in [4, 4096] (B)");
  EXPECT_EQ(reject("nic.desc_spacing= 16"),
            "invalid value ' 16' for nic.desc_spacing; expected an integer in [4, 4096] (B)");
  EXPECT_NE(reject("nic.desc_spacing=010", &hint), "");
  EXPECT_NE(hint.find("leading zeros"), std::string::npos);
  EXPECT_NE(reject("nic.desc_spacing=1_000"), "");
}

TEST(ConfigValues, Reals) {
  std::string hint;
  EXPECT_EQ(reject("traffic.rate_gbps=2.5"), "");
  EXPECT_EQ(reject("traffic.rate_gbps=1e1"), "");
  EXPECT_EQ(reject("traffic.rate_gbps=.5"), "");
  EXPECT_EQ(reject("traffic.rate_gbps=nan", &hint),
            "invalid value 'nan' for traffic.rate_gbps; expected a number in [0, 100] (Gbit/s)");
  EXPECT_EQ(hint, "NaN and infinity are not allowed; write a finite number");
  EXPECT_NE(reject("traffic.rate_gbps=.NaN"), "");
  EXPECT_NE(reject("traffic.rate_gbps=-.inf"), "");
  EXPECT_NE(reject("traffic.rate_gbps=Infinity"), "");
  EXPECT_EQ(reject("traffic.rate_gbps=1e999"),
            "traffic.rate_gbps = 1e999 is out of range; expected a number in [0, 100] (Gbit/s)");
  EXPECT_EQ(reject("traffic.rate_gbps=-1"),
            "traffic.rate_gbps = -1 is out of range; expected a number in [0, 100] (Gbit/s)");
  EXPECT_EQ(reject("run.duration_us=2e8"),
            "run.duration_us = 2e8 is out of range; expected a number in [1, 10000000] (us)");
  EXPECT_EQ(reject("traffic.rate_gbps=10 Gbit", &hint),
            "invalid value '10 Gbit' for traffic.rate_gbps; expected a number in [0, 100] "
            "(Gbit/s)");
  EXPECT_EQ(hint, "write a decimal number such as 2.5 or 1e3");
  EXPECT_NE(reject("traffic.rate_gbps= 1"), "");
  EXPECT_NE(reject("traffic.rate_gbps=abc"), "");
}

TEST(ConfigValues, BooleansAndEnums) {
  std::string hint;
  EXPECT_EQ(reject("memory.coherent_dma=true"), "");
  EXPECT_EQ(reject("memory.coherent_dma=yes", &hint),
            "invalid value 'yes' for memory.coherent_dma; expected true or false");
  EXPECT_NE(hint.find("yes/no/on/off"), std::string::npos);
  EXPECT_NE(reject("memory.coherent_dma=True"), "");
  EXPECT_NE(reject("memory.coherent_dma=1"), "");
  EXPECT_EQ(reject("traffic.mode=bidr", &hint),
            "invalid value 'bidr' for traffic.mode; expected one of rx, tx, bidir, forward");
  EXPECT_EQ(hint, "did you mean 'bidir'?");
  EXPECT_NE(reject("traffic.mode=RX", &hint), "");
  EXPECT_EQ(hint, "did you mean 'rx'? (choices are case-sensitive)");
  EXPECT_NE(reject("cpu.kind=powerpc", &hint), "");
  EXPECT_EQ(hint, "");
}

TEST(ConfigFormat, RealsAreShortestRoundTrip) {
  nicsim_config c;
  nc_config_defaults(&c);
  const nc_key *k = nc_key_find("traffic.rate_gbps");
  const double vals[] = {0.1, 2.5, 1.0 / 3.0, 10, 1e7, 99.99999999999999, 5e-324, 1e-5, 0};
  // 1/3 needs 16 digits: 15 do not read back exactly.
  const char *want[] = {"0.1",   "2.5",   "0.3333333333333333", "10", "10000000",
                        nullptr, nullptr, "1e-05",              "0"};
  char buf[64];
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
    c.traffic.rate_gbps = vals[i];
    nc_value_format(&c, k, buf, sizeof buf);
    EXPECT_EQ(std::strtod(buf, nullptr), vals[i]) << buf;
    if (want[i]) {
      EXPECT_STREQ(buf, want[i]);
    }
  }
  c.traffic.rate_gbps = -0.0;
  nc_value_format(&c, k, buf, sizeof buf);
  EXPECT_STREQ(buf, "0");
  // Truncation is safe.
  char small[4];
  c.traffic.rate_gbps = 12.345;
  nc_value_format(&c, k, small, sizeof small);
  EXPECT_STREQ(small, "12.");
}

TEST(ConfigFormat, OtherTypesAndNumbers) {
  nicsim_config c;
  nc_config_defaults(&c);
  c.traffic.mode = NC_MODE_TX;
  c.memory.coherent_dma = true;
  c.run.seed = -5;
  EXPECT_EQ(value_of(c, "traffic.mode"), "tx");
  EXPECT_EQ(value_of(c, "memory.coherent_dma"), "true");
  EXPECT_EQ(value_of(c, "run.seed"), "-5");
  EXPECT_EQ(nc_value_number(&c, nc_key_find("traffic.mode")), 1.0);
  EXPECT_EQ(nc_value_number(&c, nc_key_find("memory.coherent_dma")), 1.0);
  EXPECT_EQ(nc_value_number(&c, nc_key_find("run.seed")), -5.0);
  EXPECT_EQ(nc_value_number(&c, nc_key_find("cpu.clock_mhz")), 2000.0);
  EXPECT_TRUE(std::isnan(nc_value_number(&c, nullptr)));
}

TEST(ConfigErrorPrint, Formats) {
  nc_error e{};
  std::snprintf(e.where.file, sizeof e.where.file, "a/b.yaml");
  e.where.line = 3;
  e.where.col = 5;
  std::snprintf(e.msg, sizeof e.msg, "something is wrong");
  EXPECT_EQ(printed(e), "a/b.yaml:3:5: error: something is wrong\n");
  std::snprintf(e.hint, sizeof e.hint, "fix it");
  EXPECT_EQ(printed(e), "a/b.yaml:3:5: error: something is wrong\n  hint: fix it\n");
  e.where.line = 0;
  EXPECT_EQ(printed(e), "a/b.yaml: error: something is wrong\n  hint: fix it\n");
  e.where.file[0] = 0;
  EXPECT_EQ(printed(e), "error: something is wrong\n  hint: fix it\n");
}

TEST(ConfigBuiltin, TableHoldsTheDefaultScenario) {
  const char *def = nicsim_builtin_find("scenarios/default.yaml");
  ASSERT_NE(def, nullptr) << "scenarios/default.yaml is not in the built-in table";
  EXPECT_GT(std::strlen(def), 0u);
  EXPECT_EQ(nicsim_builtin_find("scenarios/nope.yaml"), nullptr);
  EXPECT_EQ(nicsim_builtin_find(nullptr), nullptr);
  size_t n = 0;
  for (const nicsim_builtin_file *f = nicsim_builtin_files; f->path; f++, n++)
    EXPECT_EQ(nicsim_builtin_find(f->path), f->text);
  EXPECT_GE(n, 1u);
}

}  // namespace
