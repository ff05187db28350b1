//! What a variant's special mechanics do to a position that the board itself reads or
//! writes: their state after a move, their FEN fields and reserve, their soundness checks.
//!
//! The mechanics live above the board (`src/rules/`), which builds on it; so the board does
//! not call them by name but through these function values, which the rules put into the
//! layout when they compile it. A layout no rule has compiled has no mechanics: the values
//! of `MechanicHooks::none` do nothing and accept nothing.

use super::bitboard::Bitboard;
use super::moves::Move;
use super::piece::{Color, Piece};
use super::position::Position;

/// The mechanics' part of playing a move and of reading and writing FEN.
#[derive(Clone, Copy, Debug)]
pub struct MechanicHooks<B: Bitboard> {
    /// Keeps mechanic state after a move has been made (the side to move is still the
    /// mover); called only when `MechanicFlags::keeps_state` is set.
    pub after_play: fn(&mut Position<B>, Move, Color, Option<Piece>),
    /// Reads one `key=value` FEN field; `Ok(false)` if no mechanic knows the key.
    pub parse_fen_state: fn(&mut Position<B>, &str, &str) -> Result<bool, String>,
    /// The `key=value` FEN fields the mechanics write.
    pub format_fen_state: fn(&Position<B>) -> Vec<String>,
    /// Reads the FEN's bracketed reserve (the text between `[` and `]`).
    pub parse_reserve: fn(&mut Position<B>, &str) -> Result<(), String>,
    /// The bracketed reserve to write after the board, if the variant has one.
    pub format_reserve: fn(&Position<B>) -> Option<String>,
    /// Checks what the mechanics require of a position read from FEN.
    pub check_sound: fn(&Position<B>) -> Result<(), String>,
}

impl<B: Bitboard> MechanicHooks<B> {
    /// No mechanics: nothing to keep, no FEN fields, no reserve.
    pub fn none() -> MechanicHooks<B> {
        MechanicHooks {
            after_play: |_, _, _, _| {},
            parse_fen_state: |_, _, _| Ok(false),
            format_fen_state: |_| Vec::new(),
            parse_reserve: |pos, text| {
                Err(format!(
                    "FEN reserve '[{text}]': {} has no pieces in reserve",
                    pos.layout().variant.name
                ))
            },
            format_reserve: |_| None,
            check_sound: |_| Ok(()),
        }
    }
}
