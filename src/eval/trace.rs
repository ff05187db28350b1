//! The evaluation's linear form, position by position: how many times each weight counts in
//! the middlegame and endgame sums (White's count less Black's), what no weight multiplies,
//! and the phase. Then `evaluation ≈ taper(Σ count · weight + fixed)`, up to the integer
//! rounding of the real evaluation, which the tuner minimises its error through.
//!
//! Two terms are not linear in their weights and are traced by their linear parts: the King
//! danger (attack units squared, times the weight, capped: below the cap linear in the
//! weight, at the cap a fixed part) and the reserves of Royal Magician's Chess (a share of
//! the reserve pieces' material: the tangent at the current weights, see
//! `variant_terms::reserves`). `magus tune --passes` traces again at the fitted weights.
//!
//! The endgame scale (`endgame.rs`) multiplies the blend: which side is ahead, and so the
//! factor, is read at the traced weights, and the linear form carries it as the shares of the
//! middlegame and endgame sums (`Trace::shares`). The pawn a lone King cannot catch is a fixed
//! endgame part.

use super::params::{NO_WEIGHT, W};
use super::{EvalTables, Sink, TermId};
use crate::board::{Bitboard, Color, Position};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// `(weight index, middlegame count, endgame count)`, White's less Black's, by index,
    /// the weights that count at all.
    pub counts: Vec<(u16, f32, f32)>,
    /// The part no weight multiplies, White's less Black's: `(middlegame, endgame)`.
    pub fixed: (f32, f32),
    /// The game phase: `phase / total_phase` is the middlegame's share of the blend.
    pub phase: i32,
    pub total_phase: i32,
    /// The endgame scale at the traced weights, out of `endgame::SCALE_NORMAL`, and whether
    /// it scales the whole blend or the endgame part only.
    pub scale: i32,
    pub scale_whole: bool,
    /// The evaluation from White's view, as the search has it.
    pub white: i32,
}

impl Trace {
    /// The evaluation from White's view that the linear form gives for these weights
    /// (`values[i]` = `[middlegame, endgame]` of weight `i`).
    pub fn linear(&self, values: &[[i32; 2]]) -> f64 {
        let (mut mg, mut eg) = (self.fixed.0 as f64, self.fixed.1 as f64);
        for &(i, m, e) in &self.counts {
            mg += m as f64 * values[i as usize][0] as f64;
            eg += e as f64 * values[i as usize][1] as f64;
        }
        let (m, e) = self.shares();
        mg * m + eg * e
    }

    /// What the middlegame and the endgame sums count for in the evaluation: the phase's
    /// blend, times the endgame scale.
    pub fn shares(&self) -> (f64, f64) {
        let rho = self.phase as f64 / self.total_phase as f64;
        let f = self.scale as f64 / super::endgame::SCALE_NORMAL as f64;
        if self.scale_whole {
            (rho * f, (1.0 - rho) * f)
        } else {
            (rho, (1.0 - rho) * f)
        }
    }
}

struct Tracer {
    counts: Vec<(f32, f32)>,
    fixed: (f32, f32),
    mg: i32,
    eg: i32,
}

impl Sink for Tracer {
    const TRACING: bool = true;

    fn add(&mut self, _term: TermId, color: Color, mg: i32, eg: i32) {
        let sign = if color == Color::White { 1 } else { -1 };
        self.mg += sign * mg;
        self.eg += sign * eg;
    }

    fn count(&mut self, w: W, color: Color, mg: f32, eg: f32) {
        if w.id == NO_WEIGHT {
            return;
        }
        let sign = if color == Color::White { 1.0 } else { -1.0 };
        let slot = &mut self.counts[w.id as usize];
        slot.0 += sign * mg;
        slot.1 += sign * eg;
    }

    fn fixed(&mut self, color: Color, mg: f32, eg: f32) {
        let sign = if color == Color::White { 1.0 } else { -1.0 };
        self.fixed.0 += sign * mg;
        self.fixed.1 += sign * eg;
    }
}

/// The trace of `pos` under `tables`' weights.
pub fn trace<B: Bitboard>(pos: &Position<B>, tables: &EvalTables<B>) -> Trace {
    let weights = pos.layout().variant.weights.list.len();
    let mut tracer = Tracer {
        counts: vec![(0.0, 0.0); weights],
        fixed: (0.0, 0.0),
        mg: 0,
        eg: 0,
    };
    let phase = super::collect(pos, tables, &mut tracer);
    let unstoppable = super::endgame::unstoppable_pawns(pos);
    tracer.fixed.1 += unstoppable as f32;
    let scale = super::endgame::scale(pos, tracer.eg + unstoppable);
    Trace {
        counts: tracer
            .counts
            .iter()
            .enumerate()
            .filter(|(_, c)| c.0 != 0.0 || c.1 != 0.0)
            .map(|(i, c)| (i as u16, c.0, c.1))
            .collect(),
        fixed: tracer.fixed,
        phase,
        total_phase: tables.total_phase,
        scale: scale.factor,
        scale_whole: scale.whole,
        white: super::taper_scaled(pos, tables, tracer.mg, tracer.eg, phase),
    }
}
