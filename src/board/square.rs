//! Squares and the board's dimensions.

use std::fmt;

/// A square index: `rank * files + file`, both from 0, rank 0 being White's first rank.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

impl Square {
    #[inline(always)]
    pub const fn new(index: u8) -> Self {
        Square(index)
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "sq{}", self.0)
    }
}

pub use crate::variant::limits::{MAX_FILES, MAX_SQUARES};

/// Board dimensions, and the square arithmetic that depends on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub files: u8,
    pub ranks: u8,
}

impl Dims {
    pub fn squares(self) -> usize {
        self.files as usize * self.ranks as usize
    }
    #[inline(always)]
    pub fn file(self, sq: Square) -> u8 {
        sq.0 % self.files
    }
    #[inline(always)]
    pub fn rank(self, sq: Square) -> u8 {
        sq.0 / self.files
    }
    #[inline(always)]
    pub fn square(self, file: u8, rank: u8) -> Square {
        Square(rank * self.files + file)
    }
    /// The square at `(file, rank)` if it is on the board.
    pub fn square_at(self, file: i32, rank: i32) -> Option<Square> {
        if (0..self.files as i32).contains(&file) && (0..self.ranks as i32).contains(&rank) {
            Some(self.square(file as u8, rank as u8))
        } else {
            None
        }
    }
    /// The square reached by an offset, if it stays on the board.
    pub fn offset(self, sq: Square, df: i32, dr: i32) -> Option<Square> {
        self.square_at(self.file(sq) as i32 + df, self.rank(sq) as i32 + dr)
    }
    /// The same square seen from the other side: rank `r` becomes `ranks - 1 - r`.
    pub fn mirror(self, sq: Square) -> Square {
        self.square(self.file(sq), self.ranks - 1 - self.rank(sq))
    }
    pub fn file_char(file: u8) -> char {
        (b'a' + file) as char
    }
    /// The square's name with ranks counted from `first_rank` (1 for UCI and SAN, 0 for
    /// XBoard on boards of ten or more ranks).
    pub fn name_from(self, sq: Square, first_rank: u8) -> String {
        format!(
            "{}{}",
            Self::file_char(self.file(sq)),
            self.rank(sq) as u32 + first_rank as u32
        )
    }
    pub fn name(self, sq: Square) -> String {
        self.name_from(sq, 1)
    }
    /// Reads a square name at the start of `text` (ranks from `first_rank`): returns the
    /// square and the number of bytes read.
    pub fn parse_prefix_from(self, text: &str, first_rank: u8) -> Option<(Square, usize)> {
        let bytes = text.as_bytes();
        let f = *bytes.first()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 3 {
            return None;
        }
        let number: u32 = text[1..1 + digits].parse().ok()?;
        let file = (f - b'a') as i32;
        let rank = number as i32 - first_rank as i32;
        let sq = self.square_at(file, rank)?;
        Some((sq, 1 + digits))
    }
    pub fn parse_prefix(self, text: &str) -> Option<(Square, usize)> {
        self.parse_prefix_from(text, 1)
    }
    /// Reads a whole square name (ranks from 1).
    pub fn parse_square(self, text: &str) -> Option<Square> {
        match self.parse_prefix(text) {
            Some((sq, n)) if n == text.len() => Some(sq),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_a_ten_by_ten_board() {
        let d = Dims {
            files: 10,
            ranks: 10,
        };
        let j10 = d.square(9, 9);
        assert_eq!(d.name(j10), "j10");
        assert_eq!(d.parse_square("j10"), Some(j10));
        assert_eq!(d.name_from(j10, 0), "j9");
        assert_eq!(d.parse_prefix_from("j9x", 0), Some((j10, 2)));
        assert_eq!(d.parse_square("k1"), None);
        assert_eq!(d.parse_square("a11"), None);
        assert_eq!(d.parse_square("a0"), None);
        assert_eq!(d.parse_square("a"), None);
    }

    #[test]
    fn offsets_stop_at_the_edges() {
        let d = Dims { files: 7, ranks: 7 };
        let a1 = d.square(0, 0);
        assert_eq!(d.offset(a1, -1, 0), None);
        assert_eq!(d.offset(a1, 6, 6), Some(d.square(6, 6)));
        assert_eq!(d.mirror(a1), d.square(0, 6));
    }
}
