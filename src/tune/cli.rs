//! `magus datagen`, `magus label` and `magus tune`: their arguments and what they print.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use super::datagen::{self, Settings};
use super::fit::{self, Options, Slots};
use super::label;
use super::load::load;
use super::progress::{Shown, format_duration};
use crate::eval::nnue::{self, FeatureSet};
use crate::game::AnyPosition;
use crate::tournament::interrupt::{INTERRUPTED_STATUS, StopFlag, install_handler_saying};
use crate::variant::weights::{Shape, Weights, is_square_key, replace_section};
use crate::variant::{Registry, Variant};
use crate::with_position;

/// Plays self-play games for tuning and writes their quiet positions, with each game's
/// result and the search's score, to a data file (docs/tuning.md). Games start from random
/// openings drawn from the seed; the same settings give the same file. An existing file is
/// continued: the run plays the games it lacks up to --games. With --shard K/N it plays every
/// N-th game from the K-th, so that N machines with the same settings write N files that
/// together hold the games of one run.
#[derive(clap::Args, Debug, Clone)]
pub struct DatagenArgs {
    /// The variant (see `magus variants`).
    #[arg(long)]
    pub variant: String,
    /// How many games the file holds when the run ends (counting those already in it); with
    /// --shard, how many the whole run holds, of which the shard plays its share.
    #[arg(long)]
    pub games: u64,
    /// Play only shard K of N (1/4, 2/4, …): the games whose index is K − 1 more than a
    /// multiple of N. Every shard needs the same settings, and a file of its own.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Games played at once, one single-threaded search each (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies that open each game.
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Draw an opening again until a short material-only search scores it within this many
    /// centipawns (0: keep every opening).
    #[arg(long, default_value_t = 300)]
    pub opening_balance: i32,
    /// Hash table per game being played, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Play with this net (written by `magus train` for the variant): the games of the next
    /// generation. The file's header records the net's checksum. Default: the hand-made
    /// evaluation (not a built-in net).
    #[arg(long, value_name = "NET")]
    pub eval_file: Option<PathBuf>,
    /// The data file (created, or continued).
    #[arg(short, long)]
    pub output: PathBuf,
}

/// Scores the positions of a data file again with another engine (docs/tuning.md, "Scores
/// from another engine"): each position that has a score gets the engine's, searched to a
/// depth or a number of nodes; games, moves and results stay. Mates and positions the engine
/// could not score lose their score.
#[derive(clap::Args, Debug, Clone)]
pub struct LabelArgs {
    /// The variant (see `magus variants`).
    #[arg(long)]
    pub variant: String,
    /// The engine, as `magus match` takes it: `name=sf,cmd=/usr/games/stockfish,option.Hash=16`.
    /// UCI only (an XBoard engine plays its own moves on its own board).
    #[arg(long)]
    pub engine: String,
    /// Search each position to this depth.
    #[arg(long, conflicts_with = "nodes", required_unless_present = "nodes")]
    pub depth: Option<u32>,
    /// Search each position this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Engines running at once (default: every core).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// The longest wait for one position's score, in seconds.
    #[arg(long, default_value_t = 60.0)]
    pub move_timeout: f64,
    /// A data file written by `magus datagen`, or a PGN file of the variant's games whose move
    /// comments begin with a score (`magus match --pgnout`): its quiet positions are scored.
    #[arg(value_name = "FILE")]
    pub input: PathBuf,
    /// Where to write the data file with the engine's scores.
    #[arg(short, long)]
    pub output: PathBuf,
}

/// Fits every weight of a variant's evaluation to the results of the games in data files
/// (Texel tuning, docs/tuning.md), and writes them as an [eval] section.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    /// The variant (see `magus variants`).
    #[arg(long)]
    pub variant: String,
    /// Data files written by `magus datagen` for the variant, or PGN files of its games
    /// whose move comments begin with the engine's score (`magus match --pgnout`).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Where to write the fitted weights: a parameters file (an [eval] section).
    #[arg(short, long, required_unless_present = "print_weights")]
    pub output: Option<PathBuf>,
    /// Also write the variant's whole definition with the fitted [eval] section, for
    /// `--variant-path` or the UCI option `VariantPath`.
    #[arg(long, value_name = "FILE")]
    pub variant_out: Option<PathBuf>,
    /// Start from the weights of this parameters file instead of the variant's own.
    #[arg(long, value_name = "PARAMS")]
    pub init: Option<PathBuf>,
    /// Passes over the full gradient.
    #[arg(long, default_value_t = 1000)]
    pub epochs: usize,
    /// Adam's step at the start, in centipawns (it falls to a twentieth by the end).
    #[arg(long, default_value_t = 2.0)]
    pub learning_rate: f64,
    /// The target's share of the game result; the rest is the search's score through the
    /// same sigmoid (1: the result alone).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// The sigmoid's scale K (default: fitted to the data with the starting weights).
    #[arg(long)]
    pub scale: Option<f64>,
    /// Keep the weights with this key, or under it, where they are (repeatable): `material`
    /// (every `material.X`), `material.P`, `pawns.passed` (not `pawns.passed_blocked`).
    #[arg(long, value_name = "KEY")]
    pub freeze: Vec<String>,
    /// Trace the positions again with the fitted weights and fit again, this many times in
    /// all (the terms that are not linear in their weights are linearised anew each time).
    #[arg(long, default_value_t = 1)]
    pub passes: usize,
    /// Threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Fit a square table per piece as well (an [eval.squares] section: one weight pair per
    /// square and piece, mirrored across the centre file), starting from zero where the
    /// variant has none yet.
    #[arg(long)]
    pub squares: bool,
    /// How strongly the square tables are pulled to zero: the fit minimises the loss plus
    /// this times the sum of (weight / 100)² over their weights, so that a square a piece
    /// seldom stands on keeps a small value.
    #[arg(long, default_value_t = 0.0)]
    pub ridge: f64,
    /// Print the variant's current weights as an [eval] section, and stop.
    #[arg(long)]
    pub print_weights: bool,
}

pub(crate) fn find(registry: &Registry, name: &str) -> Result<&'static Variant, String> {
    registry.get(name).ok_or_else(|| {
        format!(
            "--variant: unknown variant '{name}' (known: {})",
            registry.names().join(", ")
        )
    })
}

pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `magus datagen`; the exit status is 130 when a signal stopped it before the file held
/// its games.
pub fn run_datagen(args: &DatagenArgs, registry: &Registry) -> Result<ExitCode, String> {
    let variant = find(registry, &args.variant)?;
    if args.nodes == 0 {
        return Err("--nodes: give at least 1".into());
    }
    if args.opening_balance < 0 {
        return Err("--opening-balance: give 0 (no check) or a number of centipawns".into());
    }
    let settings = Settings {
        variant,
        nodes: args.nodes,
        seed: args.seed,
        random_plies: args.random_plies,
        balance: (args.opening_balance > 0).then_some(args.opening_balance),
        hash_mb: args.hash.max(1),
        shard: args
            .shard
            .as_deref()
            .map(super::data::parse_shard)
            .transpose()
            .map_err(|e| format!("--shard: {e}"))?,
        net: match &args.eval_file {
            Some(path) => {
                let start = AnyPosition::from_fen(variant, None)?;
                let set = with_position!(&start, p => FeatureSet::of(p.layout()));
                Some(nnue::load(path, variant, &set).map_err(|e| format!("--eval-file: {e}"))?)
            }
            None => None,
        },
    };
    let threads = args.threads.unwrap_or_else(cores).max(1);
    let stop = StopFlag::default();
    // Without the handler Ctrl-C still ends the run, only less tidily: the file's last line
    // may be cut short (a later run plays that game again).
    let _ = install_handler_saying(
        stop.clone(),
        "interrupted: finishing and writing the games in progress \
         (interrupt again to quit at once)",
    );
    let started = Instant::now();
    let summary = datagen::run(
        &settings,
        args.games,
        threads,
        &args.output,
        &stop,
        Shown::on_terminal_else(Shown::Logged),
    )?;
    let shown = args.output.display();
    let of = match settings.shard {
        Some((k, n)) => format!(
            "shard {k}/{n}'s {} of --games {}",
            settings.header().games_of(args.games),
            args.games
        ),
        None => format!("of --games {}", args.games),
    };
    let played = summary.after - summary.before;
    let took = format_duration(started.elapsed().as_secs_f64());
    // The last line is written quietly: a terminal closed meanwhile must not turn a whole
    // file into a failed run.
    let said = if summary.stopped {
        format!(
            "{shown}: stopped: {played} games played ({} to {}, {of}), {} positions, in {took}; \
             the same command goes on from there",
            summary.before, summary.after, summary.positions
        )
    } else if played == 0 {
        format!(
            "{shown}: holds {} games already ({of}): nothing to play",
            summary.before
        )
    } else {
        format!(
            "{shown}: {played} games played ({} to {}, {of}), {} positions, in {took} on \
             {threads} threads",
            summary.before, summary.after, summary.positions
        )
    };
    let _ = writeln!(std::io::stdout(), "{said}");
    // Stopped short of its games, the run ends as an interrupted match does, so that a
    // script or scheduler does not take the file for finished.
    Ok(if summary.stopped {
        ExitCode::from(INTERRUPTED_STATUS)
    } else {
        ExitCode::SUCCESS
    })
}

pub fn run_label(args: &LabelArgs, registry: &Registry) -> Result<(), String> {
    use crate::tournament::clock::Limit;
    use crate::tournament::engine::{EngineSpec, Protocol};
    use crate::tournament::interrupt::install_handler;
    let variant = find(registry, &args.variant)?;
    let limit = match (args.depth, args.nodes) {
        (Some(d), _) if (1..=127).contains(&d) => Limit::Depth(d),
        (Some(d), _) => return Err(format!("--depth: {d} is not from 1 to 127")),
        (None, Some(n)) if n > 0 => Limit::Nodes(n),
        _ => return Err("--nodes: give at least 1".into()),
    };
    if !(args.move_timeout.is_finite() && args.move_timeout > 0.0 && args.move_timeout < 1e7) {
        return Err("--move-timeout: give a positive number of seconds".into());
    }
    let self_exe = std::env::current_exe().map_err(|e| format!("cannot find magus itself: {e}"))?;
    let engine = EngineSpec::parse(&args.engine, &self_exe)
        .map_err(|e| format!("--engine '{}': {e}", args.engine))?;
    if engine.proto != Protocol::Uci {
        return Err(format!(
            "--engine '{}': only a UCI engine can score positions it did not play",
            args.engine
        ));
    }
    let input = read_games(&args.input, variant)?;
    if input.header.variant != variant.name {
        return Err(format!(
            "{}: its games are of variant '{}', not '{}'",
            args.input.display(),
            input.header.variant,
            variant.name
        ));
    }
    let settings = label::Settings {
        variant,
        engine,
        limit,
        workers: args.concurrency.unwrap_or_else(cores).max(1),
        move_timeout: std::time::Duration::from_secs_f64(args.move_timeout),
        handshake: std::time::Duration::from_secs(10),
    };
    let stop = StopFlag::default();
    // Without the handler Ctrl-C still ends the run, only less tidily.
    let _ = install_handler(stop.clone());
    let started = Instant::now();
    let summary = label::run(
        &settings,
        &input,
        &args.output,
        &stop,
        Shown::on_terminal_else(Shown::Logged),
    )?;
    println!(
        "{}: {} games, {} of {} positions scored by {} ({}), in {}{}",
        args.output.display(),
        summary.games,
        summary.scored,
        summary.positions,
        settings.engine.name,
        limit.describe(),
        format_duration(started.elapsed().as_secs_f64()),
        if stop.is_raised() {
            " (interrupted)"
        } else {
            ""
        }
    );
    if let Some(first) = &summary.first_fault {
        println!(
            "{} games lost their remaining positions to an engine fault; the first: {first}",
            summary.faults
        );
    }
    Ok(())
}

/// A data file, or the games of a PGN file as one (`pgn_data`) under a header that says they
/// were not self-play (seed, nodes and random plies 0).
fn read_games(path: &Path, variant: &'static Variant) -> Result<super::data::DataFile, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
    if !text.trim_start().starts_with('[') {
        return super::data::read(path);
    }
    let (games, left_out) =
        super::pgn_data::games_from_pgn(&text, variant).map_err(|e| format!("{shown}: {e}"))?;
    if let Some(said) = left_out.describe() {
        eprintln!("{shown}: {said}");
    }
    Ok(super::data::DataFile {
        header: super::data::Header {
            variant: variant.name.clone(),
            seed: 0,
            nodes: 0,
            random_plies: 0,
            balance: None,
            shard: None,
            net: None,
        },
        games,
        complete_len: text.len() as u64,
        cut_short: false,
    })
}

/// A copy of `variant` with other weights, for the run (kept as every variant is: one per
/// distinct definition, `variant::kept`).
fn with_weights(variant: &'static Variant, weights: Weights) -> Result<&'static Variant, String> {
    let mut v = variant.clone();
    v.weights = weights;
    crate::variant::kept::keep(v)
}

/// The text of a variant's definition, for `--variant-out`.
fn definition_text(variant: &Variant) -> Result<String, String> {
    if let Some(file) = variant.source.strip_prefix("built-in ") {
        return crate::variant::builtin::BUILTIN
            .iter()
            .find(|(f, _)| *f == file)
            .map(|(_, text)| text.to_string())
            .ok_or_else(|| format!("no built-in definition file {file}"));
    }
    std::fs::read_to_string(&variant.source).map_err(|_| {
        format!(
            "--variant-out: variant '{}' comes from '{}', which is not a TOML file magus can \
             rewrite: copy the [eval] section of the parameters file into its definition by hand",
            variant.name, variant.source
        )
    })
}

fn shown(w: &crate::variant::weights::Weight) -> String {
    match w.shape {
        Shape::Pair => format!("[{}, {}]", w.value[0], w.value[1]),
        Shape::Single | Shape::Units => w.value[0].to_string(),
    }
}

/// The old and new weights side by side.
pub fn comparison(old: &Weights, new: &Weights) -> String {
    let mut out = format!("{:<34} {:>14} {:>14}   {}\n", "weight", "old", "new", "");
    for (a, b) in old.list.iter().zip(&new.list) {
        let mark = if a.value == b.value { "" } else { "*" };
        out.push_str(&format!(
            "{:<34} {:>14} {:>14} {mark:1} {}\n",
            a.key,
            shown(a),
            shown(b),
            a.about
        ));
    }
    out
}

pub fn run_tune(args: &TuneArgs, registry: &Registry) -> Result<(), String> {
    let base = find(registry, &args.variant)?;
    let mut start = base.weights.clone();
    if let Some(path) = &args.init {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        start = start.read_section(&text, &path.display().to_string())?;
    }
    if args.squares {
        start.add_square_tables();
    }
    if args.print_weights {
        print!(
            "{}",
            start.to_toml(&[format!("The weights of {}.", base.name)])
        );
        return Ok(());
    }
    if args.files.is_empty() {
        return Err(
            "give one or more data files (written by `magus datagen`) or PGN files of games".into(),
        );
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err("--lambda: give a share from 0 to 1".into());
    }
    if args.epochs == 0 || args.passes == 0 {
        return Err("--epochs and --passes: give at least 1".into());
    }
    if !(args.ridge >= 0.0 && args.ridge.is_finite()) {
        return Err("--ridge: give a number of 0 or more".into());
    }
    if args.ridge > 0.0 && !start.has_square_tables() {
        return Err(format!(
            "--ridge pulls the square tables, and {} has none: add --squares",
            base.name
        ));
    }
    if let Some(k) = args.scale
        && !(k > 0.0 && k.is_finite())
    {
        return Err("--scale: give a positive number".into());
    }
    for prefix in &args.freeze {
        if !start.list.iter().any(|w| is_under(&w.key, prefix)) {
            return Err(format!(
                "--freeze: no weight of {} has the key '{prefix}' or one under it",
                base.name
            ));
        }
    }
    let threads = args.threads.unwrap_or_else(cores).max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("--threads: {e}"))?;
    pool.install(|| tune(args, base, start, threads))
}

/// Whether a weight's key is `prefix` or lies under it (`material.P` under `material`), so
/// that `pawns.passed` names that weight and not `pawns.passed_blocked`.
pub fn is_under(key: &str, prefix: &str) -> bool {
    key.strip_prefix(prefix)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

fn tune(
    args: &TuneArgs,
    base: &'static Variant,
    start: Weights,
    threads: usize,
) -> Result<(), String> {
    let terminal = std::io::stderr().is_terminal();
    let slots = Slots::new(&start);
    let mut frozen = vec![false; slots.len()];
    for (w, &(m, e)) in start.list.iter().zip(&slots.of) {
        if args.freeze.iter().any(|p| is_under(&w.key, p)) {
            frozen[m as usize] = true;
            frozen[e as usize] = true;
        }
    }
    let mut ridge = vec![0.0; slots.len()];
    for (w, &(m, e)) in start.list.iter().zip(&slots.of) {
        if is_square_key(&w.key) {
            ridge[m as usize] = args.ridge;
            ridge[e as usize] = args.ridge;
        }
    }
    let mut x = slots.vector(&start);
    let mut current = start.clone();
    let mut k = args.scale;
    let mut summary = String::new();
    for pass in 0..args.passes {
        let read_at = Instant::now();
        let variant = with_weights(base, current.clone())?;
        let (data, loaded) = load(&args.files, variant, &slots)?;
        for f in &loaded.cut_short {
            eprintln!("warning: {f}: its last line is cut short and was left out");
        }
        if pass == 0 {
            for said in &loaded.pgn_left_out {
                eprintln!("note: {said}");
            }
        }
        if data.is_empty() {
            return Err("the data files hold no positions".into());
        }
        eprintln!(
            "pass {}/{}: {} positions from {} games, traced in {} on {threads} threads",
            pass + 1,
            args.passes,
            data.len(),
            loaded.games,
            format_duration(read_at.elapsed().as_secs_f64())
        );
        let scale = match k {
            Some(k) => k,
            None => {
                let fitted = fit::fit_scale(&data, &x, args.lambda);
                eprintln!("K = {fitted:.6} (fitted with the starting weights)");
                k = Some(fitted);
                fitted
            }
        };
        let options = Options {
            epochs: args.epochs,
            learning_rate: args.learning_rate,
            lambda: args.lambda,
            frozen: frozen.clone(),
            ridge: ridge.clone(),
        };
        let fit_at = Instant::now();
        let mut first = None;
        let mut last_line = Instant::now();
        let every = (args.epochs / 10).max(1);
        let end = fit::fit(
            &data,
            &slots,
            &mut x,
            scale,
            &options,
            &mut |epoch, loss| {
                first.get_or_insert(loss);
                let line = format!(
                    "epoch {}/{}  loss {loss:.6}  (start {:.6})  {}",
                    epoch + 1,
                    args.epochs,
                    first.unwrap_or(loss),
                    format_duration(fit_at.elapsed().as_secs_f64())
                );
                if terminal {
                    if last_line.elapsed().as_millis() >= 200 || epoch + 1 == args.epochs {
                        eprint!("\r{line} ");
                        last_line = Instant::now();
                    }
                } else if epoch % every == 0 {
                    eprintln!("{line}");
                }
            },
        );
        if terminal {
            eprintln!();
        }
        let begin = first.unwrap_or(end);
        eprintln!(
            "loss {begin:.6} -> {end:.6} in {} epochs ({})",
            args.epochs,
            format_duration(fit_at.elapsed().as_secs_f64())
        );
        current = slots.weights(&start, &x);
        summary = format!(
            "{} positions from {} games, K = {scale:.6}, loss {begin:.6} -> {end:.6}",
            data.len(),
            loaded.games
        );
    }
    print!("{}", comparison(&start, &current));
    let files: Vec<String> = args
        .files
        .iter()
        .map(|f| {
            Path::new(f)
                .file_name()
                .map_or(f.display().to_string(), |n| n.to_string_lossy().to_string())
        })
        .collect();
    let header = vec![
        format!(
            "Fitted by `magus tune` for {} on {}:",
            base.name,
            files.join(", ")
        ),
        format!(
            "{summary}; {} epochs, lambda {}{}{}{}.",
            args.epochs,
            args.lambda,
            if args.squares { ", square tables" } else { "" },
            if args.ridge > 0.0 {
                format!(", ridge {}", args.ridge)
            } else {
                String::new()
            },
            args.freeze
                .iter()
                .map(|k| format!(", {k} frozen"))
                .collect::<String>()
        ),
    ];
    let section = current.to_toml(&header);
    if let Some(path) = &args.output {
        std::fs::write(path, &section).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    if let Some(path) = &args.variant_out {
        let text = replace_section(&definition_text(base)?, &section);
        // What is written must load back as the same variant with the fitted weights.
        let check = crate::variant::parse_variant(&text, &path.display().to_string())?;
        if check.weights != current {
            return Err(format!(
                "{}: the rewritten definition does not read back with the fitted weights",
                path.display()
            ));
        }
        std::fs::write(path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
