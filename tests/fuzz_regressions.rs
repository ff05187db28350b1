//! Inputs the fuzz targets (fuzz/) found to break the engine, each kept as a test of the
//! rule it broke.

use magus::game::AnyPosition;
use magus::variant::Registry;
use magus::with_position;

/// Every position reached by legal moves from `fen` (to `depth` plies) writes a FEN that
/// reads back.
fn successors_read_back(variant: &str, fen: &str, depth: u32) {
    let registry = Registry::builtin();
    let variant = registry.get(variant).unwrap();
    let Ok(pos) = AnyPosition::from_fen(variant, Some(fen)) else {
        return;
    };
    let mut stack = vec![(pos, 0)];
    while let Some((pos, d)) = stack.pop() {
        let fen = pos.to_fen();
        AnyPosition::from_fen(variant, Some(&fen))
            .unwrap_or_else(|e| panic!("'{fen}' does not read back: {e}"));
        if d < depth {
            for m in with_position!(&pos, p => p.legal_moves()) {
                let mut next = pos;
                with_position!(&mut next, p => p.play(m));
                stack.push((next, d + 1));
            }
        }
    }
}

/// deathmatch-legacy counts the Magicians a side may have from its swaps and the pawns it
/// lost; a FEN with nine White pawns was read, and after one of them promoted to a Magician
/// the position's own FEN was refused. Now more pawns than files is refused up front.
#[test]
fn legacy_promotion_from_a_nine_pawn_position_reads_back() {
    let fen = "rnrqkbnr/pppppppP/8/8/8/8/PPPPPPPP/RNBNKBNR w KQkq - 0 1";
    let registry = Registry::builtin();
    let err =
        AnyPosition::from_fen(registry.get("deathmatch-legacy").unwrap(), Some(fen)).unwrap_err();
    assert!(err.contains("9 pawns"), "{err}");
    successors_read_back("deathmatch-legacy", fen, 1);
    // Eight pawns, one about to promote: every successor reads back.
    successors_read_back(
        "deathmatch-legacy",
        "rnrqkbnr/pppppppP/8/8/8/8/PPPPPPP1/RNBNKBNR w KQkq - 0 1",
        2,
    );
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
