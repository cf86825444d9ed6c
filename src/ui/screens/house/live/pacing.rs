//! Engine seats that take a player's time: their moves held until due
//! (see [`crate::ui::pace`]), a partner's sit honoured while the clock
//! allows.

use super::*;
use crate::ui::pace::{PartnerClocks, may_sit};
use crate::ui::seats::engine_due;

impl Live {
    /// When the engine at `seat` should play a move it has found: at once
    /// (fast pace, no clock, asked to hurry), or when a player of its level
    /// would have moved (see [`crate::ui::pace`]).
    fn due(&mut self, seat: usize, now: Instant) -> Option<Instant> {
        if self.time.is_none() || self.pace == Pace::Fast || self.partners.hurries(seat) {
            return None;
        }
        let (b, c) = seat_of(seat);
        let partner = (self.boards() == 2).then(|| PartnerClocks {
            left: self.remaining(1 - b, !c, now).unwrap_or_default(),
            opponent: self.remaining(1 - b, c, now).unwrap_or_default(),
        });
        let player = self.player(b, c).clone();
        let moves_made = self.board_ply(b) / 2;
        engine_due(
            &self.clocks[b],
            c,
            &player,
            moves_made,
            partner,
            &mut self.rng,
            now,
        )
    }

    /// Plays the engines' held moves that are due (a seat asked to sit
    /// keeps its move while its clock allows).
    pub(super) fn play_held(&mut self, now: Instant) {
        for seat in 0..4 {
            let Some((m, due)) = self.held[seat] else {
                continue;
            };
            let (b, c) = seat_of(seat);
            if b >= self.boards() || now < due || self.is_over() {
                continue;
            }
            if self.partners.sits(seat)
                && let (Some(left), Some(opp)) =
                    (self.remaining(b, c, now), self.remaining(b, !c, now))
                && may_sit(left, opp)
            {
                continue;
            }
            self.held[seat] = None;
            if self.board(b).turn() != c || !self.board(b).is_legal(m) {
                // The board changed under it: think again.
                self.ask_engines(now);
                continue;
            }
            if let Err(e) = self.play(b, m, now) {
                self.news.push(e);
            }
        }
    }

    /// An engine's move: played now, or held until it is due.
    pub(super) fn engine_move(&mut self, seat: usize, m: Move, now: Instant) {
        let (b, _) = seat_of(seat);
        let due = self.due(seat, now);
        if due.is_some() || self.partners.sits(seat) {
            self.held[seat] = Some((m, due.unwrap_or(now)));
            self.play_held(now);
        } else if let Err(e) = self.play(b, m, now) {
            self.news.push(e);
        }
    }

    /// Whether the engine at `seat` has its move ready and waits to play it.
    pub fn holding(&self, seat: usize) -> bool {
        self.held.get(seat).is_some_and(|h| h.is_some())
    }
}
