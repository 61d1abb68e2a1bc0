/* main.c: the nicsim command: global options (--help, --version) and
 * dispatch to the run, validate, sweep, merge, plot, report, demo and regress
 * commands (and the others the table below lists). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* A command: its name, entry point, help and one-line summary. */
struct cli_command {
  const char *name;
  int (*main)(int argc, char **argv);
  void (*help)(FILE *f);
  const char *summary;
};

static const struct cli_command cli__commands[] = {
    {"run", cli_cmd_run, cli_help_run, "Simulate one scenario point and print a summary"},
    {"validate", cli_cmd_validate, cli_help_validate,
     "Check scenario files (every sweep point) without simulating"},
    {"sweep", cli_cmd_sweep, cli_help_sweep,
     "Simulate every sweep point, each in its own process, into CSV and JSON"},
    {"merge", cli_cmd_merge, cli_help_merge,
     "Combine the directories of sweep shards into one, as a single run"},
    {"plot", cli_cmd_plot, cli_help_plot, "Render a sweep's plots with gnuplot (PNG, SVG)"},
    {"report", cli_cmd_report, cli_help_report,
     "Write a design-review report (Markdown, HTML) of a sweep"},
    {"demo", cli_cmd_demo, cli_help_demo,
     "Run the built-in demo sweep, plot it and write its report"},
    {"regress", cli_cmd_regress, cli_help_regress,
     "Run the regression suite against stored baselines (tolerances, JUnit XML)"},
    {"bench", cli_cmd_bench, cli_help_bench,
     "Measure simulation speed: standard workloads and the bare SystemC kernel"},
    {"calibrate", cli_cmd_calibrate, cli_help_calibrate,
     "Fit a platform's unknowns to a board's measurements, then predict others"},
    {"platforms", cli_cmd_platforms, cli_help_platforms, "List the built-in platforms, a line each"},
    {"config", cli_cmd_config, cli_help_config,
     "Print a point's resolved configuration with the origin of each value"},
};
#define CLI__NCOMMANDS (sizeof(cli__commands) / sizeof(cli__commands[0]))

/* The top-level help text. */
static void cli__help(FILE *f) {
  size_t i;

  fprintf(f, "%s\n\n", cli_synopsis(NULL));
  fprintf(f, "nicsim is a cycle-level NIC/DMA simulator: SystemC models of the NIC, PCIe\n"
             "and memory, running a C reimplementation of the driver's hot paths.\n\n");
  fprintf(f, "Commands:\n");
  for (i = 0; i < CLI__NCOMMANDS; i++)
    fprintf(f, "  %-10s %s\n", cli__commands[i].name, cli__commands[i].summary);
  fprintf(f, "\nOptions:\n"
             "  -h, --help     Show this help; 'nicsim COMMAND --help' shows a command's options\n"
             "  -V, --version  Print the version and exit\n"
             "\nExit status: 0 success, 1 simulation error (an invariant was violated),\n"
             "2 bad input (usage, scenario file, --set value, output path).\n"
             "\nExamples:\n"
             "  nicsim run                                  # the built-in default scenario\n"
             "  nicsim run my.yaml --set nic.desc_spacing=32 --json out.json\n"
             "  nicsim validate scenarios/*.yaml\n"
             "  nicsim sweep my.yaml -j 4 -o results/my\n"
             "  nicsim plot results/my && nicsim report results/my\n"
             "  nicsim demo -o demo                         # sweep + plots + report\n"
             "  nicsim regress --junit regress.xml          # tests/regress/suite.yaml\n"
             "  nicsim bench --json bench.json              # speed (docs/performance.md)\n"
             "  nicsim calibrate spec.yaml -o out/cal       # fit unknowns (docs/calibration.md)\n"
             "\nSee docs/cli.md, docs/sweeps.md, docs/regress.md, docs/calibration.md, docs/config.md\n"
             "and docs/metrics.md.\n");
}

/* The command with this name, or NULL. */
static const struct cli_command *cli__find(const char *name) {
  size_t i;
  for (i = 0; i < CLI__NCOMMANDS; i++)
    if (strcmp(cli__commands[i].name, name) == 0)
      return &cli__commands[i];
  return NULL;
}

/* Flushes stdout: a table that could not be written (a full disk, a closed
 * pipe) is an error, not a silent success. Returns the exit status. */
static int cli__flush_stdout(int status) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    ns_eprintf("nicsim: cannot write to standard output: %s\n", strerror(errno));
    return status == CLI_EXIT_OK ? CLI_EXIT_USAGE : status;
  }
  return status;
}

/* Entry point: global options, then the command. */
int main(int argc, char **argv) {
  const struct cli_command *cmd;
  int status;

  if (argc < 2)
    return cli_usage_error(NULL, "no command given");
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    cli__help(stdout);
    return cli__flush_stdout(CLI_EXIT_OK);
  }
  if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
    printf("nicsim %s\n", NICSIM_VERSION);
    return cli__flush_stdout(CLI_EXIT_OK);
  }
  if (strcmp(argv[1], "help") == 0) { /* nicsim help [COMMAND] */
    if (argc == 2) {
      cli__help(stdout);
      return CLI_EXIT_OK;
    }
    cmd = cli__find(argv[2]);
    if (cmd == NULL || argc > 3)
      return cli_usage_error(NULL, "help: unknown command '%s'", argv[2]);
    cmd->help(stdout);
    return CLI_EXIT_OK;
  }
  if (argv[1][0] == '-')
    return cli_usage_error(NULL, "unknown option '%s' (options go after the command)", argv[1]);
  cmd = cli__find(argv[1]);
  if (cmd == NULL)
    return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
  status = cmd->main(argc - 2, argv + 2);
  return cli__flush_stdout(status);
}
