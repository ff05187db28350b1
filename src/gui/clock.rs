//! The chess clocks of a game at the board. Time is passed in (`now`) so that the clocks can
//! be tested without waiting.

use std::time::{Duration, Instant};

use crate::board::Color;

#[derive(Clone, Debug)]
pub struct Clocks {
    /// Each side's time left when its clock last stopped.
    left: [Duration; 2],
    pub increment: Duration,
    /// The side whose clock runs, and since when.
    running: Option<(Color, Instant)>,
}

impl Clocks {
    pub fn new(initial: Duration, increment: Duration) -> Clocks {
        Clocks {
            left: [initial; 2],
            increment,
            running: None,
        }
    }

    /// Clocks read back with each side's time left, none running.
    pub fn restored(left: [Duration; 2], increment: Duration) -> Clocks {
        Clocks {
            left,
            increment,
            running: None,
        }
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// Time left for `color` at `now` (none below zero).
    pub fn remaining(&self, color: Color, now: Instant) -> Duration {
        let left = self.left[color.index()];
        match self.running {
            Some((c, since)) if c == color => {
                left.saturating_sub(now.saturating_duration_since(since))
            }
            _ => left,
        }
    }

    /// The side whose time has run out, if any.
    pub fn flagged(&self, now: Instant) -> Option<Color> {
        self.running().filter(|&c| self.remaining(c, now).is_zero())
    }

    /// Stops the clock that runs, keeping what it used.
    pub fn pause(&mut self, now: Instant) {
        if let Some((c, _)) = self.running {
            self.left[c.index()] = self.remaining(c, now);
            self.running = None;
        }
    }

    /// Starts `color`'s clock (stopping the other's).
    pub fn start(&mut self, color: Color, now: Instant) {
        self.pause(now);
        self.running = Some((color, now));
    }

    /// `mover` has moved: its clock stops and gains the increment, the other side's starts.
    /// The first move of a game is made before any clock runs and gains nothing.
    pub fn moved(&mut self, mover: Color, now: Instant) {
        if self.running() == Some(mover) {
            self.pause(now);
            self.left[mover.index()] += self.increment;
        }
        self.start(!mover, now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_running_side_loses_time_and_gains_the_increment_when_it_moves() {
        let t0 = Instant::now();
        let mut c = Clocks::new(ms(60_000), ms(2_000));
        c.moved(Color::White, t0);
        assert_eq!(c.remaining(Color::White, t0 + ms(5_000)), ms(60_000));
        assert_eq!(c.remaining(Color::Black, t0 + ms(5_000)), ms(55_000));
        c.moved(Color::Black, t0 + ms(5_000));
        assert_eq!(c.remaining(Color::Black, t0 + ms(9_000)), ms(57_000));
        assert_eq!(c.remaining(Color::White, t0 + ms(9_000)), ms(56_000));
        assert_eq!(c.running(), Some(Color::White));
    }

    #[test]
    fn a_paused_clock_keeps_its_time_and_a_clock_at_zero_flags() {
        let t0 = Instant::now();
        let mut c = Clocks::new(ms(1_000), Duration::ZERO);
        c.start(Color::Black, t0);
        c.pause(t0 + ms(400));
        assert_eq!(c.remaining(Color::Black, t0 + ms(10_000)), ms(600));
        assert_eq!(c.flagged(t0 + ms(10_000)), None);
        c.start(Color::Black, t0 + ms(10_000));
        assert_eq!(c.flagged(t0 + ms(10_599)), None);
        assert_eq!(c.flagged(t0 + ms(10_600)), Some(Color::Black));
    }
}
