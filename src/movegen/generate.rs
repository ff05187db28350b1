//! Pseudo-legal move generation: every move the pieces can make, before asking whether the
//! King is left attacked (see `legal.rs`). Castling is generated only when fully legal.

use super::MoveList;
use crate::board::{Bitboard, Kind, Move, MoveKind, Position, Square};

impl<B: Bitboard> Position<B> {
    /// Every pseudo-legal move.
    pub fn generate(&self, list: &mut MoveList) {
        self.generate_kind::<true, true>(list, |_, _| !B::EMPTY);
        if self.layout().mechanics.generates {
            crate::rules::after_generate(self, list, true);
        }
    }

    /// Captures and promotions only (and the capturing side effects of variant mechanics),
    /// for quiescence search.
    pub fn generate_captures(&self, list: &mut MoveList) {
        self.generate_kind::<true, false>(list, |_, _| B::EMPTY);
        if self.layout().mechanics.generates {
            crate::rules::after_generate(self, list, false);
        }
    }

    /// The pieces' quiet moves (no promotions, no mechanics) to the squares `allowed` names
    /// for a piece of that kind on that square, and castling: what the check generator
    /// (`checks.rs`) narrows to the squares that may give check.
    pub(super) fn generate_quiets_within(
        &self,
        list: &mut MoveList,
        allowed: impl Fn(Kind, Square) -> B,
    ) {
        self.generate_kind::<false, true>(list, allowed);
    }

    /// Captures when `CAPTURES`, quiet moves when `QUIETS`; a piece's quiet moves go only to
    /// the squares `allowed` gives for it. Pawns' promotions count as captures.
    #[inline(always)]
    fn generate_kind<const CAPTURES: bool, const QUIETS: bool>(
        &self,
        list: &mut MoveList,
        allowed: impl Fn(Kind, Square) -> B,
    ) {
        let layout = self.layout();
        let us = self.side();
        let blockers = self.blockers();
        let empty = layout.board_mask & !blockers;
        let them = if CAPTURES {
            self.color_bb(!us)
        } else {
            B::EMPTY
        };

        for k in 0..layout.kinds {
            let kind = Kind(k as u8);
            let ours = self.pieces(us, kind);
            if ours.is_empty() {
                continue;
            }
            if layout.is_pawn[k] {
                self.generate_pawns::<CAPTURES, QUIETS>(kind, ours, empty, them, list, &allowed);
                continue;
            }
            let slides = layout.slides(kind, us);
            for from in ours.squares() {
                let quiet_targets = if QUIETS {
                    empty & allowed(kind, from)
                } else {
                    B::EMPTY
                };
                let mut quiet = layout.quiet_leaps(kind, us, from) & quiet_targets;
                let mut captures = layout.capture_leaps(kind, us, from) & them;
                for slide in slides {
                    let reach = layout.ray_attacks(slide.ray, from, blockers);
                    if slide.moves {
                        quiet |= reach & quiet_targets;
                    }
                    if slide.captures {
                        captures |= reach & them;
                    }
                }
                if layout.has_path_leaps {
                    for leap in layout.path_leaps(kind, us, from) {
                        if blockers.has(leap.middle) == leap.middle_empty {
                            continue;
                        }
                        if leap.moves && quiet_targets.has(leap.target) {
                            quiet |= B::from_square(leap.target);
                        }
                        if leap.captures && them.has(leap.target) {
                            captures |= B::from_square(leap.target);
                        }
                    }
                }
                for to in (captures | quiet).squares() {
                    list.push(Move::new(from, to, MoveKind::Normal));
                }
            }
        }
        if QUIETS {
            self.generate_castling(list);
        }
    }

    fn generate_pawns<const CAPTURES: bool, const QUIETS: bool>(
        &self,
        pawn: Kind,
        pawns: B,
        empty: B,
        them: B,
        list: &mut MoveList,
        allowed: &impl Fn(Kind, Square) -> B,
    ) {
        let layout = self.layout();
        let us = self.side();
        let c = us.index();
        let zone = layout.promotion_zone[c];
        let forward = layout.forward[c];
        for from in pawns.squares() {
            let quiet = layout.quiet_leaps(pawn, us, from) & empty;
            let captures = layout.capture_leaps(pawn, us, from) & them;
            let mut targets = B::EMPTY;
            if CAPTURES {
                targets |= captures | (quiet & zone);
            }
            let allowed_here = if QUIETS {
                allowed(pawn, from)
            } else {
                B::EMPTY
            };
            if QUIETS {
                targets |= quiet & !zone & allowed_here;
            }
            for to in targets.squares() {
                self.push_pawn_move(from, to, list);
            }
            if !QUIETS {
                continue;
            }
            let mut steps = layout.first_steps[c][from.index()];
            if self.unmoved().has(from) {
                steps = steps.max(layout.unmoved_steps[c][from.index()]);
            }
            let mut s = from.index() as i32;
            for n in 1..=steps {
                s += forward;
                if s < 0 || s as usize >= layout.squares {
                    break;
                }
                let to = Square::new(s as u8);
                if !empty.has(to) {
                    break;
                }
                if n >= 2 && allowed_here.has(to) {
                    self.push_pawn_move(from, to, list);
                }
            }
        }
        if !CAPTURES {
            return;
        }
        for target in self.ep_targets().squares() {
            for from in (layout.leap_attackers(pawn, us, target) & pawns).squares() {
                list.push(Move::new(from, target, MoveKind::EnPassant));
            }
        }
    }

    #[inline(always)]
    fn push_pawn_move(&self, from: Square, to: Square, list: &mut MoveList) {
        let layout = self.layout();
        if layout.promotion_zone[self.side().index()].has(to) {
            for &p in &layout.variant.pawns.promotion_pieces {
                list.push(Move::new(from, to, MoveKind::Promotion).with_piece(Kind(p)));
            }
        } else {
            list.push(Move::new(from, to, MoveKind::Normal));
        }
    }

    /// Castling moves that are legal: rights, empty squares, a King that neither starts in,
    /// crosses nor lands on an attacked square.
    fn generate_castling(&self, list: &mut MoveList) {
        let layout = self.layout();
        let us = self.side();
        let rights = self.castling_rights();
        if rights & (0b11 << (2 * us.index())) == 0 {
            return;
        }
        for rule in &layout.castles[us.index()] {
            if rights & rule.right == 0 || (rule.must_be_empty & self.blockers()).any() {
                continue;
            }
            // The castling King and Rook no longer block once they move.
            let blockers =
                self.blockers() & !B::from_square(rule.king_from) & !B::from_square(rule.rook_from);
            let safe = rule
                .king_path
                .squares()
                .all(|sq| !self.is_attacked_through(sq, !us, blockers));
            if safe
                && !self.castle_exposes_king(
                    rule.king_from,
                    rule.king_to,
                    rule.rook_from,
                    rule.rook_to,
                )
            {
                list.push(Move::new(rule.king_from, rule.king_to, MoveKind::Castle));
            }
        }
    }

    /// Whether the King on its destination would be attacked once the Rook has moved too
    /// (the Rook may have shielded it on the way).
    fn castle_exposes_king(
        &self,
        king_from: Square,
        king_to: Square,
        rook_from: Square,
        rook_to: Square,
    ) -> bool {
        let blockers = (self.blockers() & !B::from_square(king_from) & !B::from_square(rook_from))
            | B::from_square(king_to)
            | B::from_square(rook_to);
        self.is_attacked_through(king_to, !self.side(), blockers)
    }
}
