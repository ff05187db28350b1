"""Bad input gives a Python exception with the engine's message, never a crash: bad FENs,
illegal moves, unknown variants, wrong types, and random text thrown at every function in
a child interpreter, which must finish and say so."""

import subprocess
import sys
import textwrap

import pytest

import magus

CHESS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_a_bad_fen_names_the_field():
    with pytest.raises(magus.FenError, match="FEN side to move 'x'"):
        magus.legal_moves("chess", CHESS.replace(" w ", " x "), [])
    with pytest.raises(magus.FenError, match="'Z' is not a piece of magi"):
        magus.get_fen("magi", "Z" + magus.start_fen("magi")[1:], [])
    with pytest.raises(magus.FenError, match="needs at least the board"):
        magus.get_fen("chess", "8/8", [])


def test_an_illegal_move_names_its_place_and_the_position():
    with pytest.raises(magus.IllegalMoveError) as caught:
        magus.get_fen("chess", CHESS, ["e2e4", "e7e4"])
    message = str(caught.value)
    assert message.startswith("move 2 of the list: 'e7e4' is not a legal move")
    assert "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" in message
    with pytest.raises(magus.IllegalMoveError, match="not a move in coordinate notation"):
        magus.get_san("chess", CHESS, "Nf3")
    with pytest.raises(magus.IllegalMoveError, match="not a legal spell"):
        magus.get_san("magician-chess", "startpos", "d4d5x")
    # The exceptions are ValueErrors, as pyffish's invalid moves are.
    assert issubclass(magus.IllegalMoveError, ValueError) and magus.error is magus.MagusError


def test_an_unknown_variant_lists_the_known_ones():
    with pytest.raises(magus.UnknownVariantError, match="unknown variant 'shogi' \\(known: chess, "):
        magus.start_fen("shogi")
    for call in (lambda: magus.legal_moves("x", CHESS, []),
                 lambda: magus.validate_fen(CHESS, "x"),
                 lambda: magus.perft("x", CHESS, 1)):
        with pytest.raises(magus.UnknownVariantError):
            call()


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError):
        magus.legal_moves("chess", CHESS, "e2e4")
    with pytest.raises(TypeError):
        magus.legal_moves(None, CHESS, [])
    with pytest.raises(TypeError):
        magus.get_fen("chess", CHESS, [1, 2])
    with pytest.raises(TypeError):
        magus.perft("chess", CHESS, 1.5)
    with pytest.raises(TypeError):
        magus.Engine(threads="2")


# Every integer argument, with a value out of its range: negative, zero where a count must be
# positive, and one too large for any machine integer.
OUT_OF_RANGE = [
    ("depth=-1", lambda: magus.perft("chess", CHESS, -1)),
    ("depth=13", lambda: magus.perft("chess", CHESS, 13)),
    (f"depth={2**70}", lambda: magus.perft("chess", CHESS, 2**70)),
    ("threads=-1", lambda: magus.Engine(threads=-1)),
    ("hash=-8", lambda: magus.Engine(hash=-8)),
    (f"hash={-2**70}", lambda: magus.Engine(hash=-2**70)),
    ("threads=-2", lambda: magus.Engine(hash=1).configure(threads=-2)),
    ("hash=0", lambda: magus.Engine(hash=1).configure(hash=0)),
    ("depth=-3", lambda: magus.Engine(hash=1).search("chess", CHESS, depth=-3)),
    (f"depth={2**40}", lambda: magus.Engine(hash=1).search("chess", CHESS, depth=2**40)),
    ("nodes=-100", lambda: magus.Engine(hash=1).search("chess", CHESS, nodes=-100)),
    ("nodes=0", lambda: magus.Engine(hash=1).search("chess", CHESS, nodes=0)),
    ("fullmove=-1", lambda: magus.payoff("magi", "startpos", [], offers=[("draw", "white", -1, False)])),
]


@pytest.mark.parametrize("named,call", OUT_OF_RANGE, ids=[n for n, _ in OUT_OF_RANGE])
def test_an_integer_out_of_range_is_a_value_error_naming_it(named, call):
    with pytest.raises(magus.MagusError) as caught:
        call()
    assert isinstance(caught.value, ValueError)
    assert f"{named}: give " in str(caught.value)


def test_the_last_good_state_is_kept():
    # A refused definition and a failed call change nothing for the next call.
    before = magus.variants()
    with pytest.raises(magus.VariantConfigError):
        magus.load_variant_config('name = "chess"\nfiles = 0\n')
    assert magus.variants() == before
    assert len(magus.legal_moves("chess", CHESS, [])) == 20


FUZZ = textwrap.dedent(r'''
    import random, magus
    rng = random.Random(7)
    variants = magus.variants()
    pieces = ["e2e4", "e5e6,d2d2t", "d4e4x", "e3e4,n@c5", "c1c1m", "a1a10", "O-O", "Hxe4",
              "startpos", "\x00", "é", "[KBNR]", "*", " ", "99999999999", "-", "/", ","]
    def text():
        kind = rng.random()
        if kind < 0.3:
            fen = magus.start_fen(rng.choice(variants))
            i = rng.randrange(len(fen))
            return fen[:i] + rng.choice(pieces + [chr(rng.randrange(1, 0x3000))]) + fen[i + 1:]
        if kind < 0.6:
            return "".join(rng.choice(pieces) for _ in range(rng.randrange(4)))
        return "".join(chr(rng.randrange(1, 0x250)) for _ in range(rng.randrange(30)))
    calls = [
        lambda v, f, m: magus.legal_moves(v, f, m),
        lambda v, f, m: magus.get_san(v, f, m[0] if m else text()),
        lambda v, f, m: magus.get_san_moves(v, f, m),
        lambda v, f, m: magus.get_fen(v, f, m),
        lambda v, f, m: magus.gives_check(v, f, m),
        lambda v, f, m: magus.is_capture(v, f, m, text()),
        lambda v, f, m: magus.to_wire(v, f, text()),
        lambda v, f, m: magus.move_effects(v, f, m, text()),
        lambda v, f, m: magus.game_result(v, f, m),
        lambda v, f, m: magus.is_immediate_game_end(v, f, m),
        lambda v, f, m: magus.is_optional_game_end(v, f, m),
        lambda v, f, m: magus.has_insufficient_material(v, f, m),
        lambda v, f, m: magus.outcome(v, f, m),
        lambda v, f, m: magus.payoff(v, f, m, resigned=text()),
        lambda v, f, m: magus.validate_fen(f, v),
        lambda v, f, m: magus.perft(v, f, 2, m),
        lambda v, f, m: magus.read_pgn(text()),
        lambda v, f, m: magus.load_variant_config(text()),
    ]
    errors = 0
    for i in range(6000):
        v = rng.choice(variants) if rng.random() < 0.9 else text()
        f = magus.start_fen(v) if v in variants and rng.random() < 0.4 else text()
        legal = []
        if v in variants and rng.random() < 0.5:
            try:
                legal = magus.legal_moves(v, f, [])
            except magus.MagusError:
                pass
        m = [rng.choice(legal) if legal and rng.random() < 0.7 else text()
             for _ in range(rng.randrange(3))]
        try:
            rng.choice(calls)(v, f, m)
        except magus.MagusError:
            errors += 1
    print("survived", errors)
''')


def test_random_input_never_crashes_the_interpreter():
    run = subprocess.run([sys.executable, "-c", FUZZ], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.startswith("survived "), run.stdout
    assert int(run.stdout.split()[1]) > 1000, "most random input is refused"
