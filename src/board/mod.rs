//! The board layer: squares, bitboards, pieces, moves, the compiled variant layout, the
//! position with its hash, and FEN.

pub mod bitboard;
mod fen;
pub mod hooks;
pub mod layout;
pub mod moves;
pub mod piece;
pub mod position;
pub mod spell_tables;
pub mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use layout::Layout;
pub use moves::{MAX_MOVES, Move, MoveKind, MoveList};
pub use piece::{Color, Kind, MAX_KINDS, Piece};
pub use position::Position;
pub use square::{Dims, Square};
