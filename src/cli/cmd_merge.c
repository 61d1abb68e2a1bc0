/* cmd_merge.c: `nicsim merge`: its options and help; the merge of shard
 * directories is nicsim_study_merge (src/study/merge.c). */
#define _XOPEN_SOURCE 700

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

enum { OPT_OUT = 1, OPT_QUIET, OPT_HELP };

static const struct cli_opt cli__merge_opts[] = {
    {"output", 'o', true, OPT_OUT},
    {"quiet", 'q', false, OPT_QUIET},
    {"help", 'h', false, OPT_HELP},
    {NULL, 0, false, 0},
};

/* The --help text of nicsim merge. */
void cli_help_merge(FILE *f) {
  fprintf(f,
          "%s\n\n"
          "Combines sweep directories of the same sweep (for instance the shards of\n"
          "'nicsim sweep --shard K/N', run on several hosts) into one: the point files\n"
          "of every directory, sweep.json, and results.csv and the table exactly as a\n"
          "single run writes them. Directories of different sweeps (another config\n"
          "hash) are refused, and so is an OUT holding another sweep's results. Every\n"
          "input point file is checked before anything is written to OUT.\n"
          "\n"
          "Options:\n"
          "  -o, --output OUT  Directory to merge into (default: the first DIR)\n"
          "  -q, --quiet       No progress note on stderr\n"
          "  -h, --help        Show this help\n"
          "\n"
          "Exit status: 0 every point is present, 1 some points have no results (they\n"
          "are listed), 2 bad input (not a sweep directory, different sweeps, a\n"
          "corrupt point file; OUT is then left untouched).\n"
          "\n"
          "Example:\n"
          "  nicsim merge out/shard1 out/shard2 out/shard3 -o out/all\n",
          cli_synopsis("merge"));
}

/* nicsim merge: combine shard directories. */
int cli_cmd_merge(int argc, char **argv) {
  struct cli_args a;
  const char *out = NULL, **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
  size_t ndirs = 0;
  bool quiet = false;
  int opt, status = 0;

  if (dirs == NULL)
    return CLI_EXIT_USAGE;
  cli_args_init(&a, argc, argv, 0);
  while ((opt = cli_next(&a, cli__merge_opts)) != CLI_END) {
    switch (opt) {
    case CLI_ERROR:
      status = cli_usage_error("merge", "%s", a.err);
      goto out;
    case CLI_POSITIONAL:
      dirs[ndirs++] = a.arg;
      break;
    case OPT_OUT:
      out = a.arg;
      break;
    case OPT_QUIET:
      quiet = true;
      break;
    case OPT_HELP:
      cli_help_merge(stdout);
      goto out;
    }
  }
  if (ndirs == 0) {
    status = cli_usage_error("merge", "no sweep directory given");
    goto out;
  }
  if (out != NULL && out[0] == '\0') {
    status = cli_usage_error("merge", "-o needs a directory name");
    goto out;
  }
  status = nicsim_study_merge(dirs, ndirs, out, quiet);
out:
  free(dirs);
  return status;
}
