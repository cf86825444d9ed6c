//! Checks a table against Syzygy WDL tables, position by position.
//!
//! Syzygy knows the 50-move rule: a cursed win counts as a win and a
//! blessed loss as a loss (a pure DTM table ignores the rule).

use super::generate::is_legal;
use super::index::{Layout, Raw};
use super::material::{code_color, code_role};
use super::table::{is_loss, is_win};
use super::{Material, Tablebases};
use shakmaty::{Bitboard, CastlingMode, Chess, Color, FromSetup, Piece, Setup, Square};
use shakmaty_syzygy::Tablebase as Syzygy;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// One disagreement.
#[derive(Clone, Debug)]
pub struct Mismatch {
    pub fen: String,
    /// Our WDL, -1/0/1.
    pub ours: i32,
    /// Syzygy's WDL, -1/0/1 (`None`: it could not answer).
    pub syzygy: Option<i32>,
}

/// The result of comparing one table.
#[derive(Clone, Debug)]
pub struct VerifyReport {
    pub material: Material,
    /// Positions compared (one per symmetry class, both sides to move).
    pub checked: u64,
    pub mismatches: u64,
    /// Syzygy errors (counted in `mismatches` too).
    pub errors: u64,
    /// The first few mismatches.
    pub examples: Vec<Mismatch>,
}

/// Opens the Syzygy tables of a directory.
pub fn open_syzygy(dir: &Path) -> std::io::Result<Syzygy<Chess>> {
    let mut tb = Syzygy::new();
    tb.add_directory(dir)?;
    Ok(tb)
}

/// Does `dir` hold a Syzygy WDL file for `m`?
pub fn syzygy_has(dir: &Path, m: &Material) -> bool {
    let m = m.normalized().0;
    [m, m.flipped()]
        .iter()
        .any(|n| dir.join(format!("{n}.rtbw")).is_file())
}

/// A shakmaty position from a table position (no castling, no en passant).
pub(crate) fn chess_of(r: &Raw, stm: Color) -> Option<Chess> {
    let mut board = shakmaty::Board::empty();
    board.set_piece_at(Square::new(u32::from(r.wk)), Color::White.king());
    board.set_piece_at(Square::new(u32::from(r.bk)), Color::Black.king());
    for p in r.pieces() {
        board.set_piece_at(
            Square::new(u32::from(p.1)),
            Piece {
                color: code_color(p.0),
                role: code_role(p.0),
            },
        );
    }
    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = stm;
    setup.promoted = Bitboard::EMPTY;
    match Chess::from_setup(setup, CastlingMode::Standard) {
        Ok(pos) => Some(pos),
        // A check no move could have given still has a value.
        Err(e) => e.ignore_impossible_check().ok(),
    }
}

fn wdl_of(code: u8) -> i32 {
    if is_win(code) {
        1
    } else if is_loss(code) {
        -1
    } else {
        0
    }
}

/// Calls `visit(tally, i, pos)` for every `sample`-th index entry `i` of
/// `layout` (both sides to move, White first) that is a canonical legal
/// position, on `threads` threads; each thread keeps its own `tally`.
pub(crate) fn for_each_position<T: Default + Send>(
    layout: &Layout,
    threads: usize,
    sample: usize,
    visit: impl Fn(&mut T, usize, &Chess) + Sync,
) -> Vec<T> {
    let size = layout.size;
    let total = 2 * size;
    let sample = sample.max(1);
    let next = AtomicUsize::new(0);
    let work = || {
        let mut tally = T::default();
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
                if let Some(pos) = chess_of(&r, stm) {
                    visit(&mut tally, i, &pos);
                }
            }
        }
        tally
    };
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads.max(1)).map(|_| s.spawn(work)).collect();
        hs.into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

impl Tablebases {
    /// Compares every position of the loaded table of `m` with Syzygy's
    /// WDL. `None` if the table is not loaded.
    pub fn verify_syzygy(&self, m: &Material, syzygy: &Syzygy<Chess>) -> Option<VerifyReport> {
        let table = self.table(m)?;
        let examples = Mutex::new(Vec::new());
        // (checked, mismatches, errors) per thread.
        let visit = |t: &mut (u64, u64, u64), i: usize, pos: &Chess| {
            t.0 += 1;
            let Some(code) = table.values.get(i) else {
                // A block of the file that cannot be read.
                t.1 += 1;
                t.2 += 1;
                return;
            };
            let ours = wdl_of(code);
            let theirs = syzygy.probe_wdl_after_zeroing(pos).ok().map(|w| w.signum());
            if theirs != Some(ours) {
                t.1 += 1;
                if theirs.is_none() {
                    t.2 += 1;
                }
                if let Ok(mut ex) = examples.lock()
                    && ex.len() < 5
                {
                    ex.push(Mismatch {
                        fen: shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                            .to_string(),
                        ours,
                        syzygy: theirs,
                    });
                }
            }
        };
        let results = for_each_position(&table.layout, self.threads, 1, visit);
        let mut rep = VerifyReport {
            material: table.material(),
            checked: 0,
            mismatches: 0,
            errors: 0,
            examples: examples.into_inner().unwrap_or_default(),
        };
        for (c, b, e) in results {
            rep.checked += c;
            rep.mismatches += b;
            rep.errors += e;
        }
        Some(rep)
    }
}
