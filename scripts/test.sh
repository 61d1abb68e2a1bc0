#!/usr/bin/env bash
# The test command: installs dependencies (as root), builds with warnings as
# errors, and runs every test with ctest. .ci/run calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -eq 0 ]; then ./scripts/install-deps.sh; fi
cmake --preset ci
cmake --build --preset ci -j"$(nproc)"
ctest --preset ci -j"$(nproc)"
