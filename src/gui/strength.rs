//! Strength levels of the board's games against magus: the engine's own skill levels, 0
//! (weakest) to 20 (full strength), the same as `Skill Level` in UCI and XBoard and as
//! `magus play --level` (`crate::search::strength` holds the method).

use crate::search::engine::Engine;
use crate::search::strength::{MAX_SKILL, Setting};

/// The weakest level.
pub const WEAKEST: u8 = 0;
/// Full strength.
pub const FULL: u8 = MAX_SKILL as u8;

/// Sets up the engine to find its move at `level`: one line, weakened below full strength.
pub fn configure_for_move(engine: &Engine, level: u8) {
    let skill = Setting {
        level: level.min(FULL),
        ..Setting::default()
    }
    .skill();
    engine.set_options(|o| {
        o.multipv = 1;
        o.skill = skill;
    });
}

/// Sets up the engine to analyse for a person: `lines` lines at full strength.
pub fn configure_for_analysis(engine: &Engine, lines: usize) {
    engine.set_options(|o| {
        o.multipv = lines;
        o.skill = None;
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_below_full_weakens_the_engine_and_analysis_never_does() {
        let engine = Engine::with_hash(1);
        configure_for_move(&engine, 3);
        assert_eq!(engine.options().skill, Some(3.0));
        assert_eq!(engine.options().multipv, 1);
        configure_for_analysis(&engine, 3);
        assert_eq!(engine.options().skill, None);
        assert_eq!(engine.options().multipv, 3);
        configure_for_move(&engine, FULL);
        assert_eq!(engine.options().skill, None);
    }
}
