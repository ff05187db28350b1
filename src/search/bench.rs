//! `bench`: a fixed set of positions of every variant searched to a fixed depth. With one
//! thread the node count is a signature of the search: it changes only when the search or
//! the evaluation does.

use std::time::{Duration, Instant};

use super::time::Limits;
use super::tt::TranspositionTable;
use super::{SearchControl, SearchOptions, think};
use crate::game::AnyPosition;
use crate::variant::Registry;
use crate::with_position;

pub const DEFAULT_DEPTH: i32 = 9;

/// (variant, FEN or "startpos")
pub const POSITIONS: &[(&str, &str)] = &[
    ("chess", "startpos"),
    (
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "chess",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ),
    (
        "chess",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        "chess",
        "2r3k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/2R3K1 w - - 0 20",
    ),
    ("deathmatch", "startpos"),
    (
        "deathmatch",
        "r3k2r/pp1h1ppp/2n2t2/8/3M4/5T2/PP1H1PPP/R3K2R w KQkq - 0 1",
    ),
    ("deathmatch-legacy", "startpos"),
    ("magi", "startpos"),
    (
        "magi",
        "r1bcqkw2r/ppp3ppbp/d5p1pn/3pn5/3p2P3/3PpP1C2/4P5/D1NPW2N1D/PPP4PPP/R3QK1B1R b - - 0 13",
    ),
    ("magician-chess", "startpos"),
    ("royal-magician", "startpos"),
];

pub struct BenchResult {
    pub nodes: u64,
    pub time: Duration,
    pub positions: usize,
}

/// Runs the bench, over the positions of the variant `only` if it is given; `progress` is
/// told about each position as it finishes (its index, variant, nodes and time).
pub fn run(
    depth: i32,
    threads: usize,
    only: Option<&str>,
    mut progress: impl FnMut(usize, &str, u64, Duration),
) -> Result<BenchResult, String> {
    let registry = Registry::builtin();
    let tt = TranspositionTable::new(16)?;
    // Page faults on first writes belong to the table's first search, not to each bench run.
    tt.commit_pages();
    let options = SearchOptions {
        threads,
        ..SearchOptions::default()
    };
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    let mut positions = 0;
    if let Some(wanted) = only
        && !POSITIONS.iter().any(|&(name, _)| name == wanted)
    {
        return Err(format!("bench: no position of a variant named '{wanted}'"));
    }
    for (i, &(name, fen)) in POSITIONS.iter().enumerate() {
        if only.is_some_and(|wanted| wanted != name) {
            continue;
        }
        let Some(variant) = registry.get(name) else {
            continue;
        };
        let fen = (fen != "startpos").then_some(fen);
        let pos = AnyPosition::from_fen(variant, fen)
            .map_err(|e| format!("bench position {}: {e}", i + 1))?;
        tt.clear();
        let control = SearchControl::default();
        let start = Instant::now();
        let result = with_position!(&pos, p => think(p, &[], &Limits::depth(depth), &options, &tt, &control, &|_| {}));
        let spent = start.elapsed();
        time += spent;
        nodes += result.nodes;
        positions += 1;
        progress(i + 1, name, result.nodes, spent);
    }
    Ok(BenchResult {
        nodes,
        time,
        positions,
    })
}
