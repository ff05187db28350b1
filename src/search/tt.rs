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
    slots: Box<[Slot]>,
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
    /// A table of about `megabytes` MB (at least one entry). A table larger than the
    /// machine's memory, or one the allocator refuses, is an error (never a panic or an
    /// abort), and nothing else changes.
    pub fn new(megabytes: usize) -> Result<TranspositionTable, String> {
        TranspositionTable::new_within(megabytes, physical_memory())
    }

    /// [`TranspositionTable::new`] with the memory it may take: `limit` bytes, or whatever
    /// the allocator gives when `None`.
    ///
    /// The memory comes zeroed from the system (`calloc`), so the pages are not touched
    /// here: the operating system commits them as the search writes entries, and a size the
    /// allocator accepts by overcommitting does not bring the out-of-memory killer at once.
    pub fn new_within(
        megabytes: usize,
        limit: Option<usize>,
    ) -> Result<TranspositionTable, String> {
        let cannot = |why: &str| format!("cannot allocate a {megabytes} MB hash table: {why}");
        let bytes = megabytes
            .max(1)
            .checked_mul(1024 * 1024)
            .ok_or_else(|| cannot("the size is out of range"))?;
        if let Some(limit) = limit
            && bytes > limit
        {
            return Err(cannot(&format!(
                "more than the {} MB of memory this machine has",
                limit / (1024 * 1024)
            )));
        }
        let count = (bytes / SLOT_BYTES).max(1);
        let layout = std::alloc::Layout::array::<Slot>(count)
            .map_err(|_| cannot("the size is out of range"))?;
        // SAFETY: `layout` has a non-zero size (count >= 1 and a Slot is 16 bytes). The
        // memory is zeroed, and all-zero bytes are a valid Slot (two AtomicU64 of 0). A
        // Box<[Slot]> of `count` elements frees with exactly this layout.
        let slots = unsafe {
            let ptr = std::alloc::alloc_zeroed(layout).cast::<Slot>();
            if ptr.is_null() {
                return Err(cannot("out of memory"));
            }
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, count))
        };
        Ok(TranspositionTable {
            slots,
            generation: AtomicU64::new(0),
        })
    }

    pub fn megabytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES / (1024 * 1024)
    }

    pub fn clear(&self) {
        for s in self.slots.iter() {
            // Only written entries are written again: pages never used stay uncommitted.
            if s.data.load(Ordering::Relaxed) != 0 || s.check.load(Ordering::Relaxed) != 0 {
                s.check.store(0, Ordering::Relaxed);
                s.data.store(0, Ordering::Relaxed);
            }
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

    /// Starts fetching the slot of `key` into the cache: called when a move is made, so the
    /// memory arrives while the child's other work runs rather than at its probe.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.slots[self.index(key)]);
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

/// A hint to bring the cache line holding `value` in; does nothing where there is no such
/// instruction.
#[inline(always)]
pub(super) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and has no visible effect; the address is that of a
    // live reference.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// The machine's physical memory in bytes, where the system tells it (Linux).
fn physical_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
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

    #[test]
    fn sizes_that_cannot_be_had_are_errors() {
        // The size in bytes overflows.
        let e = TranspositionTable::new(usize::MAX).err().unwrap();
        assert!(
            e.contains("cannot allocate") && e.contains("out of range"),
            "{e}"
        );
        // Over the given memory.
        let e = TranspositionTable::new_within(64, Some(32 << 20))
            .err()
            .unwrap();
        assert!(e.contains("more than the 32 MB"), "{e}");
        assert_eq!(
            TranspositionTable::new_within(32, Some(32 << 20))
                .unwrap()
                .megabytes(),
            32
        );
        // 128 TiB: more than a process's address space, whatever the overcommit policy.
        // (black_box: an allocation nobody uses may be optimised away, failure and all.)
        let e = std::hint::black_box(TranspositionTable::new_within(1 << 27, None))
            .err()
            .unwrap();
        assert!(e.contains("out of memory"), "{e}");
    }

    fn resident_kb() -> Option<usize> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    #[test]
    fn a_large_table_is_not_touched_when_made() {
        // 1 GB, of which the process holds little until entries are written (where the
        // system tells the resident size).
        let before = resident_kb();
        let tt = TranspositionTable::new_within(1024, None).unwrap();
        tt.clear();
        if let (Some(before), Some(after)) = (before, resident_kb()) {
            assert!(after < before + (1 << 19), "{before} kB, then {after} kB");
        }
        let e = Entry {
            mv: Move::NULL,
            score: 7,
            depth: 1,
            bound: Bound::Exact,
        };
        tt.store(42, e);
        assert_eq!(tt.probe(42).unwrap().score, 7);
        assert!(tt.probe(43).is_none());
    }
}
