/* summary.c: the tables people read on stdout: the summary of one run
 * (setup, grouped metrics, checks, CPU profile) and the sweep table. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "results/output.h"
#include "results/analysis.h"
#include "results/escape.h"
#include "results/output_private.h"

/* ---- number formatting ------------------------------------------------------ */

/* An integer with thousands separators ("1,234,567"); "n/a" if not finite. */
static void nicsim__fmt_count(double v, char *buf, size_t n) {
  char digits[32];
  size_t len, i, o = 0, lead;
  const char *d = digits;

  if (!isfinite(v) || fabs(v) >= 9.2e18) {
    if (isfinite(v))
      snprintf(buf, n, "%.4g", v);
    else
      snprintf(buf, n, "n/a");
    return;
  }
  snprintf(digits, sizeof(digits), "%lld", (long long)llround(v));
  len = strlen(digits);
  if (n < len + len / 3 + 1) { /* no room for separators */
    snprintf(buf, n, "%s", digits);
    return;
  }
  if (*d == '-')
    buf[o++] = *d++;
  len = strlen(d);
  lead = len % 3 ? len % 3 : 3;
  for (i = 0; i < len; i++) {
    if (i >= lead && (i - lead) % 3 == 0)
      buf[o++] = ',';
    buf[o++] = d[i];
  }
  buf[o] = '\0';
}

/* A fixed-point number ("9.870"); "n/a" if not finite. */
static void nicsim__fmt_fixed(double v, int decimals, char *buf, size_t n) {
  if (!isfinite(v))
    snprintf(buf, n, "n/a");
  else
    snprintf(buf, n, "%.*f", decimals, v == 0 ? 0.0 : v); /* no "-0.0" */
}

/* A duration in ns scaled to ns/us/ms/s with 3 decimals. */
static void nicsim__fmt_time_ns(double ns, char *buf, size_t n, const char **unit) {
  static const struct {
    double div;
    const char *unit;
  } scales[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}};
  size_t i;

  for (i = 0; i < sizeof(scales) / sizeof(scales[0]); i++) {
    if (fabs(ns) >= scales[i].div) {
      nicsim__fmt_fixed(ns / scales[i].div, 3, buf, n);
      *unit = scales[i].unit;
      return;
    }
  }
  nicsim__fmt_fixed(ns, 0, buf, n);
  *unit = "ns";
}

/* Copies src into dst[n], truncating. */
static void nicsim__copy(char *dst, size_t n, const char *src) {
  size_t len = strlen(src);
  if (len >= n)
    len = n - 1;
  memcpy(dst, src, len);
  dst[len] = '\0';
}

/* ---- the row table --------------------------------------------------------- */

enum nicsim__row_kind { ROW_SECTION, ROW_VALUE, ROW_TEXT };

struct nicsim__row {
  enum nicsim__row_kind kind;
  char label[64];
  char value[256]; /* the number, or the whole text of a ROW_TEXT */
  char unit[32];
};

#define NICSIM__MAX_ROWS 96

struct nicsim__table {
  struct nicsim__row rows[NICSIM__MAX_ROWS];
  size_t n;
  size_t section_start; /* index of the current section's title row */
};

/* Appends a row; silently ignores rows beyond the (generous) capacity. */
static struct nicsim__row *nicsim__row_add(struct nicsim__table *t, enum nicsim__row_kind kind,
                                           const char *label) {
  struct nicsim__row *row;

  if (t->n >= NICSIM__MAX_ROWS)
    return NULL;
  row = &t->rows[t->n++];
  memset(row, 0, sizeof(*row));
  row->kind = kind;
  snprintf(row->label, sizeof(row->label), "%s", label);
  return row;
}

/* Starts a section; a section left without rows is dropped by the next call. */
static void nicsim__section(struct nicsim__table *t, const char *title) {
  if (t->n > 0 && t->rows[t->n - 1].kind == ROW_SECTION)
    t->n--;
  t->section_start = t->n;
  nicsim__row_add(t, ROW_SECTION, title);
}

/* The value of a metric, if the run reported it. */
static bool nicsim__metric(const struct nicsim_results *r, const char *name, double *v) {
  return nicsim_results_get(r, name, v);
}

/* A row showing metric id times scale with fixed decimals. */
static void nicsim__add_real(struct nicsim__table *t, const char *label,
                             const struct nicsim_results *r, const char *id,
                             double scale, int decimals, const char *unit) {
  struct nicsim__row *row;
  double v;

  if (!nicsim__metric(r, id, &v) || (row = nicsim__row_add(t, ROW_VALUE, label)) == NULL)
    return;
  nicsim__fmt_fixed(v * scale, decimals, row->value, sizeof(row->value));
  snprintf(row->unit, sizeof(row->unit), "%s", unit);
}

/* A row showing metric id as a grouped integer. */
static void nicsim__add_count(struct nicsim__table *t, const char *label,
                              const struct nicsim_results *r, const char *id,
                              const char *unit) {
  struct nicsim__row *row;
  double v;

  if (!nicsim__metric(r, id, &v) || (row = nicsim__row_add(t, ROW_VALUE, label)) == NULL)
    return;
  nicsim__fmt_count(v, row->value, sizeof(row->value));
  snprintf(row->unit, sizeof(row->unit), "%s", unit);
}

/* Prints the rows: titles flush left, labels indented, numbers right-aligned
 * in one column across all sections, units after them. */
static void nicsim__table_print(FILE *f, struct nicsim__table *t) {
  size_t lw = 0, vw = 0, i;

  if (t->n > 0 && t->rows[t->n - 1].kind == ROW_SECTION)
    t->n--;
  for (i = 0; i < t->n; i++) {
    const struct nicsim__row *row = &t->rows[i];
    if (row->kind != ROW_SECTION && strlen(row->label) > lw)
      lw = strlen(row->label);
    if (row->kind == ROW_VALUE && strlen(row->value) > vw)
      vw = strlen(row->value);
  }
  for (i = 0; i < t->n; i++) {
    const struct nicsim__row *row = &t->rows[i];
    switch (row->kind) {
    case ROW_SECTION:
      fprintf(f, "\n%s\n", row->label);
      break;
    case ROW_VALUE:
      fprintf(f, "  %-*s  %*s", (int)lw, row->label, (int)vw, row->value);
      if (row->unit[0])
        fprintf(f, " %s", row->unit);
      fputc('\n', f);
      break;
    case ROW_TEXT:
      fprintf(f, "  %-*s  %s\n", (int)lw, row->label, row->value);
      break;
    }
  }
}

/* ---- the run summary --------------------------------------------------------- */

/* GT/s per lane of PCIe generation gen (1-5). */
static double nicsim__pcie_gts(int64_t gen) {
  static const double gts[] = {2.5, 5, 8, 16, 32};
  return (gen >= 1 && gen <= 5) ? gts[gen - 1] : 0;
}

/* Writes text from the scenario with every control character (C0, DEL, C1)
 * and invalid byte shown as \xNN: it cannot drive the terminal. */
static void nicsim__put_clean(FILE *f, const char *s) { nicsim_put_term(f, s); }

/* Prints the setup the numbers belong to. */
static void nicsim__print_header(FILE *f, const struct nicsim_config *c) {
  const struct nc_key *keys = nc_keys();
  char mode[32], num[32], num2[32];
  const char *what = "";

  fprintf(f, "%-10s ", "Scenario");
  nicsim__put_clean(f, c->name[0] ? c->name : "(unnamed)");
  if (c->label[0]) {
    fputs("  (point ", f);
    nicsim__put_clean(f, c->label);
    fputc(')', f);
  }
  fputc('\n', f);
  if (c->description[0]) {
    fprintf(f, "%-10s ", "");
    nicsim__put_clean(f, c->description);
    fputc('\n', f);
  }
  fprintf(f, "%-10s ", "Platform");
  nicsim__put_clean(f, c->platform[0] ? c->platform : "(none: schema defaults)");
  fputc('\n', f);

  if (c->workload.kind == NC_WORKLOAD_DMA_BENCH) {
    /* A DMA benchmark has no NIC traffic: say what the device issues instead. */
    nicsim__enum_name(keys[NC_KEY_workload_op].choices, c->workload.op, mode, sizeof(mode));
    fprintf(f, "%-10s dma-bench: %s, %lld B requests, %lld outstanding, %lld B window%s\n",
            "Workload", mode, (long long)c->workload.size_bytes, (long long)c->workload.outstanding,
            (long long)c->workload.window_bytes,
            c->workload.relaxed_ordering ? ", relaxed ordering" : "");
  } else {
    nicsim__enum_name(keys[NC_KEY_traffic_mode].choices, c->traffic.mode, mode, sizeof(mode));
    if (c->traffic.mode == NC_MODE_RX)
      what = " (wire to host)";
    else if (c->traffic.mode == NC_MODE_TX)
      what = " (host to wire)";
    else if (c->traffic.mode == NC_MODE_BIDIR)
      what = " (both directions)";
    else if (c->traffic.mode == NC_MODE_FORWARD)
      what = c->driver.xdp == NC_XDP_TX ? " (wire to host and back out, XDP_TX)"
                                        : " (wire to host and back out, IPv4 forwarding)";
    fprintf(f, "%-10s %s%s, %lld B frames, ", "Traffic", mode, what,
            (long long)c->traffic.frame_bytes);
    /* A socket-limited host sender (traffic.sndbuf_bytes) is unpaced with rate 0. */
    const long long sndbuf = (long long)c->traffic.sndbuf_bytes;
    if (c->traffic.rate_gbps > 0) {
      nicsim_format_real(c->traffic.rate_gbps, num, sizeof(num));
      fprintf(f, "offered %s Gbit/s per direction", num);
      if (sndbuf > 0) fprintf(f, ", host socket send buffer %lld B", sndbuf);
    } else if (sndbuf > 0) {
      fprintf(f, "%shost sends as fast as its %lld B socket send buffer allows",
              c->traffic.mode == NC_MODE_BIDIR ? "wire offered at line rate, " : "", sndbuf);
    } else {
      fprintf(f, "offered at line rate");
    }
    /* A paced host sender that catches up (traffic.tx_pacing average). */
    if (c->traffic.mode != NC_MODE_RX && c->traffic.mode != NC_MODE_FORWARD &&
        c->traffic.tx_pacing == NC_PACING_AVERAGE &&
        (c->traffic.rate_gbps > 0 || sndbuf == 0))
      fprintf(f, ", host paced on average (catches up)");
    fprintf(f, "\n");
    nicsim_format_real(c->nic.line_rate_gbps, num, sizeof(num));
    fprintf(f, "%-10s %s Gbit/s Ethernet\n", "Line rate", num);
  }
  if (c->bus.enabled) {
    nicsim_format_real(c->bus.clock_mhz, num, sizeof(num));
    fprintf(f, "%-10s on-chip bus, %lld B x %s MHz, bursts of up to %lld beats\n", "Link",
            (long long)c->bus.width_bytes, num, (long long)c->bus.burst_beats);
  } else {
    nicsim_format_real(nicsim__pcie_gts(c->pcie.gen), num, sizeof(num));
    fprintf(f, "%-10s PCIe Gen%lld x%lld (%s GT/s per lane), MPS %lld B, MRRS %lld B\n", "Link",
            (long long)c->pcie.gen, (long long)c->pcie.lanes, num, (long long)c->pcie.mps,
            (long long)c->pcie.mrrs);
  }
  nicsim_format_real(c->run.warmup_us, num, sizeof(num));
  nicsim_format_real(c->run.duration_us, num2, sizeof(num2));
  fprintf(f, "%-10s metrics over %s-%s us of simulated time, seed %lld\n", "Window", num, num2,
          (long long)c->run.seed);
}

/* Adds a conservation check row: "sent A = received B + dropped C  OK";
 * with XDP (xdp > 0) "sent A = received B + XDP X + dropped C" (RX: frames
 * XDP consumed), and for TX (!with_drops) "sent A + XDP_TX X = received B". */
static void nicsim__add_check(struct nicsim__table *t, const char *label, double sent,
                              double received, double dropped, bool with_drops, double xdp) {
  struct nicsim__row *row = nicsim__row_add(t, ROW_TEXT, label);
  char a[32], b[32], c[32], d[32], x[32];
  double diff = sent + (with_drops ? 0 : xdp) - received - (with_drops ? dropped + xdp : 0);

  if (row == NULL)
    return;
  nicsim__fmt_count(sent, a, sizeof(a));
  nicsim__fmt_count(received, b, sizeof(b));
  nicsim__fmt_count(dropped, c, sizeof(c));
  nicsim__fmt_count(fabs(diff), d, sizeof(d));
  nicsim__fmt_count(xdp, x, sizeof(x));
  if (with_drops && xdp > 0)
    snprintf(row->value, sizeof(row->value), "sent %s = received %s + XDP %s + dropped %s   %s%s%s%s", a,
             b, x, c, diff == 0 ? "OK" : "MISMATCH: ", diff == 0 ? "" : d,
             diff == 0 ? "" : " frames ", diff == 0 ? "" : (diff > 0 ? "missing" : "extra"));
  else if (!with_drops && xdp > 0)
    snprintf(row->value, sizeof(row->value), "sent %s + XDP_TX %s = received %s   %s%s%s%s", a, x,
             b, diff == 0 ? "OK" : "MISMATCH: ", diff == 0 ? "" : d,
             diff == 0 ? "" : " frames ", diff == 0 ? "" : (diff > 0 ? "missing" : "extra"));
  else if (with_drops)
    snprintf(row->value, sizeof(row->value), "sent %s = received %s + dropped %s   %s%s%s%s", a,
             b, c, diff == 0 ? "OK" : "MISMATCH: ", diff == 0 ? "" : d,
             diff == 0 ? "" : " frames ", diff == 0 ? "" : (diff > 0 ? "missing" : "extra"));
  else
    snprintf(row->value, sizeof(row->value), "sent %s = received %s   %s%s%s%s", a, b,
             diff == 0 ? "OK" : "MISMATCH: ", diff == 0 ? "" : d, diff == 0 ? "" : " frames ",
             diff == 0 ? "" : (diff > 0 ? "missing" : "extra"));
}

/* One cpu.profile.* extra: its share of the CPU time and, if known, cycles. */
struct nicsim__prof {
  const char *fn;
  double share;
  double cycles; /* NaN when unknown */
};

/* qsort comparator: larger share first, then function name. */
static int nicsim__prof_cmp(const void *pa, const void *pb) {
  const struct nicsim__prof *a = pa, *b = pb;
  if (a->share != b->share)
    return a->share > b->share ? -1 : 1;
  return strcmp(a->fn, b->fn);
}

#define NICSIM__PROFILE_PREFIX "cpu.profile."

/* Prints the per-function profile, if the run reported one. An entry in
 * unit "fraction" is a share of cpu.busy_cycles; one in "cycles" is an
 * absolute count, its share taken of the sum of such entries. */
static void nicsim__print_profile(FILE *f, const struct nicsim_results *r) {
  struct nicsim__prof prof[NICSIM_MAX_EXTRA_METRICS];
  size_t n = 0, i, fw = strlen("Function"), cw = strlen("Cycles");
  size_t plen = strlen(NICSIM__PROFILE_PREFIX);
  double busy = NAN, total_cycles = 0;
  bool have_cycles = false;
  char buf[32];

  (void)nicsim__metric(r, "cpu.busy_cycles", &busy);
  for (i = 0; i < r->nextra; i++)
    if (strncmp(r->extra[i].name, NICSIM__PROFILE_PREFIX, plen) == 0 &&
        strcmp(r->extra[i].unit, "cycles") == 0 && isfinite(r->extra[i].value))
      total_cycles += r->extra[i].value;
  for (i = 0; i < r->nextra; i++) {
    const char *unit = r->extra[i].unit;
    double v = r->extra[i].value;
    if (strncmp(r->extra[i].name, NICSIM__PROFILE_PREFIX, plen) != 0 || !isfinite(v))
      continue;
    if (strcmp(unit, "fraction") == 0) {
      prof[n].share = v;
      prof[n].cycles = isfinite(busy) ? v * busy : NAN;
    } else if (strcmp(unit, "cycles") == 0) {
      prof[n].share = total_cycles > 0 ? v / total_cycles : 0;
      prof[n].cycles = v;
    } else {
      continue; /* a unit this table cannot place */
    }
    prof[n].fn = r->extra[i].name + plen;
    have_cycles |= isfinite(prof[n].cycles);
    n++;
  }
  if (n == 0)
    return;
  qsort(prof, n, sizeof(prof[0]), nicsim__prof_cmp);
  for (i = 0; i < n; i++) {
    if (strlen(prof[i].fn) > fw)
      fw = strlen(prof[i].fn);
    nicsim__fmt_count(prof[i].cycles, buf, sizeof(buf));
    if (strlen(buf) > cw)
      cw = strlen(buf);
  }
  fprintf(f, "\nCPU profile (where the busy CPU cycles went, by function)\n");
  fprintf(f, "  %-*s  %7s", (int)fw, "Function", "Share");
  if (have_cycles)
    fprintf(f, "  %*s", (int)cw, "Cycles");
  fputc('\n', f);
  for (i = 0; i < n; i++) {
    fprintf(f, "  %-*s  %5.1f %%", (int)fw, prof[i].fn, 100 * prof[i].share);
    if (have_cycles) {
      nicsim__fmt_count(prof[i].cycles, buf, sizeof(buf));
      fprintf(f, "  %*s", (int)cw, isfinite(prof[i].cycles) ? buf : "-");
    }
    fputc('\n', f);
  }
}

/* Prints the human summary of one run. */
void nicsim_summary_print(FILE *f, const struct nicsim_config *c,
                          const struct nicsim_results *r) {
  struct nicsim__table *t = calloc(1, sizeof(*t));
  bool rx = c->traffic.mode != NC_MODE_TX, tx = c->traffic.mode != NC_MODE_RX;
  double a, b, d, v;
  const char *unit;
  struct nicsim__row *row;

  nicsim__print_header(f, c);
  {
    struct nicsim_analysis *an = malloc(sizeof *an);
    char line[400];
    if (an != NULL) {
      nicsim_analyse(c, r, an);
      nicsim_analysis_line(an, line, sizeof line);
      fprintf(f, "%-10s %s\n", "Bottleneck", line);
      free(an);
    }
  }
  if (t == NULL) {
    fprintf(f, "\n(out of memory: no summary table)\n");
    return;
  }
  /* A direction the mode does not drive is shown anyway if it moved frames. */
  if (nicsim__metric(r, "rx.pkts", &v) && v > 0)
    rx = true;
  if (nicsim__metric(r, "tx.pkts", &v) && v > 0)
    tx = true;
  /* Frames an XDP program consumed in the window (dropped or sent back):
   * the host took them, though no skb reached the stack. */
  double xdp_taken = 0;
  static const char *const xdp_taken_metrics[] = {"xdp.drop", "xdp.tx", "xdp.tx_errors"};
  for (size_t i = 0; i < sizeof xdp_taken_metrics / sizeof *xdp_taken_metrics; i++)
    if (nicsim__metric(r, xdp_taken_metrics[i], &v) && isfinite(v))
      xdp_taken += v;
  if (xdp_taken > 0)
    rx = true;

  if (c->traffic.mode == NC_MODE_FORWARD) {
    /* The headline of an RFC 2544-style test: what came back to the tester. */
    nicsim__section(t, "Forwarding (measurement window, at the wire peer)");
    nicsim__add_real(t, "Forwarded rate", r, "fwd.gbps", 1, 3, "Gbit/s");
    nicsim__add_real(t, "Forwarded packet rate", r, "fwd.mpps", 1, 3, "Mpkt/s");
    nicsim__add_count(t, "Frames forwarded", r, "fwd.pkts", "");
    nicsim__add_real(t, "Frame loss rate", r, "fwd.loss", 100, 2, "%");
    nicsim__add_count(t, "Dropped: NIC (FIFO full, no descriptor)", r, "rx.drops", "");
    nicsim__add_count(t, "Dropped: TX queue stopped", r, "fwd.drops_txq", "");
    if (c->driver.xdp != NC_XDP_OFF) {
      nicsim__add_count(t, "Dropped: XDP program", r, "xdp.drop", "");
      nicsim__add_count(t, "Dropped: XDP_TX ring full", r, "xdp.tx_errors", "");
    }
  }
  nicsim__section(t, "Throughput (measurement window)");
  if (rx) {
    nicsim__add_real(t, "RX rate", r, "rx.gbps", 1, 3, "Gbit/s");
    nicsim__add_real(t, "RX packet rate", r, "rx.mpps", 1, 3, "Mpkt/s");
    nicsim__add_count(t, "RX frames delivered", r, "rx.pkts", "");
    if (c->driver.xdp != NC_XDP_OFF && c->traffic.mode != NC_MODE_FORWARD) {
      nicsim__add_count(t, "RX frames XDP dropped", r, "xdp.drop", "");
      nicsim__add_count(t, "RX frames XDP sent back (XDP_TX)", r, "xdp.tx", "");
      nicsim__add_count(t, "RX frames lost: XDP_TX ring full", r, "xdp.tx_errors", "");
    }
    nicsim__add_count(t, "RX frames dropped", r, "rx.drops", "");
    if (nicsim__metric(r, "rx.pkts", &a) && nicsim__metric(r, "rx.drops", &b) && a + xdp_taken + b > 0 &&
        (row = nicsim__row_add(t, ROW_VALUE, "RX drop rate")) != NULL) {
      /* dropped by the NIC, of what the wire brought in (delivered, taken by XDP, or dropped) */
      nicsim__fmt_fixed(100 * b / (a + xdp_taken + b), 2, row->value, sizeof(row->value));
      snprintf(row->unit, sizeof(row->unit), "%%");
    }
  }
  if (tx) {
    nicsim__add_real(t, "TX rate", r, "tx.gbps", 1, 3, "Gbit/s");
    nicsim__add_real(t, "TX packet rate", r, "tx.mpps", 1, 3, "Mpkt/s");
    nicsim__add_count(t, "TX frames sent", r, "tx.pkts", "");
    if (c->traffic.sndbuf_bytes > 0) {
      nicsim__add_count(t, "TX socket: waits for buffer space", r, "tx.sndbuf_waits", "");
      nicsim__add_count(t, "TX socket: most skb memory held", r, "tx.wmem_max", "B");
    }
  }

  if (c->workload.kind == NC_WORKLOAD_DMA_BENCH) {
    nicsim__section(t, "DMA benchmark (measurement window)");
    nicsim__add_real(t, "Payload bandwidth", r, "dma.gbps", 1, 3, "Gbit/s");
    if (c->workload.op != NC_WORKLOAD_WRITE) {
      nicsim__add_real(t, "Read latency (mean)", r, "dma.rd_latency_ns", 1, 0, "ns");
      nicsim__add_real(t, "Read latency (p99)", r, "dma.rd_latency_ns.p99", 1, 0, "ns");
      nicsim__add_real(t, "Reads outstanding (mean)", r, "pcie.rd_outstanding_mean", 1, 1, "");
    }
    nicsim__add_count(t, "Posted-credit stalls", r, "pcie.up.credit_stalls", "");
    nicsim__add_count(t, "Tag stalls", r, "pcie.tag_stalls", "");
  }

  nicsim__section(t, "CPU");
  nicsim__add_real(t, "Utilisation", r, "cpu.util", 100, 1, "%");
  nicsim__add_count(t, "Busy cycles", r, "cpu.busy_cycles", "cycles");
  if (rx)
    nicsim__add_real(t, "Cycles per RX frame", r, "cpu.cycles_per_rx_pkt", 1, 1, "cycles");
  if (tx)
    nicsim__add_real(t, "Cycles per TX frame", r, "cpu.cycles_per_tx_pkt", 1, 1, "cycles");
  if (rx)
    nicsim__add_real(t, "Instructions per RX frame", r, "cpu.instructions_per_rx_pkt", 1, 1, "");
  if (tx)
    nicsim__add_real(t, "Instructions per TX frame", r, "cpu.instructions_per_tx_pkt", 1, 1, "");
  nicsim__add_count(t, "Driver and kernel-layer instructions", r, "cpu.code_instructions", "");
  nicsim__add_count(t, "IRQ and softirq cycles", r, "cpu.irq_cycles", "cycles");
  nicsim__add_count(t, "Uncached loads", r, "cpu.uncached_loads", "");
  nicsim__add_count(t, "Uncached stores", r, "cpu.uncached_stores", "");
  nicsim__add_count(t, "Cache misses", r, "cpu.cache_misses", "");
  nicsim__add_count(t, "Cache lines cleaned/invalidated", r, "cpu.cache_maint_lines", "");
  nicsim__add_count(t, "memcpy bytes, aligned", r, "cpu.memcpy_bytes.aligned", "B");
  nicsim__add_count(t, "memcpy bytes, misaligned", r, "cpu.memcpy_bytes.misaligned", "B");
  nicsim__add_count(t, "MMIO reads (readl)", r, "cpu.mmio_reads", "");
  nicsim__add_count(t, "MMIO writes (writel)", r, "cpu.mmio_writes", "");

  nicsim__section(t, "PCIe (up: device to host, down: host to device)");
  nicsim__add_count(t, "Up TLPs", r, "pcie.up.tlps", "");
  nicsim__add_count(t, "Down TLPs", r, "pcie.down.tlps", "");
  nicsim__add_count(t, "Up bytes on the wire", r, "pcie.up.bytes", "B");
  nicsim__add_count(t, "Down bytes on the wire", r, "pcie.down.bytes", "B");
  nicsim__add_count(t, "Up payload bytes", r, "pcie.up.payload_bytes", "B");
  nicsim__add_count(t, "Down payload bytes", r, "pcie.down.payload_bytes", "B");
  nicsim__add_real(t, "Up utilisation", r, "pcie.up.util", 100, 1, "%");
  nicsim__add_real(t, "Down utilisation", r, "pcie.down.util", 100, 1, "%");

  nicsim__section(t, "NIC");
  nicsim__add_count(t, "Descriptor fetch requests", r, "nic.desc_fetch_reqs", "");
  nicsim__add_count(t, "Descriptors fetched", r, "nic.desc_fetched", "");
  nicsim__add_real(t, "Fetch requests per frame", r, "nic.desc_fetch_reqs_per_pkt", 1, 3,
                   "");
  nicsim__add_count(t, "Descriptor write-backs", r, "nic.desc_writebacks", "");
  nicsim__add_real(t, "RX ring occupancy (mean)", r, "nic.rx_ring_occupancy", 1, 1, "descriptors");
  nicsim__add_count(t, "RX drops: FIFO full", r, "rx.drops_fifo", "");

  nicsim__section(t, "Interrupts");
  nicsim__add_count(t, "Interrupts raised", r, "irq.count", "");
  nicsim__add_count(t, "Interrupt rate", r, "irq.per_sec", "/s");
  nicsim__add_count(t, "Folded by moderation", r, "irq.suppressed", "");
  nicsim__add_real(t, "MSI to handler (mean)", r, "irq.latency_ns", 1, 0, "ns");

  nicsim__section(t, "Checks (whole run, drain included)");
  double xdp_rx = 0, xdp_tx = 0;
  if (!nicsim__metric(r, "total.rx.xdp", &xdp_rx) || !isfinite(xdp_rx))
    xdp_rx = 0;
  if (!nicsim__metric(r, "total.tx.xdp", &xdp_tx) || !isfinite(xdp_tx))
    xdp_tx = 0;
  if (nicsim__metric(r, "total.rx.sent", &a) && nicsim__metric(r, "total.rx.received", &b) &&
      nicsim__metric(r, "total.rx.dropped", &d) && (rx || a > 0))
    nicsim__add_check(t, "RX frames", a, b, d, true, xdp_rx);
  if (nicsim__metric(r, "total.tx.sent", &a) && nicsim__metric(r, "total.tx.received", &b) &&
      (tx || a > 0 || xdp_tx > 0))
    nicsim__add_check(t, "TX frames", a, b, 0, false, xdp_tx);
  /* Forwarding end to end: every frame the peer sent came back, or was
   * dropped with a cause (NIC, a stopped TX queue, XDP). */
  double fwd = 0, txq = 0;
  if (c->traffic.mode == NC_MODE_FORWARD && nicsim__metric(r, "total.rx.sent", &a) &&
      nicsim__metric(r, "total.fwd", &fwd) && nicsim__metric(r, "total.rx.dropped", &d)) {
    if (!nicsim__metric(r, "total.fwd.drops_txq", &txq) || !isfinite(txq)) txq = 0;
    /* xdp_rx - xdp_tx: XDP_DROP, and XDP_TX with no room on the ring */
    nicsim__add_check(t, "Forwarded frames", a, fwd, d + txq + xdp_rx - xdp_tx, true, 0);
  }
  if (nicsim_results_get(r, "sim.drain_extended_us", &v) &&
      (row = nicsim__row_add(t, ROW_VALUE, "Drain extended by (run.drain_us too short)")) != NULL) {
    snprintf(row->value, sizeof(row->value), "%.0f", v);
    snprintf(row->unit, sizeof(row->unit), "us");
  }

  nicsim__section(t, "Simulation");
  if (nicsim__metric(r, "sim.time_ns", &v) &&
      (row = nicsim__row_add(t, ROW_VALUE, "Simulated time")) != NULL) {
    nicsim__fmt_time_ns(v, row->value, sizeof(row->value), &unit);
    snprintf(row->unit, sizeof(row->unit), "%s", unit);
  }
  nicsim__add_count(t, "Kernel events (delta cycles)", r, "sim.events", "");
  nicsim__add_real(t, "Wall-clock time", r, "sim.wall_s", 1, 2, "s");

  nicsim__table_print(f, t);
  free(t);
  nicsim__print_profile(f, r);
}

/* ---- the sweep table ------------------------------------------------------------ */

/* The columns after "#", "label" and the swept keys. */
enum nicsim__sweep_col { SC_RX, SC_DROPS, SC_TX, SC_CPU, SC_STATUS, SC__COUNT };
static const char *const nicsim__sweep_heads[SC__COUNT] = {"RX Gbit/s", "RX drops", "TX Gbit/s",
                                                          "CPU %", "status"};

#define NICSIM__CELL 128

/* Text of column col (0 "#", 1 label, 2.. keys, then enum nicsim__sweep_col)
 * for point i. */
static void nicsim__sweep_cell(const struct nicsim_point *pt, size_t i, size_t col,
                               const char *const *keys, size_t nkeys, char *buf, size_t n) {
  char tmp[NC_PATH_MAX];
  double v;

  if (col == 0) {
    snprintf(buf, n, "%zu", i);
    return;
  }
  if (col == 1) {
    nicsim_term_text(pt->cfg->label, buf, n);
    return;
  }
  if (col < 2 + nkeys) {
    nicsim__key_value(pt->cfg, keys[col - 2], tmp, sizeof(tmp));
    nicsim_term_text(tmp, buf, n);
    return;
  }
  col -= 2 + nkeys;
  if (col == SC_STATUS) {
    nicsim__copy(buf, n, pt->res ? "ok" : "FAILED");
    return;
  }
  nicsim__copy(buf, n, "-");
  if (pt->res == NULL)
    return;
  if (col == SC_RX && nicsim__metric(pt->res, "rx.gbps", &v))
    nicsim__fmt_fixed(v, 3, buf, n);
  else if (col == SC_DROPS && nicsim__metric(pt->res, "rx.drops", &v))
    nicsim__fmt_count(v, buf, n);
  else if (col == SC_TX && nicsim__metric(pt->res, "tx.gbps", &v))
    nicsim__fmt_fixed(v, 3, buf, n);
  else if (col == SC_CPU && nicsim__metric(pt->res, "cpu.util", &v))
    nicsim__fmt_fixed(100 * v, 1, buf, n);
}

/* Prints the sweep table over points supplied by get (two passes). */
int nicsim_sweep_table_print_each(FILE *f, const char *const *keys, size_t nkeys,
                                  size_t npoints, nicsim_point_fn get, void *arg) {
  size_t ncols = 2 + nkeys + SC__COUNT, i, j, *width, last = 0;
  bool *shown, rx = false, tx = false, failed = false;
  struct nicsim_point pt;
  char cell[NICSIM__CELL];
  int rc = 0;

  width = calloc(ncols, sizeof(*width));
  shown = calloc(ncols, sizeof(*shown));
  if (width == NULL || shown == NULL) {
    rc = -ENOMEM;
    goto out;
  }
  width[0] = 1;
  width[1] = strlen("label");
  for (j = 0; j < nkeys; j++)
    width[2 + j] = strlen(keys[j]);
  for (j = 0; j < SC__COUNT; j++)
    width[2 + nkeys + j] = strlen(nicsim__sweep_heads[j]);

  /* Pass 1: which columns, how wide. */
  for (i = 0; i < npoints; i++) {
    if ((rc = get(arg, i, &pt)) < 0)
      goto out;
    rx |= pt.cfg->traffic.mode != NC_MODE_TX;
    tx |= pt.cfg->traffic.mode != NC_MODE_RX;
    failed |= pt.res == NULL;
    for (j = 0; j < ncols; j++) {
      nicsim__sweep_cell(&pt, i, j, keys, nkeys, cell, sizeof(cell));
      if (strlen(cell) > width[j])
        width[j] = strlen(cell);
    }
  }
  for (j = 0; j < 2 + nkeys; j++)
    shown[j] = true;
  shown[2 + nkeys + SC_RX] = shown[2 + nkeys + SC_DROPS] = rx;
  shown[2 + nkeys + SC_TX] = tx;
  shown[2 + nkeys + SC_CPU] = true;
  shown[2 + nkeys + SC_STATUS] = failed;
  for (j = 0; j < ncols; j++)
    if (shown[j])
      last = j;

  /* Pass 2: print; text columns (label, status) left-aligned, numbers right. */
  for (i = 0; i <= npoints; i++) {
    if (i > 0 && (rc = get(arg, i - 1, &pt)) < 0)
      goto out;
    for (j = 0; j < ncols; j++) {
      bool left = j == 1 || j == 2 + nkeys + SC_STATUS;
      const char *text = cell;
      if (!shown[j])
        continue;
      if (i == 0)
        text = j == 0 ? "#" : j == 1 ? "label" : j < 2 + nkeys ? keys[j - 2]
                                                               : nicsim__sweep_heads[j - 2 - nkeys];
      else
        nicsim__sweep_cell(&pt, i - 1, j, keys, nkeys, cell, sizeof(cell));
      if (j > 0)
        fputs("  ", f);
      if (left && j == last)
        fputs(text, f); /* no trailing blanks */
      else
        fprintf(f, left ? "%-*s" : "%*s", (int)width[j], text);
    }
    fputc('\n', f);
  }
out:
  free(width);
  free(shown);
  return rc;
}

/* Prints the sweep table of an array of points. */
void nicsim_sweep_table_print(FILE *f, const char *const *keys, size_t nkeys,
                              const struct nicsim_point *points, size_t npoints) {
  (void)nicsim_sweep_table_print_each(f, keys, nkeys, npoints, nicsim_point_array_get,
                                      (void *)points);
}
