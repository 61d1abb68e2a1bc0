#!/bin/sh
# seeds.sh: runs the five seed scenarios (scenarios/seeds/*.yaml) and sets
# nicsim's before/after against the published figures (plots/published.tsv)
# with issue 7's rule: a table on stdout, DIR/validation.tsv, DIR/<seed>.dat
# and one gnuplot plot per seed (plots/<seed>.svg); rewrites or checks the
# generated tables of docs/validation.md (--write-doc, --check-doc) and
# measures each comparison's strength (--json). Usage, rule and file
# formats: docs/seeds.md. POSIX sh and awk only.
set -eu

root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
jobs=
out="nicsim-out/seeds"
run=1
plots=1
plot_dir=$root/plots
published=$root/plots/published.tsv
mechanisms=$root/plots/mechanisms.tsv
platforms=$root/configs/platforms
scenarios=$root/scenarios/seeds
doc=$root/docs/validation.md
doc_mode=
baselines=
json=
strength_keys=4
seeds=

# usage: prints the synopsis on stdout.
usage() {
  cat <<'EOF'
Usage: scripts/seeds.sh [-j N] [-o DIR] [--no-run] [--no-plots] [--plot-dir DIR]
                        [--published FILE] [--mechanisms FILE]
                        [--baselines DIR] [--write-doc | --check-doc] [--doc FILE]
                        [--json FILE] [--strength-keys N] [SEED...]
Runs each seed sweep into DIR/<seed> (nicsim sweep --force), compares nicsim's
before/after with the published figures and prints the table; writes
DIR/validation.tsv, DIR/table.tsv, DIR/<seed>.dat and renders plots/<seed>.svg.
  -j, --jobs N       points simulated in parallel (default: online CPUs)
  -o, --output DIR   output directory (default nicsim-out/seeds)
  --no-run           do not simulate: compare the results already in DIR
  --no-plots         do not run gnuplot
  --plot-dir DIR     where the SVGs go (default plots/ in the source tree)
  --published FILE   the published figures (default plots/published.tsv)
  --mechanisms FILE  the mechanism figures shown beside them (default
                     plots/mechanisms.tsv)
  --baselines DIR    no sweeps: take each seed's points from the regression
                     baselines DIR/seed-<seed>.json (implies --no-run)
  --write-doc        rewrite the generated tables of the doc (between its
                     <!-- seeds:table:NAME:BEGIN/END --> markers)
  --check-doc        exit 1 naming every figure of those tables that differs
  --doc FILE         the doc (default docs/validation.md)
  --json FILE        each comparison's strength, measured by +-10 % runs of the
                     platform's E and C values (runs nicsim; docs/seeds.md)
  --strength-keys N  the most sensitive keys tried at -10 % too (default 4)
  SEED               only these seeds (default: every seed in FILE)
Environment: NICSIM=path of the nicsim binary (default: build it with cmake).
Exit: 0 whatever the verdicts; 1 when --check-doc finds a figure that
differs; 2 on a usage error, a bad FILE, a failed sweep or a failed plot.
See docs/seeds.md.
EOF
}

# usage_error MSG: a bad command line, exit 2.
usage_error() {
  echo "seeds.sh: $1" >&2
  echo "Try 'scripts/seeds.sh --help'." >&2
  exit 2
}

# note MSG: progress and warnings on stderr.
note() { echo "seeds.sh: $*" >&2; }

# need_value OPT COUNT: OPT must be followed by a value.
need_value() { [ "$2" -ge 2 ] || usage_error "$1 needs a value"; }

while [ $# -gt 0 ]; do
  case $1 in
    -j|--jobs) need_value "$1" $#; jobs=$2; shift 2 ;;
    -j*) jobs=${1#-j}; shift ;;
    --jobs=*) jobs=${1#*=}; shift ;;
    -o|--output) need_value "$1" $#; out=$2; shift 2 ;;
    --output=*) out=${1#*=}; shift ;;
    --no-run) run=0; shift ;;
    --no-plots) plots=0; shift ;;
    --plot-dir) need_value "$1" $#; plot_dir=$2; shift 2 ;;
    --published) need_value "$1" $#; published=$2; shift 2 ;;
    --mechanisms) need_value "$1" $#; mechanisms=$2; shift 2 ;;
    --baselines) need_value "$1" $#; baselines=$2; run=0; shift 2 ;;
    --write-doc) doc_mode=write; shift ;;
    --check-doc) doc_mode=check; shift ;;
    --doc) need_value "$1" $#; doc=$2; shift 2 ;;
    --json) need_value "$1" $#; json=$2; shift 2 ;;
    --strength-keys) need_value "$1" $#; strength_keys=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; seeds="$seeds $*"; break ;;
    -*) usage_error "unknown option '$1'" ;;
    *) seeds="$seeds $1"; shift ;;
  esac
done

if [ -n "$jobs" ]; then
  case $jobs in
    ''|*[!0-9]*|0*) usage_error "-j wants a positive integer, not '$jobs'" ;;
  esac
else
  jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
fi
[ -n "$out" ] || usage_error "-o wants a directory"
[ -r "$published" ] || usage_error "cannot read $published"
[ -r "$mechanisms" ] || usage_error "cannot read $mechanisms"
case $strength_keys in
  ''|*[!0-9]*|0*) usage_error "--strength-keys wants a positive integer, not '$strength_keys'" ;;
esac
if [ -n "$doc_mode" ]; then [ -r "$doc" ] || usage_error "cannot read $doc"; fi
if [ -n "$baselines" ]; then [ -d "$baselines" ] || usage_error "no directory $baselines"; fi

# Check published.tsv and list its seeds, in order of first appearance. Bad
# rows are errors naming file:line (exit 2).
all_seeds=$(awk -F '\t' -v file="$published" '
  function isnum(s) { return s ~ /^[+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ }
  function bad(msg) { printf "%s:%d: %s\n", file, NR, msg > "/dev/stderr"; err = 1 }
  /^#/ || /^[ \t]*$/ { next }
  !header { header = 1; if ($1 != "seed") bad("the first row must be the header (seed, before, after, ...)"); next }
  {
    if (NF != 8) { bad("want 8 tab-separated fields, found " NF); next }
    if ($7 != "headline" && $7 != "unchanged" && $7 != "info") bad("kind \"" $7 "\" is not headline, unchanged or info")
    if ($5 == "-" || $6 == "-") {
      if ($5 != $6) bad("published before and after: both numbers or both -")
      else if ($7 != "unchanged") bad("a " $7 " row needs published figures")
    } else if (!isnum($5) || !isnum($6) || $5 + 0 <= 0 || $6 + 0 <= 0) {
      bad("published values must be positive numbers or -")
    } else if ($7 == "headline" && $5 + 0 == $6 + 0) {
      bad("a headline row needs a published change (before = after)")
    }
    if ($1 !~ /^[A-Za-z0-9._-]+$/) bad("bad seed name \"" $1 "\"")
    if (!($1 in seen)) { seen[$1] = 1; printf "%s ", $1 }
  }
  END { if (!header) bad("no header row"); exit err ? 2 : 0 }
' "$published") || exit 2
[ -n "$all_seeds" ] || usage_error "$published has no rows"

if [ -z "$seeds" ]; then
  seeds=$all_seeds
else
  [ -z "$doc_mode" ] || usage_error "--$doc_mode-doc compares every seed: name none"
  for s in $seeds; do
    case " $all_seeds " in
      *" $s "*) ;;
      *) usage_error "unknown seed '$s' (known: $all_seeds)" ;;
    esac
  done
fi

[ -z "$json" ] || [ -z "$baselines" ] || usage_error "--json simulates: not with --baselines"

mkdir -p "$out" || usage_error "cannot create $out"
status=0
nicsim=

# find_nicsim: sets nicsim to $NICSIM, else builds build/nicsim.
find_nicsim() {
  [ -z "$nicsim" ] || return 0
  nicsim=${NICSIM:-}
  if [ -z "$nicsim" ]; then
    note "building nicsim (cmake --preset default)"
    (cd "$root" && cmake --preset default >&2 && cmake --build --preset default --target nicsim >&2) ||
      { note "building nicsim failed"; exit 2; }
    nicsim=$root/build/nicsim
  fi
  [ -x "$nicsim" ] || usage_error "nicsim binary '$nicsim' is not executable"
}

# ---- Run the sweeps --------------------------------------------------------
if [ "$run" -eq 1 ]; then
  for s in $seeds; do
    [ -r "$root/scenarios/seeds/$s.yaml" ] || usage_error "no scenario $root/scenarios/seeds/$s.yaml"
  done
  find_nicsim
  failed=
  for s in $seeds; do
    note "sweep $s -> $out/$s (-j $jobs)"
    # The sweep's own table goes to stderr: stdout is this script's table.
    if ! "$nicsim" sweep "$root/scenarios/seeds/$s.yaml" -o "$out/$s" -j "$jobs" --force >&2; then
      note "sweep $s FAILED (its missing points show as MISSING below)"
      failed="$failed $s"
      status=2
    fi
  done
  [ -z "$failed" ] || note "failed sweeps:$failed"
fi

# ---- Results from the regression baselines ----------------------------------
# --baselines DIR: DIR/seed-<seed>.json (tests/regress/baselines, written by
# nicsim regress) holds every point's label and the metrics the suite pins;
# each becomes DIR/<seed>/results.csv with those columns, so the comparison
# and the doc's tables can be checked without simulating (the regression
# suite checks the baselines against the binary).
if [ -n "$baselines" ]; then
  for s in $seeds; do
    b=$baselines/seed-$s.json
    [ -r "$b" ] || usage_error "no baseline $b"
    mkdir -p "$out/$s" || usage_error "cannot create $out/$s"
    awk -v file="$b" '
      function unq(v) { sub(/^[^"]*"/, "", v); sub(/"[^"]*$/, "", v); gsub(/\\"/, "\"", v); gsub(/\\\\/, "\\", v); return v }
      function csv(v) { gsub(/"/, "\"\"", v); return "\"" v "\"" }
      /"label":/ { lab = unq(substr($0, index($0, ":") + 1)); n++; label[n] = lab; inm = 0; next }
      /"metrics":/ { inm = 1; next }
      inm && /^[ \t]*}/ { inm = 0; next }
      inm && /":/ {
        name = $0; sub(/^[ \t]*"/, "", name); sub(/".*/, "", name)
        v = substr($0, index($0, "\":") + 2); gsub(/[ \t,]/, "", v); if (v == "null") v = ""
        if (!(name in seen)) { seen[name] = ++nm; mname[nm] = name }
        val[n, name] = v
      }
      END {
        if (n == 0) { printf "seeds.sh: %s: no points\n", file > "/dev/stderr"; exit 2 }
        printf "label"; for (j = 1; j <= nm; j++) printf ",%s", csv(mname[j]); printf "\n"
        for (i = 1; i <= n; i++) {
          printf "%s", csv(label[i])
          for (j = 1; j <= nm; j++) printf ",%s", val[i, mname[j]]
          printf "\n"
        }
      }
    ' "$b" > "$out/$s/results.csv.new.$$" || { rm -f "$out/$s/results.csv.new.$$"; exit 2; }
    mv "$out/$s/results.csv.new.$$" "$out/$s/results.csv"
  done
fi

# ---- Each point's platform, and the values read off a seed -----------------
# DIR/.platforms.tsv: seed, point label, platform (the point's platform: key,
# else the scenario's). DIR/.seedc.tsv: platform, seed number, key for every
# C value whose mark says it was "read off seed NNN": the comparisons of
# seed NNN on that platform are weak (docs/seeds.md).
: > "$out/.platforms.tsv"
for s in $seeds; do
  [ -r "$scenarios/$s.yaml" ] || continue
  awk -v seed="$s" '
    function strip(v) { sub(/^[ \t]*/, "", v); sub(/[ \t]*$/, "", v); gsub(/^["\047]|["\047]$/, "", v); return v }
    function done() { labs[++n] = lab; lp[n] = pl }
    /^platform:/ { v = $0; sub(/^platform:[ \t]*/, "", v); sub(/[ \t]+#.*/, "", v); top = strip(v) }
    {
      line = $0; sub(/[ \t]+#.*/, "", line)
      if (match(line, /(^|[{, \t-])label:[ \t]*[^,}]+/)) {
        if (lab != "") done()
        v = substr(line, RSTART, RLENGTH); sub(/.*label:/, "", v); lab = strip(v); pl = ""
      }
      if (lab != "" && match(line, /(^|[{, \t])platform:[ \t]*[^,}]+/)) {
        v = substr(line, RSTART, RLENGTH); sub(/.*platform:/, "", v); pl = strip(v)
      }
    }
    END { if (lab != "") done(); for (i = 1; i <= n; i++) printf "%s\t%s\t%s\n", seed, labs[i], lp[i] != "" ? lp[i] : top }
  ' "$scenarios/$s.yaml" >> "$out/.platforms.tsv"
done
: > "$out/.seedc.tsv"
for p in $(cut -f3 "$out/.platforms.tsv" | sort -u); do
  [ -r "$platforms/$p.yaml" ] || continue
  awk -f "$root/scripts/platform-marks.awk" "$platforms/$p.yaml" |
    awk -F '\t' -v p="$p" '$2 == "C" && match($5, /read off seed [0-9]+/) {
      n = substr($5, RSTART + 14, RLENGTH - 14); printf "%s\t%s\t%s\n", p, n, $1 }' >> "$out/.seedc.tsv"
done

# ---- Compare ---------------------------------------------------------------
# One awk pass over published.tsv: loads DIR/<seed>/results.csv on demand,
# writes the TSV and the .dat files and prints the aligned table.
tsv_tmp="$out/.validation.tsv.$$"
table_tmp="$out/.table.tsv.$$"
awk -F '\t' -v out="$out" -v seeds=" $seeds " -v tsv="$tsv_tmp" -v table="$table_tmp" \
    -v plat_file="$out/.platforms.tsv" -v seedc_file="$out/.seedc.tsv" -v mech_file="$mechanisms" \
    -f "$root/scripts/seeds-lib.awk" -f "$root/scripts/seeds-compare.awk" "$out/.platforms.tsv" "$out/.seedc.tsv" "$published" "$mechanisms" ||
  { rm -f "$tsv_tmp" "$table_tmp"; note "comparison failed"; exit 2; }

{
  printf 'seed\tbefore\tafter\tmetric\tkind\trule\tpublished_before\tpublished_after\tpublished_change\t'
  printf 'nicsim_before\tnicsim_after\tnicsim_change\tlow\thigh\toff_by\tverdict\tnote\tweak\n'
  cat "$tsv_tmp"
} > "$out/.validation.tsv.new.$$" && mv "$out/.validation.tsv.new.$$" "$out/validation.tsv"
mv "$table_tmp" "$out/table.tsv"
rm -f "$tsv_tmp"
note "table in $out/validation.tsv"

# ---- Strength ----------------------------------------------------------------
# DIR/strength.tsv (the doc's strength table) is only this run's.
rm -f "$out/strength.tsv"
if [ -n "$json" ]; then
  find_nicsim
  sh "$root/scripts/seeds-strength.sh" "$root" "$out" "$nicsim" "$jobs" "$strength_keys" "$published" "$json" ||
    exit 2
fi

# ---- The doc's generated tables ----------------------------------------------
strength_tsv=
[ ! -f "$out/strength.tsv" ] || strength_tsv="$out/strength.tsv"
if [ "$doc_mode" = write ] && [ "$status" -ne 0 ]; then
  note "a sweep failed: $doc not rewritten"
elif [ "$doc_mode" = write ]; then
  doc_tmp="$doc.new.$$"
  awk -F '\t' -v mode=write -v doc="$doc" -v seeds=" $seeds " -v newdoc="$doc_tmp" -v stsv="$strength_tsv" \
      -f "$root/scripts/seeds-doc.awk" "$out/table.tsv" "$doc" || { rm -f "$doc_tmp"; exit 2; }
  if cmp -s "$doc_tmp" "$doc"; then rm -f "$doc_tmp"; note "$doc: its tables are up to date"
  else mv "$doc_tmp" "$doc" && note "$doc: tables rewritten"; fi
elif [ "$doc_mode" = check ]; then
  rc=0
  awk -F '\t' -v mode=check -v doc="$doc" -v seeds=" $seeds " -v newdoc=/dev/null -v stsv="$strength_tsv" \
      -f "$root/scripts/seeds-doc.awk" "$out/table.tsv" "$doc" || rc=$?
  [ "$rc" -le 1 ] || exit 2
  if [ "$rc" -eq 1 ]; then [ "$status" -ne 0 ] || status=1
  else note "$doc: every generated figure matches"; fi
fi

# ---- Plots -----------------------------------------------------------------
if [ "$plots" -eq 1 ]; then
  if ! command -v gnuplot >/dev/null 2>&1; then
    note "gnuplot not found (Debian: gnuplot-nox): no plots"
  else
    mkdir -p "$plot_dir" || { note "cannot create $plot_dir"; exit 2; }
    for s in $seeds; do
      gp=$root/plots/$s.gp
      if [ ! -r "$gp" ]; then note "no $gp: $s not plotted"; continue; fi
      case "$out$plot_dir" in *"'"*) note "a path holds a quote: $s not plotted"; status=2; continue ;; esac
      if gnuplot -e "datafile='$out/$s.dat'; outfile='$plot_dir/$s.svg'" "$gp"; then
        note "plot $plot_dir/$s.svg"
      else
        note "gnuplot failed on $gp"
        status=2
      fi
    done
  fi
fi
exit $status
