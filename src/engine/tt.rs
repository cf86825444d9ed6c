//! Transposition table.
//!
//! Fixed-size buckets of three 10-byte entries (32 bytes, two buckets per
//! cache line). The bucket is chosen by the high bits of the key (a multiply,
//! no modulo, so any size works) and entries are verified with the low 16
//! bits. Replacement keeps deep entries of the current search and throws away
//! shallow or old ones first. Scores are stored relative to the node (mate
//! distances adjusted by ply, see [`Score::to_tt`]).
//!
//! Several search threads share one table (Lazy SMP). A bucket is four
//! `AtomicU64` words read and written with relaxed ordering, which compiles
//! to plain loads and stores: no locks, no read-modify-write instructions.
//! Two threads writing the same bucket at once may mix their entries, and
//! a 10-byte entry can straddle two words, so a reader may (rarely) see one
//! entry's key with parts of another's data. Like Stockfish's table, this
//! one accepts that: such an entry can only mislead one node's search, and
//! a TT move is checked for legality before it is played.

use super::board::Move16;
use super::largemem::{LargeBuf, Zeroable};
use super::score::{Bound, Depth, Ply, Score};
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Copy, Clone, Default, Debug)]
#[repr(C)]
struct Entry {
    key: u16,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Generation in the high 6 bits, bound in the low 2.
    gen_bound: u8,
}

const ENTRIES: usize = 3;

#[derive(Copy, Clone, Default, Debug)]
#[repr(C, align(32))]
struct Bucket {
    entries: [Entry; ENTRIES],
    _pad: u16,
}

/// The shared form of a [`Bucket`]: the same 32 bytes as four words.
#[repr(C, align(32))]
struct AtomicBucket([AtomicU64; 4]);

// SAFETY: atomics of plain integers; all zeros is an empty bucket
// (`gen_bound & 3 == 0` marks an unused entry).
unsafe impl Zeroable for AtomicBucket {}

const _: () = assert!(std::mem::size_of::<Entry>() == 10);
const _: () = assert!(std::mem::size_of::<Bucket>() == 32);
const _: () = assert!(std::mem::size_of::<AtomicBucket>() == 32);

impl AtomicBucket {
    #[inline]
    fn load(&self) -> Bucket {
        let words = self.0.each_ref().map(|w| w.load(Ordering::Relaxed));
        // SAFETY: Bucket is 32 bytes of plain integers (any bit pattern is a
        // valid value) and has the same size as the four words.
        unsafe { std::mem::transmute::<[u64; 4], Bucket>(words) }
    }

    /// Writes back the words of `new` that differ from `old`.
    #[inline]
    fn store(&self, old: &Bucket, new: &Bucket) {
        // SAFETY: as in `load`.
        let (old, new) = unsafe {
            (
                std::mem::transmute::<Bucket, [u64; 4]>(*old),
                std::mem::transmute::<Bucket, [u64; 4]>(*new),
            )
        };
        for i in 0..4 {
            if old[i] != new[i] {
                self.0[i].store(new[i], Ordering::Relaxed);
            }
        }
    }
}

/// The result of a successful probe.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtHit {
    pub mv: Move16,
    pub score: Score,
    /// Static evaluation stored with the entry (`None` when unknown).
    pub eval: Option<Score>,
    pub depth: Depth,
    pub bound: Bound,
}

/// Depth stored for quiescence entries; TT depths are offset so this fits a u8.
const DEPTH_OFFSET: Depth = 8;
const NO_EVAL: i16 = i16::MIN;

pub struct TranspositionTable {
    buckets: LargeBuf<AtomicBucket>,
    generation: u8,
}

impl TranspositionTable {
    pub const DEFAULT_MB: usize = 16;
    pub const MAX_MB: usize = 65536;

    pub fn new(mb: usize) -> TranspositionTable {
        let mb = mb.clamp(1, Self::MAX_MB);
        let n = mb * 1024 * 1024 / std::mem::size_of::<Bucket>();
        TranspositionTable {
            buckets: LargeBuf::zeroed(n),
            generation: 0,
        }
    }

    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    pub fn resize(&mut self, mb: usize) {
        *self = TranspositionTable::new(mb);
    }

    pub fn clear(&mut self) {
        self.buckets.clear();
        self.generation = 0;
    }

    /// Call once per search: entries from older searches become replaceable.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// Hints the CPU to fetch the bucket for `key` (call before making the move).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let ptr = self.buckets.as_ptr().add(self.index(key));
            _mm_prefetch(ptr as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline(always)]
    pub fn probe(&self, key: u64, ply: Ply) -> Option<TtHit> {
        let bucket = self.buckets[self.index(key)].load();
        let k = key as u16;
        for e in &bucket.entries {
            if e.key == k && e.gen_bound & 3 != 0 {
                return Some(TtHit {
                    mv: Move16(e.mv),
                    score: Score::from_tt(e.score, ply),
                    eval: (e.eval != NO_EVAL).then_some(Score(e.eval as i32)),
                    depth: e.depth as Depth - DEPTH_OFFSET,
                    bound: Bound::from_bits(e.gen_bound),
                });
            }
        }
        None
    }

    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        ply: Ply,
        mv: Move16,
        score: Score,
        eval: Option<Score>,
        depth: Depth,
        bound: Bound,
    ) {
        let generation = self.generation;
        let shared = &self.buckets[self.index(key)];
        let old = shared.load();
        let mut bucket = old;
        let k = key as u16;

        // Same position already stored: update it (keep its move if we have none).
        let mut slot = None;
        for (i, e) in bucket.entries.iter().enumerate() {
            if e.key == k && e.gen_bound & 3 != 0 {
                slot = Some(i);
                break;
            }
        }
        let i = match slot {
            Some(i) => {
                let e = &bucket.entries[i];
                // Keep a deeper exact-ish entry of this search unless ours is exact.
                let old_depth = e.depth as Depth - DEPTH_OFFSET;
                if bound != Bound::Exact && e.gen_bound >> 2 == generation && old_depth > depth + 3
                {
                    return;
                }
                i
            }
            None => {
                // Replace the least valuable entry: empty, then old, then shallow.
                let mut worst = 0;
                let mut worst_value = i32::MAX;
                for (i, e) in bucket.entries.iter().enumerate() {
                    if e.gen_bound & 3 == 0 {
                        worst = i;
                        break;
                    }
                    let age = ((generation as i32 - (e.gen_bound >> 2) as i32) & 63) * 8;
                    let value = e.depth as i32 - age;
                    if value < worst_value {
                        worst_value = value;
                        worst = i;
                    }
                }
                worst
            }
        };
        let e = &mut bucket.entries[i];
        let mv = if mv.is_none() && e.key == k {
            Move16(e.mv)
        } else {
            mv
        };
        *e = Entry {
            key: k,
            mv: mv.0,
            score: score.to_tt(ply),
            eval: eval.map_or(NO_EVAL, |s| s.0.clamp(-30000, 30000) as i16),
            depth: (depth + DEPTH_OFFSET).clamp(0, 255) as u8,
            gen_bound: generation << 2 | bound as u8,
        };
        shared.store(&old, &bucket);
    }

    /// Permille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(334);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in &b.load().entries {
                if e.gen_bound & 3 != 0 && e.gen_bound >> 2 == self.generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Threads writing and reading at once (Lazy SMP): each thread's keys
    /// fall in its own quarter of the table (the top bits pick the bucket),
    /// so each finds what it stored.
    #[test]
    fn shared_between_threads() {
        let tt = TranspositionTable::new(1);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..2000u64 {
                        let key = t << 62 | i << 47 | i;
                        tt.store(
                            key,
                            0,
                            Move16(i as u16 + 1),
                            Score(i as i32),
                            None,
                            5,
                            Bound::Exact,
                        );
                        let hit = tt.probe(key, 0).expect("just stored");
                        assert_eq!(hit.score, Score(i as i32));
                        assert_eq!(hit.mv, Move16(i as u16 + 1));
                    }
                });
            }
        });
        assert!(tt.hashfull() > 0);
    }

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert!(tt.probe(key, 0).is_none());
        tt.store(
            key,
            0,
            Move16(77),
            Score(42),
            Some(Score(10)),
            7,
            Bound::Lower,
        );
        let hit = tt.probe(key, 0).unwrap();
        assert_eq!(hit.mv, Move16(77));
        assert_eq!(hit.score, Score(42));
        assert_eq!(hit.eval, Some(Score(10)));
        assert_eq!(hit.depth, 7);
        assert_eq!(hit.bound, Bound::Lower);
        // Another key in the same table is not found.
        assert!(tt.probe(key ^ 0xffff, 0).is_none());
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        let key = 42;
        // At ply 4 the side to move mates in 3 plies: mate_in(4 + 3) from the root.
        tt.store(
            key,
            4,
            Move16::NONE,
            Score::mate_in(7),
            None,
            5,
            Bound::Exact,
        );
        // Reached again at ply 2 (a transposition), it is mate in 2 + 3 = 5 plies.
        assert_eq!(tt.probe(key, 2).unwrap().score, Score::mate_in(5));
        tt.store(
            key,
            3,
            Move16::NONE,
            Score::mated_in(9),
            None,
            5,
            Bound::Exact,
        );
        assert_eq!(tt.probe(key, 1).unwrap().score, Score::mated_in(7));
    }

    #[test]
    fn quiescence_depths_fit() {
        let tt = TranspositionTable::new(1);
        tt.store(9, 0, Move16::NONE, Score(1), None, -1, Bound::Upper);
        assert_eq!(tt.probe(9, 0).unwrap().depth, -1);
    }

    #[test]
    fn replacement_prefers_old_and_shallow() {
        let mut tt = TranspositionTable::new(1);
        let n = tt.buckets.len() as u128;
        // Keys that land in bucket 0: high bits small.
        let keys: Vec<u64> = (1..=4u64).collect();
        assert!(keys.iter().all(|&k| (k as u128 * n) >> 64 == 0));
        tt.store(keys[0], 0, Move16::NONE, Score(1), None, 10, Bound::Exact);
        tt.store(keys[1], 0, Move16::NONE, Score(2), None, 2, Bound::Exact);
        tt.store(keys[2], 0, Move16::NONE, Score(3), None, 8, Bound::Exact);
        tt.store(keys[3], 0, Move16::NONE, Score(4), None, 5, Bound::Exact);
        assert!(tt.probe(keys[0], 0).is_some());
        assert!(tt.probe(keys[1], 0).is_none(), "the shallowest entry goes");
        assert!(tt.probe(keys[3], 0).is_some());
        tt.new_search();
        tt.new_search();
        tt.store(100 << 1, 0, Move16::NONE, Score(5), None, 1, Bound::Exact);
        assert_eq!(tt.hashfull(), 0);
    }
}
