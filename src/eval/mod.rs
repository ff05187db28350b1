//! Static evaluation: material from the variant's piece values, and piece-square tables
//! derived from each piece's moves, so that a piece defined in a file gets sensible terms
//! with no hand-written table. Scores are in centipawns from the side to move's view.

use std::sync::Mutex;

use crate::board::{Bitboard, Color, Kind, Layout, Position, Square};
use crate::variant::Role;

/// Tables built once per variant layout.
pub struct EvalTables {
    squares: usize,
    /// `[(kind * 2 + colour) * squares + square]`, value + placement, middlegame and endgame.
    mg: Vec<i32>,
    eg: Vec<i32>,
    /// Game-phase weight per kind (non-pawn material).
    phase_weight: Vec<i32>,
    total_phase: i32,
}

/// Mobility of a piece on an empty board (holes where the start position has them).
fn empty_board_mobility<B: Bitboard>(
    layout: &Layout<B>,
    kind: Kind,
    color: Color,
    sq: Square,
    holes: B,
) -> i32 {
    let empty = layout.board_mask & !holes;
    let mut reach =
        (layout.quiet_leaps(kind, color, sq) | layout.capture_leaps(kind, color, sq)) & empty;
    for slide in layout.slides(kind, color) {
        reach |= layout.ray_attacks(slide.ray, sq, holes) & empty;
    }
    reach.count() as i32
}

impl EvalTables {
    fn build<B: Bitboard>(layout: &'static Layout<B>) -> EvalTables {
        let variant = layout.variant;
        let squares = layout.squares;
        let dims = layout.dims;
        let kinds = layout.kinds;
        let start_holes = Position::from_fen(layout, &variant.start_fen)
            .map(|p| p.holes())
            .unwrap_or(B::EMPTY);
        let mut mg = vec![0; kinds * 2 * squares];
        let mut eg = vec![0; kinds * 2 * squares];
        let center_file = (dims.files as i32 - 1) as f64 / 2.0;
        let center_rank = (dims.ranks as i32 - 1) as f64 / 2.0;
        for k in 0..kinds {
            let kind = Kind(k as u8);
            let def = &variant.pieces[k];
            for color in Color::BOTH {
                let mobility: Vec<i32> = (0..squares)
                    .map(|s| {
                        empty_board_mobility(layout, kind, color, Square::new(s as u8), start_holes)
                    })
                    .collect();
                let usable: Vec<usize> = (0..squares)
                    .filter(|&s| !start_holes.has(Square::new(s as u8)))
                    .collect();
                let mean = usable.iter().map(|&s| mobility[s]).sum::<i32>() as f64
                    / usable.len().max(1) as f64;
                for s in 0..squares {
                    let sq = Square::new(s as u8);
                    let file = dims.file(sq) as f64;
                    let rank = dims.rank(sq) as i32;
                    let relative_rank = if color == Color::White {
                        rank
                    } else {
                        dims.ranks as i32 - 1 - rank
                    };
                    let centrality =
                        -((file - center_file).abs() + (rank as f64 - center_rank).abs());
                    let (m, e) = match def.role {
                        Role::Pawn => {
                            let advance = relative_rank - 1;
                            let central = if (file - center_file).abs() < 1.0 {
                                8
                            } else {
                                0
                            };
                            (advance * 4 + central, advance * advance * 3)
                        }
                        Role::King => {
                            let home = if relative_rank == 0 {
                                10
                            } else {
                                -12 * relative_rank
                            };
                            (
                                home + (centrality * -2.0) as i32 / 2,
                                (centrality * 8.0) as i32,
                            )
                        }
                        Role::Ordinary => {
                            let bonus = (mobility[s] as f64 - mean) * 3.0;
                            (
                                bonus.clamp(-30.0, 30.0) as i32,
                                (bonus * 0.6).clamp(-20.0, 20.0) as i32,
                            )
                        }
                    };
                    let at = (k * 2 + color.index()) * squares + s;
                    mg[at] = def.value + m;
                    eg[at] = def.value + e;
                }
            }
        }
        let phase_weight: Vec<i32> = variant
            .pieces
            .iter()
            .map(|p| {
                if p.role == Role::Ordinary {
                    (p.value / 100).max(1)
                } else {
                    0
                }
            })
            .collect();
        let total_phase = Position::from_fen(layout, &variant.start_fen)
            .map(|p| {
                (0..kinds)
                    .map(|k| phase_weight[k] * p.kind_bb(Kind(k as u8)).count() as i32)
                    .sum::<i32>()
            })
            .unwrap_or(1)
            .max(1);
        EvalTables {
            squares,
            mg,
            eg,
            phase_weight,
            total_phase,
        }
    }

    /// The tables of a layout, built on first use and kept for the run.
    pub fn of<B: Bitboard>(layout: &'static Layout<B>) -> &'static EvalTables {
        static CACHE: Mutex<Vec<(usize, &'static EvalTables)>> = Mutex::new(Vec::new());
        let key = layout as *const Layout<B> as usize;
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, t)) = cache.iter().find(|(k, _)| *k == key) {
            return t;
        }
        let t: &'static EvalTables = Box::leak(Box::new(EvalTables::build(layout)));
        cache.push((key, t));
        t
    }
}

/// The evaluation of `pos` for the side to move.
pub fn evaluate<B: Bitboard>(pos: &Position<B>, tables: &EvalTables) -> i32 {
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    let mut phase = 0;
    for color in Color::BOTH {
        let c = color.index();
        for sq in pos.color_bb(color).squares() {
            let kind = pos.piece_at(sq).unwrap().kind();
            let at = (kind.index() * 2 + c) * tables.squares + sq.index();
            mg[c] += tables.mg[at];
            eg[c] += tables.eg[at];
            phase += tables.phase_weight[kind.index()];
        }
    }
    let phase = phase.min(tables.total_phase);
    let mg_score = mg[0] - mg[1];
    let eg_score = eg[0] - eg[1];
    let white = (mg_score * phase + eg_score * (tables.total_phase - phase)) / tables.total_phase;
    let tempo = 10;
    if pos.side() == Color::White {
        white + tempo
    } else {
        -white + tempo
    }
}

/// One term of the evaluation, for both sides, tapered, in centipawns.
pub struct Term {
    pub name: &'static str,
    pub white: i32,
    pub black: i32,
}

/// The evaluation term by term (what `eval` prints).
pub fn breakdown<B: Bitboard>(pos: &Position<B>) -> Vec<Term> {
    let tables = EvalTables::of(pos.layout());
    let layout = pos.layout();
    let mut phase = 0;
    for sq in pos.occupied().squares() {
        phase += tables.phase_weight[pos.piece_at(sq).unwrap().kind().index()];
    }
    let phase = phase.min(tables.total_phase);
    let taper =
        |mg: i32, eg: i32| (mg * phase + eg * (tables.total_phase - phase)) / tables.total_phase;
    let mut material = [0; 2];
    let mut placement = [0; 2];
    for color in Color::BOTH {
        let c = color.index();
        for sq in pos.color_bb(color).squares() {
            let kind = pos.piece_at(sq).unwrap().kind();
            let at = (kind.index() * 2 + c) * tables.squares + sq.index();
            let value = layout.value(kind);
            material[c] += value;
            placement[c] += taper(tables.mg[at] - value, tables.eg[at] - value);
        }
    }
    let tempo = if pos.side() == Color::White {
        [10, 0]
    } else {
        [0, 10]
    };
    vec![
        Term {
            name: "Material",
            white: material[0],
            black: material[1],
        },
        Term {
            name: "Placement",
            white: placement[0],
            black: placement[1],
        },
        Term {
            name: "Tempo",
            white: tempo[0],
            black: tempo[1],
        },
    ]
}
