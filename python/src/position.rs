//! The position every function starts from: a variant, a FEN (or `startpos`) and a list of
//! moves in wire notation played from it, as pyffish's functions take them.

use magus::board::{Bitboard, Move, Position};
use magus::game::AnyPosition;
use magus::game::MoveError;
use magus::protocol::notation::{parse_wire, to_wire};
use magus::variant::Variant;
use magus::with_position;
use pyo3::prelude::*;

use crate::errors::{FenError, IllegalMoveError};
use crate::variants;

/// A position reached from a FEN by a list of moves, with the hashes of every position on
/// the way (the last is the position's own), for repetitions.
pub struct Line {
    pub position: AnyPosition,
    pub hashes: Vec<u64>,
}

/// Reads a FEN of a variant; `startpos` is the variant's start position, as in pyffish.
pub fn read_fen(variant: &'static Variant, fen: &str) -> PyResult<AnyPosition> {
    let fen = (fen.trim() != "startpos").then_some(fen);
    AnyPosition::from_fen(variant, fen).map_err(FenError::new_err)
}

/// The legal move of `p` written `text` in wire notation, as the library's `parse_wire`
/// finds it. The two squares are read first, so that only the moves between them are
/// written out to compare: servers send whole games with every call. When no move matches,
/// the library's own reading gives the answer and its message.
fn find_wire<B: Bitboard>(p: &Position<B>, text: &str) -> Result<Move, MoveError> {
    let dims = p.layout().dims;
    let wanted = text.trim().to_ascii_lowercase();
    if let Some((from, n)) = dims.parse_prefix_from(&wanted, 1)
        && let Some((to, _)) = dims.parse_prefix_from(&wanted[n..], 1)
        && let Some(&m) = p
            .legal_moves()
            .iter()
            .find(|m| m.from() == from && m.to() == to && to_wire(p, **m, 1) == wanted)
    {
        return Ok(m);
    }
    parse_wire(p, text, 1)
}

/// The position after a wire move, and the move.
pub fn after_wire(position: &AnyPosition, text: &str) -> Result<(AnyPosition, Move), MoveError> {
    let m = with_position!(position, p => find_wire(p, text))?;
    Ok((position.after(m), m))
}

/// Plays one wire move; the error names the position.
pub fn play(position: &AnyPosition, text: &str) -> PyResult<(AnyPosition, Move)> {
    after_wire(position, text)
        .map_err(|e| IllegalMoveError::new_err(format!("{e} (position {})", position.to_fen())))
}

/// The error for the move at `index` of a list.
pub fn bad_move_in_list(index: usize, error: MoveError, position: &AnyPosition) -> PyErr {
    IllegalMoveError::new_err(format!(
        "move {} of the list: {error} (position {})",
        index + 1,
        position.to_fen()
    ))
}

impl Line {
    pub fn new(variant: &str, fen: &str, moves: &[String]) -> PyResult<Line> {
        let variant = variants::variant(variant)?;
        let mut position = read_fen(variant, fen)?;
        let mut hashes = Vec::with_capacity(moves.len() + 1);
        hashes.push(position.hash());
        for (i, text) in moves.iter().enumerate() {
            position = after_wire(&position, text)
                .map_err(|e| bad_move_in_list(i, e, &position))?
                .0;
            hashes.push(position.hash());
        }
        Ok(Line { position, hashes })
    }
}
