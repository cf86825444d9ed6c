//! The full, tapered evaluation.
//!
//! Every weight is read through [`Acc::add`], which adds it to the side's
//! packed (mg, eg) sum and tells the tracer which weight was used how often.
//! With [`NoTrace`](super::NoTrace) the tracer calls vanish at compile time.

use super::layout::{self as l, NUM_WEIGHTS};
use super::masks::{
    adjacent, file, forward, front_span, passed_span, pawn_attacks, relative_rank, support_span,
};
use super::{NoTrace, Raw, S, Term, Tracer};
use shakmaty::{Bitboard, Board, Chess, Color, Position, Role, Square, attacks};

struct Acc<'a, T: Tracer> {
    w: &'a [S; NUM_WEIGHTS],
    t: &'a mut T,
    /// Indexed by color (Black = 0, White = 1).
    score: [S; 2],
}

impl<T: Tracer> Acc<'_, T> {
    #[inline(always)]
    fn add(&mut self, c: Color, term: Term, index: usize, count: i32) {
        let value = self.w[index] * count;
        self.score[c as usize] += value;
        if T::ACTIVE {
            self.t.add(term, c, index, count, value);
        }
    }
}

/// Square index into a piece-square table (tables are drawn rank 8 first,
/// from White's side).
#[inline(always)]
fn pst_index(c: Color, sq: Square) -> usize {
    match c {
        Color::White => sq as usize ^ 56,
        Color::Black => sq as usize,
    }
}

/// The files holding a piece of `bb`, as a rank-1 mask (bit f = file f).
#[inline(always)]
fn file_fill(bb: Bitboard) -> u64 {
    let mut x = bb.0;
    x |= x >> 32;
    x |= x >> 16;
    x |= x >> 8;
    x & 0xff
}

/// Cached pawn-structure results (they depend on the pawns only).
#[derive(Copy, Clone, Default)]
struct PawnEntry {
    white: u64,
    black: u64,
    score: [S; 2],
    passed: [Bitboard; 2],
}

pub struct PawnCache {
    entries: Box<[PawnEntry]>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache::new()
    }
}

impl PawnCache {
    const SIZE: usize = 1 << 14;

    pub fn new() -> PawnCache {
        PawnCache {
            entries: vec![PawnEntry::default(); Self::SIZE].into_boxed_slice(),
        }
    }

    #[inline(always)]
    fn index(white: u64, black: u64) -> usize {
        let h = white.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ black.rotate_left(32).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        (h >> (64 - 14)) as usize
    }
}

/// Evaluates the pawn structure of `c`; returns the passed pawns.
#[inline(always)]
fn pawn_structure<T: Tracer>(
    acc: &mut Acc<'_, T>,
    c: Color,
    own: Bitboard,
    their: Bitboard,
) -> Bitboard {
    let own_att = pawn_attacks(c, own);
    let their_att = pawn_attacks(!c, their);
    let mut passed = Bitboard::EMPTY;
    for sq in own {
        let rr = relative_rank(c, sq);
        let neighbours = own & adjacent(sq);
        let doubled = (front_span(c, sq) & own).any();
        if neighbours.is_empty() {
            acc.add(c, Term::PawnStructure, l::PAWN_ISOLATED, 1);
        } else {
            let phalanx = (neighbours & Bitboard::from_rank(sq.rank())).any();
            if phalanx {
                acc.add(c, Term::PawnStructure, l::PAWN_PHALANX + rr, 1);
            }
            if own_att.contains(sq) {
                acc.add(c, Term::PawnStructure, l::PAWN_SUPPORTED + rr, 1);
            }
            // Backward: no friendly pawn can come to its support and the
            // square in front is held by an enemy pawn.
            if (support_span(c, sq) & own).is_empty()
                && let Some(stop) = forward(c, sq)
                && their_att.contains(stop)
            {
                acc.add(c, Term::PawnStructure, l::PAWN_BACKWARD, 1);
            }
        }
        if doubled {
            acc.add(c, Term::PawnStructure, l::PAWN_DOUBLED, 1);
        } else if (passed_span(c, sq) & their).is_empty() {
            passed.add(sq);
            acc.add(c, Term::PassedPawns, l::PASSED + rr, 1);
        }
    }
    passed
}

#[inline(always)]
fn non_pawn_units(board: &Board, c: Color) -> i32 {
    let us = board.by_color(c);
    3 * (board.knights() & us).count() as i32
        + 3 * (board.bishops() & us).count() as i32
        + 5 * (board.rooks() & us).count() as i32
        + 9 * (board.queens() & us).count() as i32
}

/// Scales the endgame part down (out of 128) for drawish material.
fn endgame_scale(board: &Board, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let weak = !strong;
    let strong_pawns = (board.pawns() & board.by_color(strong)).count();
    let strong_np = non_pawn_units(board, strong);
    let weak_np = non_pawn_units(board, weak);
    if strong_pawns == 0 && strong_np - weak_np <= 3 {
        // No pawns and at most a minor piece up: hard or impossible to win.
        return if strong_np <= 3 { 0 } else { 16 };
    }
    // Opposite-coloured bishops with only pawns besides.
    let bishops = board.bishops();
    let white_b = bishops & board.white();
    let black_b = bishops & board.black();
    if white_b.count() == 1
        && black_b.count() == 1
        && (board.knights() | board.rooks() | board.queens()).is_empty()
        && (white_b & Bitboard::LIGHT_SQUARES).any() != (black_b & Bitboard::LIGHT_SQUARES).any()
    {
        return 64;
    }
    128
}

/// `psqt`: the material + piece-square sum when the caller keeps it up to
/// date (the engine's boards do); `None` computes it here, weight by weight
/// (tracing and tuning).
pub(crate) fn evaluate<T: Tracer>(
    pos: &Chess,
    w: &[S; NUM_WEIGHTS],
    cache: Option<&mut PawnCache>,
    psqt: Option<S>,
    t: &mut T,
) -> Raw {
    let board = pos.board();
    let occupied = board.occupied();
    let pawns = [board.pawns() & board.black(), board.pawns() & board.white()];
    let (Some(bk), Some(wk)) = (board.king_of(Color::Black), board.king_of(Color::White)) else {
        return Raw {
            mg: 0,
            eg: 0,
            phase: 0,
            scale: 128,
        };
    };
    let kings = [bk, wk];
    let pawn_att = [
        pawn_attacks(Color::Black, pawns[0]),
        pawn_attacks(Color::White, pawns[1]),
    ];

    let mut acc = Acc {
        w,
        t,
        score: [S::ZERO; 2],
    };
    // Material and piece-square tables: given, or summed piece by piece.
    let incremental = psqt.is_some();
    if let Some(v) = psqt {
        acc.score[1] += v;
    }

    // Pawn structure (cached by pawn placement unless we are tracing).
    let passed = match cache {
        Some(cache) if !T::ACTIVE => {
            let idx = PawnCache::index(pawns[1].0, pawns[0].0);
            let e = &mut cache.entries[idx];
            if e.white != pawns[1].0 || e.black != pawns[0].0 {
                let mut tmp = Acc {
                    w,
                    t: &mut NoTrace,
                    score: [S::ZERO; 2],
                };
                let pw = pawn_structure(&mut tmp, Color::White, pawns[1], pawns[0]);
                let pb = pawn_structure(&mut tmp, Color::Black, pawns[0], pawns[1]);
                *e = PawnEntry {
                    white: pawns[1].0,
                    black: pawns[0].0,
                    score: tmp.score,
                    passed: [pb, pw],
                };
            }
            acc.score[0] += e.score[0];
            acc.score[1] += e.score[1];
            e.passed
        }
        _ => {
            let pw = pawn_structure(&mut acc, Color::White, pawns[1], pawns[0]);
            let pb = pawn_structure(&mut acc, Color::Black, pawns[0], pawns[1]);
            [pb, pw]
        }
    };

    let mut attacked = [Bitboard::EMPTY; 2];
    // [color][role index 0..4 = N, B, R, Q]
    let mut attacked_by = [[Bitboard::EMPTY; 4]; 2];
    let mut king_attackers = [0usize; 2];
    let mut phase = 0;

    for c in [Color::White, Color::Black] {
        let ci = c as usize;
        let us = board.by_color(c);
        let their_king = kings[ci ^ 1];
        let king_zone = attacks::king_attacks(their_king) | Bitboard::from(their_king);
        let mobility_area = !(pawns[ci] | Bitboard::from(kings[ci]) | pawn_att[ci ^ 1]);

        // Pawns: material and squares.
        let own_pawns = pawns[ci];
        if !incremental {
            acc.add(c, Term::Material, l::MATERIAL, own_pawns.count() as i32);
            for sq in own_pawns {
                acc.add(c, Term::PieceSquares, l::PST + pst_index(c, sq), 1);
            }
        }

        for (ri, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .enumerate()
        {
            let pieces = board.by_role(role) & us;
            if pieces.is_empty() {
                continue;
            }
            let n = pieces.count() as i32;
            phase += n * [1, 1, 2, 4][ri];
            if !incremental {
                acc.add(c, Term::Material, l::MATERIAL + ri + 1, n);
            }
            for sq in pieces {
                if !incremental {
                    acc.add(
                        c,
                        Term::PieceSquares,
                        l::PST + 64 * (ri + 1) + pst_index(c, sq),
                        1,
                    );
                }
                let att = match role {
                    Role::Knight => attacks::knight_attacks(sq),
                    // Bishops and rooks see through their own queen, rooks
                    // through their own rooks (batteries).
                    Role::Bishop => attacks::bishop_attacks(sq, occupied ^ (board.queens() & us)),
                    Role::Rook => {
                        attacks::rook_attacks(sq, occupied ^ (board.rooks_and_queens() & us))
                    }
                    _ => attacks::queen_attacks(sq, occupied),
                };
                attacked_by[ci][ri] |= att;
                let mobility = (att & mobility_area).count();
                let mob_base = [
                    l::MOBILITY_KNIGHT,
                    l::MOBILITY_BISHOP,
                    l::MOBILITY_ROOK,
                    l::MOBILITY_QUEEN,
                ][ri];
                acc.add(c, Term::Mobility, mob_base + mobility, 1);

                let zone_hits = (att & king_zone).count() as i32;
                if zone_hits > 0 {
                    king_attackers[ci] += 1;
                    acc.add(c, Term::KingSafety, l::KING_ATTACK + ri, zone_hits);
                }

                match role {
                    Role::Rook => {
                        let f = file(sq);
                        if (f & own_pawns).is_empty() {
                            if (f & pawns[ci ^ 1]).is_empty() {
                                acc.add(c, Term::Rooks, l::ROOK_OPEN, 1);
                            } else {
                                acc.add(c, Term::Rooks, l::ROOK_SEMI_OPEN, 1);
                            }
                        }
                    }
                    Role::Knight | Role::Bishop => {
                        let rr = relative_rank(c, sq);
                        if (3..=5).contains(&rr)
                            && pawn_att[ci].contains(sq)
                            && (passed_span(c, sq) & !file(sq) & pawns[ci ^ 1]).is_empty()
                        {
                            acc.add(c, Term::Outposts, l::OUTPOST + ri, 1);
                        }
                    }
                    _ => {}
                }
            }
        }
        if (board.bishops() & us).more_than_one() {
            acc.add(c, Term::BishopPair, l::BISHOP_PAIR, 1);
        }

        // King square.
        if !incremental {
            acc.add(
                c,
                Term::PieceSquares,
                l::PST + 5 * 64 + pst_index(c, kings[ci]),
                1,
            );
        }

        attacked[ci] = attacked_by[ci][0]
            | attacked_by[ci][1]
            | attacked_by[ci][2]
            | attacked_by[ci][3]
            | pawn_att[ci]
            | attacks::king_attacks(kings[ci]);
    }

    for c in [Color::White, Color::Black] {
        let ci = c as usize;
        let us = board.by_color(c);
        let them = board.by_color(!c);
        let own_king = kings[ci];
        let their_king = kings[ci ^ 1];

        // Passed pawns: king distances and blockers (not cached: they depend
        // on the kings and pieces).
        for sq in passed[ci] {
            let rr = relative_rank(c, sq);
            if let Some(stop) = forward(c, sq) {
                acc.add(
                    c,
                    Term::PassedPawns,
                    l::PASSED_OWN_KING + rr,
                    own_king.distance(stop) as i32,
                );
                acc.add(
                    c,
                    Term::PassedPawns,
                    l::PASSED_THEIR_KING + rr,
                    their_king.distance(stop) as i32,
                );
                if occupied.contains(stop) {
                    acc.add(c, Term::PassedPawns, l::PASSED_BLOCKED + rr, 1);
                }
            }
        }

        // King shelter: own pawns one and two ranks in front of the king, on
        // its file and the adjacent ones; shelter files without own pawns.
        let own_pawns = pawns[ci];
        let shelter_files = file(own_king) | adjacent(own_king);
        let krr = relative_rank(c, own_king);
        let shelter = own_pawns & shelter_files;
        let rank_at = |rr: usize| -> Bitboard {
            if rr > 7 {
                return Bitboard::EMPTY;
            }
            let r = if c == Color::White { rr } else { 7 - rr };
            Bitboard(0xff << (8 * r))
        };
        let shield1 = (shelter & rank_at(krr + 1)).count() as i32;
        let shield2 = (shelter & rank_at(krr + 2)).count() as i32;
        let shelter8 = file_fill(shelter_files);
        let open = (shelter8 & !file_fill(own_pawns)).count_ones() as i32;
        if shield1 > 0 {
            acc.add(c, Term::KingSafety, l::KING_SHIELD, shield1);
        }
        if shield2 > 0 {
            acc.add(c, Term::KingSafety, l::KING_SHIELD + 1, shield2);
        }
        if open > 0 {
            acc.add(c, Term::KingSafety, l::KING_OPEN_FILE, open);
        }

        // Attacks on the enemy king: number of attackers and safe checks.
        acc.add(
            c,
            Term::KingSafety,
            l::KING_ATTACKERS + king_attackers[ci].min(7),
            1,
        );
        let safe = !attacked[ci ^ 1] & !us;
        let bishop_rays = attacks::bishop_attacks(their_king, occupied);
        let rook_rays = attacks::rook_attacks(their_king, occupied);
        let checks = [
            attacks::knight_attacks(their_king) & attacked_by[ci][0] & safe,
            bishop_rays & attacked_by[ci][1] & safe,
            rook_rays & attacked_by[ci][2] & safe,
            (bishop_rays | rook_rays) & attacked_by[ci][3] & safe,
        ];
        for (i, sqs) in checks.iter().enumerate() {
            if sqs.any() {
                acc.add(c, Term::KingSafety, l::SAFE_CHECK + i, sqs.count() as i32);
            }
        }

        // Threats against enemy pieces.
        let their_pieces = them & !board.pawns() & !board.kings();
        if their_pieces.any() {
            let by_pawn = pawn_att[ci] & their_pieces;
            for sq in by_pawn {
                if let Some(role) = board.role_at(sq) {
                    acc.add(c, Term::Threats, l::THREAT_BY_PAWN + role as usize - 2, 1);
                }
            }
            let by_minor = (attacked_by[ci][0] | attacked_by[ci][1]) & their_pieces;
            let rooks = (by_minor & board.rooks()).count() as i32;
            let queens = (by_minor & board.queens()).count() as i32;
            if rooks > 0 {
                acc.add(c, Term::Threats, l::THREAT_BY_MINOR, rooks);
            }
            if queens > 0 {
                acc.add(c, Term::Threats, l::THREAT_BY_MINOR + 1, queens);
            }
            let by_rook = (attacked_by[ci][2] & their_pieces & board.queens()).count() as i32;
            if by_rook > 0 {
                acc.add(c, Term::Threats, l::THREAT_BY_ROOK, by_rook);
            }
            let hanging = (their_pieces & attacked[ci] & !attacked[ci ^ 1]).count() as i32;
            if hanging > 0 {
                acc.add(c, Term::Threats, l::HANGING, hanging);
            }
        }
    }

    acc.add(pos.turn(), Term::Tempo, l::TEMPO, 1);

    let total = acc.score[1] - acc.score[0];
    let (mg, eg) = (total.mg(), total.eg());
    Raw {
        mg,
        eg,
        phase: phase.min(24),
        scale: endgame_scale(board, eg),
    }
}
