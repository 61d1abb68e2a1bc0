/* merge.c: `nicsim merge` (nicsim_study_merge): combines the directories of
 * sweep shards (same config hash) into one directory with the results.csv of
 * a single run. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/safety.h"
#include "results/input.h"
#include "study/study_internal.h"

/* A buffer to write out (nicsim_emit_fn). */
struct ns__buf {
  char *p;
  size_t n;
};
static int ns__emit_buf(FILE *f, void *arg) {
  struct ns__buf *b = arg;
  return fwrite(b->p, 1, b->n, f) == b->n ? 0 : -EIO;
}

/* Copies file from to to atomically; 0 or -errno. from is read as every
 * results-directory file is (nicsim_read_results_file: no link, no FIFO). */
static int ns__copy(const char *from, const char *to) {
  struct ns__buf b = {NULL, 0};
  int rc = nicsim_read_results_file(from, NICSIM_RESULTS_FILE_MAX, &b.p, &b.n);

  if (rc == 0)
    rc = nicsim_write_atomic(to, ns__emit_buf, &b);
  free(b.p);
  return rc;
}

/* Writes DIR/results.csv from its point files and prints the table. */
static int ns__write_results(const char *cmd, const char *dir, bool quiet, size_t *missing) {
  struct ns_sweepdir d;
  char csv[NC_PATH_MAX + 16];
  int status, rc;

  if ((status = ns_sweepdir_open(&d, cmd, dir)) != 0) {
    ns_sweepdir_close(&d);
    return status;
  }
  *missing = d.n - ns_sweepdir_count(&d);
  snprintf(csv, sizeof(csv), "%s/results.csv", dir);
  rc = nicsim_csv_write_each(csv, d.keys, d.nkeys, ns_sweepdir_count(&d), ns_sweepdir_get, &d);
  if (rc < 0) {
    ns_eprintf("nicsim %s: cannot write %s: %s\n", cmd, csv, nicsim_strerror(-rc));
    status = NICSIM_STUDY_BAD_INPUT;
  } else if (nicsim_sweep_table_print_each(stdout, d.keys, d.nkeys, ns_sweepdir_count(&d),
                                           ns_sweepdir_get, &d) < 0) {
    status = NICSIM_STUDY_BAD_INPUT;
  } else if (!quiet) {
    ns_eprintf("nicsim: %zu of %zu points, results in %s\n", ns_sweepdir_count(&d), d.n,
            csv);
  }
  ns_sweepdir_close(&d);
  return status;
}

/* Combines the directories of one sweep's shards into out (see study.h). */
int nicsim_study_merge(const char *const *dirs, size_t ndirs, const char *out, bool quiet) {
  struct ns_sweepdir *d = NULL;
  size_t i, k, missing = 0, shown = 0;
  char from[NC_PATH_MAX + 300], to[NC_PATH_MAX + 300], why[2 * NC_PATH_MAX + 512];
  int status = 0, rc, lock_fd = -1;

  if (ndirs == 0) { /* the nicsim command reports this as a usage error */
    ns_eprintf("nicsim merge: no sweep directory given\n");
    return NICSIM_STUDY_BAD_INPUT;
  }
  if (out == NULL)
    out = dirs[0];
  if (strlen(out) >= NC_PATH_MAX - 32) { /* never a cut path (issue 23, #2) */
    status = ns_bad_input("merge", "-o OUT is %zu bytes long; the limit is %d", strlen(out),
                             NC_PATH_MAX - 33);
    goto out;
  }
  d = calloc(ndirs, sizeof(*d));
  if (d == NULL) {
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  for (i = 0; i < ndirs; i++) {
    if ((status = ns_sweepdir_open(&d[i], "merge", dirs[i])) != 0)
      goto out;
    if (strcmp(json_string_value(json_object_get(d[i].manifest, "hash")),
               json_string_value(json_object_get(d[0].manifest, "hash"))) != 0 ||
        d[i].n != d[0].n) {
      ns_eprintf(
              "nicsim merge: %s holds another sweep than %s (config hash %s, not %s)\n"
              "  hint: merge only the shards of one sweep (same scenario, --set and version)\n",
              dirs[i], dirs[0], json_string_value(json_object_get(d[i].manifest, "hash")),
              json_string_value(json_object_get(d[0].manifest, "hash")));
      status = NICSIM_STUDY_BAD_INPUT;
      goto out;
    }
  }
  /* Every input point must read back as its point before OUT is touched. */
  for (i = 0; i < ndirs; i++)
    for (k = 0; k < d[i].n; k++)
      if (d[i].have[k] && ns_sweepdir_load(&d[i], k, why, sizeof(why)) != 0) {
        ns_eprintf(
                "nicsim merge: %s\n  hint: delete that file and rerun its point ('nicsim sweep "
                "--resume -o %s'); %s was left untouched\n",
                why, dirs[i], out);
        status = NICSIM_STUDY_BAD_INPUT;
        goto out;
      }
  /* OUT is owned while it is written; a sweep running into it refuses merge. */
  if ((status = ns_sweepdir_lock("merge", out, &lock_fd)) != 0)
    goto out;
  /* As nicsim sweep: never mix two sweeps' results in one directory. */
  if (ns_sweepdir_owner(out, json_string_value(json_object_get(d[0].manifest, "hash")),
                        ns_json_str(d[0].manifest, "scenario", "?"), NULL, why,
                         sizeof(why)) == NS_DIR_OTHER) {
    ns_eprintf(
            "nicsim merge: %s\n  hint: merge into a new directory (-o NEW) or one of this "
            "sweep's; %s was left untouched\n",
            why, out);
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  snprintf(to, sizeof(to), "%s/points", out);
  if ((rc = ns_mkdir_sub(to)) < 0) {
    ns_eprintf("nicsim merge: cannot create %s: %s\n", to, nicsim_strerror(-rc));
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  /* The output may be one of the inputs: copy only what it lacks. */
  for (k = 0; k < d[0].n; k++) {
    const char *label = ns_sweepdir_label(&d[0], k);
    ns_point_file(out, k, d[0].digits, label, to, sizeof(to));
    for (i = 0; i < ndirs; i++) {
      if (!d[i].have[k])
        continue;
      ns_point_file(d[i].dir, k, d[i].digits, label, from, sizeof(from));
      if (strcmp(from, to) != 0 && (rc = ns__copy(from, to)) < 0) {
        ns_eprintf("nicsim merge: cannot copy %s to %s: %s\n", from, to,
                   rc == -ELOOP || rc == -NICSIM_E_NOTREG ? nicsim_read_strerror(rc) : nicsim_strerror(-rc));
        status = NICSIM_STUDY_BAD_INPUT;
        goto out;
      }
      break;
    }
  }
  snprintf(from, sizeof(from), "%s/sweep.json", dirs[0]);
  snprintf(to, sizeof(to), "%s/sweep.json", out);
  if (strcmp(from, to) != 0 && (rc = ns__copy(from, to)) < 0) {
    ns_eprintf("nicsim merge: cannot write %s: %s\n", to, nicsim_strerror(-rc));
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  if ((status = ns__write_results("merge", out, quiet, &missing)) != 0)
    goto out;
  if (missing > 0) {
    struct ns_sweepdir o;
    if (ns_sweepdir_open(&o, "merge", out) == 0) {
      ns_eprintf("nicsim merge: %zu of %zu points have no results:", missing, o.n);
      for (k = 0; k < o.n && shown < 10; k++)
        if (!o.have[k]) {
          ns_eprintf(" %s", ns_sweepdir_label(&o, k));
          shown++;
        }
      ns_eprintf("%s\n  hint: run the missing shards, or 'nicsim sweep --resume -o %s'\n",
              missing > shown ? " ..." : "", out);
    }
    ns_sweepdir_close(&o);
    status = NICSIM_STUDY_FAILED;
  }
out:
  ns_sweepdir_unlock(lock_fd);
  if (d != NULL)
    for (i = 0; i < ndirs; i++)
      ns_sweepdir_close(&d[i]);
  free(d);
  return status;
}
