//! The `magus` binary: perft and its divide, the variant list, a user variant folder, UCI on
//! standard input, and errors (non-zero exit, one `error:` line naming the flag and value).

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn magus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_magus"))
        .args(args)
        .env_remove("MAGUS_TIMING")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .expect("the magus binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// Runs a command that must succeed quietly on stderr; returns its standard output.
fn succeeds(args: &[&str]) -> String {
    let out = magus(args);
    assert!(out.status.success(), "{args:?} failed: {}", stderr(&out));
    assert_eq!(stderr(&out), "", "{args:?} wrote to stderr");
    stdout(&out)
}

/// Runs a command that must fail: non-zero exit, nothing on stdout, exactly one line
/// starting `error:` on stderr, holding every fact. (clap follows its error line with a
/// usage hint; those lines are not errors.)
fn fails(args: &[&str], facts: &[&str]) -> String {
    let out = magus(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert_eq!(stdout(&out), "", "{args:?} wrote to stdout");
    let err = stderr(&out);
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{args:?}: one error line expected: {err}");
    for fact in facts {
        assert!(
            errors[0].contains(fact),
            "{args:?}: {:?} lacks {fact:?}",
            errors[0]
        );
    }
    errors[0].to_string()
}

#[test]
fn perft_prints_the_node_count() {
    assert_eq!(
        succeeds(&["perft", "--variant", "magi", "--depth", "2"]),
        "Nodes searched: 1442\n"
    );
    assert_eq!(
        succeeds(&["perft", "--depth", "3"]),
        "Nodes searched: 8902\n"
    );
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(
        succeeds(&[
            "perft",
            "--variant",
            "chess",
            "--depth",
            "3",
            "--fen",
            kiwipete
        ]),
        "Nodes searched: 97862\n"
    );
    // A FEN of board and side only (it used to panic).
    assert_eq!(
        succeeds(&[
            "perft",
            "--depth",
            "1",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"
        ]),
        "Nodes searched: 20\n"
    );
}

#[test]
fn perft_divide_lists_each_root_move() {
    let text = succeeds(&["perft", "--variant", "magi", "--depth", "2", "--divide"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 38 + 2, "{text}");
    assert_eq!(lines[38], "");
    assert_eq!(lines[39], "Nodes searched: 1442");
    let mut moves = Vec::new();
    let mut sum = 0;
    for line in &lines[..38] {
        let (m, n) = line.split_once(": ").unwrap_or_else(|| panic!("{line:?}"));
        let n: u64 = n.parse().unwrap();
        moves.push(m.to_string());
        sum += n;
        match m {
            // The Duke on a4 reaches nothing of Black's: Black keeps its 38 moves.
            "a3a4" => assert_eq!(n, 38),
            // On a6 it blocks a5 for Black's Duke a8, which can take it instead of going
            // to a6: 3 Duke moves down become 2.
            "a3a6" => assert_eq!(n, 37),
            _ => {}
        }
    }
    assert_eq!(sum, 1442);
    moves.sort();
    assert_eq!(moves, common::legal(&common::position("magi", None)));
}

#[test]
fn variants_lists_every_built_in() {
    let text = succeeds(&["variants"]);
    for v in common::registry().all() {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(v.name.as_str()))
            .unwrap_or_else(|| panic!("{} is not listed: {text}", v.name));
        assert!(line.contains(&format!("{}x{}", v.files, v.ranks)), "{line}");
    }
    assert_eq!(text.lines().count(), common::registry().all().len());
}

#[test]
fn bad_arguments_fail_with_one_clear_line() {
    fails(
        &["perft", "--variant", "nonesuch", "--depth", "1"],
        &["--variant", "'nonesuch'", "chess", "magi"],
    );
    fails(&["perft", "--depth", "0"], &["--depth", "0"]);
    fails(&["perft", "--depth", "21"], &["--depth", "21"]);
    fails(&["perft", "--depth", "abc"], &["--depth", "'abc'"]);
    fails(&["perft", "--depth", "-1"], &["-1"]);
    fails(&["perft", "--depth", "1", "--bogus"], &["'--bogus'"]);
    fails(&["frobnicate"], &["'frobnicate'"]);
    let missing = magus(&["perft"]);
    assert!(!missing.status.success());
    assert!(stderr(&missing).contains("--depth"), "{}", stderr(&missing));
    // A bad FEN: the flag, the FEN as given and what is wrong with it.
    fails(
        &["perft", "--depth", "1", "--fen", "rnbqkbnr/8 w"],
        &["--fen", "'rnbqkbnr/8 w'", "2 ranks", "chess has 8"],
    );
    fails(
        &[
            "perft",
            "--depth",
            "1",
            "--fen",
            "4k3/8/8/8/8/8/8/4K3 w - z9",
        ],
        &["--fen", "'z9' is not a square"],
    );
    fails(
        &["perft", "--variant", "magi", "--depth", "1", "--fen", "xx"],
        &["--fen", "'xx'"],
    );
    fails(&["bench", "3", "--variant", "nonesuch"], &["'nonesuch'"]);
}

#[test]
fn bench_of_one_variant_searches_only_its_positions() {
    let out = magus(&["bench", "3", "--variant", "magi"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let progress = stderr(&out);
    let lines: Vec<&str> = progress.lines().collect();
    assert!(!lines.is_empty(), "no progress lines");
    for line in &lines {
        assert!(line.contains(" magi "), "not a magi position: {line}");
    }
    let summary = stdout(&out);
    let nodes: u64 = summary
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched  : "))
        .expect("a node count")
        .parse()
        .unwrap();
    assert!(nodes > 0);
}

/// A fresh folder under the system's temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!("magus-cli-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

/// A variant folder holding tests/data/elephants.toml (a 6x6 variant).
fn folder_with_elephants(tag: &str) -> TempDir {
    let dir = TempDir::new(tag);
    std::fs::write(
        dir.0.join("elephants.toml"),
        include_str!("data/elephants.toml"),
    )
    .unwrap();
    dir
}

/// `perft --variant elephants --depth DEPTH` with the folder `path`.
fn elephants_perft<'a>(path: &'a str, depth: &'a str) -> [&'a str; 7] {
    [
        "--variant-path",
        path,
        "perft",
        "--variant",
        "elephants",
        "--depth",
        depth,
    ]
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_variant_folder_adds_user_variants() {
    let dir = folder_with_elephants("good");
    let path = dir.0.to_str().unwrap();
    let list = succeeds(&["--variant-path", path, "variants"]);
    assert!(list.lines().any(|l| l.starts_with("elephants ")), "{list}");
    assert!(list.contains("6x6"), "{list}");
    // Perft 1 and 2 of the start, derived by hand in variant_files.rs.
    assert_eq!(
        succeeds(&elephants_perft(path, "2")),
        "Nodes searched: 35\n"
    );
    // The flag is global: it may follow the command.
    assert_eq!(
        succeeds(&[
            "perft",
            "--variant",
            "elephants",
            "--depth",
            "1",
            "--variant-path",
            path
        ]),
        "Nodes searched: 6\n"
    );
}

/// Runs magus with `input` on a pipe; returns its standard output and error.
fn with_input(args: &[&str], input: &str) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_magus"))
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    (stdout(&out), stderr(&out))
}

#[test]
fn a_bad_variant_file_is_refused_alone_and_the_command_goes_on() {
    let dir = folder_with_elephants("bad");
    let bad = dir.0.join("broken.toml");
    std::fs::write(&bad, "name = \"broken\"\nfiles = 8\n").unwrap();
    let path = dir.0.to_str().unwrap();
    // The good file loads, the built-ins stay, and the bad one is named on stderr.
    let out = magus(&elephants_perft(path, "2"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "Nodes searched: 35\n");
    let err = stderr(&out);
    assert!(
        err.lines()
            .any(|l| l.starts_with("warning: --variant-path: ")
                && l.contains(&bad.display().to_string())
                && l.contains("missing field")),
        "{err}"
    );
    assert!(err.contains("refused broken"), "{err}");
    let out = magus(&["--variant-path", path, "perft", "--depth", "2"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "Nodes searched: 400\n");
    // A path that is not there: said, and the built-in variants are all there.
    let missing = dir.0.join("no-such-folder");
    let out = magus(&["--variant-path", missing.to_str().unwrap(), "variants"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().count(), common::registry().all().len());
    assert!(
        stderr(&out).contains(&missing.display().to_string()),
        "{}",
        stderr(&out)
    );
    // Only the refused variant is unknown.
    fails(
        &[
            "--variant-path",
            path,
            "perft",
            "--variant",
            "broken",
            "--depth",
            "1",
        ],
        &["--variant", "'broken'"],
    );
}

#[test]
fn a_bad_variant_path_does_not_stop_the_protocols() {
    let dir = TempDir::new("proto");
    let bad = dir.0.join("broken.toml");
    std::fs::write(&bad, "name = \"broken\"\nfiles = 8\n").unwrap();
    let shown = bad.display().to_string();
    for path in [shown.as_str(), "/no/such/magus/variants"] {
        // XBoard: the handshake, with the problem as a comment line.
        for args in [&["xboard"][..], &[][..]] {
            let mut all = vec!["--variant-path", path];
            all.extend(args);
            let (out, err) = with_input(&all, "xboard\nprotover 2\nping 1\nquit\n");
            assert!(
                out.contains("feature done=1") && out.contains("pong 1"),
                "{out}"
            );
            let note = out
                .lines()
                .find(|l| l.starts_with("# error: --variant-path: "))
                .unwrap_or_else(|| panic!("{args:?} {path}: no note in {out}"));
            assert!(note.contains(path), "{note}");
            assert!(out.contains("variants=\"normal,deathmatch"), "{out}");
            assert_eq!(err, "");
        }
        // UCI: the same as an `info string error`.
        for args in [&["uci"][..], &[][..]] {
            let mut all = vec!["--variant-path", path];
            all.extend(args);
            let (out, _) = with_input(&all, "uci\nisready\nquit\n");
            assert!(out.contains("uciok") && out.contains("readyok"), "{out}");
            assert!(
                out.lines()
                    .any(|l| l.starts_with("info string error: --variant-path: ")
                        && l.contains(path)),
                "{args:?} {path}: {out}"
            );
        }
    }
}

/// Runs magus with its standard input on a terminal (a pseudo-terminal), the output on a
/// pipe; types `typed`. Returns the output.
fn at_a_terminal(args: &[&str], typed: &str) -> String {
    use std::os::fd::{FromRawFd, OwnedFd};
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty fills in two new descriptors, which are owned below.
    let made = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(made, 0, "no pseudo-terminal");
    // SAFETY: both descriptors are new and owned by nothing else.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let child = Command::new(env!("CARGO_BIN_EXE_magus"))
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::from(slave))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut terminal = std::fs::File::from(master);
    terminal.write_all(typed.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    drop(terminal);
    stdout(&out)
}

#[test]
fn at_a_terminal_magus_greets_and_helps() {
    let text = at_a_terminal(&[], "help\nquit\n");
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("magus ") && first.contains(env!("CARGO_PKG_VERSION")),
        "{text}"
    );
    assert!(first.contains("'help'"), "{first}");
    assert!(text.contains("magus speaks UCI"), "help answered: {text}");
    assert!(!text.contains("unknown command"), "{text}");
    // Forced XBoard greets in its comment form.
    let text = at_a_terminal(&["xboard"], "help\nquit\n");
    assert!(text.starts_with("# magus "), "{text}");
    assert!(text.contains("# magus speaks the XBoard"), "{text}");
}

#[test]
fn on_a_pipe_magus_says_nothing_first() {
    let (out, _) = with_input(&[], "uci\nquit\n");
    assert!(out.starts_with("id name magus"), "{out}");
    let (out, _) = with_input(&["xboard"], "xboard\nprotover 2\nquit\n");
    assert!(out.starts_with("feature done=0"), "{out}");
}

#[test]
fn analyze_reads_moves_in_san() {
    let out = magus(&[
        "analyze",
        "--variant",
        "deathmatch",
        "--moves",
        "e4",
        "e5",
        "Bf1=M",
        "--depth",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // The Magician stands on f1 in the position analysed.
    assert!(text.contains("| M | N | R |"), "{text}");
    assert!(text.contains("Black to move"), "{text}");
    assert!(text.contains("best move"), "{text}");
    fails(
        &[
            "analyze",
            "--variant",
            "deathmatch",
            "--moves",
            "e4",
            "Bc1=Q",
        ],
        &["--moves", "move 2 'Bc1=Q'"],
    );
}

#[test]
fn without_a_command_it_speaks_uci() {
    for args in [&[][..], &["uci"][..]] {
        let (text, _) = with_input(
            args,
            "uci\nisready\nsetoption name UCI_Variant value magi\nposition startpos moves a3a4\ngo perft 1\nquit\n",
        );
        for expected in [
            "uciok",
            "readyok",
            "info string variant magi files 10 ranks 10",
            "Nodes searched: 38",
        ] {
            assert!(
                text.contains(expected),
                "{args:?}: no {expected:?} in {text}"
            );
        }
    }
}

/// `analyze --pgn`: the final position of the file's first game, every move checked.
#[test]
fn analyze_reads_a_pgn_game() {
    let dir = std::env::temp_dir().join(format!("magus-analyze-pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.pgn");
    std::fs::write(&good, "[Variant \"magi\"]\n\n1. e5 e6 2. Wh3 *\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_magus"))
        .args(["analyze", "--depth", "3", "--pgn"])
        .arg(&good)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Black to move"), "{text}");
    assert!(text.contains("best move"), "{text}");
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, "[Variant \"chess\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_magus"))
        .args(["analyze", "--pgn"])
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--pgn") && err.contains("2. Ke3"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `magus analyze … | head -1` and `magus perft --divide … | head -2`: the reader takes what
/// it wants and closes the pipe; magus ends as a Unix tool does, killed by SIGPIPE, with no
/// panic (the analysis prints from its search thread) and nothing on standard error.
#[test]
fn printing_commands_end_quietly_when_the_reader_closes_the_pipe() {
    for (args, lines) in [
        (
            &["analyze", "--variant", "chess", "--movetime", "20000"][..],
            1,
        ),
        (
            &["perft", "--variant", "magi", "--depth", "5", "--divide"][..],
            2,
        ),
    ] {
        common::lines_then_closed_pipe(Command::new(env!("CARGO_BIN_EXE_magus")).args(args), lines);
    }
}
