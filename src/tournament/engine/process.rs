//! An engine's process: started in its folder with its arguments, a reader thread turning its
//! output into timestamped lines, every wait bounded by a deadline and by the match's stop
//! flag, and its end (asked to quit, then killed).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use super::{EngineSpec, Fault};
use crate::tournament::interrupt::{self, POLL, StopFlag};

enum Event {
    Line(Instant, String),
    Eof,
}

/// A running process with a reader thread on its output.
pub(super) struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Event>,
    stop_flag: StopFlag,
    /// Reaped: its id is no longer ours to signal.
    reaped: bool,
}

impl Process {
    pub(super) fn spawn(spec: &EngineSpec, stop: &StopFlag) -> Result<Process, String> {
        let mut command = Command::new(&spec.cmd);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        // Its own process group: a Ctrl-C typed at the terminal goes to the terminal's group,
        // which is then magus alone; magus stops the engines itself and keeps their games.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", spec.cmd))?;
        interrupt::register_engine(child.id());
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::Builder::new()
            .name(format!("engine {}", spec.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim().to_string();
                            if tx.send(Event::Line(Instant::now(), line)).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = tx.send(Event::Eof);
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        Ok(Process {
            child,
            stdin,
            lines: rx,
            stop_flag: stop.clone(),
            reaped: false,
        })
    }

    pub(super) fn send(&mut self, line: &str) -> Result<(), Fault> {
        log::debug!("> {line}");
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Fault::Crash(format!("its input is closed ({e})")))
    }

    /// The next line, waiting until `deadline` or until the match is stopped.
    pub(super) fn recv(&mut self, deadline: Instant) -> Result<(Instant, String), Fault> {
        loop {
            if self.stop_flag.is_raised() {
                return Err(Fault::Stopped);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left.min(POLL)) {
                Ok(Event::Line(at, line)) => {
                    log::debug!("< {line}");
                    return Ok((at, line));
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => return Err(self.ended()),
                Err(RecvTimeoutError::Timeout) if left <= POLL => return Err(Fault::Timeout),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Why the output closed: the exit status, given a moment to be known.
    pub(super) fn ended(&mut self) -> Fault {
        let status = (0..20).find_map(|_| match self.child.try_wait() {
            Ok(Some(s)) => Some(s),
            _ => {
                std::thread::sleep(Duration::from_millis(5));
                None
            }
        });
        if status.is_some_and(killed_by_a_stop_signal) {
            // A scheduler that cancels a job signals every process of it, engines included:
            // the engine may die a moment before magus's own handler raises the flag, and the
            // game is then an interrupted one, not a crash.
            let until = Instant::now() + Duration::from_millis(500);
            while Instant::now() < until {
                if self.stop_flag.is_raised() {
                    return Fault::Stopped;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        Fault::Crash(match status {
            Some(s) => format!("the engine ended ({s})"),
            None => "the engine closed its output".into(),
        })
    }

    /// Asks the process to quit, then kills its process group if it does not within a moment:
    /// 300 ms between games (a faulty engine is being replaced), two seconds when the match
    /// is being stopped (an engine may have files to close; a second Ctrl-C kills it at once).
    pub(super) fn stop(&mut self, quit: &str) {
        if self.reaped {
            return;
        }
        let _ = self.send(quit);
        let grace = if self.stop_flag.is_raised() {
            Duration::from_secs(2)
        } else {
            Duration::from_millis(300)
        };
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                self.reap();
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        interrupt::kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.reap();
    }

    /// It has not ended (or its state cannot be read, which counts as running: it gets
    /// stopped).
    pub(super) fn is_running(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(Some(_)))
    }

    pub(super) fn reap(&mut self) {
        self.reaped = true;
        interrupt::forget_engine(self.child.id());
    }
}

/// SIGINT, SIGTERM or SIGHUP: what a terminal or a scheduler sends to stop a job.
fn killed_by_a_stop_signal(status: std::process::ExitStatus) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        matches!(
            status.signal(),
            Some(libc::SIGINT | libc::SIGTERM | libc::SIGHUP)
        )
    }
    #[cfg(not(unix))]
    {
        let _ = status;
        false
    }
}
