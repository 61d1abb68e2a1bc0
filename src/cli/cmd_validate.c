/* cmd_validate.c: `nicsim validate`: load scenario files and resolve their
 * base point and every sweep point, without simulating. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "results/escape.h"

enum { OPT_SET = 1, OPT_HELP, OPT_OVERLAY };

static const struct cli_opt cli__validate_opts[] = {
    {"set", 's', true, OPT_SET},
    {"overlay", 'O', true, OPT_OVERLAY},
    {"help", 'h', false, OPT_HELP},
    {NULL, 0, false, 0},
};

/* The --help text of nicsim validate. */
void cli_help_validate(FILE *f) {
  fprintf(f,
          "%s\n\n"
          "Loads each scenario file with its platform, resolves the base point and\n"
          "every sweep point (with the --set overrides) and checks every key, type,\n"
          "range and cross-key rule, without simulating. Prints 'FILE: OK (N points)'\n"
          "on stdout per valid file (N: the sweep points, 1 without a sweep). For\n"
          "a file with errors it prints every error it finds as file:line:col on\n"
          "stderr, in file order (at most 50, then how many more), and 'N errors in\n"
          "FILE'. A YAML syntax error ends the file's check; a rule that depends on\n"
          "a value refused is not checked until that value is fixed.\n"
          "\n"
          "Options:\n"
          "  -s, --set KEY=VALUE  Override a config key (may repeat), as for 'run'\n"
          "  -O, --overlay FILE   Apply an overlay file (may repeat), as for 'run'\n"
          "  -h, --help           Show this help\n"
          "\n"
          "Exit status: 0 if every file is valid, 2 otherwise.\n"
          "\n"
          "Example:\n"
          "  nicsim validate scenarios/*.yaml scenarios/seeds/*.yaml\n",
          cli_synopsis("validate"));
}

/* Validates one file, printing every error it holds (at most
 * NC_ERRORS_SHOWN, then how many more) and their count; 0 or CLI_EXIT_USAGE. */
static int cli__validate_one(const char *path, const struct cli_sets *sets,
                             const struct cli_sets *overlays, struct nicsim_config *cfg) {
  struct nc_errors errs;
  size_t n = 0;
  int status;

  memset(&errs, 0, sizeof(errs));
  status = ns_check_all("validate", path, overlays->v, overlays->n, sets->v, sets->n, cfg, &errs,
                        &n);
  /* The name as one line (a newline in it shown as \x0A): no fake OK line. */
  char shown[4 * NC_PATH_MAX];
  nicsim_term_text(path, shown, sizeof shown);
  if (status == 0)
    ns_printf("%s: OK (%zu point%s)\n", shown, n ? n : 1, n == 1 || n == 0 ? "" : "s");
  else
    ns_print_errors(path, &errs);
  nc_errors_free(&errs);
  return status ? CLI_EXIT_USAGE : 0;
}

/* nicsim validate: load and resolve without simulating. */
int cli_cmd_validate(int argc, char **argv) {
  struct cli_args a;
  struct cli_sets sets = {0}, overlays = {0};
  const char **files = NULL;
  struct nicsim_config *cfg = NULL;
  size_t nfiles = 0, i;
  int opt, status = CLI_EXIT_OK;

  files = calloc((size_t)argc + 1, sizeof(*files));
  cfg = calloc(1, sizeof(*cfg));
  if (files == NULL || cfg == NULL) {
    ns_eprintf("nicsim validate: out of memory\n");
    status = CLI_EXIT_USAGE;
    goto out;
  }
  cli_args_init(&a, argc, argv, 0);
  while ((opt = cli_next(&a, cli__validate_opts)) != CLI_END) {
    switch (opt) {
    case CLI_ERROR:
      status = cli_usage_error("validate", "%s", a.err);
      goto out;
    case CLI_POSITIONAL:
      files[nfiles++] = a.arg;
      break;
    case OPT_SET:
      if ((status = cli_sets_add(&sets, "validate", a.arg)) != 0)
        goto out;
      break;
    case OPT_OVERLAY:
      if ((status = cli_overlays_add(&overlays, "validate", a.arg)) != 0)
        goto out;
      break;
    case OPT_HELP:
      cli_help_validate(stdout);
      goto out;
    }
  }
  if (nfiles == 0) {
    status = cli_usage_error("validate", "no scenario file given");
    goto out;
  }
  for (i = 0; i < nfiles; i++)
    if (cli__validate_one(files[i], &sets, &overlays, cfg) != 0)
      status = CLI_EXIT_USAGE;
out:
  free(cfg);
  free(files);
  cli_sets_free(&sets);
  cli_sets_free(&overlays);
  return status;
}
