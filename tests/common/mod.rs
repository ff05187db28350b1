//! Helpers shared by the integration tests: the built-in variants, positions from FEN, and
//! legal moves in wire notation (UCI squares, ranks from 1).

#![allow(dead_code)]

use std::sync::OnceLock;

use magus::game::AnyPosition;
use magus::variant::{Registry, Variant};

/// The built-in variants, parsed once per test binary.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(Registry::builtin)
}

pub fn variant(name: &str) -> &'static Variant {
    registry()
        .get(name)
        .unwrap_or_else(|| panic!("variant '{name}' is not built in"))
}

/// A position of a built-in variant; `None` is its start position.
pub fn position(variant_name: &str, fen: Option<&str>) -> AnyPosition {
    AnyPosition::from_fen(variant(variant_name), fen)
        .unwrap_or_else(|e| panic!("{variant_name} FEN {fen:?} refused: {e}"))
}

/// The legal moves, sorted.
pub fn legal(pos: &AnyPosition) -> Vec<String> {
    let mut moves = pos.legal_moves_wire(1);
    moves.sort();
    moves
}

/// The position after a wire move, which must be legal.
pub fn play(pos: &AnyPosition, wire: &str) -> AnyPosition {
    pos.after_wire(wire, 1)
        .unwrap_or_else(|e| panic!("{wire} in {}: {e}", pos.to_fen()))
        .0
}

/// The position after a sequence of wire moves separated by spaces.
pub fn play_all(pos: &AnyPosition, moves: &str) -> AnyPosition {
    moves.split_whitespace().fold(*pos, |p, m| play(&p, m))
}

/// Sorted owned strings from a space-separated list, to compare with [`legal`].
pub fn sorted(moves: &str) -> Vec<String> {
    let mut v: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// The board field of the FEN (the placement only).
pub fn board(pos: &AnyPosition) -> String {
    pos.to_fen().split_whitespace().next().unwrap().to_string()
}

/// The e.p. field of the FEN.
pub fn ep_field(pos: &AnyPosition) -> String {
    pos.to_fen().split_whitespace().nth(3).unwrap().to_string()
}
