//! What the spells of Magician Chess (`rules/spells.rs`) read per square, kept in the layout
//! so that the hot paths find it beside the pieces' tables. The rules fill it in when they
//! compile a variant with holes; it is empty otherwise.

use super::bitboard::Bitboard;
use super::square::Square;

/// The spells' tables of one variant, compiled once.
#[derive(Clone, Debug, Default)]
pub struct SpellTables<B> {
    /// Bit `k` set for each kind that casts spells.
    pub caster_kinds: u16,
    /// The number of holes every position has.
    pub holes: u32,
    /// Per square: the squares a caster there can enchant a hole on.
    range: Vec<B>,
    /// Per square: the squares a hole there trades places with.
    neighbours: Vec<B>,
}

impl<B: Bitboard> SpellTables<B> {
    /// Tables of `range` and `neighbours`, one entry per square of the board.
    pub fn new(caster_kinds: u16, holes: u32, range: Vec<B>, neighbours: Vec<B>) -> Self {
        SpellTables {
            caster_kinds,
            holes,
            range,
            neighbours,
        }
    }

    #[inline(always)]
    pub fn range(&self, sq: Square) -> B {
        self.range[sq.index()]
    }

    #[inline(always)]
    pub fn neighbours(&self, sq: Square) -> B {
        self.neighbours[sq.index()]
    }
}
