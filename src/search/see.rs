//! Static exchange evaluation: what a move wins or loses on its target square when both
//! sides then take there in turn with their least valuable piece, the sliders behind them
//! joining in as the squares in front empty. It asks the board who attacks a square through
//! a given set of blockers, so every variant's pieces take part: leapers, riders, lame and
//! divergent pieces, and Transference (compiled into the leap tables).
//!
//! A move's side effects are counted as far as they touch material at once: a promotion
//! adds the new piece's worth, an e.p. capture takes its pawn, a spell that drops an enemy
//! piece into a hole wins it outright (no one can take back on a hole). Moves that capture
//! nothing and move no piece into danger by themselves (castling, a swap-in, a carry) are
//! even exchanges.

use crate::board::{Bitboard, Color, Kind, Move, MoveKind, Position, Square};

/// Whether the exchange started by `m` gains at least `threshold` centipawns for the side
/// to move.
pub fn see_ge<B: Bitboard>(pos: &Position<B>, m: Move, threshold: i32) -> bool {
    let layout = pos.layout();
    let us = pos.side();
    let (from, to) = (m.from(), m.to());
    let pawn_value = layout.pawn.map_or(100, |p| layout.value(p));
    match m.kind() {
        MoveKind::Castle | MoveKind::SwapIn | MoveKind::SpellCarry => return threshold <= 0,
        MoveKind::SpellDrop => {
            // The piece on `to` falls into the hole: a gain if it is the enemy's.
            let gain = match pos.piece_at(to) {
                Some(p) if p.color() != us => layout.value(p.kind()),
                Some(p) => -layout.value(p.kind()),
                None => 0,
            };
            return gain >= threshold;
        }
        _ => {}
    }
    let Some(mover) = pos.piece_at(from) else {
        return threshold <= 0;
    };
    let mut victim = match m.kind() {
        MoveKind::EnPassant | MoveKind::EnPassantTransform => pawn_value,
        _ => pos.piece_at(to).map_or(0, |p| layout.value(p.kind())),
    };
    // What stands on the square after the move, to be taken next.
    let mut on_square = layout.value(mover.kind());
    if m.kind() == MoveKind::Promotion {
        let promoted = layout.value(m.piece());
        victim += promoted - pawn_value;
        on_square = promoted;
    }
    let mut swap = victim - threshold;
    if swap < 0 {
        return false;
    }
    swap = on_square - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = pos.blockers() & !B::from_square(from) & !B::from_square(to);
    if matches!(m.kind(), MoveKind::EnPassant | MoveKind::EnPassantTransform) {
        // The pawn taken e.p. stands behind the target square.
        occupied &= !B::from_square(pos.ep_victim());
    }
    let mut side = us;
    // 1 while the side that moved first comes out ahead.
    let mut result = true;
    // Leapers attack whatever leaves the board between: found once.
    let leapers = [
        pos.leap_attackers_to(to, Color::White),
        pos.leap_attackers_to(to, Color::Black),
    ];
    loop {
        side = !side;
        let attackers =
            (leapers[side.index()] | pos.blockable_attackers_to(to, side, occupied)) & occupied;
        let Some((square, kind)) = least_valuable(pos, attackers) else {
            break;
        };
        if kind == layout.king {
            // The King may take only if nothing takes it back.
            let answers = pos.attackers_through(to, !side, occupied & !B::from_square(square))
                & occupied
                & !B::from_square(square);
            return if answers.any() { result } else { !result };
        }
        result = !result;
        swap = layout.value(kind) - swap;
        if swap < i32::from(result) {
            break;
        }
        occupied &= !B::from_square(square);
    }
    result
}

/// The attacker worth least among `attackers`, with its kind.
fn least_valuable<B: Bitboard>(pos: &Position<B>, attackers: B) -> Option<(Square, Kind)> {
    let layout = pos.layout();
    attackers
        .squares()
        .filter_map(|sq| pos.piece_at(sq).map(|p| (sq, p.kind())))
        .min_by_key(|&(_, kind)| {
            if kind == layout.king {
                i32::MAX
            } else {
                layout.value(kind)
            }
        })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::AnyPosition;
    use crate::variant::Registry;

    /// A built-in variant's 8x8 position from its FEN.
    pub(crate) fn position(variant: &str, fen: &str) -> Position<u64> {
        let variant = Registry::builtin().get(variant).unwrap();
        match AnyPosition::from_fen(variant, Some(fen)).unwrap() {
            AnyPosition::Small(pos) => pos,
            AnyPosition::Large(_) => unreachable!("8x8 fits 64 bits"),
        }
    }

    /// A built-in 8x8 (or smaller) variant's start position.
    pub(crate) fn start(variant: &str) -> Position<u64> {
        let variant = Registry::builtin().get(variant).unwrap();
        match AnyPosition::from_fen(variant, None).unwrap() {
            AnyPosition::Small(pos) => pos,
            AnyPosition::Large(_) => unreachable!("8x8 fits 64 bits"),
        }
    }

    /// The legal move from the first square to the second (named as in `e2e4`).
    pub(crate) fn mv(pos: &Position<u64>, text: &str) -> Move {
        let dims = pos.layout().dims;
        pos.legal_moves()
            .into_iter()
            .find(|m| {
                dims.parse_square(&text[..2]) == Some(m.from())
                    && dims.parse_square(&text[2..4]) == Some(m.to())
            })
            .unwrap_or_else(|| panic!("no move {text}"))
    }

    #[test]
    fn captures_are_judged_by_the_exchange() {
        // The Queen can take the pawn on d5, which e6 defends; the pawn on c3 can take the
        // Queen on b4.
        let pos = position("chess", "4k3/8/4p3/3p4/1q6/2P5/8/3QK3 w - - 0 1");
        assert!(
            !see_ge(&pos, mv(&pos, "d1d5"), 0),
            "Queen takes a defended pawn"
        );
        assert!(
            see_ge(&pos, mv(&pos, "d1d5"), -900),
            "loses about a Queen for a pawn"
        );
        assert!(see_ge(&pos, mv(&pos, "c3b4"), 800), "pawn takes the Queen");
        let pos = position("chess", "4k3/8/8/p7/8/8/8/Q3K3 w - - 0 1");
        assert!(see_ge(&pos, mv(&pos, "a1a5"), 100), "an undefended pawn");
        assert!(!see_ge(&pos, mv(&pos, "a1a5"), 101));
    }

    #[test]
    fn sliders_behind_join_the_exchange() {
        // Rxd5 (defended by the Rook on d8), backed by the Rook on d1: after RxR RxR White
        // is a pawn up.
        let pos = position("chess", "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1");
        assert!(see_ge(&pos, mv(&pos, "d2d5"), 100));
        assert!(!see_ge(&pos, mv(&pos, "d2d5"), 101));
        // Without the Rook behind, the same capture loses the exchange.
        let pos = position("chess", "3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1");
        assert!(!see_ge(&pos, mv(&pos, "d2d5"), 0));
    }

    #[test]
    fn a_king_takes_back_only_when_nothing_takes_it() {
        // Qxf7+ is taken by the King (f7 defended by nothing else), so it loses the Queen.
        let pos = position("chess", "4k3/5p2/8/8/8/8/8/4KQ2 w - - 0 1");
        assert!(!see_ge(&pos, mv(&pos, "f1f7"), 0));
        // With the Bishop on b3 behind f7, the King cannot take back.
        let pos = position("chess", "4k3/5p2/8/8/8/1B6/8/4KQ2 w - - 0 1");
        assert!(see_ge(&pos, mv(&pos, "f1f7"), 100));
    }

    #[test]
    fn fairy_leapers_take_part() {
        // Deathmatch: the White Magician on c3 takes on e5 by its alfil leap, over the pawn on
        // d4 that would block a Bishop: Black's Queen taking the pawn there is lost.
        let pos = position("deathmatch", "4k3/8/8/4P3/3p4/2M5/7q/K7 b - - 0 1");
        assert!(!see_ge(&pos, mv(&pos, "h2e5"), 0));
        // From b3 the Magician reaches neither e5 nor anything on the way: a pawn won.
        let pos = position("deathmatch", "4k3/8/8/4P3/3p4/1M6/7q/K7 b - - 0 1");
        assert!(see_ge(&pos, mv(&pos, "h2e5"), 100));
    }

    #[test]
    fn a_pawn_taken_en_passant_leaves_its_square() {
        // exd6 e.p. takes the pawn on d5, which uncovers the Rook on d1 behind d6: Black's
        // Rook cannot take back without losing itself, so the pawn is won.
        let pos = position("chess", "3r2k1/8/8/3pP3/8/8/8/3R3K w - d6 0 1");
        assert!(see_ge(&pos, mv(&pos, "e5d6"), 100));
        // Without the Rook on d1, Rxd6 wins the pawn back.
        let pos = position("chess", "3r2k1/8/8/3pP3/8/8/8/7K w - d6 0 1");
        assert!(see_ge(&pos, mv(&pos, "e5d6"), 0));
        assert!(!see_ge(&pos, mv(&pos, "e5d6"), 1));
    }

    #[test]
    fn a_move_with_nothing_to_move_gains_nothing() {
        // A move from an empty square (one the position does not have, as a stale move
        // from another position could be) neither wins nor loses material.
        let pos = start("chess");
        let dims = pos.layout().dims;
        let square = |name| dims.parse_square(name).unwrap();
        let empty = Move::new(square("e3"), square("e4"), MoveKind::Normal);
        assert!(see_ge(&pos, empty, 0));
        assert!(see_ge(&pos, empty, -50));
        assert!(!see_ge(&pos, empty, 1));
    }
}
