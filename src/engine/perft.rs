//! Perft: counting the leaf nodes of the legal move tree, the standard test
//! of a move generator.
//!
//! Copy-make on shakmaty positions with bulk counting at the last ply (the
//! number of legal moves is the number of leaves), the same method as
//! `shakmaty::perft`.

//!
//! In the drop variants the moves include the drops; in Bughouse a capture
//! takes the piece off the board for the partner instead of putting it in
//! the capturer's hand (Fairy-Stockfish counts it the same way).

use super::variant::{Std, Variant};
use shakmaty::{Chess, Move, Position};

/// Leaf nodes at `depth` plies.
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    perft_in::<Std>(pos, depth)
}

/// Perft split by root move ("divide"), in generation order.
pub fn divide(pos: &Chess, depth: u32) -> Vec<(Move, u64)> {
    divide_in::<Std>(pos, depth)
}

/// Leaf nodes at `depth` plies in the variant `V`.
pub fn perft_in<V: Variant>(pos: &V::Pos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &m in &moves {
        let (child, _) = V::play(pos, m);
        nodes += perft_in::<V>(&child, depth - 1);
    }
    nodes
}

/// [`divide`] in the variant `V`.
pub fn divide_in<V: Variant>(pos: &V::Pos, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let (child, _) = V::play(pos, m);
            (m, perft_in::<V>(&child, depth.saturating_sub(1)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let pos = Chess::default();
        assert_eq!(perft(&pos, 0), 1);
        assert_eq!(perft(&pos, 1), 20);
        assert_eq!(perft(&pos, 3), 8902);
        let d = divide(&pos, 3);
        assert_eq!(d.len(), 20);
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 8902);
    }
}
