//! Training data from games played elsewhere: the PGN of a match (`magus match --pgnout`, or any
//! PGN whose move comments begin with the engine's score, `+0.35/12 …`), read as the games of a
//! data file. Games between stronger engines than magus's self-play give results that say more
//! about a position, and scores of a deeper search.
//!
//! The opening's moves (comment `book`) are not data: a game's start is the position after
//! them. A move is data when its comment holds a score in pawns (not a mate) and the position
//! and move are quiet by [`is_quiet`]; the score is turned to centipawns from White's view. A
//! game whose result says nothing of its positions is left out: one lost on time, by an
//! illegal or unparseable move, a crash, a stall, a protocol error or a false claim.

use super::data::{GameRecord, GameResult, Ply, is_quiet};
use crate::board::Color;
use crate::pgn::{self, PgnGame};
use crate::protocol::notation::to_wire;
use crate::variant::Variant;
use crate::with_position;

/// Terminations (docs/match.md) whose result is not the position's.
const NOT_THE_POSITIONS: [&str; 8] = [
    "time forfeit",
    "illegal move",
    "unparseable move",
    "crash",
    "stalled",
    "protocol error",
    "false claim",
    "engine failure",
];

/// What reading a PGN file left out, by reason.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// Games of another variant.
    pub other_variant: usize,
    /// Games without a finished result, or ended by an engine's failure (see the module).
    pub no_result: usize,
    /// Games a move of which could not be played: the first such, as `game N: message`.
    pub unplayable: Vec<String>,
}

impl LeftOut {
    pub fn total(&self) -> usize {
        self.other_variant + self.no_result + self.unplayable.len()
    }

    /// What was left out, in words, or `None` when nothing was.
    pub fn describe(&self) -> Option<String> {
        if self.total() == 0 {
            return None;
        }
        let mut said = format!(
            "{} games left out ({} of another variant, {} without a result that is the \
             position's, {} with a move that could not be played)",
            self.total(),
            self.other_variant,
            self.no_result,
            self.unplayable.len()
        );
        if let Some(first) = self.unplayable.first() {
            said += &format!("; the first: {first}");
        }
        Some(said)
    }
}

/// The games of a PGN text of `variant` as data games, numbered from 0.
pub fn games_from_pgn(
    text: &str,
    variant: &'static Variant,
) -> Result<(Vec<GameRecord>, LeftOut), String> {
    let games = pgn::read_all(text)?;
    let mut out = Vec::new();
    let mut left_out = LeftOut::default();
    for (n, game) in games.iter().enumerate() {
        if !pgn::variant_name(game).eq_ignore_ascii_case(&variant.name) {
            left_out.other_variant += 1;
            continue;
        }
        let Some(result) = usable_result(game) else {
            left_out.no_result += 1;
            continue;
        };
        match data_game(game, variant, result, out.len() as u64) {
            Ok(record) => out.push(record),
            Err(e) => left_out.unplayable.push(format!("game {}: {e}", n + 1)),
        }
    }
    Ok((out, left_out))
}

fn usable_result(game: &PgnGame) -> Option<GameResult> {
    let ended_by_failure = game
        .tag("Termination")
        .is_some_and(|t| NOT_THE_POSITIONS.contains(&t));
    if ended_by_failure {
        return None;
    }
    GameResult::parse(&game.result)
}

/// The score a move comment begins with, in centipawns from the mover's view: `+0.35/12 0.1s`
/// gives 35. None for a mate score, a book move or a comment without a score.
pub fn comment_score(comment: &str) -> Option<i32> {
    let first = comment.split_whitespace().next()?;
    let value = first.split('/').next()?;
    if !value.starts_with(['+', '-']) && !value.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let pawns: f64 = value.parse().ok()?;
    pawns.is_finite().then(|| (pawns * 100.0).round() as i32)
}

fn data_game(
    game: &PgnGame,
    variant: &'static Variant,
    result: GameResult,
    index: u64,
) -> Result<GameRecord, String> {
    let mut start = None;
    let mut plies = Vec::new();
    let last = pgn::play_moves(
        game,
        pgn::start_position(game, variant)?,
        |pos, mv, comment| {
            let comment = comment.unwrap_or("");
            if comment == "book" {
                return Ok(());
            }
            let white = with_position!(pos, p => p.side() == Color::White);
            start.get_or_insert_with(|| with_position!(pos, p => p.to_fen()));
            let score = comment_score(comment)
                .filter(|_| is_quiet(pos, mv))
                .map(|s| if white { s } else { -s });
            plies.push(Ply {
                wire: with_position!(pos, p => to_wire(p, mv, 1)),
                score,
            });
            Ok(())
        },
    )
    .map_err(|e| e.to_string())?;
    let start = start.unwrap_or_else(|| with_position!(&last, p => p.to_fen()));
    Ok(GameRecord {
        index,
        result,
        start,
        plies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_gives_its_score_in_centipawns() {
        assert_eq!(comment_score("+0.35/12 0.104s"), Some(35));
        assert_eq!(comment_score("-1.99/10 0.036s"), Some(-199));
        assert_eq!(comment_score("0.00/9"), Some(0));
        assert_eq!(comment_score("+M3/12 0.1s"), None);
        assert_eq!(comment_score("-M2/5"), None);
        assert_eq!(comment_score("book"), None);
        assert_eq!(comment_score(""), None);
    }
}
