//! The `Engine` class: searches through the library's engine facade
//! (`magus::search::engine::Engine`), with the interpreter's lock released while it thinks.
//! The engine keeps its hash table and its threads' tables from one search to the next.

use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use magus::board::Move;
use magus::game::Game;
use magus::protocol::notation::to_wire;
use magus::protocol::uci::{PAYOFF_STALEMATE_BONUS, max_threads};
use magus::search::engine::Engine as SearchEngine;
use magus::search::time::Limits;
use magus::search::{Report, Score, SearchResult as Found};
use magus::with_position;
use pyo3::prelude::*;

use crate::errors::MagusError;
use crate::position::{after_wire, bad_move_in_list, read_fen};
use crate::variants;

/// How often the waiting thread looks for Ctrl-C (KeyboardInterrupt) during a search.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// What a search found.
#[pyclass(module = "magus", frozen, get_all)]
pub struct SearchResult {
    /// The best move in wire notation; `None` when the side to move has no legal move.
    best_move: Option<String>,
    /// The best move in SAN.
    best_move_san: Option<String>,
    /// The reply the engine expects, in wire notation, if it has one.
    ponder: Option<String>,
    /// The score in centipawns from the side to move's view; `None` for a mate score.
    score_cp: Option<i32>,
    /// Mate in this many moves (negative: the side to move is mated); `None` otherwise.
    mate: Option<i32>,
    /// The depth of the last completed iteration.
    depth: i32,
    /// The deepest ply reached (quiescence included).
    seldepth: usize,
    nodes: u64,
    /// Seconds the search took.
    time: f64,
    /// The principal variation in wire notation, the best move first.
    pv: Vec<String>,
    /// The principal variation in SAN.
    pv_san: Vec<String>,
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self) -> String {
        let quoted = |t: &Option<String>| t.as_ref().map_or("None".into(), |t| format!("'{t}'"));
        let score = match (self.score_cp, self.mate) {
            (_, Some(m)) => format!("mate={m}"),
            (Some(cp), None) => format!("score_cp={cp}"),
            (None, None) => "score_cp=None".into(),
        };
        let line: Vec<String> = self.pv_san.iter().map(|m| format!("'{m}'")).collect();
        format!(
            "SearchResult(best_move={}, best_move_san={}, {score}, depth={}, nodes={}, pv_san=[{}])",
            quoted(&self.best_move),
            quoted(&self.best_move_san),
            self.depth,
            self.nodes,
            line.join(", ")
        )
    }
}

/// A search engine: its hash table, threads and scoring. Searches release the interpreter's
/// lock, so other Python threads run meanwhile (and may call `stop`).
#[pyclass(module = "magus", name = "Engine", frozen)]
pub struct Engine {
    engine: SearchEngine,
}

fn check_threads(threads: usize) -> PyResult<usize> {
    let most = max_threads();
    if (1..=most).contains(&threads) {
        Ok(threads)
    } else {
        Err(MagusError::new_err(format!(
            "threads={threads}: give 1 to {most}"
        )))
    }
}

fn stalemate_bonus(scoring: &str) -> PyResult<i32> {
    match scoring {
        "standard" => Ok(0),
        "magi-12" => Ok(PAYOFF_STALEMATE_BONUS),
        _ => Err(MagusError::new_err(format!(
            "scoring='{scoring}': write 'standard' or 'magi-12'"
        ))),
    }
}

impl Engine {
    /// Waits for the search's result with the lock released, looking for signals (Ctrl-C)
    /// now and then; on one, the search is stopped and the signal's exception raised.
    fn wait(&self, py: Python<'_>, mut receive: Receiver<Found>) -> PyResult<Found> {
        loop {
            let (got, back) = py.detach(move || {
                let got = receive.recv_timeout(SIGNAL_POLL);
                (got, receive)
            });
            receive = back;
            match got {
                Ok(found) => return Ok(found),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(interrupt) = py.check_signals() {
                        self.engine.stop();
                        let _ = py.detach(move || receive.recv());
                        return Err(interrupt);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(MagusError::new_err("the search ended without a result"));
                }
            }
        }
    }
}

#[pymethods]
impl Engine {
    /// `threads`: search threads (1 up to twice the machine's cores); `hash`: the hash table
    /// in MB; `scoring`: `"standard"`, or `"magi-12"` (the Magi payoff values giving
    /// stalemate above a draw).
    #[new]
    #[pyo3(signature = (threads=1, hash=16, scoring="standard"))]
    fn new(threads: usize, hash: usize, scoring: &str) -> PyResult<Engine> {
        let threads = check_threads(threads)?;
        let bonus = stalemate_bonus(scoring)?;
        let engine = SearchEngine::with_hash(1);
        engine.set_hash(hash).map_err(MagusError::new_err)?;
        engine.set_options(|o| {
            o.threads = threads;
            o.stalemate_bonus = bonus;
        });
        Ok(Engine { engine })
    }

    /// Changes the settings given (the others stay) for the searches from now on.
    #[pyo3(signature = (threads=None, hash=None, scoring=None))]
    fn configure(
        &self,
        threads: Option<usize>,
        hash: Option<usize>,
        scoring: Option<&str>,
    ) -> PyResult<()> {
        let threads = threads.map(check_threads).transpose()?;
        let bonus = scoring.map(stalemate_bonus).transpose()?;
        if let Some(mb) = hash {
            self.engine.set_hash(mb).map_err(MagusError::new_err)?;
        }
        self.engine.set_options(|o| {
            if let Some(t) = threads {
                o.threads = t;
            }
            if let Some(b) = bonus {
                o.stalemate_bonus = b;
            }
        });
        Ok(())
    }

    #[getter]
    fn threads(&self) -> usize {
        self.engine.options().threads
    }

    /// The hash table's size in MB.
    #[getter]
    fn hash(&self) -> usize {
        self.engine.hash_megabytes()
    }

    /// Searches the position after `moves` (wire notation; the positions on the way count
    /// for repetitions) until one of the limits is reached: `depth` (plies), `nodes`, `time`
    /// (seconds). At least one must be given. The lock is released while the engine thinks;
    /// Ctrl-C stops the search and raises KeyboardInterrupt.
    #[pyo3(signature = (variant, fen, moves=None, *, depth=None, nodes=None, time=None))]
    // The arguments are the Python method's, keywords included.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        variant: &str,
        fen: &str,
        moves: Option<Vec<String>>,
        depth: Option<i32>,
        nodes: Option<u64>,
        time: Option<f64>,
    ) -> PyResult<SearchResult> {
        let limits = limits(depth, nodes, time)?;
        let variant = variants::variant(variant)?;
        let mut game = Game::new(read_fen(variant, fen)?);
        for (i, text) in moves.unwrap_or_default().iter().enumerate() {
            let (_, m) = after_wire(game.position(), text)
                .map_err(|e| bad_move_in_list(i, e, game.position()))?;
            game.play(m)
                .map_err(|e| bad_move_in_list(i, e, game.position()))?;
        }
        let last: Arc<Mutex<Option<Report>>> = Arc::new(Mutex::new(None));
        let keep = Arc::clone(&last);
        let (send, receive) = channel();
        let started = Instant::now();
        self.engine.go(
            &game,
            limits,
            Box::new(move |r: &Report| {
                if r.multipv <= 1 {
                    *keep.lock().unwrap_or_else(|e| e.into_inner()) = Some(r.clone());
                }
            }),
            Box::new(move |found| {
                let _ = send.send(found);
            }),
        );
        let found = self.wait(py, receive)?;
        let elapsed = started.elapsed().as_secs_f64();
        let report = last.lock().unwrap_or_else(|e| e.into_inner()).take();
        Ok(describe(game.position(), &found, report, elapsed))
    }

    /// Stops the search under way (from another thread): it answers at once with the best
    /// move it has.
    fn stop(&self) {
        self.engine.stop();
    }

    /// A new game: the hash table is cleared and the next search starts afresh.
    fn new_game(&self) {
        self.engine.new_game();
    }
}

fn limits(depth: Option<i32>, nodes: Option<u64>, time: Option<f64>) -> PyResult<Limits> {
    if depth.is_none() && nodes.is_none() && time.is_none() {
        return Err(MagusError::new_err(
            "search: give a limit: depth, nodes or time (seconds)",
        ));
    }
    if let Some(d) = depth
        && !(1..=127).contains(&d)
    {
        return Err(MagusError::new_err(format!("depth={d}: give 1 to 127")));
    }
    if nodes == Some(0) {
        return Err(MagusError::new_err("nodes=0 leaves nothing to search"));
    }
    let movetime = match time {
        Some(t) if !(t.is_finite() && t > 0.0 && t <= 1e7) => {
            return Err(MagusError::new_err(format!(
                "time={t}: give a number of seconds above 0"
            )));
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    Ok(Limits {
        depth,
        nodes,
        movetime,
        ..Limits::default()
    })
}

fn describe(
    position: &magus::board::AnyPosition,
    found: &Found,
    report: Option<Report>,
    time: f64,
) -> SearchResult {
    let wire =
        |pos: &magus::board::AnyPosition, m: Move| with_position!(pos, p => to_wire(p, m, 1));
    let (score_cp, mate) = match found.score {
        Score::Centipawns(cp) => (Some(cp), None),
        Score::Mate(m) => (None, Some(m)),
    };
    let seldepth = report.as_ref().map_or(0, |r| r.seldepth);
    let mut result = SearchResult {
        best_move: None,
        best_move_san: None,
        ponder: None,
        score_cp,
        mate,
        depth: found.depth,
        seldepth,
        nodes: found.nodes,
        time,
        pv: Vec::new(),
        pv_san: Vec::new(),
    };
    if found.best.is_null() {
        return result;
    }
    // The last iteration's line, if it starts with the move chosen; else the move alone.
    let line: Vec<Move> = match report {
        Some(r) if r.pv.first() == Some(&found.best) => r.pv,
        _ => match found.ponder {
            Some(p) => vec![found.best, p],
            None => vec![found.best],
        },
    };
    // The line as far as it is legal (a line read from the hash table could, in principle,
    // go astray after a collision).
    let mut pos = *position;
    for &m in &line {
        if !pos.legal_moves().contains(&m) {
            break;
        }
        result.pv.push(wire(&pos, m));
        result.pv_san.push(pos.san(m));
        pos = pos.after(m);
    }
    let after_best = position.after(found.best);
    result.best_move = Some(wire(position, found.best));
    result.best_move_san = Some(position.san(found.best));
    result.ponder = found.ponder.map(|m| wire(&after_best, m));
    result
}
