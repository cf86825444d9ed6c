//! Lines of moves written the way prose quotes them: "24.Qxf7+ Kh8
//! 25.Qf8+", "17...Qh2+ 18.Kf1 Qh1#" (no space after the number, so a
//! line reads as one phrase inside a sentence).

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

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
        let number = pos.fullmoves().get();
        let san = SanPlus::from_move(pos.clone(), m).to_string();
        out.push(match pos.turn() {
            Color::White => format!("{number}.{san}"),
            Color::Black if i == 0 => format!("{number}...{san}"),
            Color::Black => san,
        });
        pos.play_unchecked(m);
    }
    out.join(" ")
}
