#!/usr/bin/env python3
"""What each engine's search said in a match, read from the move comments `magus match`
writes (`{+0.25/12 0.152s}`, as cutechess-cli).

    bench/pgn_search.py GAMES.pgn [MORE.pgn ...]
        a line per engine: the depth of the moves it chose (mean and median) and its time
        per move; book moves and moves with a mate score left out. At the same clock, the
        deeper search is the one with the smaller tree.
    bench/pgn_search.py --disagree-at MOVE GAMES.pgn [MORE.pgn ...]
        of two engines' games, at move MOVE: in how many each scored its own side at least
        +1 while the other scored its own 0 or better (they disagree on who stands better,
        whatever the scales of their scores), and the median sum of the two scores (each
        from its own side: 0 where they agree).
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


def searched_moves(movetext):
    """Yields (move number, side, score in pawns, depth, seconds) for each move with a search
    comment and no mate score (a mate found stops the depth from meaning the tree's size):
    side 0 is White. The side is told by the move number before the move: `5.` White,
    `5...` Black.
    """
    side, number = 0, 1
    for m in re.finditer(r"\{[^}]*\}|(\d+)\.(?:\.\.)?", movetext):
        token = m.group(0)
        if token.startswith("{"):
            c = COMMENT.fullmatch(token)
            if c and "M" not in c.group(1):
                yield number, side, float(c.group(1)), int(c.group(2)), float(c.group(3))
            # After White's comment comes Black's move, unless a number says otherwise.
            if side == 1:
                number += 1
            side = 1 - side
        else:
            number = int(m.group(1))
            side = 1 if token.endswith("...") else 0


def depths(paths):
    depth = defaultdict(list)
    time = defaultdict(list)
    for path in paths:
        for tags, text in games(path):
            players = (tags.get("White", "?"), tags.get("Black", "?"))
            for _, side, _, d, seconds in searched_moves(text):
                depth[players[side]].append(d)
                time[players[side]].append(seconds)
    if not depth:
        print("pgn_search: no move with a depth comment", file=sys.stderr)
        return 1
    print(f"{'engine':<24} {'moves':>7} {'mean depth':>11} {'median':>7} {'s/move':>7}")
    for name in sorted(depth):
        d, t = depth[name], time[name]
        print(
            f"{name:<24} {len(d):>7} {statistics.mean(d):>11.2f} "
            f"{statistics.median(d):>7.1f} {statistics.mean(t):>7.3f}"
        )
    return 0


def disagreements(move, paths):
    reached = 0
    sums = []
    ahead = defaultdict(int)
    for path in paths:
        for tags, text in games(path):
            players = (tags.get("White", "?"), tags.get("Black", "?"))
            scores = {side: score for n, side, score, _, _ in searched_moves(text) if n == move}
            if len(scores) < 2:
                continue
            reached += 1
            sums.append(scores[0] + scores[1])
            for side in (0, 1):
                if scores[side] >= 1.0 and scores[1 - side] >= 0.0:
                    ahead[players[side]] += 1
    if not reached:
        print(f"pgn_search: no game has two scores at move {move}", file=sys.stderr)
        return 1
    print(f"{reached} games reached move {move} with no mate score; the sum of the two scores")
    print(f"is {statistics.median(sums):+.2f} in the median game.")
    for name in sorted(ahead):
        print(f"{name} scored +1 or more while the other scored 0 or better: {ahead[name]}")
    return 0


def main(args):
    try:
        if args[:1] == ["--disagree-at"] and len(args) >= 3 and args[1].isdigit():
            return disagreements(int(args[1]), args[2:])
        if args and not args[0].startswith("-"):
            return depths(args)
    except OSError as e:
        print(f"pgn_search: cannot read {e.filename}: {e.strerror}", file=sys.stderr)
        return 1
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
