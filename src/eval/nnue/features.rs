//! The inputs of a variant's net, derived from its definition so that every variant, a
//! user's own included, has them: one input per (colour, piece kind, square), one per square
//! for a hole and one per square for a pawn that has not moved (where the variant tracks
//! it), one per castling right, and four bits per counter of mechanic state (swaps made,
//! pieces dropped from a reserve).
//!
//! Each input exists from two views, White's and Black's. From Black's view the board is
//! turned over (rank r becomes ranks − 1 − r) and the colours are named "ours" and "theirs",
//! so that one set of weights serves both sides.

use arrayvec::ArrayVec;

use crate::board::position::STATE_SLOTS;
use crate::board::{Bitboard, Color, Kind, Layout, Piece, Position, Square};

/// Bits of each mechanic-state counter that are inputs (the counters hold 0 to 15).
const STATE_BITS: usize = 4;

/// Inputs that change by one move, at most, before a full refresh is cheaper.
pub const MAX_CHANGES: usize = 32;

/// Inputs added or removed by a move, for one view.
pub type Changes = ArrayVec<u32, MAX_CHANGES>;

/// The shape of a variant's inputs: what a net must have been trained on to fit it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureSet {
    pub files: u8,
    pub ranks: u8,
    pub kinds: u8,
    /// For each state slot, the slot of the same counter for the other colour.
    other_slot: [u8; STATE_SLOTS],
}

impl FeatureSet {
    pub fn of<B: Bitboard>(layout: &Layout<B>) -> FeatureSet {
        let other = crate::rules::state_slot_of_other_colour(layout.variant);
        FeatureSet {
            files: layout.dims.files,
            ranks: layout.dims.ranks,
            kinds: layout.kinds as u8,
            other_slot: other.map(|s| s as u8),
        }
    }

    #[inline(always)]
    pub fn squares(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    fn pieces_end(&self) -> usize {
        2 * self.kinds as usize * self.squares()
    }

    fn castling_base(&self) -> usize {
        self.pieces_end() + 2 * self.squares()
    }

    fn state_base(&self) -> usize {
        self.castling_base() + 4
    }

    /// How many inputs each view has.
    pub fn count(&self) -> usize {
        Self::count_for(self.files, self.ranks, self.kinds)
    }

    /// The inputs of a board of `files`×`ranks` with `kinds` piece kinds.
    pub fn count_for(files: u8, ranks: u8, kinds: u8) -> usize {
        let squares = files as usize * ranks as usize;
        2 * kinds as usize * squares + 2 * squares + 4 + STATE_SLOTS * STATE_BITS
    }

    /// The square as `view` sees it.
    #[inline(always)]
    fn orient(&self, sq: Square, view: Color) -> usize {
        match view {
            Color::White => sq.index(),
            Color::Black => {
                let files = self.files as usize;
                let (file, rank) = (sq.index() % files, sq.index() / files);
                (self.ranks as usize - 1 - rank) * files + file
            }
        }
    }

    #[inline(always)]
    pub fn piece(&self, view: Color, piece: Piece, sq: Square) -> u32 {
        let theirs = usize::from(piece.color() != view);
        let kind = piece.kind().0 as usize;
        ((theirs * self.kinds as usize + kind) * self.squares() + self.orient(sq, view)) as u32
    }

    #[inline(always)]
    fn hole(&self, view: Color, sq: Square) -> u32 {
        (self.pieces_end() + self.orient(sq, view)) as u32
    }

    #[inline(always)]
    fn unmoved(&self, view: Color, sq: Square) -> u32 {
        (self.pieces_end() + self.squares() + self.orient(sq, view)) as u32
    }

    /// Castling right `bit` of the position's rights (`2 * colour + side`).
    #[inline(always)]
    fn castling(&self, view: Color, bit: usize) -> u32 {
        let (color, side) = (bit / 2, bit % 2);
        let theirs = usize::from(color != view.index());
        (self.castling_base() + 2 * theirs + side) as u32
    }

    #[inline(always)]
    fn state(&self, view: Color, slot: usize, bit: usize) -> u32 {
        let slot = match view {
            Color::White => slot,
            Color::Black => self.other_slot[slot] as usize,
        };
        (self.state_base() + slot * STATE_BITS + bit) as u32
    }

    /// Every input that is on in `pos`, from `view`.
    pub fn active<B: Bitboard>(&self, pos: &Position<B>, view: Color, out: &mut Vec<u32>) {
        let layout = pos.layout();
        for color in Color::BOTH {
            for k in 0..layout.kinds {
                let kind = Kind(k as u8);
                let piece = Piece::new(color, kind);
                for sq in pos.pieces(color, kind).squares() {
                    out.push(self.piece(view, piece, sq));
                }
            }
        }
        for sq in pos.holes().squares() {
            out.push(self.hole(view, sq));
        }
        for sq in pos.unmoved().squares() {
            out.push(self.unmoved(view, sq));
        }
        let rights = pos.castling_rights();
        for bit in 0..4 {
            if rights & (1 << bit) != 0 {
                out.push(self.castling(view, bit));
            }
        }
        for slot in 0..STATE_SLOTS {
            let value = pos.state(slot);
            for bit in 0..STATE_BITS {
                if value & (1 << bit) != 0 {
                    out.push(self.state(view, slot, bit));
                }
            }
        }
    }

    /// The inputs a move turned on (`added`) and off (`removed`) from `before` to `after`,
    /// for both views (indexed by colour), found by comparing the two positions: every
    /// kind of move of every variant (spells, swap-ins, drops, Transference, castling
    /// forms) is covered without knowing it. `false` if the changes are too many to list
    /// (a full refresh is then cheaper).
    pub fn changes<B: Bitboard>(
        &self,
        before: &Position<B>,
        after: &Position<B>,
        added: &mut [Changes; 2],
        removed: &mut [Changes; 2],
    ) -> bool {
        let layout = before.layout();
        let mut changed = B::EMPTY;
        for color in Color::BOTH {
            changed |= before.color_bb(color) ^ after.color_bb(color);
        }
        for k in 0..layout.kinds {
            changed |= before.kind_bb(Kind(k as u8)) ^ after.kind_bb(Kind(k as u8));
        }
        for sq in changed.squares() {
            if let Some(p) = before.piece_at(sq)
                && !push(removed, |view| self.piece(view, p, sq))
            {
                return false;
            }
            if let Some(p) = after.piece_at(sq)
                && !push(added, |view| self.piece(view, p, sq))
            {
                return false;
            }
        }
        for sq in (before.holes() ^ after.holes()).squares() {
            if !toggle(added, removed, after.holes().has(sq), |view| {
                self.hole(view, sq)
            }) {
                return false;
            }
        }
        for sq in (before.unmoved() ^ after.unmoved()).squares() {
            let on = after.unmoved().has(sq);
            if !toggle(added, removed, on, |view| self.unmoved(view, sq)) {
                return false;
            }
        }
        let (old, new) = (before.castling_rights(), after.castling_rights());
        for bit in (0..4).filter(|b| (old ^ new) & (1 << b) != 0) {
            let on = new & (1 << bit) != 0;
            if !toggle(added, removed, on, |view| self.castling(view, bit)) {
                return false;
            }
        }
        for slot in 0..STATE_SLOTS {
            let (old, new) = (before.state(slot), after.state(slot));
            for bit in (0..STATE_BITS).filter(|b| (old ^ new) & (1 << b) != 0) {
                let on = new & (1 << bit) != 0;
                if !toggle(added, removed, on, |view| self.state(view, slot, bit)) {
                    return false;
                }
            }
        }
        true
    }
}

/// Adds the input `of(view)` to each view's list; `false` if a list is full.
#[inline(always)]
fn push(list: &mut [Changes; 2], of: impl Fn(Color) -> u32) -> bool {
    Color::BOTH
        .into_iter()
        .all(|view| list[view.index()].try_push(of(view)).is_ok())
}

/// An input that came on (`on`) or went off, onto `added` or `removed`; `false` if full.
#[inline(always)]
fn toggle(
    added: &mut [Changes; 2],
    removed: &mut [Changes; 2],
    on: bool,
    of: impl Fn(Color) -> u32,
) -> bool {
    push(if on { added } else { removed }, of)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyPosition;
    use crate::variant::Registry;
    use crate::with_position;

    fn sorted_active<B: Bitboard>(set: &FeatureSet, pos: &Position<B>, view: Color) -> Vec<u32> {
        let mut v = Vec::new();
        set.active(pos, view, &mut v);
        v.sort_unstable();
        v
    }

    /// The start position is the same seen from either side, in every variant with a
    /// symmetric start: the two views give the same inputs. A view that forgot to turn the
    /// board, to swap "ours" and "theirs", or to swap a colour's counters would differ.
    #[test]
    fn the_start_position_looks_the_same_from_both_sides() {
        let registry = Registry::builtin();
        for name in [
            "chess",
            "magi",
            "deathmatch",
            "magician-chess",
            "royal-magician",
        ] {
            let variant = registry.get(name).unwrap();
            let pos = AnyPosition::from_fen(variant, None).unwrap();
            with_position!(&pos, p => {
                let set = FeatureSet::of(p.layout());
                let white = sorted_active(&set, p, Color::White);
                let black = sorted_active(&set, p, Color::Black);
                assert!(!white.is_empty(), "{name}");
                assert!(white.iter().all(|&f| (f as usize) < set.count()), "{name}");
                assert_eq!(white, black, "{name}: the views differ at the start");
            });
        }
    }
}
