#!/usr/bin/env bash
# The test command: installs dependencies (as root), builds with warnings as
# errors, and runs every test with ctest. .ci/run calls exactly this.
# With CI=true (as CI sets it) it then runs the whole suite again built with
# AddressSanitizer and UBSan (the asan preset, docs/robustness.md) and fuzzes
# the config loader with libFuzzer for NICSIM_FUZZ_SECONDS (default 60); set
# NICSIM_ASAN=1 / NICSIM_FUZZ=1 to do those locally, =0 to skip them in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -eq 0 ]; then ./scripts/install-deps.sh; fi
cmake --preset ci
cmake --build --preset ci -j"$(nproc)"
ctest --preset ci -j"$(nproc)"
case "${NICSIM_ASAN:-${CI:-false}}" in
  1 | true)
    echo "== the same suite under AddressSanitizer and UBSan ==" >&2
    cmake --preset asan
    cmake --build --preset asan -j"$(nproc)"
    ctest --preset asan -j"$(nproc)"
    ;;
esac
case "${NICSIM_FUZZ:-${CI:-false}}" in
  1 | true)
    echo "== libFuzzer on the config loader, ${NICSIM_FUZZ_SECONDS:-60} s ==" >&2
    ./scripts/fuzz.sh "${NICSIM_FUZZ_SECONDS:-60}"
    ;;
esac
