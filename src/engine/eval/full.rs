//! The full, tapered evaluation.
//!
//! Every weight is read through [`Acc::add`], which adds it to the side's
//! packed (mg, eg) sum and tells the tracer which weight was used how often.
//! With [`NoTrace`](super::NoTrace) the tracer calls vanish at compile time.

use super::king_danger::{self as kd, Attack};
use super::layout::{self as l, NUM_WEIGHTS};
use super::masks::{
    adjacent, file, forward, front_span, passed_span, pawn_attacks, pawn_double_attacks,
    relative_rank, support_span,
};
use super::{NoTrace, Raw, S, Term, Tracer};
use shakmaty::{Bitboard, Board, Color, Position, Square, attacks};

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

    /// Adds a value that is no weight of the table (king danger).
    #[inline(always)]
    fn fixed(&mut self, c: Color, term: Term, value: S) {
        self.score[c as usize] += value;
        if T::ACTIVE {
            self.t.fixed(term, c, value);
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
    fn prefetch(&self, idx: usize) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `idx` comes from `index`, which is below the table size;
        // prefetching never faults anyway.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch(self.entries.as_ptr().add(idx) as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = idx;
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

/// What both passes over one side need to know about the position.
struct Ctx {
    occupied: Bitboard,
    /// Indexed by color (Black = 0, White = 1).
    pawns: [Bitboard; 2],
    pawn_att: [Bitboard; 2],
    /// Squares attacked by two pawns.
    pawn_att2: [Bitboard; 2],
    kings: [Square; 2],
    /// Bishop and rook rays from each king (check squares).
    king_rays: [[Bitboard; 2]; 2],
    /// Whether king danger is evaluated, and each king's area for it.
    danger: bool,
    king_area: [Bitboard; 2],
}

/// What the first pass learns about one side's pieces.
#[derive(Copy, Clone, Default)]
struct SideInfo {
    /// Squares attacked by knights, bishops, rooks, queens.
    by_role: [Bitboard; 4],
    /// All squares attacked (pieces, pawns, king).
    all: Bitboard,
    /// Squares attacked at least twice (pieces, pawns, king).
    all2: Bitboard,
    /// Pieces attacking the enemy king zone.
    king_attackers: usize,
    /// Pieces attacking the enemy king area of king danger.
    danger: Attack,
    phase: i32,
}

#[inline(always)]
fn color_of<const CI: usize>() -> Color {
    if CI == 1 { Color::White } else { Color::Black }
}

/// Mobility, king-zone attacks, rooks on files and outposts of one piece
/// type (`RI`: 0 knight, 1 bishop, 2 rook, 3 queen) of side `CI`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn piece_terms<T: Tracer, const CI: usize, const RI: usize>(
    acc: &mut Acc<'_, T>,
    board: &Board,
    ctx: &Ctx,
    pieces: Bitboard,
    mobility_area: Bitboard,
    king_zone: Bitboard,
    incremental: bool,
    info: &mut SideInfo,
) {
    if pieces.is_empty() {
        return;
    }
    let c = color_of::<CI>();
    let us = board.by_color(c);
    let n = pieces.count() as i32;
    info.phase += n * [1, 1, 2, 4][RI];
    if !incremental {
        acc.add(c, Term::Material, l::MATERIAL + RI + 1, n);
    }
    let mob_base = [
        l::MOBILITY_KNIGHT,
        l::MOBILITY_BISHOP,
        l::MOBILITY_ROOK,
        l::MOBILITY_QUEEN,
    ][RI];
    // Bishops see through their own queen, rooks through their own rooks
    // and queen (batteries).
    let occupied = match RI {
        1 => ctx.occupied ^ (board.queens() & us),
        2 => ctx.occupied ^ (board.rooks_and_queens() & us),
        _ => ctx.occupied,
    };
    for sq in pieces {
        if !incremental {
            acc.add(
                c,
                Term::PieceSquares,
                l::PST + 64 * (RI + 1) + pst_index(c, sq),
                1,
            );
        }
        let att = match RI {
            0 => attacks::knight_attacks(sq),
            1 => attacks::bishop_attacks(sq, occupied),
            2 => attacks::rook_attacks(sq, occupied),
            _ => attacks::queen_attacks(sq, occupied),
        };
        info.by_role[RI] |= att;
        info.all2 |= info.all & att;
        info.all |= att;
        if ctx.danger {
            // Squares the defender holds with two pawns do not count.
            info.danger
                .add(RI, att & ctx.king_area[CI ^ 1] & !ctx.pawn_att2[CI ^ 1]);
        }
        acc.add(
            c,
            Term::Mobility,
            mob_base + (att & mobility_area).count(),
            1,
        );
        let zone_hits = (att & king_zone).count() as i32;
        if zone_hits > 0 {
            info.king_attackers += 1;
            acc.add(c, Term::KingSafety, l::KING_ATTACK + RI, zone_hits);
        }
        if RI == 2 {
            let f = file(sq);
            if (f & ctx.pawns[CI]).is_empty() {
                if (f & ctx.pawns[CI ^ 1]).is_empty() {
                    acc.add(c, Term::Rooks, l::ROOK_OPEN, 1);
                } else {
                    acc.add(c, Term::Rooks, l::ROOK_SEMI_OPEN, 1);
                }
            }
        } else if RI < 2 {
            let rr = relative_rank(c, sq);
            if (3..=5).contains(&rr)
                && ctx.pawn_att[CI].contains(sq)
                && (passed_span(c, sq) & !file(sq) & ctx.pawns[CI ^ 1]).is_empty()
            {
                acc.add(c, Term::Outposts, l::OUTPOST + RI, 1);
            }
        }
    }
}

/// First pass over side `CI`: material, squares, mobility, king attacks.
#[inline(always)]
fn first_pass<T: Tracer, const CI: usize>(
    acc: &mut Acc<'_, T>,
    board: &Board,
    ctx: &Ctx,
    incremental: bool,
) -> SideInfo {
    let c = color_of::<CI>();
    let us = board.by_color(c);
    let their_king = ctx.kings[CI ^ 1];
    let king_zone = attacks::king_attacks(their_king) | Bitboard::from(their_king);
    let mobility_area = !(ctx.pawns[CI] | Bitboard::from(ctx.kings[CI]) | ctx.pawn_att[CI ^ 1]);
    let own_king_att = attacks::king_attacks(ctx.kings[CI]);
    let mut info = SideInfo {
        all: ctx.pawn_att[CI] | own_king_att,
        all2: ctx.pawn_att2[CI] | (ctx.pawn_att[CI] & own_king_att),
        ..SideInfo::default()
    };

    if !incremental {
        let own_pawns = ctx.pawns[CI];
        acc.add(c, Term::Material, l::MATERIAL, own_pawns.count() as i32);
        for sq in own_pawns {
            acc.add(c, Term::PieceSquares, l::PST + pst_index(c, sq), 1);
        }
        acc.add(
            c,
            Term::PieceSquares,
            l::PST + 5 * 64 + pst_index(c, ctx.kings[CI]),
            1,
        );
    }
    let args = (mobility_area, king_zone, incremental);
    piece_terms::<T, CI, 0>(
        acc,
        board,
        ctx,
        board.knights() & us,
        args.0,
        args.1,
        args.2,
        &mut info,
    );
    piece_terms::<T, CI, 1>(
        acc,
        board,
        ctx,
        board.bishops() & us,
        args.0,
        args.1,
        args.2,
        &mut info,
    );
    piece_terms::<T, CI, 2>(
        acc,
        board,
        ctx,
        board.rooks() & us,
        args.0,
        args.1,
        args.2,
        &mut info,
    );
    piece_terms::<T, CI, 3>(
        acc,
        board,
        ctx,
        board.queens() & us,
        args.0,
        args.1,
        args.2,
        &mut info,
    );
    if (board.bishops() & us).more_than_one() {
        acc.add(c, Term::BishopPair, l::BISHOP_PAIR, 1);
    }
    info
}

/// Second pass over side `CI`: passed pawns, king shelter and danger, threats.
#[inline(always)]
fn second_pass<T: Tracer, const CI: usize>(
    acc: &mut Acc<'_, T>,
    board: &Board,
    ctx: &Ctx,
    passed: Bitboard,
    ours: &SideInfo,
    theirs: &SideInfo,
) {
    let c = color_of::<CI>();
    let us = board.by_color(c);
    let them = board.by_color(!c);
    let own_king = ctx.kings[CI];
    let their_king = ctx.kings[CI ^ 1];

    // Passed pawns: king distances and blockers (not cached: they depend on
    // the kings and pieces).
    for sq in passed {
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
            if ctx.occupied.contains(stop) {
                acc.add(c, Term::PassedPawns, l::PASSED_BLOCKED + rr, 1);
            }
        }
    }

    // King shelter: own pawns one and two ranks in front of the king, on its
    // file and the adjacent ones; shelter files without own pawns.
    let own_pawns = ctx.pawns[CI];
    let shelter_files = file(own_king) | adjacent(own_king);
    let krr = relative_rank(c, own_king);
    let shelter = own_pawns & shelter_files;
    let rank_at = |rr: usize| -> Bitboard {
        if rr > 7 {
            return Bitboard::EMPTY;
        }
        let r = if CI == 1 { rr } else { 7 - rr };
        Bitboard(0xff << (8 * r))
    };
    let shield1 = (shelter & rank_at(krr + 1)).count() as i32;
    let shield2 = (shelter & rank_at(krr + 2)).count() as i32;
    let open = (file_fill(shelter_files) & !file_fill(own_pawns)).count_ones() as i32;
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
        l::KING_ATTACKERS + ours.king_attackers.min(7),
        1,
    );
    let safe = !theirs.all & !us;
    let [bishop_rays, rook_rays] = ctx.king_rays[CI ^ 1];
    let checks = [
        attacks::knight_attacks(their_king) & ours.by_role[0],
        bishop_rays & ours.by_role[1],
        rook_rays & ours.by_role[2],
        (bishop_rays | rook_rays) & ours.by_role[3],
    ];
    for (i, sqs) in checks.into_iter().enumerate() {
        let n = (sqs & safe).count() as i32;
        if n > 0 {
            acc.add(c, Term::KingSafety, l::SAFE_CHECK + i, n);
        }
    }

    // King danger of our own king (fixed constants, not tuned). One
    // attacker is enough only with a queen; two queens always count.
    let their_queens = (board.queens() & them).count() as i32;
    if ctx.danger && theirs.danger.attackers > 1 - their_queens {
        let count = kd::count(&kd::Inputs {
            area: ctx.king_area[CI],
            attack: theirs.danger,
            their_queens,
            king: own_king,
            king_rays: ctx.king_rays[CI],
            our_pawns: own_pawns,
            their_pieces: them,
            attacked_us: ours.all,
            attacked2_us: ours.all2,
            attacked_them: theirs.all,
            attacked2_them: theirs.all2,
            our_queen_att: ours.by_role[3],
            our_king_att: attacks::king_attacks(own_king),
            their_by_role: theirs.by_role,
        });
        if count > 0 {
            acc.fixed(c, Term::KingSafety, -kd::penalty(count));
        }
    }

    // Threats against enemy pieces.
    let their_pieces = them & !board.pawns() & !board.kings();
    if their_pieces.any() {
        let by_pawn = ctx.pawn_att[CI] & their_pieces;
        if by_pawn.any() {
            for (i, role_bb) in [
                board.knights(),
                board.bishops(),
                board.rooks(),
                board.queens(),
            ]
            .into_iter()
            .enumerate()
            {
                let n = (by_pawn & role_bb).count() as i32;
                if n > 0 {
                    acc.add(c, Term::Threats, l::THREAT_BY_PAWN + i, n);
                }
            }
        }
        let by_minor = (ours.by_role[0] | ours.by_role[1]) & their_pieces;
        let rooks = (by_minor & board.rooks()).count() as i32;
        let queens = (by_minor & board.queens()).count() as i32;
        if rooks > 0 {
            acc.add(c, Term::Threats, l::THREAT_BY_MINOR, rooks);
        }
        if queens > 0 {
            acc.add(c, Term::Threats, l::THREAT_BY_MINOR + 1, queens);
        }
        let by_rook = (ours.by_role[2] & their_pieces & board.queens()).count() as i32;
        if by_rook > 0 {
            acc.add(c, Term::Threats, l::THREAT_BY_ROOK, by_rook);
        }
        let hanging = (their_pieces & ours.all & !theirs.all).count() as i32;
        if hanging > 0 {
            acc.add(c, Term::Threats, l::HANGING, hanging);
        }
    }
}

/// Squares a side attacks with its pawns and pieces (not its king).
#[inline(always)]
fn pieces_attacks(info: &SideInfo, pawn_att: Bitboard) -> Bitboard {
    info.by_role[0] | info.by_role[1] | info.by_role[2] | info.by_role[3] | pawn_att
}

/// `psqt`: the material + piece-square sum when the caller keeps it up to
/// date (the engine's boards do); `None` computes it here, weight by weight
/// (tracing and tuning). `danger`: add the fixed king-danger term
/// (`king_danger.rs`; the tuned weights only).
pub(crate) fn evaluate<T: Tracer, P: Position>(
    pos: &P,
    w: &[S; NUM_WEIGHTS],
    cache: Option<&mut PawnCache>,
    psqt: Option<S>,
    danger: bool,
    t: &mut T,
) -> Raw {
    let board = pos.board();
    let pawns = [board.pawns() & board.black(), board.pawns() & board.white()];
    let (Some(bk), Some(wk)) = (board.king_of(Color::Black), board.king_of(Color::White)) else {
        return Raw {
            mg: 0,
            eg: 0,
            phase: 0,
            scale: 128,
            attacked: [Bitboard::EMPTY; 2],
        };
    };
    // Start fetching the pawn-cache entry; it is read after the pieces.
    let pawn_idx = PawnCache::index(pawns[1].0, pawns[0].0);
    if let Some(c) = &cache {
        c.prefetch(pawn_idx);
    }
    let ctx = Ctx {
        occupied: board.occupied(),
        pawns,
        pawn_att: [
            pawn_attacks(Color::Black, pawns[0]),
            pawn_attacks(Color::White, pawns[1]),
        ],
        pawn_att2: [
            pawn_double_attacks(Color::Black, pawns[0]),
            pawn_double_attacks(Color::White, pawns[1]),
        ],
        kings: [bk, wk],
        king_rays: [
            [
                attacks::bishop_attacks(bk, board.occupied()),
                attacks::rook_attacks(bk, board.occupied()),
            ],
            [
                attacks::bishop_attacks(wk, board.occupied()),
                attacks::rook_attacks(wk, board.occupied()),
            ],
        ],
        danger,
        king_area: if danger {
            [
                kd::king_area(Color::Black, bk),
                kd::king_area(Color::White, wk),
            ]
        } else {
            [Bitboard::EMPTY; 2]
        },
    };

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

    let white = first_pass::<T, 1>(&mut acc, board, &ctx, incremental);
    let black = first_pass::<T, 0>(&mut acc, board, &ctx, incremental);

    // Pawn structure (cached by pawn placement unless we are tracing).
    let passed = match cache {
        Some(cache) if !T::ACTIVE => {
            let e = &mut cache.entries[pawn_idx];
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

    second_pass::<T, 1>(&mut acc, board, &ctx, passed[1], &white, &black);
    second_pass::<T, 0>(&mut acc, board, &ctx, passed[0], &black, &white);

    acc.add(pos.turn(), Term::Tempo, l::TEMPO, 1);

    let total = acc.score[1] - acc.score[0];
    let (mg, eg) = (total.mg(), total.eg());
    Raw {
        mg,
        eg,
        phase: (white.phase + black.phase).min(24),
        scale: endgame_scale(board, eg),
        attacked: [
            pieces_attacks(&black, ctx.pawn_att[0]),
            pieces_attacks(&white, ctx.pawn_att[1]),
        ],
    }
}
