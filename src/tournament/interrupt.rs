//! Stopping a match from outside: Ctrl-C (SIGINT), SIGTERM or SIGHUP from a scheduler, or a
//! reader that closed the output. The first signal raises the match's [`StopFlag`]: the
//! engines' waits notice it within [`POLL`], the games in progress are abandoned (not
//! recorded), their engines are stopped, and the match ends with the games it finished. A
//! second signal kills every engine process group at once and exits.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How often a wait on an engine looks at the stop flag.
pub const POLL: Duration = Duration::from_millis(50);

/// The exit status of a process ended by Ctrl-C, as shells report it (128 + SIGINT).
pub const INTERRUPTED_STATUS: u8 = 130;

/// Raised when the match must stop now. Cloned into every engine process's waits.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    pub fn raise(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// The process groups of the running engines (each engine leads its own group, so that a
/// Ctrl-C at the terminal reaches magus alone and magus decides what happens to them).
static ENGINE_GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Notes an engine process that leads its own group.
pub fn register_engine(pid: u32) {
    if let Ok(mut groups) = ENGINE_GROUPS.lock() {
        groups.push(pid);
    }
}

/// Forgets an engine process that has been reaped (its id may be reused from then on).
pub fn forget_engine(pid: u32) {
    if let Ok(mut groups) = ENGINE_GROUPS.lock() {
        groups.retain(|&p| p != pid);
    }
}

/// Kills an engine's whole process group (a wrapper script's children too).
pub fn kill_group(pid: u32) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(pid) {
        // SAFETY: kill(2) with a negative id signals a process group; it touches no memory.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
}

/// Kills every running engine's process group.
fn kill_all_engines() {
    // try_lock: the second signal must not wait for a thread that holds the list.
    if let Ok(groups) = ENGINE_GROUPS.try_lock() {
        for &pid in groups.iter() {
            kill_group(pid);
        }
    }
}

/// Sends SIGINT, SIGTERM and SIGHUP to `stop`: the first raises it (and says so on standard
/// error), the second kills the engines and exits with status 130 at once.
pub fn install_handler(stop: StopFlag) -> Result<(), String> {
    install_handler_saying(
        stop,
        "interrupted: stopping the games in progress and keeping the finished ones \
         (interrupt again to quit at once)",
    )
}

/// As [`install_handler`], the first signal saying `what` happens now.
pub fn install_handler_saying(stop: StopFlag, what: &'static str) -> Result<(), String> {
    let seen = AtomicBool::new(false);
    ctrlc::set_handler(move || {
        if seen.swap(true, Ordering::SeqCst) {
            kill_all_engines();
            eprintln_quietly("interrupted again: engines killed, exiting at once");
            std::process::exit(i32::from(INTERRUPTED_STATUS));
        }
        stop.raise();
        eprintln_quietly(what);
    })
    .map_err(|e| format!("cannot catch Ctrl-C: {e}"))
}

/// A line on standard error that is simply lost if standard error is closed.
fn eprintln_quietly(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}
