// test_fuzz_regressions.cpp: regression tests for loader bugs found by fuzzing
// and by reading src/config with the fuzzer's invariants in mind (see
// docs/robustness.md, "Findings"). Each test failed on the code as it was when
// the bug was found (70a07a1, whose line numbers are quoted below) and passes
// with the fixes.
//
// Built by tests/unit/config/CMakeLists.txt as its own binary,
// test_fuzz_regressions (ctest labels unit and fuzz): it replaces malloc and
// free, so keep it out of the shared test executables. NICSIM_FUZZ_DIR
// (tests/fuzz) locates the reproducers in tests/fuzz/regressions.
//
//  - ConfigFuzzRegression.PlatformAxis*: a `platform` sweep-axis value whose
//    file cannot be read or parsed leaks the value's text (scenario.c:481
//    allocates it, load_axes returns before ax->n counts the value, so
//    nc_scenario_free never frees it). Detected by LeakSanitizer in sanitizer
//    builds, and otherwise by counting allocations: this file interposes
//    malloc/calloc/realloc/free (forwarding to glibc's __libc_* functions),
//    so keep it in its own binary rather than in a shared test executable.
//  - ConfigFuzzRegression.*Linear*: the duplicate checks of sweep axis values
//    (scenario.c:630) and of point labels (scenario.c:721) compare every pair,
//    and run before the 100000-point limit (scenario.c:785): a sweep at the
//    documented limit takes tens of seconds to load, and a 7 MB file with a
//    million axis values keeps the loader busy for most of an hour before it
//    is rejected. Each case runs in a child process under a time limit.
//  - ConfigFuzzRegression.SyntaxErrorAtEndOfFileStaysInTheFile: in a file
//    whose last line has no line break, a syntax error at the end is
//    reported one line past the end ("t.yaml:2:1" for a one-line file):
//    yaml_tree.c:101 passes on libyaml's stream-end mark, which libyaml moves
//    to the start of a new line.
//  - ConfigFuzzRegression.ErrorMessagesHaveNoControlCharacters: keys and
//    platform names written with escapes ("\e[2J") are repeated raw in error
//    messages (e.g. scenario.c unknown_top, platform_ref), so printing the
//    error makes the terminal clear the screen or set its title. Values are
//    already shown escaped (keys.c shown()); docs/config.md says control
//    characters are not accepted. Fixed twice over: nc__error_set escapes
//    every control character of a message and hint as \xNN, and keys, point
//    labels, sweep.baseline, platform names and plot texts with control
//    characters are rejected with an error that names them.
//  - ConfigFuzzRegression.ASweepThatVariesNothingIsRejected: 'sweep:' with
//    only 'repeats: 1' (or a baseline) passed the loader's emptiness check
//    (scenario.c load_sweep rejected only an empty mapping) and expanded to
//    one point with an empty label, which the fuzzer's invariant refuses
//    (found by the 60 s fuzz pass of a CI run, 2026-11-30).
//  - libm (finding 5) has no test here: tests/fuzz's C programs
//    (fuzz_config_replay, fuzz_dict_check) link nicsim_config without -lm and
//    fail to link while nicsim_config does not bring libm.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

#include "config/config.h"

#ifndef NICSIM_FUZZ_DIR
#error "define NICSIM_FUZZ_DIR (the tests/fuzz directory)"
#endif

#if defined(__SANITIZE_ADDRESS__)
#define NICSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NICSIM_ASAN 1
#endif
#endif

namespace {

std::string slurp(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  EXPECT_TRUE(f.good()) << path;
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Loads text as `name` and frees it; returns the load's rc and fills err.
int load_once(const std::string &name, const std::string &text, nc_error *err) {
  nc_scenario *s = nullptr;
  int rc = nc_scenario_load_string(name.c_str(), text.c_str(), &s, err);
  nc_scenario_free(s);
  return rc;
}

} // namespace

#if !defined(NICSIM_ASAN) && defined(__GLIBC__)
// Allocation counting: while g_counting is set, every block obtained from
// malloc, calloc or realloc(NULL, n) adds one to g_live and every free (or
// realloc(p, 0)) subtracts one. Interposes the process's allocator.
#define NICSIM_COUNT_ALLOCS 1
extern "C" {
void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void __libc_free(void *);
}
static bool g_counting;
static long g_live;
extern "C" void *malloc(size_t n) {
  void *p = __libc_malloc(n);
  if (g_counting && p) g_live++;
  return p;
}
extern "C" void *calloc(size_t a, size_t b) {
  void *p = __libc_calloc(a, b);
  if (g_counting && p) g_live++;
  return p;
}
extern "C" void *realloc(void *q, size_t n) {
  void *p = __libc_realloc(q, n);
  if (g_counting) {
    if (!q && p) g_live++;
    if (q && n == 0) g_live--;
  }
  return p;
}
extern "C" void free(void *p) {
  if (g_counting && p) g_live--;
  __libc_free(p);
}
#endif

namespace {

// Blocks still allocated after loading (and freeing) text n times: 0 unless
// something leaks. -1 where allocations are not counted (ASan builds, where
// LeakSanitizer reports leaks at exit instead).
long leaked_blocks(const std::string &name, const std::string &text, int n) {
#ifdef NICSIM_COUNT_ALLOCS
  nc_error err;
  g_live = 0;
  g_counting = true;
  for (int i = 0; i < n; i++) load_once(name, text, &err);
  g_counting = false;
  return g_live;
#else
  (void)name, (void)text, (void)n;
  return -1;
#endif
}

// Changes the current directory for the lifetime of the object (relative platform paths).
struct InDir {
  char old[4096];
  explicit InDir(const std::string &dir) {
    EXPECT_NE(getcwd(old, sizeof old), nullptr);
    EXPECT_EQ(chdir(dir.c_str()), 0) << dir;
  }
  ~InDir() { (void)!chdir(old); }
};

TEST(ConfigFuzzRegression, PlatformAxisWithMissingFileDoesNotLeak) {
  const std::string text = slurp(NICSIM_FUZZ_DIR "/regressions/platform-axis-missing-file.yaml");
  nc_error err;
  ASSERT_EQ(load_once("fuzz.yaml", text, &err), -1);
  EXPECT_STREQ(err.where.file, "fuzz.yaml");
  EXPECT_EQ(err.where.line, 3);
  EXPECT_NE(std::string(err.msg).find("cannot read platform file"), std::string::npos) << err.msg;
  long leaked = leaked_blocks("fuzz.yaml", text, 10);
  if (leaked >= 0) {
    EXPECT_EQ(leaked, 0) << "blocks left allocated by 10 loads";
  }
}

TEST(ConfigFuzzRegression, PlatformAxisWithBrokenFileDoesNotLeak) {
  InDir in(NICSIM_FUZZ_DIR "/workdir"); // plat/gen3.yaml and plat/broken.yaml
  const std::string text = slurp(NICSIM_FUZZ_DIR "/regressions/platform-axis-broken-file.yaml");
  nc_error err;
  ASSERT_EQ(load_once("fuzz.yaml", text, &err), -1);
  EXPECT_STREQ(err.where.file, "plat/broken.yaml");
  EXPECT_NE(std::string(err.hint).find("platform named at fuzz.yaml:3:"), std::string::npos)
      << err.hint;
  long leaked = leaked_blocks("fuzz.yaml", text, 10);
  if (leaked >= 0) {
    EXPECT_EQ(leaked, 0) << "blocks left allocated by 10 loads";
  }
}

// Loads text in a child process that is killed after `seconds`; the child
// exits 0 if the load's outcome matches (rc, and npoints or a message part).
void expect_loads_within(const std::string &text, unsigned seconds, int want_rc,
                         size_t want_points, const char *want_msg) {
  EXPECT_EXIT(
      {
        alarm(seconds);
        nc_scenario *s = nullptr;
        nc_error err;
        int rc = nc_scenario_load_string("fuzz.yaml", text.c_str(), &s, &err);
        bool ok = rc == want_rc &&
                  (rc == 0 ? nc_scenario_npoints(s) == want_points
                           : std::string(err.msg).find(want_msg) != std::string::npos);
        if (!ok) fprintf(stderr, "rc=%d msg=%s\n", rc, rc ? err.msg : "");
        nc_scenario_free(s);
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "")
      << "(killed by SIGALRM = took over " << seconds << " s)";
}

std::string axis_of(size_t n) {
  std::string t = "sweep:\n  axes:\n    run.seed: [0";
  for (size_t i = 1; i < n; i++) t += ", " + std::to_string(i);
  return t + "]\n";
}

std::string points_of(size_t n) {
  std::string t = "sweep:\n  points:\n";
  for (size_t i = 0; i < n; i++) t += "    - {label: p" + std::to_string(i) + "}\n";
  return t;
}

TEST(ConfigFuzzRegression, AxisAtThePointLimitLoadsInLinearTime) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  expect_loads_within(axis_of(100000), 10, 0, 100000, nullptr);
}

TEST(ConfigFuzzRegression, PointsAtThePointLimitLoadInLinearTime) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  expect_loads_within(points_of(100000), 10, 0, 100000, nullptr);
}

TEST(ConfigFuzzRegression, HugeAxisIsRejectedBeforeDuplicateChecks) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  // 990000 values (about 6.8 MB): under the 16 MiB file and the 1000000-node
  // limits of the YAML reader, ten times the point limit.
  expect_loads_within(axis_of(990000), 20, -1, 0, "more than 100000 points");
}

TEST(ConfigFuzzRegression, SyntaxErrorAtEndOfFileStaysInTheFile) {
  const std::string text = slurp(NICSIM_FUZZ_DIR "/regressions/eof-without-newline.yaml");
  ASSERT_EQ(text.find('\n'), std::string::npos) << "the reproducer is one unterminated line";
  nc_error err;
  ASSERT_EQ(load_once("t.yaml", text, &err), -1);
  EXPECT_NE(std::string(err.msg).find("YAML syntax error"), std::string::npos) << err.msg;
  EXPECT_EQ(err.where.line, 1) << "the file has one line";
  EXPECT_GE(err.where.col, 1);
  EXPECT_LE(err.where.col, (int)text.size() + 1);
}

TEST(ConfigFuzzRegression, ASweepThatVariesNothingIsRejected) {
  // The reproducer (fuzz run of 2026-11-30, trimmed): 'sweep:' with only
  // 'repeats: 1' loaded as one point with an empty label.
  const std::string text = slurp(NICSIM_FUZZ_DIR "/regressions/sweep-repeats-one.yaml");
  nc_error err;
  ASSERT_EQ(load_once("t.yaml", text, &err), -1);
  EXPECT_NE(std::string(err.msg).find("sweep varies nothing"), std::string::npos) << err.msg;
  EXPECT_NE(std::string(err.hint).find("leave 'sweep:' out"), std::string::npos) << err.hint;
  EXPECT_EQ(err.where.line, 2) << "at the sweep's mapping";
  // The same with a baseline (which then names no point), and repeats 0.
  for (const char *t : {"sweep:\n  baseline: x\n", "sweep:\n  repeats: 1\n  baseline: ''\n"}) {
    ASSERT_EQ(load_once("t.yaml", t, &err), -1) << t;
    EXPECT_NE(std::string(err.msg).find("sweep varies nothing"), std::string::npos) << t << err.msg;
  }
  // What does vary still loads: repeats 2, or one axis.
  for (const char *t : {"sweep:\n  repeats: 2\n", "sweep:\n  axes:\n    nic.desc_spacing: [16]\n"})
    EXPECT_EQ(load_once("t.yaml", t, &err), 0) << t << err.msg;
}

TEST(ConfigFuzzRegression, ErrorMessagesHaveNoControlCharacters) {
  for (const char *f : {"control-chars-in-key.yaml", "control-chars-in-platform.yaml"}) {
    const std::string text = slurp(std::string(NICSIM_FUZZ_DIR "/regressions/") + f);
    nc_error err;
    ASSERT_EQ(load_once("t.yaml", text, &err), -1) << f;
    for (const char *p : {err.msg, err.hint})
      for (const unsigned char *c = (const unsigned char *)p; *c; c++)
        EXPECT_TRUE(*c >= 0x20 && *c != 0x7f)
            << f << ": control character " << (int)*c << " in '" << p << "'";
  }
}

TEST(ConfigFuzzRegression, CommittedSlowReproducersLoadQuickly) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  expect_loads_within(slurp(NICSIM_FUZZ_DIR "/regressions/slow-axis-20000-values.yaml"), 1, 0,
                      20000, nullptr);
  expect_loads_within(slurp(NICSIM_FUZZ_DIR "/regressions/slow-points-20000-labels.yaml"), 1, 0,
                      20000, nullptr);
}


// Under a second of CPU time at the point limit, in an optimised build
// without sanitizers (70a07a1: 24 s and 37 s); CPU time, so a busy machine
// does not make it flaky.
TEST(ConfigFuzzRegression, SweepsAtThePointLimitLoadInUnderASecond) {
#if defined(__OPTIMIZE__) && !defined(NICSIM_ASAN)
  for (const std::string &text : {axis_of(100000), points_of(100000)}) {
    nc_scenario *s = nullptr;
    nc_error err;
    std::clock_t t0 = std::clock();
    ASSERT_EQ(nc_scenario_load_string("fuzz.yaml", text.c_str(), &s, &err), 0) << err.msg;
    double cpu = double(std::clock() - t0) / CLOCKS_PER_SEC;
    EXPECT_EQ(nc_scenario_npoints(s), 100000u);
    nc_scenario_free(s);
    EXPECT_LT(cpu, 1.0) << "seconds of CPU to load " << text.substr(0, 30);
  }
#else
  GTEST_SKIP() << "timed only in optimised builds without sanitizers";
#endif
}

// Duplicates are still found, and reported at the earliest repeat with the
// first occurrence, now that they are found by sorting.
TEST(ConfigFuzzRegression, DuplicatesAreReportedAtTheEarliestRepeat) {
  nc_error err;
  ASSERT_EQ(load_once("t.yaml", "sweep: {axes: {nic.desc_spacing: [64, 32, 16, 32, 64]}}\n", &err),
            -1);
  EXPECT_STREQ(err.msg, "duplicate value '32' in sweep axis nic.desc_spacing (first at t.yaml:1:39)");
  EXPECT_EQ(err.where.line, 1);
  EXPECT_EQ(err.where.col, 47);
  ASSERT_EQ(load_once("t.yaml",
                      "sweep:\n  points:\n    - {label: b}\n    - {label: a}\n    - {label: a}\n"
                      "    - {label: b}\n",
                      &err),
            -1);
  EXPECT_STREQ(err.msg, "duplicate point label 'a' (first at t.yaml:4:15)");
  EXPECT_EQ(err.where.line, 5);
  // Platforms: the same built-in platform under two spellings is one value.
  ASSERT_EQ(load_once("<builtin>/scenarios/t.yaml",
                      "sweep: {axes: {platform: [x86-gen3, ../configs/platforms/x86-gen3.yaml]}}\n",
                      &err),
            -1);
  EXPECT_NE(std::string(err.msg).find("duplicate value '../configs/platforms/x86-gen3.yaml'"),
            std::string::npos)
      << err.msg;
  // The limit applies to one axis or one list of points before anything else.
  ASSERT_EQ(load_once("t.yaml", points_of(100001), &err), -1);
  EXPECT_NE(std::string(err.msg).find("more than 100000 points"), std::string::npos) << err.msg;
  EXPECT_EQ(err.where.line, 3) << "at the list of points";
}

// The end of a file without a final line break, in other spellings: an empty
// value, CR LF line breaks, a byte order mark. The position stays on the last
// line, just after its last character.
TEST(ConfigFuzzRegression, PositionsAtTheEndOfFileStayInTheFile) {
  struct Case {
    const char *text;
    int line, col;
  } cases[] = {
      {"nic: {desc_spacing: 32", 1, 23},
      {"nic:", 1, 5},
      {"nic:\r\n  desc_spacing: [", 2, 18},
      {"\xef\xbb\xbfnic: {desc_spacing: 32", 1, 23},
      {"name: \xc3\xa9t\xc3\xa9\nnic: [", 2, 7},
      // With a final line break the end is the start of the next line, as before.
      {"nic: {desc_spacing: 16\n", 2, 1},
  };
  for (const Case &c : cases) {
    nc_error err;
    ASSERT_EQ(load_once("t.yaml", c.text, &err), -1) << c.text;
    EXPECT_EQ(err.where.line, c.line) << c.text << ": " << err.msg;
    EXPECT_EQ(err.where.col, c.col) << c.text << ": " << err.msg;
  }
}

// True if p holds a C0 control character, DEL, or a UTF-8 encoded C1 one.
bool has_control(const char *p) {
  for (const unsigned char *c = (const unsigned char *)p; *c; c++)
    if (*c < 0x20 || *c == 0x7f || (c[0] == 0xC2 && c[1] >= 0x80 && c[1] <= 0x9F)) return true;
  return false;
}

TEST(ConfigFuzzRegression, ControlCharactersAreRejectedAndShownEscaped) {
  struct Case {
    const char *text, *msg;
  } cases[] = {
      // Before any known top-level key: the key is not shown at all (issue 23).
      {"\"\\e[2J\\e[31mnic\": 1\n", "a key contains a control character"},
      {"nic: {\"desc\\u009bspacing\": 1}\n", "key 'desc\\xC2\\x9Bspacing' contains a control"},
      {"platform: \"\\e]0;title\\a\"\n",
       "the platform name '\\x1B]0;title\\x07' contains a control character (byte 1)"},
      {"sweep: {points: [{label: \"a\\nb\"}]}\n",
       "the point label 'a\\x0Ab' contains a control character (byte 2)"},
      {"sweep: {points: [{label: \"a\\u0085b\"}]}\n", "the point label 'a\\xC2\\x85b'"},
      {"sweep: {points: [{label: a}], baseline: \"\\ta\"}\n",
       "sweep.baseline '\\x09a' contains a control character"},
      {"sweep: {axes: {platform: [\"x\\ry\"]}}\n", "the platform name 'x\\x0Dy'"},
      {"sweep: {axes: {run.seed: [1, 2]}}\nplots: [{x: run.seed, y: rx.gbps, title: \"\\e[5m\"}]\n",
       "plot title '\\x1B[5m' contains a control character"},
  };
  for (const Case &c : cases) {
    nc_error err;
    ASSERT_EQ(load_once("t.yaml", c.text, &err), -1) << c.text;
    EXPECT_NE(std::string(err.msg).find(c.msg), std::string::npos) << c.text << ": " << err.msg;
    EXPECT_FALSE(has_control(err.msg)) << err.msg;
    EXPECT_FALSE(has_control(err.hint)) << err.hint;
  }
  // Every message goes through the same escaping, --set's too.
  nicsim_config cfg;
  nc_config_defaults(&cfg);
  nc_error err;
  ASSERT_EQ(nc_config_set(&cfg, "\x1b[2Jnic.x=1", &err), -1);
  EXPECT_STREQ(err.msg, "unknown key '\\x1B[2Jnic.x'");
  EXPECT_FALSE(has_control(err.hint)) << err.hint;
}

// Duplicate keys in a mapping were also looked for pairwise: a mapping at
// the 10000-entry limit took 0.6 s at -O2, and a 16 MiB file holds dozens.
// They are now found with a hash set.
TEST(ConfigFuzzRegression, LargeMappingsLoadInLinearTime) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  std::string t;
  for (int m = 0; m < 30; m++) {
    t += "s" + std::to_string(m) + ":\n";
    for (int k = 0; k < 9999; k++) t += "  key_number_" + std::to_string(k) + ": 1\n";
  }
  expect_loads_within(t, 8, -1, 0, "unknown top-level key"); // 70a07a1: 18 s
  // A duplicate is still found, with the first occurrence.
  std::string d = "nic:\n";
  for (int k = 0; k < 9999; k++) d += "  k" + std::to_string(k) + ": 1\n";
  d += "  k5000: 2\n";
  nc_error err;
  ASSERT_EQ(load_once("t.yaml", d, &err), -1);
  EXPECT_STREQ(err.msg, "duplicate key 'nic.k5000' (first defined at t.yaml:5002:3)");
  EXPECT_EQ(err.where.line, 10001);
}

} // namespace
