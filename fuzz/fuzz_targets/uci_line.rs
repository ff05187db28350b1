//! The UCI session: the input's lines are handed to a fresh `UciSession` one by one, its
//! output kept in memory. Whatever they are, nothing panics (a panic on the search thread
//! aborts the run too) and every `isready` is answered with `readyok`.
//!
//! So that a run ends, the harness rewrites what would legitimately take long: after every
//! `go` comes a `stop` (an infinite or deep search is stopped at once); `go perft` and
//! `bench` are capped at depth 3 and 2; `Hash` is capped at 64 MB (libFuzzer counts bigger
//! tables as out-of-memory); `VariantPath` (which reads folders) is left out. The input ends
//! with `quit`.

#![no_main]

mod common;

use std::sync::{Arc, Mutex};

use libfuzzer_sys::fuzz_target;
use common::Lines;
use magus::protocol::Session;
use magus::protocol::uci::{Output, UciSession};

/// The line as the harness sends it, or None to leave it out.
fn tame(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let lower = line.to_ascii_lowercase();
    match words.as_slice() {
        ["go", "perft", depth, rest @ ..] => {
            let depth = depth
                .parse::<u32>()
                .map_or(depth.to_string(), |d| d.min(3).to_string());
            Some(format!("go perft {depth} {}", rest.join(" ")))
        }
        ["bench", depth, rest @ ..] => {
            let depth = depth
                .parse::<i64>()
                .map_or(depth.to_string(), |d| d.min(2).to_string());
            Some(format!("bench {depth} {}", rest.join(" ")))
        }
        ["bench"] => Some("bench 1".to_string()),
        _ if lower.contains("variantpath") => None,
        ["setoption", ..] if lower.contains("hash") && !lower.contains("clear") => {
            let capped: Vec<&str> = words
                .iter()
                .map(|w| match w.parse::<u64>() {
                    Ok(mb) if mb > 64 => "64",
                    _ => w,
                })
                .collect();
            Some(capped.join(" "))
        }
        _ => Some(line.to_string()),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let sink = Arc::new(Mutex::new(Lines::default()));
    let out: Output = sink.clone();
    let mut session = UciSession::new(common::REGISTRY.clone(), out);
    let mut asked = 0;
    for line in text.lines().take(64) {
        let Some(line) = tame(line) else { continue };
        if line.split_whitespace().next() == Some("isready") {
            asked += 1;
        }
        if !session.handle_line(&line) {
            return;
        }
        if line.trim_start().starts_with("go") {
            session.handle_line("stop");
        }
    }
    session.handle_line("isready");
    asked += 1;
    session.handle_line("quit");
    let written = String::from_utf8_lossy(&sink.lock().unwrap().0).into_owned();
    let answered = written.lines().filter(|l| *l == "readyok").count();
    // The sink drops old output past 1 MB; count only when all of it is there.
    if written.len() < 1 << 19 {
        assert_eq!(answered, asked, "readyok for each isready");
    }
});
