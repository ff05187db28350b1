//! Deathmatch 6th-rank promotion (RULES.md §1.6, legacy §1.10): every pawn move that lands
//! on the mover's 6th rank (push, capture or e.p.) turns one of the mover's Magicians into
//! another piece, as part of the same move. The player picks the Magician and, in
//! `deathmatch`, the new kind (H or T); in `deathmatch-legacy` the opponent's strongest piece
//! dictates it. With no Magician on the board, or (legacy) an opponent with nothing listed,
//! nothing happens and nothing is saved for later.
//!
//! Generation makes the pawn moves as usual; this expands each trigger into one move per
//! (Magician, kind). Turning a piece into another on its square never exposes a King, so
//! legality is the pawn move's own.

use arrayvec::ArrayVec;

use crate::board::MoveList;
use crate::board::piece::MAX_KINDS;
use crate::board::{Bitboard, Color, Kind, Move, MoveKind, Position};
use crate::variant::{RankPromotion, RankPromotionChoice};

/// The kinds a trigger may produce for the side to move now; empty when none. (No heap:
/// this runs in every node where a pawn can reach the rank.)
fn choices<B: Bitboard>(pos: &Position<B>, rule: &RankPromotion) -> ArrayVec<Kind, MAX_KINDS> {
    match &rule.choice {
        RankPromotionChoice::Choice(kinds) => kinds.iter().map(|&k| Kind(k)).collect(),
        RankPromotionChoice::Dictated(order) => {
            let them = !pos.side();
            order
                .iter()
                .find(|&&(strongest, _)| pos.pieces(them, Kind(strongest)).any())
                .map(|&(_, result)| Kind(result))
                .into_iter()
                .collect()
        }
    }
}

pub fn expand<B: Bitboard>(pos: &Position<B>, rule: &RankPromotion, list: &mut MoveList) {
    if !rule.family.is_empty() {
        restrict_family_promotions(pos, rule, list);
    }
    let layout = pos.layout();
    let Some(pawn) = layout.pawn else { return };
    let us = pos.side();
    let magicians = pos.pieces(us, Kind(rule.piece));
    if magicians.is_empty() {
        return;
    }
    let rank = if us == Color::White {
        rule.rank
    } else {
        layout.dims.ranks - 1 - rule.rank
    };
    let dims = layout.dims;
    let pawns = pos.pieces(us, pawn);
    let rank_squares = (0..dims.files).fold(B::EMPTY, |acc, f| {
        acc | B::from_square(dims.square(f, rank))
    });
    let triggers = |m: &Move| {
        rank_squares.has(m.to())
            && pawns.has(m.from())
            && matches!(m.kind(), MoveKind::Normal | MoveKind::EnPassant)
    };
    if !list.iter().any(triggers) {
        return;
    }
    let kinds = choices(pos, rule);
    if kinds.is_empty() {
        return;
    }
    // Expanded in place: the first choice replaces the trigger, the others go to the end
    // (moving the whole list would copy its full capacity).
    for i in 0..list.len() {
        let m = list[i];
        if !triggers(&m) {
            continue;
        }
        let kind = if m.kind() == MoveKind::EnPassant {
            MoveKind::EnPassantTransform
        } else {
            MoveKind::Transform
        };
        let mut first = true;
        for magician in magicians.squares() {
            for &k in &kinds {
                let expanded = Move::new(m.from(), m.to(), kind)
                    .with_aux(magician)
                    .with_piece(k);
                if first {
                    list[i] = expanded;
                    first = false;
                } else {
                    list.push(expanded);
                }
            }
        }
    }
}

/// Legacy last-rank promotion (RULES.md §1.10): to a Magician-family kind only while the
/// mover has none on the board, and then only to the Magician or the dictated relative.
fn restrict_family_promotions<B: Bitboard>(
    pos: &Position<B>,
    rule: &RankPromotion,
    list: &mut MoveList,
) {
    let us = pos.side();
    let has_family = rule.family.iter().any(|&k| pos.pieces(us, Kind(k)).any());
    let mut allowed: ArrayVec<Kind, { MAX_KINDS + 1 }> = ArrayVec::new();
    if !has_family {
        allowed.push(Kind(rule.piece));
        allowed.extend(choices(pos, rule));
    }
    list.retain(|m| {
        m.kind() != MoveKind::Promotion
            || !rule.family.contains(&m.piece().0)
            || allowed.contains(&m.piece())
    });
}
