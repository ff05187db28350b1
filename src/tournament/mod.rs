//! `magus match`: a tournament manager and referee for every variant. Engines are processes
//! (UCI or XBoard), magus's own rules check every move, and the results come as PGN, a live
//! progress line, a final table with Elo, LOS and an optional SPRT, and the Magi 12-point payoff.

pub mod cli;
pub mod clock;
pub mod engine;
pub mod likelihood;
pub mod openings;
pub mod payoff;
pub mod pentanomial;
pub mod referee;
pub mod report;
pub mod stats;

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

use engine::{Engine, EngineSpec};
use openings::Opening;
use referee::{GameRecord, GameResult, Settings};
use stats::{Sprt, SprtDecision, Wld};

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

/// What the match produced.
#[derive(Clone, Debug)]
pub struct Summary {
    pub games: Vec<GameRecord>,
    /// Per engine, against all others.
    pub results: Vec<Wld>,
    /// Per engine, the payoff points (Magi 12-point mode).
    pub payoff: Vec<u64>,
    pub sprt: Option<(f64, Option<SprtDecision>)>,
    pub stopped_early: bool,
}

impl Summary {
    fn new(engines: usize) -> Summary {
        Summary {
            games: Vec::new(),
            results: vec![Wld::default(); engines],
            payoff: vec![0; engines],
            sprt: None,
            stopped_early: false,
        }
    }

    fn add(&mut self, g: GameRecord) {
        let (w, b) = (g.white, g.black);
        match g.result {
            GameResult::WhiteWins => {
                self.results[w].wins += 1;
                self.results[b].losses += 1;
            }
            GameResult::BlackWins => {
                self.results[b].wins += 1;
                self.results[w].losses += 1;
            }
            GameResult::Draw => {
                self.results[w].draws += 1;
                self.results[b].draws += 1;
            }
        }
        if let Some((pw, pb)) = g.payoff {
            self.payoff[w] += pw as u64;
            self.payoff[b] += pb as u64;
        }
        self.games.push(g);
    }
}

impl Config {
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
            )
            .map_err(|err| format!("--engine {}: {err}", spec.name))?;
            let id = e.id_name.clone();
            e.stop();
            Ok(id)
        })
        .collect()
}

/// Plays the match. `on_game` sees every finished game with the standings so far (the
/// progress line); the PGN file is written as games finish.
pub fn run(config: &Config, mut on_game: impl FnMut(&Summary)) -> Result<Summary, String> {
    if config.engines.len() < 2 {
        return Err("--engine: a match needs at least two engines".into());
    }
    let jobs = schedule(config.engines.len(), config.games, config.rounds);
    // Make every opening first: a bad one stops the match before it starts.
    let needed = jobs.iter().map(|j| j.opening).max().map_or(0, |m| m + 1);
    let openings: Vec<Opening> = (0..needed)
        .map(|i| config.opening(i))
        .collect::<Result<_, _>>()?;
    let mut pgn = match &config.pgn_out {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("--pgnout {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut summary = Summary::new(config.engines.len());
    let mut write_error = None;
    std::thread::scope(|scope| {
        let (tx, rx) = channel::<GameRecord>();
        for worker in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let (jobs, openings, next, stop) = (&jobs, &openings, &next, &stop);
            std::thread::Builder::new()
                .name(format!("match worker {worker}"))
                .spawn_scoped(scope, move || {
                    // This worker's engine processes, kept from game to game.
                    let mut slots: Vec<Option<Engine>> =
                        (0..config.engines.len()).map(|_| None).collect();
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else { break };
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
                        let mut record = referee::play_game(
                            seats,
                            &openings[job.opening],
                            &config.settings,
                            job.number,
                            job.round,
                        );
                        record.white = job.white;
                        record.black = job.black;
                        if tx.send(record).is_err() {
                            break;
                        }
                    }
                })
                .expect("a worker thread");
        }
        drop(tx);
        for record in rx {
            if let Some(file) = pgn.as_mut()
                && let Err(e) = file
                    .write_all(report::pgn_game(&record, config).write().as_bytes())
                    .and_then(|_| file.flush())
            {
                write_error.get_or_insert(format!("--pgnout: {e}"));
            }
            summary.add(record);
            if let Some(sprt) = &config.sprt {
                let decided = summary.sprt.and_then(|(_, d)| d);
                let (llr, decision) = sprt.after_game(&summary.results[0], decided);
                summary.sprt = Some((llr, decision));
                if decision.is_some() && !stop.swap(true, Ordering::Relaxed) {
                    summary.stopped_early = summary.games.len() < jobs.len();
                }
            }
            on_game(&summary);
        }
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    Ok(summary)
}
