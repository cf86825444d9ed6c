//! Endgame tablebases in the engine: the probe inside the search, and what
//! the tables decide at the root.
//!
//! - Inside the search ([`TbAccess::probe`]), a non-root node with few
//!   enough pieces ends at once when a table answers: our own DTM tables
//!   (up to 4 pieces) give the exact mate distance, Syzygy WDL tables a
//!   "won" score just below the mate range ([`Score::tb_win_in`]). The
//!   first test is a piece count against a number that is 0 without
//!   tables, so positions with many pieces pay one compare.
//! - At the root ([`plan_root`]): our own tables play the fastest mate or
//!   the longest resistance outright; in a drawn position they restrict
//!   the search to the drawing moves. Syzygy DTZ tables (when our own do
//!   not cover the root) restrict the search to the moves that keep the
//!   best outcome under the 50-move rule, quickest zeroing move first.

use super::board::Board;
use super::score::{Bound, Line, MAX_PLY, Ply, Score};
use super::variant::Variant;
use crate::tablebase::syzygy::SyzygyTables;
use crate::tablebase::{MAX_PIECES, Probe, Tablebases, Wdl};
use shakmaty::Move;
use shakmaty_syzygy::Wdl as SyzygyWdl;

/// The tables a search may probe.
#[derive(Clone, Copy, Default)]
pub(crate) struct TbAccess<'a> {
    own: Option<&'a Tablebases>,
    syzygy: Option<&'a SyzygyTables>,
    /// Most pieces (kings included) of a position any table may answer;
    /// 0 when there are no tables.
    pieces: usize,
}

impl<'a> TbAccess<'a> {
    pub fn new(own: Option<&'a Tablebases>, syzygy: Option<&'a SyzygyTables>) -> TbAccess<'a> {
        let own = own.filter(|t| t.loaded() > 0);
        let syzygy = syzygy.filter(|s| s.wdl_tables() > 0);
        // Only as many pieces as the largest loaded table: a five-piece
        // position costs no probe when only four-piece tables exist.
        let pieces = own
            .map_or(0, |t| t.max_pieces())
            .max(syzygy.map_or(0, |s| s.max_pieces()));
        TbAccess {
            own,
            syzygy,
            pieces,
        }
    }

    /// No probing at all.
    pub fn none() -> TbAccess<'a> {
        TbAccess::default()
    }

    /// The score of a non-root node from the tables, and its bound, or
    /// `None` (too many pieces, no table, or checkmate on the board, which
    /// the search scores itself).
    /// Only standard chess has tables: in the drop variants this is `None`
    /// at compile time.
    #[inline(always)]
    pub fn probe<V: Variant>(&self, board: &Board<V>, ply: Ply) -> Option<(Score, Bound)> {
        let board = board.as_std()?;
        let pieces = board.board().occupied().count();
        if pieces > self.pieces {
            return None;
        }
        self.probe_tables(board, ply, pieces)
    }

    #[inline(never)]
    fn probe_tables(&self, board: &Board, ply: Ply, pieces: usize) -> Option<(Score, Bound)> {
        if pieces <= MAX_PIECES
            && let Some(p) = self.own.and_then(|t| t.probe(board))
        {
            return match p.wdl {
                Wdl::Loss if p.dtm == 0 => None,
                _ => Some((own_score(p, ply), Bound::Exact)),
            };
        }
        let sz = self.syzygy?;
        // WDL tables are only exact right after a capture or pawn move.
        if pieces > sz.max_pieces() || board.halfmoves() != 0 {
            return None;
        }
        Some(match sz.probe_wdl_after_zeroing(board.chess())? {
            SyzygyWdl::Win => (Score::tb_win_in(ply), Bound::Lower),
            SyzygyWdl::Loss => (Score::tb_loss_in(ply), Bound::Upper),
            // A cursed win or blessed loss is a draw under the 50-move rule.
            SyzygyWdl::CursedWin | SyzygyWdl::Draw | SyzygyWdl::BlessedLoss => {
                (Score::DRAW, Bound::Exact)
            }
        })
    }
}

/// A DTM table value as a search score at `ply` (mate distances from the
/// root).
pub(crate) fn own_score(p: Probe, ply: Ply) -> Score {
    match p.wdl {
        Wdl::Win => Score::mate_in(ply + p.dtm as usize),
        Wdl::Loss => Score::mated_in(ply + p.dtm.unsigned_abs() as usize),
        Wdl::Draw => Score::DRAW,
    }
}

/// What the tables decide at the root.
#[derive(Debug)]
pub(crate) enum RootPlan {
    /// Our own tables decide: the lines, best first (mate scores, PVs
    /// that follow the tables).
    Decided(Vec<Line>),
    /// Search only these moves (in this order). Each has the score the
    /// tables give it, reported while the search has no mate score.
    /// `probe`: probe the tables inside this search.
    Restrict {
        moves: Vec<(Move, Score)>,
        probe: bool,
    },
    /// The tables do not cover the root.
    Search,
}

/// Longest PV built from the tables.
const PV_MAX: usize = MAX_PLY;
/// PV length of a drawn line built from the tables.
const DRAW_PV: usize = 8;

/// The root decision for `root` (with `multipv` lines), restricted to
/// `searchmoves` when that is not empty, and how many positions the
/// tables answered.
pub(crate) fn plan_root(
    own: Option<&Tablebases>,
    syzygy: Option<&SyzygyTables>,
    root: &Board,
    searchmoves: &[Move],
    multipv: usize,
) -> (RootPlan, u64) {
    let pieces = root.board().occupied().count();
    if pieces <= MAX_PIECES
        && let Some(tb) = own
        && let Some(moves) = tb.best_moves(root)
    {
        let hits = moves.len() as u64;
        let moves: Vec<(Move, Probe)> = moves
            .into_iter()
            .filter(|(m, _)| searchmoves.is_empty() || searchmoves.contains(m))
            .collect();
        let Some(&(_, best)) = moves.first() else {
            return (RootPlan::Search, hits);
        };
        if best.wdl == Wdl::Draw {
            let drawing = moves
                .iter()
                .filter(|(_, p)| p.wdl == Wdl::Draw)
                .map(|&(m, _)| (m, Score::DRAW))
                .collect();
            return (
                RootPlan::Restrict {
                    moves: drawing,
                    probe: false,
                },
                hits,
            );
        }
        let lines = moves
            .iter()
            .take(multipv.max(1))
            .map(|&(m, p)| {
                let max = if p.wdl == Wdl::Draw { DRAW_PV } else { PV_MAX };
                let mut pv = vec![m];
                pv.extend(table_line(tb, &root.play(m), max - 1));
                Line {
                    score: own_score(p, 0),
                    pv,
                }
            })
            .collect();
        return (RootPlan::Decided(lines), hits);
    }
    if let Some(sz) = syzygy
        && pieces <= sz.max_pieces()
        && let Some(ranks) = sz.rank_root_moves(root.chess(), searchmoves)
        && let Some(best) = ranks.first()
    {
        let hits = ranks.len() as u64;
        let best = best.wdl;
        let moves = ranks
            .iter()
            .filter(|r| r.wdl == best)
            .map(|r| {
                let score = match r.wdl {
                    _ if r.mates => Score::mate_in(1),
                    SyzygyWdl::Win => Score::tb_win_in(1 + r.dtz as usize),
                    SyzygyWdl::Loss => Score::tb_loss_in(1 + r.dtz as usize),
                    _ => Score::DRAW,
                };
                (r.mv, score)
            })
            .collect();
        // Winning: the search looks for the quickest conversion (captures
        // into won tables score higher the sooner they come). Otherwise it
        // picks among equal moves by its evaluation (practical chances).
        return (
            RootPlan::Restrict {
                moves,
                probe: best == SyzygyWdl::Win,
            },
            hits,
        );
    }
    (RootPlan::Search, 0)
}

/// The line both sides play when they follow the tables (the quickest
/// mate, the longest resistance), up to `max` plies or mate.
pub(crate) fn table_line(tb: &Tablebases, board: &Board, max: usize) -> Vec<Move> {
    let mut line = Vec::new();
    let mut b = board.clone();
    while line.len() < max {
        let Some(&(m, _)) = tb.best_moves(&b).as_ref().and_then(|v| v.first()) else {
            break;
        };
        line.push(m);
        b = b.play(m);
    }
    line
}
