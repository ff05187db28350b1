//! Fairy-Stockfish's variants.ini as a second input format, and variant definitions sent over
//! UCI and XBoard (`load`, `check`, `VariantPath`).
//!
//! Every section of Fairy-Stockfish's own variants.ini (read from the shared anchors, never
//! copied into the project) either loads, with perft from its start agreeing with
//! Fairy-Stockfish's `go perft` (tests/data/fsf-variants-perft.txt), or is refused with every
//! problem naming its key and line.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use magus::game::{AnyPosition, check_variant};
use magus::protocol::Session;
use magus::protocol::uci::UciSession;
use magus::protocol::xboard::XboardSession;
use magus::variant::Registry;
use magus::variant::definitions::{Definition, Format};
use magus::variant::fsf::{ini, keys};

/// Fairy-Stockfish's variants.ini, beside the repository.
const ANCHOR: &str = "../shared/anchors/fairy-stockfish/variants.ini";
const PERFT_DATA: &str = include_str!("data/fsf-variants-perft.txt");
const ELEPHANTS: &str = include_str!("data/elephants.toml");

/// The anchor's text, or `None` (and "skipped") when it is not there; under CI its absence
/// fails.
fn anchor_text() -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(ANCHOR);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            assert!(std::env::var_os("CI").is_none(), "{}: {e}", path.display());
            println!("skipped: {} cannot be read ({e})", path.display());
            None
        }
    }
}

struct PerftLine {
    name: String,
    depth: u32,
    nodes: u64,
    fen: Option<String>,
}

fn perft_lines() -> Vec<PerftLine> {
    PERFT_DATA
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (head, fen) = match l.split_once(" fen ") {
                Some((h, f)) => (h, Some(f.to_string())),
                None => (l, None),
            };
            let w: Vec<&str> = head.split_whitespace().collect();
            assert_eq!(w.len(), 3, "bad data line {l:?}");
            PerftLine {
                name: w[0].to_string(),
                depth: w[1].parse().unwrap(),
                nodes: w[2].parse().unwrap(),
                fen,
            }
        })
        .collect()
}

fn load(registry: &mut Registry, text: &str) -> Vec<Definition> {
    registry.load_text(text, "variants.ini", Format::FsfIni, &check_variant)
}

/// The problems of a refused definition, as text.
fn refusal(d: &Definition) -> Vec<String> {
    match &d.outcome {
        Ok(_) => panic!("[{}] loaded; a refusal was expected", d.name),
        Err(problems) => problems.iter().map(|p| p.to_string()).collect(),
    }
}

#[test]
fn every_section_of_fairy_stockfishs_file_loads_or_is_refused_with_its_keys_named() {
    let Some(text) = anchor_text() else { return };
    let lines: Vec<&str> = text.lines().collect();
    let sections = ini::parse(&text);
    let mut registry = Registry::builtin();
    let definitions = load(&mut registry, &text);
    assert_eq!(
        definitions.iter().map(|d| &d.name).collect::<Vec<_>>(),
        sections.iter().map(|s| &s.name).collect::<Vec<_>>(),
        "one definition per section, in order"
    );

    // The sections that load are exactly those with perft data.
    let loaded: BTreeSet<&str> = definitions
        .iter()
        .filter(|d| d.outcome.is_ok())
        .map(|d| d.name.as_str())
        .collect();
    let data = perft_lines();
    let counted: BTreeSet<&str> = data.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        loaded, counted,
        "loaded sections vs. sections with perft data"
    );
    for name in &loaded {
        assert!(
            registry.get(name).is_some(),
            "[{name}] loaded but not listed"
        );
    }

    for (section, d) in sections.iter().zip(&definitions) {
        let Err(problems) = &d.outcome else { continue };
        assert!(!problems.is_empty(), "[{}] refused without a word", d.name);
        // The section's own lines: from its header to the next one.
        let end = sections
            .iter()
            .map(|s| s.line)
            .filter(|&l| l > section.line)
            .min()
            .unwrap_or(lines.len() + 1);
        for p in problems {
            let shown = p.to_string();
            assert_eq!(p.section.as_deref(), Some(d.name.as_str()), "{shown}");
            match (&p.key, p.line) {
                (Some(key), Some(line)) => {
                    // Placed on the line that gives the key, inside the section.
                    assert!(
                        line > section.line && line < end,
                        "{shown}: line outside the section"
                    );
                    assert!(
                        lines[line - 1].trim_start().starts_with(key.as_str()),
                        "{shown}: line {line} is {:?}",
                        lines[line - 1]
                    );
                }
                (Some(key), None) => {
                    // Inherited (the ancestor named, and it gives the key) or a default.
                    if let Some(rest) = p.message.split("(given in [").nth(1) {
                        let ancestor = rest.split(']').next().unwrap();
                        let given = sections
                            .iter()
                            .find(|s| s.name == ancestor)
                            .and_then(|s| s.get(key));
                        assert!(given.is_some(), "{shown}: [{ancestor}] does not give it");
                    } else {
                        assert!(
                            p.message.contains("Fairy-Stockfish's default"),
                            "{shown}: neither given nor a default"
                        );
                    }
                }
                (None, _) => assert!(
                    p.message.contains("parent") || p.message.contains("piece types"),
                    "{shown}: a problem with no key must be about the parent or the pieces"
                ),
            }
        }
        // Every key of the section that magus does not have yet, set away from its
        // default, is named.
        for e in &section.entries {
            let Some(k) = keys::lookup(&e.key) else {
                panic!("[{}] has key '{}' that is not in the table", d.name, e.key);
            };
            if k.status == keys::Status::Planned && k.default != Some(e.value.as_str()) {
                assert!(
                    problems
                        .iter()
                        .any(|p| p.key.as_deref() == Some(e.key.as_str())),
                    "[{}]: '{} = {}' is not named in {:#?}",
                    d.name,
                    e.key,
                    e.value,
                    refusal(d)
                );
            }
        }
        // A parent magus does not have is named.
        if let Some(parent) = &section.parent
            && parent != "chess"
            && !sections.iter().any(|s| &s.name == parent)
        {
            assert!(
                problems
                    .iter()
                    .any(|p| p.message.contains(&format!("parent '{parent}'"))),
                "[{}]: the parent '{parent}' is not named",
                d.name
            );
        }
    }
}

#[test]
fn perft_of_the_loaded_sections_agrees_with_fairy_stockfish() {
    let Some(text) = anchor_text() else { return };
    let mut registry = Registry::builtin();
    load(&mut registry, &text);
    for l in perft_lines() {
        let v = registry
            .get(&l.name)
            .unwrap_or_else(|| panic!("[{}] did not load", l.name));
        let pos = AnyPosition::from_fen(v, l.fen.as_deref())
            .unwrap_or_else(|e| panic!("[{}] {:?}: {e}", l.name, l.fen));
        assert_eq!(
            pos.perft(l.depth),
            l.nodes,
            "[{}] perft {} from {}",
            l.name,
            l.depth,
            l.fen.as_deref().unwrap_or("the start")
        );
    }
}

#[test]
fn a_section_inherits_its_parents_rules_and_may_change_them() {
    let text = "\
[base:chess]
castling = false
doubleStep = false
mustCapture = true

[child:base]
castling = true
doubleStep = true
mustCapture = false
pieceDrops = false

[grandchild:child]
doubleStepRegionWhite = *2
doubleStepRegionBlack = *7

[greatgrandchild:grandchild]
doubleStep = true
doubleStepRegionWhite = *2
doubleStepRegionBlack = *7
";
    let mut registry = Registry::builtin();
    let d = load(&mut registry, text);
    // The parent is refused for its compulsory captures, named with their line.
    assert_eq!(
        refusal(&d[0]),
        [
            "variants.ini: line 4 [base]: key 'mustCapture': 'true': compulsory captures is not in magus's rules yet (planned)"
        ]
    );
    // The child switches them off again (and a planned key at its default changes nothing).
    // As in Fairy-Stockfish, whose consistency step emptied the parent's double-step squares
    // with its flag off, neither `doubleStep = true` alone (child) nor the squares alone
    // (grandchild) bring double steps back: both are needed. Fairy-Stockfish counts 12, 12,
    // 12 and 20 first moves for these four sections.
    let child = d[1].outcome.as_ref().expect("the child loads");
    assert!(child.castling.is_some());
    let first_moves: Vec<u64> = ["child", "grandchild", "greatgrandchild"]
        .iter()
        .map(|n| {
            AnyPosition::from_fen(registry.get(n).unwrap(), None)
                .unwrap()
                .perft(1)
        })
        .collect();
    assert_eq!(first_moves, [12, 12, 20]);
    let pos = AnyPosition::from_fen(registry.get("greatgrandchild").unwrap(), None).unwrap();
    assert_eq!(pos.perft(3), 8902, "the great-grandchild is chess again");
}

/// Definitions of our own that stretch the translation: a sliding King, a knight-rider
/// written `NNN`, a nine-square wazir rider, no pawns, triple steps. Loaded, their perft agrees
/// with Fairy-Stockfish's, counted by hand with it (`go perft 3` after loading this file).
const ODD: &str = "\
[queenking:chess]
king = k:Q

[nightrider:chess]
customPiece1 = a:NNN
startFen = 4k3/8/8/8/8/8/8/A3K3 w - - 0 1

[longwazir:chess]
customPiece1 = a:W9
startFen = 4k3/8/8/8/8/8/8/A3K3 w - - 0 1

[pawnless:chess]
pawn = -
startFen = 4k3/8/8/8/8/8/8/4K3 w - - 0 1

[triplesteps:chess]
doubleStepRegionWhite = *1 *2 *3 *4 *5 *6 *7
doubleStepRegionBlack = *8 *7 *6 *5 *4 *3 *2
tripleStepRegionWhite = *2
tripleStepRegionBlack = *7
";

#[test]
fn odd_definitions_agree_with_fairy_stockfish() {
    let mut registry = Registry::builtin();
    for d in load(&mut registry, ODD) {
        assert!(d.outcome.is_ok(), "{:#?}", refusal(&d));
    }
    for (name, fen, nodes) in [
        ("queenking", None, 9094),
        (
            "queenking",
            Some("r3k2r/4p3/8/8/8/8/4P3/R3K2R w KQkq - 0 1"),
            29332,
        ),
        ("nightrider", None, 654),
        ("longwazir", None, 1242),
        ("pawnless", None, 170),
        ("triplesteps", None, 22315),
    ] {
        let pos = AnyPosition::from_fen(registry.get(name).unwrap(), fen).unwrap();
        assert_eq!(pos.perft(3), nodes, "[{name}] perft 3 from {fen:?}");
    }
}

#[test]
fn inherited_keys_are_named_with_the_section_that_gives_them() {
    let text = "[a:chess]\nflagRegionWhite = *8\n[b:a]\nmaxFile = 7\n";
    let mut registry = Registry::builtin();
    let d = load(&mut registry, text);
    let b = refusal(&d[1]);
    assert!(
        b.iter()
            .any(|p| p.contains("key 'flagRegionWhite'") && p.contains("(given in [a] at line 2)")),
        "{b:#?}"
    );
    // The narrower board leaves the start position with eight files per rank.
    assert!(
        b.iter().any(|p| p.contains("key 'startFen'")
            && p.contains("8 (8), 7 (8)")
            && p.contains("the board's 7 squares")),
        "{b:#?}"
    );
}

#[test]
fn parents_magus_does_not_have_are_named() {
    let text = "\
[x:crazyhouse]
[y:nowhere]
[z:later]
[later:chess]
";
    let mut registry = Registry::builtin();
    let d = load(&mut registry, text);
    assert!(refusal(&d[0])[0].contains(
        "parent 'crazyhouse' is a Fairy-Stockfish built-in variant that magus does not have"
    ));
    assert!(refusal(&d[1])[0].contains("parent 'nowhere': no variant of that name"));
    assert!(refusal(&d[2])[0].contains("parent 'later' comes later (line 4)"));
    assert!(d[3].outcome.is_ok(), "[later] itself is chess");
}

#[test]
fn a_variant_loaded_before_can_be_a_parent() {
    let mut registry = Registry::builtin();
    load(&mut registry, "[mini-base:chess]\ncastling = false\n");
    let d = load(
        &mut registry,
        "[mini-child:mini-base]\nstartFen = 4k3/8/8/8/8/8/8/4K2R w - - 0 1\n",
    );
    let v = d[0]
        .outcome
        .as_ref()
        .expect("the child of an earlier load loads");
    assert!(
        v.castling.is_none(),
        "the parent's castling = false is inherited"
    );
}

#[test]
fn custom_pieces_and_a_custom_king_are_translated_as_fairy_stockfish_reads_them() {
    // `frK` is two moves in Fairy-Stockfish's reading (right, and forward-right), three in
    // XBoard's; the Joker (`L`, the (3,1) leap) is a Camel.
    let text = "\
[jokers:chess]
customPiece1 = a:frK
customPiece2 = l:L
king = k:KN
startFen = 4k3/8/8/8/8/2A5/8/L3K3 w - - 0 1
castling = false
";
    let mut registry = Registry::builtin();
    let d = load(&mut registry, text);
    let v = d[0]
        .outcome
        .as_ref()
        .unwrap_or_else(|_| panic!("{:#?}", refusal(&d[0])));
    let pos = AnyPosition::from_fen(registry.get("jokers").unwrap(), None).unwrap();
    let moves = common::legal(&pos);
    let from = |sq: &str| -> Vec<&String> { moves.iter().filter(|m| m.starts_with(sq)).collect() };
    assert_eq!(
        from("c3"),
        ["c3d3", "c3d4"],
        "the frK piece: right and forward-right"
    );
    assert_eq!(from("a1").len(), 2, "the camel: b4 and d2, {moves:?}");
    assert_eq!(
        from("e1").len(),
        5 + 4,
        "a centaur King: 5 steps, 4 knight leaps, {moves:?}"
    );
    assert!(
        v.pieces.iter().any(|p| p.betza == "C"),
        "'L' is written 'C' in magus"
    );
}

#[test]
fn what_the_engine_refuses_to_start_from_is_a_start_fen_problem() {
    let text = "[kingless:chess]\nstartFen = 8/8/8/8/8/8/8/8 w - - 0 1\n";
    let mut registry = Registry::builtin();
    let d = load(&mut registry, text);
    let problems = refusal(&d[0]);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].starts_with("variants.ini: line 2 [kingless]: key 'startFen': ")
            && problems[0].contains("kings"),
        "{problems:?}"
    );
    assert!(registry.get("kingless").is_none());
}

#[test]
fn fairy_stockfish_layout_mistakes_are_problems_too() {
    let text = "[a:chess]\nthis line has no equals\n  castling = false\n[a:chess]\n";
    let mut registry = Registry::builtin();
    let d = load(&mut registry, text);
    let first = refusal(&d[0]);
    assert!(
        first[0].contains("line 2") && first[0].contains("is not 'key = value'"),
        "{first:?}"
    );
    assert!(
        first[1].contains("line 3") && first[1].contains("white space"),
        "{first:?}"
    );
    let second = refusal(&d[1]);
    assert!(
        second[0].contains("defined twice (first at line 1)"),
        "{second:?}"
    );
}

// ---- The protocols ----------------------------------------------------------------------

/// A file in the temporary folder, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!("magus-fsf-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempFile(path)
    }
    fn path(&self) -> String {
        self.0.display().to_string()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A small variant file: one section that loads, one that does not.
const MINI_INI: &str = "\
# mini chess on 6x6
[minichess:chess]
maxRank = 6
maxFile = 6
startFen = rnbqkr/pppppp/6/6/PPPPPP/RNBQKR w - - 0 1
castling = false
doubleStep = false
promotionRegionWhite = *6
promotionRegionBlack = *1

[duckling:chess]
wallingRule = duck
colour = red
";

type Uci = common::Transcript<UciSession>;

fn uci() -> Uci {
    common::Transcript::new(|out| UciSession::new(Registry::builtin(), out))
}

/// Sends lines; a `go perft` at the end runs beside the input loop, so its total is awaited.
fn send(t: &mut Uci, lines: &str) -> Vec<String> {
    t.feed(lines);
    if lines
        .lines()
        .last()
        .is_some_and(|l| l.starts_with("go perft"))
    {
        return t
            .wait_for("Nodes searched", std::time::Duration::from_secs(30))
            .0;
    }
    t.since_mark()
}

fn variant_option(t: &mut Uci) -> String {
    send(t, "uci")
        .into_iter()
        .find(|l| l.starts_with("option name UCI_Variant"))
        .unwrap()
}

#[test]
fn uci_load_here_document_announces_the_variant() {
    let mut t = uci();
    let lines = send(&mut t, &format!("load <<END\n{ELEPHANTS}END"));
    // The option again, with the new variant, then the variant itself.
    let option = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo default chess"))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    assert!(option.ends_with(" var elephants"), "{option}");
    assert!(
        lines.contains(&"info string variant elephants files 6 ranks 6 startpos 1e1ke1/6/6/6/6/1E1KE1 w - - 0 1".to_string()),
        "{lines:#?}"
    );
    assert_eq!(
        lines.last().unwrap(),
        "info string loaded variants: elephants"
    );
    // What `uci` announces now is what `load` announced.
    assert_eq!(&variant_option(&mut t), option);
    let lines = send(
        &mut t,
        "setoption name UCI_Variant value elephants\nposition startpos\ngo perft 2",
    );
    let elephants = magus::variant::parse_variant(ELEPHANTS, "e").unwrap();
    let expected = AnyPosition::from_fen(Box::leak(Box::new(elephants)), None)
        .unwrap()
        .perft(2);
    assert!(
        lines.contains(&format!("Nodes searched: {expected}")),
        "{lines:#?}"
    );
}

#[test]
fn uci_check_reports_every_problem_and_loads_nothing() {
    let mut t = uci();
    let before = variant_option(&mut t);
    let bad = ELEPHANTS.replacen("files = 6", "files = 60", 1).replacen(
        "betza = \"nA\"",
        "betza = \"nX\"",
        1,
    );
    let lines = send(&mut t, &format!("check <<EOF\n{bad}EOF\nisready"));
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 2, "{lines:#?}");
    assert!(
        errors[0].contains("<<EOF: line 5: key 'files/ranks': 60x6 is not a board size"),
        "{errors:?}"
    );
    assert!(
        errors[1].contains("<<EOF: line 20: key 'piece[2].betza': (Elephant): 'nX'"),
        "{errors:?}"
    );
    assert!(lines.contains(&"info string check: 0 valid, 1 refused, nothing loaded".to_string()));
    assert_eq!(lines.last().unwrap(), "readyok");
    // A good text is valid, and still not loaded.
    let lines = send(&mut t, &format!("check <<EOF\n{ELEPHANTS}EOF"));
    assert!(
        lines
            .contains(&"info string check: variant elephants files 6 ranks 6 is valid".to_string()),
        "{lines:#?}"
    );
    assert_eq!(variant_option(&mut t), before);
}

#[test]
fn uci_load_of_a_variants_ini_keeps_the_good_sections() {
    let mut t = uci();
    let before = variant_option(&mut t);
    let file = TempFile::new("mini.ini", MINI_INI);
    let lines = send(&mut t, &format!("load {}", file.path()));
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 2, "{lines:#?}");
    assert!(errors[0].ends_with("line 12 [duckling]: key 'wallingRule': 'duck': walls placed during the game is not in magus's rules yet (planned)"), "{errors:?}");
    assert!(
        errors[1].ends_with("line 13 [duckling]: key 'colour': not a Fairy-Stockfish key"),
        "{errors:?}"
    );
    assert!(
        lines.contains(&"info string loaded variants: minichess".to_string()),
        "{lines:#?}"
    );
    assert!(
        lines.contains(&"info string refused variants: duckling".to_string()),
        "{lines:#?}"
    );
    assert_eq!(variant_option(&mut t), format!("{before} var minichess"));
    // Six pawn steps and two knight moves, as Fairy-Stockfish counts them too.
    let lines = send(
        &mut t,
        "setoption name UCI_Variant value minichess\nposition startpos\ngo perft 1",
    );
    assert!(
        lines.contains(&"Nodes searched: 8".to_string()),
        "{lines:#?}"
    );
}

#[test]
fn uci_bad_definitions_leave_the_engine_answering_with_its_variants() {
    let mut t = uci();
    let before = variant_option(&mut t);
    for (input, says) in [
        ("load", "load: give a file or folder"),
        ("check", "check: give a file or folder"),
        (
            "load /no/such/file.ini",
            "load /no/such/file.ini: no such file or folder",
        ),
        (
            "load <<X\n[broken:chess]\nmaxRank = 0\nX",
            "key 'maxRank': '0' is not a board size",
        ),
        ("load <<X\nname = \"half\nX", "<<X: line 1: `name = \"half`"),
        ("load <<X\n# nothing\nX", "<<X: no definition in it"),
    ] {
        let lines = send(&mut t, &format!("{input}\nisready"));
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: ") && l.contains(says)),
            "{input}: {lines:#?}"
        );
        assert_eq!(lines.last().unwrap(), "readyok", "{input}");
    }
    // A here-document is data: a `quit` inside it does not end the session.
    let mut t2 = uci();
    t2.feed("check <<END");
    assert!(
        t2.session.handle_line("quit"),
        "quit inside a here-document"
    );
    assert!(t2.session.handle_line("END"));
    assert_eq!(variant_option(&mut t), before);
}

#[test]
fn uci_here_document_without_a_mark_ends_at_an_empty_line_and_check_takes_paths() {
    let mut t = uci();
    // As in Fairy-Stockfish: `load <<` reads up to the first empty line.
    let lines = send(
        &mut t,
        "load <<\n[plain:chess]\ncastling = false\n\nisready",
    );
    assert!(
        lines.contains(&"info string loaded variants: plain".to_string()),
        "{lines:#?}"
    );
    assert_eq!(lines.last().unwrap(), "readyok");
    // `check FILE` and `check FOLDER` load nothing.
    let file = TempFile::new("check.ini", MINI_INI);
    let lines = send(&mut t, &format!("check {}", file.path()));
    assert!(
        lines
            .contains(&"info string check: variant minichess files 6 ranks 6 is valid".to_string())
            && lines.contains(&"info string check: 1 valid, 1 refused, nothing loaded".to_string()),
        "{lines:#?}"
    );
    let folder = std::env::temp_dir().join(format!("magus-fsf-{}-folder", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("elephants.toml"), ELEPHANTS).unwrap();
    let lines = send(&mut t, &format!("check {}", folder.display()));
    std::fs::remove_dir_all(&folder).unwrap();
    assert!(
        lines
            .contains(&"info string check: variant elephants files 6 ranks 6 is valid".to_string()),
        "{lines:#?}"
    );
    let option = variant_option(&mut t);
    assert!(
        option.ends_with(" var plain"),
        "only the loaded variant joined: {option}"
    );
}

#[test]
fn uci_variant_path_takes_a_variants_ini_file() {
    let mut t = uci();
    let file = TempFile::new("path.ini", MINI_INI);
    let lines = send(
        &mut t,
        &format!("setoption name VariantPath value {}", file.path()),
    );
    assert!(
        lines.contains(&"info string loaded variants: minichess".to_string()),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant") && l.ends_with("var minichess"))
    );
    let toml = TempFile::new("path.toml", ELEPHANTS);
    let lines = send(&mut t, &format!("load {}", toml.path()));
    assert!(
        lines.contains(&"info string loaded variants: elephants".to_string()),
        "{lines:#?}"
    );
}

type Xboard = common::Transcript<XboardSession>;

fn xboard_send(t: &mut Xboard, lines: &str) -> Vec<String> {
    t.feed(lines);
    std::thread::sleep(std::time::Duration::from_millis(20));
    t.since_mark()
}

#[test]
fn xboard_load_sends_the_variants_again() {
    let mut t: Xboard = common::Transcript::new(|out| XboardSession::new(Registry::builtin(), out));
    let handshake = xboard_send(&mut t, "xboard\nprotover 2");
    let before = handshake
        .iter()
        .find(|l| l.starts_with("feature variants="))
        .unwrap()
        .clone();
    let lines = xboard_send(&mut t, &format!("load <<END\n{MINI_INI}END\nping 1"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("# error: <<END: line 12 [duckling]: key 'wallingRule'")),
        "{lines:#?}"
    );
    assert!(lines.contains(&"# variant minichess files 6 ranks 6 startpos rnbqkr/pppppp/6/6/PPPPPP/RNBQKR w - - 0 1".to_string()), "{lines:#?}");
    let after = lines
        .iter()
        .find(|l| l.starts_with("feature variants="))
        .unwrap();
    assert_eq!(
        after,
        &format!("{},minichess\"", before.trim_end_matches('"')),
        "the list again, with the new variant"
    );
    assert_eq!(lines.last().unwrap(), "pong 1");
    // The new variant plays: XBoard is sent its board and pieces.
    let lines = xboard_send(&mut t, "new\nvariant minichess\nping 2");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("setup (") && l.contains("6x6+0_fairy")),
        "{lines:#?}"
    );
    // `check` and bad input change nothing; the engine answers.
    let lines = xboard_send(
        &mut t,
        "check <<END\n[bad:chess]\nmustCapture = true\nEND\nping 3",
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("# error: <<END: line 2 [bad]: key 'mustCapture'")),
        "{lines:#?}"
    );
    assert!(
        lines.contains(&"# check: 0 valid, 1 refused, nothing loaded".to_string()),
        "{lines:#?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("feature variants=")),
        "{lines:#?}"
    );
    assert_eq!(lines.last().unwrap(), "pong 3");
}

#[test]
fn xboard_variant_path_option_takes_a_variants_ini_file() {
    let mut t: Xboard = common::Transcript::new(|out| XboardSession::new(Registry::builtin(), out));
    let file = TempFile::new("xb.ini", MINI_INI);
    let lines = xboard_send(
        &mut t,
        &format!("option VariantPath={}\nping 1", file.path()),
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("feature variants=") && l.ends_with(",minichess\"")),
        "{lines:#?}"
    );
    assert!(
        lines.contains(&"# loaded variants: minichess".to_string()),
        "{lines:#?}"
    );
    let lines = xboard_send(&mut t, "option VariantPath=/no/such/folder\nping 2");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Error (variant folder /no/such/folder")),
        "{lines:#?}"
    );
    assert_eq!(lines.last().unwrap(), "pong 2");
}

#[test]
fn the_documentation_lists_every_key_with_its_status() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/variant-files.md"),
    )
    .unwrap();
    for k in keys::KEYS {
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", k.name)))
            .unwrap_or_else(|| panic!("docs/variant-files.md has no row for `{}`", k.name));
        assert!(
            row.contains(&format!("| {} |", k.status.word())),
            "the row of `{}` does not say {}: {row}",
            k.name,
            k.status.word()
        );
    }
}

#[test]
fn the_variant_path_flag_takes_a_variants_ini_file() {
    let magus = env!("CARGO_BIN_EXE_magus");
    let file = TempFile::new("cli.ini", MINI_INI);
    let out = std::process::Command::new(magus)
        .args(["--variant-path", &file.path()])
        .args(["perft", "--variant", "minichess", "--depth", "2"])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    // 64, as Fairy-Stockfish counts it; the refused section is named on stderr.
    assert_eq!(stdout, "Nodes searched: 64\n");
    assert!(
        stderr.contains("warning: --variant-path: ")
            && stderr.contains("[duckling]: key 'wallingRule'"),
        "{stderr}"
    );
    // A file of which nothing loads is refused alone: the command goes on with the others.
    let bad = TempFile::new("cli-bad.ini", "[duckling:chess]\nwallingRule = duck\n");
    let out = std::process::Command::new(magus)
        .args(["--variant-path", &bad.path(), "variants"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("[duckling]: key 'wallingRule'") && stderr.contains("refused duckling"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("chess"));
}
