//! `magus gui`: a board for people in the browser. A small web server on the loopback
//! interface serves one page (its HTML, CSS and JavaScript built into the binary from
//! `assets/`) and a JSON API (`api.rs`, documented in docs/gui.md) through which the page, or
//! a script, plays and analyses games of every variant.
//!
//! The page holds no rules: the legal moves with their structure, SAN, side effects, results
//! and the engine's lines all come from here, which drives games through the same library
//! calls as the command line. Nothing else in the library uses this module.
//!
//! - `server`: binding 127.0.0.1, printing the address, opening the browser; `connection`:
//!   the read timeout and the JSON answer to bytes that are not HTTP;
//! - `api`: the routes and the checks every request passes;
//! - `sessions`, `session`: the games held, each with its players, clocks and engine;
//! - `view`: what the page is sent; `requests`: what it sends;
//! - `store`: the games kept on disk; `record`: PGN and FEN in and out; `clock`; `strength`: levels of play;
//! - `assets`: the page's files and the piece pictures.

mod api;
mod assets;
mod clock;
mod connection;
mod record;
mod requests;
mod server;
mod session;
mod sessions;
mod store;
pub mod strength;
mod view;

pub use server::{DEFAULT_PORT, Options, run};
