#!/usr/bin/env bash
# fuzz.sh: builds the config-loader fuzzer (the `fuzz` preset, build-fuzz/) and
# runs it for a bounded time. See docs/robustness.md.
#
#   scripts/fuzz.sh [--merge] [--jobs N] [--keep-going] [--max-len BYTES] [SECONDS]
#
# SECONDS (default 60) bounds the fuzzing time. The seed corpus
# tests/fuzz/corpus is copied into build-fuzz/fuzz/corpus (kept between runs,
# so coverage accumulates) and libFuzzer mutates only that copy, with the
# dictionary tests/fuzz/yaml.dict. The source corpus is never written unless
# --merge is given: then the inputs of the working corpus that add coverage
# are merged into tests/fuzz/corpus (review them before committing).
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
merge=0
jobs=1
keep_going=0
max_len=8192
suppress=1
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --merge) merge=1 ;;
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
if find src/config src/hw tests/fuzz -name '*.[ch]' -newermt "@$((build_start - 1))" | grep -q .; then
  echo "fuzz.sh: sources changed during the build; rebuilding from clean"
  cmake --build --preset fuzz -j"$(nproc)" --clean-first >/dev/null || {
    echo "fuzz.sh: build failed; rerun: cmake --build --preset fuzz" >&2; exit 2; }
fi
FUZZER=$ROOT/build-fuzz/tests/fuzz/fuzz_config
SRC_CORPUS=$ROOT/tests/fuzz/corpus
OUT=$ROOT/build-fuzz/fuzz
mkdir -p "$OUT/corpus" "$OUT/artifacts"
cp -n "$SRC_CORPUS"/* "$OUT/corpus/"

# ---- run ----------------------------------------------------------------------
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if [ "$suppress" = 1 ] && grep -q '^leak:' "$ROOT/tests/fuzz/known-bugs.lsan.supp" 2>/dev/null; then
  export LSAN_OPTIONS=suppressions=$ROOT/tests/fuzz/known-bugs.lsan.supp
  echo "fuzz.sh: suppressing known leaks: $(grep '^leak:' "$ROOT/tests/fuzz/known-bugs.lsan.supp" | tr '\n' ' ')"
fi
stamp=$(date +%s)
marker=$OUT/.run-$stamp
touch "$marker"
args=(-max_total_time="$seconds" -dict="$ROOT/tests/fuzz/yaml.dict" -max_len="$max_len"
      -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
      -artifact_prefix="$OUT/artifacts/")
if [ "$jobs" -gt 1 ] || [ "$keep_going" = 1 ]; then
  args+=(-fork="$jobs")
  [ "$keep_going" = 1 ] && args+=(-ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi
log=$OUT/fuzz-$stamp.log
echo "fuzz.sh: fuzzing for ${seconds}s; corpus $OUT/corpus; log $log"
set +e
(cd "$ROOT/tests/fuzz/workdir" && setsid "$FUZZER" "${args[@]}" "$OUT/corpus" </dev/null) >"$log" 2>&1
rc=$?
set -e
grep -E '^#[0-9]+[[:space:]]+(DONE|pulse)|stat::|^INFO: (seed|Loaded|-max_len)' "$log" | tail -n 12 || true

found=$(find "$OUT/artifacts" -type f -newer "$marker" | sort)
rm -f "$marker"
if [ "$merge" = 1 ]; then
  echo "fuzz.sh: merging inputs with new coverage into $SRC_CORPUS"
  (cd "$ROOT/tests/fuzz/workdir" && setsid "$FUZZER" -merge=1 -max_len="$max_len" \
    -dict="$ROOT/tests/fuzz/yaml.dict" "$SRC_CORPUS" "$OUT/corpus" </dev/null) >"$OUT/merge-$stamp.log" 2>&1 ||
    { echo "fuzz.sh: merge failed; see $OUT/merge-$stamp.log" >&2; }
  grep -E 'MERGE-OUTER: [0-9]+ new files' "$OUT/merge-$stamp.log" || true
fi
if [ -n "$found" ]; then
  echo "fuzz.sh: FOUND $(echo "$found" | wc -l) reproducer(s):"
  for f in $found; do
    echo "  $f"
    grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|invariant violated' "$log" | sed 's/^/    /' || true
  done
  echo "fuzz.sh: replay one with: (cd tests/fuzz/workdir && $FUZZER FILE)"
  echo "fuzz.sh: details in $log"
  exit 1
fi
if [ "$rc" -ne 0 ]; then
  echo "fuzz.sh: the fuzzer exited with $rc without a reproducer; see $log" >&2
  tail -n 20 "$log" >&2
  exit 1
fi
echo "fuzz.sh: nothing found in ${seconds}s"
