//! The transposition table, shared by all search threads without locks.
//!
//! An entry is two `AtomicU64`: the packed data, and the position's key XOR that data. A
//! reader accepts an entry only if the XOR gives back its key, so a torn write (two threads
//! writing one entry at once) reads as a miss instead of a wrong move.
//!
//! Entries come in buckets of four, one cache line: a position may sit in any slot of its
//! bucket, and a new one replaces the least useful (empty, then from an older search, then
//! shallowest). With one slot per position, the shallow entries that every search writes by
//! the million pushed out the deep ones, and most of all with several threads writing.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::board::Move;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The score is at least this (a fail-high).
    Lower,
    /// The score is at most this (a fail-low).
    Upper,
}

impl Bound {
    /// Whether a stored `score` with this bound settles a node searched in (alpha, beta):
    /// exact, or a bound on the side of the window it proves.
    #[inline]
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
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

const SLOTS_PER_BUCKET: usize = 4;
/// How much shallower than the entry it would replace a bound of the same position may be
/// and still replace it (exact scores always do).
const KEEP_DEEPER_MARGIN: i32 = 2;

/// One cache line of slots.
#[repr(align(64))]
struct Bucket([Slot; SLOTS_PER_BUCKET]);

pub struct TranspositionTable {
    memory: BucketMemory,
    generation: AtomicU64,
    /// Mixed into every key: clearing the table picks a new one, so that no entry written
    /// before matches a key again, and the table need not be written over.
    salt: AtomicU64,
}

/// The memory of the buckets: zeroed, aligned to a huge page where the system has them, and
/// committed when the table is made (by several threads at once) so that no search pays for
/// the first touch of its pages.
struct BucketMemory {
    raw: std::ptr::NonNull<u8>,
    bytes: usize,
    len: usize,
}

// SAFETY: the memory is owned by the value alone, and a Bucket holds only atomics, which may
// be shared and sent between threads.
unsafe impl Send for BucketMemory {}
unsafe impl Sync for BucketMemory {}

/// Huge pages are this large (x86-64 and most others): aligning the table to them lets the
/// system back it with them.
const HUGE_PAGE: usize = 2 << 20;

impl BucketMemory {
    /// `None` when the size is out of range or the system refuses.
    fn zeroed(count: usize) -> Option<BucketMemory> {
        let bytes = count.checked_mul(BUCKET_BYTES)?;
        isize::try_from(bytes.checked_add(HUGE_PAGE)?).ok()?;
        let raw = map_zeroed(bytes)?;
        Some(BucketMemory {
            raw,
            bytes,
            len: count,
        })
    }

    #[inline(always)]
    fn as_slice(&self) -> &[Bucket] {
        // SAFETY: `len` zeroed buckets, aligned to 64 bytes at least, live at `raw` for as
        // long as `self`; all-zero bytes are a valid Bucket (AtomicU64s of 0).
        unsafe { std::slice::from_raw_parts(self.raw.as_ptr().cast::<Bucket>(), self.len) }
    }
}

impl Drop for BucketMemory {
    fn drop(&mut self) {
        unmap(self.raw, self.bytes);
    }
}

/// Zeroed memory of `bytes` bytes, aligned to 64 bytes (to a huge page where mapped).
#[cfg(unix)]
fn map_zeroed(bytes: usize) -> Option<std::ptr::NonNull<u8>> {
    // SAFETY: an anonymous private mapping of a valid length; the result is checked.
    let ptr = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if ptr == libc::MAP_FAILED {
        return None;
    }
    #[cfg(target_os = "linux")]
    // SAFETY: advice on a mapping just made; failing advice changes nothing.
    unsafe {
        libc::madvise(ptr, bytes, libc::MADV_HUGEPAGE);
    }
    std::ptr::NonNull::new(ptr.cast::<u8>())
}

#[cfg(unix)]
fn unmap(raw: std::ptr::NonNull<u8>, bytes: usize) {
    // SAFETY: `raw` and `bytes` are those of a mapping made by `map_zeroed`.
    unsafe {
        libc::munmap(raw.as_ptr().cast(), bytes);
    }
}

#[cfg(not(unix))]
fn map_zeroed(bytes: usize) -> Option<std::ptr::NonNull<u8>> {
    let layout = std::alloc::Layout::from_size_align(bytes.max(64), 64).ok()?;
    // SAFETY: the layout has a non-zero size.
    std::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })
}

#[cfg(not(unix))]
fn unmap(raw: std::ptr::NonNull<u8>, bytes: usize) {
    let layout = std::alloc::Layout::from_size_align(bytes.max(64), 64).expect("as allocated");
    // SAFETY: `raw` came from `alloc_zeroed` with exactly this layout.
    unsafe { std::alloc::dealloc(raw.as_ptr(), layout) }
}

const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

/// Generations count modulo this (six bits of an entry).
const GENERATIONS: u64 = 64;

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
    /// A table of about `megabytes` MB (at least one entry), committed at once. A table
    /// larger than the memory the system has available, or one it refuses, is an error
    /// (never a panic or an abort), and nothing else changes.
    pub fn new(megabytes: usize) -> Result<TranspositionTable, String> {
        let table = TranspositionTable::new_within(megabytes, available_memory())?;
        table.commit_pages(&AtomicBool::new(false));
        Ok(table)
    }

    /// A table of `megabytes` MB, not yet committed, within `limit` bytes (whatever the
    /// system gives when `None`).
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
                "more than the {} MB of memory this machine has available",
                limit / (1024 * 1024)
            )));
        }
        let count = (bytes / BUCKET_BYTES).max(1);
        let memory = BucketMemory::zeroed(count).ok_or_else(|| cannot("out of memory"))?;
        Ok(TranspositionTable {
            memory,
            generation: AtomicU64::new(0),
            salt: AtomicU64::new(0),
        })
    }

    /// A table of exactly `count` buckets of four entries (at least one): a table too small
    /// to matter, to measure what the table is worth.
    pub fn with_buckets(count: usize) -> TranspositionTable {
        TranspositionTable {
            memory: BucketMemory::zeroed(count.max(1)).expect("a few buckets can be had"),
            generation: AtomicU64::new(0),
            salt: AtomicU64::new(0),
        }
    }

    #[inline(always)]
    fn buckets(&self) -> &[Bucket] {
        self.memory.as_slice()
    }

    pub fn megabytes(&self) -> usize {
        self.buckets().len() * BUCKET_BYTES / (1024 * 1024)
    }

    /// Forgets every entry, at once whatever the size: the key salt changes, so no entry
    /// written before matches again, and their generation is made old, so that they are
    /// the first to be replaced.
    pub fn clear(&self) {
        let salt = self.salt.load(Ordering::Relaxed);
        self.salt.store(
            salt.wrapping_add(0x9E37_79B9_7F4A_7C15) | 1,
            Ordering::Relaxed,
        );
        self.generation
            .fetch_add(GENERATIONS / 2, Ordering::Relaxed);
    }

    /// Writes every page of the table once, shared out between the machine's cores, so that
    /// the system commits them now rather than one by one as a search first writes them.
    /// Gives up as soon as `abandon` is set (a search is asked for, or the engine quits); pages left unwritten
    /// are committed by the searches that write them.
    pub fn commit_pages(&self, abandon: &AtomicBool) {
        // A stretch of buckets between two looks at `abandon`: 256 KB.
        const STRETCH: usize = (256 << 10) / BUCKET_BYTES;
        let buckets = self.buckets();
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(buckets.len().div_ceil(1 << 14))
            .max(1);
        let chunk = buckets.len().div_ceil(threads);
        std::thread::scope(|scope| {
            for part in buckets.chunks(chunk) {
                scope.spawn(move || {
                    for stretch in part.chunks(STRETCH) {
                        if abandon.load(Ordering::Relaxed) {
                            return;
                        }
                        for bucket in stretch {
                            for slot in &bucket.0 {
                                slot.check.store(0, Ordering::Relaxed);
                                slot.data.store(0, Ordering::Relaxed);
                            }
                        }
                    }
                });
            }
        });
    }

    /// Called once per search: older entries become easier to replace.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let buckets = self.buckets();
        &buckets[((key as u128 * buckets.len() as u128) >> 64) as usize]
    }

    /// Starts fetching the bucket of `key` into the cache: called when a move is made, so the
    /// memory arrives while the child's other work runs rather than at its probe.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.bucket(key));
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let salted = key ^ self.salt.load(Ordering::Relaxed);
        self.bucket(key).0.iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == salted {
                unpack(data)
            } else {
                None
            }
        })
    }

    pub fn store(&self, key: u64, entry: Entry) {
        let generation = (self.generation.load(Ordering::Relaxed) & 0x3F) as u8;
        let salted = key ^ self.salt.load(Ordering::Relaxed);
        let bucket = &self.bucket(key).0;
        // The slot that holds this position already, or else the least useful one (the first
        // of equals): empty, then written by an older search, then the shallowest.
        let mut target = &bucket[0];
        let mut target_worth = i32::MAX;
        let mut same_position = false;
        for slot in bucket {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == salted {
                target = slot;
                same_position = true;
                break;
            }
            let worth = if data == 0 {
                -1
            } else {
                let depth = ((data >> 45) & 0x7F) as i32;
                let current = ((data >> 54) & 0x3F) as u8 == generation;
                depth + if current { 128 } else { 0 }
            };
            if worth < target_worth {
                target = slot;
                target_worth = worth;
            }
        }
        let mut entry = entry;
        if same_position {
            // A deeper result of this search stays: a quiescence or ProbCut store of the same
            // position would otherwise replace a bound that took a real search to find, and the
            // next visit would trust the shallow one. An exact score always replaces.
            let old_data = target.data.load(Ordering::Relaxed);
            let old_depth = ((old_data >> 45) & 0x7F) as i32;
            let old_current = ((old_data >> 54) & 0x3F) as u8 == generation;
            if old_current
                && entry.bound != Bound::Exact
                && old_depth > entry.depth.clamp(0, 127) + KEEP_DEEPER_MARGIN
            {
                return;
            }
        }
        if same_position && entry.mv.is_null() {
            // Keep the move we knew for this position.
            let old_data = target.data.load(Ordering::Relaxed);
            entry.mv = Move::from_bits((old_data & 0x1FFF_FFFF) as u32).unwrap_or(Move::NULL);
        }
        let data = pack(&entry, generation);
        target.data.store(data, Ordering::Relaxed);
        target.check.store(data ^ salted, Ordering::Relaxed);
    }

    /// Permille of sampled entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3F;
        let sample = self.buckets().len().min(250);
        let slots = sample * SLOTS_PER_BUCKET;
        let used = self.buckets()[..sample]
            .iter()
            .flat_map(|b| b.0.iter())
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && (d >> 54) & 0x3F == generation
            })
            .count();
        (used * 1000 / slots.max(1)) as u32
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

/// The memory the system has available for a new table, in bytes, where it tells it (Linux):
/// what it could give without swapping, less what the rest of the engine needs.
pub(crate) fn available_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    const RESERVE: usize = 256 << 20;
    Some(kb.checked_mul(1024)?.saturating_sub(RESERVE))
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

    /// A shallow bound of a position does not replace a deeper one of the same search (a
    /// quiescence store once replaced a depth-8 bound and the next visit trusted it); an exact
    /// score, a bound at most `KEEP_DEEPER_MARGIN` shallower, or a deeper one does.
    #[test]
    fn a_deeper_bound_of_the_same_position_is_kept() {
        let tt = TranspositionTable::new(1).unwrap();
        let key = 0x1234_5678_9ABC;
        let bound = |depth, score, bound| Entry {
            mv: Move::NULL,
            score,
            depth,
            bound,
        };
        tt.store(key, bound(8, 300, Bound::Lower));
        tt.store(key, bound(0, -50, Bound::Upper));
        assert_eq!(
            tt.probe(key).unwrap().depth,
            8,
            "a quiescence bound replaced it"
        );
        tt.store(key, bound(6, 120, Bound::Upper));
        assert_eq!(
            tt.probe(key).unwrap().depth,
            6,
            "two plies shallower replaces"
        );
        tt.store(key, bound(0, 40, Bound::Exact));
        let got = tt.probe(key).unwrap();
        assert_eq!((got.depth, got.score, got.bound), (0, 40, Bound::Exact));
        tt.store(key, bound(9, 1, Bound::Lower));
        tt.new_search();
        tt.store(key, bound(0, 2, Bound::Upper));
        assert_eq!(
            tt.probe(key).unwrap().depth,
            0,
            "an older search's bound is replaced"
        );
    }

    fn entry(depth: i32, score: i32) -> Entry {
        Entry {
            mv: Move::NULL,
            score,
            depth,
            bound: Bound::Exact,
        }
    }

    #[test]
    fn a_bucket_holds_four_positions_and_replaces_the_least_useful() {
        let tt = TranspositionTable::new(1).unwrap();
        // Keys that differ only in their low bits share a bucket.
        let base = 0x7654_3210_0000_0000u64;
        let keys: Vec<u64> = (1..=5).map(|i| base + i).collect();
        assert!(std::ptr::eq(tt.bucket(keys[0]), tt.bucket(keys[4])));
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(k, entry(10 - i as i32, i as i32));
        }
        for (i, &k) in keys[..4].iter().enumerate() {
            assert_eq!(tt.probe(k).unwrap().score, i as i32, "key {i}");
        }
        // A fifth position takes the slot of the shallowest (depth 7), the others stay.
        tt.store(keys[4], entry(1, 99));
        assert_eq!(tt.probe(keys[4]).unwrap().score, 99);
        assert!(tt.probe(keys[3]).is_none());
        for &k in &keys[..3] {
            assert!(tt.probe(k).is_some());
        }
        // The same position is rewritten in its own slot.
        tt.store(keys[0], entry(12, -5));
        assert_eq!(tt.probe(keys[0]).unwrap().score, -5);
        assert_eq!(tt.probe(keys[1]).unwrap().score, 1);
        // Entries of an older search go first, however deep: of keys 0, 1, 2 (depths 12, 9,
        // 8) and 4 (depth 1), a new search's shallow entries push out 4, then 2, and stay.
        tt.new_search();
        let (x, y) = (base + 6, base + 7);
        tt.store(x, entry(1, 60));
        assert!(tt.probe(keys[4]).is_none());
        tt.store(y, entry(1, 70));
        assert!(tt.probe(keys[2]).is_none());
        assert_eq!(tt.probe(x).unwrap().score, 60);
        assert_eq!(tt.probe(y).unwrap().score, 70);
        assert!(tt.probe(keys[0]).is_some() && tt.probe(keys[1]).is_some());
    }

    #[test]
    fn buckets_are_cache_lines() {
        for mb in [1, 3, 16] {
            let tt = TranspositionTable::new(mb).unwrap();
            assert_eq!(std::mem::size_of::<Bucket>(), 64);
            assert_eq!(tt.buckets().as_ptr() as usize % 64, 0);
            assert_eq!(tt.megabytes(), mb);
        }
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

    /// The tests that read the resident size take turns, so that one's table does not
    /// show in the other's figures.
    static RESIDENT: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn resident_kb() -> Option<usize> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    #[test]
    fn a_table_is_committed_when_made_and_cleared_at_once() {
        // 256 MB: the process holds all of it once the table is made (where the system tells
        // the resident size), so no search pays for first touches.
        let _turn = RESIDENT.lock().unwrap_or_else(|e| e.into_inner());
        let before = resident_kb();
        let tt = TranspositionTable::new(256).unwrap();
        if let (Some(before), Some(after)) = (before, resident_kb()) {
            assert!(after >= before + 230 * 1024, "{before} kB, then {after} kB");
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
        tt.clear();
        assert!(tt.probe(42).is_none(), "cleared");
        tt.store(42, Entry { score: 8, ..e });
        assert_eq!(tt.probe(42).unwrap().score, 8);
    }

    /// A table given up gives its memory back (`setoption Hash` may replace it many times).
    #[test]
    fn a_dropped_table_gives_its_memory_back() {
        // Other tests' tables come and go meanwhile: of three rounds, one at least must
        // end where it began; a table kept would add 128 MB to every round.
        let _turn = RESIDENT.lock().unwrap_or_else(|e| e.into_inner());
        let mut growth = Vec::new();
        for _ in 0..3 {
            let Some(before) = resident_kb() else {
                return;
            };
            drop(TranspositionTable::new(128).unwrap());
            growth.push(resident_kb().expect("read before").saturating_sub(before));
        }
        let least = growth.iter().min().copied().unwrap_or(0);
        assert!(least < 64 * 1024, "kB kept after each round: {growth:?}");
    }

    /// Every clear forgets: entries of before the last clear and of before the one before.
    #[test]
    fn clearing_again_forgets_again() {
        let tt = TranspositionTable::new(1).unwrap();
        let e = entry(5, 11);
        tt.store(1, e);
        tt.clear();
        tt.store(2, e);
        tt.clear();
        assert!(tt.probe(1).is_none() && tt.probe(2).is_none());
    }

    /// After a clear the forgotten entries are the first replaced, however deep: four new
    /// shallow positions all find a slot in a bucket full of deep old ones.
    #[test]
    fn cleared_entries_make_way_first() {
        let tt = TranspositionTable::new(1).unwrap();
        let base = 0x7654_3210_0000_0000u64;
        for i in 1..=4 {
            tt.store(base + i, entry(30, 0));
        }
        tt.clear();
        for i in 5..=8 {
            tt.store(base + i, entry(1, i as i32));
        }
        for i in 5..=8 {
            assert_eq!(
                tt.probe(base + i).map(|e| e.score),
                Some(i as i32),
                "key {i}"
            );
        }
    }

    /// Writes slot `slot` of bucket `bucket` directly, as `store` would for `key`.
    fn put(
        tt: &TranspositionTable,
        bucket: usize,
        slot: usize,
        key: u64,
        e: Entry,
        generation: u8,
    ) {
        let salted = key ^ tt.salt.load(Ordering::Relaxed);
        let data = pack(&e, generation);
        let slot = &tt.buckets()[bucket].0[slot];
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(data ^ salted, Ordering::Relaxed);
    }

    /// An empty slot is taken before an old search's entry, even one of depth 0.
    #[test]
    fn an_empty_slot_goes_before_any_entry() {
        let tt = TranspositionTable::with_buckets(1);
        tt.store(1, entry(0, 10));
        tt.new_search();
        tt.store(2, entry(0, 20));
        assert_eq!(tt.probe(1).map(|e| e.score), Some(10));
        assert_eq!(tt.probe(2).map(|e| e.score), Some(20));
    }

    /// Of equally useful slots, the first is replaced.
    #[test]
    fn of_equal_slots_the_first_is_replaced() {
        let tt = TranspositionTable::with_buckets(1);
        for (slot, depth) in [3, 3, 5, 5].into_iter().enumerate() {
            put(&tt, 0, slot, 100 + slot as u64, entry(depth, 0), 0);
        }
        tt.store(200, entry(4, 7));
        assert_eq!(tt.probe(200).map(|e| e.score), Some(7));
        assert!(tt.probe(100).is_none(), "the first shallow entry goes");
        for key in 101..=103 {
            assert!(tt.probe(key).is_some(), "key {key} stays");
        }
    }

    /// `hashfull` is the permille of entries written by the current search among the first
    /// 250 buckets (all of them in a smaller table); empty slots and older entries do not
    /// count, nor does anything beyond the sample.
    #[test]
    fn hashfull_counts_the_current_searchs_entries_in_its_sample() {
        let tt = TranspositionTable::with_buckets(400);
        for _ in 0..3 {
            tt.new_search();
        }
        assert_eq!(tt.hashfull(), 0);
        let fill = |buckets: std::ops::Range<usize>, generation: u8| {
            for bucket in buckets {
                for slot in 0..SLOTS_PER_BUCKET {
                    put(&tt, bucket, slot, bucket as u64, entry(1, 0), generation);
                }
            }
        };
        fill(0..125, 3);
        fill(125..150, 2);
        fill(300..400, 3);
        assert_eq!(tt.hashfull(), 500);
        let small = TranspositionTable::with_buckets(10);
        small.new_search();
        for bucket in 0..10 {
            put(&small, bucket, bucket % SLOTS_PER_BUCKET, 1, entry(1, 0), 1);
        }
        assert_eq!(small.hashfull(), 250);
    }

    /// On Linux the memory a table may take is what the system has available less a
    /// reserve of 256 MB for the rest of the engine.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_memory_available_keeps_a_reserve() {
        let read = || -> usize {
            let info = std::fs::read_to_string("/proc/meminfo").unwrap();
            let line = info
                .lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .unwrap();
            line.split_whitespace()
                .nth(1)
                .unwrap()
                .parse::<usize>()
                .unwrap()
                * 1024
        };
        let before = read();
        let ours = available_memory().expect("Linux tells the memory available");
        let after = read();
        let (reserve, slack) = (256usize << 20, 32usize << 20);
        let low = before.min(after).saturating_sub(reserve + slack);
        let high = before.max(after) - reserve + slack;
        assert!((low..=high).contains(&ours), "{low} <= {ours} <= {high}");
    }
}
