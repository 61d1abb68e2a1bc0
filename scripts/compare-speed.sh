#!/usr/bin/env bash
# compare-speed.sh: the speed of two nicsim builds, compared by the
# instructions each executes (callgrind's Ir) on every bench workload, a
# count that other processes on the machine cannot move. Wall-clock figures
# from `nicsim bench --repeat` on a shared machine vary by a quarter between
# runs; instruction counts of the same work repeat to within a few in a
# million. docs/performance.md, "Comparing the speed of two builds", says
# how it is used.
#
#   scripts/compare-speed.sh OLD_NICSIM NEW_NICSIM [WORKLOAD ...]
#
# WORKLOAD: a `nicsim bench` workload (default: rx64-10g bidir1500 lan743x
# i40e), each run with --quick (50,000 frames) under valgrind's callgrind;
# about 40 s per binary for all four. Prints, per workload, the
# instructions of the workload's child process for each binary and the
# change in per cent (negative: the new build executes fewer).
# Needs valgrind. Exit 0, or 2 on usage errors and a failed run.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] || usage
old=$1 new=$2
shift 2
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(rx64-10g bidir1500 lan743x i40e)
for b in "$old" "$new"; do
  [ -x "$b" ] || { echo "compare-speed: '$b' is not an executable nicsim binary" >&2; exit 2; }
done
command -v valgrind >/dev/null || { echo "compare-speed: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Instructions of the workload's child: bench forks the workload first, then
# the SystemC kernel micro-benchmarks; the parent has the lowest pid.
count() {
  local bin=$1 w=$2 log="$work/vg.log"
  if ! valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$work/cg.%p" \
       "$bin" bench --quick -q --json /dev/null "$w" >/dev/null 2>"$log"; then
    echo "compare-speed: '$bin bench --quick $w' failed; valgrind's log:" >&2
    tail -5 "$log" >&2
    exit 2
  fi
  sed -n 's/^==\([0-9]*\)== Collected : \([0-9]*\)$/\1 \2/p' "$log" | sort -n | sed -n '2{s/^[0-9]* //;p}'
}

printf '%-12s %16s %16s %9s\n' workload "old instr" "new instr" change
for w in "${workloads[@]}"; do
  o=$(count "$old" "$w")
  n=$(count "$new" "$w")
  [ -n "$o" ] && [ -n "$n" ] || { echo "compare-speed: no instruction count for '$w'" >&2; exit 2; }
  awk -v w="$w" -v o="$o" -v n="$n" 'BEGIN { printf "%-12s %16.0f %16.0f %+8.2f%%\n", w, o, n, (n - o) * 100.0 / o }'
done
