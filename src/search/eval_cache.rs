//! A small per-thread cache of static evaluations keyed by the position's hash. The search
//! evaluates the same position many times (after transpositions, in re-searches, at every
//! iteration); the full evaluation costs more than a table lookup.

/// Entries: a power of two, 2^16 × 16 bytes = 1 MiB per thread.
const ENTRIES: usize = 1 << 16;

pub struct EvalCache {
    slots: Vec<(u64, i32)>,
}

impl Default for EvalCache {
    fn default() -> Self {
        // An empty slot holds a key whose top bits name another slot, so no hash that
        // looks it up can match it.
        EvalCache {
            slots: (0..ENTRIES).map(|i| (!((i as u64) << 48), 0)).collect(),
        }
    }
}

impl EvalCache {
    #[inline]
    fn slot(hash: u64) -> usize {
        // The low bits index the transposition table; the high bits spread this one apart.
        (hash >> 48) as usize & (ENTRIES - 1)
    }

    #[inline]
    pub fn get(&self, hash: u64) -> Option<i32> {
        let (key, score) = self.slots[Self::slot(hash)];
        (key == hash).then_some(score)
    }

    #[inline]
    pub fn prefetch(&self, hash: u64) {
        super::tt::prefetch(&self.slots[Self::slot(hash)]);
    }

    #[inline]
    pub fn put(&mut self, hash: u64, score: i32) {
        self.slots[Self::slot(hash)] = (hash, score);
    }

    pub fn clear(&mut self) {
        *self = EvalCache::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_slots_match_no_hash() {
        let cache = EvalCache::default();
        for top in [0u64, 1, 0x8000, 0xffff] {
            for low in [0u64, 0xffff_ffff_ffff, 0x1234_5678] {
                assert_eq!(cache.get(top << 48 | low), None);
            }
        }
    }

    #[test]
    fn remembers_and_replaces() {
        let mut cache = EvalCache::default();
        let a = 0x1234_5678_9abc_def0;
        assert_eq!(cache.get(a), None);
        cache.put(a, 42);
        assert_eq!(cache.get(a), Some(42));
        // Same slot (same top 16 bits), different key: replaces, and `a` is gone.
        let b = a ^ 1;
        cache.put(b, -7);
        assert_eq!(cache.get(b), Some(-7));
        assert_eq!(cache.get(a), None);
    }

    /// A new game or variant starts from an empty cache: positions of two variants may
    /// share a hash.
    #[test]
    fn a_cleared_cache_forgets_everything() {
        let mut cache = EvalCache::default();
        let keys = [0x1234_5678_9abc_def0u64, 0xfedc_ba98_7654_3210];
        for (i, &k) in keys.iter().enumerate() {
            cache.put(k, i as i32 + 1);
        }
        cache.clear();
        for k in keys {
            assert_eq!(cache.get(k), None);
        }
    }
}
