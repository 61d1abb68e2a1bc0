// config_test_util.h: helpers shared by the src/config unit tests: load a
// scenario from text, format an error's position, write temporary files.
#ifndef NICSIM_TESTS_CONFIG_TEST_UTIL_H
#define NICSIM_TESTS_CONFIG_TEST_UTIL_H

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "config/config.h"

// A scenario loaded by a test; frees itself.
struct Loaded {
  nc_scenario *s = nullptr;
  nc_error err{};
  int rc = -1;
  Loaded() = default;
  Loaded(const Loaded &) = delete;
  Loaded &operator=(const Loaded &) = delete;
  ~Loaded() { nc_scenario_free(s); }
};

// Loads scenario text under a display name (relative platform paths start at its directory).
inline void load_text(Loaded &l, const std::string &text, const char *name = "t.yaml") {
  l.rc = nc_scenario_load_string(name, text.c_str(), &l.s, &l.err);
}

// "file:line:col" of an error or an origin.
inline std::string where(const nc_origin &o) {
  return std::string(o.file) + ":" + std::to_string(o.line) + ":" + std::to_string(o.col);
}
inline std::string where(const nc_error &e) { return where(e.where); }

// What nc_error_print writes for e.
inline std::string printed(const nc_error &e) {
  char *buf = nullptr;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  nc_error_print(&e, f);
  fclose(f);
  std::string s(buf, len);
  free(buf);
  return s;
}

// A fresh temporary directory, removed (with its files) at destruction.
struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/nicsim-config-test-XXXXXX";
    const char *p = mkdtemp(tmpl);
    EXPECT_NE(p, nullptr);
    path = p ? p : "/tmp";
  }
  ~TempDir() { (void)!std::system(("rm -rf '" + path + "'").c_str()); }
  // Writes `text` (len bytes) to path/rel, creating directories; returns the full path.
  std::string write(const std::string &rel, const std::string &text) const {
    std::string full = path + "/" + rel;
    std::string dir = full.substr(0, full.rfind('/'));
    (void)!std::system(("mkdir -p '" + dir + "'").c_str());
    FILE *f = fopen(full.c_str(), "wb");
    EXPECT_NE(f, nullptr) << full;
    if (f) {
      fwrite(text.data(), 1, text.size(), f);
      fclose(f);
    }
    return full;
  }
};

// Resolves point `point` of a loaded scenario with optional --set overrides.
inline int resolve(const Loaded &l, long point, nicsim_config *c, nc_error *e,
                   std::initializer_list<const char *> sets = {}) {
  return nc_scenario_resolve(l.s, point, sets.begin(), sets.size(), c, e);
}

// Key k's value in c as text.
inline std::string value_of(const nicsim_config &c, const char *path) {
  char buf[NC_STR_MAX];
  const nc_key *k = nc_key_find(path);
  EXPECT_NE(k, nullptr) << path;
  if (!k) return "";
  nc_value_format(&c, k, buf, sizeof buf);
  return buf;
}

// Where key `path` of c came from, as "file:line:col".
inline std::string origin_of(const nicsim_config &c, const char *path) {
  const nc_key *k = nc_key_find(path);
  EXPECT_NE(k, nullptr) << path;
  return k ? where(c.origin[k - nc_keys()]) : "";
}

#endif
