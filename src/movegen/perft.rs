//! Perft: counting the leaves of the move tree, the proof of a move generator.

use std::sync::atomic::{AtomicBool, Ordering};

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
            let next = pos.after(m);
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
            let next = pos.after(m);
            (m, perft(&next, depth - 1))
        })
        .collect()
}

/// [`perft`] that gives up (`None`) once `cancel` is set, looking at it at every node with
/// two plies or more below it.
pub fn perft_until<B: Bitboard>(pos: &Position<B>, depth: u32, cancel: &AtomicBool) -> Option<u64> {
    if depth <= 2 {
        return Some(perft(pos, depth));
    }
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    let ctx = pos.legality_context();
    let mut nodes = 0;
    for &m in &moves {
        if pos.is_legal(m, &ctx) {
            let next = pos.after(m);
            nodes += perft_until(&next, depth - 1, cancel)?;
        }
    }
    Some(nodes)
}

/// Perft split by root move, the root moves shared out over `threads` threads (rayon);
/// `done` is told of each root move as it finishes (in any order). `None` once `cancel` is
/// set.
pub fn divide_parallel<B: Bitboard>(
    pos: &Position<B>,
    depth: u32,
    threads: usize,
    cancel: &AtomicBool,
    done: &(dyn Fn(Move, u64) + Sync),
) -> Option<Vec<(Move, u64)>> {
    use rayon::prelude::*;
    let depth = depth.max(1);
    let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    let count = |&m: &Move| {
        let next = pos.after(m);
        let n = perft_until(&next, depth - 1, cancel)?;
        done(m, n);
        Some((m, n))
    };
    if threads <= 1 {
        return moves.iter().map(count).collect();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("perft-{i}"))
        .build()
        .ok()?;
    pool.install(|| moves.par_iter().map(count).collect())
}
