//! How a game ends: pyffish's `game_result`, `is_immediate_game_end`,
//! `is_optional_game_end` and `has_insufficient_material`, and what magus adds: the outcome
//! as a result and a reason, and the Magi 12-point payoff.
//!
//! Values are pyffish's: from the side to move's point of view, `VALUE_MATE` for a win,
//! `-VALUE_MATE` for a loss, `VALUE_DRAW` for a draw.

use magus::board::{Bitboard, Color, Position};
use magus::game::outcome::{self as rules, Outcome, Reason};
use magus::tournament::payoff::{Offer, OfferKind, PayoffEnd, PayoffRules};
use magus::with_position;
use pyo3::prelude::*;

use crate::errors::{MagusError, no_chess960};
use crate::integers::Integer;
use crate::position::Line;

/// pyffish's `VALUE_MATE` (Fairy-Stockfish's value, so that code comparing with it works).
pub const VALUE_MATE: i32 = 32000;
pub const VALUE_DRAW: i32 = 0;

fn line_outcome(line: &Line) -> Option<Outcome> {
    with_position!(&line.position, p => rules::outcome(p, &line.hashes))
}

fn side_to_move(line: &Line) -> Color {
    with_position!(&line.position, p => p.side())
}

/// The value of an outcome for the side to move.
fn value_for(outcome: Outcome, mover: Color) -> i32 {
    match outcome {
        Outcome::Win(winner, _) if winner == mover => VALUE_MATE,
        Outcome::Win(..) => -VALUE_MATE,
        Outcome::Draw(_) => VALUE_DRAW,
    }
}

/// The result of a game that is over (checkmate, stalemate as the variant scores it, the
/// 50-move rule, repetition, insufficient material), from the side to move's view. pyffish
/// leaves it undefined while the game goes on; magus raises `MagusError`.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false))]
pub fn game_result(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
) -> PyResult<i32> {
    no_chess960(chess960)?;
    let line = Line::new(variant, fen, &movelist)?;
    match line_outcome(&line) {
        Some(o) => Ok(value_for(o, side_to_move(&line))),
        None => Err(MagusError::new_err(format!(
            "game_result: the game is not over in {}",
            line.position.to_fen()
        ))),
    }
}

/// An end the rules apply while the side to move still has moves: in magus, neither side
/// able to mate (insufficient material, a draw). Checkmate and stalemate are not reported
/// here (no legal moves: `game_result`), as in pyffish.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false))]
pub fn is_immediate_game_end(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
) -> PyResult<(bool, i32)> {
    no_chess960(chess960)?;
    let line = Line::new(variant, fen, &movelist)?;
    let dead = with_position!(&line.position, p => !p.legal_moves().is_empty()
        && rules::insufficient_material(p));
    Ok((dead, VALUE_DRAW))
}

/// The draws a player may claim in pyffish's terms: the 50-move rule and threefold
/// repetition (as the variant counts them), while the side to move has moves. magus's own
/// referee (and `outcome`) ends the game there at once. `count_started` is accepted and
/// changes nothing (no counting rules in magus).
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false, count_started=0))]
pub fn is_optional_game_end(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
    count_started: i32,
) -> PyResult<(bool, i32)> {
    no_chess960(chess960)?;
    let _ = count_started;
    let line = Line::new(variant, fen, &movelist)?;
    let claimable = with_position!(&line.position, p => claimable_draw(p, &line.hashes));
    Ok((claimable, VALUE_DRAW))
}

fn claimable_draw<B: Bitboard>(p: &Position<B>, hashes: &[u64]) -> bool {
    let end = &p.layout().variant.end;
    if p.legal_moves().is_empty() {
        return false;
    }
    let fifty = end.fifty_move_plies > 0 && p.halfmove_clock() >= end.fifty_move_plies;
    let repeated = end.repetitions > 0 && rules::repetitions(p, hashes) >= end.repetitions as usize;
    fifty || repeated
}

/// Per side (White, Black): that side can never mate, whatever either side plays. Both
/// true is the draw by insufficient material.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false))]
pub fn has_insufficient_material(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
) -> PyResult<(bool, bool)> {
    no_chess960(chess960)?;
    let line = Line::new(variant, fen, &movelist)?;
    Ok(with_position!(&line.position, p => (
        rules::cannot_mate(p, Color::White),
        rules::cannot_mate(p, Color::Black),
    )))
}

fn reason_name(reason: Reason) -> &'static str {
    reason.describe()
}

/// The game's end under magus's rules, if it is over: the result (`1-0`, `0-1`,
/// `1/2-1/2`) and the reason (`checkmate`, `stalemate`, `50-move rule`, `repetition`,
/// `insufficient material`).
#[pyfunction]
pub fn outcome(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
) -> PyResult<Option<(&'static str, &'static str)>> {
    let line = Line::new(variant, fen, &movelist)?;
    Ok(line_outcome(&line).map(|o| match o {
        Outcome::Win(Color::White, r) => ("1-0", reason_name(r)),
        Outcome::Win(Color::Black, r) => ("0-1", reason_name(r)),
        Outcome::Draw(r) => ("1/2-1/2", reason_name(r)),
    }))
}

fn color_named(text: &str) -> PyResult<Color> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(MagusError::new_err(format!(
            "'{text}' is not a side: write 'white' or 'black'"
        ))),
    }
}

fn offer_from((kind, by, fullmove, accepted): (String, String, Integer, bool)) -> PyResult<Offer> {
    let kind = match kind.to_ascii_lowercase().as_str() {
        "resign" | "resignation" => OfferKind::Resign,
        "draw" => OfferKind::Draw,
        _ => {
            return Err(MagusError::new_err(format!(
                "offer kind '{kind}': write 'resign' or 'draw'"
            )));
        }
    };
    let fullmove = fullmove.within("an offer's fullmove", 1..=i64::from(u32::MAX))?;
    Ok(Offer {
        kind,
        by: color_named(&by)?,
        fullmove,
        accepted,
    })
}

/// The Magi 12-point payoff (RULES.md §2.5) of a game played from the FEN: `(White's
/// points, Black's points)`, or `None` while the game goes on. `offers` are the resignation
/// and draw offers made, as `(kind, by, fullmove, accepted)` with kind `"resign"` or
/// `"draw"` and by `"white"` or `"black"`; only the first of each kind counts. `resigned`
/// names a side that resigned (or lost otherwise than by the rules: time, forfeit) at the
/// current move. `rule150` is the optional 150-move rule; `refused_draw_decays=False` is the
/// weaker reading of a refused draw offer.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, offers=None, resigned=None, rule150=false, refused_draw_decays=true))]
pub fn payoff(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    offers: Option<Vec<(String, String, Integer, bool)>>,
    resigned: Option<String>,
    rule150: bool,
    refused_draw_decays: bool,
) -> PyResult<Option<(u8, u8)>> {
    let line = Line::new(variant, fen, &movelist)?;
    let offers: Vec<Offer> = offers
        .unwrap_or_default()
        .into_iter()
        .map(offer_from)
        .collect::<PyResult<_>>()?;
    let rules = PayoffRules {
        rule150,
        refused_draw_decays,
        ..PayoffRules::default()
    };
    let (mover, fullmove) =
        with_position!(&line.position, p => (p.side(), u32::from(p.fullmove_number())));
    // Only the first offer of each kind counts; one of those accepted ends the game.
    let counted_acceptance = [OfferKind::Resign, OfferKind::Draw].iter().any(|&kind| {
        offers
            .iter()
            .find(|o| o.kind == kind)
            .is_some_and(|o| o.accepted)
    });
    let end = if counted_acceptance {
        // The accepted offer decides; the end given is not read.
        Some(PayoffEnd::Draw)
    } else if let Some(side) = resigned {
        Some(PayoffEnd::Resign {
            loser: color_named(&side)?,
            fullmove,
        })
    } else {
        match line_outcome(&line) {
            Some(Outcome::Win(winner, Reason::Checkmate)) => Some(PayoffEnd::Mate {
                winner,
                // The mating move belongs to the previous full move when White is to move.
                fullmove: if mover == Color::White {
                    fullmove.saturating_sub(1).max(1)
                } else {
                    fullmove
                },
            }),
            Some(Outcome::Win(_, Reason::Stalemate) | Outcome::Draw(Reason::Stalemate)) => {
                Some(PayoffEnd::Stalemate { by: !mover })
            }
            Some(_) => Some(PayoffEnd::Draw),
            None => rules
                .move_limit()
                .filter(|&limit| fullmove > limit)
                .map(|_| PayoffEnd::MoveLimit),
        }
    };
    Ok(end.map(|end| rules.payoff(&offers, end)))
}
