// stats.cpp: the registry's snapshots and evaluation, identifiers and family patterns (see stats.h).
#include "common/stats.h"

#include <cmath>
#include <cstring>
#include <unordered_map>

namespace nicsim {
namespace stats {

Registry::Registry() = default;
Registry::~Registry() = default;

void Registry::snapshot(Edge e) {
  for (auto &g : m_groups) g->snapshot(e);
  m_taken[static_cast<int>(e)] = true;
}

namespace {

/* Passes values on to the caller's sink and remembers them by name for the derived entries. */
class Recorder : public Sink, public Values {
 public:
  Recorder(Sink &out, const Run &run) : m_out(out), m_run(run) {}
  void value(const Info &info, double v) override {
    m_values[info.name] = v;
    m_out.value(info, v);
  }
  void instance(const Info &family, const char *name, const char *desc, double v) override {
    m_values[name] = v;
    m_out.instance(family, name, desc, v);
  }
  double operator()(const char *name) const override {
    const auto it = m_values.find(name);
    if (it != m_values.end()) return it->second;
    m_missing = true;
    return NAN;
  }
  const Run &run() const override { return m_run; }
  /* True (and reset) if a lookup since the last call found nothing. */
  bool missed() const {
    const bool m = m_missing;
    m_missing = false;
    return m;
  }

 private:
  Sink &m_out;
  const Run &m_run;
  std::unordered_map<std::string, double> m_values;
  mutable bool m_missing = false;
};

}  // namespace

void Registry::emit(const Run &run, Sink &out) const {
  Recorder rec(out, run);
  std::vector<const Info *> dinfo;
  std::vector<double (*)(const Values &)> dfn;
  for (const auto &g : m_groups) g->emit(run, rec, &dinfo, &dfn);
  for (size_t i = 0; i < dinfo.size(); i++) {
    const double v = dfn[i](rec);
    if (!rec.missed()) rec.value(*dinfo[i], v);
  }
}

std::string ident(const char *text) {
  std::string s;
  for (const char *c = text; *c; c++)
    if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_') s += *c;
  return s;
}

namespace {
bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
}  // namespace

bool pattern_matches(const char *pattern, const char *name) {
  const char *p = pattern, *n = name;
  while (*p) {
    if (*p != '<') {
      if (*p++ != *n++) return false;
      continue;
    }
    const char *close = std::strchr(p, '>');
    if (!close) return false;
    const std::string inside(p + 1, close);
    p = close + 1;
    if (inside.find('|') == std::string::npos) {
      /* One identifier. */
      size_t k = 0;
      while (ident_char(n[k])) k++;
      if (k == 0) return false;
      n += k;
      continue;
    }
    /* One of the words. */
    bool found = false;
    size_t start = 0;
    while (start <= inside.size()) {
      size_t bar = inside.find('|', start);
      if (bar == std::string::npos) bar = inside.size();
      const std::string word = inside.substr(start, bar - start);
      if (!word.empty() && std::strncmp(n, word.c_str(), word.size()) == 0 && !ident_char(n[word.size()])) {
        n += word.size();
        found = true;
        break;
      }
      start = bar + 1;
    }
    if (!found) return false;
  }
  return *n == '\0';
}

}  // namespace stats
}  // namespace nicsim
