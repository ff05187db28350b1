//! FEN: every position reached to depth 3 from the suite positions round-trips exactly and
//! keeps its incremental hash right; malformed FENs are refused with a message that states
//! the problem, and no input makes the reader panic.

mod common;

use std::any::Any;

use common::{place, play, position, variant};
use magus::board::{Bitboard, Position};
use magus::game::AnyPosition;
use magus::variant::Variant;
use magus::with_position;

const SUITE: &str = include_str!("data/perft-suite.txt");

/// The same position as a concrete `Position<B>` (the width is known from the variant).
fn concrete<B: Bitboard>(any: &AnyPosition) -> Position<B> {
    with_position!(any, p => *(p as &dyn Any)
        .downcast_ref::<Position<B>>()
        .expect("the same variant has the same bitboard width"))
}

/// Checks one node and its subtree: the hash kept incrementally equals the one computed
/// from scratch; the FEN reads back to the same FEN, hash, e.p. victim and legal moves.
fn walk<B: Bitboard>(pos: &Position<B>, depth: u32, variant: &'static Variant) -> u64 {
    let fen = pos.to_fen();
    assert_eq!(
        pos.hash(),
        pos.compute_hash(),
        "incremental hash wrong at {fen}"
    );
    let back = AnyPosition::from_fen(variant, Some(&fen))
        .unwrap_or_else(|e| panic!("{}: own FEN refused: {fen}: {e}", variant.name));
    let back: Position<B> = concrete(&back);
    assert_eq!(back.to_fen(), fen, "FEN changed on reading");
    assert_eq!(back.hash(), pos.hash(), "hash changed on reading {fen}");
    assert_eq!(back.ep_targets(), pos.ep_targets(), "{fen}");
    if pos.ep_targets().any() {
        assert_eq!(back.ep_victim(), pos.ep_victim(), "e.p. victim of {fen}");
    }
    let moves = pos.legal_moves();
    let mut mine: Vec<u32> = moves.iter().map(|m| m.bits()).collect();
    let mut theirs: Vec<u32> = back.legal_moves().iter().map(|m| m.bits()).collect();
    mine.sort();
    theirs.sort();
    assert_eq!(mine, theirs, "legal moves changed on reading {fen}");
    let mut nodes = 1;
    if depth > 0 {
        for &m in &moves {
            let mut next = *pos;
            next.play(m);
            nodes += walk(&next, depth - 1, variant);
        }
    }
    nodes
}

fn round_trip_tree(variant_name: &str, fen: Option<&str>, depth: u32) -> u64 {
    let pos = position(variant_name, fen);
    let v = variant(variant_name);
    match pos {
        AnyPosition::Small(p) => walk(&p, depth, v),
        AnyPosition::Large(p) => walk(&p, depth, v),
    }
}

/// The suite's positions of one variant (`None` for startpos).
fn suite_positions(variant_name: &str) -> Vec<Option<String>> {
    SUITE
        .lines()
        .filter(|l| !l.trim().starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split(';').map(str::trim).collect::<Vec<_>>())
        .filter(|f| f[0] == variant_name)
        .map(|f| (f[1] != "startpos").then(|| f[1].to_string()))
        .collect()
}

/// Every position of the perft suite in `variant` (there are `count`) round-trips to depth 3.
fn suite_round_trips(variant: &str, count: usize) {
    let positions = suite_positions(variant);
    assert_eq!(positions.len(), count, "{variant}");
    for fen in positions {
        round_trip_tree(variant, fen.as_deref(), 3);
    }
}

#[test]
fn chess_suite_positions_round_trip_to_depth_3() {
    suite_round_trips("chess", 7);
}

#[test]
fn magi_start_round_trips_to_depth_3() {
    assert_eq!(suite_positions("magi"), vec![None]);
    round_trip_tree("magi", None, 3);
}

#[test]
fn deathmatch_positions_round_trip_to_depth_3() {
    suite_round_trips("deathmatch", 3);
    // The real start has Bishops: swap-ins happen from ply 1.
    round_trip_tree("deathmatch", None, 3);
    // The legacy rules count swaps in the FEN (swaps=WB).
    round_trip_tree("deathmatch-legacy", None, 3);
}

/// Positions rich in Magi e.p. targets and unmoved flags: the rules' examples with only
/// some targets capturable, the d3 pawn's origin target, the G4 vector.
#[test]
fn magi_en_passant_positions_round_trip() {
    let magi = |pieces: &str, side: &str| format!("{} {side} - - 0 1", place(10, 10, pieces));
    let cases = [
        magi("Kh1 Pc2 kh10 pb4", "w"),
        magi("Kh1 Pc2 kh10 pb5", "w"),
        magi("Kh1 Pc2 kh10 pb3 pb4 pb5", "w"),
        magi("Kf1 Pd3 kf10 pe4", "w"),
        magi("Kf1 Pd3 kf10 pc5", "w"),
        magi("Kh1 Pc6 Pc7 kh10 pd8", "b"),
        magi("Kh1 Pc7 kh10 pd8 pe9", "b"),
        "r1bcqkw2r/ppp3ppbp/d5p1pn/3pn5/3p2P3/3Pp2C2/4P5/D1NPW2N1D/PPP2P1PPP/R3QK1B1R w kq - 0 13"
            .to_string(),
    ];
    for fen in &cases {
        round_trip_tree("magi", Some(fen), 3);
    }
}

/// A regression found by the round trip: after c2-c5 with a Black pawn only on b4, c3 is
/// the only capturable target, so the FEN holds `c3` while the pawn stands on c5, two
/// squares beyond it. The reader must find the pawn there.
#[test]
fn magi_en_passant_target_not_next_to_the_pawn_reads_back() {
    magi_en_passant_reads_back(
        "Kh1 Pc2 kh10 pb4",
        "c2c5",
        "c3",
        "b4c3",
        "7k2/10/10/10/10/10/10/2p7/10/7K2 w",
    );
    // d3-d5 with a Black pawn on e4: only d3 (the origin) is capturable.
    magi_en_passant_reads_back(
        "Kf1 Pd3 kf10 pe4",
        "d3d5",
        "d3",
        "e4d3",
        "5k4/10/10/10/10/10/10/3p6/10/5K4 w",
    );
}

/// After `push` from `pieces`, the FEN names `target` as the e.p. square, reads back to
/// itself, and the capture `take` from the reread position leaves the placement `after`
/// (the pushed pawn gone).
fn magi_en_passant_reads_back(pieces: &str, push: &str, target: &str, take: &str, after: &str) {
    let pos = position(
        "magi",
        Some(&format!("{} w - - 0 1", place(10, 10, pieces))),
    );
    let fen = play(&pos, push).to_fen();
    assert!(fen.contains(&format!(" b - {target} ")), "{fen}");
    let back = position("magi", Some(&fen));
    assert_eq!(back.to_fen(), fen);
    let taken = play(&back, take).to_fen();
    assert!(taken.starts_with(after), "{taken}");
}

#[test]
fn fields_after_the_side_to_move_may_be_left_out() {
    // RULES.md gives the G4 vector as board and side only.
    let pos = position(
        "chess",
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"),
    );
    assert_eq!(
        pos.to_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    );
    let pos = position("chess", Some("4k3/8/8/8/8/8/8/4K3 b -"));
    assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    let pos = position("chess", Some("4k3/8/8/8/8/8/8/4K3 b - -"));
    assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    let pos = position("chess", Some("4k3/8/8/8/8/8/8/4K3 b - - 7"));
    assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/4K3 b - - 7 1");
    let pos = position(
        "magi",
        Some("r1bcqkw2r/ppp3ppbp/d5p1pn/3pn5/3p2P3/3PpP1C2/4P5/D1NPW2N1D/PPP4PPP/R3QK1B1R b"),
    );
    assert_eq!(
        pos.legal_moves_wire(1).len(),
        59,
        "no e.p. without the field"
    );
}

#[test]
fn magi_fen_state_fields_round_trip() {
    // unmoved= is written only when the default (every pawn on d3, g3, d8, g8) is wrong.
    let board = place(10, 10, "Kf1 Pd3 Pg3 kf10 pd8 pg8");
    for state in [
        " unmoved=-",
        " unmoved=d3",
        " unmoved=g3,d8",
        " unmoved=d3,g3,g8",
    ] {
        let fen = format!("{board} w - - 0 1{state}");
        assert_eq!(position("magi", Some(&fen)).to_fen(), fen);
    }
    let all = format!("{board} w - - 0 1 unmoved=d3,g3,d8,g8");
    assert_eq!(
        position("magi", Some(&all)).to_fen(),
        format!("{board} w - - 0 1")
    );
    assert_ne!(
        position("magi", Some(&all)).hash(),
        position("magi", Some(&format!("{board} w - - 0 1 unmoved=-"))).hash()
    );
}

// ---- errors ----

fn error(variant_name: &str, fen: &str) -> String {
    match AnyPosition::from_fen(variant(variant_name), Some(fen)) {
        Ok(p) => panic!(
            "{variant_name} FEN accepted: {fen} (read as {})",
            p.to_fen()
        ),
        Err(e) => e,
    }
}

/// The error contains every one of `facts`.
fn assert_error(variant_name: &str, fen: &str, facts: &[&str]) {
    let e = error(variant_name, fen);
    for fact in facts {
        assert!(e.contains(fact), "error for {fen:?} lacks {fact:?}: {e}");
    }
}

#[test]
fn board_errors() {
    // Wrong number of ranks.
    assert_error(
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["7 ranks", "chess has 8"],
    );
    assert_error(
        "magi",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        &["8 ranks", "magi has 10"],
    );
    // Wrong number of files.
    assert_error(
        "chess",
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["rank 7", "7 files", "chess has 8"],
    );
    assert_error(
        "chess",
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["rank 7", "more than 8 files"],
    );
    // Unknown letters, including another variant's.
    assert_error(
        "chess",
        "rnbqkbnr/pppppppp/8/3x4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["rank 5", "'x'", "not a piece of chess"],
    );
    assert_error(
        "chess",
        "rnbqkbnr/pppppppp/8/3W4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["'W'", "not a piece of chess"],
    );
    assert_error("chess", "4k3/8/8/3*4/8/8/8/4K3 w - - 0 1", &["'*'", "hole"]);
    assert_error("chess", "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", &["reserve"]);
    assert_error("chess", "4k3/8/8/8/8/8/8/8/4K3 w", &["9 ranks"]);
    assert_error("chess", "8/8", &["board and the side to move"]);
    assert_error("chess", "", &["board and the side to move"]);
}

#[test]
fn magi_run_lengths_of_ten() {
    // `10` is one run of ten empty squares in Magi, too many in chess.
    let fen =
        "rnbcqkwbnr/pppppppppp/d2p2p2d/10/10/10/10/D2P2P2D/PPPPPPPPPP/RNBCQKWBNR w KQkq - 0 1";
    assert_eq!(position("magi", Some(fen)).to_fen(), fen);
    assert_error(
        "magi",
        "rnbcqkwbnr/pppppppppp/d2p2p2d/11/10/10/10/D2P2P2D/PPPPPPPPPP/RNBCQKWBNR w KQkq - 0 1",
        &["rank 7", "more than 10 files"],
    );
    assert_error(
        "magi",
        "rnbcqkwbnr/pppppppppp/d2p2p2d/55/10/10/10/D2P2P2D/PPPPPPPPPP/RNBCQKWBNR w KQkq - 0 1",
        &["rank 7", "more than 10 files"],
    );
    assert_error(
        "magi",
        "rnbcqkwbnr/pppppppppp/d2p2p2d/9/10/10/10/D2P2P2D/PPPPPPPPPP/RNBCQKWBNR w KQkq - 0 1",
        &["rank 7", "9 files", "magi has 10"],
    );
    assert_error(
        "magi",
        "rnbcqkwbnr/pppppppppp/d2p2p2d/0/10/10/10/D2P2P2D/PPPPPPPPPP/RNBCQKWBNR w KQkq - 0 1",
        &["rank 7", "run of 0"],
    );
    assert_error(
        "chess",
        "rnbqkbnr/pppppppp/10/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["rank 6", "more than 8 files"],
    );
}

#[test]
fn side_to_move_errors() {
    assert_error(
        "chess",
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
        &["side to move 'x'"],
    );
    assert_error(
        "chess",
        "4k3/8/8/8/8/8/8/4K3 W - - 0 1",
        &["side to move 'W'"],
    );
    // The side not to move is in check.
    assert_error(
        "chess",
        "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",
        &["White is to move", "Black King"],
    );
    assert_error(
        "magi",
        &format!("{} b - - 0 1", place(10, 10, "Kf1 kf10 qf5")),
        &["Black is to move", "White King"],
    );
}

#[test]
fn castling_errors() {
    assert_error(
        "chess",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQxq - 0 1",
        &["'x'", "not one of K Q k q"],
    );
    assert_error(
        "chess",
        "r3k2r/8/8/8/8/8/8/R3K2R w KKq - 0 1",
        &["'K' given twice"],
    );
    // A right without its pieces.
    assert_error(
        "chess",
        "r3k2r/8/8/8/8/8/8/R3K3 w K - 0 1",
        &["'K'", "White King on e1", "h1"],
    );
    assert_error(
        "chess",
        "r3k2r/8/8/8/8/8/8/R2K3R w Q - 0 1",
        &["'Q'", "White King on e1", "a1"],
    );
    assert_error(
        "chess",
        "4k2r/8/8/8/8/8/8/R3K2R w q - 0 1",
        &["'q'", "Black King on e8", "a8"],
    );
    // An enemy piece in the corner is no Rook to castle with.
    assert_error("chess", "r3k2r/8/8/8/8/8/8/R3K2n w K - 0 1", &["'K'", "h1"]);
    assert_error(
        "magi",
        &format!("{} w K - 0 1", place(10, 10, "Kf1 Ra1 kf10")),
        &["'K'", "White King on f1", "j1"],
    );
}

#[test]
fn en_passant_errors() {
    let chess = "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq";
    // Accepted as written.
    assert_eq!(
        position("chess", Some(&format!("{chess} d6 0 3"))).to_fen(),
        format!("{chess} d6 0 3")
    );
    assert_error(
        "chess",
        &format!("{chess} z9 0 3"),
        &["'z9' is not a square"],
    );
    assert_error("chess", &format!("{chess} d 0 3"), &["'d' is not a square"]);
    assert_error("chess", &format!("{chess} d5 0 3"), &["d5 is not empty"]);
    assert_error(
        "chess",
        &format!("{chess} c6 0 3"),
        &["'c6'", "no Black pawn"],
    );
    // A target behind the wrong side's pawn: White to move, so Black just moved.
    assert_error(
        "chess",
        "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR w KQkq d3 0 2",
        &["'d3'", "no Black pawn"],
    );
    // Chess pawns step at most two squares: e5 is not the pawn that passed e3.
    assert_error(
        "chess",
        "4k3/8/8/4P3/3p4/8/8/4K3 b - e3 0 1",
        &["'e3'", "no White pawn"],
    );
    // Magi: targets on two files.
    assert_error(
        "magi",
        &format!("{} b - c3,d3 0 1", place(10, 10, "Kf1 Pc4 kf10 pb4")),
        &["'c3,d3'"],
    );
    // Magi: a pawn farther than any first move reaches.
    assert_error(
        "magi",
        &format!("{} b - c3 0 1", place(10, 10, "Kf1 Pc7 kf10 pb4")),
        &["'c3'", "no White pawn"],
    );
}

#[test]
fn king_count_errors() {
    assert_error(
        "chess",
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
        &["White has 2 kings", "exactly one"],
    );
    assert_error(
        "chess",
        "8/8/8/8/8/8/8/4K3 w - - 0 1",
        &["Black has 0 kings"],
    );
    assert_error(
        "magi",
        &format!("{} w - - 0 1", place(10, 10, "Kf1 kf10 ka10")),
        &["Black has 2 kings"],
    );
}

#[test]
fn pawns_on_their_promotion_rank_are_refused() {
    assert_error(
        "chess",
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        &["White pawn on a8", "promotion rank"],
    );
    assert_error(
        "chess",
        "4k3/8/8/8/8/8/8/p3K3 w - - 0 1",
        &["Black pawn on a1", "promotion rank"],
    );
    assert_error(
        "magi",
        &format!("{} w - - 0 1", place(10, 10, "Kf1 Pj10 ka9")),
        &["White pawn on j10", "promotion rank"],
    );
}

#[test]
fn pawns_on_their_own_first_rank_are_refused_where_none_can_stand() {
    assert_error(
        "chess",
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        &["White pawn on a1", "first rank"],
    );
    assert_error(
        "deathmatch",
        "4k2p/8/8/8/8/8/8/4K3 w - - 0 1",
        &["Black pawn on h8", "first rank"],
    );
    // A spell may carry a pawn anywhere: Magician Chess keeps the position.
    assert!(
        AnyPosition::from_fen(
            variant("magician-chess"),
            Some("*****1k/**5/*6/7/1p5/2*1M2/2P1M1K w - - 0 1"),
        )
        .is_ok()
    );
}

#[test]
fn unmoved_field_errors() {
    let board = place(10, 10, "Kf1 Pd3 Pe4 kf10 pd8");
    let with = |state: &str| format!("{board} w - - 0 1 {state}");
    assert_error(
        "magi",
        &with("unmoved=e4"),
        &["unmoved=e4", "e4", "no pawn"],
    );
    assert_error("magi", &with("unmoved=g3"), &["unmoved=g3", "g3"]);
    assert_error("magi", &with("unmoved=z99"), &["'z99' is not a square"]);
    assert_error("magi", &with("unmoved="), &["unmoved="]);
    assert_error("magi", &with("unmoved=d3,"), &["unmoved=d3,"]);
    // d8 holds a Black pawn: tracked for Black; d3's White pawn likewise. A White pawn on
    // d8 would not be.
    assert_eq!(
        position("magi", Some(&with("unmoved=d3,d8"))).to_fen(),
        format!("{board} w - - 0 1")
    );
    assert_error(
        "magi",
        &format!("{} w - - 0 1 unmoved=d8", place(10, 10, "Kf1 Pd8 kf10")),
        &["d8"],
    );
    // Chess tracks no pawn's first move.
    assert_error(
        "chess",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 unmoved=e2",
        &["e2", "chess tracks"],
    );
}

#[test]
fn clock_and_extra_field_errors() {
    assert_error(
        "chess",
        "4k3/8/8/8/8/8/8/4K3 w - - 99999 1",
        &["halfmove clock '99999'", "too large"],
    );
    assert_error(
        "chess",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 foo",
        &["'foo'", "not understood"],
    );
    assert_error(
        "chess",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 colour=red",
        &["'colour=red'", "not understood"],
    );
}

/// Malformed input of every kind is refused, never a panic; what is accepted reads back to
/// itself.
#[test]
fn mutated_fens_never_panic_and_accepted_ones_round_trip() {
    let seeds = [
        ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string()),
        (
            "chess",
            "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3".to_string(),
        ),
        (
            "magi",
            "r1bcqkw2r/ppp3ppbp/d5p1pn/3pn5/3p2P3/3PpP1C2/4P5/D1NPW2N1D/PPP4PPP/R3QK1B1R b kq f3,f4 0 13"
                .to_string(),
        ),
        (
            "magi",
            format!("{} w - - 0 1 unmoved=d3", place(10, 10, "Kf1 Pd3 Pg3 kf10 pd8")),
        ),
        (
            "deathmatch-legacy",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNMQKBNR b KQkq - 0 1 swaps=10".to_string(),
        ),
    ];
    let replacements = [
        "", " ", "/", "0", "1", "9", "10", "99", "x", "K", "k", "p", "P", "*", "-", ",", "=", "w",
        "b", "[", "]", "é",
    ];
    let mut tried = 0;
    for (variant_name, seed) in &seeds {
        let v = variant(variant_name);
        let chars: Vec<char> = seed.chars().collect();
        let mut inputs = Vec::new();
        for i in 0..=chars.len() {
            let (head, tail): (String, String) =
                (chars[..i].iter().collect(), chars[i..].iter().collect());
            inputs.push(head.clone());
            for r in replacements {
                inputs.push(format!(
                    "{head}{r}{}",
                    tail.chars().skip(1).collect::<String>()
                ));
                inputs.push(format!("{head}{r}{tail}"));
            }
        }
        for input in inputs {
            tried += 1;
            let result = std::panic::catch_unwind(|| AnyPosition::from_fen(v, Some(&input)));
            let Ok(result) = result else {
                panic!("{variant_name}: from_fen panicked on {input:?}");
            };
            if let Ok(pos) = result {
                let fen = pos.to_fen();
                let back = AnyPosition::from_fen(v, Some(&fen)).unwrap_or_else(|e| {
                    panic!("{variant_name}: {input:?} was read as {fen:?}, which is refused: {e}")
                });
                assert_eq!(back.to_fen(), fen, "{variant_name}: from {input:?}");
                assert_eq!(back.hash(), pos.hash(), "{variant_name}: from {input:?}");
            }
        }
    }
    assert!(tried > 10_000);
}
