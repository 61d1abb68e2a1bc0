// test_trace.cpp: the timeline trace's TLP detail and counter tracks
// (docs/cli.md, --trace-detail, --trace-sample-us): with TLP detail the up
// link track holds one slice per upstream TLP (as many as pcie.up.tlps over a
// run whose window is the whole run); counter tracks for ring occupancy,
// tags, credits, core busy and MSI rate exist with values in range, and the
// MSI rate adds up to the MSI count; a time window holds every event,
// counters included; no track is named without events; and two runs of one
// config give byte-identical traces. Each run in its own process.
#include <gtest/gtest.h>
#include <jansson.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"
#include "sim_test_util.h"

namespace {

using nicsim::test::metric;

constexpr double kSampleUs = 5;
constexpr int kTags = 16;
constexpr int kPh = 16, kPd = 64, kNph = 8;

/* 64 B RX and TX at 4 Gbit/s with few tags and finite credits, so tags,
 * credits and rings all move; warmup and drain 0: the metrics' window is
 * the whole run, as is the trace's. */
nicsim_config make_cfg() {
  return nicsim::test::checked_config(
      {"run.duration_us=150", "run.warmup_us=0", "run.drain_us=0", "traffic.mode=bidir", "traffic.rate_gbps=4",
       "pcie.tags=16", "pcie.rc_ph_credits=16", "pcie.rc_pd_credits=64", "pcie.rc_nph_credits=8"},
      {});
}

/* Runs cfg in a child with a trace to path (TLP detail; window [from_us,
 * to_us), to_us 0: to the end); true if it succeeded; *r gets the metrics. */
bool traced_run(const nicsim_config &cfg, const std::string &path, nicsim_results *r, double from_us = 0,
                double to_us = 0) {
  return nicsim_test::in_child_process(
      [&](nicsim_results *out) {
        std::FILE *f = std::fopen(path.c_str(), "w");
        if (!f || nicsim_trace_start(f, from_us, to_us, 0) != 0) return 3;
        if (nicsim_trace_set_detail(1, kSampleUs) != 0) return 3;
        nicsim_sim_error err;
        const int rc = nicsim_simulate(&cfg, out, &err, 0);
        if (rc != 0) std::fprintf(stderr, "traced_run: %s: %s\n", err.component, err.msg);
        if (nicsim_trace_finish(nullptr, nullptr, nullptr) != 0 || std::fclose(f) != 0) return 4;
        return rc;
      },
      r);
}

struct Trace {
  std::map<json_int_t, std::string> track;           /* tid -> name */
  std::map<std::string, size_t> track_events;        /* events per named track */
  std::map<std::string, std::vector<std::pair<double, double>>> counters; /* name -> (ts, value) */
  std::map<std::string, size_t> up_tlps;             /* TLP slices on the up track, by type */
  std::vector<double> up_starts;                     /* their start times, us */
  double min_ts = INFINITY, max_end = -INFINITY;
  bool ok = false;
};

Trace load(const std::string &path) {
  Trace t;
  json_error_t jerr;
  json_t *doc = json_load_file(path.c_str(), 0, &jerr);
  EXPECT_NE(doc, nullptr) << jerr.text << " at line " << jerr.line;
  if (!doc) return t;
  json_t *events = json_object_get(doc, "traceEvents");
  EXPECT_TRUE(json_is_array(events));
  for (size_t i = 0; i < json_array_size(events); i++) {
    json_t *e = json_array_get(events, i);
    const char *name = json_string_value(json_object_get(e, "name"));
    const char *ph = json_string_value(json_object_get(e, "ph"));
    const json_int_t tid = json_integer_value(json_object_get(e, "tid"));
    if (!name || !ph) continue;
    if (std::strcmp(name, "thread_name") == 0) {
      t.track[tid] = json_string_value(json_object_get(json_object_get(e, "args"), "name"));
      continue;
    }
    json_t *ts = json_object_get(e, "ts");
    if (!json_is_number(ts)) continue;
    const double at = json_number_value(ts);
    if (std::strstr(name, "trace truncated")) continue;
    t.min_ts = std::min(t.min_ts, at);
    if (std::strcmp(ph, "C") == 0) {
      t.counters[name].push_back({at, json_number_value(json_object_get(json_object_get(e, "args"), "value"))});
      t.max_end = std::max(t.max_end, at);
      continue;
    }
    EXPECT_TRUE(t.track.count(tid)) << "event " << i << " on an unnamed track";
    const std::string &tn = t.track[tid];
    t.track_events[tn]++;
    const double dur = json_is_number(json_object_get(e, "dur")) ? json_number_value(json_object_get(e, "dur")) : 0;
    t.max_end = std::max(t.max_end, at + dur);
    const char *cat = json_string_value(json_object_get(e, "cat"));
    if (tn == "pcie up (device to host)" && cat && std::strcmp(cat, "tlp") == 0) {
      t.up_tlps[name]++;
      t.up_starts.push_back(at);
    }
  }
  json_decref(doc);
  t.ok = true;
  return t;
}

std::string slurp(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class TraceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char d[] = "/tmp/nicsim-trace-XXXXXX";
    ASSERT_NE(mkdtemp(d), nullptr);
    dir = d;
  }
  void TearDown() override {
    if (!HasFailure()) {
      for (const char *f : {"/a.json", "/b.json", "/w.json"}) std::remove((dir + f).c_str());
      rmdir(dir.c_str());
    }
  }
  std::string dir;
};

TEST_F(TraceTest, TlpSlicesCountersAndDeterminism) {
  const nicsim_config cfg = make_cfg();
  nicsim_results r, r2;
  ASSERT_TRUE(traced_run(cfg, dir + "/a.json", &r));
  const Trace t = load(dir + "/a.json");
  ASSERT_TRUE(t.ok);

  /* One slice per upstream TLP (MWr, MRd, CplD). pcie.up.tlps counts the
   * TLPs reserved by the window's end T (the run goes on past it while
   * frames are in flight); a TLP starts on the wire at or after its
   * reservation, and at most the wire's backlog after it, so the slices
   * starting before T are at most the metric, and those starting before
   * T + 1 us at least (a backlog of 1 us, ~8 KB at Gen3 x8, is far above
   * what 4 Gbit/s of traffic builds up). */
  const double T = 150;
  size_t before = 0, before_1us = 0;
  for (double s0 : t.up_starts) {
    before += s0 < T;
    before_1us += s0 < T + 1;
  }
  EXPECT_GT(before, 100u);
  EXPECT_LE(static_cast<double>(before), metric(r, "pcie.up.tlps"));
  EXPECT_GE(static_cast<double>(before_1us), metric(r, "pcie.up.tlps"));
  EXPECT_GT(t.up_tlps.count("MWr"), 0u);
  EXPECT_GT(t.up_tlps.count("MRd"), 0u);
  EXPECT_GT(t.track_events.count("pcie down (host to device)"), 0u);

  /* No track named without events. */
  for (const auto &kv : t.track) EXPECT_GT(t.track_events.count(kv.second), 0u) << kv.second << " is empty";

  /* Counters exist and stay in range. */
  const double ring = cfg.nic.rx_ring_size, tx_ring = cfg.nic.tx_ring_size;
  auto in_range = [&](const char *name, double lo, double hi) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(t.counters.count(name)) << "no counter " << name;
    const auto &v = t.counters.at(name);
    EXPECT_FALSE(v.empty());
    double mx = -INFINITY;
    for (const auto &p : v) {
      EXPECT_GE(p.second, lo);
      EXPECT_LE(p.second, hi);
      mx = std::max(mx, p.second);
    }
    EXPECT_GT(mx, lo) << "the counter never moves off its floor";
  };
  in_range("rxq0 ring owned", 0, ring);
  in_range("txq0 ring owned", 0, tx_ring);
  in_range("pcie tags in use", 0, kTags);
  in_range("pcie credits P hdr", 0, kPh);
  in_range("pcie credits P data", 0, kPd);
  in_range("pcie credits NP hdr", 0, kNph);
  in_range("cpu0 busy", 0, 1 + 1e-9);
  in_range("irq0 MSI rate (/s)", 0, 1e12);
  /* NP data credits are infinite (pcie.rc_nph_credits only): no track; nor
   * completion credits (infinite at a root port). */
  EXPECT_EQ(t.counters.count("pcie credits NP data"), 0u);

  /* The MSI rate, per interval of kSampleUs, adds up to the MSIs raised. */
  double msis = 0;
  for (const auto &kv : t.counters)
    if (kv.first.find("MSI rate") != std::string::npos)
      for (const auto &p : kv.second)
        if (p.first < T) msis += p.second * kSampleUs * 1e-6; /* intervals of [0, T): T is a multiple of kSampleUs */
  EXPECT_NEAR(msis, metric(r, "irq.count"), 1e-6);
  EXPECT_GT(msis, 0);
  /* Core busy fraction, sampled: its integral is the core's busy time. */
  double busy_us = 0;
  for (const auto &p : t.counters.at("cpu0 busy")) busy_us += p.second * kSampleUs;
  EXPECT_GT(busy_us, 0);
  EXPECT_LE(busy_us, t.max_end + kSampleUs);

  /* Same config, same seed: the same bytes. */
  ASSERT_TRUE(traced_run(cfg, dir + "/b.json", &r2));
  const std::string a = slurp(dir + "/a.json"), b = slurp(dir + "/b.json");
  EXPECT_GT(a.size(), 1000u);
  EXPECT_TRUE(a == b) << "two runs of one config traced differently";
}

TEST_F(TraceTest, WindowLimitsEveryEventIncludingCounters) {
  const double from = 40, to = 90;
  nicsim_results r;
  ASSERT_TRUE(traced_run(make_cfg(), dir + "/w.json", &r, from, to));
  const Trace t = load(dir + "/w.json");
  ASSERT_TRUE(t.ok);
  EXPECT_GE(t.min_ts + 1e-6, 0);
  /* Spans overlap the window (they may start before it); points and counters lie in it. */
  for (const auto &kv : t.counters) {
    for (const auto &p : kv.second) {
      EXPECT_GE(p.first, from) << kv.first;
      EXPECT_LT(p.first, to) << kv.first;
    }
  }
  EXPECT_LE(t.min_ts, to);
  EXPECT_GE(t.max_end, from);
  EXPECT_FALSE(t.counters.empty());
  size_t up = 0;
  for (const auto &kv : t.up_tlps) up += kv.second;
  EXPECT_GT(up, 0u);
  EXPECT_LT(static_cast<double>(up), metric(r, "pcie.up.tlps")) << "the window holds part of the run's TLPs";
  for (double s0 : t.up_starts) EXPECT_LT(s0, to);
  for (const auto &kv : t.track) EXPECT_GT(t.track_events.count(kv.second), 0u) << kv.second << " is empty";
}

}  // namespace
