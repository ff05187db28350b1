//! magus: a chess-variant engine for the magician variants and orthodox chess.
//!
//! Layers, each using only those below it (see DESIGN.md):
//! `variant` (definitions) → `board` (position, FEN, hash) → `movegen` (attacks, legal moves,
//! perft) → `game` (any board width) → `protocol` (UCI, notation) and the command line.

pub mod board;
pub mod diagram;
pub mod eval;
pub mod game;
pub mod movegen;
pub mod pgn;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tournament;
pub mod variant;
