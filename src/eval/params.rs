//! Every weight of the evaluation, in one place per variant. Centipawns; `(middlegame,
//! endgame)` pairs are tapered by the game phase.

use crate::variant::Variant;

#[derive(Clone, Debug)]
pub struct Params {
    pub tempo: i32,
    /// Per square a sliding piece attacks beyond half its empty-board reach.
    pub mobility: (i32, i32),
    /// Per unit of enemy attack on the King's zone (squared, then scaled).
    pub king_attack_unit: i32,
    /// Per own pawn in front of the King (its file and the two next to it, two ranks ahead).
    pub pawn_shield: i32,
    /// Passed pawn by how far it has come (0 = its start rank, 1 = the last).
    pub passed_pawn: (i32, i32),
    pub isolated_pawn: (i32, i32),
    pub doubled_pawn: (i32, i32),
    /// Per enemy piece attacked by a piece of ours worth less.
    pub threat_by_lesser: (i32, i32),
    /// Deathmatch: a Bishop that can still become a Magician.
    pub unswapped_bishop: i32,
    /// Deathmatch: a Magician with a pawn one (or two) moves from the promotion rank.
    pub magician_upgrade_near: i32,
    pub magician_upgrade_far: i32,
    /// Magician Chess: a piece an enemy spell can drop, as a fraction (1/n) of its value.
    pub droppable_divisor: i32,
    /// Magician Chess: per hole in reach of one's own casters.
    pub hole_control: i32,
    /// Royal Magician's Chess: a reserve piece is worth this share (percent) of its value,
    /// plus `reserve_closeness` percent per rank its carrier has already come.
    pub reserve_share: i32,
    pub reserve_closeness: i32,
}

/// The parameters of a variant: the orthodox set, adjusted for the variant's mechanics.
pub fn for_variant(variant: &Variant) -> Params {
    let mut p = Params {
        tempo: 10,
        mobility: (3, 4),
        king_attack_unit: 6,
        pawn_shield: 8,
        passed_pawn: (60, 130),
        isolated_pawn: (-8, -14),
        doubled_pawn: (-8, -18),
        threat_by_lesser: (30, 20),
        unswapped_bishop: 0,
        magician_upgrade_near: 0,
        magician_upgrade_far: 0,
        droppable_divisor: 0,
        hole_control: 0,
        reserve_share: 0,
        reserve_closeness: 0,
    };
    let mechanics = &variant.mechanics;
    if mechanics.swap_in.is_some() {
        p.unswapped_bishop = 12;
    }
    if mechanics.rank_promotion.is_some() {
        p.magician_upgrade_near = 60;
        p.magician_upgrade_far = 25;
    }
    if mechanics.spells.is_some() {
        p.droppable_divisor = 6;
        p.hole_control = 4;
        // Holes shelter a King better than pawns can on 7x7.
        p.pawn_shield = 5;
    }
    if mechanics.drops.is_some() {
        p.reserve_share = 70;
        p.reserve_closeness = 8;
    }
    if variant.files as usize * variant.ranks as usize > 64 {
        // On 10x10 sliders have more room: a square of mobility is worth a little less.
        p.mobility = (2, 3);
    }
    p
}
