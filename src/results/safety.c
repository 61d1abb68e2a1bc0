/* safety.c: inputs an output may never be, the reader of results-directory
 * files, deletion without following links, and temporary files; see safety.h. */
#define _GNU_SOURCE

#include "results/safety.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- inputs ------------------------------------------------------------------------- */

struct nicsim__input {
  uint64_t dev, ino;
  char *role, *name; /* NULL role: an empty slot */
};
static struct nicsim__input *nicsim__inputs;
static size_t nicsim__ninputs, nicsim__cap; /* cap: a power of two (open addressing) */
static char nicsim__clash[1400];

static size_t nicsim__slot(uint64_t dev, uint64_t ino) {
  uint64_t h = (dev * 0x9e3779b97f4a7c15ull) ^ (ino * 0xc2b2ae3d27d4eb4full);
  return (size_t)(h ^ (h >> 29)) & (nicsim__cap - 1);
}

static struct nicsim__input *nicsim__find(uint64_t dev, uint64_t ino) {
  size_t i;
  if (nicsim__cap == 0)
    return NULL;
  for (i = nicsim__slot(dev, ino); nicsim__inputs[i].role != NULL; i = (i + 1) & (nicsim__cap - 1))
    if (nicsim__inputs[i].dev == dev && nicsim__inputs[i].ino == ino)
      return &nicsim__inputs[i];
  return NULL;
}

static int nicsim__grow(void) {
  size_t ncap = nicsim__cap ? nicsim__cap * 2 : 64, i, old = nicsim__cap;
  struct nicsim__input *t = calloc(ncap, sizeof(*t)), *o = nicsim__inputs;
  if (t == NULL)
    return -1;
  nicsim__inputs = t;
  nicsim__cap = ncap;
  for (i = 0; i < old; i++)
    if (o[i].role != NULL) {
      size_t k = nicsim__slot(o[i].dev, o[i].ino);
      while (t[k].role != NULL)
        k = (k + 1) & (ncap - 1);
      t[k] = o[i];
    }
  free(o);
  return 0;
}

void nicsim_input_note_id(uint64_t dev, uint64_t ino, const char *role, const char *name) {
  size_t k;
  if (nicsim__find(dev, ino) != NULL)
    return;
  if ((nicsim__ninputs + 1) * 2 > nicsim__cap && nicsim__grow() != 0)
    return;
  k = nicsim__slot(dev, ino);
  while (nicsim__inputs[k].role != NULL)
    k = (k + 1) & (nicsim__cap - 1);
  nicsim__inputs[k].role = strdup(role ? role : "an input");
  nicsim__inputs[k].name = strdup(name ? name : "?");
  if (nicsim__inputs[k].role == NULL || nicsim__inputs[k].name == NULL) {
    free(nicsim__inputs[k].role);
    free(nicsim__inputs[k].name);
    nicsim__inputs[k].role = nicsim__inputs[k].name = NULL;
    return;
  }
  nicsim__inputs[k].dev = dev;
  nicsim__inputs[k].ino = ino;
  nicsim__ninputs++;
}

void nicsim_input_note(const char *path, const char *role) {
  struct stat st;
  if (path != NULL && stat(path, &st) == 0)
    nicsim_input_note_id((uint64_t)st.st_dev, (uint64_t)st.st_ino, role, path);
}

void nicsim_input_forget_all(void) {
  size_t i;
  for (i = 0; i < nicsim__cap; i++) {
    free(nicsim__inputs[i].role);
    free(nicsim__inputs[i].name);
  }
  free(nicsim__inputs);
  nicsim__inputs = NULL;
  nicsim__cap = nicsim__ninputs = 0;
}

int nicsim_input_clash(const char *path) {
  struct stat st;
  struct nicsim__input *in = NULL;
  if (nicsim__ninputs == 0 || path == NULL)
    return 0;
  /* The directory entry the write replaces; what a link names only when the
   * write goes through it (a stream, or a system name under /dev/, /proc/):
   * any other link is replaced, its target untouched. */
  if (lstat(path, &st) != 0)
    return 0;
  in = nicsim__find((uint64_t)st.st_dev, (uint64_t)st.st_ino);
  if (in == NULL && S_ISLNK(st.st_mode) && stat(path, &st) == 0 &&
      (!S_ISREG(st.st_mode) || strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0))
    in = nicsim__find((uint64_t)st.st_dev, (uint64_t)st.st_ino);
  if (in == NULL)
    return 0;
  snprintf(nicsim__clash, sizeof(nicsim__clash), "it is %s %s, an input of this command",
           in->role, in->name);
  return -NICSIM_E_INPUT;
}

const char *nicsim_strerror(int err) {
  if (err == NICSIM_E_INPUT)
    return nicsim__clash[0] ? nicsim__clash : "it is an input of this command";
  if (err == NICSIM_E_LINK)
    return "it is a symbolic link inside a results directory (never written through; remove it)";
  if (err == NICSIM_E_NOTREG)
    return "not a regular file (a FIFO, device, socket or directory)";
  return strerror(err);
}

/* ---- the results-directory reader ---------------------------------------------------- */

int nicsim_read_results_file(const char *path, size_t max, char **buf, size_t *len) {
  struct stat st;
  size_t cap, n = 0;
  char *b;
  int fd, fl;

  *buf = NULL;
  *len = 0;
  fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    return -errno;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return -e;
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return -NICSIM_E_NOTREG;
  }
  if ((uint64_t)st.st_size > max) {
    close(fd);
    return -EFBIG;
  }
  if ((fl = fcntl(fd, F_GETFL)) >= 0)
    (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  cap = (size_t)st.st_size + 1;
  if ((b = malloc(cap + 1)) == NULL) {
    close(fd);
    return -ENOMEM;
  }
  for (;;) {
    ssize_t r;
    if (n == cap) {
      char *nb;
      if (cap > max) {
        free(b);
        close(fd);
        return -EFBIG;
      }
      cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
      if ((nb = realloc(b, cap + 1)) == NULL) {
        free(b);
        close(fd);
        return -ENOMEM;
      }
      b = nb;
    }
    r = read(fd, b + n, cap - n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      int e = errno;
      free(b);
      close(fd);
      return -e;
    }
    if (r == 0)
      break;
    n += (size_t)r;
  }
  close(fd);
  if (n > max) {
    free(b);
    return -EFBIG;
  }
  b[n] = '\0';
  *buf = b;
  *len = n;
  return 0;
}

const char *nicsim_read_strerror(int rc) {
  if (rc == -ELOOP)
    return "is a symbolic link (refused inside a results directory)";
  if (rc == -NICSIM_E_NOTREG)
    return "is not a regular file (a FIFO, device or socket; refused without reading)";
  if (rc == -EFBIG)
    return "is larger than the limit";
  return strerror(-rc);
}

/* ---- deletion ------------------------------------------------------------------------ */

int nicsim_dir_open(const char *path) {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  return fd < 0 ? -errno : fd;
}

/* Removes name in directory dfd, never following a link; depth bounds recursion. */
static int nicsim__remove_at(int dfd, const char *name, int depth) {
  struct stat st;
  int fd, rc = 0;
  DIR *d;
  struct dirent *e;

  if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
    return errno == ENOENT ? 0 : -errno;
  if (!S_ISDIR(st.st_mode))
    return unlinkat(dfd, name, 0) == 0 || errno == ENOENT ? 0 : -errno;
  if (depth > 64)
    return -ELOOP;
  fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  if ((d = fdopendir(fd)) == NULL) {
    rc = -errno;
    close(fd);
    return rc;
  }
  while ((e = readdir(d)) != NULL) {
    int r;
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    r = nicsim__remove_at(fd, e->d_name, depth + 1);
    if (r < 0 && rc == 0)
      rc = r;
  }
  closedir(d);
  if (rc == 0 && unlinkat(dfd, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
    rc = -errno;
  return rc;
}

int nicsim_remove_tree(const char *path) {
  char dir[4096];
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
  int dfd, rc;

  if (slash == NULL)
    snprintf(dir, sizeof(dir), ".");
  else if (slash == path)
    snprintf(dir, sizeof(dir), "/");
  else if ((size_t)(slash - path) < sizeof(dir))
    snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
  else
    return -ENAMETOOLONG;
  if (base[0] == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
    return -EINVAL;
  dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return -errno;
  rc = nicsim__remove_at(dfd, base, 0);
  close(dfd);
  return rc;
}

/* ---- temporary files ----------------------------------------------------------------- */

#define NICSIM__NTMP 16
static char nicsim__tmps[NICSIM__NTMP][4096];
static volatile sig_atomic_t nicsim__tmp_used[NICSIM__NTMP];
static bool nicsim__handlers;

void nicsim_tmp_remove_all(void) {
  int i;
  for (i = 0; i < NICSIM__NTMP; i++)
    if (nicsim__tmp_used[i])
      unlink(nicsim__tmps[i]);
}

static void nicsim__on_signal(int sig) {
  nicsim_tmp_remove_all();
  signal(sig, SIG_DFL);
  raise(sig);
}

void nicsim_tmp_note(const char *tmp) {
  static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
  int i;
  if (!nicsim__handlers) {
    nicsim__handlers = true;
    for (i = 0; i < 3; i++) {
      struct sigaction old, sa;
      if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
          !(old.sa_flags & SA_SIGINFO)) {
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = nicsim__on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
      }
    }
  }
  for (i = 0; i < NICSIM__NTMP; i++)
    if (!nicsim__tmp_used[i]) {
      snprintf(nicsim__tmps[i], sizeof(nicsim__tmps[i]), "%s", tmp);
      nicsim__tmp_used[i] = 1;
      return;
    }
}

void nicsim_tmp_forget(const char *tmp) {
  int i;
  for (i = 0; i < NICSIM__NTMP; i++)
    if (nicsim__tmp_used[i] && strcmp(nicsim__tmps[i], tmp) == 0) {
      nicsim__tmp_used[i] = 0;
      return;
    }
}

void nicsim_tmp_forget_all(void) {
  int i;
  nicsim__handlers = false; /* the child's dispositions are its own: noted again */
  for (i = 0; i < NICSIM__NTMP; i++)
    nicsim__tmp_used[i] = 0;
}

bool nicsim_is_tmp_name(const char *name) {
  size_t n = strlen(name), k;
  /* ".X.tmp.XXXXXX": a dot, at least one character, ".tmp.", six of mkstemp's. */
  if (n < 13 || name[0] != '.' || strncmp(name + n - 11, ".tmp.", 5) != 0)
    return false;
  for (k = n - 6; k < n; k++)
    if (!((name[k] >= 'a' && name[k] <= 'z') || (name[k] >= 'A' && name[k] <= 'Z') ||
          (name[k] >= '0' && name[k] <= '9')))
      return false;
  return true;
}

void nicsim_tmp_clean_dir(const char *dir) {
  /* A directory is known by its identity and its name's hash (an inode
   * can be reused by a directory made after one was removed). */
  static struct {
    dev_t dev;
    ino_t ino;
    uint64_t name;
  } done[64];
  static size_t ndone;
  uint64_t h = 0xcbf29ce484222325ull;
  struct stat st;
  struct dirent *e;
  DIR *d;
  size_t i;
  int dfd;

  if (stat(dir, &st) != 0)
    return;
  for (const char *c = dir; *c; c++)
    h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
  for (i = 0; i < ndone; i++)
    if (done[i].dev == st.st_dev && done[i].ino == st.st_ino && done[i].name == h)
      return;
  if (ndone < sizeof(done) / sizeof(*done)) {
    done[ndone].dev = st.st_dev;
    done[ndone].ino = st.st_ino;
    done[ndone].name = h;
    ndone++;
  }
  if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    return;
  if ((d = fdopendir(dfd)) == NULL) {
    close(dfd);
    return;
  }
  while ((e = readdir(d)) != NULL) {
    int fd;
    if (!nicsim_is_tmp_name(e->d_name))
      continue;
    fd = openat(dfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
      continue;
    /* Only a regular file no writer holds (a writer holds its flock). */
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && flock(fd, LOCK_EX | LOCK_NB) == 0)
      (void)unlinkat(dfd, e->d_name, 0);
    close(fd);
  }
  closedir(d);
}
