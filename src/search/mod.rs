//! The search: iterative deepening with aspiration windows and MultiPV, over a PVS
//! alpha-beta (`worker`); lazy SMP over several threads that share the transposition table;
//! `engine`, the one facade every front end drives searches through.

mod aspiration;
pub mod bench;
pub mod engine;
mod eval_cache;
mod history;
mod node;
pub mod ordering;
pub mod params;
mod see;
pub mod strength;
mod thread;
pub mod time;
pub mod tt;
mod worker;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Bitboard, Move, Position};
use params::DEFAULT_MOVES_TO_GO;
pub use thread::ThreadData;
use time::{Budget, Limits};
use tt::TranspositionTable;
use worker::{Role, Worker};

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
    /// The net of the learned evaluation for the variant being played, if it has one (the
    /// built-in net, or a user's from `EvalFile`).
    pub net: Option<std::sync::Arc<crate::eval::nnue::Network>>,
    /// The terms of the full evaluation that are on (all of them in play).
    pub eval_terms: crate::eval::TermSet,
    pub pruning: Pruning,
    /// Play weaker on purpose at this skill level (`strength.rs`); `None` at full strength.
    pub skill: Option<f64>,
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
    /// Captures that lose material by the static exchange are left out: in quiescence, and
    /// at low depth in the main search; in quiescence, so are the captures past the first
    /// few that neither recapture, promote nor check.
    pub losing_captures: bool,
    /// Late quiet moves with a bad history or a losing exchange are left out at low depth.
    pub history_pruning: bool,
    /// Singular extensions (with multi-cut and negative extensions).
    pub singular: bool,
    /// ProbCut: a capture whose shallow search beats beta by a margin cuts the node.
    pub probcut: bool,
    /// Razoring: a node far below alpha at low depth asks quiescence first.
    pub razoring: bool,
    /// Internal iterative reductions: a node with no hash move is searched a ply shallower.
    pub iir: bool,
    /// The static evaluation is corrected by what searches found in positions of the same
    /// pawn structure.
    pub correction: bool,
    /// Quiescence tries the quiet moves that give check at its first ply (off by default:
    /// in games at equal nodes they cost more than they found, sprt-118 against sprt-119).
    pub quiet_checks: bool,
    /// The null move's search keeps at least one ply of full width (never a bare quiescence
    /// search), so every threat the pass allows is searched (off until an SPRT accepts it:
    /// sprt-132).
    pub null_move_full_ply: bool,
    /// The narrower margins (`params::Margins::NARROW`, Fairy-Stockfish's converted) instead
    /// of the ones in use (off: undecided in chess, sprt-147 and sprt-149; rejected in Magi,
    /// sprt-150; alone, the halved late-move counts lose most there, match-102).
    pub narrow: bool,
}

impl Pruning {
    /// Every part of the selective search off.
    pub const NONE: Pruning = Pruning {
        null_move: false,
        reductions: false,
        futility: false,
        move_count: false,
        losing_captures: false,
        history_pruning: false,
        singular: false,
        probcut: false,
        razoring: false,
        iir: false,
        correction: false,
        quiet_checks: false,
        null_move_full_ply: false,
        narrow: false,
    };
}

impl Default for Pruning {
    fn default() -> Self {
        Pruning {
            null_move: true,
            reductions: true,
            futility: true,
            move_count: true,
            losing_captures: true,
            history_pruning: true,
            singular: true,
            probcut: true,
            razoring: true,
            iir: true,
            correction: true,
            quiet_checks: false,
            null_move_full_ply: false,
            narrow: false,
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
            eval_mode: crate::eval::EvalMode::Nnue,
            net: None,
            eval_terms: crate::eval::TermSet::ALL,
            pruning: Pruning::default(),
            skill: None,
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
    /// Whether the search was told to stop (`stop`, `quit`, or the main thread done), not
    /// just at its limits.
    fn stop_asked(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

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

/// The controls of one search, shared by the threads that search and whoever may stop it.
/// It is made with the search's pondering state before the search starts, and nothing
/// resets it: a `ponderhit` or `stop` that comes before the threads start is kept.
#[derive(Default)]
pub struct SearchControl {
    pub stop: AtomicBool,
    pub pondering: AtomicBool,
    ponderhit_at: Mutex<Option<Instant>>,
}

impl SearchControl {
    /// The controls of a search that ponders (`ponder`) or thinks on its own move.
    pub fn new(ponder: bool) -> SearchControl {
        SearchControl {
            pondering: AtomicBool::new(ponder),
            ..SearchControl::default()
        }
    }

    /// The opponent played the expected move: the clock now runs, from this moment.
    pub fn ponderhit(&self) {
        if let Ok(mut p) = self.ponderhit_at.lock() {
            *p = Some(Instant::now());
        }
        self.pondering.store(false, Ordering::Release);
    }

    /// Ends the search: it answers with the best move found so far.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Release);
    }
}

/// How long to think about `root`: the clock shared over the variant's moves-to-go, or the
/// search's, when the GUI gives none.
fn budget<B: Bitboard>(root: &Position<B>, limits: &Limits, options: &SearchOptions) -> Budget {
    if limits.infinite {
        return Budget::unlimited();
    }
    let moves = root.layout().variant.moves_to_go;
    Budget::new(
        limits,
        options.move_overhead,
        moves.unwrap_or(DEFAULT_MOVES_TO_GO),
    )
}

/// Searches `root` with lazy SMP: every thread searches the same root, sharing the
/// transposition table; the helpers spread over neighbouring depths, and the main thread
/// decides and reports. `threads` holds each thread's tables (one per thread, the main
/// thread's first), which keep what they learn for the next search. The pondering state of
/// `control` is the caller's: a `ponderhit` that comes before the threads start still counts.
#[allow(clippy::too_many_arguments)]
pub fn think<B: Bitboard>(
    root: &Position<B>,
    game_hashes: &[u64],
    limits: &Limits,
    options: &SearchOptions,
    tt: &TranspositionTable,
    control: &SearchControl,
    threads: &mut [ThreadData],
    report: &(dyn Fn(&Report) + Sync),
) -> SearchResult {
    let start = Instant::now();
    let budget = budget(root, limits, options);
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
    let no_search = |best: Move| SearchResult {
        best,
        ponder: None,
        score: Score::Centipawns(0),
        depth: 0,
        nodes: 0,
    };
    if legal.is_empty() {
        return no_search(Move::NULL);
    }
    if legal.len() == 1 && limits.is_timed() && !limits.ponder {
        return no_search(legal[0]);
    }
    let (main_data, helper_data) = threads
        .split_first_mut()
        .expect("at least the main thread's tables");
    let result = std::thread::scope(|scope| {
        let shared = &shared;
        let legal = &legal;
        let mut helpers = Vec::new();
        for (i, data) in helper_data.iter_mut().enumerate() {
            let builder = std::thread::Builder::new()
                .name(format!("search-{}", i + 1))
                .stack_size(SEARCH_STACK);
            let spawned = builder.spawn_scoped(scope, move || {
                let mut worker = Worker::new(i + 1, shared, data, root, game_hashes);
                worker.iterate(root, legal, Role::Helper, &|_| {});
                worker.flush_nodes();
            });
            if let Ok(handle) = spawned {
                helpers.push(handle);
            }
        }
        let builder = std::thread::Builder::new()
            .name("search-main".into())
            .stack_size(SEARCH_STACK);
        let main = builder
            .spawn_scoped(scope, move || {
                let mut worker = Worker::new(0, shared, main_data, root, game_hashes);
                let result = worker.iterate(root, legal, Role::Main, report);
                worker.flush_nodes();
                // While pondering or in infinite mode, the answer waits for `stop` or
                // `ponderhit`.
                while (shared.limits.infinite || control.pondering.load(Ordering::Acquire))
                    && !shared.stop.load(Ordering::Relaxed)
                {
                    std::thread::sleep(Duration::from_millis(1));
                }
                result
            })
            .expect("cannot start the search thread");
        let result = main.join().expect("the search thread failed");
        shared.stop.store(true, Ordering::Relaxed);
        for h in helpers {
            h.join().expect("a search helper failed");
        }
        result
    });
    SearchResult {
        nodes: shared.nodes.load(Ordering::Relaxed),
        ..result
    }
}

/// Each search thread's stack: the recursion is deep and each level holds a move list.
const SEARCH_STACK: usize = 64 << 20;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A mate found `plies` plies from the root scores `MATE - plies`; being mated there,
    /// `plies - MATE`. GUIs count moves: the mating side's, or (negative) the opponent's.
    #[test]
    fn mate_scores_are_shown_in_moves() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(MATE - 4), Score::Mate(2));
        assert_eq!(Score::from_internal(-MATE), Score::Mate(0));
        assert_eq!(Score::from_internal(2 - MATE), Score::Mate(-1));
        assert_eq!(Score::from_internal(4 - MATE), Score::Mate(-2));
        assert_eq!(Score::from_internal(MATE_BOUND), Score::Mate(500));
        assert_eq!(Score::from_internal(-MATE_BOUND), Score::Mate(-500));
        for cp in [0, 35, -35, MATE_BOUND - 1, 1 - MATE_BOUND] {
            assert_eq!(Score::from_internal(cp), Score::Centipawns(cp));
        }
    }

    /// With no moves-to-go from the GUI, chess shares the clock over its definition's 24
    /// moves, Magi over its 36 and Deathmatch, whose definition is silent, over the search's
    /// 30; a GUI's moves-to-go overrides them all.
    #[test]
    fn the_variant_says_how_many_moves_share_the_clock() {
        use crate::game::AnyPosition;
        use crate::search::see::tests::start;
        let ms = Duration::from_millis;
        let options = SearchOptions {
            move_overhead: ms(0),
            ..SearchOptions::default()
        };
        let clock = Limits {
            time_left: Some(ms(12_000)),
            ..Limits::default()
        };
        let chess = start("chess");
        let magi = crate::variant::Registry::builtin().get("magi").unwrap();
        let AnyPosition::Large(magi) = AnyPosition::from_fen(magi, None).unwrap() else {
            panic!("Magi's 100 squares need the wide board");
        };
        let deathmatch = start("deathmatch");
        assert_eq!(budget(&chess, &clock, &options).soft, ms(12_000) / 24);
        assert_eq!(budget(&magi, &clock, &options).soft, ms(12_000) / 36);
        assert_eq!(budget(&deathmatch, &clock, &options).soft, ms(12_000) / 30);
        let told = Limits {
            moves_to_go: Some(40),
            ..clock
        };
        for soft in [
            budget(&chess, &told, &options).soft,
            budget(&magi, &told, &options).soft,
            budget(&deathmatch, &told, &options).soft,
        ] {
            assert_eq!(soft, ms(300));
        }
    }

    /// A search's shared state, begun `ago` before now, with a hard limit of `hard`.
    pub(crate) fn shared<'a>(
        tt: &'a TranspositionTable,
        control: &'a SearchControl,
        limits: Limits,
        hard: Duration,
        ago: Duration,
    ) -> Shared<'a> {
        Shared {
            tt,
            stop: &control.stop,
            control,
            nodes: AtomicU64::new(0),
            options: SearchOptions::default(),
            limits,
            budget: Budget { soft: hard, hard },
            start: Instant::now().checked_sub(ago).expect("a second ago"),
        }
    }

    /// The clock stops the main thread alone (the helpers follow it), and not while it
    /// ponders; the node limit and `stop` stop every thread.
    #[test]
    fn who_must_stop_and_when() {
        let tt = TranspositionTable::with_buckets(1);
        let second = Duration::from_secs(1);
        let control = SearchControl::default();
        let late = shared(&tt, &control, Limits::default(), second / 10, second);
        assert!(late.should_stop(true));
        assert!(!late.should_stop(false));
        let early = shared(&tt, &control, Limits::default(), 3600 * second, second);
        assert!(!early.should_stop(true));

        let pondering = SearchControl::new(true);
        let late = shared(&tt, &pondering, Limits::default(), second / 10, second);
        assert!(!late.should_stop(true));

        let counted = Limits {
            nodes: Some(10),
            ..Limits::default()
        };
        let limited = shared(&tt, &control, counted, 3600 * second, second);
        limited.nodes.store(9, Ordering::Relaxed);
        assert!(!limited.should_stop(false));
        limited.nodes.store(10, Ordering::Relaxed);
        assert!(limited.should_stop(false));

        let stopped = SearchControl::default();
        stopped.stop();
        let early = shared(&tt, &stopped, Limits::default(), 3600 * second, second);
        assert!(early.should_stop(false));
    }

    /// `go infinite` answers when stopped, however soon its depth is reached.
    #[test]
    fn an_infinite_search_answers_only_when_stopped() {
        let registry = crate::variant::Registry::builtin();
        let chess = registry.get("chess").expect("chess");
        let pos = crate::game::AnyPosition::from_fen(chess, None).expect("the start");
        let tt = TranspositionTable::with_buckets(1024);
        let control = SearchControl::default();
        let limits = Limits {
            infinite: true,
            depth: Some(1),
            ..Limits::default()
        };
        let options = SearchOptions::default();
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::scope(|scope| {
            let (pos, tt, control, limits, options) = (&pos, &tt, &control, &limits, &options);
            scope.spawn(move || {
                let mut threads = ThreadData::fresh(1);
                let result = crate::with_position!(pos, p => think(p, &[], limits, options, tt, control, &mut threads, &|_| {}));
                let _ = send.send(result);
            });
            let early = receive.recv_timeout(Duration::from_millis(300));
            control.stop();
            assert!(early.is_err(), "answered before stop: {early:?}");
            let result = receive
                .recv_timeout(Duration::from_secs(30))
                .expect("an answer once stopped");
            assert!(!result.best.is_null());
        });
    }
}
