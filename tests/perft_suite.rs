//! The reference perft counts of `tests/data/perft-suite.txt` (a copy of the shared oracle,
//! see its header), every line at every depth it gives. One test per position so that they
//! run in parallel; the deepest (chess start at depth 6, Kiwipete at depth 5) take a second
//! or two each in `cargo test --release`.
//!
//! Nothing is skipped: a line whose variant is not built in fails, and every built-in variant
//! (read from the registry, so a new one is included at once) must have lines in the suite
//! unless [`NOT_IN_THE_ORACLE`] says why it has none.

mod common;

use magus::game::AnyPosition;

const SUITE: &str = include_str!("data/perft-suite.txt");

/// One line of the suite: `variant ; FEN or startpos ; depth=nodes ...`.
struct Line {
    number: usize,
    variant: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn suite() -> Vec<Line> {
    let mut lines = Vec::new();
    for (i, text) in SUITE.lines().enumerate() {
        let text = text.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = text.split(';').map(str::trim).collect();
        assert_eq!(fields.len(), 3, "line {}: three fields expected", i + 1);
        let counts: Vec<(u32, u64)> = fields[2]
            .split_whitespace()
            .map(|pair| {
                let (d, n) = pair
                    .split_once('=')
                    .unwrap_or_else(|| panic!("line {}: '{pair}' is not depth=nodes", i + 1));
                (d.parse().unwrap(), n.parse().unwrap())
            })
            .collect();
        assert!(!counts.is_empty(), "line {}: no counts", i + 1);
        lines.push(Line {
            number: i + 1,
            variant: fields[0].to_string(),
            fen: fields[1].to_string(),
            counts,
        });
    }
    lines
}

/// A test's position: the variant and the start of the FEN field (unique in the suite).
type Selector = (&'static str, &'static str);

const CHESS_START: Selector = ("chess", "startpos");
const CHESS_KIWIPETE: Selector = ("chess", "r3k2r/p1ppqpb1/");
const CHESS_POSITION_3: Selector = ("chess", "8/2p5/3p4/KP5r/");
const CHESS_POSITION_4: Selector = ("chess", "r3k2r/Pppp1ppp/");
const CHESS_POSITION_4_MIRRORED: Selector = ("chess", "r2q1rk1/pP1p2pp/");
const CHESS_POSITION_5: Selector = ("chess", "rnbq1k1r/pp1Pbppp/");
const CHESS_POSITION_6: Selector = ("chess", "r4rk1/1pp1qppp/");
const MAGI_START: Selector = ("magi", "startpos");
const MAGICIAN_CHESS_START: Selector = ("magician-chess", "startpos");
const ROYAL_MAGICIAN_START: Selector = ("royal-magician", "startpos");
const DEATHMATCH_ARRAY: Selector = ("deathmatch", "rnmqk1nr/");
const DEATHMATCH_ENDGAME: Selector = ("deathmatch", "4k3/8/3t4/");
const DEATHMATCH_MIDDLEGAME: Selector = ("deathmatch", "r3k2r/pp1h1ppp/");

const ALL: &[Selector] = &[
    CHESS_START,
    CHESS_KIWIPETE,
    CHESS_POSITION_3,
    CHESS_POSITION_4,
    CHESS_POSITION_4_MIRRORED,
    CHESS_POSITION_5,
    CHESS_POSITION_6,
    MAGI_START,
    MAGICIAN_CHESS_START,
    ROYAL_MAGICIAN_START,
    DEATHMATCH_ARRAY,
    DEATHMATCH_ENDGAME,
    DEATHMATCH_MIDDLEGAME,
];

/// Built-in variants the shared oracle has no counts for, and what pins their move generation
/// instead. Every other built-in variant must have suite lines.
const NOT_IN_THE_ORACLE: &[(&str, &str)] = &[(
    "deathmatch-legacy",
    "shared/oracle has no counts for the legacy rules; tests/deathmatch.rs pins them rule by \
     rule and tests/random_play.rs compares its move lists with a reference generator",
)];

fn matches(line: &Line, (variant, fen): Selector) -> bool {
    line.variant == variant && line.fen.starts_with(fen)
}

fn run(selector: Selector) {
    let lines = suite();
    let line = match lines
        .iter()
        .filter(|l| matches(l, selector))
        .collect::<Vec<_>>()[..]
    {
        [line] => line,
        ref found => panic!("{selector:?} matches {} suite lines", found.len()),
    };
    let variant = common::registry().get(&line.variant).unwrap_or_else(|| {
        panic!(
            "perft suite line {}: variant '{}' is not built in",
            line.number, line.variant
        )
    });
    let fen = (line.fen != "startpos").then_some(line.fen.as_str());
    let pos = AnyPosition::from_fen(variant, fen)
        .unwrap_or_else(|e| panic!("line {}: FEN refused: {e}", line.number));
    for &(depth, expected) in &line.counts {
        let nodes = pos.perft(depth);
        assert_eq!(
            nodes, expected,
            "suite line {} ({} {}): perft({depth})",
            line.number, line.variant, line.fen
        );
    }
}

#[test]
fn every_suite_line_is_covered_by_exactly_one_test() {
    let lines = suite();
    assert!(lines.len() >= ALL.len());
    for line in &lines {
        let covering = ALL.iter().filter(|&&s| matches(line, s)).count();
        assert_eq!(
            covering, 1,
            "suite line {} ({} {}) is covered by {covering} tests: add one",
            line.number, line.variant, line.fen
        );
    }
    for &selector in ALL {
        let n = lines.iter().filter(|l| matches(l, selector)).count();
        assert_eq!(n, 1, "{selector:?} matches {n} suite lines");
    }
}

#[test]
fn every_built_in_variant_has_suite_lines() {
    let lines = suite();
    for name in common::registry().names() {
        let count = lines.iter().filter(|l| l.variant == name).count();
        let exempt = NOT_IN_THE_ORACLE.iter().find(|(n, _)| *n == name);
        match exempt {
            None => assert!(
                count > 0,
                "built-in variant '{name}' has no line in the perft suite: add reference counts \
                 (or say in NOT_IN_THE_ORACLE why there are none)"
            ),
            Some((_, why)) => assert_eq!(
                count, 0,
                "'{name}' has suite lines now: take it out of NOT_IN_THE_ORACLE ({why})"
            ),
        }
    }
    for (name, _) in NOT_IN_THE_ORACLE {
        assert!(
            common::registry().get(name).is_some(),
            "NOT_IN_THE_ORACLE names '{name}', which is not built in"
        );
    }
    for line in &lines {
        assert!(
            common::registry().get(&line.variant).is_some(),
            "perft suite line {}: variant '{}' is not built in",
            line.number,
            line.variant
        );
    }
}

#[test]
fn chess_start_position() {
    run(CHESS_START);
}

#[test]
fn chess_kiwipete() {
    run(CHESS_KIWIPETE);
}

#[test]
fn chess_position_3() {
    run(CHESS_POSITION_3);
}

#[test]
fn chess_position_4() {
    run(CHESS_POSITION_4);
}

#[test]
fn chess_position_4_mirrored() {
    run(CHESS_POSITION_4_MIRRORED);
}

#[test]
fn chess_position_5() {
    run(CHESS_POSITION_5);
}

#[test]
fn chess_position_6() {
    run(CHESS_POSITION_6);
}

#[test]
fn magi_start_position() {
    run(MAGI_START);
}

#[test]
fn magician_chess_start_position() {
    run(MAGICIAN_CHESS_START);
}

#[test]
fn royal_magician_start_position() {
    run(ROYAL_MAGICIAN_START);
}

#[test]
fn deathmatch_array_with_magicians() {
    run(DEATHMATCH_ARRAY);
}

#[test]
fn deathmatch_endgame_magician_high_priestess_telepath() {
    run(DEATHMATCH_ENDGAME);
}

#[test]
fn deathmatch_middlegame_with_castling() {
    run(DEATHMATCH_MIDDLEGAME);
}
