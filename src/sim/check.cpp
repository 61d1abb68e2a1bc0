// check.cpp: nicsim_check_config: a resolved config against the models' and the driver's rules.
#include <stdexcept>

#include "drivers/driver.h"
#include "sim/model_params.h"
#include "sim/sim.h"

extern "C" int nicsim_check_config(const struct nicsim_config *cfg, struct nc_error *err) {
  nc_error dummy;
  if (!err) err = &dummy;
  /* The driver's rules first: where both speak (nic.desc_spacing), the
   * driver knows its family's stride and says so; the models' rules hold
   * for any driver, an embedder's own included. */
  if (nk_driver_check_config(cfg, err) != 0) return -1;
  return nicsim::check_model_params(*cfg, err);
}

extern "C" int nicsim_check_config_all(const struct nicsim_config *cfg, struct nc_errors *errs) {
  nc_error err{};
  int bad = 0;
  if (nk_driver_check_config(cfg, &err) != 0) {
    nc_errors_add_blamed(errs, cfg, &err);
    bad = -1;
  }
  if (nicsim::check_model_params_all(*cfg, errs) != 0) bad = -1;
  return bad;
}
