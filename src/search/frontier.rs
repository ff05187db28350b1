//! Lazy SMP's frontier: the deepest iteration any search thread has completed.
//!
//! With one principal variation the threads leapfrog one another. A thread abandons an
//! iteration as soon as another one has completed that depth, stands on its result and goes
//! on beyond it, so no depth is searched to the end twice. The main thread reports and plays
//! the deepest result whichever thread found it, and a fixed-depth search ends when the first
//! thread reaches the depth. With several lines (MultiPV) only the main thread's iterations
//! count, since a helper searches one line only.

use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, AtomicU8, Ordering};

use super::RootLine;
use super::ordering::MAX_PLY;

/// A completed iteration: its depth, score and principal variation.
#[derive(Clone, Debug)]
pub struct Iteration {
    pub depth: i32,
    pub score: i32,
    pub line: RootLine,
}

pub struct Frontier {
    /// The depth of `deepest`, readable without the lock from inside the search.
    completed: AtomicI32,
    deepest: Mutex<Option<Iteration>>,
    leapfrog: bool,
    /// How many threads search each depth.
    searching: [AtomicU8; MAX_PLY + 1],
    /// A depth with this many threads on it is skipped.
    per_depth: u8,
}

impl Frontier {
    /// `leapfrog`: the threads may take one another's iterations (one principal variation).
    pub fn new(leapfrog: bool, threads: usize) -> Self {
        Frontier {
            completed: AtomicI32::new(0),
            deepest: Mutex::new(None),
            leapfrog,
            searching: std::array::from_fn(|_| AtomicU8::new(0)),
            per_depth: (threads / 2).clamp(1, 255) as u8,
        }
    }

    /// A thread starts searching `depth`.
    pub fn enter(&self, depth: i32) {
        self.searching[depth as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// A thread is done with `depth`, completed or not.
    pub fn leave(&self, depth: i32) {
        self.searching[depth as usize].fetch_sub(1, Ordering::Relaxed);
    }

    /// The first depth from `from` (up to `max`) not yet searched by enough threads.
    pub fn next_depth(&self, from: i32, max: i32) -> i32 {
        let mut depth = from;
        while depth < max
            && self.searching[depth as usize].load(Ordering::Relaxed) >= self.per_depth
        {
            depth += 1;
        }
        depth
    }

    /// The deepest depth completed so far.
    pub fn completed(&self) -> i32 {
        self.completed.load(Ordering::Relaxed)
    }

    /// Whether iterations of the thread `main` or not count for the others.
    pub fn counts(&self, main: bool) -> bool {
        main || self.leapfrog
    }

    /// Records that a thread completed `depth` with `score` and `line` as its best; kept only
    /// if no thread has completed that depth before.
    pub fn publish(&self, depth: i32, score: i32, line: &RootLine) {
        let mut deepest = self.deepest.lock().unwrap_or_else(|e| e.into_inner());
        if deepest.as_ref().is_none_or(|d| depth > d.depth) {
            *deepest = Some(Iteration {
                depth,
                score,
                line: line.clone(),
            });
            self.completed.store(depth, Ordering::Relaxed);
        }
    }

    /// Another thread has completed `depth`: finishing it would repeat that thread's work.
    #[inline]
    pub fn overtaken(&self, depth: i32) -> bool {
        self.leapfrog && self.completed() >= depth
    }

    /// The deepest iteration if it is deeper than `depth` and the threads leapfrog.
    pub fn deeper_than(&self, depth: i32) -> Option<Iteration> {
        if !self.overtaken(depth + 1) {
            return None;
        }
        let deepest = self.deepest.lock().unwrap_or_else(|e| e.into_inner());
        deepest.as_ref().filter(|d| d.depth > depth).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    fn line(score: i32) -> RootLine {
        RootLine {
            mv: Move::NULL,
            score,
            pv: Vec::new(),
        }
    }

    #[test]
    fn only_a_deeper_iteration_replaces_the_deepest() {
        let f = Frontier::new(true, 2);
        assert_eq!(f.completed(), 0);
        assert!(f.deeper_than(0).is_none());
        f.publish(3, 10, &line(10));
        f.publish(3, 99, &line(99));
        f.publish(2, 55, &line(55));
        assert_eq!(f.completed(), 3);
        let d = f.deeper_than(2).unwrap();
        assert_eq!((d.depth, d.score), (3, 10));
        assert!(f.deeper_than(3).is_none());
        assert!(f.overtaken(3) && !f.overtaken(4));
    }

    #[test]
    fn without_leapfrogging_no_thread_is_overtaken() {
        let f = Frontier::new(false, 2);
        f.publish(5, 0, &line(0));
        assert_eq!(f.completed(), 5);
        assert!(!f.overtaken(4));
        assert!(f.deeper_than(1).is_none());
        assert!(f.counts(true) && !f.counts(false));
    }
}
