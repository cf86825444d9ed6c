//! `kibitz tb verify --self`: a table checked against itself. Retrograde
//! analysis must leave every position with exactly the value of its best
//! move (the mover wins as fast as it can, or loses as slowly), mate and
//! stalemate where there is no move. Any user can run it on any table;
//! it needs the tables the moves lead to, and nothing from outside.

use super::table::{self, UNKNOWN, via_move};
use super::verify::for_each_position;
use super::{Material, Probe, Tablebases};
use shakmaty::{Chess, Position};
use std::sync::Mutex;

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

    /// The value of `pos` by a one-ply search over the tables: its best
    /// move's, mate (2) or stalemate without a move; a move into a table
    /// not loaded counts as unknown.
    pub(crate) fn search_code(&self, pos: &Chess) -> u8 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.is_check() { 2 } else { UNKNOWN };
        }
        let mut best = None;
        for mv in moves {
            let mut c = pos.clone();
            c.play_unchecked(mv);
            let v = self.probe_code(&c).map_or(UNKNOWN, via_move);
            best = Some(best.map_or(v, |b| table::better(b, v)));
        }
        best.unwrap_or(UNKNOWN)
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
        let examples = Mutex::new(Vec::new());
        // (checked, mismatches) per thread.
        let visit = |tally: &mut (u64, u64), i: usize, pos: &Chess| {
            tally.0 += 1;
            let search = self.search_code(pos);
            let value = stored(i);
            if value != Some(search) {
                tally.1 += 1;
                if let Ok(mut ex) = examples.lock()
                    && ex.len() < 5
                {
                    ex.push(SelfMismatch {
                        fen: shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                            .to_string(),
                        stored: value.map(Probe::from_code),
                        search: Probe::from_code(search),
                    });
                }
            }
        };
        let results = for_each_position(&t.layout, self.threads, sample, visit);
        SelfReport {
            material: t.material(),
            checked: results.iter().map(|r| r.0).sum(),
            mismatches: results.iter().map(|r| r.1).sum(),
            examples: examples.into_inner().unwrap_or_default(),
        }
    }
}
