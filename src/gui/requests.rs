//! The bodies of the API's requests (JSON), read strictly: an unknown field, a value of the
//! wrong type or out of range is refused with a message that names it.

use std::time::Duration;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::session::{Player, Refusal, Scoring, Settings};
use super::strength;
use crate::board::Color;

/// Reads a request body; an empty body reads as `{}`.
pub fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, Refusal> {
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        &b"{}"[..]
    } else {
        body
    };
    let text = std::str::from_utf8(body)
        .map_err(|e| Refusal::bad(format!("the body is not UTF-8: {e}")))?;
    serde_json::from_str(text).map_err(|e| Refusal::bad(format!("the body is not valid: {e}")))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    pub initial_ms: u64,
    #[serde(default)]
    pub increment_ms: u64,
}

/// `POST /api/games`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub variant: Option<String>,
    pub fen: Option<String>,
    /// `human` or `engine`.
    pub white: Option<String>,
    pub black: Option<String>,
    pub level: Option<u8>,
    pub clock: Option<ClockRequest>,
    pub movetime_ms: Option<u64>,
    /// `standard` or `magi-12`.
    pub scoring: Option<String>,
    pub analysis: Option<bool>,
    pub multipv: Option<usize>,
}

/// The most lines analysis shows.
pub const MAX_MULTIPV: usize = 10;
const MOVETIME_MS: std::ops::RangeInclusive<u64> = 10..=600_000;
const INITIAL_MS: std::ops::RangeInclusive<u64> = 1_000..=36_000_000;
const INCREMENT_MS: std::ops::RangeInclusive<u64> = 0..=600_000;

fn player(field: &str, value: Option<&str>, default: Player) -> Result<Player, Refusal> {
    match value {
        None => Ok(default),
        Some("human") => Ok(Player::Human),
        Some("engine") => Ok(Player::Engine),
        Some(other) => Err(Refusal::bad(format!(
            "'{field}': '{other}' is not human or engine"
        ))),
    }
}

/// `value` of `field` if it lies in `range`, else a refusal that names both.
fn within<T: PartialOrd + std::fmt::Display>(
    field: &str,
    value: T,
    range: &std::ops::RangeInclusive<T>,
) -> Result<T, Refusal> {
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(Refusal::bad(format!(
            "'{field}': {value} is not from {} to {}",
            range.start(),
            range.end()
        )))
    }
}

pub fn multipv(k: usize) -> Result<usize, Refusal> {
    within("multipv", k, &(1..=MAX_MULTIPV))
}

impl NewGame {
    /// The settings asked for; by default a person plays White against magus at full
    /// strength, one second a move, no clock.
    pub fn settings(&self) -> Result<Settings, Refusal> {
        let players = [
            player("white", self.white.as_deref(), Player::Human)?,
            player("black", self.black.as_deref(), Player::Engine)?,
        ];
        let level = within(
            "level",
            self.level.unwrap_or(strength::FULL),
            &(strength::WEAKEST..=strength::FULL),
        )?;
        let clock = match &self.clock {
            None => None,
            Some(c) => {
                within("clock.initial_ms", c.initial_ms, &INITIAL_MS)?;
                within("clock.increment_ms", c.increment_ms, &INCREMENT_MS)?;
                Some((
                    Duration::from_millis(c.initial_ms),
                    Duration::from_millis(c.increment_ms),
                ))
            }
        };
        let movetime = within(
            "movetime_ms",
            self.movetime_ms.unwrap_or(1000),
            &MOVETIME_MS,
        )?;
        let scoring = match self.scoring.as_deref() {
            None | Some("standard") => Scoring::Standard,
            Some("magi-12") => Scoring::Magi12,
            Some(other) => {
                return Err(Refusal::bad(format!(
                    "'scoring': '{other}' is not standard or magi-12"
                )));
            }
        };
        Ok(Settings {
            players,
            level,
            clock,
            movetime: Duration::from_millis(movetime),
            scoring,
            analysis: self.analysis.unwrap_or(false),
            // An analysis board shows the lines from the start; a game, once asked.
            show_lines: self.analysis.unwrap_or(false),
            multipv: multipv(self.multipv.unwrap_or(3))?,
        })
    }
}

/// `POST /api/games/{id}/move`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// SAN or wire notation.
    #[serde(rename = "move")]
    pub text: String,
    /// The number of moves of the game the move was chosen after.
    pub ply: Option<usize>,
}

/// `POST /api/games/{id}/load`: exactly one of the two.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct LoadRequest {
    pub fen: Option<String>,
    pub pgn: Option<String>,
}

/// `POST /api/games/{id}/analysis`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    pub on: Option<bool>,
    pub multipv: Option<usize>,
}

/// `POST /api/games/{id}/resign` and `/draw`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SideRequest {
    pub side: Option<String>,
}

impl SideRequest {
    pub fn side(&self) -> Result<Option<Color>, Refusal> {
        match self.side.as_deref() {
            None => Ok(None),
            Some("white") => Ok(Some(Color::White)),
            Some("black") => Ok(Some(Color::Black)),
            Some(other) => Err(Refusal::bad(format!(
                "'side': '{other}' is not white or black"
            ))),
        }
    }
}

/// `POST` with nothing to say.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Empty {}
