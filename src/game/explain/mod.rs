//! A reason in plain words for a mistake, read off the search: the
//! engine's best line before the move and its best line after it (the
//! refutation). Nothing is guessed: each sentence names moves the engine
//! played in those lines, and when they show no mate, no material and no
//! fork the reason says only what the scores say.
//!
//! The cases, most telling first:
//! - the refutation mates: "allows 24.Qxf7# mate", "allows mate in 3:
//!   24.Qxf7+ Kh8 25.Qf8+ Rxf8 26.Rxf8#";
//! - the best line mated and the move lets it go: "misses mate in 2:
//!   17...Qh2+ 18.Kf1 Qh1#";
//! - the move and the refutation lose material (counted until the
//!   captures stop, compared with the best line): "leaves the knight on d4
//!   undefended: 21.Bxd4", "allows 22.Nf3+, a fork of king and queen",
//!   "after 18...Bxh6? 19.gxh6 the bishop is lost for a pawn", "loses the
//!   exchange: 23.Bxf8 Kxf8";
//! - the best line won material or forked: "misses 17...Nf3+, a fork of
//!   king and queen", "misses 17...Bxf7+, winning a pawn";
//! - the refutation forks even if the line stops before the capture;
//! - otherwise the scores: "18.Qd2 was better (+0.40); after 18.Rd1 the
//!   position is -0.60".

mod attacks;
mod material;
#[cfg(test)]
mod tests;

use super::judgement::Judgement;
use super::movetree::nag_text;
use super::notation::{numbered_line, role_name};
use crate::engine::{Board, Score};
use material::{Outcome, Trade};
use shakmaty::{Chess, Color, Move, Position};

/// Material is counted over at most this many plies of a line (after the
/// move itself): what the engine wins later is rarely what the mistake was
/// about, and the sentence could not quote it.
const MATERIAL_PLIES: usize = 10;
/// At most this many plies of a line are quoted in a reason; longer lines
/// end in "…".
const QUOTED_PLIES: usize = MATERIAL_PLIES;
/// A mate is quoted in full up to this many moves; a longer one by its
/// first moves.
const QUOTED_MATE: i32 = 4;

/// What the search found around one move: all a reason is made from.
#[derive(Clone, Copy, Debug)]
pub struct Evidence<'a> {
    /// The position before the move.
    pub before: &'a Board,
    /// The move played.
    pub played: Move,
    /// The engine's best line in the position before, best move first
    /// (empty when there was none).
    pub best_line: &'a [Move],
    /// The engine's best line in the position after the move: the
    /// refutation (empty when that position is over).
    pub refutation: &'a [Move],
    /// The score before the move, White's view (as in a review).
    pub score_before: Score,
    /// The score after the move, White's view.
    pub score_after: Score,
    /// The review's verdict, for its glyph after the move ("18...Bxh6?").
    pub judgement: Option<Judgement>,
}

/// The reason for a mistake in one plain sentence without a capital or a
/// full stop ("allows 24.Qxf7# mate"), to follow a verdict like
/// "Mistake (+0.20 → -1.50): ". See the module documentation for the
/// cases. A move that is not legal in `before` gets the score sentence.
pub fn reason(e: &Evidence<'_>) -> String {
    let pos = e.before.chess();
    if !pos.is_legal(e.played) {
        return by_scores(e, &[]);
    }
    let us = pos.turn();
    let mut after = pos.clone();
    after.play_unchecked(e.played);
    // The first legal stretch of each line only.
    let refutation = legal_prefix(&after, e.refutation);
    let best_line = legal_prefix(pos, e.best_line);

    if let Some(n) = mate_for(e.score_after, us).filter(|&n| n < 0) {
        return allows_mate(&after, refutation, -n);
    }
    if after.is_stalemate() {
        return "stalemates the king: the game is drawn".to_string();
    }
    if let Some(n) = mate_for(e.score_before, us).filter(|&n| n > 0)
        && mate_for(e.score_after, us).is_none_or(|m| m <= 0)
        && best_line.first().is_some_and(|&m| m != e.played)
    {
        return misses_mate(pos, best_line, n);
    }

    let mut played_line = vec![e.played];
    played_line.extend(refutation.iter().take(MATERIAL_PLIES));
    let played = material::outcome(pos, &played_line);
    let best = material::outcome(pos, &best_line[..best_line.len().min(MATERIAL_PLIES)]);
    if played.net <= -1
        && best.net - played.net >= 1
        && let Some(text) = loses_material(e, pos, &after, &played_line, &played)
    {
        return text;
    }
    if best.net >= 1
        && best.net - played.net >= 1
        && let Some(text) = misses_material(pos, best_line, &best)
    {
        return text;
    }
    // A fork the line stops too early to cash in: the search found it best,
    // and the fork is what shows. A longer line that takes nothing shows the
    // fork did not win anything, so it is not the reason.
    if let [first] | [first, _] = refutation
        && let Some(f) = attacks::fork(&after, *first)
    {
        return format!(
            "allows {}, a fork of {}",
            numbered_line(&after, &[*first]),
            f.words()
        );
    }
    if let [first] | [first, _] = best_line
        && *first != e.played
        && let Some(f) = attacks::fork(pos, *first)
    {
        return format!(
            "misses {}, a fork of {}",
            numbered_line(pos, &[*first]),
            f.words()
        );
    }
    by_scores(e, refutation)
}

/// The longest start of `line` that is legal from `pos`.
fn legal_prefix<'a>(pos: &Chess, line: &'a [Move]) -> &'a [Move] {
    let mut p = pos.clone();
    let mut n = 0;
    for &m in line {
        if !p.is_legal(m) {
            break;
        }
        p.play_unchecked(m);
        n += 1;
    }
    &line[..n]
}

/// A White-view score as moves to mate for `us`: positive when `us` mates
/// in that many moves, negative when `us` is mated, `None` for no mate (or
/// a mate already on the board).
fn mate_for(white_view: Score, us: Color) -> Option<i32> {
    let m = white_view.mate_moves().filter(|&m| m != 0)?;
    Some(if us == Color::White { m } else { -m })
}

/// Does `line` from `pos` end in checkmate?
fn ends_in_mate(pos: &Chess, line: &[Move]) -> bool {
    let mut p = pos.clone();
    for &m in line {
        p.play_unchecked(m);
    }
    !line.is_empty() && p.is_checkmate()
}

/// "allows 24.Qxf7# mate", "allows mate in 3: 24.Qxf7+ Kh8 25.Qf8+ Rxf8
/// 26.Rxf8#", "allows mate in 7, starting 24.Qxf7+ Kh8 25.Qf8+".
fn allows_mate(after: &Chess, refutation: &[Move], n: i32) -> String {
    mate_sentence("allows", after, refutation, n)
}

/// "misses mate in 2: 17...Qh2+ 18.Kf1 Qh1#" (the same forms as
/// [`allows_mate`]).
fn misses_mate(pos: &Chess, best_line: &[Move], n: i32) -> String {
    mate_sentence("misses", pos, best_line, n)
}

fn mate_sentence(verb: &str, pos: &Chess, line: &[Move], n: i32) -> String {
    let plies = usize::try_from(2 * n - 1).unwrap_or(usize::MAX);
    let whole = line.len() >= plies && ends_in_mate(pos, &line[..plies]);
    if whole && n == 1 {
        return format!("{verb} {} mate", numbered_line(pos, &line[..1]));
    }
    if whole && n <= QUOTED_MATE {
        return format!("{verb} mate in {n}: {}", numbered_line(pos, &line[..plies]));
    }
    if line.is_empty() {
        return format!("{verb} mate in {n}");
    }
    let start = &line[..line.len().min(3)];
    format!("{verb} mate in {n}, starting {}", numbered_line(pos, start))
}

/// The material sentences when the move and its refutation lose material
/// the best line keeps: an undefended piece taken, a fork, a promotion,
/// a capture that goes wrong, or plain losses. `None` when the losses do
/// not come out in words (then the next case may say more).
fn loses_material(
    e: &Evidence<'_>,
    pos: &Chess,
    after: &Chess,
    played_line: &[Move],
    played: &Outcome,
) -> Option<String> {
    let us = pos.turn();
    let refutation = &played_line[1..];
    let first = refutation.first().copied();
    // The refutation's plies up to where the captures stop.
    let shown = played.plies.saturating_sub(1).min(refutation.len());
    if let Some((ply, color)) = played.promotion
        && color != us
    {
        return Some(format!(
            "lets the pawn promote: {}",
            quote(after, &refutation[..ply.max(1).min(refutation.len())])
        ));
    }
    if played.promotion.is_some() {
        return None;
    }
    let board = pos.board();
    let trade = material::trade(
        &played.lost,
        &played.won,
        &|r| material::count(board, us, r),
        &|r| material::count(board, !us, r),
    )?;
    if !e.played.is_capture()
        && let Some(m) = first
        && m.is_capture()
        && attacks::left_undefended(pos, e.played, m.to())
        && let Some(role) = after.board().role_at(m.to())
    {
        return Some(format!(
            "leaves the {} on {} undefended: {}",
            role_name(role),
            m.to(),
            quote(after, &refutation[..shown.max(1)])
        ));
    }
    if let Some(m) = first
        && let Some(f) = attacks::fork(after, m)
    {
        return Some(format!(
            "allows {}, a fork of {}",
            numbered_line(after, &[m]),
            f.words()
        ));
    }
    if e.played.is_capture() && shown > 0 {
        // One line from the move on, so Black's reply is not numbered
        // again ("after 69.Qxd4?? Re3+ 70.Qxe3"), the glyph on the move.
        let glyph = e.judgement.map(|j| nag_text(j.nag())).unwrap_or_default();
        let mut line = quote(pos, &played_line[..=shown]);
        let at = line.find(' ').unwrap_or(line.len());
        line.insert_str(at, &glyph);
        return Some(format!("after {line} {}", passive(&trade)));
    }
    if shown == 0 {
        return None;
    }
    Some(format!(
        "{}: {}",
        active("loses", &trade),
        quote(after, &refutation[..shown])
    ))
}

/// "misses 17...Nf3+, a fork of king and queen", "misses 17...Bxf7+,
/// winning a pawn", "misses 31.e8=Q, promoting".
fn misses_material(pos: &Chess, best_line: &[Move], best: &Outcome) -> Option<String> {
    let us = pos.turn();
    let &first = best_line.first()?;
    let named = numbered_line(pos, &[first]);
    if let Some(f) = attacks::fork(pos, first) {
        return Some(format!("misses {named}, a fork of {}", f.words()));
    }
    if let Some((_, color)) = best.promotion {
        return (color == us).then(|| format!("misses {named}, which promotes a pawn"));
    }
    let board = pos.board();
    let trade = material::trade(
        &best.won,
        &best.lost,
        &|r| material::count(board, !us, r),
        &|r| material::count(board, us, r),
    )?;
    Some(format!("misses {named}, {}", active("winning", &trade)))
}

/// "loses the bishop for a pawn", "winning the exchange".
fn active(verb: &str, t: &Trade) -> String {
    if t.got.is_empty() {
        format!("{verb} {}", t.given)
    } else {
        format!("{verb} {} for {}", t.given, t.got)
    }
}

/// "the bishop is lost for a pawn", "two pawns are lost".
fn passive(t: &Trade) -> String {
    let verb = if t.plural { "are" } else { "is" };
    if t.got.is_empty() {
        format!("{} {verb} lost", t.given)
    } else {
        format!("{} {verb} lost for {}", t.given, t.got)
    }
}

/// A line in SAN with numbers, cut to [`QUOTED_PLIES`].
fn quote(pos: &Chess, line: &[Move]) -> String {
    let text = numbered_line(pos, &line[..line.len().min(QUOTED_PLIES)]);
    if line.len() > QUOTED_PLIES {
        format!("{text} …")
    } else {
        text
    }
}

/// "18.Qd2 was better (+0.40); after 18.Rd1 the position is -0.60": the
/// scores only, White's view as in the rest of the review. After a mistake
/// or a blunder the engine's reply is quoted too ("after 18.Nd5 Qxa1+ the
/// position is -6.60"): a big drop the other cases did not explain is
/// easier to see from the move that punishes it.
fn by_scores(e: &Evidence<'_>, refutation: &[Move]) -> String {
    let pos = e.before.chess();
    let played = if pos.is_legal(e.played) {
        let reply = match e.judgement {
            Some(Judgement::Mistake | Judgement::Blunder) => refutation.first(),
            _ => None,
        };
        let line: Vec<Move> = std::iter::once(e.played).chain(reply.copied()).collect();
        numbered_line(pos, &line)
    } else {
        "the move".to_string()
    };
    let after = format!("after {played} the position is {}", e.score_after);
    match e.best_line.first() {
        Some(&best) if best != e.played && pos.is_legal(best) => format!(
            "{} was better ({}); {after}",
            numbered_line(pos, &[best]),
            e.score_before
        ),
        _ => after,
    }
}
