/* cmd_sweep.c: `nicsim sweep`: its options and help; the sweep itself (each
 * point in its own forked child, -j at a time, resume, shards) is
 * nicsim_study_sweep (src/study/sweep.c). */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

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
          "      --shard K/N      Run only slice K of N, dealt so that the slices'\n"
          "                       estimated costs balance, ties as a Latin square over\n"
          "                       the swept values (-n lists it with each point's cost);\n"
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

/* nicsim sweep: simulate every point in child processes. */
int cli_cmd_sweep(int argc, char **argv) {
  struct cli_args a;
  struct nicsim_sweep_opts o;
  struct cli_sets sets = {0}, overlays = {0};
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
      if ((status = cli_sets_add(&sets, "sweep", a.arg)) != 0)
        goto out;
      break;
    case OPT_OVERLAY:
      if ((status = cli_overlays_add(&overlays, "sweep", a.arg)) != 0)
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
  o.sets = sets.v;
  o.nsets = sets.n;
  o.overlays = overlays.v;
  o.noverlays = overlays.n;
  status = nicsim_study_sweep(&o, NULL, 0);
out:
  cli_sets_free(&sets);
  cli_sets_free(&overlays);
  return status;
}
