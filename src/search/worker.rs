//! One search thread: iterative deepening over a principal-variation alpha-beta search with
//! quiescence, the transposition table, null move, late-move reductions and futility.

use std::sync::atomic::Ordering;

use super::eval_cache::EvalCache;
use super::ordering::{
    MAX_PLY, MovePicker, OrderingTables, Scores, captured_value, is_tactical, promotion_gain,
    score_moves,
};
use super::tt::{Bound, Entry};
use super::{MATE, MATE_BOUND, RootLine, Shared};
use crate::board::{Bitboard, Move, MoveKind, Position};
use crate::eval::{EvalMode, EvalTables, LAZY_MARGIN, TermSet, evaluate_fast, evaluate_with};
use crate::movegen::MoveList;
use crate::variant::Stalemate;

const INFINITY: i32 = MATE + 1;
/// Nodes between looks at the clock and the stop flag (about a millisecond).
const CHECK_EVERY: u64 = 1024;

pub struct Worker<'a, B: Bitboard> {
    pub id: usize,
    shared: &'a Shared<'a>,
    eval_tables: &'static EvalTables<B>,
    tables: OrderingTables,
    eval_cache: EvalCache,
    /// Hashes of the game so far and of the current search path.
    path: Vec<u64>,
    /// The move made at each ply of the path.
    moves_made: Vec<Move>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    pub nodes: u64,
    unflushed: u64,
    pub seldepth: usize,
    stopped: bool,
    reductions: [[i32; 64]; 64],
    /// The static evaluation at each ply of the path (`-INFINITY` in check), to tell whether
    /// the side to move is doing better than two plies ago.
    static_evals: [i32; MAX_PLY + 2],
    _marker: std::marker::PhantomData<B>,
}

impl<'a, B: Bitboard> Worker<'a, B> {
    pub fn new(id: usize, shared: &'a Shared<'a>, root: &Position<B>, game_hashes: &[u64]) -> Self {
        let mut reductions = [[0; 64]; 64];
        for (d, row) in reductions.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
            }
        }
        let mut path = game_hashes.to_vec();
        if path.last() != Some(&root.hash()) {
            path.push(root.hash());
        }
        Worker {
            id,
            shared,
            eval_tables: EvalTables::of(root.layout()),
            tables: OrderingTables::default(),
            eval_cache: EvalCache::default(),
            path,
            moves_made: Vec::new(),
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            stopped: false,
            reductions,
            static_evals: [-INFINITY; MAX_PLY + 2],
            _marker: std::marker::PhantomData,
        }
    }

    #[inline]
    fn evaluate(&mut self, pos: &Position<B>) -> i32 {
        if let Some(score) = self.eval_cache.get(pos.hash()) {
            return score;
        }
        let options = &self.shared.options;
        let score = evaluate_with(pos, self.eval_tables, options.eval_mode, options.eval_terms);
        self.eval_cache.put(pos.hash(), score);
        score
    }

    /// Starts loading what the child position will look up first.
    #[inline]
    fn prefetch(&self, hash: u64) {
        self.shared.tt.prefetch(hash);
        self.eval_cache.prefetch(hash);
    }

    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Counts a node; every so often publishes the count and looks at the stop conditions.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= CHECK_EVERY {
            self.flush_nodes();
            if self.shared.should_stop(self.id == 0) {
                self.stopped = true;
            }
        }
    }

    pub fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    fn stalemate_score(&self, pos: &Position<B>, ply: usize) -> i32 {
        match pos.layout().variant.end.stalemate {
            Stalemate::Draw => -self.shared.options.stalemate_bonus,
            Stalemate::Loss => -MATE + ply as i32,
            Stalemate::Win => MATE - ply as i32,
        }
    }

    /// A draw by repetition (a position of the path or game seen before, with the same side
    /// to move, since the last irreversible move) or by the 50-move rule.
    fn is_draw(&self, pos: &Position<B>) -> bool {
        let variant = pos.layout().variant;
        let fifty = variant.end.fifty_move_plies;
        if fifty > 0 && pos.halfmove_clock() >= fifty {
            return true;
        }
        if variant.end.repetitions == 0 {
            return false;
        }
        let n = self.path.len();
        let window = (pos.halfmove_clock() as usize).min(n.saturating_sub(1));
        let hash = pos.hash();
        (4..=window)
            .step_by(2)
            .any(|back| self.path[n - 1 - back] == hash)
    }

    /// Searches the root moves `lines` to `depth` within (alpha, beta), excluding the lines
    /// before `first`; reorders them by score. Returns the best score.
    pub fn search_root(
        &mut self,
        pos: &Position<B>,
        lines: &mut [RootLine],
        first: usize,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INFINITY;
        self.pv_len[0] = 0;
        let in_check = pos.in_check();
        for i in first..lines.len() {
            let m = lines[i].mv;
            let mut child = *pos;
            child.play(m);
            self.prefetch(child.hash());
            self.push(child.hash(), m);
            let gives_check = child.in_check();
            let extension = i32::from(gives_check);
            let new_depth = depth - 1 + extension;
            let score = if i == first {
                -self.alphabeta(&child, new_depth, -beta, -alpha, 1, true, false)
            } else {
                let reduce = if depth >= 3
                    && i - first >= 4
                    && !in_check
                    && !gives_check
                    && !is_tactical(pos, m)
                {
                    1
                } else {
                    0
                };
                let mut s = -self.alphabeta(
                    &child,
                    new_depth - reduce,
                    -alpha - 1,
                    -alpha,
                    1,
                    false,
                    true,
                );
                if s > alpha && !self.stopped {
                    s = -self.alphabeta(&child, new_depth, -beta, -alpha, 1, true, false);
                }
                s
            };
            self.pop();
            if self.stopped {
                break;
            }
            lines[i].score = if score > alpha || i == first {
                score
            } else {
                -INFINITY
            };
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                self.update_pv(0, m);
                lines[i].pv = self.pv[0][..self.pv_len[0]].to_vec();
                // Bring the new best move to the front of this block.
                lines[first..=i].rotate_right(1);
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    fn push(&mut self, hash: u64, m: Move) {
        self.path.push(hash);
        self.moves_made.push(m);
    }

    fn pop(&mut self) {
        self.path.pop();
        self.moves_made.pop();
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = m;
        let child_len = self.pv_len[ply + 1].min(MAX_PLY - 1);
        for j in 0..child_len {
            self.pv[ply][j + 1] = self.pv[ply + 1][j];
        }
        self.pv_len[ply] = child_len + 1;
    }

    #[allow(clippy::too_many_arguments)]
    fn alphabeta(
        &mut self,
        pos: &Position<B>,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.is_draw(pos) {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos);
        }
        // Mate-distance pruning: no line from here beats a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let hash = pos.hash();
        let entry = self.shared.tt.probe(hash);
        let mut hash_move = Move::NULL;
        if let Some(e) = entry {
            hash_move = e.mv;
            let score = score_from_tt(e.score, ply);
            if !pv_node && e.depth >= depth {
                let cutoff = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cutoff {
                    return score;
                }
            }
        }

        let in_check = pos.in_check();
        let static_eval = if in_check {
            -INFINITY
        } else {
            self.evaluate(pos)
        };
        self.static_evals[ply] = static_eval;
        // Better than two plies ago: the moves here deserve a closer look.
        let improving = !in_check && ply >= 2 && static_eval > self.static_evals[ply - 2];

        let pruning = self.shared.options.pruning;
        if !pv_node && !in_check {
            // Reverse futility: far above beta at low depth, a quiet move will not fall below.
            if pruning.futility
                && depth <= 6
                && static_eval - 90 * depth >= beta
                && beta.abs() < MATE_BOUND
            {
                return static_eval;
            }
            // Null move: if passing still fails high, a real move will too (not in zugzwang-
            // prone positions: only pawns and King left). The reduction grows slowly with
            // depth, so the verification still sees a short threat. A table entry that
            // already failed low here says passing will not reach beta either.
            let last_was_null = self.moves_made.last().is_some_and(|m| m.is_null());
            let table_says_low = entry
                .is_some_and(|e| e.bound == Bound::Upper && score_from_tt(e.score, ply) < beta);
            if pruning.null_move
                && depth >= 3
                && static_eval >= beta
                && !last_was_null
                && !table_says_low
                && self.has_pieces(pos)
                && beta.abs() < MATE_BOUND
            {
                let r = 2 + depth / 6;
                let mut child = *pos;
                child.play_null();
                self.push(child.hash(), Move::NULL);
                let score = -self.alphabeta(
                    &child,
                    depth - 1 - r,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                    !cut_node,
                );
                self.pop();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        let ctx = pos.legality_context_knowing_check(in_check);
        let mut moves = MoveList::new();
        pos.generate(&mut moves);
        let mut scores = Scores::new();
        let previous = self.moves_made.last().copied().unwrap_or(Move::NULL);
        score_moves(
            pos,
            &moves,
            &mut scores,
            hash_move,
            &self.tables,
            ply,
            previous,
        );

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        let mut legal = 0;
        let mut quiets_tried: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        let futile = pruning.futility
            && !pv_node
            && !in_check
            && depth <= 3
            && static_eval + 120 * depth <= alpha;

        for m in MovePicker::new(&mut moves, &mut scores) {
            if !pos.is_legal(m, &ctx) {
                continue;
            }
            legal += 1;
            let tactical = is_tactical(pos, m);
            let mut child = *pos;
            child.play(m);
            self.prefetch(child.hash());
            let gives_check = child.in_check();
            if futile && legal > 1 && !tactical && !gives_check && best_score > -MATE_BOUND {
                continue;
            }
            // Late-move pruning: at shallow depth, quiet moves this late in the order are
            // dropped; twice as many are tried while the side to move is improving.
            if pruning.move_count
                && !pv_node
                && !in_check
                && !tactical
                && !gives_check
                && depth <= 4
                && legal > (3 + depth * depth) * (1 + i32::from(improving))
                && best_score > -MATE_BOUND
            {
                continue;
            }
            self.push(child.hash(), m);
            let extension = i32::from(gives_check && ply < 2 * depth as usize + 8);
            let new_depth = depth - 1 + extension;
            let score = if legal == 1 {
                -self.alphabeta(&child, new_depth, -beta, -alpha, ply + 1, pv_node, false)
            } else {
                let mut reduction = 0;
                if pruning.reductions && depth >= 3 && !tactical && !in_check && !gives_check {
                    reduction = self.reductions[(depth as usize).min(63)][(legal as usize).min(63)];
                    if pv_node {
                        reduction -= 1;
                    }
                    if cut_node {
                        reduction += 1;
                    }
                    let h = self.tables.history(pos.side().index(), m);
                    reduction -= h / 8000;
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                let mut s = -self.alphabeta(
                    &child,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    true,
                );
                if s > alpha && reduction > 0 && !self.stopped {
                    s = -self.alphabeta(
                        &child,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                        !cut_node,
                    );
                }
                if s > alpha && s < beta && pv_node && !self.stopped {
                    s = -self.alphabeta(&child, new_depth, -beta, -alpha, ply + 1, true, false);
                }
                s
            };
            self.pop();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if !tactical {
                            self.tables.reward(
                                pos.side().index(),
                                m,
                                &quiets_tried,
                                depth,
                                ply,
                                previous,
                            );
                        }
                        break;
                    }
                }
            }
            if !tactical && quiets_tried.len() < quiets_tried.capacity() {
                quiets_tried.push(m);
            }
        }

        if legal == 0 {
            return if in_check {
                -MATE + ply as i32
            } else {
                self.stalemate_score(pos, ply)
            };
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            hash,
            Entry {
                mv: best_move,
                score: score_to_tt(best_score, ply),
                depth,
                bound,
            },
        );
        best_score
    }

    fn quiescence(&mut self, pos: &Position<B>, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.evaluate(pos);
        }
        let in_check = pos.in_check();
        let mut best = -INFINITY;
        if !in_check {
            // Far outside the window, the cheap estimate decides as well as the full one.
            let stand_pat = match self.shared.options.eval_mode {
                EvalMode::Full
                    if self.shared.options.eval_terms == TermSet::ALL
                        && self.eval_cache.get(pos.hash()).is_none() =>
                {
                    let fast = evaluate_fast(pos, self.eval_tables);
                    if fast - LAZY_MARGIN >= beta || fast + LAZY_MARGIN <= alpha {
                        fast
                    } else {
                        self.evaluate(pos)
                    }
                }
                _ => self.evaluate(pos),
            };
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let hash_move = self
            .shared
            .tt
            .probe(pos.hash())
            .map_or(Move::NULL, |e| e.mv);
        let ctx = pos.legality_context_knowing_check(in_check);
        let mut moves = MoveList::new();
        if in_check {
            pos.generate(&mut moves);
        } else {
            pos.generate_captures(&mut moves);
        }
        let mut scores = Scores::new();
        score_moves(
            pos,
            &moves,
            &mut scores,
            hash_move,
            &self.tables,
            ply,
            Move::NULL,
        );
        let mut legal = 0;
        for m in MovePicker::new(&mut moves, &mut scores) {
            if !in_check {
                // Delta pruning: even winning this piece cannot lift us to alpha.
                let gain = captured_value(pos, m) + promotion_gain(pos, m);
                if best + gain + 200 < alpha && m.kind() != MoveKind::Promotion {
                    continue;
                }
            }
            if !pos.is_legal(m, &ctx) {
                continue;
            }
            legal += 1;
            let mut child = *pos;
            child.play(m);
            self.prefetch(child.hash());
            self.push(child.hash(), m);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            self.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal == 0 {
            return -MATE + ply as i32;
        }
        best
    }

    /// The side to move has something besides pawns and King (null move is safe enough).
    fn has_pieces(&self, pos: &Position<B>) -> bool {
        let layout = pos.layout();
        let mut mine = pos.color_bb(pos.side()) & !pos.kind_bb(layout.king);
        if let Some(p) = layout.pawn {
            mine &= !pos.kind_bb(p);
        }
        mine.any()
    }
}

/// Mate scores are stored relative to the node, so they stay right wherever the entry is used.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
