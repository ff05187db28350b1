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
pub const ASPIRATION_DELTA: i32 = 30;
/// Past this half-width the window opens fully.
pub const ASPIRATION_GIVE_UP: i32 = 1000;

// --- Node pruning ---

/// Reverse futility: a non-PV node this shallow whose static evaluation beats beta by this
/// margin per ply of depth returns at once.
pub const RFP_MAX_DEPTH: i32 = 6;
pub const RFP_MARGIN: i32 = 90;

/// Null move: the least depth it is tried at, and its reduction `BASE + depth / DIVISOR`.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 2;
pub const NMP_DEPTH_DIVISOR: i32 = 6;

// --- Move pruning ---

/// Futility: at this depth or less, quiet moves of a node whose static evaluation plus this
/// margin per ply stays at or below alpha are not searched.
pub const FUTILITY_MAX_DEPTH: i32 = 3;
pub const FUTILITY_MARGIN: i32 = 120;

/// Late-move pruning: at this depth or less, quiet moves after the first
/// `LMP_BASE + depth²` (twice as many while improving) are not searched.
pub const LMP_MAX_DEPTH: i32 = 4;
pub const LMP_BASE: i32 = 3;

// --- Reductions ---

/// Late-move reductions start at this depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// The reduction table: `BASE + ln(depth) · ln(move number) / DIVISOR`.
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
/// A history score this large takes one ply off the reduction.
pub const LMR_HISTORY_DIVISOR: i32 = 8000;

/// At the root, late quiet moves from this index on are searched a ply shallower first.
pub const ROOT_REDUCTION_INDEX: usize = 4;

// --- Extensions ---

/// A check extends while the ply stays below `CHECK_EXTENSION_PLY_FACTOR · depth + SLACK`,
/// which keeps long checking sequences from running away.
pub const CHECK_EXTENSION_PLY_FACTOR: usize = 2;
pub const CHECK_EXTENSION_PLY_SLACK: usize = 8;

// --- Quiescence ---

/// Delta pruning: a capture that, even winning its piece, stays this far below alpha.
pub const DELTA_MARGIN: i32 = 200;

// --- Move ordering (`ordering.rs`) ---

/// A history entry's bonus is `depth²`, capped here; entries saturate towards
/// `HISTORY_LIMIT`.
pub const HISTORY_BONUS_CAP: i32 = 400;
pub const HISTORY_LIMIT: i32 = 16384;

// --- Threads ---

/// Nodes between looks at the clock and the stop flag (about a millisecond), and between
/// publications of a thread's node count.
pub const CHECK_EVERY: u64 = 1024;

// --- Time (`time.rs`) ---

/// With no moves-to-go from the GUI, the time left is shared out over this many moves.
pub const DEFAULT_MOVES_TO_GO: u32 = 30;
/// Never plan to use more than this fraction of the time left (1/N).
pub const MAX_TIME_FRACTION: u32 = 3;
/// The hard limit is this many times the planned time (within the fraction above).
pub const HARD_LIMIT_FACTOR: u32 = 4;
/// No new iteration starts after this many tenths of the planned time.
pub const ITERATION_START_TENTHS: u32 = 6;
