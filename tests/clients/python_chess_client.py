#!/usr/bin/env python3
"""python-chess drives magus over UCI or XBoard (CECP v2): a full chess game and a few
analysis requests (over XBoard, its analyze mode).

usage: python3 tests/clients/python_chess_client.py uci|xboard MAGUS_BINARY
magus is started without a subcommand: it finds out from the first command which protocol
to speak.
"""
import sys

import chess
import chess.engine


def open_uci(binary):
    engine = chess.engine.SimpleEngine.popen_uci([binary], timeout=20)
    assert engine.id["name"].startswith("magus"), engine.id
    for option in ["Hash", "Threads", "MultiPV", "Move Overhead", "UCI_Variant", "Scoring"]:
        assert option in engine.options, f"option {option} missing: {list(engine.options)}"
    assert "magi" in engine.options["UCI_Variant"].var, engine.options["UCI_Variant"]
    engine.configure({"Hash": 32, "Move Overhead": 10})
    return engine


def open_xboard(binary):
    engine = chess.engine.SimpleEngine.popen_xboard([binary], timeout=20)
    assert engine.id["name"].startswith("magus"), engine.id
    features = engine.protocol.features
    for f in ["setboard", "usermove", "ping", "memory", "smp", "analyze"]:
        assert features.get(f) == 1, f"feature {f}: {features}"
    assert "magi" in features.get("variants", ""), features
    assert "Scoring" in engine.options, list(engine.options)
    engine.configure({"Scoring": "standard", "memory": 32, "cores": 1})
    return engine


def play_game(engine, seconds_per_move=0.03, max_plies=400):
    """magus plays both sides of a chess game; python-chess checks every move."""
    board = chess.Board()
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        result = engine.play(board, chess.engine.Limit(time=seconds_per_move))
        if result.move is None:
            raise AssertionError(f"no move in {board.fen()} (resigned: {result.resigned})")
        if result.move not in board.legal_moves:
            raise AssertionError(f"illegal move {result.move} in {board.fen()}")
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    reason = outcome.termination.name if outcome else f"stopped after {board.ply()} plies"
    print(f"game over after {board.ply()} plies: {board.result(claim_draw=True)} ({reason})")
    return board


def analyse(engine, multipv=True):
    """A few analysis requests: depth, a mate, several lines."""
    board = chess.Board()
    info = engine.analyse(board, chess.engine.Limit(depth=6))
    assert info["depth"] >= 6, info
    assert info["pv"] and info["pv"][0] in board.legal_moves, info
    assert "score" in info, info
    print(f"start: depth {info['depth']} score {info['score']} pv {board.variation_san(info['pv'][:4])}")

    mate = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    info = engine.analyse(mate, chess.engine.Limit(depth=5))
    assert info["score"].white() == chess.engine.Mate(1), info
    assert info["pv"][0] == chess.Move.from_uci("a1a8"), info
    print(f"mate in 1: {info['score']} {mate.san(info['pv'][0])}")

    sicilian = chess.Board()
    for san in ["e4", "c5", "Nf3"]:
        sicilian.push_san(san)
    info = engine.analyse(sicilian, chess.engine.Limit(time=0.3))
    assert info["pv"][0] in sicilian.legal_moves, info
    print(f"after 1.e4 c5 2.Nf3: score {info['score']} best {sicilian.san(info['pv'][0])}")

    if multipv:
        lines = engine.analyse(board, chess.engine.Limit(depth=5), multipv=3)
        assert len(lines) == 3, lines
        firsts = {line["pv"][0] for line in lines}
        assert len(firsts) == 3, lines
        print("multipv 3:", ", ".join(board.san(m) for m in firsts))


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("uci", "xboard"):
        sys.exit(__doc__)
    protocol, binary = sys.argv[1:]
    engine = open_uci(binary) if protocol == "uci" else open_xboard(binary)
    try:
        play_game(engine)
        # XBoard has no MultiPV.
        analyse(engine, multipv=protocol == "uci")
    finally:
        engine.quit()
    print("PASS")


if __name__ == "__main__":
    main()
