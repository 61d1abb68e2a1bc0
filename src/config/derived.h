/*
 * derived.h: the values the NIC models derive from keys whose 0 means "work it
 * out" (nic.tx_fifo_bytes, nic.pause_xoff_bytes, nic.pause_xon_bytes,
 * nic.desc_cache_entries), and the MAC's longest frame. The models build
 * from these and the config checker (check.c) tests these, so a value the
 * checker accepts is one the models can be built with.
 */
#ifndef NICSIM_CONFIG_DERIVED_H
#define NICSIM_CONFIG_DERIVED_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The IOMMU's mode: iommu.mode unless it is off, else iommu.enabled as its
 * shorthand (true: strict). nc_config_check rejects the contradictions. */
static inline enum nc_iommu_mode nc_iommu_mode(const struct nicsim_config *c) {
  if (c->iommu.mode != NC_IOMMU_OFF) return (enum nc_iommu_mode)c->iommu.mode;
  return c->iommu.enabled ? NC_IOMMU_STRICT : NC_IOMMU_OFF;
}

/* Longest frame the MAC carries, with FCS: traffic.frame_bytes, at least a
 * standard 1518-byte frame (IMIX's largest; TCP ACKs are 64 B). */
static inline int64_t nc_mac_max_frame(const struct nicsim_config *c) {
  return c->traffic.frame_bytes > 1518 ? c->traffic.frame_bytes : 1518;
}

/* MAC TX FIFO bytes: nic.tx_fifo_bytes, or two longest frames. */
static inline int64_t nc_tx_fifo_bytes(const struct nicsim_config *c) {
  return c->nic.tx_fifo_bytes > 0 ? c->nic.tx_fifo_bytes : 2 * nc_mac_max_frame(c);
}

/* RX FIFO fill that sends XOFF: nic.pause_xoff_bytes, or the RX FIFO less two
 * longest frames (half the FIFO if it holds no more than two). */
static inline int64_t nc_pause_xoff_bytes(const struct nicsim_config *c) {
  const int64_t fifo = c->nic.rx_fifo_bytes, two = 2 * nc_mac_max_frame(c);
  if (c->nic.pause_xoff_bytes > 0) return c->nic.pause_xoff_bytes;
  return fifo > two ? fifo - two : fifo / 2;
}

/* RX FIFO fill at or below which XON follows: nic.pause_xon_bytes, or half of XOFF. */
static inline int64_t nc_pause_xon_bytes(const struct nicsim_config *c) {
  return c->nic.pause_xon_bytes > 0 ? c->nic.pause_xon_bytes : nc_pause_xoff_bytes(c) / 2;
}

/* Descriptors each ring's cache holds: nic.desc_cache_entries, or two fetch batches. */
static inline int64_t nc_desc_cache_entries(const struct nicsim_config *c) {
  return c->nic.desc_cache_entries > 0 ? c->nic.desc_cache_entries : 2 * c->nic.desc_fetch_max;
}

/* Per-direction interrupt coalescing (nic.rx_/tx_irq_coal_*): true if any of
 * the four keys is set, and then each direction counts its own completions
 * against its own threshold and timer; otherwise RX and TX completions count
 * together against nic.irq_coal_frames / irq_coal_usecs. */
static inline bool nc_coal_split(const struct nicsim_config *c) {
  return c->nic.rx_irq_coal_frames >= 0 || c->nic.rx_irq_coal_usecs >= 0 || c->nic.tx_irq_coal_frames >= 0 ||
         c->nic.tx_irq_coal_usecs >= 0;
}
/* A direction's frame threshold (tx: TX, else RX); -1 falls back to the shared key. */
static inline int64_t nc_coal_frames(const struct nicsim_config *c, bool tx) {
  const int64_t v = tx ? c->nic.tx_irq_coal_frames : c->nic.rx_irq_coal_frames;
  return v >= 0 ? v : c->nic.irq_coal_frames;
}
/* A direction's timer, us (0: none); -1 falls back to the shared key. */
static inline double nc_coal_usecs(const struct nicsim_config *c, bool tx) {
  const double v = tx ? c->nic.tx_irq_coal_usecs : c->nic.rx_irq_coal_usecs;
  return v >= 0 ? v : c->nic.irq_coal_usecs;
}

#ifdef __cplusplus
}
#endif
#endif
