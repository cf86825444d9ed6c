//! The plan in words: what the table shows in a position, said as a
//! coach would say it ("keep your rook on your third rank: every other
//! move throws the draw away").
//!
//! Each [`Plan`] looks at the table's value of every legal move (which
//! moves keep the result, which throw it away, which is fastest) and at
//! the board, and speaks only when what it names is there: "build a
//! bridge" only when a best move puts the rook on the fourth rank, "your
//! king must not leave the pawn's file" only when every king move off it
//! loses. A lesson lists the plans worth saying in its ending, in the
//! order they are tried.

use crate::tablebase::{Tablebases, Wdl};
use shakmaty::{Move, Position, Role, attacks};

mod endings;
mod situation;
use endings::*;
pub use situation::Chess;
use situation::*;

/// A plan a hint may say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    // Any ending.
    /// One to three moves keep the result.
    OnlyMove,
    /// Most moves keep the result: the few that throw it away.
    Pitfalls,
    /// The best move captures.
    Capture,
    /// The best move checks and attacks another piece.
    Fork,
    /// Passing would win faster: lose a move.
    Zugzwang,
    /// Every pawn move throws the result away.
    PawnWaits,
    /// The best move promotes.
    Promote,
    /// The best quiet move takes squares from the lone king.
    Squares,
    /// The best move brings the king closer to the enemy king.
    BringKing,
    // King and pawn.
    /// The best move brings the king to a key square of its pawn.
    KeySquare,
    /// The best move takes the opposition.
    Opposition,
    /// The defender's king must stay on the pawn's file.
    FrontOfPawn,
    // Queen against pawn.
    /// The enemy king blocks its pawn: bring the king.
    BlockedPawn,
    /// The best move is a queen check against the pawn on the seventh.
    QueenCheck,
    /// The defender with a rook's or bishop's pawn heads for the corner.
    Corner,
    // Bishop and knight.
    /// The knight's route in the best line (the W manoeuvre).
    KnightRoute,
    /// Where the best line mates: a corner of the bishop's colour.
    RightCorner,
    // Rook against minor piece.
    /// The defender's king heads for the corner the bishop does not cover.
    SafeCorner,
    /// The defender keeps knight and king together.
    KnightNear,
    // Rook and pawn against rook.
    /// Lucena: a rook check drives the king a file further.
    CutOff,
    /// Lucena: the rook to the fourth rank.
    Bridge,
    /// Lucena: the king steps out, the bridge built.
    KingOut,
    /// Lucena: the rook blocks the check.
    BlockCheck,
    /// Philidor: the rook on the defender's third rank.
    ThirdRank,
    /// Philidor: the pawn on the third rank, checks from behind.
    FromBehind,
}

/// The first of `plans` the table shows in `pos` (the trainee to move),
/// in words; `None` when none applies, the tables do not cover the
/// position, or the trainee is lost.
pub fn advice(tb: &Tablebases, pos: &Chess, plans: &[Plan]) -> Option<String> {
    let s = Situation::new(tb, pos)?;
    if s.value.wdl == Wdl::Loss {
        return None;
    }
    plans.iter().find_map(|p| p.words(&s))
}

impl Plan {
    fn words(self, s: &Situation<'_>) -> Option<String> {
        match self {
            Plan::OnlyMove => only_move(s),
            Plan::Pitfalls => pitfalls(s),
            Plan::Capture => capture(s),
            Plan::Fork => fork(s),
            Plan::Zugzwang => zugzwang(s),
            Plan::PawnWaits => pawn_waits(s),
            Plan::Promote => promote(s),
            Plan::Squares => squares(s),
            Plan::BringKing => bring_king(s),
            Plan::KeySquare => key_square(s),
            Plan::Opposition => opposition(s),
            Plan::FrontOfPawn => front_of_pawn(s),
            Plan::BlockedPawn => blocked_pawn(s),
            Plan::QueenCheck => queen_check(s),
            Plan::Corner => corner(s),
            Plan::KnightRoute => knight_route(s),
            Plan::RightCorner => right_corner(s),
            Plan::SafeCorner => safe_corner(s),
            Plan::KnightNear => knight_near(s),
            Plan::CutOff => cut_off(s),
            Plan::Bridge => bridge(s),
            Plan::KingOut => king_out(s),
            Plan::BlockCheck => block_check(s),
            Plan::ThirdRank => third_rank(s),
            Plan::FromBehind => from_behind(s),
        }
    }
}

fn pitfalls(s: &Situation<'_>) -> Option<String> {
    let throw: Vec<String> = s.throwing().map(|m| s.san(m)).collect();
    let keep = s.moves.len() - throw.len();
    if throw.is_empty() || throw.len() > 3 || keep < 4 {
        return None;
    }
    let list = or_list(&throw).replacen(" or ", " and ", 1);
    Some(format!(
        "Most moves keep the {} here ({keep} of {}); avoid {list}, which throw{} it away.",
        s.result(),
        s.moves.len(),
        if throw.len() == 1 { "s" } else { "" }
    ))
}

fn only_move(s: &Situation<'_>) -> Option<String> {
    let keep: Vec<String> = s.keeping().map(|m| s.san(m)).collect();
    let others = s.moves.len() - keep.len();
    if keep.is_empty() || keep.len() > 3 || others == 0 {
        return None;
    }
    Some(if keep.len() == 1 {
        format!(
            "Only {} keeps the {}: every other move throws it away.",
            keep[0],
            s.result()
        )
    } else {
        format!(
            "Only {} keep the {}: the {others} other moves throw it away.",
            or_list(&keep),
            s.result()
        )
    })
}

fn capture(s: &Situation<'_>) -> Option<String> {
    let m = s.best().find(|m| m.is_capture())?;
    let role = m.capture()?;
    Some(format!(
        "Take the {} ({}): without it the rest is simple.",
        role_name(role),
        s.san(m)
    ))
}

fn fork(s: &Situation<'_>) -> Option<String> {
    let attacked = |m: &Move, xray: bool| -> Option<Role> {
        let after = s.after(m);
        if !after.is_check() || m.is_capture() {
            return None;
        }
        let board = after.board();
        let piece = board.piece_at(m.to())?;
        let king = board.king_of(s.them())?;
        let occupied = if xray {
            board.occupied().without(king)
        } else {
            board.occupied()
        };
        let hit =
            attacks::attacks(m.to(), piece, occupied) & board.by_color(s.them()) & !board.kings();
        let target = hit
            .into_iter()
            .find(|&t| !xray || attacks::between(m.to(), t).contains(king))?;
        board.role_at(target)
    };
    if let Some((m, role)) = s.best().find_map(|m| Some((m, attacked(m, false)?))) {
        let role = role_name(role);
        return Some(format!(
            "{} checks and attacks the {role}: once the king moves, the {role} falls.",
            s.san(m)
        ));
    }
    let (m, role) = s.best().find_map(|m| Some((m, attacked(m, true)?)))?;
    let role = role_name(role);
    Some(format!(
        "{} checks along the line of king and {role}: when the king steps aside, the {role} falls.",
        s.san(m)
    ))
}

fn zugzwang(s: &Situation<'_>) -> Option<String> {
    if s.pos.is_check() {
        return None;
    }
    let passed = s.passed()?;
    let theirs = s.tb.probe_chess(&passed)?;
    let m = s.best().next()?;
    if m.is_capture() {
        return None;
    }
    let better = match (s.value.wdl, theirs.wdl) {
        // Passing costs a ply: mated in k after a pass is mate in k + 1.
        (Wdl::Win, Wdl::Loss) => 1 - theirs.dtm < s.value.dtm,
        (Wdl::Draw, Wdl::Loss) => true,
        _ => false,
    };
    if !better {
        return None;
    }
    let what = if theirs.dtm == 0 {
        "mate".to_string()
    } else {
        format!("mate in {}", (-theirs.dtm) / 2)
    };
    Some(format!(
        "Zugzwang: with {} to move this would be {what}. Lose a move ({}) and hand the move over.",
        color_name(s.them()),
        s.san(m)
    ))
}

fn pawn_waits(s: &Situation<'_>) -> Option<String> {
    let is_pawn = |m: &&Move| m.role() == Role::Pawn;
    let pawn_moves = s
        .moves
        .iter()
        .filter(|(m, _)| m.role() == Role::Pawn)
        .count();
    if pawn_moves == 0 || s.throwing().filter(is_pawn).count() != pawn_moves {
        return None;
    }
    let m = s.best().next()?;
    Some(format!(
        "Not the pawn yet: every pawn move throws the {} away. First {}.",
        s.result(),
        s.san(m)
    ))
}

fn promote(s: &Situation<'_>) -> Option<String> {
    let m = s.best().find(|m| m.is_promotion())?;
    Some(format!(
        "Promote now ({}): nothing stops the pawn.",
        s.san(m)
    ))
}

/// The lone king's moves in `pos` (its side to move).
fn king_moves(pos: &Chess) -> usize {
    pos.legal_moves()
        .iter()
        .filter(|m| m.role() == Role::King)
        .count()
}

fn squares(s: &Situation<'_>) -> Option<String> {
    if s.value.wdl != Wdl::Win || s.pos.is_check() {
        return None;
    }
    let m = s.best().next()?;
    let after = s.after(m);
    if m.is_capture() || after.is_check() {
        return None;
    }
    let before = king_moves(&s.passed()?);
    let now = king_moves(&after);
    (now < before).then(|| {
        format!(
            "Take squares from the king: after {} it has {now} instead of {before}. \
             Drive it to the edge.",
            s.san(m)
        )
    })
}

fn bring_king(s: &Situation<'_>) -> Option<String> {
    if s.value.wdl != Wdl::Win {
        return None;
    }
    let (mine, theirs) = (s.king(s.me)?, s.king(s.them())?);
    let m = s
        .best()
        .find(|m| m.role() == Role::King && m.to().distance(theirs) < mine.distance(theirs))?;
    Some(format!(
        "Bring your king closer ({}): without it the {} cannot drive the enemy king back.",
        s.san(m),
        if s.first(s.me, Role::Queen).is_some() {
            "queen"
        } else {
            "pieces"
        }
    ))
}

#[cfg(test)]
mod unit {
    use super::*;

    use super::endings::key_squares;
    use shakmaty::{Color, Square};

    #[test]
    fn key_squares_follow_the_pawn() {
        let names =
            |c, sq| -> Vec<String> { key_squares(c, sq).iter().map(|s| s.to_string()).collect() };
        assert_eq!(names(Color::White, Square::D2), ["c4", "d4", "e4"]);
        assert_eq!(names(Color::White, Square::D4), ["c6", "d6", "e6"]);
        assert_eq!(
            names(Color::White, Square::E5),
            ["d6", "e6", "f6", "d7", "e7", "f7"]
        );
        assert_eq!(names(Color::Black, Square::D7), ["c5", "d5", "e5"]);
        assert_eq!(names(Color::White, Square::A3), ["b7", "b8"]);
        assert_eq!(names(Color::Black, Square::H6), ["g2", "g1"]);
    }

    #[test]
    fn lists_read_as_english() {
        let s = |v: &[&str]| or_list(&v.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(s(&["Kd7"]), "Kd7");
        assert_eq!(s(&["Rb1", "Rb2"]), "Rb1 or Rb2");
        assert_eq!(s(&["a", "b", "c"]), "a, b or c");
        assert_eq!(ordinal(6), "sixth");
        assert_eq!(rel_rank(Color::Black, Square::B6), 3);
    }
}
