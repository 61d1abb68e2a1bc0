// test_multiqueue.cpp: whole runs with several queues (docs/nic.md, Queues):
// RSS spreads the wire's flows over the RX queues exactly as the Toeplitz
// hash and the driver's default table say (generic and i40e), one MSI per
// frame on each queue's own vector, conservation per queue and both
// directions with 4 queue pairs (the kernel checks each frame's queue as it
// goes up, the top checks each queue's count after the drain), a valid
// trace with per-queue tracks and NAPI polls in time order, and one queue
// unchanged by the queue keys. Each run in its own process.
#include <gtest/gtest.h>
#include <jansson.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"

namespace {

using nicsim::test::expect_conservation;
using nicsim::test::metric;
using nicsim::test::run_in_child;
using nicsim::test::run_ok;

/* 1518 B RX at 10 GbE on the default platform: one core keeps up (no drops),
 * so the frames written back in the window are a run of consecutive frame
 * numbers (one FIFO, written back in order). */
nicsim_config make_cfg(std::initializer_list<const char *> sets) {
  return nicsim::test::checked_config({"run.duration_us=600", "run.warmup_us=100", "run.drain_us=1000"}, sets);
}

/* The table entries (Toeplitz hash & 127) of the 16 test flows with the MS
 * key; tests/models/nic_mq_test.cpp derives them (hashes listed there). */
const uint32_t kEntry[16] = {20, 69, 124, 45, 96, 49, 8, 89, 46, 127, 70, 23, 90, 11, 50, 99};

/* The frames of the window are frames n0 .. n0 + total - 1 of the wire, frame
 * n of flow n mod 16: true if some n0 gives exactly count[q] of them to
 * each queue q (queue of flow f: kEntry[f] mod queues). */
bool counts_fit_a_run_of_frames(const std::vector<double> &count, uint32_t queues) {
  double total = 0;
  for (double c : count) total += c;
  if (!(total >= 0 && total < 1e7)) return false; /* not a count of this run's frames */
  for (uint32_t n0 = 0; n0 < 16; n0++) {
    std::vector<double> want(queues, 0);
    for (uint64_t n = n0; n < n0 + static_cast<uint64_t>(total); n++) want[kEntry[n % 16] % queues] += 1;
    if (want == count) return true;
  }
  return false;
}

std::vector<double> rxq_counts(const nicsim_results &r, uint32_t queues) {
  std::vector<double> c;
  char name[32];
  for (uint32_t q = 0; q < queues; q++) {
    std::snprintf(name, sizeof name, "nic.rxq%u.pkts", q);
    c.push_back(metric(r, name));
  }
  return c;
}

/* Generic NIC, 4 queues, 16 flows: 4 flows per queue, so the counts are
 * equal within one frame, and exactly those of a run of frames. */
TEST(Multiqueue, GenericSpreadsSixteenFlowsOverFourQueuesAsTheHashSays) {
  nicsim_results r;
  ASSERT_NO_FATAL_FAILURE(run_ok(make_cfg({"nic.rx_queues=4", "nic.tx_queues=4", "traffic.flows=16"}), &r));
  expect_conservation(r);
  EXPECT_EQ(metric(r, "rx.drops"), 0);
  const std::vector<double> c = rxq_counts(r, 4);
  EXPECT_GT(c[0], 100);
  EXPECT_TRUE(counts_fit_a_run_of_frames(c, 4)) << c[0] << " " << c[1] << " " << c[2] << " " << c[3];
  double vec_sum = 0;
  char name[32];
  for (uint32_t v = 0; v < 4; v++) {
    std::snprintf(name, sizeof name, "irq.vec%u.count", v);
    EXPECT_GT(metric(r, name), 0) << name;
    vec_sum += metric(r, name);
  }
  EXPECT_EQ(vec_sum, metric(r, "irq.count"));
}

/* i40e, 3 queues, 16 flows: entry mod 3 gives the queues 5, 5 and 6 flows,
 * so queue 2 gets 6/16 of the frames and queues 0 and 1 5/16 each, exactly
 * as a run of frames splits. */
TEST(Multiqueue, I40eSpreadsSixteenFlowsOverThreeQueuesUnevenly) {
  nicsim_results r;
  ASSERT_NO_FATAL_FAILURE(
      run_ok(make_cfg({"nic.family=i40e", "driver.name=i40e", "nic.rx_queues=3", "traffic.flows=16"}), &r));
  expect_conservation(r);
  EXPECT_EQ(metric(r, "rx.drops"), 0);
  const std::vector<double> c = rxq_counts(r, 3);
  EXPECT_TRUE(counts_fit_a_run_of_frames(c, 3)) << c[0] << " " << c[1] << " " << c[2];
  EXPECT_GT(c[2], c[0]);
  /* Only as many TX queues as asked for: none of their extras beyond queue 0. */
  double v = 0;
  EXPECT_FALSE(nicsim_results_get(&r, "nic.txq1.pkts", &v));
}

/* Eight flows on four queues: entries 20 69 124 45 96 49 8 89 are 0 or 1
 * mod 4, so queues 2 and 3 get nothing (the Toeplitz hash of ports that
 * differ in their low bits), queues 0 and 1 half each. */
TEST(Multiqueue, EightFlowsUseOnlyTwoOfFourQueues) {
  nicsim_results r;
  ASSERT_NO_FATAL_FAILURE(run_ok(make_cfg({"nic.rx_queues=4", "traffic.flows=8"}), &r));
  expect_conservation(r);
  const std::vector<double> c = rxq_counts(r, 4);
  EXPECT_EQ(c[2], 0);
  EXPECT_EQ(c[3], 0);
  EXPECT_LE(std::fabs(c[0] - c[1]), 1);
  EXPECT_EQ(metric(r, "irq.vec2.count"), 0);
  EXPECT_EQ(metric(r, "irq.vec3.count"), 0);
}

/* One frame every 12.1 us (1518 B at 1 Gbit/s), coalescing 1: every
 * completion finds its vector unmasked (the poll of the previous frame on it
 * ended long before), so each vector raises exactly one MSI per frame of its
 * own queue, at the write-back that counts the frame. */
TEST(Multiqueue, OneMsiPerFrameOnTheQueuesOwnVector) {
  nicsim_results r;
  ASSERT_NO_FATAL_FAILURE(run_ok(
      make_cfg({"nic.rx_queues=4", "traffic.flows=16", "traffic.rate_gbps=1", "nic.irq_coal_frames=1"}), &r));
  expect_conservation(r);
  char name[32];
  for (uint32_t q = 0; q < 4; q++) {
    std::snprintf(name, sizeof name, "nic.rxq%u.pkts", q);
    const double pkts = metric(r, name);
    EXPECT_GT(pkts, 5) << name;
    std::snprintf(name, sizeof name, "irq.vec%u.count", q);
    EXPECT_EQ(metric(r, name), pkts) << name;
    std::snprintf(name, sizeof name, "irq.vec%u.suppressed", q);
    EXPECT_EQ(metric(r, name), 0) << name;
  }
}

/* Four queue pairs in both directions: the host's 16 flows go to TX queue
 * flow mod 4, round robin, so the TX queues' counts are equal within one
 * frame; everything sent arrives (the wire peer checks order per flow), and
 * every RX queue's frames reach the stack from that queue's NAPI. */
TEST(Multiqueue, ConservationWithFourQueuePairsBothWays) {
  nicsim_results r;
  ASSERT_NO_FATAL_FAILURE(run_ok(make_cfg({"nic.rx_queues=4", "nic.tx_queues=4", "traffic.flows=16",
                                           "traffic.mode=bidir", "traffic.rate_gbps=2"}),
                                  &r));
  expect_conservation(r);
  EXPECT_GT(metric(r, "tx.pkts"), 40); /* the one core is mostly busy with RX at line rate */
  char name[32];
  double lo = 1e18, hi = 0, sum = 0;
  for (uint32_t q = 0; q < 4; q++) {
    std::snprintf(name, sizeof name, "nic.txq%u.pkts", q);
    const double v = metric(r, name);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  EXPECT_LE(hi - lo, 1);
  EXPECT_LE(std::fabs(sum - metric(r, "tx.pkts")), 4); /* read from the ring vs sent on the wire: a few in the FIFO */
}

/* With one queue the queue keys change nothing: an explicit rx_queues 1,
 * tx_queues 1 and another table size and key give the run without them,
 * metric for metric (the regression suite checks the scenarios' values). */
TEST(Multiqueue, OneQueueIsUnchangedByTheQueueKeys) {
  nicsim_results a, b;
  ASSERT_TRUE(run_in_child(make_cfg({"traffic.mode=bidir", "traffic.flows=4"}), &a));
  ASSERT_TRUE(run_in_child(make_cfg({"traffic.mode=bidir", "traffic.flows=4", "nic.rx_queues=1", "nic.tx_queues=1",
                                     "nic.rss_table_size=16",
                                     "nic.rss_key=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff0011223344556677"}),
                           &b));
  size_t n = 0;
  nicsim_metric_view va, vb;
  for (size_t i = 0; nicsim_results_at(&a, i, &va); i++, n++) {
    ASSERT_TRUE(nicsim_results_at(&b, i, &vb));
    ASSERT_STREQ(va.name, vb.name);
    if (va.kind == NM_KIND_WALL) continue;
    EXPECT_EQ(va.value, vb.value) << va.name;
  }
  EXPECT_FALSE(nicsim_results_at(&b, n, &vb));
  double v = 0;
  EXPECT_FALSE(nicsim_results_get(&a, "nic.rxq0.pkts", &v)) << "no per-queue extras with one queue";
}

/* Runs cfg with a trace in a child process; true if it succeeded. */
bool traced_run(const nicsim_config &cfg, const std::string &path) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (nicsim_trace_open(path.c_str()) != 0) _exit(3);
    nicsim_results r;
    nicsim_sim_error err;
    const int rc = nicsim_simulate(&cfg, &r, &err, 0);
    if (nicsim_trace_close() != 0) _exit(4);
    _exit(rc);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* --trace with 4 queue pairs: valid JSON; tracks rxq<q>.dma, rxq<q>.fetch,
 * txq<q>.fetch, irq<q>.msi and cpu0.napi<q> for every q, with events; every
 * track in time order; every NAPI poll's work within its budget, and the
 * polls of queue q's NAPI add up to at least queue q's frames in the window. */
TEST(Multiqueue, TraceHasPerQueueTracksAndNapiPollsInTimeOrder) {
  char dir[] = "/tmp/nicsim-mq-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/t.json";
  ASSERT_TRUE(traced_run(make_cfg({"nic.rx_queues=4", "nic.tx_queues=4", "traffic.flows=16", "traffic.mode=bidir",
                                   "traffic.rate_gbps=2", "run.duration_us=200", "run.warmup_us=50"}),
                         path));
  json_error_t jerr;
  json_t *doc = json_load_file(path.c_str(), 0, &jerr);
  ASSERT_NE(doc, nullptr) << jerr.text << " at line " << jerr.line;
  json_t *events = json_object_get(doc, "traceEvents");
  ASSERT_TRUE(json_is_array(events));
  std::map<json_int_t, std::string> track;
  std::map<std::string, size_t> count;
  std::map<json_int_t, double> last;
  std::map<std::string, json_int_t> napi_work;
  for (size_t i = 0; i < json_array_size(events); i++) {
    json_t *e = json_array_get(events, i);
    const char *name = json_string_value(json_object_get(e, "name"));
    const json_int_t tid = json_integer_value(json_object_get(e, "tid"));
    if (name && std::strcmp(name, "thread_name") == 0) {
      track[tid] = json_string_value(json_object_get(json_object_get(e, "args"), "name"));
      continue;
    }
    json_t *ts = json_object_get(e, "ts");
    if (!json_is_number(ts)) continue;
    const char *ph = json_string_value(json_object_get(e, "ph"));
    if (ph && std::strcmp(ph, "C") == 0) continue; /* counters: tracks of their own, by name */
    ASSERT_TRUE(track.count(tid)) << "event " << i << " on a track not yet named";
    const std::string &t = track[tid];
    count[t]++;
    const double v = json_number_value(ts);
    if (last.count(tid)) {
      EXPECT_GE(v, last[tid]) << "event " << i << " on " << t << " goes back in time";
    }
    last[tid] = v;
    if (name && std::strcmp(name, "napi_poll") == 0) {
      json_t *args = json_object_get(e, "args");
      const json_int_t work = json_integer_value(json_object_get(args, "work"));
      EXPECT_GE(work, 0);
      EXPECT_LE(work, json_integer_value(json_object_get(args, "budget")));
      EXPECT_EQ(t.compare(0, 9, "cpu0.napi"), 0) << t;
      napi_work[t] += work;
    }
  }
  json_decref(doc);
  for (int q = 0; q < 4; q++) {
    for (const char *fmt : {"rxq%d.dma", "rxq%d.fetch", "txq%d.fetch", "txq%d.writeback", "irq%d.msi", "cpu0.napi%d"}) {
      char name[32];
      std::snprintf(name, sizeof name, fmt, q);
      EXPECT_GT(count[name], 0u) << name;
    }
    char name[32];
    std::snprintf(name, sizeof name, "cpu0.napi%d", q);
    EXPECT_GT(napi_work[name], 0) << name;
  }
  std::remove(path.c_str());
  rmdir(dir);
}

}  // namespace
