#!/usr/bin/env python3
"""python-chess drives magus over XBoard (CECP v2): a full chess game and a few analysis
requests (XBoard's analyze mode).

usage: python3 tests/clients/python_chess_xboard.py MAGUS_BINARY
magus is started without a subcommand: it finds out from `xboard` which protocol to speak.
"""
import os
import sys

import chess.engine

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from python_chess_common import main  # noqa: E402


def open_engine(binary):
    engine = chess.engine.SimpleEngine.popen_xboard([binary], timeout=20)
    assert engine.id["name"].startswith("magus"), engine.id
    features = engine.protocol.features
    for f in ["setboard", "usermove", "ping", "memory", "smp", "analyze"]:
        assert features.get(f) == 1, f"feature {f}: {features}"
    assert "magi" in features.get("variants", ""), features
    assert "Scoring" in engine.options, list(engine.options)
    engine.configure({"Scoring": "standard", "memory": 32, "cores": 1})
    return engine


if __name__ == "__main__":
    main(open_engine)
