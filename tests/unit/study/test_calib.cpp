// test_calib.cpp: the calibration engine (src/study/calib*.c) without a
// simulator: specs and their refusals, and fits, identifiability, profiles,
// cross-validation and outputs against analytic evaluators.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

extern "C" {
#include "config/config.h"
#include "results/input.h"
#include "study/calib.h"
}

namespace {

// A scratch directory with a scenario of three labelled points.
class Calib : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/nicsim-calib-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    Write("scen.yaml", "name: t\n"
                       "sweep:\n"
                       "  points:\n"
                       "    - {label: a, traffic.frame_bytes: 64}\n"
                       "    - {label: b, traffic.frame_bytes: 512}\n"
                       "    - {label: c, traffic.frame_bytes: 1518}\n");
  }
  void TearDown() override {
    if (!dir_.empty()) (void)std::system(("rm -rf '" + dir_ + "'").c_str());
    nicsim_calib_result_free(res_);
    nicsim_calib_spec_free(spec_);
  }
  std::string Write(const std::string &name, const std::string &text) {
    std::string p = dir_ + "/" + name;
    std::ofstream(p) << text;
    return p;
  }
  static std::string Read(const std::string &p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  // Loads spec text; returns the loader's status, with err_ filled.
  int Load(const std::string &text) {
    memset(&err_, 0, sizeof err_);
    nicsim_calib_spec_free(spec_);
    spec_ = nullptr;
    return nicsim_calib_spec_load(Write("spec.yaml", text).c_str(), &spec_, &err_);
  }
  // Expects the spec to be refused at line:col with msg (and hint) in the error.
  void Refused(const std::string &text, int line, int col, const std::string &msg,
               const std::string &hint = "") {
    ASSERT_EQ(Load(text), -1) << text;
    EXPECT_EQ(std::string(err_.where.file), dir_ + "/spec.yaml") << err_.msg;
    EXPECT_EQ(err_.where.line, line) << err_.msg;
    EXPECT_EQ(err_.where.col, col) << err_.msg;
    EXPECT_NE(std::string(err_.msg).find(msg), std::string::npos) << err_.msg;
    EXPECT_NE(std::string(err_.hint).find(hint), std::string::npos) << err_.hint;
  }

  // An evaluator computing each measurement from the vector with fn(x, i).
  using Fn = std::function<double(const double *x, size_t meas)>;
  // fails_ (if set) says which vectors fail to simulate, and why.
  static int Eval(void *ctx, const nicsim_calib_spec *s, const double *xs, size_t nvec,
                  double *values, char (*why)[NICSIM_CALIB_WHY_MAX]) {
    auto *self = static_cast<Calib *>(ctx);
    self->batches_++;
    for (size_t v = 0; v < nvec; v++) {
      self->calls_++;
      if (self->fails_ && self->fails_(&xs[v * s->nfree])) {
        snprintf(why[v], NICSIM_CALIB_WHY_MAX, "point a: its simulation failed");
        continue;
      }
      for (size_t i = 0; i < s->nmeas; i++) values[v * s->nmeas + i] = self->fn_(&xs[v * s->nfree], i);
    }
    return 0;
  }
  int Run(bool cv = false) {
    nicsim_calib_evaluator ev = {Eval, this};
    nicsim_calib_opts o = {cv, nullptr};
    nicsim_calib_result_free(res_);
    res_ = nullptr;
    return nicsim_calib_run(spec_, &ev, &o, &res_);
  }

  // kHead (below) with a calibrated point a and a validated b, measured at
  // hidden: a = 1000 / (x + 100), b = 2 * a.
  void LoadHidden(double hidden);

  std::string dir_;
  nc_error err_{};
  nicsim_calib_spec *spec_ = nullptr;
  nicsim_calib_result *res_ = nullptr;
  Fn fn_;
  std::function<bool(const double *x)> fails_;
  size_t calls_ = 0, batches_ = 0;
};

// The head of a spec with one free key.
const char kHead[] = "name: test\n"
                     "scenario: scen.yaml\n"
                     "free:\n"
                     "  - key: nic.reg_read_ns\n"
                     "    min: 100\n"
                     "    max: 5000\n"
                     "    start: 300\n"
                     "    scale: log\n"
                     "    why: \"FPGA register read time: not published\"\n";

TEST_F(Calib, LoadsASpec) {
  ASSERT_EQ(Load(std::string(kHead) +
                 "measurements:\n"
                 "  calibrate:\n"
                 "    - {point: b, metric: tx.gbps, value: 0.5, source: \"seed 001\"}\n"
                 "  validate:\n"
                 "    - {point: a, metric: tx.gbps, value: 0.2, sigma: 0.01, source: s}\n"
                 "    - {point: b, metric: cpu.util, value: 0.3, source: s}\n"),
            0)
      << err_.msg;
  EXPECT_STREQ(spec_->name, "test");
  ASSERT_EQ(spec_->nfree, 1u);
  EXPECT_EQ(spec_->free[0].scale, NICSIM_CALIB_LOG);
  EXPECT_DOUBLE_EQ(spec_->free[0].start, 300);
  ASSERT_EQ(spec_->nmeas, 3u);
  EXPECT_EQ(spec_->ncal, 1u);
  EXPECT_DOUBLE_EQ(spec_->meas[0].sigma, 0.01); // 2 % of 0.5
  EXPECT_DOUBLE_EQ(spec_->meas[1].sigma, 0.01);
  EXPECT_TRUE(spec_->meas[2].validate);
  ASSERT_EQ(spec_->npoints, 2u); // a and b, ascending
  EXPECT_EQ(spec_->points[0], 0);
  EXPECT_EQ(spec_->points[1], 1);
  EXPECT_EQ(spec_->meas[0].upoint, 1u);
  EXPECT_EQ(spec_->grid, 9u);
  EXPECT_STREQ(spec_->method, "sbplx");
}

TEST_F(Calib, StartDefaultsToTheScenariosValue) {
  ASSERT_EQ(Load("scenario: scen.yaml\n"
                 "free: [{key: nic.reg_read_ns, min: 10, max: 1000, why: w}]\n"
                 "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 1, source: s}]}\n"),
            0)
      << err_.msg;
  EXPECT_DOUBLE_EQ(spec_->free[0].start, 100); // the schema default
  EXPECT_STREQ(spec_->name, "spec");
}

// ---- refusals: exit 2 with file:line:col -------------------------------------------------

TEST_F(Calib, RefusesMoreFreeParametersThanCalibrationMeasurements) {
  Refused("scenario: scen.yaml\n"
          "free:\n"
          "  - {key: nic.reg_read_ns, min: 10, max: 1000, why: w}\n"
          "  - {key: stack.udp_sendmsg_instructions, min: 10, max: 1000, why: w}\n"
          "measurements:\n"
          "  calibrate: [{point: a, metric: tx.gbps, value: 1, source: s}]\n"
          "  validate: [{point: b, metric: tx.gbps, value: 1, source: s}]\n",
          2, 1, "2 free parameters but only 1 calibration measurement", "honesty rules");
}

TEST_F(Calib, RefusesAMeasurementBothCalibratedAndValidated) {
  Refused(std::string(kHead) + "measurements:\n"
                               "  calibrate:\n"
                               "    - {point: a, metric: tx.gbps, value: 1, source: s}\n"
                               "  validate:\n"
                               "    - {point: b, metric: tx.gbps, value: 1, source: s}\n"
                               "    - {point: a, metric: tx.gbps, value: 1, source: s}\n",
          15, 7, "a tx.gbps is both calibrated (at 12:7) and validated", "never saw");
}

TEST_F(Calib, RefusesAFreeKeyTheSweepVaries) {
  Refused("scenario: scen.yaml\n"
          "free: [{key: traffic.frame_bytes, min: 64, max: 1518, why: w}]\n"
          "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 1, source: s}]}\n",
          2, 14, "traffic.frame_bytes is varied by the scenario's sweep", "one physical thing");
}

TEST_F(Calib, RefusesAFreeKeyWhosePlatformsDisagree) {
  Write("plat.yaml", "name: s2\n"
                     "sweep:\n"
                     "  points:\n"
                     "    - {label: x, platform: x86-gen3}\n"
                     "    - {label: y, platform: lan7430-x86}\n");
  Refused("scenario: plat.yaml\n"
          "free: [{key: cpu.clock_mhz, min: 100, max: 5000, why: w}]\n"
          "measurements: {calibrate: [{point: x, metric: rx.gbps, value: 1, source: s},\n"
          "                           {point: y, metric: rx.gbps, value: 1, source: s}]}\n",
          2, 14, "cpu.clock_mhz differs between the points: 2200 at x, 3500 at y",
          "one physical thing");
}

TEST_F(Calib, RefusesUnknownKeysWithASuggestion) {
  Refused("scenario: scen.yaml\n"
          "free: [{key: nic.reg_read_n, min: 1, max: 2, why: w}]\n"
          "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 1, source: s}]}\n",
          2, 14, "unknown key 'nic.reg_read_n'", "did you mean 'nic.reg_read_ns'?");
  Refused("scenario: scen.yaml\n"
          "free: [{key: nic.reg_read_ns, min: 1, max: 2, why: w, scael: log}]\n"
          "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 1, source: s}]}\n",
          2, 55, "unknown key 'scael' in a free parameter", "did you mean 'scale'?");
  // At the top level the key is not shown (the file may be no spec at all).
  Refused("scenario: scen.yaml\nfree: []\nmesurements: {}\n", 3, 1,
          "not a calibration spec: unknown top-level key", "did you mean 'measurements'?");
}

TEST_F(Calib, RefusesUnknownMetricsAndPoints) {
  Refused(std::string(kHead) +
              "measurements: {calibrate: [{point: a, metric: tx.gbsp, value: 1, source: s}]}\n",
          10, 47, "unknown metric 'tx.gbsp'", "did you mean 'tx.gbps'?");
  Refused(std::string(kHead) +
              "measurements: {calibrate: [{point: aa, metric: tx.gbps, value: 1, source: s}]}\n",
          10, 36, "the scenario has no point 'aa'", "did you mean 'a'?");
}

TEST_F(Calib, RefusesBadBounds) {
  const char tail[] = "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 1, source: s}]}\n";
  Refused(std::string("scenario: scen.yaml\nfree: [{key: nic.reg_read_ns, min: 10, max: 10, why: w}]\n") + tail,
          2, 45, "max 10 is not above min 10");
  Refused(std::string("scenario: scen.yaml\nfree: [{key: nic.reg_read_ns, min: 10, max: 20, start: 30, why: w}]\n") + tail,
          2, 56, "start 30 is outside [10, 20]");
  Refused(std::string("scenario: scen.yaml\nfree: [{key: nic.reg_read_ns, min: 0, max: 20, scale: log, why: w}]\n") + tail,
          2, 36, "scale log with min 0", "log scale needs min > 0");
  Refused(std::string("scenario: scen.yaml\nfree: [{key: nic.reg_read_ns, min: -5, max: 20, why: w}]\n") + tail,
          2, 36, "min -5 is outside the range of nic.reg_read_ns");
  Refused(std::string("scenario: scen.yaml\nfree: [{key: nic.family, min: 1, max: 2, why: w}]\n") + tail,
          2, 14, "nic.family is not a number");
  Refused(std::string("scenario: scen.yaml\nfree: [{key: nic.reg_read_ns, min: \"1\", max: 2, why: w}]\n") + tail,
          2, 36, "min must be a number, not quoted text");
}

TEST_F(Calib, RefusesDuplicates) {
  Refused("scenario: scen.yaml\n"
          "free:\n"
          "  - {key: nic.reg_read_ns, min: 10, max: 1000, why: w}\n"
          "  - {key: nic.reg_read_ns, min: 10, max: 1000, why: w}\n"
          "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 1, source: s},\n"
          "                           {point: b, metric: tx.gbps, value: 1, source: s}]}\n",
          4, 11, "nic.reg_read_ns is free twice (first at 3:11)");
  Refused(std::string(kHead) + "measurements:\n"
                               "  calibrate:\n"
                               "    - {point: a, metric: tx.gbps, value: 1, source: s}\n"
                               "    - {point: a, metric: tx.gbps, value: 2, source: t}\n",
          13, 7, "a tx.gbps is measured twice (first at 12:7)");
  Refused(std::string(kHead) + "name: again\n"
                               "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 1, source: s}]}\n",
          10, 1, "duplicate key 'name'");
}

TEST_F(Calib, RefusesMissingWhyAndSource) {
  Refused("scenario: scen.yaml\n"
          "free: [{key: nic.reg_read_ns, min: 10, max: 1000}]\n"
          "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 1, source: s}]}\n",
          2, 8, "free parameter nic.reg_read_ns needs why:");
  Refused(std::string(kHead) + "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 1}]}\n",
          10, 28, "a measurement needs source:");
  Refused(std::string(kHead) +
              "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 0, source: s}]}\n",
          10, 63, "value 0 needs sigma:");
}

TEST_F(Calib, RefusesControlCharactersInTexts) {
  Refused(std::string(kHead) +
              "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 1, source: \"a\\e[2J\"}]}\n",
          10, 74, "source contains a control character");
}

TEST_F(Calib, NamesAMistakeInsideTheScenario) {
  Write("bad.yaml", "name: t\nnic: {desc_spacng: 16}\n");
  ASSERT_EQ(Load("scenario: bad.yaml\n"
                 "free: [{key: nic.reg_read_ns, min: 10, max: 1000, why: w}]\n"
                 "measurements: {calibrate: [{metric: tx.gbps, value: 1, source: s}]}\n"),
            -1);
  EXPECT_EQ(std::string(err_.where.file), dir_ + "/bad.yaml");
  EXPECT_EQ(err_.where.line, 2);
  EXPECT_NE(std::string(err_.hint).find("scenario named at"), std::string::npos);
}

// ---- the engine against analytic functions --------------------------------------------------

void Calib::LoadHidden(double hidden) {
  ASSERT_EQ(Load(std::string(kHead) +
                   "measurements:\n"
                   "  calibrate: [{point: a, metric: tx.gbps, value: 0.8103727714748784, source: s}]\n"
                   "  validate: [{point: b, metric: tx.gbps, value: 0.4, source: s}]\n"),
            0)
      << err_.msg;
  fn_ = [](const double *x, size_t i) { return (i == 0 ? 1000.0 : 2000.0) / (x[0] + 100); };
  spec_->meas[0].value = 1000.0 / (hidden + 100);
  spec_->meas[1].value = 2000.0 / (hidden + 100);
}

TEST_F(Calib, RecoversAHiddenValue) {
  const double hidden = 1234;
  LoadHidden(hidden);
  ASSERT_EQ(Run(), 0);
  EXPECT_NEAR(res_->x[0], hidden, hidden * 1e-3);
  EXPECT_TRUE(res_->converged);
  EXPECT_TRUE(res_->identifiable[0]) << res_->reason[0];
  EXPECT_FALSE(res_->ill_conditioned);
  EXPECT_NEAR(res_->sim[1], spec_->meas[1].value, 1e-3 * spec_->meas[1].value); // predicted
  EXPECT_EQ(res_->at_bound[0], 0);
  // The derivative of 1000 / (x + 100) at the optimum.
  EXPECT_NEAR(res_->jac[0], -1000.0 / ((hidden + 100) * (hidden + 100)), 2e-6);
  // The profile's interval brackets the optimum and does not reach the ends.
  EXPECT_LT(res_->prof[0].lo, res_->x[0]);
  EXPECT_GT(res_->prof[0].hi, res_->x[0]);
  EXPECT_FALSE(res_->prof[0].lo_bound);
  EXPECT_FALSE(res_->prof[0].hi_bound);
  EXPECT_EQ(res_->evaluations, calls_); // every vector evaluated once
}

// A vector whose simulation fails is no match (a penalty), not the end of the
// calibration: the fit goes on around it, evaluations.csv records the
// penalty and why, and the result is the same on every run.
TEST_F(Calib, AFailedSimulationIsNoMatch) {
  const double hidden = 1234;
  LoadHidden(hidden);
  fails_ = [](const double *x) { return x[0] > 3000; }; // the start and the top of the range
  spec_->free[0].start = 5000;
  ASSERT_EQ(Run(), 0);
  EXPECT_NEAR(res_->x[0], hidden, hidden * 1e-3);
  size_t failed = 0;
  for (size_t e = 0; e < res_->evaluations; e++)
    if (res_->ev_why[e][0]) {
      failed++;
      EXPECT_GT(res_->ev_x[e], 3000);
      EXPECT_TRUE(std::isnan(res_->ev_v[e * spec_->nmeas]));
    }
  EXPECT_GT(failed, 0u);
  std::string out = dir_ + "/out";
  ASSERT_EQ(std::system(("mkdir -p '" + out + "'").c_str()), 0);
  ASSERT_EQ(nicsim_calib_write(out.c_str(), spec_, res_, "test", nullptr, nullptr), 0);
  std::string csv = Read(out + "/evaluations.csv");
  EXPECT_NE(csv.find(",failure\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",1e+30,,,point a: its simulation failed\n"), std::string::npos) << csv;
  std::vector<double> x1(res_->ev_x, res_->ev_x + res_->evaluations);
  ASSERT_EQ(Run(), 0);
  EXPECT_EQ(std::vector<double>(res_->ev_x, res_->ev_x + res_->evaluations), x1);
}

TEST_F(Calib, ReportsAParameterWithoutEffectUnidentifiable) {
  ASSERT_EQ(Load("scenario: scen.yaml\n"
                 "free:\n"
                 "  - {key: nic.reg_read_ns, min: 100, max: 5000, scale: log, why: w}\n"
                 "  - {key: stack.udp_sendmsg_instructions, min: 100, max: 9000, why: nothing}\n"
                 "measurements:\n"
                 "  calibrate:\n"
                 "    - {point: a, metric: tx.gbps, value: 0.75, source: s}\n"
                 "    - {point: b, metric: tx.gbps, value: 1.5, source: s}\n"),
            0)
      << err_.msg;
  fn_ = [](const double *x, size_t i) { return (i == 0 ? 1000.0 : 2000.0) / (x[0] + 100); };
  ASSERT_EQ(Run(), 0);
  EXPECT_TRUE(res_->identifiable[0]) << res_->reason[0];
  EXPECT_FALSE(res_->identifiable[1]);
  EXPECT_NE(std::string(res_->reason[1]).find("moves no calibration measurement"), std::string::npos)
      << res_->reason[1];
  EXPECT_EQ(res_->rank, 1u);
  EXPECT_TRUE(res_->ill_conditioned);
  EXPECT_TRUE(std::isinf(res_->cond));
  EXPECT_NEAR(res_->x[0], 1233.33, 2);
}

TEST_F(Calib, ReportsParametersThatTradeOff) {
  ASSERT_EQ(Load("scenario: scen.yaml\n"
                 "free:\n"
                 "  - {key: nic.reg_read_ns, min: 100, max: 5000, scale: log, why: w}\n"
                 "  - {key: stack.udp_sendmsg_instructions, min: 100, max: 5000, scale: log, why: w}\n"
                 "measurements:\n"
                 "  calibrate:\n"
                 "    - {point: a, metric: tx.gbps, value: 1, source: s}\n"
                 "    - {point: b, metric: tx.gbps, value: 2, source: s}\n"),
            0)
      << err_.msg;
  // Both measurements see only the product.
  fn_ = [](const double *x, size_t i) { return (i + 1) * 1e6 / (x[0] * x[1]); };
  ASSERT_EQ(Run(), 0);
  EXPECT_TRUE(res_->ill_conditioned);
  EXPECT_GT(res_->cond, 1e3);
  EXPECT_FALSE(res_->identifiable[0] && res_->identifiable[1]);
}

TEST_F(Calib, SaysWhenNoValueMatches) {
  ASSERT_EQ(Load(std::string(kHead) +
                 "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 0.1, source: s}]}\n"),
            0);
  fn_ = [](const double *x, size_t) { return 0.987 - 1e-6 * x[0]; }; // never near 0.1
  ASSERT_EQ(Run(), 0);
  EXPECT_EQ(res_->at_bound[0], 1);
  json_t *doc = nicsim_calib_to_json(spec_, res_, "test");
  ASSERT_NE(doc, nullptr);
  EXPECT_TRUE(json_is_false(json_object_get(doc, "matches")));
  json_decref(doc);
}

TEST_F(Calib, StartsFromTheBestGridPointAcrossACliff) {
  ASSERT_EQ(Load(std::string(kHead) +
                 "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 0.2, source: s}]}\n"),
            0);
  // Flat at line rate below 2000, then falling: the start (300) sees no slope.
  fn_ = [](const double *x, size_t) { return x[0] < 2000 ? 0.987 : 0.987 * 2000 / x[0] * 0.5; };
  ASSERT_EQ(Run(), 0);
  EXPECT_NEAR(res_->x[0], 4935, 5); // 987 / x = 0.2
  EXPECT_TRUE(res_->identifiable[0]) << res_->reason[0];
}

TEST_F(Calib, CrossValidatesLeavingEachMeasurementOut) {
  ASSERT_EQ(Load(std::string(kHead) +
                 "measurements:\n"
                 "  calibrate: [{point: a, metric: tx.gbps, value: 0.75, source: s}]\n"
                 "  validate: [{point: b, metric: tx.gbps, value: 1.5, source: s},\n"
                 "             {point: c, metric: tx.gbps, value: 4, source: s}]\n"),
            0);
  // a and b agree on x = 1233.3; c (4000 / (x + 100)) wants x = 900.
  fn_ = [](const double *x, size_t i) { return 1000.0 * (i + 1) * (i == 2 ? 4.0 / 3 : 1) / (x[0] + 100); };
  ASSERT_EQ(Run(true), 0);
  ASSERT_TRUE(res_->cv);
  for (size_t j = 0; j < 3; j++) {
    EXPECT_FALSE(res_->folds[j].skipped);
    EXPECT_TRUE(res_->folds[j].converged);
  }
  // Leaving out c, a and b fit exactly and predict c 28 % low; leaving out
  // a or b, the fit lands between 900 and 1233 and predicts it high.
  EXPECT_NEAR(res_->folds[2].predicted, 3.0, 0.01);
  EXPECT_GT(res_->folds[0].predicted, 0.76);
  EXPECT_GT(res_->folds[1].predicted, 1.52);
  EXPECT_NEAR(res_->folds[0].x[0], res_->folds[1].x[0], 1); // the same data left
}

TEST_F(Calib, SkipsFoldsWithTooFewMeasurements) {
  ASSERT_EQ(Load(std::string(kHead) +
                 "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 0.75, source: s}]}\n"),
            0);
  fn_ = [](const double *x, size_t) { return 1000.0 / (x[0] + 100); };
  ASSERT_EQ(Run(true), 0);
  EXPECT_TRUE(res_->folds[0].skipped);
  EXPECT_TRUE(std::isnan(res_->folds[0].predicted));
}

TEST_F(Calib, RefusesAMetricThePointsDoNotReport) {
  ASSERT_EQ(Load(std::string(kHead) +
                 "measurements: {calibrate: [{point: a, metric: cpu.profile.foo, value: 1, source: s}]}\n"),
            0);
  fn_ = [](const double *, size_t) { return NAN; };
  EXPECT_EQ(Run(), 2);
  EXPECT_EQ(calls_, 1u); // only the start was evaluated
}

TEST_F(Calib, QuantisesValues) {
  ASSERT_EQ(Load(std::string(kHead) +
                 "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 1, source: s}]}\n"),
            0);
  EXPECT_DOUBLE_EQ(nicsim_calib_quantise(&spec_->free[0], 1234.56789), 1234.57);
  EXPECT_DOUBLE_EQ(nicsim_calib_quantise(&spec_->free[0], 1e9), 5000);
  char buf[128];
  nicsim_calib_assignment(&spec_->free[0], 1234.57, buf, sizeof buf);
  EXPECT_STREQ(buf, "nic.reg_read_ns=1234.57");
}

// ---- outputs ---------------------------------------------------------------------------------

TEST_F(Calib, WritesFilesWithEveryTextEscaped) {
  ASSERT_EQ(Load("name: \"<script>x|`$@'\"\n"
                 "description: \"*bold* [link](javascript:x) <b>&amp;\"\n"
                 "scenario: scen.yaml\n"
                 "free:\n"
                 "  - {key: nic.reg_read_ns, min: 100, max: 5000, scale: log,\n"
                 "     why: \"<img src=x onerror=alert(1)> | `rm -rf` $HOME @x\"}\n"
                 "measurements:\n"
                 "  calibrate:\n"
                 "    - {point: a, metric: tx.gbps, value: 0.75, source: \"</td><script>s</script>\"}\n"
                 "  validate:\n"
                 "    - {point: b, metric: tx.gbps, value: 1.5, source: \"x\\\" # y\"}\n"),
            0)
      << err_.msg;
  fn_ = [](const double *x, size_t i) { return (1000.0 * (i + 1)) / (x[0] + 100); };
  ASSERT_EQ(Run(true), 0);
  std::string out = dir_ + "/out";
  ASSERT_EQ(std::system(("mkdir -p '" + out + "'").c_str()), 0);
  ASSERT_EQ(nicsim_calib_write(out.c_str(), spec_, res_, "test", nullptr, nullptr), 0);

  std::string html = Read(out + "/report.html"), md = Read(out + "/report.md");
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos);
  EXPECT_EQ(md.find("<script>"), std::string::npos);
  EXPECT_EQ(md.find("</td>"), std::string::npos);
  EXPECT_NE(md.find("\\<script\\>"), std::string::npos);
  EXPECT_NE(md.find("\\|"), std::string::npos);
  EXPECT_EQ(md.find("[link]"), std::string::npos);
  for (const char *gp : {"/plots/fit.gp", "/plots/sensitivity.gp", "/plots/profile-nic.reg_read_ns.gp"}) {
    std::string g = Read(out + gp);
    ASSERT_FALSE(g.empty()) << gp;
    EXPECT_EQ(g.find('`'), std::string::npos) << gp;
    EXPECT_EQ(g.find('$'), std::string::npos) << gp;
    EXPECT_EQ(g.find('@'), std::string::npos) << gp;
  }

  // calibration.json reads back with the fields.
  json_error_t je;
  json_t *doc = json_load_file((out + "/calibration.json").c_str(), 0, &je);
  ASSERT_NE(doc, nullptr) << je.text;
  EXPECT_TRUE(json_is_real(json_object_get(json_object_get(doc, "params"), "nic.reg_read_ns")));
  EXPECT_TRUE(json_is_boolean(json_object_get(doc, "converged")));
  EXPECT_TRUE(json_is_true(json_object_get(json_object_get(doc, "identifiable"), "nic.reg_read_ns")));
  json_t *cal = json_array_get(json_object_get(doc, "calibrate"), 0);
  for (const char *k : {"point", "metric", "measured", "simulated", "error"})
    EXPECT_NE(json_object_get(cal, k), nullptr) << k;
  EXPECT_EQ(json_array_size(json_object_get(doc, "validate")), 1u);
  EXPECT_EQ(json_array_size(json_object_get(json_object_get(doc, "cv"), "folds")), 2u);
  EXPECT_STREQ(json_string_value(json_object_get(doc, "name")), "<script>x|`$@'");
  json_decref(doc);

  // calibrated.yaml is an overlay: a scenario resolves to the fitted value,
  // and the spec's texts stay inside comments or quotes.
  nc_scenario *scen = nullptr;
  nc_error e{};
  ASSERT_EQ(nc_scenario_load((dir_ + "/scen.yaml").c_str(), &scen, &e), 0) << e.msg;
  ASSERT_EQ(nc_scenario_add_overlay(scen, (out + "/calibrated.yaml").c_str(), &e), 0)
      << e.where.line << ": " << e.msg;
  nicsim_config cfg;
  ASSERT_EQ(nc_scenario_resolve(scen, 0, nullptr, 0, &cfg, &e), 0) << e.msg;
  EXPECT_DOUBLE_EQ(cfg.nic.reg_read_ns, res_->x[0]);
  EXPECT_EQ(cfg.origin[NC_KEY_nic_reg_read_ns].layer, NC_LAYER_OVERLAY);
  nc_scenario_free(scen);
  std::string yaml = Read(out + "/calibrated.yaml");
  EXPECT_NE(yaml.find("# C: "), std::string::npos);
  EXPECT_NE(yaml.find("fitted to a tx.gbps = 0.75"), std::string::npos);

  std::string csv = Read(out + "/evaluations.csv");
  EXPECT_EQ(csv.rfind("evaluation,nic.reg_read_ns,chi2,a tx.gbps,b tx.gbps,failure\n", 0), 0u);
}

// ---- convergence, the headline, what a key is fitted to ------------------------------------

// A fit that runs out of budget while chi2 still falls is not converged and
// says it stopped at the evaluation limit; the same fit with the budget to
// finish meets the tolerance and is converged.
TEST_F(Calib, StoppedAtTheEvaluationLimitOnlyWhenTheToleranceIsNotMet) {
  const std::string body = "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 0.8103727714748784, "
                           "source: s}]}\n";
  ASSERT_EQ(Load(std::string(kHead) + "fit: {grid: 3, max_evaluations: 2}\n" + body), 0) << err_.msg;
  fn_ = [](const double *x, size_t) { return 1000.0 / (x[0] + 100); };
  ASSERT_EQ(Run(), 0);
  EXPECT_FALSE(res_->converged);
  EXPECT_TRUE(res_->at_eval_limit);
  EXPECT_NE(std::string(nicsim_calib_convergence(res_)).find("stopped at the evaluation limit"), std::string::npos);
  std::string out = dir_ + "/out";
  ASSERT_EQ(std::system(("mkdir -p '" + out + "'").c_str()), 0);
  ASSERT_EQ(nicsim_calib_write(out.c_str(), spec_, res_, "test", nullptr, nullptr), 0);
  EXPECT_NE(Read(out + "/report.md").find("Converged: NO (stopped at the evaluation limit)"), std::string::npos);

  ASSERT_EQ(Load(std::string(kHead) + "fit: {grid: 3}\n" + body), 0) << err_.msg;
  ASSERT_EQ(Run(), 0);
  EXPECT_TRUE(res_->converged);
  EXPECT_FALSE(res_->at_eval_limit);
  EXPECT_NEAR(res_->x[0], 1134, 2);
}

// A method stopped by its budget after its best chi2 stopped gaining (a
// ripple the local method chases around the optimum: steps with no
// relative gain over 1e-4) has met its tolerance: converged, not "stopped
// at the evaluation limit".
TEST_F(Calib, AQuietOptimumAtTheBudgetIsConverged) {
  ASSERT_EQ(Load(std::string(kHead) +
                 "fit: {max_evaluations: 30}\n"
                 "measurements: {calibrate: [{point: a, metric: tx.gbps, value: 0.8103727714748784, source: s}]}\n"),
            0)
      << err_.msg;
  spec_->free[0].start = 1134;
  fn_ = [](const double *x, size_t) { return 1000.0 / (x[0] + 100) * (1 + 1e-9 * std::sin(x[0] * 1e3)); };
  ASSERT_EQ(Run(), 0);
  EXPECT_EQ(res_->nlopt_status, 5);  // NLOPT_MAXEVAL_REACHED: the budget ran out, yet
  EXPECT_TRUE(res_->converged);
  EXPECT_FALSE(res_->at_eval_limit);
}

// The worst validation pull heads the report and the JSON has the limit flag.
TEST_F(Calib, WorstValidationPullOnTheHeadline) {
  LoadHidden(1234);
  spec_->meas[1].value *= 1.1;  // the prediction is now about 9 % low, a pull near -4.5
  ASSERT_EQ(Run(), 0);
  double pull = 0;
  EXPECT_EQ(nicsim_calib_worst_pull(spec_, res_, &pull), 1);
  EXPECT_NEAR(pull, (res_->sim[1] - spec_->meas[1].value) / spec_->meas[1].sigma, 1e-12);
  EXPECT_LT(pull, -4);
  std::string out = dir_ + "/out";
  ASSERT_EQ(std::system(("mkdir -p '" + out + "'").c_str()), 0);
  ASSERT_EQ(nicsim_calib_write(out.c_str(), spec_, res_, "test", nullptr, nullptr), 0);
  char want[64];
  snprintf(want, sizeof want, "- Worst validation pull: %+.2f (b tx.gbps)", pull);
  EXPECT_NE(Read(out + "/report.md").find(want), std::string::npos) << want;
  EXPECT_NE(Read(out + "/calibration.json").find("\"at_eval_limit\": false"), std::string::npos);
  // each prediction names the points it depends on
  json_error_t je;
  json_t *doc = json_load_file((out + "/calibration.json").c_str(), 0, &je);
  ASSERT_NE(doc, nullptr) << je.text;
  json_t *dep = json_object_get(json_array_get(json_object_get(doc, "validate"), 0), "depends_on");
  ASSERT_TRUE(json_is_array(dep));
  EXPECT_EQ(json_array_size(dep), 1u);
  EXPECT_STREQ(json_string_value(json_array_get(dep, 0)), "b");
  EXPECT_EQ(json_object_get(json_array_get(json_object_get(doc, "calibrate"), 0), "depends_on"), nullptr);
  json_decref(doc);
}

// calibrated.yaml says a key was fitted to the measurements it moves only.
TEST_F(Calib, FittedToListsOnlyWhatTheKeyMoves) {
  ASSERT_EQ(Load("scenario: scen.yaml\n"
                 "free:\n"
                 "  - {key: nic.reg_read_ns, min: 100, max: 5000, scale: log, why: w}\n"
                 "  - {key: stack.udp_sendmsg_instructions, min: 100, max: 9000, scale: log, why: w}\n"
                 "measurements:\n"
                 "  calibrate:\n"
                 "    - {point: a, metric: tx.gbps, value: 0.75, source: s}\n"
                 "    - {point: b, metric: tx.gbps, value: 0.5, source: s}\n"),
            0)
      << err_.msg;
  fn_ = [](const double *x, size_t i) { return i == 0 ? 1000.0 / (x[0] + 100) : 1000.0 / (x[1] + 100); };
  ASSERT_EQ(Run(), 0);
  std::string out = dir_ + "/out";
  ASSERT_EQ(std::system(("mkdir -p '" + out + "'").c_str()), 0);
  ASSERT_EQ(nicsim_calib_write(out.c_str(), spec_, res_, "test", nullptr, nullptr), 0);
  std::string yaml = Read(out + "/calibrated.yaml");
  size_t k0 = yaml.find("\nnic.reg_read_ns:"), k1 = yaml.find("\nstack.udp_sendmsg_instructions:");
  ASSERT_NE(k0, std::string::npos) << yaml;
  ASSERT_NE(k1, std::string::npos) << yaml;
  std::string first = yaml.substr(0, k0), second = yaml.substr(k0, k1 - k0);
  EXPECT_NE(first.find("fitted to a tx.gbps"), std::string::npos) << yaml;
  EXPECT_EQ(first.find("fitted to b tx.gbps"), std::string::npos) << yaml;
  EXPECT_NE(second.find("fitted to b tx.gbps"), std::string::npos) << yaml;
  EXPECT_EQ(second.find("fitted to a tx.gbps"), std::string::npos) << yaml;
}

} // namespace
