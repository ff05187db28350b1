//! The evaluation: the breakdown `eval` prints adds up to what the search uses, each term's
//! switch takes out exactly that term, the evaluation is the same from either side's chair
//! (colour-flip symmetry), and each term points the right way: pairs of positions that differ
//! in the one thing a term measures, so that a term whose sign is flipped fails a test.

use std::sync::Mutex;

use magus::board::{Bitboard, Color, Position};
use magus::eval::{
    EvalMode, EvalTables, TermId, TermSet, breakdown, evaluate, evaluate_fast, evaluate_material,
    evaluate_terms, evaluate_with,
};
use magus::game::AnyPosition;
use magus::variant::weights::{Shape, Weights};
use magus::variant::{Registry, Variant};
use magus::with_position;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn position(variant: &str, fen: Option<&str>) -> AnyPosition {
    let registry = Registry::builtin();
    let v = registry
        .get(variant)
        .unwrap_or_else(|| panic!("no variant {variant}"));
    AnyPosition::from_fen(v, fen).unwrap_or_else(|e| panic!("{fen:?}: {e}"))
}

/// One term of the breakdown, White's and Black's share.
fn term(pos: &AnyPosition, name: &str) -> (i32, i32) {
    let terms = with_position!(pos, p => breakdown(p));
    let t = terms
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no term {name}"));
    (t.white, t.black)
}

/// Positions from every variant: the start, and a few plies into a game.
fn sample() -> Vec<AnyPosition> {
    let registry = Registry::builtin();
    let mut out = Vec::new();
    for name in registry.names() {
        let mut pos = position(name, None);
        for ply in 0..12 {
            out.push(pos);
            let next = match pos {
                AnyPosition::Small(p) => play_nth(&p, ply * 7 + 3).map(AnyPosition::Small),
                AnyPosition::Large(p) => play_nth(&p, ply * 7 + 3).map(AnyPosition::Large),
            };
            let Some(next) = next else { break };
            pos = next;
        }
    }
    out
}

/// The position after the `n`th legal move (counting round), if there is one.
fn play_nth<B: Bitboard>(pos: &Position<B>, n: usize) -> Option<Position<B>> {
    let moves: Vec<_> = pos.legal_moves().into_iter().collect();
    let &mv = moves.get(n % moves.len().max(1))?;
    let mut next = *pos;
    next.play(mv);
    Some(next)
}

/// Each term is tapered on its own, so the sum may differ from the whole by rounding.
const ROUNDING: i32 = 8;

#[test]
fn the_breakdown_adds_up_to_the_evaluation() {
    for pos in sample() {
        let (whole, parts, white_to_move) = with_position!(&pos, p => {
            let tables = EvalTables::of(p.layout());
            let parts: i32 = breakdown(p).iter().map(|t| t.white - t.black).sum();
            (evaluate(p, tables), parts, p.side() == Color::White)
        });
        let parts = if white_to_move { parts } else { -parts };
        assert!(
            (whole - parts).abs() <= ROUNDING,
            "{}: evaluation {whole}, terms add up to {parts}",
            pos.to_fen()
        );
    }
}

#[test]
fn each_switch_takes_out_its_term_and_nothing_else() {
    for pos in sample() {
        for (id, option) in TermSet::SWITCHES {
            if id == TermId::MaterialTaper {
                continue; // not a row of the breakdown; below
            }
            let (whole, without, white_to_move) = with_position!(&pos, p => {
                let tables = EvalTables::of(p.layout());
                let mut terms = TermSet::ALL;
                terms.set(id, false);
                (evaluate(p, tables), evaluate_terms(p, tables, terms), p.side() == Color::White)
            });
            let name = match id {
                TermId::Placement => "Placement",
                TermId::Mobility => "Mobility",
                TermId::KingSafety => "King safety",
                TermId::Pawns => "Pawns",
                TermId::Threats => "Threats",
                TermId::Variant => "Variant",
                _ => unreachable!("{option} is not a switch"),
            };
            let (w, b) = term(&pos, name);
            let share = if white_to_move { w - b } else { b - w };
            assert!(
                (whole - without - share).abs() <= ROUNDING,
                "{}: '{option}' off moved the evaluation by {}, the term is {share}",
                pos.to_fen(),
                whole - without
            );
        }
    }
    // With every switch on, the masked evaluation is the evaluation.
    let pos = position("magi", None);
    with_position!(&pos, p => {
        let tables = EvalTables::of(p.layout());
        assert_eq!(evaluate(p, tables), evaluate_terms(p, tables, TermSet::ALL));
    });
}

/// A switch turned off and on again is as it was; `evaluate_with`, what the search calls,
/// honours the switches (the masked evaluation) and the material-only mode.
#[test]
fn the_search_evaluates_with_the_switches_it_is_given() {
    for (id, option) in TermSet::SWITCHES {
        let mut terms = TermSet::ALL;
        terms.set(id, false);
        assert!(!terms.contains(id), "{option}");
        assert_ne!(terms, TermSet::ALL, "{option}");
        terms.set(id, true);
        assert!(terms.contains(id), "{option}");
        assert_eq!(terms, TermSet::ALL, "{option}");
    }
    for pos in sample() {
        with_position!(&pos, p => {
            let tables = EvalTables::of(p.layout());
            assert_eq!(evaluate_with(p, tables, EvalMode::Full, TermSet::ALL), evaluate(p, tables));
            for (id, option) in TermSet::SWITCHES {
                let mut terms = TermSet::ALL;
                terms.set(id, false);
                assert_eq!(
                    evaluate_with(p, tables, EvalMode::Full, terms),
                    evaluate_terms(p, tables, terms),
                    "{}: {option} off",
                    pos.to_fen()
                );
            }
            assert_eq!(
                evaluate_with(p, tables, EvalMode::Material, TermSet::ALL),
                evaluate_material(p)
            );
        });
    }
}

/// Material only: the pieces' values (from the variant file), White's less Black's, from
/// the side to move's view.
#[test]
fn material_only_counts_the_pieces_values_for_the_side_to_move() {
    let registry = Registry::builtin();
    let chess = registry.get("chess").unwrap();
    let value = |letter: char| {
        chess
            .pieces
            .iter()
            .find(|p| p.letter == letter)
            .map(|p| p.value)
            .unwrap()
    };
    let material =
        |fen: &str| with_position!(&position("chess", Some(fen)), p => evaluate_material(p));
    // White: a pawn and a Knight; Black: a Rook.
    let white_up = value('P') + value('N') - value('R');
    assert_ne!(white_up, 0);
    assert_eq!(material("r3k3/8/8/8/8/8/4P3/1N2K3 w - - 0 1"), white_up);
    assert_eq!(material("r3k3/8/8/8/8/8/4P3/1N2K3 b - - 0 1"), -white_up);
    assert_eq!(material("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), 0);
}

#[test]
fn material_is_tapered_to_endgame_values() {
    // What the taper adds: the endgame value less the middlegame one, for each piece; and
    // the pawn's two values, which differ.
    let taper = |pos: &AnyPosition| {
        with_position!(pos, p => {
            let tables = EvalTables::of(p.layout());
            let mut terms = TermSet::ALL;
            terms.set(TermId::MaterialTaper, false);
            let pawn = p.layout().pawn.expect("chess has pawns").index();
            let gain = tables.endgame_values[pawn] - tables.values[pawn];
            (evaluate(p, tables) - evaluate_terms(p, tables, terms), gain)
        })
    };
    // Only Kings and a pawn: the phase is the endgame's, where the pawn counts its endgame
    // value.
    let (added, pawn_gain) = taper(&position("chess", Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")));
    assert_ne!(pawn_gain, 0);
    assert_eq!(added, pawn_gain);
    // At the start the phase is the middlegame's: the taper changes nothing.
    assert_eq!(taper(&position("chess", None)).0, 0);
}

#[test]
fn a_pawn_attacking_a_knight_is_a_threat() {
    // 1.e4 Nf6 2.e5: the e5 pawn attacks the Knight; nothing attacks a White piece.
    let pos = position(
        "chess",
        Some("rnbqkb1r/pppppppp/5n2/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"),
    );
    let (white, black) = term(&pos, "Threats");
    assert!(white > 0, "White's threat on f6 is worth {white}");
    assert_eq!(black, 0);
    // 1.e4 Nf6: the Knight attacks the e4 pawn, which is worth less: no threat.
    let pos = position(
        "chess",
        Some("rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"),
    );
    assert_eq!(term(&pos, "Threats"), (0, 0));
}

#[test]
fn a_transference_threat_counts_in_deathmatch() {
    // The White Magician on a2 can leap to h2 by Home-File Transference, where the Black
    // Queen stands; from b2 it cannot reach h2.
    let on_a2 = position("deathmatch", Some("4k3/8/8/8/8/8/M6q/4K3 w - - 0 1"));
    let on_b2 = position("deathmatch", Some("4k3/8/8/8/8/8/1M5q/4K3 w - - 0 1"));
    assert!(term(&on_a2, "Threats").0 > 0);
    assert_eq!(term(&on_b2, "Threats").0, 0);
    // No Transference in the legacy rules.
    let legacy = position("deathmatch-legacy", Some("4k3/8/8/8/8/8/M6q/4K3 w - - 0 1"));
    assert_eq!(term(&legacy, "Threats").0, 0);
}

#[test]
fn magi_setup_pawns_are_not_doubled_until_they_move() {
    // At the start every file has a pawn, d and g two: nothing passed, isolated or doubled.
    let start = position("magi", None);
    assert_eq!(term(&start, "Pawns"), (0, 0));
    // Once the d3 pawn has gone to d4, the d2 pawn behind it is a doubled pawn.
    let moved = position(
        "magi",
        Some("rnbcqkwbnr/pppppppppp/d2p2p2d/10/10/10/3P6/D5P2D/PPPPPPPPPP/RNBCQKWBNR b KQkq - 0 1"),
    );
    let (white, black) = term(&moved, "Pawns");
    assert_ne!(white, 0, "White's d-pawns");
    assert_eq!(black, 0);
}

/// Two pawns on one file score less than the same pawns spread over two (chess's hand-set
/// weights: the fitted ones leave a doubled pawn nothing in the endgame, which a position of
/// pawns alone is; neither structure has a passed or an isolated pawn).
#[test]
fn doubled_pawns_score_lower() {
    let handset_position = |fen| AnyPosition::from_fen(handset("chess"), Some(fen)).unwrap();
    let doubled = handset_position("4k3/2ppp3/8/8/3P4/2PP4/8/4K3 w - - 0 1");
    let spread = handset_position("4k3/2ppp3/8/8/4P3/2PP4/8/4K3 w - - 0 1");
    assert!(term(&doubled, "Pawns").0 < term(&spread, "Pawns").0);
    assert_eq!(term(&doubled, "Pawns").1, term(&spread, "Pawns").1);
}

// ---- Colour-flip symmetry ----

/// `text` with upper and lower case swapped: White's letters become Black's.
fn swap_case(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

/// A square's name split into its file letters and its rank number (from 1).
fn split_square(name: &str) -> (&str, u8) {
    let at = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or_else(|| panic!("'{name}' is not a square"));
    let rank = name[at..]
        .parse()
        .unwrap_or_else(|_| panic!("'{name}' is not a square"));
    (&name[..at], rank)
}

/// The square on the same file, on the rank the other side calls by the same number.
fn mirror_square(name: &str, ranks: u8) -> String {
    let (file, rank) = split_square(name);
    assert!(
        (1..=ranks).contains(&rank),
        "{name} is not on a board of {ranks} ranks"
    );
    format!("{file}{}", ranks + 1 - rank)
}

/// A list of squares mirrored, in the order the engine writes squares (by rank, then file).
fn mirror_squares(list: &str, ranks: u8) -> String {
    let mut squares: Vec<String> = list.split(',').map(|s| mirror_square(s, ranks)).collect();
    squares.sort_by_key(|s| {
        let (file, rank) = split_square(s);
        (rank, file.to_string())
    });
    squares.join(",")
}

/// The FEN of the same position seen from the other side, worked out from the text alone
/// (README, "FEN"): the ranks in reverse order with the colours swapped, the reserve groups
/// given to the other colour, the other side to move, K/Q rights swapped with k/q, the e.p.
/// squares and the `unmoved=` pawns on their mirrored ranks, and `swaps=WB` read as `BW`.
/// A field it does not know fails the test, so a new kind of state must be taught here.
fn mirror_fen(fen: &str, ranks: u8) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    assert!(
        fields.len() >= 4,
        "'{fen}': mirror_fen takes a full FEN as the engine writes it"
    );
    let (placement, reserve) = match fields[0].split_once('[') {
        Some((placement, rest)) => {
            let inner = rest
                .strip_suffix(']')
                .unwrap_or_else(|| panic!("'{fen}': the reserve has no closing ']'"));
            (placement, Some(inner))
        }
        None => (fields[0], None),
    };
    let mut board = placement
        .split('/')
        .rev()
        .map(swap_case)
        .collect::<Vec<_>>()
        .join("/");
    if let Some(reserve) = reserve {
        let groups = if reserve == "-" {
            reserve.to_string()
        } else {
            let mut groups: Vec<String> = reserve.split(',').map(swap_case).collect();
            // White's groups first (a stable sort keeps the carriers' order).
            groups.sort_by_key(|g| !g.starts_with(|c: char| c.is_ascii_uppercase()));
            groups.join(",")
        };
        board += &format!("[{groups}]");
    }
    let side = match fields[1] {
        "w" => "b",
        "b" => "w",
        other => panic!("'{fen}': side to move '{other}'"),
    };
    let castling = match fields[2] {
        "-" => "-".to_string(),
        rights => {
            let swapped = swap_case(rights);
            "KQkq".chars().filter(|&c| swapped.contains(c)).collect()
        }
    };
    let en_passant = match fields[3] {
        "-" => "-".to_string(),
        squares => mirror_squares(squares, ranks),
    };
    let mut out = vec![board, side.to_string(), castling, en_passant];
    for &token in &fields[4..] {
        out.push(match token.split_once('=') {
            None if token.bytes().all(|b| b.is_ascii_digit()) => token.to_string(),
            Some(("unmoved", "-")) => token.to_string(),
            Some(("unmoved", squares)) => format!("unmoved={}", mirror_squares(squares, ranks)),
            Some(("swaps", counts)) if counts.len() == 2 => {
                format!("swaps={}", counts.chars().rev().collect::<String>())
            }
            _ => panic!("'{fen}': mirror_fen does not know how to mirror the field '{token}'"),
        });
    }
    out.join(" ")
}

/// What the evaluation says of a position: the whole, the cheap estimate and material only
/// (each for the side to move), and each term's (name, White's share, Black's share).
#[derive(Debug)]
struct Verdict {
    whole: i32,
    fast: i32,
    material: i32,
    terms: Vec<(&'static str, i32, i32)>,
}

impl Verdict {
    fn of(pos: &AnyPosition) -> Verdict {
        with_position!(pos, p => {
            let tables = EvalTables::of(p.layout());
            Verdict {
                whole: evaluate(p, tables),
                fast: evaluate_fast(p, tables),
                material: evaluate_material(p),
                terms: breakdown(p).into_iter().map(|t| (t.name, t.white, t.black)).collect(),
            }
        })
    }

    fn shares(&self, name: &str) -> (i32, i32) {
        let &(_, white, black) = self
            .terms
            .iter()
            .find(|t| t.0 == name)
            .unwrap_or_else(|| panic!("the breakdown has no term '{name}'"));
        (white, black)
    }

    fn white(&self, name: &str) -> i32 {
        self.shares(name).0
    }

    fn black(&self, name: &str) -> i32 {
        self.shares(name).1
    }
}

/// The mirrored position scores the same for its side to move, and every term's White and
/// Black shares are swapped.
fn assert_colour_flip_symmetric(pos: &AnyPosition) {
    let variant = pos.variant();
    let fen = pos.to_fen();
    let mirrored_fen = mirror_fen(&fen, variant.ranks);
    assert_eq!(
        mirror_fen(&mirrored_fen, variant.ranks),
        fen,
        "mirroring twice gives the FEN back"
    );
    let mirrored = AnyPosition::from_fen(variant, Some(&mirrored_fen)).unwrap_or_else(|e| {
        panic!(
            "{}: the mirror of '{fen}', '{mirrored_fen}', is refused: {e}",
            variant.name
        )
    });
    assert_eq!(
        mirrored.to_fen(),
        mirrored_fen,
        "{}: the mirror of '{fen}' reads back as written",
        variant.name
    );
    let (a, b) = (Verdict::of(pos), Verdict::of(&mirrored));
    let context = format!("{}: '{fen}' and its mirror '{mirrored_fen}'", variant.name);
    assert_eq!(a.whole, b.whole, "{context}: evaluation");
    assert_eq!(a.fast, b.fast, "{context}: cheap evaluation");
    assert_eq!(a.material, b.material, "{context}: material");
    assert_eq!(a.terms.len(), b.terms.len());
    for (&(name, white, black), &(mirror_name, mirror_white, mirror_black)) in
        a.terms.iter().zip(&b.terms)
    {
        assert_eq!(name, mirror_name);
        assert_eq!(
            (white, black),
            (mirror_black, mirror_white),
            "{context}: term '{name}' (White, Black) against the mirror's (Black, White)"
        );
    }
}

/// Positions of random games from `start`: each game `plies` long at most.
fn random_games(
    variant: &'static Variant,
    start: &str,
    games: usize,
    plies: usize,
    rng: &mut StdRng,
) -> Vec<AnyPosition> {
    let root = AnyPosition::from_fen(variant, Some(start))
        .unwrap_or_else(|e| panic!("{}: '{start}': {e}", variant.name));
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = root;
        for _ in 0..plies {
            out.push(pos);
            let moves = with_position!(&pos, p => p.legal_moves());
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            with_position!(&mut pos, p => p.play(m));
        }
    }
    out
}

/// The squares of the holes (`*`) of a FEN's board field, counted from its first character.
fn hole_squares(board: &str) -> Vec<usize> {
    let placement = board.split('[').next().unwrap();
    let mut holes = Vec::new();
    let mut square = 0;
    let mut run = 0;
    for c in placement.chars() {
        if let Some(d) = c.to_digit(10) {
            run = run * 10 + d as usize;
            continue;
        }
        square += run;
        run = 0;
        match c {
            '/' => {}
            '*' => {
                holes.push(square);
                square += 1;
            }
            _ => square += 1,
        }
    }
    holes
}

/// Positions random games start from besides each variant's start position (and from their
/// mirrors too), so that the sample holds state that random play from the start seldom
/// reaches.
const EXTRA_STARTS: &[(&str, &str)] = &[
    // White's King (e3) and Magician (d3) one step from their 4th rank (the benchmark
    // position of docs/royal-magician.md): pieces are dropped early.
    (
        "royal-magician",
        "rnbmkbnr/pppppppp/8/8/4P3/3MK3/PPPP1PPP/RNB2BNR w kq - 0 4",
    ),
    // Magi: White's f-pawn has just stepped f2-f5, and Black's pawns on g4 and e5 can take
    // it on either square it passed.
    ("magi", "5k4/10/10/10/10/4pP4/6p3/10/10/5K4 b - f3,f4 0 1"),
];

#[test]
fn the_evaluation_is_the_same_from_either_sides_chair_in_every_variant() {
    let registry = Registry::builtin();
    let mut rng = StdRng::seed_from_u64(0x5eed_e7a1);
    // What the sample must hold, so that each part of the mirroring is exercised.
    let mut seen = [
        ("Black to move", 0),
        ("an e.p. square", 0),
        ("several e.p. squares", 0),
        ("some castling rights lost", 0),
        ("a reserve partly dropped", 0),
        ("unmoved=", 0),
        ("swaps=", 0),
        ("holes moved", 0),
    ];
    for (name, _) in EXTRA_STARTS {
        assert!(
            registry.get(name).is_some(),
            "EXTRA_STARTS: no variant '{name}'"
        );
    }
    let mut checked = 0;
    for &variant in registry.all() {
        let mut starts = vec![variant.start_fen.clone()];
        for &(name, fen) in EXTRA_STARTS {
            if name == variant.name {
                starts.push(fen.to_string());
                starts.push(mirror_fen(fen, variant.ranks));
            }
        }
        for start in &starts {
            for pos in random_games(variant, start, 24, 120, &mut rng) {
                let fen = pos.to_fen();
                let fields: Vec<&str> = fen.split_whitespace().collect();
                let start_board = variant.start_fen.split_whitespace().next().unwrap();
                let found = [
                    fields[1] == "b",
                    fields[3] != "-",
                    fields[3].contains(','),
                    fields[2] != "-" && fields[2] != "KQkq",
                    fields[0].contains('[')
                        && fields[0].split('[').nth(1) != start_board.split('[').nth(1),
                    fen.contains(" unmoved="),
                    fen.contains(" swaps="),
                    hole_squares(fields[0]) != hole_squares(start_board),
                ];
                for (count, found) in seen.iter_mut().zip(found) {
                    count.1 += found as usize;
                }
                assert_colour_flip_symmetric(&pos);
                let every_term = every_term_on(variant);
                let fen = pos.to_fen();
                assert_colour_flip_symmetric(
                    &AnyPosition::from_fen(every_term, Some(&fen)).unwrap(),
                );
                checked += 1;
            }
        }
    }
    for (what, count) in seen {
        assert!(count > 0, "no position with {what} among the {checked}");
    }
    eprintln!("colour-flip symmetry: {checked} positions; {seen:?}");
}

#[test]
fn mirror_fen_turns_the_board_and_every_state_field() {
    // Written out by hand, so that the mirroring the symmetry test relies on is itself checked.
    assert_eq!(
        mirror_fen(
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w Kq d6,f6 0 3",
            8
        ),
        "rnbqkbnr/pppp1ppp/8/8/3PpP2/8/PPP1P1PP/RNBQKBNR b Qk d3,f3 0 3"
    );
    assert_eq!(
        mirror_fen(
            "rnbmkbnr/pppppppp/8/8/4P3/3MK3/PPPP1PPP/RNB2BNR[KR,MBNR,kbnr] w kq - 0 4",
            8
        ),
        "rnb2bnr/pppp1ppp/3mk3/4p3/8/8/PPPPPPPP/RNBMKBNR[KBNR,kr,mbnr] b KQ - 0 4"
    );
    assert_eq!(
        mirror_fen(
            "4k5/10/10/10/10/10/10/3P6/10/5K4 b - - 0 9 unmoved=d3,g8",
            10
        ),
        "5k4/10/3p6/10/10/10/10/10/10/4K5 w - - 0 9 unmoved=g3,d8"
    );
    assert_eq!(
        mirror_fen("4k3/8/8/8/8/8/8/4K3 w - - 3 20 swaps=10", 8),
        "4k3/8/8/8/8/8/8/4K3 b - - 3 20 swaps=01"
    );
    assert_eq!(
        mirror_fen("3k3/1*1*3/*5*/*3p1*/*3*1*/5M1/3K3 w - - 0 1", 7),
        "3k3/5m1/*3*1*/*3P1*/*5*/1*1*3/3K3 b - - 0 1"
    );
}

// ---- Each term points the right way ----
//
// Each test compares two positions, White to move, that differ in what one term measures.
// Where the rest of the evaluation is the same, the test says so (`assert_differ_only_in`),
// and then the whole evaluation must move the same way as the term.

/// A position of `variant` with White to move, and its evaluation.
fn white_to_move(variant: &str, fen: &str) -> Verdict {
    assert_eq!(fen.split_whitespace().nth(1), Some("w"), "{fen}");
    Verdict::of(&position(variant, Some(fen)))
}

/// A built-in variant with the hand-set weights of its terms (`Weights::defaults`): every
/// term points the way it was designed to and no square table is there. The built-in
/// weights are fitted to games, and a fit may give a term the other sign in a phase (the
/// Queen's endgame mobility in chess) or add squares that two compared positions do not
/// share; what a term computes is tested under weights whose signs are known.
fn handset(variant: &str) -> &'static Variant {
    static MADE: Mutex<Vec<&'static Variant>> = Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(v) = made.iter().find(|v| v.name == variant) {
        return v;
    }
    let builtin = Registry::builtin();
    let mut copy = builtin.get(variant).unwrap().clone();
    copy.weights = Weights::defaults(&copy);
    let v: &'static Variant = Box::leak(Box::new(copy));
    made.push(v);
    v
}

/// `variant` with every weight its fit left at zero given a value, so that the symmetry
/// test reaches the terms no built-in variant has yet (the engine skips a term at zero).
fn every_term_on(variant: &'static Variant) -> &'static Variant {
    static MADE: Mutex<Vec<&'static Variant>> = Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(v) = made.iter().find(|v| v.name == variant.name) {
        return v;
    }
    let mut copy = variant.clone();
    for w in &mut copy.weights.list {
        if w.value == [0, 0] {
            w.value = match w.shape {
                Shape::Single | Shape::Units => [3, 3],
                Shape::Pair => [17, -11],
            };
        }
    }
    let v: &'static Variant = Box::leak(Box::new(copy));
    made.push(v);
    v
}

/// A position of `variant` under its hand-set weights, White to move, and its evaluation.
fn white_to_move_handset(variant: &str, fen: &str) -> Verdict {
    assert_eq!(fen.split_whitespace().nth(1), Some("w"), "{fen}");
    let pos = AnyPosition::from_fen(handset(variant), Some(fen)).unwrap();
    Verdict::of(&pos)
}

/// Every term but `terms` is the same, for both sides, in the two evaluations.
fn assert_differ_only_in(a: &Verdict, b: &Verdict, terms: &[&str]) {
    for (&(name, aw, ab), &(_, bw, bb)) in a.terms.iter().zip(&b.terms) {
        if !terms.contains(&name) {
            assert_eq!((aw, ab), (bw, bb), "term '{name}' should not differ");
        }
    }
}

#[test]
fn more_material_scores_higher() {
    let with_pawn = white_to_move("chess", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
    let without = white_to_move("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(with_pawn.white("Material") > without.white("Material"));
    assert!(with_pawn.whole > without.whole);
}

#[test]
fn the_side_to_move_has_the_tempo() {
    // All the pieces on the board: the middlegame's tempo, which is positive.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let white = Verdict::of(&position("chess", Some(&format!("{fen} w - - 0 1"))));
    let black = Verdict::of(&position("chess", Some(&format!("{fen} b - - 0 1"))));
    assert!(white.white("Tempo") > 0 && white.black("Tempo") == 0);
    assert!(black.black("Tempo") > 0 && black.white("Tempo") == 0);
}

/// A Rook on b1 behind its own pawn on b3 sees 7 squares fewer than with the pawn on g3
/// (the same rank, file class and structure: both pawns are passed and isolated).
#[test]
fn more_mobility_scores_higher() {
    let free = white_to_move_handset("chess", "4k3/8/8/8/8/6P1/8/1R2K3 w - - 0 1");
    let hemmed = white_to_move_handset("chess", "4k3/8/8/8/8/1P6/8/1R2K3 w - - 0 1");
    assert!(free.white("Mobility") > hemmed.white("Mobility"));
    assert_differ_only_in(&free, &hemmed, &["Mobility"]);
    assert!(free.whole > hemmed.whole);
    // The same on 10x10, where a square of mobility has its own weight.
    let free = white_to_move_handset("magi", "4k5/10/10/10/10/10/10/7P2/10/1R2K5 w - - 0 1");
    let hemmed = white_to_move_handset("magi", "4k5/10/10/10/10/10/10/1P8/10/1R2K5 w - - 0 1");
    assert!(free.white("Mobility") > hemmed.white("Mobility"));
    assert_differ_only_in(&free, &hemmed, &["Mobility"]);
    assert!(free.whole > hemmed.whole);
}

/// The d5 pawn is passed with Black's pawn on a7, not with it on d7.
#[test]
fn a_passed_pawn_scores_higher_than_a_blocked_one() {
    let passed = white_to_move("chess", "4k3/p7/8/3P4/8/8/8/4K3 w - - 0 1");
    let blocked = white_to_move("chess", "4k3/3p4/8/3P4/8/8/8/4K3 w - - 0 1");
    assert!(passed.white("Pawns") > blocked.white("Pawns"));
    assert_eq!(passed.black("Pawns"), blocked.black("Pawns"));
    assert!(passed.whole > blocked.whole);
}

#[test]
fn a_passed_pawn_scores_more_the_further_it_has_come() {
    // Hand-set weights: the fitted ones also weigh the Kings' race to the pawn's next square,
    // which Black's King on e8 wins for d6 and not for d4.
    let far = white_to_move_handset("chess", "4k3/8/3P4/8/8/8/8/4K3 w - - 0 1");
    let near = white_to_move_handset("chess", "4k3/8/8/8/3P4/8/8/4K3 w - - 0 1");
    assert!(far.white("Pawns") > near.white("Pawns"));
    assert!(far.whole > near.whole);
}

/// b2 and c2 stand together; b2 and h2 are both isolated (every pawn here is passed, on its
/// start rank, off the centre).
#[test]
fn an_isolated_pawn_scores_lower_than_a_supported_one() {
    let together = white_to_move_handset("chess", "4k3/8/8/8/8/8/1PP5/4K3 w - - 0 1");
    let isolated = white_to_move_handset("chess", "4k3/8/8/8/8/8/1P5P/4K3 w - - 0 1");
    assert!(together.white("Pawns") > isolated.white("Pawns"));
    assert_differ_only_in(&together, &isolated, &["Pawns"]);
    assert!(together.whole > isolated.whole);
}

/// b2 c2 d3 against b2 c2 c3: the same ranks, no pawn isolated, the c-pawns doubled (the
/// hand-set weights, as above).
#[test]
fn a_doubled_pawn_scores_lower() {
    let single = white_to_move_handset("chess", "7k/8/8/8/8/3P4/1PP5/7K w - - 0 1");
    let doubled = white_to_move_handset("chess", "7k/8/8/8/8/2P5/1PP5/7K w - - 0 1");
    assert!(single.white("Pawns") > doubled.white("Pawns"));
    assert!(single.whole > doubled.whole);
}

/// The King on g1 behind f2 g2 h2, or on b1 away from them (b1 and g1 are alike to the
/// King's placement). Queens keep the game in the middlegame, where the shield counts.
#[test]
fn a_king_behind_its_pawn_shield_scores_higher() {
    let sheltered = white_to_move_handset("chess", "3q2k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1");
    let bare = white_to_move_handset("chess", "3q2k1/5ppp/8/8/8/8/5PPP/1K1Q4 w - - 0 1");
    assert!(sheltered.white("King safety") > bare.white("King safety"));
    assert_differ_only_in(&sheltered, &bare, &["King safety"]);
    assert!(sheltered.whole > bare.whole);
}

/// White's Queen (h5) and Rook (f1) bear on the squares around a King on g8, not around one
/// on b8 (b8 and g8 are alike to the King's placement).
#[test]
fn attacks_on_the_king_zone_score_for_the_attacker() {
    let attacked = white_to_move("chess", "6k1/8/8/7Q/8/8/8/4KR2 w - - 0 1");
    let safe = white_to_move("chess", "1k6/8/8/7Q/8/8/8/4KR2 w - - 0 1");
    assert!(attacked.black("King safety") < safe.black("King safety"));
    assert_differ_only_in(&attacked, &safe, &["King safety"]);
    assert!(attacked.whole > safe.whole);
}

/// How much Black's King safety falls in a chess position, White to move, under the hand-set
/// weights, when the single weight `key` is `value` rather than zero.
fn black_king_safety_lost_to(key: &str, value: i32, fen: &str) -> i32 {
    let under = |value: i32| {
        let mut copy = handset("chess").clone();
        let i = copy
            .weights
            .index(key)
            .unwrap_or_else(|| panic!("no weight {key}"));
        copy.weights.list[i].value = [value, value];
        let v: &'static Variant = Box::leak(Box::new(copy));
        Verdict::of(&AnyPosition::from_fen(v, Some(fen)).unwrap()).black("King safety")
    };
    under(0) - under(value)
}

/// The squares of the King's zone that the enemy attacks and nothing but the King defends
/// join the attack: around a bare King on g8 more of them than once a Rook on a7 guards the
/// seventh rank, and none around a King no piece attacks.
#[test]
fn weak_squares_of_the_kings_zone_add_to_the_attack() {
    let lost = |fen| black_king_safety_lost_to("king_safety.weak_square", 3, fen);
    let bare = lost("6k1/8/8/7Q/8/8/8/4KR2 w - - 0 1");
    let guarded = lost("6k1/r7/8/7Q/8/8/8/4KR2 w - - 0 1");
    let unattacked = lost("6k1/8/8/8/8/8/8/N3K3 w - - 0 1");
    assert!(bare > guarded && guarded > 0, "{bare} {guarded}");
    assert_eq!(unattacked, 0);
}

/// Each kind with a safe check joins the attack: the Queen on h5 and the Rook on f1 can check
/// the King on g8 from g6 and g1, squares it does not guard; a Knight on a1 has no check.
#[test]
fn a_safe_check_adds_to_the_attack() {
    let lost = |fen| black_king_safety_lost_to("king_safety.check", 5, fen);
    assert!(lost("6k1/8/8/7Q/8/8/8/4KR2 w - - 0 1") > 0);
    assert_eq!(lost("6k1/8/8/8/8/8/8/N3K3 w - - 0 1"), 0);
}

/// A Knight on d4 attacks the Rook on c6; on e4 it does not (d4 and e4 are alike to its
/// placement). Then a Black pawn on c5 attacks the Knight on d4, not on e4 (with a White pawn
/// besides: a lone Knight ahead is scaled to a draw, `eval/endgame.rs`).
#[test]
fn a_threat_scores_for_the_threatening_side() {
    let threat = white_to_move("chess", "7k/8/2r5/8/3N4/8/8/6K1 w - - 0 1");
    let none = white_to_move("chess", "7k/8/2r5/8/4N3/8/8/6K1 w - - 0 1");
    assert!(threat.white("Threats") > none.white("Threats"));
    assert_differ_only_in(&threat, &none, &["Threats"]);
    assert!(threat.whole > none.whole);

    let threatened = white_to_move("chess", "7k/8/8/2p5/3N4/8/7P/6K1 w - - 0 1");
    let none = white_to_move("chess", "7k/8/8/2p5/4N3/8/7P/6K1 w - - 0 1");
    assert!(threatened.black("Threats") > none.black("Threats"));
    assert_differ_only_in(&threatened, &none, &["Threats"]);
    assert!(threatened.whole < none.whole);
}

#[test]
fn a_centralised_knight_scores_higher_than_one_on_the_rim() {
    // Hand-set weights: the fitted ones count the Knight's squares under safe mobility too.
    // A pawn besides the Knight: a lone Knight ahead is scaled to a draw.
    let centre = white_to_move_handset("chess", "7k/8/8/8/3N4/8/7P/6K1 w - - 0 1");
    let rim = white_to_move_handset("chess", "7k/8/8/8/N7/8/7P/6K1 w - - 0 1");
    assert!(centre.white("Placement") > rim.white("Placement"));
    assert_differ_only_in(&centre, &rim, &["Placement"]);
    assert!(centre.whole > rim.whole);
}

/// The pawn's and the King's placement parts, each by the sign and size of its own weight
/// (the test reads them): with Kings and pawns alone the phase is
/// the endgame's, with every piece on the board the middlegame's.
#[test]
fn pawn_and_king_placement_follow_their_weights() {
    let w = magus::eval::Params::of(handset("chess"));
    let placement = |fen: &str| white_to_move_handset("chess", fen).white("Placement");
    // Endgame. A pawn one rank further (passed either way): the advance weight.
    let step =
        placement("4k3/8/8/8/8/P7/8/4K3 w - - 0 1") - placement("4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
    assert_eq!(step, w.pawn_advance.eg);
    // A pawn on a centre file rather than a rook file, on the same rank: the centre weight.
    let centre =
        placement("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1") - placement("4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
    assert_eq!(centre, w.pawn_centre.eg);
    // The King three squares nearer the centre on its rank (a4 to d4): the distance weight.
    let nearer =
        placement("4k3/8/8/8/3K4/8/8/8 w - - 0 1") - placement("4k3/8/8/8/K7/8/8/8 w - - 0 1");
    assert_eq!(nearer, -3 * w.king_centre_distance.eg);
    // Three ranks up at the same distance from the centre (e3 to e6): the advance weight.
    let up = placement("k7/8/4K3/8/8/8/8/8 w - - 0 1") - placement("k7/8/8/8/8/4K3/8/8 w - - 0 1");
    assert_eq!(up, 3 * w.king_advance.eg);
    // On its first rank rather than the last, as far from the centre: home, less seven ranks.
    let home =
        placement("k7/8/8/8/8/8/8/4K3 w - - 0 1") - placement("k3K3/8/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(home, w.king_home.eg - 7 * w.king_advance.eg);
    // Middlegame, every piece on the board: the King stepped up from e1 to e2 (one rank up,
    // one square nearer the centre, no longer at home), and a pawn two ranks further.
    let at_e2 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPKPPP/RNBQ1BNR w kq - 0 1";
    let at_e1 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w kq - 0 1";
    let king = placement(at_e2) - placement(at_e1);
    assert_eq!(
        king,
        w.king_advance.mg - w.king_home.mg - w.king_centre_distance.mg
    );
    let pawn =
        placement(at_e1) - placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(pawn, 2 * w.pawn_advance.mg);
}

/// Every slider's mobility counts: a Bishop and a Queen hemmed in by their own pawns score
/// less than free ones, by the sign of their own weights.
#[test]
fn every_sliders_mobility_counts() {
    let w = magus::eval::Params::of(handset("chess"));
    let mobility = |fen: &str| white_to_move_handset("chess", fen).white("Mobility");
    let pieces = [("B", 2), ("Q", 4)];
    for (piece, kind) in pieces {
        // On c1 behind pawns on b2 and d2, against the same pawns on a3 and h3.
        let free = mobility(&format!("4k3/8/8/8/8/P6P/8/2{piece}1K3 w - - 0 1"));
        let hemmed = mobility(&format!("4k3/8/8/8/8/8/1P1P4/2{piece}1K3 w - - 0 1"));
        let weight = w.mobility[kind];
        assert!(weight.mg > 0 && weight.eg > 0, "{piece}: {weight:?}");
        assert!(free > hemmed, "{piece}: {free} against {hemmed}");
    }
}

// ---- Each variant's own terms (src/eval/variant_terms.rs) ----

/// Deathmatch: a Bishop keeps the choice of becoming a Magician; the more Bishops, the more
/// choice (a middlegame term: the start array, less one or two White Bishops). Material
/// differs too, so only the term is compared.
#[test]
fn unswapped_bishops_score_in_deathmatch() {
    for variant in ["deathmatch", "deathmatch-legacy"] {
        let black = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP";
        let two = white_to_move(variant, &format!("{black}/RNBQKBNR w KQkq - 0 1"));
        let one = white_to_move(variant, &format!("{black}/RN1QKBNR w KQkq - 0 1"));
        let none = white_to_move(variant, &format!("{black}/RN1QK1NR w KQkq - 0 1"));
        assert!(two.white("Variant") > one.white("Variant"), "{variant}");
        assert!(one.white("Variant") > none.white("Variant"), "{variant}");
        assert_eq!(none.white("Variant"), 0, "{variant}");
    }
}

/// Deathmatch: a pawn one move from the 6th rank (b5) will turn the Magician (h1) into a
/// High-Priestess or Telepath; one two moves away (b4) counts less; one on b3 not at all.
#[test]
fn a_pawn_nearing_the_sixth_rank_promises_a_magician_upgrade() {
    for variant in ["deathmatch", "deathmatch-legacy"] {
        let near = white_to_move(variant, "4k3/8/8/1P6/8/8/8/4K2M w - - 0 1");
        let far = white_to_move(variant, "4k3/8/8/8/1P6/8/8/4K2M w - - 0 1");
        let none = white_to_move(variant, "4k3/8/8/8/8/1P6/8/4K2M w - - 0 1");
        assert!(near.white("Variant") > far.white("Variant"), "{variant}");
        assert!(far.white("Variant") > none.white("Variant"), "{variant}");
        assert!(
            near.whole > far.whole && far.whole > none.whole,
            "{variant}"
        );
        // Without a Magician there is nothing to upgrade.
        let no_magician = white_to_move(variant, "4k3/8/8/1P6/8/8/8/4K3 w - - 0 1");
        assert_eq!(no_magician.white("Variant"), 0, "{variant}");
    }
}

/// Magician Chess: the Knight on b5 stands next to the hole a5, which Black's Magician on b6
/// can enchant (a ferz step away), so a spell can drop it; on f5, next to g5, out of the
/// Magician's reach, it is safe (b5 and f5 are alike to the Knight's placement).
#[test]
fn a_piece_an_enemy_spell_can_drop_scores_lower_in_magician_chess() {
    let droppable = white_to_move(
        "magician-chess",
        "3k3/1m1*3/*N4*/*2*2*/*5*/3*3/3K3 w - - 0 1",
    );
    let safe = white_to_move(
        "magician-chess",
        "3k3/1m1*3/*4N*/*2*2*/*5*/3*3/3K3 w - - 0 1",
    );
    assert!(droppable.white("Variant") < safe.white("Variant"));
    assert_differ_only_in(&droppable, &safe, &["Variant"]);
    assert!(droppable.whole < safe.whole);
}

/// Magician Chess: White's Magician on c3 can enchant the holes d2, d4 and a3; with the d2
/// hole on a7 instead, only two (the Magician only moves, so it attacks nothing either way).
/// Four Rooks, out of every hole's way, keep the phase near the middlegame's, where a hole
/// in reach counts most.
#[test]
fn holes_in_reach_of_ones_casters_score_in_magician_chess() {
    let three = white_to_move(
        "magician-chess",
        "3k1rr/3*3/*5*/*2*2*/*1M3*/3*3/RR2K2 w - - 0 1",
    );
    let two = white_to_move(
        "magician-chess",
        "*2k1rr/3*3/*5*/*2*2*/*1M3*/7/RR2K2 w - - 0 1",
    );
    assert!(three.white("Variant") > two.white("Variant"));
    assert_differ_only_in(&three, &two, &["Variant"]);
    assert!(three.whole > two.whole);
}

/// Royal Magician's Chess: the King's reserve still holds B, N and R, or only R (B and N
/// dropped and gone).
#[test]
fn a_reserve_still_to_come_scores_for_its_owner_in_royal_magician() {
    let full = white_to_move(
        "royal-magician",
        "3mk3/8/8/8/8/8/8/3MK3[KBNR,MBNR,kbnr,mbnr] w - - 0 1",
    );
    let spent = white_to_move(
        "royal-magician",
        "3mk3/8/8/8/8/8/8/3MK3[KR,MBNR,kbnr,mbnr] w - - 0 1",
    );
    assert!(full.white("Variant") > spent.white("Variant"));
    assert_differ_only_in(&full, &spent, &["Variant"]);
    assert!(full.whole > spent.whole);
    // Black's reserve counts for Black.
    let black_spent = white_to_move(
        "royal-magician",
        "3mk3/8/8/8/8/8/8/3MK3[KBNR,MBNR,kr,mbnr] w - - 0 1",
    );
    assert!(black_spent.black("Variant") < full.black("Variant"));
    assert!(black_spent.whole > full.whole);
}

/// Royal Magician's Chess: the nearer a carrier is to the ranks that release its reserve,
/// the more the reserve is worth (the King's own placement differs, so only the term).
#[test]
fn a_carrier_nearer_its_drop_ranks_makes_its_reserve_worth_more() {
    let reserve = "[KBNR,MBNR,kbnr,mbnr] w - - 0 1";
    let on = |rank_diagram: &str| {
        white_to_move("royal-magician", &format!("{rank_diagram}{reserve}")).white("Variant")
    };
    let third = on("3mk3/8/8/8/8/4K3/8/3M4");
    let second = on("3mk3/8/8/8/8/8/4K3/3M4");
    let first = on("3mk3/8/8/8/8/8/8/3MK3");
    assert!(third > second && second > first, "{third} {second} {first}");
}

/// The win-draw-loss model each built-in variant reports with is the one docs/wdl.md
/// publishes, coefficient for coefficient.
#[test]
fn every_variants_wdl_model_is_the_published_one() {
    let doc = include_str!("../docs/wdl.md");
    let registry = Registry::builtin();
    let mut seen = 0;
    for v in registry.all() {
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| {} |", v.name)))
            .unwrap_or_else(|| panic!("docs/wdl.md has no row for {}", v.name));
        let cells: Vec<f64> = row
            .split('|')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .skip(3)
            .take(4)
            .map(|c| c.parse().unwrap_or_else(|e| panic!("{row}: {c}: {e}")))
            .collect();
        let m = magus::eval::wdl::model_for(v);
        assert_eq!(vec![m.a0, m.a1, m.b0, m.b1], cells, "{}", v.name);
        seen += 1;
    }
    assert_eq!(seen, registry.all().len());
}
