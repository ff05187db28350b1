#!/usr/bin/env bash
# Shows what the real XBoard does with a move form: two scripted engines (which define the
# variant as magus does) play fixed moves under Xvfb; prints the moves XBoard received and
# relayed, and the PGN it saved. Used for the findings in docs/xboard.md.
#
# usage: tests/clients/xboard_probe.sh MAGUS_BINARY VARIANT "WHITE MOVES" "BLACK MOVES" [XBOARD OPTIONS]
# e.g.   tests/clients/xboard_probe.sh target/release/magus deathmatch \
#            "e2e4 f1e2,e2f1m g1f3" "e7e5 b8c6 g8f6" -xlegal
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
magus=$(readlink -f "$1"); variant=$2; export WHITE_MOVES=$3 BLACK_MOVES=$4; shift 4
d=$(mktemp -d); mkdir -p "$d/home"
export HOME="$d/home" SCRIPT_LOG="$d/script.log"
engine="$here/xboard_scripted_engine.py $magus"
timeout 60 xvfb-run -a -s "-screen 0 800x760x24" "$(command -v xboard || echo /usr/games/xboard)" \
    -fcp "$engine WHITE_MOVES" -scp "$engine BLACK_MOVES" -variant "$variant" -mm -mg 1 \
    -tc 0:30 -inc 1 -xponder -sgf "$d/game.pgn" -xexit -saveSettingsOnExit false \
    -adjudicateDrawMoves 0 -debug -nameOfDebugFile "$d/debug" "$@" >/dev/null 2>&1 &
pid=$!
# The scripted engines run out of moves; give XBoard a moment, then stop it.
sleep "${PROBE_SECONDS:-8}"
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
grep -aE "^[0-9]+ (<first|<second|>first|>second) *: (move|usermove|result|Illegal|variant|setboard|setup|Error|tellusererror)" "$d/debug" || true
# PROBE_DEBUG=1 shows XBoard's whole debug log.
[ -z "${PROBE_DEBUG:-}" ] || cat "$d/debug"
echo "--- PGN:"
sed -n '/^1\./,$p' "$d/game.pgn" 2>/dev/null || echo "(none saved)"
rm -rf "$d"
