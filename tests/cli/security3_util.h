// security3_util.h: the scenarios, specs and helpers of the issue 35 tests
// (test_security3.cpp, test_security3_calib.cpp).
#ifndef NICSIM_TESTS_CLI_SECURITY3_UTIL_H
#define NICSIM_TESTS_CLI_SECURITY3_UTIL_H

#include <dirent.h>
#include <jansson.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli_test_util.h"

// A short RX scenario of two points (a, b), without and with its platform line.
#define kTINY_BODY                                   \
  "name: tiny\n"                                     \
  "traffic: {mode: rx, frame_bytes: 1518, rate_gbps: 0}\n" \
  "run: {duration_us: 40, warmup_us: 10, drain_us: 200}\n"
#define kTINY_POINTS                                 \
  "sweep:\n"                                         \
  "  points:\n"                                      \
  "    - {label: a, nic.desc_spacing: 16}\n"         \
  "    - {label: b, nic.desc_spacing: 32}\n"
static const char kTinyBase[] = "platform: x86-gen3\n" kTINY_BODY;
static const char kTiny[] = "platform: x86-gen3\n" kTINY_BODY kTINY_POINTS;
// The same with a declared plot.
static const char kTinyPlot[] = "platform: x86-gen3\n" kTINY_BODY kTINY_POINTS
                                "plots:\n  - {name: thr, x: label, y: [rx.gbps], kind: bar}\n";
// Two points that each simulate for seconds (signals arrive mid-point).
static const char kSlow[] = "name: slow\nplatform: x86-gen3\n"
                            "traffic: {mode: rx, frame_bytes: 64, rate_gbps: 0}\n"
                            "run: {duration_us: 8000000, warmup_us: 10}\n" kTINY_POINTS;

class Sec3 : public nicsim_cli_test::Cli {
 protected:
  void write(const std::string &name, const std::string &text) {
    std::ofstream(path(name), std::ios::binary | std::ios::trunc) << text;
  }
  static bool is_regular(const std::string &p) {
    struct stat st;
    return lstat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  }
  // Every name in dir, hidden ones too.
  static std::set<std::string> list_all(const std::string &dir) {
    std::set<std::string> out;
    if (DIR *d = opendir(dir.c_str())) {
      while (dirent *e = readdir(d))
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") out.insert(e->d_name);
      closedir(d);
    }
    return out;
  }
  // Runs nicsim, killing it (status 128 + SIGKILL) if it takes over secs seconds.
  nicsim_cli_test::Result run_for(int secs, const std::vector<std::string> &args) {
    pid_t pid = start(args);
    int st;
    for (int i = 0; pid > 0 && i < secs * 20; i++) {
      if (waitpid(pid, &st, WNOHANG) == pid) {
        // Reaped: rebuild the result as finish() would.
        nicsim_cli_test::Result r;
        r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        r.out = nicsim_cli_test::slurp(dir_ + "/.stdout");
        r.err = nicsim_cli_test::slurp(dir_ + "/.stderr");
        unlink((dir_ + "/.stdout").c_str());
        unlink((dir_ + "/.stderr").c_str());
        return r;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    kill(pid, SIGKILL);
    return finish(pid);
  }
  // A calibration spec over s.yaml (or scenario) freeing one key, with extra
  // text in the measurement.
  static std::string tiny_spec(const std::string &meas_extra, const std::string &scenario = "s.yaml",
                               const std::string &value = "9", const std::string &fit =
                                   "fit: {grid: 3, profile_points: 3, max_evaluations: 4}\n") {
    return "name: tiny\nscenario: " + scenario +
           "\nfree:\n  - {key: stack.udp_rcv_instructions, min: 100, max: 2000, start: 600, why: \"test\"}\n"
           "measurements:\n  calibrate:\n    - {point: a, metric: rx.gbps, value: " + value + ", " +
           meas_extra + "}\n" + fit;
  }
};

// Sets every metric of every point of a baseline file to v.
inline void set_all_metrics(const std::string &file, double v) {
  json_t *doc = json_load_file(file.c_str(), 0, nullptr);
  ASSERT_NE(doc, nullptr) << file;
  json_t *pts = json_object_get(doc, "points");
  for (size_t i = 0; i < json_array_size(pts); i++) {
    json_t *m = json_object_get(json_array_get(pts, i), "metrics");
    const char *k;
    json_t *x;
    json_object_foreach(m, k, x) json_object_set_new(m, k, json_real(v));
  }
  ASSERT_EQ(json_dump_file(doc, file.c_str(), JSON_INDENT(2)), 0);
  json_decref(doc);
}

// True if text is UTF-8 made only of XML 1.0 Char characters.
inline bool xml_chars_only(const std::string &t) {
  for (size_t i = 0; i < t.size();) {
    unsigned char c = t[i];
    unsigned long cp;
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > t.size()) return false;
    cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < n; k++) cp = (cp << 6) | (t[i + k] & 0x3F);
    if (!(cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
          (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF)))
      return false;
    i += n;
  }
  return true;
}

#endif
