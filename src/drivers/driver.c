/* driver.c: the table of nicsim's C drivers, the lookup by name, the
 * drivers' config checks as config errors, and nk_driver_probe (which picks
 * the driver named by the config). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
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

/* The driver cfg->driver.name names; NULL with err written if there is none (*rc: -errno). */
static const struct nk_driver *config_driver(const struct nicsim_config *cfg, char *err, size_t errlen, int *rc) {
  char name[64];
  if (!driver_choice(cfg->driver.name, name, sizeof name)) {
    snprintf(err, errlen, "driver.name: choice %d is not in the schema", cfg->driver.name);
    *rc = -EINVAL;
    return NULL;
  }
  const struct nk_driver *drv = nk_driver_find(name);
  if (!drv) {
    snprintf(err, errlen, "driver.name '%s': no C driver of that name in src/drivers", name);
    *rc = -ENODEV;
  }
  return drv;
}

/* Fills a driver's config error; see driver.h. */
int nk_config_fail(struct nk_config_error *e, const enum nc_key_id *ids, size_t n, const char *hint,
                   const char *fmt, ...) {
  memset(e, 0, sizeof *e);
  if (n > sizeof e->keys / sizeof e->keys[0]) n = sizeof e->keys / sizeof e->keys[0];
  memcpy(e->keys, ids, n * sizeof *ids);
  e->nkeys = n;
  snprintf(e->hint, sizeof e->hint, "%s", hint ? hint : "");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  va_end(ap);
  return -1;
}

/* The descriptor spacing rule of the generic NIC and mvneta; see driver.h. */
int nk_config_spacing8(const struct nicsim_config *cfg, unsigned min, const char *what, struct nk_config_error *e) {
  const int64_t sp = cfg->nic.desc_spacing;
  if (sp >= (int64_t)min && sp % 8 == 0) return 0;
  char hint[128];
  snprintf(hint, sizeof hint, "use a multiple of 8 of at least %u, e.g. %" PRId64, min,
           sp < (int64_t)min ? (int64_t)min : (sp + 7) / 8 * 8);
  return nk_config_fail(e, NK_KEYS(NC_KEY_nic_desc_spacing), hint,
                        "nic.desc_spacing = %" PRId64 ": %s needs a multiple of 8 (the 64-bit buffer address must "
                        "stay aligned) of at least %u",
                        sp, what, min);
}

/* The smallest rings a driver takes; see driver.h. */
int nk_config_ring_min(const struct nicsim_config *cfg, int64_t rx_min, int64_t tx_min, const char *drv,
                       struct nk_config_error *e) {
  for (int tx = 0; tx < 2; tx++) {
    const int64_t n = tx ? cfg->nic.tx_ring_size : cfg->nic.rx_ring_size, min = tx ? tx_min : rx_min;
    const enum nc_key_id id = tx ? NC_KEY_nic_tx_ring_size : NC_KEY_nic_rx_ring_size;
    if (n >= min) continue;
    char hint[64];
    snprintf(hint, sizeof hint, "use at least %" PRId64, min);
    return nk_config_fail(e, &id, 1, hint, "%s = %" PRId64 ": the %s driver's %s ring needs at least %" PRId64
                          " descriptors", tx ? "nic.tx_ring_size" : "nic.rx_ring_size", n, drv, tx ? "TX" : "RX", min);
  }
  return 0;
}

/* The powers of two nearest v within [lo, hi], for a hint: "64 or 128". */
static void nearest_pow2(int64_t v, int64_t lo, int64_t hi, char *buf, size_t n) {
  int64_t below = lo, above = hi;
  for (int64_t p = lo; p <= hi; p *= 2) {
    if (p <= v) below = p;
    if (p >= v) {
      above = p;
      break;
    }
  }
  if (below == above || v < lo)
    snprintf(buf, n, "%" PRId64, v < lo ? lo : below);
  else
    snprintf(buf, n, "%" PRId64 " or %" PRId64, below, above);
}

/* The rules every driver shares: a technique it lacks, and the driver.* and
 * ethtool-level keys every driver hands the kernel and the NIC the same way
 * (RSS's table and key through gn_rss or its family's code, BQL's limits to
 * the kernel's dql). 0, or -1 with *e. */
static int driver_common_rules(const struct nk_driver *drv, const struct nicsim_config *cfg,
                               struct nk_config_error *e) {
  char hint[160];
  if (cfg->driver.rx_coal_adaptive == NC_ADAPTIVE_DIM && !drv->has_dim)
    return nk_config_fail(e, NK_KEYS(NC_KEY_driver_rx_coal_adaptive),
                          "set driver.rx_coal_adaptive: none, or use driver.name: generic",
                          "driver.rx_coal_adaptive = dim: the %s driver has no net_dim (docs/drivers.md, "
                          "\"Techniques beyond the seeds\")",
                          drv->name);
  if (cfg->driver.rx_coal_adaptive == NC_ADAPTIVE_ITR && !drv->has_itr)
    return nk_config_fail(e, NK_KEYS(NC_KEY_driver_rx_coal_adaptive),
                          "set driver.rx_coal_adaptive: none, or use driver.name: i40e",
                          "driver.rx_coal_adaptive = itr: the %s driver has no adaptive ITR (docs/drivers.md, "
                          "\"Techniques beyond the seeds\")",
                          drv->name);
  if (cfg->driver.copybreak_bytes > 0 && !drv->has_copybreak)
    return nk_config_fail(e, NK_KEYS(NC_KEY_driver_copybreak_bytes),
                          "leave driver.copybreak_bytes at -1 (or 0), or use driver.name: mvneta",
                          "driver.copybreak_bytes = %" PRId64 ": the %s driver has no RX copybreak (docs/drivers.md, "
                          "\"Techniques beyond the seeds\", says why)",
                          cfg->driver.copybreak_bytes, drv->name);
  if (cfg->driver.rx_sync != NC_RX_SYNC_FULL && !drv->has_rx_sync)
    return nk_config_fail(e, NK_KEYS(NC_KEY_driver_rx_sync), "leave driver.rx_sync at full, or use driver.name: mvneta",
                          "driver.rx_sync = used: the %s driver's sync lengths are fixed by its code (docs/drivers.md, "
                          "\"Techniques beyond the seeds\", gives them)",
                          drv->name);
  if (cfg->driver.page_pool != NC_PAGE_POOL_AUTO && !drv->page_pool_choice &&
      nk_driver_page_pool(drv, cfg) != drv->page_pool_default)
    return nk_config_fail(e, NK_KEYS(NC_KEY_driver_page_pool), "set driver.page_pool: auto",
                          "driver.page_pool = %s: the %s driver %s (docs/drivers.md, \"Techniques beyond the seeds\")",
                          nk_driver_page_pool(drv, cfg) ? "true" : "false", drv->name,
                          drv->page_pool_default ? "always takes its RX buffers from a page_pool"
                                                 : "has no page_pool version modelled");
  if (cfg->driver.xdp != NC_XDP_OFF) {
    static const char *const verdict[] = {"off", "pass", "drop", "tx"};
    const char *v = verdict[cfg->driver.xdp & 3];
    if (!drv->has_xdp)
      return nk_config_fail(e, NK_KEYS(NC_KEY_driver_xdp), "set driver.xdp: off, or use driver.name: mvneta or i40e",
                            "driver.xdp = %s: the %s driver has no XDP path (docs/drivers.md, \"Techniques beyond "
                            "the seeds\")",
                            v, drv->name);
    if (cfg->traffic.protocol != NC_PROTO_UDP)
      return nk_config_fail(e, NK_KEYS(NC_KEY_driver_xdp, NC_KEY_traffic_protocol),
                            "set driver.xdp: off, or traffic.protocol: udp",
                            "driver.xdp = %s with traffic.protocol tcp: the built-in program treats every frame "
                            "alike, so the TCP sender's segments and ACKs would be dropped or reflected",
                            v);
    /* The reflected frames must be the port's only TX traffic: rx, or
     * forward (XDP_TX is then the forwarding, counted as forwarded). */
    if (cfg->driver.xdp == NC_XDP_TX && cfg->traffic.mode != NC_MODE_RX && cfg->traffic.mode != NC_MODE_FORWARD)
      return nk_config_fail(e, NK_KEYS(NC_KEY_driver_xdp, NC_KEY_traffic_mode),
                            "set traffic.mode: forward (XDP_TX as the forwarding path) or rx (the reflected frames "
                            "are the port's only TX traffic)",
                            "driver.xdp = tx sends every received frame back out of the port; with traffic.mode "
                            "%s the wire peer could not tell them from the host's own frames",
                            cfg->traffic.mode == NC_MODE_TX ? "tx" : "bidir");
  }
  /* ethtool -X: the indirection table is a power of two; the key 40 bytes. */
  const int64_t lut = cfg->nic.rss_table_size;
  if (lut <= 0 || (lut & (lut - 1)) != 0) {
    char a[48];
    nearest_pow2(lut, 1, 512, a, sizeof a);
    snprintf(hint, sizeof hint, "use a power of two up to 512, e.g. %s", a);
    return nk_config_fail(e, NK_KEYS(NC_KEY_nic_rss_table_size), hint,
                          "nic.rss_table_size = %" PRId64 " is not a power of two", lut);
  }
  if (cfg->nic.rss_key[0] != '\0') {
    size_t klen = strlen(cfg->nic.rss_key), bad = klen;
    for (size_t i = 0; i < klen && bad == klen; i++)
      if (!isxdigit((unsigned char)cfg->nic.rss_key[i])) bad = i;
    if (klen != 80 || bad != klen)
      return nk_config_fail(e, NK_KEYS(NC_KEY_nic_rss_key),
                            "give the 40-byte Toeplitz key as 80 hex digits, or leave it empty for the Microsoft key",
                            bad != klen ? "nic.rss_key has a non-hex character at position %zu" :
                                          "nic.rss_key has %zu hex digits, not 80",
                            bad != klen ? bad + 1 : klen);
  }
  if (cfg->driver.bql_limit_min > cfg->driver.bql_limit_max) {
    snprintf(hint, sizeof hint, "set driver.bql_limit_min to at most %" PRId64 ", or raise driver.bql_limit_max",
             cfg->driver.bql_limit_max);
    return nk_config_fail(e, NK_KEYS(NC_KEY_driver_bql_limit_min, NC_KEY_driver_bql_limit_max), hint,
                          "driver.bql_limit_min = %" PRId64 " exceeds driver.bql_limit_max = %" PRId64,
                          cfg->driver.bql_limit_min, cfg->driver.bql_limit_max);
  }
  return 0;
}

/* Runs drv's config check for its probe; see driver.h. */
int nk_driver_probe_check(const struct nk_driver *drv, const struct nicsim_config *cfg, char *err, size_t errlen) {
  struct nk_config_error e;
  memset(&e, 0, sizeof e);
  if (driver_common_rules(drv, cfg, &e) == 0 && (!drv->check_config || drv->check_config(cfg, &e) == 0)) return 0;
  if (e.hint[0])
    snprintf(err, errlen, "%s (%s)", e.msg, e.hint);
  else
    snprintf(err, errlen, "%s", e.msg);
  return -EINVAL;
}

/* Checks cfg against its driver's rules, as a config error; see driver.h. */
int nk_driver_check_config(const struct nicsim_config *cfg, struct nc_error *err) {
  if (cfg->workload.kind != NC_WORKLOAD_NIC) return 0;
  char msg[256];
  int rc = 0;
  const struct nk_driver *drv = config_driver(cfg, msg, sizeof msg, &rc);
  const enum nc_key_id name_key = NC_KEY_driver_name;
  if (!drv) return nc_config_error(cfg, &name_key, 1, "use a driver of src/drivers (docs/drivers.md)", msg, err);
  struct nk_config_error e;
  memset(&e, 0, sizeof e);
  if (driver_common_rules(drv, cfg, &e) == 0 && (!drv->check_config || drv->check_config(cfg, &e) == 0)) return 0;
  if (e.nkeys == 0) return nc_config_error(cfg, &name_key, 1, e.hint, e.msg, err);
  return nc_config_error(cfg, e.keys, e.nkeys, e.hint, e.msg, err);
}

/* The driver cfg names; see driver.h. */
const struct nk_driver *nk_driver_of(const struct nicsim_config *cfg) {
  char msg[160];
  int rc = 0;
  return config_driver(cfg, msg, sizeof msg, &rc);
}

/* Probes the driver cfg->driver.name names; see driver.h. */
int nk_driver_probe(struct nk_kernel *k, char *err, size_t errlen) {
  int rc = 0;
  const struct nk_driver *drv = config_driver(nk_kernel_netdev(k)->cfg, err, errlen, &rc);
  return drv ? nk_kernel_probe_driver(k, drv, err, errlen) : rc;
}
