//! Helpers shared by the integration tests: the built-in variants, positions from FEN, and
//! legal moves in wire notation (UCI squares, ranks from 1).

#![allow(dead_code)]

use std::process::Command;
use std::sync::OnceLock;

use magus::game::AnyPosition;
use magus::variant::{Registry, Variant};

/// The built-in variants, parsed once per test binary.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(Registry::builtin)
}

pub fn variant(name: &str) -> &'static Variant {
    registry()
        .get(name)
        .unwrap_or_else(|| panic!("variant '{name}' is not built in"))
}

/// A position of a built-in variant; `None` is its start position.
pub fn position(variant_name: &str, fen: Option<&str>) -> AnyPosition {
    AnyPosition::from_fen(variant(variant_name), fen)
        .unwrap_or_else(|e| panic!("{variant_name} FEN {fen:?} refused: {e}"))
}

/// A position of a built-in variant from its FEN.
pub fn fen_position(variant_name: &str, fen: &str) -> AnyPosition {
    position(variant_name, Some(fen))
}

/// The legal moves, sorted.
pub fn legal(pos: &AnyPosition) -> Vec<String> {
    let mut moves = pos.legal_moves_wire(1);
    moves.sort();
    moves
}

/// The position after a wire move, which must be legal.
pub fn play(pos: &AnyPosition, wire: &str) -> AnyPosition {
    pos.after_wire(wire, 1)
        .unwrap_or_else(|e| panic!("{wire} in {}: {e}", pos.to_fen()))
        .0
}

/// The position after a sequence of wire moves separated by spaces.
pub fn play_all(pos: &AnyPosition, moves: &str) -> AnyPosition {
    moves.split_whitespace().fold(*pos, |p, m| play(&p, m))
}

/// Sorted owned strings from a space-separated list, to compare with [`legal`].
pub fn sorted(moves: &str) -> Vec<String> {
    let mut v: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// The board field of the FEN (the placement only).
pub fn board(pos: &AnyPosition) -> String {
    pos.to_fen().split_whitespace().next().unwrap().to_string()
}

/// The e.p. field of the FEN.
pub fn ep_field(pos: &AnyPosition) -> String {
    pos.to_fen().split_whitespace().nth(3).unwrap().to_string()
}

/// A FEN board field from pieces written letter + square, e.g. `"Kf1 Ra1 kf10 pb4"`, on a
/// board of `files` x `ranks` (upper case White, lower case Black).
pub fn place(files: u8, ranks: u8, pieces: &str) -> String {
    let mut grid = vec![vec![None; files as usize]; ranks as usize];
    for token in pieces.split_whitespace() {
        let mut chars = token.chars();
        let letter = chars.next().unwrap();
        let square = chars.as_str();
        let file = (square.as_bytes()[0] - b'a') as usize;
        let rank: usize = square[1..].parse().unwrap();
        assert!(
            file < files as usize && (1..=ranks as usize).contains(&rank),
            "{token} is off the board"
        );
        assert!(grid[rank - 1][file].is_none(), "{token}: square used twice");
        grid[rank - 1][file] = Some(letter);
    }
    let rows: Vec<String> = grid.into_iter().rev().map(fen_row).collect();
    rows.join("/")
}

/// One rank of a FEN board field, from its first file: `None` is an empty square, and a run
/// of empty squares is written as its length.
pub fn fen_row(cells: impl IntoIterator<Item = Option<char>>) -> String {
    let mut row = String::new();
    let mut empty = 0;
    for cell in cells {
        match cell {
            None => empty += 1,
            Some(c) => {
                if empty > 0 {
                    row += &empty.to_string();
                    empty = 0;
                }
                row.push(c);
            }
        }
    }
    if empty > 0 {
        row += &empty.to_string();
    }
    row
}

/// The legal moves of the piece on `square` (wire moves starting with it), sorted.
pub fn moves_from(pos: &AnyPosition, square: &str) -> Vec<String> {
    legal(pos)
        .into_iter()
        .filter(|m| {
            m.strip_prefix(square)
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_lowercase()))
        })
        .collect()
}

/// The piece letter on a square, from the FEN (`None` for empty).
pub fn piece_on(pos: &AnyPosition, square: &str) -> Option<char> {
    let v = pos.variant();
    let file = (square.as_bytes()[0] - b'a') as usize;
    let rank: usize = square[1..].parse().unwrap();
    let placement = board(pos);
    let row = placement.split('/').nth(v.ranks as usize - rank).unwrap();
    let mut f = 0;
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut run = c.to_digit(10).unwrap() as usize;
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                run = run * 10 + d as usize;
                chars.next();
            }
            if file < f + run {
                return None;
            }
            f += run;
        } else {
            if f == file {
                return Some(c);
            }
            f += 1;
        }
    }
    None
}

/// The castling moves among the legal moves of a position with one attacker added: the
/// side to move has its King and both Rooks on their squares with both rights.
pub fn castles_with_attacker(
    variant_name: &str,
    white: bool,
    attacker: Option<&str>,
) -> Vec<String> {
    let v = variant(variant_name);
    let (king_file, last) = match variant_name {
        "chess" => ('e', 'h'),
        "magi" => ('f', 'j'),
        other => panic!("no castling layout for {other}"),
    };
    let top = v.ranks;
    let (ours, theirs_king, rights, side) = if white {
        (
            format!("K{king_file}1 Ra1 R{last}1"),
            format!("k{king_file}{top}"),
            "KQ",
            "w",
        )
    } else {
        (
            format!("k{king_file}{top} ra{top} r{last}{top}"),
            format!("K{king_file}1"),
            "kq",
            "b",
        )
    };
    let pieces = format!("{ours} {theirs_king} {}", attacker.unwrap_or(""));
    let fen = format!("{} {side} {rights} - 0 1", place(v.files, v.ranks, &pieces));
    let pos = position(variant_name, Some(&fen));
    let king_rank = if white { 1 } else { top };
    let king_from = format!("{king_file}{king_rank}");
    legal(&pos)
        .into_iter()
        .filter(|m| {
            let Some(rest) = m.strip_prefix(&king_from) else {
                return false;
            };
            let to_file = rest.as_bytes()[0] as i32;
            (to_file - king_file as i32).abs() >= 2
        })
        .collect()
}

/// Output that a test reads while a protocol session writes to it.
#[derive(Clone, Default)]
pub struct SharedBuffer(pub std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for SharedBuffer {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl SharedBuffer {
    /// The session's end of it.
    pub fn output(&self) -> magus::protocol::uci::Output {
        std::sync::Arc::new(std::sync::Mutex::new(self.clone()))
    }
}

/// A session driven directly by a test, its output read back as lines: `mark` is where the
/// output of the last `feed` begins, `read` how much of the output the test has taken.
pub struct Transcript<S> {
    pub session: S,
    buffer: SharedBuffer,
    pub mark: usize,
    pub read: usize,
}

impl<S: magus::protocol::Session> Transcript<S> {
    pub fn new(make: impl FnOnce(magus::protocol::uci::Output) -> S) -> Transcript<S> {
        let buffer = SharedBuffer::default();
        Transcript {
            session: make(buffer.output()),
            buffer,
            mark: 0,
            read: 0,
        }
    }

    /// Everything the session has printed.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.buffer.0.lock().unwrap()).into_owned()
    }

    /// Hands the lines to the session, marking where their output begins.
    pub fn feed(&mut self, lines: &str) {
        self.mark = self.text().len();
        for line in lines.lines() {
            self.session.handle_line(line);
        }
    }

    /// The output since the last `feed`.
    pub fn since_mark(&self) -> Vec<String> {
        self.text()[self.mark..]
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// The output the test has not taken yet.
    pub fn take(&mut self) -> Vec<String> {
        let text = self.text();
        let new = text[self.read..].to_string();
        self.read = text.len();
        new.lines().map(str::to_string).collect()
    }

    /// Waits (at most `limit`) for a line starting with `prefix` in the output since the last
    /// `feed`; returns that output up to now and where it ends.
    pub fn wait_for(&self, prefix: &str, limit: std::time::Duration) -> (Vec<String>, usize) {
        let start = std::time::Instant::now();
        loop {
            let text = self.text();
            let lines: Vec<String> = text[self.mark..].lines().map(str::to_string).collect();
            if lines.iter().any(|l| l.starts_with(prefix)) {
                return (lines, text.len());
            }
            assert!(
                start.elapsed() < limit,
                "no line starting with '{prefix}' in {lines:#?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}

/// Whether python3 runs (the fake engines are Python scripts): without it a test that needs
/// one is skipped, saying so, except under CI, where that is a failure.
pub fn python_present() -> bool {
    let found = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 is needed for the fake engines"
        );
        eprintln!("skipped: python3 is not installed");
    }
    found
}

/// Leaf count of the legal move tree `depth` plies deep, for a naive model of the rules
/// whose `legal_moves` gives each move with the position after it.
pub fn model_perft<M>(model: &M, depth: u32, legal_moves: &impl Fn(&M) -> Vec<(String, M)>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(model);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|(_, next)| model_perft(next, depth - 1, legal_moves))
        .sum()
}

/// The FEN's castling field from the rights K, Q, k, q (in that order): `-` for none.
pub fn castling_field(rights: [bool; 4]) -> String {
    let letters: String = ['K', 'Q', 'k', 'q']
        .iter()
        .zip(rights)
        .filter_map(|(&c, kept)| kept.then_some(c))
        .collect();
    if letters.is_empty() {
        "-".to_string()
    } else {
        letters
    }
}

/// Steps on a board as (file, rank) offsets, for the tests' naive models of the rules.
pub mod steps {
    pub const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    pub const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    pub const DABBABA: [(i32, i32); 4] = [(2, 0), (-2, 0), (0, 2), (0, -2)];
    pub const ALFIL: [(i32, i32); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
    pub const KING: [(i32, i32); 8] = join(ORTHOGONAL, DIAGONAL);
    pub const KNIGHT: [(i32, i32); 8] = join(
        [(1, 2), (2, 1), (2, -1), (1, -2)],
        [(-1, -2), (-2, -1), (-2, 1), (-1, 2)],
    );

    /// Both sets of four, in order.
    pub const fn join(a: [(i32, i32); 4], b: [(i32, i32); 4]) -> [(i32, i32); 8] {
        let mut all = [(0, 0); 8];
        let mut i = 0;
        while i < 4 {
            all[i] = a[i];
            all[i + 4] = b[i];
            i += 1;
        }
        all
    }
}

/// Waits for `child` to end; kills it and fails the test if it runs `seconds` longer.
pub fn wait(child: &mut std::process::Child, seconds: u64) -> std::process::ExitStatus {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if std::time::Instant::now() > until {
            let _ = child.kill();
            panic!("magus did not end within {seconds} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Runs `command` as `command | head -n LINES` would: reads `lines` lines, closes the pipe,
/// and checks that the command ended quietly, as a Unix tool does, by SIGPIPE (no panic, no
/// message). Returns the lines read.
pub fn lines_then_closed_pipe(command: &mut Command, lines: usize) -> Vec<String> {
    use std::io::{BufRead, Read};
    use std::os::unix::process::ExitStatusExt;
    let mut child = command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut read = Vec::new();
    for _ in 0..lines {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(!line.is_empty(), "{command:?}: no output");
        read.push(line);
    }
    // The reader is gone now.
    drop(reader);
    let status = wait(&mut child, 60);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(
        status.signal(),
        Some(libc::SIGPIPE),
        "{command:?}: {status:?}: {err}"
    );
    assert!(!err.contains("panicked"), "{command:?}: {err}");
    assert!(
        err.trim().is_empty(),
        "{command:?}: nothing on standard error: {err}"
    );
    read
}

/// A search of `pos` to `depth` on one thread with a fresh table and the selective parts
/// `pruning`. It runs on a thread of its own and must answer within 20 s (each search of the
/// tests takes milliseconds): a search broken into an endless loop fails the test instead of
/// hanging it.
pub fn search_with(
    pos: &AnyPosition,
    depth: i32,
    pruning: magus::search::Pruning,
) -> magus::search::SearchResult {
    search_with_eval(pos, depth, pruning, magus::eval::EvalMode::Nnue)
}

/// As [`search_with`], with the evaluation `eval_mode` (the default is `Nnue`: the variant's
/// built-in net where it has one).
pub fn search_with_eval(
    pos: &AnyPosition,
    depth: i32,
    pruning: magus::search::Pruning,
    eval_mode: magus::eval::EvalMode,
) -> magus::search::SearchResult {
    use magus::search::{SearchControl, SearchOptions, ThreadData, think};
    let pos = *pos;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let options = SearchOptions {
            pruning,
            eval_mode,
            ..SearchOptions::default()
        };
        let tt = magus::search::tt::TranspositionTable::new(16).unwrap();
        let control = SearchControl::default();
        let limits = magus::search::time::Limits::depth(depth);
        let result = magus::with_position!(&pos, p => think(p, &[], &limits, &options, &tt, &control, &mut ThreadData::fresh(1), &|_| {}));
        let _ = tx.send(result);
    });
    rx.recv_timeout(std::time::Duration::from_secs(20))
        .unwrap_or_else(|_| panic!("a depth {depth} search gave no answer within 20 s"))
}

/// A move in wire notation (ranks from 1).
pub fn wire(pos: &AnyPosition, m: magus::board::Move) -> String {
    magus::with_position!(pos, p => magus::protocol::notation::to_wire(p, m, 1))
}

/// A fresh, empty folder for a test's files, named after the test binary's process and `name`.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("magus-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the magus binary with `args`, no input, and waits for it.
pub fn magus(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_magus"))
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the magus binary runs")
}

/// Runs the magus binary, which must succeed; its standard output.
pub fn succeeds(args: &[&str]) -> String {
    let out = magus(args);
    assert!(
        out.status.success(),
        "magus {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Mating attacks that start with a checking capture winning little material (Win At Chess
/// 5, 27 and 60), each with its first move: found at depth 2 only if quiescence and the
/// pruning keep checking captures.
pub const CHECKING_CAPTURE_MATES: [(&str, &str); 3] = [
    ("5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", "c6c4"),
    (
        "7k/pp4np/2p3p1/3pN1q1/3P4/Q7/1r3rPP/2R2RK1 w - - 0 1",
        "a3f8",
    ),
    (
        "rn1qr1k1/1p2np2/2p3p1/8/1pPb4/7Q/PB1P1PP1/2KR1B1R w - - 0 1",
        "h3h8",
    ),
];
