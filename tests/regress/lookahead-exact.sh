#!/usr/bin/env bash
# lookahead-exact.sh NICSIM: lookahead (run.lookahead, docs/performance.md)
# changes no result: every configuration of scripts/compare-builds.list gives
# the same metrics with it off and on (all but sim.events and sim.wall_s), no
# configuration takes more delta cycles with it on, and at least half take
# fewer (it engages). Exit 0 if so, 1 if not, 2 on usage.
set -euo pipefail
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: lookahead-exact.sh NICSIM" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rc=0
out=$(cd "$root" && NICSIM="$1" scripts/compare-builds.sh "$here/no-lookahead-nicsim.sh" "$1") || rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || { echo "lookahead-exact: results differ with lookahead on" >&2; exit 1; }
printf '%s\n' "$out" | awk '
  /^same/ { n++
            if (match($0, /sim\.events [0-9]+ -> [0-9]+/)) {
              split(substr($0, RSTART, RLENGTH), f, " "); off = f[2] + 0; on = f[4] + 0
              if (on > off) { more++; print "more delta cycles with lookahead: " $0 }
              if (on < off) fewer++ } }
  END { printf "lookahead-exact: %d configurations, %d with fewer delta cycles, %d with more\n", n, fewer, more
        exit (n == 0 || more > 0 || 2 * fewer < n) ? 1 : 0 }'
