//! Move ordering: the hash move, captures by most valuable victim / least valuable
//! attacker, promotions, killer moves, then quiet moves by history.

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
