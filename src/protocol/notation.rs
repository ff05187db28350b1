//! Moves on the wire: coordinates, then side effects after commas (DESIGN.md).
//!
//! | move | wire |
//! |---|---|
//! | ordinary, capture, e.p. | `e2e4` |
//! | promotion | `e7e8q` |
//! | castling | the King's move, `e1g1` |
//! | swap-in | `c1c1m` |
//! | pawn move + transformation elsewhere | `e5e6,d2d2t` |
//! | spell | `d4e4` (carry), `d4e4x` (drop) |
//! | move + drop | `e3e4,n@c5` |
//!
//! Ranks count from `first_rank`: 1 for UCI, 0 for XBoard on boards of exactly ten ranks
//! (`xboard::dialect::first_rank`).

use crate::board::{Bitboard, Move, MoveKind, Position};

/// Why a text is not a legal move here: the caller decides by the kind, the message says
/// it to a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in coordinate notation at all.
    NotAMove(String),
    /// A move, but not a legal one in this position.
    Illegal(String),
    /// A legal move written without its mandatory side effect (a drop).
    MissingSideEffect(String),
}

impl MoveError {
    pub fn message(&self) -> &str {
        match self {
            MoveError::NotAMove(m) | MoveError::Illegal(m) | MoveError::MissingSideEffect(m) => m,
        }
    }
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl From<MoveError> for String {
    fn from(e: MoveError) -> String {
        e.message().to_string()
    }
}

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
        MoveKind::Normal | MoveKind::EnPassant | MoveKind::Castle | MoveKind::SpellCarry => base,
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
