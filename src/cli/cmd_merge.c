/* cmd_merge.c: `nicsim merge`: combines the directories of sweep shards (same
 * config hash) into one directory with the results.csv of a single run. */
#define _XOPEN_SOURCE 700

#include <errno.h>
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

/* A buffer to write out (nicsim_emit_fn). */
struct cli__buf {
  char *p;
  size_t n;
};
static int cli__emit_buf(FILE *f, void *arg) {
  struct cli__buf *b = arg;
  return fwrite(b->p, 1, b->n, f) == b->n ? 0 : -EIO;
}

/* Copies file from to to atomically; 0 or -errno. */
static int cli__copy(const char *from, const char *to) {
  struct cli__buf b = {NULL, 0};
  FILE *f = fopen(from, "rb");
  char chunk[65536];
  size_t got;
  int rc = 0;

  if (f == NULL)
    return -errno;
  while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
    char *p = realloc(b.p, b.n + got);
    if (p == NULL) {
      rc = -ENOMEM;
      break;
    }
    b.p = p;
    memcpy(b.p + b.n, chunk, got);
    b.n += got;
  }
  if (ferror(f) && rc == 0)
    rc = -EIO;
  fclose(f);
  if (rc == 0)
    rc = nicsim_write_atomic(to, cli__emit_buf, &b);
  free(b.p);
  return rc;
}

/* Writes DIR/results.csv from its point files and prints the table. */
static int cli__write_results(const char *cmd, const char *dir, bool quiet, size_t *missing) {
  struct cli_sweepdir d;
  char csv[NC_PATH_MAX + 16];
  int status, rc;

  if ((status = cli_sweepdir_open(&d, cmd, dir)) != 0) {
    cli_sweepdir_close(&d);
    return status;
  }
  *missing = d.n - cli_sweepdir_count(&d);
  snprintf(csv, sizeof(csv), "%s/results.csv", dir);
  rc = nicsim_csv_write_each(csv, d.keys, d.nkeys, cli_sweepdir_count(&d), cli_sweepdir_get, &d);
  if (rc < 0) {
    cli_eprintf("nicsim %s: cannot write %s: %s\n", cmd, csv, strerror(-rc));
    status = CLI_EXIT_USAGE;
  } else if (nicsim_sweep_table_print_each(stdout, d.keys, d.nkeys, cli_sweepdir_count(&d),
                                           cli_sweepdir_get, &d) < 0) {
    status = CLI_EXIT_USAGE;
  } else if (!quiet) {
    cli_eprintf("nicsim: %zu of %zu points, results in %s\n", cli_sweepdir_count(&d), d.n,
            csv);
  }
  cli_sweepdir_close(&d);
  return status;
}

/* nicsim merge: combine shard directories. */
int cli_cmd_merge(int argc, char **argv) {
  struct cli_args a;
  const char *out = NULL, **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
  struct cli_sweepdir *d = NULL;
  size_t ndirs = 0, i, k, missing = 0, shown = 0;
  char from[NC_PATH_MAX + 300], to[NC_PATH_MAX + 300], why[2 * NC_PATH_MAX + 512];
  bool quiet = false;
  int opt, status = 0, rc, lock_fd = -1;

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
  if (out == NULL)
    out = dirs[0];
  if (strlen(out) >= NC_PATH_MAX - 32) { /* never a cut path (issue 23, #2) */
    status = cli_usage_error("merge", "-o OUT is %zu bytes long; the limit is %d", strlen(out),
                             NC_PATH_MAX - 33);
    goto out;
  }
  d = calloc(ndirs, sizeof(*d));
  if (d == NULL) {
    status = CLI_EXIT_USAGE;
    goto out;
  }
  for (i = 0; i < ndirs; i++) {
    if ((status = cli_sweepdir_open(&d[i], "merge", dirs[i])) != 0)
      goto out;
    if (strcmp(json_string_value(json_object_get(d[i].manifest, "hash")),
               json_string_value(json_object_get(d[0].manifest, "hash"))) != 0 ||
        d[i].n != d[0].n) {
      cli_eprintf(
              "nicsim merge: %s holds another sweep than %s (config hash %s, not %s)\n"
              "  hint: merge only the shards of one sweep (same scenario, --set and version)\n",
              dirs[i], dirs[0], json_string_value(json_object_get(d[i].manifest, "hash")),
              json_string_value(json_object_get(d[0].manifest, "hash")));
      status = CLI_EXIT_USAGE;
      goto out;
    }
  }
  /* Every input point must read back as its point before OUT is touched. */
  for (i = 0; i < ndirs; i++)
    for (k = 0; k < d[i].n; k++)
      if (d[i].have[k] && cli_sweepdir_load(&d[i], k, why, sizeof(why)) != 0) {
        cli_eprintf(
                "nicsim merge: %s\n  hint: delete that file and rerun its point ('nicsim sweep "
                "--resume -o %s'); %s was left untouched\n",
                why, dirs[i], out);
        status = CLI_EXIT_USAGE;
        goto out;
      }
  /* OUT is owned while it is written; a sweep running into it refuses merge. */
  if ((status = cli_sweepdir_lock("merge", out, &lock_fd)) != 0)
    goto out;
  /* As nicsim sweep: never mix two sweeps' results in one directory. */
  if (cli_sweepdir_owner(out, json_string_value(json_object_get(d[0].manifest, "hash")),
                         cli_json_str(d[0].manifest, "scenario", "?"), NULL, why,
                         sizeof(why)) == CLI_DIR_OTHER) {
    cli_eprintf(
            "nicsim merge: %s\n  hint: merge into a new directory (-o NEW) or one of this "
            "sweep's; %s was left untouched\n",
            why, out);
    status = CLI_EXIT_USAGE;
    goto out;
  }
  snprintf(to, sizeof(to), "%s/points", out);
  if ((rc = cli_mkdir_p(to)) < 0) {
    cli_eprintf("nicsim merge: cannot create %s: %s\n", to, strerror(-rc));
    status = CLI_EXIT_USAGE;
    goto out;
  }
  /* The output may be one of the inputs: copy only what it lacks. */
  for (k = 0; k < d[0].n; k++) {
    const char *label = cli_sweepdir_label(&d[0], k);
    cli_point_file(out, k, d[0].digits, label, to, sizeof(to));
    for (i = 0; i < ndirs; i++) {
      if (!d[i].have[k])
        continue;
      cli_point_file(d[i].dir, k, d[i].digits, label, from, sizeof(from));
      if (strcmp(from, to) != 0 && (rc = cli__copy(from, to)) < 0) {
        cli_eprintf("nicsim merge: cannot copy %s to %s: %s\n", from, to, strerror(-rc));
        status = CLI_EXIT_USAGE;
        goto out;
      }
      break;
    }
  }
  snprintf(from, sizeof(from), "%s/sweep.json", dirs[0]);
  snprintf(to, sizeof(to), "%s/sweep.json", out);
  if (strcmp(from, to) != 0 && (rc = cli__copy(from, to)) < 0) {
    cli_eprintf("nicsim merge: cannot write %s: %s\n", to, strerror(-rc));
    status = CLI_EXIT_USAGE;
    goto out;
  }
  if ((status = cli__write_results("merge", out, quiet, &missing)) != 0)
    goto out;
  if (missing > 0) {
    struct cli_sweepdir o;
    if (cli_sweepdir_open(&o, "merge", out) == 0) {
      cli_eprintf("nicsim merge: %zu of %zu points have no results:", missing, o.n);
      for (k = 0; k < o.n && shown < 10; k++)
        if (!o.have[k]) {
          cli_eprintf(" %s", cli_sweepdir_label(&o, k));
          shown++;
        }
      cli_eprintf("%s\n  hint: run the missing shards, or 'nicsim sweep --resume -o %s'\n",
              missing > shown ? " ..." : "", out);
    }
    cli_sweepdir_close(&o);
    status = CLI_EXIT_SIM;
  }
out:
  cli_sweepdir_unlock(lock_fd);
  if (d != NULL)
    for (i = 0; i < ndirs; i++)
      cli_sweepdir_close(&d[i]);
  free(d);
  free(dirs);
  return status;
}
