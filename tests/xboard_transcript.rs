//! Transcripts of the XBoard session: every command of the protocol as the engine implements
//! it, engine-defined variants, the move forms, the payoff system and bad input. The session is
//! driven directly, its output collected in a shared buffer.

mod common;

use std::time::Duration;

use magus::game::AnyPosition;
use magus::protocol::Session;
use magus::protocol::xboard::{
    XboardSession, expected_share, first_rank, parse_xboard, piece_to_char, resign_now,
    resignation_value, to_xboard, variant_definition, xboard_checkable,
};
use magus::search::Score;
use magus::variant::Registry;
use magus::with_position;

type Transcript = common::Transcript<XboardSession>;

impl Transcript {
    fn start() -> Transcript {
        Transcript::new(|out| XboardSession::new(Registry::builtin(), out))
    }

    /// Sends lines and returns the new output lines (after a moment for the worker).
    fn send(&mut self, lines: &str) -> Vec<String> {
        self.feed(lines);
        std::thread::sleep(Duration::from_millis(20));
        self.take()
    }

    /// Waits (at most 20 s) for a line starting with `prefix` in the output of the last
    /// `send`; returns that output up to now, all of it taken.
    fn wait(&mut self, prefix: &str) -> Vec<String> {
        let (lines, end) = self.wait_for(prefix, Duration::from_secs(20));
        self.read = end;
        self.mark = end;
        lines
    }

    /// The session's position, with the engine's printed moves applied.
    fn fen(&mut self) -> String {
        self.session.handle_line("");
        self.session.game().position().to_fen()
    }

    /// The engine still answers.
    fn alive(&mut self, n: u32) {
        let lines = self.send(&format!("ping {n}"));
        assert!(
            lines.contains(&format!("pong {n}")),
            "no pong {n}: {lines:?}"
        );
    }
}

fn has(lines: &[String], text: &str) -> bool {
    lines.iter().any(|l| l.contains(text))
}

fn engine_move(lines: &[String]) -> String {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("move "))
        .unwrap_or_else(|| panic!("no move in {lines:?}"))
        .to_string()
}

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn handshake_announces_the_features_and_every_variant() {
    let mut t = Transcript::start();
    let lines = t.send("xboard\nprotover 2");
    assert_eq!(lines.first().map(String::as_str), Some("feature done=0"));
    assert_eq!(lines.last().map(String::as_str), Some("feature done=1"));
    let features = lines.join(" ");
    for f in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "memory=1",
        "smp=1",
        "sigint=0",
        "reuse=1",
        "analyze=1",
        "colors=0",
        "playother=1",
        "myname=\"magus",
        "variants=\"normal,deathmatch,deathmatch-legacy,magi",
        "option=\"Scoring -combo *standard /// magi-12\"",
        "option=\"Only XBoard moves -check 1\"",
        "option=\"Mark swap-ins -check 0\"",
        "option=\"Evaluation -combo *nnue /// hce /// material\"",
        "option=\"EvalFile -file \"",
        "highlight=1",
    ] {
        assert!(features.contains(f), "feature {f} missing: {features}");
    }
    // Replies from XBoard to the features are taken silently.
    assert!(t.send("accepted setboard\nrejected smp").is_empty());
    t.alive(1);
}

#[test]
fn engine_defined_variants_get_setup_and_betza_pieces() {
    let registry = Registry::builtin();
    let magi = registry.get("magi").unwrap();
    let lines = variant_definition(magi);
    assert_eq!(
        lines[0],
        "setup (PNBRQ....W...CD......Kpnbrq....w...cd......k) 10x10+0_fairy \
         rnbcqkwbnr/pppppppppp/d2p2p2d/10/10/10/10/D2P2P2D/PPPPPPPPPP/RNBCQKWBNR w KQkq - 0 1"
    );
    for piece in [
        "piece P& fmWfceFifmW3",
        "piece D& R3",
        "piece C& KB",
        "piece W& WNA",
        "piece K& KisO3",
    ] {
        assert!(
            lines.iter().any(|l| l == piece),
            "{piece} missing: {lines:?}"
        );
    }
    // Orthodox chess is XBoard's own `normal`: nothing to define.
    assert!(variant_definition(registry.get("chess").unwrap()).is_empty());
    // Deathmatch: the Magician looks like XBoard's Wizard, the High-Priestess like its Ferz
    // (a mitre), the Telepath like its Unicorn.
    let dm = registry.get("deathmatch").unwrap();
    assert_eq!(
        piece_to_char(dm),
        "PNBRQH...M..........TKpnbrqh...m..........tk"
    );
    let lines = variant_definition(dm);
    assert!(lines[0].contains(" 8x8+0_fairy rnbqkbnr/"), "{lines:?}");
    assert!(
        lines.contains(&"piece M& mB2cKcAcD".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"piece P& fmWfceFifmW2".to_string()),
        "{lines:?}"
    );
    assert!(lines.contains(&"piece K& KisO2".to_string()), "{lines:?}");
    // Every letter of every variant has an image.
    for v in registry.all() {
        let table = piece_to_char(v);
        for p in &v.pieces {
            assert!(
                table.contains(p.letter.to_ascii_uppercase()),
                "{}: {} has no image in {table}",
                v.name,
                p.letter
            );
        }
    }

    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew");
    let lines = t.send("variant magi");
    assert!(lines[0].starts_with("setup ("), "{lines:?}");
    assert_eq!(lines.len(), 1 + magi.pieces.len());
    assert!(t.fen().starts_with("rnbcqkwbnr/"));
    assert!(t.send("variant normal").is_empty());
    assert_eq!(t.fen(), CHESS_START);
}

#[test]
fn ten_rank_boards_count_ranks_from_zero() {
    let registry = Registry::builtin();
    assert_eq!(first_rank(registry.get("magi").unwrap().ranks), 0);
    assert_eq!(first_rank(registry.get("chess").unwrap().ranks), 1);
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\nvariant magi\nforce");
    // e1e3 is e2-e4 (two steps) on XBoard's board.
    assert!(t.send("usermove e1e3").is_empty());
    assert!(
        t.fen()
            .starts_with("rnbcqkwbnr/pppppppppp/d2p2p2d/10/10/10/4P5/"),
        "{}",
        t.fen()
    );
    // Castling is the King's three-square move, j0 the corner; the engine answers on ranks 0-9.
    t.send("sd 2\ngo");
    let lines = t.wait("move ");
    let m = engine_move(&lines);
    assert!(
        m.chars()
            .filter(|c| c.is_ascii_digit())
            .all(|c| c != '1' || !m.contains("10")),
        "{m}"
    );
    assert!(
        m.contains('9') || m.contains('8') || m.contains('7'),
        "Black moves from ranks 9-7: {m}"
    );
}

#[test]
fn a_game_with_clocks_moves_and_pings() {
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\nrandom\nlevel 40 0:30 0\npost\nhard\neasy");
    // The engine plays Black after `new`: White's move starts its thinking.
    t.send("time 3000\notim 3000\nusermove e2e4");
    let lines = t.wait("move ");
    // Thinking lines: ply, score, centiseconds, nodes, pv.
    let thinking: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert!(!thinking.is_empty(), "{lines:?}");
    let fields: Vec<&str> = thinking[0].split_whitespace().collect();
    assert!(
        fields.len() >= 5 && fields[..4].iter().all(|f| f.parse::<i64>().is_ok()),
        "{thinking:?}"
    );
    let reply = engine_move(&lines);
    t.alive(2);
    // The engine's move is on the board before the next command is read.
    assert!(t.fen().contains(" w "), "{}", t.fen());
    // nopost: no more thinking output.
    t.send("nopost\nst 1\nsd 3\nusermove d2d4");
    let lines = t.wait("move ");
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with(|c: char| c.is_ascii_digit())),
        "{lines:?}"
    );
    assert_ne!(engine_move(&lines), reply);
    // undo takes one ply back, remove two.
    let before = t.fen();
    // Any legal move of White's (the engine's reply may have given check).
    let legal = t.session.game().position().legal_moves_wire(1)[0].clone();
    t.send(&format!("force\nusermove {legal}"));
    assert_ne!(t.fen(), before, "{legal} was played");
    t.send("undo");
    assert_eq!(t.fen(), before);
    let two_back = {
        let mut g = t.session.game().clone();
        g.undo();
        g.undo();
        g.position().to_fen()
    };
    t.send("remove");
    assert_eq!(t.fen(), two_back);
    // result ends the game: the engine stops playing.
    assert!(t.send("result 1-0 {White mates}").is_empty());
    t.alive(3);
    let lines = t.send("quit");
    assert!(lines.is_empty(), "{lines:?}");
}

#[test]
fn go_playother_and_move_now() {
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\nforce\nusermove e2e4\nusermove e7e5");
    // go: the engine plays the side to move (White).
    t.send("sd 2\ngo");
    let m = engine_move(&t.wait("move "));
    assert!(
        m.chars().nth(1).is_some_and(|c| "12".contains(c)),
        "White's move {m}"
    );
    // playother: the engine takes the side not on move and waits.
    t.send("force\nplayother");
    let lines = t.send("ping 5");
    assert_eq!(lines, vec!["pong 5"]);
    // A move for Black starts the engine thinking as White.
    t.send("sd 40\nst 1000\nusermove b8c6");
    std::thread::sleep(Duration::from_millis(200));
    // ping while the engine thinks on its move: the pong follows the move.
    let lines = t.send("ping 6");
    assert!(!has(&lines, "pong 6"), "{lines:?}");
    // A move from the GUI while the engine is on move is refused; the position stays.
    let fen = t.fen();
    let lines = t.send("usermove a7a6");
    assert!(
        has(&lines, "Illegal move (not your turn): a7a6"),
        "{lines:?}"
    );
    assert_eq!(t.fen(), fen);
    // ?: move now.
    t.send("?");
    let lines = t.wait("pong 6");
    let at_move = lines
        .iter()
        .position(|l| l.starts_with("move "))
        .expect("a move");
    let at_pong = lines.iter().position(|l| l == "pong 6").unwrap();
    assert!(at_move < at_pong, "{lines:?}");
}

/// The lines before the engine's move (after it, it may already ponder and post again).
fn before_move(lines: &[String]) -> &[String] {
    let at = lines.iter().position(|l| l.starts_with("move "));
    &lines[..at.unwrap_or(lines.len())]
}

/// The lines after the engine's move.
fn after_move(lines: &[String]) -> &[String] {
    let at = lines.iter().position(|l| l.starts_with("move "));
    &lines[at.map_or(lines.len(), |i| i + 1)..]
}

/// The thinking lines (`depth score time nodes pv…`) among `lines`, as their words.
fn thinking(lines: &[String]) -> Vec<Vec<String>> {
    lines
        .iter()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

#[test]
fn pondering_on_the_expected_reply() {
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\nhard\npost\nsd 4\nusermove e2e4");
    let lines = t.wait("move ");
    let last = thinking(before_move(&lines)).pop().expect("thinking");
    // `depth score time nodes move reply …`: the engine now ponders on `reply`.
    let reply = last
        .get(5)
        .expect("a line with a reply to ponder on")
        .clone();
    assert_eq!(engine_move(&lines), last[4], "{lines:?}");
    assert!(t.fen().contains(" w "));
    // The ponder search posts its own lines before the reply comes.
    std::thread::sleep(Duration::from_millis(300));
    let mut pondering = thinking(after_move(&lines));
    pondering.extend(thinking(&t.take()));
    assert!(
        !pondering.is_empty(),
        "no thinking while pondering: {lines:?}"
    );
    // A ponder hit: the search goes on rather than starting again at depth 1, and it plays
    // the first move of its last line.
    t.send(&format!("usermove {reply}"));
    let lines = t.wait("move ");
    let after_hit = thinking(before_move(&lines));
    assert!(
        after_hit.iter().all(|w| w[0] != "1"),
        "the search started again after a ponder hit: {lines:?}"
    );
    let final_line = after_hit.last().or(pondering.last()).unwrap().clone();
    assert_eq!(engine_move(&lines), final_line[4], "{lines:?}");
    // A miss: a reply other than the expected one starts a new search from depth 1.
    let expected = final_line.get(5).cloned().unwrap_or_default();
    std::thread::sleep(Duration::from_millis(300));
    t.take();
    assert!(t.fen().contains(" w "));
    let other = t
        .session
        .game()
        .position()
        .legal_moves_wire(1)
        .into_iter()
        .find(|m| *m != expected)
        .expect("a legal reply");
    t.send(&format!("usermove {other}"));
    let lines = t.wait("move ");
    assert!(
        thinking(before_move(&lines)).iter().any(|w| w[0] == "1"),
        "a missed ponder did not search anew: {lines:?}"
    );
    t.alive(7);
    // easy stops pondering: no move comes without a user move.
    t.send("easy");
    let lines = t.send("ping 8");
    assert!(has(&lines, "pong 8"), "{lines:?}");
}

#[test]
fn analyze_mode_with_moves_status_and_exit() {
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\nvariant magi\nanalyze");
    let lines = t.wait("1 ");
    // `1 score time nodes pv…`, its first move one of Magi's (ranks from 0 on a 10-rank board).
    let first = thinking(&lines).into_iter().next().expect("a depth-1 line");
    assert!(first.len() >= 5, "{lines:?}");
    assert!(
        first[1..4].iter().all(|n| n.parse::<i64>().is_ok()),
        "{lines:?}"
    );
    let legal = t.session.game().position().legal_moves_wire(first_rank(10));
    assert!(
        legal.contains(&first[4]),
        "{} is not a move here: {lines:?}",
        first[4]
    );
    // `.` prints a status line; moves, undo and setboard restart the analysis.
    std::thread::sleep(Duration::from_millis(100));
    let lines = t.send(".");
    assert!(lines.iter().any(|l| l.starts_with("stat01: ")), "{lines:?}");
    t.send("usermove e1e3");
    assert!(t.fen().contains(" b "));
    t.wait("1 ");
    t.send("undo");
    assert!(t.fen().contains(" w "));
    t.alive(9);
    let lines = t.send("exit");
    assert!(!has(&lines, "Error"), "{lines:?}");
    // After exit, nothing more is printed.
    std::thread::sleep(Duration::from_millis(100));
    t.take();
    std::thread::sleep(Duration::from_millis(100));
    assert!(t.take().is_empty());
    // exit outside analyze mode is an error.
    let lines = t.send("exit");
    assert!(
        has(&lines, "Error (command not legal now): exit"),
        "{lines:?}"
    );
}

#[test]
fn setboard_memory_cores_and_options() {
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\nforce");
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    assert!(t.send(&format!("setboard {fen}")).is_empty());
    assert_eq!(t.fen(), fen);
    for ok in [
        "memory 32",
        "cores 2",
        "option Scoring=magi-12",
        "option Scoring=standard",
        "option MultiPV=2",
        "option Move Overhead=50",
        "option Only XBoard moves=1",
        "option Only XBoard moves=0",
        "option Evaluation=hce",
        "option Evaluation=nnue",
        "option EvalFile=",
        "option Clear Hash",
    ] {
        let lines = t.send(ok);
        assert!(lines.is_empty(), "{ok}: {lines:?}");
    }
    for bad in [
        ("memory lots", "Error (bad memory size): memory lots"),
        ("cores 0", "Error (bad number of cores): cores 0"),
        (
            "option Scoring=golf",
            "Error (Scoring is standard or magi-12): option Scoring=golf",
        ),
        (
            "option MultiPV=0",
            "Error (bad value for MultiPV): option MultiPV=0",
        ),
        (
            "option EvalFile=/no/such/net.nnue",
            "Error (option 'EvalFile': /no/such/net.nnue: No such file or directory (os error 2); the evaluation is unchanged): option EvalFile=/no/such/net.nnue",
        ),
        (
            "option Colour=blue",
            "Error (unknown option): option Colour=blue",
        ),
        ("level 40 five 0", "Error (bad level): level 40 five 0"),
        ("st -1", "Error (bad number of seconds): st -1"),
        ("sd x", "Error (bad depth): sd x"),
        ("time soon", "Error (bad time): time soon"),
    ] {
        let lines = t.send(bad.0);
        assert_eq!(lines, vec![bad.1.to_string()], "{}", bad.0);
    }
    assert_eq!(t.fen(), fen);
    t.alive(10);
}

#[test]
fn bad_input_keeps_the_last_good_position() {
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\nforce\nusermove e2e4");
    let fen = t.fen();
    let cases = [
        ("frobnicate", "Error (unknown command): frobnicate"),
        ("usermove e2e5", "Illegal move (not legal here): e2e5"),
        ("usermove zz", "Illegal move (not a move): zz"),
        ("e7e4", "Illegal move (not legal here): e7e4"),
        ("exit", "Error (command not legal now): exit"),
        ("ping x", "Error (bad ping number): ping x"),
    ];
    for (line, answer) in cases {
        let lines = t.send(line);
        assert_eq!(lines, vec![answer.to_string()], "{line}");
        assert_eq!(t.fen(), fen, "{line}");
    }
    let lines = t.send("variant nowhere");
    assert!(
        lines[0].starts_with("Error (unknown variant; known: normal, deathmatch")
            && lines[0].ends_with("): variant nowhere"),
        "{lines:?}"
    );
    assert_eq!(t.fen(), fen);
    let lines = t.send("setboard 9/8/8/8/8/8/8/8 w - - 0 1");
    assert!(lines[0].starts_with("Error (bad FEN: "), "{lines:?}");
    assert_eq!(lines[1], "tellusererror Illegal position");
    assert_eq!(t.fen(), fen);
    // undo past the start is refused.
    t.send("undo");
    let lines = t.send("undo");
    assert_eq!(lines, vec!["Error (command not legal now): undo"]);
    assert_eq!(t.fen(), CHESS_START);
    // A bare move without `usermove` (a GUI that did not accept the feature) is still read.
    assert!(t.send("d2d4").is_empty());
    assert!(t.fen().starts_with("rnbqkbnr/pppppppp/8/8/3P4/"));
    t.alive(11);
}

#[test]
fn game_end_is_claimed_when_the_engine_is_mated_or_mates() {
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\nforce");
    // Fool's mate: White to move after Black's mate; the engine (White) claims the result.
    t.send("usermove f2f3\nusermove e7e5\nusermove g2g4\nusermove d8h4");
    let lines = t.send("go");
    assert_eq!(lines, vec!["0-1 {Black mates}"]);
    // The engine mates: the move, then the result.
    t.send("new\nforce\nusermove f2f3\nusermove e7e5\nusermove g2g4\nsd 3\ngo");
    let lines = t.wait("0-1");
    assert_eq!(engine_move(&lines), "d8h4");
    assert!(has(&lines, "0-1 {Black mates}"), "{lines:?}");
}

#[test]
fn draw_offers_are_answered_by_their_value() {
    let mut t = Transcript::start();
    // No score yet: a draw offer is ignored.
    t.send("xboard\nprotover 2\nnew\nforce");
    assert!(t.send("draw").is_empty());
    // A lost position (the engine, White, is a queen down): the draw is accepted.
    t.send("setboard 3qk3/8/8/8/8/8/8/4K3 w - - 0 1\nsd 4\ngo");
    t.wait("move ");
    assert_eq!(t.send("draw"), vec!["offer draw"]);
    // A won position: declined (nothing said).
    t.send("new\nforce\nsetboard 3QK3/8/8/8/8/8/8/4k3 w - - 0 1\nsd 4\ngo");
    t.wait("move ");
    assert!(t.send("draw").is_empty());
    // Payoff system: one draw offer per game, by either side. The lost engine offers its
    // draw with its move; the opponent's later offer is then declined.
    t.send("new\noption Scoring=magi-12\nforce\nsetboard 3qk3/8/8/8/8/8/8/4K3 w - - 0 1\nsd 4\ngo");
    let lines = t.wait("move ");
    let offer = lines
        .iter()
        .position(|l| l == "offer draw")
        .expect("a draw offer");
    let mv = lines.iter().position(|l| l.starts_with("move ")).unwrap();
    assert!(offer < mv, "{lines:?}");
    let lines = t.send("draw");
    assert!(has(&lines, "one draw offer"), "{lines:?}");
    // An offer from the opponent first: accepted (6 of 12 beats a lost game), and no more.
    t.send(
        "new\nforce\nsetboard 3qk3/8/8/8/8/8/8/4K3 w - - 0 1\nsd 4\noption Scoring=standard\ngo",
    );
    t.wait("move ");
    t.send("option Scoring=magi-12");
    assert_eq!(t.send("draw"), vec!["offer draw"]);
    let lines = t.send("draw");
    assert!(has(&lines, "one draw offer"), "{lines:?}");
}

#[test]
fn payoff_resignation_and_draw_offer_follow_the_bands() {
    // RULES.md §2.5: the value of an accepted resignation by move number.
    let values: Vec<u32> = [1, 45, 46, 60, 61, 75, 76, 90, 91, 119, 120, 200]
        .iter()
        .map(|&n| resignation_value(n))
        .collect();
    assert_eq!(values, vec![12, 12, 11, 11, 10, 10, 9, 9, 8, 8, 7, 7]);
    // Resigning in the first band keeps nothing: never worth it.
    assert!(!resign_now(Score::Mate(-3), 30));
    // Later, a lost game is resigned (it keeps 1 point or more), a close one is not.
    assert!(resign_now(Score::Mate(-3), 50));
    assert!(resign_now(Score::Centipawns(-900), 80));
    assert!(!resign_now(Score::Centipawns(-100), 80));
    assert!(expected_share(Score::Centipawns(0)) > 0.49);
    assert!(expected_share(Score::Mate(2)) == 1.0);

    // The engine, badly lost at move 50 in payoff mode, resigns instead of moving.
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\noption Scoring=magi-12\nforce");
    t.send("setboard 3qk3/3r4/8/8/8/8/8/4K3 w - - 0 50\nsd 5\ngo");
    let lines = t.wait("resign");
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    // In standard scoring it plays on.
    t.send(
        "new\noption Scoring=standard\nforce\nsetboard 3qk3/3r4/8/8/8/8/8/4K3 w - - 0 50\nsd 5\ngo",
    );
    let lines = t.wait("move ");
    assert!(!has(&lines, "resign"), "{lines:?}");
}

#[test]
fn swap_in_forms_and_moves_xboard_cannot_check() {
    let registry = Registry::builtin();
    let dm = registry.get("deathmatch").unwrap();
    let pos = AnyPosition::from_fen(
        dm,
        Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
    )
    .unwrap();
    with_position!(&pos, p => {
        // The swap on f1 goes out as a two-leg move through an empty neighbour, and both
        // forms are read back.
        let swap = parse_xboard(p, "f1f1m", 1).unwrap();
        assert_eq!(to_xboard(p, swap, 1), "f1e2,e2f1m");
        assert_eq!(parse_xboard(p, "f1e2,e2f1m", 1).unwrap(), swap);
        assert!(parse_xboard(p, "f1e2,e2f1q", 1).is_err());
        assert!(parse_xboard(p, "f1d3,d3f1m", 1).unwrap() == swap);
        assert!(!xboard_checkable(p, swap, None));
        let plain = parse_xboard(p, "g1f3", 1).unwrap();
        assert!(xboard_checkable(p, plain, None));
    });
    // Home-File Transference (a1 to h1) is not a move XBoard can check.
    let pos = AnyPosition::from_fen(dm, Some("4k3/8/8/8/8/8/8/M3K3 w - - 0 1")).unwrap();
    with_position!(&pos, p => {
        let t = parse_xboard(p, "a1h1", 1).unwrap();
        assert!(!xboard_checkable(p, t, None));
        let diagonal = parse_xboard(p, "a1b2", 1).unwrap();
        assert!(xboard_checkable(p, diagonal, None));
    });
    // Through the session: the swap read in XBoard's two-leg form.
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\nvariant deathmatch\nforce\nusermove e2e4\nusermove e7e5");
    assert!(t.send("usermove f1e2,e2f1m").is_empty());
    assert!(
        t.fen()
            .starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKMNR b"),
        "{}",
        t.fen()
    );
    // With "Only XBoard moves" the engine's moves are all plain ones.
    t.send("option Only XBoard moves=1\nsd 3\ngo");
    let m = engine_move(&t.wait("move "));
    assert!(!m.contains(',') && m[..2] != m[2..4], "{m}");
}

#[test]
fn magi_en_passant_onto_the_origin_square_is_not_for_xboard() {
    // RULES.md §2.3: after the unmoved d8 pawn steps to d7, the c7 pawn may take it e.p. on
    // d8, the square it came from; XBoard only knows the squares a pawn passed.
    let registry = Registry::builtin();
    let magi = registry.get("magi").unwrap();
    let start =
        AnyPosition::from_fen(magi, Some("5k4/10/3p6/2P7/10/10/10/10/10/5K4 b - - 0 1")).unwrap();
    let game = magus::game::Game::from_moves(start, &["d8d7"], 1).unwrap();
    let last_from = game.moves().last().map(|m| m.from());
    with_position!(game.position(), p => {
        let ep = parse_xboard(p, "c7d8", 1).expect("e.p. onto the origin square");
        assert!(!xboard_checkable(p, ep, last_from));
        let plain = parse_xboard(p, "c7c8", 1).unwrap();
        assert!(xboard_checkable(p, plain, last_from));
    });
}

#[test]
fn en_passant_from_the_middle_rank_of_an_odd_board_is_not_for_xboard() {
    // XBoard 4.9 takes a diagonal pawn step to an empty square as e.p. only from the
    // capturer's far half (Black: rank index below ranks / 2). On the 7-rank Magician Chess
    // board Black's b4xc3 starts on index 3, so XBoard moved the pawn and left c4 standing.
    let registry = Registry::builtin();
    let relayable = |variant: &str, fen: &str, double_step: &str, capture: &str| {
        let start = AnyPosition::from_fen(registry.get(variant).unwrap(), Some(fen)).unwrap();
        let game = magus::game::Game::from_moves(start, &[double_step], 1).unwrap();
        let last_from = game.moves().last().map(|m| m.from());
        with_position!(game.position(), p => {
            let ep = parse_xboard(p, capture, 1).expect("an e.p. capture");
            assert_eq!(ep.kind(), magus::board::MoveKind::EnPassant, "{capture}");
            xboard_checkable(p, ep, last_from)
        })
    };
    let mc = "magician-chess";
    assert!(!relayable(
        mc,
        "3k3/3*3/*5*/*p1*2*/*5*/2P*3/3K3 w - - 0 1",
        "c2c4",
        "b4c3"
    ));
    assert!(relayable(
        mc,
        "3k3/2p*3/*5*/*P1*2*/*5*/3*3/3K3 b - - 0 1",
        "c6c4",
        "b4c5"
    ));
    // On an even board both colours' e.p. captures go through.
    assert!(relayable(
        "chess",
        "4k3/8/8/8/1p6/8/2P5/4K3 w - - 0 1",
        "c2c4",
        "b4c3"
    ));
    assert!(relayable(
        "chess",
        "4k3/2p5/8/1P6/8/8/8/4K3 b - - 0 1",
        "c7c5",
        "b5c6"
    ));
}

#[test]
fn magician_chess_holes_castling_and_promotion_go_to_xboard_spells_do_not() {
    // XBoard 4.9.1 draws the holes (`*` in the setup FEN) as dark squares, refuses moves onto
    // them, castles d1b1/d1f1 and promotes to C, S, W; it refuses every spell form (d4e4,
    // d4e4x) even without legality testing (docs/xboard.md).
    let registry = Registry::builtin();
    let mc = registry.get("magician-chess").unwrap();
    let lines = variant_definition(mc);
    assert_eq!(
        lines[0],
        "setup (PN.R.W..CM.........S.Kpn.r.w..cm.........s.k) 7x7+0_fairy \
         rmnknmr/ppp*ppp/*5*/*2*2*/*5*/PPP*PPP/RMNKNMR w KQkq - 0 1"
    );
    assert!(lines.contains(&"piece K& KisO2".to_string()), "{lines:?}");
    assert!(
        lines.contains(&"piece P& fmWfceFifmW2".to_string()),
        "{lines:?}"
    );
    let pos = AnyPosition::from_fen(
        mc,
        Some("r1nknmr/ppp*ppp/*2m2*/*2*2*/*3M1*/PPP*PPP/RMNKN1R w KQkq - 3 2"),
    )
    .unwrap();
    with_position!(&pos, p => {
        for spell in ["d4e4", "d2c2", "d4d5x"] {
            let m = parse_xboard(p, spell, 1).unwrap();
            assert_eq!(to_xboard(p, m, 1), spell);
            assert!(!xboard_checkable(p, m, None), "{spell}");
        }
        for plain in ["e3e4", "c1b3", "b2b4"] {
            let m = parse_xboard(p, plain, 1).unwrap();
            assert!(xboard_checkable(p, m, None), "{plain}");
        }
        // What XBoard relays for a pawn moved onto a hole without legality testing
        // (`c2d2`, shown as c2xd2, the hole gone) is no move of ours.
        assert!(parse_xboard(p, "c2d2", 1).is_err());
    });
    // Castling and promotion as XBoard relays them.
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\nvariant magician-chess\nforce");
    for m in ["c1b3", "c6c5", "b1d3", "e6e5"] {
        assert!(t.send(&format!("usermove {m}")).is_empty(), "{m}");
    }
    let castling = t.send("usermove d1b1");
    assert!(castling.is_empty(), "{castling:?}");
    assert!(t.fen().contains("/1KR1NMR b"), "{}", t.fen());
    t.send("new\nvariant magician-chess\nforce");
    for m in ["c2c4", "f6f5", "c4c5", "e6e5", "c5b6", "e5e4"] {
        assert!(t.send(&format!("usermove {m}")).is_empty(), "{m}");
    }
    assert!(t.send("usermove b6a7s").is_empty());
    assert!(t.fen().starts_with("Smnknmr/"), "{}", t.fen());
    // A spell is refused in every form XBoard could relay, and the engine plays none with
    // "Only XBoard moves".
    assert!(has(&t.send("usermove c2d2"), "Illegal move"));
    t.send("new\nvariant magician-chess\nforce\nsetboard r1nknmr/ppp*ppp/*2m2*/*2*2*/*3M1*/PPP*PPP/RMNKN1R w KQkq - 3 2\noption Only XBoard moves=1\nsd 3\ngo");
    let m = engine_move(&t.wait("move "));
    with_position!(&pos, p => {
        let m = parse_xboard(p, &m, 1).unwrap();
        assert!(xboard_checkable(p, m, None), "{m:?}");
    });
}

#[test]
fn royal_magician_moves_with_a_drop_are_not_for_xboard() {
    // XBoard 4.9.1 takes `e3d4,n@c5` but keeps only its first leg: it shows and relays
    // `e3d4`, the drop lost; a drop as a move of its own (`N@c5`) is refused (no holdings).
    let registry = Registry::builtin();
    let rm = registry.get("royal-magician").unwrap();
    let fen = "rnbmkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBM1BNR[KBNR,MBNR,kbnr,mbnr] w kq - 0 1";
    let pos = AnyPosition::from_fen(rm, Some(fen)).unwrap();
    with_position!(&pos, p => {
        let drop = parse_xboard(p, "e3d4,n@c5", 1).unwrap();
        assert_eq!(to_xboard(p, drop, 1), "e3d4,n@c5");
        assert!(!xboard_checkable(p, drop, None));
        // What XBoard relays of it is not a legal move: the drop is part of the move.
        assert!(parse_xboard(p, "e3d4", 1).is_err());
        for plain in ["e3d3", "e3f3", "d2d4", "g1f3"] {
            let m = parse_xboard(p, plain, 1).unwrap();
            assert!(xboard_checkable(p, m, None), "{plain}");
        }
    });
    let mut t = Transcript::start();
    let lines = t.send("xboard\nprotover 2\nnew\nvariant royal-magician\nforce");
    assert!(has(
        &lines,
        "setup (PNBRQ....M...........Kpnbrq....m...........k) 8x8+0_fairy"
    ));
    assert!(has(&lines, "piece M& K"));
    // XBoard sends the start FEN back without the reserves: every carrier keeps its own.
    t.send("setboard rnbmkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR w KQkq - 0 1");
    for m in ["e2e4", "g8f6", "e1e2", "f6g8", "e2e3", "g8f6"] {
        assert!(t.send(&format!("usermove {m}")).is_empty(), "{m}");
    }
    assert!(has(&t.send("usermove e3d4"), "Illegal move"));
    assert!(has(&t.send("usermove N@c5"), "Illegal move"));
    assert!(t.send("usermove e3d4,n@c5").is_empty());
    assert!(
        t.fen().starts_with("rnbmkb1r/pppppppp/5n2/2N5/3KP3/"),
        "{}",
        t.fen()
    );
    // With "Only XBoard moves" the engine never makes a move with a drop.
    t.send(&format!(
        "new\nvariant royal-magician\nforce\nsetboard {fen}\noption Only XBoard moves=1\nsd 3\ngo"
    ));
    let m = engine_move(&t.wait("move "));
    assert!(!m.contains(','), "{m}");
}

/// With "Only XBoard moves", a side whose every legal move is one XBoard would forfeit (here a
/// King in a spell's check, whose answers are all spells) resigns instead of moving; without
/// the option it plays a spell.
#[test]
fn with_only_xboard_moves_a_side_with_none_resigns() {
    let fen = "2mk1r1/p2*1P1/*1p1M1*/*1P*2*/*3M1*/2K*1RP/6r b - - 25 75";
    let registry = Registry::builtin();
    let pos = AnyPosition::from_fen(registry.get("magician-chess").unwrap(), Some(fen)).unwrap();
    with_position!(&pos, p => {
        let legal = p.legal_moves();
        assert!(!legal.is_empty());
        assert!(legal.iter().all(|&m| !xboard_checkable(p, m, None)));
    });
    let mut t = Transcript::start();
    t.send(&format!(
        "xboard\nprotover 2\nnew\nvariant magician-chess\nforce\nsetboard {fen}\nsd 3"
    ));
    t.send("option Only XBoard moves=1\ngo");
    let lines = t.wait("resign");
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");

    let mut t = Transcript::start();
    t.send(&format!(
        "xboard\nprotover 2\nnew\nvariant magician-chess\nforce\nsetboard {fen}\nsd 3"
    ));
    // With every move allowed (for referees that relay them all), it plays a spell.
    t.send("option Only XBoard moves=0\ngo");
    let lines = t.wait("move ");
    assert!(!lines.iter().any(|l| l == "resign"), "{lines:?}");
}

/// The squares of a `highlight` answer, named as the engine names them (ranks from 1), with
/// their colour letters.
fn marked(lines: &[String], files: usize, ranks: usize) -> Vec<(String, char)> {
    let board = lines
        .iter()
        .find_map(|l| l.strip_prefix("highlight "))
        .unwrap_or_else(|| panic!("no highlight in {lines:?}"));
    let rows: Vec<&str> = board.split('/').collect();
    assert_eq!(rows.len(), ranks, "{board}");
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = ranks - i;
        let mut file = 0;
        let mut digits = String::new();
        for c in row.chars().chain(std::iter::once('/')) {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                file += digits.parse::<usize>().unwrap();
                digits.clear();
            }
            if c != '/' {
                out.push((format!("{}{rank}", (b'a' + file as u8) as char), c));
                file += 1;
            }
        }
        assert_eq!(file, files, "row {row} of {board}");
    }
    out.sort();
    out
}

fn squares(marks: &[(String, char)], colour: char) -> Vec<String> {
    marks
        .iter()
        .filter(|(_, c)| *c == colour)
        .map(|(s, _)| s.clone())
        .collect()
}

#[test]
fn lift_marks_the_legal_targets_of_the_piece() {
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\nforce");
    assert_eq!(t.send("lift e2"), vec!["highlight 8/8/8/8/4Y3/4Y3/8/8"]);
    assert_eq!(t.send("lift g1"), vec!["highlight 8/8/8/8/8/5Y1Y/8/8"]);
    // A piece of the side not to move, and an empty square: nothing may be entered.
    assert_eq!(t.send("lift e7"), vec!["highlight 8/8/8/8/8/8/8/8"]);
    assert_eq!(t.send("lift e4"), vec!["highlight 8/8/8/8/8/8/8/8"]);
    // `put` and `hover` need no answer; a bad square is an error.
    assert!(t.send("put e4\nhover e5").is_empty());
    assert_eq!(t.send("lift z99"), vec!["Error (bad square): lift z99"]);
    // Captures are red, promotions magenta.
    t.send("setboard 3qk3/4P3/8/8/8/8/8/4K3 w - - 0 1");
    let marks = marked(&t.send("lift e7"), 8, 8);
    assert_eq!(squares(&marks, 'M'), vec!["d8"], "{marks:?}");
    // In every variant's start, each piece's marks are the targets of its legal moves (none
    // of which is a two-leg one there but the swap-in).
    let registry = Registry::builtin();
    for v in registry.all() {
        let name = if v.name == "chess" { "normal" } else { &v.name };
        t.send(&format!("new\nvariant {name}\nforce"));
        let pos = AnyPosition::from_fen(v, None).unwrap();
        let first = first_rank(v.ranks);
        with_position!(&pos, p => {
            let dims = p.layout().dims;
            for from in (0..dims.squares()).map(|i| magus::board::Square::new(i as u8)) {
                if p.piece_at(from).is_none_or(|pc| pc.color() != p.side()) {
                    continue;
                }
                let lines = t.send(&format!("lift {}", dims.name_from(from, first)));
                let marks = marked(&lines, dims.files as usize, dims.ranks as usize);
                let mut expected: Vec<String> = p
                    .legal_moves()
                    .iter()
                    .filter(|m| m.from() == from && m.kind() != magus::board::MoveKind::SwapIn)
                    .map(|m| dims.name(m.to()))
                    .collect();
                expected.sort();
                expected.dedup();
                let mut got: Vec<String> =
                    marks.iter().filter(|(_, c)| *c != 'C').map(|(s, _)| s.clone()).collect();
                got.dedup();
                assert_eq!(got, expected, "{} {}", v.name, dims.name(from));
            }
        });
    }
    t.alive(1);
}

#[test]
fn transference_is_marked_and_entered_as_a_plain_move() {
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\nvariant deathmatch\nforce");
    t.send("setboard 4k3/8/8/8/8/8/8/M3K3 w - - 0 1");
    let marks = marked(&t.send("lift a1"), 8, 8);
    assert!(marks.contains(&("h1".into(), 'Y')), "{marks:?}");
    assert!(t.send("put h1\nusermove a1h1").is_empty());
    assert!(t.fen().starts_with("4k3/8/8/8/8/8/8/4K2M b"), "{}", t.fen());
}

#[test]
fn the_swap_in_is_entered_out_and_back_in_both_colours() {
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\nvariant deathmatch\nforce");
    t.send("setboard 4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
    // Not marked unless asked for: with legality testing XBoard would keep the Bishop.
    let marks = marked(&t.send("lift c1"), 8, 8);
    assert!(squares(&marks, 'C').is_empty(), "{marks:?}");
    assert!(t.send("option Mark swap-ins=1").is_empty());
    // White: out to the empty c2 (no Bishop move goes there), back onto c1 as a Magician.
    let marks = marked(&t.send("lift c1"), 8, 8);
    assert_eq!(squares(&marks, 'C'), vec!["c2"], "{marks:?}");
    assert!(
        squares(&marks, 'Y').contains(&"d2".to_string()),
        "{marks:?}"
    );
    let lines = t.send("put c2\nlift c2");
    assert_eq!(lines[0], "choice M");
    assert_eq!(marked(&lines, 8, 8), vec![("c1".to_string(), 'M')]);
    assert!(t.send("put c1\nusermove c1c2,c2c1m").is_empty());
    assert!(
        t.fen().starts_with("4k3/8/8/8/8/8/8/2M1K3 b"),
        "{}",
        t.fen()
    );
    // A plain Bishop move still ends on its square: a lift after another put starts afresh.
    t.send("setboard 4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
    t.send("lift c1");
    let marks = marked(&t.send("put d2\nlift d2"), 8, 8);
    assert!(
        marks.is_empty(),
        "d2 is no first leg: nothing of White's there: {marks:?}"
    );
    // Black: XBoard rewrites the two legs as if castling (`c8c8,c7b8`); read as the swap-in.
    t.send("setboard 2b1k3/8/8/8/8/8/8/4K3 b - - 0 1");
    let marks = marked(&t.send("lift c8"), 8, 8);
    assert_eq!(squares(&marks, 'C'), vec!["c7"], "{marks:?}");
    assert!(t.send("usermove c8c8,c7b8").is_empty());
    assert!(t.fen().starts_with("2m1k3/"), "{}", t.fen());
    // The form XBoard relays from an engine's Black swap-in (docs/xboard.md) too.
    t.send("setboard 2b1k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert!(t.send("usermove c8c8,d7b8").is_empty());
    assert!(t.fen().starts_with("2m1k3/"), "{}", t.fen());
    // Not a swap-in: the out square is taken, or the piece cannot swap.
    t.send("setboard 2b1k3/2p5/8/8/8/8/8/4K3 b - - 0 1");
    assert!(has(&t.send("usermove c8c8,c7b8"), "Illegal move"));
    t.send("setboard 2n1k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert!(has(&t.send("usermove c8c8,c7b8"), "Illegal move"));
    assert_eq!(t.fen(), "2n1k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn magi_en_passant_onto_the_origin_square_is_entered_through_the_pawn_taken() {
    // RULES.md §2.3: after d8-d7 (an unmoved d8 pawn), c7xd8 e.p. takes it. XBoard counts
    // Magi's ranks from 0: d8 is its d7.
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\nvariant magi\nforce");
    t.send("setboard 5k4/10/3p6/2P7/10/10/10/10/10/5K4 b - - 0 1");
    assert!(t.send("usermove d7d6").is_empty());
    let marks = marked(&t.send("lift c6"), 10, 10);
    // The pawn taken is the first leg; the landing square is not marked for one leg, so
    // XBoard cannot take the move without removing the pawn.
    assert_eq!(squares(&marks, 'C'), vec!["d7"], "{marks:?}");
    assert!(!marks.iter().any(|(s, _)| s == "d8"), "{marks:?}");
    let marks = marked(&t.send("put d6\nlift d6"), 10, 10);
    assert_eq!(marks, vec![("d8".to_string(), 'Y')]);
    assert!(t.send("put d7\nusermove c6d6,d6d7").is_empty());
    assert!(
        t.fen().starts_with("5k4/10/3P6/10/10/"),
        "the pawn taken is gone: {}",
        t.fen()
    );
}

#[test]
fn hint_gives_the_reply_the_engine_expects() {
    let mut t = Transcript::start();
    t.send("xboard\nprotover 2\nnew\nsd 4\nusermove e2e4");
    t.wait("move ");
    let lines = t.send("hint");
    let hint = lines
        .iter()
        .find_map(|l| l.strip_prefix("Hint: "))
        .unwrap_or_else(|| panic!("no hint: {lines:?}"));
    let pos = *t.session.game().position();
    assert!(pos.after_wire(hint, 1).is_ok(), "{hint} is not legal here");
    // With no move made yet there is nothing to expect.
    assert!(t.send("new\nhint").is_empty());
}

#[test]
fn help_lists_the_commands_as_comments() {
    let mut t = Transcript::start();
    let lines = t.send("help");
    assert!(lines.len() > 5, "{lines:?}");
    assert!(lines.iter().all(|l| l.starts_with("# ")), "{lines:?}");
    assert!(
        has(&lines, "usermove") && has(&lines, "magus play"),
        "{lines:?}"
    );
    t.alive(1);
}

#[test]
fn strength_options_weaken_the_search() {
    let mut t = Transcript::start();
    let lines = t.send("xboard\nprotover 2");
    for option in [
        "feature option=\"Skill Level -spin 20 0 20\"",
        "feature option=\"Limit Strength -check 0\"",
        "feature option=\"Elo -spin 1500 1000 2080\"",
    ] {
        assert!(has(&lines, option), "{option}: {lines:?}");
    }
    let lines = t.send("option Skill Level=25\nping 1");
    assert!(lines.iter().any(|l| l.starts_with("Error")), "{lines:?}");
    // Level 0 searches one ply whatever the depth asked for.
    t.send("new\npost\nsd 5\noption Skill Level=0\nusermove e2e4");
    let lines = t.wait("move ");
    let depths: Vec<i32> = lines
        .iter()
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert!(!depths.is_empty(), "{lines:?}");
    assert!(depths.iter().all(|&d| d == 1), "{lines:?}");
    // Back to full strength: the depth asked for.
    t.send("force\noption Skill Level=20\nnew\npost\nsd 5\nusermove e2e4");
    let lines = t.wait("move ");
    assert!(
        lines
            .iter()
            .any(|l| l.split_whitespace().next() == Some("5")),
        "{lines:?}"
    );
}

/// XBoard sets its options before `new` and `variant`: a net for Magi set while the engine
/// still plays chess waits for Magi, said in a comment, and plays once `variant magi` comes
/// (the search then scores with it: `eval` is not XBoard's, so the depth-1 score of the
/// Magi start position is compared with the hand-made one's).
#[test]
fn a_net_set_before_its_variant_waits_for_it() {
    use magus::eval::nnue::FeatureSet;
    use magus::tune::train::model::{Model, Shape};
    let registry = Registry::builtin();
    let magi = AnyPosition::from_fen(registry.get("magi").unwrap(), None).unwrap();
    let net = with_position!(&magi, p => {
        let set = FeatureSet::of(p.layout());
        Model::new(Shape::of(&set, 32), 5).quantise("magi", &set)
    });
    let dir = std::env::temp_dir().join(format!("magus-xb-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("magi.nnue");
    std::fs::write(&path, net.to_bytes()).unwrap();
    let score_at_depth_one = |options: &str| {
        let mut t = Transcript::start();
        t.send("xboard\nprotover 2");
        let said = t.send(options);
        t.send("new\nvariant magi\nforce\npost\nsd 1\ngo");
        let lines = t.wait("move ");
        let score = lines
            .iter()
            .filter_map(|l| l.split_whitespace().nth(1)?.parse::<i32>().ok())
            .next_back()
            .unwrap_or_else(|| panic!("no thinking output in {lines:?}"));
        (said, score)
    };
    let (said, with_net) = score_at_depth_one(&format!("option EvalFile={}", path.display()));
    assert!(
        said.len() == 1
            && said[0].starts_with("# EvalFile: ")
            && said[0].contains("a net for magi; it plays when the variant is magi"),
        "{said:?}"
    );
    let (_, hand_made) = score_at_depth_one("option Evaluation=hce");
    assert_ne!(
        with_net, hand_made,
        "the waiting net should score Magi's start"
    );
    std::fs::remove_dir_all(&dir).ok();
}
