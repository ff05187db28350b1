//! What the evaluation precomputes per variant layout: piece-square tables derived from the
//! pieces' moves, square masks for pawns and Kings, phase weights, and the parameters.

use std::any::Any;
use std::sync::Mutex;

use arrayvec::ArrayVec;

use super::params::{NO_WEIGHT, Params, W};
use crate::board::{Bitboard, Color, Kind, Layout, Position, Square};
use crate::variant::Role;

/// What a placement bonus is made of: up to four weights (three derived from the piece's
/// moves and role, one of its square table), each with what multiplies it in the middlegame
/// and in the endgame (for the trace of the evaluation's linear form).
pub type PlacementFeatures = ArrayVec<(W, f32, f32), 4>;

pub struct EvalTables<B: Bitboard> {
    pub params: Params,
    /// Material by kind, middlegame and endgame (the weights `material.*`).
    pub values: Vec<i32>,
    pub endgame_values: Vec<i32>,
    /// The pieces' declared values (the variant file's `value`): what ranks the pieces for
    /// the threats, and weighs their attacks on a King.
    pub declared: Vec<i32>,
    squares: usize,
    /// `[(kind * 2 + colour) * squares + square]`: placement bonus, middlegame and endgame.
    mg: Vec<i32>,
    eg: Vec<i32>,
    /// The same places: the weights each bonus is made of, with their counts.
    features: Vec<PlacementFeatures>,
    pub phase_weight: Vec<i32>,
    pub total_phase: i32,
    /// Half of a sliding kind's average empty-board reach: the mobility it is expected to have.
    pub half_reach: Vec<i32>,
    /// Per kind: half the mean number of squares all its moves reach on the empty board.
    pub half_moves_reach: Vec<i32>,
    /// How much a kind's attack on the enemy King's zone counts.
    pub attack_weight: Vec<i32>,
    king_zone: Vec<B>,
    shield_zone: Vec<B>,
    passed: Vec<B>,
    front: Vec<B>,
    progress: Vec<i32>,
    /// Per file: its squares.
    pub files: Vec<B>,
    /// Per file: the files next to it.
    pub adjacent_files: Vec<B>,
    /// Every kind, in rising value.
    pub kinds_by_value: Vec<Kind>,
    /// Per colour: the pawns of the start position, on their setup squares.
    pub setup_pawns: [B; 2],
    /// Per colour: the ranks a piece stands on an outpost in, from the last of its own half to
    /// three short of the far end (the fourth to the sixth in chess).
    pub outpost_ranks: [B; 2],
}

/// Reach of a piece on a board with only the start position's holes.
fn empty_board_reach<B: Bitboard>(
    layout: &Layout<B>,
    kind: Kind,
    color: Color,
    sq: Square,
    holes: B,
) -> (i32, i32) {
    let empty = layout.board_mask & !holes;
    let leaps = ((layout.quiet_leaps(kind, color, sq) | layout.capture_leaps(kind, color, sq))
        & empty)
        .count() as i32;
    let mut slides = B::EMPTY;
    for slide in layout.slides(kind, color) {
        slides |= layout.ray_attacks(slide.ray, sq, holes) & empty;
    }
    (leaps + slides.count() as i32, slides.count() as i32)
}

impl<B: Bitboard> EvalTables<B> {
    fn build(layout: &'static Layout<B>) -> EvalTables<B> {
        let variant = layout.variant;
        let squares = layout.squares;
        let dims = layout.dims;
        let kinds = layout.kinds;
        let start = Position::from_fen(layout, &variant.start_fen).ok();
        let start_holes = start.map(|p| p.holes()).unwrap_or(B::EMPTY);
        let usable: Vec<usize> = (0..squares)
            .filter(|&s| !start_holes.has(Square::new(s as u8)))
            .collect();
        let params = Params::of(variant);
        let mut mg = vec![0; kinds * 2 * squares];
        let mut eg = vec![0; kinds * 2 * squares];
        let mut features = vec![PlacementFeatures::new(); kinds * 2 * squares];
        let mut half_reach = vec![0; kinds];
        let mut half_moves_reach = vec![0; kinds];
        let center_file = (dims.files as f64 - 1.0) / 2.0;
        let center_rank = (dims.ranks as f64 - 1.0) / 2.0;
        let relative = |color: Color, sq: Square| -> i32 {
            let r = dims.rank(sq) as i32;
            if color == Color::White {
                r
            } else {
                dims.ranks as i32 - 1 - r
            }
        };
        for (k, def) in variant.pieces.iter().enumerate() {
            let kind = Kind(k as u8);
            for color in Color::BOTH {
                let reach: Vec<(i32, i32)> = (0..squares)
                    .map(|s| {
                        empty_board_reach(layout, kind, color, Square::new(s as u8), start_holes)
                    })
                    .collect();
                let mean = usable.iter().map(|&s| reach[s].0).sum::<i32>() as f64
                    / usable.len().max(1) as f64;
                let mean_slides = usable.iter().map(|&s| reach[s].1).sum::<i32>() as f64
                    / usable.len().max(1) as f64;
                half_reach[k] = (mean_slides / 2.0).round() as i32;
                half_moves_reach[k] = (mean / 2.0).round() as i32;
                for (s, &(all_reach, slide_reach)) in reach.iter().enumerate() {
                    let sq = Square::new(s as u8);
                    let file = dims.file(sq) as f64;
                    let rank = dims.rank(sq) as f64;
                    let rel = relative(color, sq);
                    let distance = (file - center_file).abs() + (rank - center_rank).abs();
                    let mut parts = PlacementFeatures::new();
                    let (m, e) = match def.role {
                        Role::Pawn => {
                            let advance = rel - 1;
                            let central = ((file - center_file).abs() < 1.0) as i32;
                            let (a, c) = (params.pawn_advance, params.pawn_centre);
                            parts.push((a, advance as f32, advance as f32));
                            parts.push((c, central as f32, central as f32));
                            (
                                advance * a.mg + central * c.mg,
                                advance * a.eg + central * c.eg,
                            )
                        }
                        Role::King => {
                            // At home in the middlegame, central in the endgame.
                            let home = (rel == 0) as i32;
                            let (h, a, d) = (
                                params.king_home,
                                params.king_advance,
                                params.king_centre_distance,
                            );
                            parts.push((h, home as f32, home as f32));
                            parts.push((a, rel as f32, rel as f32));
                            parts.push((d, distance as f32, distance as f32));
                            (
                                home * h.mg + rel * a.mg + (distance * d.mg as f64) as i32,
                                home * h.eg + rel * a.eg + (distance * d.eg as f64) as i32,
                            )
                        }
                        Role::Ordinary => {
                            // Leapers gain most from the squares they can reach; sliders have
                            // their own mobility term.
                            let bonus =
                                ((all_reach - slide_reach) as f64 - (mean - mean_slides)) * 3.0;
                            let base_mg = bonus.clamp(-30.0, 30.0) as i32;
                            let base_eg = (bonus * 0.6).clamp(-20.0, 20.0) as i32;
                            let scale = params.placement[k];
                            // The table's own split of middlegame and endgame stays: each
                            // phase has its own scale.
                            parts.push((scale, base_mg as f32 / 100.0, base_eg as f32 / 100.0));
                            (base_mg * scale.mg / 100, base_eg * scale.eg / 100)
                        }
                    };
                    // The square table's own bonus comes on top.
                    let table = params.square(k, dims.file(sq), rel as u8, dims.files);
                    if table.id != NO_WEIGHT {
                        parts.push((table, 1.0, 1.0));
                    }
                    let at = (k * 2 + color.index()) * squares + s;
                    mg[at] = m + table.mg;
                    eg[at] = e + table.eg;
                    features[at] = parts;
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
        let total_phase = start
            .map(|p| {
                (0..kinds)
                    .map(|k| phase_weight[k] * p.kind_bb(Kind(k as u8)).count() as i32)
                    .sum::<i32>()
            })
            .unwrap_or(1)
            .max(1);
        let attack_weight = variant
            .pieces
            .iter()
            .map(|p| (p.value / 200).clamp(1, 6))
            .collect();

        let square_set = |pred: &dyn Fn(Square) -> bool| -> B {
            (0..squares)
                .map(|s| Square::new(s as u8))
                .filter(|&s| pred(s))
                .fold(B::EMPTY, |a, s| a | B::from_square(s))
        };
        let mut king_zone = Vec::with_capacity(2 * squares);
        let mut shield_zone = Vec::with_capacity(2 * squares);
        let mut passed = Vec::with_capacity(2 * squares);
        let mut front = Vec::with_capacity(2 * squares);
        let mut progress = Vec::with_capacity(2 * squares);
        for color in Color::BOTH {
            for s in 0..squares {
                let sq = Square::new(s as u8);
                let (f, r) = (dims.file(sq) as i32, relative(color, sq));
                king_zone.push(square_set(&|t| {
                    let (tf, tr) = (dims.file(t) as i32, relative(color, t));
                    (tf - f).abs() <= 1 && (tr - r) >= -1 && (tr - r) <= 2
                }));
                shield_zone.push(square_set(&|t| {
                    let (tf, tr) = (dims.file(t) as i32, relative(color, t));
                    (tf - f).abs() <= 1 && (tr == r + 1 || tr == r + 2)
                }));
                passed.push(square_set(&|t| {
                    let (tf, tr) = (dims.file(t) as i32, relative(color, t));
                    (tf - f).abs() <= 1 && tr > r
                }));
                front.push(square_set(&|t| {
                    dims.file(t) as i32 == f && relative(color, t) > r
                }));
                let span = (dims.ranks as i32 - 2).max(1);
                progress.push(((r - 1).max(0) * 100 / span).min(100));
            }
        }
        let files = (0..dims.files as i32)
            .map(|f| square_set(&|t| dims.file(t) as i32 == f))
            .collect();
        let adjacent_files = (0..dims.files as i32)
            .map(|f| square_set(&|t| (dims.file(t) as i32 - f).abs() == 1))
            .collect();
        let mut kinds_by_value: Vec<Kind> = (0..kinds).map(|k| Kind(k as u8)).collect();
        kinds_by_value.sort_by_key(|k| variant.pieces[k.index()].value);
        let setup_pawns = Color::BOTH.map(|color| match (start, layout.pawn) {
            (Some(p), Some(pawn)) => p.pieces(color, pawn),
            _ => B::EMPTY,
        });
        let outpost_ranks = Color::BOTH.map(|color| {
            let ranks = dims.ranks as i32;
            square_set(&|t| {
                let r = relative(color, t);
                r >= ranks / 2 - 1 && r <= ranks - 3
            })
        });
        EvalTables {
            values: params.material.iter().map(|w| w.mg).collect(),
            endgame_values: params.material.iter().map(|w| w.eg).collect(),
            declared: variant.pieces.iter().map(|p| p.value).collect(),
            params,
            squares,
            mg,
            eg,
            features,
            phase_weight,
            total_phase,
            half_reach,
            half_moves_reach,
            attack_weight,
            king_zone,
            shield_zone,
            passed,
            front,
            progress,
            files,
            adjacent_files,
            kinds_by_value,
            setup_pawns,
            outpost_ranks,
        }
    }

    /// The tables of a layout, built on first use and kept for the run.
    pub fn of(layout: &'static Layout<B>) -> &'static EvalTables<B> {
        type Cache = Vec<(usize, &'static (dyn Any + Send + Sync))>;
        static CACHE: Mutex<Cache> = Mutex::new(Vec::new());
        let key = layout as *const Layout<B> as usize;
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = cache
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, t)| t.downcast_ref::<EvalTables<B>>())
        {
            return t;
        }
        let t: &'static EvalTables<B> = Box::leak(Box::new(EvalTables::build(layout)));
        cache.push((key, t));
        t
    }

    #[inline(always)]
    pub fn placement(&self, kind: Kind, color: Color, sq: Square) -> (i32, i32) {
        let at = (kind.index() * 2 + color.index()) * self.squares + sq.index();
        (self.mg[at], self.eg[at])
    }
    /// The weights a placement bonus is made of, with their counts.
    pub fn placement_features(&self, kind: Kind, color: Color, sq: Square) -> &PlacementFeatures {
        &self.features[(kind.index() * 2 + color.index()) * self.squares + sq.index()]
    }
    /// Where a square's entry of one side stands in the tables kept per side and square.
    #[inline(always)]
    fn sided(&self, color: Color, sq: Square) -> usize {
        color.index() * self.squares + sq.index()
    }
    #[inline(always)]
    pub fn king_zone(&self, color: Color, sq: Square) -> B {
        self.king_zone[self.sided(color, sq)]
    }
    #[inline(always)]
    pub fn shield_zone(&self, color: Color, sq: Square) -> B {
        self.shield_zone[self.sided(color, sq)]
    }
    /// Squares ahead on the pawn's file and the files next to it.
    #[inline(always)]
    pub fn passed_mask(&self, color: Color, sq: Square) -> B {
        self.passed[self.sided(color, sq)]
    }
    /// Squares ahead on the pawn's file.
    #[inline(always)]
    pub fn front_span(&self, color: Color, sq: Square) -> B {
        self.front[self.sided(color, sq)]
    }
    /// How far a pawn on `sq` has come, in percent of the way.
    #[inline(always)]
    pub fn progress(&self, color: Color, sq: Square) -> i32 {
        self.progress[self.sided(color, sq)]
    }

    #[inline(always)]
    pub fn taper(&self, mg: i32, eg: i32, phase: i32) -> i32 {
        (mg * phase + eg * (self.total_phase - phase)) / self.total_phase
    }
}
