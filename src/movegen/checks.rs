//! Whether a move may give check, told before it is made. The search asks it of every move
//! it tries, pruned ones included; most moves are cleared by a few table look-ups, and only
//! the rest need the position after them to be searched for attacks on the King.

use super::MoveList;
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

impl<B: Bitboard> Position<B> {
    /// Quiet moves that may give check, for quiescence: every quiet move that checks is
    /// among them (the position after a move tells which do). Where the look-ups are exact
    /// and no mechanic adds moves, only the moves to a checking square and the moves of a
    /// piece that uncovers a rider are generated; elsewhere every move is generated and the
    /// look-ups clear what they can. Captures and promotions are left to `generate_captures`.
    pub fn generate_quiet_checks(&self, list: &mut MoveList, ctx: &CheckContext<B>) {
        if ctx.exact && !self.layout().mechanics.generates {
            self.generate_quiets_within(list, |kind, from| {
                if ctx.discoverers.has(from) {
                    !B::EMPTY
                } else {
                    ctx.check_squares[kind.index()]
                }
            });
            return;
        }
        let mut all = MoveList::new();
        self.generate(&mut all);
        for &m in all.iter() {
            let quiet = match m.kind() {
                MoveKind::Promotion | MoveKind::EnPassant => false,
                _ => self
                    .piece_at(m.to())
                    .is_none_or(|p| p.color() == self.side()),
            };
            if quiet && self.may_give_check(m, ctx) {
                list.push(m);
            }
        }
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

    /// Every legal quiet move that gives check is among the quiet checks generated, in
    /// every variant over random games; wherever the look-ups are exact, the generator leaves
    /// most quiet moves out.
    #[test]
    fn every_quiet_check_is_generated() {
        use crate::board::MoveKind;
        use crate::movegen::MoveList;
        let registry = Registry::builtin();
        for v in registry.all() {
            let mut seed = 0x9E37_79B9_7F4A_7C15u64;
            let (mut quiet_moves, mut generated, mut checks_found) = (0usize, 0usize, 0usize);
            for _game in 0..12 {
                let mut pos = AnyPosition::from_fen(v, None).unwrap();
                for _ply in 0..80 {
                    let went_on = with_position!(&mut pos, p => {
                        let moves = p.legal_moves();
                        if !p.in_check() {
                            let ctx = p.check_context();
                            let mut candidates = MoveList::new();
                            p.generate_quiet_checks(&mut candidates, &ctx);
                            generated += candidates.len();
                            for &m in &moves {
                                let quiet = !matches!(m.kind(), MoveKind::Promotion | MoveKind::EnPassant)
                                    && p.piece_at(m.to()).is_none_or(|q| q.color() == p.side());
                                if !quiet {
                                    continue;
                                }
                                quiet_moves += 1;
                                if p.after(m).in_check() {
                                    checks_found += 1;
                                    assert!(
                                        candidates.contains(&m),
                                        "{}: the quiet check {m:?} is not generated in {}",
                                        v.name,
                                        p.to_fen()
                                    );
                                }
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
            assert!(
                checks_found > 10,
                "{}: {checks_found} quiet checks seen",
                v.name
            );
            if v.mechanics.spells.is_none() {
                assert!(
                    generated * 2 < quiet_moves,
                    "{}: {generated} generated of {quiet_moves} quiet moves",
                    v.name
                );
            }
        }
    }
}
