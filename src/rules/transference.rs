//! Deathmatch Home-File Transference (RULES.md §1.5): a Magician, High-Priestess or
//! Telepath on a border file within its owner's first three ranks may move to the same rank
//! of the other border file, capturing an enemy there; nothing between blocks it.
//!
//! It is an ordinary unblockable leap available on six squares, so it is compiled into the
//! pieces' leap tables: generation, check detection, pins and SAN all see it with no code of
//! their own.

use crate::board::{Bitboard, Color, Kind, Layout};

pub fn extend_tables<B: Bitboard>(layout: &mut Layout<B>) {
    let Some(rule) = layout.variant.mechanics.transference.clone() else {
        return;
    };
    let dims = layout.dims;
    let last_file = dims.files - 1;
    for &k in &rule.pieces {
        let kind = Kind(k);
        for color in Color::BOTH {
            for relative in 0..rule.ranks.min(dims.ranks) {
                let rank = if color == Color::White {
                    relative
                } else {
                    dims.ranks - 1 - relative
                };
                for (file, other) in [(0, last_file), (last_file, 0)] {
                    let from = dims.square(file, rank);
                    let to = dims.square(other, rank);
                    let at = layout.table_index(kind, color, from);
                    layout.quiet_leaps[at] |= B::from_square(to);
                    layout.capture_leaps[at] |= B::from_square(to);
                    let back = layout.table_index(kind, color, to);
                    layout.leap_attackers[back] |= B::from_square(from);
                }
            }
            if !layout.leap_attacker_kinds[color.index()].contains(&kind) {
                layout.leap_attacker_kinds[color.index()].push(kind);
            }
        }
    }
}
