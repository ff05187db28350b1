//! The legality test: a move is legal when the mover's King is not attacked after the move
//! and all its side effects. Most moves are settled by a cheap test (no check, not a pinned
//! piece); the rest are played on a copy and tested.

use crate::board::{Bitboard, Color, Move, MoveKind, Position, Square};

/// What the legality test needs to know once per position.
#[derive(Clone, Copy)]
pub struct LegalityContext<B> {
    pub in_check: bool,
    /// Our pieces that alone stand between our King and an enemy slider.
    pub pinned: B,
    pub king: Square,
}

impl<B: Bitboard> Position<B> {
    pub fn legality_context(&self) -> LegalityContext<B> {
        self.legality_context_knowing_check(self.in_check())
    }

    /// The context when the caller has already found whether the side to move is in check
    /// (the search does, before it knows whether it will generate any move).
    pub fn legality_context_knowing_check(&self, in_check: bool) -> LegalityContext<B> {
        LegalityContext {
            in_check,
            pinned: self.pinned(),
            king: self.king(self.side()),
        }
    }

    /// Our pieces pinned to our King by an enemy slider.
    fn pinned(&self) -> B {
        let us = self.side();
        line_blockers(self, self.king(us), !us, us)
    }

    /// Whether a pseudo-legal move is legal.
    #[inline]
    pub fn is_legal(&self, m: Move, ctx: &LegalityContext<B>) -> bool {
        let from = m.from();
        match m.kind() {
            MoveKind::Castle => return true,
            MoveKind::Normal | MoveKind::Promotion | MoveKind::Transform | MoveKind::SwapIn => {
                if from == ctx.king {
                    if ctx.in_check || m.kind() != MoveKind::Normal || self.layout().special_attacks
                    {
                        return self.legal_after(m);
                    }
                    let blockers = self.blockers() & !B::from_square(from);
                    return !self.is_attacked_through(m.to(), !self.side(), blockers);
                }
                // A lame (`n`) or must-jump (`j`) leap opens or closes with what stands on
                // its middle square, which the slider pins do not show: such variants take
                // the slow test.
                if !ctx.in_check && !ctx.pinned.has(from) && !self.layout().has_path_leaps {
                    return true;
                }
            }
            // A dropped piece of ours can block a line to our King but never open one, so a
            // carrier's move that is safe alone is safe with any drop; if it is not, the drop
            // may still block, and the copy decides. (A `j` leap over the dropped piece, or a
            // mechanic's own attacks, could change that: those go to the copy at once.)
            MoveKind::Drop
                if !ctx.in_check
                    && !self.layout().has_path_leaps
                    && !self.layout().special_attacks
                    && !self.layout().mechanics.extra_attacks =>
            {
                if from == ctx.king {
                    let blockers = self.blockers() & !B::from_square(from);
                    if !self.is_attacked_through(m.to(), !self.side(), blockers) {
                        return true;
                    }
                } else if !ctx.pinned.has(from) {
                    return true;
                }
            }
            _ => {}
        }
        self.legal_after(m)
    }

    /// The slow, always-right test: play the move on a copy.
    fn legal_after(&self, m: Move) -> bool {
        let mut next = *self;
        next.play(m);
        let us = self.side();
        !next.is_attacked(next.king(us), !us)
    }

    /// Whether the side to move has a legal move (stops at the first one).
    pub fn has_legal_move(&self) -> bool {
        let mut pseudo = super::MoveList::new();
        self.generate(&mut pseudo);
        let ctx = self.legality_context();
        pseudo.into_iter().any(|m| self.is_legal(m, &ctx))
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> super::MoveList {
        let mut pseudo = super::MoveList::new();
        self.generate(&mut pseudo);
        let ctx = self.legality_context();
        pseudo
            .into_iter()
            .filter(|&m| self.is_legal(m, &ctx))
            .collect()
    }
}

/// The pieces of colour `between` that stand alone between `king` and a rider of colour
/// `riders` that would attack it if they left: pins (to one's own King) or discovered
/// checks (on the enemy King).
pub(super) fn line_blockers<B: Bitboard>(
    pos: &Position<B>,
    king: Square,
    riders: Color,
    between: Color,
) -> B {
    let layout = pos.layout();
    let blockers = pos.blockers();
    let ours = pos.color_bb(between);
    let theirs = pos.color_bb(riders);
    let mut found = B::EMPTY;
    for group in &layout.attack_rays[riders.index()] {
        let first = layout.ray_attacks(group.ray, king, blockers) & ours;
        if first.is_empty() {
            continue;
        }
        let behind = layout.ray_attacks(group.ray, king, blockers & !first) & theirs & !first;
        if (behind & pos.kinds_bb(group.kinds)).any() {
            found |= first;
        }
    }
    found
}
