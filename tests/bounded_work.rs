//! Bounded work, as a GUI or a script meets it through the real binary: every search finishes
//! its first iteration quickly whatever the position, `readyok` comes after every command
//! sent before it has taken effect, no command (a huge `Hash` included) holds up `isready`,
//! `stop` or `quit`, and the input's edges (bytes that are not UTF-8, an endless line, the
//! end of the input during `go perft` or `bench`) are answered rather than ending the engine.
//!
//! Every wait here is bounded: a test that would hang fails by its timeout instead.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The binary, driven line by line, its output read on a thread of its own.
struct Engine {
    child: Child,
    input: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_magus"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("magus starts");
        let output = child.stdout.take().unwrap();
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            input: child.stdin.take(),
            child,
            lines,
        }
    }

    /// Sends the text in one write, as a GUI's buffered pipe may.
    fn send(&mut self, text: &str) {
        let input = self.input.as_mut().expect("the input is open");
        input.write_all(text.as_bytes()).unwrap();
        input.flush().unwrap();
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let input = self.input.as_mut().expect("the input is open");
        input.write_all(bytes).unwrap();
        input.flush().unwrap();
    }

    /// The lines up to and including the first that starts with `prefix`, within `limit`.
    fn until(&self, prefix: &str, limit: Duration) -> Vec<String> {
        let until = Instant::now() + limit;
        let mut seen = Vec::new();
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no '{prefix}' within {limit:?}; the lines were {seen:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("magus ended before '{prefix}'; the lines were {seen:#?}")
                }
            }
        }
    }

    /// Closes the input and collects every line until the engine ends, within `limit`.
    fn close_and_collect(mut self, limit: Duration) -> Vec<String> {
        drop(self.input.take());
        let until = Instant::now() + limit;
        let mut seen = Vec::new();
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => seen.push(line),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    panic!("magus did not end within {limit:?}; the lines were {seen:#?}")
                }
            }
        }
        self.wait_for_exit(until.saturating_duration_since(Instant::now()));
        seen
    }

    fn wait_for_exit(&mut self, limit: Duration) {
        let until = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "magus exited with {status}");
                return;
            }
            if Instant::now() > until {
                let _ = self.child.kill();
                panic!("magus did not exit within {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Positions where every piece can take another: doubled armies in contact, in each variant
/// whose rules allow them, and two Fairy-Stockfish variants loaded from a definition file.
/// Quiescence once searched every capture sequence of these and never finished depth 1.
const CROWDED: [(&str, &str); 6] = [
    (
        "chess",
        "rnbqkbnr/pppppppp/rnbqqbnr/pppppppp/PPPPPPPP/RNBQQBNR/PPPPPPPP/RNBQKBNR w - - 0 1",
    ),
    (
        "magi",
        "rnbcqkwbnr/pppppppppp/rnbcqdwbnr/pppppppppp/dddddddddd/DDDDDDDDDD/PPPPPPPPPP/RNBCQDWBNR/PPPPPPPPPP/RNBCQKWBNR w - - 0 1",
    ),
    (
        "deathmatch",
        "rnbqkbnr/pppppppp/rnbqmbnr/pppppppp/PPPPPPPP/RNBQMBNR/PPPPPPPP/RNBQKBNR w - - 0 1",
    ),
    (
        "royal-magician",
        "rnbmkbnr/pppppppp/rnbqqbnr/pppppppp/PPPPPPPP/RNBQQBNR/PPPPPPPP/RNBMKBNR[KBNR,MBNR,kbnr,mbnr] w - - 0 1",
    ),
    (
        "deathmatch-legacy",
        "rnbqkbnr/pppppppp/8/rnbqqbnr/RNBQQBNR/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    ),
    (
        "magician-chess",
        "rmnknmr/ppppppp/*mnnnm*/**1*1**/*MNNNM*/PPPPPPP/RMNKNMR w - - 0 1",
    ),
];

/// Two variants of Fairy-Stockfish's variants.ini whose start is crowded.
const CROWDED_INI: &str = "\
[doublearmy:chess]
pieceToCharTable = PNBRQ.....C...........Kpnbrq.....c...........k
commoner = c
startFen = rnbqkbnr/pppppppp/rnbqcbnr/pppppppp/PPPPPPPP/RNBQCBNR/PPPPPPPP/RNBQKBNR w KQkq - 0 1

[pawnsmassacre:chess]
startFen = RNBKQBNR/pppppppp/8/8/8/8/PPPPPPPP/rnbkqbnr w - - 0 1
";

/// A first iteration is quick on any machine; this leaves room for a loaded one.
const FIRST_ITERATION: Duration = Duration::from_secs(10);

/// The `go` is answered by a move its search found: an `info depth 1` (or deeper) line came
/// before the `bestmove`, and the move is not the null move.
fn assert_searched(lines: &[String], what: &str) {
    let best = lines.last().unwrap();
    assert!(
        best.starts_with("bestmove ") && !best.starts_with("bestmove 0000"),
        "{what}: {best}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth ") && l.contains(" pv ")),
        "{what}: no iteration finished before {best}: {lines:#?}"
    );
}

#[test]
fn a_crowded_position_finishes_its_first_iteration() {
    for (variant, fen) in CROWDED {
        let mut engine = Engine::start();
        engine.send(&format!(
            "uci\nsetoption name UCI_Variant value {variant}\nposition fen {fen}\nisready\n"
        ));
        let answer = engine.until("readyok", Duration::from_secs(10));
        assert!(
            !answer.iter().any(|l| l.contains("error")),
            "{variant}: {answer:#?}"
        );
        for go in ["go depth 1", "go nodes 1000", "go depth 3"] {
            let started = Instant::now();
            engine.send(&format!("{go}\n"));
            let lines = engine.until("bestmove", FIRST_ITERATION);
            assert_searched(&lines, &format!("{variant} {go}"));
            eprintln!("{variant} {go}: {:?}", started.elapsed());
        }
    }
}

#[test]
fn a_crowded_variant_from_a_file_finishes_its_first_iteration() {
    let dir = std::env::temp_dir().join(format!("magus-crowded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ini = dir.join("crowded.ini");
    std::fs::write(&ini, CROWDED_INI).unwrap();
    for variant in ["doublearmy", "pawnsmassacre"] {
        let mut engine = Engine::start();
        engine.send(&format!(
            "uci\nsetoption name VariantPath value {}\nsetoption name UCI_Variant value {variant}\nposition startpos\nisready\n",
            ini.display()
        ));
        let answer = engine.until("readyok", Duration::from_secs(10));
        assert!(
            answer
                .iter()
                .any(|l| l.starts_with(&format!("info string variant {variant} "))),
            "{variant} was not chosen: {answer:#?}"
        );
        engine.send("go depth 1\n");
        let lines = engine.until("bestmove", FIRST_ITERATION);
        assert_searched(&lines, variant);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_crowded_position_under_a_clock_plays_a_searched_move() {
    let (variant, fen) = CROWDED[0];
    let mut engine = Engine::start();
    engine.send(&format!(
        "uci\nsetoption name UCI_Variant value {variant}\nposition fen {fen}\ngo wtime 2000 btime 2000 winc 20 binc 20\n"
    ));
    let lines = engine.until("bestmove", Duration::from_secs(10));
    assert_searched(&lines, "under a clock");
}

/// The board `d` shows: its `Fen:` line.
fn shown_fen(lines: &[String]) -> String {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("Fen: "))
        .unwrap_or_else(|| panic!("no Fen line in {lines:#?}"))
        .to_string()
}

#[test]
fn readyok_follows_every_command_sent_before_it() {
    // A game's moves, sent ply by ply the way a GUI does, each `position` right behind a
    // command that keeps the engine busy, with `isready` and `d` in the same write.
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1",
        "b7b5", "a4b3", "d7d6", "c2c3", "e8g8",
    ];
    let mut reference = Engine::start();
    let mut engine = Engine::start();
    for (ply, busy) in
        (1..=moves.len()).zip(["go perft 3", "go infinite", "bench 3"].iter().cycle())
    {
        let position = format!("position startpos moves {}\n", moves[..ply].join(" "));
        reference.send(&format!("{position}d\n"));
        let expected = shown_fen(&reference.until("Checkers:", Duration::from_secs(10)));
        engine.send(&format!("{busy}\n{position}isready\nd\n"));
        let lines = engine.until("Checkers:", Duration::from_secs(30));
        let ready = lines.iter().position(|l| l == "readyok").expect("readyok");
        let fen = lines.iter().position(|l| l.starts_with("Fen: ")).unwrap();
        assert!(ready < fen, "{lines:#?}");
        assert_eq!(shown_fen(&lines), expected, "ply {ply} after '{busy}'");
        engine.send("stop\nisready\n");
        engine.until("readyok", Duration::from_secs(30));
    }
    // Options and a new game take effect at once too, during a search.
    engine.send("go infinite\nsetoption name UCI_Variant value magi\nucinewgame\nisready\nd\n");
    let lines = engine.until("Checkers:", Duration::from_secs(10));
    assert!(
        shown_fen(&lines).starts_with("rnbcqkwbnr/"),
        "not Magi's start: {lines:#?}"
    );
    engine.send("stop\n");
    engine.until("bestmove", Duration::from_secs(10));
}

#[test]
fn a_huge_hash_holds_up_no_command() {
    // Half of the memory the machine has free, up to 8 GB: large enough that writing its
    // pages takes seconds, never more than the machine has.
    let free_mb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
        })
        .map_or(2048, |kb| kb / 1024);
    let megabytes = (free_mb / 2).clamp(64, 8192);
    let mut engine = Engine::start();
    engine.send("uci\n");
    engine.until("uciok", Duration::from_secs(10));
    let started = Instant::now();
    engine.send(&format!("setoption name Hash value {megabytes}\nisready\n"));
    let lines = engine.until("readyok", Duration::from_secs(10));
    let ready = started.elapsed();
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:#?}");
    // Generous for a loaded machine; writing the table's pages on this thread took a minute.
    assert!(ready < Duration::from_secs(2), "readyok after {ready:?}");
    // A search asked for at once is answered, and `stop` is heard.
    engine.send("go infinite\n");
    std::thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    engine.send("stop\n");
    engine.until("bestmove", Duration::from_secs(10));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    // A second size, and `quit` while its pages are being written.
    engine.send(&format!(
        "setoption name Hash value {}\nquit\n",
        megabytes / 2
    ));
    let started = Instant::now();
    engine.wait_for_exit(Duration::from_secs(10));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn the_end_of_the_input_finishes_perft_and_bench() {
    let mut engine = Engine::start();
    engine.send("position startpos\ngo perft 4\n");
    let lines = engine.close_and_collect(Duration::from_secs(60));
    assert!(
        lines.iter().any(|l| l == "Nodes searched: 197281"),
        "{lines:#?}"
    );
    let mut engine = Engine::start();
    engine.send("bench 3\n");
    let lines = engine.close_and_collect(Duration::from_secs(60));
    let nodes: u64 = lines
        .iter()
        .find_map(|l| l.strip_prefix("Nodes searched  : "))
        .unwrap_or_else(|| panic!("no bench total in {lines:#?}"))
        .trim()
        .parse()
        .unwrap();
    assert!(nodes > 1000, "{lines:#?}");
    // The same bench run to its end with the input open counts the same nodes.
    let mut engine = Engine::start();
    engine.send("bench 3\n");
    let open = engine.until("Nodes searched  : ", Duration::from_secs(60));
    assert_eq!(
        open.last().unwrap(),
        &format!("Nodes searched  : {nodes}"),
        "{open:#?}"
    );
    // `stop` still cuts a long task short.
    let mut engine = Engine::start();
    engine.send("position startpos\ngo perft 7\n");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("stop\nisready\n");
    engine.until("readyok", Duration::from_secs(5));
}

#[test]
fn a_first_line_that_is_not_utf8_is_answered_and_the_engine_goes_on() {
    let mut engine = Engine::start();
    engine.send_bytes(b"\xff\xfe\xfd\nuci\nisready\n");
    let lines = engine.until("readyok", Duration::from_secs(10));
    assert!(
        lines.iter().any(|l| l.starts_with("info string error")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l == "uciok"), "{lines:#?}");
}

#[test]
fn an_endless_line_is_refused_and_the_next_is_read() {
    let mut engine = Engine::start();
    engine.send("uci\n");
    engine.until("uciok", Duration::from_secs(10));
    // 16 MB without a newline, in pieces, then a command.
    let piece = vec![b'a'; 1 << 20];
    for _ in 0..16 {
        engine.send_bytes(&piece);
    }
    engine.send("\nisready\n");
    let lines = engine.until("readyok", Duration::from_secs(20));
    let refusal = lines
        .iter()
        .find(|l| l.starts_with("info string error"))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    assert!(
        refusal.len() < 200,
        "the line is echoed back: {} bytes",
        refusal.len()
    );
    assert!(refusal.contains("not read"), "{refusal}");
}
