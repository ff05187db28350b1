//! The minimal UCI session as a transcript: each line sent to `UciSession` and the exact
//! lines it answers, written to a `Vec<u8>`.

mod common;

use common::SharedBuffer as Output;

use magus::game::AnyPosition;
use magus::protocol::Session;
use magus::protocol::uci::UciSession;
use magus::variant::Registry;

struct Transcript {
    session: UciSession,
    out: Output,
}

impl Transcript {
    fn new() -> Transcript {
        let out = Output::default();
        let shared: magus::protocol::uci::Output = out.output();
        Transcript {
            session: UciSession::new(Registry::builtin(), shared),
            out,
        }
    }

    /// Sends a line; returns what the engine answered to it, line by line. A `go` is
    /// answered beside the input loop: its answer is awaited (a `bestmove`, or perft's
    /// total).
    fn send(&mut self, line: &str) -> Vec<String> {
        assert!(self.session.handle_line(line), "'{line}' ended the session");
        let awaits = line.split_whitespace().next() == Some("go");
        let start = std::time::Instant::now();
        let mut lines: Vec<String> = Vec::new();
        loop {
            let text = String::from_utf8(std::mem::take(&mut *self.out.0.lock().unwrap())).unwrap();
            lines.extend(text.lines().map(str::to_string));
            let answered = lines
                .iter()
                .any(|l| l.starts_with("bestmove") || l.starts_with("Nodes searched"));
            if !awaits || answered {
                return lines;
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(20),
                "'{line}' is not answered: {lines:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }

    fn fen(&self) -> String {
        self.session.game().position().to_fen()
    }

    /// The FEN that `d` shows.
    fn d_fen(&mut self) -> String {
        let lines = self.send("d");
        let fen: Vec<&String> = lines.iter().filter(|l| l.starts_with("Fen: ")).collect();
        assert_eq!(fen.len(), 1, "{lines:?}");
        fen[0]["Fen: ".len()..].to_string()
    }

    /// Sends a line that must be refused with one `info string error` line, leaving the
    /// position as it was.
    fn refused(&mut self, line: &str, facts: &[&str]) {
        let before = self.fen();
        let mut answer = self.send(line);
        // A refused `go` is still answered with a move, after its error.
        if line.starts_with("go") {
            let last = answer.pop().unwrap_or_default();
            assert!(
                last.starts_with("bestmove "),
                "'{line}' answered {answer:?}"
            );
            answer.retain(|l| !l.starts_with("info depth"));
        }
        assert_eq!(answer.len(), 1, "'{line}' answered {answer:?}");
        assert!(
            answer[0].starts_with("info string error: "),
            "'{line}' answered {answer:?}"
        );
        for fact in facts {
            assert!(
                answer[0].contains(fact),
                "'{line}': {:?} lacks {fact:?}",
                answer[0]
            );
        }
        assert_eq!(self.fen(), before, "'{line}' changed the position");
        assert_eq!(self.d_fen(), before);
    }
}

const MAGI_START: &str =
    "rnbcqkwbnr/pppppppppp/d2p2p2d/10/10/10/10/D2P2P2D/PPPPPPPPPP/RNBCQKWBNR w KQkq - 0 1";

#[test]
fn handshake_lists_every_variant() {
    let mut t = Transcript::new();
    let answer = t.send("uci");
    assert!(answer[0].starts_with("id name magus "), "{answer:?}");
    assert!(answer[1].starts_with("id author "), "{answer:?}");
    assert_eq!(answer.last().unwrap(), "uciok");
    let variant_option: Vec<&String> = answer
        .iter()
        .filter(|l| l.starts_with("option name UCI_Variant type combo default chess"))
        .collect();
    assert_eq!(variant_option.len(), 1, "{answer:?}");
    let words: Vec<&str> = variant_option[0].split_whitespace().collect();
    let listed: Vec<&str> = words
        .windows(2)
        .filter(|w| w[0] == "var")
        .map(|w| w[1])
        .collect();
    assert_eq!(listed, Registry::builtin().names());
    for name in ["chess", "magi", "deathmatch"] {
        assert!(listed.contains(&name), "{name} is not offered");
    }
    assert_eq!(t.send("isready"), vec!["readyok"]);
}

#[test]
fn magi_session_transcript() {
    let mut t = Transcript::new();
    t.send("uci");
    assert_eq!(t.send("isready"), vec!["readyok"]);
    assert_eq!(
        t.send("setoption name UCI_Variant value magi"),
        vec![format!(
            "info string variant magi files 10 ranks 10 startpos {MAGI_START}"
        )]
    );
    assert_eq!(t.session.game().variant().name, "magi");
    assert_eq!(t.fen(), MAGI_START);
    // The combo's default follows the current variant.
    let answer = t.send("uci");
    assert!(
        answer
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant type combo default magi ")),
        "{answer:?}"
    );
    assert_eq!(t.send("ucinewgame"), Vec::<String>::new());
    assert_eq!(t.send("isready"), vec!["readyok"]);

    // Ten-rank squares: the Duke a3-a4, e9-e6 (three steps), the Duke j3-i3 frees j2,
    // e6-e5, j2-j5 (three steps).
    assert_eq!(
        t.send("position startpos moves a3a4 e9e6 j3i3 e6e5 j2j5"),
        Vec::<String>::new()
    );
    let expected =
        "rnbcqkwbnr/pppp1ppppp/d2p2p2d/10/10/4p4P/D9/3P2P1D1/PPPPPPPPP1/RNBCQKWBNR b KQkq - 0 3";
    assert_eq!(t.fen(), expected);
    let d = t.send("d");
    assert!(d.contains(&format!("Fen: {expected}")), "{d:?}");
    assert!(d.iter().any(|l| l.starts_with("Key: ")), "{d:?}");
    assert!(
        d.iter().any(|l| l.starts_with("10 |")),
        "the board has rank 10: {d:?}"
    );

    // go perft: one `move: count` line per legal root move, a blank line, the total.
    let answer = t.send("go perft 2");
    let (total_line, rest) = answer.split_last().unwrap();
    let nodes: u64 = total_line
        .strip_prefix("Nodes searched: ")
        .unwrap_or_else(|| panic!("{answer:?}"))
        .parse()
        .unwrap();
    let (blank, move_lines) = rest.split_last().unwrap();
    assert_eq!(blank, "");
    let mut moves = Vec::new();
    let mut sum = 0;
    for line in move_lines {
        let (m, n) = line.split_once(": ").unwrap_or_else(|| panic!("{line:?}"));
        moves.push(m.to_string());
        sum += n.parse::<u64>().unwrap();
    }
    moves.sort();
    assert_eq!(moves, common::legal(t.session.game().position()));
    // The Queen's way down the open e-file ends on rank 6.
    assert!(moves.contains(&"e10e6".to_string()), "{moves:?}");
    assert_eq!(sum, nodes);
    assert_eq!(
        nodes,
        AnyPosition::from_fen(common::variant("magi"), Some(expected))
            .unwrap()
            .perft(2)
    );
    let answer = t.send("go perft 1");
    assert_eq!(answer.len(), moves.len() + 2);
    assert!(answer[..moves.len()].iter().all(|l| l.ends_with(": 1")));
    assert_eq!(
        answer.last().unwrap(),
        &format!("Nodes searched: {}", moves.len())
    );

    // A FEN with moves after it.
    assert_eq!(
        t.send(&format!("position fen {MAGI_START} moves f2f5")),
        Vec::<String>::new()
    );
    assert!(
        t.fen()
            .starts_with("rnbcqkwbnr/pppppppppp/d2p2p2d/10/10/5P4/10/D2P2P2D/PPPPP1PPPP/")
    );

    assert!(!t.session.handle_line("quit"));
}

#[test]
fn bad_input_keeps_the_previous_position() {
    let mut t = Transcript::new();
    t.send("setoption name UCI_Variant value magi");
    t.send("position startpos moves a3a4 e9e6");
    let kept = t.fen();
    assert_eq!(t.d_fen(), kept);

    t.refused(
        "setoption name UCI_Variant value nonesuch",
        &["unknown variant 'nonesuch'", "chess", "magi"],
    );
    assert_eq!(t.session.game().variant().name, "magi");
    // A chess FEN is not a Magi FEN.
    t.refused(
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["8 ranks", "magi has 10", "unchanged"],
    );
    t.refused("position fen 10/10 w", &["2 ranks"]);
    t.refused(
        &format!("position fen {}", MAGI_START.replace(" w ", " x ")),
        &["side to move 'x'"],
    );
    t.refused(
        &format!("position fen {MAGI_START} x"),
        &["'x'", "not understood"],
    );
    t.refused("position fen", &["expected 'startpos' or 'fen <FEN>'"]);
    t.refused(
        "position somewhere",
        &["expected 'startpos' or 'fen <FEN>'"],
    );
    // An illegal move in the list: nothing of the list is played.
    t.refused(
        "position startpos moves a3a4 a3a5",
        &[
            "move 2 of the list",
            "'a3a5' is not a legal move",
            "unchanged",
        ],
    );
    t.refused(
        "position startpos moves a3a4 e9e6 zz",
        &["move 3 of the list", "'zz' is not a move"],
    );
    // j2 is blocked by the Duke on j3 at the start.
    t.refused(
        "position startpos moves j2j4",
        &["'j2j4' is not a legal move"],
    );
    t.refused(
        &format!("position fen {MAGI_START} moves a2a3"),
        &["move 1 of the list", "'a2a3'"],
    );
    t.refused("go perft 0", &["depth from 1 to 12"]);
    t.refused("go perft x", &["depth from 1 to 12"]);
    t.refused("go perft", &["depth from 1 to 12"]);
    t.refused("frobnicate", &["unknown command 'frobnicate'"]);
    t.refused(
        "setoption name Contempt value 16",
        &["unknown option 'Contempt'"],
    );
    t.refused(
        "setoption name Hash value 0",
        &["option 'Hash'", "'0' is not a number from 1 to 65536"],
    );
    t.refused("setoption name Threads value many", &["option 'Threads'"]);
    assert_eq!(t.send(""), Vec::<String>::new());
    assert_eq!(t.send("   "), Vec::<String>::new());
    assert_eq!(t.fen(), kept);

    // A FEN of board and side only is read (it used to end the session with a panic).
    assert_eq!(
        t.send("position fen 5k4/10/10/10/10/10/10/10/10/5K4 w"),
        Vec::<String>::new()
    );
    assert_eq!(t.fen(), "5k4/10/10/10/10/10/10/10/10/5K4 w - - 0 1");
    assert!(!t.session.handle_line("quit"));
}

#[test]
fn chess_is_the_default_variant() {
    let mut t = Transcript::new();
    assert_eq!(t.session.game().variant().name, "chess");
    t.send("position startpos moves e2e4 e7e5 g1f3");
    assert_eq!(
        t.d_fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    // The published perft(4) divide of the start position gives e2e4: 13160.
    t.send("position startpos moves e2e4");
    let answer = t.send("go perft 3");
    assert_eq!(answer.last().unwrap(), "Nodes searched: 13160");
    // Switching variants starts from the new variant's start position.
    t.send("setoption name UCI_Variant value chess");
    assert_eq!(
        t.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}
