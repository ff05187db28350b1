//! `magus match`: a tournament manager and referee for every variant. Engines are processes
//! (UCI or XBoard), magus's own rules check every move, and the results come as PGN, lines in
//! the form cutechess-cli and fastchess print (which testers' tools read), a final table with
//! Elo, normalised Elo, LOS, pentanomial counts and an optional SPRT, and the Magi 12-point
//! payoff. A match can be split into shards played on several machines and merged, and
//! resumed after an interruption from its PGN.

pub mod cli;
pub mod clock;
pub mod engine;
pub mod interrupt;
pub mod likelihood;
pub mod lines;
pub mod merge;
pub mod openings;
pub mod output;
pub mod payoff;
pub mod pentanomial;
pub mod records;
pub mod referee;
pub mod report;
pub mod results_log;
pub mod resume;
pub mod settings_record;
pub mod stats;
pub mod summary;

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

use engine::{Engine, EngineSpec};
use openings::Opening;
use referee::{GameRecord, Settings};
use stats::Sprt;
pub use summary::Summary;

/// A whole match.
#[derive(Clone, Debug)]
pub struct Config {
    pub engines: Vec<EngineSpec>,
    pub settings: Settings,
    /// Games per encounter (pair of engines) in each round; colours alternate.
    pub games: usize,
    pub rounds: usize,
    pub concurrency: usize,
    /// Start positions; each is played twice with colours reversed.
    pub openings: Vec<Opening>,
    /// Random plies added to every opening (with `seed`).
    pub random_plies: usize,
    /// Random openings must be balanced within this many centipawns
    /// ([`openings::is_balanced`]).
    pub opening_balance: Option<i32>,
    pub seed: u64,
    pub pgn_out: Option<PathBuf>,
    pub event: String,
    pub sprt: Option<Sprt>,
    /// Show the live progress line.
    pub progress: bool,
    /// Play only shard K of N (K from 1): every N-th opening pair ([`shard`]).
    pub shard: Option<(usize, usize)>,
    /// Continue the match from the games already in `pgn_out`.
    pub resume: bool,
    /// Append one line per game to this file ([`records::results_line`]).
    pub results_out: Option<PathBuf>,
    /// Engines whose losses by an illegal move are left out of the score and the SPRT.
    pub void_illegal: Vec<String>,
}

/// One scheduled game.
#[derive(Clone, Debug)]
pub struct Job {
    pub number: usize,
    pub round: usize,
    pub white: usize,
    pub black: usize,
    pub opening: usize,
}

/// The games of a round robin: every pair of engines meets `games` times a round, colours
/// alternating, each opening used for two games in a row (one with each colour).
pub fn schedule(engines: usize, games: usize, rounds: usize) -> Vec<Job> {
    let mut pairs = Vec::new();
    for a in 0..engines {
        for b in a + 1..engines {
            pairs.push((a, b));
        }
    }
    let mut jobs = Vec::new();
    for round in 0..rounds {
        for &(a, b) in &pairs {
            for g in 0..games {
                let k = round * games + g;
                let (white, black) = if k.is_multiple_of(2) { (a, b) } else { (b, a) };
                jobs.push(Job {
                    number: jobs.len() + 1,
                    round: round + 1,
                    white,
                    black,
                    opening: k / 2,
                });
            }
        }
    }
    jobs
}

/// The games of shard `k` of `n` (k from 1): the opening pairs of the whole schedule are dealt
/// out in turn, pair 1 to shard 1, pair 2 to shard 2, …, so that the shards together play
/// every game once, each keeps both games of its openings (the pentanomial needs them), and
/// the game numbers stay those of the whole match.
pub fn shard(jobs: &[Job], k: usize, n: usize) -> Vec<Job> {
    let mut units: Vec<(usize, usize, usize)> = Vec::new();
    jobs.iter()
        .filter(|job| {
            let key = (
                job.white.min(job.black),
                job.white.max(job.black),
                job.opening,
            );
            let unit = match units.iter().position(|&u| u == key) {
                Some(u) => u,
                None => {
                    units.push(key);
                    units.len() - 1
                }
            };
            unit % n == k - 1
        })
        .cloned()
        .collect()
}

/// What happens during a match, for the caller to show.
pub enum Progress<'a> {
    /// Games read back from the PGN file (`--resume`) are counted, before any game starts.
    Resumed(&'a Summary),
    /// A game starts.
    Started(&'a Job),
    /// A game ended; it is the last of `summary.games`.
    Finished(&'a Summary),
}

impl Config {
    /// The games this run is to play: the whole schedule, or this shard's part of it.
    pub fn jobs(&self) -> Vec<Job> {
        let all = schedule(self.engines.len(), self.games, self.rounds);
        match self.shard {
            Some((k, n)) => shard(&all, k, n),
            None => all,
        }
    }

    /// The opening of a game: the file's positions in turn (wrapping round), then the random
    /// plies of that opening's number.
    pub fn opening(&self, index: usize) -> Result<Opening, String> {
        let base = if self.openings.is_empty() {
            Opening::default()
        } else {
            self.openings[index % self.openings.len()].clone()
        };
        if self.random_plies == 0 {
            return Ok(base);
        }
        openings::random_opening(
            self.settings.variant,
            &base,
            self.random_plies,
            self.opening_balance,
            self.seed,
            index as u64,
        )
    }
}

/// Starts each engine once and stops it: a wrong command or an engine that cannot play the
/// variant is reported before the match begins.
pub fn check_engines(config: &Config) -> Result<Vec<Option<String>>, String> {
    config
        .engines
        .iter()
        .map(|spec| {
            let mut e = Engine::start(
                spec,
                &config.settings.variant.name,
                config.settings.handshake,
                &config.settings.stop,
            )
            .map_err(|err| format!("--engine {}: {err}", spec.name))?;
            let id = e.id_name.clone();
            e.stop();
            Ok(id)
        })
        .collect()
}

/// What the worker threads tell the main thread.
enum Event {
    Started(usize),
    Finished(Box<GameRecord>),
}

/// Appends to a file and makes sure it is on the disk (a game must survive a crash of the
/// machine once it has been reported).
fn append(file: &mut std::fs::File, text: &str) -> std::io::Result<()> {
    file.write_all(text.as_bytes())?;
    file.flush()?;
    file.sync_data()
}

fn open_append(path: &std::path::Path, flag: &str) -> Result<std::fs::File, String> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{flag} {}: {e}", path.display()))
}

/// Plays the match. `on_progress` sees every game start and end (with the standings so far);
/// the PGN and results files are written as games finish. With `resume`, the games already
/// in the PGN file are counted and not played again. When `settings.stop` is raised the games
/// in progress are abandoned and the summary has the finished ones (`interrupted`).
pub fn run(config: &Config, mut on_progress: impl FnMut(Progress<'_>)) -> Result<Summary, String> {
    if config.engines.len() < 2 {
        return Err("--engine: a match needs at least two engines".into());
    }
    let jobs = config.jobs();
    // Make every opening first: a bad one stops the match before it starts.
    let needed = jobs.iter().map(|j| j.opening).max().map_or(0, |m| m + 1);
    let openings: Vec<Opening> = (0..needed)
        .map(|i| config.opening(i))
        .collect::<Result<_, _>>()?;
    let names = config.engines.iter().map(|e| e.name.clone()).collect();
    let mut summary = Summary::new(names, &config.void_illegal, config.sprt);
    let finished = if config.resume {
        resume::finished_games(config, &jobs, &openings)?
    } else {
        Vec::new()
    };
    summary.resumed = finished.len();
    let done: std::collections::HashSet<usize> = finished.iter().map(|g| g.number).collect();
    // A resumed match's results file is written again from the PGN, the record that counts:
    // a crash may have cut its last line, or come between a game's two writes.
    let resumed_lines: String = finished
        .iter()
        .map(|g| format!("{}\n", records::results_line(g)))
        .collect();
    for g in finished {
        summary.add(g);
    }
    if summary.resumed > 0 {
        on_progress(Progress::Resumed(&summary));
    }
    let mut pgn = match &config.pgn_out {
        Some(path) => Some(open_append(path, "--pgnout")?),
        None => None,
    };
    let mut results = match &config.results_out {
        Some(path) => {
            if config.resume {
                std::fs::write(path, "")
                    .map_err(|e| format!("--results {}: {e}", path.display()))?;
            }
            let mut file = open_append(path, "--results")?;
            let empty = file.metadata().map(|m| m.len() == 0).unwrap_or(false);
            if empty {
                let text = format!(
                    "{}\n{}{}\n{resumed_lines}",
                    records::RESULTS_HEADER,
                    settings_record::RESULTS_PREFIX,
                    settings_record::SettingsRecord::of(config).to_text()
                );
                append(&mut file, &text).map_err(|e| format!("--results: {e}"))?;
            }
            Some(file)
        }
        None => None,
    };
    let decided = |s: &Summary| s.sprt.is_some_and(|(_, d)| d.is_some());
    let todo: Vec<Job> = if decided(&summary) {
        Vec::new()
    } else {
        jobs.iter()
            .filter(|j| !done.contains(&j.number))
            .cloned()
            .collect()
    };
    let next = AtomicUsize::new(0);
    let no_more = AtomicBool::new(false);
    let stop = &config.settings.stop;
    let mut write_error = None;
    std::thread::scope(|scope| {
        let (tx, rx) = channel::<Event>();
        for worker in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let (todo, openings, next, no_more) = (&todo, &openings, &next, &no_more);
            std::thread::Builder::new()
                .name(format!("match worker {worker}"))
                .spawn_scoped(scope, move || {
                    // This worker's engine processes, kept from game to game.
                    let mut slots: Vec<Option<Engine>> =
                        (0..config.engines.len()).map(|_| None).collect();
                    loop {
                        if no_more.load(Ordering::Relaxed) || stop.is_raised() {
                            break;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = todo.get(i) else { break };
                        if tx.send(Event::Started(i)).is_err() {
                            break;
                        }
                        let (lo, hi) = (job.white.min(job.black), job.white.max(job.black));
                        let (left, right) = slots.split_at_mut(hi);
                        let (lo_slot, hi_slot) = (&mut left[lo], &mut right[0]);
                        let (white_slot, black_slot) = if job.white == lo {
                            (lo_slot, hi_slot)
                        } else {
                            (hi_slot, lo_slot)
                        };
                        let seats = referee::Seats {
                            white: (&config.engines[job.white], white_slot),
                            black: (&config.engines[job.black], black_slot),
                        };
                        let Some(mut record) = referee::play_game(
                            seats,
                            &openings[job.opening],
                            &config.settings,
                            job.number,
                            job.round,
                        ) else {
                            break;
                        };
                        record.white = job.white;
                        record.black = job.black;
                        record.opening = job.opening;
                        if tx.send(Event::Finished(Box::new(record))).is_err() {
                            break;
                        }
                    }
                })
                .expect("a worker thread");
        }
        drop(tx);
        for event in rx {
            let record = match event {
                Event::Started(i) => {
                    on_progress(Progress::Started(&todo[i]));
                    continue;
                }
                Event::Finished(record) => *record,
            };
            if let Some(file) = pgn.as_mut()
                && let Err(e) = append(file, &report::pgn_game(&record, config).write())
            {
                write_error.get_or_insert(format!("--pgnout: {e}"));
                stop.raise();
            }
            if let Some(file) = results.as_mut()
                && let Err(e) = append(file, &format!("{}\n", records::results_line(&record)))
            {
                write_error.get_or_insert(format!("--results: {e}"));
                stop.raise();
            }
            summary.add(record);
            if decided(&summary) && !no_more.swap(true, Ordering::Relaxed) {
                summary.stopped_early = summary.games.len() - summary.resumed < todo.len();
            }
            on_progress(Progress::Finished(&summary));
        }
    });
    summary.interrupted = stop.is_raised();
    if let Some(e) = write_error {
        return Err(e);
    }
    Ok(summary)
}
