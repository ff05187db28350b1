//! Variants as data: the definition read from a TOML file (or translated from a
//! Fairy-Stockfish variants.ini section, `fsf/`), validated, independent of the bitboard
//! width. `board::Layout` compiles a `Variant` into tables.

pub mod betza;
pub mod builtin;
pub mod definitions;
mod file;
pub mod fsf;
pub mod kept;
pub mod limits;
pub mod registry;
pub mod weights;

pub use file::{line_of_key, parse_variant, read_toml};
pub use registry::Registry;

use betza::Atom;

/// A coordinate on the board: (file, rank), both from 0, from White's side.
pub type Coord = (u8, u8);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Role {
    /// Moves as its Betza says and nothing more.
    Ordinary,
    /// Moves as its Betza says, plus the variant's first-move steps, en passant and promotion.
    Pawn,
    /// Royal: must not be left attacked; castles.
    King,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDef {
    /// Upper case; White's letter in FEN. Black's is the lower case.
    pub letter: char,
    pub name: String,
    pub betza: String,
    pub atoms: Vec<Atom>,
    /// In centipawns.
    pub value: i32,
    pub role: Role,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EnPassant {
    None,
    /// The squares a pawn's multi-square move passed over can be taken on (orthodox).
    PassedSquares,
    /// Magi: after a pawn's first move, every square of its file from its owner's 3rd rank up
    /// to the square behind it can be taken on, its origin included.
    FromThirdRank,
}

/// First moves longer than one step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiStep {
    /// White's squares; Black's are mirrored.
    pub squares: Vec<Coord>,
    /// The longest step, counting the ordinary one.
    pub steps: u8,
    /// Only a pawn that has never moved has the longer step (tracked per square); otherwise
    /// any pawn standing on those squares has it.
    pub unmoved_only: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnRules {
    pub multi_step: Vec<MultiStep>,
    pub en_passant: EnPassant,
    /// White's promotion ranks; Black's are mirrored.
    pub promotion_ranks: Vec<u8>,
    /// Indices into `Variant::pieces`.
    pub promotion_pieces: Vec<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastleSide {
    pub king_to: u8,
    pub rook_from: u8,
    pub rook_to: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Castling {
    pub king_file: u8,
    /// The right written `K`/`k` in FEN.
    pub king_side: Option<CastleSide>,
    /// The right written `Q`/`q` in FEN.
    pub queen_side: Option<CastleSide>,
    /// How SAN writes each castling, if not `O-O` / `O-O-O`.
    pub king_side_san: Option<String>,
    pub queen_side_san: Option<String>,
}

/// What a stalemate means for the side that cannot move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stalemate {
    Draw,
    Loss,
    Win,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndRules {
    pub stalemate: Stalemate,
    /// Plies without capture or pawn move that draw; 0 for never.
    pub fifty_move_plies: u16,
    /// How many times a position must occur to draw; 0 for never.
    pub repetitions: u8,
    /// Material (letters, King included) that cannot mate a bare King.
    pub insufficient_material: Vec<String>,
}

/// Deathmatch swap-in: as a whole move, a friendly piece of kind `from` becomes `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwapIn {
    pub from: u8,
    pub to: u8,
    /// Swaps each side may make in a game; 0 for no limit.
    pub per_game: u8,
}

/// What a triggered promotion turns the piece into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RankPromotionChoice {
    /// The player picks one of these kinds.
    Choice(Vec<u8>),
    /// Dictated by the opponent's strongest piece: (opponent's kind, resulting kind), from
    /// the strongest down. No listed kind on the board: no promotion.
    Dictated(Vec<(u8, u8)>),
}

/// Deathmatch: a pawn move onto `rank` turns one friendly `piece` into another kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankPromotion {
    /// White's rank, from 0; mirrored for Black.
    pub rank: u8,
    pub piece: u8,
    pub choice: RankPromotionChoice,
    /// Legacy: pawns promote on the last rank to one of these kinds only while the mover has
    /// none of them on the board, and then only to `piece` or the dictated kind.
    pub family: Vec<u8>,
}

/// Deathmatch Home-File Transference: `pieces` on the border files within their owner's
/// first `ranks` ranks also leap to the same rank of the other border file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transference {
    pub pieces: Vec<u8>,
    pub ranks: u8,
}

/// Magician Chess: holes, and spells cast by `casters`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spells {
    pub casters: Vec<u8>,
}

/// Royal Magician's Chess: carriers that drop pieces when they first reach given ranks.
///
/// Every carrier has its own reserve holding one piece of each kind in `reserve`. Stage `n`
/// fires when the carrier's move first ends on `stages[n].rank` (all earlier stages have
/// fired: a carrier moves at most one rank at a time), and the same move drops one piece
/// that the stage allows and that has not been dropped yet. So the stages fired are the
/// count of pieces dropped, and a carrier's whole state is the set of its dropped pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drops {
    /// Kinds that carry a reserve, at most two (one state slot per carrier and colour).
    pub carriers: Vec<u8>,
    /// The kinds in one carrier's reserve, one piece each, at most four: bit `i` of a
    /// carrier's state says that `reserve[i]` has been dropped.
    pub reserve: Vec<u8>,
    /// The triggers, in the order they fire (ranks rising).
    pub stages: Vec<DropStage>,
}

/// One trigger of a drop schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DropStage {
    /// White's rank, from 0; mirrored for Black.
    pub rank: u8,
    /// Bit `i`: `reserve[i]` may be dropped here, if it has not been dropped before.
    pub choices: u8,
}

impl Drops {
    /// The state of a carrier that dropped everything.
    pub fn all_dropped(&self) -> u8 {
        (1u8 << self.reserve.len()) - 1
    }
}

/// The built-in mechanics a variant switches on. Each one lives in `src/rules/`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Mechanics {
    pub swap_in: Option<SwapIn>,
    pub rank_promotion: Option<RankPromotion>,
    pub transference: Option<Transference>,
    pub spells: Option<Spells>,
    pub drops: Option<Drops>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The identifier used by `UCI_Variant`, XBoard and the command line.
    pub name: String,
    pub title: String,
    /// Where the definition came from (a built-in file or a path).
    pub source: String,
    pub files: u8,
    pub ranks: u8,
    pub start_fen: String,
    /// A short description for `magus rules`.
    pub summary: String,
    pub pieces: Vec<PieceDef>,
    pub pawns: PawnRules,
    pub castling: Option<Castling>,
    pub end: EndRules,
    pub mechanics: Mechanics,
    /// With no moves-to-go from the GUI, the clock's time left is shared out over this many
    /// moves (`[time] moves_to_go`; the search's default when the file is silent). A variant
    /// whose games run longer keeps more time for later.
    pub moves_to_go: Option<u32>,
    /// The evaluation's weights: the defaults for the variant, with the file's `[eval]`
    /// section over them.
    pub weights: weights::Weights,
}

impl Variant {
    pub fn squares(&self) -> usize {
        self.files as usize * self.ranks as usize
    }
    pub fn kind_of_letter(&self, letter: char) -> Option<u8> {
        let upper = letter.to_ascii_uppercase();
        self.pieces
            .iter()
            .position(|p| p.letter == upper)
            .map(|i| i as u8)
    }
    pub fn king(&self) -> u8 {
        self.pieces
            .iter()
            .position(|p| p.role == Role::King)
            .unwrap() as u8
    }
    pub fn pawn(&self) -> Option<u8> {
        self.pieces
            .iter()
            .position(|p| p.role == Role::Pawn)
            .map(|i| i as u8)
    }
}
