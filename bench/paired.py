#!/usr/bin/env python3
"""Two runs of one engine against the same opponent on the same openings (the same `magus
match` command and `--seed`, another build of the engine), compared game by game.

    bench/paired.py BASE.pgn NEW.pgn [ENGINE]

Games are matched by the PGN's `OpeningNumber` and the engine's colour; an opening counts
when both its games were played and counted in both runs (a game ended by an illegal move,
which `--void-illegal` leaves out, drops its opening). Prints the engine's score in each run
over those openings and the mean difference per game (NEW minus BASE) with its 95 % margin,
from the spread of the per-opening differences: pairing by opening removes the openings'
own share of the noise. ENGINE is the engine's name in the PGN (default `magus`).
"""

import math
import re
import sys

SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def load(path, engine):
    """(opening, engine is White) -> the engine's score, for every counted game."""
    games = {}
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for block in text.split("[Event ")[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
        score = SCORES.get(tags.get("Result"))
        if score is None or tags.get("Termination") == "illegal move":
            continue
        white = tags.get("White") == engine
        if not white and tags.get("Black") != engine:
            continue
        games[(tags.get("OpeningNumber"), white)] = score if white else 1 - score
    return games


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    engine = sys.argv[3] if len(sys.argv) == 4 else "magus"
    base, new = (load(path, engine) for path in sys.argv[1:3])
    openings = sorted({op for op, _ in base})
    pairs = []
    for op in openings:
        keys = [(op, True), (op, False)]
        if all(k in base and k in new for k in keys):
            pairs.append((sum(base[k] for k in keys), sum(new[k] for k in keys)))
    n = len(pairs)
    if n < 2:
        sys.exit(f"only {n} openings played and counted in both runs: nothing to compare")
    diffs = [b_new - b_base for b_base, b_new in pairs]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    score_base = sum(b for b, _ in pairs) / (2 * n)
    score_new = sum(s for _, s in pairs) / (2 * n)
    print(
        f"openings {n}: {engine} scored {score_base:.3f} in the base run, {score_new:.3f} in "
        f"the new; per game {mean / 2:+.4f} ± {1.96 * sd / math.sqrt(n) / 2:.4f}"
    )


if __name__ == "__main__":
    main()
