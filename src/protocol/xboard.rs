//! The XBoard / WinBoard protocol (CECP version 2), with engine-defined variants.
//!
//! XBoard knows orthodox chess (`normal`) among our variants. For every other one the engine
//! answers `variant NAME` with a `setup` line (the piece letters mapped onto XBoard's piece
//! images, the board size, the start FEN) and one `piece` line per piece type in Betza
//! notation, so that XBoard draws the board and checks the moves itself.
//!
//! Moves on the wire are the engine's own coordinates (`notation`), with ranks counted from 0
//! on boards of exactly ten ranks, as XBoard does.
//!
//! The search runs on a worker thread, so the session keeps reading commands while it thinks
//! (`?` moves now, `.` reports in analyze mode, `ping` is answered after the move). The worker
//! prints the engine's move itself, then ponders on the expected reply when pondering is on;
//! the session applies the printed moves to its game before it handles the next command.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::board::{Bitboard, Color, Move, MoveKind, Position, Square};
use crate::game::{AnyPosition, Game};
use crate::protocol::definitions::{self, DefinitionCommands, Dialect};
use crate::protocol::notation;
use crate::protocol::uci::{ENGINE_NAME, Output, PAYOFF_STALEMATE_BONUS, max_threads, say};
use crate::rules::end::{Outcome, Reason, outcome};
use crate::search::time::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{Report, Score, SearchControl, SearchOptions, think};
use crate::variant::{Registry, Role, Variant};
use crate::with_position;

/// XBoard's name of orthodox chess.
const NORMAL: &str = "normal";

/// The first rank's number on the wire: XBoard counts from 0 on boards of exactly ten ranks.
pub fn first_rank(variant: &Variant) -> u8 {
    if variant.ranks == 10 { 0 } else { 1 }
}

/// A move as sent to XBoard. A swap-in (`c1c1m` in the engine's notation) goes out as a
/// two-leg move out to a neighbouring empty square and back with the new piece (`c1d2,d2c1m`):
/// XBoard 4.9 refuses a move whose origin is its destination, but shows this form when it does
/// not test legality (`-xlegal`), and relays White's correctly (docs/xboard.md).
pub fn to_xboard<B: Bitboard>(pos: &Position<B>, m: Move, first_rank: u8) -> String {
    if m.kind() != MoveKind::SwapIn {
        return notation::to_wire(pos, m, first_rank);
    }
    let dims = pos.layout().dims;
    let from = m.from();
    let empty = |sq: Square| pos.piece_at(sq).is_none() && !pos.holes().has(sq);
    let near = [
        (1, 1),
        (-1, 1),
        (1, -1),
        (-1, -1),
        (0, 1),
        (0, -1),
        (1, 0),
        (-1, 0),
    ]
    .into_iter()
    .filter_map(|(df, dr)| dims.offset(from, df, dr))
    .find(|&sq| empty(sq));
    let via = near;
    let Some(via) = via else {
        return notation::to_wire(pos, m, first_rank);
    };
    let name = |sq| dims.name_from(sq, first_rank);
    let letter = pos.layout().variant.pieces[m.piece().index()]
        .letter
        .to_ascii_lowercase();
    format!(
        "{}{},{}{}{letter}",
        name(from),
        name(via),
        name(via),
        name(from)
    )
}

/// Reads a move from XBoard: the engine's notation, or a swap-in written as a two-leg move
/// out and back (`c1d2,d2c1m`). Nothing else XBoard relays stands for a spell or a drop: its
/// `c2d2` onto a hole (with `-xlegal`) removes the hole on its board, and its `e3d4` from
/// `e3d4,n@c5` lost the drop; both are refused as illegal here.
pub fn parse_xboard<B: Bitboard>(
    pos: &Position<B>,
    text: &str,
    first_rank: u8,
) -> Result<Move, String> {
    let direct = notation::parse_wire(pos, text, first_rank);
    if direct.is_ok() {
        return direct;
    }
    let dims = pos.layout().dims;
    let lower = text.trim().to_ascii_lowercase();
    if let Some((first, second)) = lower.split_once(',')
        && let Some((a, n1)) = dims.parse_prefix_from(first, first_rank)
        && let Some((x, n2)) = dims.parse_prefix_from(&first[n1..], first_rank)
        && n1 + n2 == first.len()
        && let Some((x2, m1)) = dims.parse_prefix_from(second, first_rank)
        && let Some((a2, m2)) = dims.parse_prefix_from(&second[m1..], first_rank)
        && x == x2
        && a == a2
        && pos.piece_at(x).is_none()
    {
        let suffix = &second[m1 + m2..];
        let name = dims.name_from(a, first_rank);
        if let Ok(m) = notation::parse_wire(pos, &format!("{name}{name}{suffix}"), first_rank)
            && m.kind() == MoveKind::SwapIn
        {
            return Ok(m);
        }
    }
    direct
}

/// Whether XBoard 4.9, testing legality with the `piece` definitions, accepts a move: plain
/// moves, captures, castling and promotions do; a swap-in, a transformation elsewhere, a
/// Home-File Transference, a spell or a drop do not, nor an e.p. capture onto the square the
/// pawn came from (Magi's d3/g3 pawns), which XBoard does not know as an e.p. square.
///
/// "Cannot" is what the real XBoard 4.9.1 did (docs/xboard.md): a spell (`d4e4`, `d4e4x`) is a
/// move from a hole, which XBoard forfeits even with `-xlegal`; of a move with a drop
/// (`e3d4,n@c5`) XBoard keeps the first leg only and relays `e3d4`, so the other side never
/// sees the dropped piece, and a separate `N@c5` is refused (no holdings).
pub fn xboard_checkable<B: Bitboard>(
    pos: &Position<B>,
    m: Move,
    last_from: Option<Square>,
) -> bool {
    let layout = pos.layout();
    match m.kind() {
        MoveKind::Castle | MoveKind::Promotion => true,
        MoveKind::EnPassant => Some(m.to()) != last_from,
        MoveKind::Normal => {
            let Some(t) = &layout.variant.mechanics.transference else {
                return true;
            };
            let dims = layout.dims;
            let edge = |sq| {
                let f = dims.file(sq);
                f == 0 || f + 1 == dims.files
            };
            let teleport = dims.rank(m.from()) == dims.rank(m.to())
                && edge(m.from())
                && edge(m.to())
                && m.from() != m.to();
            let piece = pos.piece_at(m.from()).map(|p| p.kind().0);
            !(teleport && piece.is_some_and(|k| t.pieces.contains(&k)))
        }
        _ => false,
    }
}

/// The name XBoard knows a variant by.
pub fn xboard_name(variant: &Variant) -> &str {
    if variant.name == "chess" {
        NORMAL
    } else {
        &variant.name
    }
}

/// XBoard's piece images, in the order of its piece table (`-pieceToCharTable`), by their
/// default letters. The last one is the King.
const SLOTS: &[u8; 22] = b"PNBRQFEACWMOHIJGDVLSUK";

/// Images chosen for our pieces by name: the image's default letter.
const IMAGES: &[(&str, u8)] = &[
    ("magician", b'W'),
    ("wizard", b'W'),
    ("priestess", b'F'),
    ("telepath", b'U'),
    ("duke", b'J'),
    ("cardinal", b'I'),
    ("archbishop", b'A'),
    ("chancellor", b'C'),
    ("minister", b'G'),
    ("knight", b'N'),
    ("bishop", b'B'),
    ("rook", b'R'),
    ("queen", b'Q'),
];

/// The `-pieceToCharTable` of a variant: each of XBoard's images gets the letter of the piece
/// drawn with it, or `.`; White's half, then Black's.
pub fn piece_to_char(variant: &Variant) -> String {
    let mut table = [b'.'; 22];
    let mut placed = vec![false; variant.pieces.len()];
    let slot_of = |letter: u8| SLOTS.iter().position(|&s| s == letter);
    // Pawn and King first: XBoard gives those images their rules (promotion, royalty).
    for (i, p) in variant.pieces.iter().enumerate() {
        let slot = match p.role {
            Role::Pawn => 0,
            Role::King => 21,
            _ => continue,
        };
        table[slot] = p.letter as u8;
        placed[i] = true;
    }
    // Then by name, then by letter, then anywhere free (the Lance keeps its own promotion
    // rules in XBoard, so it is left out).
    for pass in 0..3 {
        for (i, p) in variant.pieces.iter().enumerate() {
            if placed[i] {
                continue;
            }
            let name = p.name.to_ascii_lowercase();
            let wanted = match pass {
                0 => IMAGES
                    .iter()
                    .find(|(word, _)| name.contains(word))
                    .and_then(|&(_, l)| slot_of(l)),
                1 => slot_of(p.letter.to_ascii_uppercase() as u8),
                _ => (5..21).find(|&s| table[s] == b'.' && SLOTS[s] != b'L'),
            };
            if let Some(s) = wanted
                && table[s] == b'.'
                && (1..21).contains(&s)
            {
                table[s] = p.letter.to_ascii_uppercase() as u8;
                placed[i] = true;
            }
        }
    }
    let white: String = table.iter().map(|&b| b as char).collect();
    format!("{white}{}", white.to_ascii_lowercase())
}

/// The Betza description XBoard is given for a piece: the variant's own, plus what the
/// variant file says elsewhere (pawn first moves and e.p., castling).
pub fn piece_betza(variant: &Variant, index: usize) -> String {
    let p = &variant.pieces[index];
    match p.role {
        Role::Pawn => {
            let mut betza = p.betza.clone();
            if variant.pawns.en_passant != crate::variant::EnPassant::None {
                betza = betza.replacen("fcF", "fceF", 1);
            }
            let steps = variant
                .pawns
                .multi_step
                .iter()
                .map(|m| m.steps)
                .max()
                .unwrap_or(1);
            if steps > 1 {
                betza.push_str(&format!("ifmW{steps}"));
            }
            betza
        }
        Role::King => {
            let mut betza = p.betza.clone();
            if let Some(c) = &variant.castling {
                let side = c.king_side.as_ref().or(c.queen_side.as_ref());
                if let Some(s) = side {
                    let distance = (s.king_to as i32 - c.king_file as i32).unsigned_abs();
                    betza.push_str(&format!("isO{distance}"));
                }
            }
            betza
        }
        _ => p.betza.clone(),
    }
}

/// The lines that define an engine-defined variant to XBoard: `setup` and one `piece` per
/// piece type. Empty for orthodox chess, which XBoard knows.
pub fn variant_definition(variant: &Variant) -> Vec<String> {
    if xboard_name(variant) == NORMAL {
        return vec![];
    }
    let mut lines = vec![format!(
        "setup ({}) {}x{}+0_fairy {}",
        piece_to_char(variant),
        variant.files,
        variant.ranks,
        variant.start_fen
    )];
    for (i, p) in variant.pieces.iter().enumerate() {
        lines.push(format!(
            "piece {}& {}",
            p.letter.to_ascii_uppercase(),
            piece_betza(variant, i)
        ));
    }
    lines
}

/// The 12-point payoff of Magi (RULES.md §2.5): what an accepted resignation at full move
/// `number` is worth to the side that did not resign.
pub fn resignation_value(number: u32) -> u32 {
    match number {
        0..=45 => 12,
        46..=60 => 11,
        61..=75 => 10,
        76..=90 => 9,
        91..=119 => 8,
        _ => 7,
    }
}

/// The share of the points the side to move can expect from a score (a logistic curve on
/// centipawns; certain for mates).
pub fn expected_share(score: Score) -> f64 {
    match score {
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => 0.0,
        Score::Centipawns(cp) => 1.0 / (1.0 + 10f64.powf(-cp as f64 / 400.0)),
    }
}

/// Below this score the engine considers resigning a lost game (payoff mode only).
const RESIGN_SCORE: i32 = -600;
/// Below this score the engine offers its one draw of the game (payoff mode only).
const DRAW_OFFER_SCORE: i32 = -150;
/// A draw offer is accepted when the expected share of playing on is below this.
const DRAW_ACCEPT_SHARE: f64 = 0.45;

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

/// What the session and the search worker share while the worker runs.
#[derive(Default)]
struct Turn {
    /// The controls of the search under way.
    control: Arc<SearchControl>,
    /// The session abandoned the search: print nothing more.
    cancelled: bool,
    /// Moves the worker printed that the session has not yet applied to its game.
    played: Vec<Move>,
    /// The worker is pondering on this reply of the opponent.
    pondering_on: Option<Move>,
    /// The worker is thinking on the engine's own move (pongs wait for the move).
    thinking: bool,
    /// `pong` replies held back until the move is out.
    pongs: Vec<u32>,
    /// The latest search report (for `.` and for answering draw offers).
    last: Option<(Report, usize)>,
    /// The score of the engine's last move, from the engine's side.
    score: Option<Score>,
    /// The worker offered a draw or resigned.
    offered_draw: bool,
    resigned: bool,
}

/// What a worker is asked to do.
#[derive(Clone)]
struct Job {
    game: Game,
    limits: Limits,
    options: SearchOptions,
    analyze: bool,
    post: bool,
    ponder: bool,
    payoff: bool,
    may_offer_draw: bool,
    first_rank: u8,
    checkable_only: bool,
}

struct Worker {
    turn: Arc<Mutex<Turn>>,
    handle: JoinHandle<()>,
    analyze: bool,
}

/// The state of an XBoard session.
pub struct XboardSession {
    registry: Registry,
    game: Game,
    out: Output,
    tt: Arc<TranspositionTable>,
    options: SearchOptions,
    payoff: bool,
    /// The side the engine plays; `None` in force mode.
    engine: Option<Color>,
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
    worker: Option<Worker>,
    protover: u32,
    /// Play only moves XBoard can check (option "Only XBoard moves").
    checkable_only: bool,
    definitions: DefinitionCommands,
}

impl XboardSession {
    pub fn new(registry: Registry, out: Output) -> XboardSession {
        let variant = registry.get("chess").unwrap_or(registry.all()[0]);
        let start =
            AnyPosition::from_fen(variant, None).expect("built-in start positions are sound");
        XboardSession {
            registry,
            game: Game::new(start),
            out,
            tt: Arc::new(TranspositionTable::new(16).expect("a 16 MB table")),
            options: SearchOptions::default(),
            payoff: false,
            engine: Some(Color::Black),
            analyzing: false,
            post: false,
            ponder: false,
            clock: Clock::default(),
            engine_moves: 0,
            draw_offer_made: false,
            resigned: false,
            last_score: None,
            worker: None,
            protover: 1,
            checkable_only: false,
            definitions: DefinitionCommands::new(Dialect::Xboard),
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    fn say(&self, text: &str) {
        say(&self.out, text);
    }

    fn error(&self, kind: &str, command: &str) {
        self.say(&format!("Error ({kind}): {command}"));
    }

    fn first_rank(&self) -> u8 {
        first_rank(self.game.variant())
    }

    /// Applies the moves the worker printed, and forgets a worker that has ended.
    fn collect(&mut self) {
        let Some(w) = &self.worker else { return };
        let turn = Arc::clone(&w.turn);
        self.absorb(&turn);
        if self.worker.as_ref().is_some_and(|w| w.handle.is_finished())
            && let Some(w) = self.worker.take()
        {
            let _ = w.handle.join();
        }
    }

    /// Takes what the worker reported: its moves, its score, its offers.
    fn absorb(&mut self, turn: &Mutex<Turn>) -> Vec<u32> {
        let (played, pongs) = {
            let mut t = turn.lock().unwrap_or_else(|e| e.into_inner());
            if t.offered_draw {
                self.draw_offer_made = true;
            }
            if t.resigned {
                self.resigned = true;
            }
            if t.score.is_some() {
                self.last_score = t.score;
            }
            let pongs = if t.thinking && !t.cancelled {
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
        pongs
    }

    fn apply(&mut self, m: Move) {
        let text = with_position!(self.game.position(), p => notation::to_wire(p, m, 1));
        // The move came from the legal moves of this very position.
        let _ = self.game.play_wire(&text, 1);
    }

    /// Stops the worker without a move (`cancel`) or with one (move now), and waits for it.
    fn stop(&mut self, cancel: bool) {
        let Some(w) = self.worker.take() else { return };
        {
            let mut t = w.turn.lock().unwrap_or_else(|e| e.into_inner());
            if cancel {
                t.cancelled = true;
            }
            t.control.stop.store(true, Ordering::Relaxed);
            t.control.pondering.store(false, Ordering::Relaxed);
        }
        let _ = w.handle.join();
        let pongs = self.absorb(&w.turn);
        for n in pongs {
            self.say(&format!("pong {n}"));
        }
    }

    /// The worker is searching for the engine's own move (not pondering, not analyzing).
    fn thinking(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| {
            !w.handle.is_finished() && w.turn.lock().is_ok_and(|t| t.thinking && !t.cancelled)
        })
    }

    /// Handles one line; returns false on `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        if self.definitions.handle(
            line,
            &mut self.registry,
            &self.out,
            &self.game.variant().name,
        ) {
            return true;
        }
        self.collect();
        let line = line.trim();
        let Some(command) = line.split_whitespace().next() else {
            return true;
        };
        let args = line[command.len()..].trim();
        match command {
            "quit" => {
                self.stop(true);
                return false;
            }
            "otim" => self.otim(args),
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "bk" | "hint" => {}
            "protover" => self.protover(args),
            "ping" => self.ping(line, args),
            "?" => {
                if self.thinking()
                    && let Some(w) = &self.worker
                    && let Ok(t) = w.turn.lock()
                {
                    t.control.stop.store(true, Ordering::Relaxed);
                }
            }
            "." => self.status(),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "easy" => {
                self.ponder = false;
                if self.worker.as_ref().is_some_and(|w| !w.analyze) && !self.thinking() {
                    self.stop(true);
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
                Ok(n) if n >= 1 => self.options.threads = n.min(max_threads()),
                _ => self.error("bad number of cores", line),
            },
            "option" => self.option(line, args),
            "draw" => self.draw_offered(),
            "result" => {
                self.stop(true);
                self.engine = None;
                self.analyzing = false;
            }
            "exit" => {
                if self.analyzing {
                    self.stop(true);
                    self.analyzing = false;
                } else {
                    self.error("command not legal now", line);
                }
            }
            "force" => {
                self.stop(true);
                self.engine = None;
            }
            "new" => self.new_game(),
            "variant" => self.variant(line, args),
            "setboard" => self.setboard(line, args),
            "usermove" => self.usermove(args),
            "go" => {
                self.stop(true);
                self.engine = Some(self.side_to_move());
                self.analyzing = false;
                self.start_thinking();
            }
            "playother" => {
                self.stop(true);
                self.engine = Some(!self.side_to_move());
                self.analyzing = false;
            }
            "analyze" => {
                self.stop(true);
                self.engine = None;
                self.analyzing = true;
                self.start_analysis();
            }
            "undo" => self.take_back(line, 1),
            "remove" => self.take_back(line, 2),
            "white" | "black" => {
                // Obsolete (colors=0): the side to move, the engine the other.
                self.stop(true);
                let side = if command == "white" {
                    Color::White
                } else {
                    Color::Black
                };
                self.engine = Some(!side);
            }
            "d" => self.display(),
            _ if looks_like_move(command) && args.is_empty() => self.usermove(command),
            _ => self.error("unknown command", line),
        }
        true
    }

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
             smp=1 exclude=0 setscore=0 highlight=0 myname=\"{ENGINE_NAME}\""
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
            self.options.multipv
        ));
        self.say(&format!(
            "feature option=\"Move Overhead -spin {} 0 5000\"",
            self.options.move_overhead.as_millis()
        ));
        self.say(&format!(
            "feature option=\"Only XBoard moves -check {}\"",
            self.checkable_only as u8
        ));
        self.say("feature option=\"Clear Hash -button\"");
        self.say("feature option=\"VariantPath -path \"");
    }

    fn ping(&mut self, line: &str, args: &str) {
        let Ok(n) = args.parse::<u32>() else {
            return self.error("bad ping number", line);
        };
        // While the engine thinks on its move, the pong follows the move.
        if let Some(w) = &self.worker
            && let Ok(mut t) = w.turn.lock()
            && t.thinking
            && !t.cancelled
            && !w.handle.is_finished()
        {
            t.pongs.push(n);
            return;
        }
        self.say(&format!("pong {n}"));
    }

    /// `.` in analyze mode: one status line.
    fn status(&self) {
        let Some(w) = self.worker.as_ref().filter(|w| w.analyze) else {
            return;
        };
        let Ok(t) = w.turn.lock() else { return };
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
                if mb == self.tt.megabytes() {
                    return;
                }
                self.stop(true);
                match TranspositionTable::new(mb) {
                    Ok(t) => self.tt = Arc::new(t),
                    Err(e) => self.say(&format!("# memory {mb}: {e}; the old table stays")),
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
                    Ok(())
                }
                "magi-12" => {
                    self.payoff = true;
                    Ok(())
                }
                _ => Err("Scoring is standard or magi-12".into()),
            },
            "multipv" => number(1, 256).map(|n| self.options.multipv = n),
            "only xboard moves" => number(0, 1).map(|n| self.checkable_only = n == 1),
            "move overhead" => number(0, 5000)
                .map(|n| self.options.move_overhead = Duration::from_millis(n as u64)),
            "clear hash" => {
                self.stop(true);
                self.tt.clear();
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

    fn new_game(&mut self) {
        self.stop(true);
        let variant = self.registry.get("chess").unwrap_or(self.registry.all()[0]);
        self.game = Game::new(AnyPosition::from_fen(variant, None).expect("start"));
        self.engine = Some(Color::Black);
        self.analyzing = false;
        self.clock.depth = None;
        self.clock.mine = self.clock.base;
        self.clock.theirs = self.clock.base;
        self.engine_moves = 0;
        self.draw_offer_made = false;
        self.resigned = false;
        self.last_score = None;
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
        self.stop(true);
        match AnyPosition::from_fen(variant, None) {
            Ok(start) => self.game = Game::new(start),
            Err(e) => return self.error(&e, line),
        }
        for l in variant_definition(variant) {
            self.say(&l);
        }
        if self.analyzing {
            self.start_analysis();
        }
    }

    fn setboard(&mut self, line: &str, fen: &str) {
        let variant = self.game.variant();
        let fen = fen_from_xboard(fen, first_rank(variant));
        match AnyPosition::from_fen(variant, Some(&fen)) {
            Ok(pos) => {
                self.stop(true);
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
                let reason = if e.contains("not a move") {
                    "not a move"
                } else {
                    "not legal here"
                };
                return self.say(&format!("Illegal move ({reason}): {text}"));
            }
        };
        // A ponder hit: the worker goes on searching with the clock running.
        let hit = self.worker.as_ref().is_some_and(|w| {
            !w.handle.is_finished()
                && w.turn.lock().is_ok_and(|mut t| {
                    let hit = t.pondering_on == Some(m) && !t.cancelled;
                    if hit {
                        t.control.ponderhit();
                        t.pondering_on = None;
                        t.thinking = true;
                    }
                    hit
                })
        });
        if hit {
            self.apply(m);
            return;
        }
        self.stop(true);
        self.apply(m);
        if self.analyzing {
            self.start_analysis();
        } else if self.engine == Some(self.side_to_move()) {
            self.start_thinking();
        }
    }

    fn take_back(&mut self, line: &str, plies: usize) {
        self.stop(true);
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

    fn job(&self, analyze: bool) -> Job {
        let mut options = self.options.clone();
        if self.payoff {
            options.stalemate_bonus = PAYOFF_STALEMATE_BONUS;
        }
        Job {
            game: self.game.clone(),
            limits: if analyze {
                Limits {
                    infinite: true,
                    ..Limits::default()
                }
            } else {
                self.limits()
            },
            options,
            analyze,
            post: self.post || analyze,
            ponder: self.ponder,
            payoff: self.payoff,
            may_offer_draw: self.payoff && !self.draw_offer_made,
            first_rank: self.first_rank(),
            checkable_only: self.checkable_only,
        }
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
        self.spawn(self.job(false));
    }

    fn start_analysis(&mut self) {
        self.stop(true);
        self.spawn(self.job(true));
    }

    fn spawn(&mut self, job: Job) {
        let turn = Arc::new(Mutex::new(Turn {
            thinking: !job.analyze,
            ..Turn::default()
        }));
        let shared = Arc::clone(&turn);
        let tt = Arc::clone(&self.tt);
        let out = Arc::clone(&self.out);
        let analyze = job.analyze;
        let spawned = std::thread::Builder::new()
            .name("xboard-search".into())
            .spawn(move || run_worker(job, &tt, &shared, &out));
        match spawned {
            Ok(handle) => {
                self.worker = Some(Worker {
                    turn,
                    handle,
                    analyze,
                })
            }
            Err(e) => self.say(&format!("# cannot start the search: {e}")),
        }
    }

    fn display(&self) {
        let pos = *self.game.position();
        for line in crate::diagram::text_board(&pos).lines() {
            self.say(&format!("# {line}"));
        }
        self.say(&format!("# Fen: {}", pos.to_fen()));
    }
}

/// A move-like word sent without `usermove` (a GUI that did not accept the feature).
fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 4 && b[0].is_ascii_lowercase() && b[1].is_ascii_digit()
}

fn parse_centiseconds(text: &str) -> Option<Duration> {
    let n: i64 = text.trim().parse().ok()?;
    Some(Duration::from_millis(n.clamp(0, 1 << 40) as u64 * 10))
}

/// XBoard's FEN on a ten-rank board names the e.p. squares with ranks from 0; the engine's FEN
/// counts from 1.
pub fn fen_from_xboard(fen: &str, first_rank: u8) -> String {
    if first_rank == 1 {
        return fen.trim().to_string();
    }
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(ep) = fields.get_mut(3)
        && ep != "-"
    {
        let shifted: Vec<String> = ep
            .split(',')
            .map(|sq| {
                let (file, rank) = sq.split_at(1.min(sq.len()));
                match rank.parse::<u32>() {
                    Ok(r) => format!("{file}{}", r + 1),
                    Err(_) => sq.to_string(),
                }
            })
            .collect();
        *ep = shifted.join(",");
    }
    fields.join(" ")
}

/// The `RESULT {comment}` line of a finished game.
pub fn result_line(o: Outcome) -> String {
    match o {
        Outcome::Win(c, reason) => {
            let score = if c == Color::White { "1-0" } else { "0-1" };
            let what = match reason {
                Reason::Checkmate => format!("{} mates", c.name()),
                Reason::Stalemate => format!("{} wins by stalemate", c.name()),
                other => format!("{} wins by {}", c.name(), other.describe()),
            };
            format!("{score} {{{what}}}")
        }
        Outcome::Draw(reason) => {
            let what = match reason {
                Reason::Stalemate => "Stalemate".to_string(),
                other => format!("Draw by {}", other.describe()),
            };
            format!("1/2-1/2 {{{what}}}")
        }
    }
}

/// A thinking line: `ply score time nodes pv`, the score in centipawns (mates as 100000 + N),
/// the time in centiseconds.
pub fn thinking_line(pos: &AnyPosition, r: &Report, first_rank: u8) -> String {
    let score = match r.score {
        Score::Centipawns(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 + n,
        Score::Mate(n) => -100_000 + n,
    };
    let mark = match r.bound {
        Some(true) => "!",
        Some(false) => "?",
        None => "",
    };
    let pv = crate::protocol::uci::pv_wire(pos, &r.pv, first_rank).join(" ");
    format!(
        "{} {} {} {} {}{mark}",
        r.depth,
        score,
        r.time.as_millis() / 10,
        r.nodes,
        pv
    )
}

/// The worker: think and move (with the payoff system's resignation and draw offer), then
/// ponder on the expected reply; or analyze until stopped.
fn run_worker(mut job: Job, tt: &TranspositionTable, turn: &Mutex<Turn>, out: &Output) {
    loop {
        let control = Arc::new(SearchControl::default());
        {
            let mut t = turn.lock().unwrap_or_else(|e| e.into_inner());
            if t.cancelled {
                return;
            }
            t.control = Arc::clone(&control);
        }
        let pos = *job.game.position();
        if job.checkable_only {
            // Only the moves XBoard can check (all of them if none is).
            let last_from = job.game.moves().last().map(|m| m.from());
            let (legal, checkable) = with_position!(&pos, p => {
                let legal = p.legal_moves();
                let checkable: Vec<_> = legal
                    .iter()
                    .copied()
                    .filter(|&m| xboard_checkable(p, m, last_from))
                    .collect();
                (legal.len(), checkable)
            });
            job.limits.searchmoves = checkable;
            // When every legal move is one XBoard would forfeit (a King in a spell's check
            // can often only answer with a spell), resigning ends the game as a game rather
            // than as a forfeit.
            if job.limits.searchmoves.is_empty() && legal > 0 && !job.limits.ponder && !job.analyze
            {
                let mut t = turn.lock().unwrap_or_else(|e| e.into_inner());
                if !t.cancelled {
                    say(out, "resign");
                    t.resigned = true;
                    t.thinking = false;
                    flush_pongs(&mut t, out);
                }
                return;
            }
        }
        let history = &job.game.hashes()[..job.game.hashes().len() - 1];
        let total = pos.legal_moves_wire(1).len();
        let first_rank = job.first_rank;
        let post = job.post;
        let report = |r: &Report| {
            if let Ok(mut t) = turn.lock() {
                t.last = Some((r.clone(), total));
                if post && !t.cancelled && r.multipv == 1 {
                    say(out, &thinking_line(&pos, r, first_rank));
                }
            }
        };
        let result = with_position!(&pos, p => think(p, history, &job.limits, &job.options, tt, &control, &report));
        if job.analyze {
            return;
        }
        let mut t = turn.lock().unwrap_or_else(|e| e.into_inner());
        if t.cancelled {
            return;
        }
        // A ponder search that was never hit ends without a move.
        if t.pondering_on.is_some() {
            t.pondering_on = None;
            return;
        }
        if result.best.is_null() {
            if let Some(o) = with_position!(&pos, p => outcome(p, job.game.hashes())) {
                say(out, &result_line(o));
            }
            t.thinking = false;
            flush_pongs(&mut t, out);
            return;
        }
        t.score = Some(result.score);
        let number = with_position!(&pos, p => p.fullmove_number()) as u32;
        if job.payoff && resign_now(result.score, number) {
            say(out, "resign");
            t.resigned = true;
            t.thinking = false;
            flush_pongs(&mut t, out);
            return;
        }
        if job.may_offer_draw
            && matches!(result.score, Score::Centipawns(cp) if cp <= DRAW_OFFER_SCORE)
        {
            say(out, "offer draw");
            t.offered_draw = true;
            job.may_offer_draw = false;
        }
        let text = with_position!(&pos, p => to_xboard(p, result.best, first_rank));
        say(out, &format!("move {text}"));
        t.played.push(result.best);
        t.thinking = false;
        let _ = job.game.play_wire(
            &with_position!(&pos, p => notation::to_wire(p, result.best, 1)),
            1,
        );
        let after = *job.game.position();
        if let Some(o) = with_position!(&after, p => outcome(p, job.game.hashes())) {
            say(out, &result_line(o));
            flush_pongs(&mut t, out);
            return;
        }
        flush_pongs(&mut t, out);
        // Ponder: search the position after the expected reply until it comes (a hit turns
        // the search into the engine's next move) or another move does (cancelled).
        let Some(reply) = result.ponder.filter(|_| job.ponder) else {
            return;
        };
        let reply_text = with_position!(&after, p => notation::to_wire(p, reply, 1));
        if job.game.play_wire(&reply_text, 1).is_err() {
            return;
        }
        t.pondering_on = Some(reply);
        drop(t);
        job.limits.ponder = true;
    }
}

fn flush_pongs(t: &mut Turn, out: &Output) {
    for n in t.pongs.drain(..) {
        say(out, &format!("pong {n}"));
    }
}

/// In the payoff system a lost game is resigned when the points a resignation keeps now
/// (12 minus its value to the opponent at this move) beat what playing on can expect.
pub fn resign_now(score: Score, number: u32) -> bool {
    let lost = match score {
        Score::Mate(n) => n < 0,
        Score::Centipawns(cp) => cp <= RESIGN_SCORE,
    };
    let keep = 12 - resignation_value(number) as i32;
    lost && keep as f64 > 12.0 * expected_share(score)
}
