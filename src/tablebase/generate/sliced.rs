//! Tables with pawns, made one slice (pawn configuration) at a time: see
//! [`crate::tablebase::slices`]. Groups of slices (the pawns' files) are
//! independent, so each worker takes a whole group and makes its slices
//! in order, keeping only the finished slices that later pushes of the
//! group still read. Each slice's values are compressed as soon as it is
//! done, into the blocks the file will hold.

use super::*;
use crate::tablebase::values::{BLOCK_VALUES, Packed, Spill};
use std::collections::HashMap;
use std::sync::Mutex;

/// Finished slices a group's pushes still lead to: their values, White to
/// move then Black.
#[derive(Default)]
pub(super) struct Finished {
    slices: HashMap<usize, Cells>,
}

impl Finished {
    /// The value code of `c` (a position of a finished slice) for `stm`.
    #[inline]
    pub(super) fn value(&self, layout: &Layout, c: &Raw, stm: Color) -> u8 {
        let idx = layout.index(c);
        let (s, at) = (idx / layout.slice_size, idx % layout.slice_size);
        // Slices are made in an order that finishes every slice a push
        // leads to first, and kept until their last reader is done.
        self.slices[&s].get(side(stm) * layout.slice_size + at)
    }

    /// The 64 values of word `w` (positions `64w..64w + 64` of the slice)
    /// of finished slice `s` for `stm` to move.
    #[inline]
    pub(super) fn word(&self, layout: &Layout, s: usize, stm: Color, w: usize) -> [u8; 64] {
        let cells = &self.slices[&s];
        let first = (side(stm) * layout.slice_size) / 8 + 8 * w;
        let mut out = [0u8; 64];
        for (k, b) in out.chunks_exact_mut(8).enumerate() {
            b.copy_from_slice(&cells.word(first + k).to_le_bytes());
        }
        out
    }
}

/// Compressed blocks of a table's two halves, filled in any order: a
/// whole block is compressed by the thread that brings it, pieces of
/// blocks (slices smaller than a block) wait until their block is full.
struct Packer {
    level: i32,
    /// Values per half (a whole number of blocks).
    half: usize,
    state: Mutex<PackState>,
}

struct PackState {
    /// Compressed blocks, White's half first: in memory, or written to a
    /// spill file as they come.
    blocks: Result<Sink, String>,
    /// Blocks being assembled: values, how many are in, and whether any
    /// piece must be stored exactly (see [`Packer::put`]).
    partial: HashMap<usize, (Vec<u8>, usize, bool)>,
}

enum Sink {
    Memory(Vec<Option<Vec<u8>>>),
    Spill(Spill),
}

impl Packer {
    /// `spill`: the file to write the blocks to (else they stay in
    /// memory).
    fn new(half: usize, level: i32, spill: Option<Spill>) -> Packer {
        debug_assert!(half.is_multiple_of(BLOCK_VALUES));
        let blocks = 2 * half / BLOCK_VALUES;
        Packer {
            level,
            half,
            state: Mutex::new(PackState {
                blocks: Ok(match spill {
                    Some(s) => Sink::Spill(s),
                    None => Sink::Memory(vec![None; blocks]),
                }),
                partial: HashMap::new(),
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, PackState> {
        // A worker that panicked holding the lock left whole blocks only.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keeps compressed block `k`.
    fn keep(&self, k: usize, bytes: Vec<u8>) {
        let mut st = self.lock();
        let failed = match &mut st.blocks {
            Ok(Sink::Memory(b)) => {
                b[k] = Some(bytes);
                None
            }
            Ok(Sink::Spill(s)) => s.put(k, &bytes).err(),
            Err(_) => None,
        };
        if let Some(e) = failed {
            st.blocks = Err(format!("cannot write the spill file: {e}"));
        }
    }

    /// Values `values` of half `h` (0 = White to move) from index `start`;
    /// `exact`: they hold positions mated in [`MAX_DIST`] (code 1, like
    /// unused ones, which are then stored as they are).
    fn put(&self, h: usize, start: usize, values: &[u8], exact: bool) {
        let first = h * self.half + start;
        let mut pos = first;
        let end = first + values.len();
        while pos < end {
            let k = pos / BLOCK_VALUES;
            let block_start = k * BLOCK_VALUES;
            let upto = end.min(block_start + BLOCK_VALUES);
            let piece = &values[pos - first..upto - first];
            if piece.len() == BLOCK_VALUES {
                let b = crate::tablebase::file::compress_block(piece, self.level, exact);
                self.keep(k, b);
            } else {
                let full = {
                    let mut st = self.lock();
                    let (buf, filled, any_exact) = st
                        .partial
                        .entry(k)
                        .or_insert_with(|| (vec![ILLEGAL; BLOCK_VALUES], 0, false));
                    buf[pos - block_start..upto - block_start].copy_from_slice(piece);
                    *filled += piece.len();
                    *any_exact |= exact;
                    if *filled == BLOCK_VALUES {
                        st.partial.remove(&k).map(|p| (p.0, p.2))
                    } else {
                        None
                    }
                };
                if let Some((buf, exact)) = full {
                    let b = crate::tablebase::file::compress_block(&buf, self.level, exact);
                    self.keep(k, b);
                }
            }
            pos = upto;
        }
    }

    /// Every block, once every value was put (the ends of the halves past
    /// the last slice are unused).
    fn finish(self, used: usize) -> Result<Packed, String> {
        let pad = vec![ILLEGAL; self.half - used];
        for h in 0..2 {
            self.put(h, used, &pad, false);
        }
        let len = 2 * self.half;
        let st = self.state.into_inner().unwrap_or_else(|e| e.into_inner());
        match st.blocks? {
            Sink::Memory(blocks) => {
                let blocks = blocks
                    .into_iter()
                    .enumerate()
                    .map(|(k, b)| b.ok_or_else(|| format!("block {k} was never made")))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Packed::new(blocks, len))
            }
            Sink::Spill(s) => match s.missing() {
                Some(k) => Err(format!("block {k} was never made")),
                None => Ok(Packed::spilled(s, len)),
            },
        }
    }
}

/// Generates a table with pawns: see [`generate`](super::generate).
pub(super) fn generate(
    layout: &Layout,
    set: &TableSet,
    threads: usize,
    spill: Option<&std::path::Path>,
    level: &mut (dyn FnMut(LevelInfo) + Send),
) -> Result<(crate::tablebase::values::Values, TableStats), String> {
    let Some(slices) = layout.slices.as_deref() else {
        return Err(format!("{}: no pawns to slice by", layout.material));
    };
    let size = layout.slice_size;
    // Groups: ranges of slices.
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    for s in 0..slices.len() {
        match groups.last_mut() {
            Some(g) if slices.group(g.start) == slices.group(s) => g.end = s + 1,
            _ => groups.push(s..s + 1),
        }
    }
    // Workers take groups; what is left of the threads works inside a
    // slice (when slices are large enough to share).
    let workers = threads.min(groups.len()).max(1);
    let inner = if size >= 1 << 20 {
        (threads / workers).max(1)
    } else {
        1
    };
    let spill = match spill {
        Some(path) if crate::tablebase::file::is_large(layout.size) => Some(
            Spill::create(path.to_path_buf(), 2 * layout.size / BLOCK_VALUES)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
        ),
        _ => None,
    };
    let level_of_file = crate::tablebase::file::level_for(2 * layout.size);
    // A small table (up to four pieces) is kept whole as it is made: it
    // stays in memory afterwards, and its file is compressed on every
    // thread. A large one goes into compressed blocks slice by slice.
    let whole = (!crate::tablebase::file::is_large(layout.size))
        .then(|| Cells::new(2 * layout.size, ILLEGAL));
    let packer = whole
        .is_none()
        .then(|| Packer::new(layout.size, level_of_file, spill));
    let any_exact = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let stats = Mutex::new(TableStats::default());
    let progress = Mutex::new((level, 0u32, 0u64));
    let failure: Mutex<Option<String>> = Mutex::new(None);
    parallel(workers, || {
        loop {
            let g = next.fetch_add(1, Relaxed);
            if g >= groups.len() || failure.lock().map_or(true, |f| f.is_some()) {
                break;
            }
            let mut finished = Finished::default();
            for s in groups[g].clone() {
                let window = Gen::new(layout, set, s * size, size, Some(&finished), inner);
                let top = Top::default();
                window.init(inner, &top);
                let mut found = 0;
                let mut plies = 0;
                if let Err(e) = window.run(inner, &top, &mut |d, n| {
                    found += n;
                    plies = d;
                }) {
                    if let Ok(mut f) = failure.lock() {
                        f.get_or_insert(e);
                    }
                    return;
                }
                let part = window.stats(inner);
                if let Ok(mut st) = stats.lock() {
                    st.add(&part);
                }
                let exact = top.has(code_of(MAX_DIST));
                if exact {
                    any_exact.store(true, Relaxed);
                }
                let cells = window.into_cells();
                if let Some(all) = &whole {
                    // Slices and halves start whole words.
                    for h in 0..2 {
                        let (from, to) = (h * size / 8, (h * layout.size + s * size) / 8);
                        for k in 0..size / 8 {
                            all.store_word(to + k, cells.word(from + k));
                        }
                    }
                } else if let Some(packer) = &packer {
                    // A block at a time into the file's blocks (no copy of
                    // the slice: its cells are kept if a push leads here).
                    let mut block = vec![0u8; size.min(BLOCK_VALUES)];
                    for h in 0..2 {
                        for at in (0..size).step_by(block.len()) {
                            cells.copy_to(h * size + at, &mut block);
                            packer.put(h, s * size + at, &block, exact);
                        }
                    }
                }
                finished
                    .slices
                    .retain(|&t, _| slices.last_use(t).is_some_and(|u| u > s));
                if slices.last_use(s).is_some() {
                    finished.slices.insert(s, cells);
                }
                if let Ok(mut p) = progress.lock() {
                    let (report, ply, resolved) = &mut *p;
                    *ply = (*ply).max(plies);
                    *resolved += found;
                    report(LevelInfo {
                        ply: *ply,
                        resolved: *resolved,
                    });
                }
            }
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let stats = stats.into_inner().unwrap_or_else(|e| e.into_inner());
    let (packer, used) = match (whole, packer) {
        (Some(all), _) if !any_exact.load(Relaxed) => {
            return Ok((crate::tablebase::values::Values::Made(all), stats));
        }
        (Some(all), _) => {
            // Positions mated in MAX_DIST share their code with unused
            // ones, which a file written from made values would fill in:
            // blocks stored exactly instead.
            let packer = Packer::new(layout.size, level_of_file, None);
            let mut block = vec![0u8; BLOCK_VALUES];
            for h in 0..2 {
                for at in (0..layout.size).step_by(BLOCK_VALUES) {
                    all.copy_to(h * layout.size + at, &mut block);
                    packer.put(h, at, &block, true);
                }
            }
            (packer, layout.size)
        }
        (None, Some(packer)) => (packer, slices.len() * size),
        (None, None) => return Err(format!("{}: nowhere to keep values", layout.material)),
    };
    let packed = packer.finish(used)?;
    let values = crate::tablebase::values::Values::Packed(Box::new(packed));
    Ok((values, stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::values::Values;

    #[test]
    fn blocks_spilled_to_a_file_in_any_order_read_back_and_the_file_goes() {
        let half = 2 * BLOCK_VALUES;
        let path = std::env::temp_dir().join(format!(".packer.spill.{}.tmp", std::process::id()));
        let values: Vec<u8> = (0..2 * half)
            .map(|i| (2 + i % 7 + i / 5000) as u8)
            .collect();
        for spill in [false, true] {
            let s = spill.then(|| Spill::create(path.clone(), 2 * half / BLOCK_VALUES).unwrap());
            let p = Packer::new(half, 3, s);
            // Black's half first, then White's in two pieces, the second
            // smaller than a block.
            p.put(1, 0, &values[half..], false);
            p.put(0, 0, &values[..half - 100], false);
            p.put(0, half - 100, &values[half - 100..half], false);
            let packed = p.finish(half).unwrap();
            assert_eq!(path.exists(), spill);
            let v = Values::Packed(Box::new(packed));
            for i in (0..2 * half).step_by(977) {
                assert_eq!(v.get(i), Some(values[i]), "{i}");
            }
            drop(v);
            assert!(!path.exists(), "the spill file is removed");
        }
    }
}
