//! Inputs the fuzz targets (fuzz/) found to break the engine, each kept as a test of the
//! rule it broke.

use std::sync::{Arc, Mutex};

use magus::game::AnyPosition;
use magus::protocol::Session;
use magus::protocol::uci::{Output, UciSession};
use magus::variant::Registry;
use magus::with_position;

/// What the fuzz targets check of every position they reach: the same checks, from the same
/// code, so a regression kept here tests what the fuzzer found.
#[path = "../fuzz/fuzz_targets/common/mod.rs"]
mod fuzz_common;

use fuzz_common::check_position;

/// Every position reached by legal moves from `fen` (to `depth` plies, `fen` included)
/// passes [`check_position`]. `fen` must be read: the positions are returned, so the
/// caller can check that the moves it is about were among them.
fn successors_read_back(variant: &str, fen: &str, depth: u32) -> Vec<AnyPosition> {
    let registry = Registry::builtin();
    let variant = registry.get(variant).unwrap();
    let root = AnyPosition::from_fen(variant, Some(fen))
        .unwrap_or_else(|e| panic!("'{fen}' is refused, so nothing would be checked: {e}"));
    let mut reached = Vec::new();
    let mut stack = vec![(root, 0)];
    while let Some((pos, d)) = stack.pop() {
        check_position(&pos);
        if d < depth {
            for m in with_position!(&pos, p => p.legal_moves()) {
                let mut next = pos;
                with_position!(&mut next, p => p.play(m));
                stack.push((next, d + 1));
            }
        }
        reached.push(pos);
    }
    reached
}

/// How many pieces `letter` (upper case White) stand on the board of `pos`.
fn count_on_board(pos: &AnyPosition, letter: char) -> usize {
    let fen = pos.to_fen();
    let board = fen.split([' ', '[']).next().unwrap();
    board.chars().filter(|&c| c == letter).count()
}

/// deathmatch-legacy counts the Magicians a side may have from its swaps and the pawns it
/// lost; a FEN with nine White pawns was read, and after one of them promoted to a Magician
/// the position's own FEN was refused. Now more pawns than files is refused up front, and a
/// side with eight pawns, one about to promote, can promote it to a Magician (the count
/// then at its limit: no swap made, one pawn lost) and read back every position after it.
#[test]
fn legacy_promotion_from_a_nine_pawn_position_reads_back() {
    let registry = Registry::builtin();
    let legacy = registry.get("deathmatch-legacy").unwrap();
    for (nine_pawns, side) in [
        (
            "rnrqkbnr/pppppppP/8/8/8/8/PPPPPPPP/RNBNKBNR w KQkq - 0 1",
            "White",
        ),
        (
            "rnbnkbnr/pppppppp/8/8/8/8/PPPPPPPp/RNRQKBNR b KQkq - 0 1",
            "Black",
        ),
    ] {
        let err = AnyPosition::from_fen(legacy, Some(nine_pawns)).unwrap_err();
        assert!(err.contains(&format!("{side} has 9 pawns")), "{err}");
    }
    for (eight_pawns, magician) in [
        (
            "rnrqkbnr/pppppppP/8/8/8/8/PPPPPPP1/RNBNKBNR w KQkq - 0 1",
            'M',
        ),
        (
            "rnbnkbnr/ppppppp1/8/8/8/8/PPPPPPPp/RNRQKBNR b KQkq - 0 1",
            'm',
        ),
    ] {
        let reached = successors_read_back("deathmatch-legacy", eight_pawns, 2);
        let promoted = reached
            .iter()
            .filter(|p| count_on_board(p, magician) == 1)
            .count();
        assert!(
            promoted > 0,
            "{eight_pawns}: no position after a promotion to a Magician was reached"
        );
    }
}

/// A FEN of only the board and the side to move (the rest may be left out) panicked: the
/// reader looked for state fields past the end of the list.
#[test]
fn a_fen_of_board_and_side_only_reads() {
    let registry = Registry::builtin();
    for &variant in registry.all() {
        let start: Vec<&str> = variant.start_fen.split_whitespace().collect();
        for n in 2..=start.len() {
            let fen = start[..n].join(" ");
            AnyPosition::from_fen(variant, Some(&fen))
                .unwrap_or_else(|e| panic!("{}: '{fen}': {e}", variant.name));
        }
    }
    let deathmatch = registry.get("deathmatch").unwrap();
    assert!(AnyPosition::from_fen(deathmatch, Some("4k3/8/3P4/8/8/8/3T4/4K3 b ")).is_ok());
}

/// Lines that are not the engine's own commands went to vampirc-uci, which reads commands
/// in any case and GUI-bound lines too, and panics on numbers out of its range: `Go depth
/// 99999999999999999999` ended the engine. Now they are unknown commands.
#[test]
fn foreign_lines_with_huge_numbers_are_unknown_commands() {
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let out: Output = buffer.clone();
    let mut session = UciSession::new(Registry::builtin(), out);
    let lines = [
        "Go depth 99999999999999999999",
        "GO wtime 99999999999999999999 btime 1",
        "go depth 300",
        "Go nodes 18446744073709551616",
        "info depth 300 nodes 99999999999999999999",
        "option name X type spin default 99999999999999999999 min 0 max 1",
        "bestmove e2e4 ponder e7e5",
        "POSITION startpos moves e2e4",
    ];
    for line in lines {
        assert!(session.handle_line(line));
        session.handle_line("stop");
    }
    session.handle_line("isready");
    let text = String::from_utf8(buffer.lock().unwrap().clone()).unwrap();
    assert_eq!(
        text.lines()
            .filter(|l| l.contains("unknown command"))
            .count(),
        7
    );
    assert!(text.lines().any(|l| l == "readyok"));
}
