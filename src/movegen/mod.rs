//! Move generation: attacks, pseudo-legal moves, the legality test, perft.

mod attacks;
mod generate;
mod legal;
pub mod perft;

pub use legal::LegalityContext;

use arrayvec::ArrayVec;

use crate::board::Move;

/// Room for every move of any position: a royal-magician carrier move that triggers a drop
/// multiplies by up to a hundred drop choices.
pub const MAX_MOVES: usize = 2048;

pub type MoveList = ArrayVec<Move, MAX_MOVES>;
