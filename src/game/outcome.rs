//! How a game ends (RULES.md per variant): checkmate, stalemate (scored as the variant says),
//! the 50-move rule, repetition and insufficient material.

use crate::board::{Bitboard, Color, Position};
use crate::variant::Stalemate;

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
/// Kings, all on squares of one colour. A variant with no such list, holes, or a reserve still
/// to drop says no: there, which material can mate is not known. Both sides unable to mate is
/// the draw by insufficient material (Fairy-Stockfish answers the same question per side).
pub fn cannot_mate<B: Bitboard>(pos: &Position<B>, color: Color) -> bool {
    let layout = pos.layout();
    let variant = layout.variant;
    if variant.end.insufficient_material.is_empty()
        || pos.holes().any()
        || crate::rules::reserve_left(pos)
    {
        return false;
    }
    let material = |color: Color| -> String {
        let mut letters: Vec<char> = pos
            .color_bb(color)
            .squares()
            .map(|sq| variant.pieces[pos.piece_at(sq).unwrap().kind().index()].letter)
            .collect();
        letters.sort_by_key(|&c| (c != 'K', c));
        letters.into_iter().collect()
    };
    let listed = |m: &str| {
        variant.end.insufficient_material.iter().any(|l| {
            let mut a: Vec<char> = l.chars().collect();
            let mut b: Vec<char> = m.chars().collect();
            a.sort();
            b.sort();
            a == b
        })
    };
    let king_letter = variant.pieces[layout.king.index()].letter.to_string();
    let (ours, theirs) = (material(color), material(!color));
    if ours == king_letter || (theirs == king_letter && listed(&ours)) {
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
