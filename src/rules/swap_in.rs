//! Deathmatch swap-in (RULES.md §1.4): as the whole move, one friendly Bishop anywhere
//! becomes a Magician on its square. Unlimited in `deathmatch`; once per game per side in
//! `deathmatch-legacy` (state slots 0 and 1 count the swaps White and Black made; FEN field
//! `swaps=WB`, written when a swap has been made, e.g. `swaps=10`).
//!
//! Legality needs nothing special: the square stays occupied, so a swap can neither block
//! nor capture a checker (never legal in check) and never uncovers a line.

use crate::board::MoveList;
use crate::board::{Bitboard, Color, Kind, Move, MoveKind, Position};
use crate::variant::SwapIn;

pub fn generate<B: Bitboard>(pos: &Position<B>, rule: &SwapIn, list: &mut MoveList) {
    let us = pos.side();
    if rule.per_game > 0 && pos.state(us.index()) >= rule.per_game {
        return;
    }
    for sq in pos.pieces(us, Kind(rule.from)).squares() {
        list.push(Move::new(sq, sq, MoveKind::SwapIn).with_piece(Kind(rule.to)));
    }
}

/// Whether `color` has a piece to swap and a swap left.
pub fn may_swap<B: Bitboard>(pos: &Position<B>, rule: &SwapIn, color: Color) -> bool {
    (rule.per_game == 0 || pos.state(color.index()) < rule.per_game)
        && pos.pieces(color, Kind(rule.from)).any()
}

pub fn after_play<B: Bitboard>(pos: &mut Position<B>, rule: &SwapIn, m: Move, mover: Color) {
    if m.kind() == MoveKind::SwapIn && rule.per_game > 0 {
        let made = pos.state(mover.index());
        pos.set_state(mover.index(), (made + 1).min(15));
    }
}

pub fn parse_fen_state<B: Bitboard>(
    pos: &mut Position<B>,
    rule: &SwapIn,
    value: &str,
) -> Result<(), String> {
    let digits: Vec<u32> = value.chars().filter_map(|c| c.to_digit(10)).collect();
    if rule.per_game == 0 {
        return Err(format!(
            "FEN swaps={value}: swaps are unlimited in {}",
            pos.layout().variant.name
        ));
    }
    if digits.len() != 2 || value.len() != 2 {
        return Err(format!(
            "FEN swaps={value}: expected two digits, White's swaps then Black's (like swaps=10)"
        ));
    }
    for (slot, &n) in digits.iter().enumerate() {
        if n > rule.per_game as u32 {
            return Err(format!(
                "FEN swaps={value}: {} swaps for {}, at most {} per game",
                n,
                Color::BOTH[slot].name(),
                rule.per_game
            ));
        }
        pos.set_state(slot, n as u8);
    }
    Ok(())
}

pub fn format_fen_state<B: Bitboard>(pos: &Position<B>, rule: &SwapIn) -> Option<String> {
    (rule.per_game > 0 && (pos.state(0) > 0 || pos.state(1) > 0))
        .then(|| format!("swaps={}{}", pos.state(0), pos.state(1)))
}

/// With limited swaps, a side cannot have more swapped-in pieces than its swaps plus the
/// pawns it has lost (each could have promoted), nor more pawns than it starts with (one a
/// file): otherwise a legal promotion could lead to a position this check refuses.
pub fn check_sound<B: Bitboard>(pos: &Position<B>, rule: &SwapIn) -> Result<(), String> {
    if rule.per_game == 0 {
        return Ok(());
    }
    let layout = pos.layout();
    for color in Color::BOTH {
        let swapped_in = pos.pieces(color, Kind(rule.to)).count();
        let pawns = layout.pawn.map_or(0, |p| pos.pieces(color, p).count());
        let files = layout.dims.files as u32;
        if pawns > files {
            return Err(format!(
                "FEN: {} has {pawns} pawns, more than the {files} a side starts with",
                color.name()
            ));
        }
        let promoted_at_most = files - pawns;
        let swaps = pos.state(color.index()) as u32;
        if swapped_in > swaps + promoted_at_most {
            let name = &layout.variant.pieces[rule.to as usize].name;
            return Err(format!(
                "FEN: {} has {swapped_in} {name}s but made {swaps} swaps and can have promoted at most {promoted_at_most} pawns",
                color.name()
            ));
        }
    }
    Ok(())
}
