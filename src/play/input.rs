//! What a person types during `magus play`: a command word, or a move (SAN in the variant's
//! own forms, or coordinates).

/// One line of input, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Nothing but spaces: ask again.
    Empty,
    Help,
    /// The legal moves, of the piece on a square if one is named.
    Moves(Option<String>),
    Board,
    Fen,
    /// Take back the last move of each side.
    Undo,
    /// The engine suggests a move.
    Hint,
    Resign,
    /// Stop here; the game is saved unfinished.
    Quit,
    /// Anything else is taken for a move.
    Move(String),
}

/// The commands, as `help` lists them.
pub const HELP: &[&str] = &[
    "Type a move in SAN (e4, Nf3, exd5, O-O, e8=Q, and the variants' own forms: Bc1=M,",
    "e6 Md2=T, Hxe4, Ke4/N@c5) or in coordinates (e2e4, c1c1m, e3e4,n@c5). Commands:",
    "  moves [SQUARE]   the legal moves (of the piece on SQUARE)",
    "  board            draw the board again        fen    the position as FEN",
    "  undo             take back your last move and the engine's reply",
    "  hint             the engine suggests a move",
    "  resign           give up the game            quit   stop; the game is saved unfinished",
    "  help             this list",
    "End of input (Ctrl-D) stops too. Every move is saved to the PGN file as it is played.",
];

/// Reads one line.
pub fn read(line: &str) -> Input {
    let line = line.trim();
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Input::Empty;
    };
    let rest: Vec<&str> = words.collect();
    let alone = rest.is_empty();
    match first.to_ascii_lowercase().as_str() {
        "help" | "?" if alone => Input::Help,
        "moves" | "legal" if rest.len() <= 1 => Input::Moves(rest.first().map(|s| s.to_string())),
        "board" | "show" if alone => Input::Board,
        "fen" if alone => Input::Fen,
        "undo" | "takeback" | "back" if alone => Input::Undo,
        "hint" if alone => Input::Hint,
        "resign" if alone => Input::Resign,
        "quit" | "exit" | "q" if alone => Input::Quit,
        _ => Input::Move(line.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_moves_are_told_apart() {
        assert_eq!(read("  "), Input::Empty);
        assert_eq!(read("help"), Input::Help);
        assert_eq!(read("Moves e2"), Input::Moves(Some("e2".into())));
        assert_eq!(read("moves"), Input::Moves(None));
        assert_eq!(read("undo"), Input::Undo);
        assert_eq!(read("quit"), Input::Quit);
        assert_eq!(read("resign"), Input::Resign);
        // Moves, including the two-word form of a promotion elsewhere.
        assert_eq!(read("e6 Md2=T"), Input::Move("e6 Md2=T".into()));
        assert_eq!(read("Bc1=M"), Input::Move("Bc1=M".into()));
        assert_eq!(read("b4"), Input::Move("b4".into()));
        // A command word with extra words is not the command.
        assert_eq!(read("quit now"), Input::Move("quit now".into()));
    }
}
