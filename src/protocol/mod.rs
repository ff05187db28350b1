//! How the engine talks: move notation, UCI, XBoard, and variant definitions sent over
//! either (`definitions`).

pub mod definitions;
pub mod evaluation;
pub mod input;
pub mod notation;
pub mod san;
pub mod uci;
pub mod xboard;

use crate::game::{AnyPosition, Game};
use crate::variant::Registry;

/// The game a protocol session holds before its GUI says anything: chess from its start (or
/// the registry's first variant, in a registry without chess).
pub(crate) fn game_before_any_command(registry: &Registry) -> Game {
    let variant = registry.get("chess").unwrap_or(registry.all()[0]);
    Game::new(AnyPosition::from_fen(variant, None).expect("built-in start positions are sound"))
}

/// A protocol session as its front end drives it: a line at a time, from a GUI's pipe or a
/// test's transcript.
pub trait Session {
    /// What starts a line the GUI shows the user rather than reads as a command: nothing in
    /// UCI, where a stray line is ignored, and `# ` in XBoard, where it would be taken as a
    /// reply.
    const COMMENT: &'static str;

    /// Tells the GUI of a problem found before the session began (a refused variant file of
    /// `--variant-path`).
    fn note_problem(&self, text: &str);

    /// Handles one line; returns false on `quit`.
    fn handle_line(&mut self, line: &str) -> bool;

    /// The input is closed: what was asked is finished (a `go perft` or `bench` answers), a
    /// search still running is stopped, and the session ends as on `quit`.
    fn end_of_input(&mut self) {
        self.handle_line("quit");
    }
}

/// A command line's first word and the rest, both trimmed; `None` for a blank line.
pub fn split_command(line: &str) -> Option<(&str, &str)> {
    let line = line.trim();
    let command = line.split_whitespace().next()?;
    Some((command, line[command.len()..].trim()))
}
