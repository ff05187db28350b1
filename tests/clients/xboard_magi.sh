#!/usr/bin/env bash
# The real XBoard (Debian's xboard, under Xvfb) plays one game of Magi between two magus
# processes, saves the PGN and a screenshot of the final board, and checks that the game
# ended normally (mate, stalemate, a draw by rule or agreement, or a resignation), not by a
# forfeit (illegal move, time, crash). A game still going after 150 moves is adjudicated a draw
# by XBoard ("long game"), so that it fits the time limit below: 6 s + 0.1 s a move makes at
# most 21 s a side (the protocol is under test, not the play). OUT_DIR receives
# xboard-VARIANT.pgn, .debug (XBoard's log of both engines), .png (the final board) and
# -middlegame.png (the board after 6 s).
#
# usage: tests/clients/xboard_magi.sh MAGUS_BINARY OUT_DIR [VARIANT [XBOARD OPTIONS...]]
# e.g.   tests/clients/xboard_magi.sh target/release/magus /tmp/out deathmatch \
#            -firstOptions "Only XBoard moves=1" -secondOptions "Only XBoard moves=1"
# needs: xboard, xvfb-run, and for the screenshot imagemagick's `import` (or xwd + convert).
set -euo pipefail

magus=$(readlink -f "${1:?usage: xboard_magi.sh MAGUS_BINARY OUT_DIR [VARIANT]}")
out=$(mkdir -p "${2:?usage: xboard_magi.sh MAGUS_BINARY OUT_DIR [VARIANT]}" && cd "$2" && pwd)
variant=${3:-magi}
shift 3 2>/dev/null || shift $#
extra=""
for a in "$@"; do extra+=" $(printf '%q' "$a")"; done
xboard=$(command -v xboard || echo /usr/games/xboard)
pgn="$out/xboard-$variant.pgn"
shot="$out/xboard-$variant.png"
debug="$out/xboard-$variant.debug"
rm -f "$pgn" "$shot" "$debug"

# XBoard writes its settings file into HOME: keep it out of the user's.
export HOME="$out/home"
mkdir -p "$HOME"

cat > "$out/run-xboard.sh" <<INNER
#!/usr/bin/env bash
"$xboard" -fcp "$magus xboard" -fd "$out" -scp "$magus xboard" -sd "$out" \\
    -variant "$variant" -mm -mg 1 -tc 0:06 -inc 0.1 -xponder -adjudicateDrawMoves 150 \\
    -sgf "$pgn" -xexit -saveSettingsOnExit false -size medium \\
    -debug -nameOfDebugFile "$debug" $extra &
pid=\$!
# Screenshots while the game runs; the last one shows the final position.
shoot() {
    if command -v import >/dev/null; then
        import -window root "$out/shot.tmp.png" 2>/dev/null
    else
        xwd -root -silent 2>/dev/null | convert xwd:- "$out/shot.tmp.png" 2>/dev/null
    fi
}
n=0
while kill -0 \$pid 2>/dev/null; do
    sleep 1
    n=\$((n + 1))
    # Keep a shot only if XBoard was still up when it was taken.
    shoot && kill -0 \$pid 2>/dev/null && [ "\$(stat -c %s "$out/shot.tmp.png")" -gt 20000 ] \
        && mv "$out/shot.tmp.png" "$shot"
    # A middlegame picture too, with most pieces still on the board.
    if [ \$n = 6 ] && [ -s "$shot" ]; then cp "$shot" "$out/xboard-$variant-middlegame.png"; fi
done
rm -f "$out/shot.tmp.png"
# Only XBoard's window, not the empty screen around it (real ImageMagick only).
if [ -s "$shot" ] && convert -version 2>/dev/null | grep -q ImageMagick; then
    for f in "$shot" "$out/xboard-$variant-middlegame.png"; do
        [ -s "\$f" ] && convert "\$f" -fuzz 2% -trim +repage "\$f" || true
    done
fi
wait \$pid
INNER
chmod +x "$out/run-xboard.sh"

status=0
timeout 420 xvfb-run -a -s "-screen 0 800x760x24" "$out/run-xboard.sh" || status=$?
if [[ $status == 124 ]]; then
    echo "FAIL: XBoard was still running after 420 s; its log: $debug" >&2
    tail -20 "$debug" >&2 || true
    exit 1
fi

if [[ ! -s "$pgn" ]]; then
    echo "FAIL: xboard saved no game ($pgn)" >&2
    exit 1
fi
cat "$pgn"
result=$(grep -o '\[Result "[^"]*"\]' "$pgn" | head -1 | sed 's/.*"\(.*\)".*/\1/')
# The game's last comment is the reason XBoard gives for the result.
reason=$(tr '\n' ' ' < "$pgn" | grep -o '{[^}]*}[[:space:]]*\(1-0\|0-1\|1/2-1/2\|\*\)[[:space:]]*$' | head -1 || true)
echo "result: $result  reason: $reason"
case "$result" in
    1-0|0-1|1/2-1/2) ;;
    *) echo "FAIL: the game did not finish (result '$result')" >&2; exit 1 ;;
esac
if grep -qiE 'illegal|forfeit|time|disconnect|crash|abort|xboard exit' <<<"$reason"; then
    echo "FAIL: the game ended abnormally: $reason" >&2
    exit 1
fi
if grep -qiE 'Illegal move|Error \(' "$debug"; then
    echo "FAIL: an engine reported an error or an illegal move; see $debug" >&2
    grep -iE 'Illegal move|Error \(' "$debug" | head >&2
    exit 1
fi
echo "PASS: $variant game ended normally: $result $reason"
