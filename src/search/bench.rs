//! `bench`: a fixed set of positions of every variant searched to a fixed depth. With one
//! thread the node count is a signature of the search: it changes only when the search or
//! the evaluation does.

use std::time::{Duration, Instant};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use super::engine::Engine;
use super::time::Limits;
use crate::game::{AnyPosition, Game};
use crate::variant::Registry;

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
/// told about each position as it finishes (its index, variant, nodes and time). Each
/// position is searched as the first of a new game. `cancel` ends the bench early (its result
/// then counts only what was searched).
pub fn run(
    depth: i32,
    threads: usize,
    only: Option<&str>,
    cancel: &AtomicBool,
    mut progress: impl FnMut(usize, &str, u64, Duration),
) -> Result<BenchResult, String> {
    let registry = Registry::builtin();
    if let Some(wanted) = only
        && !POSITIONS.iter().any(|&(name, _)| name == wanted)
    {
        return Err(format!("bench: no position of a variant named '{wanted}'"));
    }
    let engine = Engine::new();
    engine.set_options(|o| o.threads = threads.max(1));
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    let mut positions = 0;
    for (i, &(name, fen)) in POSITIONS.iter().enumerate() {
        if only.is_some_and(|wanted| wanted != name) {
            continue;
        }
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let Some(variant) = registry.get(name) else {
            continue;
        };
        let fen = (fen != "startpos").then_some(fen);
        let pos = AnyPosition::from_fen(variant, fen)
            .map_err(|e| format!("bench position {}: {e}", i + 1))?;
        engine.new_game();
        let start = Instant::now();
        let (send, receive) = mpsc::channel();
        let control = engine.go(
            &Game::new(pos),
            Limits::depth(depth),
            Box::new(|_| {}),
            Box::new(move |result| {
                let _ = send.send(result);
            }),
        );
        let result = loop {
            match receive.recv_timeout(Duration::from_millis(1)) {
                Ok(result) => break result,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if cancel.load(Ordering::Relaxed) {
                        control.stop();
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err("bench: the engine ended the search without a result".into());
                }
            }
        };
        let spent = start.elapsed();
        let result_nodes = result.nodes;
        time += spent;
        nodes += result_nodes;
        positions += 1;
        progress(i + 1, name, result_nodes, spent);
    }
    Ok(BenchResult {
        nodes,
        time,
        positions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_variant_is_refused_by_name() {
        let cancel = AtomicBool::new(false);
        let err = run(1, 1, Some("nonesuch"), &cancel, |_, _, _, _| {})
            .err()
            .expect("refused");
        assert!(err.contains("'nonesuch'"), "{err}");
    }

    /// One variant's positions only, each told as it finishes by its place in the list, and
    /// the totals are the sums of what was told.
    #[test]
    fn one_variants_positions_are_searched_and_counted() {
        let cancel = AtomicBool::new(false);
        let mut told = Vec::new();
        let result = run(2, 1, Some("deathmatch"), &cancel, |i, name, nodes, _| {
            told.push((i, name.to_string(), nodes))
        })
        .expect("a bench");
        let expected: Vec<(usize, String)> = POSITIONS
            .iter()
            .enumerate()
            .filter(|(_, (name, _))| *name == "deathmatch")
            .map(|(i, (name, _))| (i + 1, name.to_string()))
            .collect();
        let got: Vec<(usize, String)> = told.iter().map(|(i, n, _)| (*i, n.clone())).collect();
        assert_eq!(got, expected);
        assert_eq!(result.positions, expected.len());
        assert!(told.iter().all(|&(_, _, nodes)| nodes > 0), "{told:?}");
        assert_eq!(result.nodes, told.iter().map(|t| t.2).sum::<u64>());
    }

    #[test]
    fn a_cancelled_bench_searches_nothing_more() {
        let cancel = AtomicBool::new(true);
        let result = run(2, 1, None, &cancel, |_, _, _, _| {}).expect("a bench");
        assert_eq!((result.positions, result.nodes), (0, 0));
    }
}
