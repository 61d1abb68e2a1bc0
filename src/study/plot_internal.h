/* plot_internal.h: what plot.c (drawing) and plot_list.c (which plots)
 * share. Private to src/study. */
#ifndef NICSIM_STUDY_PLOT_INTERNAL_H
#define NICSIM_STUDY_PLOT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"
#include "config/sweep.h"
#include "study/study_internal.h"

/* One plot being drawn. */
struct ns_plot {
  char name[64], title[NC_STR_MAX], x[NC_STR_MAX], series[NC_STR_MAX];
  char xlabel[NC_STR_MAX], ylabel[NC_STR_MAX];
  const char *y[NC_PLOT_MAX_Y];
  char unit[NC_PLOT_MAX_Y][24];   /* each y's unit as plotted ("%" for a fraction; "" unknown) */
  double scale[NC_PLOT_MAX_Y];    /* from a y's value to its plotted value (100 for a fraction) */
  size_t ny;
  const char *panels[NC_PLOT_MAX_PANEL_KEYS]; /* declared panel keys (none: the varying ones) */
  size_t npanels;
  bool bar, logx, logy;
  bool automatic; /* a default plot (none declared): its panels are chosen to fit */
};

/* Text of a swept key (or "label", "platform") in cfg. */
void ns_key_text(const struct nicsim_config *cfg, const char *key, char *buf, size_t n);
/* True if text is a finite number. */
bool ns_numeric(const char *text);
/* Fills plots (up to max) with the plots of d: those sweep.json declares, in
 * their order (saying on stderr which are not drawn past max), else the
 * default ones. 0, or NICSIM_STUDY_BAD_INPUT after reporting a declared plot
 * that cannot be drawn. */
int ns_plot_list(const char *cmd, struct ns_sweepdir *d, struct ns_plot *plots, size_t max,
                 size_t *n);

#endif
