//! The search: iterative deepening with aspiration windows and MultiPV on the main thread;
//! helper threads share the moves of its split points (`split`) and the transposition
//! table; all stop on one flag.

mod aspiration;
pub mod bench;
mod eval_cache;
pub mod ordering;
mod split;
pub mod time;
pub mod tt;
mod worker;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Bitboard, Move, Position};
use aspiration::Aspiration;
use split::SplitPoints;
use time::{Budget, Limits};
use tt::TranspositionTable;
use worker::Worker;

/// A mate in 0 plies; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;

#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: Duration,
    /// What a stalemate is worth to the side that gives it, in centipawns (0: a plain draw;
    /// the Magi 12-point payoff values it above a draw).
    pub stalemate_bonus: i32,
    pub eval_mode: crate::eval::EvalMode,
    /// The terms of the full evaluation that are on (all of them in play).
    pub eval_terms: crate::eval::TermSet,
    pub pruning: Pruning,
    /// Open a split point at every node that may be split, with one thread or with no
    /// thread idle (off in play): one thread then searches every such node's moves through
    /// the split-point machinery, which must find the plain search's tree.
    pub split_every_node: bool,
}

/// Which selective parts of the search are on: all of them in play; each can be turned off
/// to measure, in games, what it is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub reductions: bool,
    /// Futility and reverse futility pruning.
    pub futility: bool,
    /// Late-move (move-count) pruning.
    pub move_count: bool,
    /// Quiescence leaves out captures that plainly lose material.
    pub losing_captures: bool,
}

impl Default for Pruning {
    fn default() -> Self {
        Pruning {
            null_move: true,
            reductions: true,
            futility: true,
            move_count: true,
            losing_captures: true,
        }
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            stalemate_bonus: 0,
            eval_mode: crate::eval::EvalMode::Full,
            eval_terms: crate::eval::TermSet::ALL,
            pruning: Pruning::default(),
            split_every_node: false,
        }
    }
}

/// A score as GUIs show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Centipawns(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Centipawns(score)
        }
    }
}

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: i32,
    pub seldepth: usize,
    pub multipv: usize,
    pub score: Score,
    /// `Some(true)`: a lower bound (fail high); `Some(false)`: an upper bound.
    pub bound: Option<bool>,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// What the search decided.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `Move::NULL` when there is no legal move.
    pub best: Move,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: i32,
    pub nodes: u64,
}

/// A root move with its last score and line.
#[derive(Clone, Debug)]
pub struct RootLine {
    pub mv: Move,
    pub score: i32,
    pub pv: Vec<Move>,
}

/// What every search thread shares: the table, the stop flag, the node count, the clock.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub stop: &'a AtomicBool,
    control: &'a SearchControl,
    pub nodes: AtomicU64,
    pub options: SearchOptions,
    limits: Limits,
    budget: Budget,
    start: Instant,
}

impl Shared<'_> {
    /// Time on the clock: since the start, or since `ponderhit` when pondering ended.
    pub fn elapsed(&self) -> Duration {
        match self.control.ponderhit_at.lock().ok().and_then(|p| *p) {
            Some(hit) => hit.elapsed(),
            None => self.start.elapsed(),
        }
    }

    /// The search must end now: stopped, out of nodes, or (main thread) out of time.
    fn should_stop(&self, main: bool) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if let Some(n) = self.limits.nodes
            && self.nodes.load(Ordering::Relaxed) >= n
        {
            return true;
        }
        if main
            && !self.control.pondering.load(Ordering::Relaxed)
            && self.elapsed() >= self.budget.hard
        {
            return true;
        }
        false
    }
}

/// The controls a protocol keeps for a running search.
#[derive(Default)]
pub struct SearchControl {
    pub stop: AtomicBool,
    pub pondering: AtomicBool,
    ponderhit_at: Mutex<Option<Instant>>,
}

impl SearchControl {
    pub fn ponderhit(&self) {
        if let Ok(mut p) = self.ponderhit_at.lock() {
            *p = Some(Instant::now());
        }
        self.pondering.store(false, Ordering::Relaxed);
    }
}

/// Searches `root`. `game_hashes` are the hashes of the game's positions before it (for
/// repetition). `report` is called by the main thread after each iteration and line.
pub fn think<B: Bitboard>(
    root: &Position<B>,
    game_hashes: &[u64],
    limits: &Limits,
    options: &SearchOptions,
    tt: &TranspositionTable,
    control: &SearchControl,
    report: &(dyn Fn(&Report) + Sync),
) -> SearchResult {
    let start = Instant::now();
    control.pondering.store(limits.ponder, Ordering::Relaxed);
    if let Ok(mut hit) = control.ponderhit_at.lock() {
        *hit = None;
    }
    let budget = if limits.infinite {
        Budget::unlimited()
    } else {
        Budget::new(limits, options.move_overhead)
    };
    let shared = Shared {
        tt,
        stop: &control.stop,
        control,
        nodes: AtomicU64::new(0),
        options: options.clone(),
        limits: limits.clone(),
        budget,
        start,
    };
    tt.new_search();

    let mut legal: Vec<Move> = root.legal_moves().into_iter().collect();
    if !limits.searchmoves.is_empty() {
        legal.retain(|m| limits.searchmoves.contains(m));
    }
    if legal.is_empty() {
        return SearchResult {
            best: Move::NULL,
            ponder: None,
            score: Score::Centipawns(0),
            depth: 0,
            nodes: 0,
        };
    }
    if legal.len() == 1 && limits.is_timed() && !limits.ponder {
        return SearchResult {
            best: legal[0],
            ponder: None,
            score: Score::Centipawns(0),
            depth: 0,
            nodes: 0,
        };
    }

    let threads = options.threads.max(1);
    let splits = if options.split_every_node {
        SplitPoints::eager()
    } else {
        SplitPoints::default()
    };
    let splits = (threads > 1 || options.split_every_node).then_some(&splits);
    let result = std::thread::scope(|scope| {
        let shared = &shared;
        let mut helpers = Vec::new();
        for id in 1..threads {
            let builder = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(64 << 20);
            let spawned = builder.spawn_scoped(scope, move || {
                let mut worker = Worker::new(id, shared, splits, root, game_hashes);
                worker.serve();
                worker.flush_nodes();
            });
            if let Ok(handle) = spawned {
                helpers.push(handle);
            }
        }
        let builder = std::thread::Builder::new()
            .name("search-main".into())
            .stack_size(64 << 20);
        let main = builder
            .spawn_scoped(scope, move || {
                let mut worker = Worker::new(0, shared, splits, root, game_hashes);
                let result = iterate(&mut worker, root, legal, shared, control, report);
                worker.flush_nodes();
                result
            })
            .expect("cannot start the search thread");
        let result = main.join().expect("the search thread failed");
        shared.stop.store(true, Ordering::Relaxed);
        for h in helpers {
            let _ = h.join();
        }
        result
    });
    SearchResult {
        nodes: shared.nodes.load(Ordering::Relaxed),
        ..result
    }
}

/// Iterative deepening on the main thread, which decides and reports.
fn iterate<B: Bitboard>(
    worker: &mut Worker<B>,
    root: &Position<B>,
    legal: Vec<Move>,
    shared: &Shared,
    control: &SearchControl,
    report: &(dyn Fn(&Report) + Sync),
) -> SearchResult {
    let mut lines: Vec<RootLine> = legal
        .iter()
        .map(|&mv| RootLine {
            mv,
            score: 0,
            pv: vec![mv],
        })
        .collect();
    let multipv = shared.options.multipv.clamp(1, lines.len());
    let max_depth = shared
        .limits
        .depth
        .unwrap_or(ordering::MAX_PLY as i32 - 1)
        .clamp(1, ordering::MAX_PLY as i32 - 1);
    let mut best = SearchResult {
        best: lines[0].mv,
        ponder: None,
        score: Score::Centipawns(0),
        depth: 0,
        nodes: 0,
    };
    let mut previous_scores = vec![0; multipv];
    let mut depth = 1;
    while depth <= max_depth {
        for pv_index in 0..multipv {
            // The line as it stands: a bound while the window fails, then its score.
            let report_pv = |worker: &mut Worker<B>, line: &RootLine, score, bound| {
                report_line(shared, worker, line, pv_index, depth, score, bound, report)
            };
            let mut window = Aspiration::new(depth, previous_scores[pv_index]);
            let score = loop {
                worker.seldepth = 0;
                let score = worker.search_root(
                    root,
                    &mut lines,
                    pv_index,
                    depth,
                    window.alpha,
                    window.beta,
                );
                if worker.stopped() {
                    break score;
                }
                let bound = match window.judge(score) {
                    aspiration::Outcome::Exact => break score,
                    aspiration::Outcome::FailedHigh => true,
                    aspiration::Outcome::FailedLow => false,
                };
                report_pv(worker, &lines[pv_index], score, Some(bound));
            };
            if worker.stopped() {
                break;
            }
            previous_scores[pv_index] = score;
            report_pv(worker, &lines[pv_index], score, None);
        }
        if worker.stopped() {
            break;
        }
        let top = &lines[0];
        best = SearchResult {
            best: top.mv,
            ponder: top.pv.get(1).copied(),
            score: Score::from_internal(previous_scores[0]),
            depth,
            nodes: 0,
        };
        if let Some(n) = shared.limits.mate_in
            && let Score::Mate(m) = best.score
            && m > 0
            && m <= n
        {
            break;
        }
        // On a clock, an iteration begun late would not end in time; a fixed time per move
        // is used to its end.
        let pondering = control.pondering.load(Ordering::Relaxed);
        let iteration_limit = if shared.limits.movetime.is_some() {
            shared.budget.hard
        } else {
            shared.budget.soft / 10 * 6
        };
        if !pondering && !shared.limits.infinite && shared.elapsed() >= iteration_limit {
            break;
        }
        depth += 1;
    }
    // While pondering or in infinite mode, the answer waits for `stop` or `ponderhit`.
    while (shared.limits.infinite || control.pondering.load(Ordering::Relaxed))
        && !shared.stop.load(Ordering::Relaxed)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    best
}

#[allow(clippy::too_many_arguments)]
fn report_line<B: Bitboard>(
    shared: &Shared,
    worker: &mut Worker<B>,
    line: &RootLine,
    pv_index: usize,
    depth: i32,
    score: i32,
    bound: Option<bool>,
    report: &(dyn Fn(&Report) + Sync),
) {
    worker.flush_nodes();
    report(&Report {
        depth,
        seldepth: worker.seldepth.max(depth as usize),
        multipv: pv_index + 1,
        score: Score::from_internal(score),
        bound,
        nodes: shared.nodes.load(Ordering::Relaxed),
        time: shared.elapsed(),
        hashfull: shared.tt.hashfull(),
        pv: line.pv.clone(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyPosition;
    use crate::variant::Registry;
    use crate::with_position;

    /// One thread opening a split point at every node it may, and so searching every move
    /// of them through the split-point machinery, searches the very tree of the plain
    /// search: same node count, move and score. What two threads do differently then comes
    /// from their sharing the work, not from how a split point searches a node.
    #[test]
    fn one_thread_at_split_points_searches_the_plain_tree() {
        let registry = Registry::builtin();
        for &(name, fen) in bench::POSITIONS {
            let variant = registry.get(name).unwrap();
            let fen = (fen != "startpos").then_some(fen);
            let pos = AnyPosition::from_fen(variant, fen).unwrap();
            let search = |eager: bool| {
                let tt = TranspositionTable::new(16).unwrap();
                let control = SearchControl::default();
                let limits = Limits::depth(8);
                let options = SearchOptions {
                    split_every_node: eager,
                    ..SearchOptions::default()
                };
                with_position!(&pos, p => {
                    let result = think(p, &[], &limits, &options, &tt, &control, &|_| {});
                    (result.nodes, result.best, result.score)
                })
            };
            assert_eq!(search(true), search(false), "{name} {fen:?}");
        }
    }
}
