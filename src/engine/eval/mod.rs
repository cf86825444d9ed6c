//! Static evaluation.
//!
//! Two evaluations a learner can switch between and compare:
//! - [`EvalKind::Full`]: a tapered middlegame/endgame evaluation with
//!   material, piece-square tables, mobility, pawn structure, passed pawns,
//!   king safety, threats, bishop pair, rooks on open files, outposts and
//!   tempo; weights tuned with Texel's method (see `tune`).
//! - [`EvalKind::Simple`]: Tomasz Michniewski's "simplified evaluation
//!   function": material and his piece-square tables, nothing else.
//!
//! Both can explain themselves: [`trace`] returns an [`EvalTrace`] whose
//! per-term, per-side parts add up exactly to the score the engine uses.

mod dispatch;
mod full;
mod king_danger;
pub mod layout;
mod level_weights;
mod masks;
pub mod nnue;
pub mod simple;
pub mod weights;
pub mod zh;
pub mod zh_weights;

use shakmaty::{Bitboard, Chess, Color, Position};
use std::fmt;

/// The packed middlegame/endgame pair lives below both the board and the
/// evaluation (the board keeps its piece-square sum incrementally).
pub use super::tapered::S;
pub use full::PawnCache;
pub use layout::{LEVEL_WEIGHTS, NUM_WEIGHTS, PSQT, WEIGHTS};

/// The evaluation terms, as the UI groups them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    Material,
    PieceSquares,
    Mobility,
    PawnStructure,
    PassedPawns,
    KingSafety,
    Threats,
    BishopPair,
    Rooks,
    Outposts,
    Tempo,
    /// Crazyhouse and Bughouse: pieces in hand.
    Hand,
    /// Crazyhouse and Bughouse: drops that threaten the enemy king.
    DropThreats,
    /// Bughouse: pieces captured here and sent to the partner.
    Partner,
}

impl Term {
    pub const ALL: [Term; 14] = [
        Term::Material,
        Term::PieceSquares,
        Term::Mobility,
        Term::PawnStructure,
        Term::PassedPawns,
        Term::KingSafety,
        Term::Threats,
        Term::BishopPair,
        Term::Rooks,
        Term::Outposts,
        Term::Tempo,
        Term::Hand,
        Term::DropThreats,
        Term::Partner,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::PieceSquares => "piece-square tables",
            Term::Mobility => "mobility",
            Term::PawnStructure => "pawn structure",
            Term::PassedPawns => "passed pawns",
            Term::KingSafety => "king safety",
            Term::Threats => "threats",
            Term::BishopPair => "bishop pair",
            Term::Rooks => "rooks on open files",
            Term::Outposts => "outposts",
            Term::Tempo => "tempo",
            Term::Hand => "pieces in hand",
            Term::DropThreats => "drop threats",
            Term::Partner => "sent to partner",
        }
    }
}

/// Receives every weight the evaluation uses. [`NoTrace`] compiles away.
pub trait Tracer {
    const ACTIVE: bool;
    /// Weight `index` counted `count` times for `color` (adding `value`).
    fn add(&mut self, term: Term, color: Color, index: usize, count: i32, value: S);
    /// A `value` for `color` that comes from no weight of the table (the
    /// fixed king-danger term).
    fn fixed(&mut self, term: Term, color: Color, value: S);
}

/// The tracer of the engine's own evaluations: does nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoTrace;

impl Tracer for NoTrace {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn add(&mut self, _: Term, _: Color, _: usize, _: i32, _: S) {}
    #[inline(always)]
    fn fixed(&mut self, _: Term, _: Color, _: S) {}
}

/// Which evaluation the engine uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Hash)]
pub enum EvalKind {
    #[default]
    Full,
    Simple,
    /// The network ([`nnue`]): a correction learnt from self-play added to
    /// the full evaluation (or, for a network that is not residual, the
    /// whole score).
    Nnue,
}

impl EvalKind {
    pub fn parse(s: &str) -> Option<EvalKind> {
        match s.trim().to_ascii_lowercase().as_str() {
            "full" => Some(EvalKind::Full),
            "simple" | "simplified" => Some(EvalKind::Simple),
            "nnue" | "network" => Some(EvalKind::Nnue),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            EvalKind::Full => "full",
            EvalKind::Simple => "simple",
            EvalKind::Nnue => "nnue",
        }
    }
}

/// Middlegame, endgame and tapered value of one term for one side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Part {
    pub mg: i32,
    pub eg: i32,
    /// This part's share of the final (White's view) score. The shares of all
    /// parts add up exactly to [`EvalTrace::white`].
    pub tapered: i32,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TermScore {
    pub term: Term,
    pub white: Part,
    pub black: Part,
}

impl TermScore {
    /// White's share minus Black's share.
    pub fn net(&self) -> i32 {
        self.white.tapered - self.black.tapered
    }
}

/// The evaluation of one position, broken down by term and side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    pub kind: EvalKind,
    pub terms: Vec<TermScore>,
    /// Game phase: 24 with all pieces on the board, 0 in a pawn ending
    /// (the simple evaluation reports 24 or 0: its king table switch).
    pub phase: i32,
    /// Endgame scale out of 128 (drawish material lowers it).
    pub scale: i32,
    /// White-minus-Black middlegame and endgame sums.
    pub mg: i32,
    pub eg: i32,
    /// The score from White's point of view.
    pub white: i32,
    /// The score from the side to move's point of view: what the engine uses.
    pub score: i32,
}

/// Accumulates mg/eg per term and side for an [`EvalTrace`].
#[derive(Debug, Default, Clone)]
pub(crate) struct TermTracer {
    /// [term][color] (color index: Black = 0, White = 1).
    pub sums: [[S; 2]; Term::ALL.len()],
}

impl Tracer for TermTracer {
    const ACTIVE: bool = true;
    fn add(&mut self, term: Term, color: Color, _index: usize, _count: i32, value: S) {
        self.sums[term as usize][color as usize] += value;
    }
    fn fixed(&mut self, term: Term, color: Color, value: S) {
        self.sums[term as usize][color as usize] += value;
    }
}

/// Raw result of the full evaluation before tapering.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Raw {
    /// White minus Black (tempo included).
    pub mg: i32,
    pub eg: i32,
    pub phase: i32,
    pub scale: i32,
    /// Squares each side attacks with pawns and pieces, not the king
    /// (Black = 0, White = 1).
    pub attacked: [Bitboard; 2],
}

impl Raw {
    /// Tapers a White-view (mg, eg) pair with this position's phase and scale.
    #[inline(always)]
    pub fn taper(&self, mg: i32, eg: i32) -> i32 {
        (mg * self.phase + eg * self.scale / 128 * (24 - self.phase)) / 24
    }

    /// The tapered total from `turn`'s point of view.
    #[inline(always)]
    pub fn for_side_to_move(&self, turn: Color) -> i32 {
        let white = self.taper(self.mg, self.eg);
        if turn == Color::White { white } else { -white }
    }
}

/// Material and piece-square sum of a position (White minus Black), as
/// [`crate::engine::Board`] keeps it up to date move by move.
pub fn psqt_of(pos: &Chess) -> S {
    let mut s = S::ZERO;
    for (sq, piece) in pos.board().iter() {
        s += PSQT[piece.color as usize][piece.role as usize - 1][sq as usize];
    }
    s
}

/// What the partner's wishes add to the value of a piece sent across
/// (Bughouse): `[colour][role]`, on top of the `SENT` weights of the drop
/// evaluation (`zh.rs`). "Need a knight" makes a knight we capture worth
/// more; "don't give a queen" makes our queen captured by the opponent
/// (sent to their partner) cost more.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PartnerTweaks {
    pub extra_sent: [[i32; 5]; 2],
}

impl PartnerTweaks {
    pub fn is_empty(&self) -> bool {
        self.extra_sent == [[0; 5]; 2]
    }
}

/// Which weights the full evaluation of standard chess plays with.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum WeightSet {
    /// The current tuned weights ([`WEIGHTS`]): full strength, the eval
    /// breakdown, the tuner.
    #[default]
    Tuned,
    /// The weights levels 1-7 were calibrated with against Lichess's
    /// levels ([`LEVEL_WEIGHTS`]), so that the measured table stays true.
    Levels,
}

impl WeightSet {
    /// The flattened weights of this set.
    pub fn table(self) -> &'static [S; NUM_WEIGHTS] {
        match self {
            WeightSet::Tuned => &WEIGHTS,
            WeightSet::Levels => &LEVEL_WEIGHTS,
        }
    }

    /// Whether the full evaluation adds the fixed king-danger term
    /// (`king_danger.rs`): with the tuned weights only, so that levels 1-7
    /// evaluate exactly as they were calibrated.
    pub fn king_danger(self) -> bool {
        self == WeightSet::Tuned && king_danger::KING_DANGER
    }
}

/// Evaluates `pos` from the side to move's point of view.
pub struct Evaluator {
    kind: EvalKind,
    weights: WeightSet,
    pawns: PawnCache,
    /// The drop variants' pawn structure has its own weights.
    pub(crate) zh_pawns: PawnCache,
    /// Bughouse: what the partner asked for changes what sent pieces are
    /// worth.
    pub(crate) partner: PartnerTweaks,
    /// The network of [`EvalKind::Nnue`] (loaded when that kind is chosen).
    net: Option<std::sync::Arc<nnue::Network>>,
    /// Its hidden layer for the last position evaluated at each ply.
    acc: nnue::AccStack,
    /// Standard chess positions evaluated lately, by Zobrist key.
    cache: EvalCache,
}

/// The last evaluations of standard chess positions, by Zobrist key: a
/// search evaluates many positions again (qsearch leaves reached by other
/// move orders, nodes whose TT entry was replaced), and the evaluation is
/// a function of the position alone. Settings that change it empty it.
struct EvalCache {
    /// (key, evaluation); a key of 0 is an empty slot.
    entries: Box<[(u64, i32)]>,
}

impl EvalCache {
    const SIZE: usize = 1 << 15;

    fn new() -> EvalCache {
        EvalCache {
            entries: vec![(0, 0); Self::SIZE].into_boxed_slice(),
        }
    }

    fn clear(&mut self) {
        self.entries.fill((0, 0));
    }

    /// Hints the CPU to fetch the slot of `key` (the search calls it with
    /// the TT prefetch, before making the move: the table is too large to
    /// stay in the core's cache next to the TT's traffic).
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the index is masked below the table size; prefetching
        // never faults anyway.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let i = key as usize & (Self::SIZE - 1);
            _mm_prefetch(self.entries.as_ptr().add(i) as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline(always)]
    fn slot(&mut self, key: u64) -> &mut (u64, i32) {
        // SIZE is a power of two: the low bits pick the slot.
        let i = key as usize & (Self::SIZE - 1);
        &mut self.entries[i]
    }
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new(EvalKind::Full)
    }
}

impl Evaluator {
    pub fn new(kind: EvalKind) -> Evaluator {
        Evaluator {
            kind,
            weights: WeightSet::Tuned,
            pawns: PawnCache::new(),
            zh_pawns: PawnCache::new(),
            partner: PartnerTweaks::default(),
            net: (kind == EvalKind::Nnue).then(nnue::Network::embedded),
            acc: nnue::AccStack::default(),
            cache: EvalCache::new(),
        }
    }

    /// Starts fetching what evaluating the position with Zobrist key `key`
    /// will read first (its evaluation-cache slot).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        self.cache.prefetch(key);
    }

    pub fn kind(&self) -> EvalKind {
        self.kind
    }

    pub fn set_kind(&mut self, kind: EvalKind) {
        if kind != self.kind {
            self.kind = kind;
            self.cache.clear();
        }
        if kind == EvalKind::Nnue && self.net.is_none() {
            self.net = Some(nnue::Network::embedded());
        }
    }

    /// Evaluates with this network when the kind is [`EvalKind::Nnue`]
    /// (instead of the embedded one).
    pub fn set_network(&mut self, net: std::sync::Arc<nnue::Network>) {
        if self
            .net
            .as_ref()
            .is_some_and(|n| std::sync::Arc::ptr_eq(n, &net))
        {
            return;
        }
        self.net = Some(net);
        self.acc.clear();
        self.cache.clear();
    }

    /// The network [`EvalKind::Nnue`] evaluates with.
    pub fn network(&self) -> Option<&std::sync::Arc<nnue::Network>> {
        self.net.as_ref()
    }

    pub fn weights(&self) -> WeightSet {
        self.weights
    }

    /// Whether a search may stand pat on an estimate instead of this
    /// evaluation far outside its window: at full strength only (levels
    /// 1-7 and the simple evaluation keep evaluating every node, as they
    /// were calibrated).
    pub fn lazy_ok(&self) -> bool {
        self.weights == WeightSet::Tuned && matches!(self.kind, EvalKind::Nnue | EvalKind::Full)
    }

    /// Switches the weight set; the pawn cache holds results of the old
    /// weights, so it starts empty.
    pub fn set_weights(&mut self, weights: WeightSet) {
        if weights != self.weights {
            self.weights = weights;
            self.pawns = PawnCache::new();
            self.cache.clear();
        }
    }

    /// Bughouse: the partner's wishes (see [`PartnerTweaks`]).
    pub fn set_partner_tweaks(&mut self, t: PartnerTweaks) {
        self.partner = t;
        self.cache.clear();
    }

    /// The standard-chess evaluation of `pos`, whose material +
    /// piece-square sum of the tuned tables ([`PSQT`]) is `psqt` (the board
    /// keeps it up to date). Boards are evaluated through
    /// `Evaluator::evaluate` (`dispatch.rs`).
    #[inline]
    pub fn evaluate_chess(&mut self, pos: &Chess, psqt: S) -> i32 {
        self.evaluate_chess_at(pos, psqt, 0)
    }

    /// [`Evaluator::evaluate_chess`] of a position at `ply` of a search
    /// (the network updates its sums from the ply before: same result,
    /// less work).
    #[inline(always)]
    pub(crate) fn evaluate_chess_at(&mut self, pos: &Chess, psqt: S, ply: usize) -> i32 {
        match self.kind {
            // Levels 1-7 evaluate as they were calibrated, whatever the
            // choice of evaluation for full strength.
            EvalKind::Nnue if self.weights == WeightSet::Levels => self.evaluate_full(pos, psqt),
            EvalKind::Nnue => {
                // The network first: its rows' loads (often misses) are
                // still in flight while the hand-crafted terms are computed.
                let (residual, correction) = match &self.net {
                    Some(net) => (
                        net.residual,
                        net.evaluate_in(&mut self.acc, ply, pos.board(), pos.turn()),
                    ),
                    None => (true, 0),
                };
                let base = if residual {
                    self.evaluate_full(pos, psqt)
                } else {
                    0
                };
                base + correction
            }
            EvalKind::Full => self.evaluate_full(pos, psqt),
            EvalKind::Simple => simple::evaluate(pos, &mut NoTrace),
        }
    }

    #[inline(always)]
    fn evaluate_full(&mut self, pos: &Chess, psqt: S) -> i32 {
        // The board's running material and square sum is of the tuned
        // tables; the level weights compute their own.
        let psqt = (self.weights == WeightSet::Tuned).then_some(psqt);
        let raw = full::evaluate(
            pos,
            self.weights.table(),
            Some(&mut self.pawns),
            psqt,
            self.weights.king_danger(),
            &mut NoTrace,
        );
        raw.for_side_to_move(pos.turn())
    }
}

/// Evaluates with the given kind (no cache), from the side to move's view.
pub fn evaluate(pos: &Chess, kind: EvalKind) -> i32 {
    Evaluator::new(kind).evaluate_chess(pos, psqt_of(pos))
}

/// The full evaluation with one of the weight sets (no cache), from the side
/// to move's view: what an [`Evaluator`] holding that set returns.
pub fn evaluate_with(pos: &Chess, weights: WeightSet) -> i32 {
    let raw = full::evaluate(
        pos,
        weights.table(),
        None,
        None,
        weights.king_danger(),
        &mut NoTrace,
    );
    raw.for_side_to_move(pos.turn())
}

/// Runs the full evaluation with a custom tracer (the tuner collects weight
/// counts this way; the fixed king danger reaches it through
/// [`Tracer::fixed`]). Returns the phase and endgame scale.
pub fn trace_weights<T: Tracer>(pos: &Chess, t: &mut T) -> (i32, i32) {
    let raw = full::evaluate(pos, &WEIGHTS, None, None, WeightSet::Tuned.king_danger(), t);
    (raw.phase, raw.scale)
}

/// Explains the evaluation of `pos`: per term and side, adding up exactly.
pub fn trace(pos: &Chess, kind: EvalKind) -> EvalTrace {
    trace_with(pos, kind, WeightSet::Tuned)
}

/// [`trace`] with the full evaluation's weights chosen (a level 1-7
/// engine evaluates with [`WeightSet::Levels`]).
pub fn trace_with(pos: &Chess, kind: EvalKind, weights: WeightSet) -> EvalTrace {
    let mut t = TermTracer::default();
    // A network's trace is its hand-crafted part's.
    let kind = if kind == EvalKind::Nnue {
        EvalKind::Full
    } else {
        kind
    };
    let (raw, simple_score) = match kind {
        EvalKind::Full | EvalKind::Nnue => (
            full::evaluate(
                pos,
                weights.table(),
                None,
                None,
                weights.king_danger(),
                &mut t,
            ),
            None,
        ),
        EvalKind::Simple => {
            let stm = simple::evaluate(pos, &mut t);
            let endgame = simple::is_endgame(pos.board());
            (
                Raw {
                    mg: 0,
                    eg: 0,
                    phase: if endgame { 0 } else { 24 },
                    scale: 128,
                    attacked: [Bitboard::EMPTY; 2],
                },
                Some(stm),
            )
        }
    };

    assemble(kind, &t, &raw, pos.turn(), simple_score, false)
}

/// Builds the trace from per-term sums: each part's tapered share, adding
/// up exactly to the score. `drops`: the Crazyhouse/Bughouse terms count.
pub(crate) fn assemble(
    kind: EvalKind,
    t: &TermTracer,
    raw: &Raw,
    turn: Color,
    simple_score: Option<i32>,
    drops: bool,
) -> EvalTrace {
    // Telescoping shares: part k gets F(sum of parts 1..=k) - F(sum of 1..k-1),
    // where F tapers a White-view (mg, eg). Rounding never makes them disagree.
    let taper = |mg: i32, eg: i32| match kind {
        EvalKind::Full | EvalKind::Nnue => raw.taper(mg, eg),
        EvalKind::Simple => mg,
    };
    let mut terms = Vec::new();
    let (mut cum_mg, mut cum_eg, mut cum_val) = (0, 0, 0);
    for term in Term::ALL {
        let [b, w] = t.sums[term as usize];
        let mut part = |s: S, sign: i32| {
            cum_mg += sign * s.mg();
            cum_eg += sign * s.eg();
            let v = taper(cum_mg, cum_eg);
            let share = (v - cum_val) * sign;
            cum_val = v;
            Part {
                mg: s.mg(),
                eg: s.eg(),
                tapered: share,
            }
        };
        let white = part(w, 1);
        let black = part(b, -1);
        if term_used(kind, term) || (drops && kind == EvalKind::Full) {
            terms.push(TermScore { term, white, black });
        }
    }
    let white = cum_val;
    let score = if turn == Color::White { white } else { -white };
    if let Some(s) = simple_score {
        debug_assert_eq!(s, score);
    }
    EvalTrace {
        kind,
        terms,
        phase: raw.phase,
        scale: raw.scale,
        mg: cum_mg,
        eg: cum_eg,
        white,
        score,
    }
}

fn term_used(kind: EvalKind, term: Term) -> bool {
    if matches!(term, Term::Hand | Term::DropThreats | Term::Partner) {
        return false;
    }
    match kind {
        EvalKind::Full | EvalKind::Nnue => true,
        EvalKind::Simple => matches!(term, Term::Material | Term::PieceSquares),
    }
}

impl fmt::Display for EvalTrace {
    /// A table like the UCI `eval` command prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} evaluation (centipawns)", self.kind.name())?;
        writeln!(
            f,
            "{:<22} {:>14} {:>14} {:>8}",
            "term", "white mg/eg", "black mg/eg", "total"
        )?;
        for t in &self.terms {
            writeln!(
                f,
                "{:<22} {:>6} {:>6}  {:>6} {:>6}  {:>7}",
                t.term.name(),
                t.white.mg,
                t.white.eg,
                t.black.mg,
                t.black.eg,
                t.net()
            )?;
        }
        writeln!(
            f,
            "phase {}/24, endgame scale {}/128, mg {} eg {}",
            self.phase, self.scale, self.mg, self.eg
        )?;
        writeln!(f, "total (White's view): {}", self.white)?;
        write!(f, "total (side to move): {}", self.score)
    }
}

#[cfg(test)]
mod tests;
