//! Magi (RULES.md §2): pawn first moves, the multi-square en passant with both worked
//! examples of the rules text and the G4 test vector, 3-square castling, promotion, and the
//! end of the game. Every expected move list is derived by hand in the comments.
//!
//! Board: files a–j, ranks 1–10; White moves up. Wire moves are UCI-style (`c2c5`).

mod common;

use common::{
    board, castles_with_attacker, ep_field, legal, moves_from, piece_on, place, play, play_all,
    position, sorted,
};
use magus::game::outcome::{Outcome, Reason, outcome};
use magus::game::{AnyPosition, Game};
use magus::with_position;

fn magi(pieces: &str, side: &str) -> AnyPosition {
    magi_with(pieces, &format!("{side} - - 0 1"))
}

/// A Magi position from pieces and the FEN fields after the board.
fn magi_with(pieces: &str, fields: &str) -> AnyPosition {
    let fen = format!("{} {fields}", place(10, 10, pieces));
    position("magi", Some(&fen))
}

/// Black's King on h10 has these five moves in every example below (nothing White has
/// reaches rank 9 or 10).
const BLACK_KING_H10: &str = "h10g10 h10i10 h10g9 h10h9 h10i9";
/// White's King on h1 likewise.
const WHITE_KING_H1: &str = "h1g1 h1i1 h1g2 h1h2 h1i2";

fn with_king(moves: &str, king: &str) -> Vec<String> {
    sorted(&format!("{moves} {king}"))
}

// ---- §2.3 Example 1: White c2, Black pawns on the b-file ----

#[test]
fn example_1_c2c4_b4_takes_en_passant_b5_captures_normally() {
    let before = magi("Kh1 Pc2 kh10 pb4 pb5", "w");
    let after = play(&before, "c2c4");
    // The pawn passed c3, its owner's 3rd rank: c3 is the only target; b4 attacks it.
    assert_eq!(ep_field(&after), "c3");
    // b4: push to b3, e.p. to c3. b5: its push is blocked by b4; it takes c4 normally.
    assert_eq!(legal(&after), with_king("b4b3 b4c3 b5c4", BLACK_KING_H10));
    // b4c3 is the e.p. capture: the pawn on c4 disappears.
    let ep = play(&after, "b4c3");
    assert_eq!(piece_on(&ep, "c3"), Some('p'));
    assert_eq!(piece_on(&ep, "c4"), None);
    assert_eq!(piece_on(&ep, "b5"), Some('p'));
    // b5c4 is an ordinary capture.
    let normal = play(&after, "b5c4");
    assert_eq!(piece_on(&normal, "c4"), Some('p'));
    assert_eq!(piece_on(&normal, "b4"), Some('p'));
}

#[test]
fn example_1_c2c5_both_b4_and_b5_take_en_passant() {
    let before = magi("Kh1 Pc2 kh10 pb4 pb5", "w");
    let after = play(&before, "c2c5");
    // Targets c3 and c4 (ranks 3 to the square behind c5); b4 attacks c3, b5 attacks c4.
    assert_eq!(ep_field(&after), "c3,c4");
    // Nothing attacks c5 itself: both captures are e.p.
    assert_eq!(legal(&after), with_king("b4b3 b4c3 b5c4", BLACK_KING_H10));
    for (capture, lands) in [("b4c3", "c3"), ("b5c4", "c4")] {
        let next = play(&after, capture);
        assert_eq!(piece_on(&next, lands), Some('p'), "{capture}");
        assert_eq!(piece_on(&next, "c5"), None, "{capture} removes the c5 pawn");
    }
}

#[test]
fn example_1_tripled_b4_b5_b6_two_take_en_passant_b6_normally() {
    let after = play(&magi("Kh1 Pc2 kh10 pb4 pb5 pb6", "w"), "c2c5");
    assert_eq!(ep_field(&after), "c3,c4");
    // b6 attacks c5 and captures it normally; b5 and b6 cannot push (blocked).
    assert_eq!(
        legal(&after),
        with_king("b4b3 b4c3 b5c4 b6c5", BLACK_KING_H10)
    );
    let normal = play(&after, "b6c5");
    assert_eq!(piece_on(&normal, "c5"), Some('p'));
    assert_eq!(piece_on(&normal, "b4"), Some('p'));
    assert_eq!(piece_on(&normal, "b5"), Some('p'));
}

#[test]
fn example_1_tripled_b3_b4_b5_only_b4_and_b5_can_take() {
    let after = play(&magi("Kh1 Pc2 kh10 pb3 pb4 pb5", "w"), "c2c5");
    // b3 attacks c2, which is rank 2 and not a target: it can only push to b2.
    assert_eq!(ep_field(&after), "c3,c4");
    assert_eq!(legal(&after), with_king("b3b2 b4c3 b5c4", BLACK_KING_H10));
}

#[test]
fn example_1_en_passant_only_on_the_very_next_move() {
    let after = play_all(&magi("Kh1 Pc2 kh10 pb4 pb5", "w"), "c2c4 h10g10 h1g1");
    assert_eq!(ep_field(&after), "-");
    // b4c3 is gone; b5 still takes c4 normally. King g10: f10 h10 f9 g9 h9.
    assert_eq!(
        legal(&after),
        sorted("b4b3 b5c4 g10f10 g10h10 g10f9 g10g9 g10h9")
    );
}

#[test]
fn a_rank_2_pawn_moving_one_square_gives_no_en_passant() {
    let after = play(&magi("Kh1 Pc2 kh10 pb3 pd4", "w"), "c2c3");
    assert_eq!(ep_field(&after), "-");
    // b3 attacks c2, the square the pawn left: no target there, b3 only pushes. d4 pushes
    // or captures the pawn on c3 normally.
    assert_eq!(legal(&after), with_king("b3b2 d4d3 d4c3", BLACK_KING_H10));
}

// ---- §2.3 Example 2: Black's d8 pawn, White pawns c6 and c7 ----

#[test]
fn example_2_d8d7_c7_takes_en_passant_on_the_origin_c6_normally() {
    let after = play(&magi("Kh1 Pc6 Pc7 kh10 pd8", "b"), "d8d7");
    // A d/g pawn's one-square first move: the target is its own origin, d8.
    assert_eq!(ep_field(&after), "d8");
    // c7: pushes to c8 (rank 8, no promotion), takes d8 e.p. c6: blocked, takes d7.
    assert_eq!(legal(&after), with_king("c7c8 c7d8 c6d7", WHITE_KING_H1));
    let ep = play(&after, "c7d8");
    assert_eq!(piece_on(&ep, "d8"), Some('P'));
    assert_eq!(piece_on(&ep, "d7"), None);
    assert_eq!(piece_on(&ep, "c6"), Some('P'));
    let normal = play(&after, "c6d7");
    assert_eq!(piece_on(&normal, "d7"), Some('P'));
    assert_eq!(piece_on(&normal, "c7"), Some('P'));
}

#[test]
fn example_2_d8d6_both_c6_and_c7_take_en_passant() {
    let after = play(&magi("Kh1 Pc6 Pc7 kh10 pd8", "b"), "d8d6");
    assert_eq!(ep_field(&after), "d7,d8");
    assert_eq!(legal(&after), with_king("c7c8 c7d8 c6d7", WHITE_KING_H1));
    for capture in ["c7d8", "c6d7"] {
        let next = play(&after, capture);
        assert_eq!(piece_on(&next, "d6"), None, "{capture} removes the d6 pawn");
    }
}

#[test]
fn white_d3_pawn_is_taken_en_passant_on_its_origin() {
    // d3-d4 (first move, one square): the target is d3 itself; e4 takes onto d3.
    let after = play(&magi("Kf1 Pd3 kf10 pe4", "w"), "d3d4");
    assert_eq!(ep_field(&after), "d3");
    // e4: push to e3, e.p. to d3. King f10: e10 g10 e9 f9 g9.
    assert_eq!(
        legal(&after),
        sorted("e4e3 e4d3 f10e10 f10g10 f10e9 f10f9 f10g9")
    );
    let ep = play(&after, "e4d3");
    assert_eq!(piece_on(&ep, "d3"), Some('p'));
    assert_eq!(piece_on(&ep, "d4"), None);

    // d3-d5: targets d3 and d4; only d3 is attacked (by e4), and it removes the d5 pawn.
    let after = play(&magi("Kf1 Pd3 kf10 pe4", "w"), "d3d5");
    assert_eq!(ep_field(&after), "d3");
    let ep = play(&after, "e4d3");
    assert_eq!(piece_on(&ep, "d5"), None);
}

#[test]
fn a_pawn_on_d3_that_is_not_unmoved_gives_no_en_passant() {
    // unmoved=- : the d3 pawn arrived there, so d3-d4 is not a first move.
    let pos = magi_with("Kf1 Pd3 kf10 pe4", "w - - 0 1 unmoved=-");
    // One step, or the capture of e4.
    assert_eq!(moves_from(&pos, "d3"), sorted("d3d4 d3e4"));
    let after = play(&pos, "d3d4");
    assert_eq!(ep_field(&after), "-");
    assert_eq!(
        legal(&after),
        sorted("e4e3 f10e10 f10g10 f10e9 f10f9 f10g9")
    );
}

#[test]
fn en_passant_that_exposes_the_king_along_the_rank_is_illegal() {
    // c9-c6: targets c8 and c7; b6 attacks c7. b6xc7 e.p. would empty b6 and c6 and open
    // rank 6 from j6 to the King on a6.
    let pinned = play(&magi("Ka6 Pb6 kj10 rj6 pc9", "b"), "c9c6");
    assert_eq!(ep_field(&pinned), "c7");
    // King a6: a5, a7, b7 (b5 is attacked by c6); b6-b7.
    assert_eq!(legal(&pinned), sorted("a6a5 a6a7 a6b7 b6b7"));
    // With the Rook off the rank the capture is legal.
    let free = play(&magi("Ka6 Pb6 kj10 rj9 pc9", "b"), "c9c6");
    assert_eq!(legal(&free), sorted("a6a5 a6a7 a6b7 b6b7 b6c7"));
    assert_eq!(piece_on(&play(&free, "b6c7"), "c6"), None);
}

// ---- §2.3 The G4 test vector: 13.f2-f5 e5xf4 e.p. ----

/// The G4 position after 13.f2-f5, Black to move (RULES.md §2.3). Black still castles
/// queenside on move 21, so it has its rights; castling is blocked here anyway (g10 and
/// c10 are occupied).
const G4: &str =
    "r1bcqkw2r/ppp3ppbp/d5p1pn/3pn5/3p2P3/3PpP1C2/4P5/D1NPW2N1D/PPP4PPP/R3QK1B1R b kq f3,f4 0 13";
/// The same position before 13.f2-f5.
const G4_BEFORE: &str =
    "r1bcqkw2r/ppp3ppbp/d5p1pn/3pn5/3p2P3/3Pp2C2/4P5/D1NPW2N1D/PPP2P1PPP/R3QK1B1R w kq - 0 13";

/// Black's 60 legal moves in G4, by piece (no Black piece is pinned; the King is not in
/// check). 12 pawn moves: b9, c9, h9 go 1–3 (their paths are empty); a9 (Duke on a8), j9
/// (Knight on j8), g9 (pawn on g8), d7, d6 (pawns ahead) are blocked; g8-g7 (g6 is White);
/// i8-i7; e5 is blocked by e4 but takes f4 e.p. — f3 is attacked by no Black pawn.
/// Knight e7 (7): d5, f5, g6 (captures), c6, c8, d9, f9 (g8 is own). Knight j8 (3): i6, h7,
/// i10. Bishop i9 (4): h8, g7, f6 (e5 own), h10. Bishop c10 (4): d9, e8, f7, xg6.
/// Rook a10 (1): b10. Rook j10 (2): i10, h10. Queen e10 (7): e9, e8, d9, c8, b7, a6, f9.
/// Duke a8 (6): a7, a6, a5, b8, c8, d8. Cardinal d10 (7): d9, e9, f8, g7, h6, i5, j4.
/// Wizard g10 (5): h10 (W), f8, h8, e9 (N), e8 (A). King f10 (2): e9, f9, both unattacked.
const G4_BLACK_MOVES: &str = "\
    b9b8 b9b7 b9b6 c9c8 c9c7 c9c6 h9h8 h9h7 h9h6 g8g7 i8i7 e5f4 \
    e7d5 e7f5 e7g6 e7c6 e7c8 e7d9 e7f9 j8i6 j8h7 j8i10 \
    i9h8 i9g7 i9f6 i9h10 c10d9 c10e8 c10f7 c10g6 \
    a10b10 j10i10 j10h10 \
    e10e9 e10e8 e10d9 e10c8 e10b7 e10a6 e10f9 \
    a8a7 a8a6 a8a5 a8b8 a8c8 a8d8 \
    d10d9 d10e9 d10f8 d10g7 d10h6 d10i5 d10j4 \
    g10h10 g10f8 g10h8 g10e9 g10e8 \
    f10e9 f10f9";

#[test]
fn g4_test_vector_from_fen() {
    let pos = position("magi", Some(G4));
    assert_eq!(G4_BLACK_MOVES.split_whitespace().count(), 60);
    assert_eq!(legal(&pos), sorted(G4_BLACK_MOVES));
    // Only f4 can be taken (by e5), so only f4 is kept and written.
    assert_eq!(ep_field(&pos), "f4");
    // 13... e5xf4 e.p. removes f5; 14.Nh3xf4 recaptures.
    let after = play(&pos, "e5f4");
    assert_eq!(piece_on(&after, "f4"), Some('p'));
    assert_eq!(piece_on(&after, "f5"), None);
    assert_eq!(piece_on(&after, "e5"), None);
    assert!(legal(&after).contains(&"h3f4".to_string()));
}

#[test]
fn g4_test_vector_reached_by_play() {
    let before = position("magi", Some(G4_BEFORE));
    let after = play(&before, "f2f5");
    assert_eq!(legal(&after), sorted(G4_BLACK_MOVES));
    assert_eq!(board(&after), board(&position("magi", Some(G4))));
    assert_eq!(after.hash(), position("magi", Some(G4)).hash());
}

// ---- §2.3 First moves ----

/// The 38 moves of the start position (RULES.md §2.1): 22 pawn (b2, c2, e2, f2, h2, i2 go
/// 1–3; d3, g3 go 1–2; a2, j2 are blocked by the Dukes, d2, g2 by the d3/g3 pawns),
/// 10 Duke, 4 Wizard (f3, h3 as a knight, e3, i3 as an alfil), 2 Knight.
#[test]
fn start_position_moves() {
    let start = position("magi", None);
    assert_eq!(
        legal(&start),
        sorted(
            "b2b3 b2b4 b2b5 c2c3 c2c4 c2c5 e2e3 e2e4 e2e5 f2f3 f2f4 f2f5 \
             h2h3 h2h4 h2h5 i2i3 i2i4 i2i5 d3d4 d3d5 g3g4 g3g5 \
             a3a4 a3a5 a3a6 a3b3 a3c3 j3j4 j3j5 j3j6 j3i3 j3h3 \
             g1f3 g1h3 g1e3 g1i3 b1c3 i1h3"
        )
    );
    // Black's d8/g8 pawns likewise go 1–2, its rank-9 pawns 1–3.
    let black = play(&start, "a3a4");
    assert_eq!(moves_from(&black, "d8"), sorted("d8d7 d8d6"));
    assert_eq!(moves_from(&black, "g8"), sorted("g8g7 g8g6"));
    assert_eq!(moves_from(&black, "e9"), sorted("e9e8 e9e7 e9e6"));
}

#[test]
fn a_blocked_rank_2_pawn_keeps_its_three_square_first_move() {
    // The a2 pawn is blocked by the Duke; once the Duke steps aside it goes 1–3.
    let start = position("magi", None);
    assert_eq!(moves_from(&start, "a2"), Vec::<String>::new());
    let pos = play_all(&start, "a3b3 e9e8");
    assert_eq!(moves_from(&pos, "a2"), sorted("a2a3 a2a4 a2a5"));
    // d2 behind the d3 pawn: once that pawn has left the file (d3-d4, d4xe5), d2 goes 1–3
    // (G2's d2-d5).
    let pos = play_all(&start, "d3d4 e9e6 a3a4 e6e5 d4e5 a8b8");
    assert_eq!(moves_from(&pos, "d2"), sorted("d2d3 d2d4 d2d5"));
}

#[test]
fn a_pawn_arriving_on_d3_gets_one_step() {
    // Reached by play: the original d3 pawn leaves (d3-d4xe5), the d2 pawn steps to d3.
    let start = position("magi", None);
    let pos = play_all(&start, "d3d4 e9e6 a3a4 e6e5 d4e5 a8b8 d2d3 b8c8");
    // d4 and d5 are empty, yet only one step: this pawn has moved.
    assert_eq!(moves_from(&pos, "d3"), sorted("d3d4"));
    // The FEN says which tracked pawns are unmoved, since the default (every pawn on d3,
    // g3, d8, g8) would be wrong.
    assert!(
        pos.to_fen().ends_with(" unmoved=g3,d8,g8"),
        "{}",
        pos.to_fen()
    );
    let reread = position("magi", Some(&pos.to_fen()));
    assert_eq!(moves_from(&reread, "d3"), sorted("d3d4"));
    assert_eq!(reread.hash(), pos.hash());

    // A capturer arriving on d3: Nxd3 removes the original pawn, c2xd3 recaptures.
    let pos = magi("Kf1 Pd3 Pc2 kf10 ne5", "b");
    let pos = play_all(&pos, "e5d3 c2d3 f10f9");
    assert_eq!(moves_from(&pos, "d3"), sorted("d3d4"));
    assert!(pos.to_fen().ends_with(" unmoved=-"), "{}", pos.to_fen());
}

#[test]
fn the_unmoved_fen_field_decides_the_d3_pawns_range() {
    let with = |state: &str| magi_with("Kf1 Pd3 Pg3 kf10", &format!("w - - 0 1{state}"));
    // Left out: every pawn on d3/g3 is unmoved.
    assert_eq!(moves_from(&with(""), "d3"), sorted("d3d4 d3d5"));
    assert_eq!(moves_from(&with(" unmoved=d3"), "d3"), sorted("d3d4 d3d5"));
    assert_eq!(moves_from(&with(" unmoved=d3"), "g3"), sorted("g3g4"));
    assert_eq!(moves_from(&with(" unmoved=-"), "d3"), sorted("d3d4"));
    assert_eq!(moves_from(&with(" unmoved=g3"), "g3"), sorted("g3g4 g3g5"));
}

#[test]
fn multi_step_pawns_cannot_jump() {
    // e2 with a piece on e4: only e3. With a piece on e3: nothing. (Bishops there attack
    // neither f1 nor the pawn's path.)
    let pos = magi("Kf1 Pe2 kf10 be4", "w");
    assert_eq!(moves_from(&pos, "e2"), sorted("e2e3"));
    let pos = magi("Kf1 Pe2 kf10 be3", "w");
    assert_eq!(moves_from(&pos, "e2"), Vec::<String>::new());
    // With e5 occupied: e3 and e4.
    let pos = magi("Kf1 Pe2 kf10 be5", "w");
    assert_eq!(moves_from(&pos, "e2"), sorted("e2e3 e2e4"));
}

#[test]
fn a_pawn_checking_by_a_triple_step_can_be_taken_en_passant() {
    // f2-f5 checks the King on e6 (a White pawn on f5 attacks e6 and g6). Targets f3 and
    // f4; the Black pawn on g5 attacks f4 (and h4), nothing attacks f3.
    let pos = magi("Kf1 Pf2 ke6 pg5", "w");
    let after = play(&pos, "f2f5");
    assert!(after.in_check());
    assert_eq!(ep_field(&after), "f4");
    // Out of check: take f5 e.p. (g5xf4), capture it with the King, or step to any other
    // neighbour of e6 (f5 attacks only e6 and g6). g5-g4 leaves the King in check.
    assert_eq!(
        legal(&after),
        sorted("g5f4 e6f5 e6d5 e6d6 e6d7 e6e5 e6e7 e6f6 e6f7")
    );
    let ep = play(&after, "g5f4");
    assert!(!ep.in_check());
}

// ---- §2.4 Castling ----

#[test]
fn castling_moves_the_king_three_squares_on_both_wings_for_both_colours() {
    let white = magi_with("Kf1 Ra1 Rj1 kf10 ra10 rj10", "w KQkq - 0 1");
    let castles = castles_in(&white, "f1");
    assert_eq!(castles, sorted("f1c1 f1i1"));
    let king_side = play(&white, "f1i1");
    assert!(
        board(&king_side).ends_with("/R6RK1"),
        "{}",
        board(&king_side)
    );
    assert!(king_side.to_fen().contains(" b kq "));
    let queen_side = play(&white, "f1c1");
    assert!(
        board(&queen_side).ends_with("/2KR5R"),
        "{}",
        board(&queen_side)
    );
    assert!(queen_side.to_fen().contains(" b kq "));

    let black = play(&white, "a1a2");
    assert_eq!(castles_in(&black, "f10"), sorted("f10c10 f10i10"));
    let king_side = play(&black, "f10i10");
    assert!(
        board(&king_side).starts_with("r6rk1/"),
        "{}",
        board(&king_side)
    );
    assert!(king_side.to_fen().contains(" w K "));
    let queen_side = play(&black, "f10c10");
    assert!(
        board(&queen_side).starts_with("2kr5r/"),
        "{}",
        board(&queen_side)
    );
}

fn castles_in(pos: &AnyPosition, king: &str) -> Vec<String> {
    moves_from(pos, king)
        .into_iter()
        .filter(|m| (m.as_bytes()[0] as i32 - m.as_bytes()[king.len()] as i32).abs() == 3)
        .collect()
}

#[test]
fn castling_needs_the_squares_between_empty() {
    // Kingside g1 h1 i1, queenside b1 c1 d1 e1: one piece on any of them stops that side.
    for (blocker, expected) in [
        ("Ng1", "f1c1"),
        ("Nh1", "f1c1"),
        ("Ni1", "f1c1"),
        ("Nb1", "f1i1"),
        ("Nc1", "f1i1"),
        ("Nd1", "f1i1"),
        ("Ne1", "f1i1"),
    ] {
        let pos = magi_with(&format!("Kf1 Ra1 Rj1 kf10 {blocker}"), "w KQ - 0 1");
        assert_eq!(castles_in(&pos, "f1"), sorted(expected), "{blocker}");
    }
}

/// RULES.md §2.4: the King's squares (f, g, h, i / f, e, d, c) must not be attacked; b1
/// and the Rooks may be. The attacker is a Rook on the attacked square's file.
#[test]
fn castling_out_of_through_and_into_check() {
    let cases = [
        (None, "f1c1 f1i1"),
        (Some("f"), ""),
        (Some("g"), "f1c1"),
        (Some("h"), "f1c1"),
        (Some("i"), "f1c1"),
        (Some("j"), "f1c1 f1i1"),
        (Some("e"), "f1i1"),
        (Some("d"), "f1i1"),
        (Some("c"), "f1i1"),
        (Some("b"), "f1c1 f1i1"),
        (Some("a"), "f1c1 f1i1"),
    ];
    for (file, expected) in cases {
        let white = castles_with_attacker("magi", true, file.map(|f| format!("r{f}6")).as_deref());
        assert_eq!(white, sorted(expected), "White, attacker on {file:?}6");
        let black_expected = expected.replace('1', "10");
        let black = castles_with_attacker("magi", false, file.map(|f| format!("R{f}5")).as_deref());
        assert_eq!(
            black,
            sorted(&black_expected),
            "Black, attacker on {file:?}5"
        );
    }
}

// ---- §2.3 Promotion ----

#[test]
fn promotion_to_each_of_q_d_r_b_n_c_w() {
    let pos = magi("Ka1 Pe9 rd10 kj10", "w");
    // Push and capture, each to the seven pieces; never to K or P.
    let pieces = ["q", "d", "r", "b", "n", "c", "w"];
    let expected: Vec<String> = pieces
        .iter()
        .flat_map(|p| [format!("e9e10{p}"), format!("e9d10{p}")])
        .collect();
    let mut expected = expected;
    expected.sort();
    assert_eq!(moves_from(&pos, "e9"), expected);
    for p in pieces {
        let next = play(&pos, &format!("e9e10{p}"));
        let upper = p.to_ascii_uppercase().chars().next().unwrap();
        assert_eq!(piece_on(&next, "e10"), Some(upper));
        assert_eq!(piece_on(&next, "e9"), None);
        let next = play(&pos, &format!("e9d10{p}"));
        assert_eq!(piece_on(&next, "d10"), Some(upper));
    }
    // Black promotes on rank 1.
    let pos = magi("Ka10 kj1 pe2", "b");
    assert_eq!(
        moves_from(&pos, "e2"),
        sorted("e2e1q e2e1d e2e1r e2e1b e2e1n e2e1c e2e1w")
    );
    assert_eq!(piece_on(&play(&pos, "e2e1w"), "e1"), Some('w'));
}

// ---- §2.5 Mode 1: the orthodox end of the game ----

fn outcome_of(pos: &AnyPosition, hashes: &[u64]) -> Option<Outcome> {
    with_position!(pos, p => outcome(p, hashes))
}

fn game_outcome(game: &Game) -> Option<Outcome> {
    outcome_of(game.position(), game.hashes())
}

#[test]
fn wizard_alfil_leap_mates() {
    // W e7-c8 checks a10 with an alfil leap over b9. a9 (pawn), b9, b10 (Rooks) box the
    // King in; none of them attacks c8, and a leap cannot be blocked.
    let pos = magi("Kf1 We7 ka10 pa9 rb9 rb10", "w");
    let mated = play(&pos, "e7c8");
    assert!(legal(&mated).is_empty());
    assert_eq!(
        outcome_of(&mated, &[mated.hash()]),
        Some(Outcome::Win(magus::board::Color::White, Reason::Checkmate))
    );
}

#[test]
fn stalemate_is_a_draw() {
    // King a10: a9 is attacked by the Wizard on c10 (knight leap), b9 by the King on c8,
    // b10 by the Wizard's wazir step; a10 itself is not attacked.
    let pos = magi("Kc8 Wc10 ka10", "b");
    assert!(legal(&pos).is_empty());
    assert!(!pos.in_check());
    assert_eq!(
        outcome_of(&pos, &[pos.hash()]),
        Some(Outcome::Draw(Reason::Stalemate))
    );
}

#[test]
fn threefold_repetition_with_wizards() {
    let start = position("magi", None);
    let shuffle = ["g1f3", "g10f8", "f3g1", "f8g10"];
    let mut moves: Vec<&str> = shuffle.to_vec();
    let game = Game::from_moves(start, &moves, 1).unwrap();
    assert_eq!(game_outcome(&game), None, "the start position occurs twice");
    moves.extend(shuffle);
    let game = Game::from_moves(start, &moves, 1).unwrap();
    assert_eq!(game_outcome(&game), Some(Outcome::Draw(Reason::Repetition)));
}

#[test]
fn fifty_move_rule() {
    let pos = magi_with("Kf1 Ra1 kf10 pj9", "w - - 99 70");
    let hashes = |p: &AnyPosition| vec![p.hash()];
    assert_eq!(outcome_of(&pos, &hashes(&pos)), None);
    let quiet = play(&pos, "a1a2");
    assert_eq!(
        outcome_of(&quiet, &hashes(&quiet)),
        Some(Outcome::Draw(Reason::FiftyMoves))
    );
    let pawn = play(&play(&pos, "a1a2"), "j9j8");
    assert_eq!(outcome_of(&pawn, &hashes(&pawn)), None);
}

#[test]
fn insufficient_material() {
    let draw = |pieces: &str| {
        let pos = magi(pieces, "w");
        outcome_of(&pos, &[pos.hash()])
    };
    let dead = Some(Outcome::Draw(Reason::InsufficientMaterial));
    assert_eq!(draw("Kf1 kf10"), dead);
    assert_eq!(draw("Kf1 Ne4 kf10"), dead);
    assert_eq!(draw("Kf1 kf10 be4"), dead);
    // The Wizard, Duke and Cardinal are not listed as unable to mate.
    assert_eq!(draw("Kf1 We4 kf10"), None);
    assert_eq!(draw("Kf1 De4 kf10"), None);
    assert_eq!(draw("Kf1 Ce4 kf10"), None);
    assert_eq!(draw("Kf1 Pe4 kf10"), None);
}
