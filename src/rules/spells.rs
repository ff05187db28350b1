//! Magician Chess holes and spells (RULES.md §3). Not built yet: no built-in variant
//! switches it on, and a variant file that asks for `[spells]` is refused until it is.

use crate::board::{Bitboard, Color, Layout, Position, Square};
use crate::movegen::MoveList;

pub fn compile<B: Bitboard>(layout: &mut Layout<B>) {
    layout.allows_holes = true;
}

pub fn generate<B: Bitboard>(_pos: &Position<B>, _list: &mut MoveList, _quiets: bool) {}

pub fn attackers<B: Bitboard>(_pos: &Position<B>, _sq: Square, _by: Color, _blockers: B) -> B {
    B::EMPTY
}

pub fn check_sound<B: Bitboard>(_pos: &Position<B>) -> Result<(), String> {
    Ok(())
}
