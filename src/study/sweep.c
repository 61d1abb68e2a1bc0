/* sweep.c: a sweep (`nicsim sweep`, nicsim_study_sweep): every sweep point in
 * its own forked child (results back through a pipe), -j at a time, outputs
 * in point order; resume and shards. It also runs `nicsim demo` and each
 * entry of `nicsim regress`. */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "results/escape.h"
#include "results/safety.h"
#include "config/sweep.h"
#include "results/input.h"
#include "results/output.h"
#include "sim/sim.h"
#include "study/study_internal.h"
#include "study/sweep_internal.h"

/* A running child. */
struct ns__job {
  pid_t pid;
  int fd;
  size_t point;
  size_t got;
  struct ns_sweep_msg *msg;
  struct timespec t0;
};

/* One sweep: its inputs and what has come back so far. Configs are resolved
 * again whenever needed (tens of microseconds) rather than kept per point. */
struct ns__sweep {
  int lock_fd;              /* the directory's lock: the parent's alone, not the workers' */
  const struct nc_scenario *scen;
  const char *const *sets; /* the --set overrides of every point */
  size_t nsets;
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
  uint64_t *cost; /* per point: its estimated cost (ns__point_cost) */
  size_t ntorun, nrun_done, nrun_failed; /* this invocation's simulations */
  bool bar;       /* a progress bar (stderr is a terminal) */
  struct timespec t0;
};

/* Point i's index for resolving: -1 (the base) for the one point of a
 * scenario without a sweep (nicsim_sweep_opts.one_point). */
static long ns__index(const struct nc_scenario *scen, size_t i) {
  return nc_scenario_npoints(scen) > 0 ? (long)i : -1;
}

/* Point i's label: "" for the one point of a scenario without a sweep. */
static const char *ns__plabel(const struct nc_scenario *scen, size_t i) {
  const char *label = nc_scenario_point_label(scen, i);
  return label ? label : "";
}

/* Resolves point i into s->cfg; it resolved once already, so an error here
 * is unexpected (and printed). */
static struct nicsim_config *ns__cfg(struct ns__sweep *s, size_t i) {
  return ns_resolve(s->scen, ns__index(s->scen, i), s->sets, s->nsets, s->cfg) == 0 ? s->cfg
                                                                                  : NULL;
}

static void ns__point_path(const struct ns__sweep *s, size_t i, char *buf, size_t n);

/* nicsim_point_fn over the sweep's points, for the CSV and the table. */
static int ns__get_point(void *arg, size_t i, struct nicsim_point *out) {
  struct ns__sweep *s = arg;

  if (i >= s->nmine)
    return -EINVAL;
  i = s->mine[i];

  out->cfg = ns__cfg(s, i);
  if (out->cfg == NULL)
    return -EINVAL;
  out->res = NULL;
  if (s->done[i]) {
    /* Read back from the point's file: a sweep holds no point's results in
     * memory, so its footprint does not grow with the number of points. */
    char path[NC_PATH_MAX + 256], why[512];
    json_t *doc = NULL;
    int rc;
    ns__point_path(s, i, path, sizeof(path));
    rc = nicsim_point_json_read(path, s->file_cfg, s->res, &doc, why, sizeof(why));
    json_decref(doc);
    if (rc != 0) {
      ns_eprintf("nicsim sweep: cannot read back %s: %s\n", path, why);
      return -EIO;
    }
    out->cfg = ns__cfg(s, i); /* the read may not touch s->cfg, but be sure */
    out->res = s->res;
  }
  return 0;
}

/* Seconds since t0. */
static double ns__elapsed(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* Path of point i's JSON file in buf. */
static void ns__point_path(const struct ns__sweep *s, size_t i, char *buf, size_t n) {
  ns_point_file(s->dir, i, s->digits, ns__plabel(s->scen, i), buf, n);
}

/* Redraws the progress bar (terminal only): points done/total, failures, ETA. */
static void ns__bar(struct ns__sweep *s) {
  char bar[31], eta[32] = "--:--";
  size_t total = s->ntorun ? s->ntorun : 1, fill = 30 * s->nrun_done / total, k;
  double el = ns__elapsed(&s->t0);

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
  ns_eprintf("[%s] %zu/%zu points, %zu failed, ETA %s, %.0f s", bar, s->nrun_done,
          s->ntorun, s->nrun_failed, eta, el);
  fflush(stderr);
}

/* Clears the bar's line before a message (terminal only). */
static void ns__bar_clear(const struct ns__sweep *s) {
  if (s->bar)
    fputs("\r\033[K", stderr);
}

/* The label of point i for messages. */
static const char *ns__label(const struct ns__sweep *s, size_t i) {
  const char *label = nc_scenario_point_label(s->scen, i);
  return label && label[0] ? label : "(unlabelled)";
}

/* Writes (why) or removes (why NULL) the failure record of the point file
 * path (ns_point_error_file): the reason in one line, for regress's JUnit.
 * A record that cannot be written is said on stderr and changes nothing
 * else: the point failed either way. */
static void ns__point_error_record(const char *path, const char *why) {
  char err[NC_PATH_MAX + 256];
  struct nicsim_atomic a;
  int rc;
  ns_point_error_file(path, err, sizeof(err));
  if (err[0] == '\0')
    return;
  if (why == NULL) {
    if (unlink(err) != 0 && errno != ENOENT)
      ns_eprintf("nicsim sweep: cannot remove stale %s: %s\n", err, strerror(errno));
    return;
  }
  if ((rc = nicsim_atomic_open(err, &a)) == 0) {
    for (const char *c = why; *c; c++)
      fputc(*c == '\n' || *c == '\r' ? ' ' : *c, a.f);
    fputc('\n', a.f);
    rc = nicsim_atomic_commit(&a);
  }
  if (rc < 0)
    ns_eprintf("nicsim sweep: cannot write %s: %s\n", err, nicsim_strerror(-rc));
}

/* Records a failed point: message on stderr, stale JSON removed. */
static void ns__point_failed(struct ns__sweep *s, size_t i, const char *why) {
  char path[NC_PATH_MAX + 256];

  s->failed = true;
  s->finished++;
  s->nrun_done++;
  s->nrun_failed++;
  ns__bar_clear(s);
  ns_eprintf("[%zu/%zu] %s: FAILED: %s\n", s->finished, s->nmine, ns__label(s, i), why);
  ns__bar(s);
  ns__point_path(s, i, path, sizeof(path));
  if (unlink(path) != 0 && errno != ENOENT)
    ns_eprintf("nicsim sweep: cannot remove stale %s: %s\n", path, strerror(errno));
  ns__point_error_record(path, why);
}

/* Records a successful point: progress line and its JSON file. */
static void ns__point_done(struct ns__sweep *s, size_t i, const struct nicsim_results *res,
                           double secs) {
  const struct nicsim_config *c;
  char path[NC_PATH_MAX + 256];
  double rx = 0, tx = 0;
  int rc;

  s->finished++;
  s->nrun_done++;
  c = ns__cfg(s, i);
  if (c == NULL) {
    s->write_failed = true;
    return;
  }
  if (!s->quiet && !s->bar) {
    bool have_rx = nicsim_results_get(res, "rx.gbps", &rx);
    bool have_tx = nicsim_results_get(res, "tx.gbps", &tx);
    ns_eprintf("[%zu/%zu] %s:", s->finished, s->nmine, ns__label(s, i));
    if (c->traffic.mode != NC_MODE_TX && have_rx)
      ns_eprintf(" rx %.2f%s", rx, c->traffic.mode == NC_MODE_BIDIR || c->traffic.mode == NC_MODE_FORWARD ? "," : "");
    if (c->traffic.mode != NC_MODE_RX && have_tx)
      ns_eprintf(" tx %.2f", tx);
    ns_eprintf(" Gbit/s (%.1f s)\n", secs);
  }
  ns__point_path(s, i, path, sizeof(path));
  rc = nicsim_json_write(path, NICSIM_VERSION, c, res);
  if (rc < 0) {
    ns__bar_clear(s);
    ns_eprintf("nicsim sweep: cannot write %s: %s\n", path, nicsim_strerror(-rc));
    s->write_failed = true;
  } else {
    s->done[i] = true;
    ns__point_error_record(path, NULL);
  }
  ns__bar(s);
}

/* Starts point i in a child; on failure reports the point failed. */
static int ns__spawn(struct ns__sweep *s, size_t i, struct ns__job *job,
                     const struct ns__job *running, size_t nrunning) {
  int fds[2];
  pid_t parent;
  size_t k;
  char why[256];

  memset(job, 0, sizeof(*job));
  job->fd = -1;
  job->point = i;
  job->msg = malloc(sizeof(*job->msg));
  if (job->msg == NULL) {
    ns__point_failed(s, i, "out of memory");
    return -1;
  }
  if (ns__cfg(s, i) == NULL) {
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
  parent = getpid();
  job->pid = fork();
  if (job->pid < 0) {
    snprintf(why, sizeof(why), "cannot start a worker process: %s", strerror(errno));
    close(fds[0]);
    close(fds[1]);
    goto fail;
  }
  if (job->pid == 0) {
    ns_worker_tie_to_parent(parent, SIGKILL);
    /* A worker does not hold the directory's lock: when the sweep is killed,
     * the lock goes with it (a worker writes no file, only to its pipe). */
    if (s->lock_fd >= 0)
      close(s->lock_fd);
    close(fds[0]);
    for (k = 0; k < nrunning; k++)
      close(running[k].fd);
    ns_sweep_child(fds[1], s->cfg);
  }
  close(fds[1]);
  job->fd = fds[0];
  ns_sweep_worker_add(job->pid);
  return 0;
fail:
  free(job->msg);
  job->msg = NULL;
  ns__point_failed(s, i, why);
  return -1;
}

/* Reaps a child whose pipe reached EOF and records the point's outcome. */
static void ns__finish(struct ns__sweep *s, struct ns__job *job) {
  int wstatus = 0;
  pid_t r;
  char why[1024];
  double secs = ns__elapsed(&job->t0);

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
  } else if (job->got != sizeof(*job->msg) || job->msg->magic != NS_SWEEP_MSG_MAGIC) {
    snprintf(why, sizeof(why), "worker process exited with status %d before sending results",
             WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
  } else if (job->msg->rc != 0) {
    ns_format_sim_error(&job->msg->err, why, sizeof(why));
  } else {
    if (job->msg->res.nextra > NICSIM_MAX_EXTRA_METRICS)
      job->msg->res.nextra = NICSIM_MAX_EXTRA_METRICS;
    ns__point_done(s, job->point, &job->msg->res, secs);
    goto out;
  }
  ns__point_failed(s, job->point, why);
out:
  free(job->msg);
  job->msg = NULL;
}

/* Runs every point, at most jobs at a time; returns when all are done. */
static void ns__run_all(struct ns__sweep *s, size_t jobs) {
  struct ns__job *run = calloc(jobs, sizeof(*run));
  struct pollfd *pfd = calloc(jobs, sizeof(*pfd));
  size_t next = 0, nrun = 0, k;

  /* Signals reach the workers too (a worker outlives no sweep). */
  ns_sweep_workers_begin(jobs);
  if (run == NULL || pfd == NULL) {
    for (; next < s->n; next++)
      if (!s->skip[next])
        ns__point_failed(s, next, "out of memory");
    goto out;
  }
  while (next < s->n || nrun > 0) {
    while (nrun < jobs && next < s->n) {
      if (!s->skip[next] && ns__spawn(s, next, &run[nrun], run, nrun) == 0)
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
      ns__bar(s); /* a tick: elapsed time and ETA move on */
      continue;
    }
    if (k == (size_t)-1) {
      if (errno == EINTR)
        continue;
      perror("nicsim sweep: poll");
      exit(NICSIM_STUDY_BAD_INPUT);
    }
    for (k = nrun; k-- > 0;) {
      struct ns__job *job = &run[k];
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
      ns_sweep_worker_del(job->pid);
      ns__finish(s, job);
      run[k] = run[--nrun];
      pfd[k] = pfd[nrun];
    }
  }
out:
  ns_sweep_workers_end();
  free(run);
  free(pfd);
}

/* Warns when a --set overrides a key the sweep varies. */
static void ns__warn_swept_sets(const struct nc_scenario *scen, const char *const *sets,
                                size_t nsets) {
  size_t i, k;

  for (i = 0; i < nsets; i++) {
    const char *eq = strchr(sets[i], '=');
    size_t len = (size_t)(eq - sets[i]);
    for (k = 0; k < nc_scenario_nswept(scen); k++) {
      const char *key = nc_scenario_swept_key(scen, k);
      if (strlen(key) == len && strncmp(key, sets[i], len) == 0)
        ns_eprintf(
                "nicsim sweep: warning: --set %s overrides the swept key %s in every point\n",
                sets[i], key);
    }
  }
}

/* The plots the scenario declares, as JSON for the manifest. */
static json_t *ns__plots_json(const struct nc_scenario *scen) {
  json_t *arr = json_array();
  size_t i, q;

  for (i = 0; arr && i < nc_scenario_nplots(scen); i++) {
    const struct nc_plot *p = nc_scenario_plot(scen, i);
    json_t *y = json_array(), *panels = json_array();
    for (q = 0; y && q < p->ny; q++)
      json_array_append_new(y, json_string(p->y[q]));
    for (q = 0; panels && q < p->npanels; q++)
      json_array_append_new(panels, json_string(p->panels[q]));
    json_array_append_new(
        arr, json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:s, s:b, s:b, s:s, s:s}", "name", p->name,
                       "title", p->title, "x", p->x, "series", p->series, "y", y ? y : json_null(),
                       "panels", panels ? panels : json_null(), "kind",
                       p->kind == NC_PLOT_BAR ? "bar" : "line", "logx", p->logx, "logy", p->logy,
                       "xlabel", p->xlabel, "ylabel", p->ylabel));
  }
  return arr;
}

/* Emits a JSON document (nicsim_emit_fn). */
static int ns__emit_json(FILE *f, void *arg) { return nicsim_json_dump(arg, f); }

/* --resume: a point whose file holds the same config is kept, not rerun. */
static bool ns__resume_point(struct ns__sweep *s, size_t i) {
  char path[NC_PATH_MAX + 256], why[512];
  json_t *doc = NULL, *want;
  struct nicsim_config *tmp = calloc(1, sizeof(*tmp));
  bool same = false;

  ns__point_path(s, i, path, sizeof(path));
  if (tmp == NULL || access(path, F_OK) != 0 || ns__cfg(s, i) == NULL) {
    free(tmp);
    return false;
  }
  if (nicsim_point_json_read(path, tmp, s->res, &doc, why, sizeof(why)) != 0) {
    ns_eprintf("nicsim sweep: rerunning %s: %s\n", ns__label(s, i), why);
  } else {
    want = nicsim_config_to_json(s->cfg);
    same = want != NULL && json_equal(want, json_object_get(doc, "config"));
    json_decref(want);
    if (!same) {
      ns_eprintf("nicsim sweep: rerunning %s: %s holds another configuration\n",
              ns__label(s, i), path);
    } else if (ns_point_metrics_check(path, tmp, s->res, why, sizeof(why)) != 0) {
      ns_eprintf("nicsim sweep: rerunning %s: %s\n", ns__label(s, i), why);
      same = false;
    } else {
      s->done[i] = true;
    }
  }
  json_decref(doc);
  free(tmp);
  return same;
}

/* Prints the points (of this shard) for --dry-run: index, label, swept keys,
 * and with --shard each point's estimated cost (ns__point_cost). */
static void ns__dry_run(struct ns__sweep *s, const char *const *keys, size_t nkeys, bool costs) {
  size_t j, k, wl = 5, wi = (size_t)s->digits;
  char val[NC_PATH_MAX];

  for (j = 0; j < s->nmine; j++) {
    size_t l = strlen(ns__label(s, s->mine[j]));
    wl = l > wl ? l : wl;
  }
  ns_printf("%-*s  %-*s", (int)wi, "#", (int)wl, "label");
  for (k = 0; k < nkeys; k++)
    ns_printf("  %s", keys[k]);
  if (costs)
    ns_printf("  %10s", "est.cost");
  ns_printf("\n");
  for (j = 0; j < s->nmine; j++) {
    const struct nicsim_config *c = ns__cfg(s, s->mine[j]);
    ns_printf("%*zu  %-*s", (int)wi, s->mine[j], (int)wl, ns__label(s, s->mine[j]));
    for (k = 0; k < nkeys && c != NULL; k++) {
      const struct nc_key *key = nc_key_find(keys[k]);
      if (key)
        nc_value_format(c, key, val, sizeof(val));
      else
        snprintf(val, sizeof(val), "%s", strcmp(keys[k], "platform") == 0 ? c->platform : "");
      ns_printf("  %*s", (int)strlen(keys[k]), val);
    }
    if (costs)
      ns_printf("  %10llu", (unsigned long long)s->cost[s->mine[j]]);
    ns_printf("\n");
  }
}

/* True if point i is among o->only (every point without it). */
static bool ns__wanted(const struct nicsim_sweep_opts *o, size_t i) {
  size_t k;
  if (o->only == NULL)
    return true;
  for (k = 0; k < o->nonly; k++)
    if (o->only[k] == i)
      return true;
  return false;
}

/* Runs one sweep (see struct nicsim_sweep_opts). */
int nicsim_study_sweep(const struct nicsim_sweep_opts *o, char *dirout, size_t dirn) {
  char dirbuf[NC_PATH_MAX], pointsdir[NC_PATH_MAX + 16], csv[NC_PATH_MAX + 16], name[NC_STR_MAX];
  char manifest[NC_PATH_MAX + 16], hash[32], why[2 * NC_PATH_MAX + 512];
  const char *keys[NC_KEY__COUNT + 1];
  const char *outdir = o->outdir, *path = o->path;
  struct nc_scenario *scen = NULL;
  struct ns__sweep s;
  struct nc_error err;
  size_t jobs = o->jobs, nkeys = 0, i, nfailed = 0, nresumed = 0;
  uint64_t h = NS_HASH_BASIS;
  json_t *man = NULL, *labels = NULL, *swept = NULL, *point_hashes = NULL;
  int lock_fd = -1;
  long ncpu;
  int status, rc;
  struct ns_digits *digits = NULL; /* per point, with --shard: its axis digits */
  struct ns_axis *axes = NULL;      /* the swept keys' values */
  size_t naxes = 0;
  size_t *shard = NULL; /* per point: its shard (with --shard), from 0 */
  size_t *latin = NULL; /* per point: its Latin-square shard (the tie-break) */
  uint64_t *shard_total = NULL; /* per shard: its estimated cost */

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
      status = NICSIM_STUDY_BAD_INPUT;
      goto out;
    }
    for (i = 0; i < o->noverlays; i++) {
      memset(&err, 0, sizeof(err));
      if (nc_scenario_add_overlay(scen, o->overlays[i], &err) != 0) {
        nc_error_print(&err, stderr);
        status = NICSIM_STUDY_BAD_INPUT;
        goto out;
      }
    }
  } else if ((status = ns_load_overlaid("sweep", path, o->overlays, o->noverlays, o->sets, o->nsets,
                                     &scen)) != 0) {
    goto out;
  }
  s.n = nc_scenario_npoints(scen);
  if (s.n == 0 && o->one_point)
    s.n = 1; /* the base point, label "" */
  if (s.n == 0) {
    ns_eprintf(
            "nicsim sweep: %s has no sweep (no 'sweep:' section); use 'nicsim run' for one "
            "point\n",
            path);
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  ns__warn_swept_sets(scen, o->sets, o->nsets);
  if ((status = ns_check_plots(scen)) != 0)
    goto out;

  /* Every point must resolve before any is simulated; the hash covers them all. */
  s.scen = scen;
  s.sets = o->sets;
  s.nsets = o->nsets;
  s.done = calloc(s.n, sizeof(*s.done));
  s.mine = calloc(s.n, sizeof(*s.mine));
  s.skip = calloc(s.n, sizeof(*s.skip));
  digits = calloc(s.n, sizeof(*digits));
  shard = calloc(s.n, sizeof(*shard));
  latin = calloc(s.n, sizeof(*latin));
  s.cost = calloc(s.n, sizeof(*s.cost));
  shard_total = calloc(o->shard_n ? o->shard_n : 1, sizeof(*shard_total));
  naxes = nc_scenario_nswept(scen);
  axes = calloc(naxes ? naxes : 1, sizeof(*axes));
  for (i = 0; axes != NULL && i < naxes; i++)
    axes[i].key = nc_key_find(nc_scenario_swept_key(scen, i));
  s.cfg = calloc(1, sizeof(*s.cfg));
  s.res = calloc(1, sizeof(*s.res));
  s.file_cfg = calloc(1, sizeof(*s.file_cfg));
  labels = json_array();
  swept = json_array();
  point_hashes = json_array();
  if (s.done == NULL || s.cfg == NULL || s.res == NULL || s.file_cfg == NULL || s.mine == NULL || s.skip == NULL ||
      digits == NULL || shard == NULL || latin == NULL || s.cost == NULL ||
      shard_total == NULL || axes == NULL ||
      labels == NULL || swept == NULL || point_hashes == NULL) {
    ns_eprintf("nicsim sweep: out of memory\n");
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  h = ns_hash_text(h, NICSIM_VERSION); /* builds never mix */
  for (i = 0; i < s.n; i++) {
    if ((status = ns_resolve(scen, ns__index(scen, i), o->sets, o->nsets, s.cfg)) != 0)
      goto out;
    s.cost[i] = ns_point_cost(s.cfg);
    uint64_t ph = NS_HASH_BASIS;
    char phex[32];
    if (ns_hash_config(s.cfg, &h) != 0 || ns_hash_config(s.cfg, &ph) != 0 ||
        snprintf(phex, sizeof(phex), "%016llx", (unsigned long long)ph) < 0 ||
        json_array_append_new(point_hashes, json_string(phex)) != 0 ||
        json_array_append_new(labels, json_string(ns__plabel(scen, i))) != 0) {
      ns_eprintf("nicsim sweep: out of memory\n");
      status = NICSIM_STUDY_BAD_INPUT;
      goto out;
    }
    if (o->shard_n > 0) {
      uint64_t th = NS_HASH_BASIS;
      digits[i] = (struct ns_digits){0, 0, i};
      for (size_t k = 0; k < naxes; k++) {
        if (axes[k].key == NULL)
          continue; /* not a config key (none is, today) */
        const long r = ns_axis_rank(&axes[k], s.cfg);
        char rb[32];
        if (r < 0) {
          ns_eprintf("nicsim sweep: out of memory\n");
          status = NICSIM_STUDY_BAD_INPUT;
          goto out;
        }
        digits[i].sum += (size_t)r;
        snprintf(rb, sizeof(rb), "%ld,", r);
        th = ns_hash_text(th, rb);
      }
      digits[i].tuple = th;
    }
  }
  if (o->shard_n > 0) {
    ns_latin_shards(digits, s.n, o->shard_n, latin);
    if (ns_balance_shards(s.cost, latin, s.n, o->shard_n, shard, shard_total) != 0) {
      ns_eprintf("nicsim sweep: out of memory\n");
      status = NICSIM_STUDY_BAD_INPUT;
      goto out;
    }
  }
  for (i = 0; i < s.n; i++) {
    if ((o->shard_n == 0 || shard[i] == o->shard_k - 1) && ns__wanted(o, i))
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
  s.digits = ns_point_digits(s.n);

  if (o->dry_run) {
    ns__dry_run(&s, keys, nkeys, o->shard_n > 0);
    ns_eprintf("nicsim: %s: %zu points%s, config hash %s (dry run: nothing simulated)\n",
            name[0] ? name : path, s.nmine, o->shard_n ? " in this shard" : "", hash);
    if (o->shard_n > 0) {
      uint64_t all = 0;
      for (i = 0; i < o->shard_n; i++)
        all += shard_total[i];
      ns_eprintf("nicsim: shard %zu/%zu: estimated cost %llu of %llu (mean per shard %llu; "
                 "docs/sweeps.md, Distributing)\n",
                 o->shard_k, o->shard_n, (unsigned long long)shard_total[o->shard_k - 1],
                 (unsigned long long)all, (unsigned long long)(all / o->shard_n));
    }
    status = NICSIM_STUDY_OK;
    goto out;
  }

  if (outdir == NULL) {
    char safe[128];
    ns_sanitise(name[0] ? name : "scenario", safe, sizeof(safe));
    snprintf(dirbuf, sizeof(dirbuf), "nicsim-out/%s", safe);
    outdir = dirbuf;
  }
  /* Every file name below DIR must fit its buffer whole (issue 23, #2). */
  if (strlen(outdir) >= NC_PATH_MAX - 32) {
    status = ns_bad_input("sweep", "-o DIR is %zu bytes long; the limit is %d", strlen(outdir),
                             NC_PATH_MAX - 33);
    goto out;
  }
  if (dirout && dirn)
    snprintf(dirout, dirn, "%s", outdir);

  /* A running sweep owns its directory: a second one into it waits for
   * nothing and mixes nothing, it exits 2 naming the holder. */
  if ((status = ns_sweepdir_lock("sweep", outdir, &lock_fd)) != 0)
    goto out;
  /* Its files may not replace an input (the scenario, a platform file). */
  snprintf(manifest, sizeof(manifest), "%s/sweep.json", outdir);
  snprintf(csv, sizeof(csv), "%s/results.csv", outdir);
  if ((status = ns_check_not_input("sweep", "DIR/sweep.json", manifest, scen)) != 0 ||
      (status = ns_check_not_input("sweep", "DIR/results.csv", csv, scen)) != 0)
    goto out;
  /* Never mix two sweeps' results in one directory. */
  switch (ns_sweepdir_owner(outdir, hash, name, o->regress_entry, why, sizeof(why))) {
  case NS_DIR_OTHER:
    if (!o->force) {
      ns_eprintf("nicsim sweep: %s\n  hint: use another -o DIR, or --force to replace them\n",
              why);
      status = NICSIM_STUDY_BAD_INPUT;
      goto out;
    }
    ns_eprintf("nicsim sweep: --force: removing the other sweep's results from %s\n",
            outdir);
    ns_sweepdir_clear(outdir);
    break;
  case NS_DIR_OWN: /* regress's own earlier run of this entry */
    ns_sweepdir_clear(outdir);
    break;
  default:
    break;
  }

  snprintf(pointsdir, sizeof(pointsdir), "%s/points", outdir);
  if ((rc = ns_mkdir_sub(pointsdir)) < 0) {
    ns_eprintf("nicsim sweep: cannot create %s: %s\n", pointsdir, nicsim_strerror(-rc));
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  snprintf(csv, sizeof(csv), "%s/results.csv", outdir);
  if ((status = ns_check_output_path("sweep", "CSV", csv)) != 0)
    goto out;

  /* The manifest goes first: a killed sweep can be resumed, merged, plotted.
   * A file name that is not UTF-8 (legal on Linux, not in JSON) is stored
   * escaped, reversibly (nicsim_json_file_name), and "names_escaped" says so. */
  bool escaped = false;
  man = json_pack("{s:s, s:s, s:s, s:o, s:s, s:I, s:O, s:O, s:o, s:o, s:O}", "nicsim", NICSIM_VERSION,
                  "scenario", name, "description", s.cfg->description, "file", nicsim_json_file_name(path, &escaped), "hash",
                  hash, "points", (json_int_t)s.n, "swept", swept, "labels", labels, "baseline",
                  nc_scenario_baseline(scen) >= 0
                      ? json_integer((json_int_t)nc_scenario_baseline(scen))
                      : json_null(),
                  "plots", ns__plots_json(scen), "point_hashes", point_hashes);
  /* What the command line added to every point: --set overrides and
   * --overlay files, in the order applied (the report's setup lists them). */
  if (man != NULL) {
    json_t *sets = json_array(), *ovl = json_array();
    for (i = 0; sets != NULL && i < o->nsets; i++)
      json_array_append_new(sets, json_string(o->sets[i]));
    for (i = 0; ovl != NULL && i < o->noverlays; i++)
      json_array_append_new(ovl, nicsim_json_file_name(o->overlays[i], &escaped));
    if (escaped && json_object_set_new(man, "names_escaped", json_true()) != 0) {
      json_decref(man);
      man = NULL;
    }
    if (sets == NULL || ovl == NULL || json_object_set_new(man, "overrides", sets) != 0 ||
        json_object_set_new(man, "overlays", ovl) != 0) {
      json_decref(man);
      man = NULL;
    }
  }
  /* A regress entry's directory says so: the next run may replace it. */
  if (man != NULL && o->regress_entry != NULL &&
      json_object_set_new(man, "regress", json_string(o->regress_entry)) != 0) {
    json_decref(man);
    man = NULL;
  }
  if (man == NULL) {
    ns_eprintf("nicsim sweep: out of memory\n");
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  snprintf(manifest, sizeof(manifest), "%s/sweep.json", outdir);
  if ((rc = nicsim_write_atomic(manifest, ns__emit_json, man)) < 0) {
    ns_eprintf("nicsim sweep: cannot write %s: %s\n", manifest, nicsim_strerror(-rc));
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }

  /* Temporaries a killed sweep left (nicsim_tmp_clean_dir; the first
   * atomic write in a directory does it too). */
  nicsim_tmp_clean_dir(outdir);
  nicsim_tmp_clean_dir(pointsdir);
  s.lock_fd = lock_fd;
  s.dir = outdir;
  s.quiet = o->quiet;
  if (o->resume)
    for (i = 0; i < s.nmine; i++)
      if (ns__resume_point(&s, s.mine[i])) {
        s.skip[s.mine[i]] = true;
        nresumed++;
      }
  s.finished = nresumed;
  s.ntorun = s.nmine - nresumed;
  s.bar = !o->quiet && isatty(STDERR_FILENO);
  clock_gettime(CLOCK_MONOTONIC, &s.t0);
  if (!o->quiet) {
    ns_eprintf("nicsim: sweeping %s: %zu points", name[0] ? name : path, s.nmine);
    if (o->shard_n)
      ns_eprintf(" (shard %zu/%zu of %zu)", o->shard_k, o->shard_n, s.n);
    if (nresumed)
      ns_eprintf(", %zu already done", nresumed);
    ns_eprintf(", %zu at a time, into %s/\n", jobs < s.ntorun ? jobs : s.ntorun, outdir);
  }
  ns__bar(&s);
  ns__run_all(&s, jobs);
  ns__bar_clear(&s);

  for (i = 0; i < s.nmine; i++)
    nfailed += !s.done[s.mine[i]];
  rc = nicsim_csv_write_each(csv, keys, nkeys, s.nmine, ns__get_point, &s);
  if (rc < 0) {
    ns_eprintf("nicsim sweep: cannot write %s: %s\n", csv, nicsim_strerror(-rc));
    s.write_failed = true;
  }
  if (!o->no_table &&
      nicsim_sweep_table_print_each(stdout, keys, nkeys, s.nmine, ns__get_point, &s) < 0)
    s.write_failed = true;
  fflush(stdout);
  if (nfailed > 0)
    ns_eprintf("nicsim sweep: %zu of %zu points failed (see above)\n", nfailed, s.nmine);
  if (!o->quiet && rc == 0)
    ns_eprintf("nicsim: results in %s\n", csv);
  status = s.write_failed ? NICSIM_STUDY_BAD_INPUT : (s.failed ? NICSIM_STUDY_FAILED : NICSIM_STUDY_OK);

out:
  free(digits);
  for (i = 0; axes != NULL && i < naxes; i++)
    free(axes[i].vals);
  free(axes);
  free(shard);
  free(latin);
  free(shard_total);
  free(s.cost);
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
  ns_sweepdir_unlock(lock_fd);
  if (scen != NULL)
    nc_scenario_free(scen);
  return status;
}
