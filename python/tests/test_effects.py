"""`move_effects`: every kind of move of every variant, with what it changes on the board,
derived by hand from the position."""

import pytest

import magus

SPELLS = "3k3/1*1*3/*5*/*3p1*/*3*1*/5M1/3K3 w - - 0 1"


def effects(variant, fen, moves, move):
    got = magus.move_effects(variant, fen, moves, move)
    got["changes"] = sorted(got["changes"])
    return got


def test_an_ordinary_move_has_no_side_effect():
    got = effects("chess", "startpos", [], "e2e4")
    assert got == {"move": "e2e4", "san": "e4", "kind": "normal", "from": "e2", "to": "e4",
                   "piece": "P", "captured": [], "side_effect": None,
                   "changes": [("e2", "P", None), ("e4", None, "P")], "gives_check": False}


def test_castling_moves_the_rook():
    got = effects("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", [], "e1g1")
    assert (got["kind"], got["san"], got["piece"]) == ("castle", "O-O", "K")
    assert got["side_effect"] == {"kind": "castle", "square": "f1", "piece": "R", "from": "h1"}
    assert got["changes"] == [("e1", "K", None), ("f1", None, "R"), ("g1", None, "K"),
                              ("h1", "R", None)]
    # Magi: the King goes three squares, f1-i1, and the Rook j1-h1.
    magi = effects("magi", "r4k3r/10/10/10/10/10/10/10/1P8/R4K3R w KQkq - 0 1", [], "f1i1")
    assert magi["side_effect"] == {"kind": "castle", "square": "h1", "piece": "R",
                                   "from": "j1"}


def test_en_passant_takes_the_pawn_beside():
    got = effects("chess", "startpos", ["e2e4", "a7a6", "e4e5", "d7d5"], "e5d6")
    assert got["kind"] == "en_passant" and got["captured"] == [("d5", "p")]
    assert got["side_effect"] == {"kind": "en_passant", "square": "d5", "piece": "p"}
    assert got["changes"] == [("d5", "p", None), ("d6", None, "P"), ("e5", "P", None)]


def test_promotion_and_check():
    got = effects("chess", "7k/P7/8/8/8/8/8/K7 w - - 0 1", [], "a7a8q")
    assert (got["kind"], got["san"], got["gives_check"]) == ("promotion", "a8=Q+", True)
    assert got["side_effect"] == {"kind": "promotion", "square": "a8", "piece": "Q"}
    assert got["changes"] == [("a7", "P", None), ("a8", None, "Q")]


def test_swap_in_changes_the_bishop_in_place():
    got = effects("deathmatch", "startpos", [], "c1c1m")
    assert (got["kind"], got["san"], got["piece"]) == ("swap_in", "Bc1=M", "B")
    assert got["side_effect"] == {"kind": "swap_in", "square": "c1", "piece": "M"}
    assert got["changes"] == [("c1", "B", "M")]


def test_a_pawn_on_the_sixth_rank_transforms_a_magician():
    got = effects("deathmatch", "k7/8/8/4P3/8/8/M6M/7K w - - 0 1", [], "e5e6,h2h2t")
    assert (got["kind"], got["san"]) == ("transform", "e6 Mh2=T")
    assert got["side_effect"] == {"kind": "transform", "square": "h2", "piece": "T",
                                  "was": "M"}
    assert got["changes"] == [("e5", "P", None), ("e6", None, "P"), ("h2", "M", "T")]


def test_en_passant_onto_the_sixth_rank_transforms_too():
    got = effects("deathmatch", "4k3/3p4/8/4P3/8/8/3M4/4K3 b - - 0 1", ["d7d5"], "e5d6,d2d2t")
    assert got["kind"] == "en_passant_transform" and got["captured"] == [("d5", "p")]
    assert got["changes"] == [("d2", "M", "T"), ("d5", "p", None), ("d6", None, "P"),
                              ("e5", "P", None)]


def test_spells_move_the_hole():
    carry = effects("magician-chess", SPELLS, [], "e3e4")
    assert (carry["kind"], carry["piece"], carry["captured"]) == ("spell_carry", "*", [])
    assert carry["side_effect"] == {"kind": "spell_carry", "square": "e3", "piece": "p"}
    assert carry["changes"] == [("e3", "*", "p"), ("e4", "p", "*")]
    drop = effects("magician-chess", SPELLS, [], "e3e4x")
    assert (drop["kind"], drop["san"], drop["captured"]) == ("spell_drop", "Hxe4", [("e4", "p")])
    assert drop["side_effect"] == {"kind": "spell_drop", "square": "e4", "piece": "p"}
    assert drop["changes"] == [("e3", "*", None), ("e4", "p", "*")]
    empty = effects("magician-chess", SPELLS, [], "e3d3")
    assert empty["side_effect"] == {"kind": "spell_carry", "square": "e3", "piece": None}
    assert empty["changes"] == [("d3", None, "*"), ("e3", "*", None)]


def test_a_carrier_drops_as_part_of_its_move():
    got = effects("royal-magician",
                  "rnbmkbnr/pppppppp/8/8/4P3/3MK3/PPPP1PPP/RNB2BNR w kq - 0 4", [], "e3f4,n@c5")
    assert (got["kind"], got["san"], got["piece"]) == ("drop", "Kf4/N@c5", "K")
    assert got["side_effect"] == {"kind": "drop", "square": "c5", "piece": "N"}
    assert got["changes"] == [("c5", None, "N"), ("e3", "K", None), ("f4", None, "K")]


@pytest.mark.parametrize("variant", ["chess", "magi", "deathmatch", "magician-chess",
                                     "royal-magician", "deathmatch-legacy"])
def test_the_changes_are_the_difference_of_the_fens(variant):
    # Each change, applied to the board before, gives the board after.
    fen = magus.start_fen(variant)
    for move in magus.legal_moves(variant, fen, []):
        got = magus.move_effects(variant, fen, [], move)
        assert got["move"] == move
        before, after = board(fen), board(magus.get_fen(variant, fen, [move]))
        for square, was, now in got["changes"]:
            assert before.get(square) == was and after.get(square) == now
        assert {s for s in set(before) | set(after) if before.get(s) != after.get(s)} == {
            s for s, _, _ in got["changes"]}


def board(fen):
    """Square name -> FEN letter or '*', from a FEN's board."""
    rows = fen.split()[0].split("[")[0].split("/")
    out = {}
    for r, row in enumerate(rows):
        rank = len(rows) - r
        file = 0
        digits = ""
        for c in row + " ":
            if c.isdigit():
                digits += c
                continue
            if digits:
                file += int(digits)
                digits = ""
            if c != " ":
                out[f"{chr(ord('a') + file)}{rank}"] = c
                file += 1
    return out
