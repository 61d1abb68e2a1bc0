/* cmd_regress.c: `nicsim regress`: its options and help; the suite is run
 * and compared by nicsim_study_regress (src/study/regress.c). docs/regress.md
 * describes it all. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

enum { OPT_UPDATE = 1, OPT_JUNIT, OPT_JOBS, OPT_OUT, OPT_ENTRY, OPT_DETERMINISM, OPT_QUIET,
       OPT_HELP, OPT_FORCE };

static const struct cli_opt cli__regress_opts[] = {
    {"update", 'u', false, OPT_UPDATE},
    {"junit", 0, true, OPT_JUNIT},
    {"jobs", 'j', true, OPT_JOBS},
    {"output", 'o', true, OPT_OUT},
    {"entry", 'e', true, OPT_ENTRY},
    {"check-determinism", 0, false, OPT_DETERMINISM},
    {"force", 'f', false, OPT_FORCE},
    {"quiet", 'q', false, OPT_QUIET},
    {"help", 'h', false, OPT_HELP},
    {NULL, 0, false, 0},
};

/* The --help text of nicsim regress. */
void cli_help_regress(FILE *f) {
  fprintf(f,
          "%s\n\n"
          "Runs every entry of a regression suite (a scenario, a sweep or a single run,\n"
          "with optional config overrides), each point in its own process, and compares\n"
          "the entry's metrics with the stored baselines, each within its tolerance\n"
          "(exact, abs X or rel X). Prints a table on stdout: entry/point, metric,\n"
          "baseline, now, delta, tolerance, verdict; then the regressions, if any.\n"
          "\n"
          "SUITE.yaml defaults to " NICSIM_REGRESS_DEFAULT_SUITE " in the current directory or\n"
          "the nearest parent that has one (the source tree). Scenario paths in a suite\n"
          "are relative to the suite file; baselines are <suite dir>/baselines/<entry>.json.\n"
          "\n"
          "Options:\n"
          "  -u, --update           Record the baselines from this run (print old -> new)\n"
          "      --junit FILE       Also write a JUnit XML report (one testcase per\n"
          "                         entry, point and metric)\n"
          "  -j, --jobs N           Points simulated in parallel (default: online CPUs);\n"
          "                         results are the same whatever N\n"
          "  -o, --output DIR       Where the entries' sweep directories go\n"
          "                         (default: nicsim-out/regress)\n"
          "  -e, --entry NAME       Run only this entry (may repeat)\n"
          "  -f, --force            Replace results in DIR/<entry> that another sweep\n"
          "                         wrote (without it they are left alone: exit 2)\n"
          "      --check-determinism  Run every point twice (-j N, then with another -j)\n"
          "                         and fail unless every metric is bit-identical\n"
          "                         (sim.wall_s aside)\n"
          "  -q, --quiet            No progress on stderr (errors still shown)\n"
          "  -h, --help             Show this help\n"
          "\n"
          "Exit status: 0 every metric within tolerance (or baselines updated),\n"
          "1 a regression (a metric out of tolerance or missing, a point that failed\n"
          "to simulate, different results on a rerun), 2 bad input (suite file,\n"
          "scenario, a missing or stale baseline: run --update).\n"
          "\n"
          "Examples:\n"
          "  nicsim regress                             # the default suite\n"
          "  nicsim regress --junit regress.xml -j 4\n"
          "  nicsim regress --update --entry default    # after an intended change\n",
          cli_synopsis("regress"));
}

/* Parses -j. */
static int rg__jobs(const char *s, size_t *out) {
  int64_t v;
  if (nc_int_parse(s, 1, 4096, &v) != 0)
    return cli_usage_error("regress", "-j expects a number of processes from 1 to 4096, got '%s'",
                           s);
  *out = (size_t)v;
  return 0;
}

/* nicsim regress. */
int cli_cmd_regress(int argc, char **argv) {
  struct cli_args a;
  struct nicsim_regress_opts o;
  const char **only;
  int opt, status = CLI_EXIT_OK;

  memset(&o, 0, sizeof(o));
  o.only = only = calloc((size_t)(argc > 0 ? argc : 1), sizeof(*only));
  if (only == NULL) {
    ns_eprintf("nicsim regress: out of memory\n");
    return CLI_EXIT_USAGE;
  }
  cli_args_init(&a, argc, argv, 0);
  while ((opt = cli_next(&a, cli__regress_opts)) != CLI_END) {
    switch (opt) {
    case CLI_ERROR:
      status = cli_usage_error("regress", "%s", a.err);
      goto out;
    case CLI_POSITIONAL:
      if (o.suite != NULL) {
        status = cli_usage_error("regress", "one suite at a time (got '%s' and '%s')", o.suite,
                                 a.arg);
        goto out;
      }
      o.suite = a.arg;
      break;
    case OPT_UPDATE:
      o.update = true;
      break;
    case OPT_JUNIT:
      o.junit = a.arg;
      break;
    case OPT_JOBS:
      if ((status = rg__jobs(a.arg, &o.jobs)) != 0)
        goto out;
      break;
    case OPT_OUT:
      if (a.arg[0] == '\0') {
        status = cli_usage_error("regress", "-o needs a directory name");
        goto out;
      }
      o.outdir = a.arg;
      break;
    case OPT_ENTRY:
      only[o.nonly++] = a.arg;
      break;
    case OPT_DETERMINISM:
      o.determinism = true;
      break;
    case OPT_FORCE:
      o.force = true;
      break;
    case OPT_QUIET:
      o.quiet = true;
      break;
    case OPT_HELP:
      cli_help_regress(stdout);
      goto out;
    }
  }
  if (o.update && o.junit) {
    status = cli_usage_error("regress", "--junit reports a comparison; --update makes none");
    goto out;
  }
  /* An empty file name is a usage error here; the rest of the --junit check
   * is nicsim_study_regress's, after the suite's. */
  if (o.junit != NULL && o.junit[0] == '\0') {
    status = cli_check_output_path("regress", "the JUnit report", o.junit);
    goto out;
  }
  status = nicsim_study_regress(&o);
out:
  free(only);
  return status;
}
