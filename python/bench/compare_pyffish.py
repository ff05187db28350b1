"""Benchmark: magus against pyffish (Fairy-Stockfish's module, from PyPI) on chess positions,
the same calls to both, and a replay of 1,000 random Magi games (which pyffish cannot play).

    pip install pyffish
    python bench/compare_pyffish.py [--runs 5] [--games 1000]

Prints calls per second (the median of the runs; each run times magus and then pyffish on
the same calls) and the Magi replay's time. Both modules must give the same answers first.
"""

import argparse
import random
import statistics
import time

import magus

# The chess perft reference positions (start, Kiwipete, positions 3 to 6).
POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
]
START = POSITIONS[0]
# A Ruy Lopez, 40 plies: what a server sends with each call of a game in progress.
LINE = ("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8 "
        "h2h3 c6a5 b3c2 c7c5 d2d4 d8c7 b1d2 c5d4 c3d4 a5c6 d2b3 a6a5 c1e3 a5a4 b3d2 c8d7 "
        "a1c1 c7b7 d2f1 f8c8 f1g3 e7f8 c2b1 g7g6").split()


def rate(call, seconds=0.5):
    """Calls per second of `call` over about `seconds`."""
    n, started = 0, time.perf_counter()
    while True:
        for _ in range(20):
            call()
        n += 20
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return n / elapsed


def cases(module):
    return {
        "legal_moves, 6 positions, no moves": lambda: [
            module.legal_moves("chess", fen, []) for fen in POSITIONS],
        "legal_moves, start + 40 moves": lambda: module.legal_moves("chess", START, LINE),
        "get_san_moves, start + 40 moves": lambda: module.get_san_moves("chess", START, LINE),
    }


def same_answers(sf):
    for fen in POSITIONS:
        ours, theirs = magus.legal_moves("chess", fen, []), sf.legal_moves("chess", fen, [])
        assert sorted(ours) == sorted(theirs), fen
        for move in ours:
            assert magus.get_san("chess", fen, move) == sf.get_san("chess", fen, move), move
    assert magus.get_san_moves("chess", START, LINE) == sf.get_san_moves("chess", START, LINE)
    assert sorted(magus.legal_moves("chess", START, LINE)) == sorted(
        sf.legal_moves("chess", START, LINE))


def compare(runs):
    try:
        import pyffish as sf
    except ImportError:
        sf = None
        print("pyffish is not installed (pip install pyffish): magus alone")
    if sf:
        same_answers(sf)
        print(f"pyffish {'.'.join(map(str, sf.version()))}, magus "
              f"{'.'.join(map(str, magus.version()))}: the same answers on every call")
    rates = {}
    for _ in range(runs):
        for name, module in (("magus", magus), ("pyffish", sf)):
            if module is None:
                continue
            for case, call in cases(module).items():
                rates.setdefault((case, name), []).append(rate(call))
    print(f"\n{'calls per second (median of %d runs)' % runs:<40} {'magus':>10} {'pyffish':>10}"
          f" {'ratio':>7}")
    for case in cases(magus):
        ours = statistics.median(rates[(case, "magus")])
        theirs = statistics.median(rates[(case, "pyffish")]) if sf else None
        ratio = f"x{ours / theirs:.1f}" if theirs else "-"
        print(f"{case:<40} {ours:>10.0f} {theirs or 0:>10.0f} {ratio:>7}")


def magi_games(count, seed=1, most=200):
    """Seeded random Magi games of at most `most` plies (to the end if sooner)."""
    rng = random.Random(seed)
    start = magus.start_fen("magi")
    games = []
    for _ in range(count):
        fen, moves = start, []
        while len(moves) < most:
            legal = magus.legal_moves("magi", fen, [])
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(move)
            fen = magus.get_fen("magi", fen, [move])
        games.append(moves)
    return start, games


def replay(count):
    started = time.perf_counter()
    start, games = magi_games(count)
    made = time.perf_counter() - started
    plies = sum(len(g) for g in games)
    print(f"\nMagi: {count} random games, {plies} plies (made in {made:.1f} s)")
    started = time.perf_counter()
    sans, ended = [], 0
    for moves in games:
        sans.append(magus.get_san_moves("magi", start, moves))
        ended += magus.outcome("magi", start, moves) is not None
    replayed = time.perf_counter() - started
    print(f"replay (get_san_moves + outcome of each game): {replayed:.2f} s, "
          f"{count / replayed:.0f} games/s, {plies / replayed:.0f} plies/s; {ended} games over")
    pgn = "".join(f'[Variant "magi"]\n\n{" ".join(s)} *\n\n' for s in sans)
    started = time.perf_counter()
    read = magus.read_pgn(pgn)
    parsed = time.perf_counter() - started
    assert [g["moves"] for g in read] == games
    print(f"read_pgn of the same games written in SAN: {parsed:.2f} s, "
          f"{count / parsed:.0f} games/s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    compare(args.runs)
    replay(args.games)


if __name__ == "__main__":
    main()
