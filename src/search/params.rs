//! Every number the search decides by, named in one place, so that a reader finds them and a
//! tuner can reach them.
//!
//! Glossary:
//! - **depth**: plies left to search at a node; quiescence below 1.
//! - **ply**: distance from the root.
//! - **margin**: a score distance in centipawns, usually times the depth left.
//! - **reduction**: plies taken off a move's search depth because it is unlikely to matter;
//!   a move that beats alpha anyway is searched again at full depth.
//! - **pruning**: a move or node left out altogether.
//! - **PV node**: a node searched with an open window (alpha + 1 < beta); **cut node**: a
//!   node expected to fail high; **all node**: one expected to fail low.

// --- Iterative deepening and aspiration windows (`aspiration.rs`) ---

/// Below this depth an iteration searches the whole window.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// The first half-width of the window around the last iteration's score.
pub const ASPIRATION_DELTA: i32 = 15;
/// Past this half-width the window opens fully.
pub const ASPIRATION_GIVE_UP: i32 = 1000;

// --- Node pruning ---

/// Razoring: at this depth or less, a non-PV node whose evaluation stays below alpha by
/// `MARGIN + DEPTH_MARGIN · depth²` asks quiescence whether a capture saves it.
pub const RAZOR_MAX_DEPTH: i32 = 3;
pub const RAZOR_MARGIN: i32 = 450;
pub const RAZOR_DEPTH_MARGIN: i32 = 300;

/// Reverse futility: a non-PV node this shallow whose evaluation beats beta by this margin
/// per ply of depth (a ply less while improving) returns at once.
pub const RFP_MAX_DEPTH: i32 = 8;
pub const RFP_MARGIN: i32 = 80;

/// Null move: the least depth it is tried at; the static evaluation must stand above
/// `beta - Margins::nmp_eval_margin · depth + Margins::nmp_eval_base`; its reduction is
/// `BASE + depth / DIVISOR + min((eval - beta) / Margins::nmp_eval_divisor, EVAL_MAX)`.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 4;
pub const NMP_DEPTH_DIVISOR: i32 = 3;
pub const NMP_EVAL_MAX: i32 = 3;

/// ProbCut: from this depth, captures are tried against `beta + MARGIN` at `depth - REDUCTION`.
pub const PROBCUT_MIN_DEPTH: i32 = 5;
pub const PROBCUT_MARGIN: i32 = 200;
pub const PROBCUT_REDUCTION: i32 = 4;

/// Internal iterative reductions: from this depth, a node with no move from the table.
pub const IIR_MIN_DEPTH: i32 = 4;

// --- Move pruning (the depth is the move's depth after its expected reduction) ---

/// The board area (squares) late-move pruning and reductions are set for; on a larger board
/// both scale with its squares over this.
pub const BASE_AREA: i32 = 64;

/// Late-move pruning: at this depth or less, quiet moves after the first `BASE + depth²`
/// (twice as many while improving), over `Margins::lmp_divisor`, times the board's squares
/// over `BASE_AREA` on a larger board, are not searched.
pub const LMP_MAX_DEPTH: i32 = 6;
pub const LMP_BASE: i32 = 3;

/// History pruning: a quiet move whose histories sum below `-MARGIN · depth`.
pub const HISTORY_PRUNING_MAX_DEPTH: i32 = 3;
pub const HISTORY_PRUNING_MARGIN: i32 = 6000;

/// Exchange pruning: a quiet move losing more than `QUIET_MARGIN · depth²`, a capture
/// losing more than `Margins::see_capture_margin · depth`, by the static exchange.
pub const SEE_PRUNING_MAX_DEPTH: i32 = 8;
pub const SEE_QUIET_MARGIN: i32 = 25;

/// The margins that set how narrow the selective search is: the set in use, and a narrower
/// one on trial (the check option `Narrow Pruning`) with Fairy-Stockfish's margins converted
/// to centipawns (docs/search.md). One set per search, so both play from one binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Margins {
    /// The null move: the static evaluation needed, `beta - this · depth + nmp_eval_base`.
    pub nmp_eval_margin: i32,
    pub nmp_eval_base: i32,
    /// The null move: a ply more reduction per this many centipawns above beta.
    pub nmp_eval_divisor: i32,
    /// Futility: a quiet move is not searched at this (reduced) depth or less when the static
    /// evaluation plus `futility_base + futility_margin · depth` stays at or below alpha.
    pub futility_max_depth: i32,
    pub futility_base: i32,
    pub futility_margin: i32,
    /// Late-move pruning's counts are divided by this.
    pub lmp_divisor: i32,
    /// A capture losing more than this times the depth by the static exchange is pruned.
    pub see_capture_margin: i32,
    /// At this (reduced) depth or less, a quiet move that both continuation histories (after
    /// the last move and after the one before) call bad is pruned; below 0, none is.
    pub continuation_pruning_max_depth: i32,
    /// Quiescence tries this many captures; past them only recaptures, promotions and
    /// checks.
    pub qs_move_count: usize,
}

impl Margins {
    /// The margins in use.
    pub const WIDE: Margins = Margins {
        nmp_eval_margin: 20,
        nmp_eval_base: 200,
        nmp_eval_divisor: 200,
        futility_max_depth: 8,
        futility_base: 120,
        futility_margin: 130,
        lmp_divisor: 1,
        see_capture_margin: 180,
        continuation_pruning_max_depth: -1,
        qs_move_count: usize::MAX,
    };

    /// The narrower set on trial.
    pub const NARROW: Margins = Margins {
        nmp_eval_margin: 10,
        nmp_eval_base: 76,
        nmp_eval_divisor: 100,
        futility_max_depth: 6,
        futility_base: 84,
        futility_margin: 75,
        lmp_divisor: 2,
        see_capture_margin: 105,
        continuation_pruning_max_depth: 4,
        qs_move_count: 2,
    };
}

// --- Reductions ---

/// Late-move reductions start at this depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// The reduction table: `BASE + ln(depth) · ln(move number) / DIVISOR`, the move number
/// times the board's squares over `BASE_AREA` on a larger board.
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
/// A history score this large takes one ply off the reduction.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;
/// More cut-offs than this among the children's children so far: reduce a ply more.
pub const LMR_CUTOFFS: u32 = 3;
/// A reduced search that beats alpha by this much (plus a margin per ply reduced) is
/// searched again a ply deeper than planned.
pub const LMR_DEEPER_BASE: i32 = 30;
pub const LMR_DEEPER_MARGIN: i32 = 6;

// --- Extensions ---

/// A check extends while the ply stays below `CHECK_EXTENSION_PLY_FACTOR · depth + SLACK`,
/// which keeps long checking sequences from running away.
pub const CHECK_EXTENSION_PLY_FACTOR: usize = 2;
pub const CHECK_EXTENSION_PLY_SLACK: usize = 8;

/// Singular extensions: from this depth, when the table's entry is at most `DEPTH_MARGIN`
/// plies shallower; the other moves are searched against the table's score less
/// `MARGIN · depth / 8`; beaten by `DOUBLE_MARGIN` more, the move is extended twice (at most
/// `MAX_DOUBLE_EXTENSIONS` times on a path).
pub const SINGULAR_MIN_DEPTH: i32 = 7;
pub const SINGULAR_DEPTH_MARGIN: i32 = 3;
pub const SINGULAR_MARGIN: i32 = 16;
pub const SINGULAR_DOUBLE_MARGIN: i32 = 20;
pub const MAX_DOUBLE_EXTENSIONS: i32 = 6;

// --- Quiescence ---

/// Delta pruning: a capture that, even winning its piece, stays this far below alpha.
pub const DELTA_MARGIN: i32 = 200;

/// The quiescence nodes below one horizon node after which only recaptures on the last
/// move's square are tried: what bounds quiescence where every piece can take another.
pub const QS_NODE_BUDGET: u32 = 1000;

// --- Move ordering (`ordering.rs`) ---

/// A cut-off's history bonus (and the others' malus): `PER_DEPTH · depth - BASE`, at most
/// `MAX`; entries saturate towards `history::HISTORY_LIMIT`.
pub const HISTORY_BONUS_PER_DEPTH: i32 = 300;
pub const HISTORY_BONUS_BASE: i32 = 250;
pub const HISTORY_BONUS_MAX: i32 = 1500;

/// The evaluation's history: a quiet move that moved the static evaluation (both sides'
/// evaluations summed, in centipawns) is rewarded by `FACTOR` per centipawn it gained for
/// its side, at most `MAX` either way. On boards larger than chess's only (see
/// `Worker::learn_from_eval`).
pub const EVAL_HISTORY_FACTOR: i32 = 30;
pub const EVAL_HISTORY_MAX: i32 = 1800;

// --- Threads ---

/// Nodes between looks at the clock and the stop flag (about a millisecond), and between
/// publications of a thread's node count.
pub const CHECK_EVERY: u64 = 1024;
/// Nodes between two looks at a `stop` between those checks (an atomic load: cheap).
pub const STOP_LOOK_EVERY: u64 = 32;

// --- Time (`time.rs`) ---

/// With no moves-to-go from the GUI, the time left is shared out over this many moves,
/// unless the variant's definition says otherwise (`[time] moves_to_go`: chess's 24, Magi's 36).
pub const DEFAULT_MOVES_TO_GO: u32 = 30;
/// Never plan to use more than this fraction of the time left (1/N).
pub const MAX_TIME_FRACTION: u32 = 3;
/// The hard limit is this many times the planned time (within the fraction above).
pub const HARD_LIMIT_FACTOR: u32 = 4;
/// No new iteration starts after this many tenths of the planned time.
pub const ITERATION_START_TENTHS: u32 = 6;

/// The planned time is scaled by how the iterations go (`worker::TimeUse`): from
/// `TIME_UNSTABLE` just after the best move changed down to `TIME_STABLE` once it has held
/// for `TIME_STABILITY_STEPS` iterations, and up to `TIME_FALLING` more when the score fell by
/// `TIME_FALL_SCALE` centipawns in the last iteration.
pub const TIME_UNSTABLE: f64 = 1.4;
pub const TIME_STABLE: f64 = 0.75;
pub const TIME_STABILITY_STEPS: usize = 6;
pub const TIME_FALLING: f64 = 0.5;
pub const TIME_FALL_SCALE: f64 = 100.0;
