//! How the engine talks: move notation, UCI, XBoard, and variant definitions sent over
//! either (`definitions`).

pub mod definitions;
pub mod notation;
pub mod san;
pub mod uci;
pub mod xboard;
