//! The compact move: a primary part and at most one side effect, packed in a `u32`.
//!
//! ```text
//! bits  0..7   from square      (the hole's square for a spell)
//! bits  7..14  to square
//! bits 14..21  aux square       (where a side effect happens)
//! bits 21..25  piece kind       (promotion, transformation or drop)
//! bits 25..29  move kind
//! ```

use arrayvec::ArrayVec;

use super::piece::Kind;
use super::square::Square;

/// Room for every move of any position: a royal-magician carrier move that triggers a drop
/// multiplies by up to a hundred drop choices.
pub const MAX_MOVES: usize = 2048;

/// The moves of a position, as the generator and the rules' mechanics write them.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// A move or capture, including a pawn's multi-step.
    Normal = 0,
    /// A pawn move onto the promotion zone, becoming `piece`.
    Promotion = 1,
    /// An en-passant capture: the captured pawn is not on the destination.
    EnPassant = 2,
    /// The King's own move; the Rook follows.
    Castle = 3,
    /// The piece on `from` (= `to`) turns into `piece` (deathmatch swap-in).
    SwapIn = 4,
    /// A normal pawn move, and the piece on `aux` becomes `piece` (6th-rank promotion).
    Transform = 5,
    /// An en-passant capture together with a transformation on `aux`.
    EnPassantTransform = 6,
    /// A spell: the hole on `from` swaps with the square `to`, carrying what stands there.
    SpellCarry = 7,
    /// A spell that drops the piece on `to` into the hole.
    SpellDrop = 8,
    /// A normal move, and a piece of kind `piece` is dropped from the mover's reserve on `aux`.
    Drop = 9,
}

impl MoveKind {
    const ALL: [MoveKind; 10] = [
        MoveKind::Normal,
        MoveKind::Promotion,
        MoveKind::EnPassant,
        MoveKind::Castle,
        MoveKind::SwapIn,
        MoveKind::Transform,
        MoveKind::EnPassantTransform,
        MoveKind::SpellCarry,
        MoveKind::SpellDrop,
        MoveKind::Drop,
    ];
}

/// A move. `Move::NULL` is no move at all (never generated).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u32);

impl Move {
    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.index() as u32 | (to.index() as u32) << 7 | (kind as u32) << 25)
    }
    #[inline(always)]
    pub const fn with_piece(self, piece: Kind) -> Move {
        Move(self.0 & !(0xF << 21) | (piece.0 as u32) << 21)
    }
    #[inline(always)]
    pub const fn with_aux(self, aux: Square) -> Move {
        Move(self.0 & !(0x7F << 14) | (aux.index() as u32) << 14)
    }
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 0x7F) as u8)
    }
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 7 & 0x7F) as u8)
    }
    #[inline(always)]
    pub const fn aux(self) -> Square {
        Square::new((self.0 >> 14 & 0x7F) as u8)
    }
    #[inline(always)]
    pub const fn piece(self) -> Kind {
        Kind((self.0 >> 21 & 0xF) as u8)
    }
    #[inline(always)]
    pub fn kind(self) -> MoveKind {
        MoveKind::ALL[(self.0 >> 25 & 0xF) as usize]
    }
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }
    /// The raw bits, for the transposition table.
    pub const fn bits(self) -> u32 {
        self.0
    }
    /// Rebuilds a move from [`Move::bits`]; `None` for bits no move has.
    pub fn from_bits(bits: u32) -> Option<Move> {
        if bits >> 25 >= MoveKind::ALL.len() as u32 || bits >> 29 != 0 {
            None
        } else {
            Some(Move(bits))
        }
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "Move({:?} {}->{} aux {} piece {})",
            self.kind(),
            self.from().index(),
            self.to().index(),
            self.aux().index(),
            self.piece().0
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_pack_without_overlap() {
        let m = Move::new(Square::new(127), Square::new(99), MoveKind::Drop)
            .with_aux(Square::new(64))
            .with_piece(Kind(15));
        assert_eq!(m.from().index(), 127);
        assert_eq!(m.to().index(), 99);
        assert_eq!(m.aux().index(), 64);
        assert_eq!(m.piece(), Kind(15));
        assert_eq!(m.kind(), MoveKind::Drop);
        assert_eq!(Move::from_bits(m.bits()), Some(m));
        assert_eq!(Move::from_bits(0xF << 25), None);
        for kind in MoveKind::ALL {
            assert_eq!(Move::new(Square::new(1), Square::new(2), kind).kind(), kind);
        }
    }
}
