//! Move ordering: the hash move, captures by most valuable victim / least valuable
//! attacker, promotions, killer moves, then quiet moves by history; and what the search
//! asks of a move besides its order (is it noisy, does it plainly lose material).

use arrayvec::ArrayVec;

use crate::board::{Bitboard, Move, MoveKind, Position};
use crate::movegen::{MAX_MOVES, MoveList};

pub const MAX_PLY: usize = 128;

/// Ordering scores, one per generated move (left uninitialised until filled: zeroing room
/// for the largest move list at every node would cost more than the search itself).
pub type Scores = arrayvec::ArrayVec<i32, MAX_MOVES>;

/// Per-thread tables that learn which quiet moves cut off.
#[derive(Clone)]
pub struct OrderingTables {
    pub killers: [[Move; 2]; MAX_PLY + 1],
    /// `[side][from][to]`
    history: Vec<i32>,
    /// The reply that refuted a move: `[from][to]` of the previous move.
    counters: Vec<Move>,
}

impl Default for OrderingTables {
    fn default() -> Self {
        OrderingTables {
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 128 * 128],
            counters: vec![Move::NULL; 128 * 128],
        }
    }
}

fn index(side: usize, m: Move) -> usize {
    (side * 128 + m.from().index()) * 128 + m.to().index()
}

impl OrderingTables {
    pub fn clear(&mut self) {
        *self = OrderingTables::default();
    }

    pub fn history(&self, side: usize, m: Move) -> i32 {
        self.history[index(side, m)]
    }

    /// Rewards the move that cut off and punishes the quiet moves tried before it.
    pub fn reward(
        &mut self,
        side: usize,
        good: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
        previous: Move,
    ) {
        let bonus = (depth * depth).min(400);
        let mut update = |m: Move, delta: i32| {
            let h = &mut self.history[index(side, m)];
            *h += delta - *h * delta.abs() / 16384;
        };
        update(good, bonus);
        for &m in tried {
            if m != good {
                update(m, -bonus);
            }
        }
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != good {
            k[1] = k[0];
            k[0] = good;
        }
        if !previous.is_null() {
            self.counters[previous.from().index() * 128 + previous.to().index()] = good;
        }
    }

    pub fn counter(&self, previous: Move) -> Move {
        if previous.is_null() {
            Move::NULL
        } else {
            self.counters[previous.from().index() * 128 + previous.to().index()]
        }
    }
}

/// The piece value of what a move captures (0 for none). A spell that drops one's own
/// piece captures nothing worth having.
pub fn captured_value<B: Bitboard>(pos: &Position<B>, m: Move) -> i32 {
    let layout = pos.layout();
    let them = !pos.side();
    match m.kind() {
        MoveKind::EnPassant | MoveKind::EnPassantTransform => {
            layout.pawn.map_or(100, |p| layout.value(p))
        }
        MoveKind::Castle | MoveKind::SwapIn | MoveKind::SpellCarry => 0,
        _ => match pos.piece_at(m.to()) {
            Some(p) if p.color() == them => layout.value(p.kind()).max(50),
            _ => 0,
        },
    }
}

/// What a move adds besides its capture: promotion or transformation gain.
pub fn promotion_gain<B: Bitboard>(pos: &Position<B>, m: Move) -> i32 {
    let layout = pos.layout();
    match m.kind() {
        MoveKind::Promotion => {
            layout.value(m.piece()) - layout.pawn.map_or(100, |p| layout.value(p))
        }
        MoveKind::Transform | MoveKind::EnPassantTransform | MoveKind::SwapIn => pos
            .piece_at(if m.kind() == MoveKind::SwapIn {
                m.from()
            } else {
                m.aux()
            })
            .map_or(0, |p| {
                (layout.value(m.piece()) - layout.value(p.kind())).max(0)
            }),
        MoveKind::Drop => layout.value(m.piece()),
        _ => 0,
    }
}

/// How much more than its victim a capturing piece must be worth before a recapture is
/// taken to lose material for certain.
const LOSING_CAPTURE_MARGIN: i32 = 50;

/// A capture that plainly loses material: the capturing piece is worth clearly more than
/// its victim and the opponent defends the square, so the piece is taken back. A cheap
/// stand-in for a static exchange evaluation, for quiescence to leave such captures out.
pub fn is_losing_capture<B: Bitboard>(pos: &Position<B>, m: Move, victim: i32) -> bool {
    if !matches!(m.kind(), MoveKind::Normal | MoveKind::Drop) {
        return false;
    }
    let Some(attacker) = pos.piece_at(m.from()) else {
        return false;
    };
    pos.layout().value(attacker.kind()) > victim + LOSING_CAPTURE_MARGIN
        && pos.is_attacked(m.to(), !pos.side())
}

/// The captures that trigger a drop from the reserve which quiescence has tried. Such a
/// capture comes once for every piece and square of the drop, dozens of moves; quiescence
/// settles the exchange, to which the drop adds nothing, so it tries one of them only.
#[derive(Default)]
pub struct DropCaptures(ArrayVec<Move, 16>);

impl DropCaptures {
    /// Whether another drop of the same capture as `m` has been tried.
    pub fn tried(&self, m: Move) -> bool {
        m.kind() == MoveKind::Drop
            && self
                .0
                .iter()
                .any(|d| d.from() == m.from() && d.to() == m.to())
    }

    /// `m` has been tried.
    pub fn note(&mut self, m: Move) {
        if m.kind() == MoveKind::Drop {
            // Full only with more such captures than a position has: the rest are tried.
            let _ = self.0.try_push(m);
        }
    }
}

/// Is it a "noisy" move (searched in quiescence, not reduced)?
pub fn is_tactical<B: Bitboard>(pos: &Position<B>, m: Move) -> bool {
    captured_value(pos, m) > 0 || matches!(m.kind(), MoveKind::Promotion | MoveKind::SpellDrop)
}

/// Scores moves for ordering; the caller then picks the best remaining one each time.
pub fn score_moves<B: Bitboard>(
    pos: &Position<B>,
    moves: &MoveList,
    scores: &mut Scores,
    hash_move: Move,
    tables: &OrderingTables,
    ply: usize,
    previous: Move,
) {
    let layout = pos.layout();
    let side = pos.side().index();
    let killers = tables.killers[ply.min(MAX_PLY)];
    let counter = tables.counter(previous);
    scores.clear();
    for &m in moves.iter() {
        scores.push(if m == hash_move {
            10_000_000
        } else {
            let victim = captured_value(pos, m);
            let gain = promotion_gain(pos, m);
            if victim > 0 || gain > 0 {
                let attacker = pos.piece_at(m.from()).map_or(0, |p| layout.value(p.kind()));
                1_000_000 + victim * 16 + gain * 8 - attacker / 8
            } else if m == killers[0] {
                900_000
            } else if m == killers[1] {
                800_000
            } else if m == counter {
                700_000
            } else {
                tables.history(side, m)
            }
        });
    }
}

/// The score of the best ordinary quiet move, ordered by history alone: every move scored
/// at least this much is a hash move, capture, promotion, killer or counter-move.
const ORDERED_QUIET_LIMIT: i32 = 700_000;

/// Hands out moves best-scored first. The few special moves come by selection (a cut-off
/// usually comes among them, and then nothing else needs ordering); when only ordinary
/// quiet moves are left, the rest is sorted once instead of scanned for each move.
pub struct MovePicker<'a> {
    moves: &'a mut MoveList,
    scores: &'a mut Scores,
    next: usize,
    sorted: bool,
}

impl<'a> MovePicker<'a> {
    pub fn new(moves: &'a mut MoveList, scores: &'a mut Scores) -> Self {
        debug_assert_eq!(moves.len(), scores.len());
        MovePicker {
            moves,
            scores,
            next: 0,
            sorted: false,
        }
    }
}

impl Iterator for MovePicker<'_> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        let start = self.next;
        if start >= self.moves.len() {
            return None;
        }
        self.next += 1;
        if !self.sorted {
            let mut best = start;
            for i in start + 1..self.moves.len() {
                if self.scores[i] > self.scores[best] {
                    best = i;
                }
            }
            self.moves.swap(start, best);
            self.scores.swap(start, best);
            if self.scores[start] < ORDERED_QUIET_LIMIT {
                self.sort_rest(start + 1);
            }
        }
        Some(self.moves[start])
    }
}

impl MovePicker<'_> {
    /// Sorts the moves from `from` on by score, best first (ties by the move's bits, so the
    /// order never depends on the sort).
    fn sort_rest(&mut self, from: usize) {
        self.sorted = true;
        let mut keyed: arrayvec::ArrayVec<u64, MAX_MOVES> = self.moves[from..]
            .iter()
            .zip(&self.scores[from..])
            .map(|(m, &s)| (((s as i64 - i32::MIN as i64) as u64) << 32) | m.bits() as u64)
            .collect();
        keyed.sort_unstable_by(|a, b| b.cmp(a));
        for (i, key) in keyed.into_iter().enumerate() {
            self.moves[from + i] = Move::from_bits(key as u32).unwrap_or(Move::NULL);
        }
        // Scores of the sorted part are no longer read.
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyPosition;
    use crate::variant::Registry;

    fn position(variant: &str, fen: &str) -> Position<u64> {
        let variant = Registry::builtin().get(variant).unwrap();
        match AnyPosition::from_fen(variant, Some(fen)).unwrap() {
            AnyPosition::Small(pos) => pos,
            _ => unreachable!("8x8 fits 64 bits"),
        }
    }

    fn losing(pos: &Position<u64>, wire: &str) -> bool {
        // The legal move between the two squares named (the search knows no notation).
        let dims = pos.layout().dims;
        let (from, to) = (&wire[..2], &wire[2..]);
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| {
                dims.parse_square(from) == Some(m.from()) && dims.parse_square(to) == Some(m.to())
            })
            .unwrap();
        is_losing_capture(pos, m, captured_value(pos, m))
    }

    #[test]
    fn a_capture_loses_when_a_bigger_piece_takes_a_defended_smaller_one() {
        // The Queen can take the pawn on d5, which e6 defends; the pawn on c3 can take the
        // Queen on b4.
        let pos = position("chess", "4k3/8/4p3/3p4/1q6/2P5/8/3QK3 w - - 0 1");
        assert!(losing(&pos, "d1d5"), "Queen takes a defended pawn");
        assert!(!losing(&pos, "c3b4"), "pawn takes the Queen");
        let pos = position("chess", "4k3/8/8/p7/8/8/8/Q3K3 w - - 0 1");
        assert!(!losing(&pos, "a1a5"), "Queen takes an undefended pawn");
    }

    #[test]
    fn quiescence_tries_one_drop_of_each_capture() {
        // The Magician on d3 can take on c4 or on e4, reaching its 4th rank: each capture
        // comes with a Bishop or Knight drop on any empty square.
        let pos = position("royal-magician", "4k3/8/8/8/2p1p3/3M4/8/4K3 w - - 0 1");
        let mut captures = MoveList::new();
        pos.generate_captures(&mut captures);
        let onto = |m: &Move, to: &str| pos.layout().dims.parse_square(to) == Some(m.to());
        let e4: Vec<Move> = captures.iter().copied().filter(|m| onto(m, "e4")).collect();
        let c4: Vec<Move> = captures.iter().copied().filter(|m| onto(m, "c4")).collect();
        assert!(e4.len() > 20 && e4.iter().all(|m| m.kind() == MoveKind::Drop));
        assert!(c4.len() > 20);

        let mut tried = DropCaptures::default();
        assert!(!tried.tried(e4[0]));
        tried.note(e4[0]);
        assert!(
            e4[1..].iter().all(|&m| tried.tried(m)),
            "the other drops of the capture"
        );
        assert!(c4.iter().all(|&m| !tried.tried(m)), "another capture");
    }
}
