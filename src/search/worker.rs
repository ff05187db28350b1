//! One search thread: iterative deepening over a principal-variation alpha-beta search with
//! quiescence, the transposition table, null move, late-move reductions and futility.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::eval_cache::EvalCache;
use super::ordering::{
    DropCaptures, MAX_PLY, MovePicker, OrderingTables, Scores, captured_value, is_losing_capture,
    is_tactical, promotion_gain, score_moves,
};
use super::split::{
    MIN_NON_PV_SPLIT_DEPTH, MIN_SPLIT_DEPTH, Node, Outcome, Seen, SplitPoint, SplitPoints,
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
    /// The split points of a search with several threads (`None` with one thread).
    splits: Option<&'a SplitPoints<B>>,
    /// The split points this thread is under, outermost first: those it opened and those
    /// whose moves it is helping with.
    frames: Vec<Arc<SplitPoint<B>>>,
    /// Another thread ended the split point at this index of `frames`, and the search is
    /// unwinding to it.
    unwind_to: Option<usize>,
    /// `SplitPoints::aborts` when last looked at.
    seen_aborts: u64,
}

impl<'a, B: Bitboard> Worker<'a, B> {
    pub fn new(
        id: usize,
        shared: &'a Shared<'a>,
        splits: Option<&'a SplitPoints<B>>,
        root: &Position<B>,
        game_hashes: &[u64],
    ) -> Self {
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
            splits,
            frames: Vec::new(),
            unwind_to: None,
            seen_aborts: 0,
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
        if self.splits.is_some() {
            self.look_for_aborted_split();
        }
        if self.unflushed >= CHECK_EVERY {
            self.flush_nodes();
            if self.shared.should_stop(self.id == 0) {
                self.stopped = true;
                // The whole search ends, not only a split point's share of it.
                self.unwind_to = None;
            }
        }
    }

    /// Stops the work under a split point that another thread's result has ended: the
    /// search unwinds to the outermost such node this thread is under.
    #[inline]
    fn look_for_aborted_split(&mut self) {
        let Some(splits) = self.splits else { return };
        let aborts = splits.aborts();
        if aborts == self.seen_aborts || self.stopped {
            return;
        }
        self.seen_aborts = aborts;
        if let Some(level) = self.frames.iter().position(|s| s.is_aborted()) {
            self.stopped = true;
            self.unwind_to = Some(level);
        }
    }

    /// After the work under `frames[level]` returned: true when it stopped only because
    /// that split point was ended by another thread, which is not a reason to stop further up.
    fn caught_unwind(&mut self, level: usize) -> bool {
        if self.stopped && self.unwind_to == Some(level) {
            self.stopped = false;
            self.unwind_to = None;
            true
        } else {
            false
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
    /// reached the limit mated or stalemated, which ends the game first (as in `rules::end`).
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
            let score =
                self.search_root_move(pos, m, i - first, depth, alpha, beta, in_check, || alpha);
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
            let rest = &lines[i + 1..];
            if rest.len() >= 2 && self.shared.options.multipv == 1 && self.may_split(depth, true) {
                let moves = rest.iter().map(|line| line.mv).collect();
                let node = Node {
                    depth,
                    alpha,
                    beta,
                    ply: 0,
                    pv_node: true,
                    cut_node: false,
                    in_check,
                };
                let moves_before = i + 1 - first;
                let Some(outcome) = self.search_split(pos, moves, moves_before, node, best, true)
                else {
                    break;
                };
                best = best.max(outcome.best_score);
                for line in &mut lines[i + 1..] {
                    line.score = -INFINITY;
                }
                // In the order they raised alpha, as one thread would have found them.
                for (mv, score, pv) in outcome.improvements {
                    if let Some(j) = lines[first..].iter().position(|l| l.mv == mv) {
                        let j = first + j;
                        lines[j].score = score;
                        lines[j].pv = pv;
                        lines[first..=j].rotate_right(1);
                    }
                }
                break;
            }
        }
        best
    }

    /// One root move: the first of the block with the full window, the others with a null
    /// window first (late quiet ones a ply shallower). `alpha_now` as in `search_child`.
    #[allow(clippy::too_many_arguments)]
    fn search_root_move(
        &mut self,
        pos: &Position<B>,
        m: Move,
        index: usize,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        in_check: bool,
        alpha_now: impl Fn() -> i32,
    ) -> i32 {
        let mut child = *pos;
        child.play(m);
        self.prefetch(child.hash());
        self.push(child.hash(), m);
        let gives_check = child.in_check();
        let extension = i32::from(gives_check);
        let new_depth = depth - 1 + extension;
        let score = if index == 0 {
            -self.alphabeta(&child, new_depth, -beta, -alpha, 1, true, false)
        } else {
            let reduce = i32::from(
                depth >= 3 && index >= 4 && !in_check && !gives_check && !is_tactical(pos, m),
            );
            let mut s = -self.alphabeta(
                &child,
                new_depth - reduce,
                -alpha - 1,
                -alpha,
                1,
                false,
                true,
            );
            let now = alpha_now();
            if s > alpha && now > alpha && now < beta && !self.stopped {
                alpha = now;
                s = -self.alphabeta(&child, new_depth, -alpha - 1, -alpha, 1, false, true);
            }
            if s > alpha && !self.stopped {
                s = -self.alphabeta(&child, new_depth, -beta, -alpha, 1, true, false);
            }
            s
        };
        self.pop();
        score
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

        let side = pos.side().index();
        let mut picker = MovePicker::new(&mut moves, &mut scores);
        while let Some(m) = picker.next() {
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
            let node = Node {
                depth,
                alpha,
                beta,
                ply,
                pv_node,
                cut_node,
                in_check,
            };
            let score = self.search_child(pos, &child, m, tactical, legal, node, || alpha);
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
                            self.tables
                                .reward(side, m, &quiets_tried, depth, ply, previous);
                        }
                        break;
                    }
                }
            }
            if !tactical && quiets_tried.len() < quiets_tried.capacity() {
                quiets_tried.push(m);
            }
            if self.may_split(depth, pv_node) {
                // A move has set a bound and a thread is idle: the rest are shared.
                let rest: Vec<Move> = picker.by_ref().filter(|&m| pos.is_legal(m, &ctx)).collect();
                if rest.is_empty() {
                    break;
                }
                let moves_before = legal as usize;
                legal += rest.len() as i32;
                let node = Node { alpha, ..node };
                let Some(outcome) =
                    self.search_split(pos, rest.clone(), moves_before, node, best_score, false)
                else {
                    return 0;
                };
                best_score = outcome.best_score;
                if let Some(&(m, score, ref line)) = outcome.improvements.last() {
                    best_move = m;
                    if pv_node {
                        self.set_pv(ply, line);
                    }
                    if score >= beta && !is_tactical(pos, m) {
                        // The quiet moves ordered before the cut-off one, as one thread
                        // would have tried them.
                        let before = rest.iter().take_while(|&&r| r != m);
                        for &r in before.filter(|&&r| !is_tactical(pos, r)) {
                            if quiets_tried.try_push(r).is_err() {
                                break;
                            }
                        }
                        self.tables
                            .reward(side, m, &quiets_tried, depth, ply, previous);
                    }
                }
                break;
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

    /// Searches a child of a node in the main search: the first move with the node's
    /// window, the others with a null window, late quiet ones reduced, then again in full
    /// where they beat alpha. `alpha_now` gives the node's alpha as it stands after the
    /// null-window search (at a split point another thread may have raised it).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        pos: &Position<B>,
        child: &Position<B>,
        m: Move,
        tactical: bool,
        legal: i32,
        node: Node,
        alpha_now: impl Fn() -> i32,
    ) -> i32 {
        let Node {
            depth,
            mut alpha,
            beta,
            ply,
            pv_node,
            cut_node,
            in_check,
        } = node;
        let gives_check = child.in_check();
        self.push(child.hash(), m);
        let extension = i32::from(gives_check && ply < 2 * depth as usize + 8);
        let new_depth = depth - 1 + extension;
        let score = if legal == 1 {
            -self.alphabeta(child, new_depth, -beta, -alpha, ply + 1, pv_node, false)
        } else {
            let pruning = self.shared.options.pruning;
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
                child,
                new_depth - reduction,
                -alpha - 1,
                -alpha,
                ply + 1,
                false,
                true,
            );
            if s > alpha && reduction > 0 && !self.stopped {
                s = -self.alphabeta(
                    child,
                    new_depth,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    !cut_node,
                );
            }
            if s > alpha && s < beta && pv_node && !self.stopped {
                let now = alpha_now();
                if now > alpha && now < beta {
                    // Beating the old alpha is not beating the new one: test that first,
                    // before searching the move in full.
                    alpha = now;
                    s = -self.alphabeta(child, new_depth, -alpha - 1, -alpha, ply + 1, false, true);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.alphabeta(child, new_depth, -beta, -alpha, ply + 1, true, false);
                }
            }
            s
        };
        self.pop();
        score
    }

    /// Whether a node this deep shares its moves left with other threads now.
    fn may_split(&self, depth: i32, pv_node: bool) -> bool {
        let min = if pv_node {
            MIN_SPLIT_DEPTH
        } else {
            MIN_NON_PV_SPLIT_DEPTH
        };
        depth >= min && self.splits.is_some_and(|splits| splits.wanted())
    }

    /// Searches the moves `moves` of the node `pos` together with the other threads,
    /// `moves_before` legal moves having been searched already. `None` when the search
    /// stopped (or a node above this one ended) before the node was done.
    fn search_split(
        &mut self,
        pos: &Position<B>,
        moves: Vec<Move>,
        moves_before: usize,
        node: Node,
        best_score: i32,
        root: bool,
    ) -> Option<Outcome> {
        let splits = self.splits?;
        let split = Arc::new(SplitPoint::new(
            pos,
            &self.path,
            &self.moves_made,
            &self.static_evals[..=node.ply],
            node,
            best_score,
            root,
            moves,
            moves_before,
            Box::new(self.tables.clone()),
            self.frames.last().cloned(),
        ));
        splits.open(&split);
        self.frames.push(Arc::clone(&split));
        let level = self.frames.len() - 1;
        self.work_on(&split, split.take());
        splits.close(&split);
        if self.stopped && !self.caught_unwind(level) {
            // Unwinding further up, or the search is over: the node's helpers stop too.
            split.abort();
            self.frames.pop();
            return None;
        }
        // Until the helpers are done with their moves, help with the nodes they opened.
        let (path_len, made_len) = (self.path.len(), self.moves_made.len());
        let mut waited = 0u32;
        let mut seen = Seen::default();
        let outcome = loop {
            if let Some(outcome) = split.outcome_if_done() {
                break Some(outcome);
            }
            if let Some((beneath, first)) = splits.find_work(Some(&split), &mut seen) {
                self.help(&beneath, first);
                self.path.truncate(path_len);
                self.moves_made.truncate(made_len);
                if self.stopped && !self.caught_unwind(level) {
                    break None;
                }
                continue;
            }
            waited = waited.wrapping_add(1);
            if waited.is_multiple_of(64) && self.shared.should_stop(self.id == 0) {
                self.stopped = true;
                self.unwind_to = None;
                break None;
            }
            idle();
        };
        splits.stop_idling(&mut seen);
        if outcome.is_none() {
            split.abort();
        }
        self.frames.pop();
        outcome
    }

    /// Searches moves of `split`, starting with `first`, then any left, and reports them;
    /// stops at a fail-high (which ends the node) or when told to.
    fn work_on(&mut self, split: &SplitPoint<B>, first: Option<usize>) {
        let Some(splits) = self.splits else { return };
        let mut next = first;
        while let Some(i) = next {
            let score = self.search_split_move(split, i);
            if self.stopped {
                return;
            }
            let m = split.moves[i];
            if split.report(m, score, || self.line_from(split.node.ply, m)) {
                splits.note_abort();
                return;
            }
            next = split.take();
        }
    }

    /// Joins `split`, whose move `first` this thread took, and works on it.
    fn help(&mut self, split: &Arc<SplitPoint<B>>, first: usize) {
        self.join(split);
        self.frames.push(Arc::clone(split));
        let level = self.frames.len() - 1;
        self.work_on(split, Some(first));
        self.frames.pop();
        split.leave();
        // Ended by another thread's fail-high: nothing more to do there.
        self.caught_unwind(level);
    }

    /// Searches move `i` of a split point, at the node's alpha as it stands now.
    fn search_split_move(&mut self, split: &SplitPoint<B>, i: usize) -> i32 {
        let m = split.moves[i];
        let pos = &split.pos;
        let node = Node {
            alpha: split.alpha(),
            ..split.node
        };
        if split.root {
            let index = split.moves_before + i;
            return self.search_root_move(
                pos,
                m,
                index,
                node.depth,
                node.alpha,
                node.beta,
                node.in_check,
                || split.alpha(),
            );
        }
        let mut child = *pos;
        child.play(m);
        self.prefetch(child.hash());
        let legal = (split.moves_before + i + 1) as i32;
        let tactical = is_tactical(pos, m);
        self.search_child(pos, &child, m, tactical, legal, node, || split.alpha())
    }

    /// A helper's work in a search with several threads: the moves of the split points the
    /// other threads open, until the search stops.
    pub fn serve(&mut self) {
        let Some(splits) = self.splits else { return };
        let mut seen = Seen::default();
        while !self.shared.stop.load(Ordering::Relaxed) {
            match splits.find_work(None, &mut seen) {
                Some((split, first)) => {
                    self.help(&split, first);
                    self.stopped = false;
                }
                None => idle(),
            }
        }
        splits.stop_idling(&mut seen);
    }

    /// Takes on the path of a split point's node, to search its moves.
    fn join(&mut self, split: &SplitPoint<B>) {
        self.path.clear();
        self.path.extend_from_slice(&split.path);
        self.moves_made.clear();
        self.moves_made.extend_from_slice(&split.moves_made);
        self.static_evals[..split.static_evals.len()].copy_from_slice(&split.static_evals);
        self.tables.clone_from(&split.tables);
    }

    /// The line of move `m` at `ply`: `m`, then the line its search left one ply down.
    fn line_from(&self, ply: usize, m: Move) -> Vec<Move> {
        let mut line = Vec::with_capacity(self.pv_len[ply + 1] + 1);
        line.push(m);
        line.extend_from_slice(&self.pv[ply + 1][..self.pv_len[ply + 1]]);
        line
    }

    fn set_pv(&mut self, ply: usize, line: &[Move]) {
        let len = line.len().min(MAX_PLY);
        self.pv[ply][..len].copy_from_slice(&line[..len]);
        self.pv_len[ply] = len;
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
                if best + gain + 200 < alpha && m.kind() != MoveKind::Promotion {
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

/// A few microseconds' pause between looks for work: looking takes the split points' lock,
/// which the threads that open and close split points need.
fn idle() {
    for _ in 0..64 {
        std::hint::spin_loop();
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
