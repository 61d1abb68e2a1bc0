#!/bin/sh
# seeds.sh: runs the five seed scenarios (scenarios/seeds/*.yaml) and sets
# nicsim's before/after against the published figures (plots/published.tsv)
# with issue 7's rule: a table on stdout, DIR/validation.tsv, DIR/<seed>.dat
# and one gnuplot plot per seed (plots/<seed>.svg). Usage, rule and file
# formats: docs/seeds.md. POSIX sh and awk only.
set -eu

root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
jobs=
out="nicsim-out/seeds"
run=1
plots=1
plot_dir=$root/plots
published=$root/plots/published.tsv
seeds=

# usage: prints the synopsis on stdout.
usage() {
  cat <<'EOF'
Usage: scripts/seeds.sh [-j N] [-o DIR] [--no-run] [--no-plots] [--plot-dir DIR]
                        [--published FILE] [SEED...]
Runs each seed sweep into DIR/<seed> (nicsim sweep --force), compares nicsim's
before/after with the published figures and prints the table; writes
DIR/validation.tsv, DIR/<seed>.dat and renders plots/<seed>.svg.
  -j, --jobs N       points simulated in parallel (default: online CPUs)
  -o, --output DIR   output directory (default nicsim-out/seeds)
  --no-run           do not simulate: compare the results already in DIR
  --no-plots         do not run gnuplot
  --plot-dir DIR     where the SVGs go (default plots/ in the source tree)
  --published FILE   the published figures (default plots/published.tsv)
  SEED               only these seeds (default: every seed in FILE)
Environment: NICSIM=path of the nicsim binary (default: build it with cmake).
Exit: 0 whatever the verdicts, 2 on a usage error, a bad FILE, a failed
sweep or a failed plot. See docs/seeds.md.
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
  for s in $seeds; do
    case " $all_seeds " in
      *" $s "*) ;;
      *) usage_error "unknown seed '$s' (known: $all_seeds)" ;;
    esac
  done
fi

mkdir -p "$out" || usage_error "cannot create $out"
status=0

# ---- Run the sweeps --------------------------------------------------------
if [ "$run" -eq 1 ]; then
  for s in $seeds; do
    [ -r "$root/scenarios/seeds/$s.yaml" ] || usage_error "no scenario $root/scenarios/seeds/$s.yaml"
  done
  nicsim=${NICSIM:-}
  if [ -z "$nicsim" ]; then
    note "building nicsim (cmake --preset default)"
    (cd "$root" && cmake --preset default >&2 && cmake --build --preset default --target nicsim >&2) ||
      { note "building nicsim failed"; exit 2; }
    nicsim=$root/build/nicsim
  fi
  [ -x "$nicsim" ] || usage_error "nicsim binary '$nicsim' is not executable"
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

# ---- Compare ---------------------------------------------------------------
# One awk pass over published.tsv: loads DIR/<seed>/results.csv on demand,
# writes the TSV and the .dat files and prints the aligned table.
tsv_tmp="$out/.validation.tsv.$$"
awk -F '\t' -v out="$out" -v seeds=" $seeds " -v tsv="$tsv_tmp" '
  # isnum(s): s is a plain decimal number.
  function isnum(s) { return s ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ }
  # csvsplit(line, f): splits one RFC 4180 CSV line into f[1..n], returns n.
  function csvsplit(line, f,   n, i, c, q, cur) {
    n = 0; cur = ""; q = 0
    for (i = 1; i <= length(line); i++) {
      c = substr(line, i, 1)
      if (q) {
        if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { cur = cur "\""; i++ } else q = 0 }
        else cur = cur c
      } else if (c == "\"") q = 1
      else if (c == ",") { f[++n] = cur; cur = "" }
      else if (c != "\r") cur = cur c
    }
    f[++n] = cur
    return n
  }
  # load(seed): reads DIR/<seed>/results.csv into val[seed, label, column].
  function load(seed,   file, line, nh, n, i, hdr, f, lab) {
    loaded[seed] = 1
    file = out "/" seed "/results.csv"
    if ((getline line < file) <= 0) return
    have[seed] = 1
    nh = csvsplit(line, hdr)
    lab = 0
    for (i = 1; i <= nh; i++) { col[seed SUBSEP hdr[i]] = 1; if (hdr[i] == "label") lab = i }
    while (lab && (getline line < file) > 0) {
      n = csvsplit(line, f)
      row[seed SUBSEP f[lab]] = 1
      for (i = 1; i <= nh && i <= n; i++) val[seed SUBSEP f[lab] SUBSEP hdr[i]] = f[i]
    }
    close(file)
  }
  # fmtv(v): a value for people: 4 significant digits, k/M/G above 10^4.
  function fmtv(v,   a) {
    if (v == "-" || v == "") return "-"
    v = v + 0
    a = v < 0 ? -v : v
    if (a >= 1e9) return sprintf("%.4gG", v / 1e9)
    if (a >= 1e6) return sprintf("%.4gM", v / 1e6)
    if (a >= 1e4) return sprintf("%.4gk", v / 1e3)
    return sprintf("%.4g", v)
  }
  # fmtr(r): an after/before ratio as "6.69x" or "1/2.30x".
  function fmtr(r) { return r >= 1 ? sprintf("%.2fx", r) : (r > 0 ? sprintf("1/%.2fx", 1 / r) : sprintf("%.2fx", r)) }
  # fmtp(c): a relative change as a signed percentage.
  function fmtp(c) { return sprintf("%+.1f%%", 100 * c) }
  # g(x): a number for the TSV and .dat files.
  function g(x) { return (x == "-" || x == "") ? "-" : sprintf("%.6g", x) }
  # cell(r, c, s): stores a table cell and widens its column.
  function cell(r, c, s) { tab[r, c] = s; if (length(s) > w[c]) w[c] = length(s) }
  /^#/ || /^[ \t]*$/ { next }
  !header { header = 1; next }
  index(seeds, " " $1 " ") == 0 { next }
  {
    seed = $1; bl = $2; al = $3; metric = $4; pb = $5; pa = $6; kind = $7
    if (!(seed in loaded)) load(seed)
    rule = kind == "unchanged" ? "unchanged" : "relative"
    pchange = "-"; lo = "-"; hi = "-"; up = 1; pr = "-"
    if (pb != "-") {
      pr = pa / pb; up = pr > 1
      pratio = pr >= 1 ? pr : 1 / pr
      if (kind == "headline" && pratio >= 2) rule = "ratio"
      pchange = rule == "ratio" ? pratio : pr - 1
    }
    if (rule == "unchanged") { lo = -0.05; hi = 0.05 }
    else if (rule == "ratio") { lo = 0.75 * pratio; hi = 1.25 * pratio }
    else if (kind == "headline") {
      lo = 0.75 * pchange; hi = 1.25 * pchange
      if (lo > hi) { t = lo; lo = hi; hi = t }
    }

    # nicsim before/after
    nb = val[seed SUBSEP bl SUBSEP metric]; na = val[seed SUBSEP al SUBSEP metric]
    note = ""
    if (!have[seed]) note = "no " out "/" seed "/results.csv"
    else if (!((seed SUBSEP bl) in row)) note = "no point " bl
    else if (!((seed SUBSEP al) in row)) note = "no point " al
    else if (!((seed SUBSEP metric) in col)) note = "no column " metric
    else if (!isnum(nb) || !isnum(na)) note = "no value of " metric
    nr = "-"; nchange = "-"; off = "-"
    if (note != "") { verdict = "MISSING"; nb = (nb == "") ? "-" : nb; na = (na == "") ? "-" : na }
    else if (nb + 0 == 0 || (rule == "ratio" && na + 0 == 0)) {
      verdict = kind == "info" ? "INFO" : "MISS"; note = "nicsim " (nb + 0 == 0 ? "before" : "after") " is 0: no ratio"
    } else {
      nr = na / nb
      nchange = rule == "ratio" ? (up ? nr : 1 / nr) : nr - 1
      eps = 1e-9
      if (kind == "info") verdict = "INFO"
      else if (rule == "unchanged") {
        a = nchange < 0 ? -nchange : nchange
        verdict = a <= 0.05 + eps ? "PASS" : "MISS"
        if (verdict == "MISS") note = "changed by more than 5%"
      } else {
        wrong = rule == "ratio" ? (nchange < 1) : (nchange * pchange <= 0)
        if (wrong) { verdict = "MISS"; note = "wrong direction" }
        else if (nchange < lo - eps * (lo < 0 ? -lo : lo)) { verdict = "MISS"; note = (pchange < 0 && rule != "ratio") ? "change too large" : "change too small" }
        else if (nchange > hi + eps * (hi < 0 ? -hi : hi)) { verdict = "MISS"; note = (pchange < 0 && rule != "ratio") ? "change too small" : "change too large" }
        else verdict = "PASS"
      }
    }
    # off by: nicsim change / published change - 1 (in the rule of the row)
    if (nchange != "-" && pchange != "-" && rule != "unchanged" && pchange + 0 != 0) off = nchange / pchange - 1

    # the TSV row
    printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", seed, bl, al, metric, kind, rule,
      pb, pa, g(pchange), nb, na, g(nchange), g(lo), g(hi), g(off), verdict, note > tsv

    # the table row
    nrow++
    cell(nrow, 1, seed); cell(nrow, 2, bl " -> " al); cell(nrow, 3, metric)
    if (pb == "-") pc = "no figures"
    else pc = rule == "ratio" ? fmtr(pr) : fmtp(pr - 1)
    cell(nrow, 4, fmtv(pb) " -> " fmtv(pa) " (" pc ")")
    if (nr == "-") nc = "-"
    else nc = rule == "ratio" ? fmtr(nr) : fmtp(nr - 1)
    cell(nrow, 5, fmtv(nb) " -> " fmtv(na) " (" nc ")")
    cell(nrow, 6, off == "-" ? "-" : fmtp(off))
    cell(nrow, 7, verdict (note != "" ? " (" note ")" : ""))
    count[verdict]++

    # the plot data: after/before of each pair (before = 1) and the pass band
    dat = out "/" seed ".dat"
    if (!(seed in datopen)) {
      datopen[seed] = 1; ndat[seed] = 0
      print "# " seed ": one row per compared figure (plots/published.tsv), written by scripts/seeds.sh" > dat
      print "# i\tplatform\tmetric\tpublished_after_over_before\tnicsim_after_over_before\tband_low\tband_high\tverdict" > dat
    }
    plat = bl; sub(/^[^\/]*\//, "", plat)
    if (rule == "unchanged") { blo = 0.95; bhi = 1.05 }
    else if (rule == "ratio") { blo = up ? lo : 1 / hi; bhi = up ? hi : 1 / lo }
    else if (kind == "headline") { blo = 1 + lo; bhi = 1 + hi }
    else { blo = "-"; bhi = "-" }
    printf "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", ndat[seed]++, plat, metric, g(pr), g(nr), g(blo), g(bhi), verdict > dat
  }
  END {
    close(tsv)
    for (s in datopen) close(out "/" s ".dat")
    split("seed|points|metric|published before -> after (change)|nicsim before -> after (change)|off by|verdict", h, "|")
    for (c = 1; c <= 7; c++) if (length(h[c]) > w[c]) w[c] = length(h[c])
    for (c = 1; c <= 7; c++) printf "%-*s%s", w[c], h[c], c < 7 ? "  " : "\n"
    for (c = 1; c <= 7; c++) { printf "%s", substr("--------------------------------------------------------------------------------", 1, w[c]); printf "%s", c < 7 ? "  " : "\n" }
    for (r = 1; r <= nrow; r++)
      for (c = 1; c <= 7; c++) printf "%-*s%s", (c < 7 ? w[c] : 0), tab[r, c], c < 7 ? "  " : "\n"
    printf "\n%d PASS, %d MISS, %d INFO, %d MISSING\n", count["PASS"], count["MISS"], count["INFO"], count["MISSING"]
  }
' "$published" || { rm -f "$tsv_tmp"; note "comparison failed"; exit 2; }

{
  printf 'seed\tbefore\tafter\tmetric\tkind\trule\tpublished_before\tpublished_after\tpublished_change\t'
  printf 'nicsim_before\tnicsim_after\tnicsim_change\tlow\thigh\toff_by\tverdict\tnote\n'
  cat "$tsv_tmp"
} > "$out/.validation.tsv.new.$$" && mv "$out/.validation.tsv.new.$$" "$out/validation.tsv"
rm -f "$tsv_tmp"
note "table in $out/validation.tsv"

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
