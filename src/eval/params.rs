//! The weights as the evaluation reads them: each variant's weights (its `[eval]` section,
//! `variant::weights`) picked into named fields once per variant, each with its index among
//! the variant's weights so that a trace can say which weight a term's count multiplies.
//! Centipawns; `mg`/`eg` are blended by the game phase.

use crate::variant::Variant;
use crate::variant::weights::{Weights, square_key, table_files};

/// The index of no weight: a term the variant does not have.
pub const NO_WEIGHT: u16 = u16::MAX;

/// One weight: its middlegame and endgame values (the same for a single weight) and its
/// index in the variant's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct W {
    pub mg: i32,
    pub eg: i32,
    pub id: u16,
}

impl W {
    /// Whether the weight adds nothing in either phase (its term need not be computed, but
    /// for a trace, which counts it all the same).
    #[inline(always)]
    pub fn is_zero(self) -> bool {
        self.mg == 0 && self.eg == 0
    }
}

impl Default for W {
    fn default() -> Self {
        W {
            mg: 0,
            eg: 0,
            id: NO_WEIGHT,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Params {
    pub tempo: W,
    /// Per kind (none for the King).
    pub material: Vec<W>,
    /// Per kind that leaps: percent of its derived placement table.
    pub placement: Vec<W>,
    /// Per kind, its square table (`[eval.squares]`, when the variant has one): index
    /// `kind * table_squares + rank * table_files + file`, from the piece's own side, the
    /// file mirrored into the board's left half.
    pub squares: Vec<W>,
    pub table_files: u8,
    /// Pawn placement: per rank advanced, on a centre file.
    pub pawn_advance: W,
    pub pawn_centre: W,
    /// King placement: on its first rank, per rank advanced, per square from the centre.
    pub king_home: W,
    pub king_advance: W,
    pub king_centre_distance: W,
    /// Per kind that slides: per square it attacks beyond half its empty-board reach.
    pub mobility: Vec<W>,
    /// Per kind: per square its moves reach that is neither its own side's nor attacked by an
    /// enemy pawn, beyond half its empty-board reach.
    pub safe_mobility: Vec<W>,
    /// Per kind: two of it or more (the Bishop pair).
    pub pair: Vec<W>,
    /// Per kind that slides: standing on a file with no pawn, with enemy pawns only.
    pub open_file: Vec<W>,
    pub semi_open_file: Vec<W>,
    /// Per kind of ours that can check the enemy King from a square that side does not guard.
    pub safe_check: W,
    /// Per unit of enemy attack on the King's zone (squared, then / 64); single.
    pub king_attack: W,
    /// Attack units (not centipawns) per square of the King's zone that the enemy attacks and
    /// nothing but the King defends, and per kind of enemy piece with a safe check: they join
    /// the attack before it is squared, as in Stockfish's King danger; single.
    pub king_weak_square: W,
    pub king_check: W,
    /// Per own pawn in front of the King (its file and the two next to it, two ranks ahead).
    pub pawn_shield: W,
    /// Passed pawn by how far it has come (0 = its start rank, 100 % = the last but one).
    pub passed_pawn: W,
    /// A passed pawn whose next square is taken, by how far it has come.
    pub passed_blocked: W,
    /// A passed pawn: the enemy King's distance to its next square less its own King's, by
    /// how far it has come.
    pub passed_king_distance: W,
    pub isolated_pawn: W,
    pub doubled_pawn: W,
    /// A pawn with a pawn of its side beside it (same rank, next file), by how far it has come.
    pub phalanx: W,
    /// A pawn that a pawn of its side defends.
    pub supported_pawn: W,
    /// A pawn (not isolated) that no pawn of its side on the next files can come level with
    /// to support, whose next square an enemy pawn attacks.
    pub backward_pawn: W,
    /// Per kind: standing advanced (from the last rank of its own half to three short of the
    /// far end), defended by a pawn, where no enemy pawn can ever attack it.
    pub outpost: Vec<W>,
    /// Per enemy piece attacked by a piece of ours worth less.
    pub threat_by_lesser: W,
    /// Per enemy piece but a pawn or the King that we attack and they do not defend.
    pub hanging: W,
    /// Deathmatch: a piece that can still swap in (a Bishop that can become a Magician).
    pub unswapped: W,
    /// Deathmatch: a Magician with a pawn one (or two) moves from the promotion rank.
    pub upgrade_near: W,
    pub upgrade_far: W,
    /// Magician Chess: a piece an enemy spell can drop, per mille of its declared value.
    pub droppable: W,
    /// Magician Chess: per hole in reach of one's own casters.
    pub hole_control: W,
    /// Royal Magician's Chess (single): a reserve piece is worth this share (percent) of its
    /// material, plus `reserve_closeness` percent per rank its carrier has already come.
    pub reserve_share: W,
    pub reserve_closeness: W,
}

impl Params {
    /// The parameters of a variant, from its weights.
    pub fn of(variant: &Variant) -> Params {
        let weights = &variant.weights;
        let get = |key: &str| lookup(weights, key);
        let per_kind = |section: &str| -> Vec<W> {
            variant
                .pieces
                .iter()
                .map(|p| get(&format!("{section}.{}", p.letter)))
                .collect()
        };
        let table_files = table_files(variant.files);
        let squares = if weights.has_square_tables() {
            variant
                .pieces
                .iter()
                .flat_map(|p| {
                    (0..variant.ranks).flat_map(move |rank| {
                        (0..table_files).map(move |file| (p.letter, file, rank))
                    })
                })
                .map(|(letter, file, rank)| get(&square_key(letter, file, rank)))
                .collect()
        } else {
            Vec::new()
        };
        Params {
            squares,
            table_files,
            tempo: get("tempo"),
            material: per_kind("material"),
            placement: per_kind("placement"),
            pawn_advance: get("placement.pawn_advance"),
            pawn_centre: get("placement.pawn_centre"),
            king_home: get("placement.king_home"),
            king_advance: get("placement.king_advance"),
            king_centre_distance: get("placement.king_centre_distance"),
            mobility: per_kind("mobility"),
            safe_mobility: per_kind("safe_mobility"),
            pair: per_kind("pair"),
            open_file: per_kind("open_file"),
            semi_open_file: per_kind("semi_open_file"),
            safe_check: get("king_safety.safe_check"),
            king_attack: get("king_safety.attack"),
            king_weak_square: get("king_safety.weak_square"),
            king_check: get("king_safety.check"),
            pawn_shield: get("king_safety.pawn_shield"),
            passed_pawn: get("pawns.passed"),
            passed_blocked: get("pawns.passed_blocked"),
            passed_king_distance: get("pawns.passed_king_distance"),
            isolated_pawn: get("pawns.isolated"),
            doubled_pawn: get("pawns.doubled"),
            phalanx: get("pawns.phalanx"),
            supported_pawn: get("pawns.supported"),
            backward_pawn: get("pawns.backward"),
            outpost: per_kind("outpost"),
            threat_by_lesser: get("threats.by_lesser"),
            hanging: get("threats.hanging"),
            unswapped: get("swap_in.unswapped"),
            upgrade_near: get("rank_promotion.near"),
            upgrade_far: get("rank_promotion.far"),
            droppable: get("spells.droppable"),
            hole_control: get("spells.hole_control"),
            reserve_share: get("drops.reserve_share"),
            reserve_closeness: get("drops.reserve_closeness"),
        }
    }

    /// The square-table weight of a kind on a square, given from its own side (`file` on the
    /// whole board, `rank` counted from its first); none when the variant has no tables.
    pub fn square(&self, kind: usize, file: u8, rank: u8, files: u8) -> W {
        if self.squares.is_empty() {
            return W::default();
        }
        let file = file.min(files - 1 - file);
        let per_kind = self.squares.len() / self.material.len();
        self.squares[kind * per_kind + rank as usize * self.table_files as usize + file as usize]
    }
}

/// A weight by key; a variant without it weighs nothing there.
fn lookup(weights: &Weights, key: &str) -> W {
    match weights.index(key) {
        Some(i) => W {
            mg: weights.list[i].value[0],
            eg: weights.list[i].value[1],
            id: i as u16,
        },
        None => W::default(),
    }
}
