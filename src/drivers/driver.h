/*
 * driver.h: the drivers of src/drivers (each a struct nk_driver, the
 * interface kernel/driver_ops.h defines), their lookup by the name in
 * cfg->driver.name, and helpers for their config rules. A driver reaches
 * hardware only through kernel.h.
 */
#ifndef NICSIM_DRIVERS_DRIVER_H
#define NICSIM_DRIVERS_DRIVER_H

#include <stddef.h>

#include "kernel/driver_ops.h"
#include "kernel/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const struct nk_driver nk_driver_generic; /* generic.c: nicsim's generic NIC */
extern const struct nk_driver nk_driver_mvneta;  /* mvneta.c: Marvell NETA (SoC, 1 GbE) */
extern const struct nk_driver nk_driver_lan743x; /* lan743x.c: Microchip LAN743x (PCIe) */
extern const struct nk_driver nk_driver_stmmac;  /* stmmac.c: Synopsys DWMAC 4.x */
extern const struct nk_driver nk_driver_i40e;    /* i40e.c: Intel 700 series */

/* The driver with this name, or NULL. */
const struct nk_driver *nk_driver_find(const char *name);
/* The driver cfg->driver.name names, or NULL. */
const struct nk_driver *nk_driver_of(const struct nicsim_config *cfg);
/* Probes the driver the kernel's config names (cfg->driver.name) through
 * nk_kernel_probe_driver: rings, buffers, registers, IRQ. 0 or -errno. */
int nk_driver_probe(struct nk_kernel *k, char *err, size_t errlen);

/* The ids and n arguments of nk_config_fail from a list of keys (C only):
 * nk_config_fail(e, NK_KEYS(NC_KEY_nic_rx_ring_size), hint, ...). */
#define NK_KEYS(...) \
  (const enum nc_key_id[]){__VA_ARGS__}, sizeof((const enum nc_key_id[]){__VA_ARGS__}) / sizeof(enum nc_key_id)

/* Fills *e for a check_config: the keys ids[0..n-1] (n from 1 to 4), the
 * hint and the message; returns -1. */
int nk_config_fail(struct nk_config_error *e, const enum nc_key_id *ids, size_t n, const char *hint,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* For check_config: nic.desc_spacing a multiple of 8 (the 64-bit buffer
 * address stays aligned) of at least min bytes; 0, or -1 with *e filled
 * (what names the device: "the generic NIC"). */
int nk_config_spacing8(const struct nicsim_config *cfg, unsigned min, const char *what, struct nk_config_error *e);
/* For check_config: an RX ring of at least rx_min and a TX ring of at least
 * tx_min descriptors; 0, or -1 with *e filled (drv names the driver). */
int nk_config_ring_min(const struct nicsim_config *cfg, int64_t rx_min, int64_t tx_min, const char *drv,
                       struct nk_config_error *e);
/* For probe: runs drv->check_config on cfg; on failure writes "msg (hint)"
 * into err and returns -EINVAL, else 0. */
int nk_driver_probe_check(const struct nk_driver *drv, const struct nicsim_config *cfg, char *err, size_t errlen);
/* Checks cfg (a NIC workload) against the rules of the driver cfg->driver.name
 * names, before anything is simulated: 0, or -1 with *err at the origin of
 * the blamed key (nc_config_error). Other workloads probe no driver: 0. */
int nk_driver_check_config(const struct nicsim_config *cfg, struct nc_error *err);

#ifdef __cplusplus
}
#endif
#endif
