#!/usr/bin/env python3
"""python-chess drives magus over UCI: a full chess game and a few analysis requests.

usage: python3 tests/clients/python_chess_uci.py MAGUS_BINARY
magus is started without a subcommand: it finds out from `uci` which protocol to speak.
"""
import os
import sys

import chess.engine

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from python_chess_common import main  # noqa: E402


def open_engine(binary):
    engine = chess.engine.SimpleEngine.popen_uci([binary], timeout=20)
    assert engine.id["name"].startswith("magus"), engine.id
    for option in ["Hash", "Threads", "MultiPV", "Move Overhead", "UCI_Variant", "Scoring"]:
        assert option in engine.options, f"option {option} missing: {list(engine.options)}"
    assert "magi" in engine.options["UCI_Variant"].var, engine.options["UCI_Variant"]
    engine.configure({"Hash": 32, "Move Overhead": 10})
    return engine


if __name__ == "__main__":
    main(open_engine)
