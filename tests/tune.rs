//! Tuning: the evaluation's trace is its linear form (for any weights), the tuner recovers
//! known weights from data made by an evaluation with those weights, the parameters file
//! round-trips and a bad one is refused naming the file and the key, the data file reads
//! back what was written, and `magus datagen` / `magus tune` work end to end (the same seed
//! gives the same file however it was played, an interrupted file is continued).

use std::path::{Path, PathBuf};
use std::process::Command;

use magus::board::{Bitboard, Color};
use magus::eval::{EvalTables, evaluate, trace};
use magus::game::AnyPosition;
use magus::tune::data::{self, GameRecord, GameResult, Header, Ply};
use magus::tune::fit::{self, Dataset, Options, Slots};
use magus::variant::weights::{Shape, Weights, replace_section};
use magus::variant::{Registry, Variant, parse_variant};
use magus::with_position;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

mod common;

use common::{magus, succeeds, temp_dir};

fn variant(name: &str) -> &'static Variant {
    Registry::builtin()
        .get(name)
        .unwrap_or_else(|| panic!("no variant {name}"))
}

/// Chess with the hand-set weights (`Weights::defaults`): no square tables, whose
/// weights are collinear with the material's and the placement's (a fit could not tell
/// them apart), and a King-attack weight that leaves three Queens below the danger cap.
fn handset_chess() -> &'static Variant {
    let v = variant("chess");
    with_weights(v, Weights::defaults(v))
}

/// A copy of a variant with other weights.
fn with_weights(v: &'static Variant, weights: Weights) -> &'static Variant {
    let mut copy = v.clone();
    copy.weights = weights;
    Box::leak(Box::new(copy))
}

/// Positions of a variant from random games: every position of `games` random games of up
/// to `plies` plies, from the start.
fn random_positions(
    v: &'static Variant,
    games: usize,
    plies: usize,
    seed: u64,
) -> Vec<AnyPosition> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = AnyPosition::from_fen(v, None).unwrap();
        let length = rng.random_range(4..plies);
        for _ in 0..length {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.after(moves[rng.random_range(0..moves.len())]);
            out.push(pos);
        }
    }
    out
}

/// The same position under another variant object (the same rules, other weights).
fn under(v: &'static Variant, pos: &AnyPosition) -> AnyPosition {
    AnyPosition::from_fen(v, Some(&pos.to_fen())).unwrap()
}

fn white_eval(pos: &AnyPosition) -> i32 {
    with_position!(pos, p => {
        let e = evaluate(p, EvalTables::of(p.layout()));
        if p.side() == Color::White { e } else { -e }
    })
}

fn trace_of(pos: &AnyPosition) -> magus::eval::Trace {
    with_position!(pos, p => trace(p, EvalTables::of(p.layout())))
}

fn values(w: &Weights) -> Vec<[i32; 2]> {
    w.list.iter().map(|w| w.value).collect()
}

/// Every weight moved by a random amount (within its range), so that no weight is zero and
/// a wrong count for any of them shows.
fn perturbed(w: &Weights, rng: &mut StdRng) -> Weights {
    let mut out = w.clone();
    for weight in &mut out.list {
        let mut pick = |v: i32| -> i32 {
            let spread = (v.abs() / 2).max(12);
            match (v + rng.random_range(-spread..=spread)).clamp(weight.min, weight.max) {
                0 if weight.max > 0 => 1,
                0 => -1,
                moved => moved,
            }
        };
        weight.value = match weight.shape {
            Shape::Pair => [pick(weight.value[0]), pick(weight.value[1])],
            Shape::Single | Shape::Units => {
                let v = pick(weight.value[0]);
                [v, v]
            }
        };
    }
    out
}

fn with_square_tables(w: &Weights) -> Weights {
    let mut out = w.clone();
    out.add_square_tables();
    out
}

fn pieces_on_board(pos: &AnyPosition) -> i32 {
    with_position!(pos, p => p.occupied().count() as i32)
}

#[test]
fn the_trace_is_the_evaluation_as_a_linear_form_of_every_weight() {
    let mut rng = StdRng::seed_from_u64(7);
    for v in Registry::builtin().all() {
        for round in 0..4 {
            // Round 0: the variant's own weights; then every weight moved; last, with square
            // tables too.
            let weights = match round {
                0 => v.weights.clone(),
                1 | 2 => perturbed(&v.weights, &mut rng),
                _ => perturbed(&with_square_tables(&v.weights), &mut rng),
            };
            let tuned = with_weights(v, weights.clone());
            for pos in random_positions(v, 6, 80, 11 + round) {
                let pos = under(tuned, &pos);
                let t = trace_of(&pos);
                let real = white_eval(&pos);
                assert_eq!(t.white, real, "{}: the trace's own sum", pos.to_fen());
                let linear = t.linear(&values(&weights));
                // The real evaluation rounds each scaled placement bonus, each passed pawn,
                // each droppable piece and the blend: at most a point per piece, and a few.
                let slack = pieces_on_board(&pos) as f64 + 6.0;
                assert!(
                    (linear - real as f64).abs() <= slack,
                    "{} ({}, weights round {round}): the linear form gives {linear:.1}, the evaluation {real}",
                    pos.to_fen(),
                    v.name
                );
            }
        }
    }
}

/// How far a weight is moved to see what it does: far, so that a count that is off by a few
/// percent shows above the rounding of the real evaluation.
fn far_move(w: &magus::variant::weights::Weight, phase: usize, by: i32) -> i32 {
    let v = w.value[phase];
    if v + by <= w.max {
        by
    } else if v - by >= w.min {
        -by
    } else if w.max - v >= v - w.min {
        w.max - v
    } else {
        w.min - v
    }
}

#[test]
fn each_weight_moves_the_evaluation_as_its_count_in_the_trace_says() {
    // Every variant as built in, then with square tables added, perturbed so that no
    // square is zero. A square table has hundreds of weights alike: every ninth is moved.
    let mut rng = StdRng::seed_from_u64(29);
    let builtin = Registry::builtin();
    let with_tables: Vec<&'static Variant> = builtin
        .all()
        .iter()
        .map(|v| with_weights(v, perturbed(&with_square_tables(&v.weights), &mut rng)))
        .collect();
    for v in builtin.all().iter().copied().chain(with_tables) {
        let positions: Vec<AnyPosition> = random_positions(v, 8, 90, 23)
            .iter()
            .map(|p| under(v, p))
            .collect();
        let before: Vec<(i32, magus::eval::Trace)> = positions
            .iter()
            .map(|p| (white_eval(p), trace_of(p)))
            .collect();
        let mut squares_seen = 0;
        for (i, w) in v.weights.list.iter().enumerate() {
            if w.key.starts_with("squares.") {
                squares_seen += 1;
                if squares_seen % 9 != 1 {
                    continue;
                }
            }
            // Not linear, and held by the fit: no count of the trace scales it.
            if w.shape == Shape::Units {
                continue;
            }
            let phases: &[usize] = match w.shape {
                Shape::Pair => &[0, 1],
                _ => &[0],
            };
            for &phase in phases {
                // Singles scale terms that are capped: a small move crosses fewer caps.
                let by = match w.shape {
                    Shape::Pair => far_move(w, phase, 1000),
                    _ => far_move(w, phase, 3),
                };
                let mut moved = v.weights.clone();
                match w.shape {
                    Shape::Pair => moved.list[i].value[phase] += by,
                    _ => moved.list[i].value = [w.value[0] + by; 2],
                }
                let moved_variant = with_weights(v, moved);
                let (mut counted, mut wrong) = (0, Vec::new());
                for (pos, (eval, t)) in positions.iter().zip(&before) {
                    let after = white_eval(&under(moved_variant, pos));
                    let rho = t.phase as f64 / t.total_phase as f64;
                    let (mg, eg) = t
                        .counts
                        .iter()
                        .find(|c| c.0 as usize == i)
                        .map_or((0.0, 0.0), |c| (c.1 as f64, c.2 as f64));
                    let per_unit = match (w.shape, phase) {
                        (Shape::Pair, 0) => mg * rho,
                        (Shape::Pair, _) => eg * (1.0 - rho),
                        _ => mg * rho + eg * (1.0 - rho),
                    };
                    let (real, model) = ((after - eval) as f64, per_unit * by as f64);
                    if real == 0.0 && model == 0.0 {
                        continue;
                    }
                    counted += 1;
                    // Each evaluation rounds the blend, and each piece's part of a term
                    // (a passed pawn's bonus, a scaled placement); a single weight's terms
                    // are rounded per side or per reserve.
                    let slack = match w.shape {
                        Shape::Pair => 3.0 + pieces_on_board(pos) as f64 / 2.0,
                        _ => 8.0,
                    };
                    if (real - model).abs() > slack {
                        wrong.push(format!(
                            "{}: moved {real}, the trace says {model:.1}",
                            pos.to_fen()
                        ));
                    }
                }
                // A capped term may cross its cap now and then; a linear one never strays.
                let allowed = match w.shape {
                    Shape::Pair => 0,
                    _ => counted / 20,
                };
                assert!(
                    wrong.len() <= allowed,
                    "{} {} (phase {phase}, moved by {by}): {} of {counted} positions off, e.g. {}",
                    v.name,
                    w.key,
                    wrong.len(),
                    wrong[0]
                );
            }
        }
    }
}

#[test]
fn the_trace_counts_a_weight_where_its_term_is() {
    // A passed pawn on the 6th rank counts the passed-pawn weight by its progress; a Knight
    // counts its material once; the side to move counts the tempo.
    let v = variant("chess");
    let pos = AnyPosition::from_fen(v, Some("4k3/8/3P4/8/8/8/8/1N2K3 w - - 0 1")).unwrap();
    let t = trace_of(&pos);
    let count = |key: &str| {
        let i = v.weights.index(key).unwrap() as u16;
        t.counts
            .iter()
            .find(|c| c.0 == i)
            .map(|c| (c.1, c.2))
            .unwrap_or((0.0, 0.0))
    };
    assert_eq!(count("material.N"), (1.0, 1.0));
    assert_eq!(count("material.P"), (1.0, 1.0));
    assert_eq!(count("tempo"), (1.0, 1.0));
    let (mg, eg) = count("pawns.passed");
    assert!(
        (mg - 0.66).abs() < 0.01 && mg == eg,
        "passed pawn counted {mg}"
    );
    assert_eq!(count("material.Q"), (0.0, 0.0));
    // Only the weights that count at all are listed.
    assert!(
        t.counts.iter().all(|c| c.1 != 0.0 || c.2 != 0.0),
        "{:?}",
        t.counts
    );
}

/// The count of weight `key` in the trace of `fen` (chess), White's less Black's.
fn chess_count(fen: &str, key: &str) -> (f32, f32) {
    let v = variant("chess");
    let pos = AnyPosition::from_fen(v, Some(fen)).unwrap();
    let i = v.weights.index(key).unwrap() as u16;
    trace_of(&pos)
        .counts
        .iter()
        .find(|c| c.0 == i)
        .map(|c| (c.1, c.2))
        .unwrap_or((0.0, 0.0))
}

#[test]
fn a_piece_attacked_and_not_defended_hangs() {
    // The Rook on d1 attacks the Knight on d5; nothing defends it until a pawn on e6 does.
    assert_eq!(
        chess_count("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "threats.hanging"),
        (1.0, 1.0)
    );
    assert_eq!(
        chess_count("4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1", "threats.hanging"),
        (0.0, 0.0)
    );
    // A pawn left alone is no hanging piece; the King defends what stands next to it.
    assert_eq!(
        chess_count("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "threats.hanging"),
        (0.0, 0.0)
    );
    assert_eq!(
        chess_count("8/8/3nk3/8/8/8/8/3RK3 w - - 0 1", "threats.hanging"),
        (0.0, 0.0)
    );
}

#[test]
fn a_square_an_enemy_pawn_attacks_is_no_safe_mobility() {
    // A pawn on b4 takes a3 and c3 from the Knight on b1.
    let free = chess_count("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "safe_mobility.N");
    let watched = chess_count("4k3/8/8/8/1p6/8/8/1N2K3 w - - 0 1", "safe_mobility.N");
    assert_eq!(free.0 - watched.0, 2.0, "{free:?} {watched:?}");
    // Its own pieces take squares too: a Knight behind pawns on a3, c3 and d2 has none.
    let boxed = chess_count("4k3/8/8/8/8/P1P5/3P4/1N2K3 w - - 0 1", "safe_mobility.N");
    assert_eq!(free.0 - boxed.0, 3.0, "{free:?} {boxed:?}");
}

#[test]
fn a_passed_pawn_counts_its_blocker_and_the_kings_race_by_its_progress() {
    // d6 has come 4 of 6 ranks; its next square d7. White's King on e1 is 6 from d7.
    let fen = |black_king: &str| format!("{black_king}/3P4/8/8/8/8/4K3 w - - 0 1");
    let open = fen("4k3/8");
    let (mg, _) = chess_count(&open, "pawns.passed_king_distance");
    // Black's King on e8 is 1 from d7: 1 − 6 = −5, times 0.66.
    assert!((mg + 5.0 * 0.66).abs() < 0.01, "{mg}");
    assert_eq!(chess_count(&open, "pawns.passed_blocked"), (0.0, 0.0));
    let blocked = fen("8/3k4");
    let (mg, eg) = chess_count(&blocked, "pawns.passed_blocked");
    assert!((mg - 0.66).abs() < 0.01 && mg == eg, "{mg}");
    let (mg, _) = chess_count(&blocked, "pawns.passed_king_distance");
    assert!((mg + 6.0 * 0.66).abs() < 0.01, "{mg}");
}

#[test]
fn a_kind_that_can_check_from_an_unguarded_square_counts_once() {
    // The Rook on a1 checks from a8, which Black's King on e8 does not guard.
    let rook = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    assert_eq!(chess_count(rook, "king_safety.safe_check"), (1.0, 1.0));
    // A Rook on b8 guards a8 and stands between: no safe check is left.
    let guarded = "1r2k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    assert_eq!(chess_count(guarded, "king_safety.safe_check"), (0.0, 0.0));
    // A Knight on e4 adds its own kind (d6, f6); a second Rook adds no kind.
    let knight = "4k3/8/8/8/4N3/8/8/R3K2R w - - 0 1";
    assert_eq!(chess_count(knight, "king_safety.safe_check"), (2.0, 2.0));
    // A square the King guards is no safe check: a Rook on d1 checks only from d8.
    let next_to_the_king = "4k3/8/8/8/8/8/8/3RK3 w - - 0 1";
    assert_eq!(
        chess_count(next_to_the_king, "king_safety.safe_check"),
        (0.0, 0.0)
    );
}

#[test]
fn a_slider_on_a_file_without_its_own_pawns_counts_open_or_half_open() {
    let on_a = |pawns: &str| format!("4k3/{pawns}/8/8/8/8/8/R3K3 w - - 0 1");
    let open = on_a("8");
    assert_eq!(chess_count(&open, "open_file.R"), (1.0, 1.0));
    assert_eq!(chess_count(&open, "semi_open_file.R"), (0.0, 0.0));
    let half = on_a("p7");
    assert_eq!(chess_count(&half, "open_file.R"), (0.0, 0.0));
    assert_eq!(chess_count(&half, "semi_open_file.R"), (1.0, 1.0));
    let closed = "4k3/8/8/8/8/8/P7/R3K3 w - - 0 1";
    assert_eq!(chess_count(closed, "open_file.R"), (0.0, 0.0));
    assert_eq!(chess_count(closed, "semi_open_file.R"), (0.0, 0.0));
}

#[test]
fn pawns_side_by_side_count_as_a_phalanx_by_how_far_they_have_come() {
    // d4 and e4 have come 2 of 6 ranks each: two pawns, a third of the way.
    let (mg, eg) = chess_count("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", "pawns.phalanx");
    assert!((mg - 2.0 * 0.33).abs() < 0.01 && mg == eg, "{mg}");
    // Pawns on d4 and e3 stand on different ranks: no phalanx (but one defends the other).
    let chain = "4k3/8/8/8/3P4/4P3/8/4K3 w - - 0 1";
    assert_eq!(chess_count(chain, "pawns.phalanx"), (0.0, 0.0));
    assert_eq!(chess_count(chain, "pawns.supported"), (1.0, 1.0));
    // Pawns on a4 and h4 are not beside one another across the board's edge.
    let apart = "4k3/8/8/8/P6P/8/8/4K3 w - - 0 1";
    assert_eq!(chess_count(apart, "pawns.phalanx"), (0.0, 0.0));
}

/// Each case: what it shows, a chess position, and the count of `key` in it (White's less
/// Black's, the same in both phases).
fn assert_counts(key: &str, cases: &[(&str, &str, f32)]) {
    for &(what, fen, count) in cases {
        assert_eq!(
            chess_count(fen, key),
            (count, count),
            "{key}: {what} ({fen})"
        );
    }
}

#[test]
fn a_pawn_no_neighbour_can_support_and_an_enemy_pawn_stops_is_backward() {
    assert_counts(
        "pawns.backward",
        &[
            (
                "d3 behind c4, so none can come level with it; e5 attacks d4, its next square",
                "4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1",
                1.0,
            ),
            (
                "without the pawn on e5 it may advance",
                "4k3/8/8/8/2P5/3P4/8/4K3 w - - 0 1",
                0.0,
            ),
            (
                "a pawn on c2, behind d3, could still come to support it",
                "4k3/8/8/4p3/8/3P4/2P5/4K3 w - - 0 1",
                0.0,
            ),
            (
                "an isolated pawn is isolated, not backward",
                "4k3/8/8/4p3/8/3P4/8/4K3 w - - 0 1",
                0.0,
            ),
        ],
    );
}

#[test]
fn an_advanced_piece_a_pawn_defends_and_no_enemy_pawn_can_attack_is_on_an_outpost() {
    assert_counts(
        "outpost.N",
        &[
            (
                "the Knight on d5, defended by e4, where a7 and h7 can never attack it",
                "4k3/p6p/8/3N4/4P3/8/8/4K3 w - - 0 1",
                1.0,
            ),
            (
                "a pawn on c7 can come to c6 and drive it away",
                "4k3/p1p4p/8/3N4/4P3/8/8/4K3 w - - 0 1",
                0.0,
            ),
            ("undefended", "4k3/p6p/8/3N4/8/8/8/4K3 w - - 0 1", 0.0),
            (
                "on its third rank",
                "4k3/p6p/8/8/8/3N4/4P3/4K3 w - - 0 1",
                0.0,
            ),
            (
                "Black's on e4 (its fifth rank), defended by d5, against White",
                "4k3/8/8/3p4/4n3/8/P6P/4K3 w - - 0 1",
                -1.0,
            ),
        ],
    );
}

#[test]
fn two_pieces_of_a_kind_count_as_a_pair() {
    let pair = "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1";
    assert_eq!(chess_count(pair, "pair.B"), (1.0, 1.0));
    assert_eq!(
        chess_count("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "pair.B"),
        (0.0, 0.0)
    );
    // Black's pair is counted against White's.
    assert_eq!(
        chess_count("2b1kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1", "pair.B"),
        (0.0, 0.0)
    );
    assert_eq!(
        chess_count("2b1kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", "pair.B"),
        (-1.0, -1.0)
    );
}

#[test]
fn a_square_weight_counts_on_its_square_and_its_mirror_from_each_sides_view() {
    // `squares.Nc3` is a White Knight on c3 or f3 and a Black one on c6 or f6.
    let definition = magus::variant::builtin::BUILTIN
        .iter()
        .find(|(f, _)| f.ends_with("/chess.toml") || *f == "chess.toml")
        .unwrap()
        .1;
    let chess_with = |section: &str| -> &'static Variant {
        Box::leak(Box::new(
            parse_variant(&replace_section(definition, section), "c.toml").unwrap(),
        ))
    };
    let chess = chess_with("[eval]\n");
    let with_table = chess_with("[eval.squares]\nNc3 = [40, 20]\n");
    assert!(with_table.weights.has_square_tables());
    assert!(!chess.weights.has_square_tables());
    // A pawn each: a lone Knight ahead would be scaled to a draw (`eval/endgame.rs`).
    let cases = [
        ("4k3/p7/8/8/8/2N5/7P/4K3 w - - 0 1", 1),
        ("4k3/p7/8/8/8/5N2/7P/4K3 b - - 0 1", 1),
        ("4k3/p7/8/8/2N5/8/7P/4K3 w - - 0 1", 0),
        ("4k3/p7/8/8/8/3N4/7P/4K3 w - - 0 1", 0),
        ("4k3/p7/2n5/8/8/8/7P/4K3 w - - 0 1", -1),
        ("4k3/p7/5n2/8/8/8/7P/4K3 b - - 0 1", -1),
        ("4k3/p7/8/8/8/2n5/7P/4K3 w - - 0 1", 0),
    ];
    for (fen, sign) in cases {
        let plain = AnyPosition::from_fen(chess, Some(fen)).unwrap();
        let tabled = under(with_table, &plain);
        let t = trace_of(&tabled);
        let blend = (40 * t.phase + 20 * (t.total_phase - t.phase)) as f64 / t.total_phase as f64;
        let moved = (white_eval(&tabled) - white_eval(&plain)) as f64;
        // Each evaluation rounds its blend once.
        assert!(
            (moved - sign as f64 * blend).abs() <= 1.0,
            "{fen}: moved {moved}, the weight is {blend:.1} here"
        );
    }
}

#[test]
fn square_tables_round_trip_and_leave_out_the_squares_never_moved() {
    // From the hand-set weights, with tables at zero but for one square.
    let v = variant("magi");
    let handset = Weights::defaults(v);
    let mut weights = with_square_tables(&handset);
    let (moved, unmoved) = ("squares.Dc4", "squares.Da1");
    let at = weights.index(moved).unwrap();
    weights.list[at].value = [17, -5];
    let text = weights.to_toml(&["test".into()]);
    assert!(
        text.contains("[eval.squares]") && text.contains("Dc4 "),
        "{text}"
    );
    assert!(!text.contains("Da1 "), "{text}");
    let read = handset.read_section(&text, "p.toml").unwrap();
    assert_eq!(read, weights);
    assert_eq!(read.get(unmoved).unwrap().value, [0, 0]);
    // A table covers the board's left half, middle file included, on every rank.
    let squares = read
        .list
        .iter()
        .filter(|w| w.key.starts_with("squares.D"))
        .count();
    assert_eq!(squares, 5 * 10);
    assert!(read.get("squares.De10").is_some() && read.get("squares.Df1").is_none());
    // Each says where it stands; on 7x7 the middle file is its own mirror.
    assert_eq!(read.get(moved).unwrap().about, "Duke on c4 (and h4)");
    let small = with_square_tables(&variant("magician-chess").weights);
    assert_eq!(small.get("squares.Kd4").unwrap().about, "King on d4");
    assert_eq!(
        small.get("squares.Kc4").unwrap().about,
        "King on c4 (and e4)"
    );
}

/// A fit on the game results alone, at a step of 3 centipawns.
fn fit_options(epochs: usize, frozen: Vec<bool>, ridge: Vec<f64>) -> Options {
    Options {
        epochs,
        learning_rate: 3.0,
        lambda: 1.0,
        frozen,
        ridge,
    }
}

/// Data made by the evaluation with known weights: each position's target is what that
/// evaluation predicts through the sigmoid.
fn synthetic(truth: &'static Variant, start: &'static Variant, k: f64) -> (Dataset, Slots) {
    let slots = Slots::new(&start.weights);
    let mut data = Dataset::new();
    for pos in random_positions(start, 400, 90, 5) {
        let quiet = with_position!(&pos, p => !p.in_check());
        if !quiet {
            continue;
        }
        let target = fit::sigmoid(k * white_eval(&under(truth, &pos)) as f64);
        data.push(&trace_of(&pos), &slots, target as f32, 0.0);
    }
    (data, slots)
}

#[test]
fn the_tuner_recovers_known_weights_from_their_own_predictions() {
    let v = handset_chess();
    let mut truth = v.weights.clone();
    let set = |w: &mut Weights, key: &str, value: [i32; 2]| {
        let i = w.index(key).unwrap();
        w.list[i].value = value;
    };
    set(&mut truth, "material.P", [85, 140]);
    set(&mut truth, "material.N", [410, 360]);
    set(&mut truth, "material.B", [280, 380]);
    set(&mut truth, "material.R", [430, 600]);
    set(&mut truth, "material.Q", [1100, 900]);
    set(&mut truth, "mobility.B", [7, 1]);
    set(&mut truth, "pawns.passed", [20, 220]);
    set(&mut truth, "tempo", [30, 0]);
    let truth_variant = with_weights(v, truth.clone());
    let k = 0.006;
    let (data, slots) = synthetic(truth_variant, v, k);
    assert!(data.len() > 10_000, "{} positions", data.len());

    // The scale: with the true weights, the fitted K is the one the data was made with.
    let fitted = fit::fit_scale(&data, &slots.vector(&truth), 1.0);
    assert!(
        (fitted / k - 1.0).abs() < 0.05,
        "K fitted {fitted}, made with {k}"
    );

    let mut x = slots.vector(&v.weights);
    let options = fit_options(4000, vec![false; slots.len()], Vec::new());
    let start_loss = data.loss(&x, k, 1.0);
    let end_loss = fit::fit(&data, &slots, &mut x, k, &options, &mut |_, _| {});
    assert!(
        end_loss < start_loss / 20.0,
        "loss {start_loss} -> {end_loss}"
    );
    let found = slots.weights(&v.weights, &x);
    for key in [
        "material.P",
        "material.N",
        "material.B",
        "material.R",
        "material.Q",
        "mobility.B",
        "pawns.passed",
        "tempo",
    ] {
        let (want, got) = (truth.get(key).unwrap().value, found.get(key).unwrap().value);
        for phase in 0..2 {
            let tolerance = (want[phase].abs() / 20).max(8);
            assert!(
                (want[phase] - got[phase]).abs() <= tolerance,
                "{key}: made with {want:?}, fitted {got:?}"
            );
        }
    }
}

#[test]
fn a_frozen_weight_stays_where_it_is() {
    let v = handset_chess();
    let mut truth = v.weights.clone();
    let i = truth.index("material.N").unwrap();
    truth.list[i].value = [420, 420];
    let (data, slots) = synthetic(with_weights(v, truth), v, 0.006);
    let mut x = slots.vector(&v.weights);
    let mut frozen = vec![false; slots.len()];
    let (m, e) = slots.of[i];
    frozen[m as usize] = true;
    frozen[e as usize] = true;
    let options = fit_options(100, frozen, Vec::new());
    fit::fit(&data, &slots, &mut x, 0.006, &options, &mut |_, _| {});
    let found = slots.weights(&v.weights, &x);
    let start = |key: &str| v.weights.get(key).unwrap().value;
    assert_ne!(start("material.N"), [420, 420]);
    assert_eq!(found.get("material.N").unwrap().value, start("material.N"));
    assert_ne!(found.get("material.B").unwrap().value, start("material.B"));
}

/// A weight that shapes a term rather than scaling it (attack units squared with the rest)
/// is held by the fit even where the data were made with another value of it.
#[test]
fn a_fit_holds_a_units_weight_where_it_is() {
    let v = handset_chess();
    let mut truth = v.weights.clone();
    let i = truth.index("king_safety.weak_square").unwrap();
    assert_eq!(truth.list[i].shape, Shape::Units);
    truth.list[i].value = [6, 6];
    let truth = with_weights(v, truth);
    let differ = random_positions(v, 50, 90, 5)
        .iter()
        .filter(|p| white_eval(&under(truth, p)) != white_eval(&under(v, p)))
        .count();
    assert!(differ > 0, "the units change no evaluation");
    let (data, slots) = synthetic(truth, v, 0.006);
    let mut x = slots.vector(&v.weights);
    let options = fit_options(100, vec![false; slots.len()], Vec::new());
    fit::fit(&data, &slots, &mut x, 0.006, &options, &mut |_, _| {});
    let found = slots.weights(&v.weights, &x);
    let start = |key: &str| v.weights.get(key).unwrap().value;
    assert_eq!(
        found.get("king_safety.weak_square").unwrap().value,
        start("king_safety.weak_square")
    );
    assert_ne!(found.get("material.B").unwrap().value, start("material.B"));
}

#[test]
fn a_ridge_pulls_the_weights_it_is_given_towards_zero() {
    // Data made with a Knight worth 150 more on c3/f3: fitted freely the square gets most
    // of it back; under a strong ridge on that square alone it stays small.
    let v = handset_chess();
    let start = with_weights(v, with_square_tables(&v.weights));
    let mut truth = start.weights.clone();
    let i = truth.index("squares.Nc3").unwrap();
    truth.list[i].value = [150, 150];
    let k = 0.006;
    let (data, slots) = synthetic(with_weights(v, truth), start, k);
    let (m, e) = slots.of[i];
    let fitted = |pull: f64| {
        let mut ridge = vec![0.0; slots.len()];
        ridge[m as usize] = pull;
        ridge[e as usize] = pull;
        let options = fit_options(300, vec![false; slots.len()], ridge);
        let mut x = slots.vector(&start.weights);
        fit::fit(&data, &slots, &mut x, k, &options, &mut |_, _| {});
        slots.weights(&start.weights, &x)
    };
    let (free, pulled) = (fitted(0.0), fitted(1.0));
    let square = |w: &Weights| w.get("squares.Nc3").unwrap().value;
    let (free, pulled) = (square(&free), square(&pulled));
    assert!(free.iter().all(|&v| v > 60), "free {free:?}");
    assert!(
        pulled.iter().all(|&v| v.abs() < 20),
        "pulled {pulled:?}, free {free:?}"
    );
}

#[test]
fn every_variants_weights_round_trip_through_a_parameters_file() {
    let mut rng = StdRng::seed_from_u64(3);
    for v in Registry::builtin().all() {
        for weights in [v.weights.clone(), perturbed(&v.weights, &mut rng)] {
            let text = weights.to_toml(&["test".into()]);
            let read = v
                .weights
                .read_section(&text, "params.toml")
                .unwrap_or_else(|e| panic!("{}: {e}\n{text}", v.name));
            assert_eq!(read, weights, "{}", v.name);
            // The same section inside the variant's own definition.
            let definition = magus::variant::builtin::BUILTIN
                .iter()
                .find(|(f, _)| v.source.ends_with(f))
                .unwrap()
                .1;
            let rewritten = replace_section(definition, &text);
            let parsed = parse_variant(&rewritten, "rewritten.toml").unwrap();
            assert_eq!(parsed.weights, weights, "{}", v.name);
            assert_eq!(parsed.pieces.len(), v.pieces.len());
            assert_eq!(parsed.start_fen, v.start_fen);
        }
    }
}

#[test]
fn a_partial_section_keeps_the_other_weights() {
    let v = variant("magi");
    let read = v
        .weights
        .read_section("[eval.material]\nD = [420, 460]\n", "p.toml")
        .unwrap();
    assert_eq!(read.get("material.D").unwrap().value, [420, 460]);
    let changed: Vec<_> = read
        .list
        .iter()
        .zip(&v.weights.list)
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(changed.len(), 1);
}

#[test]
fn a_bad_parameters_file_is_refused_naming_the_file_and_the_key() {
    let chess = variant("chess");
    let cases = [
        (
            "[eval.material]\nN = [300, 300]\nX = [1, 2]\n",
            "eval.material.X",
            "line 3",
        ),
        ("[eval.pawns]\npassed = 5\n", "eval.pawns.passed", "line 2"),
        (
            "[eval.pawns]\npassed = [5, \"x\"]\n",
            "eval.pawns.passed",
            "line 2",
        ),
        (
            "[eval.king_safety]\nattack = -3\n",
            "eval.king_safety.attack",
            "out of range",
        ),
        (
            "[eval.spells]\ndroppable = [1, 1]\n",
            "eval.spells",
            "line 1",
        ),
        ("[eval]\ntempos = [1, 1]\n", "eval.tempos", "line 2"),
        ("[eval.material]\nK = [1, 1]\n", "eval.material.K", "line 2"),
        // A square table covers the left half (its right is the mirror) of the board.
        (
            "[eval.squares]\nNe3 = [1, 1]\n",
            "eval.squares.Ne3",
            "line 2",
        ),
        (
            "[eval.squares]\nNc9 = [1, 1]\n",
            "eval.squares.Nc9",
            "line 2",
        ),
        (
            "[eval]\ntempo = [1, 1]\n[other]\nx = 1\n",
            "other",
            "only the [eval] section",
        ),
    ];
    for (text, key, detail) in cases {
        let e = chess
            .weights
            .read_section(text, "tuned/chess-params.toml")
            .expect_err(text);
        assert!(e.starts_with("tuned/chess-params.toml: "), "{e}");
        assert!(e.contains(&format!("'{key}'")), "{text}: {e}");
        assert!(e.contains(detail), "{text}: {e}");
    }
    let e = chess.weights.read_section("[eval\n", "p.toml").unwrap_err();
    assert!(e.starts_with("p.toml: line 1"), "{e}");
}

#[test]
fn a_variant_file_with_a_bad_eval_key_is_refused_naming_the_file_and_the_key() {
    let definition = magus::variant::builtin::BUILTIN
        .iter()
        .find(|(f, _)| f.ends_with("royal-magician.toml"))
        .unwrap()
        .1;
    let bad = replace_section(definition, "[eval.drops]\nreserve_share = 170\n");
    let e = parse_variant(&bad, "mine/royal.toml").unwrap_err();
    assert!(e.starts_with("mine/royal.toml: "), "{e}");
    assert!(e.contains("'eval.drops.reserve_share'"), "{e}");
    assert!(e.contains("out of range"), "{e}");
    // Loaded from a path, the problem carries its line.
    let dir = temp_dir("bad-eval");
    let path = dir.join("royal.toml");
    std::fs::write(&path, &bad).unwrap();
    let mut registry = Registry::builtin();
    let defs = registry
        .load_path(&path, &magus::game::check_variant)
        .unwrap();
    let problems = defs[0].outcome.as_ref().unwrap_err();
    let shown = problems[0].to_string();
    assert!(shown.contains("royal.toml"), "{shown}");
    assert!(shown.contains("eval.drops.reserve_share"), "{shown}");
    assert!(problems[0].line.is_some(), "{shown}");
}

#[test]
fn a_game_line_reads_back_as_written() {
    let game = GameRecord {
        index: 17,
        result: GameResult::BlackWins,
        start: "rnbmkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR[KBNR,MBNR,kbnr,mbnr] w KQkq - 0 1"
            .into(),
        plies: vec![
            Ply {
                wire: "e2e4".into(),
                score: Some(-35),
            },
            Ply {
                wire: "e3e4,n@c5".into(),
                score: None,
            },
        ],
    };
    let line = game.to_line();
    assert_eq!(GameRecord::parse(&line).unwrap(), game);
    assert_eq!(game.kept(), 1);
    let header = Header {
        variant: "magi".into(),
        seed: 9,
        nodes: 700,
        random_plies: 6,
        balance: None,
        shard: None,
        net: None,
    };
    assert_eq!(Header::parse(&header.to_line()).unwrap(), header);
    let other = Header {
        seed: 10,
        ..header.clone()
    };
    assert!(header.mismatch(&other).unwrap().contains("seed 9, not 10"));
    // Games played by a net name it; a file of the hand-made evaluation's games is not
    // continued with a net's, nor one net's with another's.
    let by_net = Header {
        net: Some(0x0123_4567_89ab_cdef),
        ..header.clone()
    };
    assert!(by_net.to_line().ends_with(" net=0123456789abcdef"));
    assert_eq!(Header::parse(&by_net.to_line()).unwrap(), by_net);
    assert!(header.mismatch(&by_net).unwrap().contains("net none"));
    let other_net = Header {
        net: Some(7),
        ..by_net.clone()
    };
    assert!(
        by_net
            .mismatch(&other_net)
            .unwrap()
            .contains("net 0123456789abcdef, not 0000000000000007")
    );
    assert!(Header::parse(&format!("{} net=xyz", header.to_line())).is_err());
    for bad in [
        "17 1-0 8/8 w",
        "x 1-0 fen|e2e4",
        "3 2-0 fen|e2e4",
        "3 1-0 fen|e2e4:x",
    ] {
        assert!(GameRecord::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_data_file_with_an_illegal_move_is_refused_naming_the_file_and_the_line() {
    let dir = temp_dir("illegal");
    let path = dir.join("bad.data");
    let v = variant("chess");
    let header = Header {
        variant: "chess".into(),
        seed: 1,
        nodes: 100,
        random_plies: 0,
        balance: None,
        shard: None,
        net: None,
    };
    let start = AnyPosition::from_fen(v, None).unwrap().to_fen();
    std::fs::write(
        &path,
        format!(
            "{}\n0 1-0 {start}|e2e4:20 e7e5\n1 0-1 {start}|e2e5:10\n",
            header.to_line()
        ),
    )
    .unwrap();
    let slots = Slots::new(&v.weights);
    let Err(e) = magus::tune::load::load(std::slice::from_ref(&path), v, &slots) else {
        panic!("a file with an illegal move was read");
    };
    assert!(e.contains("bad.data: line 3"), "{e}");
    assert!(e.contains("e2e5"), "{e}");
    // A file of another variant is refused too.
    let e = magus::tune::load::load(
        &[path],
        variant("magi"),
        &Slots::new(&variant("magi").weights),
    )
    .err()
    .unwrap();
    assert!(e.contains("variant 'chess', not 'magi'"), "{e}");
}

#[test]
fn the_quiet_filter_keeps_no_capture_and_no_check() {
    let v = variant("chess");
    let pos = AnyPosition::from_fen(v, Some("4k3/8/8/3p4/4P3/8/8/4K2R w K - 0 1")).unwrap();
    let (_, take) = pos.after_wire("e4d5", 1).unwrap();
    let (_, push) = pos.after_wire("h1h7", 1).unwrap();
    let (_, castle) = pos.after_wire("e1g1", 1).unwrap();
    assert!(!data::is_quiet(&pos, take));
    assert!(data::is_quiet(&pos, push));
    assert!(data::is_quiet(&pos, castle));
    let checked = AnyPosition::from_fen(v, Some("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")).unwrap();
    let (_, step) = checked.after_wire("e1f1", 1).unwrap();
    assert!(!data::is_quiet(&checked, step));
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn datagen_gives_the_same_file_in_one_run_or_continued_on_any_threads() {
    let dir = temp_dir("datagen");
    let whole = dir.join("whole.data");
    let parts = dir.join("parts.data");
    let common = [
        "datagen",
        "--variant",
        "chess",
        "--nodes",
        "200",
        "--seed",
        "5",
        "--random-plies",
        "6",
    ];
    let run = |games: &str, threads: &str, out: &Path| {
        let mut args = common.to_vec();
        args.extend([
            "--games",
            games,
            "--threads",
            threads,
            "-o",
            out.to_str().unwrap(),
        ]);
        succeeds(&args)
    };
    run("4", "1", &whole);
    run("2", "2", &parts);
    // An interrupted run: its last line is cut short.
    let text = read(&parts);
    let cut = text.len() - text.lines().last().unwrap().len() / 2 - 1;
    std::fs::write(&parts, &text[..cut]).unwrap();
    let said = run("4", "2", &parts);
    assert!(
        said.contains("3 games played (1 to 4, of --games 4)"),
        "{said}"
    );
    assert_eq!(read(&whole), read(&parts));

    let file = data::read(&whole).unwrap();
    assert_eq!(file.games.len(), 4);
    assert!(!file.cut_short);
    let v = variant("chess");
    let mut kept = 0;
    for game in &file.games {
        for s in game.samples(v).unwrap() {
            assert!(!with_position!(&s.position, p => p.in_check()));
            kept += 1;
        }
    }
    assert!(kept > 20, "{kept} positions kept");
    // Nothing left to play; other settings are refused.
    assert!(run("4", "1", &whole).contains("nothing to play"));
    let out = magus(&[
        "datagen",
        "--variant",
        "chess",
        "--nodes",
        "300",
        "--seed",
        "5",
        "--random-plies",
        "6",
        "--games",
        "5",
        "-o",
        whole.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.contains("whole.data") && e.contains("nodes 200, not 300"),
        "{e}"
    );
}

/// `datagen` stopped from outside (SIGTERM, as a scheduler ends a job): no game begins, the
/// games being played are finished and written, the count is printed, the status is 130, and
/// the same command goes on from the last whole game to the file one run would have written.
/// A SIGHUP ignored when it started (`nohup`) stays ignored.
#[cfg(unix)]
#[test]
fn datagen_stopped_by_a_signal_ends_on_a_whole_game() {
    use std::os::unix::process::CommandExt;
    let dir = temp_dir("datagen-stop");
    let args = |games: &str, out: &Path| -> Vec<String> {
        [
            "datagen",
            "--variant",
            "chess",
            "--nodes",
            "300",
            "--seed",
            "9",
            "--threads",
            "2",
            "--games",
            games,
            "-o",
        ]
        .iter()
        .map(|a| a.to_string())
        .chain([out.to_str().unwrap().to_string()])
        .collect()
    };
    let out = dir.join("stopped.data");
    let mut command = Command::new(env!("CARGO_BIN_EXE_magus"));
    command
        .args(args("100000", &out))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    // SAFETY: between fork and exec only signal(2), which is async-signal-safe.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGHUP, libc::SIG_IGN);
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    let games_written = || std::fs::read_to_string(&out).map_or(0, |t| t.lines().count()) - 1;
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&out).map_or(0, |t| t.lines().count()) < 2 {
        assert!(
            std::time::Instant::now() < until,
            "no game written in a minute"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let pid = child.id() as i32;
    let send = |signal| {
        // SAFETY: kill(2) on the id of a child that has not been reaped yet.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    };
    // Ignored: games go on being written.
    send(libc::SIGHUP);
    let after_hangup = games_written();
    // More games than threads: a stopped run writes only those in progress.
    while games_written() < after_hangup + 3 {
        assert!(
            std::time::Instant::now() < until,
            "no game after the SIGHUP"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended by an ignored SIGHUP"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // Signalled while other games are still being played.
    send(libc::SIGTERM);
    let status = common::wait(&mut child, 60);
    let mut said = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut said).unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    assert_eq!(err.matches("interrupted: finishing").count(), 1, "{err}");
    let file = data::read(&out).unwrap();
    assert!(!file.cut_short, "the file ends on a whole game");
    let n = file.games.len();
    assert!((3..1000).contains(&n), "{n} games");
    assert!(
        said.contains(&format!(
            "stopped: {n} games played (0 to {n}, of --games 100000)"
        )),
        "{said}"
    );
    // The same command with one game more plays exactly that one, and the file is the one a
    // single run of that many games writes.
    let m = (n + 1).to_string();
    let owned = args(&m, &out);
    let said = succeeds(&owned.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        said.contains(&format!("1 games played ({n} to {m}, of --games {m})")),
        "{said}"
    );
    let whole = dir.join("whole.data");
    let owned = args(&m, &whole);
    succeeds(&owned.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(read(&out), read(&whole));
}

/// `datagen --shard K/N`: three shards (one of them stopped and continued) hold between them
/// the games of one unsharded run, line for line, each game once; the tuner reads the shards
/// as that run, and refuses a shard given twice.
#[test]
fn datagen_shards_together_are_the_unsharded_run() {
    let dir = temp_dir("datagen-shards");
    let run = |games: &str, shard: Option<&str>, out: &Path| {
        let mut args = vec![
            "datagen",
            "--variant",
            "chess",
            "--nodes",
            "200",
            "--seed",
            "7",
            "--random-plies",
            "6",
            "--threads",
            "2",
            "--games",
            games,
            "-o",
            out.to_str().unwrap(),
        ];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        succeeds(&args)
    };
    let whole = dir.join("whole.data");
    run("5", None, &whole);
    let shard = |k: u64| dir.join(format!("shard-{k}.data"));
    // Shard 2 stopped after its first game (index 1), then continued to the end (index 4).
    assert!(
        run("2", Some("2/3"), &shard(2))
            .contains("1 games played (0 to 1, shard 2/3's 1 of --games 2)")
    );
    let said = run("5", Some("2/3"), &shard(2));
    assert!(
        said.contains("1 games played (1 to 2, shard 2/3's 2 of --games 5)"),
        "{said}"
    );
    run("5", Some("1/3"), &shard(1));
    run("5", Some("3/3"), &shard(3));

    let game_lines =
        |path: &Path| -> Vec<String> { read(path).lines().skip(1).map(str::to_string).collect() };
    let indices = |path: &Path| -> Vec<u64> {
        data::read(path)
            .unwrap()
            .games
            .iter()
            .map(|g| g.index)
            .collect()
    };
    assert_eq!(indices(&shard(1)), [0, 3]);
    assert_eq!(indices(&shard(2)), [1, 4]);
    assert_eq!(indices(&shard(3)), [2]);
    assert!(
        read(&shard(2))
            .lines()
            .next()
            .unwrap()
            .ends_with(" shard=2/3")
    );
    let mut union: Vec<String> = (1..=3).flat_map(|k| game_lines(&shard(k))).collect();
    union.sort_by_key(|l| l.split(' ').next().unwrap().parse::<u64>().unwrap());
    assert_eq!(union, game_lines(&whole), "the shards' games are the run's");

    // A shard's file is continued only as that shard.
    let out = magus(&[
        "datagen",
        "--variant",
        "chess",
        "--nodes",
        "200",
        "--seed",
        "7",
        "--random-plies",
        "6",
        "--games",
        "8",
        "--shard",
        "1/3",
        "-o",
        shard(2).to_str().unwrap(),
    ]);
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && e.contains("shard 2/3, not 1/3"),
        "{e}"
    );
    for bad in ["0/3", "4/3", "3", "a/b"] {
        let out = magus(&[
            "datagen",
            "--variant",
            "chess",
            "--games",
            "1",
            "--shard",
            bad,
            "-o",
            dir.join("bad.data").to_str().unwrap(),
        ]);
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && e.contains("--shard"), "{bad}: {e}");
    }

    // The tuner reads the three shards as the run, and a shard given twice not at all.
    let v = variant("chess");
    let slots = Slots::new(&v.weights);
    let shards: Vec<PathBuf> = (1..=3).map(shard).collect();
    let (_, from_shards) = magus::tune::load::load(&shards, v, &slots).unwrap();
    let (_, from_whole) = magus::tune::load::load(&[whole], v, &slots).unwrap();
    assert_eq!(from_shards.games, 5);
    assert_eq!(from_shards.positions, from_whole.positions);
    let twice = [shard(1), shard(2), shard(1)];
    let e = magus::tune::load::load(&twice, v, &slots).err().unwrap();
    assert!(
        e.contains("game 0 of the same run is in") && e.contains("shard-1.data"),
        "{e}"
    );
}

/// docs/cluster/datagen-shard.sh as a Kubernetes Indexed Job's pod runs it (index 1 of 2):
/// it writes shard 2/2's file, the odd games; the manifest gives SHARDS as its completions.
/// (`.ci/slurm-tests` runs it as Slurm array tasks on a real Slurm.)
#[test]
fn the_datagen_cluster_script_plays_the_shard_the_scheduler_names() {
    let dir = temp_dir("datagen-cluster");
    let cluster = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cluster");
    let out = Command::new("sh")
        .arg(cluster.join("datagen-shard.sh"))
        .env("MAGUS", env!("CARGO_BIN_EXE_magus"))
        .env("OUT", &dir)
        .env(
            "DATAGEN_FLAGS",
            "--variant chess --games 4 --nodes 200 --seed 3 --random-plies 4 --threads 1",
        )
        .env("JOB_COMPLETION_INDEX", "1")
        .env("SHARDS", "2")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = data::read(&dir.join("shard-2.data")).unwrap();
    assert_eq!(file.header.shard, Some((2, 2)));
    let indices: Vec<u64> = file.games.iter().map(|g| g.index).collect();
    assert_eq!(indices, [1, 3]);

    let manifest = read(&cluster.join("kubernetes-datagen.yaml"));
    let value_after = |key: &str| -> String {
        let at = manifest.find(key).unwrap_or_else(|| panic!("{key}")) + key.len();
        manifest[at..]
            .split_whitespace()
            .next()
            .unwrap()
            .trim_matches('"')
            .to_string()
    };
    assert_eq!(value_after("completionMode:"), "Indexed");
    assert_eq!(
        value_after("completions:"),
        value_after("- name: SHARDS\n              value:"),
        "one shard per completion"
    );
    assert!(manifest.contains("/scripts/datagen-shard.sh"));
    let sbatch = read(&cluster.join("slurm-datagen.sbatch"));
    assert!(sbatch.contains("#SBATCH --array=") && sbatch.contains("datagen-shard.sh"));
}

/// The sample shipped for this test: a few games of chess from `magus datagen`.
const SAMPLE: &str = "tests/data/chess-sample.data";

/// `magus tune --variant chess` on the sample, with `words` after; it must succeed.
fn tune_sample(words: &[&str]) -> String {
    let mut all = vec!["tune", "--variant", "chess", SAMPLE];
    all.extend_from_slice(words);
    succeeds(&all)
}

#[test]
fn tune_fits_the_sample_and_writes_a_parameters_file_and_a_variant() {
    let dir = temp_dir("tune");
    let params = dir.join("chess-params.toml");
    let definition = dir.join("chess.toml");
    let out = tune_sample(&[
        "--epochs",
        "60",
        "--threads",
        "2",
        "-o",
        params.to_str().unwrap(),
        "--variant-out",
        definition.to_str().unwrap(),
    ]);
    // The old and new values side by side.
    let row = out
        .lines()
        .find(|l| l.starts_with("material.N "))
        .unwrap_or_else(|| panic!("{out}"));
    let v = variant("chess");
    let old = v.weights.get("material.N").unwrap().value;
    assert!(row.contains(&format!("{old:?}")), "{row}");
    let fitted = v.weights.read_section(&read(&params), "p").unwrap();
    assert_ne!(fitted, v.weights, "nothing moved");
    let loaded = parse_variant(&read(&definition), "d").unwrap();
    assert_eq!(loaded.weights, fitted);
    // The rewritten definition plays: loaded over the built-in chess, it is what searches.
    let out = succeeds(&[
        "--variant-path",
        definition.to_str().unwrap(),
        "analyze",
        "--variant",
        "chess",
        "--depth",
        "3",
    ]);
    assert!(out.contains("depth") || out.contains(" 3 "), "{out}");
    // Starting from the written file, frozen material stays.
    let again = dir.join("again.toml");
    tune_sample(&[
        "--epochs",
        "20",
        "--init",
        params.to_str().unwrap(),
        "--freeze",
        "material",
        "-o",
        again.to_str().unwrap(),
    ]);
    let second = v.weights.read_section(&read(&again), "a").unwrap();
    for w in second.list.iter().filter(|w| w.key.starts_with("material")) {
        assert_eq!(Some(w), fitted.get(&w.key));
    }
    // With square tables: they are fitted (from zero), written, and read back.
    let tables = dir.join("tables.toml");
    let tables_definition = dir.join("chess-tables.toml");
    tune_sample(&[
        "--epochs",
        "40",
        "--squares",
        "-o",
        tables.to_str().unwrap(),
        "--variant-out",
        tables_definition.to_str().unwrap(),
    ]);
    let text = read(&tables);
    assert!(text.contains("[eval.squares]"), "{text}");
    let with_tables = v.weights.read_section(&text, "t").unwrap();
    assert!(with_tables.has_square_tables());
    let moved =
        |w: &&magus::variant::weights::Weight| w.key.starts_with("squares.") && w.value != [0, 0];
    let moved_squares = with_tables.list.iter().filter(moved).count();
    assert!(moved_squares > 100, "{moved_squares} squares moved\n{text}");
    // No pawn stands on its first rank: those squares never move and are not written.
    assert_eq!(with_tables.get("squares.Pa1").unwrap().value, [0, 0]);
    assert!(!text.contains("Pa1 "), "{text}");
    let loaded = parse_variant(&read(&tables_definition), "d").unwrap();
    assert_eq!(loaded.weights, with_tables);
}

#[test]
fn tune_refuses_bad_input_with_a_message() {
    let dir = temp_dir("tune-bad");
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[eval.mobility]\nQ = [3]\n").unwrap();
    let out = magus(&[
        "tune",
        "--variant",
        "chess",
        SAMPLE,
        "--init",
        bad.to_str().unwrap(),
        "-o",
        dir.join("o.toml").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.contains("bad.toml: line 2") && e.contains("'eval.mobility.Q'"),
        "{e}"
    );
    let out = magus(&["tune", "--variant", "magi", SAMPLE, "-o", "x.toml"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not 'magi'"));
    // A ridge pulls square tables: a variant without them is told to add them.
    let out = magus(&[
        "tune",
        "--variant",
        "deathmatch",
        SAMPLE,
        "--ridge",
        "0.001",
        "-o",
        "x.toml",
    ]);
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("--ridge") && e.contains("--squares"), "{e}");
    let printed = succeeds(&["tune", "--variant", "magi", "--print-weights"]);
    assert_eq!(
        variant("magi")
            .weights
            .read_section(&printed, "printed")
            .unwrap(),
        variant("magi").weights
    );
}

/// King danger grows with the square of the attack on the King's zone (a quarter of it in
/// the endgame) up to a cap; below the cap the attack weight counts it, at the cap it is a
/// part no weight moves. Either way the linear form is the evaluation.
#[test]
fn king_danger_is_traced_below_and_at_its_cap() {
    let v = handset_chess();
    let attack = v.weights.index("king_safety.attack").unwrap() as u16;
    let check = |fen: &str| -> ((f32, f32), (f32, f32)) {
        let pos = AnyPosition::from_fen(v, Some(fen)).unwrap();
        let t = trace_of(&pos);
        let linear = t.linear(&values(&v.weights));
        let real = white_eval(&pos) as f64;
        assert!(
            (linear - real).abs() <= 8.0,
            "{fen}: {linear:.1} against {real}"
        );
        let count = t
            .counts
            .iter()
            .find(|c| c.0 == attack)
            .map_or((0.0, 0.0), |c| (c.1, c.2));
        (count, t.fixed)
    };
    // Three Queens attack Black's King zone; nothing attacks White's: White less Black, the
    // count is positive, its endgame part a quarter of the middlegame's.
    let ((mg, eg), fixed) = check("6k1/8/4QQQ1/8/8/8/8/4K3 b - - 0 1");
    assert!(mg > 10.0, "{mg}");
    assert_eq!(eg, mg / 4.0);
    assert_eq!(fixed, (0.0, 0.0));
    // Five Queens: past the cap of 600 (150 in the endgame), which no weight moves.
    let (count, fixed) = check("6k1/8/3QQQQQ/8/8/8/8/K7 b - - 0 1");
    assert_eq!(count, (0.0, 0.0));
    assert_eq!(fixed, (600.0, 150.0));
}

/// Four games of a match's PGN: one to keep, one lost by an illegal move, one of another
/// variant, one with a move that cannot be played.
const MATCH_PGN: &str = r#"[Event "magus match"]
[Round "1"]
[White "a"]
[Black "b"]
[Result "1-0"]
[Termination "checkmate"]

1. e4 {book} 1... e5 {book} 2. Nf3 {+0.30/10 0.1s} 2... Nc6 {-0.25/10 0.1s}
3. Bb5 {+0.40/11 0.1s} 3... a6 {-0.35/9 0.1s} 4. Bxc6 {+0.50/10 0.1s} 4... dxc6
{-0.40/9 0.1s} 5. O-O {+M7/12 0.1s} 5... f6 6. d4 {+1.20/12 0.1s} 1-0

[Event "magus match"]
[Round "2"]
[White "b"]
[Black "a"]
[Result "0-1"]
[Termination "illegal move"]

1. d4 {book} 1... d5 {book} 2. c4 {+0.20/10 0.1s} 0-1

[Event "magus match"]
[Round "3"]
[White "a"]
[Black "b"]
[Variant "magi"]
[Result "1/2-1/2"]
[Termination "repetition"]

1. e4 {+0.10/3 0.1s} 1/2-1/2

[Event "magus match"]
[Round "4"]
[White "b"]
[Black "a"]
[Result "1-0"]
[Termination "checkmate"]

1. e4 {book} 1... e5 {book} 2. Ke3 {+0.20/10 0.1s} 1-0
"#;

#[test]
fn a_matchs_pgn_reads_as_data_games_from_after_the_book_with_white_scores_of_quiet_moves() {
    use magus::tune::pgn_data::games_from_pgn;
    let chess = variant("chess");
    let (games, left_out) = games_from_pgn(MATCH_PGN, chess).unwrap();
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(left_out.other_variant, 1);
    assert_eq!(
        left_out.no_result, 1,
        "the illegal-move game says nothing of its positions"
    );
    assert_eq!(left_out.unplayable.len(), 1);
    assert!(
        left_out.unplayable[0].starts_with("game 4: move 2. Ke3: "),
        "{:?}",
        left_out.unplayable
    );
    let g = &games[0];
    assert_eq!(g.index, 0);
    assert_eq!(g.result, GameResult::WhiteWins);
    // The start is the position after the book moves.
    assert_eq!(
        g.start,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    let scored: Vec<(&str, Option<i32>)> =
        g.plies.iter().map(|p| (p.wire.as_str(), p.score)).collect();
    assert_eq!(
        scored,
        [
            ("g1f3", Some(30)),
            // Black's −0.25 is White's +25.
            ("b8c6", Some(25)),
            ("f1b5", Some(40)),
            ("a7a6", Some(35)),
            // Captures are not quiet; a mate score and a move without one give no score.
            ("b5c6", None),
            ("d7c6", None),
            (scored[6].0, None),
            ("f7f6", None),
            ("d2d4", Some(120)),
        ]
    );
    // The game replays through the rules as a data game, its kept positions the scored ones.
    let samples = g.samples(chess).unwrap();
    assert_eq!(samples.len(), 5);
    assert!(samples.iter().all(|s| s.result == 1.0));
}

#[test]
fn tune_reads_a_pgn_file_and_says_what_it_left_out() {
    let dir = temp_dir("tune-pgn");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, MATCH_PGN).unwrap();
    let params = dir.join("params.toml");
    let out = magus(&[
        "tune",
        "--variant",
        "chess",
        pgn.to_str().unwrap(),
        "--epochs",
        "2",
        "--threads",
        "1",
        "-o",
        params.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("5 positions from 1 games"), "{err}");
    assert!(err.contains("3 games left out"), "{err}");
    assert!(err.contains("game 4: move 2. Ke3"), "{err}");
    assert!(params.exists());
}

/// Four games for `magus label`: White a Queen up with Black to move, Black a Queen up with
/// White to move, a mate in one for White (a position no score is kept for), and a quiet start
/// position. The scores they carry are placeholders the engine must replace.
const LABEL_INPUT: &str = "#magus-data 1 variant=chess seed=3 nodes=100 random-plies=0 balance=none
0 1-0 4k3/8/8/8/8/8/8/3QK3 b - - 0 1|e8f7:1 d1d5:1 f7e7 d5e5:1
1 0-1 3qk3/8/8/8/8/8/8/4K3 w - - 0 1|e1e2:1 d8d4:1 e2e1 e8e7:1
2 1-0 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1|a1a8:1
3 1/2-1/2 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|g1f3:1 g8f6:1
";

fn label_input(dir: &Path) -> PathBuf {
    let input = dir.join("in.data");
    std::fs::write(&input, LABEL_INPUT).unwrap();
    input
}

/// Each ply's score as the file holds it.
fn ply_scores(game: &GameRecord) -> Vec<Option<i32>> {
    game.plies.iter().map(|p| p.score).collect()
}

#[test]
fn label_scores_every_kept_position_with_the_engine_from_whites_view() {
    let dir = temp_dir("label");
    let input = label_input(&dir);
    let output = dir.join("out.data");
    let said = succeeds(&[
        "label",
        "--variant",
        "chess",
        "--engine",
        "name=self",
        "--depth",
        "4",
        "--concurrency",
        "2",
        input.to_str().unwrap(),
        "-o",
        output.to_str().unwrap(),
    ]);
    assert!(
        said.contains("4 games, 8 of 9 positions scored by self (depth 4)"),
        "{said}"
    );
    let before = data::read(&input).unwrap();
    let after = data::read(&output).unwrap();
    assert_eq!(after.header, before.header);
    assert!(read(&output).lines().nth(1).unwrap() == "# scores: self (depth 4)");
    assert_eq!(after.games.len(), 4);
    for (a, b) in after.games.iter().zip(&before.games) {
        // The games themselves are untouched: moves, results, where positions were kept.
        assert_eq!((a.index, a.result, &a.start), (b.index, b.result, &b.start));
        let wires = |g: &GameRecord| g.plies.iter().map(|p| p.wire.clone()).collect::<Vec<_>>();
        assert_eq!(wires(a), wires(b));
    }
    let queen_up = |s: &Option<i32>| s.is_some_and(|s| s > 600);
    let queen_down = |s: &Option<i32>| s.is_some_and(|s| s < -600);
    let white_ahead = ply_scores(&after.games[0]);
    assert!(
        queen_up(&white_ahead[0]) && queen_up(&white_ahead[1]) && white_ahead[2].is_none(),
        "White a Queen up, either side to move: {white_ahead:?}"
    );
    assert!(queen_up(&white_ahead[3]), "{white_ahead:?}");
    let black_ahead = ply_scores(&after.games[1]);
    assert!(
        queen_down(&black_ahead[0]) && queen_down(&black_ahead[1]) && black_ahead[2].is_none(),
        "Black a Queen up, either side to move: {black_ahead:?}"
    );
    assert_eq!(
        ply_scores(&after.games[2]),
        vec![None],
        "a mate is not a score"
    );
    let start = ply_scores(&after.games[3]);
    assert!(
        start.iter().all(|s| s.is_some_and(|s| s.abs() < 150)),
        "the start position is about level: {start:?}"
    );
}

#[test]
fn label_goes_on_past_an_engine_that_crashes_and_says_so() {
    if !common::python_present() {
        return;
    }
    let dir = temp_dir("label-crash");
    let input = label_input(&dir);
    let output = dir.join("out.data");
    // Every start of the engine answers one position and dies at its second `go`.
    let engine = format!(
        "name=faulty,cmd=python3 {} crash 2 {}",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fake_engines/faulty_uci.py")
            .display(),
        env!("CARGO_BIN_EXE_magus")
    );
    let said = succeeds(&[
        "label",
        "--variant",
        "chess",
        "--engine",
        &engine,
        "--depth",
        "2",
        "--concurrency",
        "1",
        input.to_str().unwrap(),
        "-o",
        output.to_str().unwrap(),
    ]);
    assert!(said.contains("4 games, 2 of 9 positions scored"), "{said}");
    assert!(
        said.contains(
            "3 games lost their remaining positions to an engine fault; the first: game 0: move 2"
        ),
        "{said}"
    );
    let after = data::read(&output).unwrap();
    let scored: Vec<usize> = after.games.iter().map(GameRecord::kept).collect();
    // The mate in one is answered without a score; its engine lives on to die at game 3's
    // first position.
    assert_eq!(scored, vec![1, 1, 0, 0]);
}

#[test]
fn label_refuses_bad_input_with_a_message() {
    let dir = temp_dir("label-bad");
    let input = label_input(&dir);
    let out = dir.join("out.data");
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "--variant",
                "chess",
                "--engine",
                "name=self",
                "--depth",
                "0",
            ],
            "--depth: 0",
        ),
        (
            &[
                "--variant",
                "chess",
                "--engine",
                "name=self",
                "--nodes",
                "0",
            ],
            "--nodes",
        ),
        (
            &[
                "--variant",
                "chess",
                "--engine",
                "name=x,proto=xboard",
                "--depth",
                "2",
            ],
            "only a UCI engine",
        ),
        (
            &["--variant", "magi", "--engine", "name=self", "--depth", "2"],
            "not 'magi'",
        ),
        (
            &[
                "--variant",
                "chess",
                "--engine",
                "name=x,cmd=/nonexistent/engine",
                "--depth",
                "2",
            ],
            "/nonexistent/engine",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["label"];
        all.extend_from_slice(args);
        all.extend([input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        let o = magus(&all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{all:?} was accepted");
        assert!(err.contains(expected), "{all:?}: {err}");
        assert!(!err.contains("panicked"), "{all:?}: {err}");
    }
}

#[test]
fn a_frozen_key_holds_itself_and_the_keys_under_it_and_no_longer_key() {
    use magus::tune::cli::is_under;
    assert!(is_under("material.P", "material"));
    assert!(is_under("material.P", "material.P"));
    assert!(is_under("pawns.passed", "pawns.passed"));
    assert!(!is_under("pawns.passed_blocked", "pawns.passed"));
    assert!(!is_under("safe_mobility.N", "mobility"));
    assert!(!is_under("material.P", "material.PQ"));
    assert!(!is_under("materials.P", "material"));
}
