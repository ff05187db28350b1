//! `magus._magus`: the magus engine's rules, notation and search for Python, with pyffish's
//! names, arguments and meanings wherever the concept exists (docs/python.md). A PyO3 crate
//! over the engine's library and nothing more: every answer comes from the library.
//!
//! - `variants`: the variants known, loading definitions (`load_variant_config`);
//! - `position`: the position a call starts from (variant, FEN, moves);
//! - `moves`: legal moves, SAN, FEN, checks, captures, wire notation, side effects, perft;
//! - `ending`: how a game ends, pyffish's values, the Magi payoff;
//! - `fen`: `validate_fen`'s codes;
//! - `pgn`: reading PGN of any variant;
//! - `engine`: the `Engine` class;
//! - `errors`: the exceptions.

mod ending;
mod engine;
mod errors;
mod fen;
mod integers;
mod moves;
mod pgn;
mod position;
mod variants;

use pyo3::prelude::*;

/// The module's version as pyffish gives its own: `(major, minor, patch)`.
#[pyfunction]
fn version() -> (u32, u32, u32) {
    let mut parts = env!("CARGO_PKG_VERSION")
        .split('.')
        .map(|p| p.parse().unwrap_or(0));
    let mut next = || parts.next().unwrap_or(0);
    (next(), next(), next())
}

/// The engine's name and version.
#[pyfunction]
fn info() -> String {
    format!("magus {}", env!("CARGO_PKG_VERSION"))
}

#[pymodule]
fn _magus(module: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(module)?;
    // The version as Python packages give theirs; `version()` is pyffish's tuple of it.
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add("VALUE_MATE", ending::VALUE_MATE)?;
    module.add("VALUE_DRAW", ending::VALUE_DRAW)?;
    module.add("NOTATION_DEFAULT", moves::NOTATION_DEFAULT)?;
    module.add("NOTATION_SAN", moves::NOTATION_SAN)?;
    for (name, code) in fen::CODES {
        module.add(name, code)?;
    }
    module.add_function(wrap_pyfunction!(version, module)?)?;
    module.add_function(wrap_pyfunction!(info, module)?)?;
    module.add_function(wrap_pyfunction!(variants::variants, module)?)?;
    module.add_function(wrap_pyfunction!(variants::start_fen, module)?)?;
    module.add_function(wrap_pyfunction!(variants::two_boards, module)?)?;
    module.add_function(wrap_pyfunction!(variants::captures_to_hand, module)?)?;
    module.add_function(wrap_pyfunction!(variants::load_variant_config, module)?)?;
    module.add_function(wrap_pyfunction!(variants::set_option, module)?)?;
    module.add_function(wrap_pyfunction!(moves::legal_moves, module)?)?;
    module.add_function(wrap_pyfunction!(moves::get_san, module)?)?;
    module.add_function(wrap_pyfunction!(moves::get_san_moves, module)?)?;
    module.add_function(wrap_pyfunction!(moves::get_fen, module)?)?;
    module.add_function(wrap_pyfunction!(moves::gives_check, module)?)?;
    module.add_function(wrap_pyfunction!(moves::is_capture, module)?)?;
    module.add_function(wrap_pyfunction!(moves::to_wire, module)?)?;
    module.add_function(wrap_pyfunction!(moves::move_effects, module)?)?;
    module.add_function(wrap_pyfunction!(moves::perft, module)?)?;
    module.add_function(wrap_pyfunction!(ending::game_result, module)?)?;
    module.add_function(wrap_pyfunction!(ending::is_immediate_game_end, module)?)?;
    module.add_function(wrap_pyfunction!(ending::is_optional_game_end, module)?)?;
    module.add_function(wrap_pyfunction!(ending::has_insufficient_material, module)?)?;
    module.add_function(wrap_pyfunction!(ending::outcome, module)?)?;
    module.add_function(wrap_pyfunction!(ending::payoff, module)?)?;
    module.add_function(wrap_pyfunction!(fen::validate_fen, module)?)?;
    module.add_function(wrap_pyfunction!(pgn::read_pgn, module)?)?;
    module.add_class::<engine::Engine>()?;
    module.add_class::<engine::SearchResult>()?;
    Ok(())
}
