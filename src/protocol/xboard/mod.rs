//! The XBoard / WinBoard protocol (CECP version 2), with engine-defined variants: the
//! session. How moves and lines are written is the dialect's (`dialect`), how a variant is
//! described to XBoard the export's (`export`), when the engine resigns or offers a draw in
//! the Magi payoff system the policy's (`policy`), and which squares a piece a person picks up
//! may go to the markers' (`highlight`).
//!
//! Searches run on the engine (`search::engine`), so the session keeps reading commands while
//! it thinks (`?` moves now, `.` reports in analyze mode, `ping` is answered after the move).
//! The search's callback prints the engine's move itself and, when pondering is on, asks at
//! once for the search on the expected reply, whose controls exist before the move is out:
//! a reply that comes at once is a ponder hit, never lost. The session applies the printed
//! moves to its game before it handles the next command. Every search belongs to an epoch;
//! when the session abandons a search (a new position, `force`, another move) it starts a new
//! epoch, and a search of an older one prints nothing.

pub mod dialect;
pub mod export;
pub mod highlight;
pub mod policy;

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use crate::board::{Color, Move, Square};
use crate::game::outcome::outcome;
use crate::game::{AnyPosition, Game};
use crate::protocol::Session;
use crate::protocol::definitions::{self, DefinitionCommands, Dialect};
use crate::protocol::notation::MoveError;
use crate::protocol::uci::{ENGINE_NAME, Output, PAYOFF_STALEMATE_BONUS, max_threads, say};
use crate::search::engine::{Engine, EngineHandle};
use crate::search::strength;
use crate::search::time::Limits;
use crate::search::{Report, Score, SearchControl, SearchResult};
use crate::variant::Registry;
use crate::with_position;
pub use dialect::{
    NORMAL, fen_from_xboard, first_rank, looks_like_move, parse_centiseconds, parse_xboard,
    result_line, thinking_line, to_xboard, xboard_checkable, xboard_name,
};
pub use export::{piece_betza, piece_to_char, variant_definition};
pub use policy::{
    DRAW_ACCEPT_SHARE, DRAW_OFFER_SCORE, expected_share, resign_now, resignation_value,
};

/// How the engine's clock runs.
#[derive(Clone, Copy, Debug)]
struct Clock {
    /// Moves per time control (0: the whole game).
    moves_per_session: u32,
    base: Duration,
    increment: Duration,
    /// Fixed time per move (`st`), if set.
    per_move: Option<Duration>,
    /// Depth limit (`sd`), if set.
    depth: Option<i32>,
    /// The engine's and the opponent's remaining time (`time`, `otim`).
    mine: Duration,
    theirs: Duration,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            moves_per_session: 40,
            base: Duration::from_secs(300),
            increment: Duration::ZERO,
            per_move: None,
            depth: None,
            mine: Duration::from_secs(300),
            theirs: Duration::from_secs(300),
        }
    }
}

/// What the session and the searches' callbacks share.
#[derive(Default)]
struct Turn {
    /// Searches of this epoch may speak; older ones were abandoned.
    epoch: u64,
    /// The controls of the latest search.
    control: Option<Arc<SearchControl>>,
    /// Moves the engine printed that the session has not yet applied to its game.
    played: Vec<Move>,
    /// The engine is pondering on this reply of the opponent.
    pondering_on: Option<Move>,
    /// The engine is thinking on its own move (pongs wait for the move).
    thinking: bool,
    /// `pong` replies held back until the move is out.
    pongs: Vec<u32>,
    /// The latest search report, with the number of legal moves (for `.` and for answering
    /// draw offers).
    last: Option<(Report, usize)>,
    /// The score of the engine's last move, from the engine's side.
    score: Option<Score>,
    /// The reply the engine expects to its last move (for `hint`).
    expected: Option<Move>,
    /// The engine offered a draw or resigned.
    offered_draw: bool,
    resigned: bool,
}

type SharedTurn = Arc<Mutex<Turn>>;

fn lock(turn: &Mutex<Turn>) -> MutexGuard<'_, Turn> {
    turn.lock().unwrap_or_else(|e| e.into_inner())
}

/// A search for the engine's move, and what its callback needs to finish the turn.
#[derive(Clone)]
struct MoveSearch {
    epoch: u64,
    game: Game,
    limits: Limits,
    post: bool,
    ponder: bool,
    payoff: bool,
    may_offer_draw: bool,
    first_rank: u8,
    checkable_only: bool,
    out: Output,
    turn: SharedTurn,
    engine: EngineHandle,
}

/// The state of an XBoard session.
pub struct XboardSession {
    registry: Registry,
    game: Game,
    out: Output,
    engine: Engine,
    turn: SharedTurn,
    /// Skill Level, Limit Strength and Elo as set.
    strength: strength::Setting,
    payoff: bool,
    /// The side the engine plays; `None` in force mode.
    side: Option<Color>,
    analyzing: bool,
    post: bool,
    ponder: bool,
    clock: Clock,
    /// Moves the engine made since `new` or the last `level` (for moves per session).
    engine_moves: u32,
    /// One draw offer per game in the payoff system, by either side.
    draw_offer_made: bool,
    resigned: bool,
    last_score: Option<Score>,
    protover: u32,
    /// Play only moves XBoard can relay (option "Only XBoard moves", on by default).
    checkable_only: bool,
    /// Mark the swap-in for a person (option "Mark swap-ins", off by default: XBoard shows it
    /// only without legality testing).
    mark_swap_ins: bool,
    definitions: DefinitionCommands,
    /// The move a person is entering on XBoard's board (`lift`, `put`).
    entry: Entry,
}

/// A move being entered on XBoard's board: the square picked up, the first-leg squares
/// marked for it, and where the piece was last put down.
#[derive(Default)]
struct Entry {
    from: Option<Square>,
    first_legs: Vec<Square>,
    put: Option<Square>,
}

impl XboardSession {
    pub fn new(registry: Registry, out: Output) -> XboardSession {
        XboardSession {
            game: crate::protocol::game_before_any_command(&registry),
            registry,
            out,
            engine: Engine::new(),
            turn: SharedTurn::default(),
            payoff: false,
            side: Some(Color::Black),
            analyzing: false,
            post: false,
            ponder: false,
            clock: Clock::default(),
            engine_moves: 0,
            draw_offer_made: false,
            resigned: false,
            last_score: None,
            protover: 1,
            checkable_only: true,
            mark_swap_ins: false,
            strength: strength::Setting::default(),
            definitions: DefinitionCommands::new(Dialect::Xboard),
            entry: Entry::default(),
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    fn say(&self, text: &str) {
        say(&self.out, text);
    }

    fn error(&self, kind: &str, command: &str) {
        let command = crate::variant::limits::excerpt(command);
        self.say(&format!("Error ({kind}): {command}"));
    }

    fn first_rank(&self) -> u8 {
        first_rank(self.game.variant().ranks)
    }

    /// Applies the moves the engine printed and takes what it reported: its score, its
    /// offers, the pongs that may go out now.
    fn collect(&mut self) {
        let (played, pongs) = {
            let mut t = lock(&self.turn);
            if std::mem::take(&mut t.offered_draw) {
                self.draw_offer_made = true;
            }
            if std::mem::take(&mut t.resigned) {
                self.resigned = true;
            }
            if let Some(score) = t.score.take() {
                self.last_score = Some(score);
            }
            let pongs = if t.thinking {
                vec![]
            } else {
                std::mem::take(&mut t.pongs)
            };
            (std::mem::take(&mut t.played), pongs)
        };
        for m in played {
            self.apply(m);
            self.engine_moves += 1;
        }
        for n in pongs {
            self.say(&format!("pong {n}"));
        }
    }

    fn apply(&mut self, m: Move) {
        // The move came from the legal moves of this very position.
        let _ = self.game.play(m);
    }

    /// Starts a new epoch (the searches of older ones fall silent) and returns it.
    fn new_epoch(&self, thinking: bool) -> u64 {
        let mut t = lock(&self.turn);
        t.epoch += 1;
        t.thinking = thinking;
        t.pondering_on = None;
        t.control = None;
        t.epoch
    }

    /// Abandons any search: it prints nothing more, and it has ended when this returns.
    fn cancel(&mut self) {
        self.new_epoch(false);
        self.engine.stop();
        self.engine.wait();
        self.collect();
    }

    /// The engine is searching for its own move (not pondering, not analyzing).
    fn thinking(&self) -> bool {
        lock(&self.turn).thinking
    }
}

impl Session for XboardSession {
    const COMMENT: &'static str = "# ";

    fn note_problem(&self, text: &str) {
        self.say(&format!("{}error: {text}", Self::COMMENT));
    }

    fn handle_line(&mut self, line: &str) -> bool {
        let current = &self.game.variant().name;
        let parsed = self
            .definitions
            .command(line, &mut self.registry, &self.out, current);
        // Every line, a blank one too, first takes in what the engine's thread has done.
        self.collect();
        let Some((command, args)) = parsed else {
            return true;
        };
        let line = line.trim();
        // A move entry on the board lasts from `lift` to the move; any other command ends it.
        if !matches!(command, "lift" | "put" | "hover") {
            self.entry = Entry::default();
        }
        match command {
            "quit" => {
                self.cancel();
                return false;
            }
            "help" => self.help(),
            "lift" => self.lift(line, args),
            "put" => self.entry.put = self.square(args),
            // The markers of a capture's victims are not needed: nothing to answer.
            "hover" => {}
            "otim" => self.otim(args),
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "bk" => {}
            "hint" => self.hint(),
            "protover" => self.protover(args),
            "ping" => self.ping(line, args),
            "?" => {
                let t = lock(&self.turn);
                if t.thinking
                    && let Some(control) = &t.control
                {
                    control.stop();
                }
            }
            "." => self.status(),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "easy" => {
                self.ponder = false;
                if lock(&self.turn).pondering_on.is_some() {
                    self.cancel();
                }
            }
            "hard" => self.ponder = true,
            "time" => match parse_centiseconds(args) {
                Some(d) => self.clock.mine = d,
                None => self.error("bad time", line),
            },
            "level" => self.level(line, args),
            "st" => match args.parse::<f64>() {
                Ok(s) if s > 0.0 && s < 1e7 => {
                    self.clock.per_move = Some(Duration::from_secs_f64(s))
                }
                _ => self.error("bad number of seconds", line),
            },
            "sd" => match args.parse::<i32>() {
                Ok(d) if d >= 1 => self.clock.depth = Some(d.min(127)),
                _ => self.error("bad depth", line),
            },
            "memory" => self.memory(line, args),
            "cores" => match args.parse::<usize>() {
                Ok(n) if n >= 1 => {
                    let n = n.min(max_threads());
                    self.engine.set_options(|o| o.threads = n);
                }
                _ => self.error("bad number of cores", line),
            },
            "option" => self.option(line, args),
            "draw" => self.draw_offered(),
            "result" => {
                self.cancel();
                self.side = None;
                self.analyzing = false;
            }
            "exit" => {
                if self.analyzing {
                    self.cancel();
                    self.analyzing = false;
                } else {
                    self.error("command not legal now", line);
                }
            }
            "force" => {
                self.cancel();
                self.side = None;
            }
            "new" => self.new_game(),
            "variant" => self.variant(line, args),
            "setboard" => self.setboard(line, args),
            "usermove" => self.usermove(args),
            "go" => {
                self.cancel();
                self.side = Some(self.side_to_move());
                self.analyzing = false;
                self.start_thinking();
            }
            "playother" => {
                self.cancel();
                self.side = Some(!self.side_to_move());
                self.analyzing = false;
            }
            "analyze" => {
                self.cancel();
                self.side = None;
                self.analyzing = true;
                self.start_analysis();
            }
            "undo" => self.take_back(line, 1),
            "remove" => self.take_back(line, 2),
            "white" | "black" => {
                // Obsolete (colors=0): the side to move, the engine the other.
                self.cancel();
                let side = if command == "white" {
                    Color::White
                } else {
                    Color::Black
                };
                self.side = Some(!side);
            }
            "d" => self.display(),
            _ if looks_like_move(command) && args.is_empty() => self.usermove(command),
            _ => self.error("unknown command", line),
        }
        true
    }
}

impl XboardSession {
    fn side_to_move(&self) -> Color {
        with_position!(self.game.position(), p => p.side())
    }

    fn protover(&mut self, args: &str) {
        self.protover = args.parse().unwrap_or(2);
        let variants: Vec<&str> = self.registry.all().iter().map(|v| xboard_name(v)).collect();
        self.say("feature done=0");
        self.say(&format!(
            "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=1 sigint=0 \
             sigterm=0 reuse=1 analyze=1 colors=0 ics=0 name=0 pause=0 nps=0 debug=1 memory=1 \
             smp=1 exclude=0 setscore=0 highlight=1 myname=\"{ENGINE_NAME}\""
        ));
        self.say(&format!("feature variants=\"{}\"", variants.join(",")));
        self.announce_options();
        self.say("feature done=1");
    }

    fn announce_options(&self) {
        let scoring = if self.payoff {
            "standard /// *magi-12"
        } else {
            "*standard /// magi-12"
        };
        self.say(&format!("feature option=\"Scoring -combo {scoring}\""));
        self.say(&format!(
            "feature option=\"MultiPV -spin {} 1 256\"",
            self.engine.options().multipv
        ));
        self.say(&format!(
            "feature option=\"Move Overhead -spin {} 0 5000\"",
            self.engine.options().move_overhead.as_millis()
        ));
        self.say(&format!(
            "feature option=\"Only XBoard moves -check {}\"",
            self.checkable_only as u8
        ));
        self.say(&format!(
            "feature option=\"Mark swap-ins -check {}\"",
            self.mark_swap_ins as u8
        ));
        self.say(&format!(
            "feature option=\"Skill Level -spin {} 0 {}\"",
            self.strength.level,
            strength::MAX_SKILL as u8
        ));
        self.say(&format!(
            "feature option=\"Limit Strength -check {}\"",
            self.strength.limit_by_elo as u8
        ));
        self.say(&format!(
            "feature option=\"Elo -spin {} {} {}\"",
            self.strength.elo,
            strength::MIN_ELO,
            strength::MAX_ELO
        ));
        self.say(&format!(
            "feature option=\"Evaluation -combo *{}\"",
            super::evaluation::CHOICES.join(" /// ")
        ));
        self.say("feature option=\"EvalFile -file \"");
        self.say("feature option=\"Clear Hash -button\"");
        self.say("feature option=\"VariantPath -path \"");
    }

    fn ping(&mut self, line: &str, args: &str) {
        let Ok(n) = args.parse::<u32>() else {
            return self.error("bad ping number", line);
        };
        // While the engine thinks on its move, the pong follows the move.
        let mut t = lock(&self.turn);
        if t.thinking {
            t.pongs.push(n);
            return;
        }
        drop(t);
        self.say(&format!("pong {n}"));
    }

    /// `hint`: the reply the engine expects to its last move.
    fn hint(&self) {
        let expected = {
            let t = lock(&self.turn);
            t.pondering_on.or(t.expected)
        };
        let Some(m) = expected else { return };
        let pos = *self.game.position();
        let legal = with_position!(&pos, p => p.legal_moves().contains(&m));
        if legal {
            let text =
                with_position!(&pos, p => to_xboard(p, m, first_rank(p.layout().variant.ranks)));
            self.say(&format!("Hint: {text}"));
        }
    }

    /// A square as XBoard names it (ranks from 0 on ten-rank boards).
    fn square(&self, text: &str) -> Option<Square> {
        let text = text.trim().trim_end_matches(',');
        let dims = with_position!(self.game.position(), p => p.layout().dims);
        match dims.parse_prefix_from(text, self.first_rank()) {
            Some((sq, n)) if n == text.len() => Some(sq),
            _ => None,
        }
    }

    /// `lift SQUARE`: a person picked up the piece there (or, after `put` on a first-leg
    /// square, goes on from it). Answered with the squares it may go to, so that XBoard lets
    /// a person enter the moves it does not know (`highlight`).
    fn lift(&mut self, line: &str, args: &str) {
        let Some(sq) = self.square(args) else {
            return self.error("bad square", line);
        };
        let pos = *self.game.position();
        let last_from = self.game.moves().last().map(|m| m.from());
        let second_leg = match self.entry.from {
            Some(from) if self.entry.put == Some(sq) && self.entry.first_legs.contains(&sq) => {
                Some(from)
            }
            _ => None,
        };
        // While the engine thinks on its move nothing may be moved.
        let marks = if self.thinking() {
            highlight::Marks::default()
        } else if let Some(from) = second_leg {
            with_position!(&pos, p => highlight::second_leg_marks(p, from, sq, last_from))
        } else {
            let swap_ins = self.mark_swap_ins;
            with_position!(&pos, p => highlight::lift_marks(p, sq, last_from, swap_ins))
        };
        if second_leg.is_none() {
            self.entry = Entry {
                from: Some(sq),
                first_legs: marks.first_legs(),
                put: None,
            };
        } else {
            self.entry.put = None;
        }
        if let Some(pieces) = &marks.choice {
            self.say(&format!("choice {pieces}"));
        }
        let board = with_position!(&pos, p => highlight::color_fen(p, &marks));
        self.say(&format!("highlight {board}"));
    }

    /// `help`: the commands, as comment lines (for a person typing at a terminal).
    fn help(&self) {
        for line in [
            "magus speaks the XBoard/WinBoard protocol (CECP v2). Commands:",
            "  protover 2                    features and variants",
            "  new | variant NAME | setboard FEN   a game",
            "  usermove MOVE (or MOVE)       a move: e2e4, e7e8q, c1c1m, e3d4,n@c5",
            "  go | force | playother | ?    who moves; ? moves now",
            "  level MPS BASE INC | st SEC | sd DEPTH | time CS | otim CS   the clock",
            "  undo | remove | hint | draw | result R",
            "  analyze (then . and exit) | post | nopost | hard | easy",
            "  option NAME=VALUE | memory MB | cores N | ping N",
            "  d                             the board",
            "  load PATH | check PATH        variant definitions (or <<MARK and lines)",
            "  quit",
            "To play in a terminal instead: magus play --variant NAME (magus play --help).",
        ] {
            self.say(&format!("# {line}"));
        }
    }

    /// `.` in analyze mode: one status line.
    fn status(&self) {
        if !self.analyzing {
            return;
        }
        let t = lock(&self.turn);
        if let Some((r, total)) = &t.last {
            self.say(&format!(
                "stat01: {} {} {} {} {}",
                r.time.as_millis() / 10,
                r.nodes,
                r.depth,
                total,
                total
            ));
        }
    }

    fn otim(&mut self, args: &str) {
        match parse_centiseconds(args) {
            Some(d) => self.clock.theirs = d,
            None => self.error("bad time", &format!("otim {args}")),
        }
    }

    /// `level MPS BASE INC`: BASE in minutes or minutes:seconds, INC in seconds.
    fn level(&mut self, line: &str, args: &str) {
        let words: Vec<&str> = args.split_whitespace().collect();
        if words.len() != 3 {
            return self.error("level needs moves, base and increment", line);
        }
        let mps = words[0].parse::<u32>();
        let base = match words[1].split_once(':') {
            Some((m, s)) => m
                .parse::<u64>()
                .ok()
                .zip(s.parse::<u64>().ok())
                .map(|(m, s)| Duration::from_secs(m * 60 + s)),
            None => words[1]
                .parse::<f64>()
                .ok()
                .filter(|m| *m >= 0.0 && *m < 1e6)
                .map(|m| Duration::from_secs_f64(m * 60.0)),
        };
        let inc = words[2]
            .parse::<f64>()
            .ok()
            .filter(|s| *s >= 0.0 && *s < 1e6)
            .map(Duration::from_secs_f64);
        match (mps, base, inc) {
            (Ok(mps), Some(base), Some(inc)) => {
                self.clock.moves_per_session = mps;
                self.clock.base = base;
                self.clock.increment = inc;
                self.clock.per_move = None;
                self.clock.mine = base;
                self.clock.theirs = base;
                self.engine_moves = 0;
            }
            _ => self.error("bad level", line),
        }
    }

    fn memory(&mut self, line: &str, args: &str) {
        match args.parse::<usize>() {
            Ok(mb) if (1..=65536).contains(&mb) => {
                if mb == self.engine.hash_megabytes() {
                    return;
                }
                self.cancel();
                if let Err(e) = self.engine.set_hash(mb) {
                    self.say(&format!("# memory {mb}: {e}"));
                }
            }
            _ => self.error("bad memory size", line),
        }
    }

    /// `option NAME=VALUE` (or `option NAME` for a button).
    fn option(&mut self, line: &str, args: &str) {
        let (name, value) = match args.split_once('=') {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (args.trim(), ""),
        };
        let number = |min: usize, max: usize| -> Result<usize, String> {
            match value.parse::<usize>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(format!("bad value for {name}")),
            }
        };
        let result: Result<(), String> = match name.to_ascii_lowercase().as_str() {
            "scoring" => match value {
                "standard" => {
                    self.payoff = false;
                    self.engine.set_options(|o| o.stalemate_bonus = 0);
                    Ok(())
                }
                "magi-12" => {
                    self.payoff = true;
                    self.engine
                        .set_options(|o| o.stalemate_bonus = PAYOFF_STALEMATE_BONUS);
                    Ok(())
                }
                _ => Err("Scoring is standard or magi-12".into()),
            },
            "multipv" => number(1, 256).map(|n| self.engine.set_options(|o| o.multipv = n)),
            "skill level" => number(0, strength::MAX_SKILL as usize).map(|n| {
                self.strength.level = n as u8;
                self.apply_strength();
            }),
            "limit strength" => number(0, 1).map(|n| {
                self.strength.limit_by_elo = n == 1;
                self.apply_strength();
            }),
            "elo" => number(strength::MIN_ELO as usize, strength::MAX_ELO as usize).map(|n| {
                self.strength.elo = n as u32;
                self.apply_strength();
            }),
            "only xboard moves" => number(0, 1).map(|n| self.checkable_only = n == 1),
            "mark swap-ins" => number(0, 1).map(|n| self.mark_swap_ins = n == 1),
            "move overhead" => number(0, 5000).map(|n| {
                self.engine
                    .set_options(|o| o.move_overhead = Duration::from_millis(n as u64))
            }),
            "evaluation" => super::evaluation::mode(value)
                .map(|mode| self.engine.set_options(|o| o.eval_mode = mode)),
            "evalfile" => super::evaluation::eval_file(value, &self.game).map(|(net, note)| {
                self.engine.set_options(|o| o.net = net);
                if let Some(note) = note {
                    self.say(&format!("{}{note}", Self::COMMENT));
                }
            }),
            "clear hash" => {
                self.cancel();
                self.engine.clear_hash();
                Ok(())
            }
            "variantpath" => definitions::variant_path(
                Dialect::Xboard,
                value,
                &mut self.registry,
                &self.out,
                &self.game.variant().name,
            ),
            _ => Err("unknown option".into()),
        };
        if let Err(e) = result {
            self.error(&e, line);
        }
    }

    fn apply_strength(&self) {
        let skill = self.strength.skill();
        self.engine.set_options(|o| o.skill = skill);
    }

    fn new_game(&mut self) {
        self.cancel();
        self.engine.new_game();
        let variant = self.registry.get("chess").unwrap_or(self.registry.all()[0]);
        self.game = Game::new(AnyPosition::from_fen(variant, None).expect("start"));
        self.side = Some(Color::Black);
        self.analyzing = false;
        self.clock.depth = None;
        self.clock.mine = self.clock.base;
        self.clock.theirs = self.clock.base;
        self.engine_moves = 0;
        self.draw_offer_made = false;
        self.resigned = false;
        self.last_score = None;
        lock(&self.turn).expected = None;
    }

    fn variant(&mut self, line: &str, args: &str) {
        let name = if args == NORMAL { "chess" } else { args };
        let Some(variant) = self.registry.get(name) else {
            let known: Vec<&str> = self.registry.all().iter().map(|v| xboard_name(v)).collect();
            return self.error(
                &format!("unknown variant; known: {}", known.join(", ")),
                line,
            );
        };
        self.cancel();
        match AnyPosition::from_fen(variant, None) {
            Ok(start) => self.game = Game::new(start),
            Err(e) => return self.error(&e, line),
        }
        for l in variant_definition(variant) {
            self.say(&l);
        }
        let user = self.engine.options().net;
        if let Some(note) = super::evaluation::unfit_net_note(&self.game, user.as_ref()) {
            self.say(&format!("{}{note}", Self::COMMENT));
        }
        if self.analyzing {
            self.start_analysis();
        }
    }

    fn setboard(&mut self, line: &str, fen: &str) {
        let variant = self.game.variant();
        let fen = fen_from_xboard(fen, first_rank(variant.ranks));
        match AnyPosition::from_fen(variant, Some(&fen)) {
            Ok(pos) => {
                self.cancel();
                self.game = Game::new(pos);
                if self.analyzing {
                    self.start_analysis();
                }
            }
            Err(e) => {
                self.error(&format!("bad FEN: {e}; the position is unchanged"), line);
                self.say("tellusererror Illegal position");
            }
        }
    }

    fn usermove(&mut self, text: &str) {
        let text = text.trim();
        if self.thinking() {
            return self.say(&format!("Illegal move (not your turn): {text}"));
        }
        let first = self.first_rank();
        let parsed = with_position!(self.game.position(), p => parse_xboard(p, text, first));
        let m = match parsed {
            Ok(m) => m,
            Err(e) => {
                let reason = match e {
                    MoveError::NotAMove(_) => "not a move",
                    MoveError::Illegal(_) | MoveError::MissingSideEffect(_) => "not legal here",
                };
                return self.say(&format!("Illegal move ({reason}): {text}"));
            }
        };
        // A ponder hit: the search goes on with the clock running.
        let hit = {
            let mut t = lock(&self.turn);
            let hit = t.pondering_on == Some(m);
            if hit {
                if let Some(control) = &t.control {
                    control.ponderhit();
                }
                t.pondering_on = None;
                t.thinking = true;
            }
            hit
        };
        if hit {
            self.apply(m);
            return;
        }
        self.cancel();
        self.apply(m);
        if self.analyzing {
            self.start_analysis();
        } else if self.side == Some(self.side_to_move()) {
            self.start_thinking();
        }
    }

    fn take_back(&mut self, line: &str, plies: usize) {
        self.cancel();
        if self.game.moves().len() < plies {
            return self.error("command not legal now", line);
        }
        for _ in 0..plies {
            self.game.undo();
        }
        if self.analyzing {
            self.start_analysis();
        }
    }

    /// The opponent offers a draw: accepted by `offer draw` when a draw is worth more than
    /// playing on (in the payoff system: 6 of 12 points, and only the game's first offer).
    fn draw_offered(&mut self) {
        if self.payoff {
            if self.draw_offer_made {
                self.say("# draw offer declined: the game's one draw offer was made already");
                return;
            }
            self.draw_offer_made = true;
        }
        let Some(score) = self.last_score else { return };
        if expected_share(score) < DRAW_ACCEPT_SHARE {
            self.say("offer draw");
        }
    }

    /// The search limits for the engine's next move.
    fn limits(&self) -> Limits {
        let mut limits = Limits {
            depth: self.clock.depth,
            ..Limits::default()
        };
        if let Some(t) = self.clock.per_move {
            limits.movetime = Some(t);
        } else {
            limits.time_left = Some(self.clock.mine);
            limits.increment = self.clock.increment;
            if self.clock.moves_per_session > 0 {
                let mps = self.clock.moves_per_session;
                limits.moves_to_go = Some(mps - self.engine_moves % mps);
            }
        }
        limits
    }

    /// The engine is on move: announce the end of a finished game, or think.
    fn start_thinking(&mut self) {
        if self.resigned {
            return;
        }
        let pos = *self.game.position();
        if let Some(o) = with_position!(&pos, p => outcome(p, self.game.hashes())) {
            self.say(&result_line(o));
            return;
        }
        let epoch = self.new_epoch(true);
        let search = MoveSearch {
            epoch,
            game: self.game.clone(),
            limits: self.limits(),
            post: self.post,
            ponder: self.ponder,
            payoff: self.payoff,
            may_offer_draw: self.payoff && !self.draw_offer_made,
            first_rank: self.first_rank(),
            checkable_only: self.checkable_only,
            out: Arc::clone(&self.out),
            turn: Arc::clone(&self.turn),
            engine: self.engine.handle(),
        };
        let mut t = lock(&self.turn);
        t.control = search_move(search);
    }

    /// Analyze mode: search the position until told otherwise, posting every line.
    fn start_analysis(&mut self) {
        self.cancel();
        let epoch = self.new_epoch(false);
        let pos = *self.game.position();
        let total = pos.legal_moves_wire(1).len();
        let first_rank = self.first_rank();
        let (turn, out) = (Arc::clone(&self.turn), Arc::clone(&self.out));
        let control = self.engine.go(
            &self.game,
            Limits {
                infinite: true,
                ..Limits::default()
            },
            Box::new(move |r| {
                let mut t = lock(&turn);
                if t.epoch == epoch {
                    t.last = Some((r.clone(), total));
                    if r.multipv == 1 {
                        say(&out, &thinking_line(&pos, r, first_rank));
                    }
                }
            }),
            Box::new(|_| {}),
        );
        lock(&self.turn).control = Some(control);
    }

    fn display(&self) {
        let pos = *self.game.position();
        for line in crate::diagram::text_board(&pos).lines() {
            self.say(&format!("# {line}"));
        }
        self.say(&format!("# Fen: {}", pos.to_fen()));
    }
}

/// Asks the engine for the search of `search`; its callback finishes the turn. Returns the
/// search's controls (`None` when there is nothing to search or no engine).
fn search_move(mut search: MoveSearch) -> Option<Arc<SearchControl>> {
    let pos = *search.game.position();
    if search.checkable_only {
        // Only the moves XBoard can relay, when there are any.
        let last_from = search.game.moves().last().map(|m| m.from());
        search.limits.searchmoves = with_position!(&pos, p => p
            .legal_moves()
            .into_iter()
            .filter(|&m| xboard_checkable(p, m, last_from))
            .collect());
    }
    let total = pos.legal_moves_wire(1).len();
    let (turn, out) = (Arc::clone(&search.turn), Arc::clone(&search.out));
    let (epoch, post, first_rank) = (search.epoch, search.post, search.first_rank);
    let on_info = Box::new(move |r: &Report| {
        let mut t = lock(&turn);
        if t.epoch != epoch {
            return;
        }
        t.last = Some((r.clone(), total));
        if post && r.multipv == 1 {
            say(&out, &thinking_line(&pos, r, first_rank));
        }
    });
    let engine = search.engine.clone();
    let game = search.game.clone();
    let limits = search.limits.clone();
    engine.go(
        &game,
        limits,
        on_info,
        Box::new(move |result| finish_turn(search, result)),
    )
}

/// The engine's move is found: play it (or resign, offer a draw, announce the result), then
/// ponder on the expected reply. Runs on the engine's thread.
fn finish_turn(search: MoveSearch, result: SearchResult) {
    let out = &search.out;
    let mut t = lock(&search.turn);
    if t.epoch != search.epoch {
        return;
    }
    // A ponder search ends with a move only after a hit.
    if t.pondering_on.is_some() {
        t.pondering_on = None;
        t.thinking = false;
        return;
    }
    let pos = *search.game.position();
    let over = |t: &mut Turn| {
        t.thinking = false;
        flush_pongs(t, out);
    };
    if result.best.is_null() {
        if let Some(o) = with_position!(&pos, p => outcome(p, search.game.hashes())) {
            say(out, &result_line(o));
        }
        return over(&mut t);
    }
    let relayable = with_position!(&pos, p => xboard_checkable(
        p,
        result.best,
        search.game.moves().last().map(|m| m.from())
    ));
    if search.checkable_only && !relayable {
        // Every legal move is one XBoard would refuse (a King in a spell's check can often
        // answer only with a spell): resigning ends the game as a game, not as a hang.
        say(
            out,
            "tellusererror magus has only moves XBoard cannot relay here; it resigns",
        );
        say(out, "resign");
        t.resigned = true;
        return over(&mut t);
    }
    t.score = Some(result.score);
    let number = with_position!(&pos, p => p.fullmove_number()) as u32;
    if search.payoff && resign_now(result.score, number) {
        say(out, "resign");
        t.resigned = true;
        return over(&mut t);
    }
    let mut may_offer_draw = search.may_offer_draw;
    if may_offer_draw && matches!(result.score, Score::Centipawns(cp) if cp <= DRAW_OFFER_SCORE) {
        say(out, "offer draw");
        t.offered_draw = true;
        may_offer_draw = false;
    }
    let text = with_position!(&pos, p => to_xboard(p, result.best, search.first_rank));
    say(out, &format!("move {text}"));
    t.played.push(result.best);
    t.expected = result.ponder;
    let mut game = search.game.clone();
    let _ = game.play(result.best);
    let after = *game.position();
    if let Some(o) = with_position!(&after, p => outcome(p, game.hashes())) {
        say(out, &result_line(o));
        return over(&mut t);
    }
    over(&mut t);
    // Ponder: search the position after the expected reply until it comes (a hit turns the
    // search into the engine's next move) or another move does (the session abandons it).
    let Some(reply) = result.ponder.filter(|_| search.ponder) else {
        return;
    };
    if game.play(reply).is_err() {
        return;
    }
    let next = MoveSearch {
        game,
        limits: Limits {
            ponder: true,
            ..search.limits.clone()
        },
        may_offer_draw,
        ..search.clone()
    };
    t.pondering_on = Some(reply);
    t.control = search_move(next);
}

fn flush_pongs(t: &mut Turn, out: &Output) {
    for n in t.pongs.drain(..) {
        say(out, &format!("pong {n}"));
    }
}
