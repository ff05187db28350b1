//! Terms that only make sense in one variant's mechanics, each asked for only when the
//! variant has that mechanic.

use super::tables::EvalTables;
use super::{Sink, TermId};
use crate::board::{Bitboard, Color, Kind, Position};

pub(super) fn add<B: Bitboard, S: Sink>(pos: &Position<B>, tables: &EvalTables<B>, sink: &mut S) {
    let mechanics = &pos.layout().variant.mechanics;
    if let Some(rule) = &mechanics.swap_in {
        // Deathmatch: an unswapped Bishop keeps the choice of becoming a Magician.
        let w = tables.params.unswapped;
        for color in Color::BOTH {
            let n = pos.pieces(color, Kind(rule.from)).count() as i32;
            sink.add_times(TermId::Variant, w, color, n);
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
/// more the nearer the carrier is to the ranks that release them: a share of their material
/// (middlegame and endgame), the share capped at all of it. The term is a product of two
/// weights, material and share: the trace has its tangent at the current weights (each
/// factor counted at the other's current value, less their product once, as a fixed part),
/// which is the term itself there and moves with either weight alone as the term does.
fn reserves<B: Bitboard, S: Sink>(
    pos: &Position<B>,
    tables: &EvalTables<B>,
    rule: &crate::variant::Drops,
    sink: &mut S,
) {
    let params = &tables.params;
    let (base, closeness) = (params.reserve_share, params.reserve_closeness);
    for color in Color::BOTH {
        let (mut total_mg, mut total_eg) = (0, 0);
        for (rank, left) in crate::rules::drops::carrier_reserves(pos, rule, color) {
            let share = (base.mg + closeness.mg * rank as i32).min(100);
            let value_mg: i32 = left.iter().map(|k| tables.values[k.index()]).sum();
            let value_eg: i32 = left.iter().map(|k| tables.endgame_values[k.index()]).sum();
            total_mg += value_mg * share / 100;
            total_eg += value_eg * share / 100;
            if S::TRACING {
                let part = share as f32 / 100.0;
                for k in &left {
                    sink.count(params.material[k.index()], color, part, part);
                }
                if share < 100 {
                    let (mg, eg) = (value_mg as f32 / 100.0, value_eg as f32 / 100.0);
                    sink.count(base, color, mg, eg);
                    let r = rank as f32;
                    sink.count(closeness, color, mg * r, eg * r);
                    sink.fixed(color, -mg * share as f32, -eg * share as f32);
                }
            }
        }
        sink.add(TermId::Variant, color, total_mg, total_eg);
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
        let (n, f) = (tables.params.upgrade_near, tables.params.upgrade_far);
        sink.add(
            TermId::Variant,
            color,
            near * n.mg + far * f.mg,
            near * n.eg + far * f.eg,
        );
        if S::TRACING {
            sink.count(n, color, near as f32, near as f32);
            sink.count(f, color, far as f32, far as f32);
        }
    }
}

/// Magician Chess: a piece an enemy spell can drop is in danger; holes within reach of one's
/// own casters are power.
fn spells<B: Bitboard, S: Sink>(pos: &Position<B>, tables: &EvalTables<B>, sink: &mut S) {
    let layout = pos.layout();
    let params = &tables.params;
    let blockers = pos.blockers();
    let (drop, hole) = (params.droppable, params.hole_control);
    for color in Color::BOTH {
        let (mut danger_mg, mut danger_eg, mut exposed) = (0, 0, 0);
        for sq in (pos.color_bb(color) & !pos.kind_bb(layout.king)).squares() {
            if crate::rules::spells::attackers(pos, sq, !color, blockers).any() {
                let value = layout.value(pos.piece_at(sq).unwrap().kind());
                danger_mg += value * drop.mg / 1000;
                danger_eg += value * drop.eg / 1000;
                exposed += value;
            }
        }
        let control = crate::rules::spells::holes_in_reach(pos, color).count() as i32;
        sink.add(
            TermId::Variant,
            color,
            control * hole.mg - danger_mg,
            control * hole.eg - danger_eg,
        );
        if S::TRACING {
            let per_mille = -exposed as f32 / 1000.0;
            sink.count(drop, color, per_mille, per_mille);
            sink.count(hole, color, control as f32, control as f32);
        }
    }
}
