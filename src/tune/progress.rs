//! Progress on standard error: the count, the rate and the time left. On a terminal one line
//! with a bar, redrawn in place (`\r`) at most a few times a second; into a log, for work of
//! hours, a whole line a minute, so that a run read later (or stopped from outside) tells how
//! far it came; or nothing.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    Hidden,
    /// One line redrawn in place.
    Redrawn,
    /// A whole line a minute.
    Logged,
}

impl Shown {
    /// Redrawn when standard error is a terminal, else `otherwise`: `Logged` for work of hours,
    /// often left running with its standard error in a file; `Hidden` for work whose own lines
    /// tell its progress.
    pub fn on_terminal_else(otherwise: Shown) -> Shown {
        if std::io::stderr().is_terminal() {
            Shown::Redrawn
        } else {
            otherwise
        }
    }
}

pub struct Progress {
    shown: Shown,
    unit: &'static str,
    total: u64,
    started: Instant,
    drawn: Option<Instant>,
}

const REDRAW: Duration = Duration::from_millis(200);
const LOG_EVERY: Duration = Duration::from_secs(60);
const BAR: usize = 24;

impl Progress {
    pub fn new(shown: Shown, unit: &'static str, total: u64) -> Progress {
        Progress {
            shown,
            unit,
            total,
            started: Instant::now(),
            drawn: None,
        }
    }

    /// `done` of the total, with `detail` after the count.
    pub fn set(&mut self, done: u64, detail: &str) {
        let now = Instant::now();
        if !self.due(done, now) {
            return;
        }
        let status = self.status(done, detail, now);
        let line = if self.shown == Shown::Redrawn {
            let share = if self.total == 0 {
                1.0
            } else {
                done as f64 / self.total as f64
            };
            let filled = ((share * BAR as f64) as usize).min(BAR);
            format!(
                "\r[{}{}] {status} ",
                "#".repeat(filled),
                " ".repeat(BAR - filled)
            )
        } else {
            format!("{status}\n")
        };
        self.drawn = Some(now);
        let mut err = std::io::stderr();
        let _ = err.write_all(line.as_bytes());
        let _ = err.flush();
    }

    /// Whether a line is due at `now`, with `done` units done: on a terminal a few times a
    /// second and at the end; in a log a minute after the last line (the first a minute in,
    /// so a short run logs nothing).
    fn due(&self, done: u64, now: Instant) -> bool {
        match self.shown {
            Shown::Hidden => false,
            Shown::Redrawn => done >= self.total || self.drawn.is_none_or(|t| now - t >= REDRAW),
            Shown::Logged => now - self.drawn.unwrap_or(self.started) >= LOG_EVERY,
        }
    }

    /// The count, `detail`, the rate, the time so far and the time left, as they stand at `now`.
    fn status(&self, done: u64, detail: &str, now: Instant) -> String {
        let elapsed = (now - self.started).as_secs_f64();
        let rate = done as f64 / elapsed.max(1e-9);
        let left = if done > 0 {
            format_duration((self.total - done.min(self.total)) as f64 / rate)
        } else {
            "?".into()
        };
        format!(
            "{done}/{} {}  {detail}  {rate:.1}/s  {} so far, {left} left",
            self.total,
            self.unit,
            format_duration(elapsed)
        )
    }

    /// Ends the line.
    pub fn finish(&mut self) {
        if self.shown == Shown::Redrawn && self.drawn.is_some() {
            let _ = writeln!(std::io::stderr());
        }
        self.drawn = None;
    }
}

pub fn format_duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(shown: Shown) -> Progress {
        Progress::new(shown, "games", 100)
    }

    #[test]
    fn the_status_tells_count_rate_and_time_left() {
        let p = progress(Shown::Logged);
        let later = p.started + Duration::from_secs(10);
        assert_eq!(
            p.status(50, "700 positions", later),
            "50/100 games  700 positions  5.0/s  10s so far, 10s left"
        );
        assert_eq!(
            p.status(0, "", later),
            "0/100 games    0.0/s  10s so far, ? left"
        );
    }

    /// A log gets a line a minute, the first a minute in; a terminal a few a second and the
    /// last one always; hidden progress none.
    #[test]
    fn lines_come_when_due() {
        let at = |p: &Progress, s: u64| p.started + Duration::from_secs(s);
        let mut log = progress(Shown::Logged);
        assert!(!log.due(5, at(&log, 59)));
        assert!(log.due(5, at(&log, 60)));
        log.drawn = Some(at(&log, 61));
        assert!(
            !log.due(100, at(&log, 120)),
            "the end is no reason in a log"
        );
        assert!(log.due(6, at(&log, 121)));

        let mut terminal = progress(Shown::Redrawn);
        assert!(terminal.due(1, at(&terminal, 0)));
        terminal.drawn = Some(at(&terminal, 0));
        assert!(!terminal.due(2, terminal.started + Duration::from_millis(100)));
        assert!(terminal.due(100, terminal.started + Duration::from_millis(100)));
        assert!(terminal.due(3, terminal.started + REDRAW));

        let hidden = progress(Shown::Hidden);
        assert!(!hidden.due(100, at(&hidden, 3600)));
    }
}
