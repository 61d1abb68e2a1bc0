/* sweepdir.c: a sweep's output directory read back from its files alone:
 * the manifest DIR/sweep.json and the point files DIR/points/<id>.json. */
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/file.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "study/study_internal.h"
#include "results/input.h"
#include "results/safety.h"

/* Width of the index in the file names of n points. */
int ns_point_digits(size_t n) {
  int d = 1;
  size_t i;
  for (i = n > 0 ? n - 1 : 0; i >= 10; i /= 10)
    d++;
  return d;
}

/* DIR/points/<index>-<label>.json. */
void ns_point_file(const char *dir, size_t i, int digits, const char *label, char *buf,
                   size_t n) {
  char safe[128];
  ns_sanitise(label ? label : "", safe, sizeof(safe));
  if ((size_t)snprintf(buf, n, "%s/points/%0*zu-%s.json", dir, digits, i, safe) >= n)
    buf[0] = '\0'; /* never a cut name (another file): "" opens nothing */
}

/* The failure record of a point file (see study_internal.h). */
void ns_point_error_file(const char *point_file, char *buf, size_t n) {
  size_t len = strlen(point_file);
  if (len < 5 || (size_t)snprintf(buf, n, "%.*s.error", (int)(len - 5), point_file) >= n)
    buf[0] = '\0';
}

/* Reads point i's failure record into buf (one line, at most n - 1 bytes);
 * true if there is one. */
bool ns_sweepdir_point_error(const struct ns_sweepdir *d, size_t i, char *buf, size_t n) {
  char path[NC_PATH_MAX + 256], err[NC_PATH_MAX + 256], *text;
  size_t len;
  int rc;
  if (n == 0 || i >= d->n)
    return false;
  ns_point_file(d->dir, i, d->digits, ns_sweepdir_label(d, i), path, sizeof(path));
  ns_point_error_file(path, err, sizeof(err));
  if (err[0] == '\0')
    return false;
  /* The one reader of results directories: a link (to any readable file,
   * whose first line would reach a shared report) or a FIFO is refused. */
  if ((rc = nicsim_read_results_file(err, 64 << 10, &text, &len)) < 0) {
    if (rc != -ENOENT)
      ns_eprintf("nicsim: note: skipping the failure record %s: it %s\n", err,
                 nicsim_read_strerror(rc));
    return false;
  }
  snprintf(buf, n, "%.*s", (int)strcspn(text, "\n"), text);
  free(text);
  return buf[0] != '\0';
}

/* True if name is a point file's name: <digits>-<sanitised label>.json. */
bool ns_is_point_file_name(const char *name) {
  size_t len = strlen(name), i = 0;
  if (len < 7 || strcmp(name + len - 5, ".json") != 0)
    return false;
  while (name[i] >= '0' && name[i] <= '9')
    i++;
  if (i == 0 || name[i] != '-')
    return false;
  for (i++; i < len - 5; i++) {
    char c = name[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
          c == '_' || c == '+' || c == '-'))
      return false;
  }
  return true;
}

/* FNV-1a 64 over len bytes, continuing from h. */
static uint64_t ns__fnv(uint64_t h, const char *p, size_t len) {
  while (len-- > 0) {
    h ^= (unsigned char)*p++;
    h *= 0x100000001b3ull;
  }
  return h;
}

/* Folds text (with its terminator) into the hash h. */
uint64_t ns_hash_text(uint64_t h, const char *text) { return ns__fnv(h, text, strlen(text) + 1); }

/* Folds a resolved config into h; see cli.h. */
int ns_hash_config(const struct nicsim_config *cfg, uint64_t *h) {
  json_t *j = nicsim_config_to_json(cfg);
  char *text = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))
                 : NULL;
  json_decref(j);
  if (text == NULL)
    return -ENOMEM;
  *h = ns_hash_text(*h, text);
  free(text);
  return 0;
}

/* Takes DIR's lock; see cli.h. */
int ns_sweepdir_lock(const char *cmd, const char *dir, int *fd_out) {
  char path[NC_PATH_MAX + 32], pid[32] = "";
  int fd, rc;
  ssize_t got;

  *fd_out = -1;
  if ((size_t)snprintf(path, sizeof(path), "%s/.nicsim.lock", dir) >= sizeof(path)) {
    ns_eprintf("nicsim %s: %s: path too long\n", cmd, dir);
    return NICSIM_STUDY_BAD_INPUT;
  }
  if ((rc = ns_mkdir_p(dir)) < 0) {
    ns_eprintf("nicsim %s: cannot create %s: %s\n", cmd, dir, strerror(-rc));
    return NICSIM_STUDY_BAD_INPUT;
  }
  fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) {
    ns_eprintf("nicsim %s: cannot open the lock %s: %s\n", cmd, path, strerror(errno));
    return NICSIM_STUDY_BAD_INPUT;
  }
  /* flock: released by the kernel when the holder (and the workers it
   * forked) are gone, so a killed sweep leaves no stale lock. */
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int e = errno;
    got = read(fd, pid, sizeof(pid) - 1);
    pid[got > 0 ? got : 0] = '\0';
    pid[strcspn(pid, "\n")] = '\0';
    close(fd);
    if (e == EWOULDBLOCK)
      ns_eprintf("nicsim %s: %s is in use by a running sweep (pid %s)\n"
                  "  hint: wait for it to finish, or use another directory\n",
                  cmd, dir, pid[0] ? pid : "unknown");
    else
      ns_eprintf("nicsim %s: cannot lock %s: %s\n", cmd, path, strerror(e));
    return NICSIM_STUDY_BAD_INPUT;
  }
  snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
  if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, strlen(pid), 0) < 0) {
    /* The lock holds without the note. */
  }
  *fd_out = fd;
  return 0;
}

void ns_sweepdir_unlock(int fd) {
  if (fd >= 0)
    close(fd);
}

/* String member key of obj, or def. */
const char *ns_json_str(json_t *obj, const char *key, const char *def) {
  const char *v = json_string_value(json_object_get(obj, key));
  return v ? v : def;
}

/* String element i of arr, or def. */
const char *ns_json_at(json_t *arr, size_t i, const char *def) {
  const char *v = json_string_value(json_array_get(arr, i));
  return v ? v : def;
}

/* Label of point i from the manifest. */
const char *ns_sweepdir_label(const struct ns_sweepdir *d, size_t i) {
  const char *l = json_string_value(json_array_get(json_object_get(d->manifest, "labels"), i));
  return l ? l : "";
}

/* Opens a sweep directory. */
int ns_sweepdir_open(struct ns_sweepdir *d, const char *cmd, const char *dir) {
  char path[NC_PATH_MAX + 32], why[256];
  json_t *keys;
  struct stat st;
  size_t i;

  memset(d, 0, sizeof(*d));
  d->baseline = -1;
  if (strlen(dir) >= sizeof(d->dir)) {
    ns_eprintf("nicsim %s: %s: the path is longer than %zu bytes\n", cmd, dir,
                sizeof(d->dir) - 1);
    return NICSIM_STUDY_BAD_INPUT;
  }
  snprintf(d->dir, sizeof(d->dir), "%s", dir);
  snprintf(path, sizeof(path), "%s/sweep.json", dir);
  {
    char where[NC_PATH_MAX + 256];
    int rc;
    d->manifest = nicsim_results_json_load(path, &rc, where, sizeof(where));
    if (d->manifest == NULL) {
      if (rc == -ENOENT || rc == -ENOTDIR)
        ns_eprintf("nicsim %s: %s is not a sweep directory: %s: %s\n", cmd, dir, path,
                   strerror(-rc));
      else
        ns_eprintf("nicsim %s: %s\n", cmd, where);
      return NICSIM_STUDY_BAD_INPUT;
    }
  }
  keys = json_object_get(d->manifest, "swept");
  if (nicsim_manifest_check(d->manifest, &d->n, &d->baseline, why, sizeof(why)) != 0) {
    ns_eprintf("nicsim %s: %s: %s\n  hint: run 'nicsim sweep' again to rewrite sweep.json\n", cmd,
                path, why);
    return NICSIM_STUDY_BAD_INPUT;
  }
  d->digits = ns_point_digits(d->n);
  for (i = 0; i < json_array_size(keys); i++)
    d->keys[i] = json_string_value(json_array_get(keys, i));
  d->nkeys = i;
  d->point_hashes = json_object_get(d->manifest, "point_hashes");
  d->cfg = calloc(1, sizeof(*d->cfg));
  d->res = calloc(1, sizeof(*d->res));
  d->have = calloc(d->n ? d->n : 1, sizeof(*d->have));
  if (d->cfg == NULL || d->res == NULL || d->have == NULL) {
    ns_eprintf("nicsim %s: out of memory\n", cmd);
    return NICSIM_STUDY_BAD_INPUT;
  }
  for (i = 0; i < d->n; i++) {
    ns_point_file(dir, i, d->digits, ns_sweepdir_label(d, i), path, sizeof(path));
    d->have[i] = lstat(path, &st) == 0 && S_ISREG(st.st_mode);
    if (!d->have[i] && lstat(path, &st) == 0)
      ns_eprintf("nicsim %s: note: skipping %s: it %s\n", cmd, path,
                 nicsim_read_strerror(S_ISLNK(st.st_mode) ? -ELOOP : -NICSIM_E_NOTREG));
  }
  return 0;
}

/* Frees what open allocated. */
void ns_sweepdir_close(struct ns_sweepdir *d) {
  json_decref(d->manifest);
  free(d->cfg);
  free(d->res);
  free(d->have);
  memset(d, 0, sizeof(*d));
}

/* Loads point i, checking that its file holds that point. */
int ns_sweepdir_load(struct ns_sweepdir *d, size_t i, char *why, size_t n) {
  char path[NC_PATH_MAX + 300];
  const char *label = ns_sweepdir_label(d, i);

  ns_point_file(d->dir, i, d->digits, label, path, sizeof(path));
  if (nicsim_point_json_read(path, d->cfg, d->res, NULL, why, n) != 0)
    return -1;
  if (ns_point_label_check(path, d->cfg, label, why, n) != 0)
    return -1;
  if (d->point_hashes != NULL) {
    const char *want = json_string_value(json_array_get(d->point_hashes, i));
    char got[32];
    uint64_t h = NS_HASH_BASIS;
    if (ns_hash_config(d->cfg, &h) != 0)
      return -1;
    snprintf(got, sizeof(got), "%016llx", (unsigned long long)h);
    if (want == NULL || strcmp(want, got) != 0) {
      snprintf(why, n,
               "%s holds a configuration that is not point '%s' of this sweep (its config hash "
               "is %s, sweep.json says %s)",
               path, label, got, want ? want : "?");
      return -1;
    }
  }
  if (ns_point_metrics_check(path, d->cfg, d->res, why, n) != 0)
    return -1;
  return 0;
}

/* Checks that a point file holds every metric its run reports. */
int ns_point_metrics_check(const char *path, const struct nicsim_config *cfg,
                            const struct nicsim_results *res, char *why, size_t n) {
  const struct nicsim_metric_def *defs = nicsim_metric_defs();
  size_t k;
  for (k = 0; k < nicsim_metric_count(); k++)
    if (!res->present[k] && nicsim_metric_expected(cfg, k)) {
      snprintf(why, n, "%s has no metric %s (every run of its configuration reports it)", path,
               defs[k].name);
      return -1;
    }
  return 0;
}

/* Checks that a point file's config is the point of the manifest's label. */
int ns_point_label_check(const char *path, const struct nicsim_config *cfg, const char *label,
                         char *why, size_t n) {
  if (strcmp(cfg->label, label) == 0)
    return 0;
  snprintf(why, n, "%s holds point '%s', not '%s' (the point its name and sweep.json give)",
           path, cfg->label, label);
  return -1;
}

/* True if DIR holds sweep results (results.csv or any point file). */
static bool ns__dir_has_results(const char *dir) {
  char path[NC_PATH_MAX + 16];
  DIR *d;
  struct dirent *e;
  bool found = false;

  snprintf(path, sizeof(path), "%s/results.csv", dir);
  if (access(path, F_OK) == 0)
    return true;
  snprintf(path, sizeof(path), "%s/points", dir);
  if ((d = opendir(path)) == NULL)
    return false;
  while (!found && (e = readdir(d)) != NULL)
    found = ns_is_point_file_name(e->d_name);
  closedir(d);
  return found;
}

/* Says whose results DIR holds, for a sweep about to write there. */
int ns_sweepdir_owner(const char *dir, const char *hash, const char *name, const char *entry,
                      char *why, size_t n) {
  char path[NC_PATH_MAX + 16], where[NC_PATH_MAX + 256];
  json_t *m;
  const char *mhash, *mentry;
  int rc;

  snprintf(path, sizeof(path), "%s/sweep.json", dir);
  m = nicsim_results_json_load(path, &rc, where, sizeof(where));
  if (m == NULL) {
    if (rc != -ENOENT && rc != -ENOTDIR) {
      snprintf(why, n, "%s (so which sweep %s holds is unknown)", where, dir);
      return NS_DIR_OTHER;
    }
    if (!ns__dir_has_results(dir))
      return NS_DIR_FREE;
    snprintf(why, n, "%s holds results without a sweep.json", dir);
    return NS_DIR_OTHER;
  }
  mhash = ns_json_str(m, "hash", "?");
  mentry = ns_json_str(m, "regress", NULL);
  if (hash != NULL && strcmp(mhash, hash) == 0)
    rc = NS_DIR_FREE;
  else if (entry != NULL && mentry != NULL && strcmp(entry, mentry) == 0)
    rc = NS_DIR_OWN;
  else {
    rc = NS_DIR_OTHER;
    if (hash != NULL)
      snprintf(why, n,
               "%s holds the results of another sweep (scenario '%s', config hash %s; this one "
               "is '%s', %s)",
               dir, ns_json_str(m, "scenario", "?"), mhash, name, hash);
    else
      snprintf(why, n,
               "%s holds the results of a sweep that is not regress entry '%s' (scenario '%s', "
               "config hash %s)",
               dir, entry, ns_json_str(m, "scenario", "?"), mhash);
  }
  json_decref(m);
  return rc;
}

/* Removes another sweep's results from DIR: results.csv and the point files. */
void ns_sweepdir_clear(const char *dir) {
  char path[NC_PATH_MAX + 300];
  DIR *d;
  struct dirent *e;

  int fd;

  snprintf(path, sizeof(path), "%s/results.csv", dir);
  unlink(path);
  snprintf(path, sizeof(path), "%s/points", dir);
  /* Never through a link: a points/ that is one is removed, not emptied. */
  if ((fd = nicsim_dir_open(path)) < 0) {
    if (fd == -ELOOP || fd == -ENOTDIR)
      unlink(path);
    return;
  }
  if ((d = fdopendir(fd)) == NULL) {
    close(fd);
    return;
  }
  /* Only point files : other files someone keeps
   * in points/ stay. unlinkat removes a link, never its target. */
  while ((e = readdir(d)) != NULL) {
    if (ns_is_point_file_name(e->d_name))
      (void)unlinkat(fd, e->d_name, 0);
  }
  closedir(d);
}

/* Number of present points. */
size_t ns_sweepdir_count(const struct ns_sweepdir *d) {
  size_t i, c = 0;
  for (i = 0; i < d->n; i++)
    c += d->have[i];
  return c;
}

/* Index of the i-th present point (d->n if none). */
size_t ns_sweepdir_nth(const struct ns_sweepdir *d, size_t i) {
  size_t k;
  for (k = 0; k < d->n; k++)
    if (d->have[k] && i-- == 0)
      return k;
  return d->n;
}

/* nicsim_point_fn over the present points. */
int ns_sweepdir_get(void *arg, size_t i, struct nicsim_point *out) {
  struct ns_sweepdir *d = arg;
  size_t k = ns_sweepdir_nth(d, i);
  char why[512];

  if (k >= d->n)
    return -EINVAL;
  if (ns_sweepdir_load(d, k, why, sizeof(why)) != 0) {
    ns_eprintf("nicsim: %s\n", why);
    return -EINVAL;
  }
  out->cfg = d->cfg;
  out->res = d->res;
  return 0;
}
