// test_pcie_dma_bench.cpp: whole dma-bench runs through nicsim_simulate:
// write saturation against TLP bandwidth x payload / (payload + overhead),
// credit throttling by the predicted amount, a serialising root complex with
// and without relaxed ordering, read latency, the on-chip bus instead of the
// link, metrics and determinism.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "sim/model_params.h"
#include "config/config.h"
#include "pcie/tlp_format.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"

namespace {

using nicsim::test::metric;
using nicsim::test::run_ok;

/* Defaults, dma-bench on Gen3 x8, plus "key=value" overrides; not yet cross-checked. */
nicsim_config make_unchecked_cfg(std::initializer_list<const char *> sets) {
  return nicsim::test::config_with({"workload.kind=dma-bench", "pcie.gen=3", "pcie.lanes=8", "pcie.mps=256", "pcie.mrrs=512",
                                   "pcie.latency_ns=100", "pcie.rd_latency_ns=300", "run.duration_us=110",
                                   "run.warmup_us=10", "run.drain_us=20"},
                                   sets);
}

/* make_unchecked_cfg, checked like a resolved scenario. */
nicsim_config make_cfg(std::initializer_list<const char *> sets) {
  nicsim_config c = make_unchecked_cfg(sets);
  nc_error e;
  EXPECT_EQ(nc_config_check(&c, &e), 0) << e.msg;
  return c;
}

/* TLP bandwidth of the link (Gbit/s): the encoded rate less the SKP ordered sets' share. */
double tlp_gbps(const nicsim_config &cfg) {
  const nicsim::TlpFormat f(nicsim::pcie_params(cfg));
  return f.effective_gbps() * (1.0 - static_cast<double>(f.skp_ps()) / static_cast<double>(f.skp_interval_ps()));
}

TEST(DmaBench, WorkloadEnumsMatchTheirChoiceStrings) {
  EXPECT_EQ(make_cfg({}).workload.kind, NC_WORKLOAD_DMA_BENCH);
  EXPECT_EQ(make_cfg({"workload.kind=nic"}).workload.kind, NC_WORKLOAD_NIC);
  EXPECT_EQ(make_cfg({"workload.op=read"}).workload.op, NC_WORKLOAD_READ);
  EXPECT_EQ(make_cfg({"workload.op=write"}).workload.op, NC_WORKLOAD_WRITE);
  EXPECT_EQ(make_cfg({"workload.op=read_write"}).workload.op, NC_WORKLOAD_READ_WRITE);
  nicsim_config c;
  nc_config_defaults(&c);
  nc_error e;
  EXPECT_NE(nc_config_set(&c, "workload.op=scatter", &e), 0);
}

void expect_write_saturation(const char *size) {
  const std::string sz = std::string("workload.size_bytes=") + size;
  const std::string win = std::string("workload.window_bytes=") + size; /* every request at 0: no 4 KiB splits */
  nicsim_config cfg = make_cfg({"workload.op=write", "workload.outstanding=8", sz.c_str(), win.c_str()});
  nicsim_results r;
  run_ok(cfg, &r);
  const nicsim::TlpFormat f(nicsim::pcie_params(cfg));
  const double payload = static_cast<double>(cfg.workload.size_bytes);
  const double tlps = f.count_write_tlps(0, cfg.workload.size_bytes);
  const double overhead = tlps * (f.header_bytes(nicsim::TlpKind::MemWrite, 0) + f.link_overhead_bytes());
  const double want = tlp_gbps(cfg) * payload / (payload + overhead);
  EXPECT_NEAR(metric(r, "dma.gbps") / want, 1.0, 0.01) << size << " B: " << metric(r, "dma.gbps") << " vs " << want;
  EXPECT_GT(metric(r, "pcie.up.util"), 0.99);
  /* Acks for the writes come back downstream. */
  EXPECT_GT(metric(r, "pcie.down.dllp_bytes"), 0);
  EXPECT_GT(metric(r, "pcie.up.skp_bytes"), 0);
  EXPECT_EQ(metric(r, "pcie.up.overhead_bytes"), metric(r, "pcie.up.bytes") - metric(r, "pcie.up.payload_bytes"));
}

TEST(DmaBench, WriteSaturation64B) { expect_write_saturation("64"); }
TEST(DmaBench, WriteSaturation256B) { expect_write_saturation("256"); }
TEST(DmaBench, WriteSaturation1500B) { expect_write_saturation("1500"); }

TEST(DmaBench, TooFewPostedCreditsThrottleByThePredictedAmount) {
  /* 32 data credits = two 256 B writes in flight per credit round trip:
   * TLP (280 B) + 100 ns + UpdateFC timer 500 ns + DLLP (8 B) + 100 ns. */
  nicsim_config cfg = make_cfg({"workload.op=write", "workload.size_bytes=256", "workload.outstanding=8",
                                "pcie.rc_pd_credits=32", "pcie.ack_latency_ns=500"});
  nicsim_results r;
  run_ok(cfg, &r);
  const nicsim::TlpFormat f(nicsim::pcie_params(cfg));
  const double rtt_ns = (f.serialise_ps(280) + 100000.0 + 500000.0 + f.serialise_ps(8) + 100000.0) / 1000.0;
  const double want = 2 * 256 * 8 / rtt_ns;
  EXPECT_NEAR(metric(r, "dma.gbps") / want, 1.0, 0.01) << metric(r, "dma.gbps") << " vs " << want;
  EXPECT_GT(metric(r, "pcie.up.credit_stalls"), 0);
  EXPECT_GT(metric(r, "pcie.up.credit_stall_ns"), 0);
  EXPECT_LT(metric(r, "pcie.up.util"), 0.1);
}

TEST(DmaBench, SerialisingRootComplexWithoutRoCommitsOneLinePerCommitTime) {
  /* 8 posted header credits, freed only as writes commit: 64 B lines one per 200 ns. */
  nicsim_config cfg = make_cfg({"workload.op=write", "workload.size_bytes=64", "workload.outstanding=8",
                                "pcie.rc_ph_credits=8", "pcie.rc_serialize_writes=true",
                                "pcie.rc_write_commit_ns=200"});
  nicsim_results r;
  run_ok(cfg, &r);
  EXPECT_NEAR(metric(r, "dma.gbps") / (64 * 8 / 200.0), 1.0, 0.01) << metric(r, "dma.gbps");
}

TEST(DmaBench, RelaxedOrderingLetsASerialisingRootComplexPipeline) {
  nicsim_config strong = make_cfg({"workload.op=write", "workload.size_bytes=64", "workload.outstanding=8",
                                   "pcie.rc_ph_credits=8", "pcie.rc_serialize_writes=true",
                                   "pcie.rc_write_commit_ns=200", "workload.relaxed_ordering=true"});
  nicsim_results r;
  run_ok(strong, &r);
  /* 8 headers per round trip: TLP (88 B) + 100 ns + 200 ns commit + UpdateFC timer + DLLP + 100 ns. */
  const nicsim::TlpFormat f(nicsim::pcie_params(strong));
  const double rtt_ns =
      (f.serialise_ps(88) + 100000.0 + 200000.0 + f.ack_latency_ps() + f.serialise_ps(8) + 100000.0) / 1000.0;
  const double want = std::min(8 * 64 * 8 / rtt_ns, tlp_gbps(strong) * 64 / 88);
  EXPECT_NEAR(metric(r, "dma.gbps") / want, 1.0, 0.02) << metric(r, "dma.gbps") << " vs " << want;
  EXPECT_GT(metric(r, "dma.gbps"), 3 * (64 * 8 / 200.0));
}

TEST(DmaBench, ReadLatencyIsTheRoundTripAndTagsLimitOutstanding) {
  /* One simulation per process: the tag-limited run goes in a child first. */
  nicsim_config tags = make_cfg({"workload.op=read", "workload.size_bytes=64", "workload.outstanding=64",
                                 "pcie.tags=32"});
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    nicsim_results t;
    nicsim_sim_error err;
    if (nicsim_simulate(&tags, &t, &err, 0) != 0) _exit(10);
    double mx = 0, stalls = 0, mean = 0;
    nicsim_results_get(&t, "pcie.rd_outstanding_max", &mx);
    nicsim_results_get(&t, "pcie.tag_stalls", &stalls);
    nicsim_results_get(&t, "pcie.rd_outstanding_mean", &mean);
    _exit(mx == 32 && stalls > 0 && mean > 31 && mean <= 32 ? 0 : 11);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "10: the run failed; 11: outstanding reads not capped at pcie.tags";

  nicsim_config cfg = make_cfg({"workload.op=read", "workload.size_bytes=64", "workload.outstanding=1"});
  nicsim_results r;
  run_ok(cfg, &r);
  const nicsim::TlpFormat f(nicsim::pcie_params(cfg));
  /* MRd (24 B) + 100 ns + 300 ns + CplD (64 + 20 B) + 100 ns, plus at most an SKP or DLLP in the way. */
  const double rt = (f.serialise_ps(24) + 100000.0 + 300000.0 + f.serialise_ps(84) + 100000.0) / 1000.0;
  EXPECT_GE(metric(r, "dma.rd_latency_ns"), rt - 0.001);
  EXPECT_LT(metric(r, "dma.rd_latency_ns"), rt + 1.0);
  EXPECT_NEAR(metric(r, "dma.rd_latency_ns.p99"), rt, rt / 128 + 17);
  EXPECT_NEAR(metric(r, "pcie.rd_latency_ns.p50"), rt, rt / 128 + 17);
  EXPECT_EQ(metric(r, "pcie.rd_outstanding_max"), 1);
  EXPECT_NEAR(metric(r, "pcie.rd_outstanding_mean"), 1.0, 0.01);
}

TEST(DmaBench, EveryPcieAndDmaMetricIsFilled) {
  nicsim_config cfg = make_cfg({"workload.op=read_write", "workload.size_bytes=512", "workload.outstanding=16"});
  nicsim_results r;
  run_ok(cfg, &r);
  for (int i = 0; i < static_cast<int>(nicsim_metric_count()); i++) {
    const char *n = nicsim_metric_defs()[i].name;
    if (!std::strncmp(n, "pcie.", 5) || !std::strncmp(n, "dma.", 4)) {
      EXPECT_TRUE(r.present[i]) << n;
    }
  }
  EXPECT_GT(metric(r, "dma.gbps"), 0);
  EXPECT_GT(metric(r, "dma.rd_latency_ns"), 0);
  EXPECT_GT(metric(r, "pcie.up.payload_bytes"), 0);
  EXPECT_GT(metric(r, "pcie.down.payload_bytes"), 0);
  EXPECT_GT(metric(r, "pcie.up.dllp_bytes"), 0);
}

/* Config checking rejects these (exit 2, at the value's position); the
 * simulation still refuses them when handed an unchecked config directly,
 * as an embedding program might. */
TEST(DmaBench, AWindowLargerThanMemoryIsAClearError) {
  nicsim_config cfg = make_unchecked_cfg({"workload.window_bytes=1073741824", "memory.size_mb=64"});
  nc_error e;
  EXPECT_EQ(nc_config_check(&cfg, &e), -1);
  EXPECT_NE(std::strstr(e.msg, "does not fit in host memory"), nullptr) << e.msg;
  nicsim_results r;
  nicsim_sim_error err;
  EXPECT_EQ(nicsim_simulate(&cfg, &r, &err, 0), 1);
  EXPECT_NE(std::strstr(err.msg, "workload.window_bytes"), nullptr) << err.msg;
}

TEST(DmaBench, ADrainTooShortForTheLastReadsIsAnError) {
  /* 1 MiB reads at tags=1 take far longer than a 0.01 us drain. */
  nicsim_config cfg = make_cfg({"workload.op=read", "workload.size_bytes=1048576", "workload.outstanding=2",
                                "workload.window_bytes=2097152", "pcie.tags=1", "run.drain_us=0.01"});
  nicsim_results r;
  nicsim_sim_error err;
  EXPECT_EQ(nicsim_simulate(&cfg, &r, &err, 0), 1);
  EXPECT_NE(std::strstr(err.msg, "run.drain_us"), nullptr) << err.msg;
}

TEST(DmaBench, OnChipBusWritesSaturateWidthTimesClock) {
  nicsim_config cfg = make_cfg({"bus.enabled=true", "bus.width_bytes=16", "bus.clock_mhz=250",
                                "bus.burst_beats=16", "workload.op=write", "workload.size_bytes=256",
                                "workload.outstanding=8"});
  nicsim_results r;
  run_ok(cfg, &r);
  EXPECT_NEAR(metric(r, "dma.gbps") / (16 * 8 * 0.25), 1.0, 0.01) << metric(r, "dma.gbps");
  EXPECT_GT(metric(r, "bus.wr_util"), 0.99);
  double v = 0;
  EXPECT_FALSE(nicsim_results_get(&r, "pcie.up.tlps", &v)) << "no PCIe link in a bus run";
}

TEST(DmaBench, OnChipBusReadLatencyIsAddressLatencyAndBeats) {
  nicsim_config cfg = make_cfg({"bus.enabled=true", "bus.width_bytes=16", "bus.clock_mhz=250",
                                "bus.rd_latency_ns=100", "workload.op=read", "workload.size_bytes=256",
                                "workload.outstanding=1"});
  nicsim_results r;
  run_ok(cfg, &r);
  /* 4 ns address + 100 ns + 16 beats of 4 ns. */
  EXPECT_NEAR(metric(r, "dma.rd_latency_ns"), 168.0, 1e-9);
  EXPECT_NEAR(metric(r, "dma.gbps"), 256 * 8 / 168.0, 0.01 * 256 * 8 / 168.0);
}

TEST(DmaBench, TheNicWorkloadOverTheBusIsAccepted) {
  /* The NIC workload runs over the bus too (tests/sim/test_bus_nic.cpp). */
  nicsim_config cfg = make_unchecked_cfg({"workload.kind=nic", "bus.enabled=true"});
  nc_error e;
  EXPECT_EQ(nc_config_check(&cfg, &e), 0) << e.msg;
}

/* Runs cfg in a child process and returns its metrics' values, in order. */
std::vector<double> run_in_child(const nicsim_config &cfg) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    nicsim_results r;
    nicsim_sim_error err;
    if (nicsim_simulate(&cfg, &r, &err, 0) != 0) _exit(1);
    for (int i = 0; i < static_cast<int>(nicsim_metric_count()); i++) {
      const double v = r.present[i] && i != nicsim_metric_find("sim.wall_s") ? r.value[i] : -1;
      if (write(fds[1], &v, sizeof v) != static_cast<ssize_t>(sizeof v)) _exit(2);
    }
    _exit(0);
  }
  close(fds[1]);
  std::vector<double> out(nicsim_metric_count());
  size_t got = 0;
  while (got < sizeof(double) * nicsim_metric_count()) {
    const ssize_t n = read(fds[0], reinterpret_cast<char *>(out.data()) + got, sizeof(double) * nicsim_metric_count() - got);
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return out;
}

TEST(DmaBench, SameConfigTwiceGivesIdenticalMetrics) {
  nicsim_config cfg = make_cfg({"workload.op=read_write", "workload.size_bytes=300", "workload.outstanding=5",
                                "pcie.rc_pd_credits=64", "pcie.rc_nph_credits=8", "pcie.tags=4"});
  const std::vector<double> a = run_in_child(cfg);
  const std::vector<double> b = run_in_child(cfg);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); i++) EXPECT_EQ(std::memcmp(&a[i], &b[i], sizeof(double)), 0) << i;
  EXPECT_GT(a[nicsim_metric_find("dma.gbps")], 0);
}

}  // namespace
