/* output_private.h: helpers shared by the writers in src/results (not public). */
#ifndef NICSIM_RESULTS_OUTPUT_PRIVATE_H
#define NICSIM_RESULTS_OUTPUT_PRIVATE_H

#include <stddef.h>

#include "config/config.h"

/* The name of enum value idx in a '|'-separated choices string ("rx|tx|bidir"),
 * or the number itself if idx is out of range. */
void nicsim__enum_name(const char *choices, int idx, char *buf, size_t n);

/* The value of a swept key in cfg as text: a schema key via nc_value_format,
 * or one of the top-level strings "platform", "name", "description", "label";
 * "" for an unknown key. */
void nicsim__key_value(const struct nicsim_config *cfg, const char *key, char *buf, size_t n);

#endif
