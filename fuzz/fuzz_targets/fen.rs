//! FEN reading for every built-in variant: any text is refused with an error or read; a
//! position that was read writes back to the same FEN, and legal moves can be generated,
//! written (wire and SAN) and played from it, each position reached passing the same checks.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use magus::game::AnyPosition;
use magus::protocol::{notation, san};
use magus::with_position;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for &variant in common::variants() {
        let Ok(mut pos) = AnyPosition::from_fen(variant, Some(text)) else {
            continue;
        };
        common::check_position(&pos);
        // A few plies, the moves picked by the input's bytes.
        for ply in 0..4 {
            let moves = with_position!(&pos, p => p.legal_moves());
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                with_position!(&pos, p => {
                    let wire = notation::to_wire(p, m, 1);
                    assert_eq!(notation::parse_wire(p, &wire, 1), Ok(m), "wire {wire}");
                    let written = san::to_san(p, m);
                    assert_eq!(san::parse_san(p, &written), Ok(m), "SAN {written}");
                });
            }
            let pick = data.get(ply).copied().unwrap_or(0) as usize + data.len();
            let m = moves[pick % moves.len()];
            with_position!(&mut pos, p => p.play(m));
            common::check_position(&pos);
        }
    }
});
