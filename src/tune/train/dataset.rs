//! The positions a net learns from, as its inputs: each position's active inputs from both
//! views, the side to move, and its two targets from the side to move's view (the search's
//! score, the game's result).

use crate::board::Color;
use crate::eval::nnue::FeatureSet;
use crate::eval::{EvalTables, evaluate};
use crate::tune::data::Sample;
use crate::with_position;

/// Positions in flat arrays: position `i`'s inputs are `white[start[i]..start[i + 1]]` from
/// White's view and the same range of `black` from Black's (both views have as many).
#[derive(Default)]
pub struct Positions {
    start: Vec<u32>,
    white: Vec<u16>,
    black: Vec<u16>,
    /// Whether White is to move.
    white_to_move: Vec<bool>,
    /// The search's score, centipawns, side to move's view.
    score: Vec<f32>,
    /// The game's result for the side to move: 1, ½ or 0.
    result: Vec<f32>,
    /// The hand-made evaluation, side to move's view, for a net that corrects it (else 0).
    base: Vec<f32>,
}

/// One position, as the trainer reads it.
pub struct Position<'a> {
    /// The side to move's inputs, then the other side's.
    pub ours: &'a [u16],
    pub theirs: &'a [u16],
    pub score: f32,
    pub result: f32,
    /// Centipawns the net's output is added to (the hand-made evaluation, or 0).
    pub base: f32,
}

impl Positions {
    pub fn new() -> Positions {
        Positions {
            start: vec![0],
            ..Positions::default()
        }
    }

    pub fn len(&self) -> usize {
        self.score.len()
    }

    pub fn is_empty(&self) -> bool {
        self.score.is_empty()
    }

    /// Adds a game's positions (the inputs of `set`; every index fits a u16, as every
    /// variant the engine supports has fewer than 65 536 inputs); with `on_hce`, each with
    /// its hand-made evaluation as the base the net corrects.
    pub fn push_game(&mut self, set: &FeatureSet, samples: &[Sample], on_hce: bool) {
        let mut inputs = Vec::with_capacity(64);
        for s in samples {
            for (view, list) in [(Color::White, 0), (Color::Black, 1)] {
                inputs.clear();
                with_position!(&s.position, p => set.active(p, view, &mut inputs));
                let target = if list == 0 {
                    &mut self.white
                } else {
                    &mut self.black
                };
                target.extend(inputs.iter().map(|&i| i as u16));
            }
            self.start.push(self.white.len() as u32);
            let white = with_position!(&s.position, p => p.side() == Color::White);
            self.white_to_move.push(white);
            let sign = if white { 1.0 } else { -1.0 };
            self.score.push(sign * s.score as f32);
            self.result
                .push(if white { s.result } else { 1.0 - s.result });
            let base = if on_hce {
                with_position!(&s.position, p => evaluate(p, EvalTables::of(p.layout())))
            } else {
                0
            };
            self.base.push(base as f32);
        }
    }

    pub fn append(&mut self, mut other: Positions) {
        let offset = self.white.len() as u32;
        self.start
            .extend(other.start.iter().skip(1).map(|&s| s + offset));
        self.white.append(&mut other.white);
        self.black.append(&mut other.black);
        self.white_to_move.append(&mut other.white_to_move);
        self.score.append(&mut other.score);
        self.result.append(&mut other.result);
        self.base.append(&mut other.base);
    }

    pub fn get(&self, i: usize) -> Position<'_> {
        let range = self.start[i] as usize..self.start[i + 1] as usize;
        let (w, b) = (&self.white[range.clone()], &self.black[range]);
        let (ours, theirs) = if self.white_to_move[i] {
            (w, b)
        } else {
            (b, w)
        };
        Position {
            ours,
            theirs,
            score: self.score[i],
            result: self.result[i],
            base: self.base[i],
        }
    }
}
