//! Engine processes: how they are described on the command line, started, spoken to over UCI
//! (`uci.rs`) or XBoard, CECP v2 (`xboard.rs`), and stopped (`process.rs`). Every wait has a
//! deadline; a reader thread per engine turns its output into timestamped lines, so the
//! referee's clock reads the moment a move arrived.

mod process;
mod uci;
mod xboard;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::clock::{Clock, Limit};
use super::interrupt::StopFlag;
use process::Process;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Xboard,
}

/// An engine as the user described it: `name=A,cmd=./magus,proto=uci,dir=..,arg=..,option.Hash=16`.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub proto: Protocol,
    pub options: Vec<(String, String)>,
    /// This engine's own limit (`tc=`, `st=`, `nodes=`, `depth=`), instead of the match's.
    pub limit: Option<Limit>,
}

impl EngineSpec {
    /// Reads a description. Without `cmd` the engine is magus itself (`self_exe`); without
    /// `proto`, UCI. `cmd` may hold arguments after spaces; `arg=` adds one more each time.
    pub fn parse(text: &str, self_exe: &Path) -> Result<EngineSpec, String> {
        let mut name = None;
        let mut cmd: Option<String> = None;
        let mut args = Vec::new();
        let mut dir = None;
        let mut proto = Protocol::Uci;
        let mut options = Vec::new();
        let mut limit = None;
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("'{part}' is not key=value"))?;
            match key {
                "name" => name = Some(value.to_string()),
                "cmd" => {
                    let mut words = value.split_whitespace();
                    cmd = Some(words.next().ok_or("cmd= needs a program")?.to_string());
                    args.extend(words.map(str::to_string));
                }
                "arg" => args.push(value.to_string()),
                "dir" => dir = Some(PathBuf::from(value)),
                "tc" => limit = Some(Limit::parse_tc(value).map_err(|e| format!("tc: {e}"))?),
                "st" => {
                    let secs: f64 = value
                        .parse()
                        .ok()
                        .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s < 1e7)
                        .ok_or_else(|| {
                            format!("st: '{value}' is not a positive number of seconds")
                        })?;
                    limit = Some(Limit::MoveTime(Duration::from_secs_f64(secs)));
                }
                "nodes" => {
                    let n: u64 = value
                        .parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("nodes: '{value}' is not a positive number"))?;
                    limit = Some(Limit::Nodes(n));
                }
                "depth" => {
                    let d: u32 = value
                        .parse()
                        .ok()
                        .filter(|d| (1..=127).contains(d))
                        .ok_or_else(|| format!("depth: '{value}' is not from 1 to 127"))?;
                    limit = Some(Limit::Depth(d));
                }
                "proto" => {
                    proto = match value {
                        "uci" => Protocol::Uci,
                        "xboard" | "cecp" => Protocol::Xboard,
                        _ => return Err(format!("proto: '{value}' is not uci or xboard")),
                    }
                }
                _ => match key.strip_prefix("option.") {
                    Some(o) if !o.is_empty() => options.push((o.to_string(), value.to_string())),
                    _ => {
                        return Err(format!(
                            "unknown key '{key}' (name, cmd, arg, dir, proto, option.NAME, tc, st, nodes, depth)"
                        ));
                    }
                },
            }
        }
        let cmd = match cmd {
            Some(c) if c == "magus" || c == "self" => self_exe.display().to_string(),
            Some(c) => c,
            None => self_exe.display().to_string(),
        };
        // A relative path that exists from here is meant from here, not from `dir`.
        let cmd = if cmd.contains('/') && Path::new(&cmd).is_relative() && Path::new(&cmd).exists()
        {
            std::fs::canonicalize(&cmd)
                .map(|p| p.display().to_string())
                .unwrap_or(cmd)
        } else {
            cmd
        };
        let name = name.unwrap_or_else(|| {
            Path::new(&cmd)
                .file_name()
                .map_or(cmd.clone(), |f| f.to_string_lossy().into_owned())
        });
        Ok(EngineSpec {
            name,
            cmd,
            args,
            dir,
            proto,
            options,
            limit,
        })
    }
}

/// Why an engine could not give a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process ended or closed its output.
    Crash(String),
    /// No answer before the deadline.
    Timeout,
    /// It said something the protocol does not allow here.
    Protocol(String),
    /// The match is stopping (Ctrl-C): the wait was given up.
    Stopped,
}

impl Fault {
    pub fn describe(&self) -> String {
        match self {
            Fault::Crash(s) => s.clone(),
            Fault::Timeout => "no answer in time".into(),
            Fault::Protocol(s) => s.clone(),
            Fault::Stopped => "the match was stopped".into(),
        }
    }
}

/// What the referee asks for one move.
pub struct MoveRequest<'a> {
    /// The start position (`None`: the variant's own) and every move since, in this engine's
    /// notation (`Engine::first_rank`, SAN when it asked for it).
    pub fen: Option<&'a str>,
    pub moves: &'a [String],
    pub limit: &'a Limit,
    /// The engine's clock and its opponent's (its own again when the opponent has no clock).
    pub own: Clock,
    pub other: Clock,
    /// The engine plays White.
    pub white: bool,
    /// The opponent has offered a draw.
    pub draw_offered: bool,
    /// Give up waiting then.
    pub deadline: Instant,
}

/// An engine's answer.
#[derive(Clone, Debug, Default)]
pub struct Reply {
    pub text: String,
    /// When the move was read (the referee's clock stops then).
    pub at: Option<Instant>,
    /// The last score it reported, in centipawns from its own side (mates as ±(100000 − plies)).
    pub score: Option<i32>,
    pub depth: Option<u32>,
    /// It offered a draw with this move (XBoard `offer draw`), or accepted one offered.
    pub offers_draw: bool,
}

#[derive(Clone, Debug)]
pub enum Answer {
    Move(Reply),
    /// XBoard `resign`, or a claim that it has lost.
    Resign,
    /// XBoard: a result claim (`1-0 {…}`, `1/2-1/2 {…}`) the referee does not confirm.
    Claim(String),
}

pub const MATE_SCORE: i32 = 100_000;

/// A started engine, ready for games.
pub struct Engine {
    pub spec: EngineSpec,
    process: Process,
    pub id_name: Option<String>,
    /// UCI options it declared (lower case names); XBoard features it sent.
    uci_options: Vec<String>,
    features: Vec<(String, String)>,
    /// XBoard: moves of the current game it has been sent, and whether it is out of force mode
    /// (it answers the next move with its own).
    sent: usize,
    playing: bool,
    ping: u32,
}

impl Engine {
    /// Starts the process and completes the handshake: `uciok`, options, `readyok` (UCI), or
    /// the feature negotiation (XBoard: until `done=1`, or two seconds without `done=0`).
    /// Every wait gives up when `stop` is raised.
    pub fn start(
        spec: &EngineSpec,
        variant: &str,
        handshake: Duration,
        stop: &StopFlag,
    ) -> Result<Engine, String> {
        let process = Process::spawn(spec, stop)?;
        let mut engine = Engine {
            spec: spec.clone(),
            process,
            id_name: None,
            uci_options: Vec::new(),
            features: Vec::new(),
            sent: 0,
            playing: false,
            ping: 0,
        };
        let result = match spec.proto {
            Protocol::Uci => engine.uci_handshake(variant, handshake),
            Protocol::Xboard => engine.xboard_handshake(variant, handshake),
        };
        match result {
            Ok(()) => Ok(engine),
            Err(e) => {
                engine.stop();
                Err(e)
            }
        }
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    fn fault_text(&self, f: Fault, waiting_for: &str) -> String {
        match f {
            Fault::Timeout => format!("no '{waiting_for}' in time"),
            other => format!("{} while waiting for '{waiting_for}'", other.describe()),
        }
    }

    /// Waits until the engine has read everything sent so far (`isready`/`readyok`, or
    /// `ping`/`pong` when the XBoard engine has it).
    fn sync(&mut self, deadline: Instant) -> Result<(), Fault> {
        match self.spec.proto {
            Protocol::Uci => self.uci_sync(deadline),
            Protocol::Xboard => self.xboard_sync(deadline),
        }
    }

    /// The first rank's number in the engine's protocol: XBoard's convention
    /// (`xboard::dialect::first_rank`), 1 in UCI.
    pub fn first_rank(&self, ranks: u8) -> u8 {
        match self.spec.proto {
            Protocol::Xboard => crate::protocol::xboard::dialect::first_rank(ranks),
            Protocol::Uci => 1,
        }
    }

    /// XBoard engines that asked for SAN get and send SAN.
    pub fn wants_san(&self) -> bool {
        self.spec.proto == Protocol::Xboard && self.feature("san") == Some("1")
    }

    /// XBoard engines with `reuse=0` want a fresh process for every game.
    pub fn reusable(&self) -> bool {
        self.feature("reuse") != Some("0")
    }

    /// Prepares a new game.
    pub fn new_game(
        &mut self,
        variant: &str,
        fen: Option<&str>,
        limit: &Limit,
        timeout: Duration,
    ) -> Result<(), Fault> {
        let deadline = Instant::now() + timeout;
        match self.spec.proto {
            Protocol::Uci => self.process.send("ucinewgame")?,
            Protocol::Xboard => self.xboard_new_game(variant, fen, limit)?,
        }
        self.sync(deadline)
    }

    /// Asks for a move.
    pub fn play(&mut self, req: &MoveRequest) -> Result<Answer, Fault> {
        match self.spec.proto {
            Protocol::Uci => self.play_uci(req),
            Protocol::Xboard => self.play_xboard(req),
        }
    }

    /// Tells the engine the game is over (XBoard `result`); UCI needs nothing.
    pub fn game_over(&mut self, result: &str, reason: &str) {
        if self.spec.proto == Protocol::Xboard {
            let _ = self.process.send(&format!("result {result} {{{reason}}}"));
            let _ = self.process.send("force");
            self.playing = false;
        }
    }

    /// Asks it to quit and makes sure the process is gone.
    pub fn stop(&mut self) {
        self.process.stop("quit");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}
