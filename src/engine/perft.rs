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

use super::board::Board;
use super::movegen::{self, GenContext};
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

/// Perft through the engine's own path: the staged generator (captures,
/// quiet moves, drops; shakmaty's evasions in check) and the engine's
/// board, which updates its key and material on every move. Slower than
/// [`perft_in`] by the cost of the key updates, and a check that the
/// search's move generation is complete.
pub fn perft_staged<V: Variant>(board: &Board<V>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let pos = board.pos();
    let mut moves: arrayvec::ArrayVec<Move, 512> = arrayvec::ArrayVec::new();
    if board.in_check() {
        moves.extend(pos.legal_moves());
    } else if let Some(ctx) = GenContext::new(pos) {
        movegen::tactical(pos, &ctx, true, |m| moves.push(m));
        movegen::quiet(pos, &ctx, |m| moves.push(m));
        if V::DROPS {
            movegen::drops(pos, |m| moves.push(m));
        }
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| perft_staged(&board.play(m), depth - 1))
        .sum()
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
    fn staged_perft_agrees() {
        use crate::engine::{Bug, Zh};
        let b = Board::startpos();
        assert_eq!(perft_staged(&b, 3), 8902);
        let zh = Board::<Zh>::from_variant_fen(
            "2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - - 0 1",
        )
        .unwrap();
        assert_eq!(perft_staged(&zh, 3), 314_782);
        let bug = Board::<Bug>::from_variant_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1",
        )
        .unwrap();
        assert_eq!(perft_staged(&bug, 3), 87_470);
    }

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
