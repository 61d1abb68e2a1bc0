/* cmd_config.c: finding your way. `nicsim platforms` lists the built-in
 * platforms, a line each; `nicsim config` prints a point's resolved
 * configuration, every value with where it came from. Neither simulates. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config/builtin.h"

enum { OPT_SET = 1, OPT_OVERLAY, OPT_POINT, OPT_CHANGED, OPT_HELP };

static const struct cli_opt cli__config_opts[] = {
    {"set", 's', true, OPT_SET},          {"overlay", 'O', true, OPT_OVERLAY},
    {"point", 'p', true, OPT_POINT},      {"changed", 'c', false, OPT_CHANGED},
    {"help", 'h', false, OPT_HELP},       {NULL, 0, false, 0},
};

static const struct cli_opt cli__platforms_opts[] = {
    {"help", 'h', false, OPT_HELP},
    {NULL, 0, false, 0},
};

void cli_help_platforms(FILE *f) {
  fprintf(f,
          "%s\n\n"
          "Lists the platforms built into nicsim: name, CPU (kind, cores, clock),\n"
          "Ethernet line rate, driver, link to the host, and what the platform is.\n"
          "A scenario picks one with 'platform: NAME'; docs/config.md explains\n"
          "platform files, and each file in configs/platforms/ cites its sources.\n"
          "\n"
          "Options:\n"
          "  -h, --help  Show this help\n"
          "\n"
          "Exit status: 0.\n",
          cli_synopsis("platforms"));
}

void cli_help_config(FILE *f) {
  fprintf(f,
          "%s\n\n"
          "Prints the resolved configuration of one point of a scenario (the base\n"
          "point unless --point), without simulating: every key with its value,\n"
          "unit and where the value came from (the schema default, the platform\n"
          "file, the scenario, the sweep point, an overlay or --set, with file,\n"
          "line and column). Without SCENARIO.yaml, the built-in default scenario.\n"
          "\n"
          "Options:\n"
          "  -s, --set KEY=VALUE  Override a config key (may repeat), as for 'run'\n"
          "  -O, --overlay FILE   Apply an overlay file (may repeat), as for 'run'\n"
          "  -p, --point LABEL    The sweep point with this label\n"
          "  -c, --changed        Only the values that are not schema defaults\n"
          "  -h, --help           Show this help\n"
          "\n"
          "Exit status: 0, or 2 on bad input.\n"
          "\n"
          "Examples:\n"
          "  nicsim config --changed\n"
          "  nicsim config scenarios/seeds/lan743x-dspace.yaml --point x64/dspace64\n",
          cli_synopsis("config"));
}

/* ---- nicsim platforms --------------------------------------------------------------- */

#define CLI__PLAT_DIR "configs/platforms/"
/* The description column's width, "..." included: one line on a wide terminal. */
#define CLI__WHAT_MAX 72

/* The first sentence of a platform file's opening comment, without its
 * "name: " lead, on one line, cut at a word to at most n - 1 bytes. */
static void cli__platform_summary(const char *text, const char *name, char *out, size_t n) {
  size_t len = 0;
  const char *p = text;
  out[0] = '\0';
  while (*p == '#' && len + 1 < n) {
    const char *eol = strchr(p, '\n');
    size_t ll = eol ? (size_t)(eol - p) : strlen(p);
    const char *s = p + 1;
    while (s < p + ll && *s == ' ') s++;
    if (s == p + ll) break; /* an empty comment line ends the paragraph */
    size_t nl = strlen(name);
    if (len == 0 && strncmp(s, name, nl) == 0 && s[nl] == ':') {
      s += nl + 1;
      while (*s == ' ') s++;
    }
    for (; s < p + ll && len + 1 < n; s++) {
      out[len++] = *s;
      /* A sentence ends at ". " or at the end of a line with '.'. */
      if (*s == '.' && (s + 1 == p + ll || s[1] == ' ')) {
        out[len] = '\0';
        return;
      }
    }
    if (len + 1 < n) out[len++] = ' ';
    out[len] = '\0';
    p = eol ? eol + 1 : p + ll;
  }
  bool cut = len + 2 >= n; /* stopped for room, not at the paragraph's end */
  while (len > 0 && out[len - 1] == ' ') out[--len] = '\0';
  if (cut) { /* cut: back to a word boundary, with "..." */
    size_t cut = n > 4 ? n - 4 : 0;
    while (cut > 0 && out[cut] != ' ') cut--;
    snprintf(out + cut, n - cut, "...");
  }
}

/* Facts of a resolved platform for the table: "arm64 x2 1800 MHz" and the link. */
static void cli__platform_facts(const struct nicsim_config *c, char *cpu, size_t ncpu, char *link,
                                size_t nlink) {
  char kind[32], mhz[32], num[32];
  nc_value_format(c, nc_key_find("cpu.kind"), kind, sizeof kind);
  nc_value_format(c, nc_key_find("cpu.clock_mhz"), mhz, sizeof mhz);
  snprintf(cpu, ncpu, "%s x%lld %s MHz", kind, (long long)c->cpu.cores, mhz);
  if (c->bus.enabled) {
    nc_value_format(c, nc_key_find("bus.clock_mhz"), num, sizeof num);
    snprintf(link, nlink, "bus %lld B x %s MHz", (long long)c->bus.width_bytes, num);
  } else {
    snprintf(link, nlink, "PCIe Gen%lld x%lld", (long long)c->pcie.gen, (long long)c->pcie.lanes);
  }
}

int cli_cmd_platforms(int argc, char **argv) {
  struct cli_args a;
  int opt;
  cli_args_init(&a, argc, argv, 0);
  while ((opt = cli_next(&a, cli__platforms_opts)) != CLI_END) {
    switch (opt) {
    case CLI_ERROR:
      return cli_usage_error("platforms", "%s", a.err);
    case CLI_POSITIONAL:
      return cli_usage_error("platforms", "unexpected argument '%s'", a.arg);
    case OPT_HELP:
      cli_help_platforms(stdout);
      return CLI_EXIT_OK;
    }
  }
  struct nicsim_config *cfg = calloc(1, sizeof *cfg);
  if (cfg == NULL) {
    ns_eprintf("nicsim platforms: out of memory\n");
    return CLI_EXIT_SIM;
  }
  int status = CLI_EXIT_OK;
  ns_printf("%-18s %-22s %-9s %-8s %-20s %s\n", "PLATFORM", "CPU", "ETHERNET", "DRIVER", "LINK",
             "WHAT IT IS");
  for (const struct nicsim_builtin_file *f = nicsim_builtin_files; f->path; f++) {
    size_t pl = strlen(f->path), dl = strlen(CLI__PLAT_DIR);
    if (pl <= dl + 5 || strncmp(f->path, CLI__PLAT_DIR, dl) != 0 ||
        strcmp(f->path + pl - 5, ".yaml") != 0)
      continue;
    char name[128], text[200], what[200], cpu[96], link[96], rate[32], drv[32];
    snprintf(name, sizeof name, "%.*s", (int)(pl - dl - 5), f->path + dl);
    snprintf(text, sizeof text, "name: platforms\nplatform: %s\n", name);
    struct nc_scenario *s = NULL;
    struct nc_error err;
    memset(&err, 0, sizeof err);
    if (nc_scenario_load_string("<platforms>", text, &s, &err) != 0 ||
        nc_scenario_resolve(s, -1, NULL, 0, cfg, &err) != 0) {
      /* A built-in platform that does not load is a defect of the build. */
      nc_error_print(&err, stderr);
      status = CLI_EXIT_SIM;
      nc_scenario_free(s);
      continue;
    }
    nc_scenario_free(s);
    cli__platform_summary(f->text, name, what, CLI__WHAT_MAX);
    cli__platform_facts(cfg, cpu, sizeof cpu, link, sizeof link);
    nc_value_format(cfg, nc_key_find("nic.line_rate_gbps"), rate, sizeof rate);
    nc_value_format(cfg, nc_key_find("driver.name"), drv, sizeof drv);
    char eth[40];
    snprintf(eth, sizeof eth, "%s G", rate);
    ns_printf("%-18s %-22s %-9s %-8s %-20s %s\n", name, cpu, eth, drv, link, what);
  }
  free(cfg);
  return status;
}

/* ---- nicsim config ------------------------------------------------------------------ */

static const char *cli__layer_name(int layer) {
  switch (layer) {
  case NC_LAYER_PLATFORM: return "platform";
  case NC_LAYER_SCENARIO: return "scenario";
  case NC_LAYER_POINT: return "point";
  case NC_LAYER_OVERLAY: return "overlay";
  case NC_LAYER_SET: return "--set";
  case NC_LAYER_REFUSED: return "refused";
  default: return "default";
  }
}

int cli_cmd_config(int argc, char **argv) {
  struct cli_args a;
  struct cli_sets sets = {0}, overlays = {0};
  const char *path = NULL, *point = NULL;
  bool changed = false;
  struct nc_scenario *scen = NULL;
  struct nicsim_config *cfg = NULL;
  int opt, status = CLI_EXIT_OK;
  long idx = -1;

  cli_args_init(&a, argc, argv, 0);
  while ((opt = cli_next(&a, cli__config_opts)) != CLI_END) {
    switch (opt) {
    case CLI_ERROR:
      status = cli_usage_error("config", "%s", a.err);
      goto out;
    case CLI_POSITIONAL:
      if (path != NULL) {
        status = cli_usage_error("config", "one scenario file at a time ('%s' and '%s')", path,
                                 a.arg);
        goto out;
      }
      path = a.arg;
      break;
    case OPT_SET:
      if ((status = cli_sets_add(&sets, "config", a.arg)) != 0) goto out;
      break;
    case OPT_OVERLAY:
      if ((status = cli_overlays_add(&overlays, "config", a.arg)) != 0) goto out;
      break;
    case OPT_POINT:
      point = a.arg;
      break;
    case OPT_CHANGED:
      changed = true;
      break;
    case OPT_HELP:
      cli_help_config(stdout);
      goto out;
    }
  }
  if ((cfg = calloc(1, sizeof *cfg)) == NULL) {
    ns_eprintf("nicsim config: out of memory\n");
    status = CLI_EXIT_SIM;
    goto out;
  }
  if ((status = ns_load_overlaid("config", path, (const char *const *)overlays.v, overlays.n,
                                 (const char *const *)sets.v, sets.n, &scen)) != 0) goto out;
  if (point != NULL && (idx = nc_scenario_find_point(scen, point)) < 0) {
    ns_eprintf("nicsim config: --point %s: no such point in %s\n", point,
                path ? path : "the built-in scenario");
    size_t n = nc_scenario_npoints(scen);
    if (n > 0) {
      ns_eprintf("  the points are:");
      for (size_t i = 0; i < n; i++)
        ns_eprintf("%s %s", i ? "," : "", nc_scenario_point_label(scen, (size_t)i));
      ns_eprintf("\n");
    }
    status = CLI_EXIT_USAGE;
    goto out;
  }
  if ((status = ns_resolve(scen, idx, (const char *const *)sets.v, sets.n, cfg)) != 0) goto out;

  ns_printf("# %s%s%s, platform %s\n", cfg->name[0] ? cfg->name : "(unnamed)",
             cfg->label[0] ? ", point " : " (base point)", cfg->label, cfg->platform);
  const struct nc_key *keys = nc_keys();
  const char *section = "";
  int width = 0;
  for (size_t i = 0; i < NC_KEY__COUNT; i++)
    if ((int)strlen(keys[i].name) > width) width = (int)strlen(keys[i].name);
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    const struct nc_key *k = &keys[i];
    const struct nc_origin *o = &cfg->origin[i];
    if (changed && o->layer == NC_LAYER_DEFAULT) continue;
    if (strcmp(section, k->section) != 0) {
      section = k->section;
      ns_printf("\n%s:\n", section);
    }
    char val[NC_PATH_MAX + 8], from[NC_PATH_MAX + 64];
    nc_value_format(cfg, k, val, sizeof val);
    if (o->layer == NC_LAYER_DEFAULT || o->line == 0)
      snprintf(from, sizeof from, "%s", cli__layer_name(o->layer));
    else
      snprintf(from, sizeof from, "%s:%d:%d (%s)", o->file, o->line, o->col,
               cli__layer_name(o->layer));
    ns_printf("  %-*s %-14s %-12s %s\n", width, k->name, val, k->unit, from);
  }
out:
  nc_scenario_free(scen);
  free(cfg);
  cli_sets_free(&sets);
  cli_sets_free(&overlays);
  return status;
}
