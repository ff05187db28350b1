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


# A mate in one for each variant by a move only that variant has: a swap-in (deathmatch, both
# rule sets), a Wizard's leap (Magi), a Magician's spell check across a hole (Magician Chess),
# a drop (Royal Magician). Searched as chess, none of these is a mate in one (or even a FEN).
OWN_MATES = {
    "chess": ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "normal"),
    "deathmatch": ("7k/4N2p/7B/8/8/8/8/K7 w - - 0 1", "swap_in"),
    "deathmatch-legacy": ("7k/4N2p/7B/8/8/8/8/K7 w - - 0 1", "swap_in"),
    "magi": ("kr8/pr8/10/4W5/10/10/10/10/10/5K4 w - - 0 1", "normal"),
    "magician-chess": ("3****/4***/6*/4M2/7/*2N3/k5K w - - 0 1", "normal"),
    "royal-magician": ("7k/6pp/8/4K3/8/8/8/8[KR] w - - 0 1", "drop"),
}


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


@pytest.mark.parametrize("variant", BUILTIN)
def test_a_search_plays_by_its_variants_rules(engine, variant):
    """Three variants start from chess's FEN, and chess's moves are legal in them: a search
    that played chess would pass every check of a start position. These mates need the
    variant's own moves."""
    engine.new_game()
    fen, kind = OWN_MATES[variant]
    found = engine.search(variant, fen, depth=3)
    assert found.mate == 1, found
    assert magus.game_result(variant, fen, [found.best_move]) == -magus.VALUE_MATE
    assert magus.move_effects(variant, fen, [], found.best_move)["kind"] == kind
    if variant != "chess":
        try:
            as_chess = engine.search("chess", fen, depth=3)
        except magus.FenError:
            as_chess = None
        assert as_chess is None or as_chess.mate != 1, "the position tells the variant apart"


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


def test_a_mated_root_is_mate_zero_and_a_stalemated_one_a_draw(engine):
    # Qg7 guarded by the King: Black is mated (UCI engines print `score mate 0`).
    mated = engine.search("chess", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", depth=3)
    assert (mated.best_move, mated.mate, mated.score_cp) == (None, 0, None)
    assert "mate=0" in repr(mated)
    stalemated = engine.search("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth=3)
    assert (stalemated.best_move, stalemated.mate, stalemated.score_cp) == (None, None, 0)
    # With the Magi payoff's scoring, giving stalemate is worth more than a draw: the
    # stalemated side scores below 0, as the search scores a stalemate one ply ahead.
    payoff = magus.Engine(hash=1, scoring="magi-12")
    stalemated = payoff.search("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth=3)
    assert stalemated.mate is None and stalemated.score_cp < 0
    mated = payoff.search("chess", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", depth=3)
    assert (mated.mate, mated.score_cp) == (0, None)


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


def test_searches_from_two_threads_take_turns_and_time_only_their_own(engine):
    """The second search waits for the first (time=1.0) to end; its time is its own."""
    results = {}

    def search(name, **limits):
        started = time.monotonic()
        found = engine.search("chess", "startpos", **limits)
        results[name] = (found, time.monotonic() - started)

    first = threading.Thread(target=search, args=("first",), kwargs={"time": 1.0})
    second = threading.Thread(target=search, args=("second",), kwargs={"depth": 1})
    first.start()
    time.sleep(0.3)
    second.start()
    first.join(timeout=20)
    second.join(timeout=20)
    assert not first.is_alive() and not second.is_alive()
    found, waited = results["second"]
    assert waited >= 0.5, "the second search waited for the first"
    assert found.time < waited - 0.4, (found.time, waited)
    assert found.best_move is not None and results["first"][0].time >= 0.9


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
