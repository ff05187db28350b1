//! Sets of squares as Fairy-Stockfish variant files write them: `*2 *3` (whole ranks), `a*`
//! (a whole file), `d4 e4` (squares), `-` (none). Kept on Fairy-Stockfish's largest board, 12
//! files by 10 ranks, because a set may name squares beyond a smaller board, and the defaults
//! do (White promotes on `*8` whatever the board's height).

use std::fmt;

pub const FILES: u8 = 12;
pub const RANKS: u8 = 10;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Region(u128);

fn bit(file: u8, rank: u8) -> u128 {
    1u128 << (rank as u32 * FILES as u32 + file as u32)
}

impl Region {
    pub const EMPTY: Region = Region(0);

    pub fn all() -> Region {
        Region((1u128 << (FILES as u32 * RANKS as u32)) - 1)
    }

    /// Rank `rank`, from 0.
    pub fn rank(rank: u8) -> Region {
        Region((0..FILES).fold(0, |acc, f| acc | bit(f, rank)))
    }

    pub fn has(self, file: u8, rank: u8) -> bool {
        file < FILES && rank < RANKS && self.0 & bit(file, rank) != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Reads a set. An error names the word that is not a square, a file or a rank.
    pub fn parse(text: &str) -> Result<Region, String> {
        let mut set = 0u128;
        for word in text.split_whitespace() {
            if word == "-" {
                break;
            }
            let bad = || {
                format!(
                    "'{word}' is not a square (d4), a rank (*4) or a file (d*) of a board up to {FILES}x{RANKS}"
                )
            };
            let file_of = |c: char| -> Result<u8, String> {
                let f = c.to_ascii_lowercase() as i32 - 'a' as i32;
                if c.is_ascii_alphabetic() && (0..FILES as i32).contains(&f) {
                    Ok(f as u8)
                } else {
                    Err(bad())
                }
            };
            let rank_of = |digits: &str| -> Result<u8, String> {
                match digits.parse::<u8>() {
                    Ok(r) if (1..=RANKS).contains(&r) => Ok(r - 1),
                    _ => Err(bad()),
                }
            };
            let chars: Vec<char> = word.chars().collect();
            if let Some(rest) = word.strip_prefix('*') {
                let r = rank_of(rest)?;
                set |= Region::rank(r).0;
            } else if chars.len() == 2 && chars[1] == '*' {
                let f = file_of(chars[0])?;
                set |= (0..RANKS).fold(0, |acc, r| acc | bit(f, r));
            } else if chars.len() >= 2 {
                let f = file_of(chars[0])?;
                let r = rank_of(&word[1..])?;
                set |= bit(f, r);
            } else {
                return Err(bad());
            }
        }
        Ok(Region(set))
    }

    /// The part on a board of `files` x `ranks`.
    pub fn on_board(self, files: u8, ranks: u8) -> Region {
        let mut mask = 0u128;
        for r in 0..ranks.min(RANKS) {
            for f in 0..files.min(FILES) {
                mask |= bit(f, r);
            }
        }
        Region(self.0 & mask)
    }

    /// Ranks turned upside down on a board of `ranks` ranks (squares beyond it are dropped).
    pub fn mirrored(self, ranks: u8) -> Region {
        let mut out = 0u128;
        for (f, r) in self.squares() {
            if r < ranks {
                out |= bit(f, ranks - 1 - r);
            }
        }
        Region(out)
    }

    /// The squares, rank by rank from the first.
    pub fn squares(self) -> impl Iterator<Item = (u8, u8)> {
        (0..RANKS)
            .flat_map(|r| (0..FILES).map(move |f| (f, r)))
            .filter(move |&(f, r)| self.has(f, r))
    }

    /// The ranks (from 0) if the set is made of whole ranks of a board `files` wide.
    pub fn whole_ranks(self, files: u8) -> Option<Vec<u8>> {
        let mut ranks = Vec::new();
        for r in 0..RANKS {
            let count = (0..files).filter(|&f| self.has(f, r)).count();
            if count == files as usize {
                ranks.push(r);
            } else if count > 0 {
                return None;
            }
        }
        Some(ranks)
    }
}

/// Written back in the file's notation, whole ranks as `*N`.
impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.is_empty() {
            return write!(f, "-");
        }
        let mut words = Vec::new();
        for r in 0..RANKS {
            let row = Region::rank(r).0;
            if self.0 & row == row {
                words.push(format!("*{}", r + 1));
            } else {
                for file in 0..FILES {
                    if self.has(file, r) {
                        words.push(format!("{}{}", (b'a' + file) as char, r + 1));
                    }
                }
            }
        }
        write!(f, "{}", words.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_files_and_squares() {
        let r = Region::parse("*2 *3").unwrap();
        assert_eq!(r.whole_ranks(8), Some(vec![1, 2]));
        assert_eq!(r.to_string(), "*2 *3");
        let f = Region::parse("a*").unwrap();
        assert!(f.has(0, 9) && !f.has(1, 0));
        let s = Region::parse("g8 h8 h7").unwrap();
        assert_eq!(s.whole_ranks(8), None);
        assert_eq!(s.squares().count(), 3);
        assert!(Region::parse("-").unwrap().is_empty());
        assert!(Region::parse("*2 - *3").unwrap().has(0, 1));
        assert!(!Region::parse("*2 - *3").unwrap().has(0, 2));
    }

    #[test]
    fn mirrored_and_clipped() {
        let white = Region::parse("*2").unwrap();
        assert_eq!(white.mirrored(8), Region::parse("*7").unwrap());
        // `*8` lies beyond a six-rank board.
        assert!(Region::parse("*8").unwrap().on_board(6, 6).is_empty());
        assert_eq!(Region::all().on_board(8, 8).squares().count(), 64);
    }

    #[test]
    fn bad_words_are_named() {
        for bad in ["*0", "*11", "z3", "x", "m*", "a0", "*"] {
            let e = Region::parse(bad).unwrap_err();
            assert!(e.contains(&format!("'{bad}'")), "{bad}: {e}");
        }
    }
}
