/* output.c: machine-readable results: atomic file replacement, shortest
 * round-trip numbers, the JSON document (jansson) and the CSV table. */
#define _GNU_SOURCE

#include "results/output.h"
#include "results/analysis.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/escape.h"
#include "results/safety.h"
#include "results/output_private.h"

/* ---- atomic files ------------------------------------------------------------ */

/* Writes all of buf to fd, retrying short writes and EINTR. 0 or -errno. */
static int nicsim__write_all(int fd, const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, buf, len);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return -errno;
    }
    if (n == 0)
      return -EIO;
    buf += n;
    len -= (size_t)n;
  }
  return 0;
}

/* The mode a new file gets from open(..., 0666) under the current umask. */
static mode_t nicsim__default_mode(void) {
  mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

/* Follows symlinks from path (dangling ones too) to the file they end at, in
 * real; its lstat in *st, or errno ENOENT/ENOTDIR when it is absent. */
static int nicsim__follow(const char *path, char *real, size_t n, struct stat *st) {
  char link[PATH_MAX], next[PATH_MAX];
  ssize_t len;
  int hops, k;

  snprintf(real, n, "%s", path);
  for (hops = 0;; hops++) {
    const char *slash;
    if (lstat(real, st) != 0)
      return -errno;
    if (!S_ISLNK(st->st_mode))
      return 0;
    if (hops >= 40)
      return -ELOOP;
    len = readlink(real, link, sizeof(link) - 1);
    if (len < 0)
      return -errno;
    link[len] = '\0';
    slash = strrchr(real, '/');
    /* A relative target is relative to the link's directory. */
    if (link[0] == '/' || slash == NULL)
      k = snprintf(next, sizeof(next), "%s", link);
    else
      k = snprintf(next, sizeof(next), "%.*s%s", (int)(slash + 1 - real), real, link);
    if (k < 0 || (size_t)k >= sizeof(next) || (size_t)k >= n)
      return -ENAMETOOLONG;
    snprintf(real, n, "%s", next);
  }
}

/* Classifies what path names; see output.h. A symlink is replaced, never
 * written through, unless it ends at a device or FIFO (then streamed) or is
 * one of the system's names for a stream (/dev/stdout, /proc/self/fd/N). */
int nicsim_output_target(const char *path, char *real, size_t n) {
  struct stat st;
  bool system_name;
  int rc;

  if (path == NULL || path[0] == '\0')
    return -EINVAL;
  if (strlen(path) >= n)
    return -ENAMETOOLONG;
  system_name = strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0;
  rc = nicsim__follow(path, real, n, &st);
  if (rc == -ENOENT || rc == -ENOTDIR) {
    /* Absent (or a missing directory, which the write then reports); a
     * dangling link is replaced by the file. */
    if (!system_name)
      snprintf(real, n, "%s", path);
    return NICSIM_OUT_REPLACE;
  }
  if (rc < 0)
    return rc;
  if (S_ISREG(st.st_mode)) {
    if (!system_name)
      snprintf(real, n, "%s", path);
    return NICSIM_OUT_REPLACE;
  }
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
    return NICSIM_OUT_STREAM;
  return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
}

/* Splits path into directory and last component; see output.h. */
int nicsim_path_split(const char *path, char *dir, size_t n, const char **base) {
  const char *slash = strrchr(path, '/');
  size_t dlen;

  *base = slash ? slash + 1 : path;
  if (slash == NULL || slash == path) {
    snprintf(dir, n, slash ? "/" : ".");
    return 0;
  }
  dlen = (size_t)(slash - path);
  if (dlen >= n)
    return -ENAMETOOLONG;
  memcpy(dir, path, dlen);
  dir[dlen] = '\0';
  return 0;
}

/* Opens the temporary file beside a->path (a regular file's target) with the
 * permissions of the file it will replace. 0 or -errno. */
static int nicsim__tmp_open(struct nicsim_atomic *a) {
  const char *base;
  struct stat st;
  int n, rc;

  rc = nicsim_path_split(a->path, a->dir, sizeof(a->dir), &base);
  if (rc < 0)
    return rc;
  if (base[0] == '\0')
    return -EISDIR;
  /* Stale temporaries of killed writers in this directory go first (once). */
  nicsim_tmp_clean_dir(a->dir);
  for (int tries = 0;; tries++) {
    struct stat held, named;
    n = snprintf(a->tmp, sizeof(a->tmp), "%.*s.%s.tmp.XXXXXX", (int)(base - a->path), a->path, base);
    if (n < 0 || (size_t)n >= sizeof(a->tmp))
      return -ENAMETOOLONG;
    a->fd = mkostemp(a->tmp, O_CLOEXEC);
    if (a->fd < 0) {
      a->tmp[0] = '\0';
      return -errno;
    }
    /* Held while writing: another process's clean-up leaves a live
     * temporary alone. Between mkostemp and the lock that clean-up may have
     * taken it for stale and removed it: then the lock is on a file no name
     * leads to, and a new temporary is made. */
    if (flock(a->fd, LOCK_EX | LOCK_NB) == 0 && fstat(a->fd, &held) == 0 && held.st_nlink > 0 &&
        lstat(a->tmp, &named) == 0 && named.st_dev == held.st_dev && named.st_ino == held.st_ino)
      break;
    close(a->fd);
    a->fd = -1;
    if (tries == 16) {
      a->tmp[0] = '\0';
      return -EAGAIN;
    }
  }
  nicsim_tmp_note(a->tmp);
  /* Keep the permissions of the file being replaced, else the usual 0666 & ~umask. */
  if (fchmod(a->fd, stat(a->path, &st) == 0 ? (st.st_mode & 07777) : nicsim__default_mode()) != 0) {
    rc = -errno;
    nicsim_atomic_abort(a);
    return rc;
  }
  return 0;
}

/* Starts writing path; see output.h. */
int nicsim_atomic_open(const char *path, struct nicsim_atomic *a) {
  int rc;

  memset(a, 0, sizeof(*a));
  a->fd = -1;
  if (path == NULL || path[0] == '\0')
    return -EINVAL;
  if ((rc = nicsim_input_clash(path)) < 0)
    return rc;
  a->mode = nicsim_output_target(path, a->path, sizeof(a->path));
  if (a->mode < 0)
    return a->mode;
  if (a->mode == NICSIM_OUT_STREAM) {
    /* O_NONBLOCK: a FIFO nobody reads is an error (ENXIO), never a hang. */
    int fl;
    a->fd = open(a->path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    if (a->fd < 0)
      return -errno;
    if ((fl = fcntl(a->fd, F_GETFL)) >= 0)
      (void)fcntl(a->fd, F_SETFL, fl & ~O_NONBLOCK);
  } else if ((rc = nicsim__tmp_open(a)) < 0) {
    return rc;
  }
  a->f = fdopen(a->fd, "w");
  if (a->f == NULL) {
    rc = -errno;
    nicsim_atomic_abort(a);
    return rc;
  }
  return 0;
}

/* Drops what was written; see output.h. */
void nicsim_atomic_abort(struct nicsim_atomic *a) {
  if (a->f != NULL)
    fclose(a->f);
  else if (a->fd >= 0)
    close(a->fd);
  if (a->mode == NICSIM_OUT_REPLACE && a->tmp[0] != '\0') {
    unlink(a->tmp);
    nicsim_tmp_forget(a->tmp);
  }
  a->f = NULL;
  a->fd = -1;
  a->tmp[0] = '\0';
}

/* Finishes the file; see output.h. */
int nicsim_atomic_commit(struct nicsim_atomic *a) {
  int rc = 0, dfd;

  if (a->f != NULL && (fflush(a->f) != 0 || ferror(a->f)))
    rc = errno ? -errno : -EIO;
  if (rc == 0 && a->mode == NICSIM_OUT_REPLACE && fsync(a->fd) != 0)
    rc = -errno;
  if (a->f != NULL) {
    if (fclose(a->f) != 0 && rc == 0)
      rc = -errno;
    a->f = NULL;
    a->fd = -1;
  }
  if (a->mode == NICSIM_OUT_STREAM || a->tmp[0] == '\0')
    return rc;
  if (rc == 0 && rename(a->tmp, a->path) != 0)
    rc = -errno;
  nicsim_tmp_forget(a->tmp);
  if (rc < 0) {
    unlink(a->tmp);
    a->tmp[0] = '\0';
    return rc;
  }
  a->tmp[0] = '\0';
  /* Make the rename itself durable; a failure here does not undo it. */
  dfd = open(a->dir, O_RDONLY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)fsync(dfd);
    close(dfd);
  }
  return 0;
}

/* Writes what emit produces to path: a regular file (or a new one) is replaced
 * via a fsync'd temporary and rename, a device or FIFO written in place. */
int nicsim_write_atomic(const char *path, nicsim_emit_fn emit, void *arg) {
  struct nicsim_atomic a;
  char *buf = NULL;
  size_t len = 0;
  FILE *mem;
  int rc;

  if (path == NULL || path[0] == '\0')
    return -EINVAL;
  /* Produce the whole contents first, so that nothing reaches a device or a
   * temporary file when emit fails, and I/O errors are reported exactly. */
  mem = open_memstream(&buf, &len);
  if (mem == NULL)
    return -errno;
  rc = emit(mem, arg);
  if (fclose(mem) != 0 && rc == 0)
    rc = -ENOMEM;
  if (rc == 0)
    rc = nicsim_atomic_open(path, &a);
  if (rc == 0) {
    rc = nicsim__write_all(a.fd, buf, len);
    if (rc == 0)
      rc = nicsim_atomic_commit(&a);
    else
      nicsim_atomic_abort(&a);
  }
  free(buf);
  return rc;
}

/* A file name as a JSON string; see output.h. */
json_t *nicsim_json_file_name(const char *name, bool *escaped) {
  char buf[4 * NICSIM_OUT_PATH_MAX + 1];
  if (name == NULL)
    return json_null();
  if (nicsim_is_utf8(name))
    return json_string(name);
  nicsim_name_escape(name, buf, sizeof(buf));
  if (escaped != NULL)
    *escaped = true;
  return json_string(buf);
}

/* ---- numbers ------------------------------------------------------------------- */

/* The relative change from base to now; see output.h. */
double nicsim_rel_change(double now, double base) {
  if (base == 0 || isnan(base) || isnan(now))
    return NAN;
  /* Divided first: now - base can overflow where the ratio cannot. */
  return now / fabs(base) - base / fabs(base);
}

/* Shortest text that reads back as exactly v. */
void nicsim_format_real(double v, char *buf, size_t n) {
  char tmp[40];
  int p, exp10;

  if (n == 0)
    return;
  if (isnan(v)) {
    snprintf(buf, n, "nan");
    return;
  }
  if (isinf(v)) {
    snprintf(buf, n, v < 0 ? "-inf" : "inf");
    return;
  }
  /* The fewest significant digits that read back exactly... */
  for (p = 1; p < 17; p++) {
    snprintf(tmp, sizeof(tmp), "%.*e", p - 1, v);
    if (strtod(tmp, NULL) == v)
      break;
  }
  snprintf(tmp, sizeof(tmp), "%.*e", p - 1, v);
  exp10 = atoi(strchr(tmp, 'e') + 1);
  /* ...laid out as %g would with 17 digits: scientific outside exponents
   * -4..16 (1e+300), else plain decimals made of the same digits (2000,
   * 0.001234, 99957043871444290), never digits beyond the p-th. */
  if (exp10 < -4 || exp10 >= 17) {
    snprintf(buf, n, "%.*g", p, v);
    return;
  }
  {
    char digits[24], out[48];
    const char *q;
    size_t nd = 0, o = 0;
    int k;

    for (q = tmp; *q && *q != 'e'; q++)
      if (*q >= '0' && *q <= '9')
        digits[nd++] = *q;
    if (v < 0 || (v == 0 && signbit(v)))
      out[o++] = '-';
    if (exp10 < 0) {
      out[o++] = '0';
      out[o++] = '.';
      for (k = 0; k < -exp10 - 1; k++)
        out[o++] = '0';
      memcpy(out + o, digits, nd);
      o += nd;
    } else {
      for (k = 0; k < (int)nd || k <= exp10; k++) {
        if (k == exp10 + 1)
          out[o++] = '.';
        out[o++] = k < (int)nd ? digits[k] : '0';
      }
    }
    out[o] = '\0';
    snprintf(buf, n, "%s", out);
  }
}

/* True if v is an integer that int64_t holds exactly. */
static bool nicsim__is_int64(double v) {
  return isfinite(v) && v == floor(v) && v >= -9223372036854775808.0 && v < 9223372036854775808.0;
}

/* Metric value as text: exact integer for COUNT, else shortest real. */
void nicsim_format_metric(double v, enum nicsim_metric_kind kind, char *buf, size_t n) {
  if (kind == NM_KIND_COUNT && nicsim__is_int64(v))
    snprintf(buf, n, "%lld", (long long)v);
  else
    nicsim_format_real(v, buf, n);
}

/* ---- config values -------------------------------------------------------------- */

/* Name of enum value idx in a '|'-separated choices string. */
void nicsim__enum_name(const char *choices, int idx, char *buf, size_t n) {
  const char *p = choices;
  int i;

  for (i = 0; i < idx && p != NULL; i++) {
    p = strchr(p, '|');
    if (p != NULL)
      p++;
  }
  if (p == NULL || idx < 0) {
    snprintf(buf, n, "%d", idx);
    return;
  }
  snprintf(buf, n, "%.*s", (int)strcspn(p, "|"), p);
}

/* Text of a swept key's value (schema key or top-level string). */
void nicsim__key_value(const struct nicsim_config *cfg, const char *key, char *buf, size_t n) {
  const struct nc_key *k = nc_key_find(key);
  const char *top = NULL;

  if (n == 0)
    return;
  buf[0] = '\0';
  if (k != NULL) {
    nc_value_format(cfg, k, buf, n);
    return;
  }
  if (strcmp(key, "platform") == 0)
    top = cfg->platform;
  else if (strcmp(key, "name") == 0)
    top = cfg->name;
  else if (strcmp(key, "description") == 0)
    top = cfg->description;
  else if (strcmp(key, "label") == 0)
    top = cfg->label;
  if (top != NULL)
    snprintf(buf, n, "%s", top);
}

/* ---- JSON --------------------------------------------------------------------------- */

/* A JSON string for s; bytes that are not valid UTF-8 become '?' rather
 * than making jansson refuse the whole string. */
static json_t *nicsim__json_string(const char *s) {
  json_t *j = json_string(s);
  char *copy;
  size_t i, len;

  if (j != NULL)
    return j;
  len = strlen(s);
  copy = malloc(len + 1);
  if (copy == NULL)
    return NULL;
  for (i = 0; i < len; i++)
    copy[i] = ((unsigned char)s[i] < 0x80) ? s[i] : '?';
  copy[len] = '\0';
  j = json_string(copy);
  free(copy);
  return j;
}

/* A JSON real, or null for NaN and infinities (JSON has neither). */
static json_t *nicsim__json_real(double v) { return isfinite(v) ? json_real(v) : json_null(); }

/* Adds key: value to obj, taking ownership of value; -1 if value is NULL. */
static int nicsim__set(json_t *obj, const char *key, json_t *value) {
  if (value == NULL)
    return -1;
  return json_object_set_new(obj, key, value);
}

/* The typed JSON value of key k in cfg. */
static json_t *nicsim__config_value(const struct nicsim_config *cfg, const struct nc_key *k) {
  const char *field = (const char *)cfg + k->offset;
  char name[NC_STR_MAX];
  bool b;
  int64_t i;
  double d;
  int e;

  switch (k->type) {
  case NC_BOOL:
    memcpy(&b, field, sizeof(b));
    return json_boolean(b);
  case NC_INT:
    memcpy(&i, field, sizeof(i));
    return json_integer((json_int_t)i);
  case NC_REAL:
    memcpy(&d, field, sizeof(d));
    return nicsim__json_real(d);
  case NC_ENUM:
    memcpy(&e, field, sizeof(e));
    nicsim__enum_name(k->choices, e, name, sizeof(name));
    return nicsim__json_string(name);
  case NC_STR:
    return nicsim__json_string(field);
  }
  return json_null();
}

/* The resolved config as a typed JSON object, in schema order. */
json_t *nicsim_config_to_json(const struct nicsim_config *cfg) {
  const struct nc_key *keys = nc_keys();
  json_t *root = json_object(), *sec = NULL;
  const char *cur = NULL;
  size_t i;

  if (root == NULL)
    return NULL;
  if (nicsim__set(root, "name", nicsim__json_string(cfg->name)) ||
      nicsim__set(root, "description", nicsim__json_string(cfg->description)) ||
      nicsim__set(root, "platform", nicsim__json_string(cfg->platform)) ||
      nicsim__set(root, "label", nicsim__json_string(cfg->label)))
    goto fail;
  for (i = 0; i < NC_KEY__COUNT; i++) {
    if (cur == NULL || strcmp(cur, keys[i].section) != 0) {
      cur = keys[i].section;
      sec = json_object();
      if (nicsim__set(root, cur, sec))
        goto fail;
    }
    if (nicsim__set(sec, keys[i].name, nicsim__config_value(cfg, &keys[i])))
      goto fail;
  }
  return root;
fail:
  json_decref(root);
  return NULL;
}

/* The JSON value of one metric: integer for exact COUNTs, else real/null. */
static json_t *nicsim__metric_json(const struct nicsim_metric_view *m) {
  if (m->kind == NM_KIND_COUNT && nicsim__is_int64(m->value))
    return json_integer((json_int_t)m->value);
  return nicsim__json_real(m->value);
}

/* The whole results document of one point. */
json_t *nicsim_results_to_json(const char *version, const struct nicsim_config *cfg,
                               const struct nicsim_results *res) {
  struct nicsim_metric_view m;
  json_t *root = json_object(), *metrics;
  size_t i;

  if (root == NULL)
    return NULL;
  if (nicsim__set(root, "nicsim", nicsim__json_string(version ? version : "")) ||
      nicsim__set(root, "config", nicsim_config_to_json(cfg)))
    goto fail;
  metrics = json_object();
  if (nicsim__set(root, "metrics", metrics))
    goto fail;
  for (i = 0; nicsim_results_at(res, i, &m); i++)
    if (nicsim__set(metrics, m.name, nicsim__metric_json(&m)))
      goto fail;
  {
    struct nicsim_analysis *an = malloc(sizeof *an);
    if (an == NULL)
      goto fail;
    nicsim_analyse(cfg, res, an);
    json_t *aj = nicsim_analysis_to_json(an);
    free(an);
    if (nicsim__set(root, "analysis", aj))
      goto fail;
  }
  return root;
fail:
  json_decref(root);
  return NULL;
}

/* The %.Ng precision for a JSON document: the smallest (1-17) at which
 * every real under j reads back exactly and none below 1e17 needs an
 * exponent (2000 stays "2000.0", not "2e3"); at least p. */
static int nicsim__json_precision(json_t *j, int p) {
  const char *key;
  json_t *v;
  size_t i;
  char buf[40];
  double x, mag;
  int digits;

  switch (json_typeof(j)) {
  case JSON_OBJECT:
    json_object_foreach(j, key, v) p = nicsim__json_precision(v, p);
    break;
  case JSON_ARRAY:
    json_array_foreach(j, i, v) p = nicsim__json_precision(v, p);
    break;
  case JSON_REAL:
    x = json_real_value(j);
    for (digits = 1, mag = 10; digits < 17 && fabs(x) >= mag; mag *= 10)
      digits++; /* digits of the integer part */
    if (p < digits)
      p = digits;
    for (; p < 17; p++) {
      snprintf(buf, sizeof(buf), "%.*g", p, x);
      if (strtod(buf, NULL) == x)
        break;
    }
    break;
  default:
    break;
  }
  return p;
}

/* Writes a JSON document with the shortest exact real precision. */
int nicsim_json_dump(json_t *doc, FILE *f) {
  int prec = nicsim__json_precision(doc, 1);

  if (json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(prec)) != 0)
    return ferror(f) ? -EIO : -ENOMEM;
  if (fputc('\n', f) == EOF)
    return -EIO;
  return 0;
}

/* Emit callback: arg is the json_t document. */
static int nicsim__emit_json(FILE *f, void *arg) { return nicsim_json_dump((json_t *)arg, f); }

/* Writes one point's results document to path atomically. */
int nicsim_json_write(const char *path, const char *version, const struct nicsim_config *cfg,
                      const struct nicsim_results *res) {
  json_t *doc = nicsim_results_to_json(version, cfg, res);
  int rc;

  if (doc == NULL)
    return -ENOMEM;
  rc = nicsim_write_atomic(path, nicsim__emit_json, doc);
  json_decref(doc);
  return rc;
}

/* ---- CSV ------------------------------------------------------------------------------ */

/* Writes one RFC 4180 field, quoted when needed. */
void nicsim_csv_field(FILE *f, const char *s) {
  const char *p;
  bool guard = nicsim_csv_needs_guard(s);

  if (strpbrk(s, ",\"\r\n") == NULL) {
    if (guard)
      fputc('\'', f);
    fputs(s, f);
    return;
  }
  fputc('"', f);
  if (guard)
    fputc('\'', f);
  for (p = s; *p; p++) {
    if (*p == '"')
      fputc('"', f);
    fputc(*p, f);
  }
  fputc('"', f);
}

/* qsort comparator for an array of char *. */
static int nicsim__strptr_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts names and drops duplicates (freeing them); returns the new count. */
static size_t nicsim__sort_unique(char **names, size_t n) {
  size_t i, j = 0;

  qsort(names, n, sizeof(*names), nicsim__strptr_cmp);
  for (i = 0; i < n; i++) {
    if (j > 0 && strcmp(names[j - 1], names[i]) == 0)
      free(names[i]);
    else
      names[j++] = names[i];
  }
  return j;
}

/* The union of the extras' names over all successful points, sorted and
 * without duplicates, in *out (malloc'd, as are the names). */
static int nicsim__extra_union(size_t npoints, nicsim_point_fn get, void *arg, char ***out,
                               size_t *nout) {
  struct nicsim_point pt;
  char **names = NULL, **grown;
  size_t n = 0, cap = 0, i, j;
  int rc;

  for (i = 0; i < npoints; i++) {
    if ((rc = get(arg, i, &pt)) < 0)
      goto fail;
    if (pt.res == NULL)
      continue;
    for (j = 0; j < pt.res->nextra; j++) {
      if (n == cap) {
        cap = cap ? 2 * cap : 64;
        grown = realloc(names, cap * sizeof(*names));
        if (grown == NULL) {
          rc = -ENOMEM;
          goto fail;
        }
        names = grown;
      }
      if ((names[n] = strdup(pt.res->extra[j].name)) == NULL) {
        rc = -ENOMEM;
        goto fail;
      }
      n++;
    }
    /* Keep the list short while going: most points share their extras. */
    if (n > 0)
      n = nicsim__sort_unique(names, n);
  }
  *out = names;
  *nout = n;
  return 0;
fail:
  for (j = 0; j < n; j++)
    free(names[j]);
  free(names);
  return rc;
}

/* Looks up an extra metric of one run by name; NULL if absent. */
static const struct nicsim_metric_view *nicsim__extra_get(const struct nicsim_results *r,
                                                          const char *name,
                                                          struct nicsim_metric_view *view) {
  size_t lo = 0, hi = r->nextra;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(r->extra[mid].name, name);
    if (c == 0) {
      view->name = r->extra[mid].name;
      view->unit = r->extra[mid].unit;
      view->desc = r->extra[mid].desc;
      view->kind = r->extra[mid].kind;
      view->value = r->extra[mid].value;
      return view;
    }
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

/* Writes one CSV row for a successful point. */
static void nicsim__csv_row(FILE *f, const char *const *keys, size_t nkeys,
                            const struct nicsim_point *pt, char *const *extras, size_t nextras) {
  const struct nicsim_metric_def *defs = nicsim_metric_defs();
  const struct nicsim_results *r = pt->res;
  struct nicsim_metric_view view;
  char buf[NC_PATH_MAX];
  size_t j;

  nicsim_csv_field(f, pt->cfg->label);
  for (j = 0; j < nkeys; j++) {
    nicsim__key_value(pt->cfg, keys[j], buf, sizeof(buf));
    fputc(',', f);
    nicsim_csv_field(f, buf);
  }
  {
    struct nicsim_analysis *an = malloc(sizeof *an);
    fputc(',', f);
    if (an != NULL) {
      nicsim_analyse(pt->cfg, r, an);
      nicsim_csv_field(f, nicsim_analysis_bottleneck(an));
      free(an);
    }
  }
  for (j = 0; j < nicsim_metric_count(); j++) {
    fputc(',', f);
    if (r->present[j]) {
      nicsim_format_metric(r->value[j], defs[j].kind, buf, sizeof(buf));
      nicsim_csv_field(f, buf);
    }
  }
  for (j = 0; j < nextras; j++) {
    fputc(',', f);
    if (nicsim__extra_get(r, extras[j], &view) != NULL) {
      nicsim_format_metric(view.value, view.kind, buf, sizeof(buf));
      nicsim_csv_field(f, buf);
    }
  }
  fputc('\n', f);
}

/* Writes the CSV table over points supplied by get. */
int nicsim_csv_dump_each(FILE *f, const char *const *keys, size_t nkeys, size_t npoints,
                         nicsim_point_fn get, void *arg) {
  const struct nicsim_metric_def *defs = nicsim_metric_defs();
  struct nicsim_point pt;
  char **extras = NULL;
  size_t nextras = 0, i, j;
  int rc;

  rc = nicsim__extra_union(npoints, get, arg, &extras, &nextras);
  if (rc < 0)
    return rc;

  nicsim_csv_field(f, "label");
  for (j = 0; j < nkeys; j++) {
    fputc(',', f);
    nicsim_csv_field(f, keys[j]);
  }
  fputs(",bottleneck", f);
  for (j = 0; j < nicsim_metric_count(); j++) {
    fputc(',', f);
    nicsim_csv_field(f, defs[j].name);
  }
  for (j = 0; j < nextras; j++) {
    fputc(',', f);
    nicsim_csv_field(f, extras[j]);
  }
  fputc('\n', f);

  for (i = 0; i < npoints; i++) {
    if ((rc = get(arg, i, &pt)) < 0)
      break;
    if (pt.res != NULL)
      nicsim__csv_row(f, keys, nkeys, &pt, extras, nextras);
  }
  for (j = 0; j < nextras; j++)
    free(extras[j]);
  free(extras);
  if (rc < 0)
    return rc;
  return ferror(f) ? -EIO : 0;
}

/* nicsim_point_fn over an array of points. */
int nicsim_point_array_get(void *arg, size_t i, struct nicsim_point *out) {
  *out = ((const struct nicsim_point *)arg)[i];
  return 0;
}

/* Writes the CSV table of an array of points. */
int nicsim_csv_dump(FILE *f, const char *const *keys, size_t nkeys,
                    const struct nicsim_point *points, size_t npoints) {
  return nicsim_csv_dump_each(f, keys, nkeys, npoints, nicsim_point_array_get, (void *)points);
}

/* Arguments of nicsim_csv_dump_each, for the atomic-write callback. */
struct nicsim__csv_args {
  const char *const *keys;
  size_t nkeys, npoints;
  nicsim_point_fn get;
  void *arg;
};

/* Emit callback: arg is a struct nicsim__csv_args. */
static int nicsim__emit_csv(FILE *f, void *arg) {
  const struct nicsim__csv_args *a = arg;
  return nicsim_csv_dump_each(f, a->keys, a->nkeys, a->npoints, a->get, a->arg);
}

/* nicsim_csv_dump_each into path, atomically. */
int nicsim_csv_write_each(const char *path, const char *const *keys, size_t nkeys,
                          size_t npoints, nicsim_point_fn get, void *arg) {
  struct nicsim__csv_args a = {keys, nkeys, npoints, get, arg};
  return nicsim_write_atomic(path, nicsim__emit_csv, &a);
}

/* nicsim_csv_dump into path, atomically. */
int nicsim_csv_write(const char *path, const char *const *keys, size_t nkeys,
                     const struct nicsim_point *points, size_t npoints) {
  return nicsim_csv_write_each(path, keys, nkeys, npoints, nicsim_point_array_get,
                               (void *)points);
}
