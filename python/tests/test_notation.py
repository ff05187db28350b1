"""SAN in every variant: every legal move written with `get_san` reads back with `to_wire`
as the same wire move, two plies deep from each start and from positions that reach each
variant's own moves, and along seeded random games; and the inventors' notation examples
(RULES.md §1.8, §2.4, §3.7, §4.3) written and read."""

import random

import pytest

import magus
from conftest import BUILTIN

# Positions that reach each variant's own moves within two plies.
SPECIAL = [
    # A pawn move onto the 6th rank promotes one of two Magicians (§1.6).
    ("deathmatch", "k7/8/8/4P3/8/8/M6M/7K w - - 0 1"),
    # Magicians, High-Priestesses, Telepaths, castling both ways.
    ("deathmatch", "r3k2r/pp1h1ppp/2n2t2/8/3M4/5T2/PP1H1PPP/R3K2R w KQkq - 0 1"),
    # Two holes reach f3 (§3.7).
    ("magician-chess", "3k3/1*1*3/*5*/*3p1*/*3*1*/5M1/3K3 w - - 0 1"),
    # Both carriers one step from their 4th-rank trigger (§4.3).
    ("royal-magician", "rnbmkbnr/pppppppp/8/8/4P3/3MK3/PPPP1PPP/RNB2BNR w kq - 0 4"),
    # Promotion to each Magi piece, castling on the 10x10 board.
    ("magi", "r4k3r/1P8/10/10/10/10/10/10/10/R4K3R w KQkq - 0 1"),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
]


def round_trip(variant, fen):
    """Every legal move: SAN written, then read back as the same wire move."""
    moves = magus.legal_moves(variant, fen, [])
    for wire in moves:
        san = magus.get_san(variant, fen, wire)
        assert magus.to_wire(variant, fen, san) == wire, f"{variant} {fen}: {wire} {san}"
    return moves


@pytest.mark.parametrize("variant,fen",
                         [(v, magus.start_fen(v)) for v in BUILTIN] + SPECIAL)
def test_every_move_two_plies_deep_reads_back(variant, fen):
    kinds = set()
    for first in round_trip(variant, fen):
        kinds.add(magus.move_effects(variant, fen, [], first)["kind"])
        round_trip(variant, magus.get_fen(variant, fen, [first]))
    assert kinds, "the position has moves"


def random_game(variant, rng, plies):
    fen = magus.start_fen(variant)
    moves = []
    for _ in range(plies):
        legal = magus.legal_moves(variant, fen, moves)
        if not legal or magus.outcome(variant, fen, moves):
            break
        moves.append(rng.choice(legal))
    return fen, moves


@pytest.mark.parametrize("variant", BUILTIN)
def test_random_games_read_back_from_their_san(variant):
    rng = random.Random(f"san {variant}")
    kinds = set()
    for _ in range(6):
        fen, moves = random_game(variant, rng, 120)
        sans = magus.get_san_moves(variant, fen, moves)
        assert len(sans) == len(moves)
        current = fen
        for wire, san in zip(moves, sans):
            assert magus.get_san(variant, current, wire) == san
            assert magus.to_wire(variant, current, san) == wire, f"{current}: {san}"
            kinds.add(magus.move_effects(variant, current, [], wire)["kind"])
            current = magus.get_fen(variant, current, [wire])
    assert "normal" in kinds


# (variant, FEN, moves before, wire move, SAN as magus writes it, other forms read as it)
EXAMPLES = [
    # §1.8: a swap-in is written as the Bishop's square and the new piece.
    ("deathmatch", "startpos", [], "c1c1m", "Bc1=M", []),
    ("deathmatch", "startpos", ["e2e4"], "c8c8m", "Bc8=M", []),
    # §1.8 `50...h4h3 Mc3=H#`: one Magician, so its square may be left out; mate marked.
    ("deathmatch", "7k/8/8/8/7p/2m5/8/1K6 b - - 0 1", [], "h4h3,c3c3h", "h3 M=H#",
     ["h3 Mc3=H#", "h4h3 Mc3=H", "h4-h3 M=H"]),
    # §1.8: with two Magicians the square names the one that changes.
    ("deathmatch", "k7/8/8/4P3/8/8/M6M/7K w - - 0 1", [], "e5e6,h2h2t", "e6 Mh2=T",
     ["e5e6 Mh2=T"]),
    # §1.8 `17.e5xd5-d6 Md2=T`: en passant onto the 6th rank, long form.
    ("deathmatch", "4k3/3p4/8/4P3/8/8/3M4/4K3 b - - 0 1", ["d7d5"], "e5d6,d2d2t",
     "exd6 M=T", ["e5xd5-d6 Md2=T", "exd6 Md2=T"]),
    # §1.5: Home-File Transference captures across the rank and gives check.
    ("deathmatch", "k7/8/8/8/8/7K/8/M6r w - - 0 1", [], "a1h1", "Mxh1", []),
    ("deathmatch", "K7/8/8/8/8/8/1M6/1NBRQBNk w - - 0 1", [], "b2a1", "Ma1+", []),
    # §2.4: Magi castles 0-0 and 0-0-0 (written O-O, read either way).
    ("magi", "r4k3r/10/10/10/10/10/10/10/1P8/R4K3R w KQkq - 0 1", [], "f1i1", "O-O",
     ["0-0"]),
    ("magi", "r4k3r/10/10/10/10/10/10/10/1P8/R4K3R w KQkq - 0 1", [], "f1c1", "O-O-O",
     ["0-0-0"]),
    ("magi", "5k4/1P8/10/10/10/10/10/10/10/5K4 w - - 0 1", [], "b9b10w", "b10=W", []),
    # §3.7: a spell is the hole's move: H, x for a drop, the hole's file when two reach.
    ("magician-chess", "3k3/1*1*3/*5*/*3p1*/*3*1*/5M1/3K3 w - - 0 1", [], "e3e4", "He4", []),
    ("magician-chess", "3k3/1*1*3/*5*/*3p1*/*3*1*/5M1/3K3 w - - 0 1", [], "e3e4x", "Hxe4",
     []),
    ("magician-chess", "3k3/1*1*3/*5*/*3p1*/*3*1*/5M1/3K3 w - - 0 1", [], "g3f3", "Hgf3",
     []),
    ("magician-chess", "3k3/1*1*3/*5*/*3p1*/*3*1*/5M1/3K3 w - - 0 1", [], "e3f3", "Hef3",
     []),
    # §3.7: castling 0-0(b) and 0-0(f).
    ("magician-chess", "3k3/3*3/*5*/*2*2*/*5*/3*3/R2K2R w KQ - 0 1", [], "d1b1", "0-0(b)",
     ["O-O(b)"]),
    ("magician-chess", "3k3/3*3/*5*/*2*2*/*5*/3*3/R2K2R w KQ - 0 1", [], "d1f1", "0-0(f)",
     ["O-O(f)"]),
    # §4.3: a carrier's move and its drop are one move.
    ("royal-magician", "rnbmkbnr/pppppppp/8/8/4P3/3MK3/PPPP1PPP/RNB2BNR w kq - 0 4", [],
     "e3f4,n@c5", "Kf4/N@c5", []),
    ("royal-magician", "rnbmkbnr/pppppppp/8/8/4P3/3MK3/PPPP1PPP/RNB2BNR w kq - 0 4", [],
     "d3d4,b@h6", "Md4/B@h6", []),
]


@pytest.mark.parametrize("variant,fen,before,wire,san,others", EXAMPLES,
                         ids=[e[4] for e in EXAMPLES])
def test_the_inventors_notation(variant, fen, before, wire, san, others):
    position = magus.get_fen(variant, fen, before)
    assert magus.get_san(variant, position, wire) == san
    for text in [san] + others:
        assert magus.to_wire(variant, position, text) == wire, text


def test_a_drop_is_part_of_the_move():
    fen = "rnbmkbnr/pppppppp/8/8/4P3/3MK3/PPPP1PPP/RNB2BNR w kq - 0 4"
    with pytest.raises(magus.IllegalMoveError):
        magus.to_wire("royal-magician", fen, "Ke4")
    with pytest.raises(magus.IllegalMoveError, match="side effect"):
        magus.legal_moves("royal-magician", fen, ["e3f4"])


def test_two_holes_reaching_a_square_need_the_holes_file():
    fen = "3k3/1*1*3/*5*/*3p1*/*3*1*/5M1/3K3 w - - 0 1"
    with pytest.raises(magus.IllegalMoveError, match="'Hf3' is not a legal move"):
        magus.to_wire("magician-chess", fen, "Hf3")


def test_orthodox_disambiguation_and_checks():
    fen = "r3k2r/1P6/8/8/8/2N3N1/8/R3K2R w KQkq - 0 1"
    got = magus.get_san_moves("chess", fen, ["c3e4"]) + [
        magus.get_san("chess", fen, m) for m in ("g3e4", "b7a8q", "e1g1", "a1a8")]
    assert got == ["Nce4", "Nge4", "bxa8=Q+", "O-O", "Rxa8+"]
    assert magus.get_san("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8") == "Ra8#"
