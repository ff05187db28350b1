//! XBoard's board markers (its `highlight` feature): when a person picks up a piece, XBoard
//! sends `lift SQUARE`, and the engine answers `highlight COLORFEN`, marking where the piece
//! may go. XBoard takes a marked square as legal even where its own test of the `piece`
//! definitions says no (XBoard 4.9.1, `backend.c`: a move it finds illegal is played when the
//! engine marked its square), so a person can enter the moves XBoard does not know:
//!
//! - Home-File Transference (`a1h1`): a plain move onto a marked square;
//! - Magi's e.p. capture onto the pawn's origin square: two legs, first onto the pawn taken
//!   (marked cyan: XBoard then waits for a second leg and asks with `put` and `lift` again),
//!   then on to the landing square. XBoard removes the pawn of the first leg from its board
//!   and sends `c7d7,d7d8`;
//! - the swap-in, when asked for (`swap_ins`): two legs, out to an empty neighbour (cyan) and
//!   back onto the Bishop's own square (magenta: XBoard makes it the piece of `choice`).
//!   XBoard sends White's as `c1d2,d2c1m` and Black's in its castling form `c8c8,d7b8`;
//!   `dialect::parse_xboard` reads both. XBoard 4.9.1 changes a piece other than a pawn on its
//!   own board only when it does not test legality (`-xlegal`): with legality testing it would
//!   keep the Bishop while magus has a Magician, so the swap-in is marked only on request.
//!
//! A move XBoard cannot show at all (a spell, a drop, a promotion elsewhere on the board) is
//! not marked: XBoard refuses it, or magus answers `Illegal move` and XBoard takes it back.

use crate::board::{Bitboard, Move, MoveKind, Position, Square};

/// How a target square is marked, in XBoard's colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// A move to an empty square (yellow).
    Move,
    /// A capture (red: XBoard reports `hover` over it).
    Capture,
    /// The first leg of a two-leg move (cyan: XBoard waits for the next leg).
    FirstLeg,
    /// A move that needs a piece chosen (magenta: XBoard asks for it).
    Promotion,
}

impl Mark {
    fn letter(self) -> char {
        match self {
            Mark::Move => 'Y',
            Mark::Capture => 'R',
            Mark::FirstLeg => 'C',
            Mark::Promotion => 'M',
        }
    }
}

/// What to answer a `lift`: the marked squares, and the pieces a promotion offers (for
/// XBoard's `choice` command), if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    pub squares: Vec<(Square, Mark)>,
    pub choice: Option<String>,
}

impl Marks {
    fn add(&mut self, sq: Square, mark: Mark) {
        match self.squares.iter_mut().find(|(s, _)| *s == sq) {
            // One mark per square: the one that asks the most of XBoard.
            Some((_, old)) => *old = (*old).max(mark),
            None => self.squares.push((sq, mark)),
        }
    }

    /// The squares marked as first legs.
    pub fn first_legs(&self) -> Vec<Square> {
        self.squares
            .iter()
            .filter(|(_, m)| *m == Mark::FirstLeg)
            .map(|(s, _)| *s)
            .collect()
    }
}

/// An e.p. capture onto the square the captured pawn came from (Magi's d3/g3/d8/g8 pawns):
/// XBoard knows only e.p. onto a square the pawn passed. `last_from` is where the previous
/// move started.
pub fn is_ep_onto_origin(m: Move, last_from: Option<Square>) -> bool {
    m.kind() == MoveKind::EnPassant && Some(m.to()) == last_from
}

/// The empty neighbour through which a swap-in on `from` is entered as two legs: one that no
/// other move of the piece goes to if there is one (so that a plain move there still ends
/// with one click), else the first empty one.
pub fn swap_via<B: Bitboard>(pos: &Position<B>, from: Square, legal: &[Move]) -> Option<Square> {
    let dims = pos.layout().dims;
    let empty = |sq: Square| pos.piece_at(sq).is_none() && !pos.holes().has(sq);
    let near: Vec<Square> = [
        (0, 1),
        (0, -1),
        (1, 0),
        (-1, 0),
        (1, 1),
        (-1, 1),
        (1, -1),
        (-1, -1),
    ]
    .into_iter()
    .filter_map(|(df, dr)| dims.offset(from, df, dr))
    .filter(|&sq| empty(sq))
    .collect();
    let target = |sq: Square| {
        legal
            .iter()
            .any(|m| m.from() == from && m.to() == sq && m.kind() != MoveKind::SwapIn)
    };
    near.iter()
        .copied()
        .find(|&sq| !target(sq))
        .or(near.first().copied())
}

/// The answer to `lift from`: where the piece on `from` can go, its two-leg moves by their
/// first leg (the swap-in only if `swap_ins`). Nothing is marked for a piece of the side not
/// to move.
pub fn lift_marks<B: Bitboard>(
    pos: &Position<B>,
    from: Square,
    last_from: Option<Square>,
    swap_ins: bool,
) -> Marks {
    let mut marks = Marks::default();
    let Some(piece) = pos.piece_at(from) else {
        return marks;
    };
    if piece.color() != pos.side() {
        return marks;
    }
    let legal = pos.legal_moves();
    for &m in legal.iter().filter(|m| m.from() == from) {
        let enemy_on = |sq: Square| pos.piece_at(sq).is_some_and(|p| p.color() != pos.side());
        match m.kind() {
            MoveKind::Normal | MoveKind::Castle => {
                let mark = if enemy_on(m.to()) {
                    Mark::Capture
                } else {
                    Mark::Move
                };
                marks.add(m.to(), mark);
            }
            MoveKind::Promotion => marks.add(m.to(), Mark::Promotion),
            MoveKind::EnPassant if is_ep_onto_origin(m, last_from) => {
                marks.add(pos.ep_victim(), Mark::FirstLeg)
            }
            MoveKind::EnPassant => marks.add(m.to(), Mark::Capture),
            MoveKind::SwapIn if swap_ins => {
                if let Some(via) = swap_via(pos, from, &legal) {
                    marks.add(via, Mark::FirstLeg);
                }
            }
            // No form XBoard can enter: a promotion elsewhere on the board, a spell, a drop
            // (and the swap-in unless asked for).
            MoveKind::SwapIn
            | MoveKind::Transform
            | MoveKind::EnPassantTransform
            | MoveKind::SpellCarry
            | MoveKind::SpellDrop
            | MoveKind::Drop => {}
        }
    }
    marks
}

/// The answer to `lift via` after the piece on `from` was put on the first-leg square `via`:
/// where the second leg may end, and the pieces a swap-in offers.
pub fn second_leg_marks<B: Bitboard>(
    pos: &Position<B>,
    from: Square,
    via: Square,
    last_from: Option<Square>,
) -> Marks {
    let mut marks = Marks::default();
    let legal = pos.legal_moves();
    let mut pieces = String::new();
    for &m in legal.iter().filter(|m| m.from() == from) {
        if is_ep_onto_origin(m, last_from) && pos.ep_victim() == via {
            marks.add(m.to(), Mark::Move);
        }
        if m.kind() == MoveKind::SwapIn && swap_via(pos, from, &legal) == Some(via) {
            marks.add(from, Mark::Promotion);
            let letter = pos.layout().variant.pieces[m.piece().index()]
                .letter
                .to_ascii_uppercase();
            if !pieces.contains(letter) {
                pieces.push(letter);
            }
        }
    }
    if !pieces.is_empty() {
        marks.choice = Some(pieces);
    }
    marks
}

/// XBoard's COLORFEN: the board's ranks from the top, a colour letter on each marked square,
/// runs of unmarked squares as numbers.
pub fn color_fen<B: Bitboard>(pos: &Position<B>, marks: &Marks) -> String {
    let dims = pos.layout().dims;
    let mut rows = Vec::with_capacity(dims.ranks as usize);
    for rank in (0..dims.ranks).rev() {
        let mut row = String::new();
        let mut run = 0;
        for file in 0..dims.files {
            let sq = dims.square(file, rank);
            match marks.squares.iter().find(|(s, _)| *s == sq) {
                Some((_, mark)) => {
                    if run > 0 {
                        row += &run.to_string();
                        run = 0;
                    }
                    row.push(mark.letter());
                }
                None => run += 1,
            }
        }
        if run > 0 {
            row += &run.to_string();
        }
        rows.push(row);
    }
    rows.join("/")
}
