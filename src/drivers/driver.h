/*
 * driver.h: the table each C driver in src/drivers exports, and the lookup
 * by the name in cfg->driver.name. A driver reaches hardware only through
 * kernel.h.
 */
#ifndef NICSIM_DRIVERS_DRIVER_H
#define NICSIM_DRIVERS_DRIVER_H

#include <stddef.h>

#include "kernel/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

struct nk_driver {
  const char *name;
  /* Allocates rings and buffers, programs the device, requests its IRQ,
   * enables NAPI and interrupts. 0 or -errno (message in err). */
  int (*probe)(struct net_device *dev, char *err, size_t errlen);
  /* Stops the device and frees everything probe allocated. */
  void (*remove)(struct net_device *dev);
  netdev_tx_t (*ndo_start_xmit)(struct sk_buff *skb, struct net_device *dev);
  /* End-of-run invariants of the driver's own accounting (ring indices,
   * buffers in flight). 0 or -1 with err. */
  int (*check)(struct net_device *dev, char *err, size_t errlen);
};

extern const struct nk_driver nk_driver_generic; /* generic.c: nicsim's generic NIC */
extern const struct nk_driver nk_driver_mvneta;  /* mvneta.c: Marvell NETA (SoC, 1 GbE) */
extern const struct nk_driver nk_driver_lan743x; /* lan743x.c: Microchip LAN743x (PCIe) */
extern const struct nk_driver nk_driver_stmmac;  /* stmmac.c: Synopsys DWMAC 4.x */
extern const struct nk_driver nk_driver_i40e;    /* i40e.c: Intel 700 series */

/* The driver with this name, or NULL. */
const struct nk_driver *nk_driver_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
