//! Ethereal-style king danger: a quadratic penalty for a king under attack.
//!
//! Kibitz's tuned king-safety terms are linear and small; Texel tuning on
//! shallow-search labels set an earlier quadratic term to almost nothing,
//! because 5,000-node searches do not see the attacks it is about. This
//! term therefore takes Ethereal 12's formula and constants as they are,
//! scaled to Kibitz's pawn (about 0.7 of Ethereal's), and keeps them out of
//! the tuned weight tables: `kibitz tune` neither sees nor changes them.
//!
//! The inputs come from the evaluation's first pass (the attack maps it
//! builds anyway); [`penalty`] only combines them.

use super::S;
use shakmaty::{Bitboard, Color, Square, attacks};

/// Whether the full evaluation with the tuned weights adds this term (the
/// level weights never do: levels 1-7 keep their calibrated evaluation).
/// Off: it has not yet been measured in games (see CHANGELOG, issue 31),
/// and the built-in network was trained as a correction to the evaluation
/// without it. Switched off it costs nothing (same `bench` nodes and speed).
pub const KING_DANGER: bool = false;

/// Per attacking piece type (knight, bishop, rook, queen).
const ATTACK_WEIGHT: [i32; 4] = [16, 6, 10, 8];
/// Per attack on the king area, normalised to a 9-square area.
const ATTACK_VALUE: i32 = 44;
/// Per weak square in the king area.
const WEAK_SQUARE: i32 = 38;
/// Per own pawn in the king area on a square that is not weak.
const FRIENDLY_PAWN: i32 = -22;
/// When the attacker has no queen.
const NO_ENEMY_QUEEN: i32 = -276;
/// When the attacker has at least one safe check with the piece type
/// (knight, bishop, rook, queen).
const SAFE_CHECK: [i32; 4] = [123, 51, 94, 95];
const ADJUSTMENT: i32 = -18;
/// Kibitz's centipawn against Ethereal's, in tenths (its middlegame pawn is
/// about 0.7 of Ethereal's).
const SCALE_TENTHS: i32 = 7;

/// Ethereal's king area of a king of `c` on `k`: the king's square and its
/// neighbours, one rank more toward the enemy, and one file more when the
/// king is on the a- or h-file (3x4 in the open, 3x3 on the back rank).
#[inline(always)]
pub fn king_area(c: Color, k: Square) -> Bitboard {
    let near = attacks::king_attacks(k).0;
    let forward = match c {
        Color::White => near << 8,
        Color::Black => near >> 8,
    };
    let mut area = near | (1u64 << k as u32) | forward;
    match k.file() as u32 {
        0 => area |= area << 1,
        7 => area |= area >> 1,
        _ => {}
    }
    Bitboard(area)
}

/// What one side's pieces do against the enemy king area (pawns and the
/// king are not counted as attackers).
#[derive(Copy, Clone, Default)]
pub struct Attack {
    /// Pieces attacking the area.
    pub attackers: i32,
    /// Their attacks on it, square by square.
    pub attacks: i32,
    /// The sum of [`ATTACK_WEIGHT`] over the attackers.
    pub weight: i32,
}

impl Attack {
    /// Counts a piece of type `role` (0 knight .. 3 queen) whose attacks on
    /// the area (minus squares the defender holds twice with pawns) are
    /// `hits`.
    #[inline(always)]
    pub fn add(&mut self, role: usize, hits: Bitboard) {
        if hits.any() {
            self.attackers += 1;
            self.attacks += hits.count() as i32;
            self.weight += ATTACK_WEIGHT[role];
        }
    }
}

/// Everything [`penalty`] reads about the defending side `us` and the
/// attacking side `them`.
pub struct Inputs {
    /// The defender's king area ([`king_area`]).
    pub area: Bitboard,
    /// The attacker's pieces against it.
    pub attack: Attack,
    /// How many queens the attacker has.
    pub their_queens: i32,
    /// The defender's king square and the bishop and rook rays from it
    /// (check squares).
    pub king: Square,
    pub king_rays: [Bitboard; 2],
    pub our_pawns: Bitboard,
    pub their_pieces: Bitboard,
    /// Squares attacked by each side (pawns, pieces, king) and attacked at
    /// least twice.
    pub attacked_us: Bitboard,
    pub attacked2_us: Bitboard,
    pub attacked_them: Bitboard,
    pub attacked2_them: Bitboard,
    /// The defender's queen and king attacks.
    pub our_queen_att: Bitboard,
    pub our_king_att: Bitboard,
    /// The attacker's knight, bishop, rook, queen attacks.
    pub their_by_role: [Bitboard; 4],
}

/// Ethereal's danger count for the defender's king. The caller first
/// checks that the attack counts at all: more than one attacker, or one
/// with a queen.
#[inline(always)]
pub fn count(x: &Inputs) -> i32 {
    // Squares the attacker hits that we defend at most once, and then only
    // with the queen or king.
    let weak =
        x.attacked_them & !x.attacked2_us & (!x.attacked_us | x.our_queen_att | x.our_king_att);
    // Check squares that are not theirs and that we do not hold, or weak
    // ones they attack twice.
    let safe = !x.their_pieces & (!x.attacked_us | (weak & x.attacked2_them));
    let [bishop_rays, rook_rays] = x.king_rays;
    let checks = [
        attacks::knight_attacks(x.king) & x.their_by_role[0],
        bishop_rays & x.their_by_role[1],
        rook_rays & x.their_by_role[2],
        (bishop_rays | rook_rays) & x.their_by_role[3] & !x.our_queen_att,
    ];
    let mut count = x.attack.attackers * x.attack.weight
        + ATTACK_VALUE * 9 * x.attack.attacks / x.area.count().max(1) as i32
        + WEAK_SQUARE * (weak & x.area).count() as i32
        + FRIENDLY_PAWN * (x.our_pawns & x.area & !weak).count() as i32
        + NO_ENEMY_QUEEN * i32::from(x.their_queens == 0)
        + ADJUSTMENT;
    for (value, sqs) in SAFE_CHECK.into_iter().zip(checks) {
        if (sqs & safe).any() {
            count += value;
        }
    }
    count
}

/// The (middlegame, endgame) penalty for a danger `count`: quadratic in the
/// middlegame, linear in the endgame, scaled to Kibitz's centipawns.
#[inline(always)]
pub fn penalty(count: i32) -> S {
    if count <= 0 {
        return S::ZERO;
    }
    S::new(
        SCALE_TENTHS * count * count / (10 * 720),
        SCALE_TENTHS * count / (10 * 20),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_areas() {
        // g1: the 3x3 block g1's neighbours span plus one rank forward.
        let g1 = king_area(Color::White, Square::G1);
        assert_eq!(g1.count(), 9);
        assert!(g1.contains(Square::H3) && g1.contains(Square::F3));
        assert!(!g1.contains(Square::G4));
        // In the open: 3x4, the extra rank toward the enemy.
        let e4 = king_area(Color::White, Square::E4);
        assert_eq!(e4.count(), 12);
        assert!(e4.contains(Square::E6) && !e4.contains(Square::E2));
        let e5 = king_area(Color::Black, Square::E5);
        assert!(e5.contains(Square::E3) && !e5.contains(Square::E7));
        // On the h-file one file more: f, g and h.
        let h8 = king_area(Color::Black, Square::H8);
        assert_eq!(h8.count(), 9);
        assert!(h8.contains(Square::F6) && !h8.contains(Square::E7));
    }

    #[test]
    fn penalty_is_quadratic_in_the_middlegame() {
        assert_eq!(penalty(0), S::ZERO);
        assert_eq!(penalty(-50), S::ZERO);
        // 0.7 * 600^2 / 720 = 350, 0.7 * 600 / 20 = 21.
        assert_eq!((penalty(600).mg(), penalty(600).eg()), (350, 21));
        assert_eq!((penalty(300).mg(), penalty(300).eg()), (87, 10));
    }
}
