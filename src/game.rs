//! A game of any variant, whatever the width of its bitboards: the position, the moves that
//! led to it and their hashes (for repetition). The protocols and the command line work with
//! this type; below it everything is generic over the bitboard.

use std::sync::Mutex;

use crate::board::{Bitboard, Layout, Move, Position};
use crate::movegen::perft;
use crate::protocol::notation;
use crate::variant::Variant;

/// A position on a board of up to 64 squares (`Small`) or up to 128 (`Large`).
#[derive(Clone, Copy)]
pub enum AnyPosition {
    Small(Position<u64>),
    Large(Position<u128>),
}

/// Runs the same code on either width: `with_position!(any, pos => pos.hash())`.
#[macro_export]
macro_rules! with_position {
    ($any:expr, $pos:ident => $body:expr) => {
        match $any {
            $crate::game::AnyPosition::Small($pos) => $body,
            $crate::game::AnyPosition::Large($pos) => $body,
        }
    };
}

/// The compiled layouts, one per variant definition and width, built on first use and kept
/// for the whole run.
fn layout_for<B: Bitboard>(
    variant: &'static Variant,
    cache: &Mutex<Vec<(usize, &'static Layout<B>)>>,
) -> &'static Layout<B> {
    let key = variant as *const Variant as usize;
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, layout)) = cache.iter().find(|(k, _)| *k == key) {
        return layout;
    }
    let layout: &'static Layout<B> = Box::leak(Box::new(Layout::new(variant)));
    cache.push((key, layout));
    layout
}

static SMALL: Mutex<Vec<(usize, &'static Layout<u64>)>> = Mutex::new(Vec::new());
static LARGE: Mutex<Vec<(usize, &'static Layout<u128>)>> = Mutex::new(Vec::new());

impl AnyPosition {
    /// Reads a FEN of a variant (`None`: its start position).
    pub fn from_fen(variant: &'static Variant, fen: Option<&str>) -> Result<AnyPosition, String> {
        let fen = fen.unwrap_or(&variant.start_fen);
        if variant.squares() <= 64 {
            Position::from_fen(layout_for(variant, &SMALL), fen).map(AnyPosition::Small)
        } else {
            Position::from_fen(layout_for(variant, &LARGE), fen).map(AnyPosition::Large)
        }
    }

    pub fn variant(&self) -> &'static Variant {
        with_position!(self, p => p.layout().variant)
    }
    pub fn to_fen(&self) -> String {
        with_position!(self, p => p.to_fen())
    }
    pub fn hash(&self) -> u64 {
        with_position!(self, p => p.hash())
    }
    pub fn perft(&self, depth: u32) -> u64 {
        with_position!(self, p => perft::perft(p, depth))
    }
    /// Perft by root move, with the moves in wire notation.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        with_position!(self, p => perft::divide(p, depth)
            .into_iter()
            .map(|(m, n)| (notation::to_wire(p, m, 1), n))
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
                let n = perft::perft(&next, depth - 1);
                total += n;
                each(i + 1, moves.len(), &notation::to_wire(p, m, 1), n);
            }
            total
        })
    }
    /// The legal moves in wire notation (ranks from `first_rank`).
    pub fn legal_moves_wire(&self, first_rank: u8) -> Vec<String> {
        with_position!(self, p => p.legal_moves().into_iter().map(|m| notation::to_wire(p, m, first_rank)).collect())
    }
    /// Parses a wire move and returns the position after it.
    pub fn after_wire(
        &self,
        text: &str,
        first_rank: u8,
    ) -> Result<(AnyPosition, Move), notation::MoveError> {
        match self {
            AnyPosition::Small(p) => {
                let m = notation::parse_wire(p, text, first_rank)?;
                let mut next = *p;
                next.play(m);
                Ok((AnyPosition::Small(next), m))
            }
            AnyPosition::Large(p) => {
                let m = notation::parse_wire(p, text, first_rank)?;
                let mut next = *p;
                next.play(m);
                Ok((AnyPosition::Large(next), m))
            }
        }
    }
    /// The SAN of a legal move.
    pub fn san(&self, m: Move) -> String {
        with_position!(self, p => crate::protocol::san::to_san(p, m))
    }
    /// Reads a move in SAN (or coordinates) and returns the position after it.
    pub fn after_san(&self, text: &str) -> Result<(AnyPosition, Move), String> {
        let mut next = *self;
        let m = with_position!(&mut next, p => {
            let m = crate::protocol::san::parse_san(p, text)?;
            p.play(m);
            m
        });
        Ok((next, m))
    }
    /// A line of moves in SAN, played out from here.
    pub fn line_san(&self, moves: &[Move]) -> Vec<String> {
        let mut pos = *self;
        moves
            .iter()
            .map(|&m| {
                let text = pos.san(m);
                with_position!(&mut pos, p => p.play(m));
                text
            })
            .collect()
    }
    pub fn in_check(&self) -> bool {
        with_position!(self, p => p.in_check())
    }
}

/// Checks a variant before it is accepted: its layout compiles and its start position reads.
pub fn check_variant(variant: &Variant) -> Result<(), String> {
    // The checked copy is leaked like every accepted variant; a refused one is small.
    let leaked: &'static Variant = Box::leak(Box::new(variant.clone()));
    AnyPosition::from_fen(leaked, None)
        .map(|_| ())
        .map_err(|e| format!("key 'start': {e}"))
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

    /// Plays a wire move; an illegal one changes nothing.
    pub fn play_wire(&mut self, text: &str, first_rank: u8) -> Result<Move, notation::MoveError> {
        let (next, m) = self.position.after_wire(text, first_rank)?;
        self.position = next;
        self.moves.push(m);
        self.hashes.push(next.hash());
        Ok(m)
    }

    /// Plays a move of the current position; one that is not legal here changes nothing.
    pub fn play(&mut self, m: Move) -> Result<(), notation::MoveError> {
        let legal = with_position!(&self.position, p => p.legal_moves().contains(&m));
        if !legal {
            return Err(notation::MoveError::Illegal(format!(
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

impl std::fmt::Debug for AnyPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "AnyPosition({})", self.to_fen())
    }
}
