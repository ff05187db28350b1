//! An engine's process: started in its folder with its arguments, in a process group of its
//! own, a reader thread turning its output into timestamped lines of bounded length, every
//! wait bounded by a deadline and by the match's stop flag, and its end (asked to quit, then
//! its whole group killed, so that no helper process it started outlives it).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use super::{EngineSpec, Fault};
use crate::tournament::interrupt::{self, POLL, StopFlag};

/// The longest line an engine may send, in bytes (1 MiB). The longest lines of UCI and XBoard
/// (a long PV, an `info string`, a `feature` line listing variants) are a few kilobytes; a
/// line past this is an engine gone wrong, and buffering all of it would let one engine take
/// the referee's memory.
pub const MAX_LINE: usize = 1 << 20;

enum Event {
    Line(Instant, String),
    /// A line longer than [`MAX_LINE`]: the reader stops there.
    TooLong,
    Eof,
}

/// What [`read_line`] found.
#[derive(Debug, PartialEq, Eq)]
enum LineRead {
    /// A line (its line break, if any, left out): a last line may end without one.
    Line,
    End,
    /// More than `max` bytes without a line break; `buf` holds the first of them.
    TooLong,
}

/// Reads one line into `buf`, never holding more than `max` bytes of it.
fn read_line(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<LineRead> {
    buf.clear();
    loop {
        let available = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(if buf.is_empty() {
                LineRead::End
            } else {
                LineRead::Line
            });
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let text = newline.unwrap_or(available.len());
        if buf.len() + text > max {
            let room = max - buf.len();
            buf.extend_from_slice(&available[..room]);
            return Ok(LineRead::TooLong);
        }
        buf.extend_from_slice(&available[..text]);
        let used = newline.map_or(text, |n| n + 1);
        reader.consume(used);
        if newline.is_some() {
            return Ok(LineRead::Line);
        }
    }
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
                    match read_line(&mut reader, &mut buf, MAX_LINE) {
                        Ok(LineRead::End) | Err(_) => break,
                        Ok(LineRead::TooLong) => {
                            // Nothing more is read: the rest of the line could be endless, and
                            // the engine that sent it loses its game and is stopped.
                            let _ = tx.send(Event::TooLong);
                            return;
                        }
                        Ok(LineRead::Line) => {
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
                Ok(Event::TooLong) => {
                    return Err(Fault::Protocol(format!(
                        "a line longer than {} MiB without a line break",
                        MAX_LINE >> 20
                    )));
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => return Err(self.ended()),
                // A helper process that holds the engine's output keeps it open after the
                // engine has died: the engine's own end is what counts.
                Err(RecvTimeoutError::Timeout) if self.has_ended() => return Err(self.ended()),
                Err(RecvTimeoutError::Timeout) if left <= POLL => return Err(Fault::Timeout),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Why the output closed: the exit status, given a moment to be known (then the engine's
    /// process group is killed).
    pub(super) fn ended(&mut self) -> Fault {
        let status = (0..20)
            .find(|_| {
                self.has_ended() || {
                    std::thread::sleep(Duration::from_millis(5));
                    false
                }
            })
            .and_then(|_| self.kill_group_and_reap());
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

    /// Asks the process to quit and gives it a moment: 300 ms between games (a faulty engine is
    /// being replaced), two seconds when the match is being stopped (an engine may have files
    /// to close; a second Ctrl-C kills it at once). Then its process group is killed, whether
    /// it quit or not: whatever it started and left behind goes with it.
    pub(super) fn stop(&mut self, quit: &str) {
        if self.reaped {
            return;
        }
        if !self.has_ended() {
            let _ = self.send(quit);
            let grace = if self.stop_flag.is_raised() {
                Duration::from_secs(2)
            } else {
                Duration::from_millis(300)
            };
            let until = Instant::now() + grace;
            while Instant::now() < until && !self.has_ended() {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill_group_and_reap();
    }

    /// The engine process has ended, seen without reaping it: until it is reaped its id is
    /// still ours, so its group can be killed with no risk of hitting another process. A state
    /// that cannot be read counts as running (the process gets stopped).
    fn has_ended(&mut self) -> bool {
        if self.reaped {
            return true;
        }
        #[cfg(target_os = "linux")]
        {
            let pid: libc::id_t = self.child.id();
            // SAFETY: waitid(2) writes into the zeroed siginfo_t it is given; WNOWAIT leaves
            // the child unreaped for `Child::wait`.
            unsafe {
                let mut info: libc::siginfo_t = std::mem::zeroed();
                let r = libc::waitid(
                    libc::P_PID,
                    pid,
                    &mut info,
                    libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
                );
                r == 0 && info.si_pid() != 0
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            matches!(self.child.try_wait(), Ok(Some(_)))
        }
    }

    /// Kills the engine's process group (the engine and any process it started that stayed in
    /// its group), then reaps the engine: its exit status, if it can be read.
    fn kill_group_and_reap(&mut self) -> Option<ExitStatus> {
        if self.reaped {
            return self.child.try_wait().ok().flatten();
        }
        interrupt::kill_group(self.child.id());
        // The engine itself, should it have left its group.
        if !self.has_ended() {
            let _ = self.child.kill();
        }
        let status = self.child.wait().ok();
        self.reaped = true;
        interrupt::forget_engine(self.child.id());
        status
    }
}

/// SIGINT, SIGTERM or SIGHUP: what a terminal or a scheduler sends to stop a job.
fn killed_by_a_stop_signal(status: ExitStatus) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<(LineRead, String)> {
        // A small buffer, so that lines span several reads.
        let mut reader = BufReader::with_capacity(4, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            let r = read_line(&mut reader, &mut buf, max).unwrap();
            let text = String::from_utf8_lossy(&buf).into_owned();
            let stop = r != LineRead::Line;
            out.push((r, text));
            if stop {
                return out;
            }
        }
    }

    #[test]
    fn lines_up_to_the_limit_are_read_whole() {
        assert_eq!(
            lines(b"uciok\nreadyok\nbestmove", 8),
            vec![
                (LineRead::Line, "uciok".into()),
                (LineRead::Line, "readyok".into()),
                (LineRead::Line, "bestmove".into()),
                (LineRead::End, String::new()),
            ]
        );
        // Exactly `max` bytes before the line break is still a line.
        assert_eq!(
            lines(b"12345678\n", 8)[0],
            (LineRead::Line, "12345678".into())
        );
    }

    #[test]
    fn a_line_past_the_limit_is_cut_there() {
        assert_eq!(
            lines(b"ok\n123456789\nnever read\n", 8),
            vec![
                (LineRead::Line, "ok".into()),
                (LineRead::TooLong, "12345678".into()),
            ]
        );
    }
}
