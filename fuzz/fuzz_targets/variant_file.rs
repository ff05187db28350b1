//! Variant definition files and Betza notation: arbitrary TOML text is refused with an error or read; a
//! definition that is read goes through the engine's acceptance check (layout compiled,
//! start position read), and an accepted one can generate and play moves from its start.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use magus::game::check_variant;
use magus::variant::{betza, parse_variant};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The Betza reader on its own sees more shapes than those inside a valid file.
    let _ = betza::parse(text);
    let Ok(variant) = parse_variant(text, "fuzz.toml") else {
        return;
    };
    if check_variant(&variant).is_err() {
        return;
    }
    // Accepted: the engine would now play it. Definitions live for the whole run, as in
    // the engine's registry.
    let variant = Box::leak(Box::new(variant));
    common::play_accepted(variant, data);
});
