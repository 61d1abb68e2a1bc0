/*
 * replay_main.c: runs a fuzz target's LLVMFuzzerTestOneInput over files, for
 * builds without libFuzzer (gcc, the asan preset, plain CI builds).
 *
 *   fuzz_config_replay PATH...
 *
 * Each PATH is a file or a directory (its regular files, sorted by name, not
 * recursive). Every file is fed to the target once; a broken invariant
 * abort()s inside the target, and a sanitizer reports its own errors. Prints
 * "replay: FILE" before each input (so a crash names its reproducer) when
 * NICSIM_REPLAY_VERBOSE is set, and a summary line at the end. Exit status:
 * 0 when every input ran, 2 on a usage or I/O error, or 3 when fewer inputs
 * than --min-inputs=N ran (a corpus that silently went missing fails).
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int verbose;
static size_t ran;

/* Reads a whole file into a malloc'd buffer; returns NULL on error. */
static uint8_t *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  while (buf) {
    if (n == cap) {
      uint8_t *nb = realloc(buf, cap *= 2);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  if (buf && ferror(f)) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = n;
  return buf;
}

/* Feeds one file to the target. */
static int run_file(const char *path) {
  size_t len = 0;
  uint8_t *data = slurp(path, &len);
  if (!data) {
    fprintf(stderr, "replay: cannot read %s\n", path);
    return -1;
  }
  if (verbose) fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
  LLVMFuzzerTestOneInput(data, len);
  free(data);
  ran++;
  return 0;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Feeds every regular file of a directory, in name order. */
static int run_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "replay: cannot open directory %s\n", dir);
    return -1;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  int rc = 0;
  for (struct dirent *de; (de = readdir(d));) {
    if (de->d_name[0] == '.') continue;
    if (n == cap) {
      char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *nn);
      if (!nn) {
        rc = -1;
        break;
      }
      names = nn;
    }
    size_t l = strlen(dir) + strlen(de->d_name) + 2;
    names[n] = malloc(l);
    if (!names[n]) {
      rc = -1;
      break;
    }
    snprintf(names[n++], l, "%s/%s", dir, de->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp_names);
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode) && run_file(names[i])) rc = -1;
    free(names[i]);
  }
  free(names);
  return rc;
}

int main(int argc, char **argv) {
  size_t min_inputs = 0;
  int npaths = 0;
  verbose = getenv("NICSIM_REPLAY_VERBOSE") != NULL;
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--min-inputs=", 13) == 0) {
      min_inputs = strtoul(argv[i] + 13, NULL, 10);
      continue;
    }
    npaths++;
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
      return 2;
    }
    if ((S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i])) != 0) return 2;
  }
  if (npaths == 0) {
    fprintf(stderr, "usage: %s [--min-inputs=N] FILE|DIR...\n", argv[0]);
    return 2;
  }
  printf("replay: %zu inputs ran without a broken invariant\n", ran);
  fflush(stdout);
  if (ran < min_inputs) {
    fprintf(stderr, "replay: expected at least %zu inputs\n", min_inputs);
    return 3;
  }
  return 0;
}
