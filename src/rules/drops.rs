//! Royal Magician's Chess drops (RULES.md §4). Not built yet: no built-in variant switches
//! it on, and a variant file that asks for `[drops]` is refused until it is.

use crate::board::{Bitboard, Color, Layout, Move, Piece, Position};
use crate::movegen::MoveList;

pub fn compile<B: Bitboard>(_layout: &mut Layout<B>) {}

pub fn expand<B: Bitboard>(_pos: &Position<B>, _list: &mut MoveList) {}

pub fn after_play<B: Bitboard>(
    _pos: &mut Position<B>,
    _m: Move,
    _mover: Color,
    _captured: Option<Piece>,
) {
}

pub fn parse_reserve<B: Bitboard>(_pos: &mut Position<B>, text: &str) -> Result<(), String> {
    Err(format!(
        "FEN reserve '[{text}]': reserves are not supported yet"
    ))
}

pub fn format_reserve<B: Bitboard>(_pos: &Position<B>) -> String {
    String::new()
}

pub fn check_sound<B: Bitboard>(_pos: &Position<B>) -> Result<(), String> {
    Ok(())
}
