//! Terms that only make sense in one variant's mechanics, each asked for only when the
//! variant has that mechanic.

use super::tables::EvalTables;
use super::{Sink, TermId};
use crate::board::{Bitboard, Color, Kind, Position};

pub(super) fn add<B: Bitboard, S: Sink>(pos: &Position<B>, tables: &EvalTables<B>, sink: &mut S) {
    let mechanics = &pos.layout().variant.mechanics;
    if let Some(rule) = &mechanics.swap_in {
        // Deathmatch: an unswapped Bishop keeps the choice of becoming a Magician.
        for color in Color::BOTH {
            let n = pos.pieces(color, Kind(rule.from)).count() as i32;
            sink.add(
                TermId::Variant,
                color,
                n * tables.params.unswapped_bishop,
                0,
            );
        }
    }
    if let Some(rule) = &mechanics.rank_promotion {
        magician_upgrades(pos, tables, rule.rank, Kind(rule.piece), sink);
    }
    if mechanics.spells.is_some() {
        spells(pos, tables, sink);
    }
    if let Some(rule) = &mechanics.drops {
        reserves(pos, tables, rule, sink);
    }
}

/// Royal Magician's Chess: pieces still in a carrier's reserve are material to come, worth
/// more the nearer the carrier is to the ranks that release them.
fn reserves<B: Bitboard, S: Sink>(
    pos: &Position<B>,
    tables: &EvalTables<B>,
    rule: &crate::variant::Drops,
    sink: &mut S,
) {
    let params = &tables.params;
    for color in Color::BOTH {
        let mut total = 0;
        for (rank, left) in crate::rules::drops::carrier_reserves(pos, rule, color) {
            let share = params.reserve_share + params.reserve_closeness * rank as i32;
            let value: i32 = left.iter().map(|k| tables.values[k.index()]).sum();
            total += value * share.min(100) / 100;
        }
        sink.add(TermId::Variant, color, total, total);
    }
}

/// Deathmatch: each pawn about to reach the promotion rank will turn one Magician into a
/// High-Priestess or Telepath (worth much more): count as many as there are Magicians.
fn magician_upgrades<B: Bitboard, S: Sink>(
    pos: &Position<B>,
    tables: &EvalTables<B>,
    rank: u8,
    magician: Kind,
    sink: &mut S,
) {
    let layout = pos.layout();
    let Some(pawn) = layout.pawn else { return };
    let dims = layout.dims;
    for color in Color::BOTH {
        let magicians = pos.pieces(color, magician).count() as i32;
        if magicians == 0 {
            continue;
        }
        let (mut near, mut far) = (0, 0);
        for sq in pos.pieces(color, pawn).squares() {
            let r = dims.rank(sq);
            let relative = if color == Color::White {
                r
            } else {
                dims.ranks - 1 - r
            };
            if relative + 1 == rank {
                near += 1;
            } else if relative + 2 == rank {
                far += 1;
            }
        }
        let near = near.min(magicians);
        let far = far.min(magicians - near);
        let bonus =
            near * tables.params.magician_upgrade_near + far * tables.params.magician_upgrade_far;
        sink.add(TermId::Variant, color, bonus, bonus);
    }
}

/// Magician Chess: a piece an enemy spell can drop is in danger; holes within reach of one's
/// own casters are power.
fn spells<B: Bitboard, S: Sink>(pos: &Position<B>, tables: &EvalTables<B>, sink: &mut S) {
    let layout = pos.layout();
    let params = &tables.params;
    let blockers = pos.blockers();
    for color in Color::BOTH {
        let mut danger = 0;
        for sq in (pos.color_bb(color) & !pos.kind_bb(layout.king)).squares() {
            if crate::rules::spells::attackers(pos, sq, !color, blockers).any() {
                let kind = pos.piece_at(sq).unwrap().kind();
                danger += layout.value(kind) / params.droppable_divisor.max(1);
            }
        }
        let control = crate::rules::spells::holes_in_reach(pos, color).count() as i32;
        let score = control * params.hole_control - danger;
        sink.add(TermId::Variant, color, score, score);
    }
}
