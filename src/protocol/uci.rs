//! The UCI protocol. vampirc-uci parses the fixed-form commands (`uci`, `isready`,
//! `setoption`, `ucinewgame`, `stop`, `ponderhit`, `quit`); `position` and `go` are read by
//! the engine's own code, because they carry moves (`searchmoves`, `moves`) that vampirc-uci
//! only knows on 8x8 boards.
//!
//! Searches run on the engine (`search::engine`), which prints `info` and `bestmove` through
//! the callbacks given with each `go`: `stop`, `ponderhit` and `isready` are answered while
//! it thinks. Every `go` is answered by a `bestmove`, a refused one too (after its error).
//! Every command takes effect before the next line is read, during a search too (the search
//! owns a copy of what it searches, and options reach the searches asked for afterwards), so
//! a `readyok` always follows what was sent before it. `go perft` and `bench` run beside the
//! input loop and end on `stop` or `quit`; at the end of the input they finish first.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use vampirc_uci::UciMessage;

use crate::eval::TermSet;
use crate::eval::wdl::{self, WdlModel};
use crate::game::{AnyPosition, Game};
use crate::protocol::Session;
use crate::protocol::definitions::{self, DefinitionCommands, Dialect};
use crate::protocol::notation;
use crate::search::engine::Engine;
use crate::search::strength;
use crate::search::time::Limits;
use crate::search::{Pruning, Report, Score};
use crate::variant::Registry;
use crate::variant::limits::excerpt;
use crate::with_position;

pub const ENGINE_NAME: &str = concat!("magus ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the magus developers";

/// An untimed `go mate N` searches this many plies beyond 2N + 1 (the mate's own 2N − 1 and
/// two more): a selective search reduces quiet mating moves and sees a short mate a few plies
/// deeper than its distance. The search still stops as soon as it finds a mate in N or less.
const MATE_SEARCH_SLACK: i32 = 6;

/// Where the engine's lines go; shared with the search thread.
pub type Output = Arc<Mutex<dyn Write + Send>>;

pub fn say(out: &Output, text: &str) {
    // A closed output means the GUI is gone: there is nobody left to tell.
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

/// The most threads `Threads` accepts: twice the machine's cores.
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get()) * 2
}

/// The 12-point payoff of Magi values a stalemate 7–5 (a draw is 6–6): the search scores
/// giving stalemate this much above a draw.
pub const PAYOFF_STALEMATE_BONUS: i32 = 150;

/// The check options that turn one part of the selective search off (for measuring it in
/// games), each with the switch it sets.
type PruningSwitch = fn(&mut Pruning) -> &mut bool;
const PRUNING_OPTIONS: [(&str, PruningSwitch); 14] = [
    ("Null Move Pruning", |p| &mut p.null_move),
    ("Late Move Reductions", |p| &mut p.reductions),
    ("Futility Pruning", |p| &mut p.futility),
    ("Late Move Pruning", |p| &mut p.move_count),
    ("Losing Capture Pruning", |p| &mut p.losing_captures),
    ("History Pruning", |p| &mut p.history_pruning),
    ("Singular Extensions", |p| &mut p.singular),
    ("ProbCut", |p| &mut p.probcut),
    ("Razoring", |p| &mut p.razoring),
    ("Internal Iterative Reductions", |p| &mut p.iir),
    ("Correction History", |p| &mut p.correction),
    ("Quiescence Checks", |p| &mut p.quiet_checks),
    ("Null Move Full Ply", |p| &mut p.null_move_full_ply),
    ("Narrow Pruning", |p| &mut p.narrow),
];

/// The value of a check option.
fn flag(value: &str, name: &str) -> Result<bool, String> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("option '{name}': '{value}' is not true or false")),
    }
}

/// A long command (`go perft`, `bench`) running beside the input loop.
struct Task {
    cancel: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// The deepest `go perft` accepted: deeper ones would not end in reasonable time.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// The state of a UCI session: known variants, the current game, options and the engine.
pub struct UciSession {
    registry: Registry,
    game: Game,
    out: Output,
    engine: Engine,
    task: Option<Task>,
    definitions: DefinitionCommands,
    /// Skill Level, UCI_LimitStrength and UCI_Elo as set.
    strength: strength::Setting,
    /// UCI_ShowWDL: info lines carry win, draw and loss chances.
    show_wdl: bool,
}

impl UciSession {
    pub fn new(registry: Registry, out: Output) -> UciSession {
        UciSession {
            game: super::game_before_any_command(&registry),
            registry,
            out,
            engine: Engine::new(),
            task: None,
            definitions: DefinitionCommands::new(Dialect::Uci),
            strength: strength::Setting::default(),
            show_wdl: false,
        }
    }

    fn say(&self, text: &str) {
        say(&self.out, text);
    }

    fn error(&self, text: &str) {
        // What an error quotes is cut short: a GUI's runaway line never comes back whole.
        let text = super::input::shown(text);
        self.say(&format!("info string error: {text}"));
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The size of the hash table in use.
    pub fn hash_megabytes(&self) -> usize {
        self.engine.hash_megabytes()
    }

    /// A search or a long command is under way.
    fn busy(&mut self) -> bool {
        if self.task.as_ref().is_some_and(|t| t.handle.is_finished())
            && let Some(task) = self.task.take()
        {
            let _ = task.handle.join();
        }
        self.task.is_some() || self.engine.is_searching()
    }

    /// Stops the search and any long command and waits for them to answer.
    fn stop_all(&mut self) {
        self.engine.stop();
        if let Some(task) = self.task.take() {
            task.cancel.store(true, Ordering::Relaxed);
            let _ = task.handle.join();
        }
        self.engine.wait();
    }
}

impl Session for UciSession {
    const COMMENT: &'static str = "";

    fn end_of_input(&mut self) {
        // A script's `go perft 6` or `bench` piped in ends with the input: it is answered in
        // full, as Stockfish does; `quit` and `stop` still cut it short.
        if let Some(task) = self.task.take() {
            let _ = task.handle.join();
        }
        self.handle_line("quit");
    }

    fn note_problem(&self, text: &str) {
        self.error(text);
    }

    fn handle_line(&mut self, line: &str) -> bool {
        let current = &self.game.variant().name;
        let Some((first, rest)) =
            self.definitions
                .command(line, &mut self.registry, &self.out, current)
        else {
            return true;
        };
        let line = line.trim();
        let busy = self.busy();
        match first {
            "isready" => self.say("readyok"),
            "stop" => self.stop_all(),
            "ponderhit" => self.engine.ponderhit(),
            "quit" => {
                self.stop_all();
                return false;
            }
            "position" => self.position(rest),
            "go" => {
                if busy {
                    // A new search while one runs: the old one answers first.
                    self.stop_all();
                }
                self.go(rest);
            }
            "d" => self.display(),
            "eval" => self.eval(),
            "help" => self.help(),
            "bench" => {
                if busy {
                    self.stop_all();
                }
                self.bench(rest);
            }
            // vampirc-uci reads the fixed-form commands only: on others (`GO depth 300`, an
            // engine's `info depth 300`) it panics on numbers out of its range.
            "uci" | "ucinewgame" | "setoption" | "debug" | "register" => {
                match vampirc_uci::parse_one(line) {
                    UciMessage::Uci => self.uci(),
                    UciMessage::UciNewGame => {
                        self.engine.new_game();
                        self.game = Game::new(
                            AnyPosition::from_fen(self.game.variant(), None).expect("start"),
                        );
                    }
                    UciMessage::SetOption { name, value } => {
                        self.set_option(&name, value.as_deref())
                    }
                    UciMessage::Debug(_) | UciMessage::Register { .. } => {}
                    _ => self.error(&format!("unknown command '{}'", excerpt(line))),
                }
            }
            _ => self.error(&format!("unknown command '{}'", excerpt(line))),
        }
        true
    }
}

impl UciSession {
    fn uci(&self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say(&format!("id author {ENGINE_AUTHOR}"));
        self.say("option name Hash type spin default 16 min 1 max 65536");
        self.say(&format!(
            "option name Threads type spin default 1 min 1 max {}",
            max_threads()
        ));
        self.say("option name MultiPV type spin default 1 min 1 max 256");
        self.say("option name Ponder type check default false");
        self.say("option name Move Overhead type spin default 30 min 0 max 5000");
        self.say("option name Clear Hash type button");
        self.say(&format!(
            "option name Skill Level type spin default {} min 0 max {}",
            strength::MAX_SKILL as u8,
            strength::MAX_SKILL as u8
        ));
        self.say("option name UCI_LimitStrength type check default false");
        self.say("option name UCI_ShowWDL type check default false");
        self.say(&format!(
            "option name UCI_Elo type spin default {} min {} max {}",
            strength::DEFAULT_ELO,
            strength::MIN_ELO,
            strength::MAX_ELO
        ));
        let vars: String = self
            .registry
            .names()
            .iter()
            .map(|n| format!(" var {n}"))
            .collect();
        let current = &self.game.variant().name;
        self.say(&format!(
            "option name UCI_Variant type combo default {current}{vars}"
        ));
        self.say("option name VariantPath type string default <empty>");
        self.say("option name Scoring type combo default standard var standard var magi-12");
        let choices: String = super::evaluation::CHOICES
            .iter()
            .map(|c| format!(" var {c}"))
            .collect();
        self.say(&format!(
            "option name Evaluation type combo default {}{choices}",
            super::evaluation::CHOICES[0]
        ));
        self.say("option name EvalFile type string default <empty>");
        let mut defaults = Pruning::default();
        for (name, switch) in PRUNING_OPTIONS {
            let on = *switch(&mut defaults);
            self.say(&format!("option name {name} type check default {on}"));
        }
        for (_, name) in TermSet::SWITCHES {
            self.say(&format!("option name {name} type check default true"));
        }
        self.say("uciok");
    }

    /// `help`: the commands, for a person typing at a terminal (GUIs never send it).
    fn help(&self) {
        for line in [
            "magus speaks UCI. Commands:",
            "  uci                        name, author and options, then uciok",
            "  isready                    readyok",
            "  setoption name N value V   e.g. UCI_Variant (see uci), Hash, Threads, MultiPV",
            "  ucinewgame                 a new game",
            "  position startpos|fen FEN [moves M1 M2 ...]",
            "  go [depth D|nodes N|movetime MS|wtime MS btime MS ...|infinite|perft D]",
            "  stop | ponderhit | quit",
            "  d | eval | bench [DEPTH [THREADS]]   board, evaluation, benchmark",
            "  load PATH | check PATH     variant definitions (or <<MARK and lines)",
            "Started as plain `magus`, a first command `xboard` speaks XBoard instead.",
            "To play in a terminal: magus play --variant NAME (magus play --help).",
        ] {
            self.say(line);
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let name = name.trim();
        let value = value.unwrap_or("").trim();
        let number = |min: usize, max: usize| -> Result<usize, String> {
            match value.parse::<usize>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(format!(
                    "option '{name}': '{value}' is not a number from {min} to {max}"
                )),
            }
        };
        let result: Result<(), String> = match name.trim().to_ascii_lowercase().as_str() {
            "hash" => number(1, 65536).and_then(|mb| self.engine.set_hash(mb)),
            "threads" => {
                number(1, max_threads()).map(|n| self.engine.set_options(|o| o.threads = n))
            }
            "multipv" => number(1, 256).map(|n| self.engine.set_options(|o| o.multipv = n)),
            "move overhead" => number(0, 5000).map(|n| {
                self.engine
                    .set_options(|o| o.move_overhead = Duration::from_millis(n as u64))
            }),
            "ponder" => flag(value, name).map(|_| ()),
            "skill level" => number(0, strength::MAX_SKILL as usize).map(|n| {
                self.strength.level = n as u8;
                self.apply_strength();
            }),
            "uci_showwdl" => flag(value, name).map(|on| self.show_wdl = on),
            "uci_limitstrength" => flag(value, name).map(|on| {
                self.strength.limit_by_elo = on;
                self.apply_strength();
            }),
            "uci_elo" => number(strength::MIN_ELO as usize, strength::MAX_ELO as usize).map(|n| {
                self.strength.elo = n as u32;
                self.apply_strength();
            }),
            "clear hash" => {
                self.engine.clear_hash();
                Ok(())
            }
            "scoring" => match value {
                "standard" => {
                    self.engine.set_options(|o| o.stalemate_bonus = 0);
                    Ok(())
                }
                "magi-12" => {
                    self.engine
                        .set_options(|o| o.stalemate_bonus = PAYOFF_STALEMATE_BONUS);
                    Ok(())
                }
                _ => Err(format!(
                    "option 'Scoring': '{value}' is not standard or magi-12"
                )),
            },
            "evaluation" => super::evaluation::mode(value)
                .map(|mode| self.engine.set_options(|o| o.eval_mode = mode)),
            "evalfile" => super::evaluation::eval_file(value, &self.game).map(|(net, note)| {
                self.engine.set_options(|o| o.net = net);
                if let Some(note) = note {
                    self.say(&format!("info string {note}"));
                }
            }),
            switch
                if let Some(&(_, field)) = PRUNING_OPTIONS
                    .iter()
                    .find(|(option, _)| option.eq_ignore_ascii_case(switch)) =>
            {
                flag(value, name).map(|on| self.engine.set_options(|o| *field(&mut o.pruning) = on))
            }
            term if term.starts_with("eval ") => {
                match TermSet::SWITCHES
                    .iter()
                    .find(|(_, option)| option.eq_ignore_ascii_case(term))
                {
                    Some(&(id, _)) => flag(value, name)
                        .map(|on| self.engine.set_options(|o| o.eval_terms.set(id, on))),
                    None => Err(format!("unknown option '{name}'")),
                }
            }
            "uci_variant" => self.set_variant(value),
            "variantpath" => definitions::variant_path(
                Dialect::Uci,
                value,
                &mut self.registry,
                &self.out,
                &self.game.variant().name,
            ),
            _ => Err(format!("unknown option '{name}'")),
        };
        if let Err(e) = result {
            self.error(&e);
        }
    }

    fn apply_strength(&self) {
        let skill = self.strength.skill();
        self.engine.set_options(|o| o.skill = skill);
    }

    fn set_variant(&mut self, name: &str) -> Result<(), String> {
        let variant = self.registry.find(name)?;
        let start = AnyPosition::from_fen(variant, None)?;
        self.game = Game::new(start);
        self.say(&format!(
            "info string variant {} files {} ranks {} startpos {}",
            variant.name, variant.files, variant.ranks, variant.start_fen
        ));
        let user = self.engine.options().net;
        if let Some(note) = super::evaluation::unfit_net_note(&self.game, user.as_ref()) {
            self.say(&format!("info string {note}"));
        }
        Ok(())
    }

    /// `position startpos|fen FEN [moves m1 m2 …]`. Nothing changes unless all of it is good.
    fn position(&mut self, args: &str) {
        let (setup, moves) = match args.find("moves") {
            Some(i) => (
                args[..i].trim(),
                args[i + "moves".len()..]
                    .split_whitespace()
                    .collect::<Vec<_>>(),
            ),
            None => (args.trim(), vec![]),
        };
        let variant = self.game.variant();
        let start = if setup == "startpos" {
            AnyPosition::from_fen(variant, None)
        } else if let Some(fen) = setup
            .strip_prefix("fen ")
            .map(str::trim)
            .filter(|f| !f.is_empty())
        {
            AnyPosition::from_fen(variant, Some(fen))
        } else {
            Err(format!(
                "position: expected 'startpos' or 'fen <FEN>', got '{setup}'"
            ))
        };
        match start.and_then(|s| Game::from_moves(s, &moves, 1)) {
            Ok(game) => self.game = game,
            Err(e) => self.error(&format!("{e}; the position is unchanged")),
        }
    }

    /// Reads the `go` parameters. Unknown words and bad numbers are errors, not ignored.
    fn parse_go(&self, args: &str) -> Result<Limits, String> {
        let mut limits = Limits::default();
        let white = self.game.position().to_fen().split_whitespace().nth(1) == Some("w");
        let words: Vec<&str> = args.split_whitespace().collect();
        let mut i = 0;
        let mut time = [None, None];
        let mut inc = [Duration::ZERO, Duration::ZERO];
        let number = |i: usize| -> Result<u64, String> {
            let word = words
                .get(i + 1)
                .ok_or_else(|| format!("go: '{}' needs a number", words[i]))?;
            // A number too large for 64 bits is still a number: as good as endless.
            let read = |digits: &str| match digits.parse::<u64>() {
                Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Ok(u64::MAX),
                other => other.map_err(|_| format!("go {}: '{word}' is not a number", words[i])),
            };
            // Negative clocks happen (a GUI's late message): treat them as zero.
            match word.strip_prefix('-') {
                Some(neg) => read(neg).map(|_| 0),
                None => read(word),
            }
        };
        // A limit of the search itself must leave something to search.
        let positive = |i: usize| -> Result<u64, String> {
            match number(i)? {
                0 => Err(format!(
                    "go {}: '{}' is not a number from 1 up",
                    words[i],
                    words[i + 1]
                )),
                n => Ok(n),
            }
        };
        let ms = |n: u64| Duration::from_millis(n.min(1 << 40));
        while i < words.len() {
            match words[i] {
                "wtime" => time[0] = Some(ms(number(i)?)),
                "btime" => time[1] = Some(ms(number(i)?)),
                "winc" => inc[0] = ms(number(i)?),
                "binc" => inc[1] = ms(number(i)?),
                "movestogo" => limits.moves_to_go = Some(number(i)?.clamp(1, 1000) as u32),
                "depth" => limits.depth = Some(positive(i)?.min(127) as i32),
                "nodes" => limits.nodes = Some(positive(i)?),
                "mate" => limits.mate_in = Some(positive(i)?.min(500) as i32),
                "movetime" => limits.movetime = Some(ms(positive(i)?)),
                "infinite" => {
                    limits.infinite = true;
                    i += 1;
                    continue;
                }
                "ponder" => {
                    limits.ponder = true;
                    i += 1;
                    continue;
                }
                "searchmoves" => {
                    i += 1;
                    while i < words.len() {
                        let pos = self.game.position();
                        let m = with_position!(pos, p => notation::parse_wire(p, words[i], 1));
                        match m {
                            Ok(m) => limits.searchmoves.push(m),
                            Err(_) if is_go_keyword(words[i]) => break,
                            Err(e) => return Err(format!("go searchmoves: {e}")),
                        }
                        i += 1;
                    }
                    continue;
                }
                other => return Err(format!("go: unknown parameter '{other}'")),
            }
            i += 2;
        }
        let side = if white { 0 } else { 1 };
        limits.time_left = time[side];
        limits.increment = inc[side];
        if let Some(n) = limits.mate_in
            && limits.depth.is_none()
            && !limits.is_timed()
        {
            limits.depth = Some((2 * n + 1 + MATE_SEARCH_SLACK).min(127));
        }
        Ok(limits)
    }

    /// `go …`: always answered by a `bestmove`. A refused `go` (its error first) is answered
    /// by the quickest search, so a GUI waiting for the move never hangs.
    fn go(&mut self, args: &str) {
        if args.split_whitespace().next() == Some("perft") {
            match args.split_whitespace().nth(1).map(str::parse::<u32>) {
                Some(Ok(d)) if (1..=MAX_PERFT_DEPTH).contains(&d) => return self.perft(d),
                _ => self.error(&format!(
                    "go perft needs a depth from 1 to {MAX_PERFT_DEPTH}"
                )),
            }
            return self.search(Limits::depth(1));
        }
        match self.parse_go(args) {
            Ok(limits) => self.search(limits),
            Err(e) => {
                self.error(&e);
                self.search(Limits::depth(1));
            }
        }
    }

    fn search(&mut self, limits: Limits) {
        let pos = *self.game.position();
        let info_out = Arc::clone(&self.out);
        let done_out = Arc::clone(&self.out);
        // The material left does not change during a search: measured once for the WDL.
        let wdl = self.show_wdl.then(|| {
            let variant = pos.variant();
            (
                wdl::model_for(variant),
                wdl::material_left(variant, &pos.to_fen()),
            )
        });
        self.engine.go(
            &self.game,
            limits,
            Box::new(move |r| say(&info_out, &info_line(&pos, r, wdl.as_ref()))),
            Box::new(move |result| say(&done_out, &bestmove_line(&pos, &result))),
        );
    }

    fn display(&self) {
        let pos = *self.game.position();
        for line in crate::diagram::text_board(&pos).lines() {
            self.say(line);
        }
        self.say(&format!("Fen: {}", pos.to_fen()));
        self.say(&format!("Key: {:016X}", pos.hash()));
        self.say(&format!(
            "Checkers: {}",
            crate::diagram::checkers(&pos).join(" ")
        ));
    }

    fn eval(&self) {
        let pos = *self.game.position();
        let terms = with_position!(&pos, p => crate::eval::breakdown(p));
        self.say("     Term    |  White |  Black |  Total");
        for t in &terms {
            self.say(&format!(
                "{:>12} | {:>6} | {:>6} | {:>6}",
                t.name,
                t.white,
                t.black,
                t.white - t.black
            ));
        }
        let total = with_position!(&pos, p => crate::eval::evaluate(p, crate::eval::EvalTables::of(p.layout())));
        self.say(&format!(
            "Final evaluation: {total} (side to move; hand-made)"
        ));
        let user = self.engine.options().net;
        self.say(&super::evaluation::nnue_line(&self.game, user.as_ref()));
    }

    /// `bench [DEPTH [THREADS]]`, beside the input loop.
    fn bench(&mut self, args: &str) {
        let mut words = args.split_whitespace();
        let depth = words
            .next()
            .and_then(|w| w.parse().ok())
            .unwrap_or(crate::search::bench::DEFAULT_DEPTH)
            .clamp(1, 64);
        let threads = words
            .next()
            .and_then(|w| w.parse().ok())
            .unwrap_or(1)
            .clamp(1, max_threads());
        let out = Arc::clone(&self.out);
        self.spawn_task("bench", move |cancel| {
            match crate::search::bench::run(depth, threads, None, cancel, |_, _, _, _| {}) {
                Ok(r) => {
                    let ms = r.time.as_millis().max(1);
                    say(&out, "===========================");
                    say(&out, &format!("Total time (ms) : {ms}"));
                    say(&out, &format!("Nodes searched  : {}", r.nodes));
                    say(
                        &out,
                        &format!("Nodes/second    : {}", r.nodes as u128 * 1000 / ms),
                    );
                }
                Err(e) => say(&out, &format!("info string error: {e}")),
            }
        });
    }

    /// `go perft N`, beside the input loop, the root moves shared out over `Threads`.
    fn perft(&mut self, depth: u32) {
        let pos = *self.game.position();
        let threads = self.engine.options().threads;
        let out = Arc::clone(&self.out);
        self.spawn_task("perft", move |cancel| {
            let counts = with_position!(&pos, p => crate::movegen::perft::divide_parallel(
                p,
                depth,
                threads,
                cancel,
                &|_, _| {},
            )
            .map(|counts| {
                counts
                    .into_iter()
                    .map(|(m, n)| (notation::to_wire(p, m, 1), n))
                    .collect::<Vec<_>>()
            }));
            let Some(counts) = counts else {
                say(&out, "info string perft stopped");
                return;
            };
            let mut total = 0;
            for (m, n) in counts {
                say(&out, &format!("{m}: {n}"));
                total += n;
            }
            say(&out, "");
            say(&out, &format!("Nodes searched: {total}"));
        });
    }

    fn spawn_task(&mut self, name: &str, work: impl FnOnce(&AtomicBool) + Send + 'static) {
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        match std::thread::Builder::new()
            .name(name.into())
            .spawn(move || work(&flag))
        {
            Ok(handle) => self.task = Some(Task { cancel, handle }),
            Err(e) => self.error(&format!("cannot start {name}: {e}")),
        }
    }
}

fn is_go_keyword(word: &str) -> bool {
    matches!(
        word,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "infinite"
            | "ponder"
    )
}

/// Formats a search report as a UCI `info` line; with `wdl` (the variant's model and the
/// material left), the score's win, draw and loss chances in per mille after it.
pub fn info_line(pos: &AnyPosition, r: &Report, wdl: Option<&(WdlModel, f64)>) -> String {
    let mut score = match r.score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    if let Some((model, material)) = wdl {
        let (w, d, l) = match r.score {
            Score::Centipawns(cp) => wdl::wdl(model, cp, *material),
            Score::Mate(m) if m > 0 => (1000, 0, 0),
            Score::Mate(_) => (0, 0, 1000),
        };
        score += &format!(" wdl {w} {d} {l}");
    }
    let bound = match r.bound {
        Some(true) => " lowerbound",
        Some(false) => " upperbound",
        None => "",
    };
    let ms = r.time.as_millis();
    let nps = r.nodes as u128 * 1000 / ms.max(1);
    let pv = pv_wire(pos, &r.pv, 1).join(" ");
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {nps} hashfull {} time {ms} pv {pv}",
        r.depth, r.seldepth, r.multipv, r.nodes, r.hashfull
    )
}

/// A line of moves in wire notation, played out from `pos`.
pub fn pv_wire(pos: &AnyPosition, pv: &[crate::board::Move], first_rank: u8) -> Vec<String> {
    let mut line = *pos;
    let mut out = Vec::new();
    for &m in pv {
        with_position!(&mut line, p => {
            out.push(notation::to_wire(p, m, first_rank));
            p.play(m);
        });
    }
    out
}

/// The `bestmove` line of a search's result (`bestmove 0000` when there is no legal move).
pub fn bestmove_line(pos: &AnyPosition, result: &crate::search::SearchResult) -> String {
    if result.best.is_null() {
        return "bestmove 0000".into();
    }
    let mut line = vec![result.best];
    line.extend(result.ponder);
    let wire = pv_wire(pos, &line, 1);
    match wire.get(1) {
        Some(ponder) => format!("bestmove {} ponder {ponder}", wire[0]),
        None => format!("bestmove {}", wire[0]),
    }
}
