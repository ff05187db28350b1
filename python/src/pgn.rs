//! PGN of every variant (magus's reader): each game replayed through the rules, its moves
//! given back in wire notation, ready for the other functions.

use magus::pgn;
use magus::protocol::notation::to_wire;
use magus::with_position;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{IllegalMoveError, MagusError};
use crate::variants;

/// Reads every game of a PGN text and replays it: a list of dicts with `tags` (a dict, in
/// the file's order), `variant`, `fen` (the start position), `moves` (wire notation) and
/// `result` (as written: `1-0`, `0-1`, `1/2-1/2`, `*`). A game with an unknown variant, a
/// bad FEN or a move that is not legal raises, naming the game and the move.
#[pyfunction]
pub fn read_pgn<'py>(py: Python<'py>, text: &str) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let games = pgn::read_all(text).map_err(|e| MagusError::new_err(format!("PGN: {e}")))?;
    let registry = variants::snapshot();
    let mut out = Vec::with_capacity(games.len());
    for (i, game) in games.iter().enumerate() {
        let replay = pgn::replay(game, &registry).map_err(|e| {
            let message = format!("PGN game {}: {e}", i + 1);
            if e.ply == 0 {
                MagusError::new_err(message)
            } else {
                IllegalMoveError::new_err(message)
            }
        })?;
        let mut position = *replay.game.start();
        let mut moves = Vec::with_capacity(replay.game.moves().len());
        for &m in replay.game.moves() {
            moves.push(with_position!(&position, p => to_wire(p, m, 1)));
            position = position.after(m);
        }
        let tags = PyDict::new(py);
        for (name, value) in &game.tags {
            tags.set_item(name, value)?;
        }
        let result = if game.result.is_empty() {
            game.tag("Result").unwrap_or("*").to_string()
        } else {
            game.result.clone()
        };
        let entry = PyDict::new(py);
        entry.set_item("tags", tags)?;
        entry.set_item("variant", &replay.game.variant().name)?;
        entry.set_item("fen", replay.game.start().to_fen())?;
        entry.set_item("moves", moves)?;
        entry.set_item("result", result)?;
        out.push(entry);
    }
    Ok(out)
}
