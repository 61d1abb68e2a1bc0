/* update_metrics_doc.c: checks or rewrites the generated metric table of
 * docs/metrics.md (the update-metrics-doc build target runs it). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "results/output.h"

/* Usage: nicsim_metrics_doc [--check | --update] FILE.md; exit 0 up to date
 * or updated, 1 stale (--check), 2 error. */
int main(int argc, char **argv) {
  bool update;
  bool stale = false;
  int rc;

  if (argc != 3 || (strcmp(argv[1], "--check") != 0 && strcmp(argv[1], "--update") != 0)) {
    fprintf(stderr, "usage: nicsim_metrics_doc --check|--update docs/metrics.md\n");
    return 2;
  }
  update = strcmp(argv[1], "--update") == 0;
  rc = nicsim_metrics_doc_sync(argv[2], update, &stale);
  if (rc == -EINVAL) {
    fprintf(stderr, "%s: no <!-- BEGIN METRICS --> ... <!-- END METRICS --> region\n", argv[2]);
    return 2;
  }
  if (rc < 0) {
    fprintf(stderr, "%s: %s\n", argv[2], strerror(-rc));
    return 2;
  }
  if (stale && update)
    printf("%s: metric table updated\n", argv[2]);
  else if (stale)
    fprintf(stderr, "%s: metric table is out of date; run the update-metrics-doc target\n",
            argv[2]);
  else
    printf("%s: metric table up to date\n", argv[2]);
  return stale && !update ? 1 : 0;
}
