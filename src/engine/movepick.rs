//! Staged move ordering.
//!
//! Stages, in order: the transposition-table move (tried before any move is
//! generated: when it cuts, generation is skipped), good captures and queen
//! promotions (most valuable victim first, kept only if static exchange does
//! not lose material), the two killer moves, the countermove, the quiet
//! moves by history, and finally the losing captures.
//!
//! Every legal move is returned exactly once (see the "movepicker perft"
//! test).

use super::board::{Board, Move16};
use super::history::{ContKey, Histories};
use super::see;
use shakmaty::{Move, MoveList, Position, Role};

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    Generate,
    GoodTactical,
    Killer1,
    Killer2,
    Counter,
    InitQuiets,
    Quiets,
    BadTactical,
    Done,
}

/// Captures and queen promotions are "tactical"; everything else is quiet
/// (underpromotions included: they are ordered by history like quiet moves).
#[inline(always)]
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.promotion() == Some(Role::Queen)
}

/// Most valuable victim, least valuable attacker.
#[inline(always)]
pub fn mvv_lva(m: Move) -> i32 {
    let victim = m.capture().map_or(0, |r| r as i32);
    let promo = match m.promotion() {
        Some(Role::Queen) => 5,
        Some(_) => -5,
        None => 0,
    };
    (victim + promo) * 16 - m.role() as i32
}

pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Move16,
    moves: MoveList,
    scores: [i32; 256],
    /// `moves[..tactical_end]` are tactical, the rest quiet.
    tactical_end: usize,
    next: usize,
    bad: [u8; 64],
    bad_len: usize,
    bad_next: usize,
    skip_quiets: bool,
    /// Order tactical moves and quiets at all (off = generation order).
    ordering: bool,
    /// Number of legal moves seen (valid once generation has happened).
    generated: usize,
}

impl MovePicker {
    /// `tt_move` must already be known to be legal in `board`.
    pub fn new(
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Move16,
        ordering: bool,
    ) -> MovePicker {
        MovePicker {
            stage: if tt_move.is_some() && ordering {
                Stage::TtMove
            } else {
                Stage::Generate
            },
            tt_move: if ordering { tt_move } else { None },
            killers,
            counter,
            moves: MoveList::new(),
            scores: [0; 256],
            tactical_end: 0,
            next: 0,
            bad: [0; 64],
            bad_len: 0,
            bad_next: 0,
            skip_quiets: false,
            ordering,
            generated: 0,
        }
    }

    /// Stop returning quiet moves (late move pruning / futility).
    #[inline]
    pub fn skip_quiets(&mut self) {
        // Without ordering, captures and quiets are mixed: skip nothing.
        self.skip_quiets = self.ordering;
    }

    /// Picks the move with the best score in `moves[from..end]`, swaps it to
    /// `from` and returns it.
    #[inline(always)]
    fn select(&mut self, from: usize, end: usize) -> Move {
        let mut best = from;
        for i in from + 1..end {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(from, best);
        self.scores.swap(from, best);
        self.moves[from]
    }

    /// Removes quiet move `m` from the list if it is there; true if found.
    fn take_quiet(&mut self, m: Move) -> bool {
        let Some(pos) = self.moves[self.tactical_end..]
            .iter()
            .position(|&x| x == m)
            .map(|p| p + self.tactical_end)
        else {
            return false;
        };
        self.moves.swap_remove(pos);
        true
    }

    pub fn next(
        &mut self,
        board: &Board,
        hist: &Histories,
        prev: [Option<ContKey>; 2],
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::Generate;
                    return self.tt_move;
                }
                Stage::Generate => {
                    self.moves = board.chess().legal_moves();
                    self.generated = self.moves.len();
                    if let Some(tt) = self.tt_move
                        && let Some(i) = self.moves.iter().position(|&m| m == tt)
                    {
                        self.moves.swap_remove(i);
                    }
                    if !self.ordering {
                        self.tactical_end = 0;
                        self.next = 0;
                        self.stage = Stage::Quiets;
                        continue;
                    }
                    // Tactical moves to the front.
                    let mut t = 0;
                    for i in 0..self.moves.len() {
                        if is_tactical(self.moves[i]) {
                            self.moves.swap(t, i);
                            t += 1;
                        }
                    }
                    self.tactical_end = t;
                    for i in 0..t {
                        self.scores[i] = mvv_lva(self.moves[i]);
                    }
                    self.next = 0;
                    self.stage = Stage::GoodTactical;
                }
                Stage::GoodTactical => {
                    if self.next >= self.tactical_end {
                        self.stage = Stage::Killer1;
                        continue;
                    }
                    let i = self.next;
                    let m = self.select(i, self.tactical_end);
                    self.next += 1;
                    // Captures of a more valuable piece need no exchange check.
                    let cheap = m
                        .capture()
                        .is_some_and(|c| see::value(c) >= see::value(m.role()));
                    if cheap || see::see_ge(board.chess(), m, 0) {
                        return Some(m);
                    }
                    if self.bad_len < self.bad.len() {
                        self.bad[self.bad_len] = i as u8;
                        self.bad_len += 1;
                    } else {
                        return Some(m);
                    }
                }
                Stage::Killer1 | Stage::Killer2 => {
                    let k = self.killers[(self.stage == Stage::Killer2) as usize];
                    self.stage = if self.stage == Stage::Killer1 {
                        Stage::Killer2
                    } else {
                        Stage::Counter
                    };
                    if let Some(k) = k
                        && Some(k) != self.tt_move
                        && !is_tactical(k)
                        && self.take_quiet(k)
                    {
                        return Some(k);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::InitQuiets;
                    if let Some(c) = board.decode(self.counter)
                        && Some(c) != self.tt_move
                        && Some(c) != self.killers[0]
                        && Some(c) != self.killers[1]
                        && !is_tactical(c)
                        && self.take_quiet(c)
                    {
                        return Some(c);
                    }
                }
                Stage::InitQuiets => {
                    self.stage = Stage::Quiets;
                    self.next = self.tactical_end;
                    if self.skip_quiets {
                        continue;
                    }
                    let color = board.turn();
                    for i in self.tactical_end..self.moves.len() {
                        self.scores[i] = hist.quiet_score(color, self.moves[i], prev);
                    }
                }
                Stage::Quiets => {
                    if self.skip_quiets || self.next >= self.moves.len() {
                        self.stage = Stage::BadTactical;
                        continue;
                    }
                    let i = self.next;
                    self.next += 1;
                    if !self.ordering {
                        return Some(self.moves[i]);
                    }
                    return Some(self.select(i, self.moves.len()));
                }
                Stage::BadTactical => {
                    if self.bad_next >= self.bad_len {
                        self.stage = Stage::Done;
                        continue;
                    }
                    let i = self.bad[self.bad_next] as usize;
                    self.bad_next += 1;
                    return Some(self.moves[i]);
                }
                Stage::Done => return None,
            }
        }
    }

    /// True once generation showed the position has no legal move at all.
    pub fn no_legal_moves(&self) -> bool {
        self.stage > Stage::Generate && self.generated == 0 && self.tt_move.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::Rng;

    /// Movepicker perft: every legal move comes out exactly once, whatever
    /// the TT move, killers and countermove say.
    #[test]
    fn picker_yields_each_legal_move_once() {
        let hist = Histories::new();
        let mut rng = Rng::new(7);
        let mut checked = 0;
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let mut board = Board::from_fen(fen).unwrap();
            for _ in 0..40 {
                let legal = board.chess().legal_moves();
                if legal.is_empty() {
                    break;
                }
                let pick = |rng: &mut Rng| legal[rng.below(legal.len())];
                let tt = if rng.below(2) == 0 {
                    Some(pick(&mut rng))
                } else {
                    None
                };
                // Killers may be any move, legal here or not (taken from siblings).
                let killers = [Some(pick(&mut rng)), None];
                for ordering in [true, false] {
                    let mut p = MovePicker::new(tt, killers, Move16::new(pick(&mut rng)), ordering);
                    let mut got = Vec::new();
                    while let Some(m) = p.next(&board, &hist, [None, None]) {
                        got.push(m);
                    }
                    assert_eq!(got.len(), legal.len(), "count in {}", board.fen());
                    for m in &legal {
                        assert_eq!(got.iter().filter(|&&x| x == *m).count(), 1);
                    }
                    checked += 1;
                }
                board = board.play(pick(&mut rng));
            }
        }
        assert!(checked > 100);
    }

    #[test]
    fn good_captures_come_before_quiets_and_bad_captures_last() {
        // White queen can take a defended pawn (bad) or an undefended knight (good).
        let board = Board::from_fen("4k3/2p5/3p4/6n1/8/8/3Q4/4K3 w - - 0 1").unwrap();
        let hist = Histories::new();
        let mut p = MovePicker::new(None, [None, None], Move16::NONE, true);
        let mut got = Vec::new();
        while let Some(m) = p.next(&board, &hist, [None, None]) {
            got.push(Board::uci(m));
        }
        assert_eq!(got[0], "d2g5");
        assert_eq!(got.last().unwrap(), "d2d6");
    }
}
