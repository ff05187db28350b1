//! How the engine talks: move notation, UCI, XBoard.

pub mod notation;
pub mod san;
pub mod uci;
pub mod xboard;
