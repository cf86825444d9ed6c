//! `kibitz tb verify --self`: a table checked against itself. Retrograde
//! analysis must leave every position with exactly the value of its best
//! move (the mover wins as fast as it can, or loses as slowly), mate and
//! stalemate where there is no move. Any user can run it on any table;
//! it needs the tables the moves lead to, and nothing from outside.

use super::generate::is_legal;
use super::table::{self, UNKNOWN, via_move};
use super::verify::chess_of;
use super::{Material, Probe, Tablebases};
use shakmaty::{Color, Position};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// One position whose stored value is not its best move's.
#[derive(Clone, Debug)]
pub struct SelfMismatch {
    pub fen: String,
    pub stored: Option<Probe>,
    pub search: Probe,
}

/// What [`Tablebases::verify_self`] found.
#[derive(Clone, Debug)]
pub struct SelfReport {
    pub material: Material,
    /// Legal positions checked (one per symmetry class, both sides).
    pub checked: u64,
    pub mismatches: u64,
    /// The first few.
    pub examples: Vec<SelfMismatch>,
}

impl Tablebases {
    /// Checks every `sample`-th index entry of the loaded table of `m`
    /// (1: all) against a one-ply search over the tables: `None` if the
    /// table, or a table its moves lead to, is not loaded.
    pub fn verify_self(&self, m: &Material, sample: usize) -> Option<SelfReport> {
        let t = self.table(m)?;
        for c in m.normalized().0.children() {
            self.table(&c)?;
        }
        Some(self.check_self(m, sample.max(1), |i| t.values.get(i)))
    }

    /// [`Tablebases::verify_self`] over the values `stored` gives (index
    /// entries as in the table: White to move first).
    pub(crate) fn check_self(
        &self,
        m: &Material,
        sample: usize,
        stored: impl Fn(usize) -> Option<u8> + Sync,
    ) -> SelfReport {
        let Some(t) = self.table(m) else {
            return SelfReport {
                material: *m,
                checked: 0,
                mismatches: 0,
                examples: Vec::new(),
            };
        };
        let layout = &t.layout;
        let size = layout.size;
        let total = 2 * size;
        let next = AtomicUsize::new(0);
        let examples = Mutex::new(Vec::new());
        let work = || {
            let (mut checked, mut bad) = (0u64, 0u64);
            const CHUNK: usize = 1 << 14;
            loop {
                let start = next.fetch_add(CHUNK, Relaxed);
                if start >= total {
                    break;
                }
                // The sampled entries of this chunk: multiples of `sample`.
                let first = start.div_ceil(sample) * sample;
                for i in (first..(start + CHUNK).min(total)).step_by(sample) {
                    let (stm, idx) = if i < size {
                        (Color::White, i)
                    } else {
                        (Color::Black, i - size)
                    };
                    let r = layout.decode(idx);
                    if !layout.is_canonical(idx, &r) || !is_legal(&r, stm) {
                        continue;
                    }
                    let Some(pos) = chess_of(&r, stm) else {
                        continue;
                    };
                    checked += 1;
                    let moves = pos.legal_moves();
                    let search = if moves.is_empty() {
                        if pos.is_check() { 2 } else { UNKNOWN }
                    } else {
                        let mut best = None;
                        for mv in moves {
                            let mut c = pos.clone();
                            c.play_unchecked(mv);
                            let v = self.probe_code(&c).map_or(UNKNOWN, via_move);
                            best = Some(best.map_or(v, |b| table::better(b, v)));
                        }
                        best.unwrap_or(UNKNOWN)
                    };
                    let value = stored(i);
                    if value != Some(search) {
                        bad += 1;
                        if let Ok(mut ex) = examples.lock()
                            && ex.len() < 5
                        {
                            ex.push(SelfMismatch {
                                fen: shakmaty::fen::Fen::from_position(
                                    &pos,
                                    shakmaty::EnPassantMode::Legal,
                                )
                                .to_string(),
                                stored: value.map(Probe::from_code),
                                search: Probe::from_code(search),
                            });
                        }
                    }
                }
            }
            (checked, bad)
        };
        let threads = self.threads.max(1);
        let results: Vec<(u64, u64)> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..threads).map(|_| s.spawn(work)).collect();
            hs.into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        SelfReport {
            material: t.material(),
            checked: results.iter().map(|r| r.0).sum(),
            mismatches: results.iter().map(|r| r.1).sum(),
            examples: examples.into_inner().unwrap_or_default(),
        }
    }
}
