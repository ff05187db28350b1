//! Colours, piece kinds and coloured pieces.

use std::num::NonZeroU8;
use std::ops::Not;

pub use crate::variant::limits::MAX_KINDS;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A piece kind: an index into the variant's list of pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Kind(pub u8);

impl Kind {
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A coloured piece, packed in one non-zero byte so that `Option<Piece>` is one byte too.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece(NonZeroU8);

impl Piece {
    #[inline(always)]
    pub fn new(color: Color, kind: Kind) -> Piece {
        // Never zero: the low bit holds the colour, and 2 + 2 * kind is at least 2.
        Piece(NonZeroU8::new(2 + 2 * kind.0 + color as u8).unwrap())
    }
    #[inline(always)]
    pub fn color(self) -> Color {
        if self.0.get() & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
    #[inline(always)]
    pub fn kind(self) -> Kind {
        Kind((self.0.get() - 2) >> 1)
    }
    /// A dense index `0 .. 2 * MAX_KINDS`, for tables such as the Zobrist keys.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0.get() as usize - 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_pack_and_unpack() {
        for kind in 0..MAX_KINDS as u8 {
            for color in Color::BOTH {
                let p = Piece::new(color, Kind(kind));
                assert_eq!(p.color(), color);
                assert_eq!(p.kind(), Kind(kind));
                assert!(p.index() < 2 * MAX_KINDS);
            }
        }
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
    }
}
