// results_test_util.h: helpers shared by the src/results unit tests: configs
// and results filled with distinctive values, and capturing FILE* output.
#ifndef NICSIM_TESTS_RESULTS_TEST_UTIL_H
#define NICSIM_TESTS_RESULTS_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>

#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include "config/config.h"
#include "results/metrics.h"
#include "results/output.h"

namespace nicsim_test {

// Frees what calloc allocated.
struct FreeDeleter {
  void operator()(void *p) const { free(p); }
};
template <typename T>
using cptr = std::unique_ptr<T, FreeDeleter>;

// A heap-allocated zeroed T (the structs are tens of kB).
template <typename T>
cptr<T> make_zeroed() {
  return cptr<T>(static_cast<T *>(calloc(1, sizeof(T))));
}

// Schema defaults plus a name, description, platform and label.
inline cptr<nicsim_config> default_config(const char *label = "") {
  auto c = make_zeroed<nicsim_config>();
  nc_config_defaults(c.get());
  snprintf(c->name, sizeof c->name, "unit \"test\", with comma");
  snprintf(c->description, sizeof c->description, "a description\nwith a newline");
  snprintf(c->platform, sizeof c->platform, "x86-gen3");
  snprintf(c->label, sizeof c->label, "%s", label);
  return c;
}

// Key i of the schema set to a value that differs from key to key: bools
// alternate, ints 1000+i, reals 0.1*(i+1) (not exact in binary), enums their
// last choice, strings "s<i>".
inline void fill_distinct(nicsim_config *c) {
  const nc_key *keys = nc_keys();
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    char *field = reinterpret_cast<char *>(c) + keys[i].offset;
    switch (keys[i].type) {
      case NC_BOOL: {
        bool b = (i % 2) == 0;
        memcpy(field, &b, sizeof b);
        break;
      }
      case NC_INT: {
        int64_t v = 1000 + static_cast<int64_t>(i);
        memcpy(field, &v, sizeof v);
        break;
      }
      case NC_REAL: {
        double v = 0.1 * static_cast<double>(i + 1);
        memcpy(field, &v, sizeof v);
        break;
      }
      case NC_ENUM: {
        int last = 0;
        for (const char *p = keys[i].choices; *p; p++) last += *p == '|';
        memcpy(field, &last, sizeof last);
        break;
      }
      case NC_STR:
        snprintf(field, NC_STR_MAX, "s%zu", i);
        break;
    }
  }
}

// Every static metric set: COUNTs to 1000+id, REAL/WALL to (id+1)/3.
inline cptr<nicsim_results> full_results() {
  auto r = make_zeroed<nicsim_results>();
  nicsim_results_init(r.get());
  const nicsim_metric_def *defs = nicsim_metric_defs();
  for (int id = 0; id < static_cast<int>(nicsim_metric_count()); id++)
    nicsim_results_set(r.get(), id,
                       defs[id].kind == NM_KIND_COUNT ? 1000.0 + id : (id + 1) / 3.0);
  return r;
}

// What fn writes to a FILE*, as a string.
inline std::string capture(const std::function<void(FILE *)> &fn) {
  char *buf = nullptr;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (f == nullptr) return "<open_memstream failed>";
  fn(f);
  fclose(f);
  std::string s(buf, len);
  free(buf);
  return s;
}

}  // namespace nicsim_test

#endif
