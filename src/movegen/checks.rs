//! Whether a move may give check, told before it is made. The search asks it of every move
//! it tries, pruned ones included; most moves are cleared by a few table look-ups, and only
//! the rest need the position after them to be searched for attacks on the King.

use super::legal::line_blockers;
use crate::board::{Bitboard, MAX_KINDS, Move, MoveKind, Position};

/// What the side to move's pieces could do to the enemy King, found once per node.
pub struct CheckContext<B> {
    /// Per kind, the squares from which a piece of ours of that kind attacks the enemy King
    /// as the board stands. That the piece leaves its own square does not change them: a
    /// rider that moves away along its own line to the King attacked it already.
    check_squares: [B; MAX_KINDS],
    /// Our pieces whose leaving would uncover one of our riders on the King.
    discoverers: B,
    /// The look-ups tell every check of this variant: no lame leapers, and no spells
    /// (whose holes move and attack). The other mechanics have moves of their own kinds,
    /// and on an ordinary move change no more than their own state.
    exact: bool,
}

impl<B: Bitboard> Position<B> {
    pub fn check_context(&self) -> CheckContext<B> {
        let layout = self.layout();
        let us = self.side();
        let king = self.king(!us);
        let mut ctx = CheckContext {
            check_squares: [B::EMPTY; MAX_KINDS],
            discoverers: B::EMPTY,
            exact: !layout.has_path_leaps
                && !layout.special_attacks
                && !layout.mechanics.extra_attacks,
        };
        if !ctx.exact {
            return ctx;
        }
        for &kind in &layout.leap_attacker_kinds[us.index()] {
            ctx.check_squares[kind.index()] |= layout.leap_attackers(kind, us, king);
        }
        let blockers = self.blockers();
        for group in &layout.attack_rays[us.index()] {
            let seen = layout.ray_attacks(group.ray, king, blockers);
            let mut kinds = group.kinds;
            while kinds != 0 {
                ctx.check_squares[kinds.trailing_zeros() as usize] |= seen;
                kinds &= kinds - 1;
            }
        }
        ctx.discoverers = line_blockers(self, king, us, us);
        ctx
    }

    /// `false` when `m` surely leaves the enemy King out of check; `true` when it may give
    /// check (the position after it tells). The enemy King must not be in check now, as in
    /// every position a legal move leads to.
    #[inline]
    pub fn may_give_check(&self, m: Move, ctx: &CheckContext<B>) -> bool {
        // Promotions, castling, en passant and the mechanics' moves change more than one
        // piece's square: the position after them tells.
        if !ctx.exact || m.kind() != MoveKind::Normal || ctx.discoverers.has(m.from()) {
            return true;
        }
        self.piece_at(m.from())
            .is_none_or(|piece| ctx.check_squares[piece.kind().index()].has(m.to()))
    }
}

#[cfg(test)]
mod tests {
    use crate::game::AnyPosition;
    use crate::variant::Registry;
    use crate::with_position;

    /// A move cleared by `may_give_check` never checks, in every variant, over random games;
    /// and in every variant without spells (where the look-ups are exact) many quiet moves
    /// are cleared and some that check are not.
    #[test]
    fn a_move_cleared_never_gives_check() {
        let registry = Registry::builtin();
        for v in registry.all() {
            let mut seed = 0x2545_F491_4F6C_DD1Du64;
            let (mut cleared, mut checks_seen) = (0, 0);
            for _game in 0..12 {
                let mut pos = AnyPosition::from_fen(v, None).unwrap();
                for _ply in 0..80 {
                    let went_on = with_position!(&mut pos, p => {
                        let ctx = p.check_context();
                        let moves = p.legal_moves();
                        for &m in &moves {
                            let checks = p.after(m).in_check();
                            if !p.may_give_check(m, &ctx) {
                                assert!(!checks, "{}: {m:?} checks in {}", v.name, p.to_fen());
                                cleared += 1;
                            } else if checks {
                                checks_seen += 1;
                            }
                        }
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        match moves.get(seed as usize % moves.len().max(1)) {
                            Some(&m) => {
                                p.play(m);
                                true
                            }
                            None => false,
                        }
                    });
                    if !went_on {
                        break;
                    }
                }
            }
            if v.mechanics.spells.is_none() {
                assert!(
                    cleared > 1000 && checks_seen > 10,
                    "{}: {cleared} {checks_seen}",
                    v.name
                );
            }
        }
    }
}
