//! A search of a crowded position in every built-in variant: the start position with its
//! empty squares filled by pieces the input picks (from the letters of the variant's own
//! start), so that every piece can take another. `go depth 1` and `go nodes 1000` must both
//! answer with a legal move that the search looked at; a search that never finishes its first
//! iteration shows as libFuzzer's timeout (fuzz/run.sh gives each input 20 s).

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use magus::game::{AnyPosition, Game};
use magus::search::engine::Engine;
use magus::search::time::Limits;
use magus::variant::Variant;

/// The variant's start FEN with each empty square filled from the input: a byte below 160
/// picks one of the start's non-royal letters of either colour, the others leave it empty.
fn crowded_fen(variant: &Variant, data: &[u8]) -> String {
    let start = &variant.start_fen;
    let (board, rest) = start.split_once(' ').unwrap_or((start, ""));
    let letters: Vec<char> = {
        let mut seen: Vec<char> = board
            .chars()
            .filter(|c| c.is_ascii_alphabetic() && !c.eq_ignore_ascii_case(&'k'))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        seen
    };
    let mut bytes = data.iter().cycle();
    let mut out = String::new();
    let mut digits = String::new();
    let mut empty_run = |out: &mut String, n: u32| {
        let mut gap = 0;
        for _ in 0..n {
            match bytes.next() {
                Some(&b) if b < 160 && !letters.is_empty() => {
                    if gap > 0 {
                        out.push_str(&gap.to_string());
                        gap = 0;
                    }
                    out.push(letters[b as usize % letters.len()]);
                }
                _ => gap += 1,
            }
        }
        if gap > 0 {
            out.push_str(&gap.to_string());
        }
    };
    for c in board.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            empty_run(&mut out, digits.parse().unwrap_or(0));
            digits.clear();
        }
        out.push(c);
    }
    if !digits.is_empty() {
        empty_run(&mut out, digits.parse().unwrap_or(0));
    }
    // No castling or en passant: the pieces moved.
    let side = rest.split_whitespace().next().unwrap_or("w");
    format!("{out} {side} - - 0 1")
}

fuzz_target!(|data: &[u8]| {
    if data.is_empty() {
        return;
    }
    let variant = common::variants()[data[0] as usize % common::variants().len()];
    let fen = crowded_fen(variant, &data[1..]);
    let Ok(pos) = AnyPosition::from_fen(variant, Some(&fen)) else {
        return;
    };
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return;
    }
    let engine = Engine::new();
    let game = Game::new(pos);
    let nodes = Limits {
        nodes: Some(1000),
        ..Limits::default()
    };
    for limits in [Limits::depth(1), nodes] {
        let result = engine.search(&game, limits, Box::new(|_| {}));
        assert!(legal.contains(&result.best), "{fen}: {:?}", result.best);
    }
});
