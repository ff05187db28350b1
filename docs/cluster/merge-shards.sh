#!/bin/sh
# Merges the shards of a match played with play-shard.sh into one report and one SPRT
# decision. It can run while the shards still play (a game being written is left out), so a
# loop of it can cancel the array once the test has decided.
#
#   OUT    the shards' folder (default: results)
#   MAGUS  the magus binary   (default: magus on the PATH)
#   SPRT   the test           (default: elo0=0,elo1=5,model=normalized,stat=pentanomial)
#
# Exit status: 0 when the SPRT has decided, 3 when it has not yet, other: an error.
set -eu
MAGUS=${MAGUS:-magus}
OUT=${OUT:-results}
SPRT=${SPRT:-elo0=0,elo1=5,model=normalized,stat=pentanomial}

report=$("$MAGUS" match --merge "$OUT"/shard-*.txt --sprt "$SPRT")
printf '%s\n' "$report"
case $report in
    *" was accepted"*) exit 0 ;;
    *) exit 3 ;;
esac
