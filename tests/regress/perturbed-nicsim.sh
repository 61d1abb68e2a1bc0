#!/usr/bin/env bash
# perturbed-nicsim.sh: $NICSIM with one more setting after the caller's (a
# run 1 ns shorter), so that every run's results differ: the "new build" of
# the scripts.compare_builds_detects test, which must report differences.
exec "${NICSIM:?set NICSIM to the nicsim binary}" "$@" --set run.duration_us=2999.999
