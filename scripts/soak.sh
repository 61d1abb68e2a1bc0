#!/usr/bin/env bash
# soak.sh: the opt-in long-run checks of the robustness issue: a long
# simulation and a 1000-point sweep must complete without their memory
# growing. Too slow for CI (minutes); run it before a release or after a
# change to the models' allocation patterns. See docs/robustness.md.
#
#   scripts/soak.sh [--duration-us US] [--points N] [-j N]
#
# 1. One long run of the built-in default scenario (10 GbE RX at line rate)
#    for --duration-us of simulated time (default 10000000, 10 s: about
#    8 M frames). The nicsim process's resident set is sampled every 0.5 s;
#    the check compares the largest sample of the last quarter of the run with
#    that of the second quarter (after start-up).
# 2. A sweep of --points (default 1000) short points (-j N processes, default
#    2): the same check on the sweep's parent process, which keeps every
#    point's results.
# A growth above 10 % fails. Prints the figures; exit 0 if both hold, 1 if
# either grew, 2 on usage errors or a failed run.
set -euo pipefail
cd "$(dirname "$0")/.."

duration_us=10000000
points=1000
jobs=2
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --duration-us) duration_us="${2:?}"; shift 2 ;;
    --points) points="${2:?}"; shift 2 ;;
    -j) jobs="${2:?}"; shift 2 ;;
    -h | --help) usage ;;
    *) echo "soak.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
case "$duration_us$points$jobs" in *[!0-9]*) echo "soak.sh: numbers only" >&2; exit 2 ;; esac

NICSIM="${NICSIM:-}"
if [ -z "$NICSIM" ]; then
  cmake --preset default >&2
  cmake --build --preset default -j"$(nproc)" --target nicsim >&2
  NICSIM=./build/nicsim
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs "$@" in the background, samples its VmRSS (kB) every 0.5 s into $1.log;
# prints "q2 q4" maxima (second and last quarter of the samples).
sample_rss() {
  local log="$1"; shift
  "$@" > "$log.out" 2> "$log.err" &
  local pid=$! rc=0
  : > "$log"
  while kill -0 "$pid" 2> /dev/null; do
    awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2> /dev/null >> "$log" || true
    sleep 0.5
  done
  wait "$pid" || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "soak.sh: '$*' failed with status $rc:" >&2
    tail -5 "$log.err" >&2
    exit 2
  fi
  awk '{v[NR] = $1} END {
    if (NR < 8) { print "short"; exit }
    q = int(NR / 4); a = 0; b = 0
    for (i = q + 1; i <= 2 * q; i++) if (v[i] > a) a = v[i]
    for (i = NR - q + 1; i <= NR; i++) if (v[i] > b) b = v[i]
    print a, b, NR }' "$log"
}

verdict() { # name q2 q4 samples
  awk -v n="$1" -v a="$2" -v b="$3" -v s="$4" 'BEGIN {
    g = (b / a - 1) * 100
    printf "%-22s RSS %8.1f MiB -> %8.1f MiB (%+.1f%%) over %d samples: %s\n", n, a / 1024, b / 1024, g, s,
           (g > 10 ? "GREW" : "ok")
    exit (g > 10) }'
}

status=0
echo "== long run: default scenario, ${duration_us} us simulated ==" >&2
read -r a b s < <(sample_rss "$work/run" "$NICSIM" run -q --set run.duration_us="$duration_us" \
                    --set run.warmup_us=0 --json "$work/run.json")
if [ "$a" = short ]; then
  echo "soak.sh: the run ended too soon to sample; raise --duration-us" >&2
  exit 2
fi
verdict "long run" "$a" "$b" "$s" || status=1

echo "== sweep: ${points} points, -j ${jobs} ==" >&2
cat > "$work/sweep.yaml" << EOF
name: soak-sweep
description: many short points for the soak test (scripts/soak.sh)
platform: x86-gen3
run: {duration_us: 100, warmup_us: 20, drain_us: 200, seed: 1}
sweep:
  repeats: ${points}
EOF
read -r a b s < <(sample_rss "$work/sweep" "$NICSIM" sweep "$work/sweep.yaml" -q -j "$jobs" -o "$work/out")
if [ "$a" = short ]; then
  echo "soak.sh: the sweep ended too soon to sample; raise --points" >&2
  exit 2
fi
verdict "sweep of ${points}" "$a" "$b" "$s" || status=1
exit "$status"
