//! Which squares a side attacks: the answer to "is the King in check" and "may the King go
//! there".

use crate::board::{Bitboard, Color, Kind, Position, Square};

impl<B: Bitboard> Position<B> {
    /// Does `by` attack `sq` in this position?
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.is_attacked_through(sq, by, self.blockers())
    }

    /// Does `by` attack `sq` when `blockers` is what stands in the way of sliders?
    pub fn is_attacked_through(&self, sq: Square, by: Color, blockers: B) -> bool {
        let layout = self.layout();
        let theirs = self.color_bb(by);
        for &kind in &layout.leap_attacker_kinds[by.index()] {
            if (layout.leap_attackers(kind, by, sq) & theirs & self.kind_bb(kind)).any() {
                return true;
            }
        }
        for group in &layout.attack_rays[by.index()] {
            let seen = layout.ray_attacks(group.ray, sq, blockers) & theirs;
            if seen.any() && (seen & self.kinds_bb(group.kinds)).any() {
                return true;
            }
        }
        if layout.has_path_leaps && self.path_leap_attacks(sq, by, blockers) {
            return true;
        }
        layout.mechanics.extra_attacks
            && crate::rules::extra_attackers(self, sq, by, blockers).any()
    }

    /// The pieces of `by` that attack `sq` (for display and diagnostics; the hot paths only
    /// ask whether there is one).
    pub fn attackers(&self, sq: Square, by: Color) -> B {
        let mut found = self.attackers_through(sq, by, self.blockers());
        if self.layout().mechanics.extra_attacks {
            found |= crate::rules::extra_attackers(self, sq, by, self.blockers());
        }
        found
    }

    /// The pieces of `by` that would take on `sq` by moving there when `blockers` is what
    /// stands in the way (the static exchange removes the pieces that have taken): leapers,
    /// riders and lame leapers, Transference included; not the mechanics' own attacks
    /// (spells), which take nothing onto the square.
    pub fn attackers_through(&self, sq: Square, by: Color, blockers: B) -> B {
        self.leap_attackers_to(sq, by) | self.blockable_attackers_to(sq, by, blockers)
    }

    /// The leapers of `by` that attack `sq`: what stands between does not matter to them.
    #[inline]
    pub fn leap_attackers_to(&self, sq: Square, by: Color) -> B {
        let layout = self.layout();
        let theirs = self.color_bb(by);
        let mut found = B::EMPTY;
        for &kind in &layout.leap_attacker_kinds[by.index()] {
            found |= layout.leap_attackers(kind, by, sq) & theirs & self.kind_bb(kind);
        }
        found
    }

    /// The riders and lame leapers of `by` that attack `sq` when `blockers` is what stands
    /// in the way.
    pub fn blockable_attackers_to(&self, sq: Square, by: Color, blockers: B) -> B {
        let layout = self.layout();
        let theirs = self.color_bb(by);
        let mut found = B::EMPTY;
        for group in &layout.attack_rays[by.index()] {
            found |=
                layout.ray_attacks(group.ray, sq, blockers) & theirs & self.kinds_bb(group.kinds);
        }
        if layout.has_path_leaps {
            for k in 0..layout.kinds {
                let kind = Kind(k as u8);
                for from in self.pieces(by, kind).squares() {
                    let hits = layout.path_leaps(kind, by, from).iter().any(|leap| {
                        leap.captures
                            && leap.target == sq
                            && blockers.has(leap.middle) != leap.middle_empty
                    });
                    if hits {
                        found |= B::from_square(from);
                    }
                }
            }
        }
        found
    }

    /// The pieces of the kinds in a bit mask (bit `k` for kind `k`).
    #[inline(always)]
    pub fn kinds_bb(&self, mut kinds: u16) -> B {
        let mut bb = B::EMPTY;
        while kinds != 0 {
            let k = kinds.trailing_zeros();
            bb |= self.kind_bb(Kind(k as u8));
            kinds &= kinds - 1;
        }
        bb
    }

    fn path_leap_attacks(&self, sq: Square, by: Color, blockers: B) -> bool {
        let layout = self.layout();
        for k in 0..layout.kinds {
            let kind = Kind(k as u8);
            for from in self.pieces(by, kind).squares() {
                for leap in layout.path_leaps(kind, by, from) {
                    if leap.captures
                        && leap.target == sq
                        && blockers.has(leap.middle) != leap.middle_empty
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Is the side to move in check?
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_attacked(self.king(self.side()), !self.side())
    }
}
