//! Random play in every variant, the engine and an independent model of the rules side by
//! side. Both start from the same FEN, the variant's start (for Magi, half the time, a
//! position where pawns meet), which the model reads from the text itself; both make the
//! same move at every ply, each its own way; at every ply the test compares:
//!
//! - the sorted legal move lists, as wire strings (the model names its own moves);
//! - the FEN the model writes with the engine's (board, side, castling rights, e.p. squares,
//!   clocks, unmoved pawns, swap counts): state that drifts is caught on the ply it drifts.
//!   The Royal Magician model writes every field but the two clocks.
//!
//! The models: `generic_reference` (chess, Magi, Deathmatch and its legacy rules),
//! `magician_reference` (Magician Chess) and `royal_magician/reference.rs`. None calls the
//! engine's move making, attack code or state; they share only the variant definitions.
//!
//! Engine invariants checked along the way: the incremental hash equals a recomputation and
//! the FEN round-trips at every ply; on one ply in 8, the position rebuilt from its FEN has
//! the same perft 2; on one in 16, taking the move back restores the position.
//!
//! So that a pass means something, each variant must also have met its special rules along
//! the way (e.p. squares, Magi's multi-square ones and unmoved pawns, castling, swaps and
//! the legacy swap count, 6th-rank promotions, Transference, spells, drops): the counts are
//! printed, and a rule never met in 10 000 plies or more of a variant fails the test.
//!
//! `MAGUS_RANDOM_PLIES` sets the number of plies (default 100 000, shared by the variants);
//! `MAGUS_RANDOM_VARIANTS` (names joined by ',') plays only those variants.

use std::collections::BTreeMap;

use magus::game::{AnyPosition, Game};
use magus::variant::{EnPassant, Role, Variant};
use magus::with_position;

/// The FEN row writer the reference models share.
mod common;
/// Chess, Magi, Deathmatch and legacy Deathmatch.
#[allow(dead_code)]
mod generic_reference;
/// Magician Chess (holes and spells), shared with its own tests.
#[allow(dead_code)]
mod magician_reference;
/// Royal Magician's Chess (drops), shared with its own tests.
#[allow(dead_code)]
#[path = "royal_magician/reference.rs"]
mod royal_reference;

/// A model of one variant, at one position.
#[derive(Clone)]
enum Model {
    Generic(generic_reference::Board),
    Holes(magician_reference::Board),
    Drops(royal_reference::Reference),
}

impl Model {
    fn from_fen(variant: &'static Variant, fen: &str) -> Model {
        if variant.mechanics.spells.is_some() {
            Model::Holes(magician_reference::Board::from_fen(fen))
        } else if variant.mechanics.drops.is_some() {
            Model::Drops(royal_reference::Reference::from_fen(fen))
        } else {
            Model::Generic(generic_reference::Board::from_fen(variant, fen))
        }
    }

    /// The legal moves by wire name, sorted, each with the model after it.
    fn legal_moves(&self) -> Vec<(String, Model)> {
        let mut moves: Vec<(String, Model)> = match self {
            Model::Generic(b) => b
                .legal_moves()
                .into_iter()
                .map(|(m, next)| (m, Model::Generic(next)))
                .collect(),
            Model::Holes(b) => b
                .legal_moves()
                .into_iter()
                .map(|(m, next)| (m, Model::Holes(next)))
                .collect(),
            Model::Drops(r) => r
                .legal_moves()
                .into_iter()
                .map(|(m, next)| (m, Model::Drops(next)))
                .collect(),
        };
        moves.sort_by(|a, b| a.0.cmp(&b.0));
        moves
    }

    /// The model's FEN, and the part of the engine's FEN it is to be compared with.
    fn fen_against<'a>(&self, engine: &'a str) -> (String, &'a str) {
        match self {
            Model::Generic(b) => (b.to_fen(), engine),
            Model::Holes(b) => (b.to_fen(), engine),
            // The model keeps no move clocks: everything before them.
            Model::Drops(r) => {
                let fields = engine
                    .split_whitespace()
                    .take(4)
                    .map(str::len)
                    .sum::<usize>()
                    + 3;
                (
                    format!("{} {}", r.board_and_reserve(), r.side_castling_and_ep()),
                    &engine[..fields],
                )
            }
        }
    }
}

/// The engine's own invariants: the hash, the FEN round trip and (`deep`) perft 2 of the
/// position rebuilt from its FEN.
fn check_engine(pos: &AnyPosition, variant: &'static Variant, deep: bool) {
    let fen = pos.to_fen();
    with_position!(pos, p => assert_eq!(p.hash(), p.compute_hash(), "{}: hash drift in {fen}", variant.name));
    let rebuilt =
        AnyPosition::from_fen(variant, Some(&fen)).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(
        rebuilt.to_fen(),
        fen,
        "{}: FEN does not round-trip",
        variant.name
    );
    assert_eq!(
        rebuilt.hash(),
        pos.hash(),
        "{}: FEN loses state in {fen}",
        variant.name
    );
    if deep {
        assert_eq!(
            rebuilt.perft(2),
            pos.perft(2),
            "{}: perft 2 differs after FEN in {fen}",
            variant.name
        );
    }
}

/// The letter on a square of a FEN's board ('.' if empty, '*' a hole).
fn letter_at(fen: &str, variant: &Variant, square: &str) -> char {
    let file = (square.as_bytes()[0] - b'a') as usize;
    let rank: usize = square[1..].parse().unwrap();
    let placement = fen.split(['[', ' ']).next().unwrap();
    let row = placement
        .split('/')
        .nth(variant.ranks as usize - rank)
        .unwrap();
    let mut cells = Vec::new();
    let mut run = 0;
    for c in row.chars() {
        match c.to_digit(10) {
            Some(d) => run = run * 10 + d as usize,
            None => {
                cells.extend(std::iter::repeat_n('.', run));
                run = 0;
                cells.push(c);
            }
        }
    }
    cells.extend(std::iter::repeat_n('.', run));
    cells[file]
}

/// A wire move's squares and suffix: `e7e8q` is (e7, e8, q), `j2j10` (j2, j10, "").
fn split_wire(primary: &str) -> (&str, &str, &str) {
    let square_end = |text: &str| {
        1 + text[1..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len() - 1)
    };
    let (from, rest) = primary.split_at(square_end(primary));
    let (to, suffix) = rest.split_at(square_end(rest));
    (from, to, suffix)
}

/// How often random play met each special rule, to show that the comparison covered it.
#[derive(Default)]
struct Coverage(BTreeMap<&'static str, usize>);

impl Coverage {
    fn add(&mut self, what: &'static str, yes: bool) {
        *self.0.entry(what).or_default() += usize::from(yes);
    }

    /// Counts what the position and the moves it offers show.
    /// `last`: the move that led to the position.
    fn see(&mut self, variant: &Variant, fen: &str, moves: &[String], last: Option<&String>) {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let (castling, ep) = (fields[2], fields[3]);
        self.add("positions with e.p. squares", ep != "-");
        self.add("positions with several e.p. squares", ep.contains(','));
        // Magi's rule makes the pawn's origin a target after a d3/g3 pawn's first move.
        let origin = last.is_some_and(|m| ep.split(',').any(|t| t == split_wire(m).0));
        self.add("positions with the e.p. square the pawn left", origin);
        self.add("positions with unmoved=", fen.contains(" unmoved="));
        self.add("positions with swaps=", fen.contains(" swaps="));
        let mut castlings = Vec::new();
        if let Some(rule) = &variant.castling {
            let file = |f: u8| (b'a' + f) as char;
            for (white, last) in [(true, 1), (false, variant.ranks)] {
                for (side, letter) in [(rule.king_side, 'K'), (rule.queen_side, 'Q')] {
                    let letter = if white {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    };
                    if let Some(side) = side
                        && castling.contains(letter)
                    {
                        let king_from = format!("{}{last}", file(rule.king_file));
                        castlings.push(format!("{king_from}{}{last}", file(side.king_to)));
                    }
                }
            }
        }
        for m in moves {
            let (primary, effect) = m.split_once(',').unwrap_or((m, ""));
            let (from, to, suffix) = split_wire(primary);
            let same_rank = from[1..] == to[1..];
            let piece = letter_at(fen, variant, from);
            let pawn = variant
                .kind_of_letter(piece)
                .is_some_and(|k| variant.pieces[k as usize].role == Role::Pawn && piece != '*');
            let en_passant = pawn && from[..1] != to[..1] && letter_at(fen, variant, to) == '.';
            self.add("e.p. captures offered", en_passant);
            self.add(
                "e.p. captures with a 6th-rank promotion offered",
                en_passant && !effect.is_empty(),
            );
            self.add("castlings offered", castlings.contains(m));
            self.add("swaps offered", effect.is_empty() && from == to);
            self.add(
                "6th-rank promotions offered",
                !effect.is_empty() && !effect.contains('@'),
            );
            self.add("drops offered", effect.contains('@'));
            self.add("spells offered", piece == '*');
            self.add(
                "last-rank promotions offered",
                effect.is_empty() && from != to && !suffix.is_empty() && piece != '*',
            );
            let last_file = (b'a' + variant.files - 1) as char;
            let border = |sq: &str| sq.starts_with('a') || sq.starts_with(last_file);
            self.add(
                "Transference moves offered",
                variant.mechanics.transference.as_ref().is_some_and(|rule| {
                    let kind = variant.kind_of_letter(piece);
                    same_rank
                        && border(from)
                        && border(to)
                        && from[..1] != to[..1]
                        && kind.is_some_and(|k| rule.pieces.contains(&k))
                }),
            );
        }
    }

    /// The rules `variant` has that random play must have met.
    fn expected(variant: &Variant) -> Vec<&'static str> {
        let mechanics = &variant.mechanics;
        let mut out = vec![
            "positions with e.p. squares",
            "e.p. captures offered",
            "last-rank promotions offered",
        ];
        if variant.castling.is_some() {
            out.push("castlings offered");
        }
        if variant.pawns.en_passant == EnPassant::FromThirdRank {
            out.push("positions with several e.p. squares");
            out.push("positions with the e.p. square the pawn left");
        }
        if variant.pawns.multi_step.iter().any(|m| m.unmoved_only) {
            out.push("positions with unmoved=");
        }
        if let Some(rule) = &mechanics.swap_in {
            out.push("swaps offered");
            if rule.per_game > 0 {
                out.push("positions with swaps=");
            }
        }
        if mechanics.rank_promotion.is_some() {
            out.push("6th-rank promotions offered");
            out.push("e.p. captures with a 6th-rank promotion offered");
        }
        if mechanics.transference.is_some() {
            out.push("Transference moves offered");
        }
        if mechanics.spells.is_some() {
            out.push("spells offered");
        }
        if mechanics.drops.is_some() {
            out.push("drops offered");
        }
        out
    }
}

/// Magi with pawns that meet on their first moves: each side's unmoved pawns on its 2nd
/// rank and on d3/g3 (d8/g8) face enemy pawns that attack the squares their first moves
/// pass or leave (White h2-h5 leaves h3 and h4 to the Black pawns on i4 and i5, g3-g4 leaves
/// g3 to f4; Black mirrored). From the start, random play seldom brings this about.
const MAGI_PAWNS_MEET: &str =
    "rnbcqkwbnr/p1p1p2p1p/d2p2p2d/5P2P1/8P1/8p1/5p2p1/D2P2P2D/P1P1P2P1P/RNBCQKWBNR w KQkq - 0 1";

/// Where the games of a variant start: its start position, and for Magi, half the time,
/// [`MAGI_PAWNS_MEET`].
fn openings(variant: &Variant) -> Vec<&str> {
    let mut out = vec![variant.start_fen.as_str()];
    if variant.name == "magi" {
        out.push(MAGI_PAWNS_MEET);
    }
    out
}

/// Plays `plies` random plies of `variant` in games of up to 200, checking every ply.
/// Half the time a pawn moves if one can: pawns that meet are what e.p., promotions and the
/// 6th-rank trigger need, and uniform choices bring them together too seldom.
/// Returns the plies with perft 2 after FEN.
fn play_variant(
    variant: &'static Variant,
    plies: usize,
    next: &mut impl FnMut() -> u64,
    coverage: &mut Coverage,
) -> usize {
    let (mut played, mut deep) = (0, 0);
    while played < plies {
        let openings = openings(variant);
        let fen = openings[(next() % openings.len() as u64) as usize];
        let start =
            AnyPosition::from_fen(variant, Some(fen)).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut game = Game::new(start);
        let mut model = Model::from_fen(variant, fen);
        let mut history = Vec::new();
        for _ in 0..200 {
            let pos = *game.position();
            let fen = pos.to_fen();
            let (model_fen, engine_part) = model.fen_against(&fen);
            assert_eq!(
                model_fen, engine_part,
                "{}: state differs after {history:?}",
                variant.name
            );
            let mut engine_moves = pos.legal_moves_wire(1);
            engine_moves.sort();
            let model_moves = model.legal_moves();
            let model_names: Vec<&String> = model_moves.iter().map(|(m, _)| m).collect();
            assert_eq!(
                engine_moves.iter().collect::<Vec<_>>(),
                model_names,
                "{}: moves differ in {fen} after {history:?}",
                variant.name
            );
            coverage.see(variant, &fen, &engine_moves, history.last());
            let check_deep = next().is_multiple_of(8);
            deep += usize::from(check_deep);
            check_engine(&pos, variant, check_deep);
            if model_moves.is_empty() || played >= plies {
                break;
            }
            let pawn_moves: Vec<&(String, Model)> = model_moves
                .iter()
                .filter(|(m, _)| {
                    let piece = letter_at(&fen, variant, split_wire(m).0);
                    variant.kind_of_letter(piece).is_some_and(|k| {
                        variant.pieces[k as usize].role == Role::Pawn && piece != '*'
                    })
                })
                .collect();
            let choices: Vec<&(String, Model)> =
                if !pawn_moves.is_empty() && next().is_multiple_of(2) {
                    pawn_moves
                } else {
                    model_moves.iter().collect()
                };
            let (m, after) = choices[(next() % choices.len() as u64) as usize];
            game.play_wire(m, 1).unwrap();
            if next().is_multiple_of(16) {
                // Taking a move back restores the position exactly.
                assert!(game.undo());
                assert_eq!(game.position().to_fen(), fen);
                assert_eq!(game.position().hash(), pos.hash());
                game.play_wire(m, 1).unwrap();
            }
            history.push(m.clone());
            model = after.clone();
            played += 1;
        }
    }
    deep
}

/// From how many plies per variant a special rule that never came up fails the run.
const COVERAGE_PLIES: usize = 10_000;

#[test]
fn random_play_matches_the_independent_models() {
    let total: usize = std::env::var("MAGUS_RANDOM_PLIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let only = std::env::var("MAGUS_RANDOM_VARIANTS").ok();
    let registry = magus::variant::Registry::builtin();
    let variants: Vec<&'static Variant> = registry
        .all()
        .iter()
        .copied()
        .filter(|v| {
            only.as_ref()
                .is_none_or(|names| names.split(',').any(|n| n == v.name))
        })
        .collect();
    assert!(
        !variants.is_empty(),
        "MAGUS_RANDOM_VARIANTS names no variant"
    );
    let per_variant = total / variants.len();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut deep = 0;
    let mut missing = Vec::new();
    for &v in &variants {
        let mut coverage = Coverage::default();
        deep += play_variant(v, per_variant, &mut next, &mut coverage);
        let counts: Vec<String> = coverage
            .0
            .iter()
            .filter(|&(_, &n)| n > 0)
            .map(|(what, n)| format!("{what} {n}"))
            .collect();
        eprintln!("{}: {}", v.name, counts.join(", "));
        // Short runs (a small MAGUS_RANDOM_PLIES) may miss a rule by chance.
        if per_variant < COVERAGE_PLIES {
            continue;
        }
        for what in Coverage::expected(v) {
            if coverage.0.get(what).copied().unwrap_or(0) == 0 {
                missing.push(format!("{}: no {what}", v.name));
            }
        }
    }
    eprintln!(
        "random play: {} plies, every one checked against the models; perft 2 after FEN on {deep}",
        per_variant * variants.len()
    );
    assert!(missing.is_empty(), "random play never met: {missing:?}");
}

/// The generic model is held to the perft suite (a copy of the shared oracle's counts, not
/// the engine's) up to 100 000 leaves: it is right on its own, not only like the engine.
#[test]
fn generic_model_matches_the_perft_suite() {
    let registry = magus::variant::Registry::builtin();
    let suite = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/perft-suite.txt"
    ))
    .unwrap();
    let mut checked = 0;
    for line in suite
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let variant = registry.get(fields[0]).unwrap();
        if variant.mechanics.spells.is_some() || variant.mechanics.drops.is_some() {
            continue;
        }
        let fen = match fields[1] {
            "startpos" => variant.start_fen.as_str(),
            fen => fen,
        };
        let model = generic_reference::Board::from_fen(variant, fen);
        for count in fields[2].split_whitespace() {
            let (depth, nodes) = count.split_once('=').unwrap();
            let nodes: u64 = nodes.parse().unwrap();
            if nodes > 100_000 {
                continue;
            }
            assert_eq!(
                model.perft(depth.parse().unwrap()),
                nodes,
                "{}: {fen} depth {depth}",
                variant.name
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} counts checked");
}
