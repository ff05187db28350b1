//! How a game ends (RULES.md per variant): checkmate, stalemate (scored as the variant says),
//! the 50-move rule, repetition and insufficient material.

use crate::board::{Bitboard, Color, Position};
use crate::variant::Stalemate;
use arrayvec::ArrayVec;

/// The most pieces a side may have for its material to be compared with the variant's list.
const MAX_LISTED: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Checkmate,
    Stalemate,
    FiftyMoves,
    Repetition,
    InsufficientMaterial,
}

impl Reason {
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::FiftyMoves => "50-move rule",
            Reason::Repetition => "repetition",
            Reason::InsufficientMaterial => "insufficient material",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Color, Reason),
    Draw(Reason),
}

/// The result of the game if it is over. `hashes` are the hashes of every position of the
/// game, the current one last (for repetition).
pub fn outcome<B: Bitboard>(pos: &Position<B>, hashes: &[u64]) -> Option<Outcome> {
    let variant = pos.layout().variant;
    if pos.legal_moves().is_empty() {
        let us = pos.side();
        return Some(if pos.in_check() {
            Outcome::Win(!us, Reason::Checkmate)
        } else {
            match variant.end.stalemate {
                Stalemate::Draw => Outcome::Draw(Reason::Stalemate),
                Stalemate::Loss => Outcome::Win(!us, Reason::Stalemate),
                Stalemate::Win => Outcome::Win(us, Reason::Stalemate),
            }
        });
    }
    let fifty = variant.end.fifty_move_plies;
    if fifty > 0 && pos.halfmove_clock() >= fifty {
        return Some(Outcome::Draw(Reason::FiftyMoves));
    }
    let needed = variant.end.repetitions as usize;
    if needed > 0 && repetitions(pos, hashes) >= needed {
        return Some(Outcome::Draw(Reason::Repetition));
    }
    if insufficient_material(pos) {
        return Some(Outcome::Draw(Reason::InsufficientMaterial));
    }
    None
}

/// How often the current position has occurred, counting itself. Only positions since the
/// last capture or pawn move can repeat it.
pub fn repetitions<B: Bitboard>(pos: &Position<B>, hashes: &[u64]) -> usize {
    let window = (pos.halfmove_clock() as usize + 1).min(hashes.len());
    hashes[hashes.len() - window..]
        .iter()
        .filter(|&&h| h == pos.hash())
        .count()
        .max(1)
}

/// Neither side can ever mate: one side has a bare King and the other only material the
/// variant lists as unable to mate, or only colour-bound pieces remain, all on one colour.
pub fn insufficient_material<B: Bitboard>(pos: &Position<B>) -> bool {
    cannot_mate(pos, Color::White) && cannot_mate(pos, Color::Black)
}

/// `color` can never mate, whatever either side plays: it has a bare King; or only material
/// the variant lists as unable to mate a bare King, and the opponent has a bare King (nothing
/// that could block its own King's flight); or only colour-bound pieces remain besides the
/// Kings, all on squares of one colour. A variant with no such list, holes, a reserve still
/// to drop, or a swap-in that `color` can still make says no: there, which material can mate
/// is not known from the pieces on the board. Both sides unable to mate is the draw by
/// insufficient material (Fairy-Stockfish answers the same question per side). The search asks
/// it in positions without pawns, so it allocates nothing.
pub fn cannot_mate<B: Bitboard>(pos: &Position<B>, color: Color) -> bool {
    let layout = pos.layout();
    let variant = layout.variant;
    if variant.end.insufficient_material.is_empty()
        || pos.holes().any()
        || crate::rules::material_may_change(pos, color)
    {
        return false;
    }
    // A side's pieces as letters, sorted; `None` when there are too many to be listed.
    let material = |color: Color| -> Option<ArrayVec<char, MAX_LISTED>> {
        let mut letters = ArrayVec::new();
        for sq in pos.color_bb(color).squares() {
            let kind = pos.piece_at(sq).unwrap().kind();
            letters.try_push(variant.pieces[kind.index()].letter).ok()?;
        }
        letters.sort_unstable();
        Some(letters)
    };
    let listed = |m: &[char]| {
        variant.end.insufficient_material.iter().any(|l| {
            let mut a: ArrayVec<char, MAX_LISTED> = ArrayVec::new();
            for c in l.chars() {
                if a.try_push(c).is_err() {
                    return false;
                }
            }
            a.sort_unstable();
            a.as_slice() == m
        })
    };
    let bare = |m: &Option<ArrayVec<char, MAX_LISTED>>| m.as_ref().is_some_and(|m| m.len() == 1);
    let (ours, theirs) = (material(color), material(!color));
    if bare(&ours) || (bare(&theirs) && ours.as_ref().is_some_and(|m| listed(m))) {
        return true;
    }
    // Only colour-bound pieces besides the Kings, all on squares of one colour.
    let others = pos.occupied() & !pos.kind_bb(layout.king);
    let all_bound = others
        .squares()
        .all(|sq| layout.colour_bound[pos.piece_at(sq).unwrap().kind().index()]);
    let on_light = (others & layout.light_squares).any();
    let on_dark = (others & !layout.light_squares).any();
    others.any() && all_bound && !(on_light && on_dark)
}
