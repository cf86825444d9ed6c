//! Opening statistics over collections of games: which moves were played
//! from a position, how often, and how they scored.
//!
//! Moves are counted by position, not by move order, so transpositions
//! meet: the key is shakmaty's 64-bit Zobrist hash of the four FEN fields
//! that make a position (placement, side to move, castling rights, and an
//! en passant square only when a capture there is legal). A collection's
//! index is one sorted [`run`] of (key, move) -> [`Stats`]; the [`build`]er
//! makes runs from PGN with both cores, and [`collection`] keeps them in
//! step with their PGN files (new games only; a changed file is indexed
//! again) and answers [`collection::Answer`]s.

pub mod build;
pub mod collection;
pub mod corpus;
pub mod repertoire;
pub mod run;
pub mod stats;

pub use stats::{Outcome, Stats};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

/// The key a position is counted under.
pub fn position_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The key a position is stored under: the top 48 bits of
/// [`position_key`]. Another position shares it about once in 2^48 /
/// (positions in the index) lookups (once in 60 million lookups at 4
/// million positions), and then shows only moves legal here; the 16 bits
/// saved are a fifth of an entry.
pub fn index_key(pos: &Chess) -> u64 {
    position_key(pos) >> 16
}

/// A move's place in a fixed order of a position's moves (from square,
/// to square, promotion), which does not depend on how the move
/// generator orders them: the index stores this one byte for a move.
fn move_code(m: &Move) -> u16 {
    let from = m.from().map_or(64, u16::from);
    let promo = m.promotion().map_or(0, |r| r as u16);
    (from << 9) | (u16::from(m.to()) << 3) | promo
}

/// The rank of `m` among the legal moves of `pos` (`None` when illegal).
pub fn move_rank(pos: &Chess, m: &Move) -> Option<u8> {
    let legal = pos.legal_moves();
    if !legal.contains(m) {
        return None;
    }
    let code = move_code(m);
    Some(legal.iter().filter(|o| move_code(o) < code).count() as u8)
}

/// The legal move of `pos` with that rank.
pub fn move_of_rank(pos: &Chess, rank: u8) -> Option<Move> {
    let mut legal: Vec<Move> = pos.legal_moves().into_iter().collect();
    legal.sort_by_key(move_code);
    legal.get(usize::from(rank)).cloned()
}

/// Plies indexed per game, as lichess' explorer does: past the opening
/// nearly every position is one game's, and storing them would make the
/// index larger than the PGN without helping anyone prepare an opening.
pub const DEFAULT_MAX_PLIES: usize = 50;

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::san::San;

    fn play(moves: &str) -> Chess {
        let mut pos = Chess::default();
        for san in moves.split_whitespace() {
            let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
        }
        pos
    }

    #[test]
    fn transpositions_share_a_key_and_en_passant_counts_only_when_legal() {
        assert_eq!(
            position_key(&play("d4 Nf6 c4 e6")),
            position_key(&play("c4 e6 d4 Nf6"))
        );
        assert_ne!(position_key(&play("e4")), position_key(&play("e3 e6 e4")));
        // 1.e4 sets no capturable en passant square: same as reaching the
        // position by a quiet move order.
        assert_eq!(
            position_key(&play("e4 Nf6 Nc3 Ng8")),
            position_key(&play("Nc3 Nf6 e4 Ng8"))
        );
        // After 1.e4 d5 2.e5 f5 the capture exf6 is legal: a different key
        // from the same placement without it.
        assert_ne!(
            position_key(&play("e4 d5 e5 f5")),
            position_key(&play("e4 f5 e5 d5 Nf3 Nf6 Ng1 Ng8"))
        );
    }

    #[test]
    fn move_ranks_round_trip_for_every_legal_move() {
        for pos in [Chess::default(), play("e4 d5 exd5 Qxd5 Nc3 Qa5 d4 c6")] {
            for m in pos.legal_moves() {
                let r = move_rank(&pos, &m).unwrap();
                assert_eq!(move_of_rank(&pos, r), Some(m));
            }
        }
    }
}
