/* cmd_bench.c: `nicsim bench`, the simulation-speed benchmark: its options
 * and help; the measurement is nicsim_study_bench (src/study/speed_bench.c). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

enum { OPT_JSON = 1, OPT_PACKETS, OPT_QUICK, OPT_SCALING, OPT_QUIET, OPT_HELP, OPT_REPEAT };

static const struct cli_opt cli__bench_opts[] = {
    {"json", 0, true, OPT_JSON},         {"packets", 'n', true, OPT_PACKETS},
    {"quick", 0, false, OPT_QUICK},      {"scaling", 0, false, OPT_SCALING},
    {"quiet", 'q', false, OPT_QUIET},    {"help", 'h', false, OPT_HELP},
    {"repeat", 'r', true, OPT_REPEAT},
    {NULL, 0, false, 0},
};

#define CLI__BENCH_SYNOPSIS                                                                   \
  "usage: nicsim bench [--json FILE] [--packets N] [--repeat N] [--quick] [--scaling] [-q] [WORKLOAD...]\n" \
  "       workloads: rx64-10g, bidir1500, lan743x, i40e"

/* Packets per workload and kernel activations per variant, normal and --quick. */
#define CLI__BENCH_PACKETS 1000000ull
#define CLI__BENCH_QUICK_PACKETS 50000ull
#define CLI__BENCH_MAX_PACKETS 100000000ull
#define CLI__BENCH_KERNEL_ACTS 2000000ull
#define CLI__BENCH_QUICK_KERNEL_ACTS 200000ull
#define CLI__BENCH_MAX_REPEAT 100

/* The --help text of nicsim bench. */
void cli_help_bench(FILE *f) {
  fprintf(f,
          "%s\n\n"
          "Measures how fast nicsim simulates on this machine. Each workload runs in\n"
          "its own child process; then the bare SystemC kernel is measured (event\n"
          "notify/wait between two processes, timed waits; SC_THREAD and SC_METHOD).\n"
          "Without WORKLOAD, runs them all.\n"
          "\n"
          "Workloads:\n"
          "  rx64-10g   64 B RX-only at line rate on 10 GbE, generic NIC and driver\n"
          "  bidir1500  1500 B bidirectional at line rate on 10 GbE\n"
          "  lan743x    scenarios/seeds/lan743x-dspace.yaml, first point labelled before...\n"
          "  i40e       scenarios/seeds/i40e-relaxed-ordering.yaml, first point labelled before...\n"
          "  (a seed scenario that does not exist yet is replaced by the default scenario\n"
          "  with nic.family and driver.name set; a workload that cannot run is reported\n"
          "  on stderr, marked skipped in the JSON, and the others go on)\n"
          "\n"
          "Options:\n"
          "      --json FILE      Write the figures as JSON (docs/performance.md)\n"
          "  -n, --packets N      Frames offered per workload (default %llu); the traffic\n"
          "                       duration is set from the offered rate\n"
          "  -r, --repeat N       Run each workload and kernel variant N times (1 to %d,\n"
          "                       default 1) and keep the fastest run: on a shared machine\n"
          "                       other work only slows a run down\n"
          "      --quick          %llu frames per workload (unless --packets says) and a\n"
          "                       tenth of the kernel work\n"
          "      --scaling        Memory and time scaling check instead: rx64-10g at N and\n"
          "                       10 N frames; prints the RSS and time ratios\n"
          "  -q, --quiet          No progress on stderr\n"
          "  -h, --help           Show this help\n"
          "\n"
          "Per workload: simulated frames per wall second, simulated ns per wall second,\n"
          "SystemC events (delta cycles) per frame, peak RSS of the child, and\n"
          "bound_ratio = frames/s / (kernel events/s / events per frame).\n"
          "Exit status: 0 at least one workload ran, 1 none did, 2 bad input.\n"
          "\n"
          "Examples:\n"
          "  nicsim bench --json bench.json\n"
          "  nicsim bench --quick rx64-10g\n"
          "  nicsim bench --scaling --packets 1000000\n",
          CLI__BENCH_SYNOPSIS, CLI__BENCH_PACKETS, CLI__BENCH_MAX_REPEAT, CLI__BENCH_QUICK_PACKETS);
}

/* A usage error of nicsim bench (its synopsis is kept here); CLI_EXIT_USAGE. */
static int cli__bench_usage(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static int cli__bench_usage(const char *fmt, ...) {
  va_list ap;

  ns_eprintf("nicsim bench: ");
  va_start(ap, fmt);
  ns_veprintf(fmt, ap);
  va_end(ap);
  ns_eprintf("\n%s\nRun 'nicsim bench --help' for all options.\n", CLI__BENCH_SYNOPSIS);
  return CLI_EXIT_USAGE;
}

/* Parses --packets; 0 on a bad value. */
static unsigned long long cli__parse_packets(const char *s) {
  int64_t v;

  if (nc_int_parse(s, 1, CLI__BENCH_MAX_PACKETS, &v) != 0)
    return 0;
  return (unsigned long long)v;
}

/* nicsim bench: workloads and the kernel, or the scaling check. */
int cli_cmd_bench(int argc, char **argv) {
  struct cli_args a;
  struct nicsim_bench_opts o;
  const char *json = NULL, *packets_arg = NULL;
  const char *chosen[16]; /* distinct workload names */
  unsigned long long packets = CLI__BENCH_PACKETS;
  uint64_t acts = CLI__BENCH_KERNEL_ACTS;
  bool quick = false, scaling = false, quiet = false;
  const char *repeat_arg = NULL;
  unsigned long long repeat = 1;
  size_t nchosen = 0, k;
  int opt, status;

  cli_args_init(&a, argc, argv, 0);
  while ((opt = cli_next(&a, cli__bench_opts)) != CLI_END) {
    switch (opt) {
    case CLI_ERROR:
      return cli__bench_usage("%s", a.err);
    case CLI_POSITIONAL:
      for (k = 0; nicsim_study_bench_workload(k) != NULL &&
                  strcmp(nicsim_study_bench_workload(k), a.arg) != 0;
           k++)
        ;
      if (nicsim_study_bench_workload(k) == NULL)
        return cli__bench_usage("unknown workload '%s' (the workloads are rx64-10g, bidir1500, "
                                "lan743x, i40e)", a.arg);
      for (k = 0; k < nchosen && strcmp(chosen[k], a.arg) != 0; k++)
        ;
      if (k == nchosen) /* each workload once */
        chosen[nchosen++] = a.arg;
      break;
    case OPT_JSON:
      json = a.arg;
      break;
    case OPT_PACKETS:
      packets_arg = a.arg;
      break;
    case OPT_QUICK:
      quick = true;
      break;
    case OPT_SCALING:
      scaling = true;
      break;
    case OPT_QUIET:
      quiet = true;
      break;
    case OPT_REPEAT:
      repeat_arg = a.arg;
      break;
    case OPT_HELP:
      cli_help_bench(stdout);
      return CLI_EXIT_OK;
    }
  }
  if (quick) {
    packets = CLI__BENCH_QUICK_PACKETS;
    acts = CLI__BENCH_QUICK_KERNEL_ACTS;
  }
  if (packets_arg != NULL) {
    packets = cli__parse_packets(packets_arg);
    if (packets == 0)
      return cli__bench_usage("--packets expects a whole number of frames from 1 to %llu, got '%s'",
                              CLI__BENCH_MAX_PACKETS, packets_arg);
  }
  if (repeat_arg != NULL) {
    repeat = cli__parse_packets(repeat_arg);
    if (repeat == 0 || repeat > CLI__BENCH_MAX_REPEAT)
      return cli__bench_usage("--repeat expects a whole number of runs from 1 to %d, got '%s'",
                              CLI__BENCH_MAX_REPEAT, repeat_arg);
  }
  if (json != NULL && (status = cli_check_output_path("bench", "JSON", json)) != 0)
    return status;
  if (scaling) {
    if (nchosen > 0)
      return cli__bench_usage("--scaling runs rx64-10g only; no workload names go with it");
    if (repeat_arg != NULL)
      return cli__bench_usage("--scaling runs each size once; --repeat does not go with it");
    if (packets * 10 > CLI__BENCH_MAX_PACKETS)
      return cli__bench_usage("--scaling: 10 x --packets must be at most %llu frames",
                              CLI__BENCH_MAX_PACKETS);
  }
  memset(&o, 0, sizeof(o));
  o.workloads = chosen;
  o.nworkloads = nchosen;
  o.packets = packets;
  o.kernel_activations = acts;
  o.repeat = (unsigned)repeat;
  o.scaling = scaling;
  o.json = json;
  o.quiet = quiet;
  return nicsim_study_bench(&o);
}
