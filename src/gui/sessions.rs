//! The games the server holds in memory, by id. At most `MAX_SESSIONS` at once: each has an
//! engine (a thread and a hash table), so the least recently used game leaves memory when one
//! more comes (a game kept on disk is read back when it is asked for again).

use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::session::{Refusal, Session};

pub const MAX_SESSIONS: usize = 32;

#[derive(Default)]
pub struct Sessions {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    next_id: u64,
    /// Each game with when it was last asked for.
    games: Vec<(Arc<Session>, Instant)>,
}

impl Inner {
    /// Takes out the least recently used games beyond the limit.
    fn evict(&mut self) -> Vec<Arc<Session>> {
        let mut evicted = Vec::new();
        while self.games.len() > MAX_SESSIONS {
            let oldest = self
                .games
                .iter()
                .enumerate()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(i, _)| i)
                .unwrap_or(0);
            evicted.push(self.games.remove(oldest).0);
        }
        evicted
    }
}

/// Closing joins engine threads: never under the lock.
fn close(sessions: Vec<Arc<Session>>) {
    for s in sessions {
        s.close();
    }
}

impl Sessions {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds the session `make` builds with a new id; the least recently used ones beyond
    /// the limit leave memory.
    pub fn add(&self, make: impl FnOnce(u64) -> Arc<Session>) -> Arc<Session> {
        let (session, evicted) = {
            let mut inner = self.lock();
            inner.next_id += 1;
            let session = make(inner.next_id);
            inner.games.push((Arc::clone(&session), Instant::now()));
            (session, inner.evict())
        };
        close(evicted);
        session
    }

    /// Holds a game read back from disk, under its own id; if another request has read it
    /// back meanwhile, that one is kept and given.
    pub fn insert(&self, session: Arc<Session>) -> Arc<Session> {
        let (kept, evicted) = {
            let mut inner = self.lock();
            if let Some(entry) = inner.games.iter_mut().find(|(s, _)| s.id == session.id) {
                entry.1 = Instant::now();
                return Arc::clone(&entry.0);
            }
            inner.next_id = inner.next_id.max(session.id);
            inner.games.push((Arc::clone(&session), Instant::now()));
            (session, inner.evict())
        };
        close(evicted);
        kept
    }

    /// New ids start after `last` (the games on disk keep theirs).
    pub fn ids_after(&self, last: u64) {
        let mut inner = self.lock();
        inner.next_id = inner.next_id.max(last);
    }

    /// The session with this id (as written in URLs).
    pub fn get(&self, id: &str) -> Result<Arc<Session>, Refusal> {
        let missing = || Refusal::new(404, format!("no game '{}'", truncate(id)));
        let id: u64 = id.parse().map_err(|_| missing())?;
        let mut inner = self.lock();
        let entry = inner
            .games
            .iter_mut()
            .find(|(s, _)| s.id == id)
            .ok_or_else(missing)?;
        entry.1 = Instant::now();
        Ok(Arc::clone(&entry.0))
    }

    /// Takes a game out of memory; whether it was there.
    pub fn remove(&self, id: u64) -> bool {
        let taken: Vec<Arc<Session>> = {
            let mut inner = self.lock();
            let (gone, kept) = std::mem::take(&mut inner.games)
                .into_iter()
                .partition(|(s, _)| s.id == id);
            inner.games = kept;
            gone.into_iter().map(|(s, _)| s).collect()
        };
        let found = !taken.is_empty();
        close(taken);
        found
    }

    /// Every session, to look after outside the lock.
    pub fn all(&self) -> Vec<Arc<Session>> {
        self.lock()
            .games
            .iter()
            .map(|(s, _)| Arc::clone(s))
            .collect()
    }

    pub fn ids(&self) -> Vec<u64> {
        self.lock().games.iter().map(|(s, _)| s.id).collect()
    }
}

/// Text from a request, cut short for a message.
pub fn truncate(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(MAX).collect::<String>())
    }
}
