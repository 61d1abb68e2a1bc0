/* analysis.c: the bottleneck analysis of one point (analysis.h,
 * docs/analysis.md). Every figure is a function of the point's config and
 * metrics, so it is bit-identical wherever the point is read. */
#include "results/analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The order resources are listed in, and the order that breaks a tie
 * between two saturated ones: a cause before its symptoms (a saturated core
 * also leaves its RX ring empty and the wire's frames dropped). */
static const char *const nicsim__names[] = {
    "cpu.lock", "cpu.core<N>", "dram",   "pcie.rc",  "pcie.credits", "pcie.tags", "pcie.up",
    "pcie.down", "bus",        "dma.engine", "ring.tx", "ring.rx", "wire.rx", "wire.tx", NULL};

const char *const *nicsim_resource_names(void) { return nicsim__names; }

/* Two utilisations this close are a tie, broken by the order above. */
#define NICSIM__TIE 0.01
/* A core is called lock-bound when this share of its time waits for a lock. */
#define NICSIM__LOCK_SHARE 0.25
/* RX drops the verdict line mentions when nothing is saturated. */
#define NICSIM__DROP_NOTE 0.005
/* RX drops below this share of the frames offered count as none. */
#define NICSIM__NO_LOSS 0.001
/* A host that takes less than this share of what the wire brought in the
 * window falls behind: the frames wait in the ring and are delivered in the
 * drain, so none is dropped in a short run, but the wire is not the limit. */
#define NICSIM__BACKLOG 0.02

static double nicsim__get(const struct nicsim_results *r, const char *name, bool *ok) {
  double v = 0;
  bool have = nicsim_results_get(r, name, &v) && isfinite(v);
  if (ok) *ok = have;
  return have ? v : 0;
}

static double nicsim__clamp(double u) { return u < 0 ? 0 : u > 1 ? 1 : u; }

static struct nicsim_resource *nicsim__add(struct nicsim_analysis *a, const char *name, double u) {
  if (a->n == NICSIM_ANALYSIS_MAX) return NULL;
  struct nicsim_resource *r = &a->res[a->n++];
  snprintf(r->name, sizeof r->name, "%s", name);
  r->util = nicsim__clamp(u);
  r->detail[0] = '\0';
  return r;
}

/* What kind of work a profiled function is, by the kernel's and the
 * drivers' naming (docs/analysis.md, "Cores"): hard IRQ, softirq (NAPI and
 * the receive stack), the application (system calls, copies to and from
 * user space) or waiting for a lock. */
enum nicsim__work { W_IRQ, W_SOFTIRQ, W_APP, W_LOCK, W__N };
static const char *const nicsim__work_name[W__N] = {"IRQ", "softirq", "app", "lock wait"};

static enum nicsim__work nicsim__work_of(const char *fn) {
  static const char *const lock[] = {"lock_wait", NULL};
  static const char *const app[] = {"copy_to_user", "copy_from_user", "recvmsg", "sendmsg",
                                    "stack_tx",     "schedule",       "app",     NULL};
  static const char *const irq[] = {"irq", "intr", "_isr", "interrupt", "msix", NULL};
  for (const char *const *p = lock; *p; p++)
    if (strstr(fn, *p)) return W_LOCK;
  for (const char *const *p = app; *p; p++)
    if (strstr(fn, *p)) return W_APP;
  for (const char *const *p = irq; *p; p++)
    if (strstr(fn, *p)) return W_IRQ;
  return W_SOFTIRQ;
}

/* A core's busy time split by work, as shares of the window: its profile
 * (metrics prefix.profile.<fn>, fractions of its busy time) times util. */
static void nicsim__core_split(const struct nicsim_results *r, const char *prefix, double util,
                               double share[W__N]) {
  struct nicsim_metric_view m;
  char want[64];
  int pl = snprintf(want, sizeof want, "%s.profile.", prefix);
  for (int w = 0; w < W__N; w++) share[w] = 0;
  for (size_t i = 0; nicsim_results_at(r, i, &m); i++)
    if (pl > 0 && strncmp(m.name, want, (size_t)pl) == 0 && isfinite(m.value))
      share[nicsim__work_of(m.name + pl)] += m.value * util;
}

static void nicsim__core_detail(struct nicsim_resource *res, const double share[W__N]) {
  size_t len = 0;
  /* Largest first; shares under 1 % left out. */
  bool used[W__N] = {false};
  for (int k = 0; k < W__N; k++) {
    int best = -1;
    for (int w = 0; w < W__N; w++)
      if (!used[w] && share[w] >= 0.01 && (best < 0 || share[w] > share[best])) best = w;
    if (best < 0) break;
    used[best] = true;
    int c = snprintf(res->detail + len, sizeof res->detail - len, "%s%s %.0f %%", len ? ", " : "",
                     nicsim__work_name[best], 100 * share[best]);
    if (c < 0 || (size_t)c >= sizeof res->detail - len) break;
    len += (size_t)c;
  }
}

void nicsim_analyse(const struct nicsim_config *cfg, const struct nicsim_results *r,
                    struct nicsim_analysis *a) {
  memset(a, 0, sizeof *a);
  a->bottleneck = a->next = -1;
  double window_s = (cfg->run.duration_us - cfg->run.warmup_us) * 1e-6;
  double line_bps = cfg->nic.line_rate_gbps * 1e9;
  bool ok, ok2;
  struct nicsim_resource *x;

  /* Cores, and the lock they share. */
  int cores = cfg->cpu.cores > 0 ? (int)cfg->cpu.cores : 1;
  double lock_share_max = 0;
  int lock_core = -1;
  size_t first_core = a->n + 1; /* cpu.lock goes first, filled after */
  nicsim__add(a, "cpu.lock", 0);
  for (int c = 0; c < cores; c++) {
    char prefix[32], metric[48], name[32];
    snprintf(prefix, sizeof prefix, cores == 1 ? "cpu" : "cpu.core%d", c);
    snprintf(metric, sizeof metric, "%s.util", prefix);
    double u = nicsim__get(r, metric, &ok);
    if (!ok) continue;
    snprintf(name, sizeof name, "cpu.core%d", c);
    double share[W__N];
    nicsim__core_split(r, prefix, nicsim__clamp(u), share);
    if ((x = nicsim__add(a, name, u))) nicsim__core_detail(x, share);
    if (share[W_LOCK] > lock_share_max) lock_share_max = share[W_LOCK], lock_core = c;
  }
  if (cores >= 2 && lock_core >= 0) {
    /* The lock limits when a saturated core spends a good share waiting for it:
     * its utilisation is that core's, else the largest wait share. */
    double core_u = 0;
    for (size_t i = first_core; i < a->n; i++) {
      int c = -1;
      sscanf(a->res[i].name, "cpu.core%d", &c);
      if (c == lock_core) core_u = a->res[i].util;
    }
    double u = (lock_share_max >= NICSIM__LOCK_SHARE) ? core_u : lock_share_max;
    a->res[0].util = nicsim__clamp(u);
    snprintf(a->res[0].detail, sizeof a->res[0].detail, "core %d waits %.0f %% of the window",
             lock_core, 100 * lock_share_max);
  } else {
    /* One core has no lock to wait for: drop the placeholder. */
    memmove(&a->res[0], &a->res[1], (a->n - 1) * sizeof a->res[0]);
    a->n--;
  }

  double dram = nicsim__get(r, "mem.dram_busy_frac", &ok);
  if (ok && cfg->memory.dram_bw_gbps > 0) nicsim__add(a, "dram", dram);

  /* PCIe: present only on a PCIe platform. */
  double rc = nicsim__get(r, "pcie.rc_util", &ok);
  if (ok && (x = nicsim__add(a, "pcie.rc", rc)))
    snprintf(x->detail, sizeof x->detail, "strongly ordered writes committed line by line");
  double up = nicsim__get(r, "pcie.up.util", &ok);
  double down = nicsim__get(r, "pcie.down.util", &ok2);
  if (ok && ok2) {
    double stall_ns = nicsim__get(r, "pcie.up.credit_stall_ns", &ok);
    if (ok && window_s > 0 && (x = nicsim__add(a, "pcie.credits", stall_ns * 1e-9 / window_s)))
      snprintf(x->detail, sizeof x->detail, "%.0f TLPs waited for credits",
               nicsim__get(r, "pcie.up.credit_stalls", NULL));
    double outst = nicsim__get(r, "pcie.rd_outstanding_mean", &ok);
    if (ok && cfg->pcie.tags > 0 && (x = nicsim__add(a, "pcie.tags", outst / cfg->pcie.tags)))
      snprintf(x->detail, sizeof x->detail, "%.1f of %ld tags in use on average", outst,
               (long)cfg->pcie.tags);
    nicsim__add(a, "pcie.up", up);
    nicsim__add(a, "pcie.down", down);
  }
  double brd = nicsim__get(r, "bus.rd_util", &ok), bwr = nicsim__get(r, "bus.wr_util", &ok2);
  if (ok && ok2 && (x = nicsim__add(a, "bus", brd > bwr ? brd : bwr)))
    snprintf(x->detail, sizeof x->detail, "reads %.0f %%, writes %.0f %%", 100 * brd, 100 * bwr);

  /* Rings (queue 0): an RX ring the device finds empty, a TX ring the host finds full. */
  double rocc = nicsim__get(r, "nic.rx_ring_occupancy", &ok);
  double rx_pkts = nicsim__get(r, "rx.pkts", NULL), rx_drops = nicsim__get(r, "rx.drops", NULL);
  /* Frames an XDP program took (dropped or sent back) were served by the host too. */
  const double xdp_taken =
      nicsim__get(r, "xdp.drop", NULL) + nicsim__get(r, "xdp.tx", NULL) + nicsim__get(r, "xdp.tx_errors", NULL);
  if (rx_pkts + xdp_taken + rx_drops > 0) a->rx_drop_frac = rx_drops / (rx_pkts + xdp_taken + rx_drops);
  a->rx_drops_fifo = nicsim__get(r, "rx.drops_fifo", NULL);
  double rx_gbps = nicsim__get(r, "rx.gbps", &ok2), delivered = nicsim__get(r, "rx.delivered_gbps", &ok);
  if (ok && ok2 && rx_gbps > 0) a->rx_backlog_frac = nicsim__clamp(1.0 - delivered / rx_gbps);
  a->rx_drops_nodesc = nicsim__get(r, "rx.drops_nodesc", NULL);
  if (ok && cfg->nic.rx_ring_size > 0 && rx_pkts + rx_drops > 0 &&
      (x = nicsim__add(a, "ring.rx", 1.0 - rocc / cfg->nic.rx_ring_size)))
    snprintf(x->detail, sizeof x->detail, "the device owns %.0f of %ld descriptors on average",
             rocc, (long)cfg->nic.rx_ring_size);
  double tocc = nicsim__get(r, "nic.tx_ring_occupancy", &ok);
  double tx_pkts = nicsim__get(r, "tx.pkts", NULL);
  if (ok && cfg->nic.tx_ring_size > 0 && tx_pkts > 0 &&
      (x = nicsim__add(a, "ring.tx", tocc / cfg->nic.tx_ring_size)))
    snprintf(x->detail, sizeof x->detail, "the device owns %.0f of %ld descriptors on average",
             tocc, (long)cfg->nic.tx_ring_size);

  /* The wire: frames delivered, with their preamble and gap (20 B), against the line rate. */
  if (line_bps > 0) {
    double rx = nicsim__get(r, "rx.gbps", &ok) * 1e9 + nicsim__get(r, "rx.mpps", NULL) * 1e6 * 160;
    if (ok && rx_pkts + rx_drops > 0 && (x = nicsim__add(a, "wire.rx", rx / line_bps)) && rx_drops > 0)
      snprintf(x->detail, sizeof x->detail, "%.1f %% of the frames offered were dropped",
               100 * rx_drops / (rx_pkts + rx_drops));
    double tx = nicsim__get(r, "tx.gbps", &ok) * 1e9 + nicsim__get(r, "tx.mpps", NULL) * 1e6 * 160;
    if (ok && tx_pkts > 0) nicsim__add(a, "wire.tx", tx / line_bps);
  }

  /* The verdict: the highest utilisation, a tie going to the earlier
   * resource (a cause before its symptoms); nothing saturated is "none". */
  int best = -1;
  for (size_t i = 0; i < a->n; i++)
    if (best < 0 || a->res[i].util > a->res[best].util + NICSIM__TIE) best = (int)i;
  /* A wire that delivers every frame offered at line rate is the limit,
   * whatever else runs close behind: nothing downstream lost a frame. */
  for (size_t i = 0; i < a->n; i++)
    if (strcmp(a->res[i].name, "wire.rx") == 0 && a->res[i].util >= NICSIM_SATURATED &&
        a->rx_drop_frac < NICSIM__NO_LOSS && a->rx_backlog_frac < NICSIM__BACKLOG && best >= 0 &&
        a->res[i].util + NICSIM__TIE >= a->res[best].util)
      best = (int)i;
  if (best >= 0 && a->res[best].util >= NICSIM_SATURATED) a->bottleneck = best;
  int next = -1;
  for (size_t i = 0; i < a->n; i++) {
    if ((int)i == best) continue;
    /* A core whose time is mostly lock wait trails as the lock, not again itself. */
    if (best >= 0 && strcmp(a->res[best].name, "cpu.lock") == 0 &&
        strncmp(a->res[i].name, "cpu.core", 8) == 0 && a->res[i].util == a->res[best].util)
      continue;
    if (next < 0 || a->res[i].util > a->res[next].util) next = (int)i;
  }
  a->next = a->bottleneck >= 0 ? next : best;
}

const char *nicsim_analysis_bottleneck(const struct nicsim_analysis *a) {
  return a->bottleneck >= 0 ? a->res[a->bottleneck].name : "none";
}

void nicsim_resource_title(const char *name, char *buf, size_t n) {
  static const struct {
    const char *name, *title;
  } t[] = {{"cpu.lock", "the kernel lock"}, {"dram", "DRAM"},
           {"pcie.rc", "the root complex"}, {"pcie.credits", "PCIe credits (up)"},
           {"pcie.tags", "PCIe tags"},      {"pcie.up", "PCIe up"},
           {"pcie.down", "PCIe down"},      {"bus", "the bus"},
           {"dma.engine", "the DMA engine"}, {"ring.tx", "TX ring (full)"},
           {"ring.rx", "RX ring (empty)"},  {"wire.rx", "wire RX"},
           {"wire.tx", "wire TX"}};
  int c;
  if (sscanf(name, "cpu.core%d", &c) == 1) {
    snprintf(buf, n, "core %d", c);
    return;
  }
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (strcmp(name, t[i].name) == 0) {
      snprintf(buf, n, "%s", t[i].title);
      return;
    }
  snprintf(buf, n, "%s", name);
}

static size_t nicsim__describe(const struct nicsim_resource *r, char *buf, size_t n) {
  char title[48];
  nicsim_resource_title(r->name, title, sizeof title);
  int c = r->detail[0] ? snprintf(buf, n, "%s %.0f %% (%s)", title, 100 * r->util, r->detail)
                       : snprintf(buf, n, "%s %.0f %%", title, 100 * r->util);
  return c < 0 ? 0 : (size_t)c >= n ? n - 1 : (size_t)c;
}

void nicsim_analysis_line(const struct nicsim_analysis *a, char *buf, size_t n) {
  if (n == 0) return;
  buf[0] = '\0';
  size_t len = 0;
  if (a->bottleneck >= 0) {
    len = nicsim__describe(&a->res[a->bottleneck], buf, n);
    if (a->next >= 0 && len + 8 < n) {
      len += (size_t)snprintf(buf + len, n - len, "; next: ");
      if (len < n) len += nicsim__describe(&a->res[a->next], buf + len, n - len);
    }
  } else if (a->next >= 0) {
    len = (size_t)snprintf(buf, n, "none saturated; highest: ");
    if (len < n) len += nicsim__describe(&a->res[a->next], buf + len, n - len);
  } else {
    len = (size_t)snprintf(buf, n, "none (nothing measured)");
  }
  /* The host fell behind the wire: what it took, against what came in. */
  if (a->rx_backlog_frac >= NICSIM__BACKLOG && len < n)
    len += (size_t)snprintf(buf + len, n - len,
                            "; the host stack took only %.0f %% of the frames the wire brought in the window, "
                            "the rest waited in the RX ring",
                            100 * (1 - a->rx_backlog_frac));
  if (len >= n) return;
  /* Frames lost while nothing is saturated: the host answers too late
   * (moderation, scheduling), not too slowly. */
  if (a->bottleneck < 0 && a->rx_drop_frac >= NICSIM__DROP_NOTE && len < n)
    snprintf(buf + len, n - len,
             "; yet %.1f %% of RX frames dropped (FIFO full %.0f, no descriptor %.0f): the host "
             "serves the NIC too late, not too slowly",
             100 * a->rx_drop_frac, a->rx_drops_fifo, a->rx_drops_nodesc);
}

json_t *nicsim_analysis_to_json(const struct nicsim_analysis *a) {
  json_t *o = json_object(), *u = json_object();
  if (!o || !u) goto fail;
  if (json_object_set_new(o, "bottleneck", json_string(nicsim_analysis_bottleneck(a))) ||
      json_object_set_new(o, "next", a->next >= 0 ? json_string(a->res[a->next].name) : json_null()))
    goto fail;
  if (json_object_set_new(o, "rx_drop_frac", json_real(a->rx_drop_frac)) ||
      json_object_set_new(o, "rx_backlog_frac", json_real(a->rx_backlog_frac)))
    goto fail;
  for (size_t i = 0; i < a->n; i++)
    if (json_object_set_new(u, a->res[i].name, json_real(a->res[i].util))) goto fail;
  if (json_object_set_new(o, "utilisation", u) == 0) return o;
  u = NULL;
fail:
  json_decref(u);
  json_decref(o);
  return NULL;
}
