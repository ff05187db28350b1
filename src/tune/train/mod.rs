//! Training a net for the learned evaluation (`eval::nnue`) from `magus datagen` games or
//! match PGNs: `dataset` turns positions into the net's inputs, `model` is the net in
//! floating point with its loss, gradient and optimiser, and this file is the loop: epochs
//! over the shuffled positions in batches, the gradient of a batch computed on every core,
//! the validation loss after each epoch, a checkpoint to resume from.

pub mod cli;
pub mod dataset;
pub mod model;

use std::time::Instant;

use rayon::prelude::*;

use crate::tournament::openings::SplitMix64;
use dataset::Positions;
use model::{AdamW, Model, Scratch};

/// How a net is trained.
#[derive(Clone, Debug)]
pub struct Settings {
    pub epochs: u32,
    pub batch: usize,
    /// The learning rate at the start; it falls along a cosine to `final_rate`.
    pub rate: f32,
    pub final_rate: f32,
    /// The weight of the search's score in the target (the rest is the game's result).
    pub lambda: f32,
    /// Centipawns per unit of the logistic curve that turns scores into win chances.
    pub scale: f32,
    pub weight_decay: f32,
    /// The weights the decay pulls towards: a starting net's (`--init`), so that what the
    /// new games do not teach is kept; none pulls towards zero.
    pub decay_towards: Option<Vec<f32>>,
    pub seed: u64,
}

/// What one epoch did.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: u32,
    pub train_loss: f64,
    pub validation_loss: f64,
    pub rate: f32,
    pub positions_per_second: f64,
}

/// The learning rate of `epoch` (from 0) of `epochs`.
fn rate_at(settings: &Settings, epoch: u32) -> f32 {
    let share = epoch as f32 / settings.epochs.max(1) as f32;
    let cosine = 0.5 * (1.0 + (std::f32::consts::PI * share).cos());
    settings.final_rate + (settings.rate - settings.final_rate) * cosine
}

/// The mean loss of `data` (positions `ids`), and the sum of its gradients if `grad`.
fn batch_loss(
    model: &Model,
    data: &Positions,
    ids: &[u32],
    settings: &Settings,
    with_gradient: bool,
) -> (f64, Option<Vec<f32>>) {
    let threads = rayon::current_num_threads().max(1);
    let chunk = ids.len().div_ceil(threads).max(1);
    let parts: Vec<(f64, Option<Vec<f32>>)> = ids
        .par_chunks(chunk)
        .map(|part| {
            let mut scratch = Scratch::new(model.hidden());
            let mut grad = with_gradient.then(|| vec![0.0f32; model.len()]);
            let mut loss = 0.0f64;
            for &i in part {
                let pos = data.get(i as usize);
                loss += f64::from(model.loss(
                    &pos,
                    settings.lambda,
                    settings.scale,
                    &mut scratch,
                    grad.as_deref_mut(),
                ));
            }
            (loss, grad)
        })
        .collect();
    let mut total = 0.0;
    let mut sum: Option<Vec<f32>> = None;
    for (loss, grad) in parts {
        total += loss;
        if let Some(g) = grad {
            match &mut sum {
                None => sum = Some(g),
                Some(s) => s.iter_mut().zip(&g).for_each(|(a, b)| *a += b),
            }
        }
    }
    (total / ids.len().max(1) as f64, sum)
}

/// The mean loss over every position of `data`.
pub fn mean_loss(model: &Model, data: &Positions, settings: &Settings) -> f64 {
    let ids: Vec<u32> = (0..data.len() as u32).collect();
    batch_loss(model, data, &ids, settings, false).0
}

/// Trains `model` on `train` from epoch `first` (0, or the epochs a checkpoint had done) to
/// `settings.epochs`; after each epoch `on_epoch` gets the report and the model (to save a
/// checkpoint), and `progress` is told the positions done in the epoch.
pub fn train(
    model: &mut Model,
    train: &Positions,
    validation: &Positions,
    settings: &Settings,
    first: u32,
    mut on_epoch: impl FnMut(&EpochReport, &Model),
    mut progress: impl FnMut(u64),
) {
    let mut adam = AdamW::new(model.len(), settings.weight_decay);
    adam.towards = settings.decay_towards.clone();
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    for epoch in first..settings.epochs {
        let started = Instant::now();
        let mut rng = SplitMix64::new(settings.seed ^ u64::from(epoch).wrapping_mul(0x9E37));
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let rate = rate_at(settings, epoch);
        let mut total = 0.0;
        let mut done = 0usize;
        for ids in order.chunks(settings.batch.max(1)) {
            let (loss, grad) = batch_loss(model, train, ids, settings, true);
            let mut grad = grad.expect("asked for a gradient");
            let n = ids.len() as f32;
            grad.iter_mut().for_each(|g| *g /= n);
            adam.step(model, &grad, rate);
            total += loss * ids.len() as f64;
            done += ids.len();
            progress(done as u64);
        }
        let seconds = started.elapsed().as_secs_f64();
        let report = EpochReport {
            epoch: epoch + 1,
            train_loss: total / done.max(1) as f64,
            validation_loss: if validation.is_empty() {
                f64::NAN
            } else {
                mean_loss(model, validation, settings)
            },
            rate,
            positions_per_second: done as f64 / seconds.max(1e-9),
        };
        on_epoch(&report, model);
    }
}
