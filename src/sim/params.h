/*
 * params.h: the one place C++ reads nicsim_config. ConfigBinder fills any
 * model's Params through its bind() (models/common/params.h) from the
 * schema's key table; param_config_error turns a validate() failure into
 * the config error the rest of nicsim prints, at the blamed key's
 * file:line:col.
 */
#ifndef NICSIM_SIM_PARAMS_H
#define NICSIM_SIM_PARAMS_H

#include <string>
#include <vector>

#include "common/params.h"
#include "config/config.h"

namespace nicsim {

/* Binds fields to the values of cfg's keys. A path the schema lacks, a
 * field whose type the key's cannot fill, or an enumerated key whose
 * choice the model does not list is a programming error: std::logic_error. */
class ConfigBinder : public ParamBinder {
 public:
  explicit ConfigBinder(const nicsim_config &cfg) : m_cfg(cfg) {}
  void key(const char *path, bool &field) override;
  void key(const char *path, double &field, Conv c = Conv::None) override;
  void key(const char *path, int64_t &field, Conv c = Conv::None) override;
  void key(const char *path, uint64_t &field, Conv c = Conv::None) override;
  void key(const char *path, uint32_t &field, Conv c = Conv::None) override;
  void key(const char *path, int &field, Conv c = Conv::None) override;
  void key(const char *path, std::string &field) override;
  using ParamBinder::key;
  /* The keys bound so far, in order. */
  const std::vector<std::string> &bound() const { return m_bound; }

 protected:
  int choice(const char *path, const char *const *names, size_t n) override;

 private:
  /* Key path of type t (else logic_error), recorded as bound. */
  const nc_key &find(const char *path, std::initializer_list<nc_type> types);
  /* An INT or REAL key's value converted by c, as an integer. */
  int64_t integer(const char *path, Conv c);
  const nicsim_config &m_cfg;
  std::vector<std::string> m_bound;
};

/* P from cfg: its defaults, then every key its bind() names. */
template <class P>
P bind_params(const nicsim_config &cfg) {
  P p;
  ConfigBinder b(cfg);
  p.bind(b);
  return p;
}

/* A validate() failure as a config error at the origin of the key it blames
 * (nc_config_blame of its keys): returns -1 with *err filled. */
int param_config_error(const nicsim_config &cfg, const ParamError &e, nc_error *err);

}  // namespace nicsim
#endif
