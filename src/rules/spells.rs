//! Magician Chess holes and spells (RULES.md §3).
//!
//! The position always holds the same number of holes (nine in `magician-chess`: as many as
//! its start position has). A caster (the Magician and the compounds with a Magician part)
//! chooses a hole H at a ferz or dabbaba offset from itself and swaps it with a square S
//! orthogonally adjacent to H that is not a hole. A piece on S, of either colour, is carried
//! to H's old square (`SpellCarry`) or dropped, i.e. captured (`SpellDrop`). Nothing between
//! the caster and H blocks the spell. The move is the hole's: `from` = H, `to` = S.
//!
//! Check: a King standing where an enemy spell could drop it is attacked. Droppability does
//! not depend on what blocks sliders, so the quick King-move test of `movegen/legal.rs` stays
//! right, and no move other than a spell or a King move can change it (a normal move neither
//! moves a hole nor an enemy caster; capturing a caster only removes attacks).
//!
//! Generation never drops a King. A drop of one's own King is not a move, and an enemy King
//! that could be dropped means the side to move has already won it: the position before was
//! illegal. Every spell is a non-normal move, so the legality test plays it on a copy and
//! looks at the King afterwards: that is how a carry of one's own King, or a spell that opens
//! a Rook's line onto it, is judged.

use crate::board::MoveList;
use crate::board::spell_tables::SpellTables;
use crate::board::{Bitboard, Color, Dims, Layout, Move, MoveKind, Position, Square};

/// Offsets of the holes a caster can enchant: ferz and dabbaba. The set is symmetric, so the
/// same table read from a hole gives the squares its casters may stand on.
const SPELL_OFFSETS: [(i32, i32); 8] = [
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
    (2, 0),
    (-2, 0),
    (0, 2),
    (0, -2),
];

/// The squares a hole trades places with: its orthogonal neighbours.
const SWAP_OFFSETS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

fn offsets_table<B: Bitboard>(dims: Dims, offsets: &[(i32, i32)]) -> Vec<B> {
    (0..dims.squares())
        .map(|s| {
            offsets
                .iter()
                .filter_map(|&(df, dr)| dims.offset(Square::new(s as u8), df, dr))
                .fold(B::EMPTY, |acc, t| acc | B::from_square(t))
        })
        .collect()
}

/// Switches holes and spells on: the tables, and the flags for the generation and attack
/// hooks.
pub fn compile<B: Bitboard>(layout: &mut Layout<B>) {
    let Some(rule) = &layout.variant.mechanics.spells else {
        return;
    };
    let dims = layout.dims;
    layout.allows_holes = true;
    layout.mechanics.generates = true;
    layout.mechanics.extra_attacks = true;
    let board = layout.variant.start_fen.split_whitespace().next();
    layout.spells = SpellTables::new(
        rule.casters.iter().fold(0, |acc, &k| acc | 1 << k),
        board.map_or(0, |b| b.matches('*').count() as u32),
        offsets_table(dims, &SPELL_OFFSETS),
        offsets_table(dims, &SWAP_OFFSETS),
    );
}

/// The holes the side to move can enchant.
#[inline]
fn enchantable_holes<B: Bitboard>(pos: &Position<B>) -> B {
    holes_in_reach(pos, pos.side())
}

/// The holes the casters of `color` can enchant.
#[inline]
pub fn holes_in_reach<B: Bitboard>(pos: &Position<B>, color: Color) -> B {
    let tables = &pos.layout().spells;
    let casters = pos.kinds_bb(tables.caster_kinds) & pos.color_bb(color);
    let mut reach = B::EMPTY;
    for caster in casters.squares() {
        reach |= tables.range(caster);
    }
    reach & pos.holes()
}

/// Appends the spells of the side to move. With `quiets` false (quiescence), only the drops
/// of enemy pieces.
pub fn generate<B: Bitboard>(pos: &Position<B>, list: &mut MoveList, quiets: bool) {
    let layout = pos.layout();
    let tables = &layout.spells;
    let holes = enchantable_holes(pos);
    if holes.is_empty() {
        return;
    }
    let kings = pos.kind_bb(layout.king);
    let droppable = if quiets {
        pos.occupied() & !kings
    } else {
        pos.color_bb(!pos.side()) & !kings
    };
    let swappable = !pos.holes();
    // A square next to two enchantable holes gives two different spells (the hole that
    // ends up on the other square differs); a hole enchanted by two casters gives one.
    for hole in holes.squares() {
        let squares = tables.neighbours(hole) & swappable;
        if quiets {
            for sq in squares.squares() {
                list.push(Move::new(hole, sq, MoveKind::SpellCarry));
            }
        }
        for sq in (squares & droppable).squares() {
            list.push(Move::new(hole, sq, MoveKind::SpellDrop));
        }
    }
}

/// The casters of `by` that could drop a piece standing on `sq`: those at a ferz or dabbaba
/// offset from a hole next to `sq`. Nothing blocks a spell, so `blockers` does not matter.
#[inline]
pub fn attackers<B: Bitboard>(pos: &Position<B>, sq: Square, by: Color, _blockers: B) -> B {
    let tables = &pos.layout().spells;
    let holes = tables.neighbours(sq) & pos.holes();
    if holes.is_empty() {
        return B::EMPTY;
    }
    let casters = pos.kinds_bb(tables.caster_kinds) & pos.color_bb(by);
    let mut found = B::EMPTY;
    for hole in holes.squares() {
        found |= tables.range(hole) & casters;
    }
    found
}

/// A position read from FEN has the variant's number of holes, and no piece on one.
pub fn check_sound<B: Bitboard>(pos: &Position<B>) -> Result<(), String> {
    let layout = pos.layout();
    let expected = layout.spells.holes;
    let found = pos.holes().count();
    if found != expected {
        return Err(format!(
            "FEN: {found} holes ('*'), {} always has {expected}",
            layout.variant.name
        ));
    }
    let covered = pos.holes() & pos.occupied();
    if covered.any() {
        return Err(format!(
            "FEN: a piece stands on the hole {}",
            layout.dims.name(covered.lowest())
        ));
    }
    Ok(())
}

/// Why a wire move from the hole `hole` to `to` is not a spell here (the move was not found
/// among the legal moves). `drop` is whether it was written with `x`.
pub fn explain_refusal<B: Bitboard>(
    pos: &Position<B>,
    hole: Square,
    to: Square,
    drop: bool,
) -> String {
    let layout = pos.layout();
    let dims = layout.dims;
    let (h, s) = (dims.name(hole), dims.name(to));
    let tables = &layout.spells;
    if !tables.neighbours(hole).has(to) {
        return format!(
            "a spell swaps the hole {h} with a square orthogonally next to it, and {s} is not"
        );
    }
    if pos.holes().has(to) {
        return format!("{s} is a hole too, and two holes cannot swap");
    }
    if !enchantable_holes(pos).has(hole) {
        return format!(
            "no {} Magician stands a ferz or dabbaba step from the hole {h}",
            pos.side().name()
        );
    }
    match pos.piece_at(to) {
        None if drop => format!("nothing stands on {s} to drop"),
        Some(p) if drop && p.kind() == layout.king => {
            format!("the King on {s} cannot be dropped")
        }
        _ => format!(
            "the spell {h}{s} would leave the {} King in check",
            pos.side().name()
        ),
    }
}
