/* check.c: the rules across layers of a resolved configuration; each
 * layer's own rules are its model's (Params::validate), its driver's
 * (check_config) or src/sim's. Each error names the origin of the offending
 * value and says what would be valid. */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "config/config_internal.h"
#include "config/derived.h"

#define MIB (1024.0 * 1024.0)

/* The key the rule blames; see config.h. */
enum nc_key_id nc_config_blame(const struct nicsim_config *c, const enum nc_key_id *ids, size_t n) {
  enum nc_key_id best = ids[0];
  for (size_t i = 1; i < n; i++)
    if (c->origin[ids[i]].layer > c->origin[best].layer) best = ids[i];
  return best;
}

/* Fills err at the blamed key's origin; see config.h. */
int nc_config_error(const struct nicsim_config *c, const enum nc_key_id *ids, size_t n, const char *hint,
                    const char *msg, struct nc_error *err) {
  const struct nc_origin *o = &c->origin[nc_config_blame(c, ids, n)];
  nc__error_set(err, o->file, o->line, o->col, hint, "%s", msg);
  return -1;
}

/* Fills err at key id's origin; returns -1. */
static int fail(const struct nicsim_config *c, enum nc_key_id id, struct nc_error *err,
                const char *hint, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int fail(const struct nicsim_config *c, enum nc_key_id id, struct nc_error *err,
                const char *hint, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  int r = vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (r < 0) msg[0] = 0;
  return nc_config_error(c, &id, 1, hint, msg, err);
}

/* A rule is broken (err filled): without a list, stop at it; with one, add
 * it (unless it blames a refused value) and go on to the next rule. */
#define RULE(call)                                                                                   \
  do {                                                                                               \
    (void)(call);                                                                                    \
    if (!all) return -1;                                                                             \
    nc_errors_add_blamed(all, c, err);                                                               \
    bad = -1;                                                                                        \
  } while (0)

/* The MAC's FIFO and pause rules on the values derived from the traffic's
 * longest frame (config/derived.h; the MAC is built from them); part of
 * nc_config_check. */
static int check_mac_rules(const struct nicsim_config *c, struct nc_error *err, struct nc_errors *all) {
  char hint[512], a[48];
  int bad = 0;
  const bool nic = c->workload.kind == NC_WORKLOAD_NIC;

  if (!nic) return 0;

  /* Mac: the TX FIFO holds a whole frame (without FCS) of the longest the
   * MAC carries, whatever traffic.mode (the FIFO is built for every run). */
  const int64_t longest = nc_mac_max_frame(c) - 4;
  if (nc_tx_fifo_bytes(c) < longest) {
    const enum nc_key_id ids[] = {NC_KEY_nic_tx_fifo_bytes, NC_KEY_traffic_frame_bytes};
    nc__fmt(hint, sizeof hint, "set nic.tx_fifo_bytes to at least %" PRId64 " (or 0: two longest frames)",
            longest);
    RULE(fail(c, nc_config_blame(c, ids, 2), err, hint,
                "nic.tx_fifo_bytes = %" PRId64 " cannot hold the longest frame: %" PRId64
                " B without its FCS (the larger of 1518 and traffic.frame_bytes = %" PRId64 ")",
                c->nic.tx_fifo_bytes, longest, c->traffic.frame_bytes));
  }

  /* Mac: flow control resumes (XON) below the level that paused it (XOFF). */
  const int64_t xoff = nc_pause_xoff_bytes(c), xon = nc_pause_xon_bytes(c);
  if (c->nic.pause_enable && xon >= xoff) {
    /* XON is the culprit unless XOFF (or, deriving it, the RX FIFO) was set later. */
    const enum nc_key_id ids[] = {NC_KEY_nic_pause_xon_bytes, NC_KEY_nic_pause_xoff_bytes, NC_KEY_nic_rx_fifo_bytes};
    nc__fmt(a, sizeof a, "%" PRId64 " B%s", xoff,
            c->nic.pause_xoff_bytes > 0 ? "" : ", from nic.rx_fifo_bytes");
    nc__fmt(hint, sizeof hint,
            "set nic.pause_xon_bytes below %" PRId64 " (or 0: half of XOFF), or nic.pause_xoff_bytes above %" PRId64,
            xoff, xon);
    RULE(fail(c, nc_config_blame(c, ids, c->nic.pause_xoff_bytes > 0 ? 2 : 3), err, hint,
                "nic.pause_xon_bytes = %" PRId64 " B is not below the XOFF level (%s): the MAC would send XON "
                "while still above XOFF",
                xon, a));
  }

  return bad;
}

/* The drain against the timers that hold a burst's last frames (the NIC's
 * coalescing and ITR timers, stmmac's TX coalescing timer): a cross-layer
 * rule (run, nic, driver); part of nc_config_check. */
static int check_drain_rules(const struct nicsim_config *c, struct nc_error *err, struct nc_errors *all) {
  char hint[512], a[48], b[48];
  int bad = 0;

  /* The drain: past run.drain_us the run goes on while frames are in flight,
   * up to NC_DRAIN_EXTENSION (docs/config.md). A timer that holds the last
   * frames longer than the drain and its extension together would make the
   * run fail after simulating it all: refuse it now, saying what it needs. */
  if (c->workload.kind == NC_WORKLOAD_NIC) {
    struct {
      enum nc_key_id id;
      double us;
    } timers[5];
    size_t nt = 0;
    if (c->nic.family != NC_NIC_STMMAC && c->nic.irq_coal_frames > 1)
      timers[nt].id = NC_KEY_nic_irq_coal_usecs, timers[nt++].us = c->nic.irq_coal_usecs;
    if (c->nic.family != NC_NIC_STMMAC && nc_coal_split(c)) {
      if (nc_coal_frames(c, false) > 1 && c->nic.rx_irq_coal_usecs >= 0)
        timers[nt].id = NC_KEY_nic_rx_irq_coal_usecs, timers[nt++].us = c->nic.rx_irq_coal_usecs;
      if (nc_coal_frames(c, true) > 1 && c->nic.tx_irq_coal_usecs >= 0)
        timers[nt].id = NC_KEY_nic_tx_irq_coal_usecs, timers[nt++].us = c->nic.tx_irq_coal_usecs;
    }
    timers[nt].id = NC_KEY_nic_irq_itr_usecs, timers[nt++].us = c->nic.irq_itr_usecs;
    if (c->driver.name == NC_DRIVER_STMMAC)
      timers[nt].id = NC_KEY_driver_tx_coal_timer_us, timers[nt++].us = c->driver.tx_coal_timer_us;
    const double limit = nc_drain_limit_us(c->run.drain_us);
    for (size_t i = 0; i < nt; i++) {
      if (timers[i].us <= limit) continue;
      const enum nc_key_id ids[] = {NC_KEY_run_drain_us, timers[i].id};
      nc__real_format(c->run.drain_us, a, sizeof a);
      nc__real_format(timers[i].us, b, sizeof b);
      nc__fmt(hint, sizeof hint, "set run.drain_us to at least %.0f, or a shorter %s",
              ceil(timers[i].us), nc_keys()[timers[i].id].path);
      RULE(fail(c, nc_config_blame(c, ids, 2), err, hint,
                  "run.drain_us = %s is too short: %s = %s us can hold the last frames that long "
                  "after the traffic stops, beyond the drain's automatic extension (to %.0f us: "
                  "10 x run.drain_us, at least 10 ms more)",
                  a, nc_keys()[timers[i].id].path, b, limit));
      break; /* one timer too long is enough to say */
    }
  }
  return bad;
}

/* The longest drain a run may take; see config.h. */
double nc_drain_limit_us(double drain_us) {
  const double extra = 10 * drain_us > NC_DRAIN_EXTENSION_MIN_US ? 10 * drain_us : NC_DRAIN_EXTENSION_MIN_US;
  return drain_us + extra;
}

/* Checks the cross-key rules: all NULL stops at the first broken one (in
 * *err), else every broken one is added to *all. */
static int check_rules(const struct nicsim_config *c, struct nc_error *err, struct nc_errors *all) {
  char hint[512], a[48], b[48];
  int bad = 0;

  /* The NIC family and its driver: each C driver speaks one descriptor format. */
  static const char *const fam_names[] = {"generic", "lan743x", "stmmac", "i40e", "mvneta"};
  static const int fam_driver[] = {NC_DRIVER_GENERIC, NC_DRIVER_LAN743X, NC_DRIVER_STMMAC,
                                   NC_DRIVER_I40E, NC_DRIVER_MVNETA};
  static const char *const drv_names[] = {"generic", "mvneta", "lan743x", "stmmac", "i40e"};
  if (c->workload.kind == NC_WORKLOAD_NIC && fam_driver[c->nic.family] != (int)c->driver.name) {
    const enum nc_key_id ids[] = {NC_KEY_driver_name, NC_KEY_nic_family};
    nc__fmt(hint, sizeof hint, "set driver.name: %s, or nic.family: %s",
            fam_names[c->nic.family], drv_names[c->driver.name]);
    RULE(fail(c, nc_config_blame(c, ids, 2), err, hint,
                "driver.name = %s cannot drive nic.family = %s: each driver speaks only its "
                "family's descriptors and registers",
                drv_names[c->driver.name], fam_names[c->nic.family]));
  }
  /* nic.desc_spacing's rules are the drivers' (check_config: each family's
   * stride) and the NIC's (NicDevice::Params::validate: at least the
   * family's descriptor). RSS's table and key and BQL's limits are every
   * driver's (src/drivers/driver.c); the host's cores, cache geometry and
   * send buffer are CpuCore::Params::validate's; the run's window is
   * src/sim's (check_model_params). */
  /* Ring sizes are each driver's rules (check_config: its ethtool
   * set_ringparam limits), in src/drivers. */

  /* iommu.enabled is a shorthand for iommu.mode: both set, they must agree. */
  if (c->origin[NC_KEY_iommu_enabled].layer > NC_LAYER_DEFAULT && c->origin[NC_KEY_iommu_mode].layer > NC_LAYER_DEFAULT &&
      c->iommu.enabled != (c->iommu.mode != NC_IOMMU_OFF)) {
    static const char *const modes[] = {"off", "strict", "lazy"};
    const enum nc_key_id ids[] = {NC_KEY_iommu_mode, NC_KEY_iommu_enabled};
    nc__fmt(hint, sizeof hint, "remove iommu.enabled (iommu.mode says it all), or set iommu.mode: %s",
            c->iommu.enabled ? "strict or lazy" : "off");
    return fail(c, nc_config_blame(c, ids, 2), err, hint,
                "iommu.enabled = %s contradicts iommu.mode = %s (iommu.enabled is the shorthand: true for strict or "
                "lazy, false for off)",
                c->iommu.enabled ? "true" : "false", modes[c->iommu.mode]);
  }

  /* The MAC's rules on what it derives from the traffic. */
  if (check_mac_rules(c, err, all) != 0) {
    if (!all) return -1;
    bad = -1;
  }
  if (check_drain_rules(c, err, all) != 0) {
    if (!all) return -1;
    bad = -1;
  }

  int64_t need_buf = c->traffic.frame_bytes - 4;
  if (need_buf > c->driver.rx_buf_bytes) {
    const enum nc_key_id ids[] = {NC_KEY_traffic_frame_bytes, NC_KEY_driver_rx_buf_bytes};
    nc__fmt(hint, sizeof hint,
            "the driver puts each frame (without its 4-byte FCS) in one buffer: set "
            "driver.rx_buf_bytes to at least %" PRId64 ", or traffic.frame_bytes to at most "
            "%" PRId64,
            need_buf, c->driver.rx_buf_bytes + 4);
    RULE(fail(c, nc_config_blame(c, ids, 2), err, hint,
                "traffic.frame_bytes = %" PRId64 " does not fit in driver.rx_buf_bytes = %" PRId64,
                c->traffic.frame_bytes, c->driver.rx_buf_bytes));
  }

  if (c->traffic.rate_gbps > c->nic.line_rate_gbps) {
    const enum nc_key_id ids[] = {NC_KEY_traffic_rate_gbps, NC_KEY_nic_line_rate_gbps};
    nc__real_format(c->traffic.rate_gbps, a, sizeof a);
    nc__real_format(c->nic.line_rate_gbps, b, sizeof b);
    nc__fmt(hint, sizeof hint, "set traffic.rate_gbps to at most %s, or 0 for line rate", b);
    RULE(fail(c, nc_config_blame(c, ids, 2), err, hint,
                "traffic.rate_gbps = %s exceeds nic.line_rate_gbps = %s", a, b));
  }

  /* The bench's window lies in host memory. */
  if (c->workload.kind == NC_WORKLOAD_DMA_BENCH) {
    if ((double)c->workload.window_bytes > (double)c->memory.size_mb * MIB) {
      const enum nc_key_id ids[] = {NC_KEY_workload_window_bytes, NC_KEY_memory_size_mb};
      nc__fmt(hint, sizeof hint, "set workload.window_bytes to at most %" PRId64 ", or raise memory.size_mb",
              c->memory.size_mb * (int64_t)MIB);
      RULE(fail(c, nc_config_blame(c, ids, 2), err, hint,
                  "workload.window_bytes = %" PRId64 " B does not fit in host memory "
                  "(memory.size_mb = %" PRId64 " MiB)",
                  c->workload.window_bytes, c->memory.size_mb));
    }
  }

  const double rxq = (double)c->nic.rx_queues, txq = (double)c->nic.tx_queues;
  double need = rxq * (double)c->nic.rx_ring_size * (double)c->driver.rx_buf_bytes +
                txq * (double)c->nic.tx_ring_size * (double)c->traffic.frame_bytes +
                (rxq * (double)c->nic.rx_ring_size + txq * (double)c->nic.tx_ring_size) * (double)c->nic.desc_spacing + MIB;
  if (need > (double)c->memory.size_mb * MIB) {
    const enum nc_key_id ids[] = {NC_KEY_memory_size_mb,      NC_KEY_nic_rx_ring_size,
                                  NC_KEY_driver_rx_buf_bytes, NC_KEY_nic_tx_ring_size,
                                  NC_KEY_traffic_frame_bytes, NC_KEY_nic_desc_spacing};
    int64_t need_mb = (int64_t)ceil(need / MIB);
    nc__fmt(hint, sizeof hint,
            "set memory.size_mb to at least %" PRId64 ", or use smaller rings or buffers", need_mb);
    RULE(fail(c, nc_config_blame(c, ids, 6), err, hint,
                "host memory (memory.size_mb = %" PRId64 " MiB) is too small for the rings and "
                "buffers, which need %" PRId64 " MiB (with 1 MiB slack)",
                c->memory.size_mb, need_mb));
  }
  return bad;
}

/* Checks cross-key rules; see config.h. */
int nc_config_check(const struct nicsim_config *c, struct nc_error *err) {
  struct nc_error dummy;
  if (!err) err = &dummy;
  return check_rules(c, err, NULL);
}

/* Checks every cross-key rule, adding each broken one; see config.h. */
int nc_config_check_all(const struct nicsim_config *c, struct nc_errors *all) {
  struct nc_error err;
  memset(&err, 0, sizeof err);
  return check_rules(c, &err, all);
}
