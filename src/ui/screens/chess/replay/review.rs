//! The replay screen's review: marking mistakes with the engine, playing
//! on from a position, and the annotated export.

use super::super::*;
use crate::ui::keymap::ReplayAction;
use crate::ui::screens::chess::replay::{self as rp, ReviewState};

/// How deep the explorer searches a refutation: deeper than its default,
/// so a simple tactic is in the tree, shallow enough to browse.
const REFUTATION_DEPTH: crate::engine::Depth = 4;

impl Chess<'_, Replay> {
    pub(super) fn toggle_review(&mut self) {
        let r = &mut *self.task;
        if let ReviewState::Running { done, total, .. } = r.review {
            r.review = ReviewState::Cancelled { done, total };
            self.ui.effects.push(Effect::CancelReview);
            self.ui.info(format!(
                "Review cancelled after {done} of {total} positions (what was found stays)."
            ));
            return;
        }
        let main = r.file_main_line();
        let tree = r.tree();
        if main.is_empty() {
            self.ui.info("Nothing to review: the game has no moves.");
            return;
        }
        let moves: Vec<Move> = main.iter().filter_map(|&n| tree.node(n).mv).collect();
        let start = tree.start.clone();
        self.ui.next_id += 1;
        let id = self.ui.next_id;
        r.review = ReviewState::Running {
            id,
            done: 0,
            total: moves.len() + 1,
        };
        for slot in &mut r.reviews {
            *slot = None;
        }
        self.ui.effects.push(Effect::Review(Box::new(ReviewRequest {
            id,
            start,
            moves,
            limits: Limits::movetime(rp::REVIEW_MOVETIME_MS),
        })));
        self.ui.info(format!(
            "Reviewing the game ({} ms a position; {} again cancels)…",
            rp::REVIEW_MOVETIME_MS,
            self.ui.replay_key_hint(ReplayAction::Review)
        ));
    }

    pub(super) fn on_reviewed(
        &mut self,
        id: u64,
        done: usize,
        total: usize,
        review: Option<Box<MoveReview>>,
        finished: bool,
        now: Instant,
    ) {
        let r = &mut *self.task;
        let ReviewState::Running { id: want, .. } = r.review else {
            return;
        };
        if want != id {
            return;
        }
        r.review = if finished {
            ReviewState::Done
        } else {
            ReviewState::Running { id, done, total }
        };
        if let Some(mr) = review {
            let main = r.main_nodes();
            if let (Some(&before), Some(&after)) = (main.get(mr.ply), main.get(mr.ply + 1)) {
                if let Some(e) = r.evals.get_mut(before) {
                    *e = Some(mr.before);
                }
                if let Some(e) = r.evals.get_mut(after) {
                    *e = Some(mr.after);
                }
                if let Some(slot) = r.reviews.get_mut(after) {
                    *slot = Some(*mr);
                }
            }
        }
        if finished {
            let [w, b] = r.judgement_counts();
            let side = |(i, m, b): (usize, usize, usize)| {
                let n = |k: usize, one: &str, many: &str| {
                    format!("{k} {}", if k == 1 { one } else { many })
                };
                format!(
                    "{}, {}, {}",
                    n(i, "inaccuracy", "inaccuracies"),
                    n(m, "mistake", "mistakes"),
                    n(b, "blunder", "blunders")
                )
            };
            let book = r
                .book_exit
                .as_ref()
                .map(|(_, text)| format!(" {}.", capitalise(text)))
                .unwrap_or_default();
            let book = match &r.repertoire_exit {
                Some((_, words)) => format!("{book} {words}."),
                None => book,
            };
            let text = format!(
                "Review done. White: {}. Black: {}.{book} {} saves it annotated; {}/{} retry White's/Black's mistakes.",
                side(w),
                side(b),
                self.ui.replay_key_hint(ReplayAction::Export),
                self.ui.replay_key_hint(ReplayAction::RetryWhite),
                self.ui.replay_key_hint(ReplayAction::RetryBlack)
            );
            self.ui.info(text);
        }
        self.s.evals = self.task.path_evals();
        if finished && let Some(side) = self.task.retry_after.take() {
            self.start_retry(side, now);
        }
    }

    /// The tree explorer on the position after the current move when the
    /// review judged it, the refutation selected: the review's own move
    /// when the next move of the game was reviewed too (its best line is
    /// the search after this move), which the explorer records deeper
    /// until it agrees (or says why not); else the explorer's best.
    pub(super) fn explore_refutation(&mut self) {
        let r = &*self.task;
        let tree = r.tree();
        let Some(rev) = r.reviews.get(r.cursor).and_then(|x| x.as_ref()) else {
            let hint = self.ui.replay_key_hint(ReplayAction::Review);
            self.ui.info(format!(
                "No review of this move: {hint} reviews the game, then this key explores a mistake's refutation."
            ));
            return;
        };
        if rev.judgement.is_none() {
            self.ui.info(
                "The review found no mistake in this move: nothing to refute (x explores any position).",
            );
            return;
        }
        let turn = self.board().turn();
        let verdict = tree
            .node(r.cursor)
            .children
            .first()
            .and_then(|&next| r.reviews.get(next))
            .and_then(|x| x.as_ref())
            .and_then(|next| {
                let best = next.best.or_else(|| next.best_line.first().copied())?;
                // The review's scores are White's; the explorer's the mover's.
                let score = match turn {
                    Color::White => next.before,
                    Color::Black => -next.before,
                };
                Some(crate::ui::screens::explorer::Verdict::new(
                    "the review",
                    best,
                    score,
                    next.depth,
                ))
            });
        let name = crate::game::movetree::numbered(tree, r.cursor, true);
        let why = rev.reason.clone().unwrap_or_default();
        self.open_explorer_at(REFUTATION_DEPTH, verdict);
        self.ui.info(format!("The search after {name}: {why}"));
    }

    /// A new game against the engine from the position shown, the human
    /// playing the side to move.
    pub(super) fn play_from_here(&mut self, now: Instant) {
        let board = self.board().clone();
        if !crate::engine::has_legal_moves(&board) {
            self.ui
                .error("The game is over in this position: nothing to play.");
            return;
        }
        let setup = Setup {
            mode: Mode::HumanVsEngine {
                human: board.turn(),
            },
            engine: self.s.opponent.spec.clone(),
            time: self.s.time,
            start: board,
        };
        // The game takes the replay's place (over the game beneath, if any).
        let mut s = ChessScreen::play(self.s.opponent.spec.clone(), self.s.time);
        s.at(self.ui).start_game(setup, now);
        self.ui
            .open_instead(Box::new(s), |top| top.as_any().is::<ChessScreen<Replay>>());
    }

    /// Saves the game (with the review's evaluations, marks and better
    /// moves when there is one) as PGN in the data directory.
    pub(super) fn export_annotated(&mut self) {
        let r = &*self.task;
        let mut tree = r.parsed.tree.clone();
        let mut game = r.parsed.game.clone();
        let reviews: Vec<MoveReview> = r.reviews.iter().flatten().cloned().collect();
        crate::game::review::annotate_tree(&mut tree, &reviews);
        crate::game::openings::annotate_opening(&mut game, &mut tree);
        let text = crate::game::write_pgn_tree(&game, &tree);
        let stem = r
            .path
            .as_ref()
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "game".into());
        let name = format!("{stem}-game{}-annotated.pgn", r.index + 1);
        let Some(dir) = self.ui.dirs.data.as_ref().map(|d| d.join("annotated")) else {
            self.ui.effects.push(Effect::Copy {
                what: "Annotated PGN",
                text,
                path: None,
            });
            return;
        };
        let what = if reviews.is_empty() {
            "The game (not reviewed yet)"
        } else {
            "The annotated game"
        };
        self.ui.effects.push(Effect::Copy {
            what,
            text,
            path: Some(dir.join(name)),
        });
    }
}
