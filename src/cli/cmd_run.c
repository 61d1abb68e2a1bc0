/* cmd_run.c: `nicsim run`: simulate one point of a scenario in this process,
 * print the summary table on stdout, and write JSON/CSV files if asked. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "results/output.h"
#include "sim/sim.h"

enum { OPT_SET = 1, OPT_POINT, OPT_JSON, OPT_CSV, OPT_TRACE, OPT_QUIET, OPT_HELP, OPT_OVERLAY };

static const struct cli_opt cli__run_opts[] = {
    {"set", 's', true, OPT_SET},     {"point", 'p', true, OPT_POINT},
    {"json", 0, true, OPT_JSON},     {"csv", 0, true, OPT_CSV},
    {"trace", 0, true, OPT_TRACE},   {"overlay", 'O', true, OPT_OVERLAY},
    {"quiet", 'q', false, OPT_QUIET}, {"help", 'h', false, OPT_HELP},
    {NULL, 0, false, 0},
};

/* The --help text of nicsim run. */
void cli_help_run(FILE *f) {
  fprintf(f,
          "%s\n\n"
          "Simulates one point of a scenario in this process and prints a summary\n"
          "table on stdout. Without SCENARIO.yaml, runs the built-in default scenario.\n"
          "A scenario with a sweep: runs its base point and ignores the sweep, unless\n"
          "--point picks one of its labelled points (use 'nicsim sweep' for all).\n"
          "\n"
          "Options:\n"
          "  -s, --set KEY=VALUE  Override a config key, e.g. --set nic.desc_spacing=32;\n"
          "                       may repeat; applied after the scenario and the point\n"
          "  -O, --overlay FILE   Apply an overlay file (keys, as a platform file holds\n"
          "                       them; e.g. calibrated.yaml from 'nicsim calibrate') after\n"
          "                       the point and before --set; may repeat\n"
          "  -p, --point LABEL    Simulate the sweep point with this label\n"
          "      --json FILE      Write the resolved config and all metrics as JSON\n"
          "      --csv FILE       Write a CSV header and one row: label, the swept keys,\n"
          "                       every metric\n"
          "      --trace FILE     Write a timeline of the run (descriptor fetches, data\n"
          "                       DMA, write-backs, interrupts) as Chrome/Perfetto\n"
          "                       trace-event JSON; open it in ui.perfetto.dev\n"
          "  -q, --quiet          No progress note on stderr\n"
          "  -h, --help           Show this help\n"
          "\n"
          "Files are replaced atomically (a failed write leaves the old file intact);\n"
          "a symlink is written through, a device or FIFO (/dev/stdout) in place.\n"
          "Outputs are checked before simulating; two options naming one file is an error.\n"
          "Exit status: 0 success, 1 simulation error, 2 bad input.\n"
          "\n"
          "Examples:\n"
          "  nicsim run\n"
          "  nicsim run my-sweep.yaml --point after --json after.json\n"
          "  nicsim run my.yaml --set traffic.frame_bytes=64 --set run.duration_us=500 -q\n",
          cli_synopsis("run"));
}

/* Lists the labels of a scenario's sweep points on stderr. */
static void cli__list_points(const struct nc_scenario *s) {
  size_t n = nc_scenario_npoints(s), i;

  fprintf(stderr, "  the points are:");
  for (i = 0; i < n; i++)
    fprintf(stderr, "%s %s", i ? "," : "", nc_scenario_point_label(s, i));
  fputc('\n', stderr);
}

/* Writes the requested output files; CLI_EXIT_USAGE on failure. */
static int cli__run_write(const char *json, const char *csv, const struct nc_scenario *s,
                          const struct nicsim_config *cfg, const struct nicsim_results *res) {
  const char *keys[NC_KEY__COUNT];
  struct nicsim_point pt = {cfg, res};
  size_t nkeys = 0, i;
  int rc, status = CLI_EXIT_OK;

  if (json != NULL) {
    rc = nicsim_json_write(json, NICSIM_VERSION, cfg, res);
    if (rc < 0) {
      fprintf(stderr, "nicsim run: cannot write %s: %s\n", json, strerror(-rc));
      status = CLI_EXIT_USAGE;
    }
  }
  if (csv != NULL) {
    for (i = 0; i < nc_scenario_nswept(s) && nkeys < NC_KEY__COUNT; i++)
      keys[nkeys++] = nc_scenario_swept_key(s, i);
    rc = nicsim_csv_write(csv, keys, nkeys, &pt, 1);
    if (rc < 0) {
      fprintf(stderr, "nicsim run: cannot write %s: %s\n", csv, strerror(-rc));
      status = CLI_EXIT_USAGE;
    }
  }
  return status;
}

/* nicsim run: simulate one point in this process. */
int cli_cmd_run(int argc, char **argv) {
  struct cli_args a;
  struct cli_sets sets = {0}, overlays = {0};
  const char *path = NULL, *point = NULL, *json = NULL, *csv = NULL, *trace = NULL;
  bool quiet = false;
  struct nc_scenario *scen = NULL;
  struct nicsim_config *cfg = NULL;
  struct nicsim_results *res = NULL;
  struct nicsim_sim_error serr;
  char msg[1024];
  long idx = -1;
  int opt, status;

  cli_args_init(&a, argc, argv, 0);
  while ((opt = cli_next(&a, cli__run_opts)) != CLI_END) {
    switch (opt) {
    case CLI_ERROR:
      status = cli_usage_error("run", "%s", a.err);
      goto out;
    case CLI_POSITIONAL:
      if (path != NULL) {
        status = cli_usage_error("run", "one scenario at a time (got '%s' and '%s')", path, a.arg);
        goto out;
      }
      path = a.arg;
      break;
    case OPT_SET:
      if ((status = cli_sets_add(&sets, "run", a.arg)) != 0)
        goto out;
      break;
    case OPT_OVERLAY:
      if ((status = cli_overlays_add(&overlays, "run", a.arg)) != 0)
        goto out;
      break;
    case OPT_POINT:
      point = a.arg;
      break;
    case OPT_JSON:
      json = a.arg;
      break;
    case OPT_CSV:
      csv = a.arg;
      break;
    case OPT_TRACE:
      trace = a.arg;
      break;
    case OPT_QUIET:
      quiet = true;
      break;
    case OPT_HELP:
      cli_help_run(stdout);
      status = CLI_EXIT_OK;
      goto out;
    }
  }
  if ((json && (status = cli_check_output_path("run", "JSON", json)) != 0) ||
      (csv && (status = cli_check_output_path("run", "CSV", csv)) != 0) ||
      (trace && (status = cli_check_output_path("run", "trace", trace)) != 0) ||
      (status = cli_check_distinct_outputs("run", "--json", json, "--csv", csv)) != 0 ||
      (status = cli_check_distinct_outputs("run", "--json", json, "--trace", trace)) != 0 ||
      (status = cli_check_distinct_outputs("run", "--csv", csv, "--trace", trace)) != 0)
    goto out;

  if ((status = cli_load_overlaid("run", path, &overlays, &scen)) != 0)
    goto out;
  if (point != NULL) {
    idx = nc_scenario_find_point(scen, point);
    if (idx < 0) {
      if (nc_scenario_npoints(scen) == 0) {
        fprintf(stderr, "nicsim run: --point %s: %s has no sweep points\n", point,
                path ? path : "the built-in scenario");
      } else {
        fprintf(stderr, "nicsim run: --point %s: no such point in %s\n", point,
                path ? path : "the built-in scenario");
        cli__list_points(scen);
      }
      status = CLI_EXIT_USAGE;
      goto out;
    }
  }
  cfg = calloc(1, sizeof(*cfg));
  res = calloc(1, sizeof(*res));
  if (cfg == NULL || res == NULL) {
    fprintf(stderr, "nicsim run: out of memory\n");
    status = CLI_EXIT_USAGE;
    goto out;
  }
  if ((status = cli_resolve(scen, idx, &sets, cfg)) != 0)
    goto out;

  if (!quiet) {
    char dur[32], drain[32];
    nicsim_format_real(cfg->run.duration_us, dur, sizeof(dur));
    nicsim_format_real(cfg->run.drain_us, drain, sizeof(drain));
    fprintf(stderr, "nicsim: simulating %s (%s%s): %s us of traffic + %s us drain",
            cfg->name[0] ? cfg->name : "unnamed scenario", idx >= 0 ? "point " : "base point",
            idx >= 0 ? cfg->label : "", dur, drain);
    if (idx < 0 && nc_scenario_npoints(scen) > 0)
      fprintf(stderr, "; its sweep of %zu points is not run (see --point, 'nicsim sweep')",
              nc_scenario_npoints(scen));
    fputs("\n", stderr);
  }
  nicsim_results_init(res);
  memset(&serr, 0, sizeof(serr));
  fflush(stdout);
  if (trace != NULL && nicsim_trace_open(trace) != 0) {
    fprintf(stderr, "nicsim run: cannot write trace %s: %s\n", trace, strerror(errno));
    status = CLI_EXIT_USAGE;
    goto out;
  }
  int sim_rc = nicsim_simulate(cfg, res, &serr, 0);
  /* The trace is closed (and kept) even after a simulation error: it shows
   * what led up to the violation. */
  if (trace != NULL && nicsim_trace_close() != 0) {
    fprintf(stderr, "nicsim run: cannot finish trace %s: %s\n", trace, strerror(errno));
    if (sim_rc == 0) {
      status = CLI_EXIT_USAGE;
      goto out;
    }
  }
  if (sim_rc != 0) {
    cli_format_sim_error(&serr, msg, sizeof(msg));
    fprintf(stderr, "nicsim run: %s\n", msg);
    status = CLI_EXIT_SIM;
    goto out;
  }
  nicsim_summary_print(stdout, cfg, res);
  fflush(stdout);
  status = cli__run_write(json, csv, scen, cfg, res);

out:
  free(res);
  free(cfg);
  if (scen != NULL)
    nc_scenario_free(scen);
  cli_sets_free(&sets);
  cli_sets_free(&overlays);
  return status;
}
