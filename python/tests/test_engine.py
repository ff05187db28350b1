"""The `Engine` class: searches by depth, nodes and time in every variant, the result's
move, score and line, threads, and the interpreter's lock released while it thinks."""

import threading
import time

import pytest

import magus
from conftest import BUILTIN


@pytest.fixture(scope="module")
def engine():
    return magus.Engine(hash=8)


def test_a_mate_in_one_is_found(engine):
    found = engine.search("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", depth=4)
    assert (found.best_move, found.best_move_san, found.mate) == ("a1a8", "Ra8#", 1)
    assert found.score_cp is None and found.pv_san[0] == "Ra8#"
    assert "Ra8#" in repr(found)


def test_being_mated_is_a_negative_mate(engine):
    # White can only push the h-pawn; then Qb2 (guarded by the King) mates.
    found = engine.search("chess", "8/8/8/8/8/1qk5/7P/K7 w - - 0 1", depth=4)
    assert found.mate == -1 and found.best_move in ("h2h3", "h2h4")
    assert found.pv_san[1:] == ["Qb2#"]


@pytest.mark.parametrize("variant", BUILTIN)
def test_a_search_in_every_variant_gives_a_legal_line(engine, variant):
    engine.new_game()
    fen = magus.start_fen(variant)
    found = engine.search(variant, fen, depth=4)
    assert found.best_move in magus.legal_moves(variant, fen, [])
    assert found.depth >= 4 and found.nodes > 0 and found.seldepth >= found.depth
    assert found.pv[0] == found.best_move
    assert magus.get_san_moves(variant, fen, found.pv) == found.pv_san
    assert found.best_move_san == found.pv_san[0]
    assert (found.score_cp is None) != (found.mate is None)


def test_the_moves_played_count(engine):
    # After 1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6?? White mates on f7.
    moves = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6"]
    found = engine.search("chess", "startpos", moves, depth=3)
    assert (found.best_move_san, found.mate) == ("Qxf7#", 1)


def test_node_and_time_limits(engine):
    found = engine.search("magi", "startpos", nodes=3000)
    assert 0 < found.nodes <= 3000 * 1.25
    started = time.monotonic()
    found = engine.search("chess", "startpos", time=0.2)
    assert time.monotonic() - started < 3.0 and found.best_move is not None


def test_no_legal_move_gives_no_best_move(engine):
    found = engine.search("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth=3)
    assert found.best_move is None and found.pv == []


def test_threads_and_settings():
    two = magus.Engine(threads=2, hash=4, scoring="magi-12")
    assert (two.threads, two.hash) == (2, 4)
    found = two.search("magi", "startpos", depth=5)
    assert found.best_move in magus.legal_moves("magi", "startpos", [])
    two.configure(threads=1, hash=2, scoring="standard")
    assert (two.threads, two.hash) == (1, 2)
    with pytest.raises(magus.MagusError, match="threads=0"):
        magus.Engine(threads=0)
    with pytest.raises(magus.MagusError, match="scoring"):
        magus.Engine(scoring="bogus")


def test_the_lock_is_released_while_it_thinks(engine):
    """A search of 30 s in another thread; this thread runs meanwhile and stops it."""
    results = []
    worker = threading.Thread(
        target=lambda: results.append(engine.search("chess", "startpos", time=30.0)))
    started = time.monotonic()
    worker.start()
    counted = 0
    while time.monotonic() - started < 0.4:
        counted += 1
    engine.stop()
    worker.join(timeout=10)
    assert not worker.is_alive(), "stop() ended the search"
    assert results and results[0].best_move is not None
    assert time.monotonic() - started < 10
    assert counted > 1000, "this thread ran during the search"


def test_bad_searches_are_refused(engine):
    with pytest.raises(magus.MagusError, match="give a limit"):
        engine.search("chess", "startpos")
    with pytest.raises(magus.MagusError, match="depth=0"):
        engine.search("chess", "startpos", depth=0)
    with pytest.raises(magus.MagusError, match="time=-1"):
        engine.search("chess", "startpos", time=-1)
    with pytest.raises(magus.IllegalMoveError, match="move 2 of the list"):
        engine.search("chess", "startpos", ["e2e4", "e2e4"], depth=2)
    with pytest.raises(magus.UnknownVariantError):
        engine.search("shogi", "startpos", depth=2)
    with pytest.raises(magus.FenError):
        engine.search("chess", "8/8/8 w - - 0 1", depth=2)
