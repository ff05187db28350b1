//! magus: a chess-variant engine for the magician variants and orthodox chess.
//!
//! Layers, each using only those below it (DESIGN.md; the rules' mechanics and the board
//! call each other by design: a mechanic hooks into making a move and reading a FEN):
//!
//! - `variant`: definitions (TOML and Fairy-Stockfish's variants.ini), Betza, the limits;
//! - `board`: squares, bitboards, moves and move lists, the position, FEN, hashing, the
//!   compiled layout, `AnyPosition` (either bitboard width); `rules`: one file per mechanic;
//! - `movegen`: attacks, generation, legality, perft;
//! - `game`: a game's moves and history, and how a game ends (`game::outcome`);
//! - `eval`: the evaluation; `search`: the search, and `search::engine`, the facade that
//!   every front end runs searches through;
//! - `protocol`: the wire notation and SAN, UCI, XBoard, variant definitions over the wire;
//!   `pgn`; `diagram`;
//! - `tournament`: the referee, a client of the protocols;
//! - `tune`: self-play data and the fitting of the evaluation's weights (Texel tuning);
//! - `gui`: the board in the browser (`magus gui`), on top of all the rest; nothing in the
//!   library uses it;
//! - `play`: a game between a person and the engine in a terminal;
//! - the command line (`main.rs`) and the other front ends on top.

pub mod board;
pub mod diagram;
pub mod eval;
pub mod game;
pub mod gui;
pub mod movegen;
pub mod pgn;
pub mod play;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tournament;
pub mod tune;
pub mod variant;
