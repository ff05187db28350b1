//! Time controls and the referee's clocks.

use std::time::Duration;

/// What limits an engine's thinking.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// A clock: `base` for every `moves` moves (or the whole game), plus `inc` after each move.
    Clock {
        moves: Option<u32>,
        base: Duration,
        inc: Duration,
    },
    /// A fixed time for every move.
    MoveTime(Duration),
    Nodes(u64),
    Depth(u32),
}

fn seconds(text: &str) -> Result<Duration, String> {
    // `m:ss` or plain seconds (decimals allowed).
    let secs = match text.split_once(':') {
        Some((m, s)) => {
            let m: f64 = m.parse().map_err(|_| format!("'{text}' is not a time"))?;
            let s: f64 = s.parse().map_err(|_| format!("'{text}' is not a time"))?;
            m * 60.0 + s
        }
        None => text
            .parse::<f64>()
            .map_err(|_| format!("'{text}' is not a number of seconds"))?,
    };
    if !secs.is_finite() || !(0.0..=1e7).contains(&secs) {
        return Err(format!("'{text}' is not a time from 0 to 10^7 seconds"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Seconds with no trailing zeros: `0.1`, `60`, `2.5`.
pub fn seconds_text(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl Limit {
    /// Reads a clock: `[moves/]seconds[+increment]`, seconds also as `m:ss`
    /// (`10+0.1`, `40/60`, `40/1:30+0.5`).
    pub fn parse_tc(text: &str) -> Result<Limit, String> {
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m
                    .parse()
                    .ok()
                    .filter(|&m| m > 0)
                    .ok_or_else(|| format!("'{m}' is not a positive number of moves"))?;
                (Some(m), rest)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (seconds(b)?, seconds(i)?),
            None => (seconds(rest)?, Duration::ZERO),
        };
        if base.is_zero() && inc.is_zero() {
            return Err(format!("'{text}' gives no time at all"));
        }
        Ok(Limit::Clock { moves, base, inc })
    }

    /// The PGN `TimeControl` tag: `40/60`, `60+0.5`, `1/move` for a fixed time per move, `-`
    /// when there is no clock.
    pub fn pgn_tag(&self) -> String {
        let secs = |d: &Duration| seconds_text(*d);
        match self {
            Limit::Clock { moves, base, inc } => {
                let mut s = String::new();
                if let Some(m) = moves {
                    s += &format!("{m}/");
                }
                s += &secs(base);
                if !inc.is_zero() {
                    s += &format!("+{}", secs(inc));
                }
                s
            }
            Limit::MoveTime(t) => format!("{}/move", secs(t)),
            Limit::Nodes(_) | Limit::Depth(_) => "-".into(),
        }
    }

    /// How the limit reads in the match header.
    pub fn describe(&self) -> String {
        match self {
            Limit::Clock { .. } => format!("tc {}", self.pgn_tag()),
            Limit::MoveTime(t) => format!("{:.3} s per move", t.as_secs_f64()),
            Limit::Nodes(n) => format!("{n} nodes per move"),
            Limit::Depth(d) => format!("depth {d}"),
        }
    }
}

/// One side's clock.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub left: Duration,
    /// Moves made in the current period.
    pub moves_made: u32,
}

impl Clock {
    pub fn new(limit: &Limit) -> Clock {
        let left = match limit {
            Limit::Clock { base, .. } => *base,
            _ => Duration::ZERO,
        };
        Clock {
            left,
            moves_made: 0,
        }
    }

    /// Moves left to the next time control, if the clock has periods.
    pub fn moves_to_go(&self, limit: &Limit) -> Option<u32> {
        match limit {
            Limit::Clock { moves: Some(m), .. } => Some(m - self.moves_made % m),
            _ => None,
        }
    }

    /// Charges a move that took `used`. Returns false if the flag fell: more than the time
    /// left plus `margin`. Within the margin the clock stops at zero.
    pub fn charge(&mut self, limit: &Limit, used: Duration, margin: Duration) -> bool {
        match *limit {
            Limit::Clock { moves, base, inc } => {
                if used > self.left + margin {
                    self.left = Duration::ZERO;
                    return false;
                }
                self.left = self.left.saturating_sub(used) + inc;
                self.moves_made += 1;
                if let Some(m) = moves
                    && self.moves_made.is_multiple_of(m)
                {
                    self.left += base;
                }
                true
            }
            Limit::MoveTime(t) => used <= t + margin,
            Limit::Nodes(_) | Limit::Depth(_) => true,
        }
    }
}
