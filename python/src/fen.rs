//! pyffish's `validate_fen`: an integer code, `FEN_OK` or what is wrong. The codes are
//! Fairy-Stockfish's where magus finds the same fault, and one of magus's own
//! (`FEN_INVALID_POSITION`) for the rest: a position that cannot be played (a King the side
//! to move could take, a pawn on its promotion rank) or wrong variant state (`unmoved=`,
//! `swaps=`). The message of the fault is what `get_fen(variant, fen, [])` raises.

use magus::game::AnyPosition;
use pyo3::prelude::*;

use crate::errors::no_chess960;
use crate::variants;

pub const FEN_OK: i32 = 1;
pub const FEN_EMPTY: i32 = 0;
pub const FEN_INVALID_MOVE_COUNTER: i32 = -1;
pub const FEN_INVALID_HALF_MOVE_COUNTER: i32 = -2;
pub const FEN_INVALID_NUMBER_OF_KINGS: i32 = -3;
pub const FEN_INVALID_EN_PASSANT_SQ: i32 = -4;
pub const FEN_INVALID_CASTLING_INFO: i32 = -5;
pub const FEN_INVALID_SIDE_TO_MOVE: i32 = -6;
pub const FEN_INVALID_POCKET_INFO: i32 = -7;
pub const FEN_INVALID_BOARD_GEOMETRY: i32 = -8;
pub const FEN_INVALID_CHAR: i32 = -10;
pub const FEN_INVALID_NB_PARTS: i32 = -11;
pub const FEN_INVALID_POSITION: i32 = -20;

/// Every code with its name, for the module's constants.
pub const CODES: [(&str, i32); 13] = [
    ("FEN_OK", FEN_OK),
    ("FEN_EMPTY", FEN_EMPTY),
    ("FEN_INVALID_MOVE_COUNTER", FEN_INVALID_MOVE_COUNTER),
    (
        "FEN_INVALID_HALF_MOVE_COUNTER",
        FEN_INVALID_HALF_MOVE_COUNTER,
    ),
    ("FEN_INVALID_NUMBER_OF_KINGS", FEN_INVALID_NUMBER_OF_KINGS),
    ("FEN_INVALID_EN_PASSANT_SQ", FEN_INVALID_EN_PASSANT_SQ),
    ("FEN_INVALID_CASTLING_INFO", FEN_INVALID_CASTLING_INFO),
    ("FEN_INVALID_SIDE_TO_MOVE", FEN_INVALID_SIDE_TO_MOVE),
    ("FEN_INVALID_POCKET_INFO", FEN_INVALID_POCKET_INFO),
    ("FEN_INVALID_BOARD_GEOMETRY", FEN_INVALID_BOARD_GEOMETRY),
    ("FEN_INVALID_CHAR", FEN_INVALID_CHAR),
    ("FEN_INVALID_NB_PARTS", FEN_INVALID_NB_PARTS),
    ("FEN_INVALID_POSITION", FEN_INVALID_POSITION),
];

/// The code of a message of the FEN reader, by the field it names.
fn code_of(message: &str) -> i32 {
    let starts = |prefix: &str| message.starts_with(prefix);
    if starts("FEN board rank") {
        let bad_letter = ["is not a piece", "is not part of", "empty run of 0"]
            .iter()
            .any(|t| message.contains(t));
        if bad_letter {
            FEN_INVALID_CHAR
        } else {
            FEN_INVALID_BOARD_GEOMETRY
        }
    } else if starts("FEN board:") {
        FEN_INVALID_BOARD_GEOMETRY
    } else if starts("FEN reserve") {
        FEN_INVALID_POCKET_INFO
    } else if starts("FEN side to move") {
        FEN_INVALID_SIDE_TO_MOVE
    } else if starts("FEN castling") {
        FEN_INVALID_CASTLING_INFO
    } else if starts("FEN en passant") {
        FEN_INVALID_EN_PASSANT_SQ
    } else if starts("FEN halfmove clock") {
        FEN_INVALID_HALF_MOVE_COUNTER
    } else if starts("FEN fullmove number") {
        FEN_INVALID_MOVE_COUNTER
    } else if starts("FEN '") || starts("FEN field") {
        FEN_INVALID_NB_PARTS
    } else if message.contains("kings, needs exactly one") {
        FEN_INVALID_NUMBER_OF_KINGS
    } else {
        FEN_INVALID_POSITION
    }
}

/// `FEN_OK` (1) if the FEN is a position of the variant, else the code of what is wrong.
#[pyfunction]
#[pyo3(signature = (fen, variant, chess960=false))]
pub fn validate_fen(fen: &str, variant: &str, chess960: bool) -> PyResult<i32> {
    no_chess960(chess960)?;
    let variant = variants::variant(variant)?;
    if fen.trim().is_empty() {
        return Ok(FEN_EMPTY);
    }
    Ok(match AnyPosition::from_fen(variant, Some(fen)) {
        Ok(_) => FEN_OK,
        Err(message) if message.starts_with("FEN field") => bad_counter(fen),
        Err(message) => code_of(&message),
    })
}

/// The code of a FEN with a field the reader did not understand after the en passant
/// square. The reader cannot tell a bad counter from bad `key=value` state (counters may be
/// left out); pyffish's codes can, by the field's place: text with no `=` where the halfmove
/// clock or the fullmove number stands (`x`, `-1`, `1.5`) is that counter's fault.
fn bad_counter(fen: &str) -> i32 {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let is_number = |text: &str| text.bytes().all(|b| b.is_ascii_digit());
    let is_counter_slot = |text: &str| !text.contains('=') && !is_number(text);
    match fields.get(4..).unwrap_or_default() {
        [halfmove, ..] if is_counter_slot(halfmove) => FEN_INVALID_HALF_MOVE_COUNTER,
        [halfmove, fullmove, ..] if is_number(halfmove) && is_counter_slot(fullmove) => {
            FEN_INVALID_MOVE_COUNTER
        }
        _ => FEN_INVALID_NB_PARTS,
    }
}
