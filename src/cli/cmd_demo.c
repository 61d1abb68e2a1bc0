/* cmd_demo.c: `nicsim demo`: the built-in demo sweep (scenarios/demo-sweep.yaml),
 * then its plots and design-review report, in one command (nicsim_study_sweep
 * and nicsim_study_report). */
#define _XOPEN_SOURCE 700

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

enum { OPT_OUT = 1, OPT_JOBS, OPT_QUIET, OPT_FORCE, OPT_HELP };

static const struct cli_opt cli__demo_opts[] = {
    {"output", 'o', true, OPT_OUT}, {"jobs", 'j', true, OPT_JOBS},
    {"quiet", 'q', false, OPT_QUIET}, {"force", 'f', false, OPT_FORCE},
    {"help", 'h', false, OPT_HELP},
    {NULL, 0, false, 0},
};

/* The --help text of nicsim demo. */
void cli_help_demo(FILE *f) {
  fprintf(f,
          "%s\n\n"
          "Runs the built-in demo sweep (scenarios/demo-sweep.yaml: descriptor spacing\n"
          "x frame size on the default platform), renders its plots and writes its\n"
          "report: the same as 'nicsim sweep', 'nicsim plot' and 'nicsim report' in a\n"
          "row. A directory holding an earlier demo is reused (--resume).\n"
          "\n"
          "Options:\n"
          "  -o, --output DIR  Output directory (default: nicsim-out/demo)\n"
          "  -j, --jobs N      Points simulated in parallel (default: online CPUs)\n"
          "  -f, --force       Replace another sweep's results found in DIR\n"
          "  -q, --quiet       No progress on stderr\n"
          "  -h, --help        Show this help\n"
          "\n"
          "Example:\n"
          "  nicsim demo -o demo && xdg-open demo/report.html\n",
          cli_synopsis("demo"));
}

/* nicsim demo. */
int cli_cmd_demo(int argc, char **argv) {
  struct cli_args a;
  struct nicsim_sweep_opts o;
  char dir[NC_PATH_MAX];
  int opt, status;
  int64_t j;

  memset(&o, 0, sizeof(o));
  o.path = "scenarios/demo-sweep.yaml";
  o.builtin = true;
  o.outdir = "nicsim-out/demo";
  o.resume = true;
  cli_args_init(&a, argc, argv, 0);
  while ((opt = cli_next(&a, cli__demo_opts)) != CLI_END) {
    switch (opt) {
    case CLI_ERROR:
      return cli_usage_error("demo", "%s", a.err);
    case CLI_POSITIONAL:
      return cli_usage_error("demo", "unexpected argument '%s'", a.arg);
    case OPT_OUT:
      if (a.arg[0] == '\0')
        return cli_usage_error("demo", "-o needs a directory name");
      o.outdir = a.arg;
      break;
    case OPT_JOBS:
      if (nc_int_parse(a.arg, 1, 4096, &j) != 0)
        return cli_usage_error("demo", "-j expects a number of processes from 1 to 4096, got '%s'",
                               a.arg);
      o.jobs = (size_t)j;
      break;
    case OPT_QUIET:
      o.quiet = true;
      break;
    case OPT_FORCE:
      o.force = true;
      break;
    case OPT_HELP:
      cli_help_demo(stdout);
      return CLI_EXIT_OK;
    }
  }
  status = nicsim_study_sweep(&o, dir, sizeof(dir));
  if (status != CLI_EXIT_OK)
    return status;
  if ((status = nicsim_study_report("demo", dir, NULL, true, o.quiet)) != 0)
    return status;
  ns_printf("\nReport: %s/report.html (and report.md); plots in %s/plots/\n", dir, dir);
  return CLI_EXIT_OK;
}
