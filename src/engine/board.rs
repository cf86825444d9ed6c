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

use super::tapered::S;
use super::variant::{Bug, Extra, Std, Variant, Zh, drop_gives_check};
use shakmaty::fen::Fen;
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, Piece, Position, Role,
    Setup, Square, attacks,
};
use std::fmt;

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
    V::psqt_table()[color as usize][role as usize - 1][sq as usize]
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

#[inline]
fn zpocket(color: Color, role: Role, n: u8) -> u64 {
    Zobrist64::zobrist_for_pocket(color, role, n).0
}

#[inline]
fn zpromoted(sq: Square) -> u64 {
    Zobrist64::zobrist_for_promoted(sq).0
}

#[inline]
fn zpiece(sq: Square, piece: Piece) -> u64 {
    Zobrist64::zobrist_for_piece(sq, piece).0
}

#[inline]
fn zturn() -> u64 {
    Zobrist64::zobrist_for_white_turn().0
}

#[inline]
fn zcastle<P: Position>(pos: &P) -> u64 {
    let castles = pos.castles();
    let mut h = 0;
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if castles.has(color, side) {
                h ^= Zobrist64::zobrist_for_castling_right(color, side).0;
            }
        }
    }
    h
}

/// The en-passant part of the key: the file of the ep square when a pawn of
/// the side to move attacks it (Polyglot's rule).
#[inline]
fn zep<P: Position>(pos: &P) -> u64 {
    match pos.maybe_ep_square() {
        Some(ep) if (attacks::pawn_attacks(!pos.turn(), ep) & pos.our(Role::Pawn)).any() => {
            Zobrist64::zobrist_for_en_passant_file(ep.file()).0
        }
        _ => 0,
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
        let old_rights = self.pos.castles().castling_rights();
        let (pos, sent) = V::play(&self.pos, m);
        if pos.castles().castling_rights() != old_rights {
            h ^= zcastle(&self.pos) ^ zcastle(&pos);
        }
        h ^= zep(&pos);
        let mut extra = self.extra;
        if V::DROPS {
            h ^= self.drop_key_change(&pos, m);
            if let Some(piece) = sent {
                h ^= extra.send(us, piece.role);
            }
        }
        let checkers = pos.checkers();
        Board {
            pos,
            hash: h,
            psqt: v,
            checkers,
            extra,
        }
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
        let hash = self.hash ^ zturn() ^ zep(&self.pos);
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

    /// Does the legal move `m` give check? `discovery` comes from
    /// [`Board::discovery_candidates`] (computed once per node).
    pub fn gives_check(&self, m: Move, discovery: Bitboard) -> bool {
        let board = self.pos.board();
        let us = self.pos.turn();
        let Some(king) = board.king_of(!us) else {
            return false;
        };
        match m {
            Move::Normal {
                role,
                from,
                to,
                promotion,
                ..
            } => {
                let direct = match promotion.unwrap_or(role) {
                    Role::Pawn => attacks::pawn_attacks(us, to).contains(king),
                    Role::Knight => attacks::knight_attacks(to).contains(king),
                    Role::King => false,
                    slider => {
                        let occupied = board.occupied().without(from).with(to);
                        let a = match slider {
                            Role::Bishop => attacks::bishop_attacks(to, occupied),
                            Role::Rook => attacks::rook_attacks(to, occupied),
                            _ => attacks::queen_attacks(to, occupied),
                        };
                        a.contains(king)
                    }
                };
                direct || (discovery.contains(from) && !attacks::aligned(from, to, king))
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

/// A move packed into 16 bits for the transposition table:
/// from (6 bits) | to (6 bits) | promotion role (3 bits). Castling is stored
/// as king-takes-rook, as shakmaty represents it. A drop is stored with
/// from = to (no board move has that) and its role in the promotion bits.
/// Zero means "no move".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Hash)]
pub struct Move16(pub u16);

impl Move16 {
    pub const NONE: Move16 = Move16(0);

    #[inline]
    pub fn new(m: Move) -> Move16 {
        let (from, to, promo) = match m {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => (from, to, promotion.map_or(0, |r| r as u16)),
            Move::EnPassant { from, to } => (from, to, 0),
            Move::Castle { king, rook } => (king, rook, 0),
            Move::Put { role, to } => (to, to, role as u16),
        };
        Move16(from as u16 | (to as u16) << 6 | promo << 12)
    }

    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The dropped role of a drop's code.
    #[inline]
    fn drop_role(self) -> Option<Role> {
        Role::try_from(self.0 >> 12).ok()
    }

    #[inline]
    fn parts(self) -> (Square, Square, Option<Role>) {
        let from = Square::new((self.0 & 63) as u32);
        let to = Square::new(((self.0 >> 6) & 63) as u32);
        let promo = match self.0 >> 12 {
            2 => Some(Role::Knight),
            3 => Some(Role::Bishop),
            4 => Some(Role::Rook),
            5 => Some(Role::Queen),
            _ => None,
        };
        (from, to, promo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_errors_say_what_is_wrong() {
        let err = |f: &str| Board::from_fen(f).map(|_| ()).unwrap_err().to_string();
        assert!(err("").contains("empty FEN"));
        assert!(err("8/8/8/8/8/8/8/8 w - - 0 1").contains("the board is empty"));
        assert!(err("4k3/8/8/8/8/8/8/4K2R w Q - 0 1").contains("castling rights"));
        assert!(err("4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1").contains("not to move is in check"));
        assert!(err("4k3/8/8/8/8/8/8/4K2R x - - 0 1").contains("'w' or 'b'"));
        assert!(err("4k3/8/8/8/8/8/8/4K2Rp w - - 0 1").contains("8 ranks"));
        assert!(err("4k2P/8/8/8/8/8/8/4K3 w - - 0 1").contains("first or eighth rank"));
        assert!(Board::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").is_ok());
    }

    fn walk<V: Variant>(board: &Board<V>, depth: u32, seen: &mut u64) {
        let expect = board
            .pos()
            .zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal)
            .0
            ^ board.extra().key();
        assert_eq!(
            board.hash(),
            expect,
            "incremental key wrong at {}",
            board.fen()
        );
        assert_eq!(
            board.psqt(),
            psqt_sum::<V>(board.board()),
            "incremental psqt"
        );
        *seen += 1;
        if depth == 0 {
            return;
        }
        for m in board.pos().legal_moves() {
            let child = board.play(m);
            let packed = Move16::new(m);
            assert_eq!(board.decode(packed), Some(m), "move16 round trip");
            walk(&child, depth - 1, seen);
        }
    }

    #[test]
    fn incremental_key_matches_full_recompute() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let b = Board::from_fen(fen).unwrap();
            let mut seen = 0;
            walk(&b, 3, &mut seen);
            assert!(seen > 1000);
        }
    }

    /// Crazyhouse and Bughouse boards: the key covers pockets, promoted
    /// pieces and (Bughouse) what was sent to the partner, and stays equal
    /// to a full recomputation through drops, captures and promotions.
    #[test]
    fn incremental_key_with_pockets() {
        for fen in [
            "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
            "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",
            "4k3/1Q~6/8/8/4b3/8/Kpp5/8[Nn] b - - 0 1",
            "2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - - 0 1",
        ] {
            let zh = Board::<Zh>::from_variant_fen(fen).unwrap();
            let mut seen = 0;
            walk(&zh, 2, &mut seen);
            assert!(seen > 300, "{fen}: {seen}");
            let bug = Board::<Bug>::from_variant_fen(fen).unwrap();
            let mut seen = 0;
            walk(&bug, 2, &mut seen);
            assert!(seen > 300, "{fen}: {seen}");
        }
    }

    #[test]
    fn bughouse_capture_goes_to_the_partner() {
        // White takes the knight: Crazyhouse puts it in White's hand,
        // Bughouse sends it away.
        let fen = "4k3/8/8/3n4/4P3/8/8/4K3[] w - - 0 1";
        let zh = Board::<Zh>::from_variant_fen(fen).unwrap();
        let m = zh.parse_uci("e4d5").unwrap();
        assert_eq!(zh.play(m).pocket(Color::White).knight, 1);
        let bug = Board::<Bug>::from_variant_fen(fen).unwrap();
        let after = bug.play(m);
        assert_eq!(after.pocket(Color::White).knight, 0);
        assert_eq!(after.extra().count(Color::White, Role::Knight), 1);
        // A promoted queen goes back as a pawn.
        let fen = "4k3/8/8/8/8/8/1q~6/K7[] w - - 0 1";
        let zh = Board::<Zh>::from_variant_fen(fen).unwrap();
        let m = zh.parse_uci("a1b2").unwrap();
        let after = zh.play(m);
        assert_eq!(after.pocket(Color::White).pawn, 1);
        assert_eq!(after.pocket(Color::White).queen, 0);
        let bug = Board::<Bug>::from_variant_fen(fen).unwrap();
        assert_eq!(bug.play(m).extra().count(Color::White, Role::Pawn), 1);
    }

    #[test]
    fn drops_in_uci_and_san() {
        let b = Board::<Zh>::from_variant_fen(
            "rnbqkb1r/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKB1R[Pnp] w KQkq - 0 4",
        )
        .unwrap();
        let m = b.parse_uci("P@e4").unwrap();
        assert_eq!(
            m,
            Move::Put {
                role: Role::Pawn,
                to: Square::E4
            }
        );
        assert_eq!(b.parse_uci("p@e4"), Ok(m), "lower case drops");
        assert_eq!(Board::uci(m), "P@e4");
        assert_eq!(b.san(m), "P@e4");
        assert!(b.parse_uci("N@e4").is_err(), "White has no knight in hand");
        assert!(
            b.parse_uci("P@e8").is_err(),
            "no pawn drops on the back rank"
        );
        let code = Move16::new(m);
        assert_eq!(b.decode(code), Some(m));
    }

    #[test]
    fn polyglot_start_key() {
        assert_eq!(Board::startpos().hash(), 0x463b96181691fc9c);
        // Polyglot's documented keys after 1.e4 and 1.e4 d5 2.e5 f5 (ep file counts).
        let b = Board::startpos();
        let e4 = b.play(b.parse_uci("e2e4").unwrap());
        assert_eq!(e4.hash(), 0x823c9b50fd114196);
        let mut x = e4;
        for m in ["d7d5", "e4e5", "f7f5"] {
            x = x.play(x.parse_uci(m).unwrap());
        }
        assert_eq!(x.hash(), 0x22a48b5a8e47ff78);
    }

    #[test]
    fn null_move_flips_turn_and_key() {
        let b = Board::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2")
            .unwrap();
        let n = b.null_move().unwrap();
        assert_eq!(n.turn(), Color::Black);
        assert_eq!(
            n.hash(),
            n.chess()
                .zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal)
                .0
        );
        let back = n.null_move().unwrap();
        assert_eq!(back.hash(), b.hash());
    }

    #[test]
    fn fen_errors_are_explained() {
        assert!(matches!(Board::from_fen(""), Err(FenError::Syntax(_))));
        assert!(matches!(
            Board::from_fen("not a fen"),
            Err(FenError::Syntax(_))
        ));
        // Two white kings.
        assert!(matches!(
            Board::from_fen("8/8/8/8/8/8/8/KK5k w - - 0 1"),
            Err(FenError::Illegal(_))
        ));
        // Side not to move is in check.
        assert!(Board::from_fen("k7/8/8/8/8/8/8/K6r w - - 0 1").is_ok());
        assert!(matches!(
            Board::from_fen("k6R/8/8/8/8/8/8/K7 w - - 0 1"),
            Err(FenError::Illegal(_))
        ));
    }
}
