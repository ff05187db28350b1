//! Wire moves: arbitrary text against positions of each built-in variant (reached by a few
//! plies picked by the input), with ranks from 1 (UCI) and from 0 (XBoard). A move that is
//! read is legal, and its wire form reads back to the same move.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use magus::protocol::notation;
use magus::with_position;

fuzz_target!(|data: &[u8]| {
    let Some((pos, text)) = common::position_and_text(data) else {
        return;
    };
    with_position!(&pos, p => {
        let legal = p.legal_moves();
        for first_rank in [1, 0] {
            if let Ok(m) = notation::parse_wire(p, &text, first_rank) {
                assert!(legal.contains(&m), "'{text}' read as an illegal move");
                let wire = notation::to_wire(p, m, first_rank);
                assert_eq!(notation::parse_wire(p, &wire, first_rank), Ok(m));
                let mut next = *p;
                next.play(m);
            }
        }
    });
});
