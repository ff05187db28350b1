//! The engine: the one facade through which every front end runs searches (UCI, XBoard, the
//! command line, the referee's openings, the web board, the Python module). It owns the
//! transposition table, the search options and each search thread's tables, which live from
//! one search to the next; a front end asks for a search with `go` and hears of it through
//! two callbacks, and never touches a thread.
//!
//! Searches run one after the other on the engine's own thread, in the order they were
//! asked for. Each has its controls (`SearchControl`) from the moment it is asked for: a
//! `stop` or `ponderhit` that comes before the search starts is not lost.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::thread::JoinHandle;

use super::strength::{self, LineCollector};
use super::time::Limits;
use super::tt::{TranspositionTable, available_memory};
use super::{Report, Score, SearchControl, SearchOptions, SearchResult, ThreadData, think};
use crate::board::Move;
use crate::game::Game;
use crate::variant::Variant;
use crate::with_position;

/// Called with each line of progress, on the engine's thread.
pub type InfoCallback = Box<dyn Fn(&Report) + Send + Sync>;
/// Called once with the search's result, on the engine's thread.
pub type DoneCallback = Box<dyn FnOnce(SearchResult) + Send>;

/// The hash table's size when nothing else is asked for, in MB.
pub const DEFAULT_HASH_MB: usize = 16;

/// A search asked for and not yet finished.
struct Job {
    game: Game,
    limits: Limits,
    options: SearchOptions,
    tt: Arc<TranspositionTable>,
    control: Arc<SearchControl>,
    on_info: InfoCallback,
    on_done: DoneCallback,
}

struct State {
    queue: VecDeque<Job>,
    /// The controls of the search under way, if any.
    running: Option<Arc<SearchControl>>,
    tt: Arc<TranspositionTable>,
    options: SearchOptions,
    /// The next search starts with fresh move-ordering tables (a new game).
    fresh_tables: bool,
    /// The table's pages are still to be written once (a new table): done on the engine's
    /// thread before the next search, so that a large table never holds up the front end.
    commit_pending: bool,
    quit: bool,
}

struct Shared {
    state: Mutex<State>,
    /// Signalled when a search is asked for, when one ends, and on quit.
    changed: Condvar,
    /// Set when a search is asked for and on quit: the table's pages stop being committed
    /// at once (the search commits the rest as it writes them).
    interrupt_commit: AtomicBool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic on the engine's thread poisons nothing the state depends on.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The engine. Dropping it stops any search and ends its thread.
pub struct Engine {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

/// A handle to the engine for callbacks, which may ask for the next search (pondering after
/// a move) without owning the engine.
#[derive(Clone)]
pub struct EngineHandle {
    shared: Weak<Shared>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine with the default options and a table of `DEFAULT_HASH_MB`.
    pub fn new() -> Engine {
        Engine::with_hash(DEFAULT_HASH_MB)
    }

    /// An engine with the default options and a table of `megabytes` MB (or the least table
    /// if that cannot be had).
    pub fn with_hash(megabytes: usize) -> Engine {
        let tt = TranspositionTable::new_within(megabytes, available_memory())
            .unwrap_or_else(|_| TranspositionTable::with_buckets(1));
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                queue: VecDeque::new(),
                running: None,
                tt: Arc::new(tt),
                options: SearchOptions::default(),
                fresh_tables: true,
                commit_pending: true,
                quit: false,
            }),
            changed: Condvar::new(),
            interrupt_commit: AtomicBool::new(false),
        });
        let serving = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("engine".into())
            .spawn(move || serve(&serving))
            .expect("cannot start the engine's thread");
        Engine {
            shared,
            thread: Some(thread),
        }
    }

    pub fn handle(&self) -> EngineHandle {
        EngineHandle {
            shared: Arc::downgrade(&self.shared),
        }
    }

    /// Asks for a search of the game's position, after any search asked for before. Returns
    /// its controls.
    pub fn go(
        &self,
        game: &Game,
        limits: Limits,
        on_info: InfoCallback,
        on_done: DoneCallback,
    ) -> Arc<SearchControl> {
        go(&self.shared, game, limits, on_info, on_done)
    }

    /// Searches and waits for the result (for the command line and tools).
    pub fn search(&self, game: &Game, limits: Limits, on_info: InfoCallback) -> SearchResult {
        let (send, receive) = std::sync::mpsc::channel();
        self.go(
            game,
            limits,
            on_info,
            Box::new(move |result| {
                let _ = send.send(result);
            }),
        );
        receive
            .recv()
            .expect("the engine's thread answers every search")
    }

    /// Stops the search under way and every one asked for: each still answers, at once,
    /// with the best move it has.
    pub fn stop(&self) {
        stop(&self.shared);
    }

    /// The opponent played the move the latest search ponders on.
    pub fn ponderhit(&self) {
        let state = self.shared.lock();
        if let Some(control) = state
            .queue
            .back()
            .map(|j| &j.control)
            .or(state.running.as_ref())
        {
            control.ponderhit();
        }
    }

    /// Waits until every search asked for has answered.
    pub fn wait(&self) {
        let mut state = self.shared.lock();
        while state.running.is_some() || !state.queue.is_empty() {
            state = self
                .shared
                .changed
                .wait(state)
                .unwrap_or_else(|e| e.into_inner());
        }
    }

    /// A search is under way or asked for.
    pub fn is_searching(&self) -> bool {
        let state = self.shared.lock();
        state.running.is_some() || !state.queue.is_empty()
    }

    pub fn options(&self) -> SearchOptions {
        self.shared.lock().options.clone()
    }

    /// Changes the options of the searches asked for from now on.
    pub fn set_options(&self, change: impl FnOnce(&mut SearchOptions)) {
        change(&mut self.shared.lock().options);
    }

    pub fn hash_megabytes(&self) -> usize {
        self.shared.lock().tt.megabytes()
    }

    /// A new table of `megabytes` MB for the searches asked for from now on; on error the
    /// old table stays, and the message says so. It returns at once whatever the size: the
    /// table's memory is only reserved here, its pages are written on the engine's thread
    /// before the next search, and the old table is given back on a thread of its own.
    pub fn set_hash(&self, megabytes: usize) -> Result<(), String> {
        let old = self.hash_megabytes();
        if megabytes == old {
            return Ok(());
        }
        // The old table is not counted against the memory available: it is given back.
        let old_bytes = old * 1024 * 1024;
        let limit = available_memory().map(|free| free.saturating_add(old_bytes));
        let table = TranspositionTable::new_within(megabytes, limit)
            .map_err(|e| format!("{e}; the hash table stays at {old} MB"))?;
        let retired = {
            let mut state = self.shared.lock();
            state.commit_pending = true;
            std::mem::replace(&mut state.tt, Arc::new(table))
        };
        self.shared.changed.notify_all();
        give_back(retired);
        Ok(())
    }

    /// Forgets every entry of the table (at once, whatever its size).
    pub fn clear_hash(&self) {
        self.shared.lock().tt.clear();
    }

    /// A new game: the table is cleared and the next search starts with fresh tables.
    pub fn new_game(&self) {
        let mut state = self.shared.lock();
        state.tt.clear();
        state.fresh_tables = true;
    }
}

impl EngineHandle {
    /// As [`Engine::go`]; `None` when the engine is gone.
    pub fn go(
        &self,
        game: &Game,
        limits: Limits,
        on_info: InfoCallback,
        on_done: DoneCallback,
    ) -> Option<Arc<SearchControl>> {
        let shared = self.shared.upgrade()?;
        Some(go(&shared, game, limits, on_info, on_done))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        stop(&self.shared);
        // After `quit` is set: a commit begun before it sees the interruption, and none
        // begins after it.
        self.shared.lock().quit = true;
        self.shared.interrupt_commit.store(true, Ordering::Relaxed);
        self.shared.changed.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn go(
    shared: &Shared,
    game: &Game,
    limits: Limits,
    on_info: InfoCallback,
    on_done: DoneCallback,
) -> Arc<SearchControl> {
    let control = Arc::new(SearchControl::new(limits.ponder));
    let mut state = shared.lock();
    let job = Job {
        game: game.clone(),
        limits,
        options: state.options.clone(),
        tt: Arc::clone(&state.tt),
        control: Arc::clone(&control),
        on_info,
        on_done,
    };
    state.queue.push_back(job);
    shared.interrupt_commit.store(true, Ordering::Relaxed);
    drop(state);
    shared.changed.notify_all();
    control
}

fn stop(shared: &Shared) {
    let state = shared.lock();
    if let Some(control) = &state.running {
        control.stop();
    }
    for job in &state.queue {
        job.control.stop();
    }
}

/// Gives a table back on a thread of its own: unmapping many gigabytes takes seconds.
fn give_back(table: Arc<TranspositionTable>) {
    let spawned = std::thread::Builder::new()
        .name("table-release".into())
        .spawn(move || drop(table));
    // Without a thread, it is given back here (dropping the closure drops the table).
    drop(spawned);
}

/// The engine's thread: the searches, one at a time, with the threads' tables kept between
/// them.
fn serve(shared: &Shared) {
    let mut threads: Vec<ThreadData> = Vec::new();
    let mut last_variant: Option<*const Variant> = None;
    loop {
        let (job, fresh) = {
            let mut state = shared.lock();
            loop {
                // A search asked for first commits the pages itself as it writes them:
                // writing them here afterwards would forget what it found.
                if std::mem::take(&mut state.commit_pending)
                    && state.queue.is_empty()
                    && !state.quit
                {
                    shared.interrupt_commit.store(false, Ordering::Relaxed);
                    let tt = Arc::clone(&state.tt);
                    drop(state);
                    tt.commit_pages(&shared.interrupt_commit);
                    state = shared.lock();
                    continue;
                }
                if let Some(job) = state.queue.pop_front() {
                    state.running = Some(Arc::clone(&job.control));
                    break (job, std::mem::take(&mut state.fresh_tables));
                }
                if state.quit {
                    return;
                }
                state = shared
                    .changed
                    .wait(state)
                    .unwrap_or_else(|e| e.into_inner());
            }
        };
        // Positions of different variants can share a hash: what was learnt in one says
        // nothing of the other.
        let variant: *const Variant = job.game.variant();
        let new_variant = last_variant.is_some_and(|v| v != variant);
        if new_variant {
            job.tt.clear();
        }
        last_variant = Some(variant);
        let count = job.options.threads.max(1);
        threads.resize_with(count, ThreadData::default);
        if fresh || new_variant {
            threads.iter_mut().for_each(ThreadData::clear);
        }
        let game = &job.game;
        let history = &game.hashes()[..game.hashes().len() - 1];
        let weakened = Weakened::new(
            &job.options,
            &job.limits,
            game.position().legal_moves().len(),
        );
        let (options, limits) = weakened
            .as_ref()
            .map_or((&job.options, &job.limits), |w| (&w.options, &w.limits));
        let on_info = |report: &Report| {
            if let Some(w) = &weakened {
                w.hear(report);
            }
            (job.on_info)(report);
        };
        let search = std::panic::AssertUnwindSafe(|| {
            with_position!(game.position(), p => think(
                p,
                history,
                limits,
                options,
                &job.tt,
                &job.control,
                &mut threads,
                &on_info,
            ))
        });
        // A search that failed still answers (with the first legal move), and the engine
        // goes on with fresh tables: a front end waiting for a move never hangs.
        let result = std::panic::catch_unwind(search).unwrap_or_else(|_| {
            threads.clear();
            SearchResult {
                best: game
                    .position()
                    .legal_moves()
                    .first()
                    .copied()
                    .unwrap_or(Move::NULL),
                ponder: None,
                score: Score::Centipawns(0),
                depth: 0,
                nodes: 0,
            }
        });
        let result = match &weakened {
            Some(w) => w.choose(result),
            None => result,
        };
        (job.on_done)(result);
        shared.lock().running = None;
        shared.changed.notify_all();
    }
}

/// A search at a skill level below full strength (`strength.rs`): more lines, a shallower
/// depth, and the move chosen among the lines of the last complete iteration.
struct Weakened {
    skill: f64,
    options: SearchOptions,
    limits: Limits,
    lines: Mutex<LineCollector>,
}

impl Weakened {
    /// `None` at full strength. `legal`: how many moves the root has.
    fn new(options: &SearchOptions, limits: &Limits, legal: usize) -> Option<Weakened> {
        let skill = options.skill.filter(|&s| s < strength::MAX_SKILL)?;
        let mut options = options.clone();
        options.multipv = options.multipv.max(strength::CANDIDATE_LINES);
        let mut limits = limits.clone();
        let cap = strength::depth_cap(skill);
        limits.depth = Some(limits.depth.map_or(cap, |d| d.min(cap)));
        Some(Weakened {
            skill,
            // The search reports as many lines as there are moves to search, at most.
            lines: Mutex::new(LineCollector::new(options.multipv.min(
                match limits.searchmoves.len() {
                    0 => legal,
                    n => n.min(legal),
                },
            ))),
            options,
            limits,
        })
    }

    fn hear(&self, report: &Report) {
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        lines.report(
            report.depth,
            report.multipv,
            report.score,
            report.bound.is_none(),
            &report.pv,
        );
    }

    /// The search's result with the move chosen at the skill level (the search's own when no
    /// iteration was complete, or with fewer legal moves than lines).
    fn choose(&self, result: SearchResult) -> SearchResult {
        let lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        match strength::choose_at_random(lines.lines(), self.skill) {
            Some(mv) if mv != result.best => SearchResult {
                best: mv,
                ponder: None,
                score: lines
                    .lines()
                    .iter()
                    .find(|c| c.mv == mv)
                    .map_or(result.score, |c| Score::from_internal(c.score)),
                ..result
            },
            _ => result,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyPosition;
    use crate::variant::Registry;

    fn start(variant: &str) -> Game {
        let registry = Registry::builtin();
        let v = registry.get(variant).expect("a built-in variant");
        Game::new(AnyPosition::from_fen(v, None).expect("the start"))
    }

    /// Searches `game` to depth 4 and gives a way to look at the engine's table after.
    fn searched<'a>(engine: &'a Engine, game: &Game) -> impl Fn() -> Arc<TranspositionTable> + 'a {
        engine.search(game, Limits::depth(4), Box::new(|_| {}));
        || Arc::clone(&engine.shared.lock().tt)
    }

    #[test]
    fn the_hash_size_is_what_was_set_and_stays_when_refused() {
        let engine = Engine::new();
        assert_eq!(engine.hash_megabytes(), DEFAULT_HASH_MB);
        engine.set_hash(2).expect("2 MB");
        assert_eq!(engine.hash_megabytes(), 2);
        engine.set_hash(2).expect("the same size again");
        assert_eq!(engine.hash_megabytes(), 2);
        let err = engine
            .set_hash(usize::MAX / 2)
            .expect_err("more than any machine has");
        assert!(err.contains("stays at 2 MB"), "{err}");
        assert_eq!(engine.hash_megabytes(), 2);
    }

    #[test]
    fn clearing_the_hash_forgets_what_the_search_stored() {
        let engine = Engine::new();
        let game = start("chess");
        let root = game.position().hash();
        let table = searched(&engine, &game);
        assert!(table().probe(root).is_some(), "the root is stored");
        engine.clear_hash();
        assert!(table().probe(root).is_none(), "the root is forgotten");
    }

    /// The engine's thread ends with the engine: a handle kept past it asks in vain.
    #[test]
    fn a_handle_outliving_its_engine_starts_no_search() {
        let engine = Engine::new();
        let handle = engine.handle();
        drop(engine);
        let asked = handle.go(
            &start("chess"),
            Limits::depth(1),
            Box::new(|_| {}),
            Box::new(|_| {}),
        );
        assert!(asked.is_none());
    }

    /// From one search to the next in the same variant the table keeps what it learnt; a
    /// search in another variant starts from an empty one.
    #[test]
    fn the_table_is_kept_within_a_variant_and_cleared_across() {
        let engine = Engine::new();
        let chess = start("chess");
        let root = chess.position().hash();
        let table = searched(&engine, &chess);
        let mut later = chess.clone();
        let first = later.position().legal_moves()[0];
        later.play(first).expect("a legal move");
        engine.search(&later, Limits::depth(2), Box::new(|_| {}));
        assert!(table().probe(root).is_some(), "kept within chess");
        engine.search(&start("magi"), Limits::depth(1), Box::new(|_| {}));
        assert!(table().probe(root).is_none(), "cleared for magi");
    }

    /// A weakened engine that plays another line than the search's best gives that line's
    /// score and no ponder move (the best line's reply would not answer it); when it plays
    /// the best line, the search's result stands, ponder move and all.
    #[test]
    fn a_weakened_choice_reports_its_own_line() {
        let engine = Engine::new();
        // Level 4: deep enough (5 plies at most) for a line with a reply to ponder on.
        engine.set_options(|o| o.skill = Some(4.0));
        let game = start("chess");
        let (mut other, mut same) = (false, false);
        for _ in 0..200 {
            let reports = Arc::new(Mutex::new(Vec::<Report>::new()));
            let heard = Arc::clone(&reports);
            let result = engine.search(
                &game,
                Limits::depth(3),
                Box::new(move |r: &Report| heard.lock().unwrap().push(r.clone())),
            );
            let reports = reports.lock().unwrap();
            let deepest = reports
                .iter()
                .filter(|r| r.bound.is_none())
                .map(|r| r.depth)
                .max()
                .expect("complete lines");
            let lines: Vec<&Report> = reports
                .iter()
                .filter(|r| r.depth == deepest && r.bound.is_none())
                .collect();
            // A line can be reported again in the same iteration when a later one overtakes
            // it (MultiPV reorders): the last report of each stands.
            let best = lines
                .iter()
                .rfind(|r| r.multipv == 1)
                .expect("a first line");
            let chosen = lines
                .iter()
                .rfind(|r| r.pv[0] == result.best)
                .expect("the move played is one of the lines");
            if result.best == best.pv[0] {
                // Counted only where the line has a reply, so that keeping it is seen.
                same |= best.pv.len() > 1;
                assert_eq!(result.ponder, best.pv.get(1).copied());
            } else {
                other = true;
                assert_eq!(result.ponder, None);
                assert_eq!(result.score, chosen.score);
            }
            if other && same {
                return;
            }
        }
        panic!("in 200 searches at level 4: another line {other}, the best line {same}");
    }
}
