//! PGN for every variant: writing the games of a match and reading games back to replay them.
//!
//! A game of a variant other than chess carries `[Variant "name"]` (magus's own names); a game
//! that does not start from the variant's start position carries `[SetUp "1"]` and `[FEN "…"]`.
//! Moves are in SAN as `protocol::san` writes it (the inventors' forms), comments in braces.

use crate::board::{Color, Move};
use crate::game::{AnyPosition, Game};
use crate::variant::{Registry, Variant};
use crate::with_position;

/// One move of a game with the comment that follows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnMove {
    pub san: String,
    pub comment: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// In order; the seven-tag roster first when writing.
    pub tags: Vec<(String, String)>,
    pub moves: Vec<PgnMove>,
    /// The comment after the last move, before the result (how the game ended).
    pub final_comment: Option<String>,
    pub result: String,
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Comments may not hold a closing brace.
fn clean_comment(text: &str) -> String {
    text.replace('}', ")").replace('{', "(")
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(t) => t.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The game as PGN text, ending with a blank line. Move numbers follow the start position
    /// (a FEN with Black to move starts `12...`).
    pub fn write(&self) -> String {
        let mut out = String::new();
        for (k, v) in &self.tags {
            out += &format!("[{k} \"{}\"]\n", escape(v));
        }
        out.push('\n');
        let (mut number, mut black) = self
            .tag("FEN")
            .map(|fen| {
                let fields: Vec<&str> = fen.split_whitespace().collect();
                let black = fields.get(1) == Some(&"b");
                let n = fields
                    .iter()
                    .rev()
                    .find_map(|f| f.parse::<u32>().ok())
                    .filter(|_| fields.len() >= 6)
                    .unwrap_or(1);
                (n.max(1), black)
            })
            .unwrap_or((1, false));
        let mut tokens: Vec<String> = Vec::new();
        let mut after_comment = false;
        for (i, m) in self.moves.iter().enumerate() {
            if !black {
                tokens.push(format!("{number}."));
            } else if i == 0 || after_comment {
                tokens.push(format!("{number}..."));
            }
            // A move with a side effect is written `e6 Md2=T` in the inventors' notation; in
            // movetext the space would split it, so it is written `e6Md2=T` (SAN reading skips
            // spaces either way).
            tokens.push(m.san.replace(' ', ""));
            after_comment = false;
            if let Some(c) = &m.comment {
                tokens.push(format!("{{{}}}", clean_comment(c)));
                after_comment = true;
            }
            if black {
                number += 1;
            }
            black = !black;
        }
        if let Some(c) = &self.final_comment {
            tokens.push(format!("{{{}}}", clean_comment(c)));
        }
        tokens.push(self.result.clone());
        // Lines of at most 80 characters, breaking between tokens (a comment may be split at
        // its spaces).
        let mut line = String::new();
        for token in tokens {
            for word in token.split(' ') {
                if !line.is_empty() && line.len() + 1 + word.len() > 80 {
                    out += &line;
                    out.push('\n');
                    line.clear();
                }
                if !line.is_empty() {
                    line.push(' ');
                }
                line += word;
            }
        }
        out += &line;
        out += "\n\n";
        out
    }
}

/// Reads every game of a PGN text. Comments (`{…}` and `;` to the end of the line), NAGs,
/// variations and move numbers are skipped; tags with the `\"` escape are read.
pub fn read_all(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut started = false;
    let mut chars = text.char_indices().peekable();
    let mut line_no = 1;
    let mut depth = 0; // variations
    let mut token = String::new();
    let flush = |token: &mut String, game: &mut PgnGame, depth: i32, started: &mut bool| {
        if token.is_empty() {
            return;
        }
        let t = std::mem::take(token);
        if depth > 0 {
            return;
        }
        if matches!(t.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            game.result = t;
            *started = true;
            return;
        }
        if t.starts_with('$') {
            return;
        }
        // Move numbers: `12.`, `12...`, and `12.e4` written together.
        let trimmed = t.trim_start_matches(|c: char| c.is_ascii_digit());
        let rest = trimmed.trim_start_matches('.');
        if trimmed.len() != t.len() && trimmed.starts_with('.') {
            if rest.is_empty() {
                return;
            }
            game.moves.push(PgnMove {
                san: rest.to_string(),
                comment: None,
            });
        } else {
            game.moves.push(PgnMove {
                san: t,
                comment: None,
            });
        }
        *started = true;
    };
    while let Some((_, c)) = chars.next() {
        match c {
            '\n' => {
                line_no += 1;
                flush(&mut token, &mut game, depth, &mut started);
            }
            '[' if token.is_empty() && depth == 0 => {
                // A tag; a tag after movetext starts a new game.
                if !game.moves.is_empty() || !game.result.is_empty() {
                    games.push(std::mem::take(&mut game));
                }
                let mut inside = String::new();
                let mut in_string = false;
                let mut closed = false;
                while let Some((_, c)) = chars.next() {
                    match c {
                        '\\' if in_string => {
                            if let Some((_, n)) = chars.next() {
                                inside.push(n);
                            }
                        }
                        '"' => {
                            in_string = !in_string;
                            inside.push(c);
                        }
                        ']' if !in_string => {
                            closed = true;
                            break;
                        }
                        '\n' => {
                            line_no += 1;
                            inside.push(' ');
                        }
                        _ => inside.push(c),
                    }
                }
                if !closed {
                    return Err(format!("line {line_no}: a tag without ']'"));
                }
                let inside = inside.trim();
                let (name, value) = inside
                    .split_once(char::is_whitespace)
                    .ok_or_else(|| format!("line {line_no}: a tag without a value: [{inside}]"))?;
                let value = value.trim();
                let value = value
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .ok_or_else(|| format!("line {line_no}: the tag {name} has no quoted value"))?;
                game.tags.push((name.to_string(), value.to_string()));
                started = true;
            }
            '{' => {
                flush(&mut token, &mut game, depth, &mut started);
                let mut comment = String::new();
                let mut closed = false;
                for (_, c) in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    if c == '\n' {
                        line_no += 1;
                    }
                    comment.push(c);
                }
                if !closed {
                    return Err(format!("line {line_no}: a comment without '}}'"));
                }
                if depth == 0 {
                    let comment = comment.split_whitespace().collect::<Vec<_>>().join(" ");
                    match game.moves.last_mut() {
                        Some(m) if m.comment.is_none() => m.comment = Some(comment),
                        _ => game.final_comment = Some(comment),
                    }
                }
            }
            ';' => {
                flush(&mut token, &mut game, depth, &mut started);
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        line_no += 1;
                        break;
                    }
                }
            }
            // A variant's castling written `0-0(b)`: the bracket belongs to the move.
            '(' if token.starts_with("0-0") || token.starts_with("O-O") => {
                token.push(c);
                for (_, c) in chars.by_ref() {
                    token.push(c);
                    if c == ')' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut token, &mut game, depth, &mut started);
                depth += 1;
            }
            ')' => {
                flush(&mut token, &mut game, depth, &mut started);
                depth -= 1;
                if depth < 0 {
                    return Err(format!("line {line_no}: ')' without '('"));
                }
            }
            c if c.is_whitespace() => flush(&mut token, &mut game, depth, &mut started),
            '%' if token.is_empty() => {
                // An escape line: skipped.
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        line_no += 1;
                        break;
                    }
                }
            }
            _ => token.push(c),
        }
    }
    flush(&mut token, &mut game, depth, &mut started);
    if started && (!game.tags.is_empty() || !game.moves.is_empty()) {
        games.push(game);
    }
    Ok(games)
}

/// The variant name a game's `Variant` tag gives: none, `Standard` or `normal` is chess.
pub fn variant_name(game: &PgnGame) -> &str {
    match game.tag("Variant") {
        None => "chess",
        Some(n) if n.eq_ignore_ascii_case("standard") || n.eq_ignore_ascii_case("normal") => {
            "chess"
        }
        Some(n) => n,
    }
}

/// The variant a game names (see [`variant_name`]).
pub fn variant_of(game: &PgnGame, registry: &Registry) -> Result<&'static Variant, String> {
    let name = variant_name(game);
    registry
        .get(name)
        .or_else(|| {
            registry
                .all()
                .iter()
                .copied()
                .find(|v| v.name.eq_ignore_ascii_case(name))
        })
        .ok_or_else(|| {
            format!(
                "unknown variant '{name}' (known: {})",
                registry.names().join(", ")
            )
        })
}

/// A game's start position in `variant`: its `FEN` tag unless `SetUp` is 0, else the variant's.
pub fn start_position(game: &PgnGame, variant: &'static Variant) -> Result<AnyPosition, String> {
    let fen = game.tag("FEN").filter(|_| game.tag("SetUp") != Some("0"));
    AnyPosition::from_fen(variant, fen).map_err(|e| format!("FEN: {e}"))
}

/// Plays a game's moves through the rules from `start`, handing `each` the position before every
/// move, the move and its comment; returns the final position. The first move that cannot be
/// played, or that `each` refuses, ends it with an error.
pub fn play_moves(
    game: &PgnGame,
    start: AnyPosition,
    mut each: impl FnMut(&AnyPosition, Move, Option<&str>) -> Result<(), String>,
) -> Result<AnyPosition, ReplayError> {
    let mut pos = start;
    let mut i = 0;
    while i < game.moves.len() {
        let m = &game.moves[i];
        let at = || {
            let (number, black) =
                with_position!(&pos, p => (p.fullmove_number(), p.side() == Color::Black));
            format!("{number}{} {}", if black { "..." } else { "." }, m.san)
        };
        let (after, mv) = match pos.after_san(&m.san) {
            Ok(played) => played,
            Err(error) => {
                // The inventors' form with a space (`e6 Md2=T`) may come as two tokens.
                let joined = game
                    .moves
                    .get(i + 1)
                    .filter(|_| m.comment.is_none())
                    .and_then(|next| pos.after_san(&format!("{} {}", m.san, next.san)).ok());
                match joined {
                    Some(played) => {
                        i += 1;
                        played
                    }
                    None => {
                        return Err(ReplayError {
                            ply: i + 1,
                            at: at(),
                            error,
                        });
                    }
                }
            }
        };
        let comment = game.moves[i].comment.as_deref();
        each(&pos, mv, comment).map_err(|error| ReplayError {
            ply: i + 1,
            at: at(),
            error,
        })?;
        pos = after;
        i += 1;
    }
    Ok(pos)
}

/// What replaying a game found.
#[derive(Clone)]
pub struct Replay {
    pub game: Game,
    /// The game's end by the rules in its final position, if it is over.
    pub outcome: Option<crate::game::outcome::Outcome>,
}

impl std::fmt::Debug for Replay {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.debug_struct("Replay")
            .field("plies", &self.game.moves().len())
            .field("position", self.game.position())
            .field("outcome", &self.outcome)
            .finish()
    }
}

/// The first move of a game that could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// Counting from 1, the half-move of the game.
    pub ply: usize,
    /// As a person reads it: `12.` or `12...` and the move.
    pub at: String,
    pub error: String,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        if self.ply == 0 {
            write!(f, "{}", self.error)
        } else {
            write!(f, "move {}: {}", self.at, self.error)
        }
    }
}

/// Plays a game through the rules: its start position and every move must be legal.
pub fn replay(game: &PgnGame, registry: &Registry) -> Result<Replay, ReplayError> {
    let setup = |error: String| ReplayError {
        ply: 0,
        at: String::new(),
        error,
    };
    let variant = variant_of(game, registry).map_err(setup)?;
    let start = start_position(game, variant).map_err(setup)?;
    let mut played = Game::new(start);
    play_moves(game, start, |_, mv, _| {
        played.play(mv).map_err(String::from)
    })?;
    let outcome =
        with_position!(played.position(), p => crate::game::outcome::outcome(p, played.hashes()));
    Ok(Replay {
        game: played,
        outcome,
    })
}
