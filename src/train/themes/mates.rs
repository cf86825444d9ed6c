//! Mate in N.

use super::Line;
use shakmaty::Position;

/// `mateIn1` to `mateIn5` when the line ends in checkmate: N is the number
/// of solver moves (five and more are all `mateIn5`, as on lichess).
pub(super) fn mate_in(l: &Line) -> Option<&'static str> {
    if !l.end().is_checkmate() {
        return None;
    }
    Some(match l.len() / 2 {
        0 | 1 => "mateIn1",
        2 => "mateIn2",
        3 => "mateIn3",
        4 => "mateIn4",
        _ => "mateIn5",
    })
}
