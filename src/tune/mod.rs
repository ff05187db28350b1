//! Tuning the evaluation's weights on games (docs/tuning.md): `datagen` plays self-play games
//! and keeps their quiet positions (`data` is the file they go to), `label` scores those
//! positions again with another engine, `pgn_data` reads the games of a match's PGN as the
//! same data, `load` traces those positions as linear forms of the weights, `fit` fits the
//! weights to the games' results (the Texel method), and `cli` is what the three commands
//! print.
//! It uses the library below it: the evaluation's trace, the search's `Engine`, the
//! variants' weights, and the random openings and engine client of the tournament layer.

pub mod cli;
pub mod data;
pub mod datagen;
pub mod fit;
pub mod label;
pub mod load;
pub mod pgn_data;
pub mod progress;
pub mod train;
