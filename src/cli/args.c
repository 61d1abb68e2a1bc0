/* args.c: a small getopt_long-style option parser whose state lives in the
 * caller's struct cli_args, so each command parses its own arguments afresh. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* Starts parsing argv from index first. */
void cli_args_init(struct cli_args *a, int argc, char **argv, int first) {
  memset(a, 0, sizeof(*a));
  a->argc = argc;
  a->argv = argv;
  a->i = first;
}

/* The option with this long name (length len), or NULL. */
static const struct cli_opt *cli__find_long(const struct cli_opt *opts, const char *name,
                                            size_t len) {
  for (; opts->name != NULL; opts++)
    if (strlen(opts->name) == len && strncmp(opts->name, name, len) == 0)
      return opts;
  return NULL;
}

/* The option with this short name, or NULL. */
static const struct cli_opt *cli__find_short(const struct cli_opt *opts, char c) {
  for (; opts->name != NULL; opts++)
    if (opts->short_name != 0 && opts->short_name == c)
      return opts;
  return NULL;
}

/* Parses "--name", "--name=value" or "--name value" at argv[i-1] (= arg). */
static int cli__long(struct cli_args *a, const struct cli_opt *opts, const char *arg) {
  const char *name = arg + 2, *eq = strchr(name, '=');
  size_t len = eq ? (size_t)(eq - name) : strlen(name);
  const struct cli_opt *o = cli__find_long(opts, name, len);

  if (o == NULL) {
    snprintf(a->err, sizeof(a->err), "unknown option '--%.*s'", (int)len, name);
    return CLI_ERROR;
  }
  if (!o->has_arg) {
    if (eq != NULL) {
      snprintf(a->err, sizeof(a->err), "option '--%s' takes no value", o->name);
      return CLI_ERROR;
    }
    a->arg = NULL;
    return o->id;
  }
  if (eq != NULL) {
    a->arg = eq + 1;
    return o->id;
  }
  if (a->i >= a->argc) {
    snprintf(a->err, sizeof(a->err), "option '--%s' needs a value", o->name);
    return CLI_ERROR;
  }
  a->arg = a->argv[a->i++];
  return o->id;
}

/* Parses the next option letter of the current short cluster. */
static int cli__short(struct cli_args *a, const struct cli_opt *opts) {
  char c = *a->cluster++;
  const struct cli_opt *o = cli__find_short(opts, c);

  if (o == NULL) {
    a->cluster = NULL;
    snprintf(a->err, sizeof(a->err), "unknown option '-%c'", c);
    return CLI_ERROR;
  }
  if (!o->has_arg) {
    if (*a->cluster == '\0')
      a->cluster = NULL;
    a->arg = NULL;
    return o->id;
  }
  if (*a->cluster != '\0') { /* -j4 */
    a->arg = a->cluster;
    a->cluster = NULL;
    return o->id;
  }
  a->cluster = NULL;
  if (a->i >= a->argc) {
    snprintf(a->err, sizeof(a->err), "option '-%c' needs a value", c);
    return CLI_ERROR;
  }
  a->arg = a->argv[a->i++];
  return o->id;
}

/* Next option, positional, end or error. */
int cli_next(struct cli_args *a, const struct cli_opt *opts) {
  const char *arg;

  a->arg = NULL;
  if (a->cluster != NULL)
    return cli__short(a, opts);
  if (a->i >= a->argc)
    return CLI_END;
  arg = a->argv[a->i++];
  if (a->only_positional || arg[0] != '-' || arg[1] == '\0') { /* "-" is a positional */
    a->arg = arg;
    return CLI_POSITIONAL;
  }
  if (strcmp(arg, "--") == 0) {
    a->only_positional = true;
    return cli_next(a, opts);
  }
  if (arg[1] == '-')
    return cli__long(a, opts, arg);
  a->cluster = arg + 1;
  return cli__short(a, opts);
}
