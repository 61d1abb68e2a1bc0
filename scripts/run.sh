#!/usr/bin/env bash
# The main job: installs dependencies (as root), builds nicsim, and runs the
# built-in default scenario. Extra arguments go to `nicsim run`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -eq 0 ]; then ./scripts/install-deps.sh >&2; fi
cmake --preset default >&2
cmake --build --preset default -j"$(nproc)" --target nicsim >&2
exec ./build/nicsim run "$@"
