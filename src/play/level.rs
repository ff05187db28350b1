//! Strength levels of `magus play`: what the engine may spend on a move at each level.
//!
//! For now a level is a node budget per move, with one search thread so that a game at a
//! level is the same game every time (tests and bug reports can replay it). The levels grow
//! by about ×3 each; level 1 sees little more than captures one move deep, level 10 searches
//! a few seconds a move on one core.
//!
//! | level | nodes per move |
//! |---:|---:|
//! | 1 | 200 |
//! | 2 | 600 |
//! | 3 | 2,000 |
//! | 4 | 6,000 |
//! | 5 | 20,000 |
//! | 6 | 60,000 |
//! | 7 | 200,000 |
//! | 8 | 600,000 |
//! | 9 | 2,000,000 |
//! | 10 | 6,000,000 |
//!
//! Every front end that plays at a level goes through [`apply_level`]: when the search gains
//! a strength setting of its own (an Elo target, a skill level), this is the one place to
//! switch it on.

use crate::search::engine::Engine;
use crate::search::time::Limits;

/// The levels there are.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=10;

/// The level `magus play` plays at when none is given.
pub const DEFAULT_LEVEL: u8 = 4;

/// Nodes per move at levels 1 to 10.
const NODES: [u64; 10] = [
    200, 600, 2_000, 6_000, 20_000, 60_000, 200_000, 600_000, 2_000_000, 6_000_000,
];

/// Checks a level given by a person.
pub fn check_level(level: u8) -> Result<u8, String> {
    if LEVELS.contains(&level) {
        Ok(level)
    } else {
        Err(format!(
            "{level} is not a level from {} to {}",
            LEVELS.start(),
            LEVELS.end()
        ))
    }
}

/// Sets the engine up to play at `level` (from [`LEVELS`]) and returns the limits of each of
/// its moves.
pub fn apply_level(engine: &Engine, level: u8) -> Limits {
    let level = level.clamp(*LEVELS.start(), *LEVELS.end());
    // One thread: the same moves every time at a level.
    engine.set_options(|o| o.threads = 1);
    Limits {
        nodes: Some(NODES[level as usize - 1]),
        ..Limits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_spends_more_than_the_one_below() {
        let engine = Engine::with_hash(1);
        let mut last = 0;
        for level in LEVELS {
            let nodes = apply_level(&engine, level).nodes.unwrap();
            assert!(nodes > last, "level {level}: {nodes} nodes");
            last = nodes;
        }
        assert_eq!(engine.options().threads, 1);
        assert!(check_level(0).is_err() && check_level(11).is_err());
        assert_eq!(check_level(DEFAULT_LEVEL), Ok(DEFAULT_LEVEL));
    }
}
