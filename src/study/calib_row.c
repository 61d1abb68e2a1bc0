/* calib_row.c: a calibration in one Markdown table row (DIR/summary.md), the
 * row docs/calibration.md's table of the seed specs carries for the spec
 * (scripts/calibration-doc.sh splices the rows; tests/regress checks them):
 * the fitted values, the fit's verdicts with the direction of an
 * ill-conditioned one, every measurement measured -> simulated, and the
 * worst validation pull. Texts of the spec are escaped as Markdown. */
#include <math.h>
#include <stdio.h>

#include "results/escape.h"
#include "study/calib.h"

/* "point metric measured -> simulated (error)" of measurement i. */
static void cr__meas(FILE *f, const struct nicsim_calib_spec *s, const struct nicsim_calib_result *r, size_t i) {
  char name[NC_STR_MAX + 128];
  const struct nicsim_calib_meas *m = &s->meas[i];
  nicsim_calib_meas_name(m, name, sizeof name);
  nicsim_put_md(f, name);
  fprintf(f, " %.4g \xe2\x86\x92 %.4g (%+.1f %%)", m->value, r->sim[i],
          m->value != 0 ? 100 * (r->sim[i] - m->value) / fabs(m->value) : NAN);
}

int nicsim_calib_emit_row(FILE *f, const struct nicsim_calib_spec *s, const struct nicsim_calib_result *r) {
  char v[NC_STR_MAX + 64];
  double pull;
  long worst;
  bool first = true, match = true;
  fputs("| ", f);
  nicsim_put_md(f, s->name);
  fputs(" | ", f);
  for (size_t k = 0; k < s->nfree; k++) {
    nicsim_calib_assignment(&s->free[k], r->x[k], v, sizeof v);
    fputs(k ? "; " : "", f);
    nicsim_put_md(f, v);
    fputs(r->identifiable[k] ? "" : " (NOT identifiable)", f);
    fputs(r->at_bound[k] ? " (at a bound)" : "", f);
  }
  fprintf(f, " | %s; ", r->converged ? "converged" : r->at_eval_limit ? "NOT converged (evaluation limit)"
                                                                       : "NOT converged");
  if (!r->ill_conditioned) fprintf(f, "well-conditioned (%.3g)", r->cond);
  else {
    /* the direction: the parameters with a kink or cliff, or the rank lost */
    fputs("**ILL-CONDITIONED**", f);
    if (r->rank < s->nfree) fprintf(f, " (rank %zu of %zu)", r->rank, s->nfree);
    else fprintf(f, " (%.3g)", r->cond);
    for (size_t k = 0; k < s->nfree; k++)
      if (r->cliff[k] || !r->identifiable[k]) {
        fputs(first ? ": " : ", ", f);
        first = false;
        nicsim_put_md(f, s->free[k].key->path);
        fputs(r->cliff[k] ? " has a kink or cliff at its optimum" : " is not identifiable", f);
      }
  }
  for (size_t i = 0; i < s->ncal; i++)
    if (!(fabs(r->sim[i] - s->meas[i].value) <= 2 * s->meas[i].sigma)) match = false;
  fputs(match ? "; matches" : "; **no value matches**", f);
  fputs(" | ", f);
  for (size_t i = 0; i < s->ncal; i++) {
    fputs(i ? "; " : "", f);
    cr__meas(f, s, r, i);
  }
  fputs(" | ", f);
  for (size_t i = s->ncal; i < s->nmeas; i++) {
    fputs(i > s->ncal ? "; " : "", f);
    cr__meas(f, s, r, i);
  }
  if (s->nmeas == s->ncal) fputs("none", f);
  fputs(" | ", f);
  if ((worst = nicsim_calib_worst_pull(s, r, &pull)) >= 0) {
    nicsim_calib_meas_name(&s->meas[worst], v, sizeof v);
    fprintf(f, "%+.2f (", pull);
    nicsim_put_md(f, v);
    fputs(")", f);
  } else {
    fputs("-", f);
  }
  fputs(" |\n", f);
  return ferror(f) ? -1 : 0;
}
