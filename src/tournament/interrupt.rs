//! Stopping a long run from outside: Ctrl-C (SIGINT), SIGTERM or SIGHUP from a scheduler, or
//! a reader that closed the output. The first signal raises the run's [`StopFlag`]: in a
//! match the engines' waits notice it within [`POLL`], the games in progress are abandoned
//! (not recorded), their engines are stopped, and the match ends with the games it finished
//! (`datagen` instead finishes the games it is playing). A second signal kills every engine
//! process group at once and exits. A signal that was ignored when magus started (`nohup`
//! ignores SIGHUP, a script's `&` SIGINT) stays ignored.

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
    let ignored = ignored_signals();
    let seen = AtomicBool::new(false);
    let installed = ctrlc::set_handler(move || {
        if seen.swap(true, Ordering::SeqCst) {
            kill_all_engines();
            eprintln_quietly("interrupted again: engines killed, exiting at once");
            std::process::exit(i32::from(INTERRUPTED_STATUS));
        }
        stop.raise();
        eprintln_quietly(what);
    })
    .map_err(|e| format!("cannot catch Ctrl-C: {e}"));
    ignore(&ignored);
    installed
}

/// Those of the signals the handler takes (SIGINT and SIGHUP; SIGTERM is never ignored by
/// a shell) that the process ignores now.
fn ignored_signals() -> Vec<i32> {
    #[cfg(unix)]
    {
        [libc::SIGINT, libc::SIGHUP]
            .into_iter()
            .filter(|&signal| {
                // SAFETY: sigaction(2) with no new action only reads the disposition into
                // `old`, a zeroed struct of the right type.
                let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
                let read = unsafe { libc::sigaction(signal, std::ptr::null(), &mut old) };
                read == 0 && old.sa_sigaction == libc::SIG_IGN
            })
            .collect()
    }
    #[cfg(not(unix))]
    Vec::new()
}

/// Ignores `signals` again (after the handler took them over).
fn ignore(signals: &[i32]) {
    #[cfg(unix)]
    for &signal in signals {
        // SAFETY: signal(2) setting a standard signal's disposition to "ignore".
        unsafe {
            libc::signal(signal, libc::SIG_IGN);
        }
    }
    #[cfg(not(unix))]
    let _ = signals;
}

/// A line on standard error that is simply lost if standard error is closed.
fn eprintln_quietly(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}
