//! The XBoard dialect: how moves, positions, results and thinking lines are written on the
//! wire, and which of the engine's moves XBoard can relay.

use std::time::Duration;

use crate::board::Color;
use crate::board::{Bitboard, Move, MoveKind, Position, Square};
use crate::game::AnyPosition;
use crate::game::outcome::{Outcome, Reason};
use crate::protocol::notation::{self, MoveError};
use crate::search::{Report, Score};
use crate::variant::Variant;

/// XBoard's name of orthodox chess.
pub const NORMAL: &str = "normal";

/// The first rank's number on the wire for a board of `ranks` ranks: XBoard counts from 0 on
/// boards of exactly ten ranks (its `ONE` is `'1' - (BOARD_HEIGHT == 10)`), from 1 on all
/// others. The engine's session and the referee's XBoard client both ask here.
pub fn first_rank(ranks: u8) -> u8 {
    if ranks == 10 { 0 } else { 1 }
}

/// A move as sent to XBoard. A swap-in (`c1c1m` in the engine's notation) goes out as a
/// two-leg move out to a neighbouring empty square and back with the new piece (`c1d2,d2c1m`):
/// XBoard 4.9 refuses a move whose origin is its destination, but shows this form when it does
/// not test legality (`-xlegal`), and relays White's correctly (docs/xboard.md).
pub fn to_xboard<B: Bitboard>(pos: &Position<B>, m: Move, first_rank: u8) -> String {
    if m.kind() != MoveKind::SwapIn {
        return notation::to_wire(pos, m, first_rank);
    }
    let dims = pos.layout().dims;
    let from = m.from();
    let empty = |sq: Square| pos.piece_at(sq).is_none() && !pos.holes().has(sq);
    let near = [
        (1, 1),
        (-1, 1),
        (1, -1),
        (-1, -1),
        (0, 1),
        (0, -1),
        (1, 0),
        (-1, 0),
    ]
    .into_iter()
    .filter_map(|(df, dr)| dims.offset(from, df, dr))
    .find(|&sq| empty(sq));
    let via = near;
    let Some(via) = via else {
        return notation::to_wire(pos, m, first_rank);
    };
    let name = |sq| dims.name_from(sq, first_rank);
    let letter = pos.layout().variant.pieces[m.piece().index()]
        .letter
        .to_ascii_lowercase();
    format!(
        "{}{},{}{}{letter}",
        name(from),
        name(via),
        name(via),
        name(from)
    )
}

/// Reads a move from XBoard: the engine's notation, or one of the two-leg forms in which
/// XBoard sends the moves a person enters through the board markers (`highlight`):
///
/// - a swap-in out to an empty neighbour and back, `c1d2,d2c1m`; Black's comes in XBoard's
///   castling form, `c8c8,d7b8` (XBoard 4.9 takes a two-leg move whose first leg passes an
///   empty square of the mover's colour class for castling and rewrites it), read as the
///   swap-in on c8 when that is the only one there;
/// - an e.p. capture onto the captured pawn's origin square, first onto the pawn and then on,
///   `c7d7,d7d8`.
///
/// Nothing else XBoard relays stands for a spell or a drop: its `c2d2` onto a hole (with
/// `-xlegal`) removes the hole on its board, and its `e3d4` from `e3d4,n@c5` lost the drop;
/// both are refused as illegal here.
pub fn parse_xboard<B: Bitboard>(
    pos: &Position<B>,
    text: &str,
    first_rank: u8,
) -> Result<Move, MoveError> {
    let direct = notation::parse_wire(pos, text, first_rank);
    if direct.is_ok() {
        return direct;
    }
    let lower = text.trim().to_ascii_lowercase();
    let Some((first, second)) = lower.split_once(',') else {
        return direct;
    };
    two_legs(pos, first, second, first_rank).map_or(direct, Ok)
}

/// A two-leg move of XBoard's (`parse_xboard`): the legal move it stands for, if any.
fn two_legs<B: Bitboard>(
    pos: &Position<B>,
    first: &str,
    second: &str,
    first_rank: u8,
) -> Option<Move> {
    let dims = pos.layout().dims;
    let (a, n1) = dims.parse_prefix_from(first, first_rank)?;
    let (x, n2) = dims.parse_prefix_from(&first[n1..], first_rank)?;
    if n1 + n2 != first.len() {
        return None;
    }
    let (x2, m1) = dims.parse_prefix_from(second, first_rank)?;
    let rest = &second[m1..];
    let legal = pos.legal_moves();
    let empty = |sq: Square| pos.piece_at(sq).is_none() && !pos.holes().has(sq);
    let near = |p: Square, q: Square| {
        let (df, dr) = (
            dims.file(p) as i32 - dims.file(q) as i32,
            dims.rank(p) as i32 - dims.rank(q) as i32,
        );
        p != q && df.abs() <= 1 && dr.abs() <= 1
    };
    if a == x {
        // Black's swap-in as XBoard rewrites it: `c8c8,d7b8`, whose second leg starts on the
        // empty neighbour and ends on a square XBoard made up (the promotion letter is lost).
        if !(near(x2, a) && empty(x2) && !rest.is_empty() && rest.len() <= 4) {
            return None;
        }
        let swaps: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.kind() == MoveKind::SwapIn && m.from() == a)
            .collect();
        return (swaps.len() == 1).then(|| swaps[0]);
    }
    if x != x2 {
        return None;
    }
    let (b, m2) = dims.parse_prefix_from(rest, first_rank)?;
    let suffix = &rest[m2..];
    if b == a && empty(x) {
        // A swap-in out and back: `c1d2,d2c1m` (any empty square out, as XBoard shows it).
        let name = dims.name_from(a, first_rank);
        return notation::parse_wire(pos, &format!("{name}{name}{suffix}"), first_rank)
            .ok()
            .filter(|m| m.kind() == MoveKind::SwapIn);
    }
    // An e.p. capture entered through the pawn taken: `c7d7,d7d8`.
    legal.iter().copied().find(|m| {
        m.kind() == MoveKind::EnPassant
            && m.from() == a
            && m.to() == b
            && pos.ep_victim() == x
            && suffix.is_empty()
    })
}

/// Whether XBoard 4.9, testing legality with the `piece` definitions, accepts a move: plain
/// moves, captures, castling and promotions do; a swap-in, a transformation elsewhere, a
/// Home-File Transference, a spell or a drop do not, nor an e.p. capture onto the square the
/// pawn came from (Magi's d3/g3 pawns), which XBoard does not know as an e.p. square.
///
/// XBoard takes a pawn's diagonal step to an empty square as e.p. only from the capturer's far
/// half of the board (White from rank index `ranks / 2` up, Black below it), and then removes the
/// pawn just behind the destination. On a board of odd height Black's e.p. from the middle rank
/// (Magician Chess: b4xc3) falls outside that half: XBoard moves the pawn and leaves the victim
/// standing, so that capture is not relayed.
///
/// "Cannot" is what the real XBoard 4.9.1 did (docs/xboard.md): a spell (`d4e4`, `d4e4x`) is a
/// move from a hole, which XBoard forfeits even with `-xlegal`; of a move with a drop
/// (`e3d4,n@c5`) XBoard keeps the first leg only and relays `e3d4`, so the other side never
/// sees the dropped piece, and a separate `N@c5` is refused (no holdings).
pub fn xboard_checkable<B: Bitboard>(
    pos: &Position<B>,
    m: Move,
    last_from: Option<Square>,
) -> bool {
    let layout = pos.layout();
    match m.kind() {
        MoveKind::Castle | MoveKind::Promotion => true,
        MoveKind::EnPassant => {
            let dims = layout.dims;
            let half = dims.ranks / 2;
            let (far_half, behind) = match pos.side() {
                Color::White => (dims.rank(m.from()) >= half, dims.offset(m.to(), 0, -1)),
                Color::Black => (dims.rank(m.from()) < half, dims.offset(m.to(), 0, 1)),
            };
            far_half && behind == Some(pos.ep_victim()) && Some(m.to()) != last_from
        }
        MoveKind::Normal => {
            let Some(t) = &layout.variant.mechanics.transference else {
                return true;
            };
            let dims = layout.dims;
            let edge = |sq| {
                let f = dims.file(sq);
                f == 0 || f + 1 == dims.files
            };
            let teleport = dims.rank(m.from()) == dims.rank(m.to())
                && edge(m.from())
                && edge(m.to())
                && m.from() != m.to();
            let piece = pos.piece_at(m.from()).map(|p| p.kind().0);
            !(teleport && piece.is_some_and(|k| t.pieces.contains(&k)))
        }
        _ => false,
    }
}

/// The name XBoard knows a variant by.
pub fn xboard_name(variant: &Variant) -> &str {
    if variant.name == "chess" {
        NORMAL
    } else {
        &variant.name
    }
}

/// A move-like word sent without `usermove` (a GUI that did not accept the feature).
pub fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 4 && b[0].is_ascii_lowercase() && b[1].is_ascii_digit()
}

pub fn parse_centiseconds(text: &str) -> Option<Duration> {
    let n: i64 = text.trim().parse().ok()?;
    Some(Duration::from_millis(n.clamp(0, 1 << 40) as u64 * 10))
}

/// XBoard's FEN on a ten-rank board names the e.p. squares with ranks from 0; the engine's FEN
/// counts from 1.
pub fn fen_from_xboard(fen: &str, first_rank: u8) -> String {
    if first_rank == 1 {
        return fen.trim().to_string();
    }
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(ep) = fields.get_mut(3)
        && ep != "-"
    {
        let shifted: Vec<String> = ep
            .split(',')
            .map(|sq| {
                let (file, rank) = sq.split_at(1.min(sq.len()));
                match rank.parse::<u32>() {
                    Ok(r) => format!("{file}{}", r + 1),
                    Err(_) => sq.to_string(),
                }
            })
            .collect();
        *ep = shifted.join(",");
    }
    fields.join(" ")
}

/// The `RESULT {comment}` line of a finished game.
pub fn result_line(o: Outcome) -> String {
    match o {
        Outcome::Win(c, reason) => {
            let score = if c == Color::White { "1-0" } else { "0-1" };
            let what = match reason {
                Reason::Checkmate => format!("{} mates", c.name()),
                Reason::Stalemate => format!("{} wins by stalemate", c.name()),
                other => format!("{} wins by {}", c.name(), other.describe()),
            };
            format!("{score} {{{what}}}")
        }
        Outcome::Draw(reason) => {
            let what = match reason {
                Reason::Stalemate => "Stalemate".to_string(),
                other => format!("Draw by {}", other.describe()),
            };
            format!("1/2-1/2 {{{what}}}")
        }
    }
}

/// A thinking line: `ply score time nodes pv`, the score in centipawns (mates as 100000 + N),
/// the time in centiseconds.
pub fn thinking_line(pos: &AnyPosition, r: &Report, first_rank: u8) -> String {
    let score = match r.score {
        Score::Centipawns(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 + n,
        Score::Mate(n) => -100_000 + n,
    };
    // A bound is marked after the line, as a token of its own: glued to the last move it
    // would make that move unreadable to a client that replays the line (python-chess stops
    // at the first token it cannot play, and a one-move line would read as none).
    let mark = match r.bound {
        Some(true) => " !",
        Some(false) => " ?",
        None => "",
    };
    let pv = crate::protocol::uci::pv_wire(pos, &r.pv, first_rank).join(" ");
    format!(
        "{} {} {} {} {}{mark}",
        r.depth,
        score,
        r.time.as_millis() / 10,
        r.nodes,
        pv
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Registry;

    /// A thinking line's moves stay readable when the line is a bound: every token after
    /// the four numbers is a legal wire move of the line, and the mark stands alone.
    #[test]
    fn a_bound_is_marked_apart_from_the_moves() {
        let chess = Registry::builtin().get("chess").unwrap();
        let pos = AnyPosition::from_fen(chess, None).unwrap();
        let AnyPosition::Small(p) = &pos else {
            unreachable!("chess fits 64 bits")
        };
        let first = p.legal_moves()[0];
        let wire = pos.legal_moves_wire(1);
        for (bound, mark) in [
            (Some(true), Some("!")),
            (Some(false), Some("?")),
            (None, None),
        ] {
            let report = Report {
                depth: 6,
                seldepth: 6,
                multipv: 1,
                score: Score::Centipawns(24),
                bound,
                nodes: 1751,
                time: Duration::ZERO,
                hashfull: 0,
                pv: vec![first],
            };
            let line = thinking_line(&pos, &report, 1);
            let tokens: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(tokens[..4], ["6", "24", "0", "1751"], "{line}");
            assert!(wire.iter().any(|w| w == tokens[4]), "{line}: a legal move");
            assert_eq!(tokens.get(5).copied(), mark, "{line}");
            assert_eq!(tokens.len(), 5 + usize::from(mark.is_some()), "{line}");
        }
    }
}
