//! Time management: how long to think, from the clock the GUI sends.

use std::time::Duration;

use super::params::{HARD_LIMIT_FACTOR, MAX_TIME_FRACTION};
use crate::variant::limits::MAX_MOVES_TO_GO;

/// What the GUI asked for.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub mate_in: Option<i32>,
    pub movetime: Option<Duration>,
    /// The mover's remaining time, increment and moves to the next time control.
    pub time_left: Option<Duration>,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Pondering: search until `ponderhit` (then the clock applies) or `stop`.
    pub ponder: bool,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<crate::board::Move>,
}

impl Limits {
    pub fn depth(depth: i32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
    pub fn is_timed(&self) -> bool {
        self.movetime.is_some() || self.time_left.is_some()
    }
}

/// The time budget of one move: a soft limit (no new iteration after it) and a hard one
/// (the search stops at once).
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub soft: Duration,
    pub hard: Duration,
}

impl Budget {
    pub fn unlimited() -> Budget {
        Budget {
            soft: Duration::MAX,
            hard: Duration::MAX,
        }
    }

    /// The budget for `limits`, keeping `overhead` for the GUI and the pipe; with no
    /// moves-to-go from the GUI, the time left is shared over `default_moves` moves.
    pub fn new(limits: &Limits, overhead: Duration, default_moves: u32) -> Budget {
        if let Some(t) = limits.movetime {
            let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
            return Budget { soft: t, hard: t };
        }
        let Some(left) = limits.time_left else {
            return Budget::unlimited();
        };
        let usable = left.saturating_sub(overhead).max(Duration::from_millis(1));
        let moves = limits
            .moves_to_go
            .unwrap_or(default_moves)
            .clamp(1, MAX_MOVES_TO_GO);
        let per_move = usable / moves + limits.increment * 3 / 4;
        // Never plan to use more than a fraction of what is left, however the increment adds up.
        let cap = if moves == 1 {
            usable * 9 / 10
        } else {
            usable / MAX_TIME_FRACTION
        };
        let soft = per_move.min(cap).max(Duration::from_millis(1));
        let hard = (soft * HARD_LIMIT_FACTOR).min(cap).max(soft);
        Budget { soft, hard }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_inside_the_clock() {
        let ms = Duration::from_millis;
        let limits = Limits {
            time_left: Some(ms(1000)),
            increment: ms(10),
            ..Limits::default()
        };
        let b = Budget::new(&limits, ms(30), 30);
        assert!(b.soft < ms(100) && b.hard <= ms(970) / 3, "{b:?}");
        let last = Limits {
            time_left: Some(ms(500)),
            moves_to_go: Some(1),
            ..Limits::default()
        };
        let b = Budget::new(&last, ms(30), 30);
        assert!(b.hard <= ms(470), "{b:?}");
        let fixed = Limits {
            movetime: Some(ms(200)),
            ..Limits::default()
        };
        assert_eq!(Budget::new(&fixed, ms(20), 30).hard, ms(180));
        let almost_none = Limits {
            time_left: Some(ms(5)),
            ..Limits::default()
        };
        assert!(Budget::new(&almost_none, ms(30), 30).hard <= ms(1));
    }
}
