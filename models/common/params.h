/*
 * params.h: how a model's parameters come from configuration keys without
 * the model reading the configuration. Each model has a Params struct: its
 * fields in the units the model computes with (a unit in every comment),
 * their defaults, and two members:
 *
 *   void bind(ParamBinder &b)   names, for each field it takes from a key,
 *                               the key (its schema path, "pcie.mps"), the
 *                               field and the unit conversion;
 *   ParamCheck validate() const the model's own rules (ranges, consistency)
 *                               as data: the keys to blame, what is wrong,
 *                               how to fix it. Models never print.
 *
 * src/sim fills every Params through the schema's key table (one generic
 * binder, src/sim/params.cpp) and turns a validate() failure into the usual
 * config error at the blamed key's file:line:col. A fact that spans layers
 * (a driver key deciding a device behaviour, the traffic's longest frame
 * sizing a FIFO) is a plain field src/sim computes; a model binds only the
 * keys of its own sections. So a new knob is its key in
 * the schema (schema.h of the config library) and a line in the model's bind().
 */
#ifndef NICSIM_MODELS_COMMON_PARAMS_H
#define NICSIM_MODELS_COMMON_PARAMS_H

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nicsim {

/* A rule a model's parameters break: the config keys it involves (the one
 * set latest is blamed, as for every config rule), the message and a hint. */
struct ParamError {
  std::vector<std::string> keys;
  std::string msg;
  std::string hint;
};
/* What validate() returns: nothing, or the first rule broken. */
using ParamCheck = std::optional<ParamError>;

/* A ParamError of keys, message and hint (printf-style message). */
ParamError param_error(std::initializer_list<const char *> keys, std::string hint, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* True if v is a positive power of two. */
bool pow2(uint64_t v);
/* The powers of two nearest v within [lo, hi], for hints: "256 or 512". */
std::string nearest_pow2(uint64_t v, uint64_t lo, uint64_t hi);

/* A real number as config text: the shortest of 15 to 17 significant
 * digits that reads back as the same double ("2.5", "5"). */
std::string real_text(double v);

/* How a key's value becomes a field's: the key's unit on the left. */
enum class Conv : uint8_t {
  None,      /* the same unit (an integer key to an integer field, a real to a real) */
  NsToPs,    /* ns to ps, rounded to the nearest */
  UsToPs,    /* us to ps, rounded to the nearest */
  MhzToPs,   /* a clock in MHz to its period in ps, rounded to the nearest */
  MibToBytes /* MiB to bytes */
};

/* Fills Params fields from keys; see the file comment. */
class ParamBinder {
 public:
  virtual ~ParamBinder() = default;
  virtual void key(const char *path, bool &field) = 0;
  virtual void key(const char *path, double &field, Conv c = Conv::None) = 0;
  virtual void key(const char *path, int64_t &field, Conv c = Conv::None) = 0;
  virtual void key(const char *path, uint64_t &field, Conv c = Conv::None) = 0;
  virtual void key(const char *path, uint32_t &field, Conv c = Conv::None) = 0;
  virtual void key(const char *path, int &field, Conv c = Conv::None) = 0;
  virtual void key(const char *path, std::string &field) = 0;
  /* An enumerated key: field gets the value paired with the key's choice
   * (every choice of the key must be listed). */
  template <class E>
  void key(const char *path, E &field, std::initializer_list<std::pair<const char *, E>> choices) {
    std::vector<const char *> names;
    for (const auto &c : choices) names.push_back(c.first);
    const int i = choice(path, names.data(), names.size());
    if (i >= 0) field = (choices.begin() + i)->second;
  }

 protected:
  /* Index in names[0..n) of path's choice, or -1 if the binder leaves the field alone. */
  virtual int choice(const char *path, const char *const *names, size_t n) = 0;
};

}  // namespace nicsim
#endif
