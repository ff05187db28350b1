//! A definition sent over the protocol as a here-document (`load <<END` … `END`, or `load <<`
//! … an empty line), to a fresh UCI or XBoard session. Byte 0 picks: bit 0 `load` or
//! `check`, bit 1 a named mark or none, bit 2 UCI or XBoard; the rest is the text.
//!
//! What must hold: nothing panics; the session answers the `isready` (`ping`) that follows
//! the text, so the here-document ended where it should; and every definition the engine
//! accepts reads its start position and plays three plies, each position passing the
//! FEN/hash checks. Past the limit on kept definitions (`variant::limits`) a long run's loads
//! are refused, which is fuzzed too; the plays below are on copies that `check` accepted.

#![no_main]

mod common;

use std::sync::{Arc, Mutex};

use common::Lines;
use libfuzzer_sys::fuzz_target;
use magus::game::check_variant;
use magus::protocol::Session;
use magus::protocol::uci::{Output, UciSession};
use magus::protocol::xboard::XboardSession;
use magus::variant::definitions::Format;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let command = if mode & 1 == 0 { "load" } else { "check" };
    let marker = if mode & 2 == 0 { "END" } else { "" };
    // The text's own lines never end it early: a line that would is changed.
    let body: Vec<&str> = text
        .lines()
        .map(|l| {
            let ends = if marker.is_empty() {
                l.trim().is_empty()
            } else {
                l.trim_end() == marker
            };
            if ends { "#" } else { l }
        })
        .collect();

    let sink = Arc::new(Mutex::new(Lines::default()));
    let out: Output = sink.clone();
    let uci = mode & 4 == 0;
    let mut session: Box<dyn FnMut(&str) -> bool> = if uci {
        let mut s = UciSession::new(common::REGISTRY.clone(), out);
        Box::new(move |l| s.handle_line(l))
    } else {
        let mut s = XboardSession::new(common::REGISTRY.clone(), out);
        s.handle_line("xboard");
        s.handle_line("protover 2");
        Box::new(move |l| s.handle_line(l))
    };
    session(&format!("{command} <<{marker}"));
    for line in &body {
        session(line);
    }
    session(marker);
    session(if uci { "isready" } else { "ping 7" });
    session("quit");
    let written = String::from_utf8_lossy(&sink.lock().unwrap().0).into_owned();
    // The sink drops old output past 1 MB; look only when all of it is there.
    if written.len() < 1 << 19 {
        let answer = if uci { "readyok" } else { "pong 7" };
        assert_eq!(
            written.lines().filter(|l| *l == answer).count(),
            1,
            "the here-document did not end at its mark"
        );
    }

    // What the engine accepts plays.
    let joined = body.join("\n") + "\n";
    let format = Format::of_text(&joined);
    for d in common::REGISTRY.check_text(&joined, "fuzz", format, &check_variant) {
        let Ok(variant) = d.outcome else { continue };
        // Lives for the run, as the engine's accepted variants do.
        let variant = Box::leak(Box::new(variant));
        common::play_accepted(variant, data);
    }
});
