//! The plans of particular endings: king and pawn (key squares, the
//! opposition), queen against pawn, bishop and knight, rook against a
//! minor piece, and rook and pawn against rook (Lucena, Philidor).

use super::situation::*;
use crate::tablebase::Wdl;
use shakmaty::{Color, Move, Position, Role, Square};

/// The key squares of a pawn of `color` on `sq`: a king of its side on
/// one wins, whoever is to move.
pub(super) fn key_squares(color: Color, sq: Square) -> Vec<Square> {
    let file = u32::from(sq.file()) as i32;
    let r = rel_rank(color, sq);
    let abs = |rel: u32| -> u32 {
        match color {
            Color::White => rel - 1,
            Color::Black => 8 - rel,
        }
    };
    let (files, ranks): (Vec<i32>, Vec<u32>) = if file == 0 || file == 7 {
        // A rook's pawn: the two squares of the next file on the last two
        // ranks.
        (vec![if file == 0 { 1 } else { 6 }], vec![7, 8])
    } else if r <= 4 {
        (vec![file - 1, file, file + 1], vec![r + 2])
    } else if r <= 6 {
        (vec![file - 1, file, file + 1], vec![r + 1, r + 2])
    } else {
        (vec![file - 1, file, file + 1], vec![7, 8])
    };
    let mut out = Vec::new();
    for rank in ranks {
        for &f in &files {
            out.push(Square::from_coords(
                shakmaty::File::new(f as u32),
                shakmaty::Rank::new(abs(rank)),
            ));
        }
    }
    out
}

pub(super) fn key_square(s: &Situation<'_>) -> Option<String> {
    if s.pos.board().by_color(s.them()).count() != 1 {
        return None;
    }
    let pawn = s.first(s.me, Role::Pawn)?;
    let keys = key_squares(s.me, pawn);
    let m = s
        .best()
        .find(|m| m.role() == Role::King && keys.contains(&m.to()))?;
    let names: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
    Some(format!(
        "Your king to a key square of the pawn ({}): from there the pawn promotes whatever {} does. Here {}.",
        or_list(&names),
        color_name(s.them()),
        s.san(m)
    ))
}

/// Do the kings of `pos` stand in opposition (same file or rank, one
/// square between)?
pub(super) fn in_opposition(pos: &Chess) -> bool {
    let (Some(a), Some(b)) = (
        pos.board().king_of(Color::White),
        pos.board().king_of(Color::Black),
    ) else {
        return false;
    };
    (a.file() == b.file() && a.rank().distance(b.rank()) == 2)
        || (a.rank() == b.rank() && a.file().distance(b.file()) == 2)
}

pub(super) fn opposition(s: &Situation<'_>) -> Option<String> {
    let m = s
        .best()
        .find(|m| m.role() == Role::King && in_opposition(&s.after(m)))?;
    Some(format!(
        "Take the opposition ({}): the kings face each other with one square between, \
         and {} to move must give way.",
        s.san(m),
        color_name(s.them())
    ))
}

pub(super) fn front_of_pawn(s: &Situation<'_>) -> Option<String> {
    let pawn = s.first(s.them(), Role::Pawn)?;
    let on_file = |m: &&Move| m.to().file() == pawn.file();
    let king = |m: &&Move| m.role() == Role::King;
    let keep: Vec<&Move> = s.keeping().filter(king).collect();
    let off_throws = s.throwing().filter(king).any(|m| !on_file(&m));
    let off_keeps = keep.iter().any(|m| !on_file(m));
    if keep.is_empty() || off_keeps || !off_throws {
        return None;
    }
    Some(format!(
        "Your king must not leave the pawn's file: stay in front of the pawn ({}).",
        s.san(keep[0])
    ))
}

/// The enemy pawn on its seventh rank, if any.
pub(super) fn pawn_on_seventh(s: &Situation<'_>, color: Color) -> Option<Square> {
    s.pieces(color, Role::Pawn)
        .into_iter()
        .find(|&p| rel_rank(color, p) == 7)
}

pub(super) fn blocked_pawn(s: &Situation<'_>) -> Option<String> {
    let pawn = pawn_on_seventh(s, s.them())?;
    let front = pawn.offset(if s.them() == Color::White { 8 } else { -8 })?;
    if s.king(s.them()) != Some(front) {
        return None;
    }
    let m = s.best().find(|m| m.role() == Role::King)?;
    Some(format!(
        "The king stands in front of its pawn and blocks it: use the free move to bring your king closer ({}).",
        s.san(m)
    ))
}

pub(super) fn queen_check(s: &Situation<'_>) -> Option<String> {
    pawn_on_seventh(s, s.them())?;
    let m = s
        .best()
        .find(|m| m.role() == Role::Queen && s.after(m).is_check())?;
    Some(format!(
        "Check ({}): every check must drive the king in front of its pawn, or win a move for your king.",
        s.san(m)
    ))
}

pub(super) fn corner(s: &Situation<'_>) -> Option<String> {
    if s.value.wdl != Wdl::Draw {
        return None;
    }
    let pawn = pawn_on_seventh(s, s.me)?;
    let file = u32::from(pawn.file());
    if ![0, 2, 5, 7].contains(&file) {
        return None;
    }
    let last = pawn.offset(if s.me == Color::White { 8 } else { -8 })?;
    let corner = if file < 4 {
        Square::from_coords(shakmaty::File::A, last.rank())
    } else {
        Square::from_coords(shakmaty::File::H, last.rank())
    };
    let king = |m: &&Move| m.role() == Role::King;
    let keep: Vec<&Move> = s.keeping().filter(king).collect();
    let near = keep.iter().map(|m| m.to().distance(corner)).max()?;
    let far = s
        .throwing()
        .filter(king)
        .map(|m| m.to().distance(corner))
        .min()?;
    if near >= far {
        return None;
    }
    let m = keep[0];
    Some(if file == 0 || file == 7 {
        format!(
            "Stay beside your pawn, toward the corner ({}): if the queen ever takes the square in front of it, you are stalemated.",
            s.san(m)
        )
    } else {
        format!(
            "Toward the corner ({}, heading for {corner}): if the queen takes your pawn while your king sits in the corner, it is stalemate.",
            s.san(m)
        )
    })
}

/// The best line to mate: the mated king's square, if it is mated in a
/// corner.
pub(super) fn mating_corner(s: &Situation<'_>) -> Option<(Vec<Move>, Square)> {
    let (line, end) = s.line(140);
    if !end.is_checkmate() {
        return None;
    }
    let k = end.board().king_of(s.them())?;
    CORNERS.contains(&k).then_some((line, k))
}

pub(super) fn knight_route(s: &Situation<'_>) -> Option<String> {
    let knight = s.first(s.me, Role::Knight)?;
    let (line, corner) = mating_corner(s)?;
    let mut route = vec![knight];
    for m in line.iter().step_by(2).take(6) {
        if m.role() == Role::Knight {
            route.push(m.to());
        }
    }
    if route.len() < 3 {
        return None;
    }
    let squares: Vec<String> = route.iter().map(|q| q.to_string()).collect();
    Some(format!(
        "The knight's route in the best line: N{}. It holds the king on the edge while your king and bishop drive it to {corner}.",
        squares.join("-")
    ))
}

pub(super) fn right_corner(s: &Situation<'_>) -> Option<String> {
    let bishop = s.first(s.me, Role::Bishop)?;
    let (line, corner) = mating_corner(s)?;
    let colour = if bishop.is_light() { "light" } else { "dark" };
    let m = line.first()?;
    Some(format!(
        "Mate comes in {corner}, a corner of your bishop's colour ({colour} squares): \
         drive the king there, the other corners have no mate. Now {}.",
        s.san(m)
    ))
}

pub(super) fn safe_corner(s: &Situation<'_>) -> Option<String> {
    let bishop = s.first(s.me, Role::Bishop)?;
    let king = s.king(s.me)?;
    let corner = CORNERS
        .into_iter()
        .filter(|c| c.is_light() != bishop.is_light())
        .min_by_key(|c| c.distance(king))?;
    let here = king.distance(corner);
    let is_king = |m: &&Move| m.role() == Role::King;
    let keep: Vec<&Move> = s.keeping().filter(is_king).collect();
    let toward = keep.iter().find(|m| m.to().distance(corner) < here);
    let away_throws = s
        .throwing()
        .filter(is_king)
        .any(|m| m.to().distance(corner) > here);
    let keep_near = !keep.is_empty() && keep.iter().all(|m| m.to().distance(corner) <= here);
    let m = match toward {
        Some(m) => *m,
        None if away_throws && keep_near => keep[0],
        None => return None,
    };
    Some(format!(
        "Head for {corner}, the corner of the other colour than your bishop ({}): there the bishop blocks the checks beside your king, and the rook cannot mate.",
        s.san(m)
    ))
}

pub(super) fn knight_near(s: &Situation<'_>) -> Option<String> {
    let knight = s.first(s.me, Role::Knight)?;
    let king = s.king(s.me)?;
    let here = knight.distance(king);
    // The king-knight distance after a move.
    let apart = |m: &Move| match m.role() {
        Role::King => m.to().distance(knight),
        Role::Knight => m.to().distance(king),
        _ => here,
    };
    let away_throws = s.throwing().any(|m| apart(m) > here);
    let keep: Vec<&Move> = s.keeping().collect();
    if keep.is_empty() || !away_throws || keep.iter().any(|m| apart(m) > here) {
        return None;
    }
    let m = keep.iter().min_by_key(|m| apart(m))?;
    Some(format!(
        "Keep the knight close to your king ({}): a knight away from its king is trapped by the rook, or the king is mated without it.",
        s.san(m)
    ))
}

pub(super) fn block_check(s: &Situation<'_>) -> Option<String> {
    if !s.pos.is_check() {
        return None;
    }
    let m = s
        .best()
        .find(|m| m.role() == Role::Rook && !m.is_capture())?;
    Some(format!(
        "Block the check with your rook ({}): that is the bridge, and the checks are over.",
        s.san(m)
    ))
}

pub(super) fn bridge(s: &Situation<'_>) -> Option<String> {
    let m = s.best().find(|m| {
        m.role() == Role::Rook && rel_rank(s.me, m.to()) == 4 && !s.after(m).is_check()
    })?;
    Some(format!(
        "Build a bridge: {} puts your rook on the fourth rank, where it will block the checks once your king steps out.",
        s.san(m)
    ))
}

pub(super) fn cut_off(s: &Situation<'_>) -> Option<String> {
    pawn_on_seventh(s, s.me)?;
    let m = s
        .best()
        .find(|m| m.role() == Role::Rook && !m.is_capture() && s.after(m).is_check())?;
    Some(format!(
        "Check the king one more file away from the pawn ({}), so that your own king has room to step out.",
        s.san(m)
    ))
}

pub(super) fn king_out(s: &Situation<'_>) -> Option<String> {
    let rook = s.first(s.me, Role::Rook)?;
    if rel_rank(s.me, rook) != 4 {
        return None;
    }
    let m = s.best().find(|m| m.role() == Role::King)?;
    Some(format!(
        "Step out with your king ({}); when the checks come, walk toward your rook and block with it on the fourth rank.",
        s.san(m)
    ))
}

pub(super) fn third_rank(s: &Situation<'_>) -> Option<String> {
    if s.value.wdl != Wdl::Draw {
        return None;
    }
    let pawn = s.first(s.them(), Role::Pawn)?;
    // The pawn has not reached the defender's third rank yet.
    if rel_rank(s.me, pawn) <= 3 {
        return None;
    }
    let rank = |m: &Move| rel_rank(s.me, m.to());
    let abs = match s.me {
        Color::White => 3,
        Color::Black => 6,
    };
    let keep: Vec<&Move> = s.keeping().collect();
    let on_rank = |m: &&Move| m.role() == Role::Rook && rank(m) == 3;
    let only = !keep.is_empty()
        && keep.iter().all(on_rank)
        && s.throwing().any(|m| m.role() == Role::Rook && rank(m) != 3);
    if only {
        return Some(format!(
            "Keep your rook on your third rank (the {}): every move that leaves it throws the draw away. \
             Until the pawn steps onto it, the enemy king cannot come forward. Here {}.",
            ordinal(abs),
            s.san(keep[0])
        ));
    }
    let m = keep.iter().copied().find(on_rank)?;
    let rook = s.first(s.me, Role::Rook)?;
    if rel_rank(s.me, rook) == 3 {
        return None;
    }
    Some(format!(
        "Your rook belongs on your third rank (the {}): {} puts it there, and the enemy king cannot come forward.",
        ordinal(abs),
        s.san(m)
    ))
}

pub(super) fn from_behind(s: &Situation<'_>) -> Option<String> {
    if s.value.wdl != Wdl::Draw {
        return None;
    }
    let pawn = s.first(s.them(), Role::Pawn)?;
    if rel_rank(s.me, pawn) != 3 {
        return None;
    }
    let keep: Vec<&Move> = s.keeping().collect();
    let far = |m: &&Move| m.role() == Role::Rook && rel_rank(s.me, m.to()) >= 5;
    if keep.is_empty() || !keep.iter().all(far) {
        return None;
    }
    Some(format!(
        "The pawn stands on your third rank: the enemy king has no shelter in front of it now. \
         Your rook goes far back ({}) and checks from behind.",
        s.san(keep[0])
    ))
}
