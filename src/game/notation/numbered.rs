//! Moves written with their numbers, the way people quote them in text:
//! `6.Re1`, `6...b5` (no space, as in "last book move: 6.Re1"), and lines
//! such as "24.Qxf7+ Kh8 25.Qf8+" (read as one phrase in a sentence).

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

/// `moves` played from `pos` in SAN with move numbers: every White move
/// numbered ("24.Qxf7+"), a Black move numbered only when it comes first
/// ("17...Qh2+"). Stops before the first illegal move.
pub fn numbered_line(pos: &Chess, moves: &[Move]) -> String {
    let mut pos = pos.clone();
    let mut out: Vec<String> = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        if !pos.is_legal(m) {
            break;
        }
        out.push(if pos.turn() == Color::White || i == 0 {
            numbered_san(&pos, m)
        } else {
            SanPlus::from_move(pos.clone(), m).to_string()
        });
        pos.play_unchecked(m);
    }
    out.join(" ")
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
