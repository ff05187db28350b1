//! Strength levels of `magus play`: the engine's own skill levels (`Skill Level` 0 to 20 of
//! UCI and XBoard, `magus::search::strength`), each with one thread and a budget of nodes per
//! move so that a move takes a second or two at most.
//!
//! Below 20 the engine searches four lines to a depth of one ply more than the level and
//! chooses among them with noise that grows as the level falls; 20 is full strength.

use crate::search::engine::Engine;
use crate::search::strength::{self, Setting};
use crate::search::time::Limits;

/// The levels there are.
pub const LEVELS: std::ops::RangeInclusive<u8> = 0..=(strength::MAX_SKILL as u8);

/// The level `magus play` plays at when none is given.
pub const DEFAULT_LEVEL: u8 = 8;

/// Nodes a move may take at any level: the depth cap of a level stops it sooner.
const NODES_PER_MOVE: u64 = 1_000_000;

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
    let setting = Setting {
        level: level.clamp(*LEVELS.start(), *LEVELS.end()),
        ..Setting::default()
    };
    engine.set_options(|o| {
        o.threads = 1;
        o.skill = setting.skill();
    });
    Limits {
        nodes: Some(NODES_PER_MOVE),
        ..Limits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_sets_the_engine_skill_and_full_strength_none() {
        let engine = Engine::with_hash(1);
        let limits = apply_level(&engine, 3);
        assert_eq!(limits.nodes, Some(NODES_PER_MOVE));
        assert_eq!(engine.options().skill, Some(3.0));
        assert_eq!(engine.options().threads, 1);
        apply_level(&engine, *LEVELS.end());
        assert_eq!(engine.options().skill, None);
        assert!(check_level(21).is_err());
        assert_eq!(check_level(0), Ok(0));
        assert_eq!(check_level(DEFAULT_LEVEL), Ok(DEFAULT_LEVEL));
    }
}
