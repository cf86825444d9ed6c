//! The evaluation of the drop variants (Crazyhouse, one board of Bughouse).
//!
//! The board is evaluated by the standard evaluation's terms with weights
//! of their own (material, piece-square tables, mobility, pawns, king
//! safety... tuned on Crazyhouse games), then the drop terms follow:
//!
//! - **pieces in hand**, valued apart from pieces on the board. A piece in
//!   hand can go anywhere at once, so minor pieces and pawns are worth
//!   dropping as soon as they do something, while a rook or queen in hand
//!   is a standing threat worth keeping until it wins something: the
//!   weights say which (a hand value above the board value keeps the
//!   piece in hand);
//! - **drop threats** against each king: the empty squares next to it that
//!   no piece of its side defends (where an enemy piece could be dropped
//!   next to the king), counted when the enemy has something in hand, and
//!   the safe squares from which a piece the enemy holds would check it;
//! - in Bughouse, **pieces sent to the partner**: a capture here feeds the
//!   partner's hand on the other board, so material gained counts more,
//!   and a capture that hands the opponents' partner a piece counts
//!   against.
//!
//! All pieces stay in play in Crazyhouse (on the board or in a hand), so the
//! game phase counts the pieces in hand too: a Crazyhouse game never
//! reaches an "endgame" by trades.

use super::layout::NUM_WEIGHTS;
use super::zh_weights as zw;
use super::{EvalKind, EvalTrace, Evaluator, NoTrace, PawnCache, Raw, S, Term, TermTracer, Tracer};
use crate::engine::board::Board;
use crate::engine::variant::{Sent, Variant, pockets};
use shakmaty::{Bitboard, Color, Position, Role, attacks};

/// Where the drop terms live in the flat weight vector (after the board
/// terms, which have the standard layout).
pub const HAND: usize = NUM_WEIGHTS;
pub const DROP_ZONE: usize = HAND + 5;
pub const DROP_CHECK: usize = DROP_ZONE + 6;
pub const SENT: usize = DROP_CHECK + 5;
pub const NUM_ZH_WEIGHTS: usize = SENT + 5;
/// Number of drop-term weights.
pub const NUM_DROP_WEIGHTS: usize = NUM_ZH_WEIGHTS - NUM_WEIGHTS;

/// The drop variants' weights: board terms and drop terms.
#[derive(Clone, Debug)]
pub struct ZhWeights {
    pub board: [S; NUM_WEIGHTS],
    pub drops: [S; NUM_DROP_WEIGHTS],
}

impl ZhWeights {
    /// Weight `i` of the flat vector.
    pub fn get(&self, i: usize) -> S {
        if i < NUM_WEIGHTS {
            self.board[i]
        } else {
            self.drops[i - NUM_WEIGHTS]
        }
    }

    /// From a flat vector of [`NUM_ZH_WEIGHTS`] weights (`None` for any
    /// other length).
    pub fn from_flat(w: &[S]) -> Option<ZhWeights> {
        if w.len() != NUM_ZH_WEIGHTS {
            return None;
        }
        let mut out = ZH_DEFAULT_WEIGHTS;
        out.board.copy_from_slice(&w[..NUM_WEIGHTS]);
        out.drops.copy_from_slice(&w[NUM_WEIGHTS..]);
        Some(out)
    }

    /// The flat vector.
    pub fn flat(&self) -> Vec<S> {
        let mut v = self.board.to_vec();
        v.extend_from_slice(&self.drops);
        v
    }
}

const fn drops_flat() -> [S; NUM_DROP_WEIGHTS] {
    let mut out = [S::ZERO; NUM_DROP_WEIGHTS];
    let parts: [&[S]; 4] = [&zw::HAND, &zw::DROP_ZONE, &zw::DROP_CHECK, &zw::SENT];
    let mut k = 0;
    let mut p = 0;
    while p < parts.len() {
        let mut i = 0;
        while i < parts[p].len() {
            out[k] = parts[p][i];
            k += 1;
            i += 1;
        }
        p += 1;
    }
    out
}

pub const ZH_DEFAULT_WEIGHTS: ZhWeights = ZhWeights {
    board: zw::BOARD,
    drops: drops_flat(),
};

/// The weights the engine uses in the drop variants.
pub static ZH_WEIGHTS: ZhWeights = ZH_DEFAULT_WEIGHTS;

/// Game-phase weight of a piece in hand (as on the board).
const PHASE: [i32; 5] = [0, 1, 1, 2, 4];

const ROLES: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

pub use super::PartnerTweaks;

/// Evaluates a Crazyhouse or Bughouse board from the side to move's view.
#[inline]
pub fn evaluate<V: Variant>(ev: &mut Evaluator, board: &Board<V>) -> i32 {
    let pos = board.pos();
    let sent = crate::engine::variant::Extra::sent(board.extra());
    let mut raw = evaluate_raw(
        pos,
        sent,
        &ZH_WEIGHTS,
        Some(&mut ev.zh_pawns),
        Some(board.psqt()),
        &mut NoTrace,
    );
    if V::BUGHOUSE
        && let Some(sent) = sent
        && !ev.partner.is_empty()
    {
        for c in Color::ALL {
            let sign = if c == Color::White { 1 } else { -1 };
            for (i, role) in ROLES.into_iter().enumerate() {
                raw.mg += sign * ev.partner.extra_sent[c as usize][i] * sent.count(c, role) as i32;
                raw.eg += sign * ev.partner.extra_sent[c as usize][i] * sent.count(c, role) as i32;
            }
        }
    }
    let white = raw.taper(raw.mg, raw.eg);
    if pos.turn() == Color::White {
        white
    } else {
        -white
    }
}

/// The board terms and the drop terms, before tapering.
pub(crate) fn evaluate_raw<T: Tracer, P: Position>(
    pos: &P,
    sent: Option<&Sent>,
    w: &ZhWeights,
    cache: Option<&mut PawnCache>,
    psqt: Option<S>,
    t: &mut T,
) -> Raw {
    // The drop variants' weights were tuned without king danger.
    let mut raw = super::full::evaluate(pos, &w.board, cache, psqt, false, t);
    let board = pos.board();
    let (Some(bk), Some(wk)) = (board.king_of(Color::Black), board.king_of(Color::White)) else {
        return raw;
    };
    let kings = [bk, wk];
    let hands = pockets(pos);
    let occupied = board.occupied();
    let empty = !occupied;
    let mut score = [S::ZERO; 2];
    let mut add = |c: Color, term: Term, index: usize, count: i32| {
        let value = w.get(index) * count;
        score[c as usize] += value;
        if T::ACTIVE {
            t.add(term, c, index, count, value);
        }
    };
    let mut hand_phase = 0;
    for c in Color::ALL {
        let ci = c as usize;
        let hand = hands.get(c);
        let mut holds_any = false;
        for (i, role) in ROLES.into_iter().enumerate() {
            let n = *hand.get(role) as i32;
            if n > 0 {
                holds_any = true;
                hand_phase += n * PHASE[i];
                add(c, Term::Hand, HAND + i, n);
            }
        }
        if let Some(sent) = sent {
            for (i, role) in ROLES.into_iter().enumerate() {
                let n = sent.count(c, role) as i32;
                if n > 0 {
                    add(c, Term::Partner, SENT + i, n);
                }
            }
        }
        if !holds_any {
            continue;
        }
        // Drop threats by `c` against the enemy king.
        let their_king = kings[ci ^ 1];
        let defended = raw.attacked[ci ^ 1];
        let ring = attacks::king_attacks(their_king) & empty;
        // Five or more open squares count as five (rare, and as bad).
        let open = (ring & !defended).count().min(5);
        add(c, Term::DropThreats, DROP_ZONE + open, 1);
        // Safe checking drops: empty squares the defender (king included)
        // does not attack.
        let safe = empty & !defended & !attacks::king_attacks(their_king);
        let bishop_rays = attacks::bishop_attacks(their_king, occupied);
        let rook_rays = attacks::rook_attacks(their_king, occupied);
        for (i, role) in ROLES.into_iter().enumerate() {
            if *hand.get(role) == 0 {
                continue;
            }
            let from = match role {
                Role::Pawn => attacks::pawn_attacks(!c, their_king) & !Bitboard::BACKRANKS,
                Role::Knight => attacks::knight_attacks(their_king),
                Role::Bishop => bishop_rays,
                Role::Rook => rook_rays,
                _ => bishop_rays | rook_rays,
            };
            let n = (from & safe).count().min(4) as i32;
            if n > 0 {
                add(c, Term::DropThreats, DROP_CHECK + i, n);
            }
        }
    }
    let total = score[1] - score[0];
    raw.mg += total.mg();
    raw.eg += total.eg();
    raw.phase = (raw.phase + hand_phase).min(24);
    raw
}

/// Explains the evaluation of a drop-variant board term by term (the
/// pieces in hand and drop threats included; what was sent to the partner
/// in Bughouse).
pub fn trace<V: Variant>(board: &Board<V>) -> EvalTrace {
    let mut t = TermTracer::default();
    let sent = crate::engine::variant::Extra::sent(board.extra());
    let raw = evaluate_raw(board.pos(), sent, &ZH_WEIGHTS, None, None, &mut t);
    let mut trace = super::assemble(EvalKind::Full, &t, &raw, board.turn(), None, true);
    if !V::BUGHOUSE {
        trace.terms.retain(|x| x.term != Term::Partner);
    }
    trace
}

/// Runs the drop variants' evaluation with a custom tracer and weights (the
/// tuner). Returns the phase and endgame scale.
pub fn trace_weights<T: Tracer, P: Position>(
    pos: &P,
    sent: Option<&Sent>,
    w: &ZhWeights,
    t: &mut T,
) -> (i32, i32) {
    let raw = evaluate_raw(pos, sent, w, None, None, t);
    (raw.phase, raw.scale)
}
