//! One search thread: iterative deepening over a principal-variation alpha-beta search with
//! quiescence, the transposition table, null move, late-move reductions and futility.
//!
//! `alphabeta` serves every node, the root included; its node kind (`node.rs`) is a type,
//! so the root's move list, the PV's open window and the null-window nodes' pruning are
//! decided at compile time. What the search keeps per ply lives in one `Frame`.

use std::sync::atomic::Ordering;

use super::aspiration::{self, Aspiration};
use super::node::{NodeType, NonPv, Pv, Root};
use super::ordering::{
    DropCaptures, MAX_PLY, MovePicker, Scores, captured_value, is_losing_capture, is_tactical,
    promotion_gain, score_moves,
};
use super::params::*;
use super::thread::ThreadData;
use super::tt::{Bound, Entry};
use super::{MATE, MATE_BOUND, Report, RootLine, Score, SearchResult, Shared};
use crate::board::{Bitboard, Move, MoveKind, Position};
use crate::eval::{EvalMode, EvalTables, LAZY_MARGIN, TermSet, evaluate_fast, evaluate_with};
use crate::movegen::MoveList;
use crate::variant::Stalemate;

pub const INFINITY: i32 = MATE + 1;

/// What the search keeps for one ply of the current line.
#[derive(Clone)]
struct Frame {
    /// The static evaluation (`-INFINITY` in check), to tell whether the side to move is
    /// doing better than two plies ago.
    static_eval: i32,
    /// The move being searched from this ply (`Move::NULL` for a null move).
    current_move: Move,
    /// The best line found from this ply.
    pv: [Move; MAX_PLY + 1],
    pv_len: usize,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            static_eval: -INFINITY,
            current_move: Move::NULL,
            pv: [Move::NULL; MAX_PLY + 1],
            pv_len: 0,
        }
    }
}

/// How a thread takes part in iterative deepening.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Decides, reports and keeps the clock.
    Main,
    /// Searches the same root to fill the shared table, at staggered depths.
    Helper,
}

pub struct Worker<'a, B: Bitboard> {
    pub id: usize,
    shared: &'a Shared<'a>,
    eval_tables: &'static EvalTables<B>,
    data: &'a mut ThreadData,
    /// Hashes of the game so far and of the current search path.
    path: Vec<u64>,
    /// One frame per ply, and two beyond the deepest for the children's look-ups.
    stack: Vec<Frame>,
    pub nodes: u64,
    unflushed: u64,
    pub seldepth: usize,
    stopped: bool,
    reductions: [[i32; 64]; 64],
}

impl<'a, B: Bitboard> Worker<'a, B> {
    pub fn new(
        id: usize,
        shared: &'a Shared<'a>,
        data: &'a mut ThreadData,
        root: &Position<B>,
        game_hashes: &[u64],
    ) -> Self {
        let mut reductions = [[0; 64]; 64];
        for (d, row) in reductions.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as i32;
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
            data,
            path,
            stack: vec![Frame::default(); MAX_PLY + 3],
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            stopped: false,
            reductions,
        }
    }

    #[inline]
    fn evaluate(&mut self, pos: &Position<B>) -> i32 {
        if let Some(score) = self.data.eval_cache.get(pos.hash()) {
            return score;
        }
        let options = &self.shared.options;
        let score = evaluate_with(pos, self.eval_tables, options.eval_mode, options.eval_terms);
        self.data.eval_cache.put(pos.hash(), score);
        score
    }

    /// Starts loading what the child position will look up first.
    #[inline]
    fn prefetch(&self, hash: u64) {
        self.shared.tt.prefetch(hash);
        self.data.eval_cache.prefetch(hash);
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

    /// The score of a node the 50-move rule ends, if it does: a draw, unless the move that
    /// reached the limit mated or stalemated, which ends the game first (as in `game::outcome`).
    fn fifty_move_score(&self, pos: &Position<B>, ply: usize) -> Option<i32> {
        let fifty = pos.layout().variant.end.fifty_move_plies;
        if fifty == 0 || pos.halfmove_clock() < fifty {
            return None;
        }
        Some(if pos.has_legal_move() {
            0
        } else if pos.in_check() {
            -MATE + ply as i32
        } else {
            self.stalemate_score(pos, ply)
        })
    }

    /// A draw by repetition: a position of the path or game seen before, with the same side
    /// to move, since the last irreversible move.
    fn is_repetition(&self, pos: &Position<B>) -> bool {
        let variant = pos.layout().variant;
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

    /// Iterative deepening over the root moves `legal`. The main thread reports each line and
    /// decides when to stop; a helper searches the same iterations, some depths skipped so
    /// that the threads spread over neighbouring depths, until the main thread stops it.
    pub fn iterate(
        &mut self,
        root: &Position<B>,
        legal: &[Move],
        role: Role,
        report: &(dyn Fn(&Report) + Sync),
    ) -> SearchResult {
        let shared = self.shared;
        let mut lines: Vec<RootLine> = legal
            .iter()
            .map(|&mv| RootLine {
                mv,
                score: 0,
                pv: vec![mv],
            })
            .collect();
        let multipv = match role {
            Role::Main => shared.options.multipv.clamp(1, lines.len()),
            Role::Helper => 1,
        };
        let max_depth = shared
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let mut best = SearchResult {
            best: lines[0].mv,
            ponder: None,
            score: Score::Centipawns(0),
            depth: 0,
            nodes: 0,
        };
        let mut previous_scores = vec![0; multipv];
        let mut depth = 1;
        while depth <= max_depth {
            if role == Role::Helper && skips_depth(self.id, depth) {
                depth += 1;
                continue;
            }
            for pv_index in 0..multipv {
                let mut window = Aspiration::new(depth, previous_scores[pv_index]);
                let score = loop {
                    self.seldepth = 0;
                    let score = self.search_root(root, &mut lines, pv_index, depth, window);
                    if self.stopped {
                        break score;
                    }
                    let bound = match window.judge(score) {
                        aspiration::Outcome::Exact => break score,
                        aspiration::Outcome::FailedHigh => true,
                        aspiration::Outcome::FailedLow => false,
                    };
                    if role == Role::Main {
                        self.report_line(
                            &lines[pv_index],
                            pv_index,
                            depth,
                            score,
                            Some(bound),
                            report,
                        );
                    }
                };
                if self.stopped {
                    break;
                }
                previous_scores[pv_index] = score;
                if role == Role::Main {
                    self.report_line(&lines[pv_index], pv_index, depth, score, None, report);
                }
            }
            if self.stopped {
                break;
            }
            let top = &lines[0];
            best = SearchResult {
                best: top.mv,
                ponder: top.pv.get(1).copied(),
                score: Score::from_internal(previous_scores[0]),
                depth,
                nodes: 0,
            };
            if role == Role::Main && self.iterations_done(&best) {
                break;
            }
            depth += 1;
        }
        best
    }

    /// The main thread's verdict after an iteration: the mate asked for is found, or the
    /// clock says no new iteration would end in time.
    fn iterations_done(&self, best: &SearchResult) -> bool {
        let shared = self.shared;
        if let Some(n) = shared.limits.mate_in
            && let Score::Mate(m) = best.score
            && m > 0
            && m <= n
        {
            return true;
        }
        // On a clock, an iteration begun late would not end in time; a fixed time per move
        // is used to its end.
        let iteration_limit = if shared.limits.movetime.is_some() {
            shared.budget.hard
        } else {
            shared.budget.soft / 10 * ITERATION_START_TENTHS
        };
        !shared.control.pondering.load(Ordering::Relaxed)
            && !shared.limits.infinite
            && shared.elapsed() >= iteration_limit
    }

    #[allow(clippy::too_many_arguments)]
    fn report_line(
        &mut self,
        line: &RootLine,
        pv_index: usize,
        depth: i32,
        score: i32,
        bound: Option<bool>,
        report: &(dyn Fn(&Report) + Sync),
    ) {
        self.flush_nodes();
        let shared = self.shared;
        report(&Report {
            depth,
            seldepth: self.seldepth.max(depth as usize),
            multipv: pv_index + 1,
            score: Score::from_internal(score),
            bound,
            nodes: shared.nodes.load(Ordering::Relaxed),
            time: shared.elapsed(),
            hashfull: shared.tt.hashfull(),
            pv: line.pv.clone(),
        });
    }

    /// Searches the root moves from `lines[first]` on to `depth` within the window; the lines
    /// before `first` are the better MultiPV lines already found. Reorders the lines searched
    /// by score and returns the best score.
    fn search_root(
        &mut self,
        pos: &Position<B>,
        lines: &mut [RootLine],
        first: usize,
        depth: i32,
        window: Aspiration,
    ) -> i32 {
        let mut alpha = window.alpha;
        let mut best = -INFINITY;
        self.stack[0].pv_len = 0;
        let in_check = pos.in_check();
        for i in first..lines.len() {
            let m = lines[i].mv;
            let mut child = *pos;
            child.play(m);
            let score = self.search_move::<Root>(
                pos,
                &child,
                m,
                i - first + 1,
                depth,
                alpha,
                window.beta,
                0,
                in_check,
                false,
            );
            if self.stopped {
                break;
            }
            lines[i].score = if score > alpha || i == first {
                score
            } else {
                -INFINITY
            };
            best = best.max(score);
            if score > alpha {
                alpha = score;
                self.update_pv(0, m);
                lines[i].pv = self.stack[0].pv[..self.stack[0].pv_len].to_vec();
                // Bring the new best move to the front of this block.
                lines[first..=i].rotate_right(1);
                if score >= window.beta {
                    break;
                }
            }
        }
        best
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (upper, lower) = self.stack.split_at_mut(ply + 1);
        let frame = &mut upper[ply];
        let child = &lower[0];
        let child_len = child.pv_len.min(MAX_PLY - 1);
        frame.pv[0] = m;
        frame.pv[1..=child_len].copy_from_slice(&child.pv[..child_len]);
        frame.pv_len = child_len + 1;
    }

    fn alphabeta<N: NodeType>(
        &mut self,
        pos: &Position<B>,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        self.stack[ply].pv_len = 0;
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(score) = self.fifty_move_score(pos, ply) {
            return score;
        }
        if self.is_repetition(pos) {
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
            if !N::PV && e.depth >= depth {
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
        self.stack[ply].static_eval = static_eval;
        // Better than two plies ago: the moves here deserve a closer look.
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        let previous = if ply >= 1 {
            self.stack[ply - 1].current_move
        } else {
            Move::NULL
        };

        let pruning = self.shared.options.pruning;
        if !N::PV && !in_check {
            // Reverse futility: far above beta at low depth, a quiet move will not fall below.
            if pruning.futility
                && depth <= RFP_MAX_DEPTH
                && static_eval - RFP_MARGIN * depth >= beta
                && beta.abs() < MATE_BOUND
            {
                return static_eval;
            }
            // Null move: if passing still fails high, a real move will too (not in zugzwang-
            // prone positions: only pawns and King left). The reduction grows slowly with
            // depth, so the verification still sees a short threat. A table entry that
            // already failed low here says passing will not reach beta either.
            let last_was_null = ply >= 1 && previous.is_null();
            let table_says_low = entry
                .is_some_and(|e| e.bound == Bound::Upper && score_from_tt(e.score, ply) < beta);
            if pruning.null_move
                && depth >= NMP_MIN_DEPTH
                && static_eval >= beta
                && !last_was_null
                && !table_says_low
                && self.has_pieces(pos)
                && beta.abs() < MATE_BOUND
            {
                let r = NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIVISOR;
                let mut child = *pos;
                child.play_null();
                self.stack[ply].current_move = Move::NULL;
                self.path.push(child.hash());
                let score = -self.alphabeta::<NonPv>(
                    &child,
                    depth - 1 - r,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    !cut_node,
                );
                self.path.pop();
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
        score_moves(
            pos,
            &moves,
            &mut scores,
            hash_move,
            &self.data.tables,
            ply,
            previous,
        );

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        let mut legal = 0;
        let mut quiets_tried: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        let futile = pruning.futility
            && !N::PV
            && !in_check
            && depth <= FUTILITY_MAX_DEPTH
            && static_eval + FUTILITY_MARGIN * depth <= alpha;

        let side = pos.side().index();
        for m in MovePicker::new(&mut moves, &mut scores) {
            if !pos.is_legal(m, &ctx) {
                continue;
            }
            legal += 1;
            let tactical = is_tactical(pos, m);
            let mut child = *pos;
            child.play(m);
            self.prefetch(child.hash());
            if !N::PV && !in_check && legal > 1 && !tactical && best_score > -MATE_BOUND {
                let gives_check = child.in_check();
                if futile && !gives_check {
                    continue;
                }
                // Late-move pruning: at shallow depth, quiet moves this late in the order
                // are dropped; twice as many are tried while the side to move is improving.
                if pruning.move_count
                    && !gives_check
                    && depth <= LMP_MAX_DEPTH
                    && legal > (LMP_BASE + depth * depth) * (1 + i32::from(improving))
                {
                    continue;
                }
            }
            let score = self.search_move::<N>(
                pos,
                &child,
                m,
                legal as usize,
                depth,
                alpha,
                beta,
                ply,
                in_check,
                cut_node,
            );
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if N::PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if !tactical {
                            self.data
                                .tables
                                .reward(side, m, &quiets_tried, depth, ply, previous);
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

    /// Searches move `m` (number `index` among the node's legal moves, from 1) of the node
    /// `pos` at `ply`, whose kind is `N`: the first move with the node's window, the others
    /// with a null window first, late quiet ones reduced, then again in full where they beat
    /// alpha.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn search_move<N: NodeType>(
        &mut self,
        pos: &Position<B>,
        child: &Position<B>,
        m: Move,
        index: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        cut_node: bool,
    ) -> i32 {
        if N::ROOT {
            self.prefetch(child.hash());
        }
        let gives_check = child.in_check();
        self.stack[ply].current_move = m;
        self.path.push(child.hash());
        let extends = gives_check
            && (N::ROOT
                || ply < CHECK_EXTENSION_PLY_FACTOR * depth as usize + CHECK_EXTENSION_PLY_SLACK);
        let new_depth = depth - 1 + i32::from(extends);
        let score = if index == 1 {
            if N::PV {
                -self.alphabeta::<Pv>(child, new_depth, -beta, -alpha, ply + 1, false)
            } else {
                -self.alphabeta::<NonPv>(child, new_depth, -beta, -alpha, ply + 1, false)
            }
        } else {
            let tactical = is_tactical(pos, m);
            let reduction = if N::ROOT {
                i32::from(
                    depth >= LMR_MIN_DEPTH
                        && index > ROOT_REDUCTION_INDEX
                        && !in_check
                        && !gives_check
                        && !tactical,
                )
            } else {
                self.reduction::<N>(
                    pos,
                    m,
                    depth,
                    index,
                    new_depth,
                    tactical,
                    in_check,
                    gives_check,
                    cut_node,
                )
            };
            let mut s = -self.alphabeta::<NonPv>(
                child,
                new_depth - reduction,
                -alpha - 1,
                -alpha,
                ply + 1,
                true,
            );
            if !N::ROOT && s > alpha && reduction > 0 && !self.stopped {
                s = -self.alphabeta::<NonPv>(
                    child,
                    new_depth,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    !cut_node,
                );
            }
            if N::PV && s > alpha && (N::ROOT || s < beta) && !self.stopped {
                s = -self.alphabeta::<Pv>(child, new_depth, -beta, -alpha, ply + 1, false);
            }
            s
        };
        self.path.pop();
        score
    }

    /// The late-move reduction of a move of a non-root node.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn reduction<N: NodeType>(
        &self,
        pos: &Position<B>,
        m: Move,
        depth: i32,
        index: usize,
        new_depth: i32,
        tactical: bool,
        in_check: bool,
        gives_check: bool,
        cut_node: bool,
    ) -> i32 {
        if !self.shared.options.pruning.reductions
            || depth < LMR_MIN_DEPTH
            || tactical
            || in_check
            || gives_check
        {
            return 0;
        }
        let mut r = self.reductions[(depth as usize).min(63)][index.min(63)];
        if N::PV {
            r -= 1;
        }
        if cut_node {
            r += 1;
        }
        r -= self.data.tables.history(pos.side().index(), m) / LMR_HISTORY_DIVISOR;
        r.clamp(0, new_depth - 1)
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
                        && self.data.eval_cache.get(pos.hash()).is_none() =>
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
            &self.data.tables,
            ply,
            Move::NULL,
        );
        let pruning = self.shared.options.pruning;
        let mut legal = 0;
        let mut drop_captures = DropCaptures::default();
        for m in MovePicker::new(&mut moves, &mut scores) {
            if !in_check {
                if drop_captures.tried(m) {
                    continue;
                }
                // Delta pruning: even winning this piece cannot lift us to alpha.
                let victim = captured_value(pos, m);
                let gain = victim + promotion_gain(pos, m);
                if best + gain + DELTA_MARGIN < alpha && m.kind() != MoveKind::Promotion {
                    continue;
                }
                // Last, as it asks whether the square is attacked.
                if pruning.losing_captures && is_losing_capture(pos, m, victim) {
                    continue;
                }
            }
            if !pos.is_legal(m, &ctx) {
                continue;
            }
            legal += 1;
            if !in_check {
                drop_captures.note(m);
            }
            let mut child = *pos;
            child.play(m);
            self.prefetch(child.hash());
            self.path.push(child.hash());
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            self.path.pop();
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

/// Whether helper `id` leaves out iteration `depth`: the helpers spread over neighbouring
/// depths (half of them a ply ahead of the others at any time), so that together they fill
/// the table with more than one depth's results.
fn skips_depth(id: usize, depth: i32) -> bool {
    const SIZES: [i32; 8] = [1, 1, 2, 2, 2, 2, 3, 3];
    const PHASES: [i32; 8] = [0, 1, 0, 1, 2, 3, 0, 1];
    let i = (id - 1) % SIZES.len();
    ((depth + PHASES[i]) / SIZES[i]) % 2 == 1
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
