//! Retry from the replay screen: the positions before one side's marked
//! mistakes and blunders of the reviewed game, each a drill of its own
//! ("find a better move"), on a chess screen over the replay.

use super::super::*;
use crate::game::review::Judgement;
use crate::train::puzzle::Puzzle;

impl Chess<'_, Replay> {
    /// Retry `side`'s mistakes: at once if the game is reviewed, else
    /// after the review this starts.
    pub(super) fn start_retry(&mut self, side: Color, now: Instant) {
        let r = &mut *self.task;
        match r.review {
            crate::ui::screens::chess::replay::ReviewState::Done => {}
            crate::ui::screens::chess::replay::ReviewState::Running { .. } => {
                r.retry_after = Some(side);
                self.ui.info(format!(
                    "Retry of {}'s mistakes starts when the review is done.",
                    color_name(side)
                ));
                return;
            }
            _ => {
                r.retry_after = Some(side);
                self.toggle_review();
                return;
            }
        }
        let items = self.retry_items(side);
        if items.is_empty() {
            self.ui.info(format!(
                "{} made no mistake or blunder in this game: nothing to retry.",
                color_name(side)
            ));
            return;
        }
        let first = items[0].puzzle.clone();
        let kind = DrillKind::Retry {
            side,
            items,
            index: 0,
            found: 0,
        };
        if let Some(s) = ChessScreen::drill(self.ui, kind, first, now) {
            self.ui.open(Box::new(s));
        }
    }

    /// The reviewed game's positions before `side`'s mistakes and blunders
    /// (not its first move: a drill starts with the opponent's move).
    fn retry_items(&self, side: Color) -> Vec<RetryItem> {
        let r = &*self.task;
        let tree = r.tree();
        let main = r.main_nodes();
        let moves: Vec<Move> = main[1..].iter().filter_map(|&n| tree.node(n).mv).collect();
        let mut boards = vec![tree.start.clone()];
        for &m in &moves {
            let Some(last) = boards.last() else { break };
            if !last.is_legal(m) {
                break;
            }
            let next = last.play(m);
            boards.push(next);
        }
        // Where the game left known theory, said with every position.
        let book = r
            .book_exit
            .as_ref()
            .map(|(_, text)| crate::ui::text::capitalise(text));
        let mut items = Vec::new();
        for (ply, &node) in main.iter().enumerate().skip(2) {
            let Some(review) = r.reviews.get(node).and_then(|x| x.as_ref()) else {
                continue;
            };
            let mistake_ply = ply - 1;
            let (Some(before_prev), Some(before), Some(&prev), Some(&played)) = (
                boards.get(mistake_ply - 1),
                boards.get(mistake_ply),
                moves.get(mistake_ply - 1),
                moves.get(mistake_ply),
            ) else {
                continue;
            };
            let (Some(judgement), Some(best)) = (review.judgement, review.best) else {
                continue;
            };
            if judgement < Judgement::Mistake || before.turn() != side {
                continue;
            }
            let moves = vec![Board::uci(prev), Board::uci(best)];
            let fen = before_prev.fen();
            let id = mistake_id(&fen, &Board::uci(prev), &Board::uci(played));
            let mut puzzle = Puzzle::new(id, fen, moves);
            puzzle.game_url = retry_origin(r, mistake_ply);
            // Tagged like every puzzle, so the theme filter finds it.
            if let Ok((start, line)) = puzzle.line() {
                puzzle.themes = crate::train::themes::tag(&start, &line)
                    .into_iter()
                    .map(str::to_string)
                    .collect();
            }
            items.push(RetryItem {
                puzzle,
                played: crate::game::notation::numbered_san(before.chess(), played),
                played_move: played,
                judgement,
                best_score: review.before,
                played_score: review.after,
                reason: review.reason.clone(),
                best_line: crate::game::notation::numbered_line(before.chess(), &review.best_line),
                book: book.clone(),
            });
        }
        items
    }
}

/// Where a retried position came from: the file and the half-move.
fn retry_origin(r: &crate::ui::screens::chess::replay::Replay, ply: usize) -> String {
    match &r.path {
        Some(p) => format!("{}#{}", p.display(), ply + 1),
        None => String::new(),
    }
}

/// A puzzle id for a mistake of your own: the position, the move before
/// it and the move you played, so retrying the same mistake again (a game
/// reviewed twice, whose best move the engine may find otherwise) stores
/// it once.
fn mistake_id(fen: &str, prev: &str, played: &str) -> String {
    // FNV-1a: stable across runs and builds, unlike `DefaultHasher`.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let key = format!("{fen} {prev} {played}");
    for b in key.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("k{:011x}", h & 0xfff_ffff_ffff)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One mistake, one puzzle: the id follows the position and the moves
    /// played, not the best move a review found.
    #[test]
    fn a_mistake_has_one_id_whatever_the_best_move() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let id = mistake_id(fen, "e7e5", "d1h5");
        assert_eq!(id, mistake_id(fen, "e7e5", "d1h5"));
        assert_ne!(id, mistake_id(fen, "e7e5", "f1c4"), "another mistake");
        assert!(id.starts_with('k') && id.len() == 12, "{id}");
    }
}
