//! `magus gui` in a real browser: tests/gui_browser.py drives Chromium (through Playwright)
//! against the real server, and in every variant plays a game by clicks, each special move
//! included, and a game to its end; then the page's tools (clock, keyboard, FEN and PGN,
//! the SVG, analysis, resigning).
//!
//! Needs python3 with Playwright and a Chromium (`.ci/install-clients` installs both); without
//! them the test prints `skipped: ...` and passes, except in CI (see `needed_tools`).
//! `MAGUS_GUI_SHOTS=DIR` keeps a screenshot of each variant's board there.

mod gui_common;
mod needed_tools;

use std::path::Path;
use std::process::Command;

use gui_common::Server;
use needed_tools::{can_run, works};

/// The scenarios of gui_browser.py: one per built-in variant, then the board's features.
fn scenarios() -> impl Iterator<Item = &'static str> {
    gui_common::BUILTIN_VARIANTS
        .into_iter()
        .chain(["features", "live"])
}

fn chromium() -> String {
    std::env::var("MAGUS_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_string())
}

fn missing_browser() -> Vec<String> {
    let mut missing = Vec::new();
    if !works("python3", &["-c", "import playwright.sync_api"]) {
        missing.push("python3 with Playwright (pip install playwright)".to_string());
    }
    if !works(&chromium(), &["--version"]) {
        missing.push(format!("Chromium at {} (apt install chromium)", chromium()));
    }
    missing
}

#[test]
fn every_variant_is_played_by_clicks_in_a_real_browser() {
    let test = "every_variant_is_played_by_clicks_in_a_real_browser";
    if !can_run(test, missing_browser()) {
        return;
    }
    let server = Server::start();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gui_browser.py");
    let mut command = Command::new("python3");
    command.arg(script).arg(server.url()).args(scenarios());
    if let Ok(dir) = std::env::var("MAGUS_GUI_SHOTS") {
        std::fs::create_dir_all(&dir).expect("the screenshot folder");
        command.args(["--shots", &dir]);
    }
    let output = command.output().expect("python3 runs");
    let report = String::from_utf8_lossy(&output.stdout);
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{report}\n{errors}");
    // Each scenario reported itself: none was left out by a script that stopped early.
    for name in scenarios() {
        assert!(
            report.lines().any(|l| l == format!("ok: {name}")),
            "{name} did not finish:\n{report}\n{errors}"
        );
    }
}
