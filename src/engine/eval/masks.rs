//! Precomputed bitboard masks for pawn-structure evaluation.

use shakmaty::{Bitboard, Color, Square};

pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;

const fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

const fn adjacent_files(file: usize) -> u64 {
    let mut m = 0;
    if file > 0 {
        m |= file_mask(file - 1);
    }
    if file < 7 {
        m |= file_mask(file + 1);
    }
    m
}

/// Ranks strictly in front of `rank` from `color`'s side (index 0 = Black).
const fn ranks_ahead(color: usize, rank: usize) -> u64 {
    if color == 1 {
        if rank == 7 {
            0
        } else {
            !0u64 << (8 * (rank + 1))
        }
    } else if rank == 0 {
        0
    } else {
        !0u64 >> (8 * (8 - rank))
    }
}

const fn build_adjacent() -> [u64; 8] {
    let mut t = [0; 8];
    let mut f = 0;
    while f < 8 {
        t[f] = adjacent_files(f);
        f += 1;
    }
    t
}

/// [color][square] -> squares in front on the same file.
const fn build_front_span() -> [[u64; 64]; 2] {
    let mut t = [[0; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            t[c][sq] = file_mask(sq % 8) & ranks_ahead(c, sq / 8);
            sq += 1;
        }
        c += 1;
    }
    t
}

/// [color][square] -> squares in front on the same and adjacent files
/// (a pawn is passed when no enemy pawn stands there).
const fn build_passed_span() -> [[u64; 64]; 2] {
    let mut t = [[0; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let f = sq % 8;
            t[c][sq] = (file_mask(f) | adjacent_files(f)) & ranks_ahead(c, sq / 8);
            sq += 1;
        }
        c += 1;
    }
    t
}

/// [color][square] -> squares on adjacent files at the same rank or behind
/// (where a friendly pawn could still support this one).
const fn build_support_span() -> [[u64; 64]; 2] {
    let mut t = [[0; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            t[c][sq] = adjacent_files(sq % 8) & !ranks_ahead(c, sq / 8);
            sq += 1;
        }
        c += 1;
    }
    t
}

static ADJACENT: [u64; 8] = build_adjacent();
static FRONT_SPAN: [[u64; 64]; 2] = build_front_span();
static PASSED_SPAN: [[u64; 64]; 2] = build_passed_span();
static SUPPORT_SPAN: [[u64; 64]; 2] = build_support_span();

#[inline(always)]
pub fn file(sq: Square) -> Bitboard {
    Bitboard(file_mask(sq.file() as usize))
}

#[inline(always)]
pub fn adjacent(sq: Square) -> Bitboard {
    Bitboard(ADJACENT[sq.file() as usize])
}

#[inline(always)]
pub fn front_span(c: Color, sq: Square) -> Bitboard {
    Bitboard(FRONT_SPAN[c as usize][sq as usize])
}

#[inline(always)]
pub fn passed_span(c: Color, sq: Square) -> Bitboard {
    Bitboard(PASSED_SPAN[c as usize][sq as usize])
}

#[inline(always)]
pub fn support_span(c: Color, sq: Square) -> Bitboard {
    Bitboard(SUPPORT_SPAN[c as usize][sq as usize])
}

/// Squares attacked by the pawns `pawns` of `color`.
#[inline(always)]
pub fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let p = pawns.0;
    match color {
        Color::White => Bitboard(((p & !FILE_A) << 7) | ((p & !FILE_H) << 9)),
        Color::Black => Bitboard(((p & !FILE_A) >> 9) | ((p & !FILE_H) >> 7)),
    }
}

/// Squares attacked by two pawns of `color` at once.
#[inline(always)]
pub fn pawn_double_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let p = pawns.0;
    match color {
        Color::White => Bitboard(((p & !FILE_A) << 7) & ((p & !FILE_H) << 9)),
        Color::Black => Bitboard(((p & !FILE_A) >> 9) & ((p & !FILE_H) >> 7)),
    }
}

/// Rank of `sq` from `color`'s side: 0 = own back rank, 7 = promotion rank.
#[inline(always)]
pub fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.rank() as usize,
        Color::Black => 7 - sq.rank() as usize,
    }
}

/// The square in front of `sq` from `color`'s side (None on the last rank).
#[inline(always)]
pub fn forward(color: Color, sq: Square) -> Option<Square> {
    match color {
        Color::White => sq.offset(8),
        Color::Black => sq.offset(-8),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans() {
        // e4 (28) for White: e5..e8 in front.
        let e4 = Square::E4;
        assert_eq!(
            front_span(Color::White, e4),
            Bitboard::from_iter([Square::E5, Square::E6, Square::E7, Square::E8])
        );
        assert_eq!(
            front_span(Color::Black, e4),
            Bitboard::from_iter([Square::E3, Square::E2, Square::E1])
        );
        assert_eq!(passed_span(Color::White, Square::A7).count(), 2);
        assert_eq!(passed_span(Color::White, Square::H8).count(), 0);
        assert!(support_span(Color::White, e4).contains(Square::D4));
        assert!(support_span(Color::White, e4).contains(Square::F2));
        assert!(!support_span(Color::White, e4).contains(Square::D5));
        assert_eq!(
            pawn_attacks(Color::White, Bitboard::from(Square::A2)),
            Bitboard::from(Square::B3)
        );
        assert_eq!(
            pawn_attacks(Color::Black, Bitboard::from(Square::H7)),
            Bitboard::from(Square::G6)
        );
        // c3 and e3 both attack d4; b3 only guards a4 and c4 once each.
        let pawns = Bitboard::from_iter([Square::C3, Square::E3, Square::B3]);
        assert_eq!(
            pawn_double_attacks(Color::White, pawns),
            Bitboard::from(Square::D4)
        );
        let pawns = Bitboard::from_iter([Square::C6, Square::E6, Square::A6]);
        assert_eq!(
            pawn_double_attacks(Color::Black, pawns),
            Bitboard::from_iter([Square::D5, Square::B5])
        );
    }
}
