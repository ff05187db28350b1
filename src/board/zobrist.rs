//! Zobrist keys: fixed pseudo-random numbers, the same in every run, so that hashes and the
//! bench signature are reproducible.

use super::piece::MAX_KINDS;
use super::square::MAX_SQUARES;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, k) = splitmix(state);
        state = s;
        out[i] = k;
        i += 1;
    }
    out
}

const PIECES: usize = 2 * MAX_KINDS * MAX_SQUARES;

/// Indexed by `piece.index() * MAX_SQUARES + square`.
pub static PIECE: [u64; PIECES] = keys(0x6D61_6775_7331);
/// A hole on a square.
pub static HOLE: [u64; MAX_SQUARES] = keys(0x686F_6C65_7331);
/// A square that can be taken en passant.
pub static EN_PASSANT: [u64; MAX_SQUARES] = keys(0x6570_7331);
/// A pawn that has never moved, where the variant keeps track of it.
pub static UNMOVED: [u64; MAX_SQUARES] = keys(0x0075_6E6D_7631);
/// One key per castling-rights bit.
pub static CASTLING: [u64; 4] = keys(0x0063_6173_7431);
/// Variant state with small counters (swaps left, reserves): `[slot][value]`.
pub static COUNTER: [u64; 64] = keys(0x636F_756E_7431);
pub static BLACK_TO_MOVE: u64 = keys::<1>(0x0073_6964_6531)[0];

#[inline(always)]
pub fn piece(piece_index: usize, square: usize) -> u64 {
    PIECE[piece_index * MAX_SQUARES + square]
}
