// params.cpp: ConfigBinder, the generic filling of models' Params from nicsim_config, and validate() errors as config errors.
#include "sim/params.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace nicsim {

namespace {
/* The field of key k in cfg. */
const char *field_of(const nicsim_config &cfg, const nc_key &k) {
  return reinterpret_cast<const char *>(&cfg) + k.offset;
}
[[noreturn]] void misuse(const char *path, const char *what) {
  throw std::logic_error(std::string("Params::bind: key '") + path + "' " + what);
}
}  // namespace

const nc_key &ConfigBinder::find(const char *path, std::initializer_list<nc_type> types) {
  const nc_key *k = nc_key_find(path);
  if (!k) misuse(path, "is not in src/config/schema.h");
  bool ok = false;
  for (nc_type t : types) ok = ok || k->type == t;
  if (!ok) misuse(path, "has another type than the field it is bound to");
  m_bound.emplace_back(path);
  return *k;
}

int64_t ConfigBinder::integer(const char *path, Conv c) {
  const nc_key &k = find(path, {NC_INT, NC_REAL});
  const char *f = field_of(m_cfg, k);
  if (k.type == NC_INT) {
    int64_t v;
    std::memcpy(&v, f, sizeof v);
    switch (c) {
      case Conv::None: return v;
      case Conv::MibToBytes: return static_cast<int64_t>(static_cast<uint64_t>(v) << 20);
      default: break;
    }
    misuse(path, "is an integer: no time or clock conversion");
  }
  double v;
  std::memcpy(&v, f, sizeof v);
  switch (c) {
    case Conv::NsToPs: return static_cast<int64_t>(std::llround(v * 1000.0));
    case Conv::UsToPs: return static_cast<int64_t>(std::llround(v * 1e6));
    case Conv::MhzToPs: return static_cast<int64_t>(std::llround(1e6 / v));
    default: break;
  }
  misuse(path, "is a real number: bind it to a double, or convert it to ps");
}

void ConfigBinder::key(const char *path, bool &field) {
  std::memcpy(&field, field_of(m_cfg, find(path, {NC_BOOL})), sizeof field);
}

void ConfigBinder::key(const char *path, double &field, Conv c) {
  if (c != Conv::None) misuse(path, "is bound to a double: no conversion");
  const nc_key &k = find(path, {NC_REAL, NC_INT});
  if (k.type == NC_REAL) {
    std::memcpy(&field, field_of(m_cfg, k), sizeof field);
  } else {
    int64_t v;
    std::memcpy(&v, field_of(m_cfg, k), sizeof v);
    field = static_cast<double>(v);
  }
}

void ConfigBinder::key(const char *path, int64_t &field, Conv c) { field = integer(path, c); }
void ConfigBinder::key(const char *path, uint64_t &field, Conv c) { field = static_cast<uint64_t>(integer(path, c)); }
void ConfigBinder::key(const char *path, uint32_t &field, Conv c) { field = static_cast<uint32_t>(integer(path, c)); }
void ConfigBinder::key(const char *path, int &field, Conv c) { field = static_cast<int>(integer(path, c)); }

void ConfigBinder::key(const char *path, std::string &field) { field = field_of(m_cfg, find(path, {NC_STR})); }

int ConfigBinder::choice(const char *path, const char *const *names, size_t n) {
  const nc_key &k = find(path, {NC_ENUM});
  char name[64];
  nc_value_format(&m_cfg, &k, name, sizeof name);
  for (size_t i = 0; i < n; i++)
    if (std::strcmp(names[i], name) == 0) return static_cast<int>(i);
  misuse(path, (std::string("has the choice '") + name + "', which the model does not list").c_str());
}

int param_config_error(const nicsim_config &cfg, const ParamError &e, nc_error *err) {
  std::vector<nc_key_id> ids;
  for (const std::string &path : e.keys) {
    const nc_key *k = nc_key_find(path.c_str());
    if (k) ids.push_back(static_cast<nc_key_id>(k - nc_keys()));
  }
  if (ids.empty()) throw std::logic_error("validate(): an error names no key of the schema: " + e.msg);
  return nc_config_error(&cfg, ids.data(), ids.size(), e.hint.empty() ? nullptr : e.hint.c_str(), e.msg.c_str(),
                         err);
}

}  // namespace nicsim
