#!/usr/bin/env bash
# no-lookahead-nicsim.sh: $NICSIM with lookahead off after the caller's
# settings (run.lookahead=false): the "old build" of the lookahead.exact test,
# which must give the same results as $NICSIM with lookahead on.
exec "${NICSIM:?set NICSIM to the nicsim binary}" "$@" --set run.lookahead=false
