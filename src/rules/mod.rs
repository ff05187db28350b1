//! The variants' special mechanics, one file each, switched on by the variant definition.
//!
//! The generic layers call in here only where `Layout::mechanics` says a hook is needed,
//! once per node: the orthodox hot paths never pay for a mechanic they do not have. The
//! board, below this layer, reaches the hooks it needs (a move's side effects on mechanic
//! state, FEN) through the function values `compile` puts into the layout.

pub mod drops;
pub mod rank_promotion;
pub mod spells;
pub mod swap_in;
pub mod transference;

use crate::board::MoveList;
use crate::board::hooks::MechanicHooks;
use crate::board::{Bitboard, Color, Layout, Move, Piece, Position, Square};

/// Extends a freshly built layout with the variant's mechanics: extra table entries, the
/// flags that switch the hooks below on, and the hooks the board calls.
pub fn compile<B: Bitboard>(layout: &mut Layout<B>) {
    layout.hooks = MechanicHooks {
        after_play,
        parse_fen_state,
        format_fen_state,
        parse_reserve,
        format_reserve,
        check_sound,
    };
    let mechanics = &layout.variant.mechanics;
    if mechanics.swap_in.is_some() {
        layout.mechanics.generates = true;
        layout.mechanics.keeps_state = true;
    }
    if mechanics.rank_promotion.is_some() {
        layout.mechanics.generates = true;
    }
    if mechanics.transference.is_some() {
        transference::extend_tables(layout);
    }
    if mechanics.spells.is_some() {
        spells::compile(layout);
    }
    if mechanics.drops.is_some() {
        drops::compile(layout);
    }
}

/// Adds the mechanics' moves to a generated list, or expands moves that trigger a side
/// effect. `quiets` is false for captures-only generation.
pub fn after_generate<B: Bitboard>(pos: &Position<B>, list: &mut MoveList, quiets: bool) {
    let mechanics = &pos.layout().variant.mechanics;
    if let Some(rule) = &mechanics.swap_in
        && quiets
    {
        swap_in::generate(pos, rule, list);
    }
    if let Some(rule) = &mechanics.rank_promotion {
        rank_promotion::expand(pos, rule, list);
    }
    if mechanics.spells.is_some() {
        spells::generate(pos, list, quiets);
    }
    if let Some(rule) = &mechanics.drops {
        drops::expand(pos, rule, list);
    }
}

/// Pieces of `by` attacking `sq` through a mechanic, not through their piece tables.
pub fn extra_attackers<B: Bitboard>(pos: &Position<B>, sq: Square, by: Color, blockers: B) -> B {
    let mut found = B::EMPTY;
    if pos.layout().variant.mechanics.spells.is_some() {
        found |= spells::attackers(pos, sq, by, blockers);
    }
    found
}

/// Keeps mechanic state after a move has been made (the side to move is still the mover).
pub fn after_play<B: Bitboard>(
    pos: &mut Position<B>,
    m: Move,
    mover: Color,
    captured: Option<Piece>,
) {
    let mechanics = &pos.layout().variant.mechanics;
    if let Some(rule) = &mechanics.swap_in {
        swap_in::after_play(pos, rule, m, mover);
    }
    if let Some(rule) = &mechanics.drops {
        drops::after_play(pos, rule, m, mover, captured);
    }
}

/// Reads the FEN's bracketed reserve (`[...]` after the board).
pub fn parse_reserve<B: Bitboard>(pos: &mut Position<B>, text: &str) -> Result<(), String> {
    if let Some(rule) = &pos.layout().variant.mechanics.drops {
        return drops::parse_reserve(pos, rule, text);
    }
    Err(format!(
        "FEN reserve '[{text}]': {} has no pieces in reserve",
        pos.layout().variant.name
    ))
}

/// The bracketed reserve to write after the board, if the variant has one.
pub fn format_reserve<B: Bitboard>(pos: &Position<B>) -> Option<String> {
    if let Some(rule) = &pos.layout().variant.mechanics.drops {
        return Some(drops::format_reserve(pos, rule));
    }
    None
}

/// Reads one `key=value` FEN field; `Ok(false)` if no mechanic knows the key.
pub fn parse_fen_state<B: Bitboard>(
    pos: &mut Position<B>,
    key: &str,
    value: &str,
) -> Result<bool, String> {
    if let Some(rule) = &pos.layout().variant.mechanics.swap_in
        && key == "swaps"
    {
        swap_in::parse_fen_state(pos, rule, value)?;
        return Ok(true);
    }
    Ok(false)
}

/// The `key=value` FEN fields the mechanics write.
pub fn format_fen_state<B: Bitboard>(pos: &Position<B>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(rule) = &pos.layout().variant.mechanics.swap_in
        && let Some(token) = swap_in::format_fen_state(pos, rule)
    {
        out.push(token);
    }
    out
}

/// Whether `color`'s material may still change by a mechanic, not only by captures and
/// promotions: a swap-in it may still make, or pieces left in a reserve. Then the pieces on
/// the board do not tell whether it can mate (a Deathmatch Bishop can still become a
/// Magician, and King and Magician mate a King).
pub fn material_may_change<B: Bitboard>(pos: &Position<B>, color: Color) -> bool {
    let mechanics = &pos.layout().variant.mechanics;
    mechanics
        .swap_in
        .as_ref()
        .is_some_and(|rule| swap_in::may_swap(pos, rule, color))
        || reserve_left(pos)
}

/// Whether a side may still gain material from a reserve (then no material is insufficient).
pub fn reserve_left<B: Bitboard>(pos: &Position<B>) -> bool {
    match &pos.layout().variant.mechanics.drops {
        Some(rule) => drops::reserve_left(pos, rule),
        None => false,
    }
}

/// Checks what the mechanics require of a position read from FEN.
pub fn check_sound<B: Bitboard>(pos: &Position<B>) -> Result<(), String> {
    let mechanics = &pos.layout().variant.mechanics;
    if let Some(rule) = &mechanics.swap_in {
        swap_in::check_sound(pos, rule)?;
    }
    if mechanics.spells.is_some() {
        spells::check_sound(pos)?;
    }
    if let Some(rule) = &mechanics.drops {
        drops::check_sound(pos, rule)?;
    }
    Ok(())
}

/// For each slot of mechanic state, the slot that holds the same counter for the other
/// colour (a slot that belongs to neither maps to itself): what a learned evaluation needs
/// to see the position from Black's side as from White's.
pub fn state_slot_of_other_colour(
    variant: &crate::variant::Variant,
) -> [usize; crate::board::position::STATE_SLOTS] {
    let mechanics = &variant.mechanics;
    if mechanics.drops.is_some() {
        // `drops::slot`: colour × 2 + carrier.
        [2, 3, 0, 1]
    } else if mechanics.swap_in.is_some() {
        // `swap_in`: the slot is the colour.
        [1, 0, 2, 3]
    } else {
        [0, 1, 2, 3]
    }
}
