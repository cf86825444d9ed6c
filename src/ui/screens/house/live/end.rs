//! How a game in play ends, and how a move is taken back: clocks ticking
//! and flags falling, checkmate and the other ends on either board,
//! resignation, an engine that fails, and the words said.

use super::*;

impl Live {
    /// Time passes: flags fall; engines due to move are asked.
    pub fn tick(&mut self, now: Instant) {
        if self.is_over() {
            return;
        }
        self.play_held(now);
        if self.is_over() || self.time.is_none() {
            return;
        }
        for b in 0..self.boards() {
            let c = self.board(b).turn();
            if self.remaining(b, c, now) == Some(Duration::ZERO) {
                self.flag(b, c, now);
                return;
            }
        }
    }

    pub(super) fn flag(&mut self, b: usize, c: Color, now: Instant) {
        let text = format!("{} lost on time", self.seat_name(b, c));
        self.freeze(now);
        match &mut self.record {
            Record::Zh(g) => {
                g.ending = Some(Ending {
                    result: GameResult::win_for(!c),
                    termination: Termination::TimeForfeit,
                });
            }
            Record::Bug(g) => g.flag(Seat::new(board_id(b), c)),
        }
        self.end(text);
    }

    /// Stops every clock where it stands.
    pub(super) fn freeze(&mut self, now: Instant) {
        for c in &mut self.clocks {
            c.pause(now);
        }
    }

    pub(super) fn end(&mut self, text: String) {
        // Said from the person's side when one plays: "you win".
        let said = |won: Option<bool>, plain: String| match won {
            Some(true) => format!("you win ({plain})"),
            Some(false) => format!("you lose ({plain})"),
            None => plain,
        };
        let team = match &self.record {
            Record::Bug(g) => g.ending.map(|e| match e.result {
                crate::bughouse::BugResult::TeamOneWins => said(
                    self.person_won(true),
                    "team 1 (White A + Black B) wins".to_string(),
                ),
                crate::bughouse::BugResult::TeamTwoWins => said(
                    self.person_won(false),
                    "team 2 (Black A + White B) wins".to_string(),
                ),
                crate::bughouse::BugResult::Draw => "drawn".to_string(),
            }),
            Record::Zh(g) => g.ending.map(|e| match e.result {
                // In Crazyhouse "team 1" is White.
                GameResult::WhiteWins => said(self.person_won(true), "White wins".to_string()),
                GameResult::BlackWins => said(self.person_won(false), "Black wins".to_string()),
                GameResult::Draw => "drawn".to_string(),
            }),
        };
        self.ending = Some(match team {
            Some(t) => format!("{text}: {t}"),
            None => text,
        });
        for s in 0..4 {
            if self.asked[s].take().is_some() {
                self.jobs.push(EngineJob::Stop { seat: s });
            }
        }
        self.jobs.push(EngineJob::QuitAll);
    }

    pub(super) fn check_end(&mut self, b: usize, now: Instant) {
        match &mut self.record {
            Record::Zh(g) => {
                if let Some(e) = g.rule_ending(false) {
                    g.ending = Some(e);
                    let text = capitalise(e.termination.describe());
                    self.freeze(now);
                    self.end(text);
                }
            }
            Record::Bug(g) => {
                if let Some(e) = g.ending {
                    let text = match e.loser {
                        Some(l) => {
                            format!("{} is checkmated", self.seat_name(l.board.index(), l.color))
                        }
                        None => "Drawn".into(),
                    };
                    let _ = b;
                    self.freeze(now);
                    self.end(text);
                }
            }
        }
    }

    pub(super) fn lose(
        &mut self,
        seat: usize,
        zh: Termination,
        bug: BugTermination,
        text: String,
        now: Instant,
    ) {
        if self.is_over() {
            return;
        }
        let (b, c) = seat_of(seat);
        self.freeze(now);
        match &mut self.record {
            Record::Zh(g) => {
                g.ending = Some(Ending {
                    result: GameResult::win_for(!c),
                    termination: zh,
                });
            }
            Record::Bug(g) => g.finish(BugEnding::lost(Seat::new(board_id(b), c), bug)),
        }
        self.end(text);
    }

    /// The person at `seat` resigns (for the team in Bughouse).
    pub fn resign(&mut self, seat: usize, now: Instant) {
        let (b, c) = seat_of(seat);
        let text = format!("{} resigned", self.seat_name(b, c));
        self.lose(
            seat,
            Termination::Resignation,
            BugTermination::Resignation,
            text,
            now,
        );
    }

    /// Takes back the last move of the person at `seat` (and the engine's
    /// reply): Crazyhouse only.
    pub fn takeback(&mut self, seat: usize, now: Instant) -> Result<(), String> {
        // A finished game keeps its result.
        if let Some(e) = &self.ending {
            return Err(format!("The game is over ({e}). n starts a new game."));
        }
        let Record::Zh(g) = &mut self.record else {
            return Err("There are no takebacks in Bughouse: the other board plays on.".into());
        };
        let (_, c) = seat_of(seat);
        let plies = g.moves().len();
        let Some(back) = crate::ui::seats::takeback_plies(plies, g.start().turn(), c) else {
            return Err("Nothing to take back yet.".into());
        };
        let keep = plies - back;
        while g.moves().len() > keep {
            g.pop();
        }
        self.clocks[0].back_to(keep);
        self.ending = None;
        for s in 0..2 {
            if self.asked[s].take().is_some() {
                self.jobs.push(EngineJob::Stop { seat: s });
            }
            self.held[s] = None;
        }
        let turn = self.board(0).turn();
        self.clocks[0].start(turn, now);
        self.ask_engines(now);
        Ok(())
    }
}
