//! The repertoire drill's screen: the Task hooks, the next due position,
//! your move judged, the opponent's weighted reply.

use super::super::*;
use super::RepertoireDrill;
use crate::db::collection::{Store, moves_in};
use crate::train::repertoire::Progress;
use crate::ui::openings::Repertoires;

impl Task for RepertoireDrill {
    const OPENINGS: bool = false;
    const KEPT: bool = false;

    fn view(&self) -> TaskView<'_> {
        TaskView::Repertoire(self)
    }

    fn action(c: &mut Chess<'_, Self>, a: Action, now: Instant) -> bool {
        match a {
            Action::Quit => c.leave_repertoire_drill(),
            Action::Cancel if c.s.pick.selected.is_none() => c.leave_repertoire_drill(),
            Action::NewGame => c.next_due(now),
            Action::Takeback | Action::OfferDraw | Action::Resign | Action::Pause => {
                c.ui.error(format!(
                    "Not in a drill: {} shows your prepared move, {} skips to the next position.",
                    c.ui.keys_hint(Action::Hint),
                    c.ui.keys_hint(Action::NewGame)
                ))
            }
            _ => return false,
        }
        true
    }

    fn finished(&self) -> bool {
        self.asking.is_none()
    }

    fn reply(c: &mut Chess<'_, Self>, now: Instant) {
        c.repertoire_reply(now);
    }

    fn allows(c: &mut Chess<'_, Self>, m: Move, _now: Instant) -> bool {
        !c.human_to_move() || c.repertoire_allows(m)
    }

    fn after_move(c: &mut Chess<'_, Self>, before: &Board, _m: Move) {
        // The opponent's reply leads to a due position: it is asked.
        let d = &mut *c.task;
        if let Some((side, _)) = d.asking
            && before.turn() != side
        {
            d.asking = Some((side, c.s.game.current().chess().clone()));
            d.failed_here = false;
        }
    }

    fn hint(c: &mut Chess<'_, Self>, _now: Instant) {
        c.repertoire_hint();
    }
}

impl ChessScreen<RepertoireDrill> {
    /// The drill on the first due position; None (and why said) when
    /// there is nothing to drill.
    pub fn repertoire_drill(ui: &mut Shared, now: Instant) -> Option<Self> {
        let data = ui.dirs.data.clone();
        let reps = Repertoires::load(data.as_deref());
        if let Some((_, why)) = reps.broken.first() {
            ui.error(why.clone());
            return None;
        }
        if reps.white.is_empty() && reps.black.is_empty() {
            ui.error(format!(
                "Your repertoire is empty: mark moves in the opening explorer ({}, then +) or `kibitz repertoire import FILE.pgn --side white`.",
                ui.keys_hint(Action::Openings)
            ));
            return None;
        }
        let (progress, warning) = data.as_deref().map(Progress::load).unwrap_or_default();
        if let Some(w) = warning {
            ui.error(w);
        }
        let collections = data
            .as_deref()
            .map(|d| Store::new(d).as_indexed())
            .unwrap_or_default();
        let mut s = ChessScreen {
            game: ChessGame::new(EngineSpec::BuiltIn { level: 8 }, None),
            task: RepertoireDrill {
                reps,
                progress,
                collections,
                asking: None,
                failed_here: false,
                right: 0,
                wrong: 0,
                verdict: None,
                data,
                rng: crate::util::Rng::from_entropy(),
            },
        };
        s.at(ui).next_due(now);
        Some(s)
    }
}

impl Chess<'_, RepertoireDrill> {
    fn leave_repertoire_drill(&mut self) {
        self.stop_all();
        let d = &*self.task;
        self.ui.info(format!(
            "Left the repertoire drill: {} right, {} wrong; {} positions due.",
            d.right,
            d.wrong,
            d.due_now()
        ));
        self.ui.openings.due = None;
        self.ui.close();
    }

    /// Sets up the next due position (the longest waiting), or says that
    /// nothing is due.
    pub(crate) fn next_due(&mut self, now: Instant) {
        let at = crate::util::unix_now();
        let d = &*self.task;
        let next = [Color::White, Color::Black]
            .into_iter()
            .filter_map(|c| {
                let (due, pos) = d
                    .progress
                    .due_positions(d.reps.side(c), at)
                    .into_iter()
                    .next()?;
                Some((due, c, pos))
            })
            .min_by_key(|(due, c, _)| (*due, *c == Color::Black));
        let line = next
            .as_ref()
            .and_then(|(_, side, pos)| d.reps.side(*side).line_to(pos));
        let (Some((_, side, pos)), Some((start, line))) = (next, line) else {
            let text = format!(
                "Nothing due now: {} right, {} wrong this time. Come back tomorrow; {} leaves.",
                d.right,
                d.wrong,
                self.ui.keys_hint(Action::Quit)
            );
            self.ui.info(text);
            self.task.asking = None;
            return;
        };
        self.stop_all();
        let mut game = Game::new(Board::from_chess(start));
        for m in line {
            game.push(m, None);
        }
        game.set_header(
            "White",
            if side == Color::White {
                "You"
            } else {
                "Repertoire"
            },
        );
        game.set_header(
            "Black",
            if side == Color::Black {
                "You"
            } else {
                "Repertoire"
            },
        );
        self.s.game = game;
        self.s.mode = Mode::HumanVsEngine { human: side };
        self.s.clocks = None;
        self.s.opponent.forget();
        self.s.pick.selected = None;
        self.s.pick.clear();
        self.s.hint = None;
        self.s.evals.clear();
        self.s.scroll = 0;
        self.s.paused = false;
        self.s.started_at = Some(now);
        self.ui.look.flipped = side == Color::Black;
        self.task.asking = Some((side, pos));
        self.task.failed_here = false;
        let due = self.task.due_now();
        self.ui.info(format!(
            "Your {} repertoire: play your move ({due} due; {} shows it, {} skips).",
            color_name(side),
            self.ui.keys_hint(Action::Hint),
            self.ui.keys_hint(Action::NewGame)
        ));
        self.next_turn(now);
    }

    /// Your move at the position asked: a prepared one is right (and
    /// played); another is refused and the prepared one named.
    fn repertoire_allows(&mut self, m: Move) -> bool {
        let Some((side, pos)) = self.task.asking.clone() else {
            return false;
        };
        let board = self.board().clone();
        let san = board.san(m);
        let prepared = self.task.reps.side(side).moves(&pos).to_vec();
        let at = crate::util::unix_now();
        if prepared.contains(&m) {
            if !self.task.failed_here {
                self.task.right += 1;
                self.task.progress.record(side, &pos, true, at);
                self.save_progress();
            }
            let text = format!("{san}: right.");
            self.task.verdict = Some((true, text.clone()));
            self.ui.info(text);
            return true;
        }
        let names: Vec<String> = prepared.iter().map(|&p| board.san(p)).collect();
        if !self.task.failed_here {
            self.task.failed_here = true;
            self.task.wrong += 1;
            self.task.progress.record(side, &pos, false, at);
            self.save_progress();
        }
        let text = format!(
            "{san} is not your repertoire move: you prepared {}. Play it.",
            names.join(" or ")
        );
        self.task.verdict = Some((false, text.clone()));
        self.ui.error(text);
        false
    }

    fn repertoire_hint(&mut self) {
        let Some((side, pos)) = self.task.asking.clone() else {
            return;
        };
        let board = self.board().clone();
        let names: Vec<String> = self
            .task
            .reps
            .side(side)
            .moves(&pos)
            .iter()
            .map(|&p| board.san(p))
            .collect();
        if !self.task.failed_here {
            self.task.failed_here = true;
            self.task.wrong += 1;
            self.task
                .progress
                .record(side, &pos, false, crate::util::unix_now());
            self.save_progress();
        }
        self.ui
            .info(format!("You prepared {} here.", names.join(" or ")));
    }

    /// The opponent's turn: a reply from the repertoire, weighted by your
    /// collections' games, when it leads to a due position; else on to
    /// the next due position.
    fn repertoire_reply(&mut self, now: Instant) {
        let Some((side, _)) = self.task.asking.clone() else {
            return;
        };
        let pos = self.board().chess().clone();
        let replies = self.task.reps.side(side).moves(&pos).to_vec();
        let counts = moves_in(&mut self.task.collections, &pos).unwrap_or_default();
        let weight = |m: &Move| {
            1 + counts
                .moves
                .iter()
                .find(|x| x.mv == *m)
                .map_or(0, |x| x.stats.games())
        };
        let total: u64 = replies.iter().map(weight).sum();
        let mut pick = if total > 0 {
            self.task.rng.next_u64() % total
        } else {
            0
        };
        let chosen = replies.iter().find(|m| {
            let w = weight(m);
            if pick < w {
                true
            } else {
                pick -= w;
                false
            }
        });
        let at = crate::util::unix_now();
        let due_after = chosen.is_some_and(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            !self.task.reps.side(side).moves(&after).is_empty()
                && self.task.progress.due(side, &after) <= at
        });
        match chosen {
            Some(&m) if due_after => self.s.opponent.hold(m, now + REPLY_DELAY),
            _ => self.next_due(now),
        }
    }

    fn save_progress(&mut self) {
        if let Some(d) = &self.task.data {
            self.ui.effects.push(Effect::WriteFile {
                what: "your repertoire progress",
                path: Progress::path(d),
                contents: self.task.progress.to_json(),
            });
        }
    }
}
