//! Where `magus match` and `magus replay` print: lines on standard output, read by people and
//! by other programs, and the live progress line on a terminal's standard error. A reader that
//! closes the pipe (`magus match … | head -1`) ends the command quietly, the way a Unix tool
//! ends: killed by SIGPIPE, which shells report as status 141.

use std::io::Write;

use super::interrupt::StopFlag;

/// Ends the process as a Unix tool whose reader went away: by SIGPIPE, restored to its
/// default action (Rust ignores it so that writes fail instead), or with status 141 where
/// there are no signals.
pub fn end_as_closed_pipe() -> ! {
    #[cfg(unix)]
    // SAFETY: signal(2) and raise(3) with constant arguments; no memory is touched.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::raise(libc::SIGPIPE);
    }
    std::process::exit(141)
}

/// What became of standard output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputState {
    Open,
    /// The reader closed the pipe.
    Closed,
    /// Writing failed otherwise (a full disk): the message.
    Failed(String),
}

/// Prints lines; when standard output goes away it raises the match's stop flag, so that the
/// match ends (keeping its finished games in the PGN) instead of playing on unseen.
pub struct Printer {
    stop: StopFlag,
    show_progress: bool,
    progress_shown: bool,
    pub state: OutputState,
}

impl Printer {
    pub fn new(stop: StopFlag, show_progress: bool) -> Printer {
        Printer {
            stop,
            show_progress,
            progress_shown: false,
            state: OutputState::Open,
        }
    }

    /// One line on standard output (the progress line, if shown, is cleared first).
    pub fn line(&mut self, text: &str) {
        if self.state != OutputState::Open {
            return;
        }
        self.clear_progress();
        let mut out = std::io::stdout().lock();
        if let Err(e) = writeln!(out, "{text}").and_then(|_| out.flush()) {
            self.state = if e.kind() == std::io::ErrorKind::BrokenPipe {
                OutputState::Closed
            } else {
                OutputState::Failed(format!("standard output: {e}"))
            };
            self.stop.raise();
        }
    }

    /// Several lines.
    pub fn lines(&mut self, text: &str) {
        for l in text.lines() {
            self.line(l);
        }
    }

    /// The live line on a terminal's standard error, redrawn in place.
    pub fn progress(&mut self, text: &str) {
        if self.show_progress {
            let _ = write!(std::io::stderr(), "\r\x1b[K{text}");
            self.progress_shown = true;
        }
    }

    fn clear_progress(&mut self) {
        if self.progress_shown {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
            self.progress_shown = false;
        }
    }

    /// Leaves the progress line on the screen and moves below it.
    pub fn end_progress(&mut self) {
        if self.progress_shown {
            let _ = writeln!(std::io::stderr());
            self.progress_shown = false;
        }
    }
}
