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

use crate::tablebase::{Probe, Tablebases, Wdl};
use shakmaty::san::SanPlus;
use shakmaty::{Bitboard, Color, Move, Position, Role, Square, attacks};

/// The chess positions the plans read.
pub type Chess = shakmaty::Chess;

/// A plan a hint may say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    // Any ending.
    /// One to three moves keep the result.
    OnlyMove,
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

/// A position seen through the table: its value for the side to move
/// (the trainee) and every move's.
struct Situation<'a> {
    tb: &'a Tablebases,
    pos: &'a Chess,
    me: Color,
    value: Probe,
    /// Every legal move with its value for the mover, best first.
    moves: Vec<(Move, Probe)>,
}

impl<'a> Situation<'a> {
    fn new(tb: &'a Tablebases, pos: &'a Chess) -> Option<Situation<'a>> {
        let value = tb.probe_chess(pos)?;
        let moves = tb.best_moves_chess(pos)?;
        if moves.is_empty() {
            return None;
        }
        Some(Situation {
            tb,
            pos,
            me: pos.turn(),
            value,
            moves,
        })
    }

    /// The moves as good as the best.
    fn best(&self) -> impl Iterator<Item = &Move> {
        let top = self.moves[0].1;
        self.moves
            .iter()
            .take_while(move |(_, p)| *p == top)
            .map(|(m, _)| m)
    }

    /// The moves that keep the position's result (still won, still
    /// drawn).
    fn keeping(&self) -> impl Iterator<Item = &Move> {
        let wdl = self.value.wdl;
        self.moves
            .iter()
            .filter(move |(_, p)| p.wdl == wdl)
            .map(|(m, _)| m)
    }

    /// The moves that throw the result away.
    fn throwing(&self) -> impl Iterator<Item = &Move> {
        let wdl = self.value.wdl;
        self.moves
            .iter()
            .filter(move |(_, p)| p.wdl != wdl)
            .map(|(m, _)| m)
    }

    fn san(&self, m: &Move) -> String {
        SanPlus::from_move(self.pos.clone(), *m).to_string()
    }

    /// "win" or "draw": what the trainee keeps.
    fn result(&self) -> &'static str {
        if self.value.wdl == Wdl::Win {
            "win"
        } else {
            "draw"
        }
    }

    fn after(&self, m: &Move) -> Chess {
        let mut p = self.pos.clone();
        p.play_unchecked(*m);
        p
    }

    fn them(&self) -> Color {
        !self.me
    }

    fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.pos.board().by_color(color) & self.pos.board().by_role(role)
    }

    fn first(&self, color: Color, role: Role) -> Option<Square> {
        self.pieces(color, role).first()
    }

    fn king(&self, color: Color) -> Option<Square> {
        self.pos.board().king_of(color)
    }

    /// The position with the other side to move (a "pass"), if legal.
    fn passed(&self) -> Option<Chess> {
        self.pos.clone().swap_turn().ok()
    }

    /// The table's line from here, best moves for both sides, at most
    /// `max` plies.
    fn line(&self, max: usize) -> (Vec<Move>, Chess) {
        let mut pos = self.pos.clone();
        let mut line = Vec::new();
        while line.len() < max {
            let Some(m) = self
                .tb
                .best_moves_chess(&pos)
                .and_then(|v| v.first().map(|x| x.0))
            else {
                break;
            };
            pos.play_unchecked(m);
            line.push(m);
        }
        (line, pos)
    }
}

/// A square's rank counted from `color`'s side, 1 to 8.
fn rel_rank(color: Color, sq: Square) -> u32 {
    let r = u32::from(sq.rank());
    match color {
        Color::White => r + 1,
        Color::Black => 8 - r,
    }
}

fn ordinal(n: u32) -> &'static str {
    [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    ]
    .get(n.saturating_sub(1) as usize)
    .copied()
    .unwrap_or("last")
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// "a", "a or b", "a, b or c".
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

const CORNERS: [Square; 4] = [Square::A1, Square::H1, Square::A8, Square::H8];

impl Plan {
    fn words(self, s: &Situation<'_>) -> Option<String> {
        match self {
            Plan::OnlyMove => only_move(s),
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

/// The key squares of a pawn of `color` on `sq`: a king of its side on
/// one wins, whoever is to move.
fn key_squares(color: Color, sq: Square) -> Vec<Square> {
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

fn key_square(s: &Situation<'_>) -> Option<String> {
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
fn in_opposition(pos: &Chess) -> bool {
    let (Some(a), Some(b)) = (
        pos.board().king_of(Color::White),
        pos.board().king_of(Color::Black),
    ) else {
        return false;
    };
    (a.file() == b.file() && a.rank().distance(b.rank()) == 2)
        || (a.rank() == b.rank() && a.file().distance(b.file()) == 2)
}

fn opposition(s: &Situation<'_>) -> Option<String> {
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

fn front_of_pawn(s: &Situation<'_>) -> Option<String> {
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
fn pawn_on_seventh(s: &Situation<'_>, color: Color) -> Option<Square> {
    s.pieces(color, Role::Pawn)
        .into_iter()
        .find(|&p| rel_rank(color, p) == 7)
}

fn blocked_pawn(s: &Situation<'_>) -> Option<String> {
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

fn queen_check(s: &Situation<'_>) -> Option<String> {
    pawn_on_seventh(s, s.them())?;
    let m = s
        .best()
        .find(|m| m.role() == Role::Queen && s.after(m).is_check())?;
    Some(format!(
        "Check ({}): every check must drive the king in front of its pawn, or win a move for your king.",
        s.san(m)
    ))
}

fn corner(s: &Situation<'_>) -> Option<String> {
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
fn mating_corner(s: &Situation<'_>) -> Option<(Vec<Move>, Square)> {
    let (line, end) = s.line(140);
    if !end.is_checkmate() {
        return None;
    }
    let k = end.board().king_of(s.them())?;
    CORNERS.contains(&k).then_some((line, k))
}

fn knight_route(s: &Situation<'_>) -> Option<String> {
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

fn right_corner(s: &Situation<'_>) -> Option<String> {
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

fn safe_corner(s: &Situation<'_>) -> Option<String> {
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

fn knight_near(s: &Situation<'_>) -> Option<String> {
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

fn block_check(s: &Situation<'_>) -> Option<String> {
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

fn bridge(s: &Situation<'_>) -> Option<String> {
    let m = s.best().find(|m| {
        m.role() == Role::Rook && rel_rank(s.me, m.to()) == 4 && !s.after(m).is_check()
    })?;
    Some(format!(
        "Build a bridge: {} puts your rook on the fourth rank, where it will block the checks once your king steps out.",
        s.san(m)
    ))
}

fn cut_off(s: &Situation<'_>) -> Option<String> {
    pawn_on_seventh(s, s.me)?;
    let m = s
        .best()
        .find(|m| m.role() == Role::Rook && !m.is_capture() && s.after(m).is_check())?;
    Some(format!(
        "Check the king one more file away from the pawn ({}), so that your own king has room to step out.",
        s.san(m)
    ))
}

fn king_out(s: &Situation<'_>) -> Option<String> {
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

fn third_rank(s: &Situation<'_>) -> Option<String> {
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

fn from_behind(s: &Situation<'_>) -> Option<String> {
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

#[cfg(test)]
mod unit {
    use super::*;

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
