//! The `Engine` class: searches through the library's engine facade
//! (`magus::search::engine::Engine`), with the interpreter's lock released while it thinks.
//! The engine keeps its hash table and its threads' tables from one search to the next.
//! Searches asked for from several Python threads take turns, one at a time.

use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use magus::board::Move;
use magus::game::Game;
use magus::protocol::notation::to_wire;
use magus::protocol::uci::{PAYOFF_STALEMATE_BONUS, max_threads};
use magus::search::engine::Engine as SearchEngine;
use magus::search::time::Limits;
use magus::search::{Report, Score, SearchResult as Found};
use magus::variant::Stalemate;
use magus::with_position;
use pyo3::prelude::*;

use crate::errors::MagusError;
use crate::integers::Integer;
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
    /// Mate in this many moves (negative: the side to move is mated; 0: it is mated
    /// already, UCI's `score mate 0`); `None` otherwise.
    mate: Option<i32>,
    /// The depth of the last completed iteration.
    depth: i32,
    /// The deepest ply reached (quiescence included).
    seldepth: usize,
    nodes: u64,
    /// Seconds the search took, from its start (not counting a wait for another search on
    /// the same `Engine` to end).
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
/// lock, so other Python threads run meanwhile (and may call `stop`). Searches on one engine
/// are serialised: one asked for while another runs waits for it to end.
#[pyclass(module = "magus", name = "Engine", frozen)]
pub struct Engine {
    engine: SearchEngine,
    /// Whether a search holds the engine, and the signal that it let go.
    busy: Mutex<bool>,
    freed: Condvar,
}

/// A search's hold on the engine, let go when dropped (on an error or an interrupt too).
struct Turn<'a> {
    engine: &'a Engine,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        *self.engine.lock_busy() = false;
        self.engine.freed.notify_one();
    }
}

fn check_threads(threads: &Integer) -> PyResult<usize> {
    threads.within("threads", 1..=max_threads() as i64)
}

fn check_hash(hash: &Integer) -> PyResult<usize> {
    hash.within("hash", 1..=i64::MAX)
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
    fn lock_busy(&self) -> MutexGuard<'_, bool> {
        // The flag is a plain bool: a panic while it was held leaves nothing half done.
        self.busy.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits, with the lock released, until no other search holds the engine, and takes
    /// it; Ctrl-C meanwhile raises the signal's exception.
    fn take_turn(&self, py: Python<'_>) -> PyResult<Turn<'_>> {
        loop {
            let taken = py.detach(|| {
                let mut busy = self.lock_busy();
                if *busy {
                    busy = self
                        .freed
                        .wait_timeout(busy, SIGNAL_POLL)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                }
                if *busy {
                    return false;
                }
                *busy = true;
                true
            });
            if taken {
                return Ok(Turn { engine: self });
            }
            py.check_signals()?;
        }
    }

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
    #[pyo3(
        signature = (threads=Integer::from(1), hash=Integer::from(16), scoring="standard"),
        text_signature = "(threads=1, hash=16, scoring='standard')"
    )]
    fn new(threads: Integer, hash: Integer, scoring: &str) -> PyResult<Engine> {
        let threads = check_threads(&threads)?;
        let hash = check_hash(&hash)?;
        let bonus = stalemate_bonus(scoring)?;
        let engine = SearchEngine::with_hash(1);
        engine.set_hash(hash).map_err(MagusError::new_err)?;
        engine.set_options(|o| {
            o.threads = threads;
            o.stalemate_bonus = bonus;
        });
        Ok(Engine {
            engine,
            busy: Mutex::new(false),
            freed: Condvar::new(),
        })
    }

    /// Changes the settings given (the others stay) for the searches from now on.
    #[pyo3(signature = (threads=None, hash=None, scoring=None))]
    fn configure(
        &self,
        threads: Option<Integer>,
        hash: Option<Integer>,
        scoring: Option<&str>,
    ) -> PyResult<()> {
        let threads = threads.as_ref().map(check_threads).transpose()?;
        let hash = hash.as_ref().map(check_hash).transpose()?;
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
    /// Ctrl-C stops the search and raises KeyboardInterrupt. A search asked for while another
    /// runs on this engine (from another thread) waits for it to end.
    #[pyo3(signature = (variant, fen, moves=None, *, depth=None, nodes=None, time=None))]
    // The arguments are the Python method's, keywords included.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        variant: &str,
        fen: &str,
        moves: Option<Vec<String>>,
        depth: Option<Integer>,
        nodes: Option<Integer>,
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
        let turn = self.take_turn(py)?;
        let stalemate_bonus = self.engine.options().stalemate_bonus;
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
        drop(turn);
        let report = last.lock().unwrap_or_else(|e| e.into_inner()).take();
        let mut result = describe(game.position(), &found, report, elapsed);
        if found.best.is_null() {
            (result.score_cp, result.mate) = ended_score(game.position(), stalemate_bonus);
        }
        Ok(result)
    }

    /// Stops the search under way (from another thread): it answers at once with the best
    /// move it has. A search waiting for its turn then starts.
    fn stop(&self) {
        self.engine.stop();
    }

    /// A new game: the hash table is cleared and the next search starts afresh.
    fn new_game(&self) {
        self.engine.new_game();
    }
}

fn limits(depth: Option<Integer>, nodes: Option<Integer>, time: Option<f64>) -> PyResult<Limits> {
    if depth.is_none() && nodes.is_none() && time.is_none() {
        return Err(MagusError::new_err(
            "search: give a limit: depth, nodes or time (seconds)",
        ));
    }
    let depth = depth.map(|d| d.within("depth", 1..=127)).transpose()?;
    let nodes = nodes.map(|n| n.within("nodes", 1..=i64::MAX)).transpose()?;
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

/// The score of a root with no legal move, `(score_cp, mate)` as the search scores such a
/// node: checkmate is `mate=0`, as UCI engines print `score mate 0`; a stalemate is what the
/// variant makes it, a draw (less the stalemate bonus of `magi-12` scoring, which the
/// stalemated side does not get) or an end as final as a mate.
fn ended_score(
    position: &magus::game::AnyPosition,
    stalemate_bonus: i32,
) -> (Option<i32>, Option<i32>) {
    if position.in_check() {
        return (None, Some(0));
    }
    match position.variant().end.stalemate {
        Stalemate::Draw => (Some(-stalemate_bonus), None),
        Stalemate::Loss | Stalemate::Win => (None, Some(0)),
    }
}

fn describe(
    position: &magus::game::AnyPosition,
    found: &Found,
    report: Option<Report>,
    time: f64,
) -> SearchResult {
    let wire = |pos: &magus::game::AnyPosition, m: Move| with_position!(pos, p => to_wire(p, m, 1));
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
