//! Engine processes: how they are described on the command line, started, spoken to over UCI
//! or XBoard (CECP v2), and stopped. Every wait has a deadline; a reader thread per engine turns
//! its output into timestamped lines, so the referee's clock reads the moment a move arrived.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use super::clock::{Clock, Limit};
use super::interrupt::{self, POLL, StopFlag};

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

enum Event {
    Line(Instant, String),
    Eof,
}

/// A running process with a reader thread on its output.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Event>,
    stop_flag: StopFlag,
    /// Reaped: its id is no longer ours to signal.
    reaped: bool,
}

impl Process {
    fn spawn(spec: &EngineSpec, stop: &StopFlag) -> Result<Process, String> {
        let mut command = Command::new(&spec.cmd);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        // Its own process group: a Ctrl-C typed at the terminal goes to the terminal's group,
        // which is then magus alone; magus stops the engines itself and keeps their games.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", spec.cmd))?;
        interrupt::register_engine(child.id());
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::Builder::new()
            .name(format!("engine {}", spec.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim().to_string();
                            if tx.send(Event::Line(Instant::now(), line)).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = tx.send(Event::Eof);
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        Ok(Process {
            child,
            stdin,
            lines: rx,
            stop_flag: stop.clone(),
            reaped: false,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        log::debug!("> {line}");
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Fault::Crash(format!("its input is closed ({e})")))
    }

    /// The next line, waiting until `deadline` or until the match is stopped.
    fn recv(&mut self, deadline: Instant) -> Result<(Instant, String), Fault> {
        loop {
            if self.stop_flag.is_raised() {
                return Err(Fault::Stopped);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left.min(POLL)) {
                Ok(Event::Line(at, line)) => {
                    log::debug!("< {line}");
                    return Ok((at, line));
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => return Err(self.ended()),
                Err(RecvTimeoutError::Timeout) if left <= POLL => return Err(Fault::Timeout),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Why the output closed: the exit status, given a moment to be known.
    fn ended(&mut self) -> Fault {
        let status = (0..20).find_map(|_| match self.child.try_wait() {
            Ok(Some(s)) => Some(s),
            _ => {
                std::thread::sleep(Duration::from_millis(5));
                None
            }
        });
        if status.is_some_and(killed_by_a_stop_signal) {
            // A scheduler that cancels a job signals every process of it, engines included:
            // the engine may die a moment before magus's own handler raises the flag, and the
            // game is then an interrupted one, not a crash.
            let until = Instant::now() + Duration::from_millis(500);
            while Instant::now() < until {
                if self.stop_flag.is_raised() {
                    return Fault::Stopped;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        Fault::Crash(match status {
            Some(s) => format!("the engine ended ({s})"),
            None => "the engine closed its output".into(),
        })
    }

    /// Asks the process to quit, then kills its process group if it does not within a moment:
    /// 300 ms between games (a faulty engine is being replaced), two seconds when the match
    /// is being stopped (an engine may have files to close; a second Ctrl-C kills it at once).
    fn stop(&mut self, quit: &str) {
        if self.reaped {
            return;
        }
        let _ = self.send(quit);
        let grace = if self.stop_flag.is_raised() {
            Duration::from_secs(2)
        } else {
            Duration::from_millis(300)
        };
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                self.reap();
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        interrupt::kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.reap();
    }

    fn reap(&mut self) {
        self.reaped = true;
        interrupt::forget_engine(self.child.id());
    }
}

/// SIGINT, SIGTERM or SIGHUP: what a terminal or a scheduler sends to stop a job.
fn killed_by_a_stop_signal(status: std::process::ExitStatus) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        matches!(
            status.signal(),
            Some(libc::SIGINT | libc::SIGTERM | libc::SIGHUP)
        )
    }
    #[cfg(not(unix))]
    {
        let _ = status;
        false
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

fn xboard_variant(name: &str) -> Option<&str> {
    (name != "chess").then_some(name)
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

    fn uci_handshake(&mut self, variant: &str, timeout: Duration) -> Result<(), String> {
        let deadline = Instant::now() + timeout;
        self.process.send("uci").map_err(|f| f.describe())?;
        loop {
            let (_, line) = self
                .process
                .recv(deadline)
                .map_err(|f| self.fault_text(f, "uciok"))?;
            if line == "uciok" {
                break;
            }
            if let Some(n) = line.strip_prefix("id name ") {
                self.id_name = Some(n.trim().to_string());
            }
            if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                self.uci_options.push(name.to_ascii_lowercase());
                // Variants loaded from a VariantPath option are not in the list yet.
                let loads_variants = self
                    .spec
                    .options
                    .iter()
                    .any(|(o, _)| o.eq_ignore_ascii_case("VariantPath"));
                if name.eq_ignore_ascii_case("UCI_Variant") && variant != "chess" && !loads_variants
                {
                    let vars: Vec<&str> = rest
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .windows(2)
                        .filter(|w| w[0] == "var")
                        .map(|w| w[1])
                        .collect();
                    if !vars.contains(&variant) {
                        return Err(format!("it does not play the variant '{variant}'"));
                    }
                }
            }
        }
        // Options first: `VariantPath` must be set before a variant it defines is chosen.
        for (name, value) in self.spec.options.clone() {
            if !self.uci_options.contains(&name.to_ascii_lowercase()) {
                return Err(format!("it has no option '{name}'"));
            }
            self.process
                .send(&format!("setoption name {name} value {value}"))
                .map_err(|f| f.describe())?;
        }
        if variant != "chess" || self.uci_options.iter().any(|o| o == "uci_variant") {
            if !self.uci_options.iter().any(|o| o == "uci_variant") {
                return Err(format!(
                    "it has no UCI_Variant option, so it cannot play '{variant}'"
                ));
            }
            self.process
                .send(&format!("setoption name UCI_Variant value {variant}"))
                .map_err(|f| f.describe())?;
        }
        self.sync(deadline)
            .map_err(|f| self.fault_text(f, "readyok"))
    }

    /// Waits until the engine has read everything sent so far (`isready`/`readyok`, or
    /// `ping`/`pong` when the XBoard engine has it).
    fn sync(&mut self, deadline: Instant) -> Result<(), Fault> {
        match self.spec.proto {
            Protocol::Uci => {
                self.process.send("isready")?;
                loop {
                    let (_, line) = self.process.recv(deadline)?;
                    if line == "readyok" {
                        return Ok(());
                    }
                }
            }
            Protocol::Xboard => {
                if self.feature("ping") != Some("1") {
                    return Ok(());
                }
                self.ping += 1;
                let n = self.ping;
                self.process.send(&format!("ping {n}"))?;
                loop {
                    let (_, line) = self.process.recv(deadline)?;
                    if line.split_whitespace().collect::<Vec<_>>() == ["pong", &n.to_string()] {
                        return Ok(());
                    }
                }
            }
        }
    }

    fn feature(&self, key: &str) -> Option<&str> {
        self.features
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn xboard_handshake(&mut self, variant: &str, timeout: Duration) -> Result<(), String> {
        self.process.send("xboard").map_err(|f| f.describe())?;
        self.process.send("protover 2").map_err(|f| f.describe())?;
        // XBoard's rule: two seconds for the features, unless the engine asks for more time
        // with done=0 (then until done=1, here at most the handshake timeout).
        let start = Instant::now();
        let mut deadline = start + Duration::from_secs(2).min(timeout);
        loop {
            let (_, line) = match self.process.recv(deadline) {
                Ok(l) => l,
                Err(Fault::Timeout) => break,
                Err(f) => return Err(f.describe()),
            };
            let Some(rest) = line.strip_prefix("feature ") else {
                continue;
            };
            let mut done = false;
            for (key, value) in parse_features(rest) {
                let known = matches!(
                    key.as_str(),
                    "ping"
                        | "setboard"
                        | "playother"
                        | "san"
                        | "usermove"
                        | "time"
                        | "draw"
                        | "sigint"
                        | "sigterm"
                        | "reuse"
                        | "analyze"
                        | "myname"
                        | "variants"
                        | "colors"
                        | "ics"
                        | "name"
                        | "pause"
                        | "nps"
                        | "debug"
                        | "memory"
                        | "smp"
                        | "egt"
                        | "option"
                        | "done"
                        | "exclude"
                        | "setscore"
                        | "highlight"
                        | "myversion"
                );
                if key == "done" {
                    if value == "0" {
                        deadline = start + timeout;
                    } else {
                        done = true;
                    }
                }
                let answer = if known { "accepted" } else { "rejected" };
                self.process
                    .send(&format!("{answer} {key}"))
                    .map_err(|f| f.describe())?;
                if known && key != "done" {
                    self.features.push((key, value));
                }
            }
            if done {
                break;
            }
        }
        if let Some(n) = self.feature("myname") {
            self.id_name = Some(n.to_string());
        }
        // Variants loaded from a VariantPath option are not in the list yet.
        let loads_variants = self
            .spec
            .options
            .iter()
            .any(|(o, _)| o.eq_ignore_ascii_case("VariantPath"));
        if let Some(v) = xboard_variant(variant).filter(|_| !loads_variants) {
            let list = self.feature("variants").unwrap_or("normal");
            if !list.split(',').any(|x| x.trim() == v) {
                return Err(format!(
                    "it does not play the variant '{v}' (its variants: {list})"
                ));
            }
        }
        for (name, value) in self.spec.options.clone() {
            self.process
                .send(&format!("option {name}={value}"))
                .map_err(|f| f.describe())?;
        }
        let deadline = Instant::now() + timeout;
        self.sync(deadline).map_err(|f| self.fault_text(f, "pong"))
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
            Protocol::Uci => {
                self.process.send("ucinewgame")?;
            }
            Protocol::Xboard => {
                self.process.send("new")?;
                if let Some(v) = xboard_variant(variant) {
                    self.process.send(&format!("variant {v}"))?;
                }
                self.process.send("force")?;
                if let Some(fen) = fen {
                    if self.feature("setboard") != Some("1") {
                        return Err(Fault::Protocol(
                            "it cannot set up a position (no setboard feature)".into(),
                        ));
                    }
                    self.process.send(&format!("setboard {fen}"))?;
                }
                match *limit {
                    Limit::Clock { moves, base, inc } => {
                        let secs = base.as_secs();
                        self.process.send(&format!(
                            "level {} {}:{:02} {}",
                            moves.unwrap_or(0),
                            secs / 60,
                            secs % 60,
                            super::clock::seconds_text(inc)
                        ))?;
                    }
                    Limit::MoveTime(t) => {
                        self.process.send(&format!("st {}", t.as_secs().max(1)))?;
                    }
                    Limit::Depth(d) => self.process.send(&format!("sd {d}"))?,
                    Limit::Nodes(n) => {
                        if self.feature("nps") == Some("0") {
                            return Err(Fault::Protocol(
                                "it cannot search a fixed number of nodes (nps=0)".into(),
                            ));
                        }
                        self.process.send(&format!("nps {n}"))?;
                        self.process.send("st 1")?;
                    }
                }
                self.process.send("post")?;
                self.process.send("easy")?;
                self.sent = 0;
                self.playing = false;
            }
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

    fn play_uci(&mut self, req: &MoveRequest) -> Result<Answer, Fault> {
        let mut position = match req.fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        if !req.moves.is_empty() {
            position += " moves ";
            position += &req.moves.join(" ");
        }
        self.process.send(&position)?;
        let go = match *req.limit {
            Limit::Clock { inc, .. } => {
                let (w, b) = if req.white {
                    (req.own, req.other)
                } else {
                    (req.other, req.own)
                };
                let mut go = format!(
                    "go wtime {} btime {} winc {} binc {}",
                    w.left.as_millis(),
                    b.left.as_millis(),
                    inc.as_millis(),
                    inc.as_millis()
                );
                if let Some(m) = req.own.moves_to_go(req.limit) {
                    go += &format!(" movestogo {m}");
                }
                go
            }
            Limit::MoveTime(t) => format!("go movetime {}", t.as_millis()),
            Limit::Nodes(n) => format!("go nodes {n}"),
            Limit::Depth(d) => format!("go depth {d}"),
        };
        self.process.send(&go)?;
        let mut reply = Reply::default();
        loop {
            let (at, line) = self.process.recv(req.deadline)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => read_uci_info(&line, &mut reply),
                Some("bestmove") => {
                    let Some(m) = words.next() else {
                        return Err(Fault::Protocol("'bestmove' without a move".into()));
                    };
                    reply.text = m.to_string();
                    reply.at = Some(at);
                    return Ok(Answer::Move(reply));
                }
                _ => {}
            }
        }
    }

    fn play_xboard(&mut self, req: &MoveRequest) -> Result<Answer, Fault> {
        let usermove = |m: &str, e: &Engine| {
            if e.feature("usermove") == Some("1") {
                format!("usermove {m}")
            } else {
                m.to_string()
            }
        };
        let clock_lines = |req: &MoveRequest| -> Vec<String> {
            if let Limit::Clock { .. } = req.limit {
                vec![
                    format!("time {}", req.own.left.as_millis() / 10),
                    format!("otim {}", req.other.left.as_millis() / 10),
                ]
            } else {
                Vec::new()
            }
        };
        let new = &req.moves[self.sent.min(req.moves.len())..];
        if self.playing && new.len() == 1 {
            // It is waiting for the opponent's move and answers it at once.
            for l in clock_lines(req) {
                self.process.send(&l)?;
            }
            if req.draw_offered {
                self.process.send("draw")?;
            }
            self.process.send(&usermove(&new[0], self))?;
        } else {
            if self.playing {
                self.process.send("force")?;
            }
            for m in new {
                self.process.send(&usermove(m, self))?;
            }
            for l in clock_lines(req) {
                self.process.send(&l)?;
            }
            if req.draw_offered {
                self.process.send("draw")?;
            }
            self.process.send("go")?;
        }
        self.sent = req.moves.len();
        self.playing = true;
        let mut reply = Reply::default();
        loop {
            let (at, line) = self.process.recv(req.deadline)?;
            let lower = line.to_ascii_lowercase();
            let first = line.split_whitespace().next().unwrap_or("");
            if first == "move" || lower.starts_with("my move is") {
                let Some(m) = line.split_whitespace().last().filter(|w| *w != "move") else {
                    return Err(Fault::Protocol(format!(
                        "a move line without a move: '{line}'"
                    )));
                };
                reply.text = m.trim_end_matches(['!', '?']).to_string();
                reply.at = Some(at);
                self.sent += 1;
                return Ok(Answer::Move(reply));
            }
            if first == "resign" || lower.starts_with("tellics resign") {
                return Ok(Answer::Resign);
            }
            if lower.starts_with("offer draw") {
                reply.offers_draw = true;
                continue;
            }
            if lower.starts_with("illegal move") {
                return Err(Fault::Protocol(format!(
                    "it refused a legal move: '{line}'"
                )));
            }
            if matches!(first, "1-0" | "0-1" | "1/2-1/2") {
                let loses = (first == "0-1" && req.white) || (first == "1-0" && !req.white);
                return Ok(if loses {
                    Answer::Resign
                } else {
                    Answer::Claim(line.clone())
                });
            }
            if let Some((score, depth)) = read_xboard_thinking(&line) {
                reply.score = Some(score);
                reply.depth = Some(depth);
            }
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
        match self.process.child.try_wait() {
            Ok(None) => self.stop(),
            _ => self.process.reap(),
        }
    }
}

/// Splits `key=value key="quoted value"` pairs.
fn parse_features(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, next) = if let Some(q) = after.strip_prefix('"') {
            match q.find('"') {
                Some(end) => (q[..end].to_string(), &q[end + 1..]),
                None => (q.to_string(), ""),
            }
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (after[..end].to_string(), &after[end..])
        };
        out.push((key, value));
        rest = next.trim_start();
    }
    out
}

fn read_uci_info(line: &str, reply: &mut Reply) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                    reply.depth = Some(d);
                }
            }
            "score" => match (
                words.get(i + 1),
                words.get(i + 2).and_then(|w| w.parse::<i32>().ok()),
            ) {
                (Some(&"cp"), Some(cp)) => reply.score = Some(cp),
                (Some(&"mate"), Some(m)) => {
                    reply.score = Some(if m > 0 {
                        MATE_SCORE - (2 * m - 1)
                    } else {
                        -MATE_SCORE - 2 * m
                    })
                }
                _ => {}
            },
            "pv" | "string" => break,
            _ => {}
        }
        i += 1;
    }
}

/// Thinking output: `ply score time nodes pv…` (all numbers but the pv).
fn read_xboard_thinking(line: &str) -> Option<(i32, u32)> {
    let words: Vec<&str> = line.split_whitespace().take(4).collect();
    if words.len() < 4 {
        return None;
    }
    let depth: u32 = words[0].trim_end_matches(['.', '&']).parse().ok()?;
    let score: i32 = words[1].parse().ok()?;
    words[2].parse::<u64>().ok()?;
    words[3].parse::<u64>().ok()?;
    // XBoard's mate convention: 100000 + moves.
    let score = if score.abs() >= MATE_SCORE {
        score.signum() * (MATE_SCORE - 2 * (score.abs() - MATE_SCORE).max(1) + 1)
    } else {
        score
    };
    Some((score, depth))
}
