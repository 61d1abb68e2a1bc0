#!/usr/bin/env bash
# compare-builds.sh: the bit-for-bit check of a change that must not move
# results (speed work, refactoring). Runs every configuration of a list with
# two nicsim binaries and compares every metric of the two runs exactly,
# except sim.wall_s (wall time) and sim.events (SystemC delta cycles, a
# counter of the simulator's own work, which a speed change is meant to
# move; its values are reported, not judged). docs/performance.md,
# "Checking that results are unchanged", says how it is used.
#
#   scripts/compare-builds.sh OLD_NICSIM NEW_NICSIM [LIST]
#
# LIST: one configuration per line, as arguments of `nicsim run` (a scenario
# path relative to the repository root, --point, --set ...); blank lines and
# lines starting with # are skipped. Default: scripts/compare-builds.list
# (24 configurations: the default platform in RX, TX, bidir, TCP, IMIX and
# PAUSE at 64 and 1500 B, several cores, locking and queue layouts, DRAM
# bandwidth and non-coherent DMA, a point of each seed scenario, and a TCP
# run whose frames meet the wire peer's at the same picosecond).
# Prints one line per configuration (same / DIFFERS with the first metrics
# that differ / exit statuses that differ), then a summary.
# Environment: COMPARE_IGNORE="METRIC ..." leaves these metrics out too (new
# metrics the old binary does not report).
# Exit 0 if every configuration gave the same results, 1 if any differed,
# 2 on usage errors.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || usage
old=$1 new=$2 list=${3:-scripts/compare-builds.list}
for b in "$old" "$new"; do
  [ -x "$b" ] || { echo "compare-builds: '$b' is not an executable nicsim binary" >&2; exit 2; }
done
[ -r "$list" ] || { echo "compare-builds: cannot read the list '$list'" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Prints name=value, one per line, of a one-row results CSV (label column, the
# bottleneck verdict and the judged-apart columns left out; values are printed to round-trip).
metrics() {
  awk -F, -v ignore=" ${COMPARE_IGNORE:-} " \
      'NR == 1 { for (i = 1; i <= NF; i++) name[i] = $i; next }
       NR == 2 { for (i = 1; i <= NF; i++)
                   if (name[i] != "label" && name[i] != "bottleneck" && name[i] != "sim.wall_s" && name[i] != "sim.events" &&
                       index(ignore, " " name[i] " ") == 0)
                     print name[i] "=" $i }' "$1"
}
events() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "sim.events") c = i } NR == 2 && c { print $c }' "$1"; }

n=0 bad=0
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in '' | '#'*) continue ;; esac
  n=$((n + 1))
  read -r -a args <<<"$line"
  rc_old=0 rc_new=0
  "$old" run -q "${args[@]}" --csv "$work/old.csv" >/dev/null 2>"$work/old.err" || rc_old=$?
  "$new" run -q "${args[@]}" --csv "$work/new.csv" >/dev/null 2>"$work/new.err" || rc_new=$?
  if [ "$rc_old" != "$rc_new" ]; then
    bad=$((bad + 1))
    echo "DIFFERS  $line: exit $rc_old (old) vs $rc_new (new): $(head -1 "$work/new.err")"
    continue
  fi
  if [ ! -s "$work/old.csv" ] || [ ! -s "$work/new.csv" ]; then
    bad=$((bad + 1))
    echo "FAILED   $line: exit $rc_old, no results: $(head -1 "$work/old.err")"
    continue
  fi
  metrics "$work/old.csv" >"$work/old.m"
  metrics "$work/new.csv" >"$work/new.m"
  ev="sim.events $(events "$work/old.csv") -> $(events "$work/new.csv")"
  if cmp -s "$work/old.m" "$work/new.m"; then
    echo "same     $line  ($ev)"
  else
    bad=$((bad + 1))
    # The first five metrics that differ (one awk, no early-closing pipe).
    diffs=$(awk -F= 'NR == FNR { old[$1] = $2; next }
                     !($1 in old) || old[$1] != $2 { if (n++ < 5) printf "%s%s", (n > 1 ? " " : ""), $1 }' \
            "$work/old.m" "$work/new.m")
    echo "DIFFERS  $line: $diffs ($ev)"
  fi
  rm -f "$work/old.csv" "$work/new.csv"
done <"$list"
echo "compare-builds: $n configurations, $((n - bad)) the same, $bad differ"
[ "$bad" -eq 0 ]
