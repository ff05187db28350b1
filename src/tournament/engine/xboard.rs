//! The referee's side of XBoard (CECP v2): the feature negotiation, `ping`/`pong`, a game set
//! up in force mode with its variant, position and clock, moves sent and read, thinking output
//! read for the score and depth, offers, claims and resignations.

use std::time::{Duration, Instant};

use super::{Answer, Engine, Fault, MATE_SCORE, MoveRequest, Reply};
use crate::tournament::clock::Limit;

fn xboard_variant(name: &str) -> Option<&str> {
    (name != "chess").then_some(name)
}

impl Engine {
    pub(super) fn xboard_sync(&mut self, deadline: Instant) -> Result<(), Fault> {
        self.xboard_sync_reading(deadline, |_| {})
    }

    /// `xboard_sync`, each line before the `pong` shown to `read`.
    fn xboard_sync_reading(
        &mut self,
        deadline: Instant,
        mut read: impl FnMut(&str),
    ) -> Result<(), Fault> {
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
            read(&line);
        }
    }

    pub(super) fn feature(&self, key: &str) -> Option<&str> {
        self.features
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    pub(super) fn xboard_handshake(
        &mut self,
        variant: &str,
        timeout: Duration,
    ) -> Result<(), String> {
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
        // An option the engine refused (XBoard's `Error (…): option …`) would make every game
        // measure something else than the command asked for: the match stops with its words.
        let deadline = Instant::now() + timeout;
        let mut refusals = Vec::new();
        self.xboard_sync_reading(deadline, |line| {
            if line.starts_with("Error") && line.contains("option ") {
                refusals.push(line.to_string());
            }
        })
        .map_err(|f| self.fault_text(f, "pong"))?;
        if refusals.is_empty() {
            Ok(())
        } else {
            Err(format!("it refused its options: {}", refusals.join("; ")))
        }
    }

    /// A new game in force mode: its variant, its position, its clock.
    pub(super) fn xboard_new_game(
        &mut self,
        variant: &str,
        fen: Option<&str>,
        limit: &Limit,
    ) -> Result<(), Fault> {
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
                    crate::tournament::clock::seconds_text(inc)
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
        Ok(())
    }

    pub(super) fn play_xboard(&mut self, req: &MoveRequest) -> Result<Answer, Fault> {
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
