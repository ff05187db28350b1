//! The referee's side of UCI: the handshake (`uci`, options, `UCI_Variant`), `isready`, and a
//! move asked for with `position` and `go`, its `info` lines read for the score and depth.

use std::time::{Duration, Instant};

use super::{Answer, Engine, Fault, MATE_SCORE, MoveRequest, Reply};
use crate::tournament::clock::Limit;

impl Engine {
    pub(super) fn uci_handshake(&mut self, variant: &str, timeout: Duration) -> Result<(), String> {
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
        // An option the engine refused would make every game measure something else than
        // the command asked for: the match stops with the engine's own words.
        let mut refusals = Vec::new();
        self.uci_sync_reading(deadline, |line| {
            let lower = line.to_ascii_lowercase();
            if lower.starts_with("info string error") || lower.starts_with("no such option") {
                refusals.push(line.to_string());
            }
        })
        .map_err(|f| self.fault_text(f, "readyok"))?;
        if refusals.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "it refused its options or variant: {}",
                refusals.join("; ")
            ))
        }
    }

    pub(super) fn uci_sync(&mut self, deadline: Instant) -> Result<(), Fault> {
        self.uci_sync_reading(deadline, |_| {})
    }

    /// `uci_sync`, each line before the `readyok` shown to `read`.
    fn uci_sync_reading(
        &mut self,
        deadline: Instant,
        mut read: impl FnMut(&str),
    ) -> Result<(), Fault> {
        self.process.send("isready")?;
        loop {
            let (_, line) = self.process.recv(deadline)?;
            if line == "readyok" {
                return Ok(());
            }
            read(&line);
        }
    }

    pub(super) fn play_uci(&mut self, req: &MoveRequest) -> Result<Answer, Fault> {
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
