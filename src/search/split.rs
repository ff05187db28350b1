//! Split points: the moves left at a node shared out between threads.
//!
//! Once a move of a node has been searched and has set a bound, the node's other moves are
//! mostly null-window searches that do not depend on one another. While a thread is idle, a
//! thread searching a deep enough node publishes it with its moves still to search; it and
//! the idle threads then take moves from it one at a time until none are left. A move that
//! fails high ends the node: the split point is aborted, and whoever is still searching one
//! of its moves stops.
//!
//! Any thread may open a split point, beneath one it is helping with too; the threads also
//! share the transposition table.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crossbeam_utils::CachePadded;

use super::ordering::OrderingTables;
use crate::board::{Bitboard, Move, Position};

/// PV nodes with less depth left than this are searched by their thread alone: the work
/// would be too small to be worth sharing.
pub const MIN_SPLIT_DEPTH: i32 = 3;
/// The same for the nodes off the principal variation. Below it they also drop late quiet
/// moves (futility and move-count pruning), which the moves of a split point are not.
pub const MIN_NON_PV_SPLIT_DEPTH: i32 = 5;

/// A node of the search, as its children's searches need it.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub depth: i32,
    pub alpha: i32,
    pub beta: i32,
    pub ply: usize,
    pub pv_node: bool,
    /// Expected to fail high.
    pub cut_node: bool,
    pub in_check: bool,
}

/// A node whose remaining moves are being searched by several threads.
pub struct SplitPoint<B: Bitboard> {
    pub pos: Position<B>,
    /// The search path to the node and the moves that led there, for repetitions and for
    /// the move-history tables of the thread that joins.
    pub path: Vec<u64>,
    pub moves_made: Vec<Move>,
    /// The static evaluations along the path (the "improving" test looks two plies back).
    pub static_evals: Vec<i32>,
    /// The node (its alpha as it was when the split point opened).
    pub node: Node,
    /// The root: its moves are searched with the root's own reductions.
    pub root: bool,
    /// The moves left to search, in the node's move order.
    pub moves: Vec<Move>,
    /// How many legal moves of the node come before `moves[0]`.
    pub moves_before: usize,
    /// The opening thread's move-ordering tables, for the threads that join: their own
    /// have learnt from other parts of the tree.
    pub tables: Box<OrderingTables>,
    /// The split point the opening thread was under, if any.
    parent: Option<Arc<SplitPoint<B>>>,
    next: AtomicUsize,
    alpha: AtomicI32,
    /// Helpers searching a move of this node now.
    workers: AtomicUsize,
    aborted: AtomicBool,
    outcome: Mutex<Outcome>,
}

/// What the moves searched so far have given.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The best score of any move searched here (a bound or exact, as in a plain search).
    pub best_score: i32,
    /// The moves that raised alpha, in the order they did, with their scores and lines
    /// (the line starts with the move). The last one is the best.
    pub improvements: Vec<(Move, i32, Vec<Move>)>,
}

impl<B: Bitboard> SplitPoint<B> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        pos: &Position<B>,
        path: &[u64],
        moves_made: &[Move],
        static_evals: &[i32],
        node: Node,
        best_score: i32,
        root: bool,
        moves: Vec<Move>,
        moves_before: usize,
        tables: Box<OrderingTables>,
        parent: Option<Arc<SplitPoint<B>>>,
    ) -> SplitPoint<B> {
        SplitPoint {
            pos: *pos,
            path: path.to_vec(),
            moves_made: moves_made.to_vec(),
            static_evals: static_evals.to_vec(),
            node,
            root,
            moves,
            moves_before,
            tables,
            parent,
            next: AtomicUsize::new(0),
            alpha: AtomicI32::new(node.alpha),
            workers: AtomicUsize::new(0),
            aborted: AtomicBool::new(false),
            outcome: Mutex::new(Outcome {
                best_score,
                improvements: Vec::new(),
            }),
        }
    }

    /// The index of the next move to search, if one is left and the node is not over.
    pub fn take(&self) -> Option<usize> {
        if self.is_aborted() {
            return None;
        }
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        (i < self.moves.len()).then_some(i)
    }

    fn has_moves_left(&self) -> bool {
        !self.is_aborted() && self.next.load(Ordering::Relaxed) < self.moves.len()
    }

    /// The node's alpha now: raised by every thread's result.
    pub fn alpha(&self) -> i32 {
        self.alpha.load(Ordering::Relaxed)
    }

    pub fn is_aborted(&self) -> bool {
        self.aborted.load(Ordering::Relaxed)
    }

    pub fn abort(&self) {
        self.aborted.store(true, Ordering::Relaxed);
    }

    /// Records a move's score and line; returns true when it fails high and so ends the node.
    pub fn report(&self, mv: Move, score: i32, line: impl FnOnce() -> Vec<Move>) -> bool {
        let Ok(mut outcome) = self.outcome.lock() else {
            return false;
        };
        outcome.best_score = outcome.best_score.max(score);
        if score > self.alpha() {
            self.alpha.store(score, Ordering::Relaxed);
            outcome.improvements.push((mv, score, line()));
        }
        let fails_high = score >= self.node.beta;
        if fails_high {
            self.abort();
        }
        fails_high
    }

    /// The outcome, once every helper has left the node.
    pub fn outcome_if_done(&self) -> Option<Outcome> {
        if self.workers.load(Ordering::Acquire) > 0 {
            return None;
        }
        Some(match self.outcome.lock() {
            Ok(outcome) => outcome.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        })
    }

    /// Whether this node lies in the tree under `other`.
    fn is_beneath(&self, other: &SplitPoint<B>) -> bool {
        let mut above = self.parent.as_deref();
        while let Some(split) = above {
            if std::ptr::eq(split, other) {
                return true;
            }
            above = split.parent.as_deref();
        }
        false
    }

    /// A helper is done with the node.
    pub fn leave(&self) {
        self.workers.fetch_sub(1, Ordering::Release);
    }
}

/// The split points open now, innermost last.
pub struct SplitPoints<B: Bitboard> {
    open: Mutex<Vec<Arc<SplitPoint<B>>>>,
    /// How many split points have been opened. Moves are only ever taken from a split point,
    /// never added, so new work appears only when this changes: an idle thread that found
    /// none looks again only then, and leaves the lock alone meanwhile.
    opened: CachePadded<AtomicU64>,
    /// Bumped whenever a thread aborts a node, so the threads under it can tell cheaply
    /// that one of the nodes they are under may be over. Read at every node: on a cache
    /// line of its own, away from the lock the idle threads take.
    aborts: CachePadded<AtomicU64>,
    /// Threads looking for work now. A node is split only while one is, since a split
    /// point costs its opening thread time and nobody may come to share it.
    idle: CachePadded<AtomicUsize>,
    /// Every node that may be split is, idle thread or not (`split_every_node`).
    eager: bool,
}

impl<B: Bitboard> Default for SplitPoints<B> {
    fn default() -> Self {
        SplitPoints {
            open: Mutex::new(Vec::new()),
            opened: CachePadded::new(AtomicU64::new(0)),
            aborts: CachePadded::new(AtomicU64::new(0)),
            idle: CachePadded::new(AtomicUsize::new(0)),
            eager: false,
        }
    }
}

/// A thread's search for work: how many split points had opened when it last found none,
/// and whether it counts as idle. Ended with `stop_idling`.
#[derive(Debug, Default)]
pub struct Seen {
    last: Option<u64>,
    idle: bool,
}

impl<B: Bitboard> SplitPoints<B> {
    /// Split points opened at every node that may be split, even with no thread idle.
    pub fn eager() -> Self {
        SplitPoints {
            eager: true,
            ..Self::default()
        }
    }

    /// Whether a thread would take moves from a node split now.
    pub fn wanted(&self) -> bool {
        self.eager || self.idle.load(Ordering::Relaxed) > 0
    }

    pub fn open(&self, split: &Arc<SplitPoint<B>>) {
        if let Ok(mut open) = self.open.lock() {
            open.push(Arc::clone(split));
            self.opened.fetch_add(1, Ordering::Release);
        }
    }

    /// No helper joins the node after this.
    pub fn close(&self, split: &Arc<SplitPoint<B>>) {
        if let Ok(mut open) = self.open.lock() {
            open.retain(|s| !Arc::ptr_eq(s, split));
        }
    }

    /// A node with a move left to search, beneath `under` if given (a thread waiting for
    /// its helpers may only help them), and the index of that move; the caller has joined
    /// the node and must `leave` it. `seen` is the caller's own, for one `under`: no node
    /// is looked at again until one has opened since the last search that found nothing.
    pub fn find_work(
        &self,
        under: Option<&SplitPoint<B>>,
        seen: &mut Seen,
    ) -> Option<(Arc<SplitPoint<B>>, usize)> {
        let opened = self.opened.load(Ordering::Acquire);
        if seen.last == Some(opened) {
            return None;
        }
        let found = self.take_work(under);
        match (&found, seen.idle) {
            (None, false) => {
                self.idle.fetch_add(1, Ordering::Relaxed);
                seen.idle = true;
            }
            (Some(_), true) => self.stop_idling(seen),
            _ => {}
        }
        if found.is_none() {
            seen.last = Some(opened);
        }
        found
    }

    /// The caller no longer looks for work, having found some or given up.
    pub fn stop_idling(&self, seen: &mut Seen) {
        if seen.idle {
            self.idle.fetch_sub(1, Ordering::Relaxed);
            seen.idle = false;
        }
    }

    fn take_work(&self, under: Option<&SplitPoint<B>>) -> Option<(Arc<SplitPoint<B>>, usize)> {
        let open = self.open.lock().ok()?;
        for split in open.iter().rev() {
            if !split.has_moves_left() || under.is_some_and(|u| !split.is_beneath(u)) {
                continue;
            }
            split.workers.fetch_add(1, Ordering::Relaxed);
            if let Some(i) = split.take() {
                return Some((Arc::clone(split), i));
            }
            split.leave();
        }
        None
    }

    pub fn aborts(&self) -> u64 {
        self.aborts.load(Ordering::Relaxed)
    }

    /// A thread found a move that fails high at a split point.
    pub fn note_abort(&self) {
        self.aborts.fetch_add(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{MoveKind, Square};
    use crate::game::AnyPosition;
    use crate::variant::Registry;

    fn start() -> Position<u64> {
        let chess = Registry::builtin().get("chess").unwrap();
        match AnyPosition::from_fen(chess, None).unwrap() {
            AnyPosition::Small(pos) => pos,
            _ => unreachable!("chess fits 64 bits"),
        }
    }

    fn split(moves: usize, parent: Option<Arc<SplitPoint<u64>>>) -> Arc<SplitPoint<u64>> {
        let node = Node {
            depth: 6,
            alpha: 0,
            beta: 100,
            ply: 2,
            pv_node: true,
            cut_node: false,
            in_check: false,
        };
        let m = Move::new(Square::new(12), Square::new(28), MoveKind::Normal);
        let pos = start();
        Arc::new(SplitPoint::new(
            &pos,
            &[],
            &[],
            &[0, 0, 0],
            node,
            -30,
            false,
            vec![m; moves],
            1,
            Box::default(),
            parent,
        ))
    }

    #[test]
    fn two_threads_take_every_move_once() {
        let s = split(10_000, None);
        let taken = std::thread::scope(|scope| {
            let takers: Vec<_> = (0..2)
                .map(|_| {
                    scope.spawn(|| {
                        let mut mine = Vec::new();
                        while let Some(i) = s.take() {
                            mine.push(i);
                        }
                        mine
                    })
                })
                .collect();
            let mut all: Vec<usize> = takers.into_iter().flat_map(|t| t.join().unwrap()).collect();
            all.sort_unstable();
            all
        });
        assert_eq!(taken, (0..10_000).collect::<Vec<_>>());
    }

    #[test]
    fn moves_that_raise_alpha_are_kept_in_order_and_a_fail_high_ends_the_node() {
        let s = split(8, None);
        let m = s.moves[0];
        assert!(!s.report(m, -10, || unreachable!("below alpha: no line needed")));
        assert!(!s.report(m, 40, || vec![m]));
        assert!(!s.report(m, 20, || unreachable!("below the new alpha")));
        assert_eq!(s.alpha(), 40);
        assert!(s.take().is_some());
        assert!(s.report(m, 100, || vec![m]), "at beta the node fails high");
        assert!(s.is_aborted());
        assert_eq!(
            s.take(),
            None,
            "no move is handed out once the node failed high"
        );
        let outcome = s.outcome_if_done().unwrap();
        assert_eq!(outcome.best_score, 100);
        let scores: Vec<i32> = outcome.improvements.iter().map(|i| i.1).collect();
        assert_eq!(scores, [40, 100]);
    }

    #[test]
    fn a_thread_waiting_at_its_node_helps_only_beneath_it() {
        let splits = SplitPoints::default();
        let mine = split(1, None);
        let beneath = split(4, Some(Arc::clone(&mine)));
        let elsewhere = split(4, None);
        splits.open(&mine);
        splits.open(&beneath);
        splits.open(&elsewhere);
        let (found, i) = splits.find_work(Some(&mine), &mut Seen::default()).unwrap();
        assert!(Arc::ptr_eq(&found, &beneath));
        assert_eq!(i, 0);
        assert!(found.outcome_if_done().is_none(), "a helper is in the node");
        found.leave();
        assert!(found.outcome_if_done().is_some());
        // An idle helper takes the innermost node opened last.
        let (found, _) = splits.find_work(None, &mut Seen::default()).unwrap();
        assert!(Arc::ptr_eq(&found, &elsewhere));
        found.leave();
        splits.close(&beneath);
        splits.close(&elsewhere);
        // `mine` has one move; once it is taken there is no work beneath it or anywhere.
        assert_eq!(mine.take(), Some(0));
        assert!(splits.find_work(None, &mut Seen::default()).is_none());
    }
}
