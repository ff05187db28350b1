//! One search thread: iterative deepening over a principal-variation alpha-beta search with
//! quiescence, the transposition table, null move, late-move reductions and futility.
//!
//! `alphabeta` serves every node, the root included; its node kind (`node.rs`) is a type,
//! so the root's move list, the PV's open window and the null-window nodes' pruning are
//! decided at compile time. What the search keeps per ply lives in one `Frame`.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::aspiration::{self, Aspiration};
use super::history::{PieceTo, pawn_key, victim_kind};
use super::node::{NodeType, NonPv, Pv, Root};
use super::ordering::{
    DropCaptures, MAX_PLY, MovePicker, OrderingContext, Scores, captured_value, is_tactical,
    promotion_gain, score_moves,
};
use super::params::*;
use super::see::see_ge;
use super::thread::ThreadData;
use super::tt::{Bound, Entry};
use super::{MATE, MATE_BOUND, Report, RootLine, Score, SearchResult, Shared};
use crate::board::{Bitboard, Color, Move, MoveKind, Position};
use crate::eval::nnue::{Accumulators, FeatureSet, Network};
use crate::eval::{EvalMode, EvalTables, LAZY_MARGIN, TermSet, evaluate_fast, evaluate_with};
use crate::movegen::{CheckContext, MoveList};
use crate::variant::Stalemate;

pub const INFINITY: i32 = MATE + 1;

/// What the search keeps for one ply of the current line.
#[derive(Clone)]
struct Frame {
    /// The static evaluation, corrected (`-INFINITY` in check), to tell whether the side to
    /// move is doing better than two plies ago.
    static_eval: i32,
    /// The evaluation before its correction, and the pawn key the correction was found by.
    raw_eval: i32,
    pawn_key: u64,
    /// The move being searched from this ply (`Move::NULL` for a null move), and its piece
    /// and square for the continuation history (`None` for a null move).
    current_move: Move,
    piece_to: Option<PieceTo>,
    /// Whether that move captures or promotes: the evaluation's history learns from quiet
    /// moves only.
    current_tactical: bool,
    /// The move left out of this node's search (singular extension's test), if any.
    excluded: Move,
    /// Double extensions on the path to this ply (they are limited).
    double_extensions: i32,
    /// Beta cut-offs at this ply since the grandparent began its moves (one without a
    /// table move counts twice): many say the node above is likely to fail low.
    cutoffs: u32,
    /// The best line found from this ply.
    pv: [Move; MAX_PLY + 1],
    pv_len: usize,
    /// Whether the side to move is in check in the position of this hash, as the parent
    /// found when it asked whether its move gives check: the child need not look again.
    check_seen: (u64, bool),
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            static_eval: -INFINITY,
            raw_eval: -INFINITY,
            pawn_key: 0,
            current_move: Move::NULL,
            piece_to: None,
            current_tactical: false,
            excluded: Move::NULL,
            double_extensions: 0,
            cutoffs: 0,
            pv: [Move::NULL; MAX_PLY + 1],
            pv_len: 0,
            check_seen: (0, false),
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
    /// Nodes counted since the thread last published its count, and how many it counts
    /// before it publishes them and looks at the stop conditions.
    unflushed: u64,
    check_every: u64,
    pub seldepth: usize,
    stopped: bool,
    reductions: [[i32; 64]; 64],
    /// The selective search's margins (`Pruning::narrow` chooses the set).
    margins: Margins,
    /// Late-move pruning's move counts, by depth and whether the side to move improves.
    late_move_counts: [[i32; 2]; LMP_MAX_DEPTH as usize + 1],
    /// Whether quiet moves learn from the static evaluation's change (`learn_from_eval`).
    eval_history: bool,
    /// The root moves of the iteration under way, and the MultiPV line being searched.
    root_lines: Vec<RootLine>,
    pv_index: usize,
    /// Whether a root move has beaten alpha in the first line of the iteration under way:
    /// then, if the search stops before the iteration ends, that move (at the front of the
    /// lines) is the better answer than the last iteration's.
    improved_in_iteration: bool,
    /// Whether the main thread has a searched move to answer with: until then only `stop`
    /// ends its search, not the node limit or the clock, so that even a move forced out by
    /// the tiniest limit is one the search looked at (its first root move, searched to the
    /// end of quiescence, which is bounded).
    has_answer: bool,
    /// Quiescence nodes left to the search below the current horizon node before it tries
    /// only recaptures (`QS_NODE_BUDGET`).
    qs_budget: u32,
    /// The learned evaluation, when it is the one in use: the net and the first layer of
    /// every ply of the current line.
    nnue: Option<Nnue>,
}

/// A net and its first layer along the search's line.
struct Nnue {
    net: std::sync::Arc<Network>,
    set: FeatureSet,
    acc: Accumulators,
}

/// Nodes between looks at the stop conditions: CHECK_EVERY, or a thousandth of a node limit
/// when that is fewer, so that the search ends close to the limit.
fn check_interval(node_limit: Option<u64>) -> u64 {
    node_limit.map_or(CHECK_EVERY, |n| (n / 1000).clamp(1, CHECK_EVERY))
}

impl<'a, B: Bitboard> Worker<'a, B> {
    pub fn new(
        id: usize,
        shared: &'a Shared<'a>,
        data: &'a mut ThreadData,
        root: &Position<B>,
        game_hashes: &[u64],
    ) -> Self {
        // A larger board has more quiet moves: the counts of late-move pruning grow with its
        // area, and so does a late move's reduction, as if it came later in chess's order;
        // neither is ever less than chess's.
        let area = (root.layout().dims.squares() as i32).max(BASE_AREA);
        let mut reductions = [[0; 64]; 64];
        for (d, row) in reductions.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let place = m as f64 * f64::from(area) / f64::from(BASE_AREA);
                *r = (LMR_BASE + (d as f64).ln() * place.ln() / LMR_DIVISOR) as i32;
            }
        }
        let margins = if shared.options.pruning.narrow {
            Margins::NARROW
        } else {
            Margins::WIDE
        };
        let mut late_move_counts = [[0; 2]; LMP_MAX_DEPTH as usize + 1];
        for (d, counts) in late_move_counts.iter_mut().enumerate() {
            let d = d as i32;
            for (improving, count) in counts.iter_mut().enumerate() {
                *count = (LMP_BASE + d * d) * (1 + improving as i32) * area
                    / BASE_AREA
                    / margins.lmp_divisor;
            }
        }
        let mut path = game_hashes.to_vec();
        if path.last() != Some(&root.hash()) {
            path.push(root.hash());
        }
        data.histories.fit(root);
        let nnue = Self::nnue_for(&shared.options, root);
        Worker {
            id,
            shared,
            eval_tables: EvalTables::of(root.layout()),
            data,
            path,
            stack: vec![Frame::default(); MAX_PLY + 3],
            unflushed: 0,
            check_every: check_interval(shared.limits.nodes),
            seldepth: 0,
            stopped: false,
            reductions,
            margins,
            late_move_counts,
            eval_history: area > BASE_AREA,
            root_lines: Vec::new(),
            pv_index: 0,
            improved_in_iteration: false,
            has_answer: false,
            qs_budget: QS_NODE_BUDGET,
            nnue,
        }
    }

    /// The net to evaluate with, its first layer set from the root: when the learned
    /// evaluation is asked for, the user's net if it is this variant's, else the variant's
    /// built-in one; with neither, the hand-made evaluation serves. It serves a weakened
    /// engine too: the skill levels were calibrated with it (`strength.rs`), and a net would
    /// make every level stronger than its Elo.
    fn nnue_for(options: &super::SearchOptions, root: &Position<B>) -> Option<Nnue> {
        let weakened = options
            .skill
            .is_some_and(|s| s < super::strength::MAX_SKILL);
        if options.eval_mode != EvalMode::Nnue || weakened {
            return None;
        }
        let set = FeatureSet::of(root.layout());
        let variant = root.layout().variant;
        let net = options
            .net
            .clone()
            .filter(|net| crate::eval::nnue::check_fits(net, variant, &set).is_ok())
            .or_else(|| crate::eval::nnue::builtin::net(&variant.name))?;
        net.fits(&set).ok()?;
        let mut acc = Accumulators::new(&net, MAX_PLY + 3);
        acc.refresh(&net, &set, root, 0);
        Some(Nnue { net, set, acc })
    }

    /// The first layer of `ply + 1`, where `child` follows `pos` (at `ply`).
    #[inline]
    fn nnue_descend(&mut self, pos: &Position<B>, child: &Position<B>, ply: usize) {
        if let Some(n) = &mut self.nnue {
            n.acc.update(&n.net, &n.set, pos, child, ply);
        }
    }

    /// The evaluation's history: the quiet move that led to this node (not in check, its
    /// static evaluation `static_eval` for `side`) is judged by how far it moved the static
    /// evaluation, so that the histories learn at every node and not only at cut-offs. On
    /// boards larger than chess's only: it won games in Magi and leaned to a loss in chess
    /// (docs/search.md).
    fn learn_from_eval(&mut self, ply: usize, side: Color, static_eval: i32) {
        if !self.eval_history || ply == 0 {
            return;
        }
        let parent = &self.stack[ply - 1];
        if parent.current_move.is_null()
            || parent.current_tactical
            || parent.static_eval == -INFINITY
        {
            return;
        }
        let bonus = (-EVAL_HISTORY_FACTOR * (parent.static_eval + static_eval))
            .clamp(-EVAL_HISTORY_MAX, EVAL_HISTORY_MAX);
        let previous = parent.current_move;
        self.data.histories.update_butterfly(!side, previous, bonus);
    }

    #[inline]
    fn evaluate(&mut self, pos: &Position<B>, ply: usize) -> i32 {
        let net = self.net_part(pos, ply);
        self.evaluate_with(pos, net)
    }

    /// The evaluation, the net's part `net` already known: the net's alone, or the hand-made
    /// evaluation plus it (0 without a net).
    #[inline]
    fn evaluate_with(&mut self, pos: &Position<B>, net: i32) -> i32 {
        match &self.nnue {
            Some(n) if !n.net.on_hce => net,
            _ => net + self.hand_made(pos),
        }
    }

    /// The net's part of the evaluation (`nnue::net_part`; 0 without a net).
    #[inline]
    fn net_part(&self, pos: &Position<B>, ply: usize) -> i32 {
        #[cfg(test)]
        self.audit_first_layer(pos, ply);
        self.nnue.as_ref().map_or(0, |n| {
            let own = n
                .acc
                .evaluate(&n.net, ply, pos.side(), pos.occupied().count() as usize);
            crate::eval::nnue::net_part(&n.net, pos, own)
        })
    }

    /// In the library's tests, every evaluation by the net first checks that the first layer
    /// carried to `ply` is the one `pos` has: a search that let another line overwrite it
    /// would evaluate the wrong position and fail here.
    #[cfg(test)]
    fn audit_first_layer(&self, pos: &Position<B>, ply: usize) {
        if let Some(n) = &self.nnue {
            let mut fresh = Accumulators::new(&n.net, 1);
            fresh.refresh(&n.net, &n.set, pos, 0);
            assert!(
                n.acc.values(ply) == fresh.values(0),
                "the first layer at ply {ply} is not that of {}",
                pos.to_fen()
            );
        }
    }

    /// The hand-made evaluation (or the material count, or some terms, as the options ask),
    /// through the evaluation cache.
    #[inline]
    fn hand_made(&mut self, pos: &Position<B>) -> i32 {
        if let Some(score) = self.data.eval_cache.get(pos.hash()) {
            return score;
        }
        let options = &self.shared.options;
        let score = evaluate_with(pos, self.eval_tables, options.eval_mode, options.eval_terms);
        self.data.eval_cache.put(pos.hash(), score);
        score
    }

    /// Whether the side to move is in check: as the parent saw it, if it looked at this
    /// very position.
    #[inline]
    fn in_check(&self, pos: &Position<B>, ply: usize) -> bool {
        match self.stack[ply].check_seen {
            (hash, seen) if hash == pos.hash() => seen,
            _ => pos.in_check(),
        }
    }

    /// Starts loading what the child position will look up first.
    #[inline]
    fn prefetch(&self, hash: u64) {
        self.shared.tt.prefetch(hash);
        self.data.eval_cache.prefetch(hash);
    }

    /// Counts a node; every so often publishes the count and looks at the stop conditions.
    /// A `stop` is looked for more often: a node can be slow (the first touch of a fresh
    /// table's page costs a huge page's zeroing), and a thousand of them would keep the
    /// engine from answering for seconds.
    #[inline]
    fn count_node(&mut self) {
        self.unflushed += 1;
        if self.unflushed >= self.check_every {
            self.flush_nodes();
            let main = self.id == 0;
            if self.shared.should_stop(main)
                && (!main || self.has_answer || self.shared.stop_asked())
            {
                self.stopped = true;
            }
        } else if self.unflushed.is_multiple_of(STOP_LOOK_EVERY) && self.shared.stop_asked() {
            self.stopped = true;
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
        self.has_answer = false;
        self.root_lines = legal
            .iter()
            .map(|&mv| RootLine {
                mv,
                score: 0,
                pv: vec![mv],
            })
            .collect();
        let multipv = match role {
            Role::Main => shared.options.multipv.clamp(1, legal.len()),
            Role::Helper => 1,
        };
        let max_depth = shared
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let mut best = SearchResult {
            best: legal[0],
            ponder: None,
            score: Score::Centipawns(0),
            depth: 0,
            nodes: 0,
        };
        let mut previous_scores = vec![0; multipv];
        let mut clock = TimeUse::default();
        let mut depth = 1;
        while depth <= max_depth {
            if role == Role::Helper && skips_depth(self.id, depth) {
                depth += 1;
                continue;
            }
            self.improved_in_iteration = false;
            for pv_index in 0..multipv {
                self.pv_index = pv_index;
                let mut window = Aspiration::new(depth, previous_scores[pv_index]);
                let score = loop {
                    self.seldepth = 0;
                    let score =
                        self.alphabeta::<Root>(root, depth, window.alpha, window.beta, 0, false);
                    if self.stopped {
                        break score;
                    }
                    let bound = match window.judge(score) {
                        aspiration::Outcome::Exact => break score,
                        aspiration::Outcome::FailedHigh => true,
                        aspiration::Outcome::FailedLow => false,
                    };
                    if role == Role::Main {
                        self.report_line(pv_index, depth, score, Some(bound), report);
                    }
                };
                if self.stopped {
                    if pv_index == 0 && self.improved_in_iteration {
                        // The first iteration's line, cut short, is the only line there
                        // is: it is told, a lower bound, before it is answered.
                        if best.depth == 0 && role == Role::Main {
                            let score = self.root_lines[0].score;
                            self.report_line(0, depth, score, Some(true), report);
                        }
                        best = self.best_of_unfinished_iteration(best);
                    }
                    break;
                }
                // A line can score above the ones searched before it (the search is not
                // exact): the lines stay sorted, and those that moved are reported again.
                self.root_lines[pv_index].score = score;
                let moved_to = self.sort_lines(pv_index);
                for (slot, previous) in previous_scores[..=pv_index].iter_mut().enumerate() {
                    *previous = self.root_lines[slot].score;
                }
                if role == Role::Main {
                    let moved = &previous_scores[moved_to..=pv_index];
                    for (slot, &score) in (moved_to..).zip(moved) {
                        self.report_line(slot, depth, score, None, report);
                    }
                }
            }
            if self.stopped {
                break;
            }
            let top = &self.root_lines[0];
            best = SearchResult {
                best: top.mv,
                ponder: top.pv.get(1).copied(),
                score: Score::from_internal(previous_scores[0]),
                depth,
                nodes: 0,
            };
            clock.iteration_done(best.best, previous_scores[0]);
            if role == Role::Main && self.iterations_done(&best, clock.factor()) {
                break;
            }
            depth += 1;
        }
        best
    }

    /// The answer of an iteration stopped after a root move beat alpha: that move, at the
    /// front of the lines, searched to the end at the new depth (its score a lower bound if
    /// the window failed high); the depth stays the last one completed.
    fn best_of_unfinished_iteration(&self, completed: SearchResult) -> SearchResult {
        let top = &self.root_lines[0];
        SearchResult {
            best: top.mv,
            ponder: top.pv.get(1).copied(),
            score: Score::from_internal(top.score),
            ..completed
        }
    }

    /// Sorts the lines searched so far in this iteration, up to `last`, best first (equal
    /// scores keep their order), and says where line `last` went.
    fn sort_lines(&mut self, last: usize) -> usize {
        let mv = self.root_lines[last].mv;
        let lines = &mut self.root_lines[..=last];
        lines.sort_by_key(|line| std::cmp::Reverse(line.score));
        lines.iter().position(|line| line.mv == mv).unwrap_or(last)
    }

    /// The main thread's verdict after an iteration: the mate asked for is found, or the
    /// clock says no new iteration would end in time. `factor` scales the planned time: more
    /// while the best move changes or the score falls, less while one move stays best.
    fn iterations_done(&self, best: &SearchResult, factor: f64) -> bool {
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
            let planned = shared.budget.soft.as_secs_f64() * factor;
            (Duration::try_from_secs_f64(planned).unwrap_or(Duration::MAX) / 10
                * ITERATION_START_TENTHS)
                .min(shared.budget.hard)
        };
        !shared.control.pondering.load(Ordering::Relaxed)
            && !shared.limits.infinite
            && shared.elapsed() >= iteration_limit
    }

    fn report_line(
        &mut self,
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
            pv: self.root_lines[pv_index].pv.clone(),
        });
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

    /// The move that led to the node at `ply` (none at the root).
    fn previous_move(&self, ply: usize) -> Move {
        ply.checked_sub(1)
            .map_or(Move::NULL, |p| self.stack[p].current_move)
    }

    /// The pieces and squares of the moves one and two plies before `ply`.
    fn before(&self, ply: usize) -> [Option<PieceTo>; 2] {
        [
            ply.checked_sub(1).and_then(|p| self.stack[p].piece_to),
            ply.checked_sub(2).and_then(|p| self.stack[p].piece_to),
        ]
    }

    /// The static evaluation corrected by what searches found in positions with this pawn
    /// structure, and the pawn key it was looked up by.
    fn corrected_eval(&mut self, pos: &Position<B>, ply: usize) -> (i32, i32, u64) {
        let raw = self.evaluate(pos, ply);
        self.corrected(pos, raw)
    }

    /// `raw`, the static evaluation of `pos`, corrected as `corrected_eval` says.
    fn corrected(&self, pos: &Position<B>, raw: i32) -> (i32, i32, u64) {
        if !self.shared.options.pruning.correction {
            return (raw, raw, 0);
        }
        let key = pawn_key(pos);
        let corrected = raw + self.data.histories.correction(pos.side(), key);
        (raw, corrected.clamp(-MATE_BOUND + 1, MATE_BOUND - 1), key)
    }

    fn alphabeta<N: NodeType>(
        &mut self,
        pos: &Position<B>,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        self.stack[ply].pv_len = 0;
        if depth <= 0 {
            return self.quiescence::<N>(pos, alpha, beta, ply, 0, Move::NULL);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if !N::ROOT {
            if let Some(score) = self.fifty_move_score(pos, ply) {
                return score;
            }
            if self.is_repetition(pos) || is_dead(pos) {
                return 0;
            }
            if ply >= MAX_PLY {
                return self.evaluate(pos, ply);
            }
            // Mate-distance pruning: no line from here beats a mate already found nearer
            // the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let excluded = self.stack[ply].excluded;
        let hash = pos.hash();
        let entry = if excluded.is_null() {
            self.shared.tt.probe(hash)
        } else {
            None
        };
        let tt_move = if N::ROOT {
            self.root_lines[self.pv_index].mv
        } else {
            entry.map_or(Move::NULL, |e| e.mv)
        };
        let tt_score = entry.map(|e| score_from_tt(e.score, ply));
        if !N::PV
            && let (Some(e), Some(score)) = (entry, tt_score)
            && e.depth >= depth
            && e.bound.settles(score, alpha, beta)
        {
            // The table's quiet move cuts this node off as a searched one would have: the
            // histories and the killers learn it the same way.
            if score >= beta && !e.mv.is_null() && !is_tactical(pos, e.mv) {
                let previous = self.previous_move(ply);
                let before = self.before(ply);
                self.reward_cutoff(pos, e.mv, false, &[], &[], depth, ply, previous, before);
            }
            return score;
        }

        let in_check = self.in_check(pos, ply);
        let side = pos.side();
        let pruning = self.shared.options.pruning;
        let (raw_eval, static_eval, pawn_key) = if in_check {
            (-INFINITY, -INFINITY, 0)
        } else if !excluded.is_null() {
            let f = &self.stack[ply];
            (f.raw_eval, f.static_eval, f.pawn_key)
        } else {
            self.corrected_eval(pos, ply)
        };
        self.stack[ply].static_eval = static_eval;
        self.stack[ply].raw_eval = raw_eval;
        self.stack[ply].pawn_key = pawn_key;
        // A table score with the right bound is a better guess than the static evaluation.
        let eval = match (entry, tt_score) {
            (Some(e), Some(score)) if !in_check && score.abs() < MATE_BOUND => {
                let better = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score > static_eval,
                    Bound::Upper => score < static_eval,
                };
                if better { score } else { static_eval }
            }
            _ => static_eval,
        };
        // Better than two plies ago (four, if two plies ago was in check): the moves here
        // deserve a closer look.
        let improving = !in_check
            && if ply >= 2 && self.stack[ply - 2].static_eval != -INFINITY {
                static_eval > self.stack[ply - 2].static_eval
            } else {
                ply >= 4 && static_eval > self.stack[ply - 4].static_eval
            };
        let previous = self.previous_move(ply);
        self.data.histories.killers[ply + 1] = [Move::NULL; 2];
        self.stack[ply + 2].cutoffs = 0;
        if !in_check && excluded.is_null() {
            self.learn_from_eval(ply, side, static_eval);
        }

        if !N::PV && !in_check && excluded.is_null() {
            // Razoring: far below alpha at low depth, only captures can help.
            if pruning.razoring
                && alpha.abs() < MATE_BOUND
                && depth <= RAZOR_MAX_DEPTH
                && eval + RAZOR_MARGIN + RAZOR_DEPTH_MARGIN * depth * depth < alpha
            {
                let score = self.quiescence::<NonPv>(pos, alpha - 1, alpha, ply, 0, Move::NULL);
                if score < alpha {
                    return score;
                }
            }
            // Reverse futility: far above beta at low depth, a quiet move will not fall below.
            if pruning.futility
                && depth <= RFP_MAX_DEPTH
                && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
                && eval.abs() < MATE_BOUND
                && beta.abs() < MATE_BOUND
            {
                return (eval + beta) / 2;
            }
            // Null move: if passing still fails high, a real move will too (not in zugzwang-
            // prone positions: only pawns and King left).
            let last_was_null = ply >= 1 && previous.is_null();
            if pruning.null_move
                && depth >= NMP_MIN_DEPTH
                && eval >= beta
                && static_eval
                    >= beta - self.margins.nmp_eval_margin * depth + self.margins.nmp_eval_base
                && !last_was_null
                && self.has_pieces(pos)
                && beta.abs() < MATE_BOUND
            {
                let deepest = if pruning.null_move_full_ply {
                    depth - 1
                } else {
                    depth
                };
                let r = (NMP_BASE_REDUCTION
                    + depth / NMP_DEPTH_DIVISOR
                    + ((eval - beta) / self.margins.nmp_eval_divisor).min(NMP_EVAL_MAX))
                .min(deepest);
                let mut child = *pos;
                child.play_null();
                if let Some(n) = &mut self.nnue {
                    n.acc.copy_down(ply);
                }
                self.stack[ply].current_move = Move::NULL;
                self.stack[ply].piece_to = None;
                self.path.push(child.hash());
                let score = self.zero_window(&child, depth - r, beta, ply, cut_node);
                self.path.pop();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
            // ProbCut: a capture whose shallow search beats beta by a margin will do so at
            // full depth too.
            let probcut_beta = beta + PROBCUT_MARGIN;
            if pruning.probcut
                && depth >= PROBCUT_MIN_DEPTH
                && beta.abs() < MATE_BOUND
                && !entry.is_some_and(|e| {
                    e.depth >= depth - PROBCUT_REDUCTION
                        && tt_score.is_some_and(|s| s < probcut_beta)
                })
                && let Some(score) = self.probcut(pos, depth, probcut_beta, eval, ply, cut_node)
            {
                self.shared.tt.store(
                    hash,
                    Entry {
                        mv: Move::NULL,
                        score: score_to_tt(score, ply),
                        depth: depth - PROBCUT_REDUCTION + 1,
                        bound: Bound::Lower,
                    },
                );
                return score;
            }
        }

        // Internal iterative reduction: with no move from the table, a node on the PV or
        // expected to cut is searched a ply shallower (the next iteration finds it a move).
        if pruning.iir
            && !N::ROOT
            && depth >= IIR_MIN_DEPTH
            && tt_move.is_null()
            && (N::PV || cut_node)
        {
            depth -= 1;
        }

        let mut moves = MoveList::new();
        let mut scores = Scores::new();
        let ctx = pos.legality_context_knowing_check(in_check);
        let checks = pos.check_context();
        let before = self.before(ply);
        if !N::ROOT {
            pos.generate(&mut moves);
        }

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        let mut legal = 0usize;
        let mut quiets_tried: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        let mut captures_tried: arrayvec::ArrayVec<Move, 32> = arrayvec::ArrayVec::new();
        let mut skip_quiets = false;
        let tt_capture = !tt_move.is_null() && is_tactical(pos, tt_move);

        let mut picker =
            (!N::ROOT).then(|| MovePicker::hash_first(&mut moves, &mut scores, tt_move));
        let mut root_index = 0;
        loop {
            let m = match picker.as_mut() {
                Some(p) => {
                    let ordering = self.ordering(tt_move, ply, previous, before);
                    match p.next_scoring(|moves, scores| score_moves(pos, moves, scores, &ordering))
                    {
                        Some(m) => m,
                        None => break,
                    }
                }
                None => {
                    let Some(line) = self.root_lines.get(self.pv_index + root_index) else {
                        break;
                    };
                    root_index += 1;
                    line.mv
                }
            };
            if m == excluded || (!N::ROOT && !pos.is_legal(m, &ctx)) {
                continue;
            }
            legal += 1;
            let tactical = is_tactical(pos, m);
            // The position after the move is made here only if it may give check (to tell),
            // else once the move has survived pruning: most pruned moves are never made.
            let mut made = None;
            let gives_check = pos.may_give_check(m, &checks) && {
                let child = made.insert(pos.after(m));
                self.prefetch(child.hash());
                child.in_check()
            };
            let piece_to = PieceTo::of(pos, m);
            let stat = if tactical {
                0
            } else {
                self.data.histories.quiet_score(side, m, piece_to, before)
            };
            let base_reduction = self.reductions[(depth as usize).min(63)][legal.min(63)];

            // Pruning at shallow depth, once a move has kept the node from being mated, and
            // never while looking for a quicker mate than one already found.
            if !N::ROOT && best_score > -MATE_BOUND && alpha < MATE_BOUND && self.has_pieces(pos) {
                let lmr_depth = (depth - 1 - base_reduction).max(0);
                if tactical {
                    if pruning.losing_captures
                        && !gives_check
                        && depth <= SEE_PRUNING_MAX_DEPTH
                        && !see_ge(pos, m, -self.margins.see_capture_margin * depth)
                    {
                        continue;
                    }
                } else {
                    // Past the move count, only quiet moves that give check are still tried:
                    // a quiet mate must not be dropped with the rest.
                    if skip_quiets && !gives_check {
                        continue;
                    }
                    // Late-move pruning: the quiet moves this late in the order are dropped;
                    // twice as many are tried while the side to move is improving.
                    if pruning.move_count
                        && !in_check
                        && !gives_check
                        && depth <= LMP_MAX_DEPTH
                        && legal as i32
                            > self.late_move_counts[depth as usize][usize::from(improving)]
                    {
                        skip_quiets = true;
                        continue;
                    }
                    if !gives_check && !in_check {
                        // Futility: even a good quiet move will not lift this node to alpha.
                        if pruning.futility
                            && lmr_depth <= self.margins.futility_max_depth
                            && static_eval
                                + self.margins.futility_base
                                + self.margins.futility_margin * lmr_depth
                                <= alpha
                        {
                            continue;
                        }
                        if pruning.history_pruning
                            && lmr_depth <= HISTORY_PRUNING_MAX_DEPTH
                            && stat < -HISTORY_PRUNING_MARGIN * depth
                        {
                            continue;
                        }
                        // Both continuation histories against it: the moves that led here
                        // have answered this one well before.
                        if pruning.history_pruning
                            && lmr_depth <= self.margins.continuation_pruning_max_depth
                            && self.data.histories.continuation(before[0], piece_to) < 0
                            && self.data.histories.continuation(before[1], piece_to) < 0
                        {
                            continue;
                        }
                    }
                    // A quiet check is judged by the captures' rule, at full depth: the quiet
                    // margin is zero at the lowest depths and would drop a sacrifice that
                    // mates.
                    let see_margin = if gives_check {
                        self.margins.see_capture_margin * depth
                    } else {
                        SEE_QUIET_MARGIN * lmr_depth * lmr_depth
                    };
                    if pruning.history_pruning
                        && (if gives_check { depth } else { lmr_depth }) <= SEE_PRUNING_MAX_DEPTH
                        && !see_ge(pos, m, -see_margin)
                    {
                        continue;
                    }
                }
            }

            let child = made.unwrap_or_else(|| pos.after(m));
            if !gives_check {
                self.prefetch(child.hash());
            }

            // Extensions.
            let mut extension = 0;
            if !N::ROOT
                && pruning.singular
                && m == tt_move
                && excluded.is_null()
                && depth >= SINGULAR_MIN_DEPTH
                && let (Some(e), Some(score)) = (entry, tt_score)
                && e.bound != Bound::Upper
                && e.depth >= depth - SINGULAR_DEPTH_MARGIN
                && score.abs() < MATE_BOUND
            {
                // Is the table's move the only good one? Search the others at half depth
                // against a bound just below its score.
                let singular_beta = score - SINGULAR_MARGIN * depth / 8;
                self.stack[ply].excluded = m;
                let value = self.alphabeta::<NonPv>(
                    pos,
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    cut_node,
                );
                self.stack[ply].excluded = Move::NULL;
                if self.stopped {
                    return 0;
                }
                if value < singular_beta {
                    extension = 1;
                    if !N::PV
                        && value < singular_beta - SINGULAR_DOUBLE_MARGIN
                        && self.stack[ply].double_extensions < MAX_DOUBLE_EXTENSIONS
                    {
                        extension = 2;
                    }
                } else if singular_beta >= beta {
                    // Multi-cut: another move beats beta too.
                    return singular_beta;
                } else if score >= beta {
                    extension = -1;
                }
            } else if gives_check
                && (N::ROOT
                    || ply
                        < CHECK_EXTENSION_PLY_FACTOR * depth as usize + CHECK_EXTENSION_PLY_SLACK)
            {
                extension = 1;
            }
            self.stack[ply + 1].double_extensions =
                self.stack[ply].double_extensions + i32::from(extension >= 2);
            // The child's first layer and check, written after the singular test: its
            // search of this node's other moves writes the same slots.
            self.nnue_descend(pos, &child, ply);
            self.stack[ply + 1].check_seen = (child.hash(), gives_check);

            self.stack[ply].current_move = m;
            self.stack[ply].piece_to = Some(piece_to);
            self.stack[ply].current_tactical = tactical;
            self.path.push(child.hash());
            let mut new_depth = depth - 1 + extension;
            let score = if legal == 1 {
                if N::PV {
                    -self.alphabeta::<Pv>(&child, new_depth, -beta, -alpha, ply + 1, false)
                } else {
                    -self.alphabeta::<NonPv>(&child, new_depth, -beta, -alpha, ply + 1, !cut_node)
                }
            } else {
                let mut reduction = 0;
                if pruning.reductions
                    && depth >= LMR_MIN_DEPTH
                    && legal > 1 + usize::from(N::ROOT)
                    // A late capture is reduced as a quiet move is, except on the PV (measured in
                    // games: docs/search.md).
                    && (!tactical || !N::PV)
                {
                    reduction = base_reduction;
                    if N::PV {
                        reduction -= 1;
                    }
                    if cut_node {
                        reduction += 2;
                    }
                    if !improving {
                        reduction += 1;
                    }
                    if tt_capture {
                        reduction += 1;
                    }
                    if gives_check || in_check {
                        reduction -= 1;
                    }
                    if m == self.data.histories.killers[ply][0]
                        || m == self.data.histories.killers[ply][1]
                    {
                        reduction -= 1;
                    }
                    if self.stack[ply + 1].cutoffs > LMR_CUTOFFS {
                        reduction += 1;
                    }
                    reduction -= stat / LMR_HISTORY_DIVISOR;
                    reduction = reduction.clamp(0, (new_depth - 1).max(0));
                }
                let mut s = -self.alphabeta::<NonPv>(
                    &child,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                );
                if s > alpha && reduction > 0 && !self.stopped {
                    let reduced = new_depth - reduction;
                    new_depth = re_search_depth(new_depth, reduction, s, alpha, best_score);
                    if new_depth > reduced {
                        s = -self.alphabeta::<NonPv>(
                            &child,
                            new_depth,
                            -alpha - 1,
                            -alpha,
                            ply + 1,
                            !cut_node,
                        );
                    }
                }
                if N::PV && s > alpha && (N::ROOT || s < beta) && !self.stopped {
                    s = -self.alphabeta::<Pv>(&child, new_depth, -beta, -alpha, ply + 1, false);
                }
                s
            };
            self.path.pop();
            if self.stopped {
                return 0;
            }
            if N::ROOT {
                let i = self.pv_index + root_index - 1;
                self.root_lines[i].score = if score > alpha || root_index == 1 {
                    score
                } else {
                    -INFINITY
                };
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if N::PV {
                        self.update_pv(ply, m);
                    }
                    if N::ROOT {
                        let i = self.pv_index + root_index - 1;
                        self.improved_in_iteration |= self.pv_index == 0;
                        self.has_answer |= self.pv_index == 0;
                        self.root_lines[i].pv = self.stack[0].pv[..self.stack[0].pv_len].to_vec();
                        // Bring the new best move to the front of this block.
                        self.root_lines[self.pv_index..=i].rotate_right(1);
                    }
                    if score >= beta {
                        self.stack[ply].cutoffs += 1 + u32::from(tt_move.is_null());
                        self.reward_cutoff(
                            pos,
                            m,
                            tactical,
                            &quiets_tried,
                            &captures_tried,
                            depth,
                            ply,
                            previous,
                            before,
                        );
                        break;
                    }
                }
            }
            if m != best_move {
                if tactical {
                    let _ = captures_tried.try_push(m);
                } else {
                    let _ = quiets_tried.try_push(m);
                }
            }
        }

        if legal == 0 {
            return if !excluded.is_null() {
                alpha
            } else if in_check {
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
        if excluded.is_null() {
            // What this search found corrects the static evaluation of its pawn structure.
            if pruning.correction
                && !in_check
                && (best_move.is_null() || !is_tactical(pos, best_move))
                && !(bound == Bound::Lower && best_score <= static_eval)
                && !(bound == Bound::Upper && best_score >= static_eval)
                && best_score.abs() < MATE_BOUND
            {
                self.data
                    .histories
                    .update_correction(side, pawn_key, depth, raw_eval, best_score);
            }
            if !N::ROOT || self.pv_index == 0 {
                self.shared.tt.store(
                    hash,
                    Entry {
                        mv: best_move,
                        score: score_to_tt(best_score, ply),
                        depth,
                        bound,
                    },
                );
            }
        }
        best_score
    }

    /// The histories learn from a cut-off: the move that cut is rewarded, the moves tried
    /// before it are punished.
    #[allow(clippy::too_many_arguments)]
    fn reward_cutoff(
        &mut self,
        pos: &Position<B>,
        good: Move,
        tactical: bool,
        quiets: &[Move],
        captures: &[Move],
        depth: i32,
        ply: usize,
        previous: Move,
        before: [Option<PieceTo>; 2],
    ) {
        let side = pos.side();
        let bonus =
            (HISTORY_BONUS_PER_DEPTH * depth - HISTORY_BONUS_BASE).clamp(0, HISTORY_BONUS_MAX);
        let hist = &mut self.data.histories;
        if tactical {
            if let Some(victim) = victim_kind(pos, good) {
                hist.update_capture(PieceTo::of(pos, good), victim, bonus);
            }
        } else {
            hist.update_quiet(side, good, PieceTo::of(pos, good), before, bonus);
            hist.note_killer(ply, good, previous);
            for &m in quiets {
                hist.update_quiet(side, m, PieceTo::of(pos, m), before, -bonus);
            }
        }
        for &m in captures {
            if let Some(victim) = victim_kind(pos, m) {
                hist.update_capture(PieceTo::of(pos, m), victim, -bonus);
            }
        }
    }

    /// ProbCut's search: the captures that win enough by the static exchange, first in
    /// quiescence, then at reduced depth, against `probcut_beta`. The score when one beats it.
    fn probcut(
        &mut self,
        pos: &Position<B>,
        depth: i32,
        probcut_beta: i32,
        eval: i32,
        ply: usize,
        cut_node: bool,
    ) -> Option<i32> {
        let mut moves = MoveList::new();
        pos.generate_captures(&mut moves);
        let ctx = pos.legality_context_knowing_check(false);
        let mut drop_captures = DropCaptures::default();
        for &m in moves.iter() {
            if drop_captures.tried(m)
                || !see_ge(pos, m, probcut_beta - eval)
                || !pos.is_legal(m, &ctx)
            {
                continue;
            }
            drop_captures.note(m);
            let child = pos.after(m);
            self.nnue_descend(pos, &child, ply);
            self.stack[ply].current_move = m;
            self.stack[ply].piece_to = Some(PieceTo::of(pos, m));
            self.stack[ply].current_tactical = true;
            self.path.push(child.hash());
            let mut score =
                -self.quiescence::<NonPv>(&child, -probcut_beta, -probcut_beta + 1, ply + 1, 0, m);
            if score >= probcut_beta && !self.stopped {
                score = self.zero_window(
                    &child,
                    depth - PROBCUT_REDUCTION,
                    probcut_beta,
                    ply,
                    cut_node,
                );
            }
            self.path.pop();
            if self.stopped {
                return None;
            }
            if score >= probcut_beta {
                return Some(score);
            }
        }
        None
    }

    /// What the move ordering reads at this node: this thread's histories, the hash move,
    /// and the moves that led here.
    fn ordering(
        &self,
        hash_move: Move,
        ply: usize,
        previous: Move,
        before: [Option<PieceTo>; 2],
    ) -> OrderingContext<'_> {
        OrderingContext {
            histories: &self.data.histories,
            hash_move,
            ply,
            previous,
            before,
        }
    }

    /// A child's score from this node's side by a zero-window search: does it reach `beta`?
    /// The child is a cut node where this one is not.
    fn zero_window(
        &mut self,
        child: &Position<B>,
        depth: i32,
        beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        -self.alphabeta::<NonPv>(child, depth, -beta, -beta + 1, ply + 1, !cut_node)
    }

    /// `qply`: plies since quiescence began; `last`: the move that led here. Once the
    /// quiescence search below one horizon node has used `QS_NODE_BUDGET` nodes, only
    /// captures on the square of the last move are tried: in a crowded position (two armies,
    /// every piece en prise) the captures would otherwise chain into a tree no iteration ever
    /// finishes. An ordinary position's quiescence stays far below the budget, so its tree is
    /// the same as without it.
    fn quiescence<N: NodeType>(
        &mut self,
        pos: &Position<B>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
        last: Move,
    ) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.evaluate(pos, ply);
        }
        let hash = pos.hash();
        let entry = self.shared.tt.probe(hash);
        if !N::PV
            && let Some(e) = entry
        {
            let score = score_from_tt(e.score, ply);
            if e.bound.settles(score, alpha, beta) {
                return score;
            }
        }
        let in_check = self.in_check(pos, ply);
        let original_alpha = alpha;
        let mut best = -INFINITY;
        if !in_check {
            // Far outside the window, the cheap estimate decides as well as the full one
            // (when the hand-made evaluation is in use: asked for, `nnue` without a net, or
            // under a net that corrects it, whose output is added to the estimate).
            let stand_pat = match self.shared.options.eval_mode {
                EvalMode::Full | EvalMode::Nnue
                    if self.nnue.as_ref().is_none_or(|n| n.net.on_hce)
                        && self.shared.options.eval_terms == TermSet::ALL
                        && self.data.eval_cache.get(hash).is_none() =>
                {
                    // The net's part is asked once, for the estimate and the full evaluation.
                    let net = self.net_part(pos, ply);
                    let fast = evaluate_fast(pos, self.eval_tables) + net;
                    if fast - LAZY_MARGIN >= beta || fast + LAZY_MARGIN <= alpha {
                        fast
                    } else {
                        let raw = self.evaluate_with(pos, net);
                        self.corrected(pos, raw).1
                    }
                }
                _ => self.corrected_eval(pos, ply).1,
            };
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let hash_move = entry.map_or(Move::NULL, |e| e.mv);
        let ctx = pos.legality_context_knowing_check(in_check);
        let mut moves = MoveList::new();
        if in_check {
            pos.generate(&mut moves);
        } else {
            pos.generate_captures(&mut moves);
        }
        let mut scores = Scores::new();
        // Quiescence orders without the moves that led here (no counter or continuation
        // history).
        let ordering = self.ordering(hash_move, ply, Move::NULL, [None, None]);
        score_moves(pos, &moves, &mut scores, &ordering);
        let pruning = self.shared.options.pruning;
        let mut legal = 0;
        let mut best_move = Move::NULL;
        let mut drop_captures = DropCaptures::default();
        if qply == 0 {
            self.qs_budget = QS_NODE_BUDGET;
        }
        self.qs_budget = self.qs_budget.saturating_sub(1);
        let recaptures_only = self.qs_budget == 0 && !last.is_null();
        // Asked only of captures about to be pruned, and of quiet checks.
        let mut checks = None;
        for m in MovePicker::new(&mut moves, &mut scores) {
            if !in_check {
                if drop_captures.tried(m) || (recaptures_only && m.to() != last.to()) {
                    continue;
                }
                // Past the first captures, only a recapture, a promotion or a check: the
                // rest rarely change quiescence's answer and multiply its nodes.
                if pruning.losing_captures
                    && legal >= self.margins.qs_move_count
                    && m.to() != last.to()
                    && m.kind() != MoveKind::Promotion
                    && best > -MATE_BOUND
                    && !gives_check(pos, m, checks.get_or_insert_with(|| pos.check_context()))
                {
                    continue;
                }
                // Delta pruning: even winning this piece cannot lift us to alpha, unless the
                // capture checks (it may mate).
                let victim = captured_value(pos, m);
                let gain = victim + promotion_gain(pos, m);
                if best + gain + DELTA_MARGIN < alpha
                    && m.kind() != MoveKind::Promotion
                    && !gives_check(pos, m, checks.get_or_insert_with(|| pos.check_context()))
                {
                    continue;
                }
                // Last, as it asks who attacks the square.
                if pruning.losing_captures && !see_ge(pos, m, 0) {
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
            let child = pos.after(m);
            self.prefetch(child.hash());
            let score = self.quiescence_child::<N>(pos, &child, m, alpha, beta, ply, qply);
            if self.stopped {
                return 0;
            }
            if raise_best(score, m, &mut best, &mut alpha, &mut best_move, beta) {
                break;
            }
        }
        // Quiet checks, at the first ply only, when asked: a mate in one that the captures
        // alone would leave behind the horizon. Off by default: in games at equal nodes they
        // cost more depth than they found (sprt-118 against sprt-119); only below a null move,
        // they were neutral (sprt-130).
        if !in_check && qply == 0 && best < beta && pruning.quiet_checks && !self.stopped {
            let checks = checks.unwrap_or_else(|| pos.check_context());
            let mut quiet = MoveList::new();
            pos.generate_quiet_checks(&mut quiet, &checks);
            for &m in quiet.iter() {
                if is_tactical(pos, m) || !pos.is_legal(m, &ctx) || !see_ge(pos, m, 0) {
                    continue;
                }
                let child = pos.after(m);
                if !child.in_check() {
                    continue;
                }
                let score = self.quiescence_child::<N>(pos, &child, m, alpha, beta, ply, qply);
                if self.stopped {
                    return 0;
                }
                if raise_best(score, m, &mut best, &mut alpha, &mut best_move, beta) {
                    break;
                }
            }
        }
        if in_check && legal == 0 {
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha && N::PV {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            hash,
            Entry {
                mv: best_move,
                score: score_to_tt(best, ply),
                depth: 0,
                bound,
            },
        );
        best
    }

    /// The score of quiescence's child `child`, reached by `m`, from this node's side.
    #[allow(clippy::too_many_arguments)]
    fn quiescence_child<N: NodeType>(
        &mut self,
        pos: &Position<B>,
        child: &Position<B>,
        m: Move,
        alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
    ) -> i32 {
        self.nnue_descend(pos, child, ply);
        self.path.push(child.hash());
        let score = -self.quiescence::<N>(child, -beta, -alpha, ply + 1, qply + 1, m);
        self.path.pop();
        score
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

/// How the main thread's iterations went, for how long to think: the best move's stability
/// and the score's fall.
#[derive(Default)]
struct TimeUse {
    best: Move,
    /// Iterations in a row that kept the best move.
    stable: usize,
    last_score: Option<i32>,
    /// How far the score fell in the last iteration, in centipawns.
    fall: i32,
}

impl TimeUse {
    fn iteration_done(&mut self, best: Move, score: i32) {
        self.stable = if best == self.best {
            self.stable + 1
        } else {
            0
        };
        self.best = best;
        self.fall = self.last_score.map_or(0, |last| (last - score).max(0));
        self.last_score = Some(score);
    }

    /// The share of the planned time to use: up to TIME_UNSTABLE when the best move has just
    /// changed, down to TIME_STABLE when it has held; up to TIME_FALLING more when the score
    /// fell by TIME_FALL_SCALE or more.
    fn factor(&self) -> f64 {
        let steps = self.stable.min(TIME_STABILITY_STEPS) as f64 / TIME_STABILITY_STEPS as f64;
        let stability = TIME_UNSTABLE + (TIME_STABLE - TIME_UNSTABLE) * steps;
        let fall = (self.fall as f64 / TIME_FALL_SCALE).min(1.0) * TIME_FALLING;
        stability * (1.0 + fall)
    }
}

/// The depth to search a late move again at, once its reduced search (by `reduction` plies
/// from `new_depth`) scored `score` above `alpha`: a ply deeper if it beat alpha by far, a
/// ply shallower if it barely beat the node's best so far. The caller searches again only
/// at a depth greater than the reduced search's.
/// Quiescence's bookkeeping after a child's `score`: the best so far, alpha and the best move
/// raised by it. Whether it cuts off.
fn raise_best(
    score: i32,
    m: Move,
    best: &mut i32,
    alpha: &mut i32,
    best_move: &mut Move,
    beta: i32,
) -> bool {
    if score > *best {
        *best = score;
        if score > *alpha {
            *best_move = m;
            *alpha = score;
        }
    }
    score >= beta
}

/// No sequence of legal moves can mate: a draw, decided where the referee decides it. Only
/// positions without pawns are asked (a pawn can always promote).
fn is_dead<B: Bitboard>(pos: &Position<B>) -> bool {
    let layout = pos.layout();
    layout.pawn.is_none_or(|p| pos.kind_bb(p).is_empty())
        && crate::game::outcome::insufficient_material(pos)
}

/// Whether `m` checks: the look-ups clear most moves, the position after tells the rest.
fn gives_check<B: Bitboard>(pos: &Position<B>, m: Move, checks: &CheckContext<B>) -> bool {
    pos.may_give_check(m, checks) && pos.after(m).in_check()
}

fn re_search_depth(new_depth: i32, reduction: i32, score: i32, alpha: i32, best: i32) -> i32 {
    if score > alpha + LMR_DEEPER_BASE + LMR_DEEPER_MARGIN * reduction {
        new_depth + 1
    } else if score < best + new_depth {
        new_depth - 1
    } else {
        new_depth
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::see::tests::{mv, position, start};

    /// A search's shared state with no limit, on `tt` and `control`.
    fn unlimited<'a>(
        tt: &'a crate::search::tt::TranspositionTable,
        control: &'a super::super::SearchControl,
    ) -> Shared<'a> {
        let (forever, now) = (Duration::MAX, Duration::ZERO);
        super::super::tests::shared(tt, control, Default::default(), forever, now)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// A clock that saw the same best move in `iterations` iterations with an unchanged score.
    fn held(iterations: usize) -> TimeUse {
        let mut clock = TimeUse::default();
        let best = Move::from_bits(1).expect("a move");
        for _ in 0..iterations {
            clock.iteration_done(best, 20);
        }
        clock
    }

    #[test]
    fn time_use_falls_from_unstable_to_stable_as_the_best_move_holds() {
        // The first iteration finds a best move where there was none: a change.
        assert!(close(held(1).factor(), TIME_UNSTABLE));
        // Halfway through the steps, halfway between; at the end and beyond, stable.
        let half = held(1 + TIME_STABILITY_STEPS / 2).factor();
        assert!(close(half, (TIME_UNSTABLE + TIME_STABLE) / 2.0), "{half}");
        assert!(close(held(1 + TIME_STABILITY_STEPS).factor(), TIME_STABLE));
        assert!(close(held(5 + TIME_STABILITY_STEPS).factor(), TIME_STABLE));
        // A new best move starts over.
        let mut clock = held(1 + TIME_STABILITY_STEPS);
        clock.iteration_done(Move::from_bits(2).expect("a move"), 20);
        assert_eq!(clock.stable, 0);
        assert!(close(clock.factor(), TIME_UNSTABLE));
    }

    #[test]
    fn time_use_grows_with_a_falling_score_up_to_its_cap() {
        let best = Move::from_bits(1).expect("a move");
        let mut clock = held(1 + TIME_STABILITY_STEPS);
        // Half the fall scale: half the extra time.
        clock.iteration_done(best, 20 - (TIME_FALL_SCALE / 2.0) as i32);
        assert_eq!(clock.fall, (TIME_FALL_SCALE / 2.0) as i32);
        let expected = TIME_STABLE * (1.0 + TIME_FALLING / 2.0);
        assert!(close(clock.factor(), expected), "{}", clock.factor());
        // Three times the scale: the whole extra time and no more.
        clock.iteration_done(best, -10 - 3 * TIME_FALL_SCALE as i32);
        assert!(close(clock.factor(), TIME_STABLE * (1.0 + TIME_FALLING)));
        // A rising score is no fall.
        clock.iteration_done(best, 500);
        assert_eq!(clock.fall, 0);
        assert!(close(clock.factor(), TIME_STABLE));
    }

    #[test]
    fn helpers_spread_over_neighbouring_depths() {
        // The first helper starts a ply ahead of the main thread and takes every other
        // depth; the second takes the depths the first leaves out.
        for depth in 1..40 {
            assert_eq!(
                skips_depth(1, depth),
                depth % 2 == 1,
                "helper 1, depth {depth}"
            );
            assert_eq!(
                skips_depth(2, depth),
                depth % 2 == 0,
                "helper 2, depth {depth}"
            );
        }
        // Every helper both searches and leaves out some depth of any six in a row, and
        // at every depth some helper of the first eight searches and some leaves it out.
        for id in 1..=16 {
            for start in 1..30 {
                let skipped = (start..start + 6).filter(|&d| skips_depth(id, d)).count();
                assert!((1..6).contains(&skipped), "helper {id} from depth {start}");
            }
        }
        for depth in 1..40 {
            let searching = (1..=8).filter(|&id| !skips_depth(id, depth)).count();
            assert!(
                (1..8).contains(&searching),
                "depth {depth}: {searching} helpers"
            );
        }
    }

    #[test]
    fn mate_scores_are_stored_from_the_node_and_read_back_from_the_root() {
        // Mate in 10 plies from the root, found at ply 4: 6 plies from the node.
        assert_eq!(score_to_tt(MATE - 10, 4), MATE - 6);
        assert_eq!(score_to_tt(-MATE + 10, 4), -MATE + 6);
        // Read at ply 7, the same entry is mate 13 plies from the root.
        assert_eq!(score_from_tt(MATE - 6, 7), MATE - 13);
        assert_eq!(score_from_tt(-MATE + 6, 7), -MATE + 13);
        // Other scores pass unchanged.
        for score in [-MATE_BOUND + 1, -250, 0, 250, MATE_BOUND - 1] {
            assert_eq!(score_to_tt(score, 9), score);
            assert_eq!(score_from_tt(score, 9), score);
        }
    }

    /// Chess with its own stalemate rule, as a variant file could give it, at `fen` (or the
    /// start).
    fn chess_where_stalemate_is(outcome: &str, fen: Option<&str>) -> Position<u64> {
        let text = include_str!("../../variants/chess.toml").replace(
            "stalemate = \"draw\"",
            &format!("stalemate = \"{outcome}\""),
        );
        let variant = crate::variant::parse_variant(&text, "chess.toml").expect("sound");
        let variant: &'static _ = Box::leak(Box::new(variant));
        match crate::game::AnyPosition::from_fen(variant, fen).expect("sound") {
            crate::game::AnyPosition::Small(pos) => pos,
            crate::game::AnyPosition::Large(_) => unreachable!("8x8"),
        }
    }

    /// A stalemate at ply 3 scores as the variant says: a draw (less the bonus the options
    /// give it), or a loss or a win in 3 plies for the side stalemated.
    #[test]
    fn a_stalemate_scores_as_the_variant_says() {
        let tt = crate::search::tt::TranspositionTable::with_buckets(1);
        let control = super::super::SearchControl::default();
        let mut state = unlimited(&tt, &control);
        state.options.stalemate_bonus = 7;
        for (outcome, score) in [("draw", -7), ("loss", 3 - MATE), ("win", MATE - 3)] {
            let pos = chess_where_stalemate_is(outcome, None);
            let mut data = ThreadData::default();
            let worker = Worker::new(0, &state, &mut data, &pos, &[]);
            assert_eq!(worker.stalemate_score(&pos, 3), score, "{outcome}");
        }
    }

    /// Each thread publishes its nodes and looks at the stop conditions once every
    /// CHECK_EVERY nodes; the clock stops the main thread alone.
    #[test]
    fn the_clock_is_read_every_so_often_by_the_main_thread() {
        use super::super::tests::shared;
        let tt = crate::search::tt::TranspositionTable::with_buckets(1);
        let control = super::super::SearchControl::default();
        let second = Duration::from_secs(1);
        let state = shared(&tt, &control, Default::default(), second / 10, second);
        let pos = start("chess");
        for id in [0, 1] {
            let mut data = ThreadData::default();
            let mut worker = Worker::new(id, &state, &mut data, &pos, &[]);
            // The main thread as it is once it has a searched move to answer with.
            worker.has_answer = true;
            for _ in 1..CHECK_EVERY {
                worker.count_node();
            }
            assert!(!worker.stopped, "thread {id} looked too early");
            worker.count_node();
            assert_eq!(worker.stopped, id == 0, "thread {id}");
            let published = state.nodes.load(Ordering::Relaxed);
            assert_eq!(published, CHECK_EVERY * (id as u64 + 1));
        }
    }

    /// Before it has a searched move, the main thread goes on past its clock and its node
    /// limit; `stop` still ends it.
    #[test]
    fn the_main_thread_stops_at_a_limit_only_with_a_searched_move() {
        use super::super::tests::shared;
        let tt = crate::search::tt::TranspositionTable::with_buckets(1);
        let second = Duration::from_secs(1);
        let pos = start("chess");
        let control = super::super::SearchControl::default();
        let late = shared(&tt, &control, Default::default(), second / 10, second);
        let mut data = ThreadData::default();
        let mut worker = Worker::new(0, &late, &mut data, &pos, &[]);
        for _ in 0..2 * CHECK_EVERY {
            worker.count_node();
        }
        assert!(
            !worker.stopped,
            "stopped by the clock without a searched move"
        );
        worker.has_answer = true;
        for _ in 0..CHECK_EVERY {
            worker.count_node();
        }
        assert!(worker.stopped, "the clock is past and a move was searched");

        let stopped = super::super::SearchControl::default();
        stopped.stop();
        let asked = shared(&tt, &stopped, Default::default(), 3600 * second, second);
        let mut data = ThreadData::default();
        let mut worker = Worker::new(0, &asked, &mut data, &pos, &[]);
        for _ in 0..CHECK_EVERY {
            worker.count_node();
        }
        assert!(worker.stopped, "stop ends the search at once");
    }

    /// Without a node limit the stop conditions are looked at every CHECK_EVERY nodes; under
    /// one, every thousandth of it, at least every node and at most every CHECK_EVERY.
    #[test]
    fn a_node_limit_sets_how_often_the_count_is_looked_at() {
        assert_eq!(check_interval(None), CHECK_EVERY);
        assert_eq!(check_interval(Some(3_000)), 3);
        assert_eq!(check_interval(Some(123_456)), 123);
        assert_eq!(check_interval(Some(999)), 1);
        assert_eq!(check_interval(Some(1 << 40)), CHECK_EVERY);
    }

    /// The move that reaches the limit draws (unless it mates); one short of it, nothing.
    #[test]
    fn the_fifty_move_rule_draws_at_the_limit_itself() {
        let tt = crate::search::tt::TranspositionTable::with_buckets(1);
        let control = super::super::SearchControl::default();
        let state = unlimited(&tt, &control);
        let at = |clock: u32| position("chess", &format!("4k3/8/8/8/8/8/8/R3K3 w - - {clock} 80"));
        let (short, reached) = (at(99), at(100));
        let mut data = ThreadData::default();
        let worker = Worker::new(0, &state, &mut data, &reached, &[]);
        assert_eq!(worker.fifty_move_score(&short, 2), None);
        assert_eq!(worker.fifty_move_score(&reached, 2), Some(0));
    }

    /// At the limit, a position without a move is still mate or stalemate: the move that
    /// reached the limit ended the game first. The stalemate scores as the variant says.
    #[test]
    fn mate_and_stalemate_at_the_fifty_move_limit_score_as_themselves() {
        let tt = crate::search::tt::TranspositionTable::with_buckets(1);
        let control = super::super::SearchControl::default();
        let mut state = unlimited(&tt, &control);
        state.options.stalemate_bonus = 7;
        let mated = position("chess", "R6k/8/6K1/8/8/8/8/8 b - - 100 80");
        let mut data = ThreadData::default();
        let worker = Worker::new(0, &state, &mut data, &mated, &[]);
        assert_eq!(worker.fifty_move_score(&mated, 5), Some(5 - MATE));
        let stalemated = "7k/5Q2/6K1/8/8/8/8/8 b - - 100 80";
        for (outcome, score) in [("draw", -7), ("loss", 5 - MATE), ("win", MATE - 5)] {
            let pos = chess_where_stalemate_is(outcome, Some(stalemated));
            let mut data = ThreadData::default();
            let worker = Worker::new(0, &state, &mut data, &pos, &[]);
            assert_eq!(worker.fifty_move_score(&pos, 5), Some(score), "{outcome}");
        }
    }

    /// A table entry that cuts a node off with a quiet move teaches the histories and the
    /// killers that move, as a searched cut-off would.
    #[test]
    fn a_quiet_table_move_that_cuts_off_is_rewarded() {
        let tt = crate::search::tt::TranspositionTable::with_buckets(1024);
        let control = super::super::SearchControl::default();
        let state = unlimited(&tt, &control);
        let pos = position("chess", "4k3/8/8/8/8/8/P7/R3K3 w - - 0 1");
        let (quiet, other) = (mv(&pos, "a1d1"), mv(&pos, "a2a3"));
        for (bound, score, rewarded) in [(Bound::Lower, 300, true), (Bound::Upper, -300, false)] {
            tt.clear();
            tt.store(
                pos.hash(),
                Entry {
                    mv: quiet,
                    score,
                    depth: 6,
                    bound,
                },
            );
            let mut data = ThreadData::default();
            let mut worker = Worker::new(0, &state, &mut data, &pos, &[]);
            let side = pos.side();
            let before = worker.data.histories.butterfly(side, quiet);
            let returned = worker.alphabeta::<NonPv>(&pos, 4, -1, 0, 1, false);
            assert_eq!(
                returned, score,
                "the entry settles the node ({bound:?} {score})"
            );
            let after = worker.data.histories.butterfly(side, quiet);
            assert_eq!(
                after > before,
                rewarded,
                "{bound:?} {score}: {before} -> {after}"
            );
            assert_eq!(
                worker.data.histories.killers[1][0] == quiet,
                rewarded,
                "the killer slot"
            );
            assert_eq!(
                worker.data.histories.butterfly(side, other),
                0,
                "another move"
            );
        }
    }

    /// Stopped after a new root move failed high, the search answers with that move.
    #[test]
    fn a_new_best_move_counts_though_its_iteration_is_stopped() {
        // The first report of a root move failing high where another was best stops the
        // search at its next node: the answer is that move, at the depth completed before.
        let tt = crate::search::tt::TranspositionTable::with_buckets(1 << 14);
        let control = super::super::SearchControl::default();
        let limits = super::super::time::Limits::depth(12);
        let state =
            super::super::tests::shared(&tt, &control, limits, Duration::MAX, Duration::ZERO);
        let pos = position(
            "chess",
            "r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - 0 1",
        );
        let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
        let completed: std::sync::Mutex<Vec<(i32, Move)>> = Default::default();
        let switched: std::sync::Mutex<Option<(i32, Move)>> = Default::default();
        let report = |r: &Report| {
            let mut completed = completed.lock().unwrap();
            match r.bound {
                None => completed.push((r.depth, r.pv[0])),
                Some(true) if completed.last().is_some_and(|&(_, best)| best != r.pv[0]) => {
                    *switched.lock().unwrap() = Some((r.depth, r.pv[0]));
                    state.stop.store(true, Ordering::Relaxed);
                }
                Some(_) => {}
            }
        };
        let mut data = ThreadData::default();
        let mut worker = Worker::new(0, &state, &mut data, &pos, &[]);
        worker.check_every = 1;
        let result = worker.iterate(&pos, &legal, Role::Main, &report);
        let (depth, new_best) = switched
            .lock()
            .unwrap()
            .expect("a new move failed high within the search");
        assert_ne!(completed.lock().unwrap().last().unwrap().1, new_best);
        assert_eq!(result.best, new_best);
        assert_eq!(result.depth, depth - 1);
    }

    /// Searched with its variant's built-in net to a depth where the singular test runs (it
    /// searches the other moves of a node before the table's move is searched), every
    /// evaluation of the bench's positions finds the first layer of its own position
    /// (`audit_first_layer` checks each one).
    #[test]
    fn the_net_evaluates_every_node_from_its_own_first_layer() {
        use super::super::tests::shared;
        let registry = crate::variant::Registry::builtin();
        let mut variants = std::collections::BTreeSet::new();
        for &(variant, fen) in super::super::bench::POSITIONS {
            if crate::eval::nnue::builtin::net(variant).is_none() {
                continue;
            }
            variants.insert(variant);
            let fen = (fen != "startpos").then_some(fen);
            let any = crate::game::AnyPosition::from_fen(registry.get(variant).unwrap(), fen)
                .expect("a bench position");
            crate::with_position!(&any, pos => {
                assert!(Worker::nnue_for(&Default::default(), pos).is_some(), "{variant}");
                let tt = crate::search::tt::TranspositionTable::with_buckets(1 << 14);
                let control = super::super::SearchControl::default();
                let limits = super::super::time::Limits::depth(SINGULAR_MIN_DEPTH + 3);
                let state = shared(&tt, &control, limits, Duration::MAX, Duration::ZERO);
                assert!(state.options.pruning.singular);
                let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
                let mut data = ThreadData::default();
                let mut worker = Worker::new(0, &state, &mut data, pos, &[]);
                let result = worker.iterate(pos, &legal, Role::Main, &|_| {});
                assert_eq!(result.depth, SINGULAR_MIN_DEPTH + 3, "{variant} {fen:?}");
            });
        }
        assert_eq!(variants.len(), 6, "the variants with a net: {variants:?}");
    }

    /// A weakened engine evaluates by hand, as its levels were calibrated; at full strength
    /// (a skill level of 20 included) the variant's built-in net serves.
    #[test]
    fn a_weakened_engine_plays_without_the_net() {
        let pos = start("chess");
        for (skill, with_net) in [(None, true), (Some(20.0), true), (Some(4.0), false)] {
            let options = super::super::SearchOptions {
                skill,
                ..Default::default()
            };
            assert_eq!(
                Worker::nnue_for(&options, &pos).is_some(),
                with_net,
                "skill {skill:?}"
            );
        }
    }

    /// A helper ends on the last depth it does not skip: helper 1 leaves out odd depths,
    /// helper 2 even ones.
    #[test]
    fn a_helper_searches_up_to_the_limit_skipping_its_depths() {
        use super::super::tests::shared;
        let tt = crate::search::tt::TranspositionTable::with_buckets(1024);
        let control = super::super::SearchControl::default();
        let limits = super::super::time::Limits::depth(5);
        let state = shared(&tt, &control, limits, Duration::MAX, Duration::ZERO);
        let pos = start("chess");
        let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
        for (id, last) in [(1, 4), (2, 5)] {
            let mut data = ThreadData::default();
            let mut worker = Worker::new(id, &state, &mut data, &pos, &[]);
            let result = worker.iterate(&pos, &legal, Role::Helper, &|_| {});
            assert_eq!(result.depth, last, "helper {id}");
        }
    }

    /// On a clock no iteration starts after six tenths of the planned time (the soft limit
    /// times the factor), nor after the hard limit; a fixed time per move is used to its end;
    /// pondering and infinite searches go on; a mate within the distance asked for ends it.
    #[test]
    fn iterations_end_when_the_next_would_not_end_in_time() {
        use super::super::tests::shared;
        use super::super::time::{Budget, Limits};
        use super::super::{SearchControl, SearchResult};
        let tt = crate::search::tt::TranspositionTable::with_buckets(1);
        let pos = start("chess");
        let ms = Duration::from_millis;
        let result = |score| SearchResult {
            best: Move::NULL,
            ponder: None,
            score,
            depth: 5,
            nodes: 0,
        };
        let done = |limits: &Limits, ponder: bool, elapsed: u64, factor: f64, score: Score| {
            let control = SearchControl::new(ponder);
            let mut state = shared(&tt, &control, limits.clone(), ms(4000), ms(elapsed));
            state.budget = Budget {
                soft: ms(1000),
                hard: ms(4000),
            };
            let mut data = ThreadData::default();
            let worker = Worker::new(0, &state, &mut data, &pos, &[]);
            worker.iterations_done(&result(score), factor)
        };
        let clock = Limits {
            time_left: Some(ms(60_000)),
            ..Limits::default()
        };
        let fixed = Limits {
            movetime: Some(ms(4000)),
            ..Limits::default()
        };
        let infinite = Limits {
            infinite: true,
            ..clock.clone()
        };
        let mate = Limits {
            mate_in: Some(3),
            ..Limits::default()
        };
        let level = Score::Centipawns(0);
        // (limits, pondering, elapsed ms, time factor, score, done)
        let cases = [
            (&clock, false, 500, 1.0, level, false),
            (&clock, false, 700, 1.0, level, true),
            (&clock, false, 1100, 2.0, level, false),
            (&clock, false, 1300, 2.0, level, true),
            (&clock, false, 350, 0.5, level, true),
            (&clock, false, 4100, 10.0, level, true),
            (&fixed, false, 3900, 1.0, level, false),
            (&fixed, false, 4100, 1.0, level, true),
            (&clock, true, 3000, 1.0, level, false),
            (&infinite, false, 3000, 1.0, level, false),
            (&mate, false, 0, 1.0, Score::Mate(3), true),
            (&mate, false, 0, 1.0, Score::Mate(4), false),
            (&mate, false, 0, 1.0, Score::Mate(-2), false),
        ];
        for (limits, ponder, elapsed, factor, score, expected) in cases {
            assert_eq!(
                done(limits, ponder, elapsed, factor, score),
                expected,
                "{limits:?}, pondering {ponder}, {elapsed} ms, factor {factor}, {score:?}"
            );
        }
    }

    /// The correction history moves the static evaluation by what searches found in
    /// positions with the same pawns: up where they found more, down where they found less.
    #[test]
    fn the_correction_history_moves_the_evaluation_its_way() {
        let tt = crate::search::tt::TranspositionTable::with_buckets(1);
        let control = super::super::SearchControl::default();
        let state = unlimited(&tt, &control);
        let pos = position("chess", "4k3/pp6/8/8/8/8/5PPP/4K3 w - - 0 1");
        let key = pawn_key(&pos);
        for found in [400, -400] {
            let mut data = ThreadData::default();
            data.histories.fit(&pos);
            data.histories
                .update_correction(pos.side(), key, 15, 0, found);
            let correction = data.histories.correction(pos.side(), key);
            assert_eq!(correction.signum(), found.signum(), "found {found}");
            let mut worker = Worker::new(0, &state, &mut data, &pos, &[]);
            let (raw, corrected, looked_up) = worker.corrected_eval(&pos, 0);
            assert_eq!(looked_up, key);
            assert_ne!(raw, 0, "a position the evaluation does not call level");
            assert_eq!(corrected, raw + correction, "found {found}");
        }
    }

    /// Magi's starting position, on the 128-bit board its 10x10 squares need.
    fn magi_start() -> Position<u128> {
        use crate::game::AnyPosition;
        let magi = crate::variant::Registry::builtin().get("magi").unwrap();
        let AnyPosition::Large(pos) = AnyPosition::from_fen(magi, None).unwrap() else {
            unreachable!("Magi's 10x10 board needs 128 bits")
        };
        pos
    }

    /// On Magi's board a quiet move learns from the static evaluation's change at the node it
    /// leads to: rewarded when it raised its side's evaluation, punished when it lowered it,
    /// by `EVAL_HISTORY_FACTOR` a centipawn up to `EVAL_HISTORY_MAX`; not after a capture or
    /// from a position in check, and never on chess's board.
    #[test]
    fn quiet_moves_learn_from_the_evaluation_on_magis_board_only() {
        fn learned<B: Bitboard>(
            pos: &Position<B>,
            parent_eval: i32,
            child_eval: i32,
            tactical: bool,
        ) -> i32 {
            let tt = crate::search::tt::TranspositionTable::with_buckets(1);
            let control = super::super::SearchControl::default();
            let state = unlimited(&tt, &control);
            let mut data = ThreadData::default();
            let mut worker = Worker::new(0, &state, &mut data, pos, &[]);
            let m = pos.legal_moves().into_iter().next().expect("a move");
            worker.stack[0].current_move = m;
            worker.stack[0].current_tactical = tactical;
            worker.stack[0].static_eval = parent_eval;
            worker.learn_from_eval(1, !pos.side(), child_eval);
            worker.data.histories.butterfly(pos.side(), m)
        }
        let magi = magi_start();
        // The mover stood at +0.5; after its move the opponent stands at -1.5: 100 gained.
        assert_eq!(learned(&magi, 50, -150, false), EVAL_HISTORY_MAX);
        assert_eq!(learned(&magi, 50, -60, false), 10 * EVAL_HISTORY_FACTOR);
        assert_eq!(learned(&magi, 50, 150, false), -EVAL_HISTORY_MAX);
        assert_eq!(learned(&magi, 50, -50, false), 0);
        assert_eq!(learned(&magi, 50, -150, true), 0, "a capture");
        assert_eq!(learned(&magi, -INFINITY, -150, false), 0, "from check");
        assert_eq!(learned(&start("chess"), 50, -150, false), 0, "chess");
    }

    /// Late-move pruning tries chess's counts on a board of 64 squares or fewer, and more
    /// quiet moves, in proportion to the area, on Magi's 100 squares.
    #[test]
    fn late_move_counts_grow_with_the_board_area() {
        let tt = crate::search::tt::TranspositionTable::with_buckets(1);
        let control = super::super::SearchControl::default();
        let state = unlimited(&tt, &control);
        let chess_rule = |d: i32, improving: i32| (LMP_BASE + d * d) * (1 + improving);
        for variant in ["chess", "magician-chess"] {
            let pos = start(variant);
            let mut data = ThreadData::default();
            let worker = Worker::new(0, &state, &mut data, &pos, &[]);
            for d in 1..=LMP_MAX_DEPTH {
                for improving in 0..2 {
                    let count = worker.late_move_counts[d as usize][improving as usize];
                    assert_eq!(count, chess_rule(d, improving), "{variant} depth {d}");
                }
            }
        }
        let pos = magi_start();
        let mut data = ThreadData::default();
        let worker = Worker::new(0, &state, &mut data, &pos, &[]);
        for d in 1..=LMP_MAX_DEPTH {
            for improving in 0..2 {
                let count = worker.late_move_counts[d as usize][improving as usize];
                assert_eq!(count, chess_rule(d, improving) * 100 / 64, "magi depth {d}");
            }
        }
    }

    /// A reduced search that beats alpha by far is searched again a ply deeper than planned;
    /// one that barely beats the best score so far, a ply shallower; else at the planned
    /// depth.
    #[test]
    fn a_late_move_is_searched_again_deeper_or_shallower_by_its_margin() {
        let (new_depth, reduction, alpha) = (10, 3, 50);
        let far = alpha + LMR_DEEPER_BASE + LMR_DEEPER_MARGIN * reduction;
        assert_eq!(
            re_search_depth(new_depth, reduction, far + 1, alpha, alpha),
            11
        );
        assert_eq!(re_search_depth(new_depth, reduction, far, alpha, alpha), 10);
        // The same margin over alpha, a ply less reduced, is far.
        assert_eq!(
            re_search_depth(new_depth, reduction - 1, far, alpha, alpha),
            11
        );
        // Barely above the best so far (which is alpha or below it at a zero window).
        assert_eq!(
            re_search_depth(new_depth, reduction, alpha + 1, alpha, alpha),
            9
        );
        assert_eq!(
            re_search_depth(new_depth, reduction, alpha + 1, alpha, alpha - 20),
            10
        );
    }

    /// A late move's reduction is read from chess's table on a board of 64 squares or
    /// fewer, and as if the move came later in the order, in proportion to the area, on
    /// Magi's 100 squares: never less than chess's, and a ply more at depth 20, move 20.
    #[test]
    fn late_move_reductions_grow_with_the_board_area() {
        let tt = crate::search::tt::TranspositionTable::with_buckets(1);
        let control = super::super::SearchControl::default();
        let state = unlimited(&tt, &control);
        let table =
            |d: usize, place: f64| (LMR_BASE + (d as f64).ln() * place.ln() / LMR_DIVISOR) as i32;
        let pos = start("chess");
        let mut data = ThreadData::default();
        let chess = Worker::new(0, &state, &mut data, &pos, &[]).reductions;
        assert_eq!(chess[20][20], 4);
        let pos = magi_start();
        let mut data = ThreadData::default();
        let magi = Worker::new(0, &state, &mut data, &pos, &[]).reductions;
        assert_eq!(magi[20][20], 5);
        for d in 1..64 {
            for m in 1..64 {
                assert_eq!(chess[d][m], table(d, m as f64), "chess depth {d} move {m}");
                assert_eq!(
                    magi[d][m],
                    table(d, m as f64 * 100.0 / 64.0),
                    "magi {d} {m}"
                );
                assert!(magi[d][m] >= chess[d][m], "magi depth {d} move {m}");
            }
        }
    }
}
