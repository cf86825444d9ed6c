//! Staged legal move generation on shakmaty's attack tables.
//!
//! shakmaty generates all legal moves at once (`capture_moves()` generates
//! everything and then filters). The search mostly needs the tactical moves
//! first and often never gets to the quiet ones (a capture or the TT move cuts
//! the node), and quiescence nodes need captures only. So, when the side to
//! move is not in check, we generate the two groups separately:
//! - [`tactical`]: captures (with promotion) and queen promotions;
//! - [`quiet`]: everything else (pushes, piece moves, castling, quiet
//!   underpromotions).
//!
//! Legality uses a pin mask (a pinned piece may only move along the line to
//! its king) and, for king moves, the attacks on the target square with the
//! king lifted off the board. En passant and castling come from shakmaty's
//! own legal generators. In check, use shakmaty's evasion generator
//! (`legal_moves()`). The union of both groups is exactly the legal moves
//! (tested against shakmaty below).

use shakmaty::{
    Bitboard, CastlingSide, Color, Move, MoveList, Position, Rank, Role, Square, attacks,
};

mod drop_moves;
#[cfg(test)]
mod tests;

pub use drop_moves::{checking_drops, drop_is_legal, drops};

/// Per-node facts shared by both generators.
#[derive(Copy, Clone, Debug)]
pub struct GenContext {
    pub king: Square,
    pub pinned: Bitboard,
}

impl GenContext {
    /// `None` when the side to move has no king (not a legal chess position).
    #[inline]
    pub fn new<P: Position>(pos: &P) -> Option<GenContext> {
        let king = pos.board().king_of(pos.turn())?;
        Some(GenContext {
            king,
            pinned: pinned(pos, king),
        })
    }
}

/// Our pieces pinned to our king.
#[inline]
pub fn pinned<P: Position>(pos: &P, king: Square) -> Bitboard {
    let board = pos.board();
    let us = pos.us();
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
        | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
        & pos.them();
    let occupied = board.occupied();
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & occupied;
        if !between.more_than_one() {
            pinned |= between & us;
        }
    }
    pinned
}

#[inline(always)]
fn last_rank(to: Square) -> bool {
    matches!(to.rank(), Rank::First | Rank::Eighth)
}

#[inline(always)]
fn allowed(ctx: &GenContext, from: Square, to: Square) -> bool {
    !ctx.pinned.contains(from) || attacks::aligned(ctx.king, from, to)
}

/// Pieces other than pawns and the king, to `targets`.
#[inline(always)]
fn piece_moves<P: Position>(
    pos: &P,
    ctx: &GenContext,
    targets: Bitboard,
    f: &mut impl FnMut(Move),
) {
    let board = pos.board();
    let us = pos.us();
    let occupied = board.occupied();
    for from in board.knights() & us & !ctx.pinned {
        for to in attacks::knight_attacks(from) & targets {
            f(Move::Normal {
                role: Role::Knight,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
    for (role, pieces) in [
        (Role::Bishop, board.bishops()),
        (Role::Rook, board.rooks()),
        (Role::Queen, board.queens()),
    ] {
        for from in pieces & us {
            let mut to_set = match role {
                Role::Bishop => attacks::bishop_attacks(from, occupied),
                Role::Rook => attacks::rook_attacks(from, occupied),
                _ => attacks::queen_attacks(from, occupied),
            } & targets;
            if ctx.pinned.contains(from) {
                to_set &= attacks::ray(ctx.king, from);
            }
            for to in to_set {
                f(Move::Normal {
                    role,
                    from,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
        }
    }
}

/// King steps to `targets` that are not attacked once the king has moved.
#[inline(always)]
fn king_moves<P: Position>(pos: &P, ctx: &GenContext, targets: Bitboard, f: &mut impl FnMut(Move)) {
    let board = pos.board();
    let occupied = board.occupied().without(ctx.king);
    for to in attacks::king_attacks(ctx.king) & targets {
        if board.attacks_to(to, !pos.turn(), occupied).is_empty() {
            f(Move::Normal {
                role: Role::King,
                from: ctx.king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
}

/// Captures and queen promotions (not in check). With `underpromotions`,
/// capturing underpromotions too (the main search needs every legal move;
/// quiescence does not).
pub fn tactical<P: Position>(
    pos: &P,
    ctx: &GenContext,
    underpromotions: bool,
    mut f: impl FnMut(Move),
) {
    let board = pos.board();
    let turn = pos.turn();
    let us = pos.us();
    let targets = pos.them() & !board.kings();
    let occupied = board.occupied();

    let pawns = board.pawns() & us;
    for from in pawns {
        for to in attacks::pawn_attacks(turn, from) & targets {
            if !allowed(ctx, from, to) {
                continue;
            }
            // The queen first, then (for the main search) the knight,
            // rook and bishop: the order the search's ties have always
            // been broken in.
            let promotions: &[Role] = if underpromotions {
                &[Role::Queen, Role::Knight, Role::Rook, Role::Bishop]
            } else {
                &[Role::Queen]
            };
            pawn_move(from, to, board.role_at(to), promotions, &mut f);
        }
    }
    // Queen promotions by a push.
    let (seventh, step) = match turn {
        Color::White => (Bitboard::from_rank(Rank::Seventh), 8),
        Color::Black => (Bitboard::from_rank(Rank::Second), -8),
    };
    for from in pawns & seventh {
        if let Some(to) = from.offset(step)
            && !occupied.contains(to)
            && allowed(ctx, from, to)
        {
            f(Move::Normal {
                role: Role::Pawn,
                from,
                capture: None,
                to,
                promotion: Some(Role::Queen),
            });
        }
    }
    en_passant(pos, ctx, &mut f);
    piece_moves(pos, ctx, targets, &mut f);
    king_moves(pos, ctx, targets, &mut f);
}

/// En passant captures that leave our king safe: both pawns leave their
/// squares, which may expose the king to a slider (or, in check, remove
/// the checker).
#[inline(always)]
fn en_passant<P: Position>(pos: &P, ctx: &GenContext, f: &mut impl FnMut(Move)) {
    let Some(ep) = pos.maybe_ep_square() else {
        return;
    };
    let turn = pos.turn();
    // The captured pawn stands behind the ep square.
    let behind = match turn {
        Color::White => ep.offset(-8),
        Color::Black => ep.offset(8),
    };
    let Some(captured) = behind else {
        return;
    };
    let board = pos.board();
    for from in attacks::pawn_attacks(!turn, ep) & board.pawns() & pos.us() {
        let occ = board.occupied().without(from).without(captured).with(ep);
        if (board.attacks_to(ctx.king, !turn, occ) & occ).is_empty() {
            f(Move::EnPassant { from, to: ep });
        }
    }
}

/// The four promotions in shakmaty's order.
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// A pawn's move to `to`; on the last rank one move per role of
/// `promotions`, in that order.
#[inline(always)]
fn pawn_move(
    from: Square,
    to: Square,
    capture: Option<Role>,
    promotions: &[Role],
    f: &mut impl FnMut(Move),
) {
    let mut push = |promotion| {
        f(Move::Normal {
            role: Role::Pawn,
            from,
            capture,
            to,
            promotion,
        })
    };
    if last_rank(to) {
        for &p in promotions {
            push(Some(p));
        }
    } else {
        push(None);
    }
}

/// Pawn moves to `target` (the checker and the squares between it and the
/// king) in shakmaty's order: captures to the left, then to the right,
/// single steps, double steps; each group's plain moves before its
/// promotions.
#[inline(always)]
fn pawn_evasions<P: Position>(
    pos: &P,
    ctx: &GenContext,
    target: Bitboard,
    f: &mut impl FnMut(Move),
) {
    let board = pos.board();
    let turn = pos.turn();
    let pawns = board.pawns() & pos.us();
    let empty = !board.occupied();
    let back = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
    let (left, right, step, double_rank) = match turn {
        Color::White => (7, 9, 8, Rank::Fourth),
        Color::Black => (-9, -7, -8, Rank::Fifth),
    };
    for dir in [left, right] {
        let captures = target & pos.them();
        for to in (captures & !back).into_iter().chain(captures & back) {
            // One file over: a shift that wrapped around the board is no capture.
            if let Some(from) = to.offset(-dir)
                && pawns.contains(from)
                && from.file().distance(to.file()) == 1
                && allowed(ctx, from, to)
            {
                pawn_move(from, to, board.role_at(to), &PROMOTIONS, f);
            }
        }
    }
    let steps = target & empty;
    for to in (steps & !back).into_iter().chain(steps & back) {
        if let Some(from) = to.offset(-step)
            && pawns.contains(from)
            && allowed(ctx, from, to)
        {
            pawn_move(from, to, None, &PROMOTIONS, f);
        }
    }
    for to in steps & Bitboard::from_rank(double_rank) {
        if let Some(one) = to.offset(-step)
            && empty.contains(one)
            && let Some(from) = one.offset(-step)
            && pawns.contains(from)
            && allowed(ctx, from, to)
        {
            pawn_move(from, to, None, &PROMOTIONS, f);
        }
    }
}

/// Every legal move in check (standard chess: no drops), in the order of
/// shakmaty's `legal_moves` (the search's tie-breaks, and so its node
/// counts, depend on it), without building and copying a move list:
/// en passant, king steps, then for a single checker the pawn moves,
/// knights, bishops, rooks and queens that take it or step between.
pub fn evasions<P: Position>(
    pos: &P,
    ctx: &GenContext,
    checkers: Bitboard,
    mut f: impl FnMut(Move),
) {
    en_passant(pos, ctx, &mut f);
    king_moves(pos, ctx, !pos.us(), &mut f);
    let Some(checker) = checkers.single_square() else {
        return;
    };
    let target = attacks::between(ctx.king, checker).with(checker);
    pawn_evasions(pos, ctx, target, &mut f);
    piece_moves(pos, ctx, target, &mut f);
}

/// Every legal move that [`tactical`] (with underpromotions) does not
/// generate (not in check): pushes, quiet underpromotions, quiet piece and
/// king moves, castling.
pub fn quiet<P: Position>(pos: &P, ctx: &GenContext, mut f: impl FnMut(Move)) {
    let board = pos.board();
    let turn = pos.turn();
    let us = pos.us();
    let empty = !board.occupied();

    let pawns = board.pawns() & us;
    let (step, start_rank): (i32, Rank) = match turn {
        Color::White => (8, Rank::Second),
        Color::Black => (-8, Rank::Seventh),
    };
    for from in pawns {
        let Some(to) = from.offset(step) else {
            continue;
        };
        if !empty.contains(to) {
            continue;
        }
        if allowed(ctx, from, to) {
            if last_rank(to) {
                for p in [Role::Knight, Role::Rook, Role::Bishop] {
                    f(Move::Normal {
                        role: Role::Pawn,
                        from,
                        capture: None,
                        to,
                        promotion: Some(p),
                    });
                }
            } else {
                f(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture: None,
                    to,
                    promotion: None,
                });
            }
        }
        if from.rank() == start_rank
            && let Some(to2) = to.offset(step)
            && empty.contains(to2)
            && allowed(ctx, from, to2)
        {
            f(Move::Normal {
                role: Role::Pawn,
                from,
                capture: None,
                to: to2,
                promotion: None,
            });
        }
    }
    piece_moves(pos, ctx, empty, &mut f);
    king_moves(pos, ctx, empty, &mut f);
    if pos.castles().has_color(turn) {
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if pos.castles().has(turn, side) {
                for m in pos.castling_moves(side) {
                    f(m);
                }
            }
        }
    }
}

/// The quiet moves (as [`quiet`] defines them) that give check, without
/// generating the others. `discovery`: our pieces shielding the enemy king
/// from one of our sliders ([`crate::engine::Board::discovery_candidates`]).
pub fn quiet_checks<P: Position + Clone>(
    pos: &P,
    ctx: &GenContext,
    discovery: Bitboard,
    mut f: impl FnMut(Move),
) {
    let Some(king) = pos.board().king_of(!pos.turn()) else {
        return;
    };
    // Pieces that uncover a check: every quiet move of theirs off the line
    // checks, others may check directly; decide exactly, move by move.
    let uncovering = discovery & pos.us();
    if uncovering.any() {
        uncovering_checks(pos, ctx, discovery, uncovering, king, &mut f);
    }
    let others = pos.us() & !uncovering;
    piece_checks(pos, ctx, others, king, &mut f);
    pawn_checks(pos, ctx, others, king, &mut f);
    // Castling: the rook may give check.
    if pos.castles().has_color(pos.turn()) && !uncovering.contains(ctx.king) {
        castling_checks(pos, king, &mut f);
    }
}

/// [`quiet_checks`] of the pieces in `uncovering` (those of `discovery`
/// that are ours): a quiet move off the line to `king` checks, any other
/// may check directly.
#[inline(always)]
fn uncovering_checks<P: Position + Clone>(
    pos: &P,
    ctx: &GenContext,
    discovery: Bitboard,
    uncovering: Bitboard,
    king: Square,
    f: &mut impl FnMut(Move),
) {
    let turn = pos.turn();
    let occupied = pos.board().occupied();
    let check = |m: Move| -> bool {
        match m {
            Move::Normal {
                role,
                from,
                to,
                promotion,
                ..
            } => {
                (discovery.contains(from) && !attacks::aligned(from, to, king)) || {
                    let occ = occupied.without(from).with(to);
                    match promotion.unwrap_or(role) {
                        Role::Pawn => attacks::pawn_attacks(turn, to).contains(king),
                        Role::Knight => attacks::knight_attacks(to).contains(king),
                        Role::Bishop => attacks::bishop_attacks(to, occ).contains(king),
                        Role::Rook => attacks::rook_attacks(to, occ).contains(king),
                        Role::Queen => attacks::queen_attacks(to, occ).contains(king),
                        Role::King => false,
                    }
                }
            }
            // Castling with the king uncovering a line: play it.
            _ => {
                let mut p = pos.clone();
                p.play_unchecked(m);
                p.is_check()
            }
        }
    };
    quiet(pos, ctx, |m| {
        if m.from().is_some_and(|from| uncovering.contains(from)) && check(m) {
            f(m);
        }
    });
}

/// [`quiet_checks`] of the knights and sliders among `others`: to the
/// empty squares from which they attack `king`.
#[inline(always)]
fn piece_checks<P: Position>(
    pos: &P,
    ctx: &GenContext,
    others: Bitboard,
    king: Square,
    f: &mut impl FnMut(Move),
) {
    let board = pos.board();
    let occupied = board.occupied();
    let empty = !occupied;
    // Squares from which each piece type would attack the enemy king.
    let knight_sq = attacks::knight_attacks(king) & empty;
    let bishop_sq = attacks::bishop_attacks(king, occupied) & empty;
    let rook_sq = attacks::rook_attacks(king, occupied) & empty;
    // Knights.
    for from in board.knights() & others & !ctx.pinned {
        for to in attacks::knight_attacks(from) & knight_sq {
            f(Move::Normal {
                role: Role::Knight,
                from,
                capture: None,
                to,
                promotion: None,
            });
        }
    }
    // Sliders.
    for (role, pieces, targets) in [
        (Role::Bishop, board.bishops(), bishop_sq),
        (Role::Rook, board.rooks(), rook_sq),
        (Role::Queen, board.queens(), bishop_sq | rook_sq),
    ] {
        for from in pieces & others {
            let mut to_set = match role {
                Role::Bishop => attacks::bishop_attacks(from, occupied),
                Role::Rook => attacks::rook_attacks(from, occupied),
                _ => attacks::queen_attacks(from, occupied),
            } & targets;
            if ctx.pinned.contains(from) {
                to_set &= attacks::ray(ctx.king, from);
            }
            for to in to_set {
                f(Move::Normal {
                    role,
                    from,
                    capture: None,
                    to,
                    promotion: None,
                });
            }
        }
    }
}

/// [`quiet_checks`] of the pawns among `others`: pushes (single and
/// double) and quiet underpromotions that attack `king`.
#[inline(always)]
fn pawn_checks<P: Position>(
    pos: &P,
    ctx: &GenContext,
    others: Bitboard,
    king: Square,
    f: &mut impl FnMut(Move),
) {
    let board = pos.board();
    let turn = pos.turn();
    let occupied = board.occupied();
    let empty = !occupied;
    let (step, start_rank): (i32, Rank) = match turn {
        Color::White => (8, Rank::Second),
        Color::Black => (-8, Rank::Seventh),
    };
    let pawn_sq = attacks::pawn_attacks(!turn, king);
    for from in board.pawns() & others {
        let Some(to) = from.offset(step) else {
            continue;
        };
        if !empty.contains(to) {
            continue;
        }
        if allowed(ctx, from, to) {
            if last_rank(to) {
                let occ = occupied.without(from).with(to);
                for (p, a) in [
                    (Role::Knight, attacks::knight_attacks(to)),
                    (Role::Rook, attacks::rook_attacks(to, occ)),
                    (Role::Bishop, attacks::bishop_attacks(to, occ)),
                ] {
                    if a.contains(king) {
                        f(Move::Normal {
                            role: Role::Pawn,
                            from,
                            capture: None,
                            to,
                            promotion: Some(p),
                        });
                    }
                }
            } else if pawn_sq.contains(to) {
                f(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture: None,
                    to,
                    promotion: None,
                });
            }
        }
        if from.rank() == start_rank
            && let Some(to2) = to.offset(step)
            && empty.contains(to2)
            && pawn_sq.contains(to2)
            && allowed(ctx, from, to2)
        {
            f(Move::Normal {
                role: Role::Pawn,
                from,
                capture: None,
                to: to2,
                promotion: None,
            });
        }
    }
}

/// [`quiet_checks`] of castling: the moves whose rook attacks `king`.
#[inline(always)]
fn castling_checks<P: Position>(pos: &P, king: Square, f: &mut impl FnMut(Move)) {
    let turn = pos.turn();
    let occupied = pos.board().occupied();
    for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
        if pos.castles().has(turn, side) {
            for m in pos.castling_moves(side) {
                if let Move::Castle { king: k, rook } = m {
                    let rook_to = Square::from_coords(side.rook_to_file(), rook.rank());
                    let king_to = Square::from_coords(side.king_to_file(), k.rank());
                    let occ = occupied
                        .without(k)
                        .without(rook)
                        .with(rook_to)
                        .with(king_to);
                    if attacks::rook_attacks(rook_to, occ).contains(king) {
                        f(m);
                    }
                }
            }
        }
    }
}

/// Is `m` (a move from somewhere else: the TT, a killer) legal here? Fast
/// for ordinary moves and drops; castling, en passant and drops in check
/// go to shakmaty's legality test.
pub fn is_legal<P: Position>(pos: &P, in_check: bool, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    } = m
    else {
        if let Move::Put { role, to } = m
            && !in_check
        {
            return drop_is_legal(pos, role, to);
        }
        return pos.is_legal(m);
    };
    let board = pos.board();
    let turn = pos.turn();
    if board.piece_at(from) != Some(role.of(turn)) || board.role_at(to) != capture {
        return false;
    }
    if capture.is_some() && !pos.them().contains(to) || capture == Some(Role::King) {
        return false;
    }
    let occupied = board.occupied();
    let reachable = match role {
        Role::Pawn => {
            let promotes = last_rank(to);
            if promotes != promotion.is_some()
                || promotion == Some(Role::King)
                || promotion == Some(Role::Pawn)
            {
                return false;
            }
            if capture.is_some() {
                attacks::pawn_attacks(turn, from).contains(to)
            } else {
                let (step, start_rank) = match turn {
                    Color::White => (8, Rank::Second),
                    Color::Black => (-8, Rank::Seventh),
                };
                match from.offset(step) {
                    Some(one) if one == to => !occupied.contains(to),
                    Some(one) => {
                        from.rank() == start_rank
                            && one.offset(step) == Some(to)
                            && !occupied.contains(one)
                            && !occupied.contains(to)
                    }
                    None => false,
                }
            }
        }
        _ if promotion.is_some() => return false,
        Role::Knight => attacks::knight_attacks(from).contains(to),
        Role::Bishop => attacks::bishop_attacks(from, occupied).contains(to),
        Role::Rook => attacks::rook_attacks(from, occupied).contains(to),
        Role::Queen => attacks::queen_attacks(from, occupied).contains(to),
        Role::King => {
            return attacks::king_attacks(from).contains(to)
                && board
                    .attacks_to(to, !turn, occupied.without(from))
                    .is_empty();
        }
    };
    if !reachable {
        return false;
    }
    let Some(king) = board.king_of(turn) else {
        return false;
    };
    if in_check {
        // Another piece than the king must take the only checker or step
        // between it and the king.
        let checkers = board.attacks_to(king, !turn, occupied);
        let Some(checker) = checkers.single_square() else {
            return false;
        };
        if !(attacks::between(king, checker) | Bitboard::from(checker)).contains(to) {
            return false;
        }
    }
    // Now only a pin can make the move illegal.
    if !attacks::aligned(king, from, to) && pinned(pos, king).contains(from) {
        return false;
    }
    true
}

/// The moves quiescence search looks at: all evasions when in check,
/// otherwise captures and queen promotions.
pub fn tactical_moves<P: Position>(pos: &P, in_check: bool) -> MoveList {
    if in_check {
        return pos.legal_moves();
    }
    let mut moves = MoveList::new();
    if let Some(ctx) = GenContext::new(pos) {
        tactical(pos, &ctx, false, |m| moves.push(m));
    }
    moves
}
