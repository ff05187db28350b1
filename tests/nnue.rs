//! The learned evaluation's first layer, carried move by move, is the layer computed from
//! scratch: random games in every built-in variant (spells, carried and dropped holes,
//! swap-ins, 6th-rank choices, Transference, drops from reserves, castling forms,
//! multi-square en passant all come up), checked at every ply; and the search with a net
//! gives the same answer as the net's evaluation where there is nothing to search.

use magus::board::{Bitboard, Color, Position};
use magus::eval::nnue::network::pieces_per_bucket;
use magus::eval::nnue::{Accumulators, FeatureSet, Network, evaluate};
use magus::game::AnyPosition;
use magus::tournament::openings::SplitMix64;
use magus::tune::train::model::{Model, Shape};
use magus::variant::Registry;
use magus::with_position;

/// A net of random weights for `pos`'s variant, large enough that every input matters.
fn random_net<B: Bitboard>(pos: &Position<B>, seed: u64) -> Network {
    random_net_on(pos, seed, false)
}

/// A random net, with `on_hce` a correction of the hand-made evaluation.
fn random_net_on<B: Bitboard>(pos: &Position<B>, seed: u64, on_hce: bool) -> Network {
    let set = FeatureSet::of(pos.layout());
    let name = &pos.layout().variant.name;
    // Output buckets, so that the bucket chosen along the line is checked too.
    let start_pieces = pos.occupied().count() as usize;
    let shape = Shape::of(&set, 32)
        .with_buckets(4, pieces_per_bucket(start_pieces, 4))
        .on_hce(on_hce);
    Model::new(shape, seed).quantise(name, &set)
}

fn check_game<B: Bitboard>(start: &Position<B>, seed: u64, plies: usize) -> usize {
    let net = random_net(start, seed);
    let set = FeatureSet::of(start.layout());
    let mut line = Accumulators::new(&net, plies + 2);
    let mut fresh = Accumulators::new(&net, 1);
    line.refresh(&net, &set, start, 0);
    let mut rng = SplitMix64::new(seed);
    let mut pos = *start;
    let mut played = 0;
    for ply in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        let next = pos.after(m);
        line.update(&net, &set, &pos, &next, ply);
        fresh.refresh(&net, &set, &next, 0);
        assert_eq!(
            line.values(ply + 1),
            fresh.values(0),
            "{}: the layer after move {} ({m:?}) differs from a fresh one",
            start.layout().variant.name,
            ply + 1
        );
        assert_eq!(
            line.evaluate(&net, ply + 1, next.side(), next.occupied().count() as usize),
            evaluate(&net, &next)
        );
        pos = next;
        played += 1;
    }
    played
}

#[test]
fn the_first_layer_carried_along_random_games_is_the_fresh_one() {
    let registry = Registry::builtin();
    for variant in registry.all() {
        let start = AnyPosition::from_fen(variant, None).unwrap();
        let mut plies = 0;
        for game in 0..12u64 {
            plies += with_position!(&start, p => check_game(p, 1000 + game, 160));
        }
        assert!(plies > 300, "{}: only {plies} plies played", variant.name);
    }
}

/// The two views of a position and of its colour-mirror are the same inputs: a net sees
/// White to move in one as Black to move in the other, so both evaluate alike.
#[test]
fn a_position_and_its_mirror_evaluate_alike() {
    let registry = Registry::builtin();
    let chess = registry.get("chess").unwrap();
    let pos = AnyPosition::from_fen(
        chess,
        Some("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5"),
    )
    .unwrap();
    let mirror = AnyPosition::from_fen(
        chess,
        Some("rnbqk2r/ppp2ppp/3p1n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R b KQkq - 1 5"),
    )
    .unwrap();
    let a = with_position!(&pos, p => evaluate(&random_net(p, 5), p));
    let b = with_position!(&mirror, p => evaluate(&random_net(p, 5), p));
    assert_eq!(a, b);
    assert_ne!(a, 0, "a random net should not give exactly 0");
    let _ = Color::White;
}

/// Whether a move of the side to move takes a piece.
fn can_capture<B: Bitboard>(pos: &Position<B>) -> bool {
    pos.legal_moves()
        .iter()
        .any(|&m| pos.after(m).occupied().count() < pos.occupied().count())
}

/// A net that corrects the hand-made evaluation evaluates as that evaluation plus its own
/// output: the same weights marked otherwise give the output alone.
#[test]
fn a_net_on_the_hand_made_evaluation_adds_to_it() {
    use magus::eval::{EvalTables, evaluate as hand_made};
    let registry = Registry::builtin();
    for variant in registry.all() {
        let start = AnyPosition::from_fen(variant, None).unwrap();
        with_position!(&start, p => {
            let on = random_net_on(p, 31, true);
            let alone = Network { on_hce: false, ..on.clone() };
            for m in p.legal_moves().into_iter().take(8) {
                let c = p.after(m);
                let hce = hand_made(&c, EvalTables::of(c.layout()));
                assert_eq!(evaluate(&on, &c), evaluate(&alone, &c) + hce, "{}", variant.name);
            }
        });
    }
}

/// The search evaluates with the net it is given: from the start position a depth-1
/// search's score is the best of the net's evaluations of the positions after each move,
/// where the reply can capture nothing (chess's start); where a reply can capture (Magi's
/// Rooks see each other's pawns), the quiescence search can only lower that move's score,
/// so the score lies between the best of the moves without such a reply and the best of
/// all. A search that ignored the net, or read the first layer of the wrong ply, would
/// score otherwise; so would one that left out the hand-made evaluation under a net that
/// corrects it.
#[test]
fn the_search_scores_with_the_net() {
    for on_hce in [false, true] {
        search_scores_with_the_net(on_hce);
    }
}

fn search_scores_with_the_net(on_hce: bool) {
    use magus::eval::EvalMode;
    use magus::search::time::Limits;
    use magus::search::tt::TranspositionTable;
    use magus::search::{Score, SearchControl, SearchOptions, ThreadData, think};
    use std::sync::Arc;
    let registry = Registry::builtin();
    for name in ["chess", "magi"] {
        let start = AnyPosition::from_fen(registry.get(name).unwrap(), None).unwrap();
        with_position!(&start, p => {
            let net = Arc::new(random_net_on(p, 21, on_hce));
            let moves = p.legal_moves();
            let best = |quiet_only: bool| {
                moves
                    .iter()
                    .map(|&m| p.after(m))
                    .filter(|c| !quiet_only || !can_capture(c))
                    .map(|c| -evaluate(&net, &c))
                    .max()
                    .unwrap()
            };
            let (low, high) = (best(true), best(false));
            if name == "chess" {
                assert_eq!(low, high, "chess's start has no capture within two plies");
            }
            let options = SearchOptions {
                eval_mode: EvalMode::Nnue,
                net: Some(Arc::clone(&net)),
                ..SearchOptions::default()
            };
            let tt = TranspositionTable::new(1).unwrap();
            let result = think(p, &[], &Limits::depth(1), &options, &tt, &SearchControl::default(), &mut ThreadData::fresh(1), &|_| {});
            let Score::Centipawns(score) = result.score else {
                panic!("{name}: {:?}", result.score)
            };
            assert!(
                (low..=high).contains(&score),
                "{name} (on_hce {on_hce}): {score} not in {low}..={high}"
            );
        });
    }
}

/// A net's correction of the hand-made evaluation is scaled by its endgame knowledge: two
/// Knights against a bare King stay a draw whatever the net adds, for either side; where the
/// side favoured has pawns, the correction stands.
#[test]
fn a_correction_does_not_undo_a_drawn_ending() {
    use magus::eval::scale_correction;
    let registry = Registry::builtin();
    let chess = registry.get("chess").unwrap();
    let knights = AnyPosition::from_fen(chess, Some("8/8/4k3/8/8/2N1KN2/8/8 w - - 0 1")).unwrap();
    with_position!(&knights, p => {
        assert_eq!(scale_correction(p, 300), 0);
        assert_eq!(scale_correction(p, -300), 0);
    });
    let pawns = AnyPosition::from_fen(chess, Some("8/5p2/4k3/8/8/2N1KN2/5P2/8 w - - 0 1")).unwrap();
    with_position!(&pawns, p => {
        assert_eq!(scale_correction(p, 300), 300);
        assert_eq!(scale_correction(p, -300), -300);
    });
}
