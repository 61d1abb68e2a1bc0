/* sweep.h: the sweep specification beyond config.h: zipped axes, repeats with
 * seeds, the baseline point and the plots a scenario declares (src/config/scenario.c). */
#ifndef NICSIM_CONFIG_SWEEP_H
#define NICSIM_CONFIG_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NC_PLOT_MAX_Y 8
/* Most keys a plot's `panels:` may name. */
#define NC_PLOT_MAX_PANEL_KEYS 4

enum nc_plot_kind { NC_PLOT_LINE, NC_PLOT_BAR };

/* One declared plot (`plots:` in a scenario). */
struct nc_plot {
  char name[64];               /* file name stem, unique in the scenario ("plot1" if unnamed) */
  char title[NC_STR_MAX];      /* "" = "<y> vs <x>" */
  char x[NC_STR_MAX];          /* a swept key, or "label" */
  char series[NC_STR_MAX];     /* a swept key, or "" (one series) */
  char y[NC_PLOT_MAX_Y][96];   /* metric names */
  size_t ny;
  enum nc_plot_kind kind;
  bool logx, logy;
  char xlabel[NC_STR_MAX];     /* "" = the key and its unit */
  char ylabel[NC_STR_MAX];     /* "" = the metric(s) and unit */
  /* Swept keys whose values split the plot into panels (one per combination);
   * npanels 0: every swept key the plot does not show that varies. */
  char panels[NC_PLOT_MAX_PANEL_KEYS][NC_STR_MAX];
  size_t npanels;
  struct nc_origin panels_at[NC_PLOT_MAX_PANEL_KEYS];
  struct nc_origin at;         /* the plot's entry in the file */
  struct nc_origin y_at[NC_PLOT_MAX_Y];
};

/* Number of declared plots (0: none declared). */
size_t nc_scenario_nplots(const struct nc_scenario *s);
/* Declared plot i, or NULL. */
const struct nc_plot *nc_scenario_plot(const struct nc_scenario *s, size_t i);
/* The first character of name that a plot name may not hold (it becomes a
 * file name: letters, digits, _ and -), or NULL if there is none. */
const char *nc_plot_name_bad_char(const char *name);
/* Index of the point named by sweep.baseline, or -1 if none is declared. */
long nc_scenario_baseline(const struct nc_scenario *s);
/* sweep.repeats (1 when not given): each point runs this many times with
 * run.seed, run.seed+1, ... */
size_t nc_scenario_repeats(const struct nc_scenario *s);

#ifdef __cplusplus
}
#endif
#endif
