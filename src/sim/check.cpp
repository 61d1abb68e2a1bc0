// check.cpp: nicsim_check_config: a resolved config against the models' and the driver's rules.
#include <stdexcept>

#include "drivers/driver.h"
#include "sim/model_params.h"
#include "sim/sim.h"

extern "C" int nicsim_check_config(const struct nicsim_config *cfg, struct nc_error *err) {
  nc_error dummy;
  if (!err) err = &dummy;
  if (nicsim::check_model_params(*cfg, err) != 0) return -1;
  return nk_driver_check_config(cfg, err);
}
