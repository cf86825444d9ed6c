//! Perft: counting the leaf nodes of the legal move tree, the standard test
//! of a move generator.
//!
//! Copy-make on shakmaty positions with bulk counting at the last ply (the
//! number of legal moves is the number of leaves), the same method as
//! `shakmaty::perft`.

use shakmaty::{Chess, Move, Position};

/// Leaf nodes at `depth` plies.
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += perft(&child, depth - 1);
    }
    nodes
}

/// Perft split by root move ("divide"), in generation order.
pub fn divide(pos: &Chess, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth.saturating_sub(1)))
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
