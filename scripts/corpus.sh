#!/bin/sh
# corpus.sh: fits the Linux stack's global instruction counts on the
# host-cost corpus (scenarios/corpus) and validates them leaving one
# platform out: a table on stdout, --json FILE for the figures. Usage and
# method: scripts/corpus.py --help, docs/validation.md ("The host-cost
# corpus"). Environment: NICSIM=path of the nicsim binary (default: build it).
set -eu
root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
case " $* " in
  *" -h "* | *" --help "*) exec python3 "$root/scripts/corpus.py" --help ;;
esac
if [ -z "${NICSIM:-}" ]; then
  echo "corpus.sh: building nicsim (cmake --preset default)" >&2
  (cd "$root" && cmake --preset default >&2 && cmake --build --preset default --target nicsim >&2) ||
    { echo "corpus.sh: building nicsim failed" >&2; exit 2; }
  NICSIM=$root/build/nicsim
fi
export NICSIM
exec python3 "$root/scripts/corpus.py" "$@"
