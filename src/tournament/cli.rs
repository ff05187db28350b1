//! The `match` and `replay` commands: their flags and what they print.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use super::clock::Limit;
use super::engine::EngineSpec;
use super::interrupt::{self, INTERRUPTED_STATUS, StopFlag};
use super::output::{OutputState, Printer, end_as_closed_pipe};
use super::payoff::PayoffRules;
use super::referee::{DrawRule, ResignRule, Settings};
use super::results_log::{self, ResultsLog};
use super::stats::Sprt;
use super::{Config, Progress, Summary, lines, merge, openings, report};
use crate::variant::Registry;

/// Play engines against each other in any variant, refereed by magus's rules.
///
/// Every pair of engines meets `--games` times a round (colours alternating, each opening
/// played twice with colours reversed) for `--rounds` rounds. One of `--tc`, `--st`,
/// `--nodes`, `--depth` sets the thinking limit.
///
/// Example: magus match --variant chess --engine name=magus --engine
/// name=fairymax,cmd=fairymax,proto=xboard --tc 10+0.1 --games 2 --rounds 50
/// --random-plies 8 --seed 1 --pgnout games.pgn
///
/// Prints `Started game`, `Finished game`, `Score of` lines as cutechess-cli does, the Elo,
/// pentanomial and SPRT lines every --rating-interval games, then a table. Ctrl-C stops the
/// games in progress and keeps the finished ones (a second Ctrl-C quits at once).
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// The variant (see `magus variants`).
    #[arg(long, default_value = "chess")]
    pub variant: String,
    /// An engine, as comma-separated key=value: name=NAME, cmd=PROGRAM [ARGS] (default: magus
    /// itself), proto=uci|xboard (default uci), dir=WORKING_DIR, arg=ARG (repeatable),
    /// option.NAME=VALUE (repeatable), and its own limit instead of the match's: tc=TC, st=SECONDS,
    /// nodes=N or depth=D. Give two or more.
    #[arg(
        long = "engine",
        value_name = "SPEC",
        required_unless_present = "merge"
    )]
    pub engines: Vec<String>,
    /// Clock: [MOVES/]SECONDS[+INCREMENT], seconds also as m:ss (10+0.1, 40/60, 40/1:30+0.5).
    #[arg(long, value_name = "TC", group = "limit")]
    pub tc: Option<String>,
    /// Fixed time per move, in seconds.
    #[arg(long, value_name = "SECONDS", group = "limit")]
    pub st: Option<f64>,
    /// Fixed nodes per move.
    #[arg(long, group = "limit")]
    pub nodes: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, group = "limit")]
    pub depth: Option<u32>,
    /// Games per pair of engines in each round.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Rounds.
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Start positions: an EPD or FEN file, one position a line, used in turn.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Random legal plies played from each start position (reproducible with --seed).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub random_plies: usize,
    /// Draw each random opening again until a short material-only search by magus scores it
    /// within CP centipawns, so that no opening hands either side a piece.
    #[arg(long, value_name = "CP", requires = "random_plies")]
    pub opening_balance: Option<u32>,
    /// Seed of the random openings (default: from the clock, printed at the end).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Append the games to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgnout: Option<PathBuf>,
    /// Adjudicate a loss when both engines agree that one side is at least SCORE centipawns
    /// behind for MOVES moves each: SCORE,MOVES.
    #[arg(long, value_name = "SCORE,MOVES")]
    pub adjudicate_resign: Option<String>,
    /// Adjudicate a draw when both scores stay within SCORE centipawns of zero for MOVES moves
    /// each, after full move AFTER: SCORE,MOVES,AFTER.
    #[arg(long, value_name = "SCORE,MOVES,AFTER")]
    pub adjudicate_draw: Option<String>,
    /// Declare a draw after this many plies.
    #[arg(long, value_name = "N")]
    pub max_plies: Option<usize>,
    /// Stop when a sequential probability ratio test decides (the first engine is the one
    /// tested): elo0=0,elo1=5,alpha=0.05,beta=0.05, and optionally model=logistic|normalized
    /// (what the Elo bounds are in) and stat=trinomial|pentanomial (which LLR decides).
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// Score every game by the Magi 12-point payoff (RULES.md §2.5) besides the result.
    #[arg(long)]
    pub payoff: bool,
    /// Payoff: the optional 150-move rule (a game reaching move 151 ends 0-0).
    #[arg(long, requires = "payoff")]
    pub payoff_rule150: bool,
    /// Payoff: a refused draw offer does not start the decay schedule (the weaker reading).
    #[arg(long, requires = "payoff")]
    pub payoff_weak_draw: bool,
    /// Grace, in milliseconds, over an engine's clock before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub time_margin: u64,
    /// With --nodes or --depth: seconds an engine may take for a move before it is called
    /// stalled and loses.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub move_timeout: f64,
    /// Seconds an engine may take to start or to get ready for a game.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub handshake_timeout: f64,
    /// The PGN Event tag.
    #[arg(long, default_value = "magus match")]
    pub event: String,
    /// Print the Elo, pentanomial and SPRT lines every N finished games (0: at the end only).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub rating_interval: usize,
    /// Leave this engine's losses by an illegal move out of the score, the pairs and the SPRT
    /// (repeatable). The games stay in the PGN; without this flag such a game is a loss.
    #[arg(long, value_name = "NAME")]
    pub void_illegal: Vec<String>,
    /// Play only shard K of N of the match: every N-th opening pair, from the K-th on. Every
    /// shard needs the same flags and --seed; together they play each game once.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Continue the match whose games are in --pgnout: they are counted and not played again
    /// (a last game cut off by a crash is dropped from the file).
    #[arg(long, requires = "pgnout")]
    pub resume: bool,
    /// Also append one tab-separated line per game to this file (game, opening, White, Black,
    /// result, termination, payoff), which --merge reads as it reads PGN.
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Append the match's row to this results log (the CSV of bench/results/runs.csv, created
    /// with its header if missing; docs/match.md), also when the match is interrupted.
    #[arg(long, value_name = "FILE", conflicts_with = "merge")]
    pub log: Option<PathBuf>,
    /// A field of the log's row the match cannot know (repeatable): kind=sprt|match|anchor|
    /// nodeodds|texel|speed (default sprt with --sprt, else match), commit=HASH, base=HASH,
    /// change=TEXT, kept=yes|no|n.a., note=TEXT, source=TEXT.
    #[arg(long, value_name = "KEY=VALUE", requires = "log")]
    pub log_field: Vec<String>,
    /// Play nothing: combine these PGN or results files of one match's shards into one report
    /// (with --sprt, one SPRT decision; with --void-illegal, leaving those games out).
    #[arg(
        long,
        value_name = "FILE",
        num_args = 1..,
        conflicts_with_all = ["engines", "shard", "resume", "pgnout", "results"]
    )]
    pub merge: Vec<PathBuf>,
}

fn numbers<const N: usize>(flag: &str, text: &str, names: [&str; N]) -> Result<[i64; N], String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != N {
        return Err(format!(
            "{flag}: '{text}' is not {} numbers separated by commas ({})",
            N,
            names.join(",")
        ));
    }
    let mut out = [0; N];
    for (i, p) in parts.iter().enumerate() {
        out[i] = p
            .parse::<i64>()
            .ok()
            .filter(|&n| n >= 0)
            .ok_or_else(|| format!("{flag}: {} '{p}' is not a whole number ≥ 0", names[i]))?;
    }
    Ok(out)
}

fn seconds(flag: &str, s: f64) -> Result<Duration, String> {
    if s.is_finite() && s > 0.0 && s < 1e7 {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(format!("{flag}: {s} is not a positive number of seconds"))
    }
}

/// Turns the flags into a match, checking every value. `variant_path` is the folder of extra
/// variants magus was given: magus engine processes get it as their `VariantPath` option.
pub fn config(
    args: &MatchArgs,
    registry: &Registry,
    variant_path: Option<&Path>,
) -> Result<Config, String> {
    let variant = registry
        .find(&args.variant)
        .map_err(|e| format!("--variant: {e}"))?;
    let self_exe = std::env::current_exe().map_err(|e| format!("cannot find magus itself: {e}"))?;
    let mut engines: Vec<EngineSpec> = args
        .engines
        .iter()
        .map(|e| EngineSpec::parse(e, &self_exe).map_err(|err| format!("--engine '{e}': {err}")))
        .collect::<Result<_, _>>()?;
    if let Some(dir) = variant_path {
        let dir = std::fs::canonicalize(dir)
            .map_err(|e| format!("--variant-path {}: {e}", dir.display()))?;
        let me = self_exe.display().to_string();
        for e in engines.iter_mut().filter(|e| e.cmd == me) {
            let has = e
                .options
                .iter()
                .any(|(o, _)| o.eq_ignore_ascii_case("VariantPath"));
            if !has {
                e.options
                    .push(("VariantPath".into(), dir.display().to_string()));
            }
        }
    }
    if engines.len() < 2 {
        return Err("--engine: give at least two engines".into());
    }
    for (i, e) in engines.iter().enumerate() {
        if e.name.contains(['\t', '\n', '\r']) || e.name.is_empty() {
            return Err(format!(
                "--engine: the name '{}' is empty or holds a tab or a line break",
                e.name.escape_debug()
            ));
        }
        if engines[..i].iter().any(|o| o.name == e.name) {
            return Err(format!(
                "--engine: two engines are named '{}'; give each its own name=",
                e.name
            ));
        }
    }
    let limit = if let Some(tc) = &args.tc {
        Limit::parse_tc(tc).map_err(|e| format!("--tc: {e}"))?
    } else if let Some(st) = args.st {
        Limit::MoveTime(seconds("--st", st)?)
    } else if let Some(n) = args.nodes {
        if n == 0 {
            return Err("--nodes: 0 is not a positive number".into());
        }
        Limit::Nodes(n)
    } else if let Some(d) = args.depth {
        if !(1..=127).contains(&d) {
            return Err(format!("--depth: {d} is not from 1 to 127"));
        }
        Limit::Depth(d)
    } else if let Some(own) = engines.iter().map(|e| e.limit).collect::<Option<Vec<_>>>() {
        // Every engine has its own limit: the match's is never used.
        own[0]
    } else {
        return Err(
            "one of --tc, --st, --nodes, --depth is needed (or tc=, st=, nodes=, depth= on every --engine)"
                .into(),
        );
    };
    // XBoard's `st` counts whole seconds.
    for e in &engines {
        if e.proto == super::engine::Protocol::Xboard
            && let Limit::MoveTime(t) = e.limit.unwrap_or(limit)
            && t.subsec_nanos() != 0
        {
            return Err(format!(
                "--st: {} s is not a whole number of seconds, which XBoard engines like '{}' need",
                t.as_secs_f64(),
                e.name
            ));
        }
    }
    if args.games == 0 {
        return Err("--games: 0 is not a positive number".into());
    }
    if args.rounds == 0 {
        return Err("--rounds: 0 is not a positive number".into());
    }
    if !(1..=256).contains(&args.concurrency) {
        return Err(format!(
            "--concurrency: {} is not from 1 to 256",
            args.concurrency
        ));
    }
    let resign = args
        .adjudicate_resign
        .as_deref()
        .map(|t| {
            let [score, moves] = numbers("--adjudicate-resign", t, ["SCORE", "MOVES"])?;
            if moves == 0 {
                return Err("--adjudicate-resign: MOVES must be at least 1".to_string());
            }
            Ok(ResignRule {
                score: score.min(1_000_000) as i32,
                moves: moves as usize,
            })
        })
        .transpose()?;
    let draw = args
        .adjudicate_draw
        .as_deref()
        .map(|t| {
            let [score, moves, after] =
                numbers("--adjudicate-draw", t, ["SCORE", "MOVES", "AFTER"])?;
            if moves == 0 {
                return Err("--adjudicate-draw: MOVES must be at least 1".to_string());
            }
            Ok(DrawRule {
                score: score.min(1_000_000) as i32,
                moves: moves as usize,
                after: after.min(100_000) as u32,
            })
        })
        .transpose()?;
    if args.max_plies == Some(0) {
        return Err("--max-plies: 0 is not a positive number".into());
    }
    let sprt = args
        .sprt
        .as_deref()
        .map(|t| Sprt::parse(t).map_err(|e| format!("--sprt '{t}': {e}")))
        .transpose()?;
    if sprt.is_some() && engines.len() != 2 {
        return Err("--sprt: a test needs exactly two engines".into());
    }
    let payoff = args.payoff.then(|| PayoffRules {
        rule150: args.payoff_rule150,
        refused_draw_decays: !args.payoff_weak_draw,
        ..PayoffRules::default()
    });
    let openings = match &args.openings {
        Some(path) => openings::read_file(path, variant).map_err(|e| format!("--openings: {e}"))?,
        None => Vec::new(),
    };
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    if shard.is_some() && args.random_plies > 0 && args.seed.is_none() {
        return Err(
            "--shard: give --seed, so that every shard draws the same random openings".into(),
        );
    }
    if let Some(v) = args
        .void_illegal
        .iter()
        .find(|v| !engines.iter().any(|e| e.name == **v))
    {
        return Err(format!(
            "--void-illegal: no engine is named '{v}' (engines: {})",
            engines
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    Ok(Config {
        engines,
        settings: Settings {
            variant,
            limit,
            margin: Duration::from_millis(args.time_margin),
            move_timeout: seconds("--move-timeout", args.move_timeout)?,
            handshake: seconds("--handshake-timeout", args.handshake_timeout)?,
            max_plies: args.max_plies,
            resign,
            draw,
            payoff,
            stop: StopFlag::default(),
        },
        games: args.games,
        rounds: args.rounds,
        concurrency: args.concurrency,
        openings,
        random_plies: args.random_plies,
        opening_balance: args
            .opening_balance
            .map(|cp| cp.min(i32::MAX as u32) as i32),
        seed,
        pgn_out: args.pgnout.clone(),
        event: args.event.clone(),
        sprt,
        progress: std::io::stderr().is_terminal(),
        shard,
        resume: args.resume,
        results_out: args.results.clone(),
        void_illegal: args.void_illegal.clone(),
    })
}

/// `K/N` with 1 ≤ K ≤ N.
fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--shard: '{text}' is not K/N with 1 ≤ K ≤ N (1/4, 2/4, …)");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// The match's limit as the results log writes it: the clock as given, `st=`, `nodes=` or
/// `depth=`; empty when only the engines have limits of their own.
fn log_limit(args: &MatchArgs) -> String {
    if let Some(tc) = &args.tc {
        tc.clone()
    } else if let Some(st) = args.st {
        format!("st={st}")
    } else if let Some(n) = args.nodes {
        format!("nodes={n}")
    } else if let Some(d) = args.depth {
        format!("depth={d}")
    } else {
        String::new()
    }
}

/// What a match's end prints after its last game: the figures, the table, and how it ended.
fn print_end(out: &mut Printer, summary: &Summary, blocks_printed_at: Option<usize>) {
    if blocks_printed_at != Some(summary.games.len()) {
        for l in lines::rating_block(summary) {
            out.line(&l);
        }
    }
    out.lines(&report::final_table(summary));
}

/// The process's end once the output is done with: a closed pipe ends it as SIGPIPE would,
/// another write error is an error, an interrupted match exits with 130.
fn exit_code(out: &Printer, interrupted: bool) -> Result<ExitCode, String> {
    match &out.state {
        OutputState::Closed => end_as_closed_pipe(),
        OutputState::Failed(e) => Err(e.clone()),
        OutputState::Open if interrupted => Ok(ExitCode::from(INTERRUPTED_STATUS)),
        OutputState::Open => Ok(ExitCode::SUCCESS),
    }
}

/// `magus match`: plays, printing each game's start and end and the standings, shows the
/// progress line on a terminal, prints the final table. Ctrl-C (or SIGTERM, SIGHUP) stops it
/// with the finished games kept: status 130.
pub fn run_match(
    args: &MatchArgs,
    registry: &Registry,
    variant_path: Option<&Path>,
) -> Result<ExitCode, String> {
    if !args.merge.is_empty() {
        return run_merge(args);
    }
    let config = config(args, registry, variant_path)?;
    // Checked before the first game: a long match must not end with a row the log refuses.
    let log = args
        .log
        .as_deref()
        .map(|path| {
            ResultsLog::prepare(
                path,
                &args.log_field,
                config.sprt.is_some(),
                &config.settings.variant.name,
                log_limit(args),
                results_log::command_line(
                    std::env::args_os().map(|a| a.to_string_lossy().into_owned()),
                ),
            )
        })
        .transpose()?;
    let stop = config.settings.stop.clone();
    interrupt::install_handler(stop.clone())?;
    let mut out = Printer::new(stop.clone(), config.progress);
    if let Err(e) = super::check_engines(&config) {
        if stop.is_raised() {
            return Ok(ExitCode::from(INTERRUPTED_STATUS));
        }
        return Err(e);
    }
    let total = super::schedule(config.engines.len(), config.games, config.rounds).len();
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let limits: Vec<String> = config
        .engines
        .iter()
        .map(|e| config.settings.limit_of(e).describe())
        .collect();
    let limits = if limits.iter().all(|l| *l == limits[0]) {
        limits[0].clone()
    } else {
        config
            .engines
            .iter()
            .zip(&limits)
            .map(|(e, l)| format!("{} {l}", e.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let shard = match config.shard {
        Some((k, n)) => format!(", shard {k}/{n}: {} of them", config.jobs().len()),
        None => String::new(),
    };
    out.line(&format!(
        "{} games of {} at {}, {} at a time, seed {}{shard}",
        total, config.settings.variant.name, limits, config.concurrency, config.seed
    ));
    let interval = args.rating_interval;
    let mut blocks_printed_at = None;
    // The progress line counts this run's games: the shard's, when it is one.
    let share = config.jobs().len();
    let result = super::run(&config, |progress| match progress {
        Progress::Resumed(s) => out.line(&format!(
            "Resumed {} finished games from {}",
            s.resumed,
            config
                .pgn_out
                .as_ref()
                .map_or(String::new(), |p| p.display().to_string())
        )),
        Progress::Started(job) => out.line(&lines::started(job, total, &names)),
        Progress::Finished(s) => {
            if let Some(g) = s.games.last() {
                out.line(&lines::finished(g));
            }
            if let Some(score) = lines::score(s) {
                out.line(&score);
            }
            if interval > 0 && s.games.len().is_multiple_of(interval) {
                for l in lines::rating_block(s) {
                    out.line(&l);
                }
                blocks_printed_at = Some(s.games.len());
            }
            out.progress(&report::progress_line(s, share));
        }
    });
    out.end_progress();
    let summary = match result {
        Ok(s) => s,
        Err(e) if out.state == OutputState::Closed => {
            log::debug!("{e}");
            end_as_closed_pipe()
        }
        Err(e) => return Err(e),
    };
    print_end(&mut out, &summary, blocks_printed_at);
    if summary.stopped_early {
        out.line(&format!(
            "stopped after {} of {total} games",
            summary.games.len()
        ));
    }
    if let (Some(log), Some(path)) = (&log, &args.log) {
        match log.row(&summary, total) {
            Some(row) => {
                let id = log.append(row)?;
                out.line(&format!("Logged as {id} in {}", path.display()));
            }
            None => out.line("No game counted: nothing logged"),
        }
    }
    if summary.interrupted {
        out.line(&format!(
            "interrupted after {} finished games{}",
            summary.games.len(),
            if config.pgn_out.is_some() {
                "; the same command with --resume plays the rest"
            } else {
                ""
            }
        ));
    } else {
        out.line("Finished match");
    }
    exit_code(&out, summary.interrupted)
}

/// `magus match --merge FILE…`: one report of the games of several files.
fn run_merge(args: &MatchArgs) -> Result<ExitCode, String> {
    let sprt = args
        .sprt
        .as_deref()
        .map(|t| Sprt::parse(t).map_err(|e| format!("--sprt '{t}': {e}")))
        .transpose()?;
    let summary = merge::merge(&args.merge, &args.void_illegal, sprt)?;
    let mut out = Printer::new(StopFlag::default(), false);
    let numbers: Vec<usize> = summary.games.iter().map(|g| g.number).collect();
    let highest = numbers.iter().copied().max().unwrap_or(0);
    out.line(&format!(
        "Merged {} games from {} files (game numbers up to {highest}, {} of them missing)",
        numbers.len(),
        args.merge.len(),
        highest - numbers.len()
    ));
    if let Some(score) = lines::score(&summary) {
        out.line(&score);
    }
    print_end(&mut out, &summary, None);
    exit_code(&out, false)
}

/// `magus replay`: plays every game of a PGN file through the rules. Reports the first illegal
/// move of each bad game with its move number; fails if any game is bad.
pub fn run_replay(path: &Path, registry: &Registry) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let games = crate::pgn::read_all(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if games.is_empty() {
        return Err(format!("{}: no games in it", path.display()));
    }
    let mut bad = 0;
    // A reader that closes the pipe (`magus replay … | head -1`) ends the command quietly.
    let say = |line: &str| {
        let mut out = std::io::stdout().lock();
        if let Err(e) = writeln!(out, "{line}").and_then(|_| out.flush()) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                end_as_closed_pipe();
            }
            return Err(format!("standard output: {e}"));
        }
        Ok(())
    };
    for (i, g) in games.iter().enumerate() {
        let who = format!(
            "game {} ({} - {})",
            i + 1,
            g.tag("White").unwrap_or("?"),
            g.tag("Black").unwrap_or("?")
        );
        match crate::pgn::replay(g, registry) {
            Ok(r) => {
                let mut line = format!(
                    "{who}: {} plies, all legal, result {}",
                    r.game.moves().len(),
                    if g.result.is_empty() { "*" } else { &g.result }
                );
                if let Some(o) = r.outcome {
                    let expected = match o {
                        crate::game::outcome::Outcome::Win(crate::board::Color::White, _) => "1-0",
                        crate::game::outcome::Outcome::Win(crate::board::Color::Black, _) => "0-1",
                        crate::game::outcome::Outcome::Draw(_) => "1/2-1/2",
                    };
                    let reason = match o {
                        crate::game::outcome::Outcome::Win(_, r)
                        | crate::game::outcome::Outcome::Draw(r) => r.describe(),
                    };
                    line += &format!("; the rules end it by {reason}, {expected}");
                    if g.result != expected {
                        line += &format!(" (the PGN says {})", g.result);
                        bad += 1;
                    }
                }
                say(&line)?;
            }
            Err(e) => {
                bad += 1;
                say(&format!("{who}: {e}"))?;
            }
        }
    }
    if bad > 0 {
        Err(format!("{bad} of {} games are not right", games.len()))
    } else {
        Ok(())
    }
}
