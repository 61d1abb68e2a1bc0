/* cmd_report.c: `nicsim report`: its options and help; the report is written
 * by nicsim_study_report (src/study/report.c). */
#include "cli/cli.h"
#include "results/escape.h"

enum { OPT_BASELINE = 1, OPT_NOPLOTS, OPT_QUIET, OPT_HELP };

static const struct cli_opt cli__report_opts[] = {
    {"baseline", 'b', true, OPT_BASELINE}, {"no-plots", 0, false, OPT_NOPLOTS},
    {"quiet", 'q', false, OPT_QUIET},      {"help", 'h', false, OPT_HELP},
    {NULL, 0, false, 0},
};

/* The --help text of nicsim report. */
void cli_help_report(FILE *f) {
  fprintf(f,
          "%s\n\n"
          "Writes DIR/report.md and DIR/report.html for a design review of a sweep:\n"
          "a summary computed from the figures (best and worst point by throughput and\n"
          "their change against the baseline, where throughput stops scaling along\n"
          "each numeric swept key, where the bottleneck moves, the failed points with\n"
          "their errors), the scenario and platform, the plots (rendered first with\n"
          "'nicsim plot'), a table of key metrics per point with the change against a\n"
          "baseline point,\n"
          "and the mechanisms behind them: PCIe TLPs per packet, uncached CPU loads per\n"
          "packet, interrupts per second, descriptor fetches per packet.\n"
          "\n"
          "Options:\n"
          "  -b, --baseline LABEL  Point the deltas are relative to (default: the\n"
          "                        scenario's sweep.baseline, else the first point)\n"
          "      --no-plots        Do not render plots (use those already in DIR/plots)\n"
          "  -q, --quiet           No progress note on stderr\n"
          "  -h, --help            Show this help\n"
          "\n"
          "Exit status: 0 written, 1 gnuplot failed, 2 bad input.\n"
          "\n"
          "Example:\n"
          "  nicsim report out/my-sweep --baseline before/nic.desc_spacing=16\n",
          cli_synopsis("report"));
}

/* nicsim report DIR. */
int cli_cmd_report(int argc, char **argv) {
  struct cli_args a;
  const char *dir = NULL, *baseline = NULL;
  bool quiet = false, plots = true;
  int opt;

  cli_args_init(&a, argc, argv, 0);
  while ((opt = cli_next(&a, cli__report_opts)) != CLI_END) {
    switch (opt) {
    case CLI_ERROR:
      return cli_usage_error("report", "%s", a.err);
    case CLI_POSITIONAL:
      if (dir != NULL)
        return cli_usage_error("report", "one directory at a time (got '%s' and '%s')", dir,
                               a.arg);
      dir = a.arg;
      break;
    case OPT_BASELINE:
      baseline = a.arg;
      break;
    case OPT_NOPLOTS:
      plots = false;
      break;
    case OPT_QUIET:
      quiet = true;
      break;
    case OPT_HELP:
      cli_help_report(stdout);
      return CLI_EXIT_OK;
    }
  }
  if (dir == NULL)
    return cli_usage_error("report", "no sweep directory given");
  return nicsim_study_report("report", dir, baseline, plots, quiet);
}
