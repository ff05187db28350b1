//! Protocol abuse: thousands of random lines, valid and malformed, handed to a UCI session,
//! with `isready` interleaved. The engine never panics, answers every `isready` with one
//! `readyok` at once, prints one `bestmove` for every search it started, and a line it
//! refuses leaves the game (and the hash table) as they were. Then the same kind of script
//! is piped into the real binary, which must answer it and exit cleanly on `quit`. The XBoard
//! session gets the same treatment, with `ping` for `isready`.
//!
//! `MAGUS_ABUSE_LINES` sets the number of lines of the in-process run (default 6000), and
//! `MAGUS_ABUSE_SEED` its seed.

mod common;

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use magus::protocol::Session;
use magus::protocol::uci::{Output, UciSession};
use magus::variant::Registry;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};

/// A session writing into a buffer the test reads as it goes: it counts the answers and
/// keeps the last of a few kinds of line.
struct Harness {
    session: UciSession,
    buffer: Arc<Mutex<Vec<u8>>>,
    readyok: usize,
    bestmoves: usize,
    errors: usize,
    last_bestmove: String,
    last_error: String,
}

impl Harness {
    fn new() -> Harness {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let out: Output = buffer.clone();
        Harness {
            session: UciSession::new(Registry::builtin(), out),
            buffer,
            readyok: 0,
            bestmoves: 0,
            errors: 0,
            last_bestmove: String::new(),
            last_error: String::new(),
        }
    }

    /// Reads what was written since the last look (whole lines: each is written under the
    /// output's lock).
    fn poll(&mut self) {
        let bytes = std::mem::take(&mut *self.buffer.lock().unwrap());
        for line in String::from_utf8_lossy(&bytes).lines() {
            if line == "readyok" {
                self.readyok += 1;
            } else if line.starts_with("bestmove") {
                self.bestmoves += 1;
                self.last_bestmove = line.to_string();
            } else if line.starts_with("info string error") {
                self.errors += 1;
                self.last_error = line.to_string();
            }
        }
    }

    /// Sends a line; returns whether the session goes on, and whether it printed an error.
    fn send(&mut self, line: &str) -> (bool, bool) {
        self.poll();
        let errors = self.errors;
        let go_on = self.session.handle_line(line);
        self.poll();
        (go_on, self.errors > errors)
    }
}

const VARIANTS: &[&str] = &[
    "chess",
    "deathmatch",
    "deathmatch-legacy",
    "magi",
    "magician-chess",
];

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "4k3/8/3P4/8/8/8/3T4/4K3 b - - 0 2",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "rnbcqkwbnr/pppppppppp/d2p2p2d/10/10/10/10/D2P2P2D/PPPPPPPPPP/RNBCQKWBNR w KQkq - 0 1",
    "rmnknmr/ppp*ppp/*5*/*2*2*/*5*/PPP*PPP/RMNKNMR w KQkq - 0 1",
    "***3k/***4/**2n2/4*N1/3M3/7/K6 w - - 0 1",
    "7k/8/8/8/8/8/8/K7 w - - 99 200",
];

const HUGE: &[&str] = &[
    "99999999999999999999",
    "18446744073709551615",
    "18446744073709551616",
    "-99999999999999999999",
    "4294967296",
    "-1",
    "0",
    "1e9",
    "NaN",
    "",
];

/// Random characters, from plain ASCII to control characters and other scripts.
fn garbage(rng: &mut StdRng, max_len: usize) -> String {
    const ODD: &[char] = &[
        '\0', '\t', '\u{7f}', '\u{feff}', 'é', 'ß', '♞', '𝄞', '\u{202e}',
    ];
    let len = rng.random_range(0..=max_len);
    (0..len)
        .map(|_| match rng.random_range(0..10) {
            0 => *ODD.choose(rng).unwrap(),
            1 => ' ',
            _ => rng.random_range(b'!'..=b'~') as char,
        })
        .collect()
}

/// A valid FEN with a few characters changed, dropped or repeated.
fn mangled_fen(rng: &mut StdRng) -> String {
    let mut fen: Vec<char> = FENS.choose(rng).unwrap().chars().collect();
    for _ in 0..rng.random_range(1..4) {
        let i = rng.random_range(0..fen.len());
        match rng.random_range(0..4) {
            0 => {
                fen.remove(i);
            }
            1 => fen.insert(i, *b"/12345678*kKpPqQ-wb ".choose(rng).unwrap() as char),
            2 => fen[i] = rng.random_range(b' '..=b'~') as char,
            _ => fen.truncate(i),
        }
        if fen.is_empty() {
            break;
        }
    }
    fen.into_iter().collect()
}

fn coordinate(rng: &mut StdRng) -> String {
    let file = rng.random_range(b'a'..=b'l') as char;
    format!("{file}{}", rng.random_range(0..13))
}

/// One line of a script. `legal` are the legal moves of the session's current position, in
/// wire notation (the script plays some of them).
fn random_line(rng: &mut StdRng, legal: &[String]) -> String {
    let huge = |rng: &mut StdRng| HUGE.choose(rng).unwrap().to_string();
    match rng.random_range(0..42) {
        // Valid commands.
        0 => "uci".into(),
        1 => "ucinewgame".into(),
        2 => "position startpos".into(),
        3 => format!("position fen {}", FENS.choose(rng).unwrap()),
        4..=6 => {
            let n = rng.random_range(1..=3).min(legal.len());
            let moves: Vec<&str> = legal.sample(rng, n).map(String::as_str).collect();
            // One legal move from the start (the others usually refused: a good mix).
            format!("position startpos moves {}", moves.join(" "))
        }
        7 => format!(
            "setoption name UCI_Variant value {}",
            VARIANTS.choose(rng).unwrap()
        ),
        8 => format!("setoption name MultiPV value {}", rng.random_range(1..4)),
        9 => format!("setoption name Threads value {}", rng.random_range(1..3)),
        10 => format!("setoption name Hash value {}", rng.random_range(1..33)),
        11 => "setoption name Clear Hash".into(),
        12 => format!("go depth {}", rng.random_range(1..4)),
        13 => format!("go nodes {}", rng.random_range(1..5000)),
        14 => format!("go movetime {}", rng.random_range(0..15)),
        15 => format!(
            "go wtime {} btime {} winc {} binc {}",
            rng.random_range(0..200),
            rng.random_range(0..200),
            rng.random_range(0..20),
            rng.random_range(0..20)
        ),
        16 => "go infinite".into(),
        17 => "go ponder movetime 10".into(),
        18 => "ponderhit".into(),
        19 | 20 => "stop".into(),
        21 => format!("go perft {}", rng.random_range(1..3)),
        22 => (*["d", "eval", "debug on", "debug off"].choose(rng).unwrap()).into(),
        23 => match legal.choose(rng) {
            Some(m) => format!("go depth 2 searchmoves {m}"),
            None => "go depth 1".into(),
        },
        // Huge and odd numbers.
        24 => format!(
            "go {} {}",
            [
                "depth",
                "nodes",
                "movetime",
                "wtime",
                "btime",
                "winc",
                "movestogo",
                "mate"
            ]
            .choose(rng)
            .unwrap(),
            huge(rng)
        ),
        25 => format!(
            "setoption name {} value {}",
            ["Hash", "Threads", "MultiPV", "Move Overhead"]
                .choose(rng)
                .unwrap(),
            huge(rng)
        ),
        26 => format!("go perft {}", huge(rng)),
        // Unknown variants and options, bad values.
        27 => format!("setoption name UCI_Variant value {}", garbage(rng, 12)),
        28 => format!(
            "setoption name {} value {}",
            garbage(rng, 10),
            garbage(rng, 10)
        ),
        29 => "setoption name Scoring value sideways".into(),
        // Bad positions and moves.
        30 | 31 => format!("position fen {}", mangled_fen(rng)),
        32 => format!(
            "position startpos moves {}{}{}",
            coordinate(rng),
            coordinate(rng),
            ["", "q", "x", ",d2d2t", ",n@c5", "m"].choose(rng).unwrap()
        ),
        33 => format!("go searchmoves {} depth 1", garbage(rng, 6)),
        34 => (*[
            "position",
            "position fen",
            "position moves e2e4",
            "go depth",
            "go nodes -",
            "setoption",
            "setoption name",
            "setoption value 3",
            "go perft",
            "go infinite depth",
        ]
        .choose(rng)
        .unwrap())
        .into(),
        // Empty lines, garbage, very long lines.
        35 => (*["", " ", "\t", "   \t  "].choose(rng).unwrap()).into(),
        36 | 37 => garbage(rng, 40),
        38 => format!("position startpos moves {}", "e2e4 e7e5 ".repeat(500)),
        // Commands in other cases and lines meant for a GUI, with numbers out of range.
        39 => {
            let line = format!(
                "{} {}",
                [
                    "go depth",
                    "go wtime",
                    "go nodes",
                    "position startpos",
                    "uci",
                    "isready"
                ]
                .choose(rng)
                .unwrap(),
                huge(rng)
            );
            line.chars()
                .map(|c| match rng.random_bool(0.5) {
                    true => c.to_ascii_uppercase(),
                    false => c,
                })
                .collect()
        }
        40 => format!(
            "{} {}",
            [
                "info depth",
                "info nodes",
                "info score cp",
                "option name X type spin default",
                "bestmove",
                "id name"
            ]
            .choose(rng)
            .unwrap(),
            huge(rng)
        ),
        _ => garbage(rng, 5000),
    }
}

#[test]
fn thousands_of_random_lines_keep_the_engine_answering() {
    let lines: usize = std::env::var("MAGUS_ABUSE_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6000);
    let seed: u64 = std::env::var("MAGUS_ABUSE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_240_601);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut h = Harness::new();
    let started_at = Instant::now();
    let mut isready = 0;
    let mut searches = 0;
    let mut refused = 0;
    // A search that runs until told (`go infinite`, a huge depth) gets its `stop` within a
    // few lines; the lines in between are refused (busy) or answered.
    let mut stop_in: Option<u32> = None;
    for n in 0..lines {
        let legal = h.session.game().position().legal_moves_wire(1);
        let line = random_line(&mut rng, &legal);
        let fen = h.session.game().position().to_fen();
        let played = h.session.game().moves().len();
        let hash_mb = h.session.hash_megabytes();
        let (go_on, error) = h.send(&line);
        assert!(go_on, "line {n} '{line}' ended the session");
        let first = line.split_whitespace().next();
        if error {
            refused += 1;
            // A refused line changes nothing.
            assert_eq!(h.session.game().position().to_fen(), fen, "after '{line}'");
            assert_eq!(h.session.game().moves().len(), played, "after '{line}'");
            assert_eq!(h.session.hash_megabytes(), hash_mb, "after '{line}'");
        }
        // Every `go` is answered by a `bestmove`, a refused one too; a good `go perft`
        // counts instead.
        let words: Vec<&str> = line.split_whitespace().collect();
        let perft = words.get(1) == Some(&"perft")
            && words
                .get(2)
                .and_then(|d| d.parse::<u32>().ok())
                .is_some_and(|d| (1..=magus::protocol::uci::MAX_PERFT_DEPTH).contains(&d));
        if first == Some("go") && !perft {
            searches += 1;
            stop_in.get_or_insert(rng.random_range(0..6));
        }
        if first == Some("stop") {
            stop_in = None;
        }
        if first == Some("isready") {
            isready += 1;
        }
        match &mut stop_in {
            Some(0) => {
                h.send("stop");
                stop_in = None;
            }
            Some(k) => *k -= 1,
            None => {}
        }
        // isready between lines, and at once after some of them (during searches too).
        if rng.random_range(0..4) == 0 {
            isready += 1;
            h.send("isready");
            assert_eq!(
                h.readyok, isready,
                "isready {isready}, after line {n} '{line}'"
            );
        }
    }
    h.send("stop");
    h.send("isready");
    isready += 1;
    assert_eq!(h.readyok, isready);
    assert_eq!(
        h.bestmoves, searches,
        "one bestmove for each of the {searches} searches started"
    );
    // Still a working engine: a search from a known position gives a legal move.
    h.send("setoption name UCI_Variant value chess");
    h.send("position startpos moves e2e4");
    h.send("go depth 3");
    h.send("stop");
    let last = &h.last_bestmove;
    let mv = last.split_whitespace().nth(1).unwrap();
    assert!(
        h.session
            .game()
            .position()
            .legal_moves_wire(1)
            .iter()
            .any(|m| m == mv),
        "{last}"
    );
    eprintln!(
        "{lines} lines (seed {seed}): {refused} refused with an error, {searches} searches, {isready} isready, {:.1} s",
        started_at.elapsed().as_secs_f64()
    );
}

/// One line of an XBoard script: the protocol's commands with good, bad and huge arguments,
/// legal and illegal moves, garbage. `legal` are the legal moves of the session's position in
/// XBoard notation.
fn random_xboard_line(rng: &mut StdRng, legal: &[String], ping: u32) -> String {
    let huge = |rng: &mut StdRng| HUGE.choose(rng).unwrap().to_string();
    match rng.random_range(0..40) {
        0 => "new".into(),
        1 => format!("variant {}", VARIANTS.choose(rng).unwrap()),
        2 => "force".into(),
        3 | 4 => "go".into(),
        5..=9 => match legal.choose(rng) {
            Some(m) => format!("usermove {m}"),
            None => "usermove e2e4".into(),
        },
        10 => format!("usermove {}{}", coordinate(rng), coordinate(rng)),
        11 => format!("setboard {}", FENS.choose(rng).unwrap()),
        12 => format!("setboard {}", mangled_fen(rng)),
        13 => format!("level {} {} {}", huge(rng), huge(rng), huge(rng)),
        14 => "level 40 0:05 0".into(),
        15 => format!("st {}", huge(rng)),
        16 => format!("sd {}", huge(rng)),
        17 => format!("time {}", huge(rng)),
        18 => format!("otim {}", huge(rng)),
        19..=22 => format!("ping {ping}"),
        23 => "?".into(),
        24 => "analyze".into(),
        25 => "exit".into(),
        26 => "undo".into(),
        27 => "remove".into(),
        28 => ["hard", "easy", "post", "nopost", "computer", "random"]
            .choose(rng)
            .unwrap()
            .to_string(),
        29 => format!(
            "memory {}",
            ["1", "4", "16", "99999999999", "-5", "x"]
                .choose(rng)
                .unwrap()
        ),
        30 => format!("cores {}", huge(rng)),
        31 => format!(
            "option {}",
            [
                "Scoring=magi-12",
                "Scoring=golf",
                "MultiPV=3",
                "MultiPV=99999999999",
                "Move Overhead=10",
                "Only XBoard moves=1",
                "Clear Hash",
                "Nonesuch=1",
            ]
            .choose(rng)
            .unwrap()
        ),
        32 => "result 1-0 {x}".into(),
        33 => "draw".into(),
        34 => "playother".into(),
        35 => ["white", "black", ".", "d", "protover 2", "xboard"]
            .choose(rng)
            .unwrap()
            .to_string(),
        36 => format!("ping {}", huge(rng)),
        37 => format!("variant {}", garbage(rng, 12)),
        _ => garbage(rng, 2000),
    }
}

/// Panics seen anywhere in this test binary (none of its tests panics when it passes).
static PANICS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The XBoard session under the same kind of abuse: the engine thinks, ponders and analyses
/// for real while the lines arrive. Every well-formed `ping N` gets its `pong N`: at once,
/// or after the move when the engine is thinking on its own move; at the end, after `force`,
/// a ping is answered at once and every pong has come.
#[test]
fn thousands_of_random_xboard_lines_keep_the_engine_answering_ping() {
    use magus::protocol::xboard::{XboardSession, first_rank};
    let lines: usize = std::env::var("MAGUS_ABUSE_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6000)
        / 2;
    let mut rng = StdRng::seed_from_u64(20_261_122);
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let out: Output = buffer.clone();
    // A panic on the session's worker thread ends only that thread; count them all.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        default_hook(info);
    }));
    let mut session = XboardSession::new(Registry::builtin(), out);
    session.handle_line("xboard");
    session.handle_line("protover 2");
    let mut pings = Vec::new();
    for n in 0..lines {
        let pos = session.game().position();
        let legal = pos.legal_moves_wire(first_rank(pos.variant().ranks));
        let ping = n as u32;
        let line = random_xboard_line(&mut rng, &legal, ping);
        if line == format!("ping {ping}") {
            pings.push(ping);
        }
        assert!(
            session.handle_line(&line),
            "line {n} '{line}' ended the session"
        );
    }
    session.handle_line("force");
    session.handle_line("ping 999999");
    let text = String::from_utf8_lossy(&buffer.lock().unwrap()).into_owned();
    assert!(
        text.lines().last() == Some("pong 999999"),
        "the last ping, after force, is answered at once: {:?}",
        text.lines().rev().take(5).collect::<Vec<_>>()
    );
    for n in &pings {
        let pong = format!("pong {n}");
        assert!(text.lines().any(|l| l == pong), "no '{pong}'");
    }
    assert_eq!(
        PANICS.load(std::sync::atomic::Ordering::Relaxed),
        0,
        "a thread panicked (the session swallows its worker's panic; the hook does not)"
    );
    assert!(!session.handle_line("quit"));
    eprintln!("{lines} XBoard lines, {} pings answered", pings.len());
}

/// `quit` while searching (infinite, huge depth, pondering) ends the session at once, after
/// the search's `bestmove`.
#[test]
fn quit_during_a_search_ends_promptly() {
    for go in [
        "go infinite",
        "go depth 99999999999999999999",
        "go ponder wtime 100000 btime 100000",
        "go mate 500",
        "go nodes 18446744073709551615",
    ] {
        for variant in VARIANTS {
            let mut h = Harness::new();
            h.send(&format!("setoption name UCI_Variant value {variant}"));
            h.send("setoption name Threads value 2");
            let (_, error) = h.send(go);
            assert!(!error, "{go}: {}", h.last_error);
            std::thread::sleep(Duration::from_millis(5));
            let started = Instant::now();
            assert!(!h.session.handle_line("quit"), "quit ends the session");
            h.poll();
            assert!(
                started.elapsed() < Duration::from_secs(2),
                "{variant} {go}: quit took {:?}",
                started.elapsed()
            );
            assert_eq!(h.bestmoves, 1, "{variant} {go}");
        }
    }
}

/// `stop` and `go` in quick succession, without pause: every search started ends with one
/// `bestmove`, and `stop` with no search does nothing.
#[test]
fn stop_and_go_races() {
    let mut h = Harness::new();
    let mut searches = 0;
    for i in 0..300 {
        if i % 7 == 0 {
            h.send("stop");
        }
        let go = ["go movetime 1", "go nodes 1", "go infinite", "go depth 1"][i % 4];
        let (_, error) = h.send(go);
        if !error {
            searches += 1;
        }
        if i % 3 != 0 {
            h.send("stop");
        }
        if i % 5 == 0 {
            h.send("ponderhit");
        }
    }
    h.send("stop");
    h.send("isready");
    assert_eq!(h.readyok, 1);
    assert_eq!(h.bestmoves, searches);
}

/// A `Hash` that cannot be had is an error that names the size, and the old table stays.
#[test]
fn a_hash_that_cannot_be_allocated_keeps_the_old_table() {
    let mut h = Harness::new();
    h.send("setoption name Hash value 8");
    assert_eq!(h.session.hash_megabytes(), 8);
    // 64 GB: more than this machine has (then refused), or made without touching its pages.
    let physical_mb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let line = m.lines().find(|l| l.starts_with("MemTotal:"))?.to_string();
            line.split_whitespace().nth(1)?.parse::<usize>().ok()
        })
        .map(|kb| kb / 1024);
    let (_, error) = h.send("setoption name Hash value 65536");
    if physical_mb.is_some_and(|mb| mb < 65536) {
        assert!(error);
        let message = &h.last_error;
        assert!(
            message.contains("cannot allocate a 65536 MB hash table")
                && message.contains("stays at 8 MB"),
            "{message}"
        );
        assert_eq!(h.session.hash_megabytes(), 8);
    }
    // Out of the option's range: refused before any allocation.
    let (_, error) = h.send("setoption name Hash value 99999999999");
    assert!(error);
    assert!(h.session.hash_megabytes() == 8 || h.session.hash_megabytes() == 65536);
    // The engine still searches.
    h.send("go depth 2");
    h.send("stop");
    assert_eq!(h.bestmoves, 1);
}

/// The real binary, a random script piped to its standard input (with bytes that are not
/// UTF-8): it answers each `isready`, prints nothing on standard error about a panic, and
/// exits with success on `quit`.
#[test]
fn the_binary_answers_a_random_script_and_quits_cleanly() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut script: Vec<u8> = Vec::new();
    let mut isready = 0;
    let legal = vec!["e2e4".to_string(), "d2d4".to_string(), "g1f3".to_string()];
    for i in 0..600 {
        let line = random_line(&mut rng, &legal);
        if line.split_whitespace().next() == Some("isready") {
            isready += 1;
        }
        script.extend_from_slice(line.as_bytes());
        script.push(b'\n');
        if line.starts_with("go") {
            script.extend_from_slice(b"stop\n");
        }
        if i % 50 == 0 {
            // Not UTF-8, then a line ending in CR LF.
            script.extend_from_slice(b"\xff\xfe garbage \xc3\x28\n");
            script.extend_from_slice(b"isready\r\n");
            isready += 1;
        }
        if i % 3 == 0 {
            script.extend_from_slice(b"isready\n");
            isready += 1;
        }
    }
    script.extend_from_slice(b"go infinite\nisready\nquit\n");
    isready += 1;

    let mut child = Command::new(env!("CARGO_BIN_EXE_magus"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the magus binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // The engine may quit before reading all of it; that is fine.
        let _ = stdin.write_all(&script);
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let mut stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let status = common::wait(&mut child, 60);
    writer.join().unwrap();
    let out = reader.join().unwrap();
    let err = errors.join().unwrap();
    assert!(status.success(), "exit status {status}; stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(
        out.lines().filter(|l| *l == "readyok").count(),
        isready,
        "readyok for each isready"
    );
    // The last `go infinite` was stopped by `quit`, which printed its bestmove.
    assert!(out.lines().last().unwrap_or("").starts_with("bestmove"));
}
