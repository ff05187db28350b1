//! `magus train`: reads the games, trains, and writes the net (docs/nnue.md).

use std::path::{Path, PathBuf};

use super::dataset::Positions;
use super::model::{Model, Shape};
use super::{EpochReport, Settings, train};
use crate::board::Bitboard;
use crate::eval::nnue::{FeatureSet, Network};
use crate::game::AnyPosition;
use crate::tune::cli::{cores, find};
use crate::tune::load::read_games;
use crate::tune::progress::{Progress, Shown, format_duration};
use crate::variant::Registry;
use crate::with_position;

/// Trains a net for the learned evaluation (NNUE) of a variant from self-play data files
/// (`magus datagen`) or match PGNs, and writes it as a net file that `EvalFile` loads. Every
/// fiftieth game is kept apart to measure the validation loss. A checkpoint (the output file
/// with `.ckpt` added) is written after every epoch; --resume goes on from it.
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// The variant (see `magus variants`).
    #[arg(long)]
    pub variant: String,
    /// Data files (`magus datagen`) or PGN files of games of the variant.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The net file to write.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Neurons of the hidden layer (a multiple of 16).
    #[arg(long, default_value_t = 64)]
    pub hidden: usize,
    /// Output buckets by material: each has its own output, chosen by the pieces on the
    /// board (1 to 16; the variant's pieces at the start are spread evenly over them).
    #[arg(long, default_value_t = 1)]
    pub buckets: usize,
    /// Train a correction of the hand-made evaluation: the net's output is added to it, in
    /// training and in play (the net file says so). Less to learn from few positions; each
    /// node then costs both evaluations.
    #[arg(long)]
    pub on_hce: bool,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20)]
    pub epochs: u32,
    /// Positions per step of the optimiser (on a million Magi positions 2048 and 4096 reached
    /// the lowest validation loss: docs/nnue.md).
    #[arg(long, default_value_t = 2048)]
    pub batch: usize,
    /// The learning rate at the start (it falls along a cosine to a twentieth of it).
    #[arg(long, default_value_t = 0.002)]
    pub rate: f32,
    /// The weight of the search's score in the target; the rest is the game's result.
    /// (On the first few hundred thousand positions the scores alone taught best: docs/nnue.md.)
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f32,
    /// Centipawns per unit of the logistic curve that turns scores into win chances.
    #[arg(long, default_value_t = 400.0)]
    pub scale: f32,
    /// AdamW's weight decay (per unit of learning rate): it kept a small data set's net from
    /// learning its games by heart.
    #[arg(long, default_value_t = 1.0)]
    pub weight_decay: f32,
    /// The seed of the starting weights and of the order of the positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Go on from the checkpoint of an interrupted run with the same settings.
    #[arg(long)]
    pub resume: bool,
    /// Start from this net's weights instead of random ones (a net of the variant, of the
    /// shape the options give): the net goes on learning from new games without the old
    /// ones, which may be gone. The weight decay then pulls towards this net's weights, not
    /// towards zero, so that what the new games do not teach is kept; a lower --rate keeps
    /// more. With --resume, give it again.
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
}

/// One game in fifty is for validation.
const VALIDATION_EVERY: usize = 50;

pub fn run_train(args: &TrainArgs, registry: &Registry) -> Result<(), String> {
    let variant = find(registry, &args.variant)?;
    if args.hidden == 0
        || !args.hidden.is_multiple_of(16)
        || args.hidden > crate::eval::nnue::network::MAX_HIDDEN
    {
        return Err(format!(
            "--hidden: a multiple of 16 from 16 to {}",
            crate::eval::nnue::network::MAX_HIDDEN
        ));
    }
    if !(1..=crate::eval::nnue::network::MAX_BUCKETS).contains(&args.buckets) {
        return Err(format!(
            "--buckets: from 1 to {}",
            crate::eval::nnue::network::MAX_BUCKETS
        ));
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err("--lambda: give a share from 0 to 1".into());
    }
    if args.epochs == 0 || args.batch == 0 {
        return Err("--epochs and --batch: give at least 1".into());
    }
    if !(args.rate > 0.0 && args.rate.is_finite() && args.scale > 0.0 && args.scale.is_finite()) {
        return Err("--rate and --scale: give positive numbers".into());
    }
    if !(args.weight_decay >= 0.0 && args.weight_decay.is_finite()) {
        return Err("--weight-decay: give a number of 0 or more".into());
    }
    let start = AnyPosition::from_fen(variant, None)?;
    let set = with_position!(&start, p => FeatureSet::of(p.layout()));
    let start_pieces = with_position!(&start, p => p.occupied().count() as usize);
    let shape = Shape::of(&set, args.hidden)
        .with_buckets(
            args.buckets,
            crate::eval::nnue::network::pieces_per_bucket(start_pieces, args.buckets),
        )
        .on_hce(args.on_hce);
    let threads = args.threads.unwrap_or_else(cores).max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("--threads: {e}"))?;
    pool.install(|| {
        let show = Shown::on_terminal_else(Shown::Hidden);
        eprintln!("reading {} file(s)…", args.files.len());
        let (games, loaded) = read_games(&args.files, variant, |samples| {
            let mut part = Positions::new();
            part.push_game(&set, samples, args.on_hce);
            part
        })?;
        for note in loaded.cut_short.iter().chain(&loaded.pgn_left_out) {
            eprintln!("note: {note}");
        }
        let (mut training, mut validation) = (Positions::new(), Positions::new());
        for (i, game) in games.into_iter().enumerate() {
            if i % VALIDATION_EVERY == VALIDATION_EVERY - 1 {
                validation.append(game);
            } else {
                training.append(game);
            }
        }
        if training.is_empty() {
            return Err("the files hold no positions to train on".into());
        }
        println!(
            "{} games, {} positions: {} to train on, {} to validate; {} inputs, {} hidden, \
             {} output buckets{}, {threads} threads",
            loaded.games,
            loaded.positions,
            training.len(),
            validation.len(),
            set.count(),
            args.hidden,
            args.buckets,
            if args.on_hce {
                ", a correction of the hand-made evaluation"
            } else {
                ""
            }
        );
        let init = match &args.init {
            Some(path) => Some(read_init(path, variant, &set, shape)?),
            None => None,
        };
        let checkpoint = with_suffix(&args.output, ".ckpt");
        let (mut model, first) = if args.resume {
            let bytes = std::fs::read(&checkpoint)
                .map_err(|e| format!("--resume: {}: {e}", checkpoint.display()))?;
            let (model, epochs) = Model::from_bytes(&bytes)
                .map_err(|e| format!("--resume: {}: {e}", checkpoint.display()))?;
            if model.shape != shape {
                let on_hce = |yes: bool| {
                    if yes {
                        ", on the hand-made evaluation"
                    } else {
                        ""
                    }
                };
                return Err(format!(
                    "--resume: {} has {} inputs, {} hidden and {} output buckets{}, not {}, {} \
                     and {}{}",
                    checkpoint.display(),
                    model.shape.inputs,
                    model.shape.hidden,
                    model.shape.buckets,
                    on_hce(model.shape.on_hce),
                    set.count(),
                    args.hidden,
                    args.buckets,
                    on_hce(args.on_hce)
                ));
            }
            println!("resuming after epoch {epochs}");
            (model, epochs)
        } else if let Some(init) = &init {
            (init.clone(), 0)
        } else {
            (Model::new(shape, args.seed), 0)
        };
        let settings = Settings {
            epochs: args.epochs,
            batch: args.batch,
            rate: args.rate,
            final_rate: args.rate / 20.0,
            lambda: args.lambda,
            scale: args.scale,
            weight_decay: args.weight_decay,
            decay_towards: init.as_ref().map(|m| m.params.clone()),
            seed: args.seed,
        };
        if let Some(init) = &init
            && !validation.is_empty()
        {
            println!(
                "validation {:.6} before training (the net read by --init)",
                super::mean_loss(init, &validation, &settings)
            );
        }
        let started = std::time::Instant::now();
        let progress =
            std::cell::RefCell::new(Progress::new(show, "positions", training.len() as u64));
        let mut saved: Result<(), String> = Ok(());
        train(
            &mut model,
            &training,
            &validation,
            &settings,
            first,
            |report: &EpochReport, model: &Model| {
                let mut p = progress.borrow_mut();
                p.finish();
                *p = Progress::new(show, "positions", training.len() as u64);
                println!(
                    "epoch {:>3}/{}  loss {:.6}  validation {:.6}  rate {:.5}  {:.0} positions/s",
                    report.epoch,
                    settings.epochs,
                    report.train_loss,
                    report.validation_loss,
                    report.rate,
                    report.positions_per_second
                );
                if saved.is_ok() {
                    saved = std::fs::write(&checkpoint, model.to_bytes(report.epoch))
                        .map_err(|e| format!("{}: {e}", checkpoint.display()));
                }
            },
            |done| progress.borrow_mut().set(done, ""),
        );
        progress.borrow_mut().finish();
        saved?;
        let net: Network = model.quantise(&variant.name, &set);
        std::fs::write(&args.output, net.to_bytes())
            .map_err(|e| format!("{}: {e}", args.output.display()))?;
        println!(
            "wrote {} ({} bytes) in {}",
            args.output.display(),
            net.to_bytes().len(),
            format_duration(started.elapsed().as_secs_f64())
        );
        Ok(())
    })
}

/// The model of the net `--init` names, which must be a net of this variant and shape.
fn read_init(
    path: &Path,
    variant: &crate::variant::Variant,
    set: &FeatureSet,
    shape: Shape,
) -> Result<Model, String> {
    let net = crate::eval::nnue::read(path)?;
    crate::eval::nnue::check_fits(&net, variant, set)
        .and_then(|()| Model::from_network(&net, shape))
        .map_err(|e| format!("--init: {}: {e}", path.display()))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}
