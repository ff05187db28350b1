//! Real clients drive the engine binary: python-chess over UCI and over XBoard, and the real
//! XBoard GUI (under Xvfb) in engine-vs-engine games of Magi and Magician's Deathmatch. The
//! scripts live in `tests/clients/`; `.ci/install-clients` installs the tools.
//!
//! A test whose tool is not installed prints `skipped: <test>: <reason>` where it can be seen
//! (straight to standard error, past the test harness's capture) and passes, except when the
//! environment variable `CI` is set (to anything but empty, `0` or `false`): then a missing
//! client is a failure, so CI cannot pass without having run them.

mod needed_tools;

use needed_tools::{can_run, works};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// The clients run one at a time: two engines thinking at once on a small machine are enough.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn magus() -> &'static str {
    env!("CARGO_BIN_EXE_magus")
}

fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients")
}

fn missing_python_chess() -> Vec<String> {
    if works("python3", &["-c", "import chess.engine"]) {
        Vec::new()
    } else {
        vec!["python3 with python-chess (pip install chess)".to_string()]
    }
}

fn missing_xboard() -> Vec<String> {
    let mut missing = Vec::new();
    if !["xboard", "/usr/games/xboard"]
        .iter()
        .any(|x| works(x, &["--version"]))
    {
        missing.push("xboard".to_string());
    }
    if !works("xvfb-run", &["--help"]) {
        missing.push("xvfb-run (Xvfb)".to_string());
    }
    missing
}

/// Runs a client script and fails with its output when it fails.
fn run(program: &str, args: &[&str]) -> String {
    let output = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success(),
        "{program} {args:?} failed:\n{text}"
    );
    println!("{text}");
    text
}

/// tests/clients/python_chess_client.py over `protocol`: python-chess checks every move of
/// a whole game and a few analyses.
fn python_chess_client(test: &str, protocol: &str) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    if !can_run(test, missing_python_chess()) {
        return;
    }
    let script = scripts().join("python_chess_client.py");
    let text = run("python3", &[script.to_str().unwrap(), protocol, magus()]);
    assert!(
        text.contains("game over after") && text.contains("PASS"),
        "{text}"
    );
}

#[test]
fn python_chess_plays_and_analyses_over_uci() {
    python_chess_client("python_chess_plays_and_analyses_over_uci", "uci");
}

#[test]
fn python_chess_plays_and_analyses_over_xboard() {
    python_chess_client("python_chess_plays_and_analyses_over_xboard", "xboard");
}

fn xboard_game(test: &str, variant: &str, options: &[&str]) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    if !can_run(test, missing_xboard()) {
        return;
    }
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("xboard-{variant}"));
    let script = scripts().join("xboard_magi.sh");
    let mut args = vec![
        script.to_str().unwrap(),
        magus(),
        out.to_str().unwrap(),
        variant,
    ];
    args.extend_from_slice(options);
    let text = run("bash", &args);
    assert!(text.contains("PASS:"), "{text}");
    let pgn = std::fs::read_to_string(out.join(format!("xboard-{variant}.pgn"))).unwrap();
    assert!(pgn.contains(&format!("[Variant \"{variant}\"]")), "{pgn}");
}

#[test]
fn xboard_plays_magi_between_two_magus() {
    xboard_game("xboard_plays_magi_between_two_magus", "magi", &[]);
}

#[test]
fn xboard_plays_deathmatch_with_legality_testing() {
    // XBoard checks every move against the `piece` definitions; the engines keep to the moves
    // it can check (no swap-in, no Transference, no 6th-rank transformation).
    xboard_game(
        "xboard_plays_deathmatch_with_legality_testing",
        "deathmatch",
        &[
            "-firstOptions",
            "Only XBoard moves=1",
            "-secondOptions",
            "Only XBoard moves=1",
        ],
    );
}

#[test]
fn xboard_plays_magician_chess_with_legality_testing() {
    // XBoard draws the holes and checks every move; it cannot relay a spell, so the engines
    // play without them.
    xboard_game(
        "xboard_plays_magician_chess_with_legality_testing",
        "magician-chess",
        &[
            "-firstOptions",
            "Only XBoard moves=1",
            "-secondOptions",
            "Only XBoard moves=1",
        ],
    );
}

#[test]
fn xboard_plays_royal_magician_with_legality_testing() {
    // XBoard cannot relay a move with a drop, so the engines keep their King and Magician
    // off the ranks that would trigger one.
    xboard_game(
        "xboard_plays_royal_magician_with_legality_testing",
        "royal-magician",
        &[
            "-firstOptions",
            "Only XBoard moves=1",
            "-secondOptions",
            "Only XBoard moves=1",
        ],
    );
}
