/* cmd_run.c: `nicsim run`: simulate one point of a scenario in this process,
 * print the summary table on stdout, and write JSON/CSV files if asked. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "results/safety.h"
#include "cli/cli.h"
#include "results/escape.h"
#include "results/output.h"
#include "sim/sim.h"

enum {
  OPT_SET = 1,
  OPT_POINT,
  OPT_JSON,
  OPT_CSV,
  OPT_TRACE,
  OPT_TRACE_MAX,
  OPT_TRACE_FROM,
  OPT_TRACE_TO,
  OPT_TRACE_DETAIL,
  OPT_TRACE_SAMPLE,
  OPT_QUIET,
  OPT_HELP,
  OPT_OVERLAY
};

/* The default size cap of --trace, in MiB (docs/cli.md). */
#define CLI_TRACE_MAX_MB_DEFAULT 256
#define CLI_TRACE_MAX_MB_LIMIT 1048576
/* The default interval of the trace's sampled counters (core busy, MSI
 * rate), in us (docs/cli.md): a few NAPI polls' worth at 10 GbE rates. */
#define CLI_TRACE_SAMPLE_US_DEFAULT 10.0

static const struct cli_opt cli__run_opts[] = {
    {"set", 's', true, OPT_SET},     {"point", 'p', true, OPT_POINT},
    {"json", 0, true, OPT_JSON},     {"csv", 0, true, OPT_CSV},
    {"trace", 0, true, OPT_TRACE},   {"trace-max-mb", 0, true, OPT_TRACE_MAX},
    {"trace-from-us", 0, true, OPT_TRACE_FROM}, {"trace-to-us", 0, true, OPT_TRACE_TO},
    {"trace-detail", 0, true, OPT_TRACE_DETAIL}, {"trace-sample-us", 0, true, OPT_TRACE_SAMPLE},
    {"overlay", 'O', true, OPT_OVERLAY},
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
          "                       trace-event JSON, with counter tracks (ring occupancy,\n"
          "                       PCIe tags and credits, core busy, MSI rate); open it in\n"
          "                       ui.perfetto.dev\n"
          "      --trace-detail D dma (default): DMA-level spans; tlp: also each TLP and\n"
          "                       DLLP on each PCIe link direction (PCIe only: not the\n"
          "                       on-chip bus)\n"
          "      --trace-sample-us T\n"
          "                       Interval of the sampled counters, core busy fraction\n"
          "                       and MSI rate (default %g us)\n"
          "      --trace-max-mb N Stop tracing before the file passes N MiB (default %d,\n"
          "                       0: no cap); the trace then ends with a note\n"
          "      --trace-from-us T, --trace-to-us T\n"
          "                       Trace only events overlapping [T_from, T_to) us of\n"
          "                       simulated time (default: the whole run)\n"
          "  -q, --quiet          No progress note on stderr\n"
          "  -h, --help           Show this help\n"
          "\n"
          "Files (the trace too) are replaced atomically: a failed write leaves the old file\n"
          "intact, and a failing output does not keep the others from being written.\n"
          "An output may not be an input (the scenario, a platform file).\n"
          "A symlink is replaced (never written through), a device or FIFO (/dev/stdout)\n"
          "written in place.\n"
          "Outputs are checked before simulating; two options naming one file is an error.\n"
          "Exit status: 0 success, 1 simulation error, 2 bad input.\n"
          "\n"
          "Examples:\n"
          "  nicsim run\n"
          "  nicsim run my-sweep.yaml --point after --json after.json\n"
          "  nicsim run my.yaml --set traffic.frame_bytes=64 --set run.duration_us=500 -q\n",
          cli_synopsis("run"), CLI_TRACE_SAMPLE_US_DEFAULT, CLI_TRACE_MAX_MB_DEFAULT);
}

/* Lists the labels of a scenario's sweep points on stderr. */
static void cli__list_points(const struct nc_scenario *s) {
  size_t n = nc_scenario_npoints(s), i;

  ns_eprintf("  the points are:");
  for (i = 0; i < n; i++) {
    fputs(i ? ", " : " ", stderr);
    nicsim_put_term(stderr, nc_scenario_point_label(s, i));
  }
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
      ns_eprintf("nicsim run: cannot write %s: %s\n", json, nicsim_strerror(-rc));
      status = CLI_EXIT_USAGE;
    }
  }
  if (csv != NULL) {
    for (i = 0; i < nc_scenario_nswept(s) && nkeys < NC_KEY__COUNT; i++)
      keys[nkeys++] = nc_scenario_swept_key(s, i);
    rc = nicsim_csv_write(csv, keys, nkeys, &pt, 1);
    if (rc < 0) {
      ns_eprintf("nicsim run: cannot write %s: %s\n", csv, nicsim_strerror(-rc));
      status = CLI_EXIT_USAGE;
    }
  }
  return status;
}

/* Parses a time in microseconds (>= 0, finite). 0 or -1. */
static int cli_parse_us(const char *s, double *out) {
  char *end = NULL;
  double v;

  errno = 0;
  v = strtod(s, &end);
  if (end == s || *end != '\0' || errno != 0 || !isfinite(v) || v < 0)
    return -1;
  *out = v;
  return 0;
}

/* Finishes the trace and renames it into place; reports a failure or a cut
 * trace on stderr. CLI_EXIT_OK, or CLI_EXIT_USAGE if the trace was lost (the
 * old file, if any, is then left as it was). */
static int cli__run_trace_end(const char *trace, struct nicsim_atomic *ta, int max_mb) {
  uint64_t bytes = 0;
  int truncated = 0, rc;
  double cut_us = 0;

  if (nicsim_trace_finish(&bytes, &truncated, &cut_us) != 0) {
    rc = -errno;
    nicsim_atomic_abort(ta);
  } else {
    rc = nicsim_atomic_commit(ta);
  }
  if (rc < 0) {
    ns_eprintf("nicsim run: cannot write trace %s: %s (any earlier file there is kept)\n",
            trace, nicsim_strerror(-rc));
    return CLI_EXIT_USAGE;
  }
  if (truncated)
    ns_eprintf(
            "nicsim run: warning: trace %s reached its size cap of %d MiB at %.3f us of "
            "simulated time; later events are not in it\n"
            "  hint: trace a window (--trace-from-us, --trace-to-us) or raise --trace-max-mb\n",
            trace, max_mb, cut_us);
  return CLI_EXIT_OK;
}

/* nicsim run: simulate one point in this process. */
int cli_cmd_run(int argc, char **argv) {
  struct cli_args a;
  struct cli_sets sets = {0}, overlays = {0};
  const char *path = NULL, *point = NULL, *json = NULL, *csv = NULL, *trace = NULL;
  const char *trace_opt = NULL;
  int64_t trace_mb = CLI_TRACE_MAX_MB_DEFAULT;
  double trace_from = 0, trace_to = 0, trace_sample = CLI_TRACE_SAMPLE_US_DEFAULT;
  int trace_tlp = 0;
  bool quiet = false, trace_window = false;
  struct nicsim_atomic ta;
  bool trace_open = false;
  int out_status = CLI_EXIT_OK;
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
    case OPT_TRACE_MAX:
      trace_opt = "--trace-max-mb";
      if (nc_int_parse(a.arg, 0, CLI_TRACE_MAX_MB_LIMIT, &trace_mb) != 0) {
        status = cli_usage_error("run", "--trace-max-mb '%s': expected a whole number of MiB "
                                        "from 0 (no cap) to %d",
                                 a.arg, CLI_TRACE_MAX_MB_LIMIT);
        goto out;
      }
      break;
    case OPT_TRACE_FROM:
    case OPT_TRACE_TO:
      trace_opt = opt == OPT_TRACE_FROM ? "--trace-from-us" : "--trace-to-us";
      trace_window = true;
      if (cli_parse_us(a.arg, opt == OPT_TRACE_FROM ? &trace_from : &trace_to) != 0) {
        status = cli_usage_error("run", "%s '%s': expected a time in microseconds of simulated "
                                        "time, a number >= 0 such as 200 or 1e3",
                                 trace_opt, a.arg);
        goto out;
      }
      break;
    case OPT_TRACE_DETAIL:
      trace_opt = "--trace-detail";
      if (strcmp(a.arg, "dma") == 0) {
        trace_tlp = 0;
      } else if (strcmp(a.arg, "tlp") == 0) {
        trace_tlp = 1;
      } else {
        status = cli_usage_error("run", "--trace-detail '%s': expected dma (DMA-level spans) or tlp "
                                        "(also each PCIe TLP and DLLP)",
                                 a.arg);
        goto out;
      }
      break;
    case OPT_TRACE_SAMPLE:
      trace_opt = "--trace-sample-us";
      if (cli_parse_us(a.arg, &trace_sample) != 0 || !(trace_sample > 0)) {
        status = cli_usage_error("run", "--trace-sample-us '%s': expected an interval in microseconds "
                                        "of simulated time above 0, such as 10 or 0.5",
                                 a.arg);
        goto out;
      }
      /* The simulator counts time in picoseconds: a shorter interval is none. */
      if (trace_sample < 1e-6) {
        status = cli_usage_error("run", "--trace-sample-us '%s' is below the simulator's "
                                        "resolution of 1 ps (0.000001 us); give 0.000001 or more",
                                 a.arg);
        goto out;
      }
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
  if (trace == NULL && trace_opt != NULL) {
    status = cli_usage_error("run", "%s needs --trace FILE", trace_opt);
    goto out;
  }
  if (trace_window && trace_to > 0 && trace_to <= trace_from) {
    status = cli_usage_error("run", "--trace-to-us must be above --trace-from-us");
    goto out;
  }

  if ((status = ns_load_overlaid("run", path, overlays.v, overlays.n, sets.v, sets.n, &scen)) != 0)
    goto out;
  if ((status = ns_check_not_input("run", "--json", json, scen)) != 0 ||
      (status = ns_check_not_input("run", "--csv", csv, scen)) != 0 ||
      (status = ns_check_not_input("run", "--trace", trace, scen)) != 0)
    goto out;
  if (point != NULL) {
    idx = nc_scenario_find_point(scen, point);
    if (idx < 0) {
      if (nc_scenario_npoints(scen) == 0) {
        ns_eprintf("nicsim run: --point %s: %s has no sweep points\n", point,
                path ? path : "the built-in scenario");
      } else {
        ns_eprintf("nicsim run: --point %s: no such point in %s\n", point,
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
    ns_eprintf("nicsim run: out of memory\n");
    status = CLI_EXIT_USAGE;
    goto out;
  }
  if ((status = ns_resolve(scen, idx, sets.v, sets.n, cfg)) != 0)
    goto out;

  if (!quiet) {
    char dur[32], drain[32], name[4 * NC_STR_MAX], label[4 * NC_STR_MAX];
    nicsim_format_real(cfg->run.duration_us, dur, sizeof(dur));
    nicsim_format_real(cfg->run.drain_us, drain, sizeof(drain));
    ns_eprintf("nicsim: simulating %s (%s%s): %s us of traffic + %s us drain",
            cfg->name[0] ? nicsim_term_text(cfg->name, name, sizeof(name)) : "unnamed scenario",
            idx >= 0 ? "point " : "base point",
            idx >= 0 ? nicsim_term_text(cfg->label, label, sizeof(label)) : "", dur, drain);
    if (idx < 0 && nc_scenario_npoints(scen) > 0)
      ns_eprintf("; its sweep of %zu points is not run (see --point, 'nicsim sweep')",
              nc_scenario_npoints(scen));
    fputs("\n", stderr);
  }
  nicsim_results_init(res);
  memset(&serr, 0, sizeof(serr));
  fflush(stdout);
  /* The trace goes to a temporary file beside its target, renamed when the
   * run is over (even a failed one: it shows what led to the error). */
  if (trace != NULL) {
    int rc = nicsim_atomic_open(trace, &ta);
    if (rc < 0) {
      ns_eprintf("nicsim run: cannot write trace %s: %s\n", trace, nicsim_strerror(-rc));
      status = CLI_EXIT_USAGE;
      goto out;
    }
    trace_open = true;
    nicsim_trace_start(ta.f, trace_from, trace_to, (uint64_t)trace_mb << 20);
    nicsim_trace_set_detail(trace_tlp, trace_sample);
    if (trace_tlp && cfg->bus.enabled)
      ns_eprintf("nicsim run: note: --trace-detail tlp traces the PCIe link only; this device "
                 "reaches memory over the on-chip bus (bus.enabled), so the trace has no TLP tracks\n");
  }
  int sim_rc = nicsim_simulate(cfg, res, &serr, 0);
  if (trace != NULL)
    out_status = cli__run_trace_end(trace, &ta, (int)trace_mb);
  trace_open = false;
  if (sim_rc != 0) {
    ns_format_sim_error(&serr, msg, sizeof(msg));
    ns_eprintf("nicsim run: %s\n", msg);
    status = CLI_EXIT_SIM;
    goto out;
  }
  {
    double ext;
    if (nicsim_results_get(res, "sim.drain_extended_us", &ext))
      ns_eprintf(
              "nicsim run: note: run.drain_us = %g was too short for this configuration; the "
              "drain was extended by %.0f us (metric sim.drain_extended_us)\n"
              "  hint: set run.drain_us to at least %.0f to drain within it\n",
              cfg->run.drain_us, ext, ceil(cfg->run.drain_us + ext));
  }
  /* One output failing (a full disk) does not lose the others. */
  nicsim_summary_print(stdout, cfg, res);
  fflush(stdout);
  status = cli__run_write(json, csv, scen, cfg, res);
  if (status == CLI_EXIT_OK)
    status = out_status;

out:
  if (trace_open)
    nicsim_atomic_abort(&ta);
  free(res);
  free(cfg);
  if (scen != NULL)
    nc_scenario_free(scen);
  cli_sets_free(&sets);
  cli_sets_free(&overlays);
  return status;
}
