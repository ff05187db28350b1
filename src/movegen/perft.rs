//! Perft: counting the leaves of the move tree, the proof of a move generator.

use super::MoveList;
use crate::board::{Bitboard, Move, Position};

/// The number of leaf nodes `depth` plies below `pos`. Leaves are counted, not visited.
pub fn perft<B: Bitboard>(pos: &Position<B>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    let ctx = pos.legality_context();
    if depth == 1 {
        return moves.iter().filter(|&&m| pos.is_legal(m, &ctx)).count() as u64;
    }
    let mut nodes = 0;
    for &m in &moves {
        if pos.is_legal(m, &ctx) {
            let mut next = *pos;
            next.play(m);
            nodes += perft(&next, depth - 1);
        }
    }
    nodes
}

/// Perft split by root move, in generation order.
pub fn divide<B: Bitboard>(pos: &Position<B>, depth: u32) -> Vec<(Move, u64)> {
    let depth = depth.max(1);
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = *pos;
            next.play(m);
            (m, perft(&next, depth - 1))
        })
        .collect()
}
