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
    pub fn clear(&mut self) {
        self.histories.clear();
        self.eval_cache.clear();
    }
}
