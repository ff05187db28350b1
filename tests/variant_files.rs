//! Variant definition files: every kind of error names the file, the key and the reason;
//! folders load all or nothing; a user-defined variant plays by its file.

mod common;

use std::path::{Path, PathBuf};

use magus::game::{AnyPosition, check_variant};
use magus::variant::{Registry, Variant, parse_variant, read_toml};

/// Orthodox chess written out in full: the reference every error case below mutates.
const BASE: &str = r#"# Orthodox chess, for the tests.
name = "testchess"
title = "Test chess"
files = 8
ranks = 8
start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

[[piece]]
letter = "P"
name = "Pawn"
betza = "fmWfcF"
value = 100
role = "pawn"

[[piece]]
letter = "N"
name = "Knight"
betza = "N"
value = 320

[[piece]]
letter = "B"
name = "Bishop"
betza = "B"
value = 330

[[piece]]
letter = "R"
name = "Rook"
betza = "R"
value = 500

[[piece]]
letter = "Q"
name = "Queen"
betza = "Q"
value = 950

[[piece]]
letter = "K"
name = "King"
betza = "K"
value = 0
role = "king"

[pawns]
multi_step = [{ ranks = [2], steps = 2 }]
en_passant = "passed-squares"
promotion_ranks = [8]
promotion_pieces = "QRBN"

[castling]
king_file = "e"
king_side = { king_to = "g", rook_from = "h", rook_to = "f" }
queen_side = { king_to = "c", rook_from = "a", rook_to = "d" }

[end]
stalemate = "draw"
fifty_move_rule = 50
repetitions = 3
insufficient_material = ["K", "KN", "KB"]
"#;

/// A user variant on 6x6: Kings and lame Elephants (`nA`: two squares diagonally, the
/// square between must be empty), and a Jumper (`jD`: two squares orthogonally, only over
/// an occupied square) for set-up positions.
const ELEPHANTS: &str = include_str!("data/elephants.toml");

/// BASE with one text replaced; the text must be there (so that a changed BASE cannot
/// silently turn a test into a no-op).
fn mutate(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "BASE has no {from:?}");
    BASE.replacen(from, to, 1)
}

/// Parses, expecting an error that names the file and contains every fact.
fn assert_refused(text: &str, facts: &[&str]) {
    let e = match parse_variant(text, "test.toml") {
        Ok(v) => panic!(
            "accepted variant '{}'; expected an error with {facts:?}",
            v.name
        ),
        Err(e) => e,
    };
    assert!(
        e.starts_with("test.toml: "),
        "the file is not named first: {e}"
    );
    for fact in facts {
        assert!(e.contains(fact), "error lacks {fact:?}: {e}");
    }
}

fn leak(v: Variant) -> &'static Variant {
    Box::leak(Box::new(v))
}

#[test]
fn the_base_file_defines_orthodox_chess() {
    let v = parse_variant(BASE, "test.toml").unwrap();
    check_variant(&v).unwrap();
    assert_eq!(
        (v.name.as_str(), v.title.as_str()),
        ("testchess", "Test chess")
    );
    assert_eq!(v.source, "test.toml");
    let pos = AnyPosition::from_fen(leak(v), None).unwrap();
    assert_eq!(
        [1, 2, 3].map(|d| pos.perft(d)),
        [20, 400, 8902],
        "the chess perft counts"
    );
}

#[test]
fn unknown_keys_are_refused() {
    assert_refused(
        &mutate("files = 8", "files = 8\ncolour = \"red\""),
        &["line 5", "colour", "unknown field"],
    );
    assert_refused(
        &mutate("value = 320", "value = 320\nspeed = 3"),
        &["speed", "unknown field", "letter"],
    );
    assert_refused(
        &mutate(
            "promotion_ranks = [8]",
            "promotion_ranks = [8]\ndouble_step = true",
        ),
        &["double_step", "unknown field"],
    );
    assert_refused(
        &mutate(
            "stalemate = \"draw\"",
            "stalemate = \"draw\"\nbare_king = \"loss\"",
        ),
        &["bare_king", "unknown field"],
    );
    assert_refused(
        &mutate("[castling]", "[castling]\nchess960 = true"),
        &["chess960", "unknown field"],
    );
}

#[test]
fn wrong_types_and_missing_keys_are_refused() {
    assert_refused(
        &mutate("files = 8", "files = \"eight\""),
        &["files", "invalid type", "expected u8"],
    );
    assert_refused(
        &mutate("value = 320", "value = \"320\""),
        &["value", "invalid type"],
    );
    assert_refused(
        &mutate("betza = \"N\"", "betza = 5"),
        &["betza", "invalid type"],
    );
    assert_refused(&mutate("files = 8", "files = 300"), &["files = 300", "u8"]);
    assert_refused(
        &mutate(
            "start = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"\n",
            "",
        ),
        &["missing field `start`"],
    );
    assert_refused(&mutate("[[piece]]", "[[piece]"), &["line 8", "[[piece]"]);
}

#[test]
fn bad_betza_is_refused_with_the_letter() {
    assert_refused(
        &mutate("betza = \"N\"", "betza = \"X\""),
        &["piece[2].betza", "Knight", "unknown atom 'X'"],
    );
    assert_refused(
        &mutate("betza = \"N\"", "betza = \"pN\""),
        &["piece[2].betza", "modifier 'p' is not supported"],
    );
    assert_refused(
        &mutate("betza = \"N\"", "betza = \"oN\""),
        &["piece[2].betza", "modifier 'o' is not supported"],
    );
    assert_refused(
        &mutate("betza = \"N\"", "betza = \"nN\""),
        &["piece[2].betza", "only to the single leaps D and A"],
    );
    assert_refused(
        &mutate("betza = \"N\"", "betza = \"\""),
        &["piece[2].betza", "empty"],
    );
    assert_refused(
        &mutate("betza = \"N\"", "betza = \"Nf\""),
        &["piece[2].betza", "without an atom"],
    );
    assert_refused(
        &mutate("betza = \"R\"", "betza = \"R99\""),
        &["piece[4].betza", "Rook", "too large"],
    );
}

#[test]
fn bad_pieces_are_refused() {
    // Duplicate letter: the Bishop written N.
    assert_refused(
        &mutate("letter = \"B\"", "letter = \"N\""),
        &["piece[3].letter", "'N' is used by two pieces"],
    );
    assert_refused(
        &mutate("letter = \"N\"", "letter = \"n\""),
        &["piece[2].letter", "one upper-case letter"],
    );
    assert_refused(
        &mutate("letter = \"N\"", "letter = \"NN\""),
        &["piece[2].letter", "one upper-case letter"],
    );
    // No king.
    assert_refused(
        &mutate("value = 0\nrole = \"king\"", "value = 0"),
        &["no piece has role 'king'"],
    );
    // Two kings.
    assert_refused(
        &mutate("value = 950", "value = 950\nrole = \"king\""),
        &["2 pieces have role 'king'"],
    );
    assert_refused(
        &mutate("role = \"king\"", "role = \"royal\""),
        &["piece[6].role", "'royal' is not a role"],
    );
    assert_refused(
        &mutate("value = 950", "value = 9500000"),
        &["piece[5].value", "out of range"],
    );
    // More kinds than a position can hold: 6 + 11 = 17.
    let mut many = BASE.to_string();
    for letter in "ACDEFGHIJLM".chars() {
        many += &format!(
            "\n[[piece]]\nletter = \"{letter}\"\nname = \"Extra\"\nbetza = \"W\"\nvalue = 1\n"
        );
    }
    assert_refused(&many, &["key 'piece'", "17 pieces", "at most 16"]);
}

#[test]
fn bad_board_sizes_are_refused() {
    assert_refused(
        &mutate("files = 8\nranks = 8", "files = 12\nranks = 12"),
        &["'files'/'ranks'", "12x12", "144 squares", "more than 128"],
    );
    assert_refused(
        &mutate("files = 8", "files = 1"),
        &["'files'/'ranks'", "1x8", "not a board size"],
    );
    assert_refused(
        &mutate("files = 8", "files = 27"),
        &["'files'/'ranks'", "27x8"],
    );
    // 11x11 = 121 squares fits.
    let v = parse_variant(
        &mutate("files = 8\nranks = 8", "files = 11\nranks = 11"),
        "test.toml",
    );
    assert!(v.is_ok(), "{v:?}", v = v.err());
}

#[test]
fn bad_pawn_rules_are_refused() {
    assert_refused(
        &mutate("promotion_pieces = \"QRBN\"", "promotion_pieces = \"QRBX\""),
        &["pawns.promotion_pieces", "'X' is not a piece letter"],
    );
    assert_refused(
        &mutate(
            "promotion_pieces = \"QRBN\"",
            "promotion_pieces = \"QRBNK\"",
        ),
        &["pawns.promotion_pieces", "cannot promote to 'K'"],
    );
    assert_refused(
        &mutate("promotion_ranks = [8]", "promotion_ranks = [9]"),
        &["pawns.promotion_ranks", "9 is not a rank"],
    );
    assert_refused(
        &mutate("promotion_pieces = \"QRBN\"\n", ""),
        &["promotion_ranks", "promotion_pieces", "both or neither"],
    );
    assert_refused(
        &mutate(
            "multi_step = [{ ranks = [2], steps = 2 }]",
            "multi_step = [{ steps = 2 }]",
        ),
        &["pawns.multi_step[1]", "give 'ranks' or 'squares'"],
    );
    assert_refused(
        &mutate("{ ranks = [2], steps = 2 }", "{ ranks = [2], steps = 1 }"),
        &["pawns.multi_step[1].steps", "from 2 to 7"],
    );
    assert_refused(
        &mutate("{ ranks = [2], steps = 2 }", "{ ranks = [0], steps = 2 }"),
        &["pawns.multi_step[1].ranks", "0 is not a rank"],
    );
    assert_refused(
        &mutate(
            "{ ranks = [2], steps = 2 }",
            "{ squares = [\"e2\", \"z9\"], steps = 2 }",
        ),
        &["pawns.multi_step[1].squares", "'z9' is not a square"],
    );
    assert_refused(
        &mutate(
            "en_passant = \"passed-squares\"",
            "en_passant = \"sometimes\"",
        ),
        &["pawns.en_passant", "'sometimes' is not a rule"],
    );
    assert_refused(
        &mutate("value = 100\nrole = \"pawn\"", "value = 100"),
        &["key 'pawns'", "no piece with role 'pawn'"],
    );
}

#[test]
fn bad_castling_is_refused() {
    assert_refused(
        &mutate("king_file = \"e\"", "king_file = \"z\""),
        &[
            "castling.king_file",
            "'z' is not a file of this board (a to h)",
        ],
    );
    assert_refused(
        &mutate("rook_from = \"h\"", "rook_from = \"i\""),
        &["castling.king_side.rook_from", "'i'"],
    );
    assert_refused(
        &mutate("king_to = \"c\"", "king_to = \"cc\""),
        &["castling.queen_side.king_to", "'cc'"],
    );
    assert_refused(
        &mutate("rook_from = \"h\"", "rook_from = \"e\""),
        &["castling.king_side", "collide"],
    );
    assert_refused(
        &mutate(
            "king_side = { king_to = \"g\", rook_from = \"h\", rook_to = \"f\" }\nqueen_side = { king_to = \"c\", rook_from = \"a\", rook_to = \"d\" }\n",
            "",
        ),
        &["key 'castling'", "king_side", "queen_side"],
    );
}

#[test]
fn bad_end_rules_are_refused() {
    assert_refused(
        &mutate("stalemate = \"draw\"", "stalemate = \"maybe\""),
        &["end.stalemate", "'maybe' is not an outcome"],
    );
    assert_refused(
        &mutate("repetitions = 3", "repetitions = 1"),
        &["end.repetitions", "0 (off) or 2 to 10"],
    );
    assert_refused(
        &mutate("fifty_move_rule = 50", "fifty_move_rule = 5000"),
        &["end.fifty_move_rule", "too many"],
    );
    assert_refused(
        &mutate("[\"K\", \"KN\", \"KB\"]", "[\"K\", \"KX\"]"),
        &["end.insufficient_material", "'X'"],
    );
}

/// `[time] moves_to_go` shares the clock over that many moves; the built-in chess and Magi
/// set it, Deathmatch leaves it to the search, and a share outside 1 to 50 is refused with
/// its key.
#[test]
fn the_time_share_is_read_and_checked() {
    assert_eq!(parse_variant(BASE, "test.toml").unwrap().moves_to_go, None);
    let set = format!("{BASE}\n[time]\nmoves_to_go = 24\n");
    assert_eq!(
        parse_variant(&set, "test.toml").unwrap().moves_to_go,
        Some(24)
    );
    for bad in ["0", "51"] {
        assert_refused(
            &format!("{BASE}\n[time]\nmoves_to_go = {bad}\n"),
            &["time.moves_to_go", &format!("{bad} moves"), "1 to 50"],
        );
    }
    assert_refused(&format!("{BASE}\n[time]\nmoves = 24\n"), &["moves"]);
    let registry = Registry::builtin();
    let builtin = |name: &str| registry.get(name).unwrap().moves_to_go;
    assert_eq!(builtin("chess"), Some(24));
    assert_eq!(builtin("magi"), Some(36));
    assert_eq!(builtin("deathmatch"), None);
}

#[test]
fn bad_names_and_mechanics_are_refused() {
    assert_refused(
        &mutate("name = \"testchess\"", "name = \"test chess\""),
        &["key 'name'", "'test chess'", "letters, digits"],
    );
    assert_refused(
        &format!("{BASE}\n[swap_in]\nfrom = \"B\"\nto = \"M\"\n"),
        &["swap_in.to", "'M' is not a piece letter"],
    );
}

/// Issue #74: a swap-in or a rank promotion to or from the royal piece loaded, and the engine
/// then played into positions with no King or two, which it refuses as FENs. A side has one
/// King from start to end: no mechanic may make or unmake one.
#[test]
fn a_mechanic_that_makes_or_unmakes_the_royal_piece_is_refused() {
    let promotion = |rest: &str| format!("[rank_promotion]\nrank = 6\n{rest}");
    let cases = [
        (
            "[swap_in]\nfrom = \"K\"\nto = \"Q\"\n".to_string(),
            "swap_in.from",
            "without it",
        ),
        (
            "[swap_in]\nfrom = \"B\"\nto = \"K\"\n".to_string(),
            "swap_in.to",
            "second one",
        ),
        (
            "[swap_in]\nfrom = \"K\"\nto = \"K\"\n".to_string(),
            "swap_in.from",
            "without it",
        ),
        (
            promotion("piece = \"K\"\nchoices = \"Q\"\n"),
            "rank_promotion.piece",
            "without it",
        ),
        (
            promotion("piece = \"B\"\nchoices = \"QK\"\n"),
            "rank_promotion.choices",
            "second one",
        ),
        (
            promotion("piece = \"B\"\ndictated = [[\"Q\", \"R\"], [\"R\", \"K\"]]\n"),
            "rank_promotion.dictated",
            "second one",
        ),
        (
            promotion("piece = \"B\"\nchoices = \"Q\"\nfamily = \"QK\"\n"),
            "rank_promotion.family",
            "second one",
        ),
    ];
    for (table, key, why) in &cases {
        assert_refused(
            &format!("{BASE}\n{table}"),
            &[key, "'K' (King) is the royal piece", why],
        );
    }
    // The same tables with ordinary pieces load: the King alone is refused.
    for table in [
        "[swap_in]\nfrom = \"B\"\nto = \"Q\"\n".to_string(),
        promotion("piece = \"B\"\ndictated = [[\"K\", \"R\"]]\nfamily = \"QR\"\n"),
    ] {
        let v = parse_variant(&format!("{BASE}\n{table}"), "test.toml")
            .unwrap_or_else(|e| panic!("{table}: {e}"));
        check_variant(&v).unwrap();
    }
    // Pawns and drops never take the King either (checked where they are read).
    assert_refused(
        &mutate("promotion_pieces = \"QRBN\"", "promotion_pieces = \"QK\""),
        &["pawns.promotion_pieces", "cannot promote to 'K'"],
    );
    assert_refused(
        &format!(
            "{BASE}\n[[piece]]\nletter = \"G\"\nname = \"Guard\"\nbetza = \"K\"\nvalue = 300\n\n[drops]\ncarriers = \"G\"\nranks = [3]\npieces = [\"K\"]\n"
        ),
        &["drops.pieces", "'K' (King) cannot be dropped"],
    );
}

/// The start position is checked by `check_variant` (the layout must compile and the FEN
/// read), which folders and the protocols call before accepting a file.
#[test]
fn a_bad_start_position_is_refused_by_check_variant() {
    let cases = [
        (
            "RNBQKBNR w KQkq",
            "RNBQKBNX w KQkq",
            "'X' is not a piece of testchess",
        ),
        ("pppppppp/8/", "pppppppp/", "7 ranks"),
        ("RNBQKBNR w KQkq", "RNBQ1BNR w kq", "White has 0 kings"),
        ("RNBQKBNR w KQkq", "RNBQKBNR x KQkq", "side to move 'x'"),
        ("w KQkq - 0 1", "w KQkqX - 0 1", "'X' is not one of K Q k q"),
    ];
    for (from, to, fact) in cases {
        let v = parse_variant(&mutate(from, to), "test.toml").unwrap();
        let e = check_variant(&v).unwrap_err();
        assert!(e.contains("key 'start'") && e.contains(fact), "{e}");
    }
}

// ---- folders ----

/// A fresh folder under the system's temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let path =
            std::env::temp_dir().join(format!("magus-variant-files-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The names of the definitions that loaded, and those refused with their problems.
fn split(definitions: &[magus::variant::definitions::Definition]) -> (Vec<String>, Vec<String>) {
    let mut good = Vec::new();
    let mut refused = Vec::new();
    for d in definitions {
        match &d.outcome {
            Ok(v) => good.push(v.name.clone()),
            Err(problems) => refused.extend(problems.iter().map(|p| p.to_string())),
        }
    }
    (good, refused)
}

#[test]
fn a_folder_of_good_files_loads() {
    let dir = TempDir::new("good");
    dir.write("elephants.toml", ELEPHANTS);
    dir.write("testchess.toml", BASE);
    dir.write("notes.txt", "not a variant");
    let mut registry = Registry::builtin();
    let builtin = registry.names().len();
    let loaded = registry.load_dir(dir.path(), &check_variant).unwrap();
    assert_eq!(
        split(&loaded),
        (vec!["elephants".into(), "testchess".into()], vec![])
    );
    assert_eq!(registry.names().len(), builtin + 2);
    let v = registry.get("elephants").unwrap();
    assert!(v.source.ends_with("elephants.toml"), "{}", v.source);
    assert_eq!(AnyPosition::from_fen(v, None).unwrap().perft(2), 35);
}

#[test]
fn a_bad_file_of_a_folder_is_refused_alone() {
    let dir = TempDir::new("bad");
    dir.write("a-elephants.toml", ELEPHANTS);
    let bad = dir.write(
        "b-broken.toml",
        &mutate("files = 8", "files = 8\ncolour = 1"),
    );
    dir.write("c-testchess.toml", BASE);
    let mut registry = Registry::builtin();
    let before = registry.names().len();
    let definitions = registry.load_dir(dir.path(), &check_variant).unwrap();
    let (good, refused) = split(&definitions);
    assert_eq!(
        good,
        vec!["elephants", "testchess"],
        "the files around it load"
    );
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(
        refused[0].contains(&bad.display().to_string()),
        "{refused:?}"
    );
    assert!(
        refused[0].contains("colour") && refused[0].contains("unknown field"),
        "{refused:?}"
    );
    assert_eq!(registry.names().len(), before + 2);
    assert!(registry.get("elephants").is_some() && registry.get("testchess").is_some());
    assert!(registry.get("chess").is_some(), "the built-ins stay");
}

#[test]
fn a_folder_file_with_a_bad_start_position_names_the_file() {
    let dir = TempDir::new("badstart");
    let bad = dir.write(
        "testchess.toml",
        &mutate("RNBQKBNR w KQkq", "RNBQKBNR w KQkqX"),
    );
    let mut registry = Registry::builtin();
    let (good, refused) = split(&registry.load_dir(dir.path(), &check_variant).unwrap());
    assert!(good.is_empty());
    assert!(
        refused[0].contains(&bad.display().to_string()),
        "{refused:?}"
    );
    assert!(refused[0].contains("key 'start'"), "{refused:?}");
    assert!(registry.get("testchess").is_none());
}

#[test]
fn folder_errors() {
    // A name defined twice: the first file's definition stays, the second is refused.
    let dir = TempDir::new("twice");
    dir.write("one.toml", ELEPHANTS);
    dir.write("two.toml", ELEPHANTS);
    let mut registry = Registry::builtin();
    let (good, refused) = split(&registry.load_dir(dir.path(), &check_variant).unwrap());
    assert_eq!(good, vec!["elephants"]);
    assert!(
        refused.len() == 1
            && refused[0].contains("two.toml")
            && refused[0].contains("'elephants' is defined twice"),
        "{refused:?}"
    );
    assert!(
        registry
            .get("elephants")
            .unwrap()
            .source
            .ends_with("one.toml")
    );

    let empty = TempDir::new("empty");
    empty.write("readme.md", "no variants here");
    let e = Registry::builtin()
        .load_dir(empty.path(), &check_variant)
        .unwrap_err();
    assert!(e.contains("no .toml files"), "{e}");

    let missing = std::env::temp_dir().join(format!("magus-no-such-folder-{}", std::process::id()));
    let e = Registry::builtin()
        .load_dir(&missing, &check_variant)
        .unwrap_err();
    assert!(e.contains(&missing.display().to_string()), "{e}");
}

#[test]
fn a_folder_variant_replaces_a_built_in_of_the_same_name() {
    let dir = TempDir::new("replace");
    let path = dir.write(
        "chess.toml",
        &mutate("name = \"testchess\"", "name = \"chess\""),
    );
    let mut registry = Registry::builtin();
    let before: Vec<String> = registry.names().into_iter().map(String::from).collect();
    registry.load_dir(dir.path(), &check_variant).unwrap();
    assert_eq!(registry.names(), before, "same names, same order");
    assert_eq!(
        registry.get("chess").unwrap().source,
        path.display().to_string()
    );
}

/// Transference given to a piece with no leap of its own (the Rook slides only): its
/// leap along the rank is still an attack, which check detection sees.
#[test]
fn a_transference_of_a_slider_gives_check() {
    let text = format!("{}\n[transference]\npieces = \"R\"\nranks = 3\n", BASE);
    let v = parse_variant(&text, "test.toml").unwrap();
    check_variant(&v).unwrap();
    let v = leak(v);
    // The Rook a2 leaps over the pawn d2 to h2, on White's second rank.
    let pos = AnyPosition::from_fen(v, Some("8/8/8/8/8/8/R2P3k/4K3 b - - 0 1")).unwrap();
    assert!(pos.in_check());
    // And White's own move a2h2 is there in a position without the King.
    let pos = AnyPosition::from_fen(v, Some("4k3/8/8/8/8/8/R2P4/4K3 w - - 0 1")).unwrap();
    assert!(pos.legal_moves_wire(1).contains(&"a2h2".to_string()));
}

// ---- a user-defined variant ----

fn elephants() -> &'static Variant {
    let v = parse_variant(ELEPHANTS, "elephants.toml").unwrap();
    check_variant(&v).unwrap();
    leak(v)
}

fn elephants_position(fen: Option<&str>) -> AnyPosition {
    AnyPosition::from_fen(elephants(), fen).unwrap()
}

/// Start `1e1ke1/6/6/6/6/1E1KE1`, White to move.
///
/// Depth 1: Elephant b1 has one leap, to d3 (over c2; the other three leave the board).
/// Elephant e1 has one, to c3 (over d2; g3 is off the 6-file board). King d1 has c1, c2,
/// d2, e2 (e1 is his own Elephant); Black attacks nothing below rank 4. 6 moves.
///
/// Depth 2: Black's moves mirror White's: b6-d4, e6-c4, King c6, c5, d5, e5: 6. After
/// E e1-c3 the Elephant attacks e5 (over d4), a5, a1 and e1, so the King loses e5: 5.
/// No other White move attacks c6, c5, d5, e5, d4 or c4 or blocks c5/d5: 6 each.
/// 5 x 6 + 5 = 35.
#[test]
fn user_variant_perft_by_hand() {
    let pos = elephants_position(None);
    let mut moves = pos.legal_moves_wire(1);
    moves.sort();
    assert_eq!(moves, common::sorted("b1d3 e1c3 d1c1 d1c2 d1d2 d1e2"));
    assert_eq!(pos.perft(1), 6);
    let mut divide = pos.divide(2);
    divide.sort();
    let expected: Vec<(String, u64)> = [
        ("b1d3", 6),
        ("d1c1", 6),
        ("d1c2", 6),
        ("d1d2", 6),
        ("d1e2", 6),
        ("e1c3", 5),
    ]
    .iter()
    .map(|&(m, n)| (m.to_string(), n))
    .collect();
    assert_eq!(divide, expected);
    assert_eq!(pos.perft(2), 35);
}

/// A lame leap is blocked by a piece on its middle square, and a piece standing there
/// shields its King like a pinned piece: moving it away is illegal.
///
/// `k5/4e1/3E2/2K3/6/6`: the Black Elephant e5 would attack c3 over d4, where the White
/// Elephant stands. That Elephant's leaps (to b6 over c5, to f2 over e3; b2 and f6 are
/// blocked) would open the line: illegal. The King has all seven free squares (d4 is his
/// own piece; Black attacks nothing else near him).
#[test]
fn a_piece_on_a_lame_leaps_middle_square_may_not_leave_it() {
    let pos = elephants_position(Some("k5/4e1/3E2/2K3/6/6 w - - 0 1"));
    assert!(!pos.in_check());
    assert_eq!(
        common::legal(&pos),
        common::sorted("c3b2 c3c2 c3d2 c3b3 c3d3 c3b4 c3c4")
    );
    assert_eq!(pos.perft(1), 7);
    // With the shield gone the King is in check.
    let open = elephants_position(Some("k5/4e1/6/2K3/6/6 w - - 0 1"));
    assert!(open.in_check());
}

/// A must-jump leap opens when its middle square fills: a piece may not step onto it.
///
/// `5k/2j3/6/2K3/E5/6`: the Black Jumper c5 attacks c3 only over an occupied c4. The White
/// Elephant's one leap, a2-c4 (over b3), would fill c4: illegal. The King's eight moves
/// are all legal (the Jumper attacks nothing while c4, b5 and d5 are empty).
#[test]
fn a_piece_may_not_fill_the_middle_square_of_a_must_jump_leap() {
    let pos = elephants_position(Some("5k/2j3/6/2K3/E5/6 w - - 0 1"));
    assert_eq!(
        common::legal(&pos),
        common::sorted("c3b2 c3c2 c3d2 c3b3 c3d3 c3b4 c3c4 c3d4")
    );
}

#[test]
fn user_variant_positions_round_trip() {
    for fen in [
        "1e1ke1/6/6/6/6/1E1KE1 w - - 0 1",
        "k5/4e1/3E2/2K3/6/6 w - - 0 1",
        "5k/2j3/6/2K3/E5/6 b - - 3 9",
    ] {
        assert_eq!(elephants_position(Some(fen)).to_fen(), fen);
    }
}

#[test]
fn every_problem_of_a_file_is_listed_with_its_line_and_key() {
    let text = mutate("value = 320", "value = 9999999")
        .replacen("betza = \"B\"", "betza = \"X\"", 1)
        .replacen("king_file = \"e\"", "king_file = \"z\"", 1)
        .replacen("stalemate = \"draw\"", "stalemate = \"maybe\"", 1);
    let problems = read_toml(&text, "test.toml").unwrap_err();
    let keys: Vec<&str> = problems.iter().filter_map(|p| p.key.as_deref()).collect();
    assert_eq!(
        keys,
        [
            "piece[2].value",
            "piece[3].betza",
            "castling.king_file",
            "end.stalemate"
        ],
        "{problems:#?}"
    );
    let lines: Vec<&str> = text.lines().collect();
    for p in &problems {
        let line = p.line.unwrap_or_else(|| panic!("no line: {p}"));
        let last = p.key.as_deref().unwrap().rsplit('.').next().unwrap();
        assert!(
            lines[line - 1].trim_start().starts_with(last),
            "{p}: line {line} is {:?}",
            lines[line - 1]
        );
        assert_eq!(p.source, "test.toml");
    }
    assert!(problems[1].to_string().contains("unknown atom 'X'"));
    // Loading stops at the first of them.
    let first = parse_variant(&text, "test.toml").unwrap_err();
    assert!(
        first.contains("piece[2].value") && first.contains("9999999"),
        "{first}"
    );
}

#[test]
fn a_syntax_error_is_one_problem_on_its_line() {
    let text = mutate("[[piece]]", "[[piece]");
    let problems = read_toml(&text, "test.toml").unwrap_err();
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert_eq!(problems[0].line, Some(8));
    assert!(problems[0].message.contains("[[piece]"), "{}", problems[0]);
}
