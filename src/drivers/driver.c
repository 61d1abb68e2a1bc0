/* driver.c: the table of nicsim's C drivers, the lookup by name, and
 * nk_kernel_probe (which picks the driver named by the config). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "drivers/driver.h"

static const struct nk_driver *const nk_drivers[] = {
    &nk_driver_generic, &nk_driver_mvneta, &nk_driver_lan743x, &nk_driver_stmmac, &nk_driver_i40e,
};

const struct nk_driver *nk_driver_find(const char *name) {
  if (!name) return NULL;
  for (size_t i = 0; i < sizeof nk_drivers / sizeof nk_drivers[0]; i++)
    if (strcmp(nk_drivers[i]->name, name) == 0) return nk_drivers[i];
  return NULL;
}

/* The choices of driver.name, straight from the schema ("generic|..."). */
#define NK_DRIVER_KEY(sec, name, type, unit, def, min, max, choices, doc) {#name, choices},
static const struct {
  const char *key, *choices;
} nk_driver_keys[] = {NC_SECTION_driver(NK_DRIVER_KEY)};

/* Writes the name of choice `idx` of driver.name into buf; false if none. */
static bool driver_choice(int idx, char *buf, size_t n) {
  for (size_t i = 0; i < sizeof nk_driver_keys / sizeof nk_driver_keys[0]; i++) {
    if (strcmp(nk_driver_keys[i].key, "name") != 0) continue;
    const char *c = nk_driver_keys[i].choices;
    for (int j = 0; c; j++) {
      const char *bar = strchr(c, '|');
      size_t len = bar ? (size_t)(bar - c) : strlen(c);
      if (j == idx) {
        snprintf(buf, n, "%.*s", (int)len, c);
        return true;
      }
      c = bar ? bar + 1 : NULL;
    }
  }
  return false;
}

int nk_kernel_probe(struct nk_kernel *k, char *err, size_t errlen) {
  const struct nicsim_config *cfg = nk_kernel_netdev(k)->cfg;
  char name[64];
  if (!driver_choice(cfg->driver.name, name, sizeof name)) {
    snprintf(err, errlen, "driver.name: choice %d is not in the schema", cfg->driver.name);
    return -EINVAL;
  }
  const struct nk_driver *drv = nk_driver_find(name);
  if (!drv) {
    snprintf(err, errlen, "driver.name '%s': no C driver of that name in src/drivers", name);
    return -ENODEV;
  }
  return nk_kernel_probe_driver(k, drv, err, errlen);
}
