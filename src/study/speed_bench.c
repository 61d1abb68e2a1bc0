/* speed_bench.c: the simulation-speed benchmark, `nicsim bench`
 * (nicsim_study_bench): how fast nicsim simulates on this machine. Runs the
 * standard workloads (each in its own forked child: SystemC elaborates once
 * per process) and the bare SystemC kernel micro-benchmarks
 * (sim/systemc_kernel_bench.h), prints a table on stdout and optionally
 * writes JSON (docs/performance.md). Not the dma-bench workload, which is a
 * model (models/workload/dma_bench.*, src/sim/dma_bench_top.*). */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE /* getloadavg */

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "results/safety.h"
#include "config/builtin.h"
#include "drivers/driver.h"
#include "results/output.h"
#include "sim/sim.h"
#include "sim/systemc_kernel_bench.h"
#include "study/study_internal.h"

/* A standard workload: a seed scenario's "before" point when that scenario
 * exists (built in, or on disk relative to the current directory), else the
 * built-in default scenario with the overrides. */
struct ns__workload {
  const char *name, *desc;
  const char *seed; /* NULL: always the default scenario with sets */
  const char *sets[8];
};

static const struct ns__workload ns__workloads[] = {
    {"rx64-10g", "64 B RX-only at line rate, 10 GbE, generic NIC and driver, default platform", NULL,
     {"traffic.mode=rx", "traffic.frame_bytes=64", "traffic.rate_gbps=0", "nic.line_rate_gbps=10", NULL}},
    {"bidir1500", "1500 B bidirectional at line rate, 10 GbE, generic NIC and driver", NULL,
     {"traffic.mode=bidir", "traffic.frame_bytes=1500", "traffic.rate_gbps=0", "nic.line_rate_gbps=10", NULL}},
    {"lan743x", "the lan743x seed scenario's 'before' point", "scenarios/seeds/lan743x-dspace.yaml",
     {"nic.family=lan743x", "driver.name=lan743x", "nic.line_rate_gbps=1", "traffic.mode=bidir",
      "traffic.frame_bytes=1500", NULL}},
    {"i40e", "the i40e seed scenario's 'before' point", "scenarios/seeds/i40e-relaxed-ordering.yaml",
     {"nic.family=i40e", "driver.name=i40e", "nic.desc_spacing=32", "nic.line_rate_gbps=40",
      "traffic.mode=rx", "traffic.frame_bytes=1500", NULL}},
};
#define NS__NWORKLOADS (sizeof(ns__workloads) / sizeof(ns__workloads[0]))

/* What a child sends back through its pipe. */
struct ns__bench_msg {
  uint32_t magic;
  int rc;
  char err[700];
  double wall_s, sim_ns, events, pkts, delivered, rss_kb;
  struct nicsim_sc_bench_result k;
};
#define NS__BENCH_MAGIC 0x6e42656eu

/* One workload's outcome in the parent. */
struct ns__wl_result {
  const char *name;
  char source[NC_PATH_MAX + 64];
  unsigned long long packets_req;
  bool skipped;
  char reason[800];
  double wall_s, sim_ns, events, pkts, delivered, rss_kb;
  unsigned runs;        /* runs made (--repeat); the figures are the fastest one's */
  double wall_s_slowest; /* the slowest run's wall time */
};

/* One kernel variant's outcome in the parent. */
struct ns__k_result {
  bool ok;
  char reason[800];
  struct nicsim_sc_bench_result k;
};

/* The workload with this name, or NULL. */
static const struct ns__workload *ns__find_workload(const char *name) {
  size_t i;
  for (i = 0; i < NS__NWORKLOADS; i++)
    if (strcmp(ns__workloads[i].name, name) == 0)
      return &ns__workloads[i];
  return NULL;
}

/* Reads exactly n bytes (until EOF); the number read. */
static size_t ns__read_all(int fd, void *buf, size_t n) {
  char *p = buf;
  size_t got = 0;
  while (got < n) {
    ssize_t r = read(fd, p + got, n - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    got += (size_t)r;
  }
  return got;
}

/* Peak resident set size of this process, in KiB. */
static double ns__peak_rss_kb(void) {
  struct rusage ru;
  return getrusage(RUSAGE_SELF, &ru) == 0 ? (double)ru.ru_maxrss : 0.0;
}

/* What a child runs: a workload (cfg) or a kernel variant (kind >= 0). */
struct ns__job_spec {
  const struct nicsim_config *cfg;
  int kind;
  uint64_t acts;
};

/* Child side: runs the job, fills m; never returns. */
static void ns__bench_child(int wfd, const struct ns__job_spec *j) {
  struct ns__bench_msg m;
  struct nicsim_results *res;
  struct nicsim_sim_error serr;
  double v;

  dup2(STDERR_FILENO, STDOUT_FILENO); /* stdout is the parent's table */
  signal(SIGPIPE, SIG_DFL);
  memset(&m, 0, sizeof(m));
  m.magic = NS__BENCH_MAGIC;
  if (j->cfg == NULL) {
    m.rc = nicsim_sc_bench_run(j->kind, j->acts, &m.k, m.err, sizeof(m.err)) == 0 ? 0 : 1;
  } else if ((res = calloc(1, sizeof(*res))) == NULL) {
    m.rc = 1;
    snprintf(m.err, sizeof(m.err), "out of memory");
  } else {
    nicsim_results_init(res);
    memset(&serr, 0, sizeof(serr));
    m.rc = nicsim_simulate(j->cfg, res, &serr, 0);
    if (m.rc != 0) {
      ns_format_sim_error(&serr, m.err, sizeof(m.err));
    } else {
      m.wall_s = nicsim_results_get(res, "sim.wall_s", &v) ? v : 0;
      m.sim_ns = nicsim_results_get(res, "sim.time_ns", &v) ? v : 0;
      m.events = nicsim_results_get(res, "sim.events", &v) ? v : 0;
      m.pkts = (nicsim_results_get(res, "total.rx.sent", &v) ? v : 0) +
               (nicsim_results_get(res, "total.tx.sent", &v) ? v : 0);
      m.delivered = (nicsim_results_get(res, "total.rx.received", &v) ? v : 0) +
                    (nicsim_results_get(res, "total.tx.received", &v) ? v : 0);
    }
  }
  m.rss_kb = ns__peak_rss_kb();
  fflush(stdout);
  fflush(stderr);
  _exit(write(wfd, &m, sizeof(m)) == (ssize_t)sizeof(m) ? 0 : 4);
}

/* Runs a job in a child and waits for it. Returns 0 with *m filled (m->rc
 * may still say the job failed), or -1 with why. */
static int ns__bench_fork(const struct ns__job_spec *j, struct ns__bench_msg *m, char *why, size_t n) {
  int fds[2], wstatus = 0;
  pid_t pid, r;
  size_t got;

  if (pipe(fds) != 0) {
    snprintf(why, n, "cannot create a pipe: %s", strerror(errno));
    return -1;
  }
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (pid < 0) {
    snprintf(why, n, "cannot start a worker process: %s", strerror(errno));
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    close(fds[0]);
    ns__bench_child(fds[1], j);
  }
  close(fds[1]);
  got = ns__read_all(fds[0], m, sizeof(*m));
  close(fds[0]);
  do
    r = waitpid(pid, &wstatus, 0);
  while (r < 0 && errno == EINTR);
  if (r < 0) {
    snprintf(why, n, "lost the worker process: %s", strerror(errno));
    return -1;
  }
  if (WIFSIGNALED(wstatus)) {
    snprintf(why, n, "worker process killed by signal %d (%s)", WTERMSIG(wstatus),
             strsignal(WTERMSIG(wstatus)));
    return -1;
  }
  if (got != sizeof(*m) || m->magic != NS__BENCH_MAGIC) {
    snprintf(why, n, "worker process exited with status %d before sending results",
             WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
    return -1;
  }
  m->err[sizeof(m->err) - 1] = '\0';
  return 0;
}

/* Offered frames per microsecond of the resolved config: both directions of
 * a bidirectional run, 20 B of preamble and inter-frame gap per frame. */
static double ns__offered_per_us(const struct nicsim_config *c) {
  double gbps = c->traffic.rate_gbps > 0 ? c->traffic.rate_gbps : c->nic.line_rate_gbps;
  double per_dir = gbps * 1e3 / ((double)(c->traffic.frame_bytes + 20) * 8.0);
  return c->traffic.mode == NC_MODE_BIDIR ? 2.0 * per_dir : per_dir;
}

/* Loads a workload's scenario and resolves it for `packets` offered frames
 * into cfg. Returns 0, or -1 with why (the workload is then skipped). */
static int ns__resolve_workload(const struct ns__workload *w, unsigned long long packets,
                                struct nicsim_config *cfg, char *source, size_t sn, char *why,
                                 size_t n) {
  struct nc_scenario *scen = NULL;
  struct nc_error err;
  const char *sets[16];
  char dur[64], line[1200];
  size_t nsets = 0, i;
  long point = -1;
  FILE *mem;
  int rc = -1;

  memset(&err, 0, sizeof(err));
  if (w->seed != NULL && (nicsim_builtin_find(w->seed) != NULL || access(w->seed, R_OK) == 0)) {
    int lrc = nicsim_builtin_find(w->seed) != NULL ? nc_scenario_load_builtin(w->seed, &scen, &err)
                                                   : nc_scenario_load(w->seed, &scen, &err);
    if (lrc != 0) {
      nc_error_print(&err, stderr);
      snprintf(why, n, "%s does not load (see above)", w->seed);
      return -1;
    }
  }
  if (scen != NULL) {
    /* The first point labelled "before" or "before/<platform>". */
    for (i = 0; i < nc_scenario_npoints(scen) && point < 0; i++)
      if (strncmp(nc_scenario_point_label(scen, i), "before", 6) == 0)
        point = (long)i;
    if (point >= 0)
      snprintf(source, sn, "%s, point %s", w->seed, nc_scenario_point_label(scen, (size_t)point));
    else
      snprintf(source, sn, "%s, base point (no 'before' point)", w->seed);
  } else {
    if (nc_scenario_load(NULL, &scen, &err) != 0) {
      snprintf(why, n, "the built-in default scenario does not load: %s", err.msg);
      return -1;
    }
    for (i = 0; w->sets[i] != NULL; i++)
      sets[nsets++] = w->sets[i];
    if (w->seed != NULL)
      snprintf(source, sn, "default scenario (%s does not exist yet)", w->seed);
    else
      snprintf(source, sn, "default scenario");
    for (i = 0; i < nsets; i++) {
      size_t len = strlen(source);
      snprintf(source + len, sn - len, " --set %s", sets[i]);
    }
  }
  /* First resolve to learn the frame size and rate, then set the duration. */
  if (nc_scenario_resolve(scen, point, sets, nsets, cfg, &err) != 0)
    goto bad;
  snprintf(dur, sizeof(dur), "run.duration_us=%.6g",
           fmax(1.0, ceil((double)packets / ns__offered_per_us(cfg))));
  sets[nsets++] = dur;
  sets[nsets++] = "run.warmup_us=0";
  if (nc_scenario_resolve(scen, point, sets, nsets, cfg, &err) != 0 || nicsim_check_config(cfg, &err) != 0)
    goto bad;
  rc = 0;
  goto out;
bad:
  line[0] = '\0';
  mem = fmemopen(line, sizeof(line) - 1, "w");
  if (mem != NULL) {
    nc_error_print(&err, mem);
    fclose(mem);
  }
  line[sizeof(line) - 1] = '\0';
  for (i = 0; line[i]; i++)
    if (line[i] == '\n')
      line[i] = ' ';
  snprintf(why, n, "its configuration does not resolve: %s", line);
out:
  nc_scenario_free(scen);
  return rc;
}

/* Runs one workload in a child; fills *r. */
static void ns__run_workload(const struct ns__workload *w, unsigned long long packets, bool quiet,
                             struct ns__wl_result *r) {
  struct nicsim_config *cfg = calloc(1, sizeof(*cfg));
  struct ns__bench_msg m;
  struct ns__job_spec j = {NULL, -1, 0};

  memset(r, 0, sizeof(*r));
  r->name = w->name;
  r->packets_req = packets;
  if (cfg == NULL) {
    snprintf(r->reason, sizeof(r->reason), "out of memory");
    goto skip;
  }
  if (ns__resolve_workload(w, packets, cfg, r->source, sizeof(r->source), r->reason,
                           sizeof(r->reason)) != 0)
    goto skip;
  if (!quiet)
    ns_eprintf("nicsim bench: %s: %llu frames (%.6g us of traffic + %.6g us drain) from %s\n",
            w->name, packets, cfg->run.duration_us, cfg->run.drain_us, r->source);
  j.cfg = cfg;
  if (ns__bench_fork(&j, &m, r->reason, sizeof(r->reason)) != 0)
    goto skip;
  if (m.rc != 0) {
    snprintf(r->reason, sizeof(r->reason), "%s", m.err);
    goto skip;
  }
  r->wall_s = m.wall_s;
  r->sim_ns = m.sim_ns;
  r->events = m.events;
  r->pkts = m.pkts;
  r->delivered = m.delivered;
  r->rss_kb = m.rss_kb;
  r->runs = 1;
  r->wall_s_slowest = m.wall_s;
  if (r->wall_s <= 0 || r->pkts <= 0) {
    snprintf(r->reason, sizeof(r->reason), "the run simulated no frames (or took no time)");
    goto skip;
  }
  free(cfg);
  return;
skip:
  r->skipped = true;
  ns_eprintf("nicsim bench: %s: skipped: %s\n", w->name, r->reason);
  free(cfg);
}

/* Runs kernel variant kind in a child; fills *r. */
static void ns__run_kernel(int kind, uint64_t acts, bool quiet, struct ns__k_result *r) {
  struct ns__bench_msg m;
  struct ns__job_spec j = {NULL, kind, acts};

  memset(r, 0, sizeof(*r));
  if (!quiet)
    ns_eprintf("nicsim bench: kernel %s: %llu activations\n", nicsim_sc_bench_name(kind),
            (unsigned long long)acts);
  if (ns__bench_fork(&j, &m, r->reason, sizeof(r->reason)) != 0)
    goto fail;
  if (m.rc != 0) {
    snprintf(r->reason, sizeof(r->reason), "%s", m.err);
    goto fail;
  }
  if (m.k.wall_s <= 0 || m.k.deltas == 0) {
    snprintf(r->reason, sizeof(r->reason), "ran no delta cycles (or took no time)");
    goto fail;
  }
  r->k = m.k;
  r->ok = true;
  return;
fail:
  ns_eprintf("nicsim bench: kernel %s: failed: %s\n", nicsim_sc_bench_name(kind), r->reason);
}

/* ---- figures ------------------------------------------------------------------- */

static double ns__pkts_per_s(const struct ns__wl_result *r) { return r->pkts / r->wall_s; }
static double ns__events_per_pkt(const struct ns__wl_result *r) { return r->events / r->pkts; }

/* Kernel delta cycles per wall second of variant r, or NAN. */
static double ns__k_rate(const struct ns__k_result *r) {
  return r->ok ? (double)r->k.deltas / r->k.wall_s : NAN;
}

/* frames/s / (kernel events/s / events per frame), or NAN. */
static double ns__bound_ratio(const struct ns__wl_result *r, double kernel_events_per_s) {
  if (!(kernel_events_per_s > 0))
    return NAN;
  return ns__pkts_per_s(r) / (kernel_events_per_s / ns__events_per_pkt(r));
}

/* ---- output -------------------------------------------------------------------- */

/* Prints the workload table on stdout. */
static void ns__print_workloads(const struct ns__wl_result *w, size_t n, double kref) {
  size_t i;

  ns_printf("%-10s %10s %8s %11s %11s %12s %10s %8s %7s\n", "workload", "frames", "wall s",
         "frames/s", "delivered/s", "sim us/s", "events/fr", "RSS MB", "bound");
  for (i = 0; i < n; i++) {
    const struct ns__wl_result *r = &w[i];
    if (r->skipped) {
      ns_printf("%-10s skipped (see stderr)\n", r->name);
      continue;
    }
    char bound[32] = "-";
    double b = ns__bound_ratio(r, kref);
    if (isfinite(b))
      snprintf(bound, sizeof(bound), "%.3f", b);
    ns_printf("%-10s %10.0f %8.3f %11.0f %11.0f %12.1f %10.2f %8.1f %7s\n", r->name, r->pkts,
           r->wall_s, ns__pkts_per_s(r), r->delivered / r->wall_s, r->sim_ns / 1e3 / r->wall_s,
           ns__events_per_pkt(r), r->rss_kb / 1024.0, bound);
  }
}

/* Prints the kernel table on stdout; '*' marks the reference variant. */
static void ns__print_kernel(const struct ns__k_result *k) {
  int i;

  ns_printf("\n%-22s %12s %14s %14s %9s\n", "SystemC kernel", "activations", "deltas/s",
         "activations/s", "ns/delta");
  for (i = 0; i < NICSIM_SC_BENCH__COUNT; i++) {
    const struct ns__k_result *r = &k[i];
    char name[40];
    snprintf(name, sizeof(name), "%s%s", nicsim_sc_bench_name(i),
             i == NICSIM_SC_BENCH_REFERENCE ? " *" : "");
    if (!r->ok) {
      ns_printf("%-22s failed (see stderr)\n", name);
      continue;
    }
    ns_printf("%-22s %12llu %14.0f %14.0f %9.1f\n", name, (unsigned long long)r->k.activations,
           ns__k_rate(r), (double)r->k.activations / r->k.wall_s,
           r->k.wall_s * 1e9 / (double)r->k.deltas);
  }
  ns_printf("* the reference rate of bound_ratio (kernel events/s)\n");
}

/* A JSON real, or null when not finite. */
static json_t *ns__jreal(double v) { return isfinite(v) ? json_real(v) : json_null(); }

/* Sets key in obj, stealing the value; -1 on failure. */
static int ns__jset(json_t *obj, const char *key, json_t *v) {
  return v == NULL ? -1 : json_object_set_new(obj, key, v);
}

/* The JSON object of one workload; NULL on ENOMEM. */
static json_t *ns__wl_json(const struct ns__wl_result *r, double kref) {
  json_t *o = json_object();
  int bad = 0;

  if (o == NULL)
    return NULL;
  bad |= ns__jset(o, "name", json_string(r->name));
  if (r->skipped) {
    bad |= ns__jset(o, "skipped", json_true());
    bad |= ns__jset(o, "reason", json_string(r->reason));
  }
  bad |= ns__jset(o, "source", json_string(r->source));
  bad |= ns__jset(o, "packets_requested", json_integer((json_int_t)r->packets_req));
  if (r->skipped) {
    const char *k[] = {"sim_pkts_per_s", "sim_ns_per_wall_s", "events_per_pkt", "peak_rss_mb",
                       "bound_ratio"};
    size_t i;
    for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
      bad |= ns__jset(o, k[i], json_null());
  } else {
    bad |= ns__jset(o, "sim_pkts_per_s", ns__jreal(ns__pkts_per_s(r)));
    bad |= ns__jset(o, "sim_ns_per_wall_s", ns__jreal(r->sim_ns / r->wall_s));
    bad |= ns__jset(o, "events_per_pkt", ns__jreal(ns__events_per_pkt(r)));
    bad |= ns__jset(o, "peak_rss_mb", ns__jreal(r->rss_kb / 1024.0));
    bad |= ns__jset(o, "bound_ratio", ns__jreal(ns__bound_ratio(r, kref)));
    bad |= ns__jset(o, "delivered_pkts_per_s", ns__jreal(r->delivered / r->wall_s));
    bad |= ns__jset(o, "pkts", json_integer((json_int_t)r->pkts));
    bad |= ns__jset(o, "delivered_pkts", json_integer((json_int_t)r->delivered));
    bad |= ns__jset(o, "events", json_integer((json_int_t)r->events));
    bad |= ns__jset(o, "sim_ns", ns__jreal(r->sim_ns));
    bad |= ns__jset(o, "wall_s", ns__jreal(r->wall_s));
    bad |= ns__jset(o, "runs", json_integer((json_int_t)r->runs));
    bad |= ns__jset(o, "wall_s_slowest", ns__jreal(r->wall_s_slowest));
  }
  if (bad) {
    json_decref(o);
    return NULL;
  }
  return o;
}

/* The "kernel" JSON object; NULL on ENOMEM. */
static json_t *ns__kernel_json(const struct ns__k_result *k) {
  json_t *o = json_object(), *vars = json_array();
  int bad = (o == NULL || vars == NULL), i;

  if (bad) {
    json_decref(o);
    json_decref(vars);
    return NULL;
  }
  bad |= ns__jset(o, "events", json_string("delta cycles (sc_delta_count)"));
  bad |= ns__jset(o, "reference", json_string(nicsim_sc_bench_name(NICSIM_SC_BENCH_REFERENCE)));
  bad |= ns__jset(o, "events_per_s", ns__jreal(ns__k_rate(&k[NICSIM_SC_BENCH_REFERENCE])));
  for (i = 0; i < NICSIM_SC_BENCH__COUNT; i++) {
    json_t *v = json_object();
    if (v == NULL || json_array_append_new(vars, v) != 0) {
      bad = 1;
      break;
    }
    bad |= ns__jset(v, "name", json_string(nicsim_sc_bench_name(i)));
    bad |= ns__jset(v, "what", json_string(nicsim_sc_bench_desc(i)));
    if (!k[i].ok) {
      bad |= ns__jset(v, "failed", json_true());
      bad |= ns__jset(v, "reason", json_string(k[i].reason));
      continue;
    }
    bad |= ns__jset(v, "activations", json_integer((json_int_t)k[i].k.activations));
    bad |= ns__jset(v, "deltas", json_integer((json_int_t)k[i].k.deltas));
    bad |= ns__jset(v, "wall_s", ns__jreal(k[i].k.wall_s));
    bad |= ns__jset(v, "events_per_s", ns__jreal(ns__k_rate(&k[i])));
    bad |= ns__jset(v, "activations_per_s", ns__jreal((double)k[i].k.activations / k[i].k.wall_s));
  }
  bad |= ns__jset(o, "variants", vars);
  if (bad) {
    json_decref(o);
    return NULL;
  }
  return o;
}

/* nicsim_emit_fn: dumps the JSON document arg. */
static int ns__emit_json(FILE *f, void *arg) { return nicsim_json_dump(arg, f); }

/* Writes doc to path; NICSIM_STUDY_BAD_INPUT on failure. Steals doc. */
static int ns__write_json(const char *path, json_t *doc) {
  int rc;

  if (doc == NULL) {
    ns_eprintf("nicsim bench: out of memory building the JSON\n");
    return NICSIM_STUDY_BAD_INPUT;
  }
  rc = nicsim_write_atomic(path, ns__emit_json, doc);
  json_decref(doc);
  if (rc < 0) {
    ns_eprintf("nicsim bench: cannot write %s: %s\n", path, nicsim_strerror(-rc));
    return NICSIM_STUDY_BAD_INPUT;
  }
  return NICSIM_STUDY_OK;
}

/* {"online_cpus", "loadavg_1m"}: how busy the machine was (figures taken
 * on a loaded machine are low); NULL on ENOMEM. */
static json_t *ns__machine_json(void) {
  double load[1] = {NAN};
  json_t *o = json_object();

  if (o == NULL)
    return NULL;
  if (getloadavg(load, 1) != 1)
    load[0] = NAN;
  if (ns__jset(o, "online_cpus", json_integer((json_int_t)sysconf(_SC_NPROCESSORS_ONLN))) != 0 ||
      ns__jset(o, "loadavg_1m", ns__jreal(load[0])) != 0) {
    json_decref(o);
    return NULL;
  }
  return o;
}

/* Warns on stderr when other processes share the CPUs: the figures are then low. */
static void ns__warn_load(void) {
  double load[1];
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);

  if (getloadavg(load, 1) == 1 && cpus > 0 && load[0] > 0.5 * (double)cpus)
    ns_eprintf(
            "nicsim bench: note: load average %.2f on %ld CPUs: other processes compete for the CPU, "
            "so these figures are lower and noisier than on an idle machine\n",
            load[0], cpus);
}

/* A new document {"nicsim": version, "machine": {...}, "workloads": [...]} of n results; NULL on ENOMEM. */
static json_t *ns__doc(const struct ns__wl_result *w, size_t n, double kref) {
  json_t *doc = json_object(), *arr = json_array();
  size_t i;
  int bad = (doc == NULL || arr == NULL);

  if (!bad) {
    bad |= ns__jset(doc, "nicsim", json_string(NICSIM_VERSION));
    bad |= ns__jset(doc, "machine", ns__machine_json());
    for (i = 0; i < n && !bad; i++) {
      json_t *o = ns__wl_json(&w[i], kref);
      bad |= o == NULL || json_array_append_new(arr, o) != 0;
    }
    bad |= json_object_set(doc, "workloads", arr);
  }
  json_decref(arr);
  if (bad) {
    json_decref(doc);
    return NULL;
  }
  return doc;
}

/* ---- modes --------------------------------------------------------------------- */

/* --scaling: rx64-10g at N and 10 N frames; prints the ratios. */
static int ns__scaling(unsigned long long n, const char *json, bool quiet) {
  struct ns__wl_result r[2];
  const struct ns__workload *w = ns__find_workload("rx64-10g");
  double rss_ratio, time_ratio, pkts_ratio;
  json_t *doc, *s;
  int bad = 0;

  ns__run_workload(w, n, quiet, &r[0]);
  ns__run_workload(w, n * 10, quiet, &r[1]);
  ns__print_workloads(r, 2, NAN);
  ns__warn_load();
  if (r[0].skipped || r[1].skipped) {
    ns_eprintf("nicsim bench: --scaling: a run failed; no ratios\n");
    return NICSIM_STUDY_FAILED;
  }
  rss_ratio = r[1].rss_kb / r[0].rss_kb;
  time_ratio = r[1].wall_s / r[0].wall_s;
  pkts_ratio = r[1].pkts / r[0].pkts;
  ns_printf("\nscaling %llu -> %llu frames: frames x%.3f, wall time x%.3f (per frame x%.3f), "
         "peak RSS x%.3f (%.1f -> %.1f MB)\n",
         n, n * 10, pkts_ratio, time_ratio, time_ratio / pkts_ratio, rss_ratio,
         r[0].rss_kb / 1024.0, r[1].rss_kb / 1024.0);
  ns_printf("targets (issue 10): peak RSS within 10%% (x1.100 or less), time linear (per frame x1.0)\n");
  if (json == NULL)
    return NICSIM_STUDY_OK;
  doc = ns__doc(r, 2, NAN);
  s = json_object();
  if (doc == NULL || s == NULL) {
    json_decref(s);
    return ns__write_json(json, doc);
  }
  bad |= ns__jset(s, "packets", json_pack("[II]", (json_int_t)n, (json_int_t)(n * 10)));
  bad |= ns__jset(s, "pkts_ratio", ns__jreal(pkts_ratio));
  bad |= ns__jset(s, "time_ratio", ns__jreal(time_ratio));
  bad |= ns__jset(s, "time_per_pkt_ratio", ns__jreal(time_ratio / pkts_ratio));
  bad |= ns__jset(s, "rss_ratio", ns__jreal(rss_ratio));
  bad |= json_object_set_new(doc, "scaling", s);
  if (bad) {
    json_decref(doc);
    doc = NULL;
  }
  return ns__write_json(json, doc);
}

/* The name of standard workload i, or NULL. */
const char *nicsim_study_bench_workload(size_t i) {
  return i < NS__NWORKLOADS ? ns__workloads[i].name : NULL;
}

/* nicsim bench: workloads and the kernel, or the scaling check (see study.h). */
int nicsim_study_bench(const struct nicsim_bench_opts *o) {
  const char *json = o->json;
  const struct ns__workload *chosen[NS__NWORKLOADS];
  struct ns__wl_result *res = NULL;
  struct ns__k_result kres[NICSIM_SC_BENCH__COUNT];
  unsigned long long packets = o->packets;
  uint64_t acts = o->kernel_activations;
  bool quiet = o->quiet;
  unsigned long long repeat = o->repeat > 1 ? o->repeat : 1;
  size_t nchosen = 0, i, nran = 0;
  double kref;
  json_t *doc;
  int status;

  /* The nicsim command checks these first, as usage errors. */
  if (json != NULL && (status = ns_check_output_path("bench", "JSON", json)) != 0)
    return status;
  for (i = 0; i < o->nworkloads; i++) {
    const struct ns__workload *w = ns__find_workload(o->workloads[i]);
    size_t k;
    if (w == NULL) {
      fprintf(stderr, "nicsim bench: unknown workload '%s'\n", o->workloads[i]);
      return NICSIM_STUDY_BAD_INPUT;
    }
    for (k = 0; k < nchosen && chosen[k] != w; k++)
      ;
    if (k == nchosen)
      chosen[nchosen++] = w;
  }
  if (o->scaling)
    return ns__scaling(packets, json, quiet);
  if (nchosen == 0)
    for (i = 0; i < NS__NWORKLOADS; i++)
      chosen[nchosen++] = &ns__workloads[i];

  res = calloc(nchosen, sizeof(*res));
  if (res == NULL) {
    ns_eprintf("nicsim bench: out of memory\n");
    return NICSIM_STUDY_BAD_INPUT;
  }
  for (i = 0; i < nchosen; i++) {
    ns__run_workload(chosen[i], packets, quiet, &res[i]);
    for (unsigned long long k = 1; k < repeat && !res[i].skipped; k++) {
      struct ns__wl_result again;
      ns__run_workload(chosen[i], packets, true, &again);
      if (again.skipped) { /* a run that fails fails the workload */
        res[i] = again;
        break;
      }
      const unsigned runs = res[i].runs + 1;
      const double slowest = again.wall_s > res[i].wall_s_slowest ? again.wall_s : res[i].wall_s_slowest;
      if (again.wall_s < res[i].wall_s) res[i] = again;
      res[i].runs = runs;
      res[i].wall_s_slowest = slowest;
    }
    nran += !res[i].skipped;
  }
  for (i = 0; i < NICSIM_SC_BENCH__COUNT; i++) {
    ns__run_kernel((int)i, acts, quiet, &kres[i]);
    for (unsigned long long k = 1; k < repeat && kres[i].ok; k++) {
      struct ns__k_result again;
      ns__run_kernel((int)i, acts, true, &again);
      if (!again.ok) {
        kres[i] = again;
        break;
      }
      if (ns__k_rate(&again) > ns__k_rate(&kres[i])) kres[i] = again;
    }
  }
  kref = ns__k_rate(&kres[NICSIM_SC_BENCH_REFERENCE]);

  ns__print_workloads(res, nchosen, kref);
  ns__print_kernel(kres);
  ns__warn_load();
  status = nran > 0 ? NICSIM_STUDY_OK : NICSIM_STUDY_FAILED;
  if (nran == 0)
    ns_eprintf("nicsim bench: no workload ran\n");
  if (json != NULL) {
    json_t *k = ns__kernel_json(kres);
    doc = ns__doc(res, nchosen, kref);
    if (doc == NULL || k == NULL || json_object_set_new(doc, "kernel", k) != 0) {
      if (doc == NULL)
        json_decref(k); /* else set_new took it, even on failure */
      json_decref(doc);
      doc = NULL;
    }
    int wrc = ns__write_json(json, doc);
    if (wrc != NICSIM_STUDY_OK)
      status = wrc;
  }
  free(res);
  return status;
}
