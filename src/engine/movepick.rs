//! Staged move ordering.
//!
//! Stages, in order: the transposition-table move (tried before anything is
//! generated: when it cuts, generation is skipped), good captures and queen
//! promotions (most valuable victim first, kept only if static exchange does
//! not lose material), then the quiet moves, which are generated only now:
//! the two killer moves and the countermove first, the rest by history
//! (butterfly plus one- and two-ply continuation history), and finally the
//! losing captures. In check, all evasions are generated at once and ordered
//! the same way.
//!
//! Every legal move is returned exactly once (see the "movepicker perft"
//! test).

use super::board::{Board, CheckInfo, Move16};
use super::history::{ContKey, Histories};
use super::movegen::{self, GenContext};
use super::see;
use super::variant::{EntryBuf, Std, Variant};
use arrayvec::ArrayVec;
use shakmaty::{Move, Position, Role};

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenTactical,
    GoodTactical,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadTactical,
    GenEvasions,
    Evasions,
    GenUnordered,
    Unordered,
    Done,
}

/// Captures and queen promotions are "tactical"; everything else is quiet
/// (quiet underpromotions included: they are ordered by history).
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

const KILLER1: i32 = 1 << 24;
const KILLER2: i32 = KILLER1 - 1;
const COUNTER: i32 = KILLER1 - 2;
const TACTICAL_EVASION: i32 = 1 << 26;
/// Drops (Crazyhouse, Bughouse): a checking drop is tried before the
/// quiet moves history has no opinion on, and a drop next to the enemy
/// king gets a smaller bonus per square of closeness.
const DROP_CHECK: i32 = 6000;
const DROP_NEAR_KING: i32 = 800;
/// Quiet moves picked by selection before the rest is sorted at once.
const SELECT_FIRST: usize = 3;

/// What a quiet move is ordered by: killers and the countermove first, then
/// history. Moves are compared by their 16-bit codes (cheaper than enums).
struct QuietOrder<'a> {
    killers: [Move16; 2],
    counter: Move16,
    hist: &'a Histories,
    color: shakmaty::Color,
    prev: [Option<ContKey>; 2],
}

impl QuietOrder<'_> {
    #[inline(always)]
    fn score(&self, m: Move) -> i32 {
        let code = Move16::new(m);
        if code == self.killers[0] {
            KILLER1
        } else if code == self.killers[1] {
            KILLER2
        } else if code == self.counter {
            COUNTER
        } else {
            self.hist.quiet_score(self.color, m, self.prev)
        }
    }
}

/// Entries [`MovePicker::sort_rest`] sorts by keys (longer lists, only
/// in the drop variants, by insertion).
const SORT_KEYS: usize = 256;

/// The sort key of the entry at `index` with `score`: descending order of
/// keys is descending score, then ascending index.
#[inline(always)]
fn sort_key(score: i32, index: usize) -> u64 {
    (u64::from(score as u32 ^ 0x8000_0000) << 32) | u64::from(u32::MAX - index as u32)
}

#[inline(always)]
fn unpack_sort_key(key: u64) -> (i32, usize) {
    (
        ((key >> 32) as u32 ^ 0x8000_0000) as i32,
        (u32::MAX - key as u32) as usize,
    )
}

/// Stable insertion sort by descending score.
fn insertion_sort(e: &mut [(Move, i32)]) {
    for i in 1..e.len() {
        let x = e[i];
        let mut j = i;
        while j > 0 && e[j - 1].1 < x.1 {
            e[j] = e[j - 1];
            j -= 1;
        }
        e[j] = x;
    }
}

/// Every legal move of `board`, which is in check, to `f` in shakmaty's
/// order: our own generator in standard chess, shakmaty's with drops.
#[inline(always)]
pub fn evasions<V: Variant>(board: &Board<V>, f: impl FnMut(Move)) {
    if V::DROPS {
        board.pos().legal_moves().into_iter().for_each(f);
    } else if let Some(ctx) = GenContext::new(board.pos()) {
        movegen::evasions(board.pos(), &ctx, board.checkers(), f);
    }
}

impl<V: Variant> MovePicker<V> {
    /// Killer or countermove `m` is worth returning before the quiet moves
    /// are generated: quiet, not already returned, and legal here (it was
    /// found in a sibling position).
    #[inline]
    fn special_ok(&mut self, board: &Board<V>, m: Move, slot: usize) -> bool {
        let code = Move16::new(m);
        if Some(m) == self.tt_move
            || is_tactical(m)
            || self.special[..slot].contains(&code)
            || !movegen::is_legal(board.pos(), self.in_check, m)
        {
            return false;
        }
        if self.checks_only && !self.gives_check(board, m) {
            return false;
        }
        self.special[slot] = code;
        true
    }
}

pub struct MovePicker<V: Variant = Std> {
    stage: Stage,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Move16,
    /// Killers and countermove already returned (skipped when the quiet
    /// moves are generated).
    special: [Move16; 3],
    in_check: bool,
    entries: V::Entries,
    next: usize,
    /// Where the quiet moves begin in `entries`.
    quiets_start: usize,
    bad: ArrayVec<Move, 64>,
    bad_next: usize,
    /// Only quiet moves that give check are still wanted (the rest were
    /// pruned by late move pruning or futility).
    checks_only: bool,
    /// What deciding checks needs (computed when needed).
    check_info: Option<CheckInfo>,
    ctx: Option<GenContext>,
}

impl<V: Variant> MovePicker<V> {
    /// `tt_move` must already be known to be legal in the position.
    /// Without `ordering`, moves come in generation order (a feature switch
    /// for learners).
    #[inline(always)]
    pub fn new(
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Move16,
        in_check: bool,
        ordering: bool,
    ) -> MovePicker<V> {
        let stage = match (ordering, tt_move.is_some(), in_check) {
            (false, _, _) => Stage::GenUnordered,
            (true, true, _) => Stage::TtMove,
            (true, false, true) => Stage::GenEvasions,
            (true, false, false) => Stage::GenTactical,
        };
        MovePicker {
            stage,
            tt_move: if ordering { tt_move } else { None },
            killers,
            special: [Move16::NONE; 3],
            counter,
            in_check,
            entries: V::Entries::default(),
            next: 0,
            quiets_start: 0,
            bad: ArrayVec::new(),
            bad_next: 0,
            checks_only: false,
            check_info: None,
            ctx: None,
        }
    }

    /// From now on return only the quiet moves that give check (late move
    /// pruning / futility prune the others; checks may be mating). Without
    /// ordering nothing is skipped: captures and quiets are mixed.
    #[inline]
    pub fn skip_quiets(&mut self) {
        self.checks_only = !matches!(self.stage, Stage::GenUnordered | Stage::Unordered);
    }

    #[inline]
    fn gives_check(&mut self, board: &Board<V>, m: Move) -> bool {
        let info = self.check_info.get_or_insert_with(|| board.check_info());
        board.gives_check(m, info)
    }

    /// Sorts `entries[from..]` by descending score, equal scores in their
    /// present order (the search's node counts depend on it).
    ///
    /// Each entry becomes one `u64`, its score in the high half and its
    /// position, inverted, in the low half, so that a plain descending sort
    /// of distinct integers is the stable sort of the entries.
    #[inline(never)]
    fn sort_rest(&mut self, from: usize) {
        let e = &mut self.entries.as_mut_slice()[from..];
        if e.len() < 2 {
            return;
        }
        if e.len() > SORT_KEYS {
            insertion_sort(e);
            return;
        }
        let mut keys = ArrayVec::<u64, SORT_KEYS>::new();
        let mut moves = ArrayVec::<Move, SORT_KEYS>::new();
        for (i, &(m, score)) in e.iter().enumerate() {
            keys.push(sort_key(score, i));
            moves.push(m);
        }
        keys.sort_unstable_by(|a, b| b.cmp(a));
        for (slot, &key) in e.iter_mut().zip(&keys) {
            let (score, i) = unpack_sort_key(key);
            *slot = (moves[i], score);
        }
    }

    /// Swaps the best-scored entry of `entries[from..]` to `from`.
    #[inline(always)]
    #[allow(clippy::needless_range_loop)]
    fn select(&mut self, from: usize) -> Move {
        let e = self.entries.as_mut_slice();
        let mut best = from;
        let mut best_score = e[from].1;
        for i in from + 1..e.len() {
            if e[i].1 > best_score {
                best = i;
                best_score = e[i].1;
            }
        }
        e.swap(from, best);
        e[from].0
    }

    // Generation lives out of line so that `next` (called once per move)
    // stays small.
    #[inline(never)]
    fn gen_tactical(&mut self, board: &Board<V>) {
        self.ctx = GenContext::new(board.pos());
        let Some(ctx) = self.ctx else {
            self.stage = Stage::Done;
            return;
        };
        let tt = self.tt_move;
        let entries = &mut self.entries;
        movegen::tactical(board.pos(), &ctx, true, |m| {
            if Some(m) != tt {
                entries.push((m, mvv_lva(m)));
            }
        });
        self.next = 0;
        self.stage = Stage::GoodTactical;
    }

    #[inline(never)]
    fn gen_quiets(&mut self, board: &Board<V>, hist: &Histories, prev: [Option<ContKey>; 2]) {
        self.stage = Stage::Quiets;
        self.entries.clear();
        self.next = 0;
        let Some(ctx) = self.ctx else {
            return;
        };
        let tt = self.tt_move;
        let special = self.special;
        let any_special = special != [Move16::NONE; 3];
        let skip = |m: Move| Some(m) == tt || (any_special && special.contains(&Move16::new(m)));
        if self.checks_only {
            // Only the checking quiet moves, in generation order.
            let discovery = self
                .check_info
                .get_or_insert_with(|| board.check_info())
                .discovery;
            let entries = &mut self.entries;
            movegen::quiet_checks(board.pos(), &ctx, discovery, |m| {
                if !skip(m) {
                    entries.push((m, 0));
                }
            });
            if V::DROPS {
                movegen::checking_drops(board.pos(), |m| {
                    if !skip(m) {
                        entries.push((m, 0));
                    }
                });
            }
            return;
        }
        let scorer = hist.quiet_scorer(board.turn(), prev);
        let entries = &mut self.entries;
        movegen::quiet(board.pos(), &ctx, |m| {
            if !skip(m) {
                entries.push((m, scorer.score(m)));
            }
        });
        if V::DROPS {
            // Drops by history, checking drops and drops near the enemy
            // king first.
            let us = board.turn();
            let b = board.board();
            let Some(king) = b.king_of(!us) else {
                return;
            };
            let occupied = b.occupied();
            movegen::drops(board.pos(), |m| {
                if skip(m) {
                    return;
                }
                let Move::Put { role, to } = m else {
                    return;
                };
                let mut score = scorer.score(m);
                if super::variant::drop_gives_check(us, role, to, king, occupied.with(to)) {
                    score += DROP_CHECK;
                }
                score += DROP_NEAR_KING * (3 - (to.distance(king) as i32).min(3));
                entries.push((m, score));
            });
        }
    }

    /// In check: every evasion at once, captures first, the rest by the
    /// quiet order.
    #[inline(never)]
    fn gen_evasions(&mut self, board: &Board<V>, hist: &Histories, prev: [Option<ContKey>; 2]) {
        let order = QuietOrder {
            killers: self.killers.map(|k| k.map_or(Move16::NONE, Move16::new)),
            counter: self.counter,
            hist,
            color: board.turn(),
            prev,
        };
        let tt = self.tt_move;
        let entries = &mut self.entries;
        let push = |m: Move| {
            if Some(m) == tt {
                return;
            }
            let score = if is_tactical(m) {
                TACTICAL_EVASION + mvv_lva(m)
            } else {
                order.score(m)
            };
            entries.push((m, score));
        };
        evasions(board, push);
        self.next = 0;
        self.stage = Stage::Evasions;
    }

    /// Without ordering: the legal moves in generation order.
    #[inline(never)]
    fn gen_unordered(&mut self, board: &Board<V>) {
        for m in board.pos().legal_moves() {
            self.entries.push((m, 0));
        }
        self.next = 0;
        self.stage = Stage::Unordered;
    }

    pub fn next(
        &mut self,
        board: &Board<V>,
        hist: &Histories,
        prev: [Option<ContKey>; 2],
    ) -> Option<Move> {
        self.next_with(board, hist, prev, &|_| {})
    }

    /// [`MovePicker::next`], calling `fetch` on every capture and queen
    /// promotion as soon as they are generated, so that the search can start
    /// loading what their children will read (most nodes that search a
    /// capture search it first).
    #[inline(always)]
    pub fn next_with(
        &mut self,
        board: &Board<V>,
        hist: &Histories,
        prev: [Option<ContKey>; 2],
        fetch: &impl Fn(Move),
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = if self.in_check {
                        Stage::GenEvasions
                    } else {
                        Stage::GenTactical
                    };
                    return self.tt_move;
                }
                Stage::GenTactical => {
                    self.gen_tactical(board);
                    for &(m, _) in self.entries.as_slice() {
                        fetch(m);
                    }
                }
                Stage::GoodTactical => {
                    if self.next >= self.entries.len() {
                        self.stage = Stage::Killer1;
                        continue;
                    }
                    let m = self.select(self.next);
                    self.next += 1;
                    // Taking something at least as valuable needs no exchange check.
                    let cheap = m
                        .capture()
                        .is_some_and(|c| see::value(c) >= see::value(m.role()));
                    if cheap || see::see_ge(board.pos(), m, 0) || self.bad.is_full() {
                        return Some(m);
                    }
                    self.bad.push(m);
                }
                Stage::Killer1 | Stage::Killer2 => {
                    let slot = (self.stage == Stage::Killer2) as usize;
                    self.stage = if slot == 0 {
                        Stage::Killer2
                    } else {
                        Stage::Counter
                    };
                    if let Some(k) = self.killers[slot]
                        && self.special_ok(board, k, slot)
                    {
                        return Some(k);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenQuiets;
                    if !self.counter.is_none()
                        && let Some(c) = board.decode(self.counter)
                        && self.special_ok(board, c, 2)
                    {
                        return Some(c);
                    }
                }
                Stage::GenQuiets => self.gen_quiets(board, hist, prev),
                Stage::Quiets => {
                    if self.next >= self.entries.len() {
                        self.stage = Stage::BadTactical;
                        continue;
                    }
                    let i = self.next;
                    self.next += 1;
                    // The first few picks by selection (cut nodes rarely need
                    // more); past that, sort the rest once.
                    let m = if i < self.quiets_start + SELECT_FIRST {
                        self.select(i)
                    } else {
                        if i == self.quiets_start + SELECT_FIRST {
                            self.sort_rest(i);
                        }
                        self.entries.as_slice()[i].0
                    };
                    if self.checks_only && !self.gives_check(board, m) {
                        continue;
                    }
                    return Some(m);
                }
                Stage::BadTactical => {
                    if self.bad_next >= self.bad.len() {
                        self.stage = Stage::Done;
                        continue;
                    }
                    self.bad_next += 1;
                    return Some(self.bad[self.bad_next - 1]);
                }
                Stage::GenEvasions => self.gen_evasions(board, hist, prev),
                Stage::Evasions => {
                    if self.next >= self.entries.len() {
                        self.stage = Stage::Done;
                        continue;
                    }
                    let i = self.next;
                    self.next += 1;
                    return Some(self.select(i));
                }
                Stage::GenUnordered => self.gen_unordered(board),
                Stage::Unordered => {
                    if self.next >= self.entries.len() {
                        self.stage = Stage::Done;
                        continue;
                    }
                    self.next += 1;
                    return Some(self.entries.as_slice()[self.next - 1].0);
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::Rng;

    /// Movepicker perft: every legal move comes out exactly once, whatever
    /// the TT move, killers and countermove say.
    #[test]
    fn sort_keys_order_by_score_then_position() {
        let scores = [0, -5, 7, i32::MIN, i32::MAX, 7, 0, -5, 1 << 24];
        let mut keys: Vec<u64> = scores
            .iter()
            .enumerate()
            .map(|(i, &s)| sort_key(s, i))
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(unpack_sort_key(k), (scores[i], i));
        }
        keys.sort_unstable_by(|a, b| b.cmp(a));
        let order: Vec<usize> = keys.iter().map(|&k| unpack_sort_key(k).1).collect();
        assert_eq!(order, [4, 8, 2, 5, 0, 6, 1, 7, 3]);
        // The same order as the stable insertion sort.
        let mut entries: Vec<(Move, i32)> = scores
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                let to = shakmaty::Square::new(i as u32);
                (
                    Move::Put {
                        role: Role::Knight,
                        to,
                    },
                    s,
                )
            })
            .collect();
        insertion_sort(&mut entries);
        let by_insertion: Vec<usize> = entries.iter().map(|(m, _)| m.to() as usize).collect();
        assert_eq!(by_insertion, order);
    }

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
            "1n2k3/P1P5/8/8/8/8/p1p5/1N2K3 w - - 0 1",
        ] {
            let mut board = Board::from_fen(fen).unwrap();
            for _ in 0..60 {
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
                    let mut p = MovePicker::new(
                        tt,
                        killers,
                        Move16::new(pick(&mut rng)),
                        board.in_check(),
                        ordering,
                    );
                    let mut got = Vec::new();
                    while let Some(m) = p.next(&board, &hist, [None, None]) {
                        got.push(m);
                    }
                    assert_eq!(got.len(), legal.len(), "count in {}", board.fen());
                    for m in &legal {
                        assert_eq!(got.iter().filter(|&&x| x == *m).count(), 1);
                    }
                    if ordering && let Some(t) = tt {
                        assert_eq!(got[0], t, "TT move first");
                    }
                    checked += 1;
                }
                board = board.play(pick(&mut rng));
            }
        }
        assert!(checked > 200);
    }

    /// The same in Crazyhouse and Bughouse positions, drops included.
    fn picker_yields_each_move_once_in<V: Variant>() {
        let hist = Histories::new();
        let mut rng = Rng::new(8);
        let mut checked = 0;
        for fen in [
            "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
            "2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - - 0 1",
            "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",
        ] {
            let mut board = Board::<V>::from_variant_fen(fen).unwrap();
            for _ in 0..40 {
                let legal = board.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let pick = |rng: &mut Rng| legal[rng.below(legal.len())];
                let tt = (rng.below(2) == 0).then(|| pick(&mut rng));
                let killers = [Some(pick(&mut rng)), Some(pick(&mut rng))];
                for (ordering, checks_only) in [(true, false), (false, false), (true, true)] {
                    let mut p = MovePicker::<V>::new(
                        tt,
                        killers,
                        Move16::new(pick(&mut rng)),
                        board.in_check(),
                        ordering,
                    );
                    let mut got = Vec::new();
                    while let Some(m) = p.next(&board, &hist, [None, None]) {
                        got.push(m);
                        if checks_only && got.len() == 1 {
                            p.skip_quiets();
                        }
                    }
                    for m in &got {
                        assert_eq!(got.iter().filter(|&&x| x == *m).count(), 1, "{m:?} twice");
                        assert!(legal.contains(m), "{m:?} is not legal in {}", board.fen());
                    }
                    if !checks_only {
                        assert_eq!(got.len(), legal.len(), "count in {}", board.fen());
                    } else if !board.in_check() {
                        // Every checking drop survives the pruning of quiet moves.
                        for m in &legal {
                            if matches!(m, Move::Put { .. }) && board.play(*m).in_check() {
                                assert!(got.contains(m), "checking drop {m:?} lost");
                            }
                        }
                    }
                    checked += 1;
                }
                board = board.play(pick(&mut rng));
            }
        }
        assert!(checked > 100);
    }

    #[test]
    fn picker_yields_each_move_once_in_crazyhouse() {
        picker_yields_each_move_once_in::<crate::engine::variant::Zh>();
    }

    #[test]
    fn picker_yields_each_move_once_in_bughouse() {
        picker_yields_each_move_once_in::<crate::engine::variant::Bug>();
    }

    #[test]
    fn good_captures_come_before_quiets_and_bad_captures_last() {
        // White queen can take a defended pawn (bad) or an undefended knight (good).
        let board = Board::from_fen("4k3/2p5/3p4/6n1/8/8/3Q4/4K3 w - - 0 1").unwrap();
        let hist = Histories::new();
        let killer = board.parse_uci("e1f1").unwrap();
        let mut p = MovePicker::new(None, [Some(killer), None], Move16::NONE, false, true);
        let mut got = Vec::new();
        while let Some(m) = p.next(&board, &hist, [None, None]) {
            got.push(Board::uci(m));
        }
        assert_eq!(got[0], "d2g5");
        assert_eq!(got[1], "e1f1", "the killer leads the quiet moves");
        assert_eq!(got.last().unwrap(), "d2d6");
    }
}
