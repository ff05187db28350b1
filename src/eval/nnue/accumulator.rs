//! The hidden layer's values for each ply of the search's line, both views: refreshed from
//! the position's inputs at the root, and carried from a ply to the next by the inputs the
//! move turned on and off (copy-make: the child's values are the parent's, updated).

use super::features::{Changes, FeatureSet};
use super::network::Network;
use super::simd;
use crate::board::{Bitboard, Color, Position};

pub struct Accumulators {
    hidden: usize,
    /// `[(ply * 2 + view) * hidden + neuron]`
    values: Vec<i16>,
    inputs: Vec<u32>,
}

impl Accumulators {
    pub fn new(net: &Network, plies: usize) -> Accumulators {
        Accumulators {
            hidden: net.hidden,
            values: vec![0; plies * 2 * net.hidden],
            inputs: Vec::with_capacity(64),
        }
    }

    fn view(&self, ply: usize, view: Color) -> &[i16] {
        let start = (ply * 2 + view.index()) * self.hidden;
        &self.values[start..start + self.hidden]
    }

    /// The values of `ply` computed from `pos`'s inputs.
    pub fn refresh<B: Bitboard>(
        &mut self,
        net: &Network,
        set: &FeatureSet,
        pos: &Position<B>,
        ply: usize,
    ) {
        let h = self.hidden;
        for view in Color::BOTH {
            self.inputs.clear();
            set.active(pos, view, &mut self.inputs);
            let start = (ply * 2 + view.index()) * h;
            let acc = &mut self.values[start..start + h];
            acc.copy_from_slice(&net.hidden_bias);
            for &input in &self.inputs {
                simd::add(acc, net.row(input));
            }
        }
    }

    /// The values of `ply + 1`, after the move from `before` (at `ply`) to `after`.
    pub fn update<B: Bitboard>(
        &mut self,
        net: &Network,
        set: &FeatureSet,
        before: &Position<B>,
        after: &Position<B>,
        ply: usize,
    ) {
        let mut added = [Changes::new(), Changes::new()];
        let mut removed = [Changes::new(), Changes::new()];
        if !set.changes(before, after, &mut added, &mut removed) {
            self.refresh(net, set, after, ply + 1);
            return;
        }
        let h = self.hidden;
        let (lower, upper) = self.values.split_at_mut((ply + 1) * 2 * h);
        let parent = &lower[ply * 2 * h..];
        for view in Color::BOTH {
            let v = view.index();
            let acc = &mut upper[v * h..(v + 1) * h];
            acc.copy_from_slice(&parent[v * h..(v + 1) * h]);
            for &input in &added[v] {
                simd::add(acc, net.row(input));
            }
            for &input in &removed[v] {
                simd::sub(acc, net.row(input));
            }
        }
    }

    /// The values of `ply + 1` the same as those of `ply` (a null move changes no input).
    pub fn copy_down(&mut self, ply: usize) {
        let h = 2 * self.hidden;
        self.values
            .copy_within(ply * h..(ply + 1) * h, (ply + 1) * h);
    }

    /// The net's evaluation of the position at `ply`, with `pieces` pieces on the board,
    /// for `side` to move, in centipawns.
    pub fn evaluate(&self, net: &Network, ply: usize, side: Color, pieces: usize) -> i32 {
        net.output(
            self.view(ply, side),
            self.view(ply, !side),
            net.bucket(pieces),
        )
    }

    /// The values at `ply`, both views (for tests: an updated line against a refresh).
    pub fn values(&self, ply: usize) -> &[i16] {
        &self.values[ply * 2 * self.hidden..(ply + 1) * 2 * self.hidden]
    }
}
