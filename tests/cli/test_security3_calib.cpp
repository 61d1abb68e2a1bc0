// test_security3_calib.cpp: issue 35 on `nicsim calibrate`: YAML comments
// that cannot be left (#8), the evaluation cap and free-key limit (#14, #20),
// integers that are integers (#15), non-finite chi2 (#16), and calibrate
// --resume through a linked evaluation point file (#2). Variants of each
// class use other fields and values. Each test in its own process.
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "cli/security3_util.h"

using namespace nicsim_cli_test;

namespace {

// The keys of n free parameters (stack.* keys, distinct), as a free: list.
std::string free_keys(size_t n) {
  static const char *const keys[] = {
      "gro", "netif_receive", "ip_rcv", "udp_rcv", "tcp_rcv", "tcp_ack", "tcp_send_ack",
      "sock_wakeup", "udp_recvmsg", "tcp_recvmsg", "udp_sendmsg", "tcp_sendmsg", "ip_output",
      "fib_lookup", "ip_forward", "alloc_skb", "free_skb"};
  std::string t = "free:\n";
  for (size_t i = 0; i < n; i++)
    t += std::string("  - {key: stack.") + keys[i % 17] + "_instructions, min: 10, max: 5000, why: w}\n";
  return t;
}

std::string spec_with(const std::string &free, const std::string &fit) {
  return "name: big\nscenario: s.yaml\n" + free +
         "measurements:\n  calibrate:\n    - {point: a, metric: rx.gbps, value: 9, source: s}\n" + fit;
}

}  // namespace

// #8: U+2028 or U+2029 in a measurement's source or a free key's why (and,
// variants, both in either field; C1 controls such as U+0085 are refused in
// the spec) stay inside their '#' comment of
// calibrated.yaml: read as an overlay, it sets only the fitted key.
TEST_F(Sec3, CalibratedYamlCommentsCannotBeLeft) {
  // 590 us of window, so that the receive stack runs in it: then
  // cpu.cycles_per_rx_pkt moves with the free key (udp_rcv's instructions),
  // "fitted to" lists the measurement and its source shows.
  std::string scen = kTiny;
  const std::string run40 = "duration_us: 40,";
  scen.replace(scen.find(run40), run40.size(), "duration_us: 600,");
  write("s.yaml", scen);
  std::string spec = tiny_spec("source: \"paper\\u2028nic.desc_spacing: 128\\u2029nic.rx_queues: 2\"", "s.yaml", "3000");
  const std::string metric = "metric: rx.gbps";
  spec.replace(spec.find(metric), metric.size(), "metric: cpu.cycles_per_rx_pkt");
  const std::string why = "why: \"test\"";
  spec.replace(spec.find(why), why.size(), "why: \"unknown\\u2029nic.rx_ring_size: 64x\"");
  write("spec.yaml", spec);
  Result r = run({"calibrate", "spec.yaml", "-o", "cal", "-q", "--no-plots", "-j", "2"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  std::string y = slurp(path("cal/calibrated.yaml"));
  for (const char *raw : {"\xE2\x80\xA8", "\xE2\x80\xA9", "\xC2\x85", "\t"})
    EXPECT_EQ(y.find(raw), std::string::npos) << "a raw line break in calibrated.yaml:\n" << y;
  // Every occurrence is inside a comment (the why is shown for an
  // identifiable key only; the source always).
  EXPECT_NE(y.find("nic.desc_spacing: 128"), std::string::npos) << y;
  EXPECT_NE(y.find("nic.rx_queues: 2"), std::string::npos) << y;
  for (const char *text : {"nic.desc_spacing: 128", "nic.rx_ring_size: 64", "nic.rx_queues: 2"})
    for (size_t at = y.find(text); at != std::string::npos; at = y.find(text, at + 1)) {
      size_t bol = y.rfind('\n', at);
      EXPECT_EQ(y[bol == std::string::npos ? 0 : bol + 1], '#') << "outside a comment: " << text;
    }
  // As an overlay it sets nothing but the calibrated key.
  Result o = run({"run", "s.yaml", "--point", "a", "--overlay", "cal/calibrated.yaml", "--json",
                  path("r.json"), "-q"});
  ASSERT_EQ(o.status, 0) << NICSIM_SHOW(o);
  json_t *doc = json_load_file(path("r.json").c_str(), 0, nullptr);
  ASSERT_NE(doc, nullptr);
  json_t *nic = json_object_get(json_object_get(doc, "config"), "nic");
  EXPECT_EQ(json_integer_value(json_object_get(nic, "desc_spacing")), 16);
  EXPECT_NE(json_integer_value(json_object_get(nic, "rx_ring_size")), 64);
  json_decref(doc);
}

// #2 (calibrate): --resume through an evaluation's point file that was made
// a symlink to the scenario replaces the link, never the scenario.
TEST_F(Sec3, CalibrateResumeNeverWritesThroughAPointFileLink) {
  write("s.yaml", kTiny);
  write("spec.yaml", tiny_spec("source: s"));
  Result r = run({"calibrate", "spec.yaml", "-o", "cal", "-q", "--no-plots", "-j", "2"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  size_t linked = 0;
  for (const std::string &e : list_dir(path("cal/evals")))
    for (const std::string &p : list_dir(path("cal/evals/" + e + "/points"))) {
      std::string f = path("cal/evals/" + e + "/points/" + p);
      ASSERT_EQ(unlink(f.c_str()), 0);
      ASSERT_EQ(symlink(path("s.yaml").c_str(), f.c_str()), 0);
      linked++;
    }
  ASSERT_GT(linked, 0u);
  r = run({"calibrate", "spec.yaml", "-o", "cal", "-q", "--no-plots", "-j", "2", "--resume"});
  EXPECT_EQ(slurp(path("s.yaml")), kTiny) << NICSIM_SHOW(r);
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
}

// #14, #20: the evaluations a spec needs are estimated (grid^nfree with the
// local fit and the profiles) and refused over the cap at file:line:col,
// printing the estimate, at once and before anything is written; more than
// 64 free keys are refused at the 65th. Variants: 5 keys at grid 50, the
// default grid with 14 keys (whose start used to fail without a word).
TEST_F(Sec3, CalibrateRefusesWorkItCannotFinish) {
  write("s.yaml", kTiny);
  struct Case {
    size_t nfree;
    std::string fit, where, text;
  } cases[] = {
      {12, "fit: {grid: 3}\n", "spec.yaml:19:6:", "fit.grid 3 ^ 12 free keys"},
      {5, "fit: {grid: 50}\n", "spec.yaml:12:6:", "fit.grid 50 ^ 5 free keys"},
      {14, "", "spec.yaml:3:1:", "fit.grid 3 ^ 14 free keys"},
      {65, "", "spec.yaml:68:5:", "at most 64 keys; this one frees 65"},
  };
  for (const Case &c : cases) {
    write("spec.yaml", spec_with(free_keys(c.nfree), c.fit));
    auto t0 = std::chrono::steady_clock::now();
    Result r = run({"calibrate", "spec.yaml", "-o", "cal", "-q", "--no-plots"});
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.status, 2) << c.nfree << "\n" << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find(c.where), std::string::npos) << c.nfree << ": " << r.err;
    EXPECT_NE(r.err.find(c.text), std::string::npos) << c.nfree << ": " << r.err;
    if (c.nfree < 65) {
      EXPECT_NE(r.err.find("the limit is 100000"), std::string::npos) << r.err;
    }
    EXPECT_EQ(r.err.find("fitting"), std::string::npos) << r.err;
    EXPECT_LT(secs, 10.0) << c.nfree;
    EXPECT_FALSE(exists(path("cal"))) << c.nfree << ": something was written";
  }
}

// #15: fit:'s integers are integers (nc_int_parse), never through a double.
// Variants: profile_points and max_evaluations, quoted numbers.
TEST_F(Sec3, CalibrateFitIntegersAreIntegers) {
  write("s.yaml", kTiny);
  for (const char *fit : {"fit: {grid: 2.9999999999999999}", "fit: {grid: 3e0}", "fit: {grid: 3.0}",
                          "fit: {grid: \"3\"}", "fit: {profile_points: 9e0}",
                          "fit: {max_evaluations: 1e2}", "fit: {grid: 99999999999999999999}"}) {
    write("spec.yaml", tiny_spec("source: s", "s.yaml", "9", std::string(fit) + "\n"));
    Result r = run({"calibrate", "spec.yaml", "-o", "cal", "-q", "--no-plots"});
    EXPECT_EQ(r.status, 2) << fit << "\n" << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find("spec.yaml:8:"), std::string::npos) << fit << ": " << r.err;
    EXPECT_TRUE(r.err.find("whole number") != std::string::npos ||
                r.err.find("out of range") != std::string::npos)
        << r.err;
    EXPECT_FALSE(exists(path("cal")));
  }
}

// #16: a measured value of 1e308 is refused at its file:line:col before
// anything is simulated (with the default sigma it used to give a finite
// chi2, a "well-conditioned" exit 0 and an infinite plot range); a chi2
// term that is not finite (sigma 1e-300, or 1e150 measured within 1e-200)
// is an error naming the measurement, never a success. Variants: a
// validation measurement, a sigma of 1e308.
TEST_F(Sec3, NonFiniteChi2IsAnErrorNamingTheMeasurement) {
  write("s.yaml", kTiny);
  for (const auto &vm : std::vector<std::pair<std::string, std::string>>{
           {"1e308", "source: s"}, {"-1e308", "source: s"}, {"9", "source: s, sigma: 1e308"}}) {
    write("spec.yaml", tiny_spec(vm.second, "s.yaml", vm.first));
    Result r = run({"calibrate", "spec.yaml", "-o", "cal", "--no-plots", "-j", "2", "--force"});
    EXPECT_EQ(r.status, 2) << vm.first << "\n" << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find("spec.yaml:7:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("beyond 1e+300"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("well-conditioned"), std::string::npos) << r.out;
    EXPECT_FALSE(exists(path("cal")));
  }
  for (const auto &vm : std::vector<std::pair<std::string, std::string>>{
           {"1e150", "source: s, sigma: 1e-200"}, {"9", "source: s, sigma: 1e-300"}}) {
    write("spec.yaml", tiny_spec(vm.second, "s.yaml", vm.first));
    Result r = run({"calibrate", "spec.yaml", "-o", "cal", "--no-plots", "-j", "2", "--force"});
    EXPECT_EQ(r.status, 2) << vm.first << "\n" << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find("spec.yaml:7:7: error: measurement a rx.gbps"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("not a finite number"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("well-conditioned"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("inf"), std::string::npos) << r.out;
  }
  std::string spec = tiny_spec("source: s");
  spec.insert(spec.find("fit:"), "  validate:\n    - {point: b, metric: rx.gbps, value: 1e150, sigma: 1e-200, source: v}\n");
  write("spec.yaml", spec);
  Result r = run({"calibrate", "spec.yaml", "-o", "cal2", "--no-plots", "-j", "2"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("measurement b rx.gbps"), std::string::npos) << r.err;
}
