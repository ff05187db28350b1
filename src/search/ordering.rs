//! Move ordering: the hash move, captures that do not lose material, killer and counter
//! moves, quiet moves by their histories, captures that lose material; and what the search
//! asks of a move besides its order (is it noisy, what does it take).

use arrayvec::ArrayVec;

use super::history::{Histories, PieceTo, victim_kind};
use super::see::see_ge;
use crate::board::{Bitboard, Move, MoveKind, Position};
use crate::movegen::{MAX_MOVES, MoveList};

pub const MAX_PLY: usize = 128;

/// Ordering scores, one per generated move (left uninitialised until filled: zeroing room
/// for the largest move list at every node would cost more than the search itself).
pub type Scores = arrayvec::ArrayVec<i32, MAX_MOVES>;

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

/// What the ordering of a node's moves knows besides the position.
pub struct OrderingContext<'a> {
    pub histories: &'a Histories,
    pub hash_move: Move,
    pub ply: usize,
    /// The move that led here (`Move::NULL` at the root or after a null move).
    pub previous: Move,
    /// The pieces and squares of the moves one and two plies back, for the continuation
    /// history.
    pub before: [Option<PieceTo>; 2],
}

/// Where a good capture's score starts: above every quiet move.
const GOOD_CAPTURE: i32 = 2_000_000;
/// Where a capture that loses material starts: below every quiet move.
const BAD_CAPTURE: i32 = -2_000_000;

/// Scores moves for ordering; the caller then picks the best remaining one each time. The
/// hash move first, then captures that do not lose material (by the static exchange, the
/// most valuable victim and the capture history), killers and the counter-move, quiet moves
/// by their histories, and last the captures that lose material.
pub fn score_moves<B: Bitboard>(
    pos: &Position<B>,
    moves: &MoveList,
    scores: &mut Scores,
    ctx: &OrderingContext,
) {
    let hist = ctx.histories;
    let side = pos.side();
    let killers = hist.killers[ctx.ply.min(MAX_PLY)];
    let counter = hist.counter(ctx.previous);
    scores.clear();
    for &m in moves.iter() {
        scores.push(if m == ctx.hash_move {
            10_000_000
        } else {
            let victim = captured_value(pos, m);
            let gain = promotion_gain(pos, m);
            if victim > 0 || gain > 0 {
                let now = PieceTo::of(pos, m);
                let history = victim_kind(pos, m).map_or(0, |k| hist.capture(now, k));
                let base = victim * 16 + gain * 8 + history / 16;
                if see_ge(pos, m, 0) {
                    GOOD_CAPTURE + base
                } else {
                    BAD_CAPTURE + base
                }
            } else if m == killers[0] {
                900_000
            } else if m == killers[1] {
                800_000
            } else if m == counter {
                700_000
            } else {
                hist.quiet_score(side, m, PieceTo::of(pos, m), ctx.before)
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
///
/// A picker made with [`MovePicker::hash_first`] hands out the hash move before any move is
/// scored: most nodes that have one cut off on it, and then scoring the others (an exchange
/// evaluation per capture, history reads per quiet move) would be wasted.
pub struct MovePicker<'a> {
    moves: &'a mut MoveList,
    scores: &'a mut Scores,
    next: usize,
    sorted: bool,
    /// The hash move waits at the front of the list, not yet handed out.
    hash_pending: bool,
}

impl<'a> MovePicker<'a> {
    /// A picker of moves already scored.
    pub fn new(moves: &'a mut MoveList, scores: &'a mut Scores) -> Self {
        debug_assert_eq!(moves.len(), scores.len());
        MovePicker {
            moves,
            scores,
            next: 0,
            sorted: false,
            hash_pending: false,
        }
    }

    /// A picker that hands out `hash_move` first if it is among `moves`, and scores the
    /// moves only when a further one is asked for ([`MovePicker::next_scoring`]).
    pub fn hash_first(moves: &'a mut MoveList, scores: &'a mut Scores, hash_move: Move) -> Self {
        scores.clear();
        let hash_at = (!hash_move.is_null())
            .then(|| moves.iter().position(|&m| m == hash_move))
            .flatten();
        if let Some(i) = hash_at {
            moves.swap(0, i);
        }
        MovePicker {
            moves,
            scores,
            next: 0,
            sorted: false,
            hash_pending: hash_at.is_some(),
        }
    }

    /// The next move, scoring the list with `score` first if it is not scored yet (the
    /// hash move, handed out already, is not handed out again).
    #[inline]
    pub fn next_scoring(&mut self, score: impl FnOnce(&MoveList, &mut Scores)) -> Option<Move> {
        if self.hash_pending {
            self.hash_pending = false;
            self.next = 1;
            return Some(self.moves[0]);
        }
        if self.scores.len() != self.moves.len() {
            score(self.moves, self.scores);
            debug_assert_eq!(self.moves.len(), self.scores.len());
        }
        self.next()
    }
}

impl Iterator for MovePicker<'_> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        debug_assert_eq!(self.moves.len(), self.scores.len(), "the moves are scored");
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
        // Score and bits as one integer (the score's sign bit flipped so that unsigned order
        // is signed order): one sort of plain integers, and no two keys alike.
        let mut keys: ArrayVec<u64, MAX_MOVES> = ArrayVec::new();
        for (&m, &s) in self.moves[from..].iter().zip(&self.scores[from..]) {
            keys.push(u64::from(s as u32 ^ SIGN) << 32 | u64::from(m.bits()));
        }
        keys.sort_unstable_by(|a, b| b.cmp(a));
        // Only the moves are written back: once sorted, the picker hands them out in order
        // and reads no score again.
        for (i, &key) in keys.iter().enumerate() {
            self.moves[from + i] = Move::from_bits(key as u32).unwrap_or(Move::NULL);
        }
    }
}

const SIGN: u32 = 1 << 31;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::see::tests::position;

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

    /// A swap-in adds what the new piece is worth over the one it replaces, never less
    /// than nothing.
    #[test]
    fn a_swap_in_gains_the_difference_in_worth() {
        let pos = crate::search::see::tests::start("deathmatch");
        let layout = pos.layout();
        let swaps: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.kind() == MoveKind::SwapIn)
            .collect();
        assert!(!swaps.is_empty());
        let mut gained = false;
        for m in swaps {
            let old = pos.piece_at(m.from()).expect("a piece swapped out").kind();
            let difference = layout.value(m.piece()) - layout.value(old);
            assert_eq!(promotion_gain(&pos, m), difference.max(0), "{m:?}");
            gained |= difference > 0;
        }
        assert!(gained, "some swap-in brings a piece worth more");
    }

    /// A hash-first picker hands out the hash move before scoring anything, then the others
    /// once each by score; with no hash move among the moves it scores at once.
    #[test]
    fn the_hash_move_comes_before_any_move_is_scored() {
        let pos = crate::search::see::tests::start("chess");
        let all = pos.legal_moves();
        let hash_move = all[all.len() / 2];
        let score_by_bits = |moves: &MoveList, scores: &mut Scores| {
            scores.clear();
            scores.extend(moves.iter().map(|m| m.bits() as i32 % 1000));
        };
        let mut moves = all.clone();
        let mut scores = Scores::new();
        let mut picker = MovePicker::hash_first(&mut moves, &mut scores, hash_move);
        let mut scored = 0;
        let first = picker.next_scoring(|_, _| scored += 1);
        assert_eq!((first, scored), (Some(hash_move), 0), "nothing scored yet");
        let mut rest = Vec::new();
        while let Some(m) = picker.next_scoring(|moves, scores| {
            scored += 1;
            score_by_bits(moves, scores);
        }) {
            rest.push(m);
        }
        assert_eq!(scored, 1, "scored once, when the second move was asked for");
        assert!(!rest.contains(&hash_move), "the hash move only once");
        assert_eq!(rest.len() + 1, all.len(), "every other move");
        let keys: Vec<i32> = rest.iter().map(|m| m.bits() as i32 % 1000).collect();
        assert!(
            keys.windows(2).all(|w| w[0] >= w[1]),
            "best first: {keys:?}"
        );

        // A hash move not among the moves (from another position) is not handed out.
        let mut moves = all.clone();
        let mut scores = Scores::new();
        let elsewhere = Move::from_bits(hash_move.bits() ^ 0x7).expect("a move");
        assert!(!all.contains(&elsewhere));
        let mut picker = MovePicker::hash_first(&mut moves, &mut scores, elsewhere);
        let mut handed = Vec::new();
        while let Some(m) = picker.next_scoring(|moves, scores| score_by_bits(moves, scores)) {
            handed.push(m);
        }
        assert_eq!(handed.len(), all.len());
        assert!(!handed.contains(&elsewhere));
    }

    /// The picker hands out every move once, best score first and, among equal scores,
    /// the higher bits first: the special moves by selection, the quiet rest by one sort.
    #[test]
    fn moves_come_best_first_with_ties_by_bits() {
        let pos = crate::search::see::tests::start("deathmatch");
        let mut moves = pos.legal_moves();
        assert!(moves.len() > 20);
        // A capture, a killer and a counter-move, then the best quiet move (selection takes
        // the first of equal scores, so it is alone), then negative, zero and positive
        // history scores, many of them tied.
        let first = [2_000_100, 900_000, 700_000, 50_000];
        let mut scores = Scores::new();
        for (i, _) in moves.iter().enumerate() {
            let quiet = (i as i32 * 7919 % 13 - 6) * 1000;
            scores.push(first.get(i).copied().unwrap_or(quiet));
        }
        let mut expected: Vec<(i32, u32)> = moves
            .iter()
            .zip(&scores)
            .map(|(m, &s)| (s, m.bits()))
            .collect();
        expected.sort_by(|a, b| b.cmp(a));
        let scored: Vec<(Move, i32)> = moves.iter().copied().zip(scores.iter().copied()).collect();
        let score_of = |m: Move| scored.iter().find(|(n, _)| *n == m).unwrap().1;
        let picked: Vec<(i32, u32)> = MovePicker::new(&mut moves, &mut scores)
            .map(|m| (score_of(m), m.bits()))
            .collect();
        assert_eq!(picked, expected);
        assert!(
            picked.iter().any(|&(s, _)| s < 0),
            "negative scores sorted too"
        );
    }
}
