//! Strength levels for games against magus: 1 (weakest) to 8 (full strength).
//!
//! A level reaches the engine through [`configure`] only, so that when the engine grows its
//! own strength options (`UCI_LimitStrength`, `UCI_Elo`, `Skill Level`) this is the one
//! place to change. Until then a level caps the search depth, which weakens play in the
//! same direction: a shallower search sees fewer threats.

use crate::search::engine::Engine;
use crate::search::time::Limits;

/// The weakest level.
pub const WEAKEST: u8 = 1;
/// Full strength: no cap beyond the clock.
pub const FULL: u8 = 8;

/// The deepest search of a level, `None` at full strength.
pub fn depth_cap(level: u8) -> Option<i32> {
    match level {
        0..=4 => Some(level.max(WEAKEST) as i32),
        5 => Some(5),
        6 => Some(7),
        7 => Some(9),
        _ => None,
    }
}

/// Whether `level` is one of the levels.
pub fn is_level(level: u8) -> bool {
    (WEAKEST..=FULL).contains(&level)
}

/// Sets up the engine and the limits of a search for a move at `level`.
pub fn configure(engine: &Engine, level: u8, limits: &mut Limits) {
    // The engine's searches for moves use one line; analysis sets its own.
    engine.set_options(|o| o.multipv = 1);
    if let Some(cap) = depth_cap(level) {
        limits.depth = Some(limits.depth.map_or(cap, |d| d.min(cap)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_higher_level_never_searches_less_deeply() {
        let cap = |l| depth_cap(l).unwrap_or(i32::MAX);
        for level in WEAKEST..FULL {
            assert!(cap(level) < cap(level + 1), "level {level}");
        }
        assert_eq!(depth_cap(FULL), None);
        assert_eq!(depth_cap(WEAKEST), Some(1));
    }

    #[test]
    fn configure_caps_the_depth_below_full_strength() {
        let engine = Engine::with_hash(1);
        let mut limits = Limits::default();
        configure(&engine, 3, &mut limits);
        assert_eq!(limits.depth, Some(3));
        let mut limits = Limits::depth(2);
        configure(&engine, 5, &mut limits);
        assert_eq!(limits.depth, Some(2));
        let mut limits = Limits::default();
        configure(&engine, FULL, &mut limits);
        assert_eq!(limits.depth, None);
        assert_eq!(engine.options().multipv, 1);
    }
}
