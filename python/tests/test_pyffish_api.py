"""The functions with pyffish's names: the same arguments, return types and meanings, on
positions whose answers are known (pyffish's own test cases where the concept exists in
magus, hand-derived positions otherwise), and orthodox chess checked move by move against
python-chess along seeded random games."""

import importlib.metadata
import random
import subprocess
import sys
import textwrap
import warnings

import pytest

import magus
from conftest import BUILTIN, REPO, fairy_sections, skip_or_fail

CHESS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_version_info_and_variants():
    version = magus.version()
    assert isinstance(version, tuple) and len(version) == 3
    assert ".".join(map(str, version)) == importlib.metadata.version("magus")
    assert magus.__version__ == importlib.metadata.version("magus")
    assert magus.info().startswith("magus ")
    # The suites iterate over BUILTIN: it names every definition the build embeds.
    embedded = {p.stem for p in (REPO / "variants").glob("*.toml")}
    assert set(BUILTIN) == embedded
    assert embedded <= set(magus.variants())
    assert magus.start_fen("chess") == CHESS
    assert magus.start_fen("magician-chess").startswith("rmnknmr/ppp*ppp/")
    assert not magus.two_boards("magi") and not magus.captures_to_hand("royal-magician")


def test_startpos_is_the_variants_start():
    for variant in BUILTIN:
        start = magus.start_fen(variant)
        assert magus.legal_moves(variant, "startpos", []) == magus.legal_moves(variant, start, [])
        assert magus.get_fen(variant, "startpos", []) == start


def test_legal_moves_and_get_fen_follow_the_move_list():
    moves = magus.legal_moves("chess", CHESS, ["e2e4", "d7d5"])
    assert "e4d5" in moves and len(moves) == 31
    # The en-passant square is written when a pawn can take there (FEN in the README).
    assert magus.get_fen("chess", CHESS, ["e2e4", "d7d5"]) == (
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    assert magus.get_fen("chess", CHESS, ["e2e4", "a7a6", "e4e5", "d7d5"]) == (
        "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3")
    # A Magi pawn's triple step passes e3 and e4: the pawn beside either may take.
    beside_e4 = "5k4/10/10/10/10/3p6/10/10/4P5/5K4 w - - 0 1"
    assert magus.get_fen("magi", beside_e4, ["e2e5"]).split()[3] == "e4"
    assert "d5e4" in magus.legal_moves("magi", beside_e4, ["e2e5"])
    beside_e3 = "5k4/10/10/10/10/10/3p6/10/4P5/5K4 w - - 0 1"
    assert magus.get_fen("magi", beside_e3, ["e2e5"]).split()[3] == "e3"
    assert "d4e3" in magus.legal_moves("magi", beside_e3, ["e2e5"])


def test_gives_check():
    assert not magus.gives_check("chess", CHESS, [])
    assert magus.gives_check("chess", CHESS, ["e2e4", "f7f6", "d1h5"])
    # A swap-in can give check: the new Magician's capture reaches the King (§1.4).
    fen = "4k3/8/8/8/8/8/3B4/4K3 w - - 0 1"
    assert not magus.gives_check("deathmatch", fen, [])
    assert magus.gives_check("deathmatch", "4k3/8/8/8/8/4B3/8/4K3 w - - 0 1",
                             ["e3e3m"]) is False


def test_is_capture():
    line = ["e2e4", "g8f6", "e4e5", "d7d5"]
    assert not magus.is_capture("chess", CHESS, [], "e2e4")
    assert magus.is_capture("chess", CHESS, line, "e5f6")
    assert magus.is_capture("chess", CHESS, line, "e5d6"), "en passant"
    developed = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"]
    assert not magus.is_capture("chess", CHESS, developed, "e1g1"), "castling"
    assert not magus.is_capture("deathmatch", "startpos", [], "c1c1m"), "a swap-in"
    spells = "3k3/1*1*3/*5*/*3p1*/*3*1*/5M1/3K3 w - - 0 1"
    assert magus.is_capture("magician-chess", spells, [], "e3e4x"), "the pawn falls"
    assert not magus.is_capture("magician-chess", spells, [], "e3e4"), "the pawn is carried"
    drops = "rnbmkbnr/pppppppp/8/8/4P3/3MK3/PPPP1PPP/RNB2BNR w kq - 0 4"
    assert not magus.is_capture("royal-magician", drops, [], "e3f4,n@c5")


def test_game_result_from_the_side_to_moves_view():
    # pyffish's own case: Black mates on move 2.
    assert magus.game_result("chess", CHESS, ["f2f3", "e7e5", "g2g4", "d8h4"]) == -magus.VALUE_MATE
    assert magus.VALUE_MATE == 32000 and magus.VALUE_DRAW == 0
    assert magus.game_result("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", []) == magus.VALUE_DRAW
    # Black to move has just mated? No: White to move is mated by the Black Queen.
    assert magus.game_result("chess", "8/8/8/8/8/5k2/6q1/6K1 w - - 0 1", []) == -magus.VALUE_MATE
    with pytest.raises(magus.MagusError, match="not over"):
        magus.game_result("chess", CHESS, [])


def test_insufficient_material_ends_the_game_at_once():
    assert magus.is_immediate_game_end("chess", "k7/8/8/8/8/8/8/K7 w - - 0 1", []) == (True, 0)
    assert magus.is_immediate_game_end("chess", "k7/n7/8/8/8/8/8/K7 w - - 0 1", []) == (True, 0)
    assert magus.is_immediate_game_end("chess", "k7/p7/8/8/8/8/8/K7 w - - 0 1", []) == (False, 0)
    assert magus.is_immediate_game_end("chess", CHESS, []) == (False, 0)
    # Magician Chess has no insufficient-material draw (its holes move).
    assert magus.is_immediate_game_end(
        "magician-chess", "3k3/*******/7/7/7/**5/3K3 w - - 0 1", []) == (False, 0)


def test_the_draws_a_player_may_claim():
    cycle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    assert magus.is_optional_game_end("chess", CHESS, cycle) == (False, 0)
    assert magus.is_optional_game_end("chess", CHESS, cycle * 2) == (True, 0), "threefold"
    assert magus.outcome("chess", CHESS, cycle * 2) == ("1/2-1/2", "repetition")
    fifty = "4k3/8/8/8/8/8/8/R3K3 w - - 99 80"
    assert magus.is_optional_game_end("chess", fifty, []) == (False, 0)
    assert magus.is_optional_game_end("chess", fifty, ["a1a2"]) == (True, 0)
    assert magus.outcome("chess", fifty, ["a1a2"]) == ("1/2-1/2", "50-move rule")
    # Mate on the hundredth ply is mate, not a draw.
    mate = "7k/8/6K1/8/8/8/8/R7 w - - 99 80"
    assert magus.is_optional_game_end("chess", mate, ["a1a8"]) == (False, 0)
    assert magus.outcome("chess", mate, ["a1a8"]) == ("1-0", "checkmate")


# Fairy-Stockfish's table for chess (pyffish's tests): (White cannot mate, Black cannot).
INSUFFICIENT = {
    CHESS: (False, False),
    "k7/8/8/8/8/8/8/K7 w - - 0 1": (True, True),
    "k7/b7/8/8/8/8/8/K7 w - - 0 1": (True, True),
    "k7/n7/8/8/8/8/8/K7 w - - 0 1": (True, True),
    "k7/p7/8/8/8/8/8/K7 w - - 0 1": (True, False),
    "k7/r7/8/8/8/8/8/K7 w - - 0 1": (True, False),
    "k7/q7/8/8/8/8/8/K7 w - - 0 1": (True, False),
    "k7/nn6/8/8/8/8/8/K7 w - - 0 1": (True, False),
    "k7/bb6/8/8/8/8/8/K7 w - - 0 1": (True, False),
    "k7/b1b5/8/8/8/8/8/K7 w - - 0 1": (True, True),
    # (pyffish's table writes these two with a ninth file, which magus refuses.)
    "kb6/8/8/8/8/8/8/K1B5 w - - 0 1": (True, True),
    "kb6/8/8/8/8/8/8/KB6 w - - 0 1": (False, False),
    "8/8/8/8/8/6KN/8/6nk w - - 0 1": (False, False),
}


@pytest.mark.parametrize("fen,expected", INSUFFICIENT.items())
def test_has_insufficient_material(fen, expected):
    assert magus.has_insufficient_material("chess", fen, []) == expected
    both = expected == (True, True)
    assert magus.is_immediate_game_end("chess", fen, [])[0] == both


def test_insufficient_material_in_the_other_variants():
    assert magus.has_insufficient_material("magi", "k9/10/10/10/10/10/10/10/10/K9 w - - 0 1",
                                           []) == (True, True)
    assert magus.has_insufficient_material("magi", "k9/w9/10/10/10/10/10/10/10/K9 w - - 0 1",
                                           []) == (True, False)
    # Reserves still to drop can mate.
    assert magus.has_insufficient_material("royal-magician", "startpos", []) == (False, False)
    # A Deathmatch Bishop can still swap into a Magician, which mates with its King; in the
    # legacy rules, only while the side's one swap is unspent.
    lone_bishop = "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"
    assert magus.has_insufficient_material("deathmatch", lone_bishop, []) == (False, True)
    assert magus.has_insufficient_material("deathmatch-legacy", lone_bishop, []) == (False, True)
    assert magus.has_insufficient_material(
        "deathmatch-legacy", lone_bishop + " swaps=10", []) == (True, True)


VALIDATION = [
    (CHESS, magus.FEN_OK),
    ("", magus.FEN_EMPTY),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", magus.FEN_INVALID_NB_PARTS),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 a", magus.FEN_INVALID_MOVE_COUNTER),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNH w KQkq - 0 1", magus.FEN_INVALID_CHAR),
    ("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", magus.FEN_INVALID_BOARD_GEOMETRY),
    ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", magus.FEN_INVALID_BOARD_GEOMETRY),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR g KQkq - 0 1", magus.FEN_INVALID_SIDE_TO_MOVE),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 123 - 0 1", magus.FEN_INVALID_CASTLING_INFO),
    ("1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", magus.FEN_INVALID_CASTLING_INFO),
    ("rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d- 0 3", magus.FEN_INVALID_EN_PASSANT_SQ),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w kq - 0 1", magus.FEN_INVALID_NUMBER_OF_KINGS),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999 1", magus.FEN_INVALID_HALF_MOVE_COUNTER),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999", magus.FEN_INVALID_MOVE_COUNTER),
    ("4k3/8/8/8/8/8/8/4K2R b - - 0 1 swaps=1", magus.FEN_INVALID_NB_PARTS),
    ("4k3/8/8/8/8/8/8/4K2R b - - 0 1 1", magus.FEN_INVALID_NB_PARTS),
    # A counter that is not a number: pyffish names the counter, as magus does.
    ("4k3/8/8/8/8/8/8/4K2R b - - x 1", magus.FEN_INVALID_HALF_MOVE_COUNTER),
    ("4k3/8/8/8/8/8/8/4K2R b - - -1 1", magus.FEN_INVALID_HALF_MOVE_COUNTER),
    ("4k3/8/8/8/8/8/8/4K2R b - - 1.5 1", magus.FEN_INVALID_HALF_MOVE_COUNTER),
    ("4k3/8/8/8/8/8/8/4K2R b - - 0 x", magus.FEN_INVALID_MOVE_COUNTER),
    ("4k3/8/8/8/8/8/8/4K2R b - - 0 -1", magus.FEN_INVALID_MOVE_COUNTER),
    ("4k3/8/8/8/8/8/8/4K2R b - - 0 1x", magus.FEN_INVALID_MOVE_COUNTER),
    ("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", magus.FEN_INVALID_POSITION),
    ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", magus.FEN_INVALID_POSITION),
]


@pytest.mark.parametrize("fen,code", VALIDATION)
def test_validate_fen(fen, code):
    assert magus.validate_fen(fen, "chess") == code
    if code not in (magus.FEN_OK, magus.FEN_EMPTY):
        with pytest.raises(magus.FenError):
            magus.get_fen("chess", fen, [])


def test_validate_fen_in_the_variants():
    for variant in BUILTIN:
        assert magus.validate_fen(magus.start_fen(variant), variant) == magus.FEN_OK
    reserve = "rnbmkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR[KQ,MBNR,kbnr,mbnr] w kq - 0 1"
    assert magus.validate_fen(reserve, "royal-magician") == magus.FEN_INVALID_POCKET_INFO
    assert magus.validate_fen(magus.start_fen("magi") + " unmoved=z9",
                              "magi") == magus.FEN_INVALID_POSITION
    assert magus.validate_fen("3k3/7/7/7/7/7/3K3 w - - 0 1",
                              "magician-chess") == magus.FEN_INVALID_POSITION, "no holes"
    assert magus.validate_fen(CHESS.replace("8/8/8/8", "8/8/8/3*4"),
                              "chess") == magus.FEN_INVALID_CHAR, "chess has no holes"


def test_load_a_magus_definition():
    text = (REPO / "tests" / "data" / "elephants.toml").read_text()
    assert magus.load_variant_config(text) == ["elephants"]
    assert "elephants" in magus.variants()
    assert magus.start_fen("elephants") == "1e1ke1/6/6/6/6/1E1KE1 w - - 0 1"
    # The King's four steps, and each lame Elephant's one two-square diagonal leap (nA).
    assert sorted(magus.legal_moves("elephants", "startpos", [])) == sorted(
        ["d1c1", "d1c2", "d1d2", "d1e2", "b1d3", "e1c3"])
    # A piece on c2 blocks the lame leap b1-d3 (the Jumper, a piece of the definition).
    assert "b1d3" not in magus.legal_moves("elephants", "1e1ke1/6/6/6/2J3/1E1KE1 w - - 0 1", [])


def test_load_fairy_stockfish_sections():
    assert magus.load_variant_config("[nocastle:chess]\ncastling = false\n") == ["nocastle"]
    developed = ["e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5"]
    assert "e1g1" in magus.legal_moves("chess", "startpos", developed)
    assert "e1g1" not in magus.legal_moves("nocastle", "startpos", developed)
    assert magus.start_fen("nocastle").split()[2] == "-"


# Fairy-Stockfish's `active` (King d1, Rooks a1 and h1 on nine files) and `haynie` (six
# files, castling to c1 and e1): a castling whose King steps one square. Each position's
# King moves, the FEN after each and the castlings, as pyffish 0.0.90 gives them: a castling
# whose King steps one square is written King takes Rook (d1a1; d1f1 in haynie), so the
# King's plain step to the same square keeps its own move.
ONE_SQUARE_CASTLING = [
    ("active", "r2k3r1/9/9/9/9/9/9/R2K3R1 w KQkq - 0 1", {
        "d1a1": "r2k3r1/9/9/9/9/9/9/2KR3R1 b kq - 1 1",
        "d1c1": "r2k3r1/9/9/9/9/9/9/R1K4R1 b kq - 1 1",
        "d1c2": "r2k3r1/9/9/9/9/9/2K6/R6R1 b kq - 1 1",
        "d1d2": "r2k3r1/9/9/9/9/9/3K5/R6R1 b kq - 1 1",
        "d1e1": "r2k3r1/9/9/9/9/9/9/R3K2R1 b kq - 1 1",
        "d1e2": "r2k3r1/9/9/9/9/9/4K4/R6R1 b kq - 1 1",
        "d1g1": "r2k3r1/9/9/9/9/9/9/R4RK2 b kq - 1 1",
    }, ["d1a1", "d1g1"]),
    ("haynie", "r2k1r/6/6/6/6/R2K1R w KQkq - 0 1", {
        "d1a1": "r2k1r/6/6/6/6/2KR1R b kq - 1 1",
        "d1c1": "r2k1r/6/6/6/6/R1K2R b kq - 1 1",
        "d1c2": "r2k1r/6/6/6/2K3/R4R b kq - 1 1",
        "d1d2": "r2k1r/6/6/6/3K2/R4R b kq - 1 1",
        "d1e1": "r2k1r/6/6/6/6/R3KR b kq - 1 1",
        "d1e2": "r2k1r/6/6/6/4K1/R4R b kq - 1 1",
        "d1f1": "r2k1r/6/6/6/6/R2RK1 b kq - 1 1",
    }, ["d1a1", "d1f1"]),
]


@pytest.mark.parametrize("variant,fen,after,castlings", ONE_SQUARE_CASTLING,
                         ids=[case[0] for case in ONE_SQUARE_CASTLING])
def test_a_castling_whose_king_steps_one_square_is_king_takes_rook(variant, fen, after,
                                                                    castlings):
    if variant not in magus.variants():
        assert magus.load_variant_config(fairy_sections("active", "haynie")) == [
            "active", "haynie"]
    moves = magus.legal_moves(variant, fen, [])
    assert len(moves) == len(set(moves)), "no move is written twice"
    king = {m: magus.get_fen(variant, fen, [m]) for m in moves if m.startswith("d1")}
    assert king == after
    assert [m for m in sorted(king)
            if magus.move_effects(variant, fen, [], m)["kind"] == "castle"] == castlings
    # Read back from SAN, a castling is the same wire move.
    assert magus.to_wire(variant, fen, "O-O-O") == "d1a1"


def test_loading_a_variant_named_like_a_known_one_warns():
    """In a child interpreter: a built-in variant replaced stays replaced for the process."""
    child = textwrap.dedent('''
        import warnings, magus
        def load(text):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                names = magus.load_variant_config(text)
            return names, [(w.category.__name__, str(w.message)) for w in caught]
        print(load("[magi:chess]\\ncastling = false\\n"))
        print(magus.start_fen("magi"))
        print(load("[fresh:chess]\\n"))
        print(load("[fresh:chess]\\ncastling = false\\n"))
    ''')
    run = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr[-3000:]
    replaced_magi, magi_now, fresh, replaced_fresh = run.stdout.splitlines()
    assert replaced_magi == str((["magi"], [(
        "MagusWarning", "'magi' replaces the built-in variant of that name, for every call "
        "from now on")]))
    assert magi_now == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    assert fresh == str((["fresh"], []))
    assert replaced_fresh == str((["fresh"], [(
        "MagusWarning", "'fresh' replaces the variant of that name loaded before, for every "
        "call from now on")]))


def test_a_refused_definition_loads_nothing_and_names_the_key():
    before = magus.variants()
    text = "[fine:chess]\n\n[compulsory:chess]\nmustCapture = true\n"
    with pytest.raises(magus.VariantConfigError, match="line 4 \\[compulsory\\]: key 'mustCapture'"):
        magus.load_variant_config(text)
    assert magus.variants() == before
    with pytest.raises(magus.VariantConfigError, match="ranks"):
        magus.load_variant_config('name = "broken"\nfiles = 8\n')
    with pytest.raises(magus.VariantConfigError, match="no definition"):
        magus.load_variant_config("# only a comment\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert magus.load_variant_config(text.replace("fine", "fine2"), strict=False) == ["fine2"]
    assert [w.category for w in caught] == [magus.MagusWarning]
    assert "mustCapture" in str(caught[0].message)


def test_set_option_variant_path(tmp_path):
    path = tmp_path / "tiny.ini"
    path.write_text("[tiny-from-file:chess]\ncastling = false\n")
    magus.set_option("VariantPath", str(path))
    assert "tiny-from-file" in magus.variants()
    with pytest.raises(magus.MagusError, match="no such option"):
        magus.set_option("Hash", 16)
    with pytest.raises(magus.VariantConfigError):
        magus.set_option("VariantPath", str(tmp_path / "missing"))


def test_arguments_magus_does_not_have():
    with pytest.raises(magus.MagusError, match="Chess960"):
        magus.legal_moves("chess", CHESS, [], True)
    with pytest.raises(magus.MagusError, match="SAN only"):
        magus.get_san("chess", CHESS, "e2e4", False, 2)
    assert magus.get_san("chess", CHESS, "e2e4", notation=magus.NOTATION_SAN) == "e4"
    with pytest.raises(magus.MagusError, match="sfen"):
        magus.get_fen("chess", CHESS, [], sfen=True)
    assert magus.get_fen("chess", CHESS, [], False, False, True, 3) == CHESS


def python_chess():
    try:
        import chess
    except ImportError:
        skip_or_fail("python-chess is not installed (pip install chess)")
    return chess


def test_chess_agrees_with_python_chess_along_random_games():
    chess = python_chess()
    rng = random.Random(2026)
    positions = 0
    for _ in range(25):
        board = chess.Board()
        moves = []
        fen = CHESS
        while len(moves) < 150:
            assert fen == board.fen()
            legal = magus.legal_moves("chess", fen, [])
            assert sorted(legal) == sorted(m.uci() for m in board.legal_moves), fen
            assert magus.gives_check("chess", fen, []) == board.is_check()
            # Repetitions need the whole game: the list from the start.
            over = magus.outcome("chess", CHESS, moves)
            expected = board.outcome() or (
                (board.is_repetition(3) or board.halfmove_clock >= 100) and "1/2-1/2")
            assert (over is None) == (not expected), fen
            if over:
                assert over[0] == (expected if isinstance(expected, str) else expected.result())
                break
            move = rng.choice(legal)
            uci = chess.Move.from_uci(move)
            assert magus.get_san("chess", fen, move) == board.san(uci)
            assert magus.is_capture("chess", fen, [], move) == board.is_capture(uci)
            board.push(uci)
            moves.append(move)
            fen = magus.get_fen("chess", fen, [move])
            positions += 1
        sans = [board.san(m) for m in []]
        replay = chess.Board()
        for m in moves:
            sans.append(replay.san(chess.Move.from_uci(m)))
            replay.push_uci(m)
        assert magus.get_san_moves("chess", CHESS, moves) == sans
        assert magus.get_fen("chess", CHESS, moves) == board.fen()
    assert positions > 1000
