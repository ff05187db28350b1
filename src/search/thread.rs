//! What a search thread keeps from one search to the next: what it learnt about the order of
//! moves, and its cache of static evaluations. A new game, or a position of another variant,
//! starts it afresh.

use super::eval_cache::EvalCache;
use super::history::Histories;

#[derive(Default)]
pub struct ThreadData {
    pub histories: Histories,
    pub eval_cache: EvalCache,
}

impl ThreadData {
    /// The tables of `threads` threads (at least one), fresh as at the start of a game.
    pub fn fresh(threads: usize) -> Vec<ThreadData> {
        (0..threads.max(1)).map(|_| ThreadData::default()).collect()
    }

    pub fn clear(&mut self) {
        self.histories.clear();
        self.eval_cache.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_thread_has_its_tables() {
        assert_eq!(ThreadData::fresh(3).len(), 3);
        assert_eq!(ThreadData::fresh(0).len(), 1);
    }
}
