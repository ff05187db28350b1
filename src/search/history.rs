//! What a search thread learns about moves as it searches, kept from one search to the next:
//! which quiet moves cut off (by side and squares, and after the moves one and two plies
//! before: continuation history), which captures did, the killer and counter moves, and how
//! far the static evaluation missed in positions of a given pawn structure (correction
//! history). The tables are sized for the variant being searched.

use crate::board::{Bitboard, Color, Move, MoveKind, Position};

use super::ordering::MAX_PLY;

/// Every history entry stays within this, by the gravity of the update.
pub const HISTORY_LIMIT: i32 = 16384;
/// Correction entries count sixteenths of a centipawn.
const CORRECTION_GRAIN: i32 = 16;
const CORRECTION_LIMIT: i32 = 400 * CORRECTION_GRAIN;
const CORRECTION_ENTRIES: usize = 1 << 14;

/// A piece and the square it went to: what the continuation history is indexed by. The
/// piece code is 0 for a move with no piece on its origin (a spell's hole), else
/// `1 + colour · kinds + kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PieceTo {
    pub piece: u16,
    pub to: u16,
}

impl PieceTo {
    pub fn of<B: Bitboard>(pos: &Position<B>, m: Move) -> PieceTo {
        let kinds = pos.layout().kinds;
        let piece = pos
            .piece_at(m.from())
            .map_or(0, |p| 1 + p.color().index() * kinds + p.kind().index());
        PieceTo {
            piece: piece as u16,
            to: m.to().index() as u16,
        }
    }
}

/// The update that moves an entry towards `bonus`, never past the limit.
#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let h = i32::from(*entry);
    let bonus = bonus.clamp(-HISTORY_LIMIT, HISTORY_LIMIT);
    *entry = (h + bonus - h * bonus.abs() / HISTORY_LIMIT) as i16;
}

#[derive(Clone)]
pub struct Histories {
    /// `[side][from][to]`
    butterfly: Vec<i16>,
    /// `[piece-to one or two plies back][piece-to of the move]`
    continuation: Vec<i16>,
    /// `[piece-to][captured kind]`
    capture: Vec<i16>,
    /// `[side][pawn-structure key]`, sixteenths of a centipawn.
    correction: Vec<i16>,
    pub killers: Vec<[Move; 2]>,
    /// The reply that refuted a move: `[from][to]` of the previous move.
    counters: Vec<Move>,
    /// Piece codes and squares the tables are sized for.
    codes: usize,
    squares: usize,
    kinds: usize,
}

impl Default for Histories {
    fn default() -> Self {
        Histories {
            butterfly: vec![0; 2 * 128 * 128],
            continuation: Vec::new(),
            capture: Vec::new(),
            correction: vec![0; 2 * CORRECTION_ENTRIES],
            killers: vec![[Move::NULL; 2]; MAX_PLY + 2],
            counters: vec![Move::NULL; 128 * 128],
            codes: 0,
            squares: 0,
            kinds: 0,
        }
    }
}

impl Histories {
    /// Makes the tables fit a variant's pieces and board (cleared when they change size).
    pub fn fit<B: Bitboard>(&mut self, pos: &Position<B>) {
        let layout = pos.layout();
        let (kinds, squares) = (layout.kinds, layout.squares);
        if kinds == self.kinds && squares == self.squares {
            return;
        }
        self.kinds = kinds;
        self.codes = 1 + 2 * kinds;
        self.squares = squares;
        let piece_tos = self.codes * squares;
        self.continuation = vec![0; piece_tos * piece_tos];
        self.capture = vec![0; piece_tos * kinds];
        self.clear();
    }

    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.continuation.fill(0);
        self.capture.fill(0);
        self.correction.fill(0);
        self.killers.fill([Move::NULL; 2]);
        self.counters.fill(Move::NULL);
    }

    #[inline]
    fn piece_to_index(&self, pt: PieceTo) -> usize {
        pt.piece as usize * self.squares + pt.to as usize
    }

    #[inline]
    fn butterfly_index(side: Color, m: Move) -> usize {
        (side.index() * 128 + m.from().index()) * 128 + m.to().index()
    }

    pub fn butterfly(&self, side: Color, m: Move) -> i32 {
        i32::from(self.butterfly[Self::butterfly_index(side, m)])
    }

    /// The continuation history of `now` after `before` (0 when there was no such move).
    #[inline]
    pub fn continuation(&self, before: Option<PieceTo>, now: PieceTo) -> i32 {
        match before {
            Some(b) => {
                let i =
                    self.piece_to_index(b) * self.codes * self.squares + self.piece_to_index(now);
                i32::from(self.continuation[i])
            }
            None => 0,
        }
    }

    /// What the tables say of a quiet move: its butterfly entry and its continuations after
    /// the moves one and two plies before.
    #[inline]
    pub fn quiet_score(
        &self,
        side: Color,
        m: Move,
        now: PieceTo,
        before: [Option<PieceTo>; 2],
    ) -> i32 {
        self.butterfly(side, m)
            + self.continuation(before[0], now)
            + self.continuation(before[1], now)
    }

    pub fn capture(&self, now: PieceTo, victim: usize) -> i32 {
        i32::from(self.capture[self.piece_to_index(now) * self.kinds + victim])
    }

    pub fn counter(&self, previous: Move) -> Move {
        if previous.is_null() {
            Move::NULL
        } else {
            self.counters[previous.from().index() * 128 + previous.to().index()]
        }
    }

    /// A quiet move changed the score at this node by `bonus` (negative: it failed).
    pub fn update_quiet(
        &mut self,
        side: Color,
        m: Move,
        now: PieceTo,
        before: [Option<PieceTo>; 2],
        bonus: i32,
    ) {
        self.update_butterfly(side, m, bonus);
        for b in before.into_iter().flatten() {
            let i = self.piece_to_index(b) * self.codes * self.squares + self.piece_to_index(now);
            gravity(&mut self.continuation[i], bonus);
        }
    }

    /// A move's side-and-squares entry alone moves by `bonus`.
    pub fn update_butterfly(&mut self, side: Color, m: Move, bonus: i32) {
        gravity(&mut self.butterfly[Self::butterfly_index(side, m)], bonus);
    }

    pub fn update_capture(&mut self, now: PieceTo, victim: usize, bonus: i32) {
        let i = self.piece_to_index(now) * self.kinds + victim;
        gravity(&mut self.capture[i], bonus);
    }

    /// `good` cut off at `ply`, after the move `previous`.
    pub fn note_killer(&mut self, ply: usize, good: Move, previous: Move) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != good {
            k[1] = k[0];
            k[0] = good;
        }
        if !previous.is_null() {
            self.counters[previous.from().index() * 128 + previous.to().index()] = good;
        }
    }

    /// How far the static evaluation is known to miss in positions with this pawn structure,
    /// in centipawns.
    pub fn correction(&self, side: Color, pawn_key: u64) -> i32 {
        let i = side.index() * CORRECTION_ENTRIES + pawn_key as usize % CORRECTION_ENTRIES;
        i32::from(self.correction[i]) / CORRECTION_GRAIN
    }

    /// The search found `score` where the static evaluation said `eval`, at this depth.
    pub fn update_correction(
        &mut self,
        side: Color,
        pawn_key: u64,
        depth: i32,
        eval: i32,
        score: i32,
    ) {
        let i = side.index() * CORRECTION_ENTRIES + pawn_key as usize % CORRECTION_ENTRIES;
        let diff = ((score - eval) * CORRECTION_GRAIN).clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT);
        let weight = (depth + 1).min(16);
        let old = i32::from(self.correction[i]);
        let new = (old * (256 - weight) + diff * weight) / 256;
        self.correction[i] = new.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) as i16;
    }
}

/// A key of the pawns' placement (and the side that owns each), for the correction history.
pub fn pawn_key<B: Bitboard>(pos: &Position<B>) -> u64 {
    let layout = pos.layout();
    let Some(pawn) = layout.pawn else {
        return 0;
    };
    let mut key = 0u64;
    for color in Color::BOTH {
        for sq in (pos.kind_bb(pawn) & pos.color_bb(color)).squares() {
            // A hash: the multiplication is meant to wrap.
            let x = (sq.index() as u64 + 1).wrapping_mul(if color == Color::White {
                0x9E37_79B9_7F4A_7C15
            } else {
                0xC2B2_AE3D_27D4_EB4F
            });
            key ^= x.rotate_left((sq.index() % 61) as u32) ^ (x >> 29);
        }
    }
    key
}

/// Whether a move takes material (for the histories: captures go to the capture table).
pub fn victim_kind<B: Bitboard>(pos: &Position<B>, m: Move) -> Option<usize> {
    let layout = pos.layout();
    match m.kind() {
        MoveKind::EnPassant | MoveKind::EnPassantTransform => layout.pawn.map(|p| p.index()),
        MoveKind::Castle | MoveKind::SwapIn | MoveKind::SpellCarry | MoveKind::SpellDrop => None,
        _ => pos
            .piece_at(m.to())
            .filter(|p| p.color() != pos.side())
            .map(|p| p.kind().index()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::search::see::tests::start;

    /// Every piece of either side has its own code, and none is the empty square's.
    #[test]
    fn piece_codes_tell_every_piece_apart() {
        for variant in ["chess", "deathmatch", "magician-chess"] {
            let pos = start(variant);
            let mut seen = std::collections::HashMap::new();
            let squares = || (0..pos.layout().squares).map(|i| Square::new(i as _));
            for sq in squares() {
                let Some(p) = pos.piece_at(sq) else { continue };
                let m = Move::new(sq, sq, MoveKind::Normal);
                let code = PieceTo::of(&pos, m).piece;
                assert_ne!(code, 0, "{variant}: {p:?}");
                let owner = seen.entry(code).or_insert((p.color(), p.kind()));
                assert_eq!(*owner, (p.color(), p.kind()), "{variant}: code {code}");
            }
            let empty = squares()
                .find(|&sq| pos.piece_at(sq).is_none())
                .expect("an empty square");
            let m = Move::new(empty, empty, MoveKind::Normal);
            assert_eq!(PieceTo::of(&pos, m).piece, 0);
        }
    }

    /// Fitting the tables to the same board keeps what they learnt; to another board,
    /// they are made anew at its size.
    #[test]
    fn fitting_keeps_the_tables_of_the_same_board() {
        let mut h = Histories::default();
        let chess = start("chess");
        h.fit(&chess);
        h.continuation[1] = 77;
        h.fit(&chess);
        assert_eq!(h.continuation[1], 77);
        let small = start("magician-chess");
        h.fit(&small);
        assert_eq!(h.continuation[1], 0);
        let piece_tos = h.codes * small.layout().squares;
        assert_eq!(h.continuation.len(), piece_tos * piece_tos);
        assert_eq!(h.squares, small.layout().squares);
    }
}
