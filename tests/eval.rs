//! The evaluation: the breakdown `eval` prints adds up to what the search uses, each term's
//! switch takes out exactly that term, and the terms see what they are meant to see.

use magus::board::{Bitboard, Position};
use magus::eval::{EvalTables, TermId, TermSet, breakdown, evaluate, evaluate_terms};
use magus::game::AnyPosition;
use magus::variant::Registry;
use magus::with_position;

fn position(variant: &str, fen: Option<&str>) -> AnyPosition {
    let registry = Registry::builtin();
    let v = registry
        .get(variant)
        .unwrap_or_else(|| panic!("no variant {variant}"));
    AnyPosition::from_fen(v, fen).unwrap_or_else(|e| panic!("{fen:?}: {e}"))
}

/// One term of the breakdown, White's and Black's share.
fn term(pos: &AnyPosition, name: &str) -> (i32, i32) {
    let terms = with_position!(pos, p => breakdown(p));
    let t = terms
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no term {name}"));
    (t.white, t.black)
}

/// Positions from every variant: the start, and a few plies into a game.
fn sample() -> Vec<AnyPosition> {
    let registry = Registry::builtin();
    let mut out = Vec::new();
    for name in registry.names() {
        let mut pos = position(name, None);
        for ply in 0..12 {
            out.push(pos);
            let next = match pos {
                AnyPosition::Small(p) => play_nth(&p, ply * 7 + 3).map(AnyPosition::Small),
                AnyPosition::Large(p) => play_nth(&p, ply * 7 + 3).map(AnyPosition::Large),
            };
            let Some(next) = next else { break };
            pos = next;
        }
    }
    out
}

/// The position after the `n`th legal move (counting round), if there is one.
fn play_nth<B: Bitboard>(pos: &Position<B>, n: usize) -> Option<Position<B>> {
    let moves: Vec<_> = pos.legal_moves().into_iter().collect();
    let &mv = moves.get(n % moves.len().max(1))?;
    let mut next = *pos;
    next.play(mv);
    Some(next)
}

/// Each term is tapered on its own, so the sum may differ from the whole by rounding.
const ROUNDING: i32 = 8;

#[test]
fn the_breakdown_adds_up_to_the_evaluation() {
    for pos in sample() {
        let (whole, parts, white_to_move) = with_position!(&pos, p => {
            let tables = EvalTables::of(p.layout());
            let parts: i32 = breakdown(p).iter().map(|t| t.white - t.black).sum();
            (evaluate(p, tables), parts, p.side() == magus::board::Color::White)
        });
        let parts = if white_to_move { parts } else { -parts };
        assert!(
            (whole - parts).abs() <= ROUNDING,
            "{}: evaluation {whole}, terms add up to {parts}",
            pos.to_fen()
        );
    }
}

#[test]
fn each_switch_takes_out_its_term_and_nothing_else() {
    for pos in sample() {
        for (id, option) in TermSet::SWITCHES {
            if id == TermId::MaterialTaper {
                continue; // not a row of the breakdown; below
            }
            let (whole, without, white_to_move) = with_position!(&pos, p => {
                let tables = EvalTables::of(p.layout());
                let mut terms = TermSet::ALL;
                terms.set(id, false);
                (evaluate(p, tables), evaluate_terms(p, tables, terms), p.side() == magus::board::Color::White)
            });
            let name = match id {
                TermId::Placement => "Placement",
                TermId::Mobility => "Mobility",
                TermId::KingSafety => "King safety",
                TermId::Pawns => "Pawns",
                TermId::Threats => "Threats",
                TermId::Variant => "Variant",
                _ => unreachable!("{option} is not a switch"),
            };
            let (w, b) = term(&pos, name);
            let share = if white_to_move { w - b } else { b - w };
            assert!(
                (whole - without - share).abs() <= ROUNDING,
                "{}: '{option}' off moved the evaluation by {}, the term is {share}",
                pos.to_fen(),
                whole - without
            );
        }
    }
    // With every switch on, the masked evaluation is the evaluation.
    let pos = position("magi", None);
    with_position!(&pos, p => {
        let tables = EvalTables::of(p.layout());
        assert_eq!(evaluate(p, tables), evaluate_terms(p, tables, TermSet::ALL));
    });
}

#[test]
fn material_is_tapered_to_endgame_values() {
    let without_taper = |pos: &AnyPosition| {
        with_position!(pos, p => {
            let tables = EvalTables::of(p.layout());
            let mut terms = TermSet::ALL;
            terms.set(TermId::MaterialTaper, false);
            evaluate(p, tables) - evaluate_terms(p, tables, terms)
        })
    };
    // Only Kings and a pawn: the phase is the endgame's, where a pawn is worth 115, not 100.
    let pawn_ending = position("chess", Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
    assert_eq!(without_taper(&pawn_ending), 15);
    // At the start the phase is the middlegame's: the taper changes nothing.
    assert_eq!(without_taper(&position("chess", None)), 0);
}

#[test]
fn a_pawn_attacking_a_knight_is_a_threat() {
    // 1.e4 Nf6 2.e5: the e5 pawn attacks the Knight; nothing attacks a White piece.
    let pos = position(
        "chess",
        Some("rnbqkb1r/pppppppp/5n2/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"),
    );
    let (white, black) = term(&pos, "Threats");
    assert!(white > 0, "White's threat on f6 is worth {white}");
    assert_eq!(black, 0);
    // 1.e4 Nf6: the Knight attacks the e4 pawn, which is worth less: no threat.
    let pos = position(
        "chess",
        Some("rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"),
    );
    assert_eq!(term(&pos, "Threats"), (0, 0));
}

#[test]
fn a_transference_threat_counts_in_deathmatch() {
    // The White Magician on a2 can leap to h2 by Home-File Transference, where the Black
    // Queen stands; from b2 it cannot reach h2.
    let on_a2 = position("deathmatch", Some("4k3/8/8/8/8/8/M6q/4K3 w - - 0 1"));
    let on_b2 = position("deathmatch", Some("4k3/8/8/8/8/8/1M5q/4K3 w - - 0 1"));
    assert!(term(&on_a2, "Threats").0 > 0);
    assert_eq!(term(&on_b2, "Threats").0, 0);
    // No Transference in the legacy rules.
    let legacy = position("deathmatch-legacy", Some("4k3/8/8/8/8/8/M6q/4K3 w - - 0 1"));
    assert_eq!(term(&legacy, "Threats").0, 0);
}

#[test]
fn magi_setup_pawns_are_not_doubled_until_they_move() {
    // At the start every file has a pawn, d and g two: nothing passed, isolated or doubled.
    let start = position("magi", None);
    assert_eq!(term(&start, "Pawns"), (0, 0));
    // Once the d3 pawn has gone to d4, the d2 pawn behind it is a doubled pawn.
    let moved = position(
        "magi",
        Some("rnbcqkwbnr/pppppppppp/d2p2p2d/10/10/10/3P6/D5P2D/PPPPPPPPPP/RNBCQKWBNR b KQkq - 0 1"),
    );
    let (white, black) = term(&moved, "Pawns");
    assert!(white < 0, "White's d-pawns: {white}");
    assert_eq!(black, 0);
}
