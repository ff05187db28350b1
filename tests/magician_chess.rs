//! Magician Chess (RULES.md §3): holes, spells, spell checks, pawns, promotion, castling.
//!
//! Hand-made positions have their legal moves listed in full, derived in the comments.
//! Board pictures are drawn rank 7 at the top; `*` is a hole. Every position keeps the
//! variant's nine holes, most of them parked in a corner where no caster reaches them.
//! Beyond the hand-made lists, a second, naive model of the rules (`magician_reference`)
//! is compared with the engine move by move along whole trees and random games.

/// The FEN row writer the reference models share.
mod common;
mod magician_reference;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use magician_reference::Board;
use magus::board::{Bitboard, Color, MoveKind, Position};
use magus::game::AnyPosition;
use magus::game::outcome::{Outcome, Reason};
use magus::movegen::MoveList;
use magus::protocol::notation::to_wire;
use magus::variant::{Registry, Variant};

const START: &str = "rmnknmr/ppp*ppp/*5*/*2*2*/*5*/PPP*PPP/RMNKNMR w KQkq - 0 1";

fn variant() -> &'static Variant {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY
        .get_or_init(Registry::builtin)
        .get("magician-chess")
        .expect("magician-chess is built in")
}

fn position(fen: &str) -> AnyPosition {
    AnyPosition::from_fen(variant(), Some(fen)).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn small(pos: &AnyPosition) -> Position<u64> {
    match pos {
        AnyPosition::Small(p) => *p,
        AnyPosition::Large(_) => panic!("a 7x7 board fits in 64 bits"),
    }
}

fn sorted(mut moves: Vec<String>) -> Vec<String> {
    moves.sort();
    moves
}

fn moves_of(fen: &str) -> Vec<String> {
    sorted(position(fen).legal_moves_wire(1))
}

fn strings(list: &[&str]) -> Vec<String> {
    sorted(list.iter().map(|s| s.to_string()).collect())
}

/// The position after a series of wire moves.
fn after(fen: &str, moves: &[&str]) -> AnyPosition {
    let mut pos = position(fen);
    for m in moves {
        pos = pos
            .after_wire(m, 1)
            .unwrap_or_else(|e| panic!("{m} after {}: {e}", pos.to_fen()))
            .0;
    }
    pos
}

/// The legal moves that leave the opponent in check.
fn checking_moves(fen: &str) -> Vec<String> {
    let pos = position(fen);
    sorted(
        pos.legal_moves_wire(1)
            .into_iter()
            .filter(|m| pos.after_wire(m, 1).unwrap().0.in_check())
            .collect(),
    )
}

// ---------------------------------------------------------------------------------------
// The start position and perft
// ---------------------------------------------------------------------------------------

#[test]
fn the_variant_is_built_in_and_starts_as_the_rules_say() {
    let v = variant();
    assert_eq!((v.files, v.ranks), (7, 7));
    assert_eq!(v.start_fen, START);
    let start = AnyPosition::from_fen(v, None).unwrap();
    assert_eq!(start.to_fen(), START);
    // Perft(1) = 14 (RULES.md 3.1): b, c, e, f pawns one or two steps (a2 and g2 face the
    // holes a3 and g3), Nc1-b3/d3, Ne1-d3/f3, Mb1-d3, Mf1-d3. No hole is in a Magician's
    // reach (b1 reaches a2 c2 b3 d1, f1 reaches e2 g2 f3 d1): no spell.
    assert_eq!(
        moves_of(START),
        strings(&[
            "b1d3", "b2b3", "b2b4", "c1b3", "c1d3", "c2c3", "c2c4", "e1d3", "e1f3", "e2e3", "e2e4",
            "f1d3", "f2f3", "f2f4"
        ])
    );
}

#[test]
fn perft_from_the_start_matches_the_oracle() {
    // shared/oracle/perft-suite.txt: magician-chess ; startpos ; 1=14 2=192 3=2784 4=38592
    let start = position(START);
    for (depth, nodes) in [(1, 14), (2, 192), (3, 2784), (4, 38592)] {
        assert_eq!(start.perft(depth), nodes, "perft {depth}");
    }
}

/// Leaves of the tree `depth` plies below `pos` that are spells.
fn spell_leaves(pos: &Position<u64>, depth: u32) -> u64 {
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            if depth == 1 {
                u64::from(matches!(
                    m.kind(),
                    MoveKind::SpellCarry | MoveKind::SpellDrop
                ))
            } else {
                let mut next = *pos;
                next.play(m);
                spell_leaves(&next, depth - 1)
            }
        })
        .sum()
}

/// Spell leaves at ply 5 after the two White moves `first` and `third`, over every Black
/// reply at plies 2 and 4; also how many positions there are at ply 4.
fn route(first: &str, third: &str) -> (u64, u64) {
    let after_first = after(START, &[first]);
    let (mut spells, mut positions) = (0, 0);
    for reply in after_first.legal_moves_wire(1) {
        let after_reply = after_first.after_wire(&reply, 1).unwrap().0;
        let Ok((after_third, _)) = after_reply.after_wire(third, 1) else {
            continue;
        };
        for answer in after_third.legal_moves_wire(1) {
            let ply4 = small(&after_third.after_wire(&answer, 1).unwrap().0);
            positions += 1;
            spells += spell_leaves(&ply4, 1);
        }
    }
    (spells, positions)
}

/// Perft 5 from the start, explained.
///
/// Fairy-Stockfish, with static holes and no spells, counts 559,274 (shared/oracle). Two
/// things differ here, and nothing else:
///
/// 1. **16 King moves are illegal** because a spell could drop the King: after 1.c2-c3 or
///    c2-c4 (e2-e3, e2-e4), Mb7-d5 or Mf7-d5, 2.Kd1-c2 (Kd1-e2), Md5-c5 or Md5-e5, the step
///    Kc2-d3 (Ke2-d3) lands next to the hole d4, and the Black Magician on c5 or e5 stands a
///    ferz step from d4. 4 White first moves x 2 Black Magicians x 2 squares = 16.
///    Non-spell leaves: 559,274 - 16 = 559,258.
///
/// 2. **23,714 spells at ply 5.** Black cannot cast before ply 6 (its Magicians need two
///    moves to reach a hole), White only at ply 5, by a Magician that reached one of these
///    squares by its second move (the mirror routes with the f-side Magician give as much):
///
///    | route (plies 1 and 3) | holes in reach | spells if Black does not interfere | ply-4 positions | spell leaves |
///    |---|---|---|---|---|
///    | Mb1-d3, Md3-c3 | d2 d4 a3 | d2: carry K d1, c2 and e2 carried or dropped, d3; d4: d3 c4 e4 d5; a3: a2 carried or dropped, b3 = 13 | 206 | 2,686 |
///    | Mb1-d3, Md3-b5 | a4       | b4 = 1 | 179 | 155 |
///    | b2-b3, Mb1-b2  | a3 d2    | a2, b3 carried or dropped; d2 as above = 10 | 204 | 1,984 |
///    | b2-b4, Mb1-b2  | a3 d2    | a2 carried or dropped, b3; d2 as above = 9 | 181 | 1,581 |
///    | Nc1-b3, Mb1-c1 | d2       | d2 as above = 6 | 204 | 1,192 |
///    | Nc1-d3, Mb1-c1 | d2       | d2 with the Knight on d3 carried or dropped = 7 | 208 | 1,418 |
///
///    Black's two replies change the base count; every position was checked one by one when
///    this count was first made:
///    - a Black piece next to an enchanted hole adds its drop (+1);
///    - a Black Magician on d5 (Mb7-d5, Mf7-d5) may be dropped by d4d5x but not carried by
///      d4d5: on d4 it would stand a dabbaba step from the hole d2, next to the White King;
///    - a Knight check from c3 or e3 leaves only the King's carry d2d1 (a Knight there does
///      not reach d2); a Knight or pawn taking the Magician on c3 or b5 leaves no spell;
///    - a Black pawn on c3 or e3 attacks d2, where the carry d2d1 would put the King (-1).
///
///    Route by route (positions x base + corrections):
///    - Md3-c3: 206 x 13 = 2,678; +3 (3 positions, a piece on b3: a3b3x); +17 +17 (a pawn
///      on c4, on e4); +32 (a Knight on d5); 0 (34 positions, a Magician on d5: d4d5x for
///      d4d5); +8 +8 (4 + 4, a Knight on d5 and a pawn on c4 or e4); +4 +4 (4 + 4, a
///      Magician on d5 and a pawn on c4 or e4); +4 (2, pawns on c4 and e4); -36 (3, Knight
///      check from e3: 12 spells lost each); -52 (4, b4xc3 or Nxc3: all 13 lost); -1 (1, a
///      pawn on e3). 2,678 + 8 = 2,686.
///    - Md3-b5: 179 x 1 = 179; +14 (a pawn or Knight on b4: a4b4x); -38 (the Magician is
///      taken by a6xb5, c6xb5 or Nc7xb5, or a Knight checks from c3 or e3). = 155.
///    - b2-b3, Mb1-b2: 204 x 10 = 2,040; -54 (6 Knight checks, 9 lost each); -2 (a pawn on
///      c3 or e3). = 1,984.
///    - b2-b4, Mb1-b2: 181 x 9 = 1,629; +2 (a Magician on b3: a3b3x); -48 (6 Knight checks,
///      8 lost each); -2. = 1,581.
///    - Nc1-b3, Mb1-c1: 204 x 6 = 1,224; -30 (6 Knight checks, 5 lost each); -2. = 1,192.
///    - Nc1-d3, Mb1-c1: 208 x 7 = 1,456; -36 (6 Knight checks, 6 lost each); -2. = 1,418.
///
///    Total: 2 x (2,686 + 155 + 2,686 + 155) + 2 x (1,984 + 1,581) + 2 x (1,192 + 1,418)
///    = 23,714 (the Md3-e3 and Md3-f5 routes mirror Md3-c3 and Md3-b5). The test checks
///    the counts of every route and the base list of route 1.
///
/// Perft 5 = 559,258 + 23,714 = 582,972.
#[test]
fn perft_5_from_the_start_adds_the_spells_of_ply_5() {
    let start = position(START);
    let total = start.perft(5);
    let spells = spell_leaves(&small(&start), 5);
    assert_eq!(spells, 23_714);
    assert_eq!(total - spells, 559_274 - 16);
    assert_eq!(total, 582_972);
    assert!(total > 559_274);

    // The divide: spells only follow the first moves that start a route above.
    let mut by_root = BTreeMap::new();
    let start_position = small(&start);
    for m in start_position.legal_moves() {
        let mut next = start_position;
        next.play(m);
        by_root.insert(to_wire(&start_position, m, 1), spell_leaves(&next, 4));
    }
    let expected: BTreeMap<String, u64> = [
        ("b1d3", 2686 + 155 + 2686 + 155),
        ("f1d3", 2686 + 155 + 2686 + 155),
        ("b2b3", 1984),
        ("f2f3", 1984),
        ("b2b4", 1581),
        ("f2f4", 1581),
        ("c1b3", 1192),
        ("e1f3", 1192),
        ("c1d3", 1418),
        ("e1d3", 1418),
        ("c2c3", 0),
        ("c2c4", 0),
        ("e2e3", 0),
        ("e2e4", 0),
    ]
    .into_iter()
    .map(|(m, n)| (m.to_string(), n))
    .collect();
    assert_eq!(by_root, expected);

    for (first, third, spells, positions) in [
        ("b1d3", "d3c3", 2686, 206),
        ("b1d3", "d3e3", 2686, 206),
        ("b1d3", "d3b5", 155, 179),
        ("b1d3", "d3f5", 155, 179),
        ("b2b3", "b1b2", 1984, 204),
        ("b2b4", "b1b2", 1581, 181),
        ("c1b3", "b1c1", 1192, 204),
        ("c1d3", "b1c1", 1418, 208),
    ] {
        assert_eq!(route(first, third), (spells, positions), "{first} {third}");
    }

    // Route 1 with Black replies that touch nothing: the 13 spells of the table.
    let quiet = after(START, &["b1d3", "b6b5", "d3c3", "f6f5"]);
    let spells: Vec<String> = sorted(
        quiet
            .legal_moves_wire(1)
            .into_iter()
            .filter(|m| ["d2", "d4", "a3"].contains(&&m[..2]))
            .collect(),
    );
    assert_eq!(
        spells,
        strings(&[
            "a3a2", "a3a2x", "a3b3", "d2c2", "d2c2x", "d2d1", "d2d3", "d2e2", "d2e2x", "d4c4",
            "d4d3", "d4d5", "d4e4"
        ])
    );
}

// ---------------------------------------------------------------------------------------
// Spells: carry and drop, check, escape
// ---------------------------------------------------------------------------------------

/// ```text
/// 7  * * * . . . k
/// 6  * * * . . . .
/// 5  * * . . n . .
/// 4  . . . . * N .
/// 3  . . . M . . .
/// 2  . . . . . . .
/// 1  K . . . . . .
///    a b c d e f g
/// ```
const CARRY_AND_DROP: &str = "***3k/***4/**2n2/4*N1/3M3/7/K6 w - - 0 1";

#[test]
fn a_spell_carries_or_drops_a_piece_of_either_colour() {
    // Ka1: a2 b1 b2 (the Knight on e5 reaches c4 c6 d3 d7 f7 g6 g4 f3, none of them).
    // Nf4: d5 e6 g6 e2 g2 (d3 is the Magician; h-file off the board).
    // Md3 hops b1 f1 f5 (b5 is a hole), steps c3 e3 d2 d4.
    // Spells: the only hole a ferz or dabbaba step from d3 (c2 e2 c4 e4 b3 f3 d1 d5) is e4;
    // it swaps with e3 or d4 (empty: carry only), f4 (White Knight) or e5 (Black Knight),
    // carried or dropped.
    assert_eq!(
        moves_of(CARRY_AND_DROP),
        strings(&[
            "a1a2", "a1b1", "a1b2", "f4d5", "f4e6", "f4g6", "f4e2", "f4g2", "d3b1", "d3f1", "d3f5",
            "d3c3", "d3e3", "d3d2", "d3d4", "e4e3", "e4d4", "e4f4", "e4f4x", "e4e5", "e4e5x"
        ])
    );
    // The piece goes with its square to the hole's; the square becomes the hole. A carry
    // is not a capture (the clock goes on), a drop is.
    let cases = [
        ("e4e5", "***3k/***4/**2*2/4nN1/3M3/7/K6 b - - 1 1"),
        ("e4e5x", "***3k/***4/**2*2/5N1/3M3/7/K6 b - - 0 1"),
        ("e4f4", "***3k/***4/**2n2/4N*1/3M3/7/K6 b - - 1 1"),
        ("e4f4x", "***3k/***4/**2n2/5*1/3M3/7/K6 b - - 0 1"),
        ("e4d4", "***3k/***4/**2n2/3*1N1/3M3/7/K6 b - - 1 1"),
    ];
    for (spell, fen) in cases {
        assert_eq!(after(CARRY_AND_DROP, &[spell]).to_fen(), fen, "{spell}");
    }
}

/// ```text
/// 7  * * * . . . .
/// 6  * * * . . . .
/// 5  * * . . . k .
/// 4  . . . . * . .
/// 3  . . . M M . .
/// 2  . . . . . . .
/// 1  K . . . . . .
///    a b c d e f g
/// ```
const SPELL_CHECK: &str = "***4/***4/**3k1/4*2/3MM2/7/K6 w - - 0 1";

#[test]
fn a_spell_gives_check_by_moving_a_hole_next_to_the_king() {
    // Ka1: a2 b1 b2. Md3: hops b1 f1 (b5 hole, f5 the King), steps c3 d2 d4 (e3 taken).
    // Me3: hops c1 g1 c5 g5, steps f3 e2 (d3 taken, e4 a hole). Spells: e4 is in reach of
    // d3 only; it swaps with e3 (the Magician, carried or dropped), d4, f4 or e5.
    assert_eq!(
        moves_of(SPELL_CHECK),
        strings(&[
            "a1a2", "a1b1", "a1b2", "d3b1", "d3f1", "d3c3", "d3d2", "d3d4", "e3c1", "e3g1", "e3c5",
            "e3g5", "e3f3", "e3e2", "e4e3", "e4e3x", "e4d4", "e4f4", "e4e5"
        ])
    );
    // The hole on e5 or f4 is next to the King on f5, and e3 reaches both (dabbaba to e5,
    // ferz to f4). The Magician that cast never reaches the square it swapped: no two ferz
    // or dabbaba steps are orthogonal neighbours.
    assert_eq!(checking_moves(SPELL_CHECK), strings(&["e4e5", "e4f4"]));

    // After e4e5 the squares next to e5 (e4 d5 f5 e6) can be dropped; the King keeps f4 f6
    // g4 g5 g6.
    let pos = after(SPELL_CHECK, &["e4e5"]);
    assert!(pos.in_check());
    assert_eq!(
        sorted(pos.legal_moves_wire(1)),
        strings(&["f5f4", "f5f6", "f5g4", "f5g5", "f5g6"])
    );
    // After e4f4 the squares next to f4 (e4 g4 f3 f5) can be dropped.
    let pos = after(SPELL_CHECK, &["e4f4"]);
    assert!(pos.in_check());
    assert_eq!(
        sorted(pos.legal_moves_wire(1)),
        strings(&["f5e5", "f5e6", "f5f6", "f5g5", "f5g6"])
    );
}

/// ```text
/// 7  * * * * . . k
/// 6  * * * . . . .
/// 5  * . . . . . .
/// 4  . . . . M . .
/// 3  . m . * . . .
/// 2  . . . K . . .
/// 1  . . . . . . .
///    a b c d e f g
/// ```
const ESCAPE: &str = "****2k/***4/*6/4M2/1m1*3/3K3/7 w - - 0 1";

#[test]
fn a_king_escapes_a_spell_check_by_a_carry_or_by_moving_the_hole() {
    // The King on d2 is next to the hole d3, a dabbaba step from the Black Magician b3:
    // check. Squares next to d3 (c3 e3 d4) can be dropped too, so the King steps to c1 c2
    // d1 e1 e2 only. The White Magician's moves change neither the hole nor the caster.
    // Its spells: d3 is a ferz step from e4. d3d2 carries the King to d3, whose only hole
    // neighbour is then d2, out of b3's reach; d3c3, d3e3, d3d4 take the hole away.
    let pos = position(ESCAPE);
    assert!(pos.in_check());
    assert_eq!(
        moves_of(ESCAPE),
        strings(&[
            "d2c1", "d2c2", "d2d1", "d2e1", "d2e2", "d3d2", "d3c3", "d3e3", "d3d4"
        ])
    );
    let carried = after(ESCAPE, &["d3d2"]);
    assert_eq!(carried.to_fen(), "****2k/***4/*6/4M2/1m1K3/3*3/7 b - - 1 1");
    let moved = after(ESCAPE, &["d3c3"]);
    assert_eq!(moved.to_fen(), "****2k/***4/*6/4M2/1m*4/3K3/7 b - - 1 1");
    // The Black Magician cannot reach c3 (a wazir step away): nothing is droppable now.
    assert!(!after(ESCAPE, &["d3c3", "g7g6"]).in_check());
}

#[test]
fn a_king_is_never_dropped_and_carried_only_to_safety() {
    // The Black Magician on c4 (a ferz step from the hole d3) checks the King on d2. The
    // carry d3d2 takes the King to d3, next to the new hole d2, a knight step from c4: safe.
    // No spell ever drops a King, so there is no d3d2x.
    let fen = "****2k/***4/*6/2m1M2/3*3/3K3/7 w - - 0 1";
    assert!(position(fen).in_check());
    let moves = moves_of(fen);
    assert!(moves.contains(&"d3d2".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.ends_with('x')), "{moves:?}");
    // The Black Magician on b2 does not reach d3 (no check), but it reaches d2 (dabbaba):
    // carried to d3, the King would stand next to the new hole d2: illegal. Moving the
    // hole elsewhere is fine.
    let fen = "****2k/***4/*6/4M2/3*3/1m1K3/7 w - - 0 1";
    assert!(!position(fen).in_check());
    let moves = moves_of(fen);
    assert!(!moves.contains(&"d3d2".to_string()), "{moves:?}");
    for spell in ["d3c3", "d3e3", "d3d4"] {
        assert!(moves.contains(&spell.to_string()), "{spell}: {moves:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Holes and the other pieces
// ---------------------------------------------------------------------------------------

/// ```text
/// 7  . . . * * * *
/// 6  . k . . * * *
/// 5  M . . . . . *
/// 4  . * . . . . .
/// 3  . . . . . . .
/// 2  . R . . . . .
/// 1  . . . . . . K
///    a b c d e f g
/// ```
const ROOK_AND_HOLE: &str = "3****/1k2***/M5*/1*5/7/1R5/6K w - - 0 1";

#[test]
fn a_hole_blocks_a_rook_until_a_spell_moves_it() {
    // Kg1: f1 f2 g2. Rb2: a2, c2-g2, b1, b3 — b4 is a hole, and it shields the King on b6.
    // Ma5: hops c7 c3, steps a4 a6 b5. Spells: b4 is a ferz step from a5 (the only hole in
    // its reach b4 b6 c5 a7 a3); it swaps with a4, c4, b3 or b5, all empty.
    assert!(!position(ROOK_AND_HOLE).in_check());
    assert_eq!(
        moves_of(ROOK_AND_HOLE),
        strings(&[
            "g1f1", "g1f2", "g1g2", "b2a2", "b2c2", "b2d2", "b2e2", "b2f2", "b2g2", "b2b1", "b2b3",
            "a5c7", "a5c3", "a5a4", "a5a6", "a5b5", "b4a4", "b4c4", "b4b3", "b4b5"
        ])
    );
    // Moving the hole off the b-file opens it: the Rook checks. On b3 or b5 it still blocks
    // (and b5, next to the King, is a wazir step from a5: out of reach).
    assert_eq!(checking_moves(ROOK_AND_HOLE), strings(&["b4a4", "b4c4"]));
    // In check from the Rook, the King cannot stay on the file (b5, b7) and takes the
    // Magician or steps to a6 a7 c5 c6 c7 (c4, now a hole, is out of a5's reach).
    let pos = after(ROOK_AND_HOLE, &["b4c4"]);
    assert_eq!(
        sorted(pos.legal_moves_wire(1)),
        strings(&["b6a5", "b6a6", "b6a7", "b6c5", "b6c6", "b6c7"])
    );
    // And the Rook now runs up the file.
    let pos = after(ROOK_AND_HOLE, &["b4c4", "b6c6"]);
    let rook: Vec<String> = pos
        .legal_moves_wire(1)
        .into_iter()
        .filter(|m| m.starts_with("b2"))
        .collect();
    assert_eq!(
        sorted(rook),
        strings(&[
            "b2a2", "b2c2", "b2d2", "b2e2", "b2f2", "b2g2", "b2b1", "b2b3", "b2b4", "b2b5", "b2b6",
            "b2b7"
        ])
    );
}

#[test]
fn kings_pawns_and_pieces_never_land_on_a_hole() {
    // From the start: a2 and g2 face holes, Kd1 cannot step onto d2. In CARRY_AND_DROP the
    // Magician on d3 cannot hop onto the hole b5. (The Knight's leaps onto holes are left
    // out of the lists of the compound tests below.)
    let start = position(START);
    for m in ["a2a3", "g2g3", "d1d2"] {
        let err = start.after_wire(m, 1).map(|_| ()).unwrap_err().to_string();
        assert!(err.contains("not a legal move"), "{m}: {err}");
    }
    let err = position(CARRY_AND_DROP)
        .after_wire("d3b5", 1)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(err.contains("not a legal move"), "{err}");
    // A pawn's two-step cannot pass a hole: with the hole on e3 instead of d2, the pawn on
    // e2 can neither step onto e3 nor jump it to e4.
    let fen = "rmnknmr/ppp*ppp/*5*/*2*2*/*3*1*/PPP1PPP/RMNKNMR w KQkq - 0 1";
    let pawn_moves: Vec<String> = moves_of(fen)
        .into_iter()
        .filter(|m| m.starts_with("e2"))
        .collect();
    assert!(pawn_moves.is_empty(), "{pawn_moves:?}");
}

// ---------------------------------------------------------------------------------------
// Pawns
// ---------------------------------------------------------------------------------------

/// ```text
/// 7  * * * * * . k
/// 6  * * . . . . .
/// 5  * . . . . . .
/// 4  . . . . . . .
/// 3  . p . . . . .
/// 2  . . P . M . .
/// 1  . . * . M . K
///    a b c d e f g
/// ```
const CARRY_TO_FIRST_RANK: &str = "*****1k/**5/*6/7/1p5/2P1M2/2*1M1K w - - 0 1";

#[test]
fn a_pawn_carried_to_its_first_rank_steps_two_and_can_be_taken_en_passant() {
    // Me1 reaches the hole c1 (dabbaba): c1c2 carries the pawn down to c1, the hole goes
    // to c2, in front of it.
    let pos = after(CARRY_TO_FIRST_RANK, &["c1c2"]);
    assert_eq!(pos.to_fen(), "*****1k/**5/*6/7/1p5/2*1M2/2P1M1K b - - 1 1");
    // Me2 reaches c2 (dabbaba) and swaps it with the empty d2: the c-file is open again.
    let pos = after(CARRY_TO_FIRST_RANK, &["c1c2", "g7g6", "c2d2", "g6g7"]);
    let pawn: Vec<String> = pos
        .legal_moves_wire(1)
        .into_iter()
        .filter(|m| m.starts_with("c1"))
        .collect();
    // Location is all that matters: on its first rank the pawn steps one or two.
    assert_eq!(sorted(pawn), strings(&["c1c2", "c1c3"]));
    // The two-step passes c2, which the Black pawn on b3 attacks: e.p. on the next move.
    let pos = pos.after_wire("c1c3", 1).unwrap().0;
    assert_eq!(pos.to_fen(), "*****1k/**5/*6/7/1pP4/3*M2/4M1K b - c2 0 3");
    assert!(pos.legal_moves_wire(1).contains(&"b3c2".to_string()));
    let pos = pos.after_wire("b3c2", 1).unwrap().0;
    assert_eq!(pos.to_fen(), "*****1k/**5/*6/7/7/2p*M2/4M1K w - - 0 4");
}

#[test]
fn a_pawn_carried_onto_its_last_rank_stays_a_pawn() {
    // ```text
    // 7  . . . * . . k
    // 6  . . M P . . .
    // 5  . . . . . . .
    // 4  . . . . . . .
    // 3  . . . . . * *
    // 2  . . . . * * *
    // 1  K . . . * * *
    // ```
    // Mc6 reaches the hole d7 (ferz), next to c7, e7 and the pawn on d6.
    let fen = "3*2k/2MP3/7/7/5**/4***/K3*** w - - 0 1";
    let spells: Vec<String> = moves_of(fen)
        .into_iter()
        .filter(|m| m.starts_with("d7"))
        .collect();
    assert_eq!(sorted(spells), strings(&["d7c7", "d7d6", "d7d6x", "d7e7"]));
    // Carried onto d7 the pawn does not promote (RULES.md 3.9 #12): it stays a pawn, and
    // has no move there.
    let pos = after(fen, &["d7d6"]);
    assert_eq!(pos.to_fen(), "3P2k/2M*3/7/7/5**/4***/K3*** b - - 1 1");
    let pos = pos.after_wire("g7g6", 1).unwrap().0;
    assert!(!pos.legal_moves_wire(1).iter().any(|m| m.starts_with("d7")));
    // Such a position reads back from its FEN.
    assert_eq!(position(&pos.to_fen()).to_fen(), pos.to_fen());
}

// ---------------------------------------------------------------------------------------
// Promotion and the compounds
// ---------------------------------------------------------------------------------------

#[test]
fn a_pawn_promotes_on_its_last_rank_to_one_of_the_three_compounds() {
    // ```text
    // 7  * * * . * . k
    // 6  * . . P . . .
    // 5  * . . * . * .
    // 4  . . . . . . .
    // 3  . . * . . . .
    // 2  . . . . . . .
    // 1  K . . . . . .
    // ```
    // Ka1: a2 b1 b2. Pd6: d7 only (c7 and e7 are holes), to C, S or W; never a plain
    // piece, never a pawn.
    let fen = "***1*1k/*2P3/*2*1*1/7/2*4/7/K6 w - - 0 1";
    assert_eq!(
        moves_of(fen),
        strings(&["a1a2", "a1b1", "a1b2", "d6d7c", "d6d7s", "d6d7w"])
    );
    for (promotion, letter) in [("d6d7c", 'C'), ("d6d7s", 'S'), ("d6d7w", 'W')] {
        let pos = after(fen, &[promotion]);
        assert_eq!(
            pos.to_fen(),
            format!("***{letter}*1k/*6/*2*1*1/7/2*4/7/K6 b - - 0 1")
        );
        // On d7 the piece reaches the hole b7 (dabbaba), whose only non-hole neighbour is
        // b6: the Sorcerer and the Wizard can cast b7b6 at once, the Chancellor cannot.
        let pos = pos.after_wire("g7g6", 1).unwrap().0;
        let casts = pos.legal_moves_wire(1).contains(&"b7b6".to_string());
        assert_eq!(casts, letter != 'C', "{promotion}");
    }
}

/// A compound on d4 among holes (`X` is replaced by the compound's letter):
/// ```text
/// 7  * * * . * . k
/// 6  * . . . . . .
/// 5  * . . * . * .
/// 4  . . n X . . .
/// 3  . . * . . . .
/// 2  . . . . . . .
/// 1  K . . . . . .
///    a b c d e f g
/// ```
/// The Black Knight on c4 covers b2, so the King has a2 and b1.
fn compound_position(letter: char) -> String {
    format!("***1*1k/*6/*2*1*1/2n{letter}3/2*4/7/K6 w - - 0 1")
}

#[test]
fn the_chancellor_moves_as_rook_and_knight() {
    // Rook part: the hole d5 stops it northwards; d3 d2 d1; e4 f4 g4; takes c4.
    // Knight part: leaps over holes but not onto one: b3 b5 c2 c6 e2 e6 f3, not f5.
    assert_eq!(
        moves_of(&compound_position('C')),
        strings(&[
            "a1a2", "a1b1", "d4d3", "d4d2", "d4d1", "d4e4", "d4f4", "d4g4", "d4c4", "d4b3", "d4b5",
            "d4c2", "d4c6", "d4e2", "d4e6", "d4f3"
        ])
    );
}

#[test]
fn the_sorcerer_moves_as_rook_hops_as_a_magician_and_casts() {
    // Rook part as the Chancellor's; Magician hops b2 f2 b6 f6 (never capturing); spells:
    // the hole c3 is a ferz step away (e3 c5 e5 b4 f4 d2 d6 are not holes; d5 is a wazir
    // step: out of reach); c3 swaps with b3, d3, c2 or the Black Knight on c4.
    assert_eq!(
        moves_of(&compound_position('S')),
        strings(&[
            "a1a2", "a1b1", "d4d3", "d4d2", "d4d1", "d4e4", "d4f4", "d4g4", "d4c4", "d4b2", "d4f2",
            "d4b6", "d4f6", "c3b3", "c3d3", "c3c2", "c3c4", "c3c4x"
        ])
    );
    // The carried Knight lands on c3; c4 becomes a hole.
    assert_eq!(
        after(&compound_position('S'), &["c3c4"]).to_fen(),
        "***1*1k/*6/*2*1*1/2*S3/2n4/7/K6 b - - 1 1"
    );
}

#[test]
fn the_wizard_moves_as_knight_and_magician_and_casts() {
    // Knight part b3 b5 c2 c6 e2 e6 f3; Magician hops b2 f2 b6 f6 and steps d3 e4 (not
    // onto the hole d5, and the step never takes the Knight on c4); spells as the
    // Sorcerer's.
    assert_eq!(
        moves_of(&compound_position('W')),
        strings(&[
            "a1a2", "a1b1", "d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4b2", "d4f2",
            "d4b6", "d4f6", "d4d3", "d4e4", "c3b3", "c3d3", "c3c2", "c3c4", "c3c4x"
        ])
    );
}

// ---------------------------------------------------------------------------------------
// Castling
// ---------------------------------------------------------------------------------------

/// ```text
/// 7  * * * . . . k
/// 6  * * . . . . .
/// 5  . . . . . . .
/// 4  . . m . . . .
/// 3  . . . . . . .
/// 2  * . * * . . *
/// 1  R . . K . . R
///    a b c d e f g
/// ```
const CASTLING_UNDER_SPELL: &str = "***3k/**5/7/2m4/7/*1**2*/R2K2R w KQ - 0 1";

#[test]
fn castling_is_refused_when_a_crossed_square_can_be_dropped() {
    // The Black Magician on c4 reaches the hole c2 (dabbaba): b2, c1 and c3 can be
    // dropped. The King is not in check (d2 is a knight step from c4). b-side castling
    // crosses c1: refused, and the King may not step there either. f-side: e1 and f1 are
    // next to no hole. Ra1: b1 c1 (a2 a hole); Rg1: f1 e1 (g2 a hole); Kd1: e1 e2.
    assert_eq!(
        moves_of(CASTLING_UNDER_SPELL),
        strings(&["a1b1", "a1c1", "d1e1", "d1e2", "d1f1", "g1e1", "g1f1"])
    );
    // The Magician on c5 instead reaches b6 and c7 (droppable: b5 c6 d7), not c2: both
    // castlings, and Kd1-c1.
    let fen = "***3k/**5/2m4/7/7/*1**2*/R2K2R w KQ - 0 1";
    assert_eq!(
        moves_of(fen),
        strings(&[
            "a1b1", "a1c1", "d1b1", "d1c1", "d1e1", "d1e2", "d1f1", "g1e1", "g1f1"
        ])
    );
    // Castling moves King and Rook: 0-0(b) K d1-b1 R a1-c1, 0-0(f) K d1-f1 R g1-e1.
    assert_eq!(
        after(fen, &["d1b1"]).to_fen(),
        "***3k/**5/2m4/7/7/*1**2*/1KR3R b - - 1 1"
    );
    assert_eq!(
        after(fen, &["d1f1"]).to_fen(),
        "***3k/**5/2m4/7/7/*1**2*/R3RK1 b - - 1 1"
    );
}

#[test]
fn a_rook_carried_by_a_spell_has_moved() {
    // Me2 reaches the hole g2 (dabbaba): g2g1 carries the Rook to g2 and the f-side right
    // (K) is gone; c2c1 moves no castling piece and keeps both.
    let fen = "***3k/**5/7/7/7/*1**M1*/R2K2R w KQ - 0 1";
    assert_eq!(
        after(fen, &["g2g1"]).to_fen(),
        "***3k/**5/7/7/7/*1**M1R/R2K2* b Q - 1 1"
    );
    assert_eq!(
        after(fen, &["c2c1"]).to_fen(),
        "***3k/**5/7/7/7/*2*M1*/R1*K2R b KQ - 1 1"
    );
}

// ---------------------------------------------------------------------------------------
// Game end
// ---------------------------------------------------------------------------------------

fn outcome(pos: &AnyPosition) -> Option<Outcome> {
    let hashes = [pos.hash()];
    magus::with_position!(pos, p => magus::game::outcome::outcome(p, &hashes))
}

#[test]
fn a_king_with_only_droppable_squares_is_stalemated() {
    // ```text
    // 7  . . . * * * *
    // 6  . . . . * * *
    // 5  . . . . . . *
    // 4  . . . . . . .
    // 3  . . . . . . .
    // 2  . * . . . . .
    // 1  k . M . . . K
    // ```
    // The Black King's orthogonal neighbours a2 and b1 are not holes: no check. Both are
    // next to the hole b2, a ferz step from Mc1: droppable. b2 itself is a hole.
    let pos = position("3****/4***/6*/7/7/1*5/k1M3K b - - 0 1");
    assert!(!pos.in_check());
    assert!(pos.legal_moves_wire(1).is_empty());
    assert_eq!(outcome(&pos), Some(Outcome::Draw(Reason::Stalemate)));
}

#[test]
fn a_spell_check_with_no_escape_is_mate() {
    // ```text
    // 7  . . . * * * *
    // 6  . . . . * * *
    // 5  . . . . . . *
    // 4  . . . . . . .
    // 3  . . . . . . .
    // 2  * . M . . . .
    // 1  k . . . . . K
    // ```
    // The King on a1 is next to the hole a2, a dabbaba step from Mc2: check. b2 is next to
    // a2 too; b1 is free.
    let pos = position("3****/4***/6*/7/7/*1M4/k5K b - - 0 1");
    assert!(pos.in_check());
    assert_eq!(sorted(pos.legal_moves_wire(1)), strings(&["a1b1"]));
    assert_eq!(outcome(&pos), None);
    // A White Knight on d2 covers b1: mate.
    let pos = position("3****/4***/6*/7/7/*1MN3/k5K b - - 0 1");
    assert!(pos.in_check());
    assert!(pos.legal_moves_wire(1).is_empty());
    assert_eq!(
        outcome(&pos),
        Some(Outcome::Win(Color::White, Reason::Checkmate))
    );
}

// ---------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------

fn fen_error(fen: &str) -> String {
    match AnyPosition::from_fen(variant(), Some(fen)) {
        Ok(_) => panic!("{fen} was accepted"),
        Err(e) => e,
    }
}

#[test]
fn a_fen_needs_exactly_nine_holes() {
    // d2 filled in: eight holes.
    let err = fen_error("rmnknmr/ppp1ppp/*5*/*2*2*/*5*/PPP*PPP/RMNKNMR w KQkq - 0 1");
    assert!(err.contains("8 holes") && err.contains("9"), "{err}");
    // c4 added: ten.
    let err = fen_error("rmnknmr/ppp*ppp/*5*/*1**2*/*5*/PPP*PPP/RMNKNMR w KQkq - 0 1");
    assert!(err.contains("10 holes") && err.contains("9"), "{err}");
    let err = fen_error("rmnknmr/ppp1ppp/7/7/7/PPP1PPP/RMNKNMR w KQkq - 0 1");
    assert!(err.contains("0 holes"), "{err}");
}

#[test]
fn nothing_stands_on_a_hole() {
    // FEN gives each square one character, so a piece and a hole cannot share one there;
    // what can go wrong is an e.p. square or a move onto a hole.
    let err = fen_error("rmnknmr/ppp*ppp/*5*/*2*2*/*5*/PPP*PPP/RMNKNMR b KQkq a3 0 1");
    assert!(err.contains("a3 is a hole"), "{err}");
    let err = position(START)
        .after_wire("a2a3", 1)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(err.contains("not a legal move"), "{err}");
}

#[test]
fn a_spell_that_names_a_wrong_square_is_refused_with_the_reason() {
    let pos = position(CARRY_AND_DROP);
    let refusal = |m: &str| pos.after_wire(m, 1).map(|_| ()).unwrap_err().to_string();
    // e6 and d5 are not orthogonal neighbours of the hole e4.
    for m in ["e4e6", "e4d5", "e4e6x"] {
        let err = refusal(m);
        assert!(
            err.contains("not a legal spell") && err.contains("orthogonally next to it"),
            "{m}: {err}"
        );
    }
    let err = refusal("e4d4x");
    assert!(err.contains("nothing stands on d4 to drop"), "{err}");
    let err = refusal("a5b5");
    assert!(err.contains("two holes cannot swap"), "{err}");
    let err = refusal("a5a4");
    assert!(err.contains("no White Magician"), "{err}");
    let err = refusal("e4e5q");
    assert!(err.contains("'x' added to drop"), "{err}");
    // The King is never dropped.
    let err = position(ESCAPE)
        .after_wire("d3d2x", 1)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(err.contains("King on d2 cannot be dropped"), "{err}");
    // A spell that leaves the King droppable.
    let fen = "****2k/***4/*6/4M2/3*3/1m1K3/7 w - - 0 1";
    let err = position(fen)
        .after_wire("d3d2", 1)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(err.contains("would leave the White King in check"), "{err}");
    // A carry onto an empty square that unblocks a Rook: the hole a4 (enchanted by the
    // Magician on b3) shields the King on a1 from the Rook on a7; a4b4 opens the file.
    let fen = "r2****/4***/5*k/*6/1M5/7/K6 w - - 0 1";
    let moves = moves_of(fen);
    assert!(moves.contains(&"a4a3".to_string()), "{moves:?}");
    let err = position(fen)
        .after_wire("a4b4", 1)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the spell a4b4 would leave the White King in check"),
        "{err}"
    );
}

/// A variant file that names a caster twice gets the same spells as naming it once.
#[test]
fn a_caster_named_twice_casts_as_once() {
    let text = include_str!("../variants/magician-chess.toml");
    assert!(text.contains("casters = \"MSW\""));
    let twice = text.replacen("casters = \"MSW\"", "casters = \"MMSW\"", 1);
    let v = magus::variant::parse_variant(&twice, "twice.toml").unwrap();
    magus::game::check_variant(&v).unwrap();
    let v: &'static Variant = Box::leak(Box::new(v));
    let pos = AnyPosition::from_fen(v, Some(CARRY_AND_DROP)).unwrap();
    let mut moves = pos.legal_moves_wire(1);
    moves.sort();
    assert_eq!(moves, moves_of(CARRY_AND_DROP));
    assert!(moves.contains(&"e4e5x".to_string()));
}

/// Quiescence's captures-only generation keeps exactly the spells that drop an enemy piece:
/// no carry, no drop of one's own piece or King, no drop onto an empty square.
#[test]
fn captures_only_generation_keeps_the_drops_of_enemy_pieces() {
    let spells_only = |fen: &str| -> Vec<String> {
        let p = small(&position(fen));
        let mut list = MoveList::new();
        p.generate_captures(&mut list);
        sorted(
            list.iter()
                .filter(|m| matches!(m.kind(), MoveKind::SpellCarry | MoveKind::SpellDrop))
                .map(|&m| to_wire(&p, m, 1))
                .collect(),
        )
    };
    // e4 swaps with e3, d4 (empty), f4 (White Knight) or e5 (Black Knight).
    assert_eq!(spells_only(CARRY_AND_DROP), strings(&["e4e5x"]));
    // The hole d3, enchanted by the Magician on e4 (a ferz step), is next to the White King
    // on d2, the Black Knight on c3 and the empty e3 and d4: only the Knight can be dropped.
    let fen = "****2k/***4/*6/4M2/2n*3/3K3/7 w - - 0 1";
    assert_eq!(spells_only(fen), strings(&["d3c3x"]));
}

// ---------------------------------------------------------------------------------------
// Hash and FEN along the tree; a second model of the rules
// ---------------------------------------------------------------------------------------

/// Positions rich in holes, casters, compounds, pawns about to promote or double-step,
/// and castling rights.
const RICH: &[&str] = &[
    START,
    CARRY_AND_DROP,
    SPELL_CHECK,
    ESCAPE,
    ROOK_AND_HOLE,
    CARRY_TO_FIRST_RANK,
    CASTLING_UNDER_SPELL,
    "r1nk1mr/pS2pp1/*c*2w*/*2*n1*/*PMp1**/P1P3P/R1NKNMR w KQk - 0 12",
    "rmnk2r/ppW*pPp/*5*/*2*2*/*1pP2*/PP1*S1P/R2K2R b KQkq - 3 20",
];

fn walk(pos: &Position<u64>, depth: u32, visit: &mut impl FnMut(&Position<u64>)) {
    visit(pos);
    if depth == 0 {
        return;
    }
    for m in pos.legal_moves() {
        let mut next = *pos;
        next.play(m);
        walk(&next, depth - 1, visit);
    }
}

#[test]
fn hash_and_fen_stay_right_along_every_path() {
    for fen in RICH {
        let mut nodes = 0;
        walk(&small(&position(fen)), 3, &mut |p| {
            nodes += 1;
            assert_eq!(p.hash(), p.compute_hash(), "{}", p.to_fen());
            let text = p.to_fen();
            let again = small(&position(&text));
            assert_eq!(again.to_fen(), text);
            assert_eq!(again.hash(), p.hash(), "{text}");
            assert_eq!(again.holes().count(), 9);
            assert!((again.holes() & again.occupied()) == 0, "{text}");
        });
        assert!(nodes > 100, "{fen}: {nodes} nodes");
    }
}

/// The engine's moves and the positions after them, against the second model.
fn compare_with_model(pos: &Position<u64>) {
    let fen = pos.to_fen();
    let engine: BTreeMap<String, String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = *pos;
            next.play(m);
            (to_wire(pos, m, 1), next.to_fen())
        })
        .collect();
    assert_eq!(
        engine.len(),
        pos.legal_moves().len(),
        "{fen}: two moves share a wire form"
    );
    let model: BTreeMap<String, String> = Board::from_fen(&fen)
        .legal_moves()
        .into_iter()
        .map(|(m, b)| (m, b.to_fen()))
        .collect();
    if engine != model {
        let only_engine: Vec<_> = engine.keys().filter(|m| !model.contains_key(*m)).collect();
        let only_model: Vec<_> = model.keys().filter(|m| !engine.contains_key(*m)).collect();
        let differ: Vec<_> = engine
            .iter()
            .filter(|(m, f)| model.get(*m).is_some_and(|g| g != *f))
            .map(|(m, f)| format!("{m}: engine {f} model {}", model[m]))
            .collect();
        panic!(
            "{fen}\n only the engine: {only_engine:?}\n only the model: {only_model:?}\n different results: {differ:?}"
        );
    }
}

#[test]
fn the_engine_agrees_with_a_second_model_over_whole_trees() {
    // From the start to depth 4 covers every move of perft 5, spells included.
    walk(&small(&position(START)), 4, &mut compare_with_model);
    for fen in &RICH[1..] {
        walk(&small(&position(fen)), 3, &mut compare_with_model);
    }
}

#[test]
fn the_engine_agrees_with_a_second_model_over_random_games() {
    // A fixed xorshift: the same games every run. Spells are favoured a little so that
    // holes wander over the whole board.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut random = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut plies = 0;
    let mut spells = 0;
    for game in 0..150 {
        let fen = RICH[game % RICH.len()];
        let mut pos = small(&position(fen));
        for _ in 0..160 {
            compare_with_model(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.halfmove_clock() >= 100 {
                break;
            }
            let spell_moves: Vec<_> = moves
                .iter()
                .filter(|m| matches!(m.kind(), MoveKind::SpellCarry | MoveKind::SpellDrop))
                .collect();
            let m = if !spell_moves.is_empty() && random() % 3 == 0 {
                *spell_moves[random() as usize % spell_moves.len()]
            } else {
                moves[random() as usize % moves.len()]
            };
            if matches!(m.kind(), MoveKind::SpellCarry | MoveKind::SpellDrop) {
                spells += 1;
            }
            pos.play(m);
            assert_eq!(pos.hash(), pos.compute_hash());
            plies += 1;
        }
    }
    assert!(
        plies > 5_000 && spells > 1_000,
        "{plies} plies, {spells} spells"
    );
}
