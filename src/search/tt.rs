//! The transposition table, shared by all search threads without locks.
//!
//! An entry is two `AtomicU64`: the packed data, and the position's key XOR that data. A
//! reader accepts an entry only if the XOR gives back its key, so a torn write (two threads
//! writing one entry at once) reads as a miss instead of a wrong move.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::board::Move;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The score is at least this (a fail-high).
    Lower,
    /// The score is at most this (a fail-low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub mv: Move,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

pub struct TranspositionTable {
    slots: Vec<Slot>,
    generation: AtomicU64,
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

/// Data bits: move 0..29, score 29..45, depth 45..52, bound 52..54, generation 54..60.
fn pack(e: &Entry, generation: u8) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (e.mv.bits() as u64 & 0x1FFF_FFFF)
        | ((e.score as i16 as u16 as u64) << 29)
        | (((e.depth.clamp(0, 127) as u64) & 0x7F) << 45)
        | (bound << 52)
        | (((generation & 0x3F) as u64) << 54)
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> 52) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(Entry {
        mv: Move::from_bits((data & 0x1FFF_FFFF) as u32).unwrap_or(Move::NULL),
        score: ((data >> 29) & 0xFFFF) as u16 as i16 as i32,
        depth: ((data >> 45) & 0x7F) as i32,
        bound,
    })
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one entry).
    pub fn new(megabytes: usize) -> Result<TranspositionTable, String> {
        let count = (megabytes.max(1) * 1024 * 1024 / SLOT_BYTES).max(1);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(count)
            .map_err(|_| format!("cannot allocate a {megabytes} MB hash table"))?;
        slots.extend((0..count).map(|_| Slot {
            check: AtomicU64::new(0),
            data: AtomicU64::new(0),
        }));
        Ok(TranspositionTable {
            slots,
            generation: AtomicU64::new(0),
        })
    }

    pub fn megabytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES / (1024 * 1024)
    }

    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    /// Called once per search: older entries become easier to replace.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = &self.slots[self.index(key)];
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if check ^ data != key {
            return None;
        }
        unpack(data)
    }

    pub fn store(&self, key: u64, entry: Entry) {
        let slot = &self.slots[self.index(key)];
        let generation = self.generation.load(Ordering::Relaxed) as u8;
        let old_data = slot.data.load(Ordering::Relaxed);
        let old_check = slot.check.load(Ordering::Relaxed);
        let same_position = old_check ^ old_data == key;
        let old_generation = ((old_data >> 54) & 0x3F) as u8;
        let old_depth = ((old_data >> 45) & 0x7F) as i32;
        // Keep a deeper entry of this search for another position; replace anything else.
        if !same_position
            && old_data != 0
            && old_generation == generation & 0x3F
            && old_depth > entry.depth + 2
        {
            return;
        }
        let mut entry = entry;
        if same_position && entry.mv.is_null() {
            // Keep the move we knew for this position.
            entry.mv = Move::from_bits((old_data & 0x1FFF_FFFF) as u32).unwrap_or(Move::NULL);
        }
        let data = pack(&entry, generation);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(data ^ key, Ordering::Relaxed);
    }

    /// Permille of sampled entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3F;
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && (d >> 54) & 0x3F == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{MoveKind, Square};

    #[test]
    fn entries_round_trip_and_foreign_keys_miss() {
        let tt = TranspositionTable::new(1).unwrap();
        let mv = Move::new(Square::new(12), Square::new(28), MoveKind::Normal);
        let e = Entry {
            mv,
            score: -1234,
            depth: 9,
            bound: Bound::Lower,
        };
        tt.store(0xDEAD_BEEF, e);
        let got = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(
            (got.mv, got.score, got.depth, got.bound),
            (mv, -1234, 9, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEEF ^ 1).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF).is_none());
    }

    #[test]
    fn size_follows_the_request() {
        let tt = TranspositionTable::new(16).unwrap();
        assert_eq!(tt.megabytes(), 16);
    }
}
