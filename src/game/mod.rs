//! A game of any variant: the start position, the moves played since and the positions'
//! hashes (for repetition); how a game ends (`outcome`).

pub mod any_position;
pub mod outcome;

use crate::board::Move;
use crate::variant::Variant;
use crate::with_position;
pub use any_position::{AnyPosition, check_variant};

/// Why a move (or a text read as one) cannot be played here: the caller decides by the
/// kind, the message says it to a person.
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

/// A game: the start position, the moves played since and the positions' hashes.
#[derive(Clone)]
pub struct Game {
    start: AnyPosition,
    position: AnyPosition,
    moves: Vec<Move>,
    hashes: Vec<u64>,
}

impl Game {
    pub fn new(start: AnyPosition) -> Game {
        Game {
            start,
            position: start,
            moves: Vec::new(),
            hashes: vec![start.hash()],
        }
    }

    pub fn position(&self) -> &AnyPosition {
        &self.position
    }
    pub fn start(&self) -> &AnyPosition {
        &self.start
    }
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// Hashes of every position so far, the current one last.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }
    pub fn variant(&self) -> &'static Variant {
        self.position.variant()
    }

    /// Plays a move of the current position; one that is not legal here changes nothing.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        let legal = with_position!(&self.position, p => p.legal_moves().contains(&m));
        if !legal {
            return Err(MoveError::Illegal(format!(
                "{m:?} is not a legal move in {}",
                self.position.to_fen()
            )));
        }
        with_position!(&mut self.position, p => p.play(m));
        self.moves.push(m);
        self.hashes.push(self.position.hash());
        Ok(())
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.hashes.pop();
        let moves = std::mem::take(&mut self.moves);
        let mut position = self.start;
        for &m in &moves {
            with_position!(&mut position, p => p.play(m));
        }
        self.position = position;
        self.moves = moves;
        true
    }
}
