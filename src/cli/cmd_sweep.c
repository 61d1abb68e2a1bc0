/* cmd_sweep.c: `nicsim sweep`: every sweep point in its own forked child
 * (results back through a pipe), -j at a time, outputs in point order.
 * cli_sweep_exec also runs `nicsim demo` and each entry of `nicsim regress`. */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "config/sweep.h"
#include "results/input.h"
#include "results/output.h"
#include "sim/sim.h"

enum { OPT_SET = 1, OPT_OUT, OPT_JOBS, OPT_QUIET, OPT_HELP, OPT_DRY, OPT_RESUME, OPT_FORCE,
       OPT_SHARD, OPT_OVERLAY };

static const struct cli_opt cli__sweep_opts[] = {
    {"set", 's', true, OPT_SET},       {"output", 'o', true, OPT_OUT},
    {"jobs", 'j', true, OPT_JOBS},     {"quiet", 'q', false, OPT_QUIET},
    {"help", 'h', false, OPT_HELP},    {"dry-run", 'n', false, OPT_DRY},
    {"resume", 'r', false, OPT_RESUME}, {"force", 'f', false, OPT_FORCE},
    {"shard", 0, true, OPT_SHARD},     {"overlay", 'O', true, OPT_OVERLAY},
    {NULL, 0, false, 0},
};

/* The --help text of nicsim sweep. */
void cli_help_sweep(FILE *f) {
  fprintf(f,
          "%s\n\n"
          "Simulates every point of the scenario's sweep (its 'sweep:' section), each\n"
          "in its own child process, up to N at a time. Results are ordered by point\n"
          "index, so the output files are the same whatever -j. A failing point is\n"
          "reported on stderr and the sweep goes on; the exit status is then 1.\n"
          "\n"
          "Options:\n"
          "  -o, --output DIR     Output directory (default: nicsim-out/<scenario name>),\n"
          "                       created if missing\n"
          "  -j, --jobs N         Points simulated in parallel (default: online CPUs)\n"
          "  -s, --set KEY=VALUE  Override a config key in every point (may repeat)\n"
          "  -O, --overlay FILE   Apply an overlay file to every point (may repeat), after\n"
          "                       the sweep point and before --set (docs/config.md)\n"
          "  -n, --dry-run        List the points (index, label, swept keys) and exit\n"
          "  -r, --resume         Skip points whose results DIR already holds (same config)\n"
          "  -f, --force          Replace the results of a different sweep found in DIR\n"
          "      --shard K/N      Run only slice K of N (points i with i mod N = K-1);\n"
          "                       combine the slices with 'nicsim merge'\n"
          "  -q, --quiet          No progress on stderr (errors still shown)\n"
          "  -h, --help           Show this help\n"
          "\n"
          "Output:\n"
          "  DIR/sweep.json                  what was swept: scenario, config hash, labels,\n"
          "                                  swept keys, plots (read by merge, plot, report)\n"
          "  DIR/results.csv                 one row per successful point: label, the\n"
          "                                  swept keys, every metric\n"
          "  DIR/points/<index>-<label>.json the config and metrics of each point\n"
          "  stdout                          a table of the headline figures per point\n"
          "\n"
          "Exit status: 0 all points succeeded, 1 a point failed (simulation error or\n"
          "crash), 2 bad input (no sweep, invalid point, unwritable output).\n"
          "\n"
          "Example:\n"
          "  nicsim sweep my-sweep.yaml -j 4 -o out/my-sweep\n",
          cli_synopsis("sweep"));
}

/* What a child sends back: the whole message, or nothing usable. */
struct cli__msg {
  uint32_t magic;
  int rc;
  struct nicsim_sim_error err;
  struct nicsim_results res;
};
#define CLI__MSG_MAGIC 0x6e53774bu

/* A running child. */
struct cli__job {
  pid_t pid;
  int fd;
  size_t point;
  size_t got;
  struct cli__msg *msg;
  struct timespec t0;
};

/* One sweep: its inputs and what has come back so far. Configs are resolved
 * again whenever needed (tens of microseconds) rather than kept per point. */
struct cli__sweep {
  int lock_fd;              /* the directory's lock: the parent's alone, not the workers' */
  const struct nc_scenario *scen;
  const struct cli_sets *sets;
  size_t n;
  bool *done;               /* the point succeeded: its results are in its file */
  struct nicsim_config *cfg; /* scratch: the point being handled */
  struct nicsim_results *res; /* scratch: a point's results read back */
  struct nicsim_config *file_cfg; /* scratch: the config a point file holds */
  const char *dir;
  int digits; /* width of the index in point file names */
  bool quiet;
  size_t finished;
  bool failed, write_failed;
  size_t *mine;   /* the points of this shard (all without --shard), in order */
  size_t nmine;
  bool *skip;     /* per point: not to be run (another shard's, or resumed) */
  size_t ntorun, nrun_done, nrun_failed; /* this invocation's simulations */
  bool bar;       /* a progress bar (stderr is a terminal) */
  struct timespec t0;
};

/* Point i's index for resolving: -1 (the base) for the one point of a
 * scenario without a sweep (cli_sweep_opts.one_point). */
static long cli__index(const struct nc_scenario *scen, size_t i) {
  return nc_scenario_npoints(scen) > 0 ? (long)i : -1;
}

/* Point i's label: "" for the one point of a scenario without a sweep. */
static const char *cli__plabel(const struct nc_scenario *scen, size_t i) {
  const char *label = nc_scenario_point_label(scen, i);
  return label ? label : "";
}

/* Resolves point i into s->cfg; it resolved once already, so an error here
 * is unexpected (and printed). */
static struct nicsim_config *cli__cfg(struct cli__sweep *s, size_t i) {
  return cli_resolve(s->scen, cli__index(s->scen, i), s->sets, s->cfg) == 0 ? s->cfg : NULL;
}

static void cli__point_path(const struct cli__sweep *s, size_t i, char *buf, size_t n);

/* nicsim_point_fn over the sweep's points, for the CSV and the table. */
static int cli__get_point(void *arg, size_t i, struct nicsim_point *out) {
  struct cli__sweep *s = arg;

  if (i >= s->nmine)
    return -EINVAL;
  i = s->mine[i];

  out->cfg = cli__cfg(s, i);
  if (out->cfg == NULL)
    return -EINVAL;
  out->res = NULL;
  if (s->done[i]) {
    /* Read back from the point's file: a sweep holds no point's results in
     * memory, so its footprint does not grow with the number of points. */
    char path[NC_PATH_MAX + 256], why[512];
    json_t *doc = NULL;
    int rc;
    cli__point_path(s, i, path, sizeof(path));
    rc = nicsim_point_json_read(path, s->file_cfg, s->res, &doc, why, sizeof(why));
    json_decref(doc);
    if (rc != 0) {
      cli_eprintf("nicsim sweep: cannot read back %s: %s\n", path, why);
      return -EIO;
    }
    out->cfg = cli__cfg(s, i); /* the read may not touch s->cfg, but be sure */
    out->res = s->res;
  }
  return 0;
}

/* Seconds since t0. */
static double cli__elapsed(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* Writes all of buf to fd; 0 or -errno. */
static int cli__write_all(int fd, const void *buf, size_t len) {
  const char *p = buf;
  while (len > 0) {
    ssize_t n = write(fd, p, len);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return -errno;
    }
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

/* The child: simulate one point, send the message, exit without running
 * the parent's atexit handlers or flushing its stdio buffers. */
static void cli__child(int wfd, const struct nicsim_config *cfg) {
  struct cli__msg *m = calloc(1, sizeof(*m));

  /* stdout belongs to the parent's table: anything the model prints goes
   * to stderr instead. */
  dup2(STDERR_FILENO, STDOUT_FILENO);
  signal(SIGPIPE, SIG_DFL);
  if (m == NULL)
    _exit(3);
  m->magic = CLI__MSG_MAGIC;
  nicsim_results_init(&m->res);
  m->rc = nicsim_simulate(cfg, &m->res, &m->err, 0);
  fflush(stdout);
  fflush(stderr);
  _exit(cli__write_all(wfd, m, sizeof(*m)) == 0 ? 0 : 4);
}

/* Path of point i's JSON file in buf. */
static void cli__point_path(const struct cli__sweep *s, size_t i, char *buf, size_t n) {
  cli_point_file(s->dir, i, s->digits, cli__plabel(s->scen, i), buf, n);
}

/* Redraws the progress bar (terminal only): points done/total, failures, ETA. */
static void cli__bar(struct cli__sweep *s) {
  char bar[31], eta[32] = "--:--";
  size_t total = s->ntorun ? s->ntorun : 1, fill = 30 * s->nrun_done / total, k;
  double el = cli__elapsed(&s->t0);

  if (!s->bar)
    return;
  for (k = 0; k < 30; k++)
    bar[k] = k < fill ? '#' : '.';
  bar[30] = '\0';
  if (s->nrun_done > 0 && s->nrun_done < s->ntorun) {
    long left = (long)(el / (double)s->nrun_done * (double)(s->ntorun - s->nrun_done) + 0.5);
    snprintf(eta, sizeof(eta), "%ld:%02ld", left / 60, left % 60);
  } else if (s->nrun_done >= s->ntorun) {
    snprintf(eta, sizeof(eta), "0:00");
  }
  /* Our own control sequence, then text with nothing from outside. */
  fputs("\r\033[K", stderr);
  cli_eprintf("[%s] %zu/%zu points, %zu failed, ETA %s, %.0f s", bar, s->nrun_done,
          s->ntorun, s->nrun_failed, eta, el);
  fflush(stderr);
}

/* Clears the bar's line before a message (terminal only). */
static void cli__bar_clear(const struct cli__sweep *s) {
  if (s->bar)
    fputs("\r\033[K", stderr);
}

/* The label of point i for messages. */
static const char *cli__label(const struct cli__sweep *s, size_t i) {
  const char *label = nc_scenario_point_label(s->scen, i);
  return label && label[0] ? label : "(unlabelled)";
}

/* Records a failed point: message on stderr, stale JSON removed. */
static void cli__point_failed(struct cli__sweep *s, size_t i, const char *why) {
  char path[NC_PATH_MAX + 256];

  s->failed = true;
  s->finished++;
  s->nrun_done++;
  s->nrun_failed++;
  cli__bar_clear(s);
  cli_eprintf("[%zu/%zu] %s: FAILED: %s\n", s->finished, s->nmine, cli__label(s, i), why);
  cli__bar(s);
  cli__point_path(s, i, path, sizeof(path));
  if (unlink(path) != 0 && errno != ENOENT)
    cli_eprintf("nicsim sweep: cannot remove stale %s: %s\n", path, strerror(errno));
}

/* Records a successful point: progress line and its JSON file. */
static void cli__point_done(struct cli__sweep *s, size_t i, const struct nicsim_results *res,
                            double secs) {
  const struct nicsim_config *c;
  char path[NC_PATH_MAX + 256];
  double rx = 0, tx = 0;
  int rc;

  s->finished++;
  s->nrun_done++;
  c = cli__cfg(s, i);
  if (c == NULL) {
    s->write_failed = true;
    return;
  }
  if (!s->quiet && !s->bar) {
    bool have_rx = nicsim_results_get(res, "rx.gbps", &rx);
    bool have_tx = nicsim_results_get(res, "tx.gbps", &tx);
    cli_eprintf("[%zu/%zu] %s:", s->finished, s->nmine, cli__label(s, i));
    if (c->traffic.mode != NC_MODE_TX && have_rx)
      cli_eprintf(" rx %.2f%s", rx, c->traffic.mode == NC_MODE_BIDIR ? "," : "");
    if (c->traffic.mode != NC_MODE_RX && have_tx)
      cli_eprintf(" tx %.2f", tx);
    cli_eprintf(" Gbit/s (%.1f s)\n", secs);
  }
  cli__point_path(s, i, path, sizeof(path));
  rc = nicsim_json_write(path, NICSIM_VERSION, c, res);
  if (rc < 0) {
    cli__bar_clear(s);
    cli_eprintf("nicsim sweep: cannot write %s: %s\n", path, strerror(-rc));
    s->write_failed = true;
  } else {
    s->done[i] = true;
  }
  cli__bar(s);
}

/* Starts point i in a child; on failure reports the point failed. */
static int cli__spawn(struct cli__sweep *s, size_t i, struct cli__job *job,
                      const struct cli__job *running, size_t nrunning) {
  int fds[2];
  size_t k;
  char why[256];

  memset(job, 0, sizeof(*job));
  job->fd = -1;
  job->point = i;
  job->msg = malloc(sizeof(*job->msg));
  if (job->msg == NULL) {
    cli__point_failed(s, i, "out of memory");
    return -1;
  }
  if (cli__cfg(s, i) == NULL) {
    snprintf(why, sizeof(why), "its configuration no longer resolves");
    goto fail;
  }
  if (pipe(fds) != 0) {
    snprintf(why, sizeof(why), "cannot create a pipe: %s", strerror(errno));
    goto fail;
  }
  fflush(stdout);
  fflush(stderr);
  clock_gettime(CLOCK_MONOTONIC, &job->t0);
  job->pid = fork();
  if (job->pid < 0) {
    snprintf(why, sizeof(why), "cannot start a worker process: %s", strerror(errno));
    close(fds[0]);
    close(fds[1]);
    goto fail;
  }
  if (job->pid == 0) {
    /* A worker does not hold the directory's lock: when the sweep is killed,
     * the lock goes with it (a worker writes no file, only to its pipe). */
    if (s->lock_fd >= 0)
      close(s->lock_fd);
    close(fds[0]);
    for (k = 0; k < nrunning; k++)
      close(running[k].fd);
    cli__child(fds[1], s->cfg);
  }
  close(fds[1]);
  job->fd = fds[0];
  return 0;
fail:
  free(job->msg);
  job->msg = NULL;
  cli__point_failed(s, i, why);
  return -1;
}

/* Reaps a child whose pipe reached EOF and records the point's outcome. */
static void cli__finish(struct cli__sweep *s, struct cli__job *job) {
  int wstatus = 0;
  pid_t r;
  char why[1024];
  double secs = cli__elapsed(&job->t0);

  close(job->fd);
  job->fd = -1;
  do
    r = waitpid(job->pid, &wstatus, 0);
  while (r < 0 && errno == EINTR);

  if (r < 0) {
    snprintf(why, sizeof(why), "lost the worker process: %s", strerror(errno));
  } else if (WIFSIGNALED(wstatus)) {
    snprintf(why, sizeof(why), "worker process killed by signal %d (%s)", WTERMSIG(wstatus),
             strsignal(WTERMSIG(wstatus)));
  } else if (job->got != sizeof(*job->msg) || job->msg->magic != CLI__MSG_MAGIC) {
    snprintf(why, sizeof(why), "worker process exited with status %d before sending results",
             WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
  } else if (job->msg->rc != 0) {
    cli_format_sim_error(&job->msg->err, why, sizeof(why));
  } else {
    if (job->msg->res.nextra > NICSIM_MAX_EXTRA_METRICS)
      job->msg->res.nextra = NICSIM_MAX_EXTRA_METRICS;
    cli__point_done(s, job->point, &job->msg->res, secs);
    goto out;
  }
  cli__point_failed(s, job->point, why);
out:
  free(job->msg);
  job->msg = NULL;
}

/* Runs every point, at most jobs at a time; returns when all are done. */
static void cli__run_all(struct cli__sweep *s, size_t jobs) {
  struct cli__job *run = calloc(jobs, sizeof(*run));
  struct pollfd *pfd = calloc(jobs, sizeof(*pfd));
  size_t next = 0, nrun = 0, k;

  if (run == NULL || pfd == NULL) {
    for (; next < s->n; next++)
      if (!s->skip[next])
        cli__point_failed(s, next, "out of memory");
    goto out;
  }
  while (next < s->n || nrun > 0) {
    while (nrun < jobs && next < s->n) {
      if (!s->skip[next] && cli__spawn(s, next, &run[nrun], run, nrun) == 0)
        nrun++;
      next++;
    }
    if (nrun == 0)
      continue;
    for (k = 0; k < nrun; k++) {
      pfd[k].fd = run[k].fd;
      pfd[k].events = POLLIN;
      pfd[k].revents = 0;
    }
    k = (size_t)poll(pfd, nrun, s->bar ? 1000 : -1);
    if (k == 0) {
      cli__bar(s); /* a tick: elapsed time and ETA move on */
      continue;
    }
    if (k == (size_t)-1) {
      if (errno == EINTR)
        continue;
      perror("nicsim sweep: poll");
      exit(CLI_EXIT_USAGE);
    }
    for (k = nrun; k-- > 0;) {
      struct cli__job *job = &run[k];
      ssize_t got;
      char sink[4096];

      if (pfd[k].revents == 0)
        continue;
      if (job->got < sizeof(*job->msg))
        got = read(job->fd, (char *)job->msg + job->got, sizeof(*job->msg) - job->got);
      else
        got = read(job->fd, sink, sizeof(sink)); /* more than a message: ignored */
      if (got < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (got > 0) {
        if (job->got < sizeof(*job->msg))
          job->got += (size_t)got;
        continue;
      }
      /* EOF (or a read error): the child is done. */
      cli__finish(s, job);
      run[k] = run[--nrun];
      pfd[k] = pfd[nrun];
    }
  }
out:
  free(run);
  free(pfd);
}

/* Warns when a --set overrides a key the sweep varies. */
static void cli__warn_swept_sets(const struct nc_scenario *scen, const struct cli_sets *sets) {
  size_t i, k;

  for (i = 0; i < sets->n; i++) {
    const char *eq = strchr(sets->v[i], '=');
    size_t len = (size_t)(eq - sets->v[i]);
    for (k = 0; k < nc_scenario_nswept(scen); k++) {
      const char *key = nc_scenario_swept_key(scen, k);
      if (strlen(key) == len && strncmp(key, sets->v[i], len) == 0)
        cli_eprintf(
                "nicsim sweep: warning: --set %s overrides the swept key %s in every point\n",
                sets->v[i], key);
    }
  }
}

/* Parses -j's value: a positive integer. */
static int cli__parse_jobs(const char *s, size_t *out) {
  int64_t v;

  if (nc_int_parse(s, 1, 4096, &v) != 0)
    return cli_usage_error("sweep", "-j expects a number of processes from 1 to 4096, got '%s'", s);
  *out = (size_t)v;
  return 0;
}

/* Parses --shard K/N (1 <= K <= N <= 100000), each a whole number. */
static int cli__parse_shard(const char *s, size_t *k, size_t *n) {
  char a[32];
  const char *slash = strchr(s, '/');
  int64_t kv = 0, nv = 0;

  if (slash == NULL || (size_t)(slash - s) >= sizeof(a) ||
      (memcpy(a, s, (size_t)(slash - s)), a[slash - s] = '\0', nc_int_parse(a, 1, 100000, &kv)) != 0 ||
      nc_int_parse(slash + 1, 1, 100000, &nv) != 0 || kv > nv)
    return cli_usage_error("sweep",
                           "--shard expects K/N with 1 <= K <= N <= 100000, e.g. 2/8, got '%s'", s);
  *k = (size_t)kv;
  *n = (size_t)nv;
  return 0;
}

/* The plots the scenario declares, as JSON for the manifest. */
static json_t *cli__plots_json(const struct nc_scenario *scen) {
  json_t *arr = json_array();
  size_t i, q;

  for (i = 0; arr && i < nc_scenario_nplots(scen); i++) {
    const struct nc_plot *p = nc_scenario_plot(scen, i);
    json_t *y = json_array();
    for (q = 0; y && q < p->ny; q++)
      json_array_append_new(y, json_string(p->y[q]));
    json_array_append_new(
        arr, json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:b, s:b, s:s, s:s}", "name", p->name,
                       "title", p->title, "x", p->x, "series", p->series, "y", y ? y : json_null(),
                       "kind", p->kind == NC_PLOT_BAR ? "bar" : "line", "logx", p->logx, "logy",
                       p->logy, "xlabel", p->xlabel, "ylabel", p->ylabel));
  }
  return arr;
}

/* Emits a JSON document (nicsim_emit_fn). */
static int cli__emit_json(FILE *f, void *arg) { return nicsim_json_dump(arg, f); }

/* Removes temporary files a killed sweep left in DIR/points (".NAME.tmp.XXXXXX"). */
static void cli__remove_stale_tmp(const char *dir) {
  char path[NC_PATH_MAX + 300];
  DIR *d;
  struct dirent *e;

  snprintf(path, sizeof(path), "%s/points", dir);
  if ((d = opendir(path)) == NULL)
    return;
  while ((e = readdir(d)) != NULL)
    if (e->d_name[0] == '.' && strstr(e->d_name, ".json.tmp.") != NULL) {
      snprintf(path, sizeof(path), "%s/points/%s", dir, e->d_name);
      unlink(path);
    }
  closedir(d);
}

/* --resume: a point whose file holds the same config is kept, not rerun. */
static bool cli__resume_point(struct cli__sweep *s, size_t i) {
  char path[NC_PATH_MAX + 256], why[512];
  json_t *doc = NULL, *want;
  struct nicsim_config *tmp = calloc(1, sizeof(*tmp));
  bool same = false;

  cli__point_path(s, i, path, sizeof(path));
  if (tmp == NULL || access(path, F_OK) != 0 || cli__cfg(s, i) == NULL) {
    free(tmp);
    return false;
  }
  if (nicsim_point_json_read(path, tmp, s->res, &doc, why, sizeof(why)) != 0) {
    cli_eprintf("nicsim sweep: rerunning %s: %s\n", cli__label(s, i), why);
  } else {
    want = nicsim_config_to_json(s->cfg);
    same = want != NULL && json_equal(want, json_object_get(doc, "config"));
    json_decref(want);
    if (!same) {
      cli_eprintf("nicsim sweep: rerunning %s: %s holds another configuration\n",
              cli__label(s, i), path);
    } else if (cli_point_metrics_check(path, tmp, s->res, why, sizeof(why)) != 0) {
      cli_eprintf("nicsim sweep: rerunning %s: %s\n", cli__label(s, i), why);
      same = false;
    } else {
      s->done[i] = true;
    }
  }
  json_decref(doc);
  free(tmp);
  return same;
}

/* Prints the points (of this shard) for --dry-run: index, label, swept keys. */
static void cli__dry_run(struct cli__sweep *s, const char *const *keys, size_t nkeys) {
  size_t j, k, wl = 5, wi = (size_t)s->digits;
  char val[NC_PATH_MAX];

  for (j = 0; j < s->nmine; j++) {
    size_t l = strlen(cli__label(s, s->mine[j]));
    wl = l > wl ? l : wl;
  }
  cli_printf("%-*s  %-*s", (int)wi, "#", (int)wl, "label");
  for (k = 0; k < nkeys; k++)
    cli_printf("  %s", keys[k]);
  cli_printf("\n");
  for (j = 0; j < s->nmine; j++) {
    const struct nicsim_config *c = cli__cfg(s, s->mine[j]);
    cli_printf("%*zu  %-*s", (int)wi, s->mine[j], (int)wl, cli__label(s, s->mine[j]));
    for (k = 0; k < nkeys && c != NULL; k++) {
      const struct nc_key *key = nc_key_find(keys[k]);
      if (key)
        nc_value_format(c, key, val, sizeof(val));
      else
        snprintf(val, sizeof(val), "%s", strcmp(keys[k], "platform") == 0 ? c->platform : "");
      cli_printf("  %*s", (int)strlen(keys[k]), val);
    }
    cli_printf("\n");
  }
}

/* True if point i is among o->only (every point without it). */
static bool cli__wanted(const struct cli_sweep_opts *o, size_t i) {
  size_t k;
  if (o->only == NULL)
    return true;
  for (k = 0; k < o->nonly; k++)
    if (o->only[k] == i)
      return true;
  return false;
}

/* Runs one sweep (see struct cli_sweep_opts). */
int cli_sweep_exec(const struct cli_sweep_opts *o, char *dirout, size_t dirn) {
  char dirbuf[NC_PATH_MAX], pointsdir[NC_PATH_MAX + 16], csv[NC_PATH_MAX + 16], name[NC_STR_MAX];
  char manifest[NC_PATH_MAX + 16], hash[32], why[2 * NC_PATH_MAX + 512];
  const char *keys[NC_KEY__COUNT + 1];
  const char *outdir = o->outdir, *path = o->path;
  struct nc_scenario *scen = NULL;
  struct cli__sweep s;
  struct nc_error err;
  size_t jobs = o->jobs, nkeys = 0, i, nfailed = 0, nresumed = 0;
  uint64_t h = CLI_HASH_BASIS;
  json_t *man = NULL, *labels = NULL, *swept = NULL, *point_hashes = NULL;
  int lock_fd = -1;
  long ncpu;
  int status, rc;

  memset(&s, 0, sizeof(s));
  s.lock_fd = -1;
  if (dirout && dirn)
    dirout[0] = '\0';
  if (jobs == 0) {
    ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    jobs = ncpu > 0 ? (size_t)ncpu : 1;
  }
  if (o->builtin) {
    memset(&err, 0, sizeof(err));
    if (nc_scenario_load_builtin(path, &scen, &err) != 0) {
      nc_error_print(&err, stderr);
      status = CLI_EXIT_USAGE;
      goto out;
    }
    for (i = 0; i < o->overlays.n; i++) {
      memset(&err, 0, sizeof(err));
      if (nc_scenario_add_overlay(scen, o->overlays.v[i], &err) != 0) {
        nc_error_print(&err, stderr);
        status = CLI_EXIT_USAGE;
        goto out;
      }
    }
  } else if ((status = cli_load_overlaid("sweep", path, &o->overlays, &scen)) != 0) {
    goto out;
  }
  s.n = nc_scenario_npoints(scen);
  if (s.n == 0 && o->one_point)
    s.n = 1; /* the base point, label "" */
  if (s.n == 0) {
    cli_eprintf(
            "nicsim sweep: %s has no sweep (no 'sweep:' section); use 'nicsim run' for one "
            "point\n",
            path);
    status = CLI_EXIT_USAGE;
    goto out;
  }
  cli__warn_swept_sets(scen, &o->sets);
  if ((status = cli_check_plots(scen)) != 0)
    goto out;

  /* Every point must resolve before any is simulated; the hash covers them all. */
  s.scen = scen;
  s.sets = &o->sets;
  s.done = calloc(s.n, sizeof(*s.done));
  s.mine = calloc(s.n, sizeof(*s.mine));
  s.skip = calloc(s.n, sizeof(*s.skip));
  s.cfg = calloc(1, sizeof(*s.cfg));
  s.res = calloc(1, sizeof(*s.res));
  s.file_cfg = calloc(1, sizeof(*s.file_cfg));
  labels = json_array();
  swept = json_array();
  point_hashes = json_array();
  if (s.done == NULL || s.cfg == NULL || s.res == NULL || s.file_cfg == NULL || s.mine == NULL || s.skip == NULL ||
      labels == NULL || swept == NULL || point_hashes == NULL) {
    cli_eprintf("nicsim sweep: out of memory\n");
    status = CLI_EXIT_USAGE;
    goto out;
  }
  h = cli_hash_text(h, NICSIM_VERSION); /* builds never mix */
  for (i = 0; i < s.n; i++) {
    if ((status = cli_resolve(scen, cli__index(scen, i), &o->sets, s.cfg)) != 0)
      goto out;
    uint64_t ph = CLI_HASH_BASIS;
    char phex[32];
    if (cli_hash_config(s.cfg, &h) != 0 || cli_hash_config(s.cfg, &ph) != 0 ||
        snprintf(phex, sizeof(phex), "%016llx", (unsigned long long)ph) < 0 ||
        json_array_append_new(point_hashes, json_string(phex)) != 0 ||
        json_array_append_new(labels, json_string(cli__plabel(scen, i))) != 0) {
      cli_eprintf("nicsim sweep: out of memory\n");
      status = CLI_EXIT_USAGE;
      goto out;
    }
    if ((o->shard_n == 0 || i % o->shard_n == o->shard_k - 1) && cli__wanted(o, i))
      s.mine[s.nmine++] = i;
    else
      s.skip[i] = true;
  }
  snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)h);
  snprintf(name, sizeof(name), "%s", s.cfg->name); /* the same in every point */
  for (i = 0; i < nc_scenario_nswept(scen) && nkeys < NC_KEY__COUNT; i++) {
    keys[nkeys++] = nc_scenario_swept_key(scen, i);
    json_array_append_new(swept, json_string(keys[nkeys - 1]));
  }
  s.digits = cli_point_digits(s.n);

  if (o->dry_run) {
    cli__dry_run(&s, keys, nkeys);
    cli_eprintf("nicsim: %s: %zu points%s, config hash %s (dry run: nothing simulated)\n",
            name[0] ? name : path, s.nmine, o->shard_n ? " in this shard" : "", hash);
    status = CLI_EXIT_OK;
    goto out;
  }

  if (outdir == NULL) {
    char safe[128];
    cli_sanitise(name[0] ? name : "scenario", safe, sizeof(safe));
    snprintf(dirbuf, sizeof(dirbuf), "nicsim-out/%s", safe);
    outdir = dirbuf;
  }
  /* Every file name below DIR must fit its buffer whole (issue 23, #2). */
  if (strlen(outdir) >= NC_PATH_MAX - 32) {
    status = cli_usage_error("sweep", "-o DIR is %zu bytes long; the limit is %d", strlen(outdir),
                             NC_PATH_MAX - 33);
    goto out;
  }
  if (dirout && dirn)
    snprintf(dirout, dirn, "%s", outdir);

  /* A running sweep owns its directory: a second one into it waits for
   * nothing and mixes nothing, it exits 2 naming the holder. */
  if ((status = cli_sweepdir_lock("sweep", outdir, &lock_fd)) != 0)
    goto out;
  /* Its files may not replace an input (the scenario, a platform file). */
  snprintf(manifest, sizeof(manifest), "%s/sweep.json", outdir);
  snprintf(csv, sizeof(csv), "%s/results.csv", outdir);
  if ((status = cli_check_not_input("sweep", "DIR/sweep.json", manifest, scen)) != 0 ||
      (status = cli_check_not_input("sweep", "DIR/results.csv", csv, scen)) != 0)
    goto out;
  /* Never mix two sweeps' results in one directory. */
  switch (cli_sweepdir_owner(outdir, hash, name, o->regress_entry, why, sizeof(why))) {
  case CLI_DIR_OTHER:
    if (!o->force) {
      cli_eprintf("nicsim sweep: %s\n  hint: use another -o DIR, or --force to replace them\n",
              why);
      status = CLI_EXIT_USAGE;
      goto out;
    }
    cli_eprintf("nicsim sweep: --force: removing the other sweep's results from %s\n",
            outdir);
    cli_sweepdir_clear(outdir);
    break;
  case CLI_DIR_OWN: /* regress's own earlier run of this entry */
    cli_sweepdir_clear(outdir);
    break;
  default:
    break;
  }

  snprintf(pointsdir, sizeof(pointsdir), "%s/points", outdir);
  if ((rc = cli_mkdir_p(pointsdir)) < 0) {
    cli_eprintf("nicsim sweep: cannot create %s: %s\n", pointsdir, strerror(-rc));
    status = CLI_EXIT_USAGE;
    goto out;
  }
  snprintf(csv, sizeof(csv), "%s/results.csv", outdir);
  if ((status = cli_check_output_path("sweep", "CSV", csv)) != 0)
    goto out;

  /* The manifest goes first: a killed sweep can be resumed, merged, plotted. */
  man = json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:O, s:O, s:o, s:o, s:O}", "nicsim", NICSIM_VERSION,
                  "scenario", name, "description", s.cfg->description, "file", path, "hash",
                  hash, "points", (json_int_t)s.n, "swept", swept, "labels", labels, "baseline",
                  nc_scenario_baseline(scen) >= 0
                      ? json_integer((json_int_t)nc_scenario_baseline(scen))
                      : json_null(),
                  "plots", cli__plots_json(scen), "point_hashes", point_hashes);
  /* A regress entry's directory says so: the next run may replace it. */
  if (man != NULL && o->regress_entry != NULL &&
      json_object_set_new(man, "regress", json_string(o->regress_entry)) != 0) {
    json_decref(man);
    man = NULL;
  }
  if (man == NULL) {
    cli_eprintf("nicsim sweep: out of memory\n");
    status = CLI_EXIT_USAGE;
    goto out;
  }
  snprintf(manifest, sizeof(manifest), "%s/sweep.json", outdir);
  if ((rc = nicsim_write_atomic(manifest, cli__emit_json, man)) < 0) {
    cli_eprintf("nicsim sweep: cannot write %s: %s\n", manifest, strerror(-rc));
    status = CLI_EXIT_USAGE;
    goto out;
  }

  cli__remove_stale_tmp(outdir);
  s.lock_fd = lock_fd;
  s.dir = outdir;
  s.quiet = o->quiet;
  if (o->resume)
    for (i = 0; i < s.nmine; i++)
      if (cli__resume_point(&s, s.mine[i])) {
        s.skip[s.mine[i]] = true;
        nresumed++;
      }
  s.finished = nresumed;
  s.ntorun = s.nmine - nresumed;
  s.bar = !o->quiet && isatty(STDERR_FILENO);
  clock_gettime(CLOCK_MONOTONIC, &s.t0);
  if (!o->quiet) {
    cli_eprintf("nicsim: sweeping %s: %zu points", name[0] ? name : path, s.nmine);
    if (o->shard_n)
      cli_eprintf(" (shard %zu/%zu of %zu)", o->shard_k, o->shard_n, s.n);
    if (nresumed)
      cli_eprintf(", %zu already done", nresumed);
    cli_eprintf(", %zu at a time, into %s/\n", jobs < s.ntorun ? jobs : s.ntorun, outdir);
  }
  cli__bar(&s);
  cli__run_all(&s, jobs);
  cli__bar_clear(&s);

  for (i = 0; i < s.nmine; i++)
    nfailed += !s.done[s.mine[i]];
  rc = nicsim_csv_write_each(csv, keys, nkeys, s.nmine, cli__get_point, &s);
  if (rc < 0) {
    cli_eprintf("nicsim sweep: cannot write %s: %s\n", csv, strerror(-rc));
    s.write_failed = true;
  }
  if (!o->no_table &&
      nicsim_sweep_table_print_each(stdout, keys, nkeys, s.nmine, cli__get_point, &s) < 0)
    s.write_failed = true;
  fflush(stdout);
  if (nfailed > 0)
    cli_eprintf("nicsim sweep: %zu of %zu points failed (see above)\n", nfailed, s.nmine);
  if (!o->quiet && rc == 0)
    cli_eprintf("nicsim: results in %s\n", csv);
  status = s.write_failed ? CLI_EXIT_USAGE : (s.failed ? CLI_EXIT_SIM : CLI_EXIT_OK);

out:
  free(s.done);
  free(s.file_cfg);
  free(s.mine);
  free(s.skip);
  free(s.cfg);
  free(s.res);
  json_decref(man);
  json_decref(labels);
  json_decref(swept);
  json_decref(point_hashes);
  cli_sweepdir_unlock(lock_fd);
  if (scen != NULL)
    nc_scenario_free(scen);
  return status;
}

/* nicsim sweep: simulate every point in child processes. */
int cli_cmd_sweep(int argc, char **argv) {
  struct cli_args a;
  struct cli_sweep_opts o;
  int opt, status;

  memset(&o, 0, sizeof(o));
  cli_args_init(&a, argc, argv, 0);
  while ((opt = cli_next(&a, cli__sweep_opts)) != CLI_END) {
    switch (opt) {
    case CLI_ERROR:
      status = cli_usage_error("sweep", "%s", a.err);
      goto out;
    case CLI_POSITIONAL:
      if (o.path != NULL) {
        status = cli_usage_error("sweep", "one scenario at a time (got '%s' and '%s')", o.path,
                                 a.arg);
        goto out;
      }
      o.path = a.arg;
      break;
    case OPT_SET:
      if ((status = cli_sets_add(&o.sets, "sweep", a.arg)) != 0)
        goto out;
      break;
    case OPT_OVERLAY:
      if ((status = cli_overlays_add(&o.overlays, "sweep", a.arg)) != 0)
        goto out;
      break;
    case OPT_OUT:
      o.outdir = a.arg;
      break;
    case OPT_JOBS:
      if ((status = cli__parse_jobs(a.arg, &o.jobs)) != 0)
        goto out;
      break;
    case OPT_SHARD:
      if ((status = cli__parse_shard(a.arg, &o.shard_k, &o.shard_n)) != 0)
        goto out;
      break;
    case OPT_QUIET:
      o.quiet = true;
      break;
    case OPT_DRY:
      o.dry_run = true;
      break;
    case OPT_RESUME:
      o.resume = true;
      break;
    case OPT_FORCE:
      o.force = true;
      break;
    case OPT_HELP:
      cli_help_sweep(stdout);
      status = CLI_EXIT_OK;
      goto out;
    }
  }
  if (o.path == NULL) {
    status = cli_usage_error("sweep", "no scenario file given");
    goto out;
  }
  if (o.outdir != NULL && o.outdir[0] == '\0') {
    status = cli_usage_error("sweep", "-o needs a directory name");
    goto out;
  }
  status = cli_sweep_exec(&o, NULL, 0);
out:
  cli_sets_free(&o.sets);
  cli_sets_free(&o.overlays);
  return status;
}
