//! A progress line on standard error, redrawn in place (`\r`) at most a few times a second:
//! a bar, the count, the rate and the time left. Shown only when asked (on a terminal);
//! otherwise silent, so that logs and pipes get only the final summary.

use std::io::Write;
use std::time::{Duration, Instant};

pub struct Progress {
    shown: bool,
    unit: &'static str,
    total: u64,
    started: Instant,
    drawn: Option<Instant>,
}

const REDRAW: Duration = Duration::from_millis(200);
const BAR: usize = 24;

impl Progress {
    pub fn new(shown: bool, unit: &'static str, total: u64) -> Progress {
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
        if !self.shown {
            return;
        }
        let now = Instant::now();
        if done < self.total && self.drawn.is_some_and(|t| now - t < REDRAW) {
            return;
        }
        self.drawn = Some(now);
        let share = if self.total == 0 {
            1.0
        } else {
            done as f64 / self.total as f64
        };
        let filled = ((share * BAR as f64) as usize).min(BAR);
        let elapsed = self.started.elapsed().as_secs_f64();
        let rate = done as f64 / elapsed.max(1e-9);
        let left = if done > 0 {
            format_duration((self.total - done.min(self.total)) as f64 / rate)
        } else {
            "?".into()
        };
        let line = format!(
            "\r[{}{}] {done}/{} {}  {detail}  {rate:.1}/s  {left} left ",
            "#".repeat(filled),
            " ".repeat(BAR - filled),
            self.total,
            self.unit
        );
        let mut err = std::io::stderr();
        let _ = err.write_all(line.as_bytes());
        let _ = err.flush();
    }

    /// Ends the line.
    pub fn finish(&mut self) {
        if self.shown && self.drawn.is_some() {
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
