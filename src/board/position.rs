//! The position: pieces, holes, side to move, rights and variant state, with an incremental
//! Zobrist hash. Moves are made by copying (`let mut next = *pos; next.play(m)`): the
//! position is a plain value, so undo is free and threads can share nothing.

use super::bitboard::Bitboard;
use super::layout::Layout;
use super::moves::{Move, MoveKind};
use super::piece::{Color, Kind, MAX_KINDS, Piece};
use super::square::{MAX_SQUARES, Square};
use super::zobrist;
use crate::variant::EnPassant;

#[derive(Clone, Copy)]
pub struct Position<B: Bitboard> {
    layout: &'static Layout<B>,
    by_color: [B; 2],
    by_kind: [B; MAX_KINDS],
    holes: B,
    board: [Option<Piece>; MAX_SQUARES],
    side: Color,
    /// Bit `2 * colour + side`: side 0 is the `K` right, 1 the `Q` right.
    castling: u8,
    /// Squares on which the pawn that just moved can be taken en passant.
    ep_targets: B,
    /// Where that pawn stands.
    ep_victim: Square,
    /// Pawns that never moved, on the squares where the variant tracks it.
    unmoved: B,
    halfmove: u16,
    fullmove: u16,
    hash: u64,
    kings: [Square; 2],
    /// Small counters that variant mechanics keep (swaps made, drops still due), each
    /// hashed; what each slot means belongs to the mechanic (`src/rules/`).
    state: [u8; STATE_SLOTS],
}

/// How many counters of mechanic state a position has; each holds 0 to 15.
pub const STATE_SLOTS: usize = 4;

impl<B: Bitboard> Position<B> {
    /// An empty board, White to move; the FEN reader fills it.
    pub(crate) fn empty(layout: &'static Layout<B>) -> Self {
        let hash = (0..STATE_SLOTS).fold(0, |h, slot| h ^ zobrist::COUNTER[slot * 16]);
        Position {
            layout,
            by_color: [B::EMPTY; 2],
            by_kind: [B::EMPTY; MAX_KINDS],
            holes: B::EMPTY,
            board: [None; MAX_SQUARES],
            side: Color::White,
            castling: 0,
            ep_targets: B::EMPTY,
            ep_victim: Square::new(0),
            unmoved: B::EMPTY,
            halfmove: 0,
            fullmove: 1,
            hash,
            kings: [Square::new(0); 2],
            state: [0; STATE_SLOTS],
        }
    }

    // ---- reading ----

    #[inline(always)]
    pub fn layout(&self) -> &'static Layout<B> {
        self.layout
    }
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.by_color[0] | self.by_color[1]
    }
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> B {
        self.by_color[color.index()]
    }
    #[inline(always)]
    pub fn kind_bb(&self, kind: Kind) -> B {
        self.by_kind[kind.index()]
    }
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: Kind) -> B {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }
    #[inline(always)]
    pub fn holes(&self) -> B {
        self.holes
    }
    /// What blocks sliders and cannot be entered: pieces and holes.
    #[inline(always)]
    pub fn blockers(&self) -> B {
        self.occupied() | self.holes
    }
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }
    pub fn ep_targets(&self) -> B {
        self.ep_targets
    }
    pub fn ep_victim(&self) -> Square {
        self.ep_victim
    }
    pub fn unmoved(&self) -> B {
        self.unmoved
    }
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }
    /// A counter of mechanic state (see [`STATE_SLOTS`]).
    #[inline(always)]
    pub fn state(&self, slot: usize) -> u8 {
        self.state[slot]
    }

    // ---- editing, with the hash kept up to date ----

    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        let bb = B::from_square(sq);
        self.by_color[piece.color().index()] |= bb;
        self.by_kind[piece.kind().index()] |= bb;
        self.board[sq.index()] = Some(piece);
        self.hash ^= zobrist::piece(piece.index(), sq.index());
        if piece.kind() == self.layout.king {
            self.kings[piece.color().index()] = sq;
        }
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.board[sq.index()]?;
        let bb = B::from_square(sq);
        self.by_color[piece.color().index()] ^= bb;
        self.by_kind[piece.kind().index()] ^= bb;
        self.board[sq.index()] = None;
        self.hash ^= zobrist::piece(piece.index(), sq.index());
        Some(piece)
    }

    pub(crate) fn toggle_hole(&mut self, sq: Square) {
        self.holes ^= B::from_square(sq);
        self.hash ^= zobrist::HOLE[sq.index()];
    }

    pub(crate) fn set_side(&mut self, side: Color) {
        if side != self.side {
            self.side = side;
            self.hash ^= zobrist::BLACK_TO_MOVE;
        }
    }

    pub(crate) fn set_castling(&mut self, rights: u8) {
        let changed = self.castling ^ rights;
        for bit in 0..4 {
            if changed & (1 << bit) != 0 {
                self.hash ^= zobrist::CASTLING[bit];
            }
        }
        self.castling = rights;
    }

    pub(crate) fn set_en_passant(&mut self, targets: B, victim: Square) {
        for sq in (self.ep_targets ^ targets).squares() {
            self.hash ^= zobrist::EN_PASSANT[sq.index()];
        }
        self.ep_targets = targets;
        self.ep_victim = victim;
    }

    pub(crate) fn set_unmoved(&mut self, unmoved: B) {
        for sq in (self.unmoved ^ unmoved).squares() {
            self.hash ^= zobrist::UNMOVED[sq.index()];
        }
        self.unmoved = unmoved;
    }

    pub(crate) fn set_state(&mut self, slot: usize, value: u8) {
        debug_assert!(value < 16);
        self.hash ^= zobrist::COUNTER[slot * 16 + self.state[slot] as usize];
        self.state[slot] = value & 15;
        self.hash ^= zobrist::COUNTER[slot * 16 + self.state[slot] as usize];
    }

    pub(crate) fn set_clocks(&mut self, halfmove: u16, fullmove: u16) {
        self.halfmove = halfmove;
        self.fullmove = fullmove;
    }

    /// The hash computed from scratch; equal to [`Position::hash`] in a sound position.
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for s in 0..self.layout.squares {
            if let Some(p) = self.board[s] {
                h ^= zobrist::piece(p.index(), s);
            }
        }
        for sq in self.holes.squares() {
            h ^= zobrist::HOLE[sq.index()];
        }
        for sq in self.ep_targets.squares() {
            h ^= zobrist::EN_PASSANT[sq.index()];
        }
        for sq in self.unmoved.squares() {
            h ^= zobrist::UNMOVED[sq.index()];
        }
        for bit in 0..4 {
            if self.castling & (1 << bit) != 0 {
                h ^= zobrist::CASTLING[bit];
            }
        }
        if self.side == Color::Black {
            h ^= zobrist::BLACK_TO_MOVE;
        }
        for (slot, &value) in self.state.iter().enumerate() {
            h ^= zobrist::COUNTER[slot * 16 + value as usize];
        }
        h
    }

    // ---- making moves ----

    /// The position after `m`, this one left as it is.
    #[inline]
    pub fn after(&self, m: Move) -> Self {
        let mut next = *self;
        next.play(m);
        next
    }

    /// Makes a move generated for this position (pseudo-legal at least).
    pub fn play(&mut self, m: Move) {
        let layout = self.layout;
        let us = self.side;
        let from = m.from();
        let to = m.to();
        let ep_victim = self.ep_victim;
        let had_unmoved = self.unmoved;
        if self.ep_targets.any() {
            self.set_en_passant(B::EMPTY, ep_victim);
        }
        self.halfmove = self.halfmove.saturating_add(1);
        let mut captured = None;

        match m.kind() {
            MoveKind::Normal | MoveKind::Promotion | MoveKind::Transform | MoveKind::Drop => {
                let piece = self.remove(from).expect("a move from an empty square");
                captured = self.remove(to);
                if captured.is_some() {
                    self.halfmove = 0;
                }
                let placed = if m.kind() == MoveKind::Promotion {
                    Piece::new(us, m.piece())
                } else {
                    piece
                };
                self.put(to, placed);
                if layout.is_pawn[piece.kind().index()] {
                    self.halfmove = 0;
                    if m.kind() != MoveKind::Promotion {
                        self.after_pawn_push(from, to, had_unmoved);
                    }
                }
                if m.kind() == MoveKind::Transform {
                    self.transform(m.aux(), m.piece());
                }
                if m.kind() == MoveKind::Drop {
                    self.put(m.aux(), Piece::new(us, m.piece()));
                }
            }
            MoveKind::EnPassant | MoveKind::EnPassantTransform => {
                captured = self.remove(ep_victim);
                let pawn = self.remove(from).expect("en passant from an empty square");
                self.put(to, pawn);
                self.halfmove = 0;
                if m.kind() == MoveKind::EnPassantTransform {
                    self.transform(m.aux(), m.piece());
                }
            }
            MoveKind::Castle => {
                let rule = layout.castles[us.index()]
                    .iter()
                    .find(|c| c.king_from == from && c.king_to == to)
                    .expect("castling that the variant does not have");
                let king = self.remove(rule.king_from).unwrap();
                let rook = self.remove(rule.rook_from).unwrap();
                self.put(rule.king_to, king);
                self.put(rule.rook_to, rook);
            }
            MoveKind::SwapIn => {
                self.transform(from, m.piece());
            }
            MoveKind::SpellCarry | MoveKind::SpellDrop => {
                // The hole on `from` and the square `to` trade places.
                let carried = self.remove(to);
                self.toggle_hole(from);
                self.toggle_hole(to);
                match carried {
                    Some(p) if m.kind() == MoveKind::SpellCarry => self.put(from, p),
                    Some(_) => {
                        captured = carried;
                        self.halfmove = 0;
                    }
                    None => {}
                }
            }
        }

        let keep = layout.castle_keep[from.index()] & layout.castle_keep[to.index()];
        if self.castling & !keep != 0 {
            self.set_castling(self.castling & keep);
        }
        let touched = self.unmoved & (B::from_square(from) | B::from_square(to));
        if touched.any() {
            self.set_unmoved(self.unmoved ^ touched);
        }
        if layout.mechanics.keeps_state {
            (layout.hooks.after_play)(self, m, us, captured);
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.set_side(!us);
        debug_assert_eq!(
            self.hash,
            self.compute_hash(),
            "the incremental hash drifted from a recomputation after {m:?}"
        );
    }

    /// Passes the turn (null-move search): only the side and the e.p. state change.
    pub fn play_null(&mut self) {
        if self.ep_targets.any() {
            self.set_en_passant(B::EMPTY, self.ep_victim);
        }
        self.halfmove = self.halfmove.saturating_add(1);
        self.set_side(!self.side);
    }

    /// Replaces the piece on `sq` by one of `kind`, same colour.
    pub(crate) fn transform(&mut self, sq: Square, kind: Kind) {
        let old = self.remove(sq).expect("transforming an empty square");
        self.put(sq, Piece::new(old.color(), kind));
    }

    /// After a pawn's non-promoting move: which squares can now be taken en passant.
    fn after_pawn_push(&mut self, from: Square, to: Square, had_unmoved: B) {
        let layout = self.layout;
        let dims = layout.dims;
        if dims.file(from) != dims.file(to) {
            return;
        }
        let us = self.side;
        let c = us.index();
        let forward = layout.forward[c];
        let mut targets = B::EMPTY;
        match layout.en_passant {
            EnPassant::None => return,
            EnPassant::PassedSquares => {
                let mut s = from.index() as i32 + forward;
                while s != to.index() as i32 {
                    targets |= B::from_square(Square::new(s as u8));
                    s += forward;
                }
            }
            EnPassant::FromThirdRank => {
                let first_move = layout.first_steps[c][from.index()] > 1
                    || (had_unmoved.has(from) && layout.unmoved_steps[c][from.index()] > 1);
                if !first_move {
                    return;
                }
                let mut s = to.index() as i32 - forward;
                while s >= 0 && (s as usize) < layout.squares {
                    let sq = Square::new(s as u8);
                    targets |= B::from_square(sq);
                    if layout.third_rank[c].has(sq) {
                        break;
                    }
                    s -= forward;
                }
                if !(targets & layout.third_rank[c]).any() {
                    return;
                }
            }
        }
        let targets = self.capturable_en_passant(targets, !us);
        if targets.any() {
            self.set_en_passant(targets, to);
        }
    }

    /// The targets that a pawn of `capturer` attacks: a target nobody can take is not kept,
    /// so that equal positions hash equally.
    pub(crate) fn capturable_en_passant(&self, targets: B, capturer: Color) -> B {
        let layout = self.layout;
        let Some(pawn) = layout.pawn else {
            return B::EMPTY;
        };
        let pawns = self.pieces(capturer, pawn);
        let mut kept = B::EMPTY;
        for t in targets.squares() {
            if (layout.leap_attackers(pawn, capturer, t) & pawns).any() {
                kept |= B::from_square(t);
            }
        }
        kept
    }
}
