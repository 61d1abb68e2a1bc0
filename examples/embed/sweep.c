/* sweep.c: runs a scenario's sweep from C with nicsim's study library
 * (nicsim::study, <nicsim/study/study.h>; docs/embedding.md), as
 * `nicsim sweep` does, then writes its report (without plots: no gnuplot
 * needed). Each point simulates in a child process of its own.
 *
 *   nicsim_embed_sweep SCENARIO.yaml OUTDIR [KEY=VALUE...]
 *
 * Exit status: that of the study calls (0 done, 1 a point failed, 2 bad input). */
#include <stdio.h>
#include <string.h>

#include <nicsim/study/study.h>

int main(int argc, char **argv) {
  struct nicsim_sweep_opts o;
  char dir[4096];
  int rc;

  if (argc < 3) {
    fprintf(stderr, "usage: %s SCENARIO.yaml OUTDIR [KEY=VALUE...]\n", argv[0]);
    return NICSIM_STUDY_BAD_INPUT;
  }
  memset(&o, 0, sizeof(o)); /* the defaults */
  o.path = argv[1];
  o.outdir = argv[2];
  o.sets = (const char *const *)(argv + 3); /* --set overrides of every point */
  o.nsets = (size_t)(argc - 3);
  o.jobs = 2;          /* two points at a time */
  o.quiet = 1;         /* no progress; errors still go to stderr */
  o.one_point = 1;     /* a scenario without a sweep runs as one point */
  rc = nicsim_study_sweep(&o, dir, sizeof(dir)); /* prints the table on stdout */
  if (rc != NICSIM_STUDY_OK)
    return rc;
  rc = nicsim_study_report(NULL, dir, NULL, 0, 1);
  if (rc == NICSIM_STUDY_OK)
    printf("results in %s/results.csv, report in %s/report.md\n", dir, dir);
  return rc;
}
