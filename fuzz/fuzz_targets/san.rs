//! SAN: arbitrary text against positions of each built-in variant (reached by a few plies
//! picked by the input). A move that is read is legal, and its SAN reads back to it.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use magus::protocol::san;
use magus::with_position;

fuzz_target!(|data: &[u8]| {
    let Some((pos, text)) = common::position_and_text(data) else {
        return;
    };
    with_position!(&pos, p => {
        if let Ok(m) = san::parse_san(p, &text) {
            assert!(p.legal_moves().contains(&m), "'{text}' read as an illegal move");
            let written = san::to_san(p, m);
            assert_eq!(san::parse_san(p, &written), Ok(m), "SAN {written}");
        }
    });
    // The game-level entry point too (it plays the move).
    if let Ok((next, _)) = pos.after_san(&text) {
        common::check_position(&next);
    }
});
