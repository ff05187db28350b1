//! The XBoard session: the input's lines are handed to a fresh `XboardSession` one by one,
//! after `xboard` and `protover 2`, its output kept in memory. Whatever they are, nothing
//! panics (a panic on the search thread aborts the run too) and every well-formed `ping N`
//! is answered with `pong N` by the time `quit` has been handled.
//!
//! The engine thinks, ponders and analyses for real; the `quit` that ends every input stops
//! whatever runs. So that a run stays in memory, `memory` is capped at 64 MB (libFuzzer
//! counts bigger tables as out-of-memory), and `option VariantPath=...` (which reads folders)
//! is left out.

#![no_main]

mod common;

use std::sync::{Arc, Mutex};

use common::Lines;
use libfuzzer_sys::fuzz_target;
use magus::protocol::Session;
use magus::protocol::uci::Output;
use magus::protocol::xboard::XboardSession;

/// The line as the harness sends it, or None to leave it out.
fn tame(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        _ if line.to_ascii_lowercase().contains("variantpath") => None,
        ["memory", mb] => Some(match mb.parse::<u64>() {
            Ok(mb) if mb > 64 => "memory 64".to_string(),
            _ => line.to_string(),
        }),
        _ => Some(line.to_string()),
    }
}

/// The number of a ping the session must answer, as it reads one.
fn ping_number(line: &str) -> Option<u32> {
    let line = line.trim();
    let rest = line.strip_prefix("ping")?;
    if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
        return None;
    }
    rest.trim().parse().ok()
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let sink = Arc::new(Mutex::new(Lines::default()));
    let out: Output = sink.clone();
    let mut session = XboardSession::new(common::REGISTRY.clone(), out);
    session.handle_line("xboard");
    session.handle_line("protover 2");
    let mut pings = Vec::new();
    let mut quit = false;
    for line in text.lines().take(64) {
        let Some(line) = tame(line) else { continue };
        pings.extend(ping_number(&line));
        if !session.handle_line(&line) {
            quit = true;
            break;
        }
    }
    if !quit {
        session.handle_line("quit");
    }
    let written = String::from_utf8_lossy(&sink.lock().unwrap().0).into_owned();
    // The sink drops old output past 1 MB; count only when all of it is there.
    if written.len() < 1 << 19 {
        for n in pings {
            let pong = format!("pong {n}");
            assert!(
                written.lines().any(|l| l == pong),
                "no '{pong}' in:\n{written}"
            );
        }
    }
});
