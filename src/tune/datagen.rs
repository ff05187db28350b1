//! Self-play for training data: games from random openings (the `index`-th opening of a
//! seed), each move searched to a node limit by one single-threaded engine per worker, the
//! quiet positions kept with the search's score and, once the game is over, its result.
//!
//! A game depends only on the settings and its index (each game starts with a cleared
//! table and fresh history), and games are written in the order of their indices whatever
//! order the workers finish them in: the same settings give the same file, byte for byte,
//! on any number of threads, and a file continued after an interruption is the file a single
//! run would have written.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

use super::data::{self, GameRecord, GameResult, Header, Ply};
use super::progress::{Progress, Shown};
use crate::eval::nnue::Network;
use crate::game::outcome::{Outcome, outcome};
use crate::game::{AnyPosition, Game};
use crate::protocol::notation::to_wire;
use crate::search::Score;
use crate::search::engine::Engine;
use crate::search::time::Limits;
use crate::tournament::interrupt::StopFlag;
use crate::tournament::openings::{Opening, random_opening};
use crate::variant::Variant;
use crate::with_position;

/// How the games are played.
#[derive(Clone, Debug)]
pub struct Settings {
    pub variant: &'static Variant,
    /// Nodes per move.
    pub nodes: u64,
    pub seed: u64,
    /// Random plies that open each game.
    pub random_plies: usize,
    /// An opening is drawn again until a short material-only search scores it within this
    /// many centipawns (none: any opening).
    pub balance: Option<i32>,
    /// Hash table per worker, in MB.
    pub hash_mb: usize,
    /// `(K, N)`: play only shard K of N, the games whose index is K − 1 more than a multiple
    /// of N, so that the files of the N shards together hold the games of one unsharded run.
    pub shard: Option<(u64, u64)>,
    /// The net that plays (a later generation's games); none: the hand-made evaluation.
    pub net: Option<Arc<Network>>,
}

impl Settings {
    pub fn header(&self) -> Header {
        Header {
            variant: self.variant.name.clone(),
            seed: self.seed,
            nodes: self.nodes,
            random_plies: self.random_plies,
            balance: self.balance,
            shard: self.shard,
            net: self.net.as_ref().map(|n| n.checksum()),
        }
    }
}

/// Adjudication, to spend the nodes where the result is still open: a game whose score has
/// stayed beyond `RESIGN_SCORE` for one side for `RESIGN_PLIES` plies is that side's; one
/// whose score has stayed within `DRAW_SCORE` of zero for `DRAW_PLIES` plies, after
/// `DRAW_AFTER` plies, is drawn; a game longer than `MAX_PLIES` is drawn.
const RESIGN_SCORE: i32 = 1000;
const RESIGN_PLIES: usize = 8;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: usize = 16;
const DRAW_AFTER: usize = 80;
const MAX_PLIES: usize = 600;

/// A score from White's view, in centipawns, mates as ±(`RESIGN_SCORE` × 10).
fn white_view(score: Score, white_to_move: bool) -> (i32, bool) {
    let (cp, mate) = match score {
        Score::Centipawns(cp) => (cp, false),
        Score::Mate(n) if n > 0 => (RESIGN_SCORE * 10, true),
        Score::Mate(_) => (-RESIGN_SCORE * 10, true),
    };
    (if white_to_move { cp } else { -cp }, mate)
}

/// Plays the `index`-th game.
pub fn play_game(engine: &Engine, settings: &Settings, index: u64) -> Result<GameRecord, String> {
    let variant = settings.variant;
    let opening = random_opening(
        variant,
        &Opening::default(),
        settings.random_plies,
        settings.balance,
        settings.seed,
        index,
    )?;
    let mut game = Game::new(AnyPosition::from_fen(variant, None)?);
    for m in &opening.moves {
        game.play_wire(m, 1)?;
    }
    let start = game.position().to_fen();
    engine.new_game();
    let mut plies = Vec::new();
    let mut scores: Vec<i32> = Vec::new();
    let result = loop {
        if let Some(end) = with_position!(game.position(), p => outcome(p, game.hashes())) {
            break match end {
                Outcome::Win(crate::board::Color::White, _) => GameResult::WhiteWins,
                Outcome::Win(..) => GameResult::BlackWins,
                Outcome::Draw(_) => GameResult::Draw,
            };
        }
        if let Some(r) = adjudicate(&scores) {
            break r;
        }
        let limits = Limits {
            nodes: Some(settings.nodes),
            ..Limits::default()
        };
        let found = engine.search(&game, limits, Box::new(|_| {}));
        let pos = *game.position();
        let white_to_move = with_position!(&pos, p => p.side() == crate::board::Color::White);
        let (score, mate) = white_view(found.score, white_to_move);
        let keep = !mate && data::is_quiet(&pos, found.best);
        plies.push(Ply {
            wire: with_position!(&pos, p => to_wire(p, found.best, 1)),
            score: keep.then_some(score),
        });
        scores.push(score);
        game.play(found.best)
            .map_err(|e| format!("game {index}: the search's move: {e}"))?;
    };
    Ok(GameRecord {
        index,
        result,
        start,
        plies,
    })
}

fn adjudicate(scores: &[i32]) -> Option<GameResult> {
    let n = scores.len();
    if n >= MAX_PLIES {
        return Some(GameResult::Draw);
    }
    if n >= RESIGN_PLIES {
        let last = &scores[n - RESIGN_PLIES..];
        if last.iter().all(|&s| s >= RESIGN_SCORE) {
            return Some(GameResult::WhiteWins);
        }
        if last.iter().all(|&s| s <= -RESIGN_SCORE) {
            return Some(GameResult::BlackWins);
        }
    }
    if n >= DRAW_AFTER.max(DRAW_PLIES)
        && scores[n - DRAW_PLIES..]
            .iter()
            .all(|s| s.abs() <= DRAW_SCORE)
    {
        return Some(GameResult::Draw);
    }
    None
}

/// What a run did.
#[derive(Debug, Default)]
pub struct Summary {
    /// Games in the file before the run, and after.
    pub before: u64,
    pub after: u64,
    /// Positions the run added.
    pub positions: u64,
    /// The run was stopped (its `StopFlag`) before the file held its games.
    pub stopped: bool,
}

/// Plays games until the file at `path` holds `games` of them (of a shard: its share of the
/// run's first `games`): a new file is started with its header, an existing one (written with
/// the same settings) is continued after its last complete game. `threads` workers play at
/// once. Once `stop` is raised no game begins: those being played are finished and written,
/// so the file ends on a whole game. The summary counts the file's games.
pub fn run(
    settings: &Settings,
    games: u64,
    threads: usize,
    path: &Path,
    stop: &StopFlag,
    show: Shown,
) -> Result<Summary, String> {
    let shown = path.display().to_string();
    let header = settings.header();
    let header = &header;
    let before = if path.exists()
        && std::fs::metadata(path)
            .map(|m| m.len() > 0)
            .unwrap_or(false)
    {
        let existing = data::read(path)?;
        if let Some(why) = existing.header.mismatch(header) {
            return Err(format!(
                "{shown}: cannot continue this file: {why} (use the same settings, or another file)"
            ));
        }
        if existing.cut_short {
            // The last line was cut short (an interrupted run): it is played again.
            let file = OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| format!("{shown}: {e}"))?;
            file.set_len(existing.complete_len)
                .map_err(|e| format!("{shown}: {e}"))?;
        }
        existing.games.len() as u64
    } else {
        std::fs::write(path, format!("{}\n", header.to_line()))
            .map_err(|e| format!("{shown}: {e}"))?;
        0
    };
    let mut summary = Summary {
        before,
        after: before,
        positions: 0,
        stopped: false,
    };
    // From here on `games` counts the file's games, and the n-th is the run's game
    // `header.index_of(n)`.
    let games = header.games_of(games);
    if before >= games {
        return Ok(summary);
    }
    let mut file = OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| format!("{shown}: {e}"))?;

    let next = AtomicU64::new(before);
    let failed = AtomicBool::new(false);
    let (send, receive) = mpsc::channel::<Result<GameRecord, String>>();
    let mut progress = Progress::new(show, "games", games - before);
    let outcome = std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let send = send.clone();
            let (next, failed) = (&next, &failed);
            scope.spawn(move || {
                let engine = Engine::with_hash(settings.hash_mb);
                engine.set_options(|o| {
                    o.threads = 1;
                    o.net = settings.net.clone();
                    // Without a net of its own, the hand-made evaluation plays, never a
                    // built-in net: the file's header says which net played (none), so
                    // that a data set is rebuilt from its command alone.
                    if settings.net.is_none() {
                        o.eval_mode = crate::eval::EvalMode::Full;
                    }
                });
                loop {
                    if failed.load(Ordering::Relaxed) || stop.is_raised() {
                        break;
                    }
                    let nth = next.fetch_add(1, Ordering::Relaxed);
                    if nth >= games {
                        break;
                    }
                    let played = play_game(&engine, settings, header.index_of(nth));
                    if send.send(played).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // Games come in any order; each is written when all before it are.
        let mut waiting: BTreeMap<u64, GameRecord> = BTreeMap::new();
        let mut written = before;
        let mut result = Ok(());
        for played in receive {
            let game = match played {
                Ok(g) => g,
                Err(e) => {
                    failed.store(true, Ordering::Relaxed);
                    result = Err(e);
                    continue;
                }
            };
            waiting.insert(game.index, game);
            while let Some(game) = waiting.remove(&header.index_of(written)) {
                let line = format!("{}\n", game.to_line());
                if let Err(e) = file.write_all(line.as_bytes()).and_then(|_| file.flush()) {
                    failed.store(true, Ordering::Relaxed);
                    result = Err(format!("{shown}: {e}"));
                    break;
                }
                written += 1;
                summary.positions += game.kept() as u64;
                progress.set(
                    written - before,
                    &format!("{} positions", summary.positions),
                );
            }
        }
        summary.after = written;
        summary.stopped = stop.is_raised() && written < games;
        result
    });
    progress.finish();
    outcome.map(|()| summary)
}
