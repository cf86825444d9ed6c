//! A Crazyhouse or Bughouse game on its screen: started, resumed or
//! offered, its engines' work handed to the runtime and their news taken
//! in, its clocks ticking.

use super::*;
use crate::ui::screens::house::live::{Live, LiveSetup, Player, seat_of};

impl House<'_> {
    /// Starts a Crazyhouse or Bughouse game on this screen.
    pub(crate) fn start_live(&mut self, setup: LiveSetup, now: Instant) {
        let humans = setup
            .players
            .iter()
            .flatten()
            .filter(|p| **p == Player::Human)
            .count();
        let mut n = 0;
        let names: Vec<[String; 2]> = setup
            .players
            .iter()
            .map(|pair| {
                pair.clone().map(|p| match p {
                    Player::Human => {
                        n += 1;
                        if humans > 1 {
                            format!("Player {n}")
                        } else {
                            "You".to_string()
                        }
                    }
                    Player::Engine(spec) => spec.describe(),
                })
            })
            .collect();
        let live = Live::new(setup, names, now);
        let path = self.ui.reserve_save_path("", live.extension(), &[]);
        self.begin_live(live, GameFile::new(path), now);
        self.say_live_start();
    }

    /// Shows `live` (saved to `file`) and hands its first jobs to the
    /// runtime.
    pub(crate) fn begin_live(&mut self, mut live: Live, file: GameFile, now: Instant) {
        live.pace = self.ui.config.engine_pace;
        let first_human = live.human_seats().first().copied();
        let mut h = crate::ui::screens::house::HouseReplay::following(&live);
        if let Some(s) = first_human {
            let (b, c) = seat_of(s);
            h.main = b;
            // The person's colour at the bottom of their board.
            h.flipped = if b == 0 {
                c == Color::Black
            } else {
                c == Color::White
            };
            self.s.pick.cursor = if c == Color::White {
                Square::E2
            } else {
                Square::E7
            };
        }
        self.s.file = file;
        self.s.table = self.ui.new_id();
        live.watched = h.main;
        self.s.live = Some(Box::new(live));
        self.s.house = Some(Box::new(h));
        self.ui.overlay = Overlay::None;
        self.ui.status = None;
        self.flush_live(now);
    }

    pub(super) fn say_live_start(&mut self) {
        let first_human = self
            .s
            .live
            .as_deref()
            .and_then(|l| l.human_seats().first().copied());
        let text = match self.s.live.as_deref() {
            Some(l) if l.boards() == 2 => match first_human {
                Some(s) => {
                    let (b, c) = seat_of(s);
                    let side = |c: Color| if c == Color::White { "White" } else { "Black" };
                    let board = |b: usize| if b == 0 { 'A' } else { 'B' };
                    let partner = l
                        .player_name(1 - b, !c)
                        .map_or(String::new(), |n| format!(", {n},"));
                    format!(
                        "Bughouse: you play {} on board {}; your partner{partner} plays {} on {}. \
                         Type moves (e4, N@f3) or pick them; m sends a message.",
                        side(c),
                        board(b),
                        side(!c),
                        board(1 - b)
                    )
                }
                None => "Bughouse: four engines play; q quits.".to_string(),
            },
            _ => "Crazyhouse: captured pieces go to your hand; drop them with N@f3 (or pick them from the pocket).".to_string(),
        };
        self.ui.info(text);
    }

    /// Hands the live game's engine work to the runtime, shows its news,
    /// follows its moves on screen and saves the record after each.
    pub(super) fn flush_live(&mut self, now: Instant) {
        let Some(h) = self.s.house.as_deref_mut() else {
            return;
        };
        let Some(l) = self.s.live.as_deref_mut() else {
            return;
        };
        let jobs = std::mem::take(&mut l.jobs);
        let news = std::mem::take(&mut l.news);
        // A fresh hint is picked up ready to play: Enter plays it.
        if let Some((hb, m, played)) = l.assistant.hint.take()
            && played == l.board_ply(hb)
            && l.board(hb).is_legal(m)
        {
            match m {
                Move::Put { role, to } => {
                    self.s.pick.drop = Some(role);
                    self.s.pick.selected = None;
                    self.s.pick.cursor = to;
                }
                _ => {
                    self.s.pick.drop = None;
                    self.s.pick.selected = m.from();
                    self.s.pick.cursor = shown_to(m);
                }
            }
            self.s.pick.in_pocket = false;
        }
        let moved = l.moves_played() != h.cursor;
        let ended = l.ending.clone();
        let text = l.save_text();
        let played = l.moves_played() > 0;
        // The show follows the game (moves, messages, the end).
        h.refresh(l, now);
        if moved {
            self.s.pick.selected = None;
            self.s.pick.drop = None;
        }
        for j in jobs {
            self.ui.effects.push(Effect::Engine {
                table: self.s.table,
                job: j,
            });
        }
        if let Some(n) = news.last() {
            self.ui.info(n.clone());
        }
        if moved || ended.is_some() {
            self.s.file.save(&mut self.ui.effects, played, || text);
        }
        if let Some(e) = ended
            && moved | news.is_empty()
        {
            self.ui.info(format!("{e}. n starts a new game, q quits."));
        }
    }

    /// An engine of the live game said something.
    pub(super) fn on_engine(&mut self, seat: usize, report: Report, now: Instant) {
        if let Some(l) = self.s.live.as_deref_mut() {
            l.engine_news(seat, report, now);
        }
        self.flush_live(now);
    }

    pub(super) fn live_tick(&mut self, now: Instant) {
        if let Some(h) = self.s.house.as_deref_mut() {
            h.tick(now);
            if let Some(l) = self.s.live.as_deref_mut() {
                let over = l.is_over();
                let played = l.moves_played();
                l.tick(now);
                // A flag, or an engine's held move played (the next
                // engine is asked, the game saved).
                if (!over && l.is_over()) || l.moves_played() != played || !l.jobs.is_empty() {
                    self.flush_live(now);
                }
            }
        }
    }
}
