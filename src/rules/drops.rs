//! Royal Magician's Chess drops (RULES.md §4.3). Each carrier (the King and the Magician)
//! has its own reserve, and drops from it as part of the move that first brings it to a
//! trigger rank of the schedule (`[drops]` in the variant file: on the 4th rank a Bishop or a
//! Knight, on the 5th the other, on the 6th the Rook). The drop is mandatory.
//!
//! State: slot `colour * 2 + carrier` (carrier = its index in `Drops::carriers`) holds the
//! set of that carrier's dropped pieces, bit `i` for `Drops::reserve[i]`. The stages fired
//! are their count: each stage drops one piece, and a carrier meets the trigger ranks in
//! order because it moves at most one rank at a time (the variant file is refused
//! otherwise). A captured carrier's slot is cleared, so that positions without it hash
//! alike whatever its reserve held: 0 means "full reserve" only for a carrier on the board.
//!
//! Generation: the pieces' own moves are generated as usual, then each carrier move that
//! fires a trigger is replaced by one `Drop` move per (allowed piece, square empty after the
//! move). Legality is the generic rule, judged after the move and its drop
//! (`movegen/legal.rs`), so a drop may block a check the move walked into or uncovered.
//!
//! FEN: the bracket after the board lists one group per carrier with pieces left: the
//! carrier's letter, then those pieces, upper case for White (`[KBNR,MBNR,kbnr,mbnr]` at the
//! start; `[KR,kbnr]` once White's King has dropped its Bishop and Knight, White's
//! Magician has dropped or lost everything and Black's has too); `[-]` when nothing is left.
//! Without the bracket every carrier on the board has its full reserve.

use arrayvec::ArrayVec;

use crate::board::MoveList;
use crate::board::{Bitboard, Color, Kind, Layout, Move, MoveKind, Piece, Position, Square};
use crate::variant::Drops;

pub fn compile<B: Bitboard>(layout: &mut Layout<B>) {
    layout.mechanics.generates = true;
    layout.mechanics.keeps_state = true;
}

/// The state slot of a carrier.
#[inline(always)]
fn slot(color: Color, carrier: usize) -> usize {
    color.index() * 2 + carrier
}

/// A White rank (from 0) as the same relative rank of `color`.
#[inline(always)]
fn relative_rank<B: Bitboard>(layout: &Layout<B>, rank: u8, color: Color) -> u8 {
    if color == Color::White {
        rank
    } else {
        layout.dims.ranks - 1 - rank
    }
}

fn carrier_index(rule: &Drops, kind: Kind) -> Option<usize> {
    rule.carriers.iter().position(|&k| k == kind.0)
}

/// A carrier of the side to move whose next trigger its move could fire.
struct Due {
    from: Square,
    /// The board rank that fires it.
    rank: u8,
    /// Bit `i`: `reserve[i]` may be dropped.
    choices: u8,
}

/// Replaces each carrier move that fires a trigger by its moves with a drop.
pub fn expand<B: Bitboard>(pos: &Position<B>, rule: &Drops, list: &mut MoveList) {
    let layout = pos.layout();
    let dims = layout.dims;
    let us = pos.side();
    let mut due: ArrayVec<Due, 2> = ArrayVec::new();
    for (carrier, &kind) in rule.carriers.iter().enumerate() {
        let on_board = pos.pieces(us, Kind(kind));
        if on_board.is_empty() {
            continue;
        }
        let from = on_board.lowest();
        let dropped = pos.state(slot(us, carrier));
        let Some(stage) = rule.stages.get(dropped.count_ones() as usize) else {
            continue;
        };
        let rank = relative_rank(layout, stage.rank, us);
        // One rank per move at most, and a sound position has every carrier short of its
        // next trigger rank (`check_sound`): only a carrier one rank away can fire it now.
        if dims.rank(from).abs_diff(rank) != 1 {
            continue;
        }
        due.push(Due {
            from,
            rank,
            choices: stage.choices & !dropped,
        });
    }
    if due.is_empty() {
        return;
    }
    let fires = |m: &Move| {
        m.kind() == MoveKind::Normal
            && due
                .iter()
                .any(|d| d.from == m.from() && dims.rank(m.to()) == d.rank)
    };
    if !list.iter().any(fires) {
        return;
    }
    // A carrier has at most a few moves onto the next rank (see the variant file's checks).
    let mut fired: ArrayVec<Move, 64> = ArrayVec::new();
    list.retain(|m| {
        if fires(m) {
            fired.push(*m);
            false
        } else {
            true
        }
    });
    let empty = layout.board_mask & !pos.blockers();
    for m in fired {
        let Some(d) = due.iter().find(|d| d.from == m.from()) else {
            continue;
        };
        // The carrier's origin is free after the move, its destination is not.
        let squares = (empty | B::from_square(m.from())) & !B::from_square(m.to());
        for (i, &kind) in rule.reserve.iter().enumerate() {
            if d.choices & 1 << i == 0 {
                continue;
            }
            let with_piece = Move::new(m.from(), m.to(), MoveKind::Drop).with_piece(Kind(kind));
            for sq in squares.squares() {
                list.push(with_piece.with_aux(sq));
            }
        }
    }
}

/// Marks a dropped piece as gone from its carrier's reserve; a captured carrier's reserve is
/// lost.
pub fn after_play<B: Bitboard>(
    pos: &mut Position<B>,
    rule: &Drops,
    m: Move,
    mover: Color,
    captured: Option<Piece>,
) {
    if m.kind() == MoveKind::Drop {
        // The carrier now stands on the move's destination.
        let carrier = pos
            .piece_at(m.to())
            .and_then(|p| carrier_index(rule, p.kind()));
        let piece = rule.reserve.iter().position(|&k| k == m.piece().0);
        if let (Some(carrier), Some(piece)) = (carrier, piece) {
            let s = slot(mover, carrier);
            pos.set_state(s, pos.state(s) | 1 << piece);
        }
    }
    if let Some(victim) = captured
        && let Some(carrier) = carrier_index(rule, victim.kind())
    {
        pos.set_state(slot(victim.color(), carrier), 0);
    }
}

/// Whether some carrier on the board still has a piece to drop.
pub fn reserve_left<B: Bitboard>(pos: &Position<B>, rule: &Drops) -> bool {
    Color::BOTH.iter().any(|&color| {
        rule.carriers.iter().enumerate().any(|(carrier, &kind)| {
            pos.pieces(color, Kind(kind)).any()
                && pos.state(slot(color, carrier)) != rule.all_dropped()
        })
    })
}

/// Whether some order of drops that the schedule allows drops exactly `target`, having
/// dropped `have` so far.
fn reachable(rule: &Drops, have: u8, target: u8) -> bool {
    if have == target {
        return true;
    }
    let Some(stage) = rule.stages.get(have.count_ones() as usize) else {
        return false;
    };
    let next = stage.choices & !have & target;
    (0..rule.reserve.len()).any(|i| next & 1 << i != 0 && reachable(rule, have | 1 << i, target))
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The schedule in words, for error messages: "4th rank: B/N, 5th rank: B/N, 6th rank: R".
fn describe_schedule<B: Bitboard>(rule: &Drops, layout: &Layout<B>) -> String {
    let stages: Vec<String> = rule
        .stages
        .iter()
        .map(|s| {
            let pieces: Vec<String> = (0..rule.reserve.len())
                .filter(|&i| s.choices & 1 << i != 0)
                .map(|i| {
                    layout
                        .piece_letter(Kind(rule.reserve[i]), Color::White)
                        .to_string()
                })
                .collect();
            format!("{} rank: {}", ordinal(s.rank as u32 + 1), pieces.join("/"))
        })
        .collect();
    format!("{}, each piece once", stages.join(", "))
}

/// Reads the FEN's bracketed reserve (the text between the brackets).
pub fn parse_reserve<B: Bitboard>(
    pos: &mut Position<B>,
    rule: &Drops,
    text: &str,
) -> Result<(), String> {
    let layout = pos.layout();
    let variant = layout.variant;
    let all = rule.all_dropped();
    let mut given = [false; 4];
    let groups = if text.is_empty() || text == "-" {
        Vec::new()
    } else {
        text.split(',').collect()
    };
    for group in groups {
        let bad = |why: String| format!("FEN reserve '[{text}]', group '{group}': {why}");
        let mut chars = group.chars();
        let Some(first) = chars.next() else {
            return Err(format!(
                "FEN reserve '[{text}]': an empty group (write groups like KBNR, separated by one comma)"
            ));
        };
        let color = if first.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let carrier = variant
            .kind_of_letter(first)
            .filter(|_| first.is_ascii_alphabetic())
            .and_then(|k| carrier_index(rule, Kind(k)));
        let Some(carrier) = carrier else {
            let carriers: String = rule
                .carriers
                .iter()
                .map(|&k| layout.piece_letter(Kind(k), Color::White))
                .collect();
            return Err(bad(format!(
                "'{first}' is not a carrier (a group starts with one of {carriers}, upper case for White)"
            )));
        };
        let kind = rule.carriers[carrier];
        let name = &variant.pieces[kind as usize].name;
        let s = slot(color, carrier);
        if given[s] {
            return Err(bad(format!(
                "a second group for the {} {name}",
                color.name()
            )));
        }
        given[s] = true;
        if pos.pieces(color, Kind(kind)).is_empty() {
            return Err(bad(format!(
                "{} has no {name} on the board, and a captured {name}'s reserve is lost",
                color.name()
            )));
        }
        let mut left = 0u8;
        for c in chars {
            let piece = variant
                .kind_of_letter(c)
                .filter(|_| c.is_ascii_alphabetic())
                .and_then(|k| rule.reserve.iter().position(|&r| r == k));
            let Some(i) = piece else {
                let reserve: String = rule
                    .reserve
                    .iter()
                    .map(|&k| layout.piece_letter(Kind(k), color))
                    .collect();
                return Err(bad(format!(
                    "'{c}' is not a piece of a {} reserve ({reserve})",
                    color.name()
                )));
            };
            if c.is_ascii_uppercase() != (color == Color::White) {
                return Err(bad(format!(
                    "'{c}' does not belong to the {} {name} (a group is all one case)",
                    color.name()
                )));
            }
            if left & 1 << i != 0 {
                return Err(bad(format!(
                    "'{c}' is given twice; a reserve holds one of each piece"
                )));
            }
            left |= 1 << i;
        }
        let dropped = all & !left;
        if !reachable(rule, 0, dropped) {
            return Err(bad(format!(
                "no order of drops leaves exactly these pieces (the schedule: {})",
                describe_schedule(rule, layout)
            )));
        }
        pos.set_state(s, dropped);
    }
    // A carrier on the board without a group has nothing left; one off the board keeps 0.
    for color in Color::BOTH {
        for (carrier, &kind) in rule.carriers.iter().enumerate() {
            let s = slot(color, carrier);
            if !given[s] && pos.pieces(color, Kind(kind)).any() {
                pos.set_state(s, all);
            }
        }
    }
    Ok(())
}

/// The text between the brackets of the FEN's reserve.
pub fn format_reserve<B: Bitboard>(pos: &Position<B>, rule: &Drops) -> String {
    let layout = pos.layout();
    let mut groups = Vec::new();
    for color in Color::BOTH {
        for (carrier, &kind) in rule.carriers.iter().enumerate() {
            let dropped = pos.state(slot(color, carrier));
            if pos.pieces(color, Kind(kind)).is_empty() || dropped == rule.all_dropped() {
                continue;
            }
            let mut group = layout.piece_letter(Kind(kind), color).to_string();
            for (i, &piece) in rule.reserve.iter().enumerate() {
                if dropped & 1 << i == 0 {
                    group.push(layout.piece_letter(Kind(piece), color));
                }
            }
            groups.push(group);
        }
    }
    if groups.is_empty() {
        "-".to_string()
    } else {
        groups.join(",")
    }
}

/// One carrier per kind and side, and no carrier beyond a trigger rank whose drop its
/// reserve has not made.
pub fn check_sound<B: Bitboard>(pos: &Position<B>, rule: &Drops) -> Result<(), String> {
    let layout = pos.layout();
    let variant = layout.variant;
    for color in Color::BOTH {
        for (carrier, &kind) in rule.carriers.iter().enumerate() {
            let name = &variant.pieces[kind as usize].name;
            let on_board = pos.pieces(color, Kind(kind));
            if on_board.several() {
                return Err(format!(
                    "FEN: {} has {} pieces '{}' ({name}); each carries its own reserve, so a side has one at most",
                    color.name(),
                    on_board.count(),
                    layout.piece_letter(Kind(kind), color)
                ));
            }
            if on_board.is_empty() {
                continue;
            }
            let at = on_board.lowest();
            let rank = relative_rank(layout, layout.dims.rank(at), color);
            let dropped = pos.state(slot(color, carrier));
            let made = dropped.count_ones() as usize;
            let passed = rule.stages.iter().filter(|s| s.rank <= rank).count();
            if made < passed {
                let left: String = (0..rule.reserve.len())
                    .filter(|&i| dropped & 1 << i == 0)
                    .map(|i| layout.piece_letter(Kind(rule.reserve[i]), color))
                    .collect();
                let ranks: Vec<String> = rule.stages[..passed]
                    .iter()
                    .map(|s| ordinal(s.rank as u32 + 1))
                    .collect();
                let plural = if passed > 1 { "s" } else { "" };
                return Err(format!(
                    "FEN: the {} {name} on {} stands on its {} rank, so it dropped on reaching its {} rank{plural}, but its reserve still holds {left}; write what it has left in the bracket after the board",
                    color.name(),
                    layout.dims.name(at),
                    ordinal(rank as u32 + 1),
                    ranks.join(" and "),
                ));
            }
        }
    }
    Ok(())
}

/// What each carrier of `color` on the board still holds, with how far it has come:
/// (relative rank of the carrier, the kinds it has yet to drop). For the evaluation.
pub fn carrier_reserves<B: Bitboard>(
    pos: &Position<B>,
    rule: &Drops,
    color: Color,
) -> Vec<(u8, Vec<Kind>)> {
    let layout = pos.layout();
    let mut out = Vec::new();
    for (carrier, &kind) in rule.carriers.iter().enumerate() {
        let dropped = pos.state(slot(color, carrier));
        for sq in pos.pieces(color, Kind(kind)).squares() {
            let left: Vec<Kind> = rule
                .reserve
                .iter()
                .enumerate()
                .filter(|&(i, _)| dropped & (1 << i) == 0)
                .map(|(_, &k)| Kind(k))
                .collect();
            out.push((relative_rank(layout, layout.dims.rank(sq), color), left));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::ordinal;

    #[test]
    fn ordinals_take_the_english_suffixes() {
        let cases = [
            (1, "1st"),
            (2, "2nd"),
            (3, "3rd"),
            (4, "4th"),
            (10, "10th"),
            (11, "11th"),
            (12, "12th"),
            (13, "13th"),
            (21, "21st"),
            (22, "22nd"),
            (23, "23rd"),
            (101, "101st"),
            (111, "111th"),
            (112, "112th"),
            (113, "113th"),
        ];
        for (n, text) in cases {
            assert_eq!(ordinal(n), text);
        }
    }
}
