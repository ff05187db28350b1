//! Scores a data file's positions again with another engine: every game is replayed, and the
//! position before each scored move is given to the engine (a UCI engine, started as
//! `magus match` starts one) with a depth or node limit; its score replaces the one the file had. The games,
//! their moves and results stay as they were, so `magus tune --lambda` can blend the results
//! with the other engine's judgement of the same positions.
//!
//! A position the engine scores as a mate, or cannot score (it stops answering, crashes or
//! rejects the moves), keeps no score and is no longer data; after a fault the engine is
//! started again for the next game. Games are written in order, each once it and all before it
//! are done; a game cut short by Ctrl-C is not written, so an interrupted run leaves a file of
//! whole games that reads (`data::read`) to its last line.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::data::{DataFile, GameRecord, Ply};
use super::progress::{Progress, Shown};
use crate::board::Color;
use crate::game::AnyPosition;
use crate::tournament::clock::{Clock, Limit};
use crate::tournament::engine::{Answer, Engine, EngineSpec, MATE_SCORE, MoveRequest};
use crate::tournament::interrupt::StopFlag;
use crate::variant::Variant;
use crate::with_position;

/// How the positions are scored.
#[derive(Clone, Debug)]
pub struct Settings {
    pub variant: &'static Variant,
    pub engine: EngineSpec,
    /// A depth or node limit per position.
    pub limit: Limit,
    /// Engines running at once, one game each.
    pub workers: usize,
    /// The longest wait for one answer.
    pub move_timeout: Duration,
    pub handshake: Duration,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: usize,
    /// Positions that had a score before, and those that have the engine's now.
    pub positions: usize,
    pub scored: usize,
    /// Engine faults (each cost the rest of its game's positions).
    pub faults: usize,
    /// The first fault, in words.
    pub first_fault: Option<String>,
}

/// One game scored again, and how its engine fared.
struct Labelled {
    game: GameRecord,
    scored: usize,
    fault: Option<String>,
}

/// Scores every position of `input` with the engine and writes the games to `output`, under
/// `input`'s header and a comment line naming the engine and the limit.
pub fn run(
    settings: &Settings,
    input: &DataFile,
    output: &Path,
    stop: &StopFlag,
    show: Shown,
) -> Result<Summary, String> {
    let shown = output.display().to_string();
    let mut file = std::fs::File::create(output).map_err(|e| format!("{shown}: {e}"))?;
    writeln!(
        file,
        "{}\n# scores: {} ({})",
        input.header.to_line(),
        settings.engine.name,
        settings.limit.describe()
    )
    .map_err(|e| format!("{shown}: {e}"))?;

    let games = &input.games;
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel::<Result<(usize, Labelled), String>>();
    let total_positions: usize = games.iter().map(GameRecord::kept).sum();
    let mut progress = Progress::new(show, "games", games.len() as u64);
    let mut summary = Summary {
        positions: total_positions,
        ..Summary::default()
    };
    let outcome = std::thread::scope(|scope| {
        for _ in 0..settings.workers.max(1) {
            let send = send.clone();
            let next = &next;
            scope.spawn(move || {
                let mut engine: Option<Engine> = None;
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games.len() || stop.is_raised() {
                        break;
                    }
                    let running = match engine.take() {
                        Some(e) => e,
                        None => match start(settings, stop) {
                            Ok(e) => e,
                            Err(e) => {
                                let _ = send.send(Err(e));
                                break;
                            }
                        },
                    };
                    let (labelled, healthy) = label_game(running, settings, &games[index]);
                    engine = healthy;
                    // Interrupted, the game lost its scores to the stop, not to the engine.
                    if stop.is_raised() {
                        break;
                    }
                    if send.send(Ok((index, labelled))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut waiting: BTreeMap<usize, Labelled> = BTreeMap::new();
        let mut written = 0;
        for done in receive {
            let (index, labelled) = match done {
                Ok(d) => d,
                Err(e) => {
                    stop.raise();
                    return Err(e);
                }
            };
            waiting.insert(index, labelled);
            while let Some(l) = waiting.remove(&written) {
                writeln!(file, "{}", l.game.to_line()).map_err(|e| format!("{shown}: {e}"))?;
                summary.games += 1;
                summary.scored += l.scored;
                if let Some(f) = l.fault {
                    summary.faults += 1;
                    summary
                        .first_fault
                        .get_or_insert(format!("game {written}: {f}"));
                }
                written += 1;
            }
            progress.set(
                written as u64,
                &format!("{} positions scored", summary.scored),
            );
        }
        Ok(())
    });
    progress.finish();
    outcome.map(|()| summary)
}

fn start(settings: &Settings, stop: &StopFlag) -> Result<Engine, String> {
    Engine::start(
        &settings.engine,
        &settings.variant.name,
        settings.handshake,
        stop,
    )
    .map_err(|e| format!("{}: {e}", settings.engine.name))
}

/// Scores one game's positions. Returns the engine when it is still fit for the next game.
fn label_game(
    mut engine: Engine,
    settings: &Settings,
    game: &GameRecord,
) -> (Labelled, Option<Engine>) {
    let mut labelled = Labelled {
        game: GameRecord {
            plies: Vec::with_capacity(game.plies.len()),
            ..game.clone()
        },
        scored: 0,
        fault: None,
    };
    if let Err(f) = engine.new_game(
        &settings.variant.name,
        Some(&game.start),
        &settings.limit,
        settings.move_timeout,
    ) {
        labelled.fault = Some(format!("new game: {}", f.describe()));
        labelled.game.plies.extend(unscored(&game.plies));
        return (labelled, None);
    }
    let variant = settings.variant;
    let mut pos = match AnyPosition::from_fen(variant, Some(&game.start)) {
        Ok(p) => p,
        Err(e) => {
            labelled.fault = Some(format!("start position: {e}"));
            labelled.game.plies.extend(unscored(&game.plies));
            return (labelled, Some(engine));
        }
    };
    let first_rank = engine.first_rank(variant.ranks);
    let san = engine.wants_san();
    let mut sent: Vec<String> = Vec::with_capacity(game.plies.len());
    for (i, ply) in game.plies.iter().enumerate() {
        let mut score = None;
        if ply.score.is_some() {
            match score_position(&mut engine, settings, game, &sent, &pos) {
                Ok(s) => score = s,
                Err(f) => {
                    labelled.fault = Some(format!("move {}: {f}", i + 1));
                    labelled.game.plies.extend(unscored(&game.plies[i..]));
                    engine.stop();
                    return (labelled, None);
                }
            }
        }
        labelled.scored += usize::from(score.is_some());
        labelled.game.plies.push(Ply {
            wire: ply.wire.clone(),
            score,
        });
        let (next, m) = match pos.after_wire(&ply.wire, 1) {
            Ok(played) => played,
            Err(e) => {
                labelled.fault = Some(format!("move {} '{}': {e}", i + 1, ply.wire));
                labelled.game.plies.extend(unscored(&game.plies[i + 1..]));
                return (labelled, Some(engine));
            }
        };
        sent.push(if san {
            pos.san(m)
        } else {
            with_position!(&pos, p => crate::protocol::notation::to_wire(p, m, first_rank))
        });
        pos = next;
    }
    (labelled, Some(engine))
}

/// The plies without their scores.
fn unscored(plies: &[Ply]) -> impl Iterator<Item = Ply> + '_ {
    plies.iter().map(|p| Ply {
        wire: p.wire.clone(),
        score: None,
    })
}

/// The engine's score of the position after `sent`, from White's view; `None` for a mate or
/// no score at all.
fn score_position(
    engine: &mut Engine,
    settings: &Settings,
    game: &GameRecord,
    sent: &[String],
    pos: &AnyPosition,
) -> Result<Option<i32>, String> {
    let white = with_position!(pos, p => p.side() == Color::White);
    let clock = Clock::new(&settings.limit);
    let request = MoveRequest {
        fen: Some(&game.start),
        moves: sent,
        limit: &settings.limit,
        own: clock,
        other: clock,
        white,
        draw_offered: false,
        deadline: Instant::now() + settings.move_timeout,
    };
    match engine.play(&request) {
        Ok(Answer::Move(reply)) => Ok(reply
            .score
            .filter(|s| s.abs() < MATE_SCORE - 1000)
            .map(|s| if white { s } else { -s })),
        Ok(Answer::Resign) | Ok(Answer::Claim(_)) => Ok(None),
        Err(f) => Err(f.describe()),
    }
}
