#!/usr/bin/env bash
# stress.sh: the random-configuration check. Runs N short `nicsim run`s over
# random combinations of platform, cores and locking, interrupt affinity,
# queues and flows, traffic mode, protocol and frame size, the UDP sender's
# socket send buffer and pacing, PAUSE, IOMMU and DRAM bandwidth, and reports every run
# that does not exit 0 (each run checks its own invariants: conservation,
# payload, ownership). ctest runs 200 with
# seed 1 (stress.random200, a few seconds); run more, with other seeds, after
# a change to the models or the kernel layer. Reproducible: the same --seed
# draws the same runs.
#
#   scripts/stress.sh [--runs N] [--seed S] [-j N] [--lookahead-check]
#
# --runs: number of runs (default 100); --seed: the draw (default 1); -j:
# runs in parallel (default 2); --lookahead-check: each draw runs twice,
# with run.lookahead true and false, and every metric but sim.events and
# sim.wall_s must be the same (docs/performance.md, item 14). The drain is 20 ms so that overloaded
# configurations (a slow host behind a fast wire) finish their backlog.
# NICSIM=binary skips the build; KEEP=1 keeps the work directory (its path
# is in the first line of stderr). Prints each failed run's arguments and
# error (PLATFORM.yaml stands for a scenario file of two lines, `name:
# stress` and `platform: PLATFORM`), then a summary. Exit 0 if every run passed, 1 if any failed, 2 on usage errors.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=100
seed=1
jobs=2
la_check=0
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="${2:?}"; shift 2 ;;
    --seed) seed="${2:?}"; shift 2 ;;
    -j) jobs="${2:?}"; shift 2 ;;
    --lookahead-check) la_check=1; shift ;;
    -h | --help) usage ;;
    *) echo "stress.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
case "$runs$seed$jobs" in *[!0-9]*) echo "stress.sh: numbers only" >&2; exit 2 ;; esac
[ "$jobs" -ge 1 ] || { echo "stress.sh: -j must be at least 1" >&2; exit 2; }

NICSIM="${NICSIM:-}"
if [ -z "$NICSIM" ]; then
  cmake --preset default >&2
  cmake --build --preset default -j"$(nproc)" --target nicsim >&2
  NICSIM=build/nicsim
fi

work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

# pick WORD...: sets R to one of the words, from the seeded $RANDOM (no
# subshell: bash reseeds RANDOM in subshells, which would break --seed).
pick() {
  local a=("$@")
  R="${a[$((RANDOM % ${#a[@]}))]}"
}

# One scenario file per platform (the platform is not a --set key).
platforms=(x86-gen3 i40e-x86 i40e-sparc-s7 lan7430-x86 lan7430-rk3399 a3700-mvneta jh7100-stmmac
           stmmac-xgmac-haps stmmac-gmac5-haps)
for p in "${platforms[@]}"; do
  printf 'name: stress\nplatform: %s\n' "$p" >"$work/$p.yaml"
done

# Draw every run's arguments first, so the draw does not depend on -j.
RANDOM=$seed
for ((i = 0; i < runs; i++)); do
  pick "${platforms[@]}"; p=$R
  pick 1 1 2 4 8; cores=$R
  a=(--set "cpu.cores=$cores")
  if [ "$cores" != 1 ]; then
    pick big txq; a+=(--set "cpu.locking=$R")
    pick core0 spread; a+=(--set "cpu.irq_affinity=$R")
  fi
  case "$p" in
    x86-gen3 | i40e-*)
      pick 1 2 4 8; a+=(--set "nic.rx_queues=$R" --set "nic.tx_queues=$R")
      pick 1 4 10 16; a+=(--set "traffic.flows=$R")
      if [ $((RANDOM % 5)) -eq 0 ]; then a+=(--set nic.rx_drop_nodesc=true); fi
      ;;
  esac
  pick rx tx bidir; a+=(--set "traffic.mode=$R"); mode=$R
  pick udp udp tcp; a+=(--set "traffic.protocol=$R")
  if [ "$mode" != rx ] && [ "$R" = udp ] && [ $((RANDOM % 3)) -eq 0 ]; then
    pick 8192 65536 212992; a+=(--set "traffic.sndbuf_bytes=$R")
  fi
  if [ "$mode" != rx ] && [ $((RANDOM % 4)) -eq 0 ]; then a+=(--set traffic.tx_pacing=average); fi
  if [ "$mode" != rx ] && [ $((RANDOM % 4)) -eq 0 ]; then a+=(--set driver.bql=true); fi
  case "$p" in *stmmac*) if [ $((RANDOM % 3)) -eq 0 ]; then a+=(--set driver.stmmac_tbu=true); fi ;; esac
  pick 64 128 512 1518; a+=(--set "traffic.frame_bytes=$R")
  if [ $((RANDOM % 4)) -eq 0 ]; then a+=(--set nic.pause_enable=true); fi
  if [ $((RANDOM % 7)) -eq 0 ]; then a+=(--set iommu.enabled=true); fi
  if [ $((RANDOM % 7)) -eq 0 ]; then pick 2 8 30; a+=(--set "memory.dram_bw_gbps=$R"); fi
  pick 500 2000 5000; a+=(--set "run.duration_us=$R" --set run.warmup_us=100 --set run.drain_us=20000)
  a+=(--set "run.seed=$((RANDOM % 1000))")
  printf '%s\n' "$work/$p.yaml ${a[*]}" >"$work/args.$i"
done

# run_one I: runs draw I; on failure writes its arguments and last error line.
run_one() {
  local i=$1 args
  args=$(cat "$work/args.$i")
  # shellcheck disable=SC2086  # the arguments were drawn as words
  if ! "$NICSIM" run -q $args --csv "$work/on.$i.csv" >/dev/null 2>"$work/err.$i"; then
    printf 'FAIL %s\n  %s\n' "${args#"$work"/}" "$(tail -n 1 "$work/err.$i")" >"$work/fail.$i"
    return
  fi
  [ "$la_check" = 1 ] || return 0
  # shellcheck disable=SC2086
  "$NICSIM" run -q $args --set run.lookahead=false --csv "$work/off.$i.csv" >/dev/null 2>"$work/err.$i" || true
  local m='NR == 1 { for (i = 1; i <= NF; i++) n[i] = $i; next }
           NR == 2 { for (i = 1; i <= NF; i++) if (n[i] != "sim.wall_s" && n[i] != "sim.events") print n[i] "=" $i }'
  if ! cmp -s <(awk -F, "$m" "$work/on.$i.csv") <(awk -F, "$m" "$work/off.$i.csv" 2>/dev/null); then
    printf 'LOOKAHEAD %s\n  results differ with run.lookahead false\n' "${args#"$work"/}" >"$work/fail.$i"
  fi
}
export -f run_one
export NICSIM work la_check
echo "stress.sh: $runs runs, seed $seed, -j $jobs${KEEP:+, in $work}" >&2
seq 0 $((runs - 1)) | xargs -P "$jobs" -I{} bash -c 'run_one {}'

failed=0
for ((i = 0; i < runs; i++)); do
  if [ -f "$work/fail.$i" ]; then
    cat "$work/fail.$i"
    failed=$((failed + 1))
  fi
done
echo "stress.sh: $runs runs, $failed failed"
[ "$failed" -eq 0 ]
