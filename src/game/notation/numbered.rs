//! Moves written with their numbers, the way people quote them in text:
//! `6.Re1`, `6...b5` (no space, as in "last book move: 6.Re1").

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

/// `m` (legal in `pos`) in SAN with its move number: `6.Re1` for White,
/// `6...b5` for Black; check and mate signs included (`7.Bxf7+`).
pub fn numbered_san(pos: &Chess, m: Move) -> String {
    let number = pos.fullmoves().get();
    let dots = match pos.turn() {
        Color::White => ".",
        Color::Black => "...",
    };
    format!("{number}{dots}{}", SanPlus::from_move(pos.clone(), m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::san::San;

    fn mv(pos: &Chess, san: &str) -> Move {
        san.parse::<San>().unwrap().to_move(pos).unwrap()
    }

    #[test]
    fn white_and_black_moves_carry_their_numbers() {
        let start = Chess::default();
        let e4 = mv(&start, "e4");
        assert_eq!(numbered_san(&start, e4), "1.e4");
        let after = start.play(e4).unwrap();
        assert_eq!(numbered_san(&after, mv(&after, "e5")), "1...e5");
        // A position from a FEN keeps its own move number; checks show.
        let fen: Fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 41".parse().unwrap();
        let pos: Chess = fen.into_position(shakmaty::CastlingMode::Standard).unwrap();
        assert_eq!(numbered_san(&pos, mv(&pos, "Ra8")), "41.Ra8+");
    }
}
