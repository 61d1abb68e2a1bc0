/* cmd_calibrate.c: `nicsim calibrate`: options, the output directory, and
 * the evaluator that runs a parameter vector's points through the sweep
 * runner (nicsim_study_sweep, one child process per point, -j at a time); the
 * engine is src/study/calib*.c (docs/calibration.md). */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "results/safety.h"
#include "cli/cli.h"
#include "results/input.h"
#include "study/calib.h"

enum {
  OPT_OUT = 1,
  OPT_JOBS,
  OPT_CV,
  OPT_RESUME,
  OPT_FORCE,
  OPT_QUIET,
  OPT_NOPLOTS,
  OPT_CHECK_SPECS,
  OPT_HELP
};

static const struct cli_opt cli__calib_opts[] = {
    {"output", 'o', true, OPT_OUT},      {"jobs", 'j', true, OPT_JOBS},
    {"cv", 0, false, OPT_CV},            {"resume", 'r', false, OPT_RESUME},
    {"force", 'f', false, OPT_FORCE},    {"quiet", 'q', false, OPT_QUIET},
    {"no-plots", 0, false, OPT_NOPLOTS}, {"check-specs", 0, false, OPT_CHECK_SPECS},
    {"help", 'h', false, OPT_HELP},
    {NULL, 0, false, 0},
};

/* The --help text of nicsim calibrate. */
void cli_help_calibrate(FILE *f) {
  fprintf(f,
          "%s\n\n"
          "Fits a platform's declared unknowns (the spec's free: keys, each within its\n"
          "bounds) to measurements of a board at points of a scenario's sweep, by\n"
          "weighted least squares: a grid over the bounds, then NLopt's derivative-free\n"
          "local method. Reports each parameter's identifiability (sensitivities at the\n"
          "optimum, the condition number, the error profile over its range) and predicts\n"
          "the spec's validation measurements, which the fit never sees. Every parameter\n"
          "vector is evaluated as a sweep of the points the measurements name, each point\n"
          "in its own process. docs/calibration.md describes the workflow and the spec.\n"
          "\n"
          "Options:\n"
          "  -o, --output DIR     Output directory (default: nicsim-out/calibrate-<name>)\n"
          "  -j, --jobs N         Simulations in parallel (default: online CPUs)\n"
          "      --cv             Leave-one-out cross-validation: each measurement\n"
          "                       predicted by a calibration on all the others\n"
          "  -r, --resume         Reuse the evaluations DIR/evals already holds\n"
          "  -f, --force          Replace another spec's evaluations found in DIR\n"
          "      --no-plots       Do not run gnuplot (the .dat and .gp files are written)\n"
          "      --check-specs    Calibrate nothing: check the specs of each DIR named\n"
          "                       (nicsim calibrate --check-specs DIR...) against each\n"
          "                       other: a key freed by two specs on one platform, or a\n"
          "                       measurement one fits and another predicts, is refused\n"
          "  -q, --quiet          No progress on stderr (errors still shown)\n"
          "  -h, --help           Show this help\n"
          "\n"
          "Output:\n"
          "  DIR/calibration.json   the fit, identifiability, measurements, predictions, cv\n"
          "  DIR/calibrated.yaml    an overlay of the fitted keys: run/sweep --overlay FILE\n"
          "  DIR/report.md, .html   the report, with DIR/plots/*.svg (gnuplot)\n"
          "  DIR/summary.md         the calibration as one Markdown table row\n"
          "  DIR/evaluations.csv    every parameter vector evaluated, in order\n"
          "  DIR/evals/             each evaluation's sweep directory (for --resume)\n"
          "  stdout                 a summary\n"
          "\n"
          "A spec is also checked so against the other specs of its own directory\n"
          "before anything is simulated.\n"
          "\n"
          "Exit status: 0 calibrated (whether or not it matches: read the report; a\n"
          "parameter vector whose simulation fails is no match, its failure in\n"
          "evaluations.csv), 1 an evaluation crashed, 2 bad input (the spec, refused\n"
          "with file:line:col).\n"
          "\n"
          "Example:\n"
          "  nicsim calibrate scenarios/calibration/haps-xgmac.yaml -j 2 -o out/haps\n",
          cli_synopsis("calibrate"));
}

/* The evaluator's state. */
struct cli__calib {
  const char *dir;    /* the output directory */
  size_t jobs;
  bool resume, quiet;
  size_t done;        /* evaluations run so far */
  struct nicsim_config *cfg;
  struct nicsim_results *res;
};

/* FNV-1a 64 over s, continuing from h. */
static uint64_t cli__fnv(uint64_t h, const char *s) {
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 0x100000001b3ull;
  }
  return h;
}

/* The --set list of vector x: set: first, then each free key's value (into store). */
static int cli__vector_sets(const struct nicsim_calib_spec *s, const double *x,
                            char (*store)[NC_STR_MAX + 64], struct cli_sets *sets) {
  size_t i;
  for (i = 0; i < s->nsets; i++)
    if (cli_sets_add(sets, "calibrate", s->sets[i]) != 0) return CLI_EXIT_USAGE;
  for (i = 0; i < s->nfree; i++) {
    nicsim_calib_assignment(&s->free[i], x[i], store[i], sizeof store[i]);
    if (cli_sets_add(sets, "calibrate", store[i]) != 0) return CLI_EXIT_USAGE;
  }
  return 0;
}

/* DIR/evals/e-<hash of the vector's assignments> into buf. */
static void cli__eval_dir(const struct cli__calib *c, const struct cli_sets *sets, char *buf,
                          size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < sets->n; i++) h = cli__fnv(cli__fnv(h, sets->v[i]), "\n");
  snprintf(buf, n, "%s/evals/e-%016llx", c->dir, (unsigned long long)h);
}

/* Starts the sweep of vector x in a child process running nicsim_study_sweep. */
static pid_t cli__start(const struct cli__calib *c, const struct nicsim_calib_spec *s,
                        const double *x, size_t jobs, size_t *only) {
  char store[64][NC_STR_MAX + 64], dir[NC_PATH_MAX + 64];
  struct nicsim_sweep_opts o;
  struct cli_sets sets = {0};
  pid_t pid;
  memset(&o, 0, sizeof o);
  if (cli__vector_sets(s, x, store, &sets) != 0) {
    cli_sets_free(&sets);
    return -1;
  }
  cli__eval_dir(c, &sets, dir, sizeof dir);
  fflush(stdout);
  fflush(stderr);
  pid_t parent = getpid();
  pid = fork();
  if (pid != 0) {
    cli_sets_free(&sets);
    return pid;
  }
  /* The sweep dies with calibrate (SIGTERM: it passes it on to its workers). */
  ns_worker_tie_to_parent(parent, SIGTERM);
  o.sets = sets.v;
  o.nsets = sets.n;
  o.path = s->scenario_path;
  o.builtin = s->scenario_builtin;
  o.outdir = dir;
  o.jobs = jobs;
  o.quiet = true;
  o.no_table = true;
  o.resume = c->resume;
  o.one_point = true;
  for (size_t j = 0; j < s->npoints; j++) only[j] = s->points[j] < 0 ? 0 : (size_t)s->points[j];
  o.only = only;
  o.nonly = s->npoints;
  _exit(nicsim_study_sweep(&o, NULL, 0));
}

/* Reads vector x's point files into values (nmeas). why NULL: every point
 * file must be there; else the sweep failed (exit 1), and why gets the
 * first point whose simulation failed (its values stay NaN). */
static int cli__collect(struct cli__calib *c, const struct nicsim_calib_spec *s, const double *x,
                        double *values, char *why_failed) {
  char store[64][NC_STR_MAX + 64], dir[NC_PATH_MAX + 64], path[NC_PATH_MAX + 400], why[1024];
  struct cli_sets sets = {0};
  size_t np = nc_scenario_npoints(s->scen) ? nc_scenario_npoints(s->scen) : 1;
  int st = cli__vector_sets(s, x, store, &sets);
  cli__eval_dir(c, &sets, dir, sizeof dir);
  cli_sets_free(&sets);
  if (st != 0) return st;
  for (size_t i = 0; i < s->nmeas; i++) values[i] = NAN;
  for (size_t j = 0; j < s->npoints; j++) {
    size_t idx = s->points[j] < 0 ? 0 : (size_t)s->points[j];
    const char *label = s->points[j] < 0 ? "" : nc_scenario_point_label(s->scen, idx);
    ns_point_file(dir, idx, ns_point_digits(np), label, path, sizeof path);
    if (nicsim_point_json_read(path, c->cfg, c->res, NULL, why, sizeof why) != 0) {
      if (why_failed != NULL) {
        snprintf(why_failed, NICSIM_CALIB_WHY_MAX, "point %s: its simulation failed",
                 label[0] ? label : "(the scenario's one point)");
        return 0;
      }
      ns_eprintf("nicsim calibrate: cannot read back %s\n", why);
      return CLI_EXIT_USAGE;
    }
    for (size_t i = 0; i < s->nmeas; i++)
      if (s->meas[i].upoint == j && !nicsim_results_get(c->res, s->meas[i].metric, &values[i]))
        values[i] = NAN;
  }
  return 0;
}

/* Says which vector is being evaluated (one line). */
static void cli__note(struct cli__calib *c, const struct nicsim_calib_spec *s, const double *x) {
  char a[NC_STR_MAX + 64];
  c->done++;
  if (c->quiet) return;
  fprintf(stderr, "nicsim calibrate: [%zu]", c->done);
  for (size_t k = 0; k < s->nfree; k++) {
    nicsim_calib_assignment(&s->free[k], x[k], a, sizeof a);
    fprintf(stderr, " %s", a);
  }
  fputc('\n', stderr);
}

/* The evaluator (struct nicsim_calib_evaluator): up to jobs simulations at a
 * time, as concurrent sweeps of one vector each. */
static int cli__eval(void *ctx, const struct nicsim_calib_spec *s, const double *xs, size_t nvec,
                     double *values, char (*why)[NICSIM_CALIB_WHY_MAX]) {
  struct cli__calib *c = ctx;
  size_t k = nvec < c->jobs ? nvec : c->jobs, per = c->jobs / (k ? k : 1), next = 0, running = 0;
  pid_t *pids = calloc(k ? k : 1, sizeof *pids);
  size_t *slot_vec = calloc(k ? k : 1, sizeof *slot_vec);
  size_t *only = calloc(s->npoints ? s->npoints : 1, sizeof *only);
  int status = 0;
  if (!pids || !slot_vec || !only) {
    free(pids);
    free(slot_vec);
    free(only);
    fprintf(stderr, "nicsim calibrate: out of memory\n");
    return CLI_EXIT_USAGE;
  }
  if (per < 1) per = 1;
  while ((next < nvec && status == 0) || running > 0) {
    while (running < k && next < nvec && status == 0) {
      size_t slot;
      for (slot = 0; pids[slot] != 0; slot++)
        ;
      cli__note(c, s, &xs[next * s->nfree]);
      pids[slot] = cli__start(c, s, &xs[next * s->nfree], per, only);
      if (pids[slot] < 0) {
        fprintf(stderr, "nicsim calibrate: cannot start an evaluation: %s\n", strerror(errno));
        pids[slot] = 0;
        status = CLI_EXIT_USAGE;
        break;
      }
      slot_vec[slot] = next++;
      running++;
    }
    if (running == 0) break;
    int w = 0;
    pid_t done = waitpid(-1, &w, 0);
    if (done < 0) {
      if (errno == EINTR) continue;
      status = CLI_EXIT_USAGE;
      break;
    }
    for (size_t slot = 0; slot < k; slot++) {
      if (pids[slot] != done) continue;
      pids[slot] = 0;
      running--;
      size_t v = slot_vec[slot];
      /* A simulation that fails (exit 1) at these values is no match (a
       * penalty in the fit and evaluations.csv), not the end of the
       * calibration; anything else (bad input, a crash) is. */
      bool sim_failed = WIFEXITED(w) && WEXITSTATUS(w) == CLI_EXIT_SIM;
      if (!WIFEXITED(w) || WEXITSTATUS(w) != 0) {
        char a[NC_STR_MAX + 64];
        fprintf(stderr, "nicsim calibrate: the evaluation at");
        for (size_t q = 0; q < s->nfree; q++) {
          nicsim_calib_assignment(&s->free[q], xs[v * s->nfree + q], a, sizeof a);
          fprintf(stderr, " %s", a);
        }
        fprintf(stderr, sim_failed ? " failed (see above); it counts as no match\n"
                                   : " failed (see above)\n");
      }
      if (status != 0) continue;
      if (sim_failed) {
        status = cli__collect(c, s, &xs[v * s->nfree], &values[v * s->nmeas], why[v]);
        if (status == 0 && !why[v][0])
          snprintf(why[v], NICSIM_CALIB_WHY_MAX, "its simulation failed");
      } else if (!WIFEXITED(w)) {
        status = CLI_EXIT_SIM; /* a crash */
      } else if (WEXITSTATUS(w) != 0) {
        status = CLI_EXIT_USAGE;
      } else {
        status = cli__collect(c, s, &xs[v * s->nfree], &values[v * s->nmeas], NULL);
      }
    }
  }
  free(pids);
  free(slot_vec);
  free(only);
  return status;
}

/* Renders one plot (nicsim_calib_render_fn). */
static int cli__render(void *ctx, const char *plotdir, const char *name) {
  return ns_gnuplot("calibrate", plotdir, name, *(const bool *)ctx);
}

/* Removes DIR/evals: every e-* sweep directory and the identity file. Each
 * sweep directory is removed only under its lock (ns_sweepdir_lock, as a
 * sweep takes it): one in use by a running sweep is left whole and the
 * removal fails (CLI_EXIT_USAGE, the lock's holder named); else 0. */
static int cli__clear_evals(const char *dir) {
  char path[NC_PATH_MAX + 300];
  DIR *d;
  struct dirent *e;
  int status = 0, lock;
  snprintf(path, sizeof path, "%s/evals", dir);
  if ((lock = nicsim_dir_open(path)) < 0) {
    if (lock == -ELOOP || lock == -ENOTDIR) unlink(path); /* a link: removed, not followed */
    return 0;
  }
  if ((d = fdopendir(lock)) == NULL) {
    close(lock);
    return 0;
  }
  while ((e = readdir(d)) != NULL) {
    struct stat st;
    int fd;
    if (strncmp(e->d_name, "e-", 2) != 0) continue;
    snprintf(path, sizeof path, "%s/evals/%s", dir, e->d_name);
    /* Never through a link: an e-* that is no directory of ours is removed
     * itself (a link is unlinked, its target untouched). */
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
      unlink(path);
      continue;
    }
    if ((fd = nicsim_dir_open(path)) < 0) continue;
    close(fd);
    if (ns_sweepdir_lock("calibrate", path, &lock) != 0) {
      status = CLI_EXIT_USAGE;
      continue;
    }
    /* Everything below it, links removed and never followed (unlinkat). */
    snprintf(path, sizeof path, "%s/evals/%s/points", dir, e->d_name);
    (void)nicsim_remove_tree(path);
    snprintf(path, sizeof path, "%s/evals/%s", dir, e->d_name);
    (void)nicsim_remove_tree(path);
    ns_sweepdir_unlock(lock);
  }
  closedir(d);
  if (status != 0) return status;
  snprintf(path, sizeof path, "%s/evals/identity", dir);
  unlink(path);
  return 0;
}

/* Refuses (exit 2) an output of the calibration that is, by file identity,
 * one of its inputs: the spec, the scenario, its platform files (issue 23,
 * #6). The outputs are those nicsim_calib_write and cli__claim write. */
static int cli__check_outputs(const char *dir, const struct nicsim_calib_spec *s) {
  static const char *const top[] = {"calibration.json", "calibrated.yaml", "evaluations.csv",
                                    "report.md",        "report.html",     "evals/identity"};
  static const char *const ext[] = {"dat", "gp", "svg", "png"};
  char out[NC_PATH_MAX + 400];
  size_t i, k, e;
  for (i = 0; i < sizeof top / sizeof *top + 2 + s->nfree; i++)
    for (e = 0; e < (i < sizeof top / sizeof *top ? 1 : sizeof ext / sizeof *ext); e++) {
      k = i - sizeof top / sizeof *top;
      if (i < sizeof top / sizeof *top)
        snprintf(out, sizeof out, "%s/%s", dir, top[i]);
      else if (k < 2)
        snprintf(out, sizeof out, "%s/plots/%s.%s", dir, k == 0 ? "fit" : "sensitivity", ext[e]);
      else
        snprintf(out, sizeof out, "%s/plots/profile-%s.%s", dir, s->free[k - 2].key->path, ext[e]);
      if (ns_check_not_file("calibrate", "the output", out, s->file_dev, s->file_ino, "the spec",
                             s->file) != 0 ||
          ns_check_not_input("calibrate", "the output", out, s->scen) != 0)
        return CLI_EXIT_USAGE;
    }
  return 0;
}

/* Emits the identity file's text (nicsim_emit_fn). */
static int cli__emit_text(FILE *f, void *arg) {
  fprintf(f, "%s\n", (const char *)arg);
  return ferror(f) ? -EIO : 0;
}

/* Claims DIR for this spec: DIR/evals/identity holds the spec's identity.
 * Another identity (or a sweep's results in DIR) is refused without force. */
static int cli__claim(const char *dir, const char *identity, bool resume, bool force) {
  char path[NC_PATH_MAX + 64], have[64] = "";
  int rc;
  snprintf(path, sizeof path, "%s/sweep.json", dir);
  if (access(path, F_OK) == 0) {
    fprintf(stderr, "nicsim calibrate: %s holds a sweep's results\n  hint: use another -o DIR\n",
            dir);
    return CLI_EXIT_USAGE;
  }
  snprintf(path, sizeof path, "%s/evals/identity", dir);
  {
    char *text;
    size_t len;
    int r = nicsim_read_results_file(path, 4096, &text, &len);
    if (r == 0) {
      snprintf(have, sizeof have, "%.*s", (int)strcspn(text, "\n"), text);
      free(text);
    } else if (r != -ENOENT) {
      fprintf(stderr, "nicsim calibrate: %s %s\n  hint: remove it, or use another -o DIR\n", path,
              nicsim_read_strerror(r));
      return CLI_EXIT_USAGE;
    }
  }
  if (have[0] && strcmp(have, identity) != 0) {
    if (!force) {
      fprintf(stderr,
              "nicsim calibrate: %s/evals holds another spec's evaluations (identity %s; this "
              "spec's is %s: another scenario, set:, free keys or nicsim version)\n"
              "  hint: use another -o DIR, or --force to remove them\n",
              dir, have, identity);
      return CLI_EXIT_USAGE;
    }
    fprintf(stderr, "nicsim calibrate: --force: removing another spec's evaluations from %s/evals\n",
            dir);
    if (cli__clear_evals(dir) != 0) return CLI_EXIT_USAGE;
  } else if (have[0] && !resume) {
    if (cli__clear_evals(dir) != 0) return CLI_EXIT_USAGE; /* the same spec again: afresh */
  }
  snprintf(path, sizeof path, "%s/evals", dir);
  if ((rc = ns_mkdir_sub(path)) < 0) {
    fprintf(stderr, "nicsim calibrate: cannot create %s: %s\n", path, nicsim_strerror(-rc));
    return CLI_EXIT_USAGE;
  }
  snprintf(path, sizeof path, "%s/evals/identity", dir);
  if ((rc = nicsim_write_atomic(path, cli__emit_text, (void *)identity)) < 0) {
    fprintf(stderr, "nicsim calibrate: cannot write %s: %s\n", path, nicsim_strerror(-rc));
    return CLI_EXIT_USAGE;
  }
  return 0;
}

/* The summary on stdout (texts of the spec escaped by ns_printf). */
static void cli__summary(const struct nicsim_calib_spec *s, const struct nicsim_calib_result *r,
                         const char *dir) {
  char name[NC_STR_MAX + 100], v[NC_STR_MAX + 64];
  ns_printf("Calibration  %s\n", s->name);
  double pull;
  long worst = nicsim_calib_worst_pull(s, r, &pull);
  printf("Fit          %s, chi2 %.4g over %zu calibration measurement%s, %zu evaluations",
         nicsim_calib_convergence(r), r->chi2, s->ncal, s->ncal == 1 ? "" : "s", r->evaluations);
  if (worst >= 0) {
    nicsim_calib_meas_name(&s->meas[worst], name, sizeof name);
    ns_printf("; worst validation pull %+.2f (%s)", pull, name);
  }
  printf("\n");
  if (isfinite(r->cond))
    printf("Conditioning %s (condition number %.3g)\n",
           r->ill_conditioned ? "ILL-CONDITIONED" : "well-conditioned", r->cond);
  else
    printf("Conditioning ILL-CONDITIONED (rank %zu of %zu)\n", r->rank, s->nfree);
  for (size_t k = 0; k < s->nfree; k++) {
    const struct nicsim_calib_profile *p = &r->prof[k];
    nicsim_calib_assignment(&s->free[k], r->x[k], v, sizeof v);
    ns_printf("Parameter    %-40s %s%s", v, r->identifiable[k] ? "identifiable" : "NOT identifiable: ",
               r->identifiable[k] ? "" : r->reason[k]);
    printf("\n             chi2 within 1 of its minimum from %s%.4g to %s%.4g%s%s\n",
           p->lo_bound ? "<= " : "", p->lo, p->hi_bound ? ">= " : "", p->hi,
           r->at_bound[k] ? (r->at_bound[k] < 0 ? "; at its min" : "; at its max") : "",
           r->cliff[k] ? "; kink or cliff at the optimum" : "");
  }
  for (size_t i = 0; i < s->nmeas; i++) {
    const struct nicsim_calib_meas *m = &s->meas[i];
    nicsim_calib_meas_name(m, name, sizeof name);
    printf("%-12s ", i < s->ncal ? "Calibrate" : "Validate");
    ns_printf("%-44s measured %-10.4g %s %-10.4g %+.1f %%\n", name, m->value,
           i < s->ncal ? "simulated" : "predicted", r->sim[i],
           100 * nicsim_rel_change(r->sim[i], m->value));
  }
  for (size_t j = 0; r->cv && j < s->nmeas; j++) {
    const struct nicsim_calib_fold *f = &r->folds[j];
    nicsim_calib_meas_name(&s->meas[j], name, sizeof name);
    if (f->skipped)
      ns_printf("CV           %-44s skipped (fewer other measurements than free parameters)\n", name);
    else
      ns_printf("CV           %-44s measured %-10.4g predicted %-10.4g %+.1f %%\n", name,
             s->meas[j].value, f->predicted,
             100 * nicsim_rel_change(f->predicted, s->meas[j].value));
  }
  ns_printf("Files        %s/calibration.json, calibrated.yaml, report.html\n", dir);
}

/* nicsim calibrate. */
/* The specs of spec's own directory, checked against it (docs/calibration.md,
 * "Across specs"): 0, or CLI_EXIT_USAGE after the error. A sibling that
 * does not load is not checked against, with a note. */
static int cli__check_siblings(struct nicsim_calib_spec *spec, bool quiet) {
  char dir[NC_PATH_MAX];
  const char *slash = strrchr(spec->file, '/');
  struct nicsim_calib_spec **all = NULL, **both = NULL;
  size_t n = 0;
  struct nc_error err;
  int status = CLI_EXIT_OK;
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - spec->file) : 1, slash ? spec->file : ".");
  if (slash == spec->file) snprintf(dir, sizeof dir, "/");
  memset(&err, 0, sizeof err);
  if (nicsim_calib_specs_load_dir(dir, &all, &n, &err) != 0) {
    if (!quiet) {
      fprintf(stderr, "nicsim calibrate: note: the other specs of %s are not checked against this one: ",
              dir);
      nc_error_print(&err, stderr);
    }
    return CLI_EXIT_OK;
  }
  if ((both = calloc(n + 1, sizeof *both)) == NULL) {
    status = CLI_EXIT_USAGE;
    fprintf(stderr, "nicsim calibrate: out of memory\n");
  } else {
    for (size_t i = 0; i < n; i++) both[i] = all[i];
    both[n] = spec;
    memset(&err, 0, sizeof err);
    if (nicsim_calib_specs_check(both, n + 1, n, &err) != 0) {
      nc_error_print(&err, stderr);
      status = CLI_EXIT_USAGE;
    }
  }
  free(both);
  for (size_t i = 0; i < n; i++) nicsim_calib_spec_free(all[i]);
  free(all);
  return status;
}

/* nicsim calibrate --check-specs DIR...: every spec of the directories
 * against every other. */
static int cli__check_specs(const char *const *dirs, size_t ndirs) {
  struct nicsim_calib_spec **all = NULL;
  size_t n = 0;
  struct nc_error err;
  int status = CLI_EXIT_OK;
  memset(&err, 0, sizeof err);
  for (size_t d = 0; d < ndirs && status == CLI_EXIT_OK; d++) {
    struct nicsim_calib_spec **some, **t;
    size_t k;
    if (nicsim_calib_specs_load_dir(dirs[d], &some, &k, &err) != 0) {
      nc_error_print(&err, stderr);
      status = CLI_EXIT_USAGE;
      break;
    }
    if ((t = realloc(all, (n + k + 1) * sizeof *all)) == NULL) {
      fprintf(stderr, "nicsim calibrate: out of memory\n");
      status = CLI_EXIT_USAGE;
      for (size_t i = 0; i < k; i++) nicsim_calib_spec_free(some[i]);
    } else {
      all = t;
      for (size_t i = 0; i < k; i++) all[n++] = some[i];
    }
    free(some);
  }
  if (status == CLI_EXIT_OK && nicsim_calib_specs_check(all, n, n, &err) != 0) {
    nc_error_print(&err, stderr);
    status = CLI_EXIT_USAGE;
  }
  if (status == CLI_EXIT_OK)
    printf("%zu calibration spec%s: no key fitted twice on one platform, no fitted measurement "
           "predicted\n", n, n == 1 ? "" : "s");
  for (size_t i = 0; i < n; i++) nicsim_calib_spec_free(all[i]);
  free(all);
  return status;
}

int cli_cmd_calibrate(int argc, char **argv) {
  struct cli_args a;
  const char *path = NULL, *outdir = NULL;
  char dirbuf[NC_PATH_MAX], identity[32];
  bool cv = false, resume = false, force = false, quiet = false, plots = true, check = false;
  size_t jobs = 0, ndirs = 0;
  const char **dirs = calloc((size_t)(argc > 0 ? argc : 1), sizeof *dirs);
  struct nicsim_calib_spec *spec = NULL;
  struct nicsim_calib_result *res = NULL;
  struct nc_error err;
  struct cli__calib c;
  int opt, status = CLI_EXIT_OK, rc, lock = -1;

  memset(&c, 0, sizeof c);
  if (!dirs) {
    fprintf(stderr, "nicsim calibrate: out of memory\n");
    return CLI_EXIT_USAGE;
  }
  cli_args_init(&a, argc, argv, 0);
  while ((opt = cli_next(&a, cli__calib_opts)) != CLI_END) {
    switch (opt) {
    case CLI_ERROR:
      free((void *)dirs);
      return cli_usage_error("calibrate", "%s", a.err);
    case CLI_POSITIONAL:
      dirs[ndirs++] = a.arg;
      if (path == NULL) path = a.arg;
      break;
    case OPT_CHECK_SPECS:
      check = true;
      break;
    case OPT_OUT:
      outdir = a.arg;
      break;
    case OPT_JOBS: {
      char *end;
      long v;
      errno = 0;
      v = strtol(a.arg, &end, 10);
      if (errno != 0 || end == a.arg || *end != '\0' || v < 1 || v > 4096)
        return cli_usage_error("calibrate", "-j expects a number of processes from 1 to 4096, got '%s'",
                               a.arg);
      jobs = (size_t)v;
      break;
    }
    case OPT_CV:
      cv = true;
      break;
    case OPT_RESUME:
      resume = true;
      break;
    case OPT_FORCE:
      force = true;
      break;
    case OPT_QUIET:
      quiet = true;
      break;
    case OPT_NOPLOTS:
      plots = false;
      break;
    case OPT_HELP:
      free((void *)dirs);
      cli_help_calibrate(stdout);
      return CLI_EXIT_OK;
    }
  }
  if (check) {
    int st = ndirs ? cli__check_specs(dirs, ndirs)
                   : cli_usage_error("calibrate", "--check-specs needs a directory of specs");
    free((void *)dirs);
    return st;
  }
  if (ndirs > 1) {
    int st = cli_usage_error("calibrate", "one spec at a time (got '%s' and '%s')", dirs[0], dirs[1]);
    free((void *)dirs);
    return st;
  }
  free((void *)dirs);
  if (path == NULL) return cli_usage_error("calibrate", "no calibration spec given");
  if (outdir != NULL && outdir[0] == '\0')
    return cli_usage_error("calibrate", "-o needs a directory name");
  if (jobs == 0) {
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    jobs = ncpu > 0 ? (size_t)ncpu : 1;
  }
  memset(&err, 0, sizeof err);
  if (nicsim_calib_spec_load(path, &spec, &err) != 0) {
    nc_error_print(&err, stderr);
    return CLI_EXIT_USAGE;
  }
  if ((status = cli__check_siblings(spec, quiet)) != 0) goto out;
  /* The spec, its scenario and platform files: inputs no write may replace. */
  nicsim_input_note_id(spec->file_dev, spec->file_ino, "the calibration spec", spec->file);
  ns_note_inputs(spec->scen);
  if (outdir == NULL) {
    char safe[128];
    ns_sanitise(spec->name, safe, sizeof safe);
    snprintf(dirbuf, sizeof dirbuf, "nicsim-out/calibrate-%s", safe);
    outdir = dirbuf;
  }
  nicsim_calib_spec_identity(spec, NICSIM_VERSION, identity, sizeof identity);
  /* The output directory is owned as a sweep's is: one calibration (or
   * sweep) at a time; its outputs never replace an input. */
  if ((status = cli__check_outputs(outdir, spec)) != 0 ||
      (status = ns_sweepdir_lock("calibrate", outdir, &lock)) != 0 ||
      (status = cli__claim(outdir, identity, resume, force)) != 0)
    goto out;
  c.dir = outdir;
  c.jobs = jobs;
  c.resume = resume;
  c.quiet = quiet;
  c.cfg = calloc(1, sizeof *c.cfg);
  c.res = calloc(1, sizeof *c.res);
  if (!c.cfg || !c.res) {
    fprintf(stderr, "nicsim calibrate: out of memory\n");
    status = CLI_EXIT_USAGE;
    goto out;
  }
  {
    struct nicsim_calib_evaluator ev = {cli__eval, &c};
    struct nicsim_calib_opts o = {cv, quiet ? NULL : stderr};
    if ((status = nicsim_calib_run(spec, &ev, &o, &res)) != 0) goto out;
  }
  rc = nicsim_calib_write(outdir, spec, res, NICSIM_VERSION, plots ? cli__render : NULL, &quiet);
  if (rc < 0) {
    status = CLI_EXIT_USAGE;
    goto out;
  }
  cli__summary(spec, res, outdir);
out:
  if (lock >= 0) ns_sweepdir_unlock(lock);
  free(c.cfg);
  free(c.res);
  nicsim_calib_result_free(res);
  nicsim_calib_spec_free(spec);
  return status;
}
