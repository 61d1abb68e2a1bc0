#!/bin/sh
# calibration-doc.sh: docs/calibration.md's table of the seed calibration
# specs is generated: each row is the DIR/summary.md that `nicsim calibrate`
# writes for a spec of scenarios/calibration (calib_row.c). --write-doc
# calibrates every spec (--resume: evaluations on disk are reused) and
# rewrites the block between <!-- calibration:table:BEGIN --> and END;
# --check-doc exits 1 naming each row that differs. docs/calibration.md,
# "The seed specs". POSIX sh and awk only.
set -eu

root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
mode=
jobs=1
out=nicsim-out/calibration
doc=$root/docs/calibration.md
run=1

usage() {
  cat <<'USAGE'
Usage: scripts/calibration-doc.sh (--write-doc | --check-doc) [-j N] [-o DIR] [--doc FILE] [--no-run]
Calibrates every spec of scenarios/calibration into DIR/<name> (nicsim
calibrate --resume) and rewrites (--write-doc) or checks (--check-doc) the
table between the doc's <!-- calibration:table:BEGIN/END --> markers.
  -j N        simulations in parallel (default 1)
  -o DIR      output directory (default nicsim-out/calibration)
  --doc FILE  the doc (default docs/calibration.md)
  --no-run    calibrate nothing: use DIR/<name>/summary.md as they are
Environment: NICSIM=path of the nicsim binary (default build/nicsim).
Exit: 0; 1 when --check-doc finds a row that differs; 2 on a usage error or
a failed calibration.
USAGE
}
die() { echo "calibration-doc.sh: $1" >&2; exit 2; }

while [ $# -gt 0 ]; do
  case $1 in
    --write-doc) mode=write; shift ;;
    --check-doc) mode=check; shift ;;
    -j) [ $# -ge 2 ] || die "-j needs a value"; jobs=$2; shift 2 ;;
    -o) [ $# -ge 2 ] || die "-o needs a value"; out=$2; shift 2 ;;
    --doc) [ $# -ge 2 ] || die "--doc needs a value"; doc=$2; shift 2 ;;
    --no-run) run=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (try --help)" ;;
  esac
done
[ -n "$mode" ] || die "give --write-doc or --check-doc"
case $jobs in ''|*[!0-9]*|0*) die "-j wants a positive integer, not '$jobs'" ;; esac
[ -r "$doc" ] || die "cannot read $doc"
nicsim=${NICSIM:-$root/build/nicsim}
mkdir -p "$out" || die "cannot create $out"

rows=$out/.rows.$$
: > "$rows"
for spec in "$root"/scenarios/calibration/*.yaml; do
  name=$(basename "$spec" .yaml)
  if [ "$run" -eq 1 ]; then
    [ -x "$nicsim" ] || die "nicsim binary '$nicsim' is not executable"
    echo "calibration-doc.sh: calibrate $name -> $out/$name" >&2
    "$nicsim" calibrate "$spec" -o "$out/$name" -j "$jobs" --resume -q --no-plots > /dev/null ||
      { rm -f "$rows"; die "nicsim calibrate $spec failed"; }
  fi
  [ -r "$out/$name/summary.md" ] || { rm -f "$rows"; die "no $out/$name/summary.md"; }
  cat "$out/$name/summary.md" >> "$rows"
done

rc=0
awk -v mode="$mode" -v doc="$doc" -v rows="$rows" -v newdoc="$doc.new.$$" '
  function safe(s) { gsub(/[\001-\037\177]/, "?", s); return s }
  BEGIN {
    gen[1] = "| Spec | Fitted | Fit | Calibrate: measured \342\206\222 simulated | Validate: measured \342\206\222 predicted | Worst validation pull |"
    gen[2] = "|---|---|---|---|---|---|"
    n = 2
    while ((getline l < rows) > 0) gen[++n] = l
  }
  $0 == "<!-- calibration:table:BEGIN -->" { if (inb) bad = "a second BEGIN"; inb = 1; seen = 1; first = FNR + 1; nb = 0; print > newdoc; next }
  $0 == "<!-- calibration:table:END -->" {
    if (!inb) bad = "an END without its BEGIN"
    inb = 0
    if (mode == "write") for (i = 1; i <= n; i++) print gen[i] > newdoc
    else for (i = 1; i <= n || i <= nb; i++) if (gen[i] != blk[i]) {
      diffs++
      printf "%s:%d: the doc has \"%s\", the calibration gives \"%s\"\n", doc, first + i - 1, safe(blk[i]), safe(gen[i]) > "/dev/stderr"
    }
    print > newdoc; next
  }
  inb { blk[++nb] = $0; next }
  { print > newdoc }
  END {
    if (inb) bad = "a BEGIN without its END"
    if (!seen) bad = "no <!-- calibration:table:BEGIN --> marker"
    if (bad != "") { printf "%s: %s\n", doc, bad > "/dev/stderr"; exit 2 }
    if (diffs) { printf "%s: %d line(s) of its calibration table differ (scripts/calibration-doc.sh --write-doc rewrites them)\n", doc, diffs > "/dev/stderr"; exit 1 }
  }
' "$doc" || rc=$?
rm -f "$rows"
if [ "$mode" = write ] && [ "$rc" -eq 0 ]; then
  if cmp -s "$doc.new.$$" "$doc"; then rm -f "$doc.new.$$"; echo "calibration-doc.sh: $doc is up to date" >&2
  else mv "$doc.new.$$" "$doc"; echo "calibration-doc.sh: $doc rewritten" >&2; fi
else
  rm -f "$doc.new.$$"
fi
[ "$rc" -ne 0 ] || [ "$mode" = write ] || echo "calibration-doc.sh: $doc: every row matches" >&2
exit "$rc"
