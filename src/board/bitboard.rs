//! Bitboards generic over the integer that holds them.
//!
//! A board of up to 64 squares uses `u64`; up to 128 squares `u128`. Everything above this
//! file is generic over [`Bitboard`], and the engine picks the type once per variant, so the
//! hot paths are compiled twice and orthodox chess never pays for the 10x10 board.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::square::Square;

/// A set of squares, one bit per square, square `i` in bit `i`.
pub trait Bitboard:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many squares the type can hold.
    const CAPACITY: usize;
    const EMPTY: Self;

    fn from_square(sq: Square) -> Self;
    fn is_empty(self) -> bool;
    fn count(self) -> u32;
    /// The lowest square; the set must not be empty.
    fn lowest(self) -> Square;
    /// The highest square; the set must not be empty.
    fn highest(self) -> Square;
    /// The set without its lowest square.
    fn without_lowest(self) -> Self;
    /// The first `n` squares.
    fn first_n(n: usize) -> Self;

    #[inline(always)]
    fn has(self, sq: Square) -> bool {
        !(self & Self::from_square(sq)).is_empty()
    }

    #[inline(always)]
    fn any(self) -> bool {
        !self.is_empty()
    }

    /// More than one square.
    #[inline(always)]
    fn several(self) -> bool {
        !self.without_lowest().is_empty()
    }

    #[inline(always)]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
}

/// Iterates the squares of a set, lowest first.
#[derive(Clone, Copy)]
pub struct Squares<B>(B);

impl<B: Bitboard> Iterator for Squares<B> {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            None
        } else {
            let sq = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

macro_rules! impl_bitboard {
    ($t:ty) => {
        impl Bitboard for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
            const EMPTY: Self = 0;

            #[inline(always)]
            fn from_square(sq: Square) -> Self {
                1 << sq.index()
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> Square {
                Square::new(self.trailing_zeros() as u8)
            }
            #[inline(always)]
            fn highest(self) -> Square {
                Square::new((<$t>::BITS - 1 - self.leading_zeros()) as u8)
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            fn first_n(n: usize) -> Self {
                if n >= Self::CAPACITY {
                    !0
                } else {
                    (1 << n) - 1
                }
            }
        }
    };
}

impl_bitboard!(u64);
impl_bitboard!(u128);

#[cfg(test)]
mod tests {
    use super::*;

    fn check<B: Bitboard>() {
        let a = B::from_square(Square::new(3)) | B::from_square(Square::new(40));
        assert_eq!(a.count(), 2);
        assert_eq!(a.lowest().index(), 3);
        assert_eq!(a.highest().index(), 40);
        assert!(a.several());
        assert!(!a.without_lowest().several());
        let all: Vec<usize> = a.squares().map(|s| s.index()).collect();
        assert_eq!(all, vec![3, 40]);
        assert_eq!(B::first_n(5).count(), 5);
        assert_eq!(B::first_n(B::CAPACITY).count() as usize, B::CAPACITY);
    }

    #[test]
    fn both_widths_behave_alike() {
        check::<u64>();
        check::<u128>();
        let high = u128::from_square(Square::new(127));
        assert_eq!(high.lowest().index(), 127);
    }
}
