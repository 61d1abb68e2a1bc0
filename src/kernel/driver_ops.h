/*
 * driver_ops.h: what the kernel layer asks of a driver, as Linux's core
 * defines struct pci_driver and a driver fills one in: its entry points
 * (probe, remove, transmit, end-of-run check), its config rules, and the
 * properties the kernel sizes itself by. The drivers of src/drivers each
 * export one (drivers/driver.h); the kernel never names a driver.
 */
#ifndef NICSIM_KERNEL_DRIVER_OPS_H
#define NICSIM_KERNEL_DRIVER_OPS_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"
#include "kernel/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Why a driver cannot run a config: the keys its rule involves (the one set
 * latest is blamed), what is wrong, and the fix. */
struct nk_config_error {
  enum nc_key_id keys[4];
  size_t nkeys;
  char msg[512];
  char hint[512];
};

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
  /* The rules this driver and its device put on the config beyond
   * src/config/check.c's: 0, or -1 with *e filled. Reads only cfg. NULL:
   * none. nk_driver_check_config runs it before a simulation (nicsim
   * validate, run, sweep); probe runs it again. */
  int (*check_config)(const struct nicsim_config *cfg, struct nk_config_error *e);
  /* Properties the kernel layer sizes itself by (nk_kernel_create). */
  /* Without a page_pool (nk_driver_page_pool), the driver keeps an skb (and
   * its DMA mapping) in every RX slot, as lan743x does (Linux's
   * lan743x_rx_init_ring_element) and stmmac did before v5.4; the others
   * refill from page pools or copy. */
  bool rx_slot_skbs;
  /* driver.page_pool: what auto means (the modelled version's own scheme),
   * and whether the other value is modelled too. */
  bool page_pool_default;
  bool page_pool_choice;
  /* The techniques it has beyond its seed (docs/drivers.md): a config
   * asking a driver for one it lacks is refused by nk_driver_check_config. */
  bool has_dim; /* driver.rx_coal_adaptive dim: net_dim from its NAPI poll */
  bool has_itr; /* driver.rx_coal_adaptive itr: Intel's adaptive ITR from its NAPI poll */
  bool has_xdp; /* driver.xdp: runs an XDP program on the raw RX buffer (pass, drop, tx) */
  bool has_copybreak; /* driver.copybreak_bytes > 0: copies small frames and keeps the buffer */
  bool has_rx_sync;   /* driver.rx_sync: both sync lengths modelled (else its code's own, docs/drivers.md) */
  /* With driver.xdp, XDP_TX goes out on dedicated XDP rings, one per RX
   * queue, device TX queues after the stack's nic.tx_queues (i40e's
   * vsi->xdp_rings); false: on the stack's TX queue (mvneta). The device
   * then has nic.tx_queues + nic.rx_queues TX queues (nk_driver_device_tx_queues). */
  bool xdp_tx_rings;
};

/* Whether drv takes its RX buffers from a page_pool under cfg
 * (driver.page_pool, auto resolved to the driver's own). */
static inline bool nk_driver_page_pool(const struct nk_driver *drv, const struct nicsim_config *cfg) {
  if (cfg->driver.page_pool == NC_PAGE_POOL_AUTO) return drv->page_pool_default;
  return cfg->driver.page_pool == NC_PAGE_POOL_TRUE;
}

/* Whether drv arms every RX slot with an skb under cfg. */
static inline bool nk_driver_rx_slot_skbs(const struct nk_driver *drv, const struct nicsim_config *cfg) {
  return drv->rx_slot_skbs && !nk_driver_page_pool(drv, cfg);
}

/* TX queues the device needs for cfg: nic.tx_queues, plus one XDP ring per
 * RX queue when drv has xdp_tx_rings and driver.xdp is on. */
static inline uint32_t nk_driver_device_tx_queues(const struct nk_driver *drv, const struct nicsim_config *cfg) {
  const uint32_t n = (uint32_t)cfg->nic.tx_queues;
  return drv && drv->xdp_tx_rings && cfg->driver.xdp != NC_XDP_OFF ? n + (uint32_t)cfg->nic.rx_queues : n;
}

#ifdef __cplusplus
}
#endif
#endif
