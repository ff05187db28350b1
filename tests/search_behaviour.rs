//! What the selective search's parts must keep: null-move pruning leaves the tactics of the
//! full-width search in place and stays out of pawn endings, where passing is not a safe
//! guess; checks are extended, so that a mate by checks is found at a depth below its length
//! in plies; quiescence stands pat instead of being forced into a losing capture, and its
//! stand-pat cuts a quiet node off at once. Each test is one part's position or positions, at
//! a fixed small depth on one thread; each fails if its part is taken out of the search. The
//! tactical positions are searched with the hand-made evaluation they were chosen under: a
//! built-in net prunes other branches at these small depths (under chess's, Philidor's mate is
//! found as a mate in 5 at depth 6), and what is tested is the search's part, not the net.

mod common;

use common::{CHECKING_CAPTURE_MATES, fen_position, search_with, search_with_eval, wire};
use magus::eval::EvalMode;
use magus::game::AnyPosition;
use magus::search::{Pruning, Score};
use magus::with_position;

/// The evaluation of the side to move, in centipawns.
fn eval(pos: &AnyPosition) -> i32 {
    with_position!(pos, p => magus::eval::evaluate(p, magus::eval::EvalTables::of(p.layout())))
}

fn no_null_move() -> Pruning {
    Pruning {
        null_move: false,
        ..Pruning::default()
    }
}

/// Null move keeps the tactics the search without it finds: at the same depth, the same mate
/// and the same first move. WAC 14 (1. Qxh7+! Kxh7 2. Rh3+, mate in 4, checked by an
/// exhaustive solver) is found at depth 6 only if the null move's reduced search is honest:
/// along the mating line, the defender, a Queen up after the sacrifice, passes at nodes where
/// passing walks into the attack, and the reduced search after the pass must see that. A null
/// move that fails high without searching (`return beta` where it is tried) scores WAC 14
/// about +6 with no mate.
#[test]
fn null_move_keeps_the_tactics_of_the_full_width_search() {
    let fen = "r2rb1k1/pp1q1p1p/2n1p1p1/2bp4/5P2/PP1BPR1Q/1BPN2PP/R5K1 w - - 0 1";
    let pos = fen_position("chess", fen);
    let without = search_with_eval(&pos, 6, no_null_move(), EvalMode::Full);
    assert_eq!(without.score, Score::Mate(4), "no null move");
    assert_eq!(wire(&pos, without.best), "h3h7", "no null move");
    let with = search_with_eval(&pos, 6, Pruning::default(), EvalMode::Full);
    assert_eq!(with.score, without.score, "null move, depth 6");
    assert_eq!(wire(&pos, with.best), "h3h7", "null move");
}

/// Null move is not tried by a side with only King and pawns, where passing would be its
/// best move if it could (zugzwang). With Black to move in K+P against K (8/6k1/8/6K1/6P1,
/// opposition), and in the trebuchet with White to move (each King must leave its pawn),
/// the side to move loses: the search must score it lost, worse than -700 (the pawn runs to
/// a Queen). A null move allowed with only pawns scores these about -400 and -600 at depth
/// 12: the passes it grants the side in zugzwang hide the loss.
#[test]
fn null_move_is_not_tried_with_only_pawns() {
    for fen in [
        "8/6k1/8/6K1/6P1/8/8/8 b - - 0 1",
        "8/8/8/2Kp4/3Pk3/8/8/8 w - - 0 1",
    ] {
        let pos = fen_position("chess", fen);
        let result = search_with(&pos, 12, Pruning::default());
        assert!(
            matches!(result.score, Score::Centipawns(cp) if cp < -700),
            "{fen}: the side to move is in zugzwang and loses: {:?}",
            result.score
        );
    }
}

/// Moves that give check are extended by a ply, so a mate made of checks is found at a depth
/// below its length in plies: Philidor's smothered mate (1. Nf7+ Kg8 2. Nh6++ Kh8 3. Qg8+
/// Rxg8 4. Nf7#, mate in 4, seven plies, checked by an exhaustive solver) by depth 6, in
/// chess and in Magi (the same position in the corner of the 10x10 board) by depth 7, and
/// WAC 12 (1... Qxf3+ 2. Rxf3 Rg1#, mate in 2) by depth 3. Without the check extension none
/// of these is found at these depths.
#[test]
fn a_mate_by_checks_is_found_below_its_length() {
    for (variant, fen, depth, mate, first) in [
        (
            "chess",
            "3r3k/6pp/8/6N1/2Q5/8/6PP/6K1 w - - 0 1",
            6,
            4,
            "g5f7",
        ),
        (
            "magi",
            "5r3k/8pp/10/8N1/4Q5/10/8PP/8K1/10/10 w - - 0 1",
            7,
            4,
            "i7h9",
        ),
        (
            "chess",
            "4k1r1/2p3r1/1pR1p3/3pP2p/3P2qP/P4N2/1PQ4P/5R1K b - - 0 1",
            3,
            2,
            "g4f3",
        ),
    ] {
        let pos = fen_position(variant, fen);
        let result = search_with_eval(&pos, depth, Pruning::default(), EvalMode::Full);
        assert_eq!(
            result.score,
            Score::Mate(mate),
            "{variant} {fen}: depth {depth}"
        );
        assert_eq!(wire(&pos, result.best), first, "{variant} {fen}");
    }
}

/// Quiescence stands pat: a side not in check may decline every capture and keep the static
/// evaluation. Here White's only capture, Qxd5 (chess) or Qxe5 (Magi), takes a pawn a pawn
/// defends and loses the Queen, and Black has no capture at all. At depth 1 the search must
/// not play the capture, and its score must stay near the static evaluation (the quiet move's
/// gain in placement, well under a pawn and a half). A quiescence that ignores its stand-pat
/// is forced to capture, has nothing to return where there is no capture, and never answers.
#[test]
fn quiescence_stands_pat_instead_of_a_losing_capture() {
    for (variant, fen, capture) in [
        ("chess", "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"),
        (
            "magi",
            "5k4/10/10/10/5p4/4p5/10/10/10/4QK4 w - - 0 1",
            "e1e5",
        ),
    ] {
        let pos = fen_position(variant, fen);
        let static_eval = eval(&pos);
        // The search on the same hand-made evaluation as `static_eval`: a net judges the
        // quiet move's placement on its own scale.
        let result = search_with_eval(&pos, 1, Pruning::default(), EvalMode::Full);
        assert_ne!(wire(&pos, result.best), capture, "{variant} {fen}");
        assert!(
            matches!(result.score, Score::Centipawns(cp) if (cp - static_eval).abs() <= 300),
            "{variant} {fen}: {:?} against the static {static_eval}",
            result.score
        );
    }
}

/// Quiescence's stand-pat cuts a node off as soon as the static evaluation reaches beta, and
/// raises alpha for the captures that follow: a depth-1 search of a quiet middlegame is a
/// few hundred nodes (597 for these two when written). Without the cut-off every capture
/// of every node above beta is searched as well, and the count more than doubles (about
/// 1,700; without the raise of alpha too, about 4,000). The bound allows the count to grow
/// by two thirds before it fails; a change to quiescence that moves it that far should say
/// why.
#[test]
fn quiescence_stand_pat_cuts_quiet_nodes_off() {
    let nodes: u64 = [
        "r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP2BPPP/R1BQ1RK1 w - - 0 1",
        "2kr3r/ppp2ppp/2n1bn2/2b1p3/2B1P1q1/2NP1N2/PPPQ1PPP/R3K2R w KQ - 0 1",
    ]
    .iter()
    .map(|fen| search_with(&fen_position("chess", fen), 1, Pruning::default()).nodes)
    .sum();
    assert!(nodes <= 1000, "a depth-1 search took {nodes} nodes");
}

/// `Null Move Full Ply` (off by default, measured in sprt-132 and sprt-133) keeps a
/// full-width ply after the pass: the null move's searches at depths 3 to 6, bare quiescence
/// searches without it, become one-ply searches, so the same depth costs more nodes (a few
/// dozen in these trees, where the null move is seldom tried that shallow). If the switch did
/// nothing, or cut the null move's search shorter, the counts would not grow. The trees are
/// the hand-made evaluation's, whatever net the variant may have built in (under a chess net
/// on it, the first one never tried the null move at those depths).
#[test]
fn null_move_full_ply_searches_a_ply_after_the_pass() {
    for fen in [
        "r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP2BPPP/R1BQ1RK1 w - - 0 1",
        "2kr3r/ppp2ppp/2n1bn2/2b1p3/2B1P1q1/2NP1N2/PPPQ1PPP/R3K2R w KQ - 0 1",
    ] {
        let pos = fen_position("chess", fen);
        let bare = search_with_eval(&pos, 8, Pruning::default(), EvalMode::Full);
        let full = search_with_eval(
            &pos,
            8,
            Pruning {
                null_move_full_ply: true,
                ..Pruning::default()
            },
            EvalMode::Full,
        );
        assert!(
            full.nodes > bare.nodes,
            "{fen}: {} nodes with a full ply after the pass, {} without",
            full.nodes,
            bare.nodes
        );
    }
}

/// `Narrow Pruning` (off by default, on trial in sprt-147 and sprt-148) searches with
/// `Margins::NARROW`: the null move tried nearer beta, futility, late-move and exchange
/// pruning with smaller margins, continuation-history pruning, and at most two plain captures
/// a quiescence node. The same depths then cost fewer nodes over a set of middlegames; if the
/// switch did nothing, or widened the search, the count would not shrink. The captures it
/// keeps must include the checking ones: the mating attacks that start with a checking
/// capture (WAC 5, 27, 60) are still found at depth 2.
#[test]
fn narrow_pruning_searches_fewer_nodes_and_keeps_checking_captures() {
    let narrow = Pruning {
        narrow: true,
        ..Pruning::default()
    };
    let (mut wide_nodes, mut narrow_nodes) = (0, 0);
    for fen in [
        "r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP2BPPP/R1BQ1RK1 w - - 0 1",
        "2kr3r/ppp2ppp/2n1bn2/2b1p3/2B1P1q1/2NP1N2/PPPQ1PPP/R3K2R w KQ - 0 1",
        "r2q1rk1/pb1nbppp/1p2pn2/2p5/2PP4/1PN1PN2/PB2BPPP/R2Q1RK1 w - - 0 1",
        "r1b2rk1/2q1bppp/p2ppn2/1p6/3NP3/1BN1B3/PPP1QPPP/R4RK1 w - - 0 1",
    ] {
        let pos = fen_position("chess", fen);
        wide_nodes += search_with(&pos, 10, Pruning::default()).nodes;
        narrow_nodes += search_with(&pos, 10, narrow).nodes;
    }
    assert!(
        narrow_nodes < wide_nodes,
        "{narrow_nodes} nodes narrow, {wide_nodes} wide"
    );
    for (fen, bm) in CHECKING_CAPTURE_MATES {
        let pos = fen_position("chess", fen);
        assert_eq!(wire(&pos, search_with(&pos, 2, narrow).best), bm, "{fen}");
    }
}
