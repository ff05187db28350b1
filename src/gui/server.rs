//! Starting the server: the loopback address only, the address printed, the browser opened
//! when one is there.

use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::process::{Command, Stdio};
use std::sync::Arc;

use super::api::{App, router};
use super::connection::GuardedListener;
use super::store::Store;
use crate::variant::Registry;

/// The port tried when none is given; if it is taken, any free port.
pub const DEFAULT_PORT: u16 = 8117;

/// An analysis nobody has asked about for this long stops (a page closed without a word).
const IDLE_ANALYSIS: std::time::Duration = std::time::Duration::from_secs(30);
const IDLE_CHECK: std::time::Duration = std::time::Duration::from_secs(5);

/// What `magus gui` was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    /// `None`: `DEFAULT_PORT`, or any free port if that one is taken.
    pub port: Option<u16>,
    pub open_browser: bool,
    /// The folder games are kept in (`store::default_dir` when none is given).
    pub games: Option<std::path::PathBuf>,
}

fn bind(port: Option<u16>) -> Result<TcpListener, String> {
    let at = |port| SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    match port {
        Some(p) => TcpListener::bind(at(p)).map_err(|e| format!("--port {p}: {e}")),
        None => TcpListener::bind(at(DEFAULT_PORT))
            .or_else(|_| TcpListener::bind(at(0)))
            .map_err(|e| format!("cannot listen on 127.0.0.1: {e}")),
    }
}

/// Serves until the process is stopped.
pub fn run(registry: Registry, options: &Options) -> Result<(), String> {
    let listener = bind(options.port)?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("cannot read the server's address: {e}"))?
        .port();
    let url = format!("http://127.0.0.1:{port}/");
    let mut out = std::io::stdout();
    let _ = writeln!(out, "magus gui: {url}");
    let _ = writeln!(out, "(Ctrl-C stops the server)");
    let _ = out.flush();
    if options.open_browser {
        open_browser(&url);
    }
    let store = match options.games.clone().or_else(super::store::default_dir) {
        Some(dir) => {
            let store = Store::open(&dir)?;
            let _ = writeln!(out, "games are kept in {}", dir.display());
            Some(store)
        }
        None => {
            let _ = writeln!(
                out,
                "no folder to keep games in (no HOME): games last as long as the server"
            );
            None
        }
    };
    let _ = out.flush();
    let app = Arc::new(App::new(registry, port, store));
    let watched = Arc::clone(&app);
    std::thread::Builder::new()
        .name("gui-idle".into())
        .spawn(move || {
            loop {
                std::thread::sleep(IDLE_CHECK);
                for session in watched.sessions.all() {
                    session.pause_if_idle(IDLE_ANALYSIS);
                }
            }
        })
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    runtime.block_on(async move {
        listener
            .set_nonblocking(true)
            .map_err(|e| format!("cannot start the server: {e}"))?;
        let listener = tokio::net::TcpListener::from_std(listener)
            .map_err(|e| format!("cannot start the server: {e}"))?;
        axum::serve(GuardedListener(listener), router(app))
            .await
            .map_err(|e| format!("the server stopped: {e}"))
    })
}

/// The command that opens a web page here, if there is one: `$BROWSER`, else the desktop's
/// opener. Without a display on Linux none is tried (a text browser would take the terminal).
fn browser_command() -> Option<Vec<String>> {
    if let Ok(browser) = std::env::var("BROWSER") {
        let first = browser.split(':').next().unwrap_or("").trim();
        if !first.is_empty() {
            return Some(first.split_whitespace().map(str::to_string).collect());
        }
    }
    if cfg!(target_os = "macos") {
        return Some(vec!["open".into()]);
    }
    if cfg!(windows) {
        return Some(vec![
            "cmd".into(),
            "/C".into(),
            "start".into(),
            String::new(),
        ]);
    }
    let display = ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|d| !d.is_empty()));
    display.then(|| vec!["xdg-open".into()])
}

/// Opens `url` in a browser if one can be started; says where to go otherwise. Never fails.
fn open_browser(url: &str) {
    let started = browser_command().and_then(|command| {
        let (program, args) = command.split_first()?;
        Command::new(program)
            .args(args)
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()
    });
    match started {
        // Reaped on a thread of its own: the opener may outlive nothing we wait for.
        Some(mut child) => {
            std::thread::spawn(move || child.wait());
        }
        None => println!("open {url} in a web browser"),
    }
}
