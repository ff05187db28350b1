"""The Magi 12-point payoff (RULES.md §2.5) through `payoff`: mate, stalemate, draws,
offers accepted and refused with the band decay (the rules' worked examples), resignation,
the optional 150-move rule."""

import pytest

import magus


def mate_at(fullmove):
    """A Magi position where White mates with a1a10 in the given move: the Black King on f10
    has e9, f9, g9 covered by the White King on f8, and the back rank by the Rook."""
    return f"5k4/10/5K4/10/10/10/10/10/10/R9 w - - 0 {fullmove}", ["a1a10"]


def test_the_mate_position_is_mate():
    fen, moves = mate_at(30)
    assert magus.outcome("magi", fen, moves) == ("1-0", "checkmate")


def test_mate_without_offers_is_12_0():
    assert magus.payoff("magi", *mate_at(30)) == (12, 0)


def test_a_refused_resignation_decays_band_by_band():
    # Offer at 53, refused, mate at 58: the same band, 12-0.
    assert magus.payoff("magi", *mate_at(58), offers=[("resign", "black", 53, False)]) == (12, 0)
    # Offer at 68 (band 61-75), mate after the start of move 76: 9-3.
    assert magus.payoff("magi", *mate_at(80), offers=[("resign", "black", 68, False)]) == (9, 3)
    # ... and after the start of move 91: 8-4.
    assert magus.payoff("magi", *mate_at(95), offers=[("resign", "black", 68, False)]) == (8, 4)


def test_a_refused_draw_decays_unless_the_weaker_reading():
    fen, moves = mate_at(80)
    assert magus.payoff("magi", fen, moves, [("draw", "black", 68, False)]) == (9, 3)
    assert magus.payoff("magi", fen, moves, [("draw", "black", 68, False)],
                        refused_draw_decays=False) == (12, 0)


def test_accepted_offers_end_the_game():
    start = magus.start_fen("magi")
    assert magus.payoff("magi", start, [], [("draw", "white", 20, True)]) == (6, 6)
    assert magus.payoff("magi", start, [], [("resign", "b", 50, True)]) == (11, 1)
    # Only the first offer of each kind counts.
    assert magus.payoff("magi", start, [], [("resign", "b", 50, False),
                                            ("resign", "w", 52, True)]) is None


def test_stalemate_is_7_5_for_the_side_that_gave_it():
    # The Black King on a10 is not in check and has no move: a9, b9, b10 are the Queen's.
    fen = "k9/10/1Q8/10/10/10/10/10/10/9K b - - 0 40"
    assert magus.outcome("magi", fen, []) == ("1/2-1/2", "stalemate")
    assert magus.payoff("magi", fen, []) == (7, 5)


def test_other_draws_are_6_6():
    cycle = ["g1h3", "g10h8", "h3g1", "h8g10"]
    assert magus.outcome("magi", "startpos", cycle * 2) == ("1/2-1/2", "repetition")
    assert magus.payoff("magi", "startpos", cycle * 2) == (6, 6)


def test_resignation_at_the_current_move():
    at_100 = "5k4/10/10/10/10/10/10/10/10/R4K4 w - - 0 100"
    assert magus.payoff("magi", at_100, [], resigned="white") == (4, 8)
    assert magus.payoff("magi", at_100, []) is None


def test_the_150_move_rule():
    at_151 = "5k4/10/10/10/10/10/10/10/10/R4K4 w - - 0 151"
    assert magus.payoff("magi", at_151, []) is None
    assert magus.payoff("magi", at_151, [], rule150=True) == (0, 0)


def test_bad_offers_are_refused():
    with pytest.raises(magus.MagusError, match="resign' or 'draw"):
        magus.payoff("magi", "startpos", [], [("surrender", "white", 3, True)])
    with pytest.raises(magus.MagusError, match="not a side"):
        magus.payoff("magi", "startpos", [], resigned="green")
    with pytest.raises((TypeError, ValueError), match="length 4"):
        magus.payoff("magi", "startpos", [], [("draw", "white")])
