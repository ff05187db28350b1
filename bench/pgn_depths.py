#!/usr/bin/env python3
"""How deep each engine of a match searched: the depth and time of every move an engine chose,
read from the move comments `magus match` writes (`{+0.25/12 0.152s}`, as cutechess-cli),
book moves and moves with a mate score left out. At the same clock, the deeper search is the one with the smaller tree.

    bench/pgn_depths.py GAMES.pgn [MORE.pgn ...]

Prints a line per engine: moves, mean and median depth, mean time per move.
"""

import re
import statistics
import sys
from collections import defaultdict

TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
# A move's comment: score (centipawns as pawns, or a mate `M3`), depth, seconds.
COMMENT = re.compile(r"\{\s*([+-]?(?:M?\d+(?:\.\d+)?))/(\d+)\s+([\d.]+)s\s*\}")


def games(path):
    """Yields (tags, movetext) for each game of a PGN file."""
    tags, text = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = TAG.match(line)
            if m:
                if text:
                    yield tags, " ".join(text)
                    tags, text = {}, []
                tags[m.group(1)] = m.group(2)
            elif line.strip():
                text.append(line.strip())
    if text:
        yield tags, " ".join(text)


def moves_by_side(movetext):
    """Yields (side, depth, seconds) for each move with a search comment: side 0 is White.

    The side is told by the move number before the move: `5.` White, `5...` Black.
    """
    side = 0
    for m in re.finditer(r"\{[^}]*\}|\d+\.(?:\.\.)?", movetext):
        token = m.group(0)
        if token.startswith("{"):
            c = COMMENT.fullmatch(token)
            # A mate found stops the depth from meaning the tree's size: such moves are left out.
            if c and "M" not in c.group(1):
                yield side, int(c.group(2)), float(c.group(3))
            # After White's comment comes Black's move, unless a number says otherwise.
            side = 1 - side
        else:
            side = 1 if token.endswith("...") else 0


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    depths = defaultdict(list)
    times = defaultdict(list)
    for path in paths:
        try:
            for tags, text in games(path):
                players = (tags.get("White", "?"), tags.get("Black", "?"))
                for side, depth, seconds in moves_by_side(text):
                    depths[players[side]].append(depth)
                    times[players[side]].append(seconds)
        except OSError as e:
            print(f"pgn_depths: cannot read {path}: {e.strerror}", file=sys.stderr)
            return 1
    if not depths:
        print("pgn_depths: no move with a depth comment", file=sys.stderr)
        return 1
    print(f"{'engine':<24} {'moves':>7} {'mean depth':>11} {'median':>7} {'s/move':>7}")
    for name in sorted(depths):
        d, t = depths[name], times[name]
        print(
            f"{name:<24} {len(d):>7} {statistics.mean(d):>11.2f} "
            f"{statistics.median(d):>7.1f} {statistics.mean(t):>7.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
