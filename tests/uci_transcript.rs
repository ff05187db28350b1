//! Transcripts of the UCI session: every command and option of the protocol, the engine's
//! extra commands, variants on the wire and bad input. The session is driven directly, its
//! output collected in a shared buffer.

mod common;

use std::time::Duration;

use magus::game::AnyPosition;
use magus::protocol::Session;
use magus::protocol::uci::{PAYOFF_STALEMATE_BONUS, UciSession};
use magus::variant::Registry;
use magus::with_position;

type Transcript = common::Transcript<UciSession>;

impl Transcript {
    fn start() -> Transcript {
        Transcript::new(|out| UciSession::new(Registry::builtin(), out))
    }

    /// Sends lines; returns what the engine printed by then.
    fn send(&mut self, lines: &str) -> Vec<String> {
        self.feed(lines);
        self.since_mark()
    }

    /// Waits (at most 30 s) for a line starting with `prefix` after the last `send`.
    fn wait(&mut self, prefix: &str) -> Vec<String> {
        self.wait_for(prefix, Duration::from_secs(30)).0
    }

    fn fen(&self) -> String {
        self.session.game().position().to_fen()
    }

    /// The `bestmove` among `lines` is legal in the session's position.
    fn assert_legal_bestmove(&self, lines: &[String]) {
        let legal = self.session.game().position().legal_moves_wire(1);
        assert!(legal.contains(&bestmove(lines).0), "{lines:?}");
    }

    fn ready(&mut self) {
        let lines = self.send("isready");
        assert!(lines.contains(&"readyok".to_string()), "{lines:?}");
    }
}

/// `lines` are one error line, which says `says` (of the input `bad`).
fn assert_one_error(lines: &[String], says: &str, bad: &str) {
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string error: ") && lines[0].contains(says),
        "{bad}: {lines:?}"
    );
}

fn bestmove(lines: &[String]) -> (String, Option<String>) {
    let line = lines
        .iter()
        .find(|l| l.starts_with("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in {lines:?}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let ponder = (words.get(2) == Some(&"ponder")).then(|| words[3].to_string());
    (words[1].to_string(), ponder)
}

#[test]
fn uci_lists_every_option_and_variant() {
    let mut t = Transcript::start();
    let lines = t.send("uci");
    assert_eq!(lines.last().map(String::as_str), Some("uciok"));
    assert!(lines[0].starts_with("id name magus"));
    assert!(lines[1].starts_with("id author "));
    let all = lines.join("\n");
    for option in [
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Ponder type check default false",
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name Clear Hash type button",
        "option name UCI_Variant type combo default chess var chess var deathmatch var deathmatch-legacy var magi",
        "option name VariantPath type string default <empty>",
        "option name Scoring type combo default standard var standard var magi-12",
        "option name Null Move Pruning type check default true",
        "option name Late Move Reductions type check default true",
        "option name Futility Pruning type check default true",
        "option name Late Move Pruning type check default true",
        "option name Losing Capture Pruning type check default true",
        // Off by default, and said so: a GUI shows the engine's real settings.
        "option name Quiescence Checks type check default false",
        "option name Null Move Full Ply type check default false",
        "option name Narrow Pruning type check default false",
        "option name Evaluation type combo default nnue var nnue var hce var material",
        "option name EvalFile type string default <empty>",
        "option name Eval Material Taper type check default true",
        "option name Eval Placement type check default true",
        "option name Eval Mobility type check default true",
        "option name Eval King Safety type check default true",
        "option name Eval Pawns type check default true",
        "option name Eval Threats type check default true",
        "option name Eval Variant Terms type check default true",
    ] {
        assert!(all.contains(option), "{option} missing:\n{all}");
    }
    t.ready();
    // debug and register are accepted silently.
    assert!(t.send("debug on\nregister later").is_empty());
}

#[test]
fn setoption_accepts_good_values_and_refuses_bad_ones() {
    let mut t = Transcript::start();
    t.send("uci");
    for ok in [
        "setoption name Hash value 8",
        "setoption name Threads value 1",
        "setoption name MultiPV value 3",
        "setoption name Ponder value true",
        "setoption name Move Overhead value 10",
        "setoption name Clear Hash",
        "setoption name Scoring value magi-12",
        "setoption name Scoring value standard",
        "setoption name VariantPath value <empty>",
        "setoption name Null Move Pruning value false",
        "setoption name Late Move Reductions value false",
        "setoption name Futility Pruning value true",
        "setoption name Late Move Pruning value false",
        "setoption name Losing Capture Pruning value false",
        "setoption name Eval Threats value false",
        "setoption name eval king safety value true",
    ] {
        assert!(t.send(ok).is_empty(), "{ok}");
    }
    for (bad, says) in [
        ("setoption name Hash value lots", "'lots' is not a number"),
        ("setoption name Threads value 0", "is not a number from 1"),
        (
            "setoption name MultiPV value 999",
            "is not a number from 1 to 256",
        ),
        ("setoption name Ponder value maybe", "is not true or false"),
        (
            "setoption name Null Move Pruning value off",
            "option 'Null Move Pruning': 'off' is not true or false",
        ),
        (
            "setoption name Scoring value golf",
            "is not standard or magi-12",
        ),
        (
            "setoption name Eval Pawns value 0",
            "option 'Eval Pawns': '0' is not true or false",
        ),
        (
            "setoption name Eval Tempo value false",
            "unknown option 'Eval Tempo'",
        ),
        (
            "setoption name Colour value blue",
            "unknown option 'Colour'",
        ),
        (
            "setoption name UCI_Variant value nowhere",
            "unknown variant 'nowhere'",
        ),
        (
            "setoption name VariantPath value /no/such/folder",
            "variant folder /no/such/folder",
        ),
    ] {
        let lines = t.send(bad);
        assert_one_error(&lines, says, bad);
    }
    t.ready();
}

#[test]
fn variant_change_and_positions_on_every_board() {
    let mut t = Transcript::start();
    t.send("uci");
    let lines = t.send("setoption name UCI_Variant value magi");
    assert_eq!(
        lines,
        vec![
            "info string variant magi files 10 ranks 10 startpos \
             rnbcqkwbnr/pppppppppp/d2p2p2d/10/10/10/10/D2P2P2D/PPPPPPPPPP/RNBCQKWBNR w KQkq - 0 1"
        ]
    );
    // UCI counts ranks from 1, also on ten ranks: e2e5 is a three-square first move.
    t.send("ucinewgame\nposition startpos moves e2e5 e9e7");
    assert!(
        t.fen().starts_with("rnbcqkwbnr/pppp1ppppp/d2p2p2d/4p5/"),
        "{}",
        t.fen()
    );
    let fen = "4k5/10/10/10/10/10/10/10/10/4K5 w - - 0 1";
    t.send(&format!("position fen {fen} moves e1e2"));
    assert!(t.fen().starts_with("4k5/"), "{}", t.fen());
    t.send("setoption name UCI_Variant value deathmatch\nposition startpos moves e2e4 e7e5 f1f1m");
    assert!(t.fen().contains("RNBQKMNR"), "{}", t.fen());
    t.send("setoption name UCI_Variant value chess\nposition startpos");
    assert_eq!(
        t.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

#[test]
fn go_with_every_limit_and_the_info_fields() {
    let mut t = Transcript::start();
    t.send("uci\nucinewgame\nposition startpos moves e2e4");
    let lines = t.send("go depth 4");
    let lines = if lines.iter().any(|l| l.starts_with("bestmove")) {
        lines
    } else {
        t.wait("bestmove")
    };
    let info = lines
        .iter()
        .rfind(|l| l.starts_with("info depth"))
        .expect("info lines");
    for field in [
        " seldepth ",
        " multipv 1 ",
        " score cp ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{field} missing: {info}");
    }
    assert!(info.starts_with("info depth 4 "), "{info}");
    let (best, ponder) = bestmove(&lines);
    assert!(ponder.is_some(), "{lines:?}");
    let legal = t.session.game().position().legal_moves_wire(1);
    assert!(legal.contains(&best), "{lines:?}");
    // Each limit is kept, not only answered.
    let field = |line: &str, name: &str| -> u64 {
        let words: Vec<&str> = line.split_whitespace().collect();
        let i = words.iter().position(|w| *w == name).unwrap();
        words[i + 1].parse().unwrap()
    };
    for go in [
        "go nodes 5000",
        "go movetime 300",
        "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 5",
        "go wtime 500 btime -20",
        "go depth 3 searchmoves a7a6 h7h6",
    ] {
        let start = std::time::Instant::now();
        t.send(go);
        let lines = t.wait("bestmove");
        let took = start.elapsed();
        let (best, _) = bestmove(&lines);
        assert!(legal.contains(&best), "{go}: {best}");
        let last = lines
            .iter()
            .rfind(|l| l.starts_with("info depth"))
            .unwrap_or_else(|| panic!("{go}: {lines:?}"));
        match go {
            "go nodes 5000" => {
                // The count is looked at every thousandth of the limit (5 nodes), so the
                // search stops within two such intervals of it (the last line is that of
                // the last iteration finished, at or below the count at the stop).
                assert!(field(last, "nodes") <= 5000 + 2 * 5, "{go}: {last}");
            }
            "go movetime 300" => {
                // The overhead (30 ms) is kept back, so the answer comes within the 300 ms;
                // the overhead again is allowed for polling and a busy machine.
                assert!(took >= Duration::from_millis(250), "{go}: {took:?}");
                assert!(took < Duration::from_millis(300 + 30), "{go}: {took:?}");
            }
            "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 5" => {
                // Black to move, a fifth of a second at most planned, four times that at
                // most used.
                assert!(took < Duration::from_millis(800), "{go}: {took:?}");
            }
            "go wtime 500 btime -20" => {
                // Black has no time left: it answers at once.
                assert!(took < Duration::from_millis(300), "{go}: {took:?}");
            }
            _ => {
                assert!(best == "a7a6" || best == "h7h6", "{go}: {best}");
                assert!(last.starts_with("info depth 3 "), "{go}: {last}");
            }
        }
    }
    // go mate N: finds the mate at that distance and stops there.
    t.send("position fen 6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1\ngo mate 2");
    let lines = t.wait("bestmove");
    let last = lines.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(last.contains(" score mate 2 "), "{lines:?}");
    assert!(field(last, "depth") <= 6, "{last}");
    // Its line is a mate in two: played out, the side to move is mated (and the best move
    // is the line's first).
    let pv: Vec<&str> = last
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(pv.len(), 3, "{last}");
    assert_eq!(bestmove(&lines).0, pv[0], "{lines:?}");
    let mut mated = *t.session.game().position();
    for m in &pv {
        mated = mated
            .after_wire(m, 1)
            .unwrap_or_else(|e| panic!("{m}: {e:?}"))
            .0;
    }
    assert!(mated.legal_moves_wire(1).is_empty(), "{last}");
    assert!(with_position!(&mated, p => p.in_check()), "{last}");
    t.send("position startpos moves e2e4");
    // MultiPV: one line per root move.
    t.send("setoption name MultiPV value 3\ngo depth 3");
    let lines = t.wait("bestmove");
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 3 ") && l.contains(&format!(" multipv {k} "))),
            "multipv {k}: {lines:?}"
        );
    }
    // A mate is reported as such.
    t.send("setoption name MultiPV value 1\nposition fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo depth 4");
    let lines = t.wait("bestmove");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    assert_eq!(bestmove(&lines).0, "a1a8");
}

#[test]
fn infinite_ponder_stop_ponderhit_and_commands_during_search() {
    let mut t = Transcript::start();
    t.send("uci\nposition startpos\ngo infinite");
    std::thread::sleep(Duration::from_millis(100));
    // While searching: isready is answered at once, and a position (or option, or new game)
    // takes effect at once: the search goes on with its own copy of the position it began.
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let lines = t.send("position startpos moves e2e4\nisready");
    assert!(lines.contains(&"readyok".to_string()), "{lines:?}");
    assert_eq!(t.fen(), after_e4, "the position applies before readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "infinite ended early: {lines:?}"
    );
    t.send("stop");
    let lines = t.wait("bestmove");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    // The search answered for the position it began with: the start, where e7e5 (Black's
    // move) is not legal and a White move is.
    let (best, _) = bestmove(&lines);
    let start = AnyPosition::from_fen(t.session.game().variant(), None).unwrap();
    assert!(start.legal_moves_wire(1).contains(&best), "{best}");
    assert_eq!(t.fen(), after_e4);
    // Pondering waits for ponderhit, then the clock applies.
    t.send("position startpos moves e2e4 e7e5\ngo ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(200));
    assert!(!t.since_mark().iter().any(|l| l.starts_with("bestmove")));
    t.send("ponderhit");
    let lines = t.wait("bestmove");
    let after = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    assert_eq!(t.fen(), after);
    t.assert_legal_bestmove(&lines);
    // stop with nothing running, and quit, are quiet.
    assert!(t.send("stop").is_empty());
    t.send("go infinite");
    assert!(!t.session.handle_line("quit"));
}

/// Magi's 12-point payoff: a stalemate is worth 7 of 12 to the side that gives it, a draw 6.
/// White (King, Knight, a free pawn and two blocked ones) is a pawn up against a Black King
/// whose other pieces are walled in; Ne7-c8 stalemates. With standard scoring that is a draw
/// and White plays on, a pawn up; with `Scoring magi-12` the stalemate's bonus is worth more
/// than the pawn, and White takes it. (The material-only evaluation keeps the pawn's worth,
/// and so the test, apart from the evaluation's weights.)
#[test]
fn magi_payoff_scoring_prefers_a_stalemate_to_a_draw() {
    let stalemate = "e7c8";
    let mut t = Transcript::start();
    t.send("uci\nsetoption name UCI_Variant value magi\nsetoption name Evaluation value material");
    let position = "position fen k8n/7p2/1K5Pp1/4N3P1/10/10/10/10/4P5/10 w - - 0 1";
    t.send(&format!("{position}\ngo depth 6"));
    let (standard, _) = bestmove(&t.wait("bestmove"));
    assert_ne!(standard, stalemate);
    // The stalemate alone: a draw, 0.
    t.send(&format!("{position}\ngo depth 6 searchmoves {stalemate}"));
    let lines = t.wait("bestmove");
    assert!(
        lines.iter().any(|l| l.contains(" score cp 0 ")),
        "{lines:?}"
    );
    t.send("setoption name Scoring value magi-12");
    t.send(&format!("{position}\ngo depth 6"));
    let lines = t.wait("bestmove");
    assert_eq!(bestmove(&lines).0, stalemate, "{lines:?}");
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let payoff = format!(" score cp {PAYOFF_STALEMATE_BONUS} ");
    assert!(last_info.contains(&payoff), "{last_info}");
}

#[test]
fn extra_commands_display_perft_bench_eval() {
    let mut t = Transcript::start();
    t.send("uci\nposition startpos");
    let lines = t.send("d");
    assert!(
        lines.iter().any(|l| l.starts_with("Fen: rnbqkbnr/")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("Key: ")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("Checkers:")),
        "{lines:?}"
    );
    t.send("go perft 2");
    let lines = t.wait("Nodes searched");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 400")
    );
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 21);
    let lines = t.send("eval");
    assert!(
        lines.iter().any(|l| l.starts_with("Final evaluation: ")),
        "{lines:?}"
    );
    assert!(
        lines.last().unwrap().starts_with("NNUE evaluation: "),
        "{lines:?}"
    );
    t.send("bench 2");
    let lines = t.wait("Nodes/second");
    assert!(
        lines.iter().any(|l| l.starts_with("Nodes searched  : ")),
        "{lines:?}"
    );
    // A refused perft is a refused `go`: its error, then a move all the same.
    t.send("go perft 0");
    let lines = t.wait("bestmove");
    assert_eq!(
        lines[0],
        "info string error: go perft needs a depth from 1 to 12"
    );
    t.assert_legal_bestmove(&lines);
    t.send("setoption name UCI_Variant value magi\nposition startpos\ngo perft 1");
    let lines = t.wait("Nodes searched");
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 38"));
}

#[test]
fn bad_input_keeps_the_last_good_position() {
    let mut t = Transcript::start();
    // go before any position searches the start position.
    t.send("uci\ngo depth 2");
    let lines = t.wait("bestmove");
    t.assert_legal_bestmove(&lines);
    t.send("position startpos moves e2e4");
    let fen = t.fen();
    for (bad, says) in [
        ("position startpos moves e7e4", "'e7e4' is not a legal move"),
        ("position startpos moves e2e4 zz", "'zz' is not a move"),
        (
            "position fen 9/8/8/8/8/8/8/8 w - - 0 1",
            "the position is unchanged",
        ),
        ("position somewhere", "expected 'startpos' or 'fen <FEN>'"),
        ("frobnicate", "unknown command 'frobnicate'"),
    ] {
        let lines = t.send(bad);
        assert_one_error(&lines, says, bad);
        assert_eq!(t.fen(), fen, "{bad}");
    }
    // A refused `go` says why, and is answered with a legal move all the same: a GUI
    // waiting for `bestmove` never hangs.
    for (bad, says) in [
        ("go depth many", "'many' is not a number"),
        ("go sideways", "unknown parameter 'sideways'"),
        ("go searchmoves e2e5", "go searchmoves"),
        ("go depth 0", "'0' is not a number from 1 up"),
        ("go depth -3", "'-3' is not a number from 1 up"),
        ("go nodes 0", "'0' is not a number from 1 up"),
        ("go wtime abc", "'abc' is not a number"),
    ] {
        t.send(bad);
        let lines = t.wait("bestmove");
        assert!(
            lines[0].starts_with("info string error: ") && lines[0].contains(says),
            "{bad}: {lines:?}"
        );
        let legal = t.session.game().position().legal_moves_wire(1);
        assert!(legal.contains(&bestmove(&lines).0), "{bad}: {lines:?}");
        assert_eq!(t.fen(), fen, "{bad}");
    }
    t.ready();
    // No legal move: bestmove 0000.
    t.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 2");
    let lines = t.wait("bestmove");
    assert_eq!(bestmove(&lines).0, "0000");
}

#[test]
fn help_lists_the_commands() {
    let mut t = Transcript::start();
    let lines = t.send("help");
    assert!(lines.len() > 5, "{lines:?}");
    assert!(lines[0].starts_with("magus speaks UCI"), "{lines:?}");
    let all = lines.join("\n");
    for word in ["position", "go", "setoption", "isready", "magus play"] {
        assert!(all.contains(word), "{word} missing: {all}");
    }
    assert!(!all.contains("unknown command"), "{all}");
    t.ready();
}

/// The deepest `info depth` of a search's lines.
fn deepest(lines: &[String]) -> i32 {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .max()
        .unwrap_or(0)
}

#[test]
fn strength_levels_weaken_play_within_the_searched_lines() {
    let mut t = Transcript::start();
    let all = t.send("uci").join("\n");
    for option in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1500 min 1000 max 2080",
        "option name UCI_ShowWDL type check default false",
    ] {
        assert!(all.contains(option), "{option} missing:\n{all}");
    }
    // Out of range: refused, and the level stays.
    let lines = t.send("setoption name Skill Level value 21");
    assert!(lines.iter().any(|l| l.contains("error")), "{lines:?}");
    for elo in [999, 2081] {
        let lines = t.send(&format!("setoption name UCI_Elo value {elo}"));
        assert!(
            lines.iter().any(|l| l.contains("error")),
            "{elo}: {lines:?}"
        );
    }

    // Full strength, one thread: the same move every time.
    let mut full = std::collections::BTreeSet::new();
    for _ in 0..6 {
        t.send("ucinewgame\nposition startpos\ngo depth 4");
        full.insert(bestmove(&t.wait("bestmove")).0);
    }
    assert_eq!(full.len(), 1, "{full:?}");

    // Level 0: one ply, four lines, and a noisy choice among them.
    t.send("setoption name Skill Level value 0");
    let mut weak = std::collections::BTreeSet::new();
    for _ in 0..30 {
        t.send("ucinewgame\nposition startpos\ngo depth 4");
        let lines = t.wait("bestmove");
        assert_eq!(deepest(&lines), 1, "{lines:?}");
        let searched: Vec<String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth 1 "))
            .filter_map(|l| {
                l.split(" pv ")
                    .nth(1)?
                    .split_whitespace()
                    .next()
                    .map(String::from)
            })
            .collect();
        assert!(searched.len() >= 4, "{lines:?}");
        let played = bestmove(&lines).0;
        assert!(
            searched.contains(&played),
            "{played} not among {searched:?}"
        );
        weak.insert(played);
    }
    assert!(weak.len() >= 2, "level 0 always played {weak:?}");

    // A queen left hanging is not among what a weak level plays: Black's queen on d4 can be
    // taken by the pawn on e3, and every level takes it.
    for _ in 0..10 {
        t.send("position fen 4k3/8/8/8/3q4/4P3/8/4K3 w - - 0 1\ngo depth 4");
        assert_eq!(bestmove(&t.wait("bestmove")).0, "e3d4");
    }

    // An Elo limit wins over the level: the lowest Elo searches one ply as well.
    t.send("setoption name Skill Level value 20\nsetoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 1000");
    t.send("position startpos\ngo depth 6");
    assert_eq!(deepest(&t.wait("bestmove")), 1);
    t.send("setoption name UCI_LimitStrength value false\nposition startpos\ngo depth 6");
    assert_eq!(deepest(&t.wait("bestmove")), 6);
}

#[test]
fn show_wdl_adds_the_chances_to_each_score() {
    let mut t = Transcript::start();
    t.send("uci\nposition startpos\ngo depth 3");
    let lines = t.wait("bestmove");
    assert!(!lines.iter().any(|l| l.contains(" wdl ")), "{lines:?}");
    t.send("setoption name UCI_ShowWDL value true\nposition startpos\ngo depth 3");
    let lines = t.wait("bestmove");
    let mut seen = 0;
    for line in lines.iter().filter(|l| l.starts_with("info depth")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "wdl").expect(line);
        let wdl: Vec<u32> = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
        seen += 1;
    }
    assert!(seen > 0);
    // A Queen up: a win is likely; a mate: certain.
    t.send("position fen 4k3/8/8/8/8/8/8/3QK3 w - - 0 1\ngo depth 3");
    let lines = t.wait("bestmove");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "wdl").unwrap();
    let win: u32 = words[at + 1].parse().unwrap();
    assert!(win > 900, "{last}");
    t.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo depth 3");
    let lines = t.wait("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("score mate 1 wdl 1000 0 0")),
        "{lines:?}"
    );
}

/// `EvalFile` loads a net for the variant being played: `eval` shows the net's score of the
/// position, and the search uses it. A broken file is refused with its reason, and the net
/// loaded before stays. A net of another variant waits for its variant, as a GUI sets its
/// options before it names the variant; a net named for a variant whose inputs it does not
/// fit is refused, or, when it was set while another variant was played, is said not to be
/// used once its variant comes.
#[test]
fn eval_file_loads_a_net_and_refuses_a_broken_one() {
    use magus::eval::nnue::{FeatureSet, evaluate};
    use magus::tune::train::model::{Model, Shape};
    let dir = std::env::temp_dir().join(format!("magus-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let registry = Registry::builtin();
    let start = AnyPosition::from_fen(registry.get("chess").unwrap(), None).unwrap();
    let (net, expected) = with_position!(&start, p => {
        let set = FeatureSet::of(p.layout());
        let net = Model::new(Shape::of(&set, 32), 11).quantise("chess", &set);
        let score = evaluate(&net, p);
        (net, score)
    });
    let good = dir.join("chess.nnue");
    std::fs::write(&good, net.to_bytes()).unwrap();
    let mut broken_bytes = net.to_bytes();
    broken_bytes[100] ^= 4;
    let broken = dir.join("broken.nnue");
    std::fs::write(&broken, broken_bytes).unwrap();

    let mut t = Transcript::start();
    t.send("uci\nposition startpos");
    let lines = t.send(&format!("setoption name EvalFile value {}", good.display()));
    assert!(lines.is_empty(), "{lines:?}");
    let shown = format!("NNUE evaluation: {expected} (side to move; the EvalFile net, 32 hidden)");
    assert!(t.send("eval").contains(&shown), "{shown}");
    let bad = format!("setoption name EvalFile value {}", broken.display());
    assert_one_error(&t.send(&bad), "checksum", &bad);
    assert!(
        t.send("eval").contains(&shown),
        "the net loaded before must stay"
    );
    let missing = "setoption name EvalFile value /no/such/net.nnue";
    assert_one_error(&t.send(missing), "/no/such/net.nnue", missing);
    t.send("go depth 3");
    let lines = t.wait("bestmove");
    t.assert_legal_bestmove(&lines);
    // A net named chess of Magi's shape is refused while chess is played.
    let magi = AnyPosition::from_fen(registry.get("magi").unwrap(), None).unwrap();
    let misshapen = with_position!(&magi, p => {
        let set = FeatureSet::of(p.layout());
        Model::new(Shape::of(&set, 32), 12).quantise("chess", &set)
    });
    let misfit = dir.join("misfit.nnue");
    std::fs::write(&misfit, misshapen.to_bytes()).unwrap();
    let set_misfit = format!("setoption name EvalFile value {}", misfit.display());
    assert_one_error(&t.send(&set_misfit), "not this variant's", &set_misfit);
    assert!(
        t.send("eval").contains(&shown),
        "the net loaded before must stay"
    );
    // The chess net, set while Magi is played (as a GUI sets options before the variant),
    // waits, and plays chess when chess is named.
    t.send("setoption name UCI_Variant value magi");
    let other = format!("setoption name EvalFile value {}", good.display());
    let lines = t.send(&other);
    assert!(
        lines.len() == 1
            && lines[0].starts_with("info string EvalFile: ")
            && lines[0].contains("a net for chess; it plays when the variant is chess"),
        "{lines:?}"
    );
    // Meanwhile Magi plays its own net, the built-in one.
    assert!(
        t.send("eval")
            .iter()
            .any(|l| l.starts_with("NNUE evaluation: ") && l.contains("the built-in net"))
    );
    t.send("setoption name UCI_Variant value chess\nposition startpos");
    assert!(
        t.send("eval").contains(&shown),
        "the waiting net plays chess"
    );
    // The misshapen chess net, set while Magi is played, is said not to fit once chess comes.
    t.send("setoption name UCI_Variant value magi");
    t.send(&set_misfit);
    let lines = t.send("setoption name UCI_Variant value chess");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string EvalFile: the net does not fit this chess")),
        "{lines:?}"
    );
    let bad_choice = "setoption name Evaluation value neural";
    assert_one_error(&t.send(bad_choice), "nnue, hce, material", bad_choice);
    std::fs::remove_dir_all(&dir).ok();
}
