//! The engine's position: a shakmaty position (standard chess, or
//! Crazyhouse for the drop variants, see [`super::variant`]) plus an
//! incrementally updated Zobrist key.
//!
//! shakmaty positions are copy-make (there is no unmake), so [`Board::play`]
//! returns a new board. The key uses shakmaty's Polyglot-compatible random
//! numbers and the Polyglot en-passant convention (the file counts only when a
//! pawn of the side to move could capture), so it equals both
//! `zobrist_hash(EnPassantMode::PseudoLegal)` and the Polyglot book key.
//! In the drop variants the key also covers the pockets and the promoted
//! pieces (as shakmaty's own key does), and in Bughouse the pieces each
//! side has sent to its partner.

use super::psqt::table as psqt_table;
use super::tapered::S;
use super::variant::{AsStd, Bug, Extra, Std, Variant, Zh, drop_gives_check};
use crate::variant::VariantKind;
use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role, Setup,
    Square, attacks,
};
use std::fmt;

mod move16;
#[cfg(test)]
mod tests;
mod zobrist;

pub use move16::Move16;
use zobrist::*;

pub use crate::variant::fen::FenError;

#[derive(Clone)]
pub struct Board<V: Variant = Std> {
    pos: V::Pos,
    hash: u64,
    /// Material + piece-square sum of the full evaluation, White minus
    /// Black, updated move by move.
    psqt: S,
    /// Pieces giving check (computed once per position: both the parent,
    /// asking "does this move give check?", and the child need it).
    checkers: Bitboard,
    /// Bughouse: what each side has sent to its partner.
    extra: V::Extra,
}

/// A Crazyhouse board.
pub type ZhBoard = Board<Zh>;
/// One board of Bughouse.
pub type BugBoard = Board<Bug>;

#[inline(always)]
fn psqt<V: Variant>(color: Color, role: Role, sq: Square) -> S {
    psqt_table::<V>()[color as usize][role as usize - 1][sq as usize]
}

/// Material + piece-square sum of a board (White minus Black) with a
/// variant's table.
pub fn psqt_sum<V: Variant>(board: &shakmaty::Board) -> S {
    let mut s = S::ZERO;
    for (sq, piece) in board.iter() {
        s += psqt::<V>(piece.color, piece.role, sq);
    }
    s
}

impl<V: Variant> AsStd for Board<V> {
    type Std = Board<Std>;
    #[inline(always)]
    fn as_std(&self) -> Option<&Board<Std>> {
        Board::as_std(self)
    }
}

/// The tablebases (a lower layer) take any `AsRef<Chess>`, so they never
/// need the engine's board type.
impl AsRef<Chess> for Board<Std> {
    #[inline]
    fn as_ref(&self) -> &Chess {
        &self.pos
    }
}

impl Board<Std> {
    pub fn startpos() -> Board {
        Board::from_chess(Chess::default())
    }

    pub fn from_chess(pos: Chess) -> Board {
        Board::from_pos(pos)
    }

    /// Parses and validates a FEN. Errors say what is wrong.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        Board::from_fen_mode(fen, CastlingMode::Standard)
    }

    /// A Chess960 (Fischer random) position: castling rights may name any
    /// rook (X-FEN or Shredder-FEN).
    pub fn from_fen_960(fen: &str) -> Result<Board, FenError> {
        Board::from_fen_mode(fen, CastlingMode::Chess960)
    }

    #[inline]
    pub fn chess(&self) -> &Chess {
        &self.pos
    }

    pub fn into_chess(self) -> Chess {
        self.pos
    }

    /// The move in UCI notation (`e2e4`, `e7e8q`, castling as king two
    /// squares, drops as `N@f3`), in any variant.
    pub fn uci(m: Move) -> String {
        m.to_uci(CastlingMode::Standard).to_string()
    }
}

impl<V: Variant> Board<V> {
    /// The variant's start position.
    pub fn start_position() -> Board<V> {
        Board::from_pos(V::default_pos())
    }

    /// A board of this variant from a shakmaty position (nothing sent to
    /// the partners yet).
    pub fn from_pos(pos: V::Pos) -> Board<V> {
        Board::with_extra(pos, V::Extra::default())
    }

    /// A board with its extra state (Bughouse: pieces sent to the partners).
    pub fn with_extra(pos: V::Pos, extra: V::Extra) -> Board<V> {
        let hash = pos.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0 ^ extra.key();
        let psqt = psqt_sum::<V>(pos.board());
        let checkers = pos.checkers();
        Board {
            pos,
            hash,
            psqt,
            checkers,
            extra,
        }
    }

    /// Parses and validates a FEN in this variant (pockets in brackets for
    /// the drop variants). Errors say what is wrong.
    pub fn from_variant_fen(fen: &str) -> Result<Board<V>, FenError> {
        Board::from_fen_mode(fen, CastlingMode::Standard)
    }

    fn from_fen_mode(fen: &str, mode: CastlingMode) -> Result<Board<V>, FenError> {
        let mut setup = crate::variant::fen::parse_setup(fen)?;
        if V::DROPS {
            // No pocket given: empty hands.
            setup.pockets.get_or_insert_with(Default::default);
        } else if setup.pockets.is_some() {
            return Err(FenError::Illegal(
                "pieces in hand exist only in crazyhouse and bughouse".into(),
            ));
        }
        let pos = V::from_setup(setup, mode)
            .map_err(|e| FenError::Illegal(crate::variant::fen::explain_illegal(e.kinds())))?;
        Ok(Board::from_pos(pos))
    }

    /// The same board as standard chess, `None` in the drop variants (the
    /// tablebases and the book know standard chess only). Decided at
    /// compile time: the variant's kind is a constant, and the type check
    /// of the downcast folds away.
    #[inline(always)]
    pub fn as_std(&self) -> Option<&Board<Std>> {
        if V::KIND != VariantKind::Chess {
            return None;
        }
        (self as &dyn std::any::Any).downcast_ref::<Board<Std>>()
    }

    /// The shakmaty position.
    #[inline]
    pub fn pos(&self) -> &V::Pos {
        &self.pos
    }

    pub fn into_pos(self) -> V::Pos {
        self.pos
    }

    /// Extra state (Bughouse: what each side has sent to its partner).
    #[inline]
    pub fn extra(&self) -> &V::Extra {
        &self.extra
    }

    /// Zobrist key (Polyglot-compatible in standard chess).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Material + piece-square sum (full evaluation), White minus Black.
    #[inline]
    pub fn psqt(&self) -> S {
        self.psqt
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    #[inline]
    pub fn board(&self) -> &shakmaty::Board {
        self.pos.board()
    }

    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.pos.halfmoves()
    }

    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// The pieces `color` has in hand (all zero in standard chess).
    #[inline]
    pub fn pocket(&self, color: Color) -> shakmaty::ByRole<u8> {
        super::variant::pocket(&self.pos, color)
    }

    pub fn fen(&self) -> String {
        Fen::from_position(&self.pos, EnPassantMode::Legal).to_string()
    }

    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> shakmaty::MoveList {
        self.pos.legal_moves()
    }

    /// Non-pawn, non-king material of `color` exists (null move is safe-ish).
    #[inline]
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        let b = self.pos.board();
        (b.by_color(color) & !b.pawns() & !b.kings()).any()
    }

    /// Plays a legal move and returns the new board (copy-make).
    #[inline]
    pub fn play(&self, m: Move) -> Board<V> {
        let us = self.pos.turn();
        let mut h = self.hash ^ zturn() ^ zep(&self.pos);
        let mut v = self.psqt;
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let new_role = promotion.unwrap_or(role);
                h ^= zpiece(from, role.of(us));
                h ^= zpiece(to, new_role.of(us));
                v += psqt::<V>(us, new_role, to) - psqt::<V>(us, role, from);
                if let Some(c) = capture {
                    h ^= zpiece(to, c.of(!us));
                    v -= psqt::<V>(!us, c, to);
                }
            }
            Move::EnPassant { from, to } => {
                let captured = Square::from_coords(to.file(), from.rank());
                h ^= zpiece(from, us.pawn()) ^ zpiece(to, us.pawn());
                h ^= zpiece(captured, (!us).pawn());
                v += psqt::<V>(us, Role::Pawn, to) - psqt::<V>(us, Role::Pawn, from);
                v -= psqt::<V>(!us, Role::Pawn, captured);
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_queen_side(rook < king);
                let king_to = Square::from_coords(side.king_to_file(), king.rank());
                let rook_to = Square::from_coords(side.rook_to_file(), rook.rank());
                h ^= zpiece(king, us.king()) ^ zpiece(king_to, us.king());
                h ^= zpiece(rook, us.rook()) ^ zpiece(rook_to, us.rook());
                v += psqt::<V>(us, Role::King, king_to) - psqt::<V>(us, Role::King, king);
                v += psqt::<V>(us, Role::Rook, rook_to) - psqt::<V>(us, Role::Rook, rook);
            }
            Move::Put { role, to } => {
                h ^= zpiece(to, role.of(us));
                v += psqt::<V>(us, role, to);
            }
        }
        // The child is built in place: the position is copied once and
        // played where it stays.
        let mut child: Board<V> = Board {
            pos: self.pos.clone(),
            hash: 0,
            psqt: v,
            checkers: Bitboard::EMPTY,
            extra: self.extra,
        };
        let sent = V::play_in_place(&mut child.pos, m);
        let pos = &child.pos;
        if pos.castles().castling_rights() != self.pos.castles().castling_rights() {
            h ^= zcastle(&self.pos) ^ zcastle(pos);
        }
        h ^= zep(pos);
        if V::DROPS {
            h ^= self.drop_key_change(pos, m);
            if let Some(piece) = sent {
                h ^= child.extra.send(us, piece.role);
            }
        }
        child.checkers = child.pos.checkers();
        child.hash = h;
        child
    }

    /// The change of the pocket and promoted-piece part of the key from
    /// this position to `after` (by `m`).
    #[inline]
    fn drop_key_change(&self, after: &V::Pos, m: Move) -> u64 {
        let mut h = 0;
        let us = self.pos.turn();
        let before = super::variant::pocket(&self.pos, us);
        let now = super::variant::pocket(after, us);
        let mut changed = |role: Role| {
            let (a, b) = (*before.get(role), *now.get(role));
            if a != b {
                h ^= zpocket(us, role, a) ^ zpocket(us, role, b);
            }
        };
        match m {
            Move::Put { role, .. } => changed(role),
            Move::EnPassant { .. } => changed(Role::Pawn),
            Move::Normal {
                capture: Some(c),
                to,
                ..
            } => changed(if self.pos.promoted().contains(to) {
                Role::Pawn
            } else {
                c
            }),
            _ => {}
        }
        for sq in self.pos.promoted() ^ after.promoted() {
            h ^= zpromoted(sq);
        }
        h
    }

    /// The key after `m`, ignoring changes of castling rights, en
    /// passant and pockets: exact for most moves, and good enough to
    /// prefetch the child's transposition-table entry before the move is
    /// made.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let us = self.pos.turn();
        let mut h = self.hash ^ zturn();
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                h ^= zpiece(from, role.of(us)) ^ zpiece(to, promotion.unwrap_or(role).of(us));
                if let Some(c) = capture {
                    h ^= zpiece(to, c.of(!us));
                }
            }
            Move::EnPassant { from, to } => {
                h ^= zpiece(from, us.pawn()) ^ zpiece(to, us.pawn());
            }
            Move::Put { role, to } => {
                h ^= zpiece(to, role.of(us));
            }
            _ => {}
        }
        h
    }

    /// The key of [`Board::null_move`]'s position (cheap: for prefetching
    /// before the position is built).
    #[inline]
    pub fn null_key(&self) -> u64 {
        self.hash ^ zturn() ^ zep(&self.pos)
    }

    /// Passes the turn (a "null move"). The side to move must not be in check.
    ///
    /// shakmaty has no way to flip the side to move in place, and
    /// `Position::swap_turn` goes through `to_setup` (which first computes the
    /// legal en-passant square) before validating the new position. We build
    /// the `Setup` directly, which skips the en-passant work; the key is
    /// updated incrementally. Returns `None` if shakmaty rejects the position
    /// (it cannot when the side to move is not in check).
    pub fn null_move(&self) -> Option<Board<V>> {
        let setup = Setup {
            board: self.pos.board().clone(),
            promoted: self.pos.promoted(),
            pockets: self.pos.pockets().copied(),
            turn: !self.pos.turn(),
            castling_rights: self.pos.castles().castling_rights(),
            ep_square: None,
            remaining_checks: None,
            // Repetitions cannot span a null move.
            halfmoves: 0,
            fullmoves: self.pos.fullmoves(),
        };
        let pos = V::from_setup(setup, self.pos.castles().mode()).ok()?;
        let hash = self.null_key();
        Some(Board {
            pos,
            hash,
            psqt: self.psqt,
            checkers: Bitboard::EMPTY,
            extra: self.extra,
        })
    }

    /// Parses a UCI move and checks it is legal here. Drops may be written
    /// in lower case (`p@e4`).
    pub fn parse_uci(&self, s: &str) -> Result<Move, String> {
        let normalized;
        let text = match s.as_bytes() {
            [r, b'@', rest @ ..] if r.is_ascii_lowercase() => {
                normalized = format!(
                    "{}@{}",
                    r.to_ascii_uppercase() as char,
                    String::from_utf8_lossy(rest)
                );
                normalized.as_str()
            }
            _ => s,
        };
        let uci: shakmaty::uci::UciMove = text
            .parse()
            .map_err(|_| format!("'{s}' is not a move in UCI notation"))?;
        uci.to_move(&self.pos)
            .map_err(|_| format!("'{s}' is not legal in {}", self.fen()))
    }

    /// The move in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`, `N@f7+`, `P@e4`;
    /// in Bughouse `#` only for a mate no drop could stop).
    pub fn san(&self, m: Move) -> String {
        let san = shakmaty::san::SanPlus::from_move(self.pos.clone(), m).to_string();
        if !V::DROPS {
            return san;
        }
        if V::BUGHOUSE && san.ends_with('#') {
            let after = self.play(m);
            let board = after.board();
            if after.checkers().single_square().is_some_and(|c| {
                board
                    .king_of(after.turn())
                    .is_some_and(|k| attacks::between(c, k).any())
            }) {
                let mut s = san;
                s.pop();
                s.push('+');
                return s;
            }
        }
        match m {
            // shakmaty writes a pawn drop as `@e4`; players write `P@e4`.
            Move::Put {
                role: Role::Pawn, ..
            } if san.starts_with('@') => format!("P{san}"),
            _ => san,
        }
    }

    /// Reconstructs a full move from its 16-bit TT encoding, if it fits this
    /// position's pieces. The result is *not* checked for legality.
    pub fn decode(&self, m: Move16) -> Option<Move> {
        if m.is_none() {
            return None;
        }
        let (from, to, promo) = m.parts();
        if V::DROPS && from == to {
            // A drop: the role is stored in the promotion bits.
            return Some(Move::Put {
                role: m.drop_role()?,
                to,
            });
        }
        let board = self.pos.board();
        let us = self.pos.turn();
        let piece = board.piece_at(from)?;
        if piece.color != us {
            return None;
        }
        let role = piece.role;
        if role == Role::King && board.piece_at(to) == Some(us.rook()) {
            return Some(Move::Castle {
                king: from,
                rook: to,
            });
        }
        let capture = match board.piece_at(to) {
            Some(p) if p.color == us => return None,
            Some(p) => Some(p.role),
            None => None,
        };
        if role == Role::Pawn
            && capture.is_none()
            && from.file() != to.file()
            && self.pos.maybe_ep_square() == Some(to)
        {
            return Some(Move::EnPassant { from, to });
        }
        Some(Move::Normal {
            role,
            from,
            capture,
            to,
            promotion: promo,
        })
    }

    /// Is `m` (e.g. decoded from the TT) legal here?
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        self.pos.is_legal(m)
    }

    /// Our pieces that shield the enemy king from one of our sliders:
    /// moving one off the line gives a discovered check.
    pub fn discovery_candidates(&self) -> Bitboard {
        let board = self.pos.board();
        let us = self.pos.us();
        let Some(king) = board.king_of(!self.pos.turn()) else {
            return Bitboard::EMPTY;
        };
        let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
            | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
            & us;
        let occupied = board.occupied();
        let mut out = Bitboard::EMPTY;
        for s in snipers {
            let between = attacks::between(king, s) & occupied;
            if !between.more_than_one() {
                out |= between & us;
            }
        }
        out
    }

    /// What [`Board::gives_check`] needs, computed once per node.
    pub fn check_info(&self) -> CheckInfo {
        let board = self.pos.board();
        let us = self.pos.turn();
        let Some(king) = board.king_of(!us) else {
            return CheckInfo {
                discovery: Bitboard::EMPTY,
                squares: [Bitboard::EMPTY; 5],
                king: None,
            };
        };
        let occupied = board.occupied();
        let bishop = attacks::bishop_attacks(king, occupied);
        let rook = attacks::rook_attacks(king, occupied);
        CheckInfo {
            discovery: self.discovery_candidates(),
            squares: [
                attacks::pawn_attacks(!us, king),
                attacks::knight_attacks(king),
                bishop,
                rook,
                bishop | rook,
            ],
            king: Some(king),
        }
    }

    /// Does the legal move `m` give check? `info` comes from
    /// [`Board::check_info`] (computed once per node).
    pub fn gives_check(&self, m: Move, info: &CheckInfo) -> bool {
        let board = self.pos.board();
        let us = self.pos.turn();
        let Some(king) = info.king else {
            return false;
        };
        match m {
            // A piece that lands on a square seeing the king checks it: the
            // square it leaves cannot be on that line between them (the
            // piece would have been giving check already).
            Move::Normal {
                role,
                from,
                to,
                promotion: None,
                ..
            } => {
                let direct = match role {
                    Role::King => false,
                    r => info.squares[r as usize - 1].contains(to),
                };
                direct || (info.discovery.contains(from) && !attacks::aligned(from, to, king))
            }
            // A promotion may check along the line the pawn leaves.
            Move::Normal {
                from,
                to,
                promotion: Some(role),
                ..
            } => {
                let occupied = board.occupied().without(from).with(to);
                let direct = match role {
                    Role::Knight => attacks::knight_attacks(to).contains(king),
                    Role::Bishop => attacks::bishop_attacks(to, occupied).contains(king),
                    Role::Rook => attacks::rook_attacks(to, occupied).contains(king),
                    _ => attacks::queen_attacks(to, occupied).contains(king),
                };
                direct || (info.discovery.contains(from) && !attacks::aligned(from, to, king))
            }
            // A drop uncovers nothing: only the dropped piece can check.
            Move::Put { role, to } => {
                drop_gives_check(us, role, to, king, board.occupied().with(to))
            }
            // Rare: decide by playing the move.
            _ => self.play(m).in_check(),
        }
    }
}

/// What deciding whether a move gives check needs ([`Board::check_info`]).
#[derive(Copy, Clone, Debug)]
pub struct CheckInfo {
    /// Our pieces that shield the enemy king from one of our sliders
    /// ([`Board::discovery_candidates`]).
    pub discovery: Bitboard,
    /// The squares from which a pawn, knight, bishop, rook or queen of ours
    /// would attack the enemy king (the board's occupancy).
    squares: [Bitboard; 5],
    /// The enemy king.
    king: Option<Square>,
}

impl<V: Variant> fmt::Debug for Board<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.fen())
    }
}

impl<V: Variant> fmt::Display for Board<V> {
    /// An ASCII diagram (White at the bottom), as printed by the UCI `d`
    /// command.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.pos.board();
        writeln!(f, " +---+---+---+---+---+---+---+---+")?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::new(rank * 8 + file);
                let c = b.piece_at(sq).map_or(' ', |p| p.char());
                write!(f, " | {c}")?;
            }
            writeln!(f, " | {}", rank + 1)?;
            writeln!(f, " +---+---+---+---+---+---+---+---+")?;
        }
        writeln!(f, "   a   b   c   d   e   f   g   h")?;
        writeln!(f)?;
        writeln!(f, "Fen: {}", self.fen())?;
        writeln!(f, "Key: {:016x}", self.hash)?;
        let checkers: Vec<String> = self.checkers().into_iter().map(|s| s.to_string()).collect();
        write!(f, "Checkers: {}", checkers.join(" "))
    }
}
