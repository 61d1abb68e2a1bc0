/* cmd_bench.c: `nicsim bench`: how fast nicsim simulates on this machine.
 * Runs the standard workloads (each in its own forked child: SystemC
 * elaborates once per process) and the bare SystemC kernel micro-benchmarks,
 * prints a table on stdout and optionally writes JSON (docs/performance.md). */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE /* getloadavg */

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "config/builtin.h"
#include "drivers/driver.h"
#include "results/output.h"
#include "sim/systemc_kernel_bench.h"
#include "sim/sim.h"

enum { OPT_JSON = 1, OPT_PACKETS, OPT_QUICK, OPT_SCALING, OPT_QUIET, OPT_HELP, OPT_REPEAT };

static const struct cli_opt cli__bench_opts[] = {
    {"json", 0, true, OPT_JSON},         {"packets", 'n', true, OPT_PACKETS},
    {"quick", 0, false, OPT_QUICK},      {"scaling", 0, false, OPT_SCALING},
    {"quiet", 'q', false, OPT_QUIET},    {"help", 'h', false, OPT_HELP},
    {"repeat", 'r', true, OPT_REPEAT},
    {NULL, 0, false, 0},
};

#define CLI__BENCH_SYNOPSIS                                                                   \
  "usage: nicsim bench [--json FILE] [--packets N] [--repeat N] [--quick] [--scaling] [-q] [WORKLOAD...]\n" \
  "       workloads: rx64-10g, bidir1500, lan743x, i40e"

/* Packets per workload and kernel activations per variant, normal and --quick. */
#define CLI__BENCH_PACKETS 1000000ull
#define CLI__BENCH_QUICK_PACKETS 50000ull
#define CLI__BENCH_MAX_PACKETS 100000000ull
#define CLI__BENCH_KERNEL_ACTS 2000000ull
#define CLI__BENCH_QUICK_KERNEL_ACTS 200000ull
#define CLI__BENCH_MAX_REPEAT 100

/* A standard workload: a seed scenario's "before" point when that scenario
 * exists (built in, or on disk relative to the current directory), else the
 * built-in default scenario with the overrides. */
struct cli__workload {
  const char *name, *desc;
  const char *seed; /* NULL: always the default scenario with sets */
  const char *sets[8];
};

static const struct cli__workload cli__workloads[] = {
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
#define CLI__NWORKLOADS (sizeof(cli__workloads) / sizeof(cli__workloads[0]))

/* What a child sends back through its pipe. */
struct cli__bench_msg {
  uint32_t magic;
  int rc;
  char err[700];
  double wall_s, sim_ns, events, pkts, delivered, rss_kb;
  struct nicsim_sc_bench_result k;
};
#define CLI__BENCH_MAGIC 0x6e42656eu

/* One workload's outcome in the parent. */
struct cli__wl_result {
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
struct cli__k_result {
  bool ok;
  char reason[800];
  struct nicsim_sc_bench_result k;
};

/* The --help text of nicsim bench. */
void cli_help_bench(FILE *f) {
  fprintf(f,
          "%s\n\n"
          "Measures how fast nicsim simulates on this machine. Each workload runs in\n"
          "its own child process; then the bare SystemC kernel is measured (event\n"
          "notify/wait between two processes, timed waits; SC_THREAD and SC_METHOD).\n"
          "Without WORKLOAD, runs them all.\n"
          "\n"
          "Workloads:\n"
          "  rx64-10g   64 B RX-only at line rate on 10 GbE, generic NIC and driver\n"
          "  bidir1500  1500 B bidirectional at line rate on 10 GbE\n"
          "  lan743x    scenarios/seeds/lan743x-dspace.yaml, first point labelled before...\n"
          "  i40e       scenarios/seeds/i40e-relaxed-ordering.yaml, first point labelled before...\n"
          "  (a seed scenario that does not exist yet is replaced by the default scenario\n"
          "  with nic.family and driver.name set; a workload that cannot run is reported\n"
          "  on stderr, marked skipped in the JSON, and the others go on)\n"
          "\n"
          "Options:\n"
          "      --json FILE      Write the figures as JSON (docs/performance.md)\n"
          "  -n, --packets N      Frames offered per workload (default %llu); the traffic\n"
          "                       duration is set from the offered rate\n"
          "  -r, --repeat N       Run each workload and kernel variant N times (1 to %d,\n"
          "                       default 1) and keep the fastest run: on a shared machine\n"
          "                       other work only slows a run down\n"
          "      --quick          %llu frames per workload (unless --packets says) and a\n"
          "                       tenth of the kernel work\n"
          "      --scaling        Memory and time scaling check instead: rx64-10g at N and\n"
          "                       10 N frames; prints the RSS and time ratios\n"
          "  -q, --quiet          No progress on stderr\n"
          "  -h, --help           Show this help\n"
          "\n"
          "Per workload: simulated frames per wall second, simulated ns per wall second,\n"
          "SystemC events (delta cycles) per frame, peak RSS of the child, and\n"
          "bound_ratio = frames/s / (kernel events/s / events per frame).\n"
          "Exit status: 0 at least one workload ran, 1 none did, 2 bad input.\n"
          "\n"
          "Examples:\n"
          "  nicsim bench --json bench.json\n"
          "  nicsim bench --quick rx64-10g\n"
          "  nicsim bench --scaling --packets 1000000\n",
          CLI__BENCH_SYNOPSIS, CLI__BENCH_PACKETS, CLI__BENCH_MAX_REPEAT, CLI__BENCH_QUICK_PACKETS);
}

/* A usage error of nicsim bench (its synopsis is kept here); CLI_EXIT_USAGE. */
static int cli__bench_usage(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static int cli__bench_usage(const char *fmt, ...) {
  va_list ap;

  ns_eprintf("nicsim bench: ");
  va_start(ap, fmt);
  ns_veprintf(fmt, ap);
  va_end(ap);
  ns_eprintf("\n%s\nRun 'nicsim bench --help' for all options.\n", CLI__BENCH_SYNOPSIS);
  return CLI_EXIT_USAGE;
}

/* The workload with this name, or NULL. */
static const struct cli__workload *cli__find_workload(const char *name) {
  size_t i;
  for (i = 0; i < CLI__NWORKLOADS; i++)
    if (strcmp(cli__workloads[i].name, name) == 0)
      return &cli__workloads[i];
  return NULL;
}

/* Reads exactly n bytes (until EOF); the number read. */
static size_t cli__read_all(int fd, void *buf, size_t n) {
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
static double cli__peak_rss_kb(void) {
  struct rusage ru;
  return getrusage(RUSAGE_SELF, &ru) == 0 ? (double)ru.ru_maxrss : 0.0;
}

/* What a child runs: a workload (cfg) or a kernel variant (kind >= 0). */
struct cli__job_spec {
  const struct nicsim_config *cfg;
  int kind;
  uint64_t acts;
};

/* Child side: runs the job, fills m; never returns. */
static void cli__bench_child(int wfd, const struct cli__job_spec *j) {
  struct cli__bench_msg m;
  struct nicsim_results *res;
  struct nicsim_sim_error serr;
  double v;

  dup2(STDERR_FILENO, STDOUT_FILENO); /* stdout is the parent's table */
  signal(SIGPIPE, SIG_DFL);
  memset(&m, 0, sizeof(m));
  m.magic = CLI__BENCH_MAGIC;
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
  m.rss_kb = cli__peak_rss_kb();
  fflush(stdout);
  fflush(stderr);
  _exit(write(wfd, &m, sizeof(m)) == (ssize_t)sizeof(m) ? 0 : 4);
}

/* Runs a job in a child and waits for it. Returns 0 with *m filled (m->rc
 * may still say the job failed), or -1 with why. */
static int cli__bench_fork(const struct cli__job_spec *j, struct cli__bench_msg *m, char *why, size_t n) {
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
    cli__bench_child(fds[1], j);
  }
  close(fds[1]);
  got = cli__read_all(fds[0], m, sizeof(*m));
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
  if (got != sizeof(*m) || m->magic != CLI__BENCH_MAGIC) {
    snprintf(why, n, "worker process exited with status %d before sending results",
             WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
    return -1;
  }
  m->err[sizeof(m->err) - 1] = '\0';
  return 0;
}

/* Offered frames per microsecond of the resolved config: both directions of
 * a bidirectional run, 20 B of preamble and inter-frame gap per frame. */
static double cli__offered_per_us(const struct nicsim_config *c) {
  double gbps = c->traffic.rate_gbps > 0 ? c->traffic.rate_gbps : c->nic.line_rate_gbps;
  double per_dir = gbps * 1e3 / ((double)(c->traffic.frame_bytes + 20) * 8.0);
  return c->traffic.mode == NC_MODE_BIDIR ? 2.0 * per_dir : per_dir;
}

/* Loads a workload's scenario and resolves it for `packets` offered frames
 * into cfg. Returns 0, or -1 with why (the workload is then skipped). */
static int cli__resolve_workload(const struct cli__workload *w, unsigned long long packets,
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
           fmax(1.0, ceil((double)packets / cli__offered_per_us(cfg))));
  sets[nsets++] = dur;
  sets[nsets++] = "run.warmup_us=0";
  if (nc_scenario_resolve(scen, point, sets, nsets, cfg, &err) != 0 || nk_driver_check_config(cfg, &err) != 0)
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
static void cli__run_workload(const struct cli__workload *w, unsigned long long packets, bool quiet,
                              struct cli__wl_result *r) {
  struct nicsim_config *cfg = calloc(1, sizeof(*cfg));
  struct cli__bench_msg m;
  struct cli__job_spec j = {NULL, -1, 0};

  memset(r, 0, sizeof(*r));
  r->name = w->name;
  r->packets_req = packets;
  if (cfg == NULL) {
    snprintf(r->reason, sizeof(r->reason), "out of memory");
    goto skip;
  }
  if (cli__resolve_workload(w, packets, cfg, r->source, sizeof(r->source), r->reason,
                            sizeof(r->reason)) != 0)
    goto skip;
  if (!quiet)
    ns_eprintf("nicsim bench: %s: %llu frames (%.6g us of traffic + %.6g us drain) from %s\n",
            w->name, packets, cfg->run.duration_us, cfg->run.drain_us, r->source);
  j.cfg = cfg;
  if (cli__bench_fork(&j, &m, r->reason, sizeof(r->reason)) != 0)
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
static void cli__run_kernel(int kind, uint64_t acts, bool quiet, struct cli__k_result *r) {
  struct cli__bench_msg m;
  struct cli__job_spec j = {NULL, kind, acts};

  memset(r, 0, sizeof(*r));
  if (!quiet)
    ns_eprintf("nicsim bench: kernel %s: %llu activations\n", nicsim_sc_bench_name(kind),
            (unsigned long long)acts);
  if (cli__bench_fork(&j, &m, r->reason, sizeof(r->reason)) != 0)
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

static double cli__pkts_per_s(const struct cli__wl_result *r) { return r->pkts / r->wall_s; }
static double cli__events_per_pkt(const struct cli__wl_result *r) { return r->events / r->pkts; }

/* Kernel delta cycles per wall second of variant r, or NAN. */
static double cli__k_rate(const struct cli__k_result *r) {
  return r->ok ? (double)r->k.deltas / r->k.wall_s : NAN;
}

/* frames/s / (kernel events/s / events per frame), or NAN. */
static double cli__bound_ratio(const struct cli__wl_result *r, double kernel_events_per_s) {
  if (!(kernel_events_per_s > 0))
    return NAN;
  return cli__pkts_per_s(r) / (kernel_events_per_s / cli__events_per_pkt(r));
}

/* ---- output -------------------------------------------------------------------- */

/* Prints the workload table on stdout. */
static void cli__print_workloads(const struct cli__wl_result *w, size_t n, double kref) {
  size_t i;

  ns_printf("%-10s %10s %8s %11s %11s %12s %10s %8s %7s\n", "workload", "frames", "wall s",
         "frames/s", "delivered/s", "sim us/s", "events/fr", "RSS MB", "bound");
  for (i = 0; i < n; i++) {
    const struct cli__wl_result *r = &w[i];
    if (r->skipped) {
      ns_printf("%-10s skipped (see stderr)\n", r->name);
      continue;
    }
    char bound[32] = "-";
    double b = cli__bound_ratio(r, kref);
    if (isfinite(b))
      snprintf(bound, sizeof(bound), "%.3f", b);
    ns_printf("%-10s %10.0f %8.3f %11.0f %11.0f %12.1f %10.2f %8.1f %7s\n", r->name, r->pkts,
           r->wall_s, cli__pkts_per_s(r), r->delivered / r->wall_s, r->sim_ns / 1e3 / r->wall_s,
           cli__events_per_pkt(r), r->rss_kb / 1024.0, bound);
  }
}

/* Prints the kernel table on stdout; '*' marks the reference variant. */
static void cli__print_kernel(const struct cli__k_result *k) {
  int i;

  ns_printf("\n%-22s %12s %14s %14s %9s\n", "SystemC kernel", "activations", "deltas/s",
         "activations/s", "ns/delta");
  for (i = 0; i < NICSIM_SC_BENCH__COUNT; i++) {
    const struct cli__k_result *r = &k[i];
    char name[40];
    snprintf(name, sizeof(name), "%s%s", nicsim_sc_bench_name(i),
             i == NICSIM_SC_BENCH_REFERENCE ? " *" : "");
    if (!r->ok) {
      ns_printf("%-22s failed (see stderr)\n", name);
      continue;
    }
    ns_printf("%-22s %12llu %14.0f %14.0f %9.1f\n", name, (unsigned long long)r->k.activations,
           cli__k_rate(r), (double)r->k.activations / r->k.wall_s,
           r->k.wall_s * 1e9 / (double)r->k.deltas);
  }
  ns_printf("* the reference rate of bound_ratio (kernel events/s)\n");
}

/* A JSON real, or null when not finite. */
static json_t *cli__jreal(double v) { return isfinite(v) ? json_real(v) : json_null(); }

/* Sets key in obj, stealing the value; -1 on failure. */
static int cli__jset(json_t *obj, const char *key, json_t *v) {
  return v == NULL ? -1 : json_object_set_new(obj, key, v);
}

/* The JSON object of one workload; NULL on ENOMEM. */
static json_t *cli__wl_json(const struct cli__wl_result *r, double kref) {
  json_t *o = json_object();
  int bad = 0;

  if (o == NULL)
    return NULL;
  bad |= cli__jset(o, "name", json_string(r->name));
  if (r->skipped) {
    bad |= cli__jset(o, "skipped", json_true());
    bad |= cli__jset(o, "reason", json_string(r->reason));
  }
  bad |= cli__jset(o, "source", json_string(r->source));
  bad |= cli__jset(o, "packets_requested", json_integer((json_int_t)r->packets_req));
  if (r->skipped) {
    const char *k[] = {"sim_pkts_per_s", "sim_ns_per_wall_s", "events_per_pkt", "peak_rss_mb",
                       "bound_ratio"};
    size_t i;
    for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
      bad |= cli__jset(o, k[i], json_null());
  } else {
    bad |= cli__jset(o, "sim_pkts_per_s", cli__jreal(cli__pkts_per_s(r)));
    bad |= cli__jset(o, "sim_ns_per_wall_s", cli__jreal(r->sim_ns / r->wall_s));
    bad |= cli__jset(o, "events_per_pkt", cli__jreal(cli__events_per_pkt(r)));
    bad |= cli__jset(o, "peak_rss_mb", cli__jreal(r->rss_kb / 1024.0));
    bad |= cli__jset(o, "bound_ratio", cli__jreal(cli__bound_ratio(r, kref)));
    bad |= cli__jset(o, "delivered_pkts_per_s", cli__jreal(r->delivered / r->wall_s));
    bad |= cli__jset(o, "pkts", json_integer((json_int_t)r->pkts));
    bad |= cli__jset(o, "delivered_pkts", json_integer((json_int_t)r->delivered));
    bad |= cli__jset(o, "events", json_integer((json_int_t)r->events));
    bad |= cli__jset(o, "sim_ns", cli__jreal(r->sim_ns));
    bad |= cli__jset(o, "wall_s", cli__jreal(r->wall_s));
    bad |= cli__jset(o, "runs", json_integer((json_int_t)r->runs));
    bad |= cli__jset(o, "wall_s_slowest", cli__jreal(r->wall_s_slowest));
  }
  if (bad) {
    json_decref(o);
    return NULL;
  }
  return o;
}

/* The "kernel" JSON object; NULL on ENOMEM. */
static json_t *cli__kernel_json(const struct cli__k_result *k) {
  json_t *o = json_object(), *vars = json_array();
  int bad = (o == NULL || vars == NULL), i;

  if (bad) {
    json_decref(o);
    json_decref(vars);
    return NULL;
  }
  bad |= cli__jset(o, "events", json_string("delta cycles (sc_delta_count)"));
  bad |= cli__jset(o, "reference", json_string(nicsim_sc_bench_name(NICSIM_SC_BENCH_REFERENCE)));
  bad |= cli__jset(o, "events_per_s", cli__jreal(cli__k_rate(&k[NICSIM_SC_BENCH_REFERENCE])));
  for (i = 0; i < NICSIM_SC_BENCH__COUNT; i++) {
    json_t *v = json_object();
    if (v == NULL || json_array_append_new(vars, v) != 0) {
      bad = 1;
      break;
    }
    bad |= cli__jset(v, "name", json_string(nicsim_sc_bench_name(i)));
    bad |= cli__jset(v, "what", json_string(nicsim_sc_bench_desc(i)));
    if (!k[i].ok) {
      bad |= cli__jset(v, "failed", json_true());
      bad |= cli__jset(v, "reason", json_string(k[i].reason));
      continue;
    }
    bad |= cli__jset(v, "activations", json_integer((json_int_t)k[i].k.activations));
    bad |= cli__jset(v, "deltas", json_integer((json_int_t)k[i].k.deltas));
    bad |= cli__jset(v, "wall_s", cli__jreal(k[i].k.wall_s));
    bad |= cli__jset(v, "events_per_s", cli__jreal(cli__k_rate(&k[i])));
    bad |= cli__jset(v, "activations_per_s", cli__jreal((double)k[i].k.activations / k[i].k.wall_s));
  }
  bad |= cli__jset(o, "variants", vars);
  if (bad) {
    json_decref(o);
    return NULL;
  }
  return o;
}

/* nicsim_emit_fn: dumps the JSON document arg. */
static int cli__emit_json(FILE *f, void *arg) { return nicsim_json_dump(arg, f); }

/* Writes doc to path; CLI_EXIT_USAGE on failure. Steals doc. */
static int cli__write_json(const char *path, json_t *doc) {
  int rc;

  if (doc == NULL) {
    ns_eprintf("nicsim bench: out of memory building the JSON\n");
    return CLI_EXIT_USAGE;
  }
  rc = nicsim_write_atomic(path, cli__emit_json, doc);
  json_decref(doc);
  if (rc < 0) {
    ns_eprintf("nicsim bench: cannot write %s: %s\n", path, strerror(-rc));
    return CLI_EXIT_USAGE;
  }
  return CLI_EXIT_OK;
}

/* {"online_cpus", "loadavg_1m"}: how busy the machine was (figures taken
 * on a loaded machine are low); NULL on ENOMEM. */
static json_t *cli__machine_json(void) {
  double load[1] = {NAN};
  json_t *o = json_object();

  if (o == NULL)
    return NULL;
  if (getloadavg(load, 1) != 1)
    load[0] = NAN;
  if (cli__jset(o, "online_cpus", json_integer((json_int_t)sysconf(_SC_NPROCESSORS_ONLN))) != 0 ||
      cli__jset(o, "loadavg_1m", cli__jreal(load[0])) != 0) {
    json_decref(o);
    return NULL;
  }
  return o;
}

/* Warns on stderr when other processes share the CPUs: the figures are then low. */
static void cli__warn_load(void) {
  double load[1];
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);

  if (getloadavg(load, 1) == 1 && cpus > 0 && load[0] > 0.5 * (double)cpus)
    ns_eprintf(
            "nicsim bench: note: load average %.2f on %ld CPUs: other processes compete for the CPU, "
            "so these figures are lower and noisier than on an idle machine\n",
            load[0], cpus);
}

/* A new document {"nicsim": version, "machine": {...}, "workloads": [...]} of n results; NULL on ENOMEM. */
static json_t *cli__doc(const struct cli__wl_result *w, size_t n, double kref) {
  json_t *doc = json_object(), *arr = json_array();
  size_t i;
  int bad = (doc == NULL || arr == NULL);

  if (!bad) {
    bad |= cli__jset(doc, "nicsim", json_string(NICSIM_VERSION));
    bad |= cli__jset(doc, "machine", cli__machine_json());
    for (i = 0; i < n && !bad; i++) {
      json_t *o = cli__wl_json(&w[i], kref);
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
static int cli__scaling(unsigned long long n, const char *json, bool quiet) {
  struct cli__wl_result r[2];
  const struct cli__workload *w = cli__find_workload("rx64-10g");
  double rss_ratio, time_ratio, pkts_ratio;
  json_t *doc, *s;
  int bad = 0;

  if (n * 10 > CLI__BENCH_MAX_PACKETS)
    return cli__bench_usage("--scaling: 10 x --packets must be at most %llu frames", CLI__BENCH_MAX_PACKETS);
  cli__run_workload(w, n, quiet, &r[0]);
  cli__run_workload(w, n * 10, quiet, &r[1]);
  cli__print_workloads(r, 2, NAN);
  cli__warn_load();
  if (r[0].skipped || r[1].skipped) {
    ns_eprintf("nicsim bench: --scaling: a run failed; no ratios\n");
    return CLI_EXIT_SIM;
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
    return CLI_EXIT_OK;
  doc = cli__doc(r, 2, NAN);
  s = json_object();
  if (doc == NULL || s == NULL) {
    json_decref(s);
    return cli__write_json(json, doc);
  }
  bad |= cli__jset(s, "packets", json_pack("[II]", (json_int_t)n, (json_int_t)(n * 10)));
  bad |= cli__jset(s, "pkts_ratio", cli__jreal(pkts_ratio));
  bad |= cli__jset(s, "time_ratio", cli__jreal(time_ratio));
  bad |= cli__jset(s, "time_per_pkt_ratio", cli__jreal(time_ratio / pkts_ratio));
  bad |= cli__jset(s, "rss_ratio", cli__jreal(rss_ratio));
  bad |= json_object_set_new(doc, "scaling", s);
  if (bad) {
    json_decref(doc);
    doc = NULL;
  }
  return cli__write_json(json, doc);
}

/* Parses --packets; 0 on a bad value. */
static unsigned long long cli__parse_packets(const char *s) {
  int64_t v;

  if (nc_int_parse(s, 1, CLI__BENCH_MAX_PACKETS, &v) != 0)
    return 0;
  return (unsigned long long)v;
}

/* nicsim bench: workloads and the kernel, or the scaling check. */
int cli_cmd_bench(int argc, char **argv) {
  struct cli_args a;
  const char *json = NULL, *packets_arg = NULL;
  const struct cli__workload *chosen[CLI__NWORKLOADS];
  struct cli__wl_result *res = NULL;
  struct cli__k_result kres[NICSIM_SC_BENCH__COUNT];
  unsigned long long packets = CLI__BENCH_PACKETS;
  uint64_t acts = CLI__BENCH_KERNEL_ACTS;
  bool quick = false, scaling = false, quiet = false;
  const char *repeat_arg = NULL;
  unsigned long long repeat = 1;
  size_t nchosen = 0, i, nran = 0;
  double kref;
  json_t *doc;
  int opt, status;

  cli_args_init(&a, argc, argv, 0);
  while ((opt = cli_next(&a, cli__bench_opts)) != CLI_END) {
    switch (opt) {
    case CLI_ERROR:
      return cli__bench_usage("%s", a.err);
    case CLI_POSITIONAL: {
      const struct cli__workload *w = cli__find_workload(a.arg);
      size_t k;
      if (w == NULL)
        return cli__bench_usage("unknown workload '%s' (the workloads are rx64-10g, bidir1500, "
                                "lan743x, i40e)", a.arg);
      for (k = 0; k < nchosen && chosen[k] != w; k++)
        ;
      if (k == nchosen)
        chosen[nchosen++] = w;
      break;
    }
    case OPT_JSON:
      json = a.arg;
      break;
    case OPT_PACKETS:
      packets_arg = a.arg;
      break;
    case OPT_QUICK:
      quick = true;
      break;
    case OPT_SCALING:
      scaling = true;
      break;
    case OPT_QUIET:
      quiet = true;
      break;
    case OPT_REPEAT:
      repeat_arg = a.arg;
      break;
    case OPT_HELP:
      cli_help_bench(stdout);
      return CLI_EXIT_OK;
    }
  }
  if (quick) {
    packets = CLI__BENCH_QUICK_PACKETS;
    acts = CLI__BENCH_QUICK_KERNEL_ACTS;
  }
  if (packets_arg != NULL) {
    packets = cli__parse_packets(packets_arg);
    if (packets == 0)
      return cli__bench_usage("--packets expects a whole number of frames from 1 to %llu, got '%s'",
                              CLI__BENCH_MAX_PACKETS, packets_arg);
  }
  if (repeat_arg != NULL) {
    repeat = cli__parse_packets(repeat_arg);
    if (repeat == 0 || repeat > CLI__BENCH_MAX_REPEAT)
      return cli__bench_usage("--repeat expects a whole number of runs from 1 to %d, got '%s'",
                              CLI__BENCH_MAX_REPEAT, repeat_arg);
  }
  if (json != NULL && (status = cli_check_output_path("bench", "JSON", json)) != 0)
    return status;
  if (scaling) {
    if (nchosen > 0)
      return cli__bench_usage("--scaling runs rx64-10g only; no workload names go with it");
    if (repeat_arg != NULL)
      return cli__bench_usage("--scaling runs each size once; --repeat does not go with it");
    return cli__scaling(packets, json, quiet);
  }
  if (nchosen == 0)
    for (i = 0; i < CLI__NWORKLOADS; i++)
      chosen[nchosen++] = &cli__workloads[i];

  res = calloc(nchosen, sizeof(*res));
  if (res == NULL) {
    ns_eprintf("nicsim bench: out of memory\n");
    return CLI_EXIT_USAGE;
  }
  for (i = 0; i < nchosen; i++) {
    cli__run_workload(chosen[i], packets, quiet, &res[i]);
    for (unsigned long long k = 1; k < repeat && !res[i].skipped; k++) {
      struct cli__wl_result again;
      cli__run_workload(chosen[i], packets, true, &again);
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
    cli__run_kernel((int)i, acts, quiet, &kres[i]);
    for (unsigned long long k = 1; k < repeat && kres[i].ok; k++) {
      struct cli__k_result again;
      cli__run_kernel((int)i, acts, true, &again);
      if (!again.ok) {
        kres[i] = again;
        break;
      }
      if (cli__k_rate(&again) > cli__k_rate(&kres[i])) kres[i] = again;
    }
  }
  kref = cli__k_rate(&kres[NICSIM_SC_BENCH_REFERENCE]);

  cli__print_workloads(res, nchosen, kref);
  cli__print_kernel(kres);
  cli__warn_load();
  status = nran > 0 ? CLI_EXIT_OK : CLI_EXIT_SIM;
  if (nran == 0)
    ns_eprintf("nicsim bench: no workload ran\n");
  if (json != NULL) {
    json_t *k = cli__kernel_json(kres);
    doc = cli__doc(res, nchosen, kref);
    if (doc == NULL || k == NULL || json_object_set_new(doc, "kernel", k) != 0) {
      if (doc == NULL)
        json_decref(k); /* else set_new took it, even on failure */
      json_decref(doc);
      doc = NULL;
    }
    int wrc = cli__write_json(json, doc);
    if (wrc != CLI_EXIT_OK)
      status = wrc;
  }
  free(res);
  return status;
}
