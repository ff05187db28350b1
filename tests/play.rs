//! `magus play`: games between a person and the engine, driven through a pipe. The person's
//! moves are typed in SAN (the variants' own forms too); the engine plays at a fixed depth,
//! and where its moves matter the position leaves it one good move (a mate in one), so the
//! tests hold whatever the search becomes. Every saved game is checked by `magus replay`.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A fresh folder under the system's temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!("magus-play-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `magus play ARGS` in `dir` with `input` on its standard input.
fn play_in(dir: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_magus"))
        .arg("play")
        .args(args)
        .current_dir(dir)
        .env_remove("RUST_LOG")
        .env("USER", "tester")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the magus binary runs");
    // The game may end before all the input is read.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a game that must end well; returns its output and its PGN file's text.
fn game(dir: &TempDir, args: &[&str], input: &str) -> (String, String) {
    let pgn = dir.file("game.pgn");
    let _ = std::fs::remove_file(&pgn);
    let mut all = args.to_vec();
    let path = pgn.to_str().unwrap().to_string();
    all.extend(["--pgn", &path]);
    let out = play_in(&dir.0, &all, input);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{args:?} failed:\n{stdout}\n{stderr}");
    assert_eq!(stderr, "", "{args:?} wrote to stderr");
    let saved = std::fs::read_to_string(&pgn).unwrap_or_default();
    (stdout, saved)
}

/// `magus replay` on a PGN file: its report (it must find every move legal).
fn replay(dir: &TempDir, pgn: &str) -> String {
    let file = dir.file("replay.pgn");
    std::fs::write(&file, pgn).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_magus"))
        .arg("replay")
        .arg(&file)
        .output()
        .unwrap();
    let report = text(&out.stdout);
    assert!(
        out.status.success(),
        "replay refused the game:\n{report}{}\n{pgn}",
        text(&out.stderr)
    );
    assert!(report.contains("all legal"), "{report}");
    report
}

fn tag(pgn: &str, name: &str) -> String {
    pgn.lines()
        .find_map(|l| l.strip_prefix(&format!("[{name} \"")))
        .and_then(|v| v.strip_suffix("\"]"))
        .unwrap_or_else(|| panic!("no {name} tag in {pgn}"))
        .to_string()
}

/// The SAN of a move given in coordinates, as the library writes it.
fn san(variant: &str, fen: Option<&str>, wire: &str) -> String {
    let pos = common::position(variant, fen);
    let (_, m) = pos.after_wire(wire, 1).unwrap();
    pos.san(m)
}

#[test]
fn a_person_mates_and_the_game_is_saved_and_replays() {
    let dir = TempDir::new("mate");
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let (out, pgn) = game(&dir, &["--fen", fen, "--depth", "2"], "Ra8\n");
    assert!(out.contains("You play 1. Ra8#"), "{out}");
    assert!(out.contains("1-0 White mates"), "{out}");
    assert!(out.contains("Game saved to"), "{out}");
    assert_eq!(tag(&pgn, "Result"), "1-0");
    assert_eq!(tag(&pgn, "FEN"), fen);
    assert_eq!(tag(&pgn, "White"), "tester");
    assert!(tag(&pgn, "Black").starts_with("magus "), "{pgn}");
    assert!(pgn.contains("1. Ra8# {White mates} 1-0"), "{pgn}");
    let report = replay(&dir, &pgn);
    assert!(report.contains("checkmate, 1-0"), "{report}");
}

#[test]
fn the_engine_mates_a_person_playing_white() {
    // Black (the engine) moves first and has one mate: Re1#.
    let dir = TempDir::new("mated");
    let fen = "4r1k1/8/8/8/8/8/5PPP/6K1 b - - 0 1";
    let (out, pgn) = game(&dir, &["--fen", fen, "--depth", "2"], "");
    assert!(out.contains("magus plays 1... Re1#"), "{out}");
    assert!(out.contains("0-1 Black mates"), "{out}");
    assert_eq!(tag(&pgn, "Result"), "0-1");
    assert!(replay(&dir, &pgn).contains("checkmate, 0-1"));
}

#[test]
fn the_variants_own_notation_is_typed_and_saved() {
    let dir = TempDir::new("forms");
    let cases = [
        // The swap-in, from the start.
        ("deathmatch", None, "c1c1m"),
        // A pawn to the 6th rank with a Magician's promotion, two Magicians on the board.
        (
            "deathmatch",
            Some("k7/8/8/4P3/8/8/3M3M/7K w - - 0 1"),
            "e5e6,d2d2t",
        ),
        // Home-File Transference.
        ("deathmatch", Some("4k3/8/8/8/8/8/8/M3K3 w - - 0 1"), "a1h1"),
        // A King's move with a drop.
        (
            "royal-magician",
            Some("rnbmkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBM1BNR[KBNR,MBNR,kbnr,mbnr] w kq - 0 1"),
            "e3d4,n@c5",
        ),
        // A spell.
        (
            "magician-chess",
            Some("r1nknmr/ppp*ppp/*2m2*/*2*2*/*3M1*/PPP*PPP/RMNKN1R w KQkq - 3 2"),
            "d4e4",
        ),
        // Magi's 3-step pawn move.
        ("magi", None, "e2e5"),
    ];
    for (variant, fen, wire) in cases {
        let typed = san(variant, fen, wire);
        let mut args = vec!["--variant", variant, "--depth", "1"];
        if let Some(f) = fen {
            args.extend(["--fen", f]);
        }
        let (out, pgn) = game(&dir, &args, &format!("{typed}\nquit\n"));
        assert!(
            out.contains(&format!(". {typed}")),
            "{variant} {typed}: {out}"
        );
        assert!(out.contains("magus plays"), "{variant}: {out}");
        assert!(out.contains("* game left unfinished (quit)"), "{out}");
        assert_eq!(tag(&pgn, "Result"), "*");
        assert_eq!(tag(&pgn, "PlyCount"), "2", "{pgn}");
        if variant != "chess" {
            assert_eq!(tag(&pgn, "Variant"), variant);
        }
        // The PGN writer joins `e6 Md2=T` into one token.
        assert!(
            pgn.contains(&typed.replace(' ', "")),
            "{variant}: {typed} not in {pgn}"
        );
        replay(&dir, &pgn);
    }
}

#[test]
fn a_bad_or_ambiguous_move_is_explained_and_asked_again() {
    let dir = TempDir::new("errors");
    // Knights on b1 and f1 and the King can all reach d2.
    let fen = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
    let (out, pgn) = game(
        &dir,
        &["--fen", fen, "--depth", "1"],
        "Nd2\nhello\nQh5\nNbd2\nquit\n",
    );
    assert!(out.contains("Not played: 'Nd2'"), "{out}");
    assert!(out.contains("Legal moves to d2: Kd2 Nbd2 Nfd2"), "{out}");
    assert!(out.contains("Not played: 'hello'"), "{out}");
    assert!(out.contains("Not played: 'Qh5'"), "{out}");
    assert!(out.contains("You play 1. Nbd2"), "{out}");
    // Each refusal asks again: four prompts for White before the move is played.
    assert_eq!(out.matches("White to move, 1. > ").count(), 4, "{out}");
    assert!(pgn.contains("1. Nbd2"), "{pgn}");
    replay(&dir, &pgn);
}

#[test]
fn moves_board_fen_and_help_answer_and_change_nothing() {
    let dir = TempDir::new("commands");
    let (out, _) = game(
        &dir,
        &["--depth", "1"],
        "moves\nmoves e2\nmoves z9\nboard\nfen\nhelp\nquit\n",
    );
    let start = common::position("chess", None);
    let all: Vec<String> = {
        let mut v: Vec<String> = common::legal(&start)
            .iter()
            .map(|w| san("chess", None, w))
            .collect();
        v.sort();
        v
    };
    assert!(out.contains("20 legal moves:"), "{out}");
    for m in &all {
        assert!(out.contains(&format!("  {m}")), "{m} not listed: {out}");
    }
    assert!(out.contains("2 legal moves:\n   e3  e4"), "{out}");
    assert!(out.contains("'z9' is not a square of this board"), "{out}");
    assert!(out.contains(&start.to_fen()), "{out}");
    assert!(out.contains("undo"), "help lists the commands: {out}");
    assert!(out.contains("No move was played; nothing saved."), "{out}");
    assert!(!dir.file("game.pgn").exists());
}

#[test]
fn undo_takes_back_the_persons_move_and_the_reply() {
    let dir = TempDir::new("undo");
    let (out, pgn) = game(&dir, &["--depth", "1"], "undo\ne4\nundo\nfen\nd4\nquit\n");
    assert!(out.contains("No move of yours to take back."), "{out}");
    let taken = out.split("Taken back.").nth(1).expect("a take-back");
    let fen_line = taken.lines().find(|l| l.contains(" w KQkq")).unwrap();
    assert!(
        fen_line.ends_with(&common::position("chess", None).to_fen()),
        "{out}"
    );
    // The saved game has the moves played after the take-back only.
    assert!(pgn.contains("1. d4 "), "{pgn}");
    assert!(!pgn.contains("e4"), "{pgn}");
    assert_eq!(tag(&pgn, "PlyCount"), "2");
    replay(&dir, &pgn);
}

#[test]
fn end_of_input_saves_the_unfinished_game_quietly() {
    let dir = TempDir::new("eof");
    let (out, pgn) = game(&dir, &["--variant", "magi", "--depth", "1"], "e5\n");
    assert!(
        out.contains("* game left unfinished (end of input)"),
        "{out}"
    );
    assert_eq!(tag(&pgn, "Result"), "*");
    assert_eq!(tag(&pgn, "Variant"), "magi");
    assert_eq!(tag(&pgn, "Termination"), "unterminated");
    assert!(pgn.contains("1. e5 "), "{pgn}");
    replay(&dir, &pgn);
}

#[test]
fn resigning_loses_and_is_saved() {
    let dir = TempDir::new("resign");
    let (out, pgn) = game(&dir, &["--color", "black", "--depth", "1"], "resign\n");
    assert!(
        out.contains("magus plays 1. "),
        "the engine opens as White: {out}"
    );
    assert!(out.contains("1-0 Black resigns"), "{out}");
    assert_eq!(tag(&pgn, "Result"), "1-0");
    assert_eq!(tag(&pgn, "Black"), "tester");
    replay(&dir, &pgn);
    // Playing Black, the board is drawn from Black's side: rank 1 at the top.
    let board = out
        .lines()
        .find(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()));
    assert!(board.unwrap().trim_start().starts_with("1 |"), "{out}");
}

#[test]
fn a_clock_game_shows_the_clocks_and_records_the_time_control() {
    let dir = TempDir::new("clock");
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let (out, pgn) = game(&dir, &["--fen", fen, "--tc", "5+3"], "Ra8\n");
    assert!(out.contains("Clock: White 5:00  Black 5:00"), "{out}");
    assert_eq!(tag(&pgn, "TimeControl"), "300+3");
    assert_eq!(tag(&pgn, "Result"), "1-0");
    replay(&dir, &pgn);
}

#[test]
fn without_pgn_the_game_goes_to_a_dated_file_here() {
    let dir = TempDir::new("default");
    let out = play_in(&dir.0, &["--depth", "1"], "e4\nquit\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let files: Vec<String> = std::fs::read_dir(&dir.0)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(
        files[0].starts_with("magus-chess-") && files[0].ends_with(".pgn"),
        "{files:?}"
    );
    assert!(text(&out.stdout).contains(&files[0]));
    // A game added to a file that holds one already: both are there, and both replay.
    let pgn = dir.file(&files[0]);
    let out = play_in(
        &dir.0,
        &["--depth", "1", "--pgn", pgn.to_str().unwrap()],
        "d4\nquit\n",
    );
    assert!(out.status.success());
    let both = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(both.matches("[Event ").count(), 2, "{both}");
    assert!(replay(&dir, &both).contains("game 2"));
}

#[test]
fn bad_settings_fail_with_one_clear_line() {
    let dir = TempDir::new("flags");
    for (args, fact) in [
        (
            &["--level", "21"][..],
            "--level: 21 is not a level from 0 to 20",
        ),
        (&["--tc", "fast"][..], "--tc 'fast'"),
        (&["--variant", "nonesuch"][..], "unknown variant 'nonesuch'"),
        (&["--fen", "8/8 w"][..], "--fen '8/8 w'"),
        (&["--depth", "0"][..], "--depth: 0"),
    ] {
        let out = play_in(&dir.0, args, "");
        assert!(!out.status.success(), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.starts_with("error: ") && err.contains(fact),
            "{args:?}: {err}"
        );
        assert_eq!(text(&out.stdout), "", "{args:?}");
    }
    let out = play_in(&dir.0, &["--level", "3", "--depth", "2"], "");
    assert!(!out.status.success(), "--level and --depth conflict");
}
