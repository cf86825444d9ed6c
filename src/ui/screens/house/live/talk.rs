//! The partners' standing requests: kept until met, withdrawn or lapsed,
//! and listed for the screen.

use super::*;

impl Live {
    /// Keeps `msg` from `from` in the standing requests: a new request
    /// replaces the same one, `go` ends a sit, `x` the wishes, `slow` a
    /// hurry. Whether `msg` is a request (not free text).
    pub(super) fn stand(&mut self, from: usize, msg: crate::engine::partner::PartnerMsg) -> bool {
        use crate::engine::partner::PartnerMsg as M;
        let played = self.moves_played();
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

    /// The partners' standing requests by who asked, each in the FICS
    /// shorthand and in words: ("You (White, A)", [("++n", "needs a
    /// knight")]).
    pub fn standing(&self) -> Vec<(String, Vec<(String, String)>)> {
        let played = self.moves_played();
        let mut out: Vec<(String, Vec<(String, String)>)> = Vec::new();
        for (from, msg, at) in &self.requests {
            if matches!(msg, crate::engine::partner::PartnerMsg::Need(..))
                && played >= at + NEED_LAPSES
            {
                continue;
            }
            let (b, c) = seat_of(*from);
            let who = self.seat_name(b, c);
            let what = (msg.to_string(), msg.describe());
            match out.iter_mut().find(|(w, _)| *w == who) {
                Some((_, list)) => list.push(what),
                None => out.push((who, vec![what])),
            }
        }
        out
    }
}
