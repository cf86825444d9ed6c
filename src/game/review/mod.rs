//! Game review: the engine evaluates every position of a line, and each
//! move is judged by how much it lowered the mover's chance of winning, the
//! way lichess does it. The results can be written into a [`MoveTree`] as
//! `[%eval]` comments, `?!`/`?`/`??` glyphs and the better line as a
//! variation.
//!
//! Scores here are from **White's** point of view (unlike the engine's
//! [`Score`], which is the side to move's). A mate in a white-view score is
//! stored so that [`Score::mate_moves`] and `Display` give lichess' numbers:
//! White mating in n moves is `Score::mate_in(2n - 1)` (`#n`), Black mating
//! in n moves is `Score::mated_in(2n)` (`#-n`); see [`white_view`].

use super::explain::{self, Evidence};
pub use super::judgement::{BLUNDER, INACCURACY, Judgement, MISTAKE};
use super::movetree::{MoveTree, NodeId};
use crate::engine::{Board, Depth, Engine, EngineOptions, GamePosition, Limits, NoObserver, Score};
use shakmaty::{Color, Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The slope of lichess' winning-chance curve, per centipawn.
const WIN_CHANCE_K: f64 = 0.003_682_08;
/// Scores beyond this many centipawns (and mates) count as this.
const CP_CAP: i32 = 1000;
/// The best line written as a variation is at most this many plies.
pub const MAX_BEST_LINE: usize = 8;
/// The lines a reason is read from are kept up to this many plies: a mate
/// in 4 and the end of an exchange need more than the variation shows.
const MAX_REASON_LINE: usize = 16;

/// What the engine thought of one move of the line.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// Index of the move in the line (0 = first move).
    pub ply: usize,
    /// Evaluation of the position before the move, White's view.
    pub before: Score,
    /// Evaluation of the position after the move, White's view.
    pub after: Score,
    /// The engine's best move in the position before (`None` when that
    /// position was already drawn by rule).
    pub best: Option<Move>,
    /// Its principal variation, the best move first, at most
    /// [`MAX_BEST_LINE`] plies.
    pub best_line: Vec<Move>,
    /// The depth the search of the position before finished (0 when the
    /// rules decided it): how far `best_line` was looked into.
    pub depth: Depth,
    /// `None` for a good move and always when the move was the best one.
    pub judgement: Option<Judgement>,
    /// The drop in the mover's winning chance, 0..1.
    pub loss: f64,
    /// For a judged move, why in plain words, read off the best line and
    /// the refutation ([`explain::reason`]): "allows 24.Qxf7# mate".
    pub reason: Option<String>,
}

/// A side-to-move score as White's view, mates normalised as the module
/// documentation says.
pub fn white_view(score: Score, turn: Color) -> Score {
    match score.mate_moves() {
        // Mated at the root: the side to move is checkmated.
        Some(0) => match (score.is_loss(), turn) {
            (true, Color::White) | (false, Color::Black) => Score::mated_in(0),
            (true, Color::Black) | (false, Color::White) => Score::mate_in(0),
        },
        Some(m) => mate_score(match turn {
            Color::White => m,
            Color::Black => -m,
        }),
        None => match turn {
            Color::White => score,
            Color::Black => -score,
        },
    }
}

/// White's view of "mate in `moves`" (negative: Black mates). `moves` is
/// not 0.
fn mate_score(moves: i32) -> Score {
    let n = moves.unsigned_abs() as usize;
    if moves > 0 {
        Score::mate_in(2 * n - 1)
    } else {
        Score::mated_in(2 * n)
    }
}

/// The chance (0..1) that `for_color` wins from a position evaluated at
/// `white_view`: lichess' curve `1 / (1 + exp(-0.00368208 cp))`, with the
/// score capped at ±1000 centipawns and a mate counted as ±1000.
pub fn win_chance(white_view: Score, for_color: Color) -> f64 {
    let cp = if white_view.is_win() {
        CP_CAP
    } else if white_view.is_loss() {
        -CP_CAP
    } else {
        white_view.0.clamp(-CP_CAP, CP_CAP)
    };
    let white = 1.0 / (1.0 + (-WIN_CHANCE_K * f64::from(cp)).exp());
    match for_color {
        Color::White => white,
        Color::Black => 1.0 - white,
    }
}

/// One evaluated position.
struct Eval {
    /// White's view.
    score: Score,
    best: Option<Move>,
    pv: Vec<Move>,
    /// The depth its search finished (0 when the rules decided).
    depth: Depth,
}

/// An engine set up for reviews: one per thread, reusable for many games.
pub struct Reviewer {
    engine: Engine,
    limits: Limits,
}

impl Reviewer {
    /// An engine with default options (no book, full strength, no move
    /// overhead) searching each position under `limits`.
    pub fn new(limits: Limits) -> Reviewer {
        Reviewer::with_options(
            limits,
            EngineOptions {
                move_overhead: Duration::ZERO,
                ..EngineOptions::default()
            },
        )
    }

    /// [`Reviewer::new`] with other engine options. A book or a strength
    /// level would make the review worse; they are switched off.
    pub fn with_options(limits: Limits, options: EngineOptions) -> Reviewer {
        let options = EngineOptions {
            multipv: 1,
            own_book: false,
            book_file: None,
            level: crate::engine::Level::MAX,
            ..options
        };
        Reviewer {
            engine: Engine::new(options),
            limits,
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Reviews `moves` played from `start`: `moves.len() + 1` positions are
    /// evaluated, each once, with the game's history (so repetitions count).
    /// `progress` gets (moves done, moves in all, the review just made),
    /// first (0, n, None). When `stop` is set the reviews done so far are
    /// returned (the search it interrupted is thrown away). An illegal move
    /// ends the review there.
    pub fn review(
        &mut self,
        start: &Board,
        moves: &[Move],
        stop: &AtomicBool,
        progress: &mut dyn FnMut(usize, usize, Option<&MoveReview>),
    ) -> Vec<MoveReview> {
        self.engine.new_game();
        let total = moves.len();
        let mut out = Vec::with_capacity(total);
        progress(0, total, None);
        let mut pos = GamePosition::new(start.clone());
        let Some(mut before) = self.evaluate(&pos, stop) else {
            return out;
        };
        for (ply, &played) in moves.iter().enumerate() {
            let board = pos.current().clone();
            if !board.is_legal(played) {
                break;
            }
            pos.push(played);
            let Some(after) = self.evaluate(&pos, stop) else {
                break;
            };
            let mover = board.turn();
            let loss = (win_chance(before.score, mover) - win_chance(after.score, mover)).max(0.0);
            let judgement = if before.best == Some(played) {
                None
            } else {
                Judgement::from_loss(loss)
            };
            // The refutation is the next position's line, searched anyway.
            let reason = judgement.map(|j| {
                explain::reason(&Evidence {
                    before: &board,
                    played,
                    best_line: &before.pv,
                    refutation: &after.pv,
                    score_before: before.score,
                    score_after: after.score,
                    judgement: Some(j),
                })
            });
            let mut best_line = std::mem::take(&mut before.pv);
            best_line.truncate(MAX_BEST_LINE);
            let review = MoveReview {
                ply,
                before: before.score,
                after: after.score,
                best: before.best,
                best_line,
                depth: before.depth,
                judgement,
                loss,
                reason,
            };
            progress(ply + 1, total, Some(&review));
            out.push(review);
            before = after;
        }
        out
    }

    /// The current position's score (White's view) and best line; `None`
    /// when `stop` was set.
    fn evaluate(&mut self, pos: &GamePosition, stop: &AtomicBool) -> Option<Eval> {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let board = pos.current();
        let chess = board.chess();
        let turn = board.turn();
        let terminal = |score| {
            Some(Eval {
                score: white_view(score, turn),
                best: None,
                pv: Vec::new(),
                depth: 0,
            })
        };
        if chess.legal_moves().is_empty() {
            return terminal(if chess.is_check() {
                Score::mated_in(0)
            } else {
                Score::DRAW
            });
        }
        // Over by rule whatever the players want.
        if chess.is_insufficient_material() || pos.repetitions() >= 5 || board.halfmoves() >= 150 {
            return terminal(Score::DRAW);
        }
        let report = self.engine.search(pos, &self.limits, stop, &mut NoObserver);
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let best = report.best_move;
        let mut pv = report.result.pv;
        if pv.first() != best.as_ref() {
            pv = best.into_iter().collect();
        }
        // Only legal moves, in case a line ends in something odd.
        let mut b = board.clone();
        let mut len = 0;
        for &m in pv.iter().take(MAX_REASON_LINE) {
            if !b.is_legal(m) {
                break;
            }
            b = b.play(m);
            len += 1;
        }
        pv.truncate(len);
        Some(Eval {
            score: white_view(report.result.score, turn),
            best,
            pv,
            depth: report.result.depth,
        })
    }
}

/// Reviews a line with a new [`Reviewer`]; see [`Reviewer::review`].
pub fn review_line(
    start: &Board,
    moves: &[Move],
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize, Option<&MoveReview>),
) -> Vec<MoveReview> {
    Reviewer::new(limits.clone()).review(start, moves, stop, progress)
}

/// Writes reviews of the main line into `tree`. For each reviewed move:
/// - its `[%eval]` comment is set (a previous `[%eval ...]` is removed from
///   the comments, the rest of their text is kept; a checkmate gets none);
/// - a judged move gets its glyph (`?!`, `?`, `??`) unless it already has a
///   move-quality glyph (NAGs 1 to 6: an annotator's verdict stays), a
///   comment like "Mistake (+0.20 → -1.50). Qd2 was best." (replacing one
///   from an earlier review), and the best line as a variation after the
///   existing ones, unless the best move is already one of them.
///
/// Reviews past the end of the main line are skipped.
pub fn annotate_tree(tree: &mut MoveTree, reviews: &[MoveReview]) {
    let main = tree.main_line();
    for r in reviews {
        let Some(&node) = main.get(r.ply) else {
            continue;
        };
        let parent = tree.nodes[node].parent.unwrap_or(0);

        let mut comments: Vec<String> = std::mem::take(&mut tree.nodes[node].comments)
            .iter()
            .filter(|c| !is_review_comment(c))
            .map(|c| strip_eval(c))
            .filter(|c| !c.is_empty())
            .collect();
        if r.after.mate_moves() != Some(0) {
            comments.insert(0, eval_comment(r.after));
        }
        let Some(j) = r.judgement else {
            tree.nodes[node].comments = comments;
            continue;
        };
        let board = tree.board_at(parent);
        let best = r.best.filter(|&m| board.is_legal(m));
        comments.push(judgement_comment(j, r, &board, best));
        let n = &mut tree.nodes[node];
        n.comments = comments;
        if !n.nags.iter().any(|g| (1..=6).contains(g)) {
            n.nags.push(j.nag());
        }
        if best.is_some() {
            add_best_line(tree, parent, board, r);
        }
    }
}

/// The best line below `parent` (whose position is `board`), unless its
/// first move is there already.
fn add_best_line(tree: &mut MoveTree, parent: NodeId, mut board: Board, r: &MoveReview) {
    let Some(best) = r.best else {
        return;
    };
    if tree.nodes[parent]
        .children
        .iter()
        .any(|&c| tree.nodes[c].mv == Some(best))
    {
        return;
    }
    let line: Vec<Move> = if r.best_line.first() == Some(&best) {
        r.best_line.clone()
    } else {
        vec![best]
    };
    let mut cur = parent;
    for m in line {
        if !board.is_legal(m) {
            break;
        }
        cur = tree.add(cur, &board, m);
        board = board.play(m);
    }
}

/// The comment for a judged move: "Mistake (+0.20 → -1.50): allows
/// 24.Qxf7# mate. Qd2 was best." The best move is left out when the
/// reason already names it ("misses mate in 2: 17...Qh2+ 18.Kf1 Qh1#.").
fn judgement_comment(j: Judgement, r: &MoveReview, board: &Board, best: Option<Move>) -> String {
    let mut c = format!("{} ({} → {})", j.name(), r.before, r.after);
    let reason = r.reason.as_deref().filter(|t| !t.is_empty());
    if let Some(reason) = reason {
        c.push_str(": ");
        c.push_str(reason);
    }
    if !c.ends_with(['.', '…']) {
        c.push('.');
    }
    if let Some(m) = best {
        let named = super::notation::numbered_line(board.chess(), &[m]);
        if !reason.is_some_and(|t| t.contains(&named)) {
            c.push_str(&format!(" {} was best.", board.san(m)));
        }
    }
    c
}

/// Is this a judgement comment [`annotate_tree`] wrote? "Mistake (+0.20 →
/// -1.50)" then ".", ". Qd2 was best." or ": " and a reason.
fn is_review_comment(c: &str) -> bool {
    [
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ]
    .iter()
    .any(|j| {
        c.strip_prefix(j.name())
            .and_then(|rest| rest.strip_prefix(" ("))
            .and_then(|rest| rest.split_once(')'))
            .is_some_and(|(scores, tail)| {
                scores.contains(" → ")
                    && (tail == "."
                        || (tail.starts_with(". ") && tail.ends_with(" was best."))
                        || (tail.starts_with(": ") && tail.len() > 2))
            })
    })
}

/// A comment without its `[%eval ...]` commands, spaces tidied.
fn strip_eval(c: &str) -> String {
    let mut rest = c;
    let mut out = String::new();
    while let Some(at) = rest.find("[%eval") {
        let Some(len) = rest[at..].find(']') else {
            break;
        };
        out.push_str(&rest[..at]);
        out.push(' ');
        rest = &rest[at + len + 1..];
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The lichess comment for a White-view score: `[%eval 0.35]`,
/// `[%eval -1.20]`, `[%eval #3]` (White mates in 3), `[%eval #-3]`.
/// A checkmate on the board is `#0` (White mated) or `#-0`.
pub fn eval_comment(score: Score) -> String {
    let text = match score.mate_moves() {
        Some(0) if score.is_loss() => "#-0".to_string(),
        Some(m) => format!("#{m}"),
        None => format!("{:.2}", f64::from(score.0) / 100.0),
    };
    format!("[%eval {text}]")
}

/// The argument of a `[%name ...]` command in a comment.
fn command<'a>(comment: &'a str, name: &str) -> Option<&'a str> {
    let at = comment.find(&format!("[%{name}"))?;
    let rest = &comment[at + 2 + name.len()..];
    // `[%evaluation` is not `[%eval`.
    if !rest.starts_with(|c: char| c.is_whitespace()) {
        return None;
    }
    let end = rest.find(']')?;
    Some(rest[..end].trim())
}

/// The score (White's view) in a `[%eval ...]` command: `[%eval 0.35]`,
/// `[%eval -1.2]`, `[%eval #-3]`, `[%eval 0.35,18]` (with a depth).
pub fn parse_eval_comment(comment: &str) -> Option<Score> {
    let arg = command(comment, "eval")?;
    let value = arg.split(',').next()?.trim();
    if let Some(mate) = value.strip_prefix('#') {
        let n: i32 = mate.parse().ok()?;
        // Deeper mates would leave the mate score range.
        if n.unsigned_abs() > 500 {
            return None;
        }
        return Some(match n {
            0 if mate.starts_with('-') => Score::mated_in(0),
            0 => Score::mate_in(0),
            n => mate_score(n),
        });
    }
    let pawns: f64 = value.parse().ok()?;
    if !pawns.is_finite() {
        return None;
    }
    let max = f64::from(Score::MATE_BOUND - 1);
    Some(Score((pawns * 100.0).round().clamp(-max, max) as i32))
}

/// The clock in a `[%clk ...]` command: `[%clk 1:23:45]`,
/// `[%clk 0:03:12.5]` (also `m:ss`).
pub fn parse_clk_comment(comment: &str) -> Option<Duration> {
    let arg = command(comment, "clk")?;
    let parts: Vec<&str> = arg.split(':').collect();
    let (h, m, s) = match parts.as_slice() {
        [h, m, s] => (*h, *m, *s),
        [m, s] => ("0", *m, *s),
        _ => return None,
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(h) || !digits(m) {
        return None;
    }
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if !digits(whole) || !(frac.is_empty() || digits(frac)) {
        return None;
    }
    let h: u64 = h.parse().ok()?;
    let m: u64 = m.parse().ok()?;
    let secs: f64 = s.parse().ok()?;
    let whole = h.checked_mul(3600)?.checked_add(m.checked_mul(60)?)?;
    Duration::from_secs(whole).checked_add(Duration::try_from_secs_f64(secs).ok()?)
}

#[cfg(test)]
mod tests;
