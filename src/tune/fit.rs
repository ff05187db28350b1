//! Texel tuning: the weights that make the evaluation predict the games' results best.
//!
//! Each position's trace (`eval::trace`) is the evaluation as a linear form of the weights,
//! `E = Σ coefficient · weight + fixed` (the middlegame and endgame counts already blended by
//! the position's phase). The prediction of White's score is `σ(K·E)`, with σ the logistic
//! function; the loss is the mean squared error between it and the target (the game's result,
//! or a blend of it with `σ(K·score)` of the search's score). `K` is fitted first, with the
//! starting weights, by a golden-section search; then the weights are fitted by Adam on the
//! full gradient, computed in parallel over the positions, with the step size falling along a
//! cosine from the learning rate to a twentieth of it. Weights stay in the range a file may
//! give; frozen weights do not move.

use rayon::prelude::*;

use crate::eval::Trace;
use crate::variant::weights::{Shape, Weights};

/// Where each weight's numbers are in the vector the tuner moves: a pair has two slots
/// (middlegame, endgame), a single one for both.
#[derive(Clone, Debug)]
pub struct Slots {
    /// Per weight: its middlegame and endgame slots (the same for a single weight).
    pub of: Vec<(u16, u16)>,
    /// Per slot: its range.
    pub range: Vec<(f64, f64)>,
}

impl Slots {
    pub fn new(weights: &Weights) -> Slots {
        let mut of = Vec::new();
        let mut range = Vec::new();
        for w in &weights.list {
            let s = range.len() as u16;
            let bounds = (w.min as f64, w.max as f64);
            match w.shape {
                Shape::Pair => {
                    of.push((s, s + 1));
                    range.push(bounds);
                    range.push(bounds);
                }
                // A units weight has no count in the trace (its term is not linear in it),
                // so the fit leaves it where it is.
                Shape::Single | Shape::Units => {
                    of.push((s, s));
                    range.push(bounds);
                }
            }
        }
        Slots { of, range }
    }

    pub fn len(&self) -> usize {
        self.range.len()
    }

    pub fn is_empty(&self) -> bool {
        self.range.is_empty()
    }

    /// The weights' numbers as a vector.
    pub fn vector(&self, weights: &Weights) -> Vec<f64> {
        let mut x = vec![0.0; self.len()];
        for (w, &(m, e)) in weights.list.iter().zip(&self.of) {
            x[m as usize] = w.value[0] as f64;
            x[e as usize] = w.value[1] as f64;
        }
        x
    }

    /// Weights with the numbers of a vector, rounded.
    pub fn weights(&self, like: &Weights, x: &[f64]) -> Weights {
        let mut out = like.clone();
        for (w, &(m, e)) in out.list.iter_mut().zip(&self.of) {
            let round = |v: f64| (v.round() as i32).clamp(w.min, w.max);
            w.value = [round(x[m as usize]), round(x[e as usize])];
        }
        out
    }
}

/// The positions as the tuner reads them.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Position `i`'s coefficients are `terms[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    terms: Vec<(u16, f32)>,
    fixed: Vec<f32>,
    results: Vec<f32>,
    scores: Vec<f32>,
}

impl Dataset {
    pub fn new() -> Dataset {
        Dataset {
            starts: vec![0],
            ..Dataset::default()
        }
    }

    pub fn len(&self) -> usize {
        self.results.len()
    }

    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Adds a position: its trace, White's score in its game (1, ½, 0, or any share for
    /// soft targets) and the search's score from White's view.
    pub fn push(&mut self, trace: &Trace, slots: &Slots, result: f32, score: f32) {
        let (mg_share, eg_share) = trace.shares();
        let (mg_share, eg_share) = (mg_share as f32, eg_share as f32);
        let start = self.terms.len();
        for &(i, mg, eg) in &trace.counts {
            let (m, e) = slots.of[i as usize];
            let (a, b) = (mg * mg_share, eg * eg_share);
            if m == e {
                self.terms.push((m, a + b));
            } else {
                if a != 0.0 {
                    self.terms.push((m, a));
                }
                if b != 0.0 {
                    self.terms.push((e, b));
                }
            }
        }
        // A weight that counts nowhere in this position needs no term.
        let mut k = start;
        while k < self.terms.len() {
            if self.terms[k].1 == 0.0 {
                self.terms.swap_remove(k);
            } else {
                k += 1;
            }
        }
        self.starts.push(self.terms.len() as u32);
        self.fixed
            .push(trace.fixed.0 * mg_share + trace.fixed.1 * eg_share);
        self.results.push(result);
        self.scores.push(score);
    }

    /// Appends another dataset's positions.
    pub fn append(&mut self, other: Dataset) {
        let base = self.terms.len() as u32;
        self.terms.extend(other.terms);
        self.starts
            .extend(other.starts.iter().skip(1).map(|s| s + base));
        self.fixed.extend(other.fixed);
        self.results.extend(other.results);
        self.scores.extend(other.scores);
    }

    /// Position `i`'s evaluation (White's view) under the numbers `x`.
    #[inline]
    fn eval(&self, i: usize, x: &[f64]) -> f64 {
        let (a, b) = (self.starts[i] as usize, self.starts[i + 1] as usize);
        let mut e = self.fixed[i] as f64;
        for &(s, c) in &self.terms[a..b] {
            e += c as f64 * x[s as usize];
        }
        e
    }

    #[inline]
    fn target(&self, i: usize, k: f64, lambda: f64) -> f64 {
        let result = self.results[i] as f64;
        if lambda >= 1.0 {
            result
        } else {
            lambda * result + (1.0 - lambda) * sigmoid(k * self.scores[i] as f64)
        }
    }

    /// The mean squared error of the predictions under `x`.
    pub fn loss(&self, x: &[f64], k: f64, lambda: f64) -> f64 {
        let sum: f64 = chunks(self.len())
            .into_par_iter()
            .map(|(a, b)| {
                (a..b)
                    .map(|i| {
                        let d = sigmoid(k * self.eval(i, x)) - self.target(i, k, lambda);
                        d * d
                    })
                    .sum::<f64>()
            })
            .sum();
        sum / self.len().max(1) as f64
    }

    /// The loss and its gradient under `x`.
    pub fn gradient(&self, x: &[f64], k: f64, lambda: f64) -> (f64, Vec<f64>) {
        let n = x.len();
        let (loss, mut grad) = chunks(self.len())
            .into_par_iter()
            .map(|(a, b)| {
                let mut g = vec![0.0; n];
                let mut loss = 0.0;
                for i in a..b {
                    let p = sigmoid(k * self.eval(i, x));
                    let d = p - self.target(i, k, lambda);
                    loss += d * d;
                    let factor = 2.0 * d * p * (1.0 - p) * k;
                    let (s, e) = (self.starts[i] as usize, self.starts[i + 1] as usize);
                    for &(slot, c) in &self.terms[s..e] {
                        g[slot as usize] += factor * c as f64;
                    }
                }
                (loss, g)
            })
            .reduce(
                || (0.0, vec![0.0; n]),
                |(la, mut ga), (lb, gb)| {
                    for (a, b) in ga.iter_mut().zip(gb) {
                        *a += b;
                    }
                    (la + lb, ga)
                },
            );
        let m = self.len().max(1) as f64;
        for g in &mut grad {
            *g /= m;
        }
        (loss / m, grad)
    }
}

/// Ranges of positions for the threads: enough of them to share the work evenly.
fn chunks(n: usize) -> Vec<(usize, usize)> {
    const SIZE: usize = 8192;
    (0..n.div_ceil(SIZE))
        .map(|c| (c * SIZE, ((c + 1) * SIZE).min(n)))
        .collect()
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The `K` of the sigmoid that fits the data best under `x`: a golden-section search on
/// `ln K` from 1e-4 to 0.1 (a centipawn scale of 10 000 to 10).
pub fn fit_scale(data: &Dataset, x: &[f64], lambda: f64) -> f64 {
    let (mut lo, mut hi) = (1e-4f64.ln(), 0.1f64.ln());
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    let loss = |t: f64| data.loss(x, t.exp(), lambda);
    let mut c = hi - golden * (hi - lo);
    let mut d = lo + golden * (hi - lo);
    let (mut fc, mut fd) = (loss(c), loss(d));
    for _ in 0..60 {
        if fc < fd {
            hi = d;
            d = c;
            fd = fc;
            c = hi - golden * (hi - lo);
            fc = loss(c);
        } else {
            lo = c;
            c = d;
            fc = fd;
            d = lo + golden * (hi - lo);
            fd = loss(d);
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// How a fit runs.
#[derive(Clone, Debug)]
pub struct Options {
    pub epochs: usize,
    /// Adam's step size at the start, in centipawns.
    pub learning_rate: f64,
    /// The target's share of the game result (the rest is the search's score).
    pub lambda: f64,
    /// Per slot: kept where it is.
    pub frozen: Vec<bool>,
    /// Per slot: how strongly it is pulled to zero. The fit minimises the loss plus
    /// `ridge · (x / 100)²` summed over the slots (a ridge penalty: a weight the data says
    /// little about, as a square a piece seldom stands on, stays near zero instead of
    /// taking up the noise). Missing slots are not pulled.
    pub ridge: Vec<f64>,
}

/// Fits `x` (starting weights) to the data under the scale `k`. `on_epoch(epoch, loss)`
/// is told each epoch's loss (before its step). Returns the final loss (the data's alone,
/// without the ridge penalty).
pub fn fit(
    data: &Dataset,
    slots: &Slots,
    x: &mut [f64],
    k: f64,
    options: &Options,
    on_epoch: &mut dyn FnMut(usize, f64),
) -> f64 {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-15;
    let n = x.len();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let floor = options.learning_rate / 20.0;
    for epoch in 0..options.epochs {
        let (loss, grad) = data.gradient(x, k, options.lambda);
        on_epoch(epoch, loss);
        let t = (epoch + 1) as i32;
        let progress = epoch as f64 / options.epochs.max(1) as f64;
        let rate = floor
            + (options.learning_rate - floor) * (1.0 + (std::f64::consts::PI * progress).cos())
                / 2.0;
        for s in 0..n {
            if options.frozen.get(s).copied().unwrap_or(false) {
                continue;
            }
            let pull = options.ridge.get(s).copied().unwrap_or(0.0);
            let g = grad[s] + 2.0 * pull * x[s] / 1e4;
            m[s] = BETA1 * m[s] + (1.0 - BETA1) * g;
            v[s] = BETA2 * v[s] + (1.0 - BETA2) * g * g;
            let m_hat = m[s] / (1.0 - BETA1.powi(t));
            let v_hat = v[s] / (1.0 - BETA2.powi(t));
            x[s] -= rate * m_hat / (v_hat.sqrt() + EPSILON);
            let (lo, hi) = slots.range[s];
            x[s] = x[s].clamp(lo, hi);
        }
    }
    data.loss(x, k, options.lambda)
}
