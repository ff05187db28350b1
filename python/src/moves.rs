//! Moves: the legal ones, SAN, the FEN after a line, checks and captures (pyffish's
//! functions), and what magus adds: SAN to wire notation, the side effects of a move, perft.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

use magus::board::{Bitboard, Color, Move, MoveKind, Position, Square};
use magus::game::AnyPosition;
use magus::movegen::perft::perft_until;
use magus::protocol::notation::to_wire as wire_of;
use magus::protocol::uci::MAX_PERFT_DEPTH;
use magus::with_position;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::{IllegalMoveError, MagusError, no_chess960};
use crate::integers::Integer;
use crate::position::{Line, after_wire, bad_move_in_list, play, read_fen};
use crate::variants;

/// pyffish's `NOTATION_DEFAULT`: each variant's own SAN.
pub const NOTATION_DEFAULT: i32 = 0;
/// pyffish's `NOTATION_SAN`: the same in magus.
pub const NOTATION_SAN: i32 = 1;

fn check_notation(notation: i32) -> PyResult<()> {
    if notation == NOTATION_DEFAULT || notation == NOTATION_SAN {
        Ok(())
    } else {
        Err(MagusError::new_err(format!(
            "notation {notation}: magus writes SAN only (NOTATION_DEFAULT or NOTATION_SAN)"
        )))
    }
}

/// The legal moves after `movelist`, in wire notation (UCI for ordinary moves; side effects
/// after commas, like `e5e6,d2d2t`, `d4e4x`, `e3e4,n@c5`).
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false))]
pub fn legal_moves(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
) -> PyResult<Vec<String>> {
    no_chess960(chess960)?;
    Ok(Line::new(variant, fen, &movelist)?
        .position
        .legal_moves_wire(1))
}

/// The SAN of a move (wire notation) in the position of the FEN.
#[pyfunction]
// `notation=0` is NOTATION_DEFAULT, written as a number for the signature Python shows.
#[pyo3(signature = (variant, fen, r#move, chess960=false, notation=0))]
pub fn get_san(
    variant: &str,
    fen: &str,
    r#move: &str,
    chess960: bool,
    notation: i32,
) -> PyResult<String> {
    no_chess960(chess960)?;
    check_notation(notation)?;
    let position = read_fen(variants::variant(variant)?, fen)?;
    let (_, m) = play(&position, r#move)?;
    Ok(position.san(m))
}

/// The SAN of each move of a line played from the FEN.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false, notation=0))]
pub fn get_san_moves(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
    notation: i32,
) -> PyResult<Vec<String>> {
    no_chess960(chess960)?;
    check_notation(notation)?;
    let mut position = read_fen(variants::variant(variant)?, fen)?;
    let mut sans = Vec::with_capacity(movelist.len());
    for (i, text) in movelist.iter().enumerate() {
        let (next, m) =
            after_wire(&position, text).map_err(|e| bad_move_in_list(i, e, &position))?;
        sans.push(position.san(m));
        position = next;
    }
    Ok(sans)
}

/// The FEN after `movelist`. `sfen` (shogi's format) is refused: no magus variant is
/// shogi-like. `show_promoted` and `count_started` are accepted and change nothing: no magus
/// variant has promoted pieces in hand or a counting rule.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false, sfen=false, show_promoted=false, count_started=0))]
pub fn get_fen(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
    sfen: bool,
    show_promoted: bool,
    count_started: i32,
) -> PyResult<String> {
    no_chess960(chess960)?;
    let _ = (show_promoted, count_started);
    if sfen {
        return Err(MagusError::new_err(
            "sfen=True: magus has no shogi variants and writes FEN only",
        ));
    }
    Ok(Line::new(variant, fen, &movelist)?.position.to_fen())
}

/// Whether the side to move is in check after `movelist`.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false))]
pub fn gives_check(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
) -> PyResult<bool> {
    no_chess960(chess960)?;
    Ok(Line::new(variant, fen, &movelist)?.position.in_check())
}

/// Whether a move takes a piece off the board: a capture, en passant, or a spell that drops
/// the piece it swaps with into the hole (of either colour). Castling, swap-ins and drops
/// capture nothing.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, r#move, chess960=false))]
pub fn is_capture(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    r#move: &str,
    chess960: bool,
) -> PyResult<bool> {
    no_chess960(chess960)?;
    let position = Line::new(variant, fen, &movelist)?.position;
    let (_, m) = play(&position, r#move)?;
    Ok(with_position!(&position, p => !captured(p, m).is_empty()))
}

/// The pieces a move takes off the board, with their squares.
fn captured<B: Bitboard>(p: &Position<B>, m: Move) -> Vec<(Square, magus::board::Piece)> {
    match m.kind() {
        MoveKind::EnPassant | MoveKind::EnPassantTransform => p
            .piece_at(p.ep_victim())
            .map(|v| (p.ep_victim(), v))
            .into_iter()
            .collect(),
        MoveKind::Castle | MoveKind::SwapIn | MoveKind::SpellCarry => Vec::new(),
        _ => p
            .piece_at(m.to())
            .map(|v| (m.to(), v))
            .into_iter()
            .collect(),
    }
}

/// A move written in SAN (the variant's own forms, as `get_san` writes them; check marks,
/// `0`-castling, long pawn forms and wire notation are read too) in wire notation.
#[pyfunction]
pub fn to_wire(variant: &str, fen: &str, san: &str) -> PyResult<String> {
    let position = read_fen(variants::variant(variant)?, fen)?;
    let (_, m) = position
        .after_san(san)
        .map_err(|e| IllegalMoveError::new_err(format!("{e} (position {})", position.to_fen())))?;
    Ok(with_position!(&position, p => wire_of(p, m, 1)))
}

/// How often the waiting thread looks for Ctrl-C (KeyboardInterrupt) while perft counts.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// The leaves of the move tree `depth` plies deep after `movelist` (the move generator's
/// proof), `depth` from 0 to the UCI command's most. The count runs on a thread of its own
/// while this one, with the interpreter's lock released, looks for signals now and then:
/// Ctrl-C ends the count and raises KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (variant, fen, depth, movelist=None))]
pub fn perft(
    py: Python<'_>,
    variant: &str,
    fen: &str,
    depth: Integer,
    movelist: Option<Vec<String>>,
) -> PyResult<u64> {
    let depth: u32 = depth.within("depth", 0..=i64::from(MAX_PERFT_DEPTH))?;
    let position = Line::new(variant, fen, &movelist.unwrap_or_default())?.position;
    let cancel = Arc::new(AtomicBool::new(false));
    let (send, mut receive) = channel();
    let counting = Arc::clone(&cancel);
    std::thread::Builder::new()
        .name("perft".into())
        .spawn(move || {
            let leaves = with_position!(&position, p => perft_until(p, depth, &counting));
            let _ = send.send(leaves);
        })
        .map_err(|e| MagusError::new_err(format!("perft: cannot start a thread: {e}")))?;
    loop {
        let (got, back) = py.detach(move || (receive.recv_timeout(SIGNAL_POLL), receive));
        receive = back;
        match got {
            Ok(Some(leaves)) => return Ok(leaves),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                return Err(MagusError::new_err("perft ended without a count"));
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(interrupt) = py.check_signals() {
                    // The counting thread gives up at its next node and ends on its own.
                    cancel.store(true, Ordering::Relaxed);
                    return Err(interrupt);
                }
            }
        }
    }
}

fn kind_name(kind: MoveKind) -> &'static str {
    match kind {
        MoveKind::Normal => "normal",
        MoveKind::Promotion => "promotion",
        MoveKind::EnPassant => "en_passant",
        MoveKind::Castle => "castle",
        MoveKind::SwapIn => "swap_in",
        MoveKind::Transform => "transform",
        MoveKind::EnPassantTransform => "en_passant_transform",
        MoveKind::SpellCarry => "spell_carry",
        MoveKind::SpellDrop => "spell_drop",
        MoveKind::Drop => "drop",
    }
}

/// What stands on a square, as FEN writes it: a piece's letter, `*` for a hole, `None` for
/// an empty square.
fn content<B: Bitboard>(p: &Position<B>, sq: Square) -> Option<String> {
    if p.holes().has(sq) {
        return Some("*".to_string());
    }
    p.piece_at(sq)
        .map(|piece| letter(p, piece.kind(), piece.color()))
}

fn letter<B: Bitboard>(p: &Position<B>, kind: magus::board::Kind, color: Color) -> String {
    p.layout().piece_letter(kind, color).to_string()
}

/// The side effect of a move, if it has one: what happens besides the piece's own move.
fn side_effect<'py, B: Bitboard>(
    py: Python<'py>,
    p: &Position<B>,
    m: Move,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let dims = p.layout().dims;
    let us = p.side();
    let effect = PyDict::new(py);
    let (kind, square, piece): (&str, Square, Option<String>) = match m.kind() {
        MoveKind::Normal => return Ok(None),
        MoveKind::Promotion => ("promotion", m.to(), Some(letter(p, m.piece(), us))),
        MoveKind::EnPassant => ("en_passant", p.ep_victim(), content(p, p.ep_victim())),
        MoveKind::Castle => {
            let rule = p.layout().castles[us.index()]
                .iter()
                .find(|c| c.king_from == m.from() && c.king_to == m.to())
                .ok_or_else(|| MagusError::new_err("castling the variant does not have"))?;
            effect.set_item("from", dims.name(rule.rook_from))?;
            ("castle", rule.rook_to, content(p, rule.rook_from))
        }
        MoveKind::SwapIn => ("swap_in", m.from(), Some(letter(p, m.piece(), us))),
        MoveKind::Transform | MoveKind::EnPassantTransform => {
            effect.set_item("was", content(p, m.aux()))?;
            ("transform", m.aux(), Some(letter(p, m.piece(), us)))
        }
        MoveKind::SpellCarry => ("spell_carry", m.from(), content(p, m.to())),
        MoveKind::SpellDrop => ("spell_drop", m.to(), content(p, m.to())),
        MoveKind::Drop => ("drop", m.aux(), Some(letter(p, m.piece(), us))),
    };
    effect.set_item("kind", kind)?;
    effect.set_item("square", dims.name(square))?;
    effect.set_item("piece", piece)?;
    Ok(Some(effect))
}

/// Everything a move does, for a board to show it: see `move_effects` in the stubs.
fn effects<'py, B: Bitboard>(
    py: Python<'py>,
    p: &Position<B>,
    m: Move,
) -> PyResult<Bound<'py, PyDict>> {
    let dims = p.layout().dims;
    let mut after = *p;
    after.play(m);
    let out = PyDict::new(py);
    out.set_item("move", wire_of(p, m, 1))?;
    out.set_item("san", magus::protocol::san::to_san(p, m))?;
    out.set_item("kind", kind_name(m.kind()))?;
    out.set_item("from", dims.name(m.from()))?;
    out.set_item("to", dims.name(m.to()))?;
    let spell = matches!(m.kind(), MoveKind::SpellCarry | MoveKind::SpellDrop);
    out.set_item(
        "piece",
        if spell {
            Some("*".to_string())
        } else {
            content(p, m.from())
        },
    )?;
    let taken = PyList::empty(py);
    for (sq, piece) in captured(p, m) {
        taken.append((dims.name(sq), letter(p, piece.kind(), piece.color())))?;
    }
    out.set_item("captured", taken)?;
    out.set_item("side_effect", side_effect(py, p, m)?)?;
    let changes = PyList::empty(py);
    for i in 0..dims.squares() {
        let sq = Square::new(i as u8);
        let (before, now) = (content(p, sq), content(&after, sq));
        if before != now {
            changes.append((dims.name(sq), before, now))?;
        }
    }
    out.set_item("changes", changes)?;
    out.set_item("gives_check", after.in_check())?;
    Ok(out)
}

/// What a move does: its kind, squares, captures, side effect and every square it changes.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, r#move))]
pub fn move_effects<'py>(
    py: Python<'py>,
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    r#move: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let position: AnyPosition = Line::new(variant, fen, &movelist)?.position;
    let (_, m) = play(&position, r#move)?;
    with_position!(&position, p => effects(py, p, m))
}
