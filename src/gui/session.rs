//! One game at the board: the game, who plays each side, the clocks, how it ended outside
//! the rules (resignation, time, agreement), and the engine that plays or analyses it.
//!
//! Each session has its own engine, so a game has at most one search at a time (the engine
//! runs its searches one after the other). Every change to the position stops the search
//! under way and bumps the session's epoch; a search that ends for an older epoch is
//! ignored, so a stale best move is never played.
//!
//! Locks: a request takes the state, then (if it must) the engine slot; the engine's
//! callbacks, on the engine's thread, take the state and then the engine slot. The engine is
//! dropped (its thread joined) only after it has been taken out of its slot, with no lock held.

use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use super::clock::Clocks;
use super::record::{self, Restored};
use super::store::Store;
use super::strength;
use crate::board::{Color, Move};
use crate::game::outcome::{Outcome, Reason, outcome};
use crate::game::{AnyPosition, Game};
use crate::search::engine::Engine;
use crate::search::time::Limits;
use crate::search::{Report, Score, SearchResult};
use crate::tournament::payoff::{Offer, OfferKind, PayoffEnd, PayoffRules};
use crate::with_position;

/// The hash table of each session's engine, in MB.
const ENGINE_HASH_MB: usize = 16;
/// What a stalemate is worth to the side that gives it under the Magi payoff (the UCI
/// `Scoring` option uses the same).
const PAYOFF_STALEMATE_BONUS: i32 = crate::protocol::uci::PAYOFF_STALEMATE_BONUS;
/// magus accepts a draw offer when its last search scored the game at most this much for
/// itself, in centipawns.
const DRAW_ACCEPT_CP: i32 = 25;
/// The least time a move of magus against itself takes, so that a person can follow it.
const WATCHABLE_MOVE: Duration = Duration::from_millis(700);

/// A request that cannot be carried out: the HTTP status and a message for a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub message: String,
}

impl Refusal {
    pub fn new(status: u16, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            message: message.into(),
        }
    }
    pub fn bad(message: impl Into<String>) -> Refusal {
        Refusal::new(400, message)
    }
    pub fn conflict(message: impl Into<String>) -> Refusal {
        Refusal::new(409, message)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Human,
    Engine,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    Standard,
    /// The Magi 12-point payoff (RULES.md §2.5).
    Magi12,
}

#[derive(Clone, Debug)]
pub struct Settings {
    /// White's and Black's players.
    pub players: [Player; 2],
    /// magus's strength (`strength.rs`).
    pub level: u8,
    /// The clock: initial time and increment; `None` for an untimed game.
    pub clock: Option<(Duration, Duration)>,
    /// magus's time per move in an untimed game.
    pub movetime: Duration,
    pub scoring: Scoring,
    /// An analysis board: the person moves for both sides, and no clock runs.
    pub analysis: bool,
    /// The engine's lines are shown beside the game: it analyses whenever it is not
    /// finding its own move. The game goes on as before (players, clocks).
    pub show_lines: bool,
    /// Lines shown in analysis.
    pub multipv: usize,
}

/// How a game ended outside the rules of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// This side resigned.
    Resigned(Color),
    /// This side's time ran out.
    Time(Color),
    /// The players agreed a draw.
    Agreed,
}

/// What the engine is doing for the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Finding its move.
    Move,
    /// Analysing for the person.
    Analysis,
}

pub struct Search {
    pub id: u64,
    pub purpose: Purpose,
    started: Instant,
    control: Arc<crate::search::SearchControl>,
}

/// One line of the engine's thinking, in the position it was searched from.
#[derive(Clone, Debug)]
pub struct Line {
    pub multipv: usize,
    pub depth: i32,
    pub seldepth: usize,
    /// From the side to move's point of view.
    pub score: Score,
    pub bound: Option<bool>,
    pub nodes: u64,
    pub time: Duration,
    pub san: Vec<String>,
    pub wire: Vec<String>,
}

/// How a game finished, for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finish {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    pub winner: Option<Color>,
    /// Short, for PGN's Termination and the page: `checkmate`, `time forfeit` ...
    pub reason: String,
    /// A sentence: "White wins by checkmate".
    pub text: String,
    /// White's and Black's points under the Magi payoff, when it is chosen.
    pub payoff: Option<(u8, u8)>,
}

pub struct State {
    pub game: Game,
    /// The SAN of each move of the game.
    pub sans: Vec<String>,
    pub settings: Settings,
    pub clock: Option<Clocks>,
    pub ended: Option<Ending>,
    pub offers: Vec<Offer>,
    /// The end by the rules in the current position.
    pub outcome: Option<Outcome>,
    /// Bumped on every change of the position.
    pub epoch: u64,
    /// Bumped on every change a page shows.
    pub version: u64,
    pub search: Option<Search>,
    /// The lines of the search of the current position, by MultiPV index.
    pub lines: Vec<Line>,
    /// magus's last score of the game, from its own side's point of view.
    engine_score: Option<Score>,
    /// A message for the person (a declined draw offer).
    pub notice: Option<String>,
    /// A draw offered between two people by this side, waiting for the other's answer.
    pub draw_offer: Option<Color>,
    pub last_used: Instant,
    next_search: u64,
    /// The analysis was stopped because nobody asked for the game for a while.
    idle: bool,
    /// The legal moves as the page gets them, for the epoch they were made in.
    pub legal_cache: Option<(u64, serde_json::Value)>,
}

pub struct Session {
    pub id: u64,
    state: Mutex<State>,
    engine: Mutex<Option<Engine>>,
    me: Weak<Session>,
    /// Where the game is kept after every change (none: in memory only).
    store: Option<Arc<Store>>,
}

impl State {
    /// Refuses what only a game still going allows.
    fn still_on(&self) -> Result<(), Refusal> {
        match self.finish() {
            Some(finish) => Err(Refusal::conflict(format!(
                "the game is already over ({})",
                finish.text
            ))),
            None => Ok(()),
        }
    }

    pub fn is_over(&self) -> bool {
        self.ended.is_some() || self.outcome.is_some()
    }

    pub fn side(&self) -> Color {
        with_position!(self.game.position(), p => p.side())
    }

    fn fullmove(&self) -> u32 {
        with_position!(self.game.position(), p => p.fullmove_number()) as u32
    }

    /// Whether magus moves next: it plays the side to move and the game is not analysed.
    pub fn engine_to_move(&self) -> bool {
        !self.settings.analysis && self.settings.players[self.side().index()] == Player::Engine
    }

    /// Whether the engine should be analysing now: lines are shown, the game goes on, and
    /// magus is not finding its own move.
    fn analyses_now(&self) -> bool {
        self.settings.show_lines && !self.is_over() && !self.engine_to_move()
    }

    /// Ends the game if the clock of the side to move has run out.
    fn check_time(&mut self, now: Instant) -> bool {
        if self.is_over() {
            return false;
        }
        let Some(loser) = self.clock.as_ref().and_then(|c| c.flagged(now)) else {
            return false;
        };
        self.ended = Some(Ending::Time(loser));
        if let Some(c) = &mut self.clock {
            c.pause(now);
        }
        if let Some(search) = self.search.take() {
            search.control.stop();
        }
        self.version += 1;
        true
    }

    /// How the game finished, if it has.
    pub fn finish(&self) -> Option<Finish> {
        let fullmove = self.fullmove();
        let side = self.side();
        let (winner, reason, end) = match (self.ended, self.outcome) {
            (Some(Ending::Resigned(loser)), _) => (
                Some(!loser),
                "resignation".to_string(),
                PayoffEnd::Resign { loser, fullmove },
            ),
            (Some(Ending::Time(loser)), _) => (
                Some(!loser),
                "time forfeit".to_string(),
                PayoffEnd::Resign { loser, fullmove },
            ),
            (Some(Ending::Agreed), _) => (None, "agreement".to_string(), PayoffEnd::Draw),
            (None, Some(Outcome::Win(winner, reason))) => {
                let end = match reason {
                    Reason::Checkmate => PayoffEnd::Mate { winner, fullmove },
                    Reason::Stalemate => PayoffEnd::Stalemate { by: !side },
                    _ => PayoffEnd::Draw,
                };
                (Some(winner), reason.describe().to_string(), end)
            }
            (None, Some(Outcome::Draw(reason))) => {
                let end = match reason {
                    Reason::Stalemate => PayoffEnd::Stalemate { by: !side },
                    _ => PayoffEnd::Draw,
                };
                (None, reason.describe().to_string(), end)
            }
            (None, None) => return None,
        };
        let (result, text) = match winner {
            Some(Color::White) => ("1-0", format!("White wins by {reason}")),
            Some(Color::Black) => ("0-1", format!("Black wins by {reason}")),
            None => ("1/2-1/2", format!("Draw by {reason}")),
        };
        let payoff = (self.settings.scoring == Scoring::Magi12)
            .then(|| PayoffRules::default().payoff(&self.offers, end));
        Some(Finish {
            result,
            winner,
            reason,
            text,
            payoff,
        })
    }
}

impl Session {
    pub fn new(
        id: u64,
        start: AnyPosition,
        settings: Settings,
        store: Option<Arc<Store>>,
    ) -> Arc<Session> {
        let restored = Restored {
            game: Game::new(start),
            sans: Vec::new(),
            clock: settings
                .clock
                .map(|(initial, inc)| Clocks::new(initial, inc)),
            settings,
            ended: None,
            offers: Vec::new(),
            draw_offer: None,
        };
        Session::restore(id, restored, store)
    }

    /// A session of a game read back from disk (or just made).
    pub fn restore(id: u64, r: Restored, store: Option<Arc<Store>>) -> Arc<Session> {
        let mut state = State {
            game: r.game,
            sans: r.sans,
            clock: r.clock,
            settings: r.settings,
            ended: r.ended,
            offers: r.offers,
            outcome: None,
            epoch: 0,
            version: 0,
            search: None,
            lines: Vec::new(),
            engine_score: None,
            notice: None,
            draw_offer: r.draw_offer,
            last_used: Instant::now(),
            next_search: 0,
            idle: false,
            legal_cache: None,
        };
        state.outcome = rules_outcome(&state.game);
        Arc::new_cyclic(|me| Session {
            id,
            state: Mutex::new(state),
            engine: Mutex::new(None),
            me: me.clone(),
            store,
        })
    }

    /// Keeps the game on disk as it is now. A game that cannot be written goes on in memory,
    /// and the server says why once.
    fn save(&self, st: &State) {
        let Some(store) = &self.store else { return };
        if let Err(e) = store.save(self.id, &record::saved(st)) {
            static SAID: std::sync::Once = std::sync::Once::new();
            SAID.call_once(|| eprintln!("magus gui: {e}"));
        }
    }

    /// The state, with the clock checked: a game whose time ran out ends here. An analysis
    /// paused while nobody looked starts again.
    pub fn lock(&self) -> MutexGuard<'_, State> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.last_used = Instant::now();
        if state.check_time(Instant::now()) {
            self.save(&state);
        }
        if std::mem::take(&mut state.idle) && state.analyses_now() {
            self.start(&mut state, Purpose::Analysis);
        }
        state
    }

    /// Stops an analysis nobody has asked about for `after` (a page closed without a word):
    /// an endless search would hold a core for nothing. The next request starts it again.
    pub fn pause_if_idle(&self, after: Duration) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let analysing = st
            .search
            .as_ref()
            .is_some_and(|s| s.purpose == Purpose::Analysis);
        if analysing && st.last_used.elapsed() >= after {
            if let Some(search) = st.search.take() {
                search.control.stop();
            }
            st.idle = true;
            st.version += 1;
        }
    }

    /// Starts the engine if it is to move or to analyse (a new game, or one just loaded).
    pub fn begin(&self) {
        let mut st = self.lock();
        self.changed(&mut st);
    }

    /// Stops the engine and ends its thread (the session is being removed).
    pub fn close(&self) {
        let engine = self.engine.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(engine) = engine {
            engine.stop();
            drop(engine);
        }
    }

    /// Plays a move of the person, in SAN or wire notation. `ply`, when given, is the number
    /// of moves the position the move was chosen in had: a move chosen in a position that
    /// has changed since is refused.
    pub fn play(&self, text: &str, ply: Option<usize>) -> Result<(), Refusal> {
        let mut st = self.lock();
        if let Some(ply) = ply
            && ply != st.game.moves().len()
        {
            return Err(Refusal::conflict(format!(
                "the position has changed: the move was chosen after {ply} moves, the game has {} now",
                st.game.moves().len()
            )));
        }
        if let Some(finish) = st.finish() {
            return Err(Refusal::conflict(format!(
                "the game is over ({}); take back a move or start a new game",
                finish.text
            )));
        }
        if st.engine_to_move() {
            return Err(Refusal::conflict(
                "it is magus's move; wait for it, or ask it to move now",
            ));
        }
        let text = text.trim();
        if text.is_empty() {
            return Err(Refusal::bad("the move is empty"));
        }
        if text.len() > 64 {
            return Err(Refusal::bad("a move is at most 64 characters"));
        }
        let (_, m) = st
            .game
            .position()
            .after_san(text)
            .map_err(|e| Refusal::bad(format!("move '{text}': {e}")))?;
        self.apply(&mut st, m);
        self.changed(&mut st);
        Ok(())
    }

    /// Plays a legal move of the current position: the clocks, the SAN, the game.
    fn apply(&self, st: &mut State, m: Move) {
        let mover = st.side();
        let san = st.game.position().san(m);
        if st.game.play(m).is_err() {
            return;
        }
        st.sans.push(san);
        // The side a draw was offered to plays on: the offer is declined.
        if let Some(by) = st.draw_offer
            && by != mover
        {
            st.draw_offer = None;
            let fullmove = st.fullmove();
            st.offers.push(Offer {
                kind: OfferKind::Draw,
                by,
                fullmove,
                accepted: false,
            });
        }
        if let Some(c) = &mut st.clock
            && !st.settings.analysis
        {
            c.moved(mover, Instant::now());
        }
    }

    /// Takes back the last move; against magus, back to the person's last move.
    pub fn undo(&self) -> Result<(), Refusal> {
        let mut st = self.lock();
        if st.game.moves().is_empty() {
            return Err(Refusal::conflict("there is no move to take back"));
        }
        // A flag fell: taking back a move would give the loser their time back at 0:00.
        if let Some(Ending::Time(loser)) = st.ended {
            return Err(Refusal::conflict(format!(
                "{} lost on time; a game lost on time cannot be taken back (start a new game)",
                loser.name()
            )));
        }
        let humans = st
            .settings
            .players
            .iter()
            .filter(|&&p| p == Player::Human)
            .count();
        st.game.undo();
        st.sans.pop();
        // Against magus, the person takes back their own move, not only magus's answer.
        if !st.settings.analysis && humans == 1 {
            while st.engine_to_move() && !st.game.moves().is_empty() {
                st.game.undo();
                st.sans.pop();
            }
        }
        st.ended = None;
        st.draw_offer = None;
        // The clock of the side to move runs again (unless no move is left to time).
        let (side, started, analysis) =
            (st.side(), !st.game.moves().is_empty(), st.settings.analysis);
        if let Some(c) = &mut st.clock {
            if started && !analysis {
                c.start(side, Instant::now());
            } else {
                c.pause(Instant::now());
            }
        }
        self.changed(&mut st);
        Ok(())
    }

    /// Replaces the game by another (a FEN, an imported PGN); the players stay, the clocks
    /// start again.
    pub fn load(&self, game: Game, sans: Vec<String>) {
        let mut st = self.lock();
        st.game = game;
        st.sans = sans;
        st.ended = None;
        st.draw_offer = None;
        st.offers.clear();
        st.engine_score = None;
        st.clock = st
            .settings
            .clock
            .map(|(initial, inc)| Clocks::new(initial, inc));
        self.changed(&mut st);
    }

    /// Shows or hides the engine's lines beside the game; the players and the clocks stay
    /// as they are, and a search for magus's own move goes on undisturbed.
    pub fn set_analysis(&self, on: bool, multipv: Option<usize>) {
        let mut st = self.lock();
        st.settings.show_lines = on;
        if let Some(k) = multipv {
            st.settings.multipv = k;
        }
        st.version += 1;
        let moving = st
            .search
            .as_ref()
            .is_some_and(|s| s.purpose == Purpose::Move);
        if moving {
            self.save(&st);
        } else {
            self.changed(&mut st);
        }
    }

    /// `side` resigns (by default the person's side, or the side to move between two people).
    pub fn resign(&self, side: Option<Color>) -> Result<(), Refusal> {
        let mut st = self.lock();
        st.still_on()?;
        let side = side.unwrap_or_else(|| person_side(&st));
        if st.settings.players[side.index()] == Player::Engine && !st.settings.analysis {
            return Err(Refusal::conflict(format!(
                "{} is played by magus, which does not resign here",
                side.name()
            )));
        }
        let fullmove = st.fullmove();
        st.offers.push(Offer {
            kind: OfferKind::Resign,
            by: side,
            fullmove,
            accepted: true,
        });
        st.ended = Some(Ending::Resigned(side));
        self.finished(&mut st);
        Ok(())
    }

    /// A draw offer. Between two people it waits for the other side, who accepts by offering
    /// a draw in turn (or declines by playing on); magus accepts at once when its last score
    /// is not in its favour.
    pub fn offer_draw(&self, side: Option<Color>) -> Result<(), Refusal> {
        let mut st = self.lock();
        st.still_on()?;
        let by = side.unwrap_or_else(|| person_side(&st));
        let engine_side = !by;
        let against_engine =
            !st.settings.analysis && st.settings.players[engine_side.index()] == Player::Engine;
        if !against_engine {
            match st.draw_offer {
                Some(offerer) if offerer == by => {
                    return Err(Refusal::conflict(format!(
                        "{} has already offered a draw; {} may accept it",
                        by.name(),
                        (!by).name()
                    )));
                }
                Some(_) => st.draw_offer = None,
                None => {
                    st.draw_offer = Some(by);
                    st.notice = Some(format!(
                        "{} offers a draw: {} accepts with Accept draw, or declines by playing on",
                        by.name(),
                        (!by).name()
                    ));
                    st.version += 1;
                    self.save(&st);
                    return Ok(());
                }
            }
        }
        let by = if against_engine { by } else { !by };
        let accepted = !against_engine
            || matches!(st.engine_score, Some(Score::Centipawns(cp)) if cp <= DRAW_ACCEPT_CP)
            || matches!(st.engine_score, Some(Score::Mate(n)) if n < 0);
        let fullmove = st.fullmove();
        st.offers.push(Offer {
            kind: OfferKind::Draw,
            by,
            fullmove,
            accepted,
        });
        if accepted {
            st.ended = Some(Ending::Agreed);
            self.finished(&mut st);
        } else {
            st.notice = Some("magus declines the draw offer".into());
            st.version += 1;
            self.save(&st);
        }
        Ok(())
    }

    /// Asks magus to play the best move it has found now.
    pub fn move_now(&self) -> Result<(), Refusal> {
        let st = self.lock();
        match &st.search {
            Some(s) if s.purpose == Purpose::Move => {
                s.control.stop();
                Ok(())
            }
            _ => Err(Refusal::conflict("magus is not thinking about a move")),
        }
    }

    /// The game ended outside the rules of play: the engine stops, the clocks too.
    fn finished(&self, st: &mut State) {
        st.draw_offer = None;
        if let Some(search) = st.search.take() {
            search.control.stop();
        }
        if let Some(c) = &mut st.clock {
            c.pause(Instant::now());
        }
        st.version += 1;
        self.save(st);
    }

    /// The position changed (or what the engine should do did): the search under way stops,
    /// and the engine starts on what comes next.
    fn changed(&self, st: &mut State) {
        st.epoch += 1;
        st.version += 1;
        st.lines.clear();
        st.notice = None;
        st.outcome = rules_outcome(&st.game);
        if let Some(search) = st.search.take() {
            search.control.stop();
        }
        if st.is_over()
            && let Some(c) = &mut st.clock
        {
            c.pause(Instant::now());
        }
        self.save(st);
        if st.is_over() {
            return;
        }
        if st.engine_to_move() {
            self.start(st, Purpose::Move);
        } else if st.analyses_now() {
            self.start(st, Purpose::Analysis);
        }
    }

    fn start(&self, st: &mut State, purpose: Purpose) {
        let mut slot = self.engine.lock().unwrap_or_else(|e| e.into_inner());
        let engine = slot.get_or_insert_with(|| Engine::with_hash(ENGINE_HASH_MB));
        let bonus = match st.settings.scoring {
            Scoring::Standard => 0,
            Scoring::Magi12 => PAYOFF_STALEMATE_BONUS,
        };
        engine.set_options(|o| o.stalemate_bonus = bonus);
        let mut limits = Limits::default();
        match purpose {
            Purpose::Analysis => {
                strength::configure_for_analysis(engine, st.settings.multipv);
                limits.infinite = true;
            }
            Purpose::Move => {
                let side = st.side();
                match &st.clock {
                    Some(c) => {
                        limits.time_left = Some(c.remaining(side, Instant::now()));
                        limits.increment = c.increment;
                    }
                    None => limits.movetime = Some(st.settings.movetime),
                }
                strength::configure_for_move(engine, st.settings.level);
            }
        }
        st.next_search += 1;
        let id = st.next_search;
        let (me_info, me_done) = (self.me.clone(), self.me.clone());
        let control = engine.go(
            &st.game,
            limits,
            Box::new(move |report: &Report| {
                if let Some(session) = me_info.upgrade() {
                    session.report(id, report);
                }
            }),
            Box::new(move |result: SearchResult| {
                if let Some(session) = me_done.upgrade() {
                    session.done(id, result);
                }
            }),
        );
        st.search = Some(Search {
            id,
            purpose,
            started: Instant::now(),
            control,
        });
    }

    /// A line of progress of search `id` (on the engine's thread).
    fn report(&self, id: u64, report: &Report) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.search.as_ref().map(|s| s.id) != Some(id) || report.multipv == 0 {
            return;
        }
        let pos = *st.game.position();
        let (san, wire) = line_notation(&pos, &report.pv);
        let line = Line {
            multipv: report.multipv,
            depth: report.depth,
            seldepth: report.seldepth,
            score: report.score,
            bound: report.bound,
            nodes: report.nodes,
            time: report.time,
            san,
            wire,
        };
        let i = report.multipv - 1;
        if st.lines.len() <= i {
            st.lines.resize_with(i + 1, || line.clone());
        }
        st.lines[i] = line;
        st.version += 1;
    }

    /// Search `id` ended (on the engine's thread): magus plays its move if the game still
    /// waits for it.
    fn done(&self, id: u64, result: SearchResult) {
        // magus against itself at a low level would play a game faster than anyone can
        // watch: each move takes at least `WATCHABLE_MOVE` (on the engine's own thread,
        // with no lock held).
        let wait = {
            let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
            let both_engines = st.settings.players == [Player::Engine; 2];
            match st.search.as_ref().filter(|s| s.id == id) {
                Some(s) if both_engines && s.purpose == Purpose::Move => {
                    WATCHABLE_MOVE.saturating_sub(s.started.elapsed())
                }
                _ => Duration::ZERO,
            }
        };
        if !wait.is_zero() {
            std::thread::sleep(wait);
        }
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let Some(search) = st.search.as_ref().filter(|s| s.id == id) else {
            return;
        };
        let purpose = search.purpose;
        st.search = None;
        st.version += 1;
        if purpose != Purpose::Move {
            return;
        }
        st.check_time(Instant::now());
        if st.is_over() || !st.engine_to_move() || result.best.is_null() {
            return;
        }
        let legal = st.game.position().legal_moves().contains(&result.best);
        if !legal {
            return;
        }
        st.engine_score = Some(result.score);
        self.apply(&mut st, result.best);
        self.changed(&mut st);
    }
}

/// The side the person plays: the one side that is not magus's, else the side to move.
fn person_side(st: &State) -> Color {
    match st.settings.players {
        [Player::Human, Player::Engine] => Color::White,
        [Player::Engine, Player::Human] => Color::Black,
        _ => st.side(),
    }
}

fn rules_outcome(game: &Game) -> Option<Outcome> {
    with_position!(game.position(), p => outcome(p, game.hashes()))
}

/// A line of moves in SAN and wire notation, cut at the first move that is not legal where
/// it is played (a line from the table may be stale).
pub fn line_notation(start: &AnyPosition, moves: &[Move]) -> (Vec<String>, Vec<String>) {
    let mut pos = *start;
    let mut san = Vec::new();
    let mut wire = Vec::new();
    for &m in moves {
        if !pos.legal_moves().contains(&m) {
            break;
        }
        san.push(pos.san(m));
        wire.push(with_position!(&pos, p => crate::protocol::notation::to_wire(p, m, 1)));
        pos = pos.after(m);
    }
    (san, wire)
}
