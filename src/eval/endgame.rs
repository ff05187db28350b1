//! Endgame knowledge the linear terms cannot express, read from the variant's own pieces and
//! rules: how much of the endgame score the side ahead can turn into a win (a scale factor
//! out of [`SCALE_NORMAL`]), and a passed pawn that a lone King cannot catch.

use crate::board::{Bitboard, Color, Kind, Position};

/// The scale factor that leaves the endgame score as it is.
pub const SCALE_NORMAL: i32 = 64;
/// No pawns and at most a minor piece ahead: little to win with, as Stockfish's rule says.
const SCALE_NO_PAWNS_MINOR_UP: i32 = 14;
/// As above, against no more than a minor piece.
const SCALE_NO_PAWNS_MINOR_UP_AGAINST_MINOR: i32 = 4;
/// Opposite-coloured colour-bound pieces and pawns only: most such endings are drawn.
const SCALE_OPPOSITE_BISHOPS: i32 = 16;
/// Opposite-coloured colour-bound pieces with other pieces besides, equal on both sides.
const SCALE_OPPOSITE_BISHOPS_WITH_PIECES: i32 = 44;

/// A minor piece's worth and a Rook's, in pawns of the variant (values from its definition).
const MINOR_IN_PAWNS: i32 = 4;
const ROOK_IN_PAWNS: i32 = 5;

/// How much of its score the side ahead keeps, out of [`SCALE_NORMAL`]: of the endgame score
/// `eg_white` (White's view) only, or of the whole score when `whole` (no pawns left to it:
/// the middlegame part would otherwise keep a win it cannot have).
pub struct Scale {
    pub factor: i32,
    pub whole: bool,
}

/// The scale of the evaluation whose endgame part is `eg_white`.
pub fn scale<B: Bitboard>(pos: &Position<B>, eg_white: i32) -> Scale {
    let (factor, whole) = scale_and_reach(pos, eg_white);
    Scale { factor, whole }
}

fn scale_and_reach<B: Bitboard>(pos: &Position<B>, eg_white: i32) -> (i32, bool) {
    let layout = pos.layout();
    if eg_white == 0 || pos.holes().any() {
        return (SCALE_NORMAL, false);
    }
    let strong = if eg_white > 0 {
        Color::White
    } else {
        Color::Black
    };
    let pawn_value = layout.pawn.map_or(100, |p| layout.value(p)).max(1);
    let (ours, theirs) = (side_of(pos, strong), side_of(pos, !strong));
    if ours.pawns == 0 && !crate::rules::material_may_change(pos, strong) {
        let minor = MINOR_IN_PAWNS * pawn_value;
        // Only pieces the variant lists as unable to mate alone, two at most, against a bare
        // King (two Knights cannot force mate).
        if theirs.pieces == 0 && ours.pieces <= 2 && only_weak_mates(pos, strong) {
            return (0, true);
        }
        if ours.material - theirs.material <= minor {
            let factor = if ours.material < ROOK_IN_PAWNS * pawn_value {
                0
            } else if theirs.material <= minor {
                SCALE_NO_PAWNS_MINOR_UP_AGAINST_MINOR
            } else {
                SCALE_NO_PAWNS_MINOR_UP
            };
            return (factor, true);
        }
    }
    if let (Some(a), Some(b)) = (ours.bound, theirs.bound)
        && a.kind == b.kind
        && a.light != b.light
        && !crate::rules::material_may_change(pos, strong)
        && !crate::rules::material_may_change(pos, !strong)
    {
        if ours.pieces == 1 && theirs.pieces == 1 {
            return (SCALE_OPPOSITE_BISHOPS, false);
        }
        if ours.material == theirs.material {
            return (SCALE_OPPOSITE_BISHOPS_WITH_PIECES, false);
        }
    }
    (SCALE_NORMAL, false)
}

/// One colour-bound piece of a side: its kind and its squares' colour.
#[derive(Clone, Copy)]
struct Bound {
    kind: Kind,
    light: bool,
}

/// What the scale asks of one side's material.
struct Side {
    pawns: u32,
    /// Pieces besides King and pawns.
    pieces: u32,
    /// Their value, in the variant's units.
    material: i32,
    /// Its only colour-bound piece, when it has exactly one.
    bound: Option<Bound>,
}

fn side_of<B: Bitboard>(pos: &Position<B>, color: Color) -> Side {
    let layout = pos.layout();
    let mut side = Side {
        pawns: 0,
        pieces: 0,
        material: 0,
        bound: None,
    };
    let mut bound_count = 0;
    for k in 0..layout.kinds {
        let kind = Kind(k as u8);
        if kind == layout.king {
            continue;
        }
        let bb = pos.pieces(color, kind);
        let n = bb.count();
        if n == 0 {
            continue;
        }
        if Some(kind) == layout.pawn {
            side.pawns += n;
            continue;
        }
        side.pieces += n;
        side.material += n as i32 * layout.value(kind);
        if layout.colour_bound[k] {
            bound_count += n;
            side.bound = Some(Bound {
                kind,
                light: (bb & layout.light_squares).any(),
            });
        }
    }
    if bound_count != 1 {
        side.bound = None;
    }
    side
}

/// Every piece of `color` besides its King is of a kind the variant lists as unable to mate
/// with the King alone (asked only of a side with two pieces or fewer).
fn only_weak_mates<B: Bitboard>(pos: &Position<B>, color: Color) -> bool {
    let layout = pos.layout();
    let variant = layout.variant;
    let king = variant.pieces[layout.king.index()].letter;
    (pos.color_bb(color) & !pos.kind_bb(layout.king))
        .squares()
        .all(|sq| {
            let letter = variant.pieces[pos.piece_at(sq).unwrap().kind().index()].letter;
            variant.end.insufficient_material.iter().any(|l| {
                let mut chars = l.chars();
                match (chars.next(), chars.next(), chars.next()) {
                    (Some(a), Some(b), None) => {
                        (a, b) == (king, letter) || (b, a) == (king, letter)
                    }
                    _ => false,
                }
            })
        })
}

/// A bonus (White's view, endgame) for a passed pawn that the lone enemy King cannot catch:
/// the value of what it promotes to, less the pawn's, so that the search sees the win before
/// the promotion is within its horizon. Only against a King with nothing else on its side
/// and no way to gain material, and only for a pawn whose way is clear.
pub fn unstoppable_pawns<B: Bitboard>(pos: &Position<B>) -> i32 {
    let layout = pos.layout();
    let Some(pawn) = layout.pawn else {
        return 0;
    };
    if pos.holes().any() {
        return 0;
    }
    let mut bonus = 0;
    for color in Color::BOTH {
        let them = !color;
        let pawns = pos.pieces(color, pawn);
        if pawns.is_empty()
            || pos.color_bb(them) != pos.pieces(them, layout.king)
            || crate::rules::material_may_change(pos, them)
        {
            continue;
        }
        let best = promotion_gain(pos, pawn);
        if best <= 0 {
            continue;
        }
        let king = pos.king(them);
        let dims = layout.dims;
        for from in pawns.squares() {
            let Some((promotion, squares)) = path_to_promotion(pos, color, from) else {
                continue;
            };
            // The first move may cover several squares.
            let c = color.index();
            let mut first = layout.first_steps[c][from.index()];
            if pos.unmoved().has(from) {
                first = first.max(layout.unmoved_steps[c][from.index()]);
            }
            let first = i32::from(first.max(1));
            let moves = 1 + (squares - first).max(0);
            let king_moves = i32::from(
                dims.file(king)
                    .abs_diff(dims.file(promotion))
                    .max(dims.rank(king).abs_diff(dims.rank(promotion))),
            );
            let tempo = i32::from(pos.side() == them);
            // The rule of the square: the King catches the pawn when it can step into the
            // square whose side is the pawn's way to go (its move first if it is its turn).
            if king_moves - tempo > moves {
                // Only one side can face a lone King with pawns.
                bonus = if color == Color::White { best } else { -best };
                break;
            }
        }
    }
    bonus
}

/// The most a pawn gains by promoting, in the variant's units.
fn promotion_gain<B: Bitboard>(pos: &Position<B>, pawn: Kind) -> i32 {
    let layout = pos.layout();
    layout
        .variant
        .pawns
        .promotion_pieces
        .iter()
        .map(|&p| layout.value(Kind(p)))
        .max()
        .unwrap_or(0)
        - layout.value(pawn)
}

/// The square where the pawn on `from` promotes going straight ahead, and how many squares
/// away it is, when every square on the way is empty.
fn path_to_promotion<B: Bitboard>(
    pos: &Position<B>,
    color: Color,
    from: crate::board::Square,
) -> Option<(crate::board::Square, i32)> {
    let layout = pos.layout();
    let c = color.index();
    let forward = layout.forward[c];
    let mut s = from.index() as i32;
    let mut squares = 0;
    loop {
        s += forward;
        if s < 0 || s as usize >= layout.squares {
            return None;
        }
        let sq = crate::board::Square::new(s as u8);
        if !layout.board_mask.has(sq) || pos.occupied().has(sq) {
            return None;
        }
        squares += 1;
        if layout.promotion_zone[c].has(sq) {
            return Some((sq, squares));
        }
    }
}
