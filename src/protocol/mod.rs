//! How the engine talks: move notation, UCI.

pub mod notation;
pub mod san;
pub mod uci;
