//! Moves on the wire: coordinates, then side effects after commas (DESIGN.md).
//!
//! | move | wire |
//! |---|---|
//! | ordinary, capture, e.p. | `e2e4` |
//! | promotion | `e7e8q` |
//! | castling | the King's move, `e1g1`; King takes Rook, `d1a1`, when the King steps one square |
//! | swap-in | `c1c1m` |
//! | pawn move + transformation elsewhere | `e5e6,d2d2t` |
//! | spell | `d4e4` (carry), `d4e4x` (drop) |
//! | move + drop | `e3e4,n@c5` |
//!
//! Ranks count from `first_rank`: 1 for UCI, 0 for XBoard on boards of exactly ten ranks
//! (`xboard::dialect::first_rank`).

use crate::board::{Bitboard, Move, MoveKind, Position};
use crate::game::AnyPosition;
use crate::game::Game;
use crate::with_position;

pub use crate::game::MoveError;

/// The wire form of a move of `pos`.
pub fn to_wire<B: Bitboard>(pos: &Position<B>, m: Move, first_rank: u8) -> String {
    let layout = pos.layout();
    let dims = layout.dims;
    let name = |sq| dims.name_from(sq, first_rank);
    let letter = |kind| {
        layout.variant.pieces[crate::board::Kind::index(kind)]
            .letter
            .to_ascii_lowercase()
    };
    let base = format!("{}{}", name(m.from()), name(m.to()));
    match m.kind() {
        MoveKind::Castle => match step_castling_rook(pos, m) {
            Some(rook) => format!("{}{}", name(m.from()), name(rook)),
            None => base,
        },
        MoveKind::Normal | MoveKind::EnPassant | MoveKind::SpellCarry => base,
        MoveKind::Promotion | MoveKind::SwapIn => format!("{base}{}", letter(m.piece())),
        MoveKind::SpellDrop => format!("{base}x"),
        MoveKind::Transform | MoveKind::EnPassantTransform => {
            format!(
                "{base},{}{}{}",
                name(m.aux()),
                name(m.aux()),
                letter(m.piece())
            )
        }
        MoveKind::Drop => format!("{base},{}@{}", letter(m.piece()), name(m.aux())),
    }
}

/// The Rook's square of a castling whose King moves one square at most (Fairy-Stockfish's
/// `active` and `haynie`): written as the King's move, it would be the King's plain step, so
/// it is written King takes Rook, as Fairy-Stockfish writes it.
fn step_castling_rook<B: Bitboard>(pos: &Position<B>, m: Move) -> Option<crate::board::Square> {
    let dims = pos.layout().dims;
    if dims.file(m.from()).abs_diff(dims.file(m.to())) > 1 {
        return None;
    }
    pos.layout().castles[pos.side().index()]
        .iter()
        .find(|c| c.king_from == m.from() && c.king_to == m.to())
        .map(|c| c.rook_from)
}

/// Finds the legal move of `pos` written `text`. The error says whether the text is not a
/// move at all or a move that is not legal here.
pub fn parse_wire<B: Bitboard>(
    pos: &Position<B>,
    text: &str,
    first_rank: u8,
) -> Result<Move, MoveError> {
    let layout = pos.layout();
    let dims = layout.dims;
    let wanted = text.trim().to_ascii_lowercase();
    let squares = dims
        .parse_prefix_from(&wanted, first_rank)
        .and_then(|(from, n)| {
            dims.parse_prefix_from(&wanted[n..], first_rank)
                .map(|(to, k)| (from, to, &wanted[n + k..]))
        });
    let Some((from, to, suffix)) = squares else {
        return Err(MoveError::NotAMove(format!(
            "'{text}' is not a move in coordinate notation (like e2e4)"
        )));
    };
    let legal = pos.legal_moves();
    if let Some(&m) = legal
        .iter()
        .find(|&&m| to_wire(pos, m, first_rank) == wanted)
    {
        return Ok(m);
    }
    // A move from a hole can only be a spell: say what is wrong with it.
    if layout.variant.mechanics.spells.is_some() && pos.holes().has(from) {
        let why = if matches!(suffix, "" | "x") {
            crate::rules::spells::explain_refusal(pos, from, to, suffix == "x")
        } else {
            "a spell is the hole's square then the square it swaps with, 'x' added to drop the piece there (like d4e4 or d4e4x)".to_string()
        };
        return Err(MoveError::Illegal(format!(
            "'{text}' is not a legal spell: {why}"
        )));
    }
    // A move whose side effect is mandatory (a drop) is not a move without it.
    let with_effect = format!("{wanted},");
    if let Some(&m) = legal
        .iter()
        .find(|&&m| to_wire(pos, m, first_rank).starts_with(&with_effect))
    {
        return Err(MoveError::MissingSideEffect(format!(
            "'{text}' needs its side effect written after a comma, like {}",
            to_wire(pos, m, first_rank)
        )));
    }
    Err(MoveError::Illegal(format!(
        "'{text}' is not a legal move in this position"
    )))
}

/// The wire forms of a position of any width (the command line, the protocols and the
/// referee read and write moves through these).
impl AnyPosition {
    /// Perft by root move, with the moves in wire notation.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        with_position!(self, p => crate::movegen::perft::divide(p, depth)
            .into_iter()
            .map(|(m, n)| (to_wire(p, m, 1), n))
            .collect())
    }
    /// Perft by root move, calling `each(index, count, wire move, nodes)` as each root move
    /// finishes (for progress on long runs); returns the total.
    pub fn divide_each(&self, depth: u32, mut each: impl FnMut(usize, usize, &str, u64)) -> u64 {
        let depth = depth.max(1);
        with_position!(self, p => {
            let moves = p.legal_moves();
            let mut total = 0;
            for (i, &m) in moves.iter().enumerate() {
                let mut next = *p;
                next.play(m);
                let n = crate::movegen::perft::perft(&next, depth - 1);
                total += n;
                each(i + 1, moves.len(), &to_wire(p, m, 1), n);
            }
            total
        })
    }
    /// The legal moves in wire notation (ranks from `first_rank`).
    pub fn legal_moves_wire(&self, first_rank: u8) -> Vec<String> {
        with_position!(self, p => p.legal_moves().into_iter().map(|m| to_wire(p, m, first_rank)).collect())
    }
    /// Parses a wire move and returns the position after it.
    pub fn after_wire(&self, text: &str, first_rank: u8) -> Result<(AnyPosition, Move), MoveError> {
        match self {
            AnyPosition::Small(p) => {
                let m = parse_wire(p, text, first_rank)?;
                let mut next = *p;
                next.play(m);
                Ok((AnyPosition::Small(next), m))
            }
            AnyPosition::Large(p) => {
                let m = parse_wire(p, text, first_rank)?;
                let mut next = *p;
                next.play(m);
                Ok((AnyPosition::Large(next), m))
            }
        }
    }
}

impl Game {
    /// A game from a FEN and a list of wire moves; on error, nothing is built and the message
    /// names the first bad move and its number.
    pub fn from_moves(start: AnyPosition, moves: &[&str], first_rank: u8) -> Result<Game, String> {
        let mut game = Game::new(start);
        for (i, text) in moves.iter().enumerate() {
            game.play_wire(text, first_rank)
                .map_err(|e| format!("move {} of the list: {e}", i + 1))?;
        }
        Ok(game)
    }
    /// Plays a wire move; an illegal one changes nothing.
    pub fn play_wire(&mut self, text: &str, first_rank: u8) -> Result<Move, MoveError> {
        let m = with_position!(self.position(), p => parse_wire(p, text, first_rank))?;
        self.play(m)?;
        Ok(m)
    }
}
