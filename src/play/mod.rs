//! `magus play`: a person plays a game against the engine in a terminal, typing moves in SAN
//! (the variants' own forms too) or coordinates. The board is drawn after each of the
//! engine's moves; `moves`, `undo`, `hint`, `resign` and `quit` do what they say; every move
//! is saved to a PGN file as it is played. Lines are read from standard input one at a time,
//! so a test or a script can play a game through a pipe (at a fixed level or depth the
//! engine's moves are the same every time).
//!
//! A front end on top of the library: the rules, SAN, the engine, the clock of `tournament`
//! and the PGN writer do the work; this module only talks to the person.

pub mod board;
pub mod input;
pub mod level;
pub mod record;

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::board::{Color, Move};
use crate::game::outcome::{Outcome, outcome};
use crate::game::{AnyPosition, Game};
use crate::pgn::{PgnGame, PgnMove};
use crate::search::engine::Engine;
use crate::search::time::Limits;
use crate::tournament::clock::{Clock, Limit};
use crate::variant::Registry;
use crate::with_position;
use input::Input;
pub use level::apply_level;

/// The side a person plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    White,
    Black,
    /// Drawn by lot.
    Random,
}

#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    /// The variant (see `magus variants`).
    #[arg(long, default_value = "chess")]
    pub variant: String,
    /// The side you play.
    #[arg(long, value_enum, default_value_t = Side::White)]
    pub color: Side,
    /// A clock for both sides: minutes, then the seconds added after each move (`5+3`,
    /// `15+10`, `0:30+1` for half a minute, `40/90+30` for 90 minutes per 40 moves).
    #[arg(long, conflicts_with_all = ["level", "depth"])]
    pub tc: Option<String>,
    /// The engine's strength: its skill level from 0 (weakest) to 20 (full strength; default 8),
    /// as UCI's `Skill Level`.
    #[arg(long, conflicts_with = "depth")]
    pub level: Option<u8>,
    /// The engine searches this many plies a move (one thread: the same moves every time).
    #[arg(long)]
    pub depth: Option<i32>,
    /// Start from this position instead of the variant's start.
    #[arg(long)]
    pub fen: Option<String>,
    /// Where to save the game (added after any games the file holds). Default:
    /// magus-VARIANT-DATE-TIME.pgn in the current folder.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
}

/// How the engine's thinking is limited.
#[derive(Clone, Copy, Debug)]
enum Control {
    Level(u8),
    Depth(i32),
    Clock(Limit),
}

/// Reads `--tc`: minutes as people say it (`5+3` is five minutes and three seconds a move),
/// `m:ss` for parts of a minute, and `moves/` for periods, as `magus match` reads them
/// otherwise.
pub fn parse_tc(text: &str) -> Result<Limit, String> {
    let text = text.trim();
    let (moves, rest) = match text.split_once('/') {
        Some((m, rest)) => (Some(m), rest),
        None => (None, text),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (rest, None),
    };
    // `magus match` reads seconds: minutes become seconds here, `m:ss` stays as it is.
    let base_seconds = if base.contains(':') {
        base.to_string()
    } else {
        let minutes: f64 = base
            .parse()
            .map_err(|_| format!("'{base}' is not a number of minutes"))?;
        if !minutes.is_finite() || !(0.0..=100_000.0).contains(&minutes) {
            return Err(format!("'{base}' is not a number of minutes"));
        }
        format!("{}", minutes * 60.0)
    };
    let mut seconds_form = String::new();
    if let Some(m) = moves {
        seconds_form += &format!("{m}/");
    }
    seconds_form += &base_seconds;
    if let Some(i) = inc {
        seconds_form += &format!("+{i}");
    }
    Limit::parse_tc(&seconds_form)
}

/// A game's settings, checked.
struct Setup {
    start: AnyPosition,
    human: Color,
    control: Control,
    pgn: PathBuf,
    hash: usize,
    fen_given: bool,
}

fn setup(args: &PlayArgs, registry: &Registry) -> Result<Setup, String> {
    let variant = registry
        .find(&args.variant)
        .map_err(|e| format!("--variant: {e}"))?;
    let start = AnyPosition::from_fen(variant, args.fen.as_deref())
        .map_err(|e| format!("--fen '{}': {e}", args.fen.as_deref().unwrap_or_default()))?;
    let control = if let Some(tc) = &args.tc {
        Control::Clock(parse_tc(tc).map_err(|e| format!("--tc '{tc}': {e}"))?)
    } else if let Some(d) = args.depth {
        if !(1..=64).contains(&d) {
            return Err(format!("--depth: {d} is not from 1 to 64"));
        }
        Control::Depth(d)
    } else {
        let level = args.level.unwrap_or(level::DEFAULT_LEVEL);
        Control::Level(level::check_level(level).map_err(|e| format!("--level: {e}"))?)
    };
    if !(1..=65536).contains(&args.hash) {
        return Err(format!("--hash: {} is not from 1 to 65536", args.hash));
    }
    let human = match args.color {
        Side::White => Color::White,
        Side::Black => Color::Black,
        Side::Random => {
            if rand::random::<bool>() {
                Color::White
            } else {
                Color::Black
            }
        }
    };
    let pgn = args
        .pgn
        .clone()
        .unwrap_or_else(|| record::default_path(&variant.name));
    Ok(Setup {
        start,
        human,
        control,
        pgn,
        hash: args.hash,
        fen_given: args.fen.is_some(),
    })
}

/// How a game stopped.
#[derive(Clone, Debug, PartialEq)]
enum Ending {
    /// By the rules: mate, stalemate, a draw.
    Rule(Outcome),
    Resigned(Color),
    OnTime(Color),
    /// The person stopped (`quit`, end of input) or the output closed: unfinished.
    Left(&'static str),
}

/// The PGN result of a side's win.
fn win(c: Color) -> &'static str {
    match c {
        Color::White => "1-0",
        Color::Black => "0-1",
    }
}

impl Ending {
    fn result(&self) -> &'static str {
        match self {
            Ending::Rule(Outcome::Win(c, _)) => win(*c),
            Ending::Rule(Outcome::Draw(_)) => "1/2-1/2",
            Ending::Resigned(c) | Ending::OnTime(c) => win(!*c),
            Ending::Left(_) => "*",
        }
    }

    fn describe(&self) -> String {
        match self {
            Ending::Rule(Outcome::Win(c, crate::game::outcome::Reason::Checkmate)) => {
                format!("{} mates", c.name())
            }
            Ending::Rule(Outcome::Win(c, reason)) => {
                format!("{} wins by {}", c.name(), reason.describe())
            }
            Ending::Rule(Outcome::Draw(reason)) => format!("draw by {}", reason.describe()),
            Ending::Resigned(c) => format!("{} resigns", c.name()),
            Ending::OnTime(c) => format!("{} loses on time", c.name()),
            Ending::Left(why) => format!("game left unfinished ({why})"),
        }
    }

    fn termination(&self) -> &'static str {
        match self {
            Ending::OnTime(_) => "time forfeit",
            Ending::Left(_) => "unterminated",
            _ => "normal",
        }
    }
}

/// A game between a person and the engine.
struct Play {
    setup: Setup,
    game: Game,
    engine: Engine,
    clocks: [Clock; 2],
    /// The clocks before each move, for taking moves back.
    clock_history: Vec<[Clock; 2]>,
    pgn: record::PgnFile,
    /// The PGN file could not be written (said once).
    save_failed: bool,
    names: [String; 2],
}

/// A write to the person failed: the terminal or pipe is gone.
struct Closed;

impl From<std::io::Error> for Closed {
    fn from(_: std::io::Error) -> Closed {
        Closed
    }
}

type Shown = Result<(), Closed>;

impl Play {
    fn new(setup: Setup) -> Result<Play, String> {
        let engine = Engine::with_hash(1);
        engine
            .set_hash(setup.hash)
            .map_err(|e| format!("--hash: {e}"))?;
        let strength = match setup.control {
            Control::Level(l) => format!("level {l}"),
            Control::Depth(d) => format!("depth {d}"),
            Control::Clock(limit) => limit.pgn_tag(),
        };
        let engine_name = format!("{} ({strength})", crate::protocol::uci::ENGINE_NAME);
        let person = std::env::var("USER")
            .or_else(|_| std::env::var("USERNAME"))
            .ok()
            .filter(|n| !n.trim().is_empty() && !n.contains(['"', '\n']))
            .unwrap_or_else(|| "Player".into());
        let mut names = [person, engine_name];
        if setup.human == Color::Black {
            names.swap(0, 1);
        }
        let limit = match setup.control {
            Control::Clock(l) => l,
            _ => Limit::Depth(1),
        };
        Ok(Play {
            game: Game::new(setup.start),
            engine,
            clocks: [Clock::new(&limit), Clock::new(&limit)],
            clock_history: Vec::new(),
            pgn: record::PgnFile::new(setup.pgn.clone()),
            save_failed: false,
            names,
            setup,
        })
    }

    fn side_to_move(&self) -> Color {
        with_position!(self.game.position(), p => p.side())
    }

    fn limit(&self) -> Option<Limit> {
        match self.setup.control {
            Control::Clock(l) => Some(l),
            _ => None,
        }
    }

    /// The game so far as PGN.
    fn pgn_game(&self, ending: Option<&Ending>) -> PgnGame {
        let mut g = PgnGame::default();
        let variant = self.game.variant();
        g.set_tag("Event", "magus play");
        g.set_tag("Site", "?");
        g.set_tag("Date", crate::tournament::report::pgn_date());
        g.set_tag("Round", "-");
        g.set_tag("White", self.names[0].clone());
        g.set_tag("Black", self.names[1].clone());
        let result = ending.map_or("*", Ending::result);
        g.set_tag("Result", result);
        if variant.name != "chess" {
            g.set_tag("Variant", variant.name.clone());
        }
        if self.setup.fen_given {
            g.set_tag("SetUp", "1");
            g.set_tag("FEN", self.game.start().to_fen());
        }
        g.set_tag(
            "TimeControl",
            self.limit().map_or("-".to_string(), |l| l.pgn_tag()),
        );
        if let Some(e) = ending {
            g.set_tag("Termination", e.termination());
        }
        g.set_tag("PlyCount", self.game.moves().len().to_string());
        g.moves = self
            .game
            .start()
            .line_san(self.game.moves())
            .into_iter()
            .map(|san| PgnMove { san, comment: None })
            .collect();
        g.final_comment = ending.map(Ending::describe);
        g.result = result.to_string();
        g
    }

    /// Saves the game; a file that cannot be written is reported once, on stderr, and the
    /// game goes on.
    fn save(&mut self, ending: Option<&Ending>) -> bool {
        // A game without a move is worth saving only if it ended (a resignation); one whose
        // moves were all taken back leaves the file as it was.
        if self.game.moves().is_empty() && matches!(ending, None | Some(Ending::Left(_))) {
            if let Err(e) = self.pgn.clear() {
                eprintln!("error: cannot save the game: {e}");
            }
            return false;
        }
        let game = self.pgn_game(ending);
        match self.pgn.write(&game) {
            Ok(()) => true,
            Err(e) => {
                if !self.save_failed {
                    eprintln!("error: cannot save the game: {e}");
                    self.save_failed = true;
                }
                false
            }
        }
    }

    /// `12.` or `12...` and the SAN of a move of the current position.
    fn numbered(&self, m: Move) -> String {
        let pos = self.game.position();
        let (number, side) = with_position!(pos, p => (p.fullmove_number(), p.side()));
        let dots = if side == Color::White { "." } else { "..." };
        format!("{number}{dots} {}", pos.san(m))
    }

    fn clock_text(&self) -> Option<String> {
        self.limit()?;
        let show = |c: &Clock| {
            let s = c.left.as_secs();
            format!("{}:{:02}", s / 60, s % 60)
        };
        Some(format!(
            "Clock: White {}  Black {}",
            show(&self.clocks[0]),
            show(&self.clocks[1])
        ))
    }

    fn show_board(&self, out: &mut dyn Write) -> Shown {
        let pos = self.game.position();
        let last = self.game.moves().last().copied();
        write!(out, "{}", board::render(pos, last, self.setup.human))?;
        if let Some(r) = board::reserves(pos) {
            writeln!(out, "Reserves: {r}")?;
        }
        if let Some(c) = self.clock_text() {
            writeln!(out, "{c}")?;
        }
        Ok(())
    }

    /// The legal moves in SAN (of the piece on `square`, if given), a line of them at a time.
    fn show_moves(&self, out: &mut dyn Write, square: Option<&str>) -> Shown {
        let pos = *self.game.position();
        let dims = with_position!(&pos, p => p.layout().dims);
        let from = match square {
            Some(text) => match dims.parse_square(text) {
                Some(sq) => Some(sq),
                None => {
                    writeln!(out, "'{text}' is not a square of this board")?;
                    return Ok(());
                }
            },
            None => None,
        };
        let legal = with_position!(&pos, p => p.legal_moves().to_vec());
        let mut moves: Vec<String> = legal
            .iter()
            .filter(|m| from.is_none_or(|sq| m.from() == sq))
            .map(|&m| pos.san(m))
            .collect();
        moves.sort();
        if moves.is_empty() {
            return Ok(writeln!(out, "No legal moves there.")?);
        }
        writeln!(out, "{} legal moves:", moves.len())?;
        let mut line = String::new();
        for m in moves {
            if !line.is_empty() && line.len() + m.len() + 3 > 78 {
                writeln!(out, " {line}")?;
                line.clear();
            }
            line += &format!("  {m}");
        }
        writeln!(out, " {line}")?;
        Ok(())
    }

    /// Why a typed move is not played, and what is legal near it.
    fn explain_refusal(&self, out: &mut dyn Write, text: &str, error: &str) -> Shown {
        writeln!(out, "Not played: {error}.")?;
        let pos = *self.game.position();
        let dims = with_position!(&pos, p => p.layout().dims);
        // The last square named: the moves that go there are the likely meaning.
        let squares: Vec<_> = (0..text.len())
            .filter_map(|i| {
                text.get(i..)
                    .and_then(|t| dims.parse_prefix(t))
                    .map(|(sq, n)| (i + n, sq))
            })
            .collect();
        let target = squares
            .iter()
            .max_by_key(|(end, _)| *end)
            .map(|(_, sq)| *sq);
        if let Some(to) = target {
            let legal = with_position!(&pos, p => p.legal_moves().to_vec());
            let mut there: Vec<String> = legal
                .iter()
                .filter(|m| m.to() == to)
                .map(|&m| pos.san(m))
                .collect();
            there.sort();
            if !there.is_empty() {
                writeln!(out, "Legal moves to {}: {}", dims.name(to), there.join(" "))?;
            }
        }
        writeln!(
            out,
            "Type 'moves' for every legal move, 'help' for the commands."
        )?;
        Ok(())
    }

    /// Plays a move, keeping the clocks for a take-back.
    fn play(&mut self, m: Move) {
        self.clock_history.push(self.clocks);
        // The move came from the position's legal moves.
        let _ = self.game.play(m);
    }

    /// Takes back the person's last move and the engine's reply (or the person's move alone
    /// when the engine had not answered it).
    fn undo(&mut self, out: &mut dyn Write) -> Shown {
        let plies = if self.side_to_move() == self.setup.human {
            2
        } else {
            1
        };
        if self.game.moves().len() < plies {
            writeln!(out, "No move of yours to take back.")?;
            return Ok(());
        }
        for _ in 0..plies {
            self.game.undo();
            if let Some(c) = self.clock_history.pop() {
                self.clocks = c;
            }
        }
        writeln!(out, "Taken back.")?;
        self.save(None);
        self.show_board(out)
    }

    /// The limits of the engine's next move (or of a hint, for the person's side).
    fn limits(&self, side: Color) -> Limits {
        match self.setup.control {
            Control::Level(l) => apply_level(&self.engine, l),
            Control::Depth(d) => {
                self.engine.set_options(|o| o.threads = 1);
                Limits::depth(d)
            }
            Control::Clock(limit) => {
                let (inc, clock) = match limit {
                    Limit::Clock { inc, .. } => (inc, &self.clocks[side.index()]),
                    _ => (Duration::ZERO, &self.clocks[side.index()]),
                };
                Limits {
                    time_left: Some(clock.left),
                    increment: inc,
                    moves_to_go: clock.moves_to_go(&limit),
                    ..Limits::default()
                }
            }
        }
    }

    /// Charges a side's clock; `false` if its flag fell.
    fn charge(&mut self, side: Color, used: Duration) -> bool {
        match self.limit() {
            Some(limit) => self.clocks[side.index()].charge(&limit, used, Duration::ZERO),
            None => true,
        }
    }

    /// The game is over by the rules.
    fn over(&self) -> Option<Outcome> {
        with_position!(self.game.position(), p => outcome(p, self.game.hashes()))
    }

    fn engine_move(&mut self, out: &mut dyn Write) -> Result<Option<Ending>, Closed> {
        let side = self.side_to_move();
        writeln!(out, "magus is thinking...")?;
        out.flush()?;
        let limits = self.limits(side);
        let started = Instant::now();
        let result = self.engine.search(&self.game, limits, Box::new(|_| {}));
        if !self.charge(side, started.elapsed()) {
            return Ok(Some(Ending::OnTime(side)));
        }
        if result.best.is_null() {
            // Only a finished game has no move, and that was checked before.
            return Ok(Some(Ending::Left("the engine found no move")));
        }
        let text = self.numbered(result.best);
        self.play(result.best);
        self.save(None);
        writeln!(out)?;
        writeln!(out, "magus plays {text}")?;
        self.show_board(out)?;
        Ok(None)
    }

    /// Reads the person's input until a move is played or the game stops.
    fn person_move(
        &mut self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> Result<Option<Ending>, Closed> {
        let side = self.side_to_move();
        let started = Instant::now();
        loop {
            let number = with_position!(self.game.position(), p => p.fullmove_number());
            let dots = if side == Color::White { "." } else { "..." };
            let check = if self.game.position().in_check() {
                " (check)"
            } else {
                ""
            };
            write!(out, "{} to move{check}, {number}{dots} > ", side.name())?;
            out.flush()?;
            let mut bytes = Vec::new();
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => {
                    writeln!(out)?;
                    return Ok(Some(Ending::Left("end of input")));
                }
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&bytes).into_owned();
            match input::read(&line) {
                Input::Empty => {}
                Input::Help => {
                    for l in input::HELP {
                        writeln!(out, "{l}")?;
                    }
                }
                Input::Moves(square) => self.show_moves(out, square.as_deref())?,
                Input::Board => self.show_board(out)?,
                Input::Fen => writeln!(out, "{}", self.game.position().to_fen())?,
                Input::Undo => self.undo(out)?,
                Input::Hint => {
                    let limits = self.limits(side);
                    let best = self
                        .engine
                        .search(&self.game, limits, Box::new(|_| {}))
                        .best;
                    if best.is_null() {
                        writeln!(out, "No hint.")?;
                    } else {
                        writeln!(out, "Hint: {}", self.game.position().san(best))?;
                    }
                }
                Input::Resign => return Ok(Some(Ending::Resigned(side))),
                Input::Quit => return Ok(Some(Ending::Left("quit"))),
                Input::Move(text) => match self.game.position().after_san(&text) {
                    Ok((_, m)) => {
                        if !self.charge(side, started.elapsed()) {
                            return Ok(Some(Ending::OnTime(side)));
                        }
                        let shown = self.numbered(m);
                        self.play(m);
                        self.save(None);
                        writeln!(out, "You play {shown}")?;
                        return Ok(None);
                    }
                    Err(e) => self.explain_refusal(out, &text, &e)?,
                },
            }
        }
    }

    /// Plays until the game ends or the person stops.
    fn game_loop(
        &mut self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> Result<Ending, Closed> {
        let variant = self.game.variant();
        writeln!(
            out,
            "{} — {} ({}x{}). You play {} against {}.",
            crate::protocol::uci::ENGINE_NAME,
            variant.title,
            variant.files,
            variant.ranks,
            self.setup.human.name(),
            self.names[if self.setup.human == Color::White {
                1
            } else {
                0
            }],
        )?;
        writeln!(
            out,
            "Moves in SAN (e4, Nf3, O-O, and the variant's own: Bc1=M, e6 Md2=T, Ke4/N@c5) or \
             coordinates (e2e4); 'help' for the commands."
        )?;
        writeln!(out, "The game is saved to {}.", self.pgn.path().display())?;
        self.show_board(out)?;
        loop {
            if let Some(o) = self.over() {
                return Ok(Ending::Rule(o));
            }
            let ending = if self.side_to_move() == self.setup.human {
                self.person_move(input, out)?
            } else {
                self.engine_move(out)?
            };
            if let Some(e) = ending {
                return Ok(e);
            }
        }
    }
}

/// Plays a game; reads the person's lines from `input`, writes to `out`. A closed output ends
/// the game quietly (saved unfinished). Errors are for settings that cannot be played.
pub fn run(
    args: &PlayArgs,
    registry: &Registry,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), String> {
    let setup = setup(args, registry)?;
    let mut play = Play::new(setup)?;
    let ending = play
        .game_loop(input, out)
        .unwrap_or(Ending::Left("the output was closed"));
    let saved = play.save(Some(&ending));
    // The output may be gone: what is left to say goes nowhere then.
    let _ = (|| -> Shown {
        writeln!(out, "{} {}", ending.result(), ending.describe())?;
        if saved {
            writeln!(out, "Game saved to {}.", play.pgn.path().display())?;
        } else if play.game.moves().is_empty() {
            writeln!(out, "No move was played; nothing saved.")?;
        }
        out.flush()?;
        Ok(())
    })();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tc_reads_minutes_then_seconds() {
        let secs = Duration::from_secs;
        assert_eq!(
            parse_tc("5+3"),
            Ok(Limit::Clock {
                moves: None,
                base: secs(300),
                inc: secs(3)
            })
        );
        assert_eq!(
            parse_tc("0:30+1"),
            Ok(Limit::Clock {
                moves: None,
                base: secs(30),
                inc: secs(1)
            })
        );
        assert_eq!(
            parse_tc("40/90+30"),
            Ok(Limit::Clock {
                moves: Some(40),
                base: secs(5400),
                inc: secs(30)
            })
        );
        assert_eq!(
            parse_tc("1.5"),
            Ok(Limit::Clock {
                moves: None,
                base: secs(90),
                inc: Duration::ZERO
            })
        );
        for bad in ["fast", "5+x", "-1+2", "0+0", "inf", "0/5"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }
}
