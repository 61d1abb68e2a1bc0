#!/usr/bin/env bash
# fuzz.sh: builds the fuzzers (the `fuzz` preset, build-fuzz/) and runs them
# for a bounded time. See docs/robustness.md.
#
#   scripts/fuzz.sh [--target config|results|all] [--merge] [--jobs N] [--keep-going]
#                   [--max-len BYTES] [SECONDS]
#
# Targets: config (fuzz_config, the scenario loader; corpus tests/fuzz/corpus,
# dictionary tests/fuzz/yaml.dict) and results (fuzz_results, the readers of
# sweep.json and point files; corpus tests/fuzz/corpus-results). SECONDS
# (default 60) bounds the whole run: with --target all (the default) the
# config target gets three quarters of it and results the rest (60 s: 45 + 15),
# so CI's budget stays 60 s. Each seed corpus is copied into
# build-fuzz/fuzz/<target>/corpus (kept between runs, so coverage accumulates)
# and libFuzzer mutates only that copy. The source corpus is never written
# unless --merge is given: then the inputs of the working corpus that add
# coverage are merged into it (review them before committing).
#
# The fuzzer runs in tests/fuzz/workdir (relative platform paths in the input
# read its plat/ files), in its own session with stdin from /dev/null, so an
# input naming /dev/tty or /dev/stdin as a platform cannot block it. Crash,
# leak, timeout and OOM reproducers go to build-fuzz/fuzz/artifacts/.
#
# --jobs N       run N fuzzing processes (libFuzzer -fork=N); default 1
# --keep-going   do not stop at the first crash (fork mode, -ignore_crashes=1);
#                every reproducer found is listed at the end
# --max-len B    largest generated input (default 8192; seeds may be larger)
# --no-known-bugs-suppression
#                do not apply tests/fuzz/known-bugs.lsan.supp (LeakSanitizer
#                suppressions of open, already reported leaks)
#
# Exit status: 0 if nothing was found, 1 if a reproducer was written (its
# path is printed, with the command that replays it), 2 on usage or build errors.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

seconds=60
target=all
merge=0
jobs=1
keep_going=0
max_len=8192
suppress=1
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --merge) merge=1 ;;
    --target) target=${2:?}; shift ;;
    --jobs) jobs=${2:?}; shift ;;
    --keep-going) keep_going=1 ;;
    --max-len) max_len=${2:?}; shift ;;
    --no-known-bugs-suppression) suppress=0 ;;
    -h|--help) usage ;;
    [0-9]*) seconds=$1 ;;
    *) echo "fuzz.sh: unknown argument '$1'" >&2; usage ;;
  esac
  shift
done
case "$seconds$jobs$max_len" in *[!0-9]*) echo "fuzz.sh: SECONDS, N and BYTES are numbers" >&2; exit 2 ;; esac
case "$target" in config|results|all) ;; *) echo "fuzz.sh: --target is config, results or all" >&2; exit 2 ;; esac

# ---- build --------------------------------------------------------------------
if ! command -v clang-14 >/dev/null; then
  echo "fuzz.sh: clang-14 not found; on Debian 12: apt-get install clang-14 libclang-rt-14-dev" >&2
  exit 2
fi
if [ ! -f build-fuzz/CMakeCache.txt ]; then
  cmake --preset fuzz >build-fuzz.configure.log 2>&1 || {
    cat build-fuzz.configure.log >&2; rm -f build-fuzz.configure.log; exit 2; }
  rm -f build-fuzz.configure.log
fi
build_start=$(date +%s)
cmake --build --preset fuzz -j"$(nproc)" >/dev/null || {
  echo "fuzz.sh: build failed; rerun: cmake --build --preset fuzz" >&2; exit 2; }
# A source edited while make was compiling can leave objects that disagree on
# a struct's layout (e.g. schema.h: struct nicsim_config), and crashes that are
# not bugs. If anything the fuzzer is built from changed meanwhile, rebuild clean.
if find src/config src/hw src/results tests/fuzz -name '*.[ch]' -newermt "@$((build_start - 1))" | grep -q .; then
  echo "fuzz.sh: sources changed during the build; rebuilding from clean"
  cmake --build --preset fuzz -j"$(nproc)" --clean-first >/dev/null || {
    echo "fuzz.sh: build failed; rerun: cmake --build --preset fuzz" >&2; exit 2; }
fi
# ---- run ----------------------------------------------------------------------
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if [ "$suppress" = 1 ] && grep -q '^leak:' "$ROOT/tests/fuzz/known-bugs.lsan.supp" 2>/dev/null; then
  export LSAN_OPTIONS=suppressions=$ROOT/tests/fuzz/known-bugs.lsan.supp
  echo "fuzz.sh: suppressing known leaks: $(grep '^leak:' "$ROOT/tests/fuzz/known-bugs.lsan.supp" | tr '\n' ' ')"
fi

# run_target NAME SECONDS SRC_CORPUS WORKDIR [DICT]: fuzzes one target; sets found_any.
found_any=0
run_target() {
  local name=$1 secs=$2 src_corpus=$3 workdir=$4 dict=${5:-}
  local fuzzer=$ROOT/build-fuzz/tests/fuzz/fuzz_$name out=$ROOT/build-fuzz/fuzz/$name
  [ "$name" = config ] && out=$ROOT/build-fuzz/fuzz  # where earlier runs kept it
  mkdir -p "$out/corpus" "$out/artifacts"
  cp -n "$src_corpus"/* "$out/corpus/"
  local stamp marker log rc found
  stamp=$(date +%s)
  marker=$out/.run-$stamp
  touch "$marker"
  local args=(-max_total_time="$secs" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048
              -print_final_stats=1 -artifact_prefix="$out/artifacts/")
  [ -n "$dict" ] && args+=(-dict="$dict")
  if [ "$jobs" -gt 1 ] || [ "$keep_going" = 1 ]; then
    args+=(-fork="$jobs")
    [ "$keep_going" = 1 ] && args+=(-ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  log=$out/fuzz-$stamp.log
  echo "fuzz.sh: fuzzing $name for ${secs}s; corpus $out/corpus; log $log"
  set +e
  (cd "$workdir" && setsid "$fuzzer" "${args[@]}" "$out/corpus" </dev/null) >"$log" 2>&1
  rc=$?
  set -e
  grep -E '^#[0-9]+[[:space:]]+(DONE|pulse)|stat::|^INFO: (seed|Loaded|-max_len)' "$log" | tail -n 12 || true
  found=$(find "$out/artifacts" -type f -newer "$marker" | sort)
  rm -f "$marker"
  if [ "$merge" = 1 ]; then
    echo "fuzz.sh: merging inputs with new coverage into $src_corpus"
    local margs=(-merge=1 -max_len="$max_len")
    [ -n "$dict" ] && margs+=(-dict="$dict")
    (cd "$workdir" && setsid "$fuzzer" "${margs[@]}" "$src_corpus" "$out/corpus" </dev/null) \
      >"$out/merge-$stamp.log" 2>&1 || { echo "fuzz.sh: merge failed; see $out/merge-$stamp.log" >&2; }
    grep -E 'MERGE-OUTER: [0-9]+ new files' "$out/merge-$stamp.log" || true
  fi
  if [ -n "$found" ]; then
    echo "fuzz.sh: FOUND $(echo "$found" | wc -l) reproducer(s) in $name:"
    for f in $found; do
      echo "  $f"
      grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|invariant (violated|failed)' "$log" | sed 's/^/    /' || true
    done
    echo "fuzz.sh: replay one with: (cd $workdir && $fuzzer FILE)"
    echo "fuzz.sh: details in $log"
    found_any=1
  elif [ "$rc" -ne 0 ]; then
    echo "fuzz.sh: $name exited with $rc without a reproducer; see $log" >&2
    tail -n 20 "$log" >&2
    found_any=1
  fi
}

case "$target" in
  config) cfg_secs=$seconds res_secs=0 ;;
  results) cfg_secs=0 res_secs=$seconds ;;
  all) cfg_secs=$(( seconds * 3 / 4 )); res_secs=$(( seconds - cfg_secs )) ;;
esac
[ "$cfg_secs" -gt 0 ] && run_target config "$cfg_secs" "$ROOT/tests/fuzz/corpus" \
  "$ROOT/tests/fuzz/workdir" "$ROOT/tests/fuzz/yaml.dict"
[ "$res_secs" -gt 0 ] && run_target results "$res_secs" "$ROOT/tests/fuzz/corpus-results" \
  "$ROOT/tests/fuzz"
if [ "$found_any" = 1 ]; then
  exit 1
fi
echo "fuzz.sh: nothing found in ${seconds}s"
