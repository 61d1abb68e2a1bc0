/* cmd_plot.c: `nicsim plot`: its options and help; the plots are drawn by
 * nicsim_study_plot (src/study/plot.c). */
#include "cli/cli.h"

enum { OPT_QUIET = 1, OPT_HELP };

static const struct cli_opt cli__plot_opts[] = {
    {"quiet", 'q', false, OPT_QUIET},
    {"help", 'h', false, OPT_HELP},
    {NULL, 0, false, 0},
};

/* The --help text of nicsim plot. */
void cli_help_plot(FILE *f) {
  fprintf(f,
          "%s\n\n"
          "Renders the plots of a sweep directory with gnuplot (Debian: gnuplot-nox)\n"
          "into DIR/plots/: for each plot NAME.dat (the data, tab-separated), NAME.gp\n"
          "(the gnuplot script: edit and rerun 'gnuplot NAME.gp' to restyle), NAME.png\n"
          "and NAME.svg. The plots are those the scenario declares under 'plots:'\n"
          "(see docs/sweeps.md); without any, the headline metrics against the first\n"
          "swept key, one line per value of the second. Other swept keys that vary\n"
          "become panels (one per combination, at most 12; 'panels:' in a declared\n"
          "plot chooses them), never an average: only repeats (points apart from\n"
          "run.seed) are averaged, with min/max error bars. Throughput plots show the\n"
          "line rate, utilisation plots 100 %%, as dashed grey reference lines.\n"
          "\n"
          "Options:\n"
          "  -q, --quiet  No progress note on stderr\n"
          "  -h, --help   Show this help\n"
          "\n"
          "Exit status: 0 rendered, 1 gnuplot failed, 2 bad input (not a sweep\n"
          "directory, no results, unknown metric, gnuplot not installed).\n"
          "\n"
          "Example:\n"
          "  nicsim plot out/my-sweep && ls out/my-sweep/plots\n",
          cli_synopsis("plot"));
}

/* nicsim plot DIR. */
int cli_cmd_plot(int argc, char **argv) {
  struct cli_args a;
  const char *dir = NULL;
  bool quiet = false;
  int opt;

  cli_args_init(&a, argc, argv, 0);
  while ((opt = cli_next(&a, cli__plot_opts)) != CLI_END) {
    switch (opt) {
    case CLI_ERROR:
      return cli_usage_error("plot", "%s", a.err);
    case CLI_POSITIONAL:
      if (dir != NULL)
        return cli_usage_error("plot", "one directory at a time (got '%s' and '%s')", dir, a.arg);
      dir = a.arg;
      break;
    case OPT_QUIET:
      quiet = true;
      break;
    case OPT_HELP:
      cli_help_plot(stdout);
      return CLI_EXIT_OK;
    }
  }
  if (dir == NULL)
    return cli_usage_error("plot", "no sweep directory given");
  return nicsim_study_plot("plot", dir, quiet);
}
