//! A position of any variant, whatever the width of its bitboards: the type the protocols,
//! the command line and the referee hold. Below it everything is generic over the bitboard;
//! `with_position!` runs the same code on either width. The compiled layouts of the variants
//! are kept here, one per variant and width: the board's part of a layout and the rules'
//! mechanics on top of it, which is why this lives above both.

use std::sync::Mutex;

use crate::board::{Bitboard, Layout, Move, Position};
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

/// A variant compiled for one width: the board's tables, then the rules' mechanics.
fn compile<B: Bitboard>(variant: &'static Variant) -> Layout<B> {
    let mut layout = Layout::new(variant);
    crate::rules::compile(&mut layout);
    layout
}

/// The compiled layouts, one per variant definition and width, built on first use and kept
/// for the whole run. Accepted variants are kept one per distinct definition
/// (`variant::kept`), so there are as many layouts as definitions, whatever the loads.
fn layout_for<B: Bitboard>(
    variant: &'static Variant,
    cache: &Mutex<Vec<(usize, &'static Layout<B>)>>,
) -> &'static Layout<B> {
    let key = variant as *const Variant as usize;
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, layout)) = cache.iter().find(|(k, _)| *k == key) {
        return layout;
    }
    let layout: &'static Layout<B> = Box::leak(Box::new(compile(variant)));
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
    pub fn in_check(&self) -> bool {
        with_position!(self, p => p.in_check())
    }
    /// The legal moves.
    pub fn legal_moves(&self) -> Vec<Move> {
        with_position!(self, p => p.legal_moves().to_vec())
    }
    /// The position after a move (the caller knows it is legal here).
    pub fn after(&self, m: Move) -> AnyPosition {
        let mut next = *self;
        with_position!(&mut next, p => p.play(m));
        next
    }
    /// The leaf nodes of the legal move tree `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        with_position!(self, p => crate::movegen::perft::perft(p, depth))
    }
}

/// Checks a variant before it is accepted: its layout compiles and its start position reads.
/// Nothing is kept: a variant kept before was checked then, and any other is compiled on a
/// scratch copy that is freed when the check is done (`check` loads nothing, and a refused
/// definition must not cost memory for the rest of the run).
pub fn check_variant(variant: &Variant) -> Result<(), String> {
    if crate::variant::kept::find(variant).is_some() {
        return Ok(());
    }
    let checked = if variant.squares() <= 64 {
        check_on_scratch::<u64>(variant)
    } else {
        check_on_scratch::<u128>(variant)
    };
    checked.map_err(|e| format!("key 'start': {e}"))
}

/// Compiles a copy of `variant` and reads its start position, then frees both.
fn check_on_scratch<B: Bitboard>(variant: &Variant) -> Result<(), String> {
    let variant: *mut Variant = Box::into_raw(Box::new(variant.clone()));
    // SAFETY: `compile` and `Position::from_fen` keep their `'static` references only
    // in the values they return (no cache: `layout_for` and `EvalTables::of` are not on this
    // path), and both values are dropped inside this block, before the copies are freed. A
    // panic in between leaks the copies, which is safe.
    unsafe {
        let layout: *mut Layout<B> = Box::into_raw(Box::new(compile(&*variant)));
        let read = Position::from_fen(&*layout, &(*variant).start_fen).map(|_| ());
        drop(Box::from_raw(layout));
        drop(Box::from_raw(variant));
        read
    }
}

impl std::fmt::Debug for AnyPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "AnyPosition({})", self.to_fen())
    }
}
