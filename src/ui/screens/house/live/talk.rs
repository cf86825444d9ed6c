//! What the partners ask of each other: a sit or a hurry that changes a
//! seat's pace, and the standing requests, kept until met, withdrawn or
//! lapsed, and listed for the screen.

use super::*;
use crate::engine::partner::PartnerMsg as M;

/// What the partners asked of each other.
#[derive(Clone, Debug, Default)]
pub(super) struct Partners {
    /// By seat: its partner asked it to sit (wait to move) / to move fast.
    sitting: [bool; 4],
    hurry: [bool; 4],
    /// The standing requests: who asked, what, and the moves played on
    /// both boards then (a "need" lapses).
    requests: Vec<(usize, M, usize)>,
}

impl Partners {
    /// The seat at `partner` heard `msg` from its partner: a sit, a go or
    /// a hurry changes its pace.
    pub(super) fn heard(&mut self, partner: usize, msg: &M) {
        match msg {
            M::Sit => self.sitting[partner] = true,
            M::Go => self.sitting[partner] = false,
            M::Fast | M::Flag => {
                self.hurry[partner] = true;
                self.sitting[partner] = false;
            }
            M::Slow => self.hurry[partner] = false,
            _ => {}
        }
    }

    /// The seat is asked to wait before it moves.
    pub(super) fn sits(&self, seat: usize) -> bool {
        self.sitting[seat]
    }

    /// The seat is asked to move at once.
    pub(super) fn hurries(&self, seat: usize) -> bool {
        self.hurry[seat]
    }

    /// A piece of `role` reached `partner`: its need of one is met.
    pub(super) fn need_met(&mut self, partner: usize, role: shakmaty::Role) {
        self.requests
            .retain(|r| !(r.0 == partner && matches!(r.1, M::Need(need, _) if need == role)));
    }

    /// Keeps `msg` from `from` (`played`: the moves on both boards now) in
    /// the standing requests: a new request replaces the same one, `go`
    /// ends a sit, `x` the wishes, `slow` a hurry. Whether `msg` is a
    /// request (not free text).
    pub(super) fn stand(&mut self, from: usize, msg: M, played: usize) -> bool {
        let mine = |r: &(usize, M, usize)| r.0 == from;
        match &msg {
            M::Text(_) => return false,
            M::Go => self.requests.retain(|r| !(mine(r) && r.1 == M::Sit)),
            M::Cancel => self.requests.retain(|r| {
                !(mine(r) && matches!(r.1, M::Need(..) | M::DontGive(_) | M::Trade | M::NoTrades))
            }),
            M::Slow => self
                .requests
                .retain(|r| !(mine(r) && matches!(r.1, M::Fast | M::Flag))),
            _ => {
                self.requests.retain(|r| {
                    !(mine(r)
                        && match (&r.1, &msg) {
                            (M::Need(a, _), M::Need(b, _)) => a == b,
                            (M::Trade | M::NoTrades, M::Trade | M::NoTrades) => true,
                            (a, b) => a == b,
                        })
                });
                self.requests.push((from, msg, played));
            }
        }
        true
    }
}

impl Live {
    /// Whether the person playing hears what the player at `seat` tells
    /// a partner: a team's messages are its own, as on a chess server
    /// (with no single person at the table, all are shown).
    pub fn hears(&self, seat: usize) -> bool {
        let team = |s: usize| {
            let (b, c) = seat_of(s);
            (b == 0) == (c == Color::White)
        };
        self.person().is_none_or(|you| team(you) == team(seat))
    }

    /// The partners' standing requests by who asked, each in the FICS
    /// shorthand and in words: ("You (White, A)", [("++n", "needs a
    /// knight")]).
    pub fn standing(&self) -> Vec<(String, Vec<(String, String)>)> {
        let played = self.moves_played();
        let mut out: Vec<(String, Vec<(String, String)>)> = Vec::new();
        for (from, msg, at) in &self.partners.requests {
            if !self.hears(*from) {
                continue;
            }
            if matches!(msg, M::Need(..)) && played >= at + NEED_LAPSES {
                continue;
            }
            let (b, c) = seat_of(*from);
            let who = self.seat_name(b, c);
            let what = (msg.to_string(), request_words(msg));
            match out.iter_mut().find(|(w, _)| *w == who) {
                Some((_, list)) => list.push(what),
                None => out.push((who, vec![what])),
            }
        }
        out
    }
}

/// A standing request as the Partners box says it after "You ask:" or
/// "Partner asks:": "a knight" for a need ("asks: needs a knight" said it
/// twice), else the message's own words.
fn request_words(msg: &M) -> String {
    match msg {
        M::Need(r, None) => format!("a {}", super::super::role_word(*r)),
        M::Need(r, Some(why)) => format!("a {} ({why})", super::super::role_word(*r)),
        m => m.describe(),
    }
}
