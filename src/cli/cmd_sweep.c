/* cmd_sweep.c: `nicsim sweep`: every sweep point in its own forked child
 * (results back through a pipe), -j at a time, outputs in point order. */
#define _XOPEN_SOURCE 700

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
#include "results/output.h"
#include "sim/sim.h"

enum { OPT_SET = 1, OPT_OUT, OPT_JOBS, OPT_QUIET, OPT_HELP };

static const struct cli_opt cli__sweep_opts[] = {
    {"set", 's', true, OPT_SET},      {"output", 'o', true, OPT_OUT},
    {"jobs", 'j', true, OPT_JOBS},    {"quiet", 'q', false, OPT_QUIET},
    {"help", 'h', false, OPT_HELP},   {NULL, 0, false, 0},
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
          "  -q, --quiet          No per-point progress on stderr (errors still shown)\n"
          "  -h, --help           Show this help\n"
          "\n"
          "Output:\n"
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

/* The results of a finished point, without the unused part of the extras
 * table (a sweep may hold many thousands of points). */
struct cli__stored {
  double value[NM__COUNT];
  bool present[NM__COUNT];
  size_t nextra;
  unsigned char extra[]; /* nextra entries of struct nicsim_results' extra[] */
};
#define CLI__EXTRA_SIZE sizeof(((struct nicsim_results *)0)->extra[0])

/* One sweep: its inputs and what has come back so far. Configs are resolved
 * again whenever needed (tens of microseconds) rather than kept per point. */
struct cli__sweep {
  const struct nc_scenario *scen;
  const struct cli_sets *sets;
  size_t n;
  struct cli__stored **done; /* NULL until (unless) the point succeeds */
  struct nicsim_config *cfg; /* scratch: the point being handled */
  struct nicsim_results *res; /* scratch: a stored result unpacked */
  const char *dir;
  int digits; /* width of the index in point file names */
  bool quiet;
  size_t finished;
  bool failed, write_failed;
};

/* Resolves point i into s->cfg; it resolved once already, so an error here
 * is unexpected (and printed). */
static struct nicsim_config *cli__cfg(struct cli__sweep *s, size_t i) {
  return cli_resolve(s->scen, (long)i, s->sets, s->cfg) == 0 ? s->cfg : NULL;
}

/* Keeps a copy of a successful point's results; NULL on ENOMEM. */
static struct cli__stored *cli__store(const struct nicsim_results *r) {
  size_t nextra = r->nextra <= NICSIM_MAX_EXTRA_METRICS ? r->nextra : NICSIM_MAX_EXTRA_METRICS;
  struct cli__stored *st = malloc(sizeof(*st) + nextra * CLI__EXTRA_SIZE);

  if (st == NULL)
    return NULL;
  memcpy(st->value, r->value, sizeof(st->value));
  memcpy(st->present, r->present, sizeof(st->present));
  st->nextra = nextra;
  memcpy(st->extra, r->extra, nextra * CLI__EXTRA_SIZE);
  return st;
}

/* Unpacks stored results into r. */
static void cli__unstore(const struct cli__stored *st, struct nicsim_results *r) {
  nicsim_results_init(r);
  memcpy(r->value, st->value, sizeof(st->value));
  memcpy(r->present, st->present, sizeof(st->present));
  r->nextra = st->nextra;
  memcpy(r->extra, st->extra, st->nextra * CLI__EXTRA_SIZE);
}

/* nicsim_point_fn over the sweep's points, for the CSV and the table. */
static int cli__get_point(void *arg, size_t i, struct nicsim_point *out) {
  struct cli__sweep *s = arg;

  out->cfg = cli__cfg(s, i);
  if (out->cfg == NULL)
    return -EINVAL;
  out->res = NULL;
  if (s->done[i] != NULL) {
    cli__unstore(s->done[i], s->res);
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
  char label[128];
  cli_sanitise(nc_scenario_point_label(s->scen, i), label, sizeof(label));
  snprintf(buf, n, "%s/points/%0*zu-%s.json", s->dir, s->digits, i, label);
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
  fprintf(stderr, "[%zu/%zu] %s: FAILED: %s\n", s->finished, s->n, cli__label(s, i), why);
  cli__point_path(s, i, path, sizeof(path));
  if (unlink(path) != 0 && errno != ENOENT)
    fprintf(stderr, "nicsim sweep: cannot remove stale %s: %s\n", path, strerror(errno));
}

/* Records a successful point: progress line and its JSON file. */
static void cli__point_done(struct cli__sweep *s, size_t i, const struct nicsim_results *res,
                            double secs) {
  const struct nicsim_config *c;
  char path[NC_PATH_MAX + 256];
  double rx = 0, tx = 0;
  int rc;

  s->done[i] = cli__store(res);
  if (s->done[i] == NULL) {
    cli__point_failed(s, i, "out of memory to keep its results");
    return;
  }
  s->finished++;
  c = cli__cfg(s, i);
  if (c == NULL) {
    s->write_failed = true;
    return;
  }
  if (!s->quiet) {
    bool have_rx = nicsim_results_get(res, "rx.gbps", &rx);
    bool have_tx = nicsim_results_get(res, "tx.gbps", &tx);
    fprintf(stderr, "[%zu/%zu] %s:", s->finished, s->n, cli__label(s, i));
    if (c->traffic.mode != NC_MODE_TX && have_rx)
      fprintf(stderr, " rx %.2f%s", rx, c->traffic.mode == NC_MODE_BIDIR ? "," : "");
    if (c->traffic.mode != NC_MODE_RX && have_tx)
      fprintf(stderr, " tx %.2f", tx);
    fprintf(stderr, " Gbit/s (%.1f s)\n", secs);
  }
  cli__point_path(s, i, path, sizeof(path));
  rc = nicsim_json_write(path, NICSIM_VERSION, c, res);
  if (rc < 0) {
    fprintf(stderr, "nicsim sweep: cannot write %s: %s\n", path, strerror(-rc));
    s->write_failed = true;
  }
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
      cli__point_failed(s, next, "out of memory");
    goto out;
  }
  while (next < s->n || nrun > 0) {
    while (nrun < jobs && next < s->n) {
      if (cli__spawn(s, next, &run[nrun], run, nrun) == 0)
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
    if (poll(pfd, nrun, -1) < 0) {
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
        fprintf(stderr,
                "nicsim sweep: warning: --set %s overrides the swept key %s in every point\n",
                sets->v[i], key);
    }
  }
}

/* Parses -j's value: a positive integer. */
static int cli__parse_jobs(const char *s, size_t *out) {
  char *end;
  long v;

  errno = 0;
  v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < 1 || v > 4096)
    return cli_usage_error("sweep", "-j expects a number of processes from 1 to 4096, got '%s'", s);
  *out = (size_t)v;
  return 0;
}

/* nicsim sweep: simulate every point in child processes. */
int cli_cmd_sweep(int argc, char **argv) {
  struct cli_args a;
  struct cli_sets sets = {0};
  const char *path = NULL, *outdir = NULL;
  char dirbuf[NC_PATH_MAX], pointsdir[NC_PATH_MAX + 16], csv[NC_PATH_MAX + 16], name[NC_STR_MAX];
  const char *keys[NC_KEY__COUNT];
  struct nc_scenario *scen = NULL;
  struct cli__sweep s;
  size_t jobs = 0, nkeys = 0, i, nfailed = 0;
  long ncpu;
  int opt, status, rc;
  bool quiet = false;

  memset(&s, 0, sizeof(s));
  cli_args_init(&a, argc, argv, 0);
  while ((opt = cli_next(&a, cli__sweep_opts)) != CLI_END) {
    switch (opt) {
    case CLI_ERROR:
      status = cli_usage_error("sweep", "%s", a.err);
      goto out;
    case CLI_POSITIONAL:
      if (path != NULL) {
        status = cli_usage_error("sweep", "one scenario at a time (got '%s' and '%s')", path,
                                 a.arg);
        goto out;
      }
      path = a.arg;
      break;
    case OPT_SET:
      if ((status = cli_sets_add(&sets, "sweep", a.arg)) != 0)
        goto out;
      break;
    case OPT_OUT:
      outdir = a.arg;
      break;
    case OPT_JOBS:
      if ((status = cli__parse_jobs(a.arg, &jobs)) != 0)
        goto out;
      break;
    case OPT_QUIET:
      quiet = true;
      break;
    case OPT_HELP:
      cli_help_sweep(stdout);
      status = CLI_EXIT_OK;
      goto out;
    }
  }
  if (path == NULL) {
    status = cli_usage_error("sweep", "no scenario file given");
    goto out;
  }
  if (outdir != NULL && outdir[0] == '\0') {
    status = cli_usage_error("sweep", "-o needs a directory name");
    goto out;
  }
  if (jobs == 0) {
    ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    jobs = ncpu > 0 ? (size_t)ncpu : 1;
  }

  if ((status = cli_load(path, &scen)) != 0)
    goto out;
  s.n = nc_scenario_npoints(scen);
  if (s.n == 0) {
    fprintf(stderr,
            "nicsim sweep: %s has no sweep (no 'sweep:' section); use 'nicsim run' for one "
            "point\n",
            path);
    status = CLI_EXIT_USAGE;
    goto out;
  }
  cli__warn_swept_sets(scen, &sets);

  /* Every point must resolve before any is simulated. */
  s.scen = scen;
  s.sets = &sets;
  s.done = calloc(s.n, sizeof(*s.done));
  s.cfg = calloc(1, sizeof(*s.cfg));
  s.res = calloc(1, sizeof(*s.res));
  if (s.done == NULL || s.cfg == NULL || s.res == NULL) {
    fprintf(stderr, "nicsim sweep: out of memory\n");
    status = CLI_EXIT_USAGE;
    goto out;
  }
  for (i = 0; i < s.n; i++)
    if ((status = cli_resolve(scen, (long)i, &sets, s.cfg)) != 0)
      goto out;
  snprintf(name, sizeof(name), "%s", s.cfg->name); /* the same in every point */
  for (i = 0; i < nc_scenario_nswept(scen) && nkeys < NC_KEY__COUNT; i++)
    keys[nkeys++] = nc_scenario_swept_key(scen, i);

  if (outdir == NULL) {
    char safe[128];
    cli_sanitise(name[0] ? name : "scenario", safe, sizeof(safe));
    snprintf(dirbuf, sizeof(dirbuf), "nicsim-out/%s", safe);
    outdir = dirbuf;
  }
  snprintf(pointsdir, sizeof(pointsdir), "%s/points", outdir);
  if ((rc = cli_mkdir_p(pointsdir)) < 0) {
    fprintf(stderr, "nicsim sweep: cannot create %s: %s\n", pointsdir, strerror(-rc));
    status = CLI_EXIT_USAGE;
    goto out;
  }
  snprintf(csv, sizeof(csv), "%s/results.csv", outdir);
  if ((status = cli_check_output_path("sweep", "CSV", csv)) != 0)
    goto out;

  s.dir = outdir;
  s.quiet = quiet;
  for (s.digits = 1, i = s.n - 1; i >= 10; i /= 10)
    s.digits++;
  if (!quiet)
    fprintf(stderr, "nicsim: sweeping %s: %zu points, %zu at a time, into %s/\n",
            name[0] ? name : path, s.n, jobs < s.n ? jobs : s.n, outdir);
  cli__run_all(&s, jobs);

  for (i = 0; i < s.n; i++)
    nfailed += s.done[i] == NULL;
  rc = nicsim_csv_write_each(csv, keys, nkeys, s.n, cli__get_point, &s);
  if (rc < 0) {
    fprintf(stderr, "nicsim sweep: cannot write %s: %s\n", csv, strerror(-rc));
    s.write_failed = true;
  }
  if (nicsim_sweep_table_print_each(stdout, keys, nkeys, s.n, cli__get_point, &s) < 0)
    s.write_failed = true;
  fflush(stdout);
  if (nfailed > 0)
    fprintf(stderr, "nicsim sweep: %zu of %zu points failed (see above)\n", nfailed, s.n);
  if (!quiet && rc == 0)
    fprintf(stderr, "nicsim: results in %s\n", csv);
  status = s.write_failed ? CLI_EXIT_USAGE : (s.failed ? CLI_EXIT_SIM : CLI_EXIT_OK);

out:
  if (s.done != NULL)
    for (i = 0; i < s.n; i++)
      free(s.done[i]);
  free(s.done);
  free(s.cfg);
  free(s.res);
  if (scen != NULL)
    nc_scenario_free(scen);
  cli_sets_free(&sets);
  return status;
}
