//! The aspiration window of one iteration: a narrow window around the last iteration's score,
//! widened after each failure until the score falls inside it.

use super::MATE;
use super::params::{ASPIRATION_DELTA, ASPIRATION_GIVE_UP, ASPIRATION_MIN_DEPTH};

/// The window searched wide open.
const WIDE: (i32, i32) = (-MATE - 1, MATE + 1);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aspiration {
    pub alpha: i32,
    pub beta: i32,
    delta: i32,
}

/// What a search in the window gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Inside the window: the score is exact.
    Exact,
    /// At or above beta: the score is a lower bound.
    FailedHigh,
    /// At or below alpha: the score is an upper bound.
    FailedLow,
}

impl Aspiration {
    pub fn new(depth: i32, previous: i32) -> Aspiration {
        let (alpha, beta) = if depth >= ASPIRATION_MIN_DEPTH {
            (previous - ASPIRATION_DELTA, previous + ASPIRATION_DELTA)
        } else {
            WIDE
        };
        Aspiration {
            alpha,
            beta,
            delta: ASPIRATION_DELTA,
        }
    }

    /// Judges `score` against the window it was searched in and, if it fell outside, widens
    /// the window for the next try. A fail low also pulls beta halfway down, so that the
    /// next try is cheaper; that try may then fail high below the last iteration's score.
    pub fn judge(&mut self, score: i32) -> Outcome {
        let outcome = if score <= self.alpha {
            self.beta = (self.alpha + self.beta) / 2;
            self.alpha = (score - self.delta).max(WIDE.0);
            Outcome::FailedLow
        } else if score >= self.beta {
            self.beta = (score + self.delta).min(WIDE.1);
            Outcome::FailedHigh
        } else {
            return Outcome::Exact;
        };
        self.delta += self.delta;
        if self.delta > ASPIRATION_GIVE_UP {
            (self.alpha, self.beta) = WIDE;
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_iterations_search_the_whole_window() {
        let w = Aspiration::new(3, 50);
        assert_eq!((w.alpha, w.beta), WIDE);
        let mut w = w;
        assert_eq!(w.judge(-400), Outcome::Exact);
    }

    const D: i32 = ASPIRATION_DELTA;

    #[test]
    fn a_score_inside_is_exact_and_keeps_the_window() {
        let mut w = Aspiration::new(8, 50);
        assert_eq!((w.alpha, w.beta), (50 - D, 50 + D));
        assert_eq!(w.judge(50 + D - 1), Outcome::Exact);
        assert_eq!((w.alpha, w.beta), (50 - D, 50 + D));
    }

    #[test]
    fn failures_are_named_by_the_window_searched() {
        let mut w = Aspiration::new(8, 5);
        assert_eq!(w.judge(120), Outcome::FailedHigh);
        assert_eq!((w.alpha, w.beta), (5 - D, 120 + D));

        // Low, low, then high below the old score: beta was pulled down to 5 - D.
        let mut w = Aspiration::new(5, 5);
        assert_eq!(w.judge(5 - D), Outcome::FailedLow);
        assert_eq!((w.alpha, w.beta), (5 - 2 * D, 5));
        assert_eq!(w.judge(5 - 2 * D), Outcome::FailedLow);
        assert_eq!((w.alpha, w.beta), (5 - 4 * D, 5 - D));
        assert_eq!(w.judge(10 - D), Outcome::FailedHigh);
        assert_eq!(w.judge(5 - 2 * D), Outcome::Exact);
    }

    #[test]
    fn the_window_opens_fully_after_repeated_failures() {
        let mut w = Aspiration::new(10, 0);
        let mut score = 0;
        // The half-width doubles from D, so a few failures take it past ASPIRATION_GIVE_UP.
        for tries in 1.. {
            score += 1000;
            assert_eq!(w.judge(score), Outcome::FailedHigh);
            if (w.alpha, w.beta) == WIDE {
                break;
            }
            assert!(tries < 10, "the window never opened");
        }
    }
}
