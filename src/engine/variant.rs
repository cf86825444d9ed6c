//! The rules the engine plays by: standard chess, Crazyhouse, or one board
//! of Bughouse.
//!
//! The search, move picker, evaluation and board are generic over a
//! [`Variant`]. Each variant is a zero-sized marker type, so the compiler
//! builds one search per variant and standard chess pays nothing for the
//! others: every `if V::DROPS` below is a constant.
//!
//! - [`Std`]: standard chess on shakmaty's [`Chess`].
//! - [`Zh`]: Crazyhouse on shakmaty's `Crazyhouse` (pockets, drops as
//!   `Move::Put`, promoted pieces return to the hand as pawns).
//! - [`Bug`]: one board of Bughouse, also on shakmaty's `Crazyhouse`: a
//!   captured piece leaves the board for the partner's hand on the other
//!   board instead of entering the capturer's hand. The board remembers what
//!   each side has sent across (its evaluation counts it: material gained
//!   also feeds the partner), and a check that a drop could block is not
//!   mate (the partner may still send a piece).
//!
//! This layer sits below the board and the evaluation (see the layer list
//! in the engine's module docs): it imports neither. The board takes its
//! piece-square tables from `psqt.rs`, the evaluation chooses the variant's
//! evaluation itself (`eval/dispatch.rs`), and the one question about a
//! board asked here ([`Variant::as_std`]) goes through the [`AsStd`] trait
//! that the board implements.

use crate::variant::VariantKind;
use shakmaty::variant::Crazyhouse;
use shakmaty::{
    Bitboard, ByColor, ByRole, CastlingMode, Chess, Color, FromSetup, Move, Piece, Position,
    PositionError, Role, Setup, Square,
};
use std::fmt::Debug;

/// What one board of a variant needs to know on top of the shakmaty
/// position. Standard chess and Crazyhouse need nothing (`()`).
pub trait Extra: Copy + Default + Debug + PartialEq + Eq + Send + Sync + 'static {
    /// This state's part of the position key (0 when there is none).
    #[inline(always)]
    fn key(&self) -> u64 {
        0
    }
    /// `color` captured a piece that goes to its partner; returns the change
    /// of [`Extra::key`].
    #[inline(always)]
    fn send(&mut self, _color: Color, _role: Role) -> u64 {
        0
    }
    /// Pieces sent to the partner, if this variant has partners.
    #[inline(always)]
    fn sent(&self) -> Option<&Sent> {
        None
    }
}
impl Extra for () {}

/// The pieces each side has sent to its partner's hand (Bughouse), by role
/// (pawn to queen). Index: colour of the capturer (Black = 0, White = 1).
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq, Hash)]
pub struct Sent(pub [[u8; 5]; 2]);

impl Extra for Sent {
    fn key(&self) -> u64 {
        let mut h = 0;
        for color in Color::ALL {
            for role in [
                Role::Pawn,
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
            ] {
                h ^= zsent(color, role, self.count(color, role));
            }
        }
        h
    }

    #[inline]
    fn send(&mut self, color: Color, role: Role) -> u64 {
        let n = &mut self.0[color as usize][role as usize - 1];
        let old = *n;
        *n = n.saturating_add(1);
        zsent(color, role, old) ^ zsent(color, role, *n)
    }

    #[inline(always)]
    fn sent(&self) -> Option<&Sent> {
        Some(self)
    }
}

impl Sent {
    #[inline]
    pub fn count(&self, color: Color, role: Role) -> u8 {
        self.0[color as usize][role as usize - 1]
    }
}

/// Keys for the pieces sent to the partner (Bughouse): one per colour,
/// role and count bit, like shakmaty's pocket keys.
const SENT_KEYS: [[[u64; 8]; 5]; 2] = {
    let mut t = [[[0u64; 8]; 5]; 2];
    let mut x: u64 = 0x6b69_6269_747a_4247;
    let mut i = 0;
    while i < 80 {
        // splitmix64
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        t[i / 40][(i / 8) % 5][i % 8] = z;
        i += 1;
    }
    t
};

#[inline]
fn zsent(color: Color, role: Role, n: u8) -> u64 {
    let keys = &SENT_KEYS[color as usize][role as usize - 1];
    let mut h = 0;
    for (bit, k) in keys.iter().enumerate() {
        if n >> bit & 1 != 0 {
            h ^= k;
        }
    }
    h
}

/// A variant's rules as the engine sees them.
pub trait Variant: Copy + Default + Debug + Send + Sync + 'static {
    /// The shakmaty position type.
    type Pos: Position + Clone + Debug + Send + Sync + 'static;
    /// Extra per-board state ([`Sent`] in Bughouse).
    type Extra: Extra;
    /// Move-picker buffer: large enough for every legal move.
    type Entries: EntryBuf;
    const KIND: VariantKind;
    /// Pieces in hand and drops.
    const DROPS: bool;
    /// Captured pieces leave the board for the partner (Bughouse).
    const BUGHOUSE: bool;
    /// Pruning margins in percent of standard chess's (the drop variants'
    /// evaluations swing wider: a capture wins the piece twice, once off
    /// the board and once into the hand).
    const MARGIN_PCT: i32 = 100;

    fn default_pos() -> Self::Pos;

    /// The position from a setup (FEN) in this variant's rules.
    fn from_setup(setup: Setup, mode: CastlingMode) -> Result<Self::Pos, PositionError<Self::Pos>>;

    /// Plays a legal move. Returns the captured piece when it leaves the
    /// board for the partner (Bughouse only): colour of the captured piece,
    /// a promoted piece as a pawn.
    fn play(pos: &Self::Pos, m: Move) -> (Self::Pos, Option<Piece>) {
        let mut p = pos.clone();
        let sent = Self::play_in_place(&mut p, m);
        (p, sent)
    }

    /// [`Variant::play`] on a position in place (the search's boards are
    /// built where they will live, without moving the position around).
    fn play_in_place(pos: &mut Self::Pos, m: Move) -> Option<Piece>;

    /// The same board as standard chess (tablebases and the book work only
    /// there): `board.as_std()`, also callable as `V::as_std(&board)`.
    #[inline(always)]
    fn as_std<B: AsStd>(board: &B) -> Option<&B::Std> {
        board.as_std()
    }
}

/// A board that may be one of standard chess. The board implements it
/// (`Board::as_std`); the variant layer names only this trait, so it never
/// imports the board type.
pub trait AsStd {
    /// The standard-chess board type.
    type Std;
    /// `Some(self)` in standard chess, `None` in the drop variants.
    fn as_std(&self) -> Option<&Self::Std>;
}

/// A move-picker buffer of `(move, ordering score)` pairs.
pub trait EntryBuf: Default + Send {
    fn push(&mut self, e: (Move, i32));
    fn clear(&mut self);
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn as_slice(&self) -> &[(Move, i32)];
    fn as_mut_slice(&mut self) -> &mut [(Move, i32)];
}

impl<const N: usize> EntryBuf for arrayvec::ArrayVec<(Move, i32), N> {
    #[inline(always)]
    fn push(&mut self, e: (Move, i32)) {
        arrayvec::ArrayVec::push(self, e)
    }
    #[inline(always)]
    fn clear(&mut self) {
        arrayvec::ArrayVec::clear(self)
    }
    #[inline(always)]
    fn len(&self) -> usize {
        arrayvec::ArrayVec::len(self)
    }
    #[inline(always)]
    fn as_slice(&self) -> &[(Move, i32)] {
        arrayvec::ArrayVec::as_slice(self)
    }
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [(Move, i32)] {
        arrayvec::ArrayVec::as_mut_slice(self)
    }
}

/// Standard chess.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq, Hash)]
pub struct Std;

/// Crazyhouse: captured pieces go to the capturer's hand and can be dropped.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq, Hash)]
pub struct Zh;

/// One board of Bughouse: captured pieces go to the partner.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq, Hash)]
pub struct Bug;

impl Variant for Std {
    type Pos = Chess;
    type Extra = ();
    type Entries = arrayvec::ArrayVec<(Move, i32), 256>;
    const KIND: VariantKind = VariantKind::Chess;
    const DROPS: bool = false;
    const BUGHOUSE: bool = false;

    #[inline]
    fn default_pos() -> Chess {
        Chess::default()
    }

    fn from_setup(setup: Setup, mode: CastlingMode) -> Result<Chess, PositionError<Chess>> {
        Chess::from_setup(setup, mode)
    }

    #[inline(always)]
    fn play_in_place(pos: &mut Chess, m: Move) -> Option<Piece> {
        pos.play_unchecked(m);
        None
    }
}

impl Variant for Zh {
    type Pos = Crazyhouse;
    type Extra = ();
    type Entries = arrayvec::ArrayVec<(Move, i32), 512>;
    const KIND: VariantKind = VariantKind::Crazyhouse;
    const DROPS: bool = true;
    const BUGHOUSE: bool = false;
    const MARGIN_PCT: i32 = super::params::ZH_MARGIN_PCT;

    fn default_pos() -> Crazyhouse {
        Crazyhouse::default()
    }

    fn from_setup(
        setup: Setup,
        mode: CastlingMode,
    ) -> Result<Crazyhouse, PositionError<Crazyhouse>> {
        Crazyhouse::from_setup(setup, mode)
    }

    #[inline(always)]
    fn play_in_place(pos: &mut Crazyhouse, m: Move) -> Option<Piece> {
        pos.play_unchecked(m);
        None
    }
}

impl Variant for Bug {
    type Pos = Crazyhouse;
    type Extra = Sent;
    type Entries = arrayvec::ArrayVec<(Move, i32), 512>;
    const KIND: VariantKind = VariantKind::Bughouse;
    const DROPS: bool = true;
    const BUGHOUSE: bool = true;
    const MARGIN_PCT: i32 = super::params::ZH_MARGIN_PCT;

    fn default_pos() -> Crazyhouse {
        Crazyhouse::default()
    }

    fn from_setup(
        setup: Setup,
        mode: CastlingMode,
    ) -> Result<Crazyhouse, PositionError<Crazyhouse>> {
        // A bughouse board may hold more of a piece than a chess set has.
        Crazyhouse::from_setup(setup, mode).or_else(PositionError::ignore_too_much_material)
    }

    #[inline]
    fn play(pos: &Crazyhouse, m: Move) -> (Crazyhouse, Option<Piece>) {
        crate::variant::rules::play_bughouse(pos, m)
    }

    #[inline]
    fn play_in_place(pos: &mut Crazyhouse, m: Move) -> Option<Piece> {
        let (p, sent) = crate::variant::rules::play_bughouse(pos, m);
        *pos = p;
        sent
    }
}

/// A pruning margin of standard chess scaled for the variant `V` (exactly
/// `x` in standard chess).
#[inline(always)]
pub fn margin<V: Variant>(x: i32) -> i32 {
    if V::MARGIN_PCT == 100 {
        x
    } else {
        x * V::MARGIN_PCT / 100
    }
}

/// Code generic over the variant, run for a variant chosen at run time
/// (see [`dispatch`]).
pub trait ForVariant {
    type Out;
    fn run<V: Variant>(self) -> Self::Out;
}

/// Runs `f` with the variant type of `kind`.
pub fn dispatch<F: ForVariant>(kind: VariantKind, f: F) -> F::Out {
    match kind {
        VariantKind::Chess => f.run::<Std>(),
        VariantKind::Crazyhouse => f.run::<Zh>(),
        VariantKind::Bughouse => f.run::<Bug>(),
    }
}

/// The pocket of `color` (all zero without pockets).
#[inline(always)]
pub fn pocket<P: Position>(pos: &P, color: Color) -> ByRole<u8> {
    match pos.pockets() {
        Some(p) => *p.get(color),
        None => ByRole::default(),
    }
}

/// Pieces in either pocket.
#[inline(always)]
pub fn pockets<P: Position>(pos: &P) -> ByColor<ByRole<u8>> {
    pos.pockets().copied().unwrap_or_default()
}

/// Squares where a piece of `role` may be dropped by the side to move when
/// it is not in check (any empty square; pawns not on the back ranks).
#[inline(always)]
pub fn drop_targets<P: Position>(pos: &P, role: Role) -> Bitboard {
    let empty = !pos.board().occupied();
    if role == Role::Pawn {
        empty & !Bitboard::BACKRANKS
    } else {
        empty
    }
}

/// Does a piece of `role` dropped by `us` on `to` attack `king` (with the
/// board occupied as `occupied`, `to` included)?
#[inline(always)]
pub fn drop_gives_check(
    us: Color,
    role: Role,
    to: Square,
    king: Square,
    occupied: Bitboard,
) -> bool {
    use shakmaty::attacks;
    match role {
        Role::Pawn => attacks::pawn_attacks(us, to).contains(king),
        Role::Knight => attacks::knight_attacks(to).contains(king),
        Role::Bishop => attacks::bishop_attacks(to, occupied).contains(king),
        Role::Rook => attacks::rook_attacks(to, occupied).contains(king),
        Role::Queen => attacks::queen_attacks(to, occupied).contains(king),
        Role::King => false,
    }
}
