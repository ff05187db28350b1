//! How the engine plays the Magi 12-point payoff system over XBoard: when it resigns, when it
//! offers its one draw, when it accepts one.

use crate::search::Score;
use crate::tournament::payoff::PayoffRules;

/// What an accepted resignation at full move `number` is worth to the side that did not
/// resign (RULES.md §2.5; the bands are those of the referee's `PayoffRules`).
pub fn resignation_value(number: u32) -> u32 {
    let rules = PayoffRules::default();
    u32::from(rules.value(rules.band(number)))
}
/// The share of the points the side to move can expect from a score (a logistic curve on
/// centipawns; certain for mates).
pub fn expected_share(score: Score) -> f64 {
    match score {
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => 0.0,
        Score::Centipawns(cp) => 1.0 / (1.0 + 10f64.powf(-cp as f64 / 400.0)),
    }
}

/// Below this score the engine considers resigning a lost game (payoff mode only).
pub const RESIGN_SCORE: i32 = -600;
/// Below this score the engine offers its one draw of the game (payoff mode only).
pub const DRAW_OFFER_SCORE: i32 = -150;
/// A draw offer is accepted when the expected share of playing on is below this.
pub const DRAW_ACCEPT_SHARE: f64 = 0.45;

/// In the payoff system a lost game is resigned when the points a resignation keeps now
/// (12 minus its value to the opponent at this move) beat what playing on can expect.
pub fn resign_now(score: Score, number: u32) -> bool {
    let lost = match score {
        Score::Mate(n) => n < 0,
        Score::Centipawns(cp) => cp <= RESIGN_SCORE,
    };
    let keep = 12 - resignation_value(number) as i32;
    lost && keep as f64 > 12.0 * expected_share(score)
}
