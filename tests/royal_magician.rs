//! Royal Magician's Chess (shared RULES.md §4): the drop schedule, legality after the move
//! and its drop, reserves in FEN and hash, and the reference perft counts.
//!
//! Expected move lists are written out by hand; where a list holds drops, the drop squares
//! are every empty square after the carrier's move (`empty_after`, read from the FEN text by
//! this file, not by the engine) times the pieces the schedule allows. `reference.rs` is an
//! independent naive generator that the engine is also compared with, move by move.
//!
//! Run: `cargo test --release --test royal_magician`. The two long counts (`#[ignore]`d, some
//! minutes) run in CI's longer job, `.ci/long-tests`; the cheaper tests beside them reach the
//! same drops from nearer positions and run every time.

/// The FEN row writer the reference models share.
mod common;
/// Shared with random_play, which also reads the FEN fields this file does not.
#[path = "royal_magician/reference.rs"]
#[allow(dead_code)]
mod reference;

use std::collections::BTreeSet;
use std::sync::OnceLock;

use magus::board::{Color, Position};
use magus::game::AnyPosition;
use magus::game::outcome::{Outcome, Reason, outcome};
use magus::movegen::MoveList;
use magus::protocol::notation;
use magus::variant::{Registry, Variant, parse_variant};
use reference::Reference;

fn variant() -> &'static Variant {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY
        .get_or_init(Registry::builtin)
        .get("royal-magician")
        .expect("royal-magician is built in")
}

fn pos(fen: &str) -> AnyPosition {
    AnyPosition::from_fen(variant(), Some(fen)).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn small(p: &AnyPosition) -> Position<u64> {
    match p {
        AnyPosition::Small(p) => *p,
        AnyPosition::Large(_) => panic!("royal-magician is 8x8"),
    }
}

fn fen_error(fen: &str) -> String {
    match AnyPosition::from_fen(variant(), Some(fen)) {
        Ok(_) => panic!("{fen}: accepted, expected an error"),
        Err(e) => e,
    }
}

fn play(p: &AnyPosition, moves: &[&str]) -> AnyPosition {
    moves.iter().fold(*p, |p, m| {
        p.after_wire(m, 1)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", p.to_fen()))
            .0
    })
}

/// The empty squares of a FEN's board after a piece moved from `from` to `to`.
fn empty_after(fen: &str, from: &str, to: &str) -> Vec<String> {
    let placement = fen.split(['[', ' ']).next().unwrap();
    let mut empty = Vec::new();
    for (i, row) in placement.split('/').enumerate() {
        let rank = 8 - i;
        let mut file = 0u8;
        for c in row.chars() {
            let run = c.to_digit(10).unwrap_or(0) as u8;
            for f in file..file + run {
                empty.push(format!("{}{rank}", (b'a' + f) as char));
            }
            file += run.max(1);
        }
    }
    empty.push(from.to_string());
    empty.retain(|s| s != to);
    empty
}

/// The moves `mv` with a drop of each of `pieces` on each of `squares`.
fn drops(mv: &str, pieces: &str, squares: &[String]) -> Vec<String> {
    pieces
        .chars()
        .flat_map(|p| squares.iter().map(move |sq| format!("{mv},{p}@{sq}")))
        .collect()
}

fn names(list: &str) -> Vec<String> {
    list.split_whitespace().map(str::to_string).collect()
}

fn assert_moves(fen: &str, expected: &[String]) {
    let got: BTreeSet<String> = pos(fen).legal_moves_wire(1).into_iter().collect();
    let want: BTreeSet<String> = expected.iter().cloned().collect();
    assert_eq!(
        want.len(),
        expected.len(),
        "{fen}: the expected list repeats a move"
    );
    let missing: Vec<_> = want.difference(&got).collect();
    let extra: Vec<_> = got.difference(&want).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{fen}: missing {missing:?}, unexpected {extra:?}"
    );
}

/// The engine's and the reference generator's legal moves are the same set.
fn assert_matches_reference(fen: &str) {
    let engine: BTreeSet<String> = pos(fen).legal_moves_wire(1).into_iter().collect();
    let naive: BTreeSet<String> = Reference::from_fen(fen)
        .legal_moves()
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    assert_eq!(engine, naive, "{fen}: engine and reference differ");
}

// ---- the reference counts ----

/// shared/oracle/perft-suite.txt: `royal-magician ; startpos ; 1=20 2=400 3=8682 4=187933`.
#[test]
fn oracle_start_position_depths_1_to_4() {
    let start = AnyPosition::from_fen(variant(), None).unwrap();
    for (depth, nodes) in [(1, 20), (2, 400), (3, 8682), (4, 187_933)] {
        assert_eq!(start.perft(depth), nodes, "perft {depth}");
    }
}

/// Regression counts. No carrier can reach its 4th rank before ply 7 (a pawn must first
/// make way, then three steps), so depths 5 and 6 count the Magician as a King-stepper and no
/// drop; depth 7 is the first with drops (ignored by default: about 30 s; see below).
#[test]
fn start_position_depths_5_and_6() {
    let start = AnyPosition::from_fen(variant(), None).unwrap();
    assert_eq!(start.perft(5), 4_408_335);
    assert_eq!(start.perft(6), 102_867_174);
}

#[test]
#[ignore = "about 30 s in release: run by .ci/long-tests"]
fn start_position_depth_7_with_the_first_drops() {
    let start = AnyPosition::from_fen(variant(), None).unwrap();
    assert_eq!(start.perft(7), 2_606_915_718);
}

/// The first drops of a game, cheaply: from positions 3 or 4 plies into the lines where a
/// carrier first reaches its 4th rank, counted to the ply of that drop (ply 7 for White's
/// King and Magician, ply 8 for Black's King), each count the reference generator's too.
#[test]
fn the_first_drops_of_a_game_agree_with_the_reference() {
    let start = AnyPosition::from_fen(variant(), None).unwrap();
    for (line, depth, nodes) in [
        // 3.Ke3 then 4.Kd4/Kf4 with a drop.
        (&["e2e4", "a7a6", "e1e2"][..], 4, 351_298),
        // 3.Md3 then 4.Mc4/Me4 with a drop.
        (&["d2d4", "a7a6", "d1d2"][..], 4, 393_941),
        // 3...Kd6 then 4...Kc5/Ke5 with a drop.
        (&["a2a3", "d7d5", "a3a4", "e8d7"][..], 4, 413_943),
    ] {
        let p = play(&start, line);
        let fen = p.to_fen();
        assert_eq!(p.perft(depth), nodes, "{line:?}: perft {depth}");
        assert_eq!(
            Reference::from_fen(&fen).perft(depth),
            nodes,
            "{line:?}: the reference's perft {depth}"
        );
    }
}

/// The benchmark position of docs/royal-magician.md: White's King (e3) and Magician (d3)
/// are each one step from their 4th rank.
const BENCH: &str = "rnbmkbnr/pppppppp/8/8/4P3/3MK3/PPPP1PPP/RNB2BNR w kq - 0 4";

#[test]
fn both_carriers_one_step_from_a_trigger_regression_counts() {
    let p = pos(BENCH);
    for (depth, nodes) in [(1, 279), (2, 5_319), (3, 1_047_350), (4, 20_600_453)] {
        assert_eq!(p.perft(depth), nodes, "perft {depth}");
    }
    assert_eq!(Reference::from_fen(BENCH).perft(3), 1_047_350);
}

#[test]
#[ignore = "the benchmark itself: a minute or more in release: run by .ci/long-tests"]
fn both_carriers_one_step_from_a_trigger_depth_5() {
    assert_eq!(pos(BENCH).perft(5), 3_541_043_978);
}

/// The benchmark position one move later, after the King's or the Magician's first drop:
/// to depth 3 the carrier that dropped reaches its 5th rank and drops again, the other
/// drops for the first time; each count the reference generator's too.
#[test]
fn both_carriers_after_a_first_drop_agree_with_the_reference() {
    for (line, nodes) in [
        (&["e3f4,n@c5", "a7a6"][..], 642_974),
        (&["d3d4,b@h6", "a7a6"][..], 640_121),
    ] {
        let p = play(&pos(BENCH), line);
        let fen = p.to_fen();
        assert_eq!(p.perft(3), nodes, "{line:?}: perft 3");
        assert_eq!(
            Reference::from_fen(&fen).perft(3),
            nodes,
            "{line:?}: the reference's perft 3"
        );
    }
}

// ---- the first positions where a trigger fires (ply 7) ----

/// 1.e4 a6 2.Ke2 a5 3.Ke3 a4: White's King on e3 fires its 4th-rank drop on d4 or f4 (e4
/// holds its pawn; nothing of Black's attacks d4 or f4).
/// 29 moves without a drop: pawns b-d, f-h one or two steps (12), a2a3 (a4 is Black's)
/// and e4e5; Knights b1a3 b1c3 g1e2 g1f3 g1h3; Bishop f1e2 f1d3 f1c4 f1b5 f1a6; Magician
/// d1e1 d1e2; King e3d3 e3f3 e3e2. Then 2 trigger moves x 2 pieces (B, N) x 32 empty
/// squares (the 32 of the board; e3 frees one and d4/f4 fills one) = 128. In all 157.
#[test]
fn first_king_trigger_every_empty_square_times_bishop_and_knight() {
    let fen = "rnbmkbnr/1ppppppp/8/8/p3P3/4K3/PPPP1PPP/RNBM1BNR w kq - 0 4";
    let start = AnyPosition::from_fen(variant(), None).unwrap();
    let reached = play(&start, &["e2e4", "a7a6", "e1e2", "a6a5", "e2e3", "a5a4"]);
    assert_eq!(
        reached.to_fen(),
        "rnbmkbnr/1ppppppp/8/8/p3P3/4K3/PPPP1PPP/RNBM1BNR[KBNR,MBNR,kbnr,mbnr] w kq - 0 4"
    );
    assert_eq!(pos(fen).to_fen(), reached.to_fen());
    let mut expected = names(
        "a2a3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4 e4e5
         b1a3 b1c3 g1e2 g1f3 g1h3 f1e2 f1d3 f1c4 f1b5 f1a6 d1e1 d1e2 e3d3 e3f3 e3e2",
    );
    for to in ["d4", "f4"] {
        let squares = empty_after(fen, "e3", to);
        assert_eq!(squares.len(), 32);
        expected.extend(drops(&format!("e3{to}"), "bn", &squares));
    }
    assert_eq!(expected.len(), 157);
    assert_moves(fen, &expected);
    assert_eq!(pos(fen).perft(1), 157);
    assert_matches_reference(fen);
}

/// 1.d4 a6 2.Md2 a5 3.Md3 a4: White's Magician on d3 fires on c4 or e4.
/// 29 moves without a drop: pawns b-c, e-h one or two steps (12), a2a3 (a4 is Black's)
/// and d4d5; Knights b1a3 b1c3 b1d2 g1f3 g1h3; Bishop c1d2 c1e3 c1f4 c1g5 c1h6; King e1d1
/// e1d2; Magician d3c3 d3e3 d3d2. Then 2 trigger moves x 2 pieces x 32 empty squares =
/// 128. In all 157.
#[test]
fn first_magician_trigger_every_empty_square_times_bishop_and_knight() {
    let fen = "rnbmkbnr/1ppppppp/8/8/p2P4/3M4/PPP1PPPP/RNB1KBNR w KQkq - 0 4";
    let start = AnyPosition::from_fen(variant(), None).unwrap();
    let reached = play(&start, &["d2d4", "a7a6", "d1d2", "a6a5", "d2d3", "a5a4"]);
    assert_eq!(reached.to_fen(), pos(fen).to_fen());
    let mut expected = names(
        "a2a3 b2b3 b2b4 c2c3 c2c4 e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4 d4d5
         b1a3 b1c3 b1d2 g1f3 g1h3 c1d2 c1e3 c1f4 c1g5 c1h6 e1d1 e1d2 d3c3 d3e3 d3d2",
    );
    for to in ["c4", "e4"] {
        expected.extend(drops(&format!("d3{to}"), "bn", &empty_after(fen, "d3", to)));
    }
    assert_eq!(expected.len(), 157);
    assert_moves(fen, &expected);
    assert_matches_reference(fen);
}

/// Black's 4th rank is the 5th: 1.a3 e5 2.a4 Ke7 3.a5 Ke6 4.a6, and Black's King on e6
/// fires on d5 or f5. 29 moves without a drop: pawns b7b6 b7b5 b7a6, c-d and f-h one or
/// two steps (10), e5e4; Knights b8a6 b8c6 g8e7 g8f6 g8h6; Bishop f8e7 f8d6 f8c5 f8b4
/// f8a3; Magician d8e8 d8e7; King e6d6 e6f6 e6e7. Then 2 x 2 x 32 = 128. In all 157.
#[test]
fn black_fires_on_its_own_relative_rank() {
    let fen = "rnbm1bnr/pppp1ppp/P3k3/4p3/8/8/1PPPPPPP/RNBMKBNR b KQ - 0 4";
    let start = AnyPosition::from_fen(variant(), None).unwrap();
    let reached = play(
        &start,
        &["a2a3", "e7e5", "a3a4", "e8e7", "a4a5", "e7e6", "a5a6"],
    );
    assert_eq!(reached.to_fen(), pos(fen).to_fen());
    let mut expected = names(
        "b7b6 b7b5 b7a6 c7c6 c7c5 d7d6 d7d5 f7f6 f7f5 g7g6 g7g5 h7h6 h7h5 e5e4
         b8a6 b8c6 g8e7 g8f6 g8h6 f8e7 f8d6 f8c5 f8b4 f8a3 d8e8 d8e7 e6d6 e6f6 e6e7",
    );
    for to in ["d5", "f5"] {
        expected.extend(drops(&format!("e6{to}"), "bn", &empty_after(fen, "e6", to)));
    }
    assert_eq!(expected.len(), 157);
    assert_moves(fen, &expected);
    assert_matches_reference(fen);
}

/// Each carrier drops from its own reserve: White's King already dropped its Knight on the
/// 4th rank, so its 5th-rank arrival drops the Bishop only; the Magician still offers B or N.
/// King e4: d5 e5 f5 fire (B, 61 squares each: 3 men on the board); d4 f4 e3 f3 do not.
/// Magician d3: c4 d4 fire (B or N, 61 squares each); c2 d2 e2 c3 e3 do not.
/// 3 x 61 + 2 x 2 x 61 + 4 + 5 = 436.
#[test]
fn reserves_are_per_carrier() {
    let fen = "4k3/8/8/8/4K3/3M4/8/8[KBR,MBNR] w - - 0 1";
    let mut expected = names("e4d4 e4f4 e4e3 e4f3 d3c2 d3d2 d3e2 d3c3 d3e3");
    for to in ["d5", "e5", "f5"] {
        expected.extend(drops(&format!("e4{to}"), "b", &empty_after(fen, "e4", to)));
    }
    for to in ["c4", "d4"] {
        expected.extend(drops(&format!("d3{to}"), "bn", &empty_after(fen, "d3", to)));
    }
    assert_eq!(expected.len(), 436);
    assert_moves(fen, &expected);
    assert_matches_reference(fen);
}

// ---- legality is judged after the move and its drop ----

/// White's King steps from e3 onto the 4th rank, which Black's Rook on a4 sweeps: each step
/// is legal only with a drop between the Rook and the King. d4: b4 c4; e4: b4 c4 d4; f4: b4
/// c4 d4 e4; each with B or N. The five steps that stay off the 4th rank need no drop.
#[test]
fn king_may_step_into_a_line_check_that_its_drop_blocks() {
    let fen = "7k/8/8/8/r7/4K3/8/8[KBNR,kbnr] w - - 0 1";
    let mut expected = names("e3d2 e3e2 e3f2 e3d3 e3f3");
    expected.extend(drops("e3d4", "bn", &names("b4 c4")));
    expected.extend(drops("e3e4", "bn", &names("b4 c4 d4")));
    expected.extend(drops("e3f4", "bn", &names("b4 c4 d4 e4")));
    assert_eq!(expected.len(), 23);
    assert_moves(fen, &expected);
    assert_matches_reference(fen);
}

/// A drop blocks lines only: next to Black's Magician (d5) no drop saves the King, so e3d4
/// and e3e4 are gone whatever is dropped; e3f4 still needs a block against the a4 Rook.
#[test]
fn no_drop_saves_a_king_from_a_stepping_attack() {
    let fen = "7k/8/8/3m4/r7/4K3/8/8[KBNR] w - - 0 1";
    let mut expected = names("e3d2 e3e2 e3f2 e3d3 e3f3");
    expected.extend(drops("e3f4", "bn", &names("b4 c4 d4 e4")));
    assert_eq!(expected.len(), 13);
    assert_moves(fen, &expected);
    assert_matches_reference(fen);
}

/// White's Magician on e3 shields its King (e1) from the e8 Rook. Stepping off the file
/// uncovers the King: illegal (d3 f3 d2 f2), unless the step fires a drop that lands on the
/// file between them: d4 and f4 with B or N on e2 e3 (its own origin) e4 e5 e6 e7 (24).
/// Along the file: e2 (no drop) and e4, which fires and may drop anywhere (2 x 60 = 120).
/// The King: d1 d2 e2 f1 f2. In all 5 + 1 + 120 + 24 = 150.
#[test]
fn magician_may_uncover_its_king_if_the_drop_blocks() {
    let fen = "4r2k/8/8/8/8/4M3/8/4K3[KBNR,MBNR] w - - 0 1";
    let mut expected = names("e1d1 e1d2 e1e2 e1f1 e1f2 e3e2");
    let squares = empty_after(fen, "e3", "e4");
    assert_eq!(squares.len(), 60);
    expected.extend(drops("e3e4", "bn", &squares));
    for to in ["d4", "f4"] {
        expected.extend(drops(&format!("e3{to}"), "bn", &names("e2 e3 e4 e5 e6 e7")));
    }
    assert_eq!(expected.len(), 150);
    assert_moves(fen, &expected);
    assert_matches_reference(fen);
}

/// Black's Rook on e8 checks White's King on e1. The Magician (c3) cannot block by moving,
/// but its steps to b4 c4 d4 fire a drop, which may interpose on e2..e7: 3 x 2 x 6 = 36.
/// The King's own steps off the file: d1 d2 f1 f2. In all 40.
#[test]
fn check_answered_by_a_triggered_drop() {
    let fen = "k3r3/8/8/8/8/2M5/8/4K3[KBNR,MBNR] w - - 0 1";
    assert!(pos(fen).in_check());
    let mut expected = names("e1d1 e1d2 e1f1 e1f2");
    for to in ["b4", "c4", "d4"] {
        expected.extend(drops(&format!("c3{to}"), "bn", &names("e2 e3 e4 e5 e6 e7")));
    }
    assert_eq!(expected.len(), 40);
    assert_moves(fen, &expected);
    assert_matches_reference(fen);
}

/// The King (e3) in check from the a7 Bishop answers with its own trigger: along the
/// diagonal to d4 only with a drop on b6 or c5; off it, to e4 or f4, with any drop (2 x 61
/// each). Without a drop: d2 e2 d3 f3; f2 stays on the diagonal. 4 + 4 + 244 = 252.
#[test]
fn king_in_check_answers_with_its_own_drop() {
    let fen = "k7/b7/8/8/8/4K3/8/8[KBNR] w - - 0 1";
    assert!(pos(fen).in_check());
    let mut expected = names("e3d2 e3e2 e3d3 e3f3");
    expected.extend(drops("e3d4", "bn", &names("b6 c5")));
    for to in ["e4", "f4"] {
        expected.extend(drops(&format!("e3{to}"), "bn", &empty_after(fen, "e3", to)));
    }
    assert_eq!(expected.len(), 252);
    assert_moves(fen, &expected);
    assert_matches_reference(fen);
}

// ---- what a drop does ----

/// White's King (e5) has only its Rook left, due on the 6th rank. Stepping to d6 or e6
/// (not f6: the g7 pawn) drops it; on a8..f8 it mates the King boxed in by g7/h7 (12
/// mates). The other steps d4 e4 f4 d5 f5 drop nothing. 2 x 60 + 5 = 125 moves.
#[test]
fn a_drop_may_mate() {
    let fen = "7k/6pp/8/4K3/8/8/8/8[KR] w - - 0 1";
    let mut expected = names("e5d4 e5e4 e5f4 e5d5 e5f5");
    for to in ["d6", "e6"] {
        expected.extend(drops(&format!("e5{to}"), "r", &empty_after(fen, "e5", to)));
    }
    assert_eq!(expected.len(), 125);
    assert_moves(fen, &expected);
    assert_matches_reference(fen);

    let p = pos(fen);
    let mates: BTreeSet<String> = p
        .legal_moves_wire(1)
        .into_iter()
        .filter(|m| {
            let next = p.after_wire(m, 1).unwrap().0;
            next.in_check() && next.legal_moves_wire(1).is_empty()
        })
        .collect();
    let mut expected_mates = BTreeSet::new();
    for to in ["d6", "e6"] {
        for sq in ["a8", "b8", "c8", "d8", "e8", "f8"] {
            expected_mates.insert(format!("e5{to},r@{sq}"));
        }
    }
    assert_eq!(mates, expected_mates);
    let mated = small(&play(&p, &["e5e6,r@a8"]));
    assert_eq!(
        outcome(&mated, &[mated.hash()]),
        Some(Outcome::Win(magus::board::Color::White, Reason::Checkmate))
    );
}

/// White's King (e5, only its Rook left) takes Black's Magician on d6, arriving on its 6th
/// rank: the capture drops the Rook. Black's Magician reserve goes with it, whatever it
/// held, so the position after is the same, FEN and hash, from either start.
#[test]
fn capturing_the_magician_loses_its_reserve() {
    let full = "4k3/8/3m4/4K3/8/8/8/8[KR,kbnr,mbnr] w - - 0 1";
    let spent = "4k3/8/3m4/4K3/8/8/8/8[KR,kbnr,mr] w - - 0 1";
    assert!(pos(full).in_check(), "the Magician gives check like a King");
    let after_full = play(&pos(full), &["e5d6,r@a1"]);
    let after_spent = play(&pos(spent), &["e5d6,r@a1"]);
    let expected = "4k3/8/3K4/8/8/8/8/R7[kbnr] b - - 0 1";
    assert_eq!(after_full.to_fen(), expected);
    assert_eq!(after_spent.to_fen(), expected);
    assert_eq!(after_full.hash(), after_spent.hash());
    assert_eq!(after_full.hash(), pos(expected).hash());
    let p = small(&after_full);
    assert_eq!(p.hash(), p.compute_hash());
    // Its reserve cannot be written back either.
    let e = fen_error("4k3/8/3K4/8/8/8/8/R7[kbnr,mbnr] b - - 0 1");
    assert!(e.contains("captured"), "{e}");
}

/// Captures-only generation (quiescence) keeps the drops of a capturing carrier move: the
/// King's capture e3xd4 fires its 4th-rank drop (B or N on 62 squares); no quiet move
/// appears, with or without a drop.
#[test]
fn captures_only_generation_expands_capturing_triggers() {
    let fen = "7k/8/8/8/3n4/4K3/8/8[KBNR] w - - 0 1";
    let p = small(&pos(fen));
    let mut list = MoveList::new();
    p.generate_captures(&mut list);
    let got: BTreeSet<String> = list.iter().map(|&m| notation::to_wire(&p, m, 1)).collect();
    let squares = empty_after(fen, "e3", "d4");
    assert_eq!(squares.len(), 62);
    let expected: BTreeSet<String> = drops("e3d4", "bn", &squares).into_iter().collect();
    assert_eq!(got, expected);
}

// ---- triggers fire once ----

/// The King has made its 4th-rank drop (the Knight went; Bishop and Rook are left): back on
/// the 4th rank, or along it, nothing is dropped.
#[test]
fn a_trigger_does_not_fire_twice() {
    assert_moves(
        "4k3/8/8/8/8/4K3/8/8[KBR] w - - 0 1",
        &names("e3d2 e3e2 e3f2 e3d3 e3f3 e3d4 e3e4 e3f4"),
    );
    // Play it: up (drop), down, up again (no drop), along, up (the 5th: B only), up (R).
    let mut p = pos("4k3/8/8/8/8/4K3/8/8[KBNR] w - - 0 1");
    assert!(
        p.after_wire("e3e4", 1).is_err(),
        "the first arrival must drop"
    );
    let steps = [
        ("e3e4,n@a1", "[KBR]"),
        ("e8d8", "[KBR]"),
        ("e4e3", "[KBR]"),
        ("d8e8", "[KBR]"),
        ("e3e4", "[KBR]"),
        ("e8d8", "[KBR]"),
        ("e4d4", "[KBR]"),
        ("d8e8", "[KBR]"),
        ("d4d5,b@h1", "[KR]"),
        ("e8f8", "[KR]"),
        ("d5d4", "[KR]"),
        ("f8e8", "[KR]"),
        ("d4d5", "[KR]"),
        ("e8f8", "[KR]"),
        ("d5d6,r@a2", "[-]"),
        ("f8e8", "[-]"),
        ("d6d5", "[-]"),
        ("e8f8", "[-]"),
        ("d5d6", "[-]"),
    ];
    for (m, reserve) in steps {
        let moves = p.legal_moves_wire(1);
        let plain = !m.contains(',');
        let mover = &m[..4];
        if plain {
            assert!(
                !moves.iter().any(|x| x.starts_with(&format!("{mover},"))),
                "{m} must not drop in {}",
                p.to_fen()
            );
        }
        p = play(&p, &[m]);
        assert!(p.to_fen().contains(reserve), "{m}: {}", p.to_fen());
    }
    assert_eq!(p.to_fen(), "5k2/8/3K4/8/8/8/R7/N6B[-] b - - 19 10");
}

/// A triggering move must drop: written alone it is refused, with the form it needs.
#[test]
fn wire_form_of_a_move_with_its_drop() {
    let p = pos("rnbmkbnr/1ppppppp/8/8/p3P3/4K3/PPPP1PPP/RNBM1BNR w kq - 0 4");
    let e = p.after_wire("e3d4", 1).expect_err("refused");
    assert!(
        matches!(&e, magus::protocol::notation::MoveError::MissingSideEffect(m) if m.contains("e3d4,")),
        "{e}"
    );
    let (next, _) = p.after_wire("e3d4,n@c5", 1).unwrap();
    assert_eq!(
        next.to_fen(),
        "rnbmkbnr/1ppppppp/8/2N5/p2KP3/8/PPPP1PPP/RNBM1BNR[KBR,MBNR,kbnr,mbnr] b kq - 1 4"
    );
    assert!(
        p.after_wire("e3d4,r@c5", 1).is_err(),
        "the Rook waits for the 6th"
    );
    assert!(
        p.after_wire("e3d4,n@e4", 1).is_err(),
        "not on an occupied square"
    );
    assert!(
        p.after_wire("e3d4,n@d4", 1).is_err(),
        "not on the destination"
    );
    assert!(
        p.after_wire("e3d4,n@e3", 1).is_ok(),
        "the vacated origin is empty"
    );
}

// ---- other rules ----

#[test]
fn pawns_promote_to_queen_rook_bishop_knight() {
    let fen = "7k/4P3/8/8/8/8/8/4K3[KBNR] w - - 0 1";
    assert_moves(
        fen,
        &names("e7e8q e7e8r e7e8b e7e8n e1d1 e1d2 e1e2 e1f1 e1f2"),
    );
}

/// Castling as in chess: the queenside needs the Magician's home d1 empty; neither side
/// changes rank, so neither drops.
#[test]
fn castling_as_in_chess() {
    let home = "r2mk2r/pppppppp/8/8/8/8/PPPPPPPP/R2MK2R w KQkq - 0 1";
    let moved = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let castles = |fen: &str| -> Vec<String> {
        let mut c: Vec<String> = pos(fen)
            .legal_moves_wire(1)
            .into_iter()
            .filter(|m| m.starts_with("e1g1") || m.starts_with("e1c1"))
            .collect();
        c.sort();
        c
    };
    assert_eq!(castles(home), names("e1g1"));
    assert_eq!(castles(moved), names("e1c1 e1g1"));
    assert_matches_reference(home);
    assert_matches_reference(moved);
}

#[test]
fn stalemate_draws() {
    let p = small(&pos("7k/5Q2/6K1/8/8/8/8/8[-] b - - 0 1"));
    assert_eq!(
        outcome(&p, &[p.hash()]),
        Some(Outcome::Draw(Reason::Stalemate))
    );
}

/// Bare Kings draw only when no reserve is left: a King with one can still make material.
#[test]
fn insufficient_material_only_without_reserves() {
    let spent = small(&pos("8/8/8/4k3/8/8/8/4K3[-] w - - 0 1"));
    assert_eq!(
        outcome(&spent, &[spent.hash()]),
        Some(Outcome::Draw(Reason::InsufficientMaterial))
    );
    let armed = small(&pos("8/8/8/4k3/8/8/8/4K3[KBNR] w - - 0 1"));
    assert_eq!(outcome(&armed, &[armed.hash()]), None);
}

// ---- FEN and hash ----

/// At every node of a depth-3 walk: the incremental hash equals the recomputed one, and
/// the FEN reads back to the same FEN and hash.
fn walk(p: &Position<u64>, depth: u32) -> u64 {
    assert_eq!(p.hash(), p.compute_hash(), "{}", p.to_fen());
    let fen = p.to_fen();
    let again = Position::from_fen(p.layout(), &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(again.to_fen(), fen);
    assert_eq!(again.hash(), p.hash(), "{fen}");
    if depth == 0 {
        return 1;
    }
    let mut nodes = 1;
    for m in p.legal_moves() {
        let mut next = *p;
        next.play(m);
        nodes += walk(&next, depth - 1);
    }
    nodes
}

#[test]
fn hash_and_fen_round_trip_where_triggers_fire() {
    for fen in [
        BENCH,
        "rnbm1bnr/pppp1ppp/P3k3/4p3/8/8/1PPPPPPP/RNBMKBNR b KQ - 0 4",
        "4k3/8/3m4/4K3/8/8/8/8[KR,kbnr,mbnr] w - - 0 1",
        "4k3/8/8/8/4K3/3M4/8/8[KBR,MBNR] w - - 0 1",
    ] {
        let nodes = walk(&small(&pos(fen)), 3);
        assert!(nodes > 1000, "{fen}: only {nodes} nodes");
    }
}

#[test]
fn reserve_field_reads_and_writes() {
    // Left out, every carrier on the board has its full reserve.
    let start = "rnbmkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR w KQkq - 0 1";
    assert_eq!(
        pos(start).to_fen(),
        "rnbmkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR[KBNR,MBNR,kbnr,mbnr] w KQkq - 0 1"
    );
    assert_eq!(
        pos(start).hash(),
        AnyPosition::from_fen(variant(), None).unwrap().hash()
    );
    // Groups in any order; written White first, King first, pieces in schedule order.
    assert_eq!(
        pos("3mk3/8/8/8/8/8/8/3MK3[mnbr,KRB,kr] w - - 0 1").to_fen(),
        "3mk3/8/8/8/8/8/8/3MK3[KBR,kr,mbnr] w - - 0 1"
    );
    // `[]` and `[-]` both say that nothing is left.
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K3[] w - - 0 1").to_fen(),
        "4k3/8/8/8/8/8/8/4K3[-] w - - 0 1"
    );
    // Each reserve state is its own position.
    let hashes: BTreeSet<u64> = ["[KBNR]", "[KNR]", "[KBR]", "[KR]", "[-]"]
        .iter()
        .map(|r| pos(&format!("4k3/8/8/8/8/8/8/4K3{r} w - - 0 1")).hash())
        .collect();
    assert_eq!(hashes.len(), 5);
}

/// Reserves and trigger progress that contradict each other, or the board, are refused with
/// a message that says what is wrong.
#[test]
fn contradictory_reserves_are_refused() {
    let board = "rnbmkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR";
    let cases = [
        ("[KBN,MBNR,kbnr,mbnr]", "no order of drops"),
        ("[KB,MBNR,kbnr,mbnr]", "no order of drops"),
        ("[KBBR,MBNR,kbnr,mbnr]", "given twice"),
        ("[KBNR,MBNR,kbnrr,mbnr]", "given twice"),
        ("[KBNR,KBNR,kbnr,mbnr]", "second group"),
        ("[Kbnr,MBNR,kbnr,mbnr]", "one case"),
        ("[KQ,MBNR,kbnr,mbnr]", "not a piece of a White reserve"),
        ("[XBNR]", "not a carrier"),
        ("[BNR]", "not a carrier"),
        ("[KBNR,,kbnr]", "empty group"),
        ("[KBNR", "expected '[...]'"),
        ("[KBNR-]", "'-' is not a piece"),
        ("[K\u{e9}]", "not a piece"),
    ];
    for (reserve, wanted) in cases {
        let e = fen_error(&format!("{board}{reserve} w KQkq - 0 1"));
        assert!(e.contains(wanted), "{reserve}: {e}");
    }
    // The refusal spells out the schedule that no order of drops can meet.
    let e = fen_error(&format!("{board}[KBN,MBNR,kbnr,mbnr] w KQkq - 0 1"));
    assert!(
        e.contains("(the schedule: 4th rank: B/N, 5th rank: B/N, 6th rank: R, each piece once)"),
        "{e}"
    );
    // A carrier beyond a trigger rank has made that drop.
    let e = fen_error("4k3/8/8/4K3/8/8/8/8 w - - 0 1");
    assert!(
        e.contains("on e5 stands on its 5th rank, so it dropped on reaching its 4th and 5th ranks, but its reserve still holds BNR"),
        "{e}"
    );
    let e = fen_error("4k3/8/8/8/4K3/8/8/8[KBNR] w - - 0 1");
    assert!(
        e.contains("dropped on reaching its 4th rank, but its reserve still holds BNR"),
        "{e}"
    );
    let e = fen_error("4k3/8/8/4K3/8/8/8/8[KBR] w - - 0 1");
    assert!(
        e.contains("stands on its 5th rank") && e.contains("still holds BR;"),
        "{e}"
    );
    let e = fen_error("4k3/8/8/8/8/3m4/8/4K3 w - - 0 1");
    assert!(e.contains("Black"), "{e}");
    // A Magician's reserve needs its Magician; one Magician per side.
    let e = fen_error("4k3/8/8/8/8/8/8/4K3[KBNR,MBNR] w - - 0 1");
    assert!(e.contains("captured"), "{e}");
    let e = fen_error("4k3/8/8/8/8/8/8/2MMK3 w - - 0 1");
    assert!(e.contains("one at most"), "{e}");
    // Consistent states are accepted: spent, partly spent, and a carrier back from its 6th.
    for fen in [
        "4k3/8/8/4K3/8/8/8/8[KR] w - - 0 1",
        "4k3/8/8/4K3/8/8/8/8[-] w - - 0 1",
        "4k3/8/8/8/4K3/8/8/8[KNR] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3[-] w - - 0 1",
        "4k3/4m3/8/8/8/8/8/4K3[KBNR,mr] w - - 0 1",
    ] {
        pos(fen);
    }
}

/// `[drops]` in a variant file: bad values are refused with the key named.
#[test]
fn variant_file_drop_schedule_is_checked() {
    let text = include_str!("../variants/royal-magician.toml");
    let with = |from: &str, to: &str| {
        assert!(text.contains(from), "{from}");
        text.replace(from, to)
    };
    let cases = [
        (
            with("ranks = [4, 5, 6]", "ranks = [5, 4, 6]"),
            "drops.ranks",
        ),
        (
            with("ranks = [4, 5, 6]", "ranks = [1, 5, 6]"),
            "drops.ranks",
        ),
        (
            with("ranks = [4, 5, 6]", "ranks = [4, 5, 9]"),
            "drops.ranks",
        ),
        (
            with(
                "pieces = [\"BN\", \"BN\", \"R\"]",
                "pieces = [\"BN\", \"R\"]",
            ),
            "drops.pieces",
        ),
        (
            with(
                "pieces = [\"BN\", \"BN\", \"R\"]",
                "pieces = [\"BN\", \"B\", \"R\"]",
            ),
            "drops.pieces",
        ),
        (
            with(
                "pieces = [\"BN\", \"BN\", \"R\"]",
                "pieces = [\"BN\", \"BN\", \"K\"]",
            ),
            "drops.pieces",
        ),
        (
            with(
                "pieces = [\"BN\", \"BN\", \"R\"]",
                "pieces = [\"BN\", \"BX\", \"R\"]",
            ),
            "drops.pieces",
        ),
        (
            with("carriers = \"KM\"", "carriers = \"KP\""),
            "drops.carriers",
        ),
        (
            with("carriers = \"KM\"", "carriers = \"KR\""),
            "drops.carriers",
        ),
        (
            with("carriers = \"KM\"", "carriers = \"KMN\""),
            "drops.carriers",
        ),
        (
            with(
                "promotion_pieces = \"QRBN\"",
                "promotion_pieces = \"QRBNM\"",
            ),
            "drops.carriers",
        ),
        (
            with("ranks = [4, 5, 6]", "ranks = [4, 5, 6]\nextra = 1"),
            "extra",
        ),
    ];
    for (file, key) in cases {
        let e = parse_variant(&file, "test.toml").expect_err(key);
        assert!(e.contains(key), "{key}: {e}");
    }
    assert!(parse_variant(text, "test.toml").is_ok());
}

// ---- the independent reference generator ----

#[test]
fn reference_agrees_at_depth_3_where_triggers_fire() {
    for fen in [
        "rnbmkbnr/1ppppppp/8/8/p3P3/4K3/PPPP1PPP/RNBM1BNR w kq - 0 4",
        "rnbm1bnr/pppp1ppp/P3k3/4p3/8/8/1PPPPPPP/RNBMKBNR b KQ - 0 4",
        "4r2k/8/8/8/8/4M3/8/4K3[KBNR,MBNR] w - - 0 1",
        "k3r3/8/8/8/8/2M5/8/4K3[KBNR,MBNR] w - - 0 1",
        "4k3/8/3m4/4K3/8/8/8/8[KR,kbnr,mbnr] w - - 0 1",
    ] {
        let engine = pos(fen).perft(3);
        assert_eq!(engine, Reference::from_fen(fen).perft(3), "{fen}");
    }
}

/// Random games from the start, compared move list by move list and board and reserve
/// after every move: they go where no hand-made position does (5th and 6th-rank drops,
/// Magicians captured with reserves left, promotions next to dropped pieces).
#[test]
fn reference_agrees_along_random_games() {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next_random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let magicians = |fen: &str| fen.split('[').next().unwrap().matches(['m', 'M']).count();
    let (mut drops_seen, mut rooks_dropped, mut magicians_taken) = (0, 0, 0);
    for _game in 0..60 {
        let mut p = AnyPosition::from_fen(variant(), None).unwrap();
        let mut r = Reference::from_fen(&p.to_fen());
        for _ply in 0..160 {
            let fen = p.to_fen();
            let mut engine = p.legal_moves_wire(1);
            engine.sort();
            let mut naive: Vec<(String, Reference)> = r.legal_moves();
            naive.sort_by(|a, b| a.0.cmp(&b.0));
            let naive_names: Vec<&String> = naive.iter().map(|(m, _)| m).collect();
            assert_eq!(
                engine.iter().collect::<Vec<_>>(),
                naive_names,
                "{fen}: engine and reference differ"
            );
            if engine.is_empty() {
                break;
            }
            let i = (next_random() % engine.len() as u64) as usize;
            let m = &engine[i];
            drops_seen += usize::from(m.contains('@'));
            rooks_dropped += usize::from(m.contains(",r@"));
            p = p.after_wire(m, 1).unwrap().0;
            r = naive.swap_remove(i).1;
            let after = p.to_fen();
            magicians_taken += magicians(&fen) - magicians(&after);
            assert_eq!(
                after.split(' ').next().unwrap(),
                r.board_and_reserve(),
                "after {m} from {fen}"
            );
        }
    }
    assert!(
        drops_seen > 100 && rooks_dropped > 10 && magicians_taken > 10,
        "too little seen: {drops_seen} drops, {rooks_dropped} of them Rooks, {magicians_taken} Magicians taken"
    );
}

/// What each carrier still holds, and how far it has come, as the evaluation reads it.
#[test]
fn carrier_reserves_list_what_each_carrier_has_left() {
    let reserves = |fen: &str, color: Color| -> Vec<(u8, String)> {
        let pos = small(&pos(fen));
        let layout = pos.layout();
        let rule = layout.variant.mechanics.drops.as_ref().expect("drops");
        magus::rules::drops::carrier_reserves(&pos, rule, color)
            .into_iter()
            .map(|(rank, kinds)| {
                let letters = kinds.iter().map(|&k| layout.piece_letter(k, color));
                (rank, letters.collect())
            })
            .collect()
    };
    let start = "rnbmkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR[KBNR,MBNR,kbnr,mbnr] w KQkq - 0 1";
    let full = vec![(0, "BNR".to_string()), (0, "BNR".to_string())];
    assert_eq!(reserves(start, Color::White), full);
    assert_eq!(
        reserves(start, Color::Black),
        vec![(0, "bnr".to_string()); 2]
    );
    // White's King on its 5th rank with the Rook left; Black's Magician on its 4th (a5) with
    // the Bishop dropped; Black's King spent.
    let fen = "4k3/8/8/m3K3/8/8/8/8[KR,mnr] w - - 0 1";
    assert_eq!(reserves(fen, Color::White), vec![(4, "R".to_string())]);
    assert_eq!(
        reserves(fen, Color::Black),
        vec![(0, String::new()), (3, "nr".to_string())]
    );
}

/// Drops and unlimited swap-in in one variant: the drops' state never reads as swaps made,
/// so the FEN has no `swaps=` field (unlimited swaps are not counted).
#[test]
fn drops_with_unlimited_swap_in_write_no_swap_count() {
    let text = include_str!("../variants/royal-magician.toml");
    assert!(text.contains("\n[eval]\n"));
    let with_swaps = text.replacen(
        "\n[eval]\n",
        "\n[swap_in]\nfrom = \"B\"\nto = \"M\"\n\n[eval]\n",
        1,
    );
    let v = parse_variant(&with_swaps, "swaps.toml").unwrap();
    magus::game::check_variant(&v).unwrap();
    let v: &'static Variant = Box::leak(Box::new(v));
    let start = AnyPosition::from_fen(v, Some("7k/8/8/8/3n4/4K3/8/8[KBNR] w - - 0 1")).unwrap();
    // The King's capture on the 4th rank drops a piece: a state slot is now set.
    let drop = start
        .legal_moves_wire(1)
        .into_iter()
        .find(|m| m.starts_with("e3d4,"))
        .expect("e3xd4 drops a piece");
    let after = start.after_wire(&drop, 1).unwrap().0;
    let fen = after.to_fen();
    assert!(!fen.contains("swaps="), "{fen}");
    assert_eq!(AnyPosition::from_fen(v, Some(&fen)).unwrap().to_fen(), fen);
}
