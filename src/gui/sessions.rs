//! The games the server holds, by id. At most `MAX_SESSIONS` at once: each has an engine
//! (a thread and a hash table), so the least recently used game goes when one more is made.

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

impl Sessions {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds the session `make` builds with a new id; the least recently used ones beyond
    /// the limit are closed.
    pub fn add(&self, make: impl FnOnce(u64) -> Arc<Session>) -> Arc<Session> {
        let (session, evicted) = {
            let mut inner = self.lock();
            inner.next_id += 1;
            let session = make(inner.next_id);
            inner.games.push((Arc::clone(&session), Instant::now()));
            let mut evicted = Vec::new();
            while inner.games.len() > MAX_SESSIONS {
                let oldest = inner
                    .games
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, (_, used))| *used)
                    .map(|(i, _)| i)
                    .unwrap_or(0);
                evicted.push(inner.games.remove(oldest).0);
            }
            (session, evicted)
        };
        // Closing joins engine threads: never under the lock.
        for s in evicted {
            s.close();
        }
        session
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

    pub fn remove(&self, id: &str) -> Result<(), Refusal> {
        let session = self.get(id)?;
        self.lock().games.retain(|(s, _)| s.id != session.id);
        session.close();
        Ok(())
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
