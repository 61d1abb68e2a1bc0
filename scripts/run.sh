#!/usr/bin/env bash
# The main job: installs dependencies (as root), builds nicsim, runs the
# built-in default scenario (extra arguments go to `nicsim run`), then a
# built-in sweep with its plots and design-review report in nicsim-out/demo.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -eq 0 ]; then ./scripts/install-deps.sh >&2; fi
cmake --preset default >&2
cmake --build --preset default -j"$(nproc)" --target nicsim >&2
./build/nicsim run "$@"
exec ./build/nicsim demo -o nicsim-out/demo
