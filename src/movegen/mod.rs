//! Move generation: attacks, pseudo-legal moves, the legality test, perft.

mod attacks;
mod checks;
mod generate;
mod legal;
pub mod perft;

pub use checks::CheckContext;
pub use legal::LegalityContext;

pub use crate::board::moves::{MAX_MOVES, MoveList};
