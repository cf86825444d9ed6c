//! Bughouse over UCI: what Kibitz does at one board knowing its partner.
//!
//! UCI knows one board. A Bughouse arbiter that knows Kibitz (it lists the
//! option `BughousePartner`) may tell it more with these extra commands,
//! which other engines never receive:
//!
//! - `bughouse partner fen <FEN>`: the partner's board as it stands now
//!   (pockets included);
//! - `bughouse partner clock wtime <ms> btime <ms>`: the partner's board's
//!   clocks as they stand now (sent with the partner's board);
//! - `bughouse ptell <text>`: a message from the partner (`need N`, `sit`,
//!   `go`, `don't give Q`, `trade`, `no trades`...);
//! - `bughouse update fen <FEN>`: this board has changed while Kibitz is
//!   thinking (a piece arrived from the partner); the search starts again
//!   with it.
//!
//! Kibitz answers with `info string ptell <text>` lines, which the arbiter
//! passes to the partner.
//!
//! With partner awareness on (option `BughousePartner`, off by default:
//! between engine partners it measured no gain, see the CHANGELOG), after
//! each search Kibitz asks:
//! - which piece in hand would give it a quick mate: if one exists and the
//!   clock allows, it *sits* (waits for the piece, telling the partner
//!   `need N: mate with N@f7`) rather than play on; the wait is at most half
//!   of its lead on the clock, and shorter when the partner's board shows
//!   no capture of that piece coming;
//! - which piece would give the opponent a mate after its move: it asks the
//!   partner not to give it (`don't give Q`), or to `sit` when any piece
//!   would do; `go` once the danger is gone. It never asks a partner who
//!   is behind on time to sit (that loses on time): then it asks for no
//!   trades (`-trades`), and a sit it asked for ends (`go`) once the
//!   partner falls behind.
//!
//! The partner's wishes change the evaluation (see
//! [`crate::engine::partner::PartnerState`]), and a partner asking it to sit
//! makes it take its time. With `BughousePace human` it never moves faster
//! than a quick human player would (the earlier engine moved instantly,
//! which made games against it no fun).

use super::info::{InfoPrinter, Output};
use crate::engine::partner::{PartnerMsg, PartnerState, role_word};
use crate::engine::see;
use crate::engine::{
    Board, Bug, Clock, Engine, GamePosition, Limits, NoObserver, Score, SearchReport,
};
use shakmaty::{Color, Move, Position, Role};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How fast the engine moves in Bughouse.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Pace {
    /// As soon as the search is done.
    #[default]
    Instant,
    /// Never faster than a quick human (about 1-3 s a move while the clock
    /// allows).
    Human,
}

impl Pace {
    /// The name of the option value (`BughousePace`).
    pub const fn name(self) -> &'static str {
        match self {
            Pace::Instant => "instant",
            Pace::Human => "human",
        }
    }

    pub fn parse(s: &str) -> Option<Pace> {
        match s.trim().to_ascii_lowercase().as_str() {
            "instant" | "fast" => Some(Pace::Instant),
            "human" | "humanlike" | "human-like" => Some(Pace::Human),
            _ => None,
        }
    }
}

/// What the UCI session knows about the other board and the partner.
#[derive(Clone, Debug, Default)]
pub struct BughouseSide {
    /// Use the partner: wishes, sitting, messages.
    pub aware: bool,
    /// Wait on the clock: for a piece that mates, and when the partner
    /// asks us to sit (option `BughouseSit`).
    pub sit: bool,
    pub pace: Pace,
    pub partner: PartnerState,
    /// The partner's board (its side to move and pockets).
    pub partner_board: Option<Board<Bug>>,
    /// The partner's board's clocks (White's, Black's) when the arbiter
    /// sent them with it.
    pub partner_clock: Option<[Duration; 2]>,
    /// What we last asked the partner for (to say `go` when it is over,
    /// and not to repeat ourselves).
    pub asked: Vec<PartnerMsg>,
    /// Our turns in a row without a danger to warn of: a request is
    /// withdrawn only once the danger has stayed away (a warning and its
    /// withdrawal every other move are noise to a partner).
    pub calm: u8,
}

/// Quiet turns before "go" after a "sit" we asked for.
const CALM_BEFORE_GO: u8 = 1;
/// Quiet turns before "x" (forget it) after a "--q" we asked for.
const CALM_BEFORE_CANCEL: u8 = 3;

/// Shared between the session and a running Bughouse search.
#[derive(Default)]
pub struct Live {
    /// A new version of this board (a piece arrived).
    pub update: Mutex<Option<Board<Bug>>>,
    /// Messages from the partner that arrived during the search.
    pub messages: Mutex<Vec<PartnerMsg>>,
    /// Set by the session when something above arrived.
    pub poke: AtomicBool,
    /// Stops the running search (set with `poke`, and by the GUI's `stop`);
    /// the GUI's `stop` also sets the session's own flag, which ends the
    /// whole `go`.
    pub search_stop: AtomicBool,
}

/// Nodes for each "what if I had this piece" search, at most. Each gets
/// 1/64 of the nodes the move's own search used (ten of them: about 15% on
/// top), and no more than one node per millisecond left on the clock. The
/// first version gave each 4 nodes per millisecond left, which cost about
/// as much time as the move itself and lost 7/20 against the same engine
/// without the partner at 1+0.
const ADVICE_NODES: u64 = 25_000;
const ADVICE_SHARE: u64 = 64;
const ADVICE_MIN_NODES: u64 = 500;
/// The advice searches look for mates this deep (plies).
const ADVICE_DEPTH: i32 = 5;

const ROLES: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// What the advice searches found.
#[derive(Clone, Debug, Default)]
pub struct Advice {
    /// A piece that would give us a mate, with the first move of it.
    pub need: Option<(Role, Move)>,
    /// Pieces that would give the opponent a mate after our move.
    pub threats: Vec<Role>,
}

/// `board` with one more `role` in `color`'s hand.
fn with_piece(board: &Board<Bug>, color: Color, role: Role) -> Option<Board<Bug>> {
    let mut setup = board.pos().to_setup(shakmaty::EnPassantMode::Always);
    let pockets = setup.pockets.get_or_insert_with(Default::default);
    *pockets.get_mut(color).get_mut(role) += 1;
    let pos =
        <Bug as crate::engine::Variant>::from_setup(setup, board.pos().castles().mode()).ok()?;
    Some(Board::with_extra(pos, *board.extra()))
}

fn quick(engine: &mut Engine, board: &Board<Bug>, nodes: u64, stop: &AtomicBool) -> SearchReport {
    let limits = Limits {
        depth: Some(ADVICE_DEPTH),
        nodes: Some(nodes),
        ..Limits::default()
    };
    engine.search(
        &GamePosition::new(board.clone()),
        &limits,
        stop,
        &mut NoObserver,
    )
}

/// Which piece would mate for us, which would mate for them after `mv`.
pub fn advise(
    engine: &mut Engine,
    board: &Board<Bug>,
    mv: Option<Move>,
    nodes: u64,
    ask: bool,
    stop: &AtomicBool,
) -> Advice {
    let us = board.turn();
    let mut advice = Advice::default();
    let quick = |engine: &mut Engine, b: &Board<Bug>| quick(engine, b, nodes, stop);
    // Cheapest piece first: a pawn or knight is easier to get than a queen.
    let asks: &[Role] = if ask { &ROLES } else { &[] };
    for &role in asks {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let Some(b) = with_piece(board, us, role) else {
            continue;
        };
        let r = quick(engine, &b);
        if r.result.score.is_mate()
            && r.result.score > Score::ZERO
            && let Some(m) = r.best_move
        {
            advice.need = Some((role, m));
            break;
        }
    }
    if let Some(m) = mv {
        let after = board.play(m);
        for role in ROLES {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            // A piece they already hold is in the search already.
            if *after.pocket(!us).get(role) > 0 {
                continue;
            }
            let Some(b) = with_piece(&after, !us, role) else {
                continue;
            };
            let r = quick(engine, &b);
            if r.result.score.is_mate() && r.result.score > Score::ZERO {
                advice.threats.push(role);
            }
        }
    }
    advice
}

/// Can our partner take a piece of `role` on their board soon? (A capture
/// of that role that does not lose material, for the side to move there
/// when it is our partner.) `partner_color`: the colour our partner plays
/// there (the opposite of ours).
pub fn partner_can_win(partner_board: &Board<Bug>, partner_color: Color, role: Role) -> bool {
    let pos = partner_board.pos();
    let theirs = pos.board().by_color(!partner_color) & pos.board().by_role(role);
    if theirs.is_empty() {
        return false;
    }
    if partner_board.turn() == partner_color {
        pos.legal_moves()
            .iter()
            .any(|m| m.capture() == Some(role) && see::see_ge(pos, *m, 0))
    } else {
        // The opponent moves first there: a piece of that role attacked by
        // our partner is a fair chance.
        theirs.into_iter().any(|sq| {
            pos.board()
                .attacks_to(sq, partner_color, pos.board().occupied())
                .any()
        })
    }
}

/// The milliseconds a side has on a clock.
fn time_of(clock: &Option<Clock>, color: Color) -> Option<Duration> {
    let c = clock.as_ref()?;
    match color {
        Color::White => c.wtime,
        Color::Black => c.btime,
    }
}

/// One `go` in Bughouse: search, advise, maybe sit, keep the human pace,
/// tell the partner; print `bestmove`. Returns the engine.
#[allow(clippy::too_many_arguments)]
pub fn run(
    mut engine: Engine,
    mut pos: GamePosition<Bug>,
    limits: Limits,
    stop: Arc<AtomicBool>,
    done: Arc<AtomicBool>,
    out: Output,
    mut side: BughouseSide,
    live: Arc<Live>,
) -> (Engine, BughouseSide) {
    let started = Instant::now();
    let us = pos.current().turn();
    let my_time = time_of(&limits.clock, us);
    let their_time = time_of(&limits.clock, !us);
    let lead = match (my_time, their_time) {
        (Some(a), Some(b)) => a.saturating_sub(b),
        _ => Duration::ZERO,
    };
    let turn = Turn {
        us,
        my_time,
        lead,
        out: &out,
        stop: &stop,
        live: &live,
    };
    let mut report;
    let mut sat = Duration::ZERO;
    loop {
        turn.take_news(&mut side, &mut pos);
        engine.set_partner_tweaks(if side.aware {
            side.partner.tweaks(us)
        } else {
            Default::default()
        });
        let mut printer = InfoPrinter::new(out.clone());
        report = engine.search(&pos, &limits, &live.search_stop, &mut printer);
        if stop.load(Ordering::SeqCst) {
            break;
        }
        if live.search_stop.load(Ordering::SeqCst) && live.poke.load(Ordering::SeqCst) {
            // Stopped for news (a piece arrived), not by the GUI: again.
            live.search_stop.store(false, Ordering::SeqCst);
            continue;
        }
        if !side.aware || my_time.is_none() {
            break;
        }
        let board = pos.current().clone();
        // Already mating: no piece to ask for, only warnings to give.
        let mating = report.result.score.is_mate() && report.result.score > Score::ZERO;
        let advice = turn.advise(&mut engine, &board, &report, !mating);
        turn.warn_partner(&mut side, &advice.threats);
        // Sit for a piece that mates, when we are not mating anyway and the
        // clock allows.
        if let Some(need) = advice.need
            && !mating
            && turn.sit_for(&mut side, &board, need, &mut sat)
        {
            continue; // the piece (or news) arrived: think again
        }
        break;
    }
    turn.wait_while_partner_sits(&mut side);
    turn.keep_human_pace(&side, started);
    if report.best_move.is_some() {
        side.partner.moved();
    }
    done.store(true, Ordering::SeqCst);
    match report.best_move {
        Some(m) => out.line(&format!("bestmove {}", Board::uci(m))),
        None => out.line("bestmove 0000"),
    }
    (engine, side)
}

/// Whether our partner (on the other board, playing the colour opposite to
/// `us`) can afford to sit by its clocks (`[White, Black]`); with no
/// clocks known, yes.
fn partner_may_sit(clock: Option<[Duration; 2]>, us: Color) -> bool {
    let Some([white, black]) = clock else {
        return true;
    };
    let (partner, opponent) = match us {
        Color::White => (black, white),
        Color::Black => (white, black),
    };
    crate::engine::partner::may_sit(partner, opponent)
}

/// What to ask the partner, given the pieces that would mate us: not to
/// give each (`--q`); when three or more would, to sit, or where the
/// partner cannot afford to sit, to trade nothing (`-trades`).
fn warnings(threats: &[Role], partner_may_sit: bool) -> Vec<PartnerMsg> {
    match threats.len() {
        0..=2 => threats.iter().map(|&r| PartnerMsg::DontGive(r)).collect(),
        _ if partner_may_sit => vec![PartnerMsg::Sit],
        _ => vec![PartnerMsg::NoTrades],
    }
}

/// What one Bughouse `go` works with from start to end.
struct Turn<'a> {
    /// The side we play.
    us: Color,
    /// Our time left when the `go` came, if there is a clock.
    my_time: Option<Duration>,
    /// How far our clock was ahead of the opponent's.
    lead: Duration,
    out: &'a Output,
    /// Ends the whole `go` (the GUI's `stop`).
    stop: &'a AtomicBool,
    live: &'a Live,
}

impl Turn<'_> {
    fn ptell(&self, m: &PartnerMsg) {
        self.out.line(&format!("info string ptell {m}"));
    }

    /// Takes the partner's messages and the new board that came in
    /// meanwhile.
    fn take_news(&self, side: &mut BughouseSide, pos: &mut GamePosition<Bug>) {
        let live = self.live;
        let msgs: Vec<PartnerMsg> = live
            .messages
            .lock()
            .map(|mut m| std::mem::take(&mut *m))
            .unwrap_or_default();
        for m in &msgs {
            side.partner.receive(m);
        }
        if let Some(b) = live.update.lock().ok().and_then(|mut u| u.take()) {
            *pos = GamePosition::new(b);
        }
        live.poke.store(false, Ordering::SeqCst);
    }

    /// The advice searches after the move search that gave `report`
    /// (`ask`: also look for a piece that would mate for us).
    fn advise(
        &self,
        engine: &mut Engine,
        board: &Board<Bug>,
        report: &SearchReport,
        ask: bool,
    ) -> Advice {
        let by_time = self.my_time.map_or(ADVICE_NODES, |t| t.as_millis() as u64);
        let nodes = (report.result.stats.nodes / ADVICE_SHARE)
            .min(by_time)
            .clamp(ADVICE_MIN_NODES, ADVICE_NODES);
        advise(
            engine,
            board,
            report.best_move,
            nodes,
            ask,
            &self.live.search_stop,
        )
    }

    /// Warns the partner about pieces that would mate us (`threats`): names
    /// them (`--q`), or asks the partner to sit when almost any piece would.
    /// A request stands until the danger has stayed away for a while: then
    /// `go` ends a sit, and `x` the warnings. Nothing is said twice.
    fn warn_partner(&self, side: &mut BughouseSide, threats: &[Role]) {
        let may_sit = partner_may_sit(side.partner_clock, self.us);
        let warnings = warnings(threats, may_sit);
        // A sit we asked for ends once the partner cannot afford it.
        if !may_sit && side.asked.contains(&PartnerMsg::Sit) {
            self.ptell(&PartnerMsg::Go);
            side.asked.retain(|a| *a != PartnerMsg::Sit);
        }
        if warnings.is_empty() {
            side.calm = side.calm.saturating_add(1);
        } else {
            side.calm = 0;
        }
        for w in &warnings {
            if !side.asked.contains(w) {
                self.ptell(w);
                side.asked.push(w.clone());
            }
        }
        if !warnings.is_empty() {
            return;
        }
        let sat = side.asked.contains(&PartnerMsg::Sit);
        let warned = side
            .asked
            .iter()
            .any(|a| matches!(a, PartnerMsg::DontGive(_) | PartnerMsg::NoTrades));
        if sat && side.calm >= CALM_BEFORE_GO {
            self.ptell(&PartnerMsg::Go);
            side.asked.retain(|a| *a != PartnerMsg::Sit);
        }
        if warned && side.calm >= CALM_BEFORE_CANCEL {
            self.ptell(&PartnerMsg::Cancel);
            side.asked
                .retain(|a| !matches!(a, PartnerMsg::DontGive(_) | PartnerMsg::NoTrades));
        }
    }

    /// Sits for the piece that mates (`need`: its role and the mate's
    /// first move) when sitting is on and the clock allows, asking the
    /// partner for it; `sat` is the time sat so far in this `go`. True
    /// when something arrived meanwhile: the search is to start again.
    fn sit_for(
        &self,
        side: &mut BughouseSide,
        board: &Board<Bug>,
        (role, mate_move): (Role, Move),
        sat: &mut Duration,
    ) -> bool {
        let (live, stop) = (self.live, self.stop);
        let clock_allows = self.lead > Duration::from_secs(2)
            && self.my_time.is_some_and(|t| t > Duration::from_secs(8));
        if !(side.sit && clock_allows) {
            return false;
        }
        let coming = side
            .partner_board
            .as_ref()
            .is_some_and(|pb| partner_can_win(pb, !self.us, role));
        let budget = (self.lead / 2)
            .min(Duration::from_secs(if coming { 12 } else { 4 }))
            .saturating_sub(*sat);
        if budget <= Duration::from_millis(200) {
            return false;
        }
        let msg = PartnerMsg::Need(
            role,
            Some(format!(
                "mate with {}",
                board_after_san(board, role, mate_move)
            )),
        );
        if !side.asked.contains(&msg) {
            self.ptell(&msg);
            side.asked.push(msg);
        }
        self.out.line(&format!(
            "info string sitting: waiting up to {} ms for a {}",
            budget.as_millis(),
            role_word(role)
        ));
        let t0 = Instant::now();
        while t0.elapsed() < budget && !stop.load(Ordering::SeqCst) {
            if live.poke.load(Ordering::SeqCst) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        *sat += t0.elapsed();
        if live.poke.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst) {
            live.search_stop.store(false, Ordering::SeqCst);
            return true;
        }
        false
    }

    /// The partner asked us to sit: take our time (half our lead, 5 s at
    /// most), until the partner says `go`.
    fn wait_while_partner_sits(&self, side: &mut BughouseSide) {
        let stop = self.stop;
        if !(side.aware && side.sit && side.partner.sit && !stop.load(Ordering::SeqCst)) {
            return;
        }
        let extra = (self.lead / 2).min(Duration::from_secs(5));
        let t0 = Instant::now();
        while t0.elapsed() < extra && !stop.load(Ordering::SeqCst) {
            if let Ok(mut m) = self.live.messages.lock()
                && m.contains(&PartnerMsg::Go)
            {
                for x in m.drain(..) {
                    side.partner.receive(&x);
                }
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// With the human pace, not before a quick human would move (a 60th of
    /// the clock, 0.7 to 3 s, when more than 10 s are left).
    fn keep_human_pace(&self, side: &BughouseSide, started: Instant) {
        if side.pace == Pace::Human
            && let Some(t) = self.my_time
            && t > Duration::from_secs(10)
        {
            let target = (t / 60).clamp(Duration::from_millis(700), Duration::from_millis(3000));
            while started.elapsed() < target && !self.stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

/// The drop in SAN (`N@f7`), or the move as UCI.
fn board_after_san(board: &Board<Bug>, role: Role, m: Move) -> String {
    match with_piece(board, board.turn(), role) {
        Some(b) => b.san(m),
        None => Board::uci(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partner_behind_on_time_is_never_asked_to_sit() {
        let s = Duration::from_secs;
        // We play White on our board; the partner Black on the other. Its
        // 19 s against its opponent's 86 s (issue 50): no sitting.
        assert!(!partner_may_sit(Some([s(86), s(19)]), Color::White));
        assert!(partner_may_sit(Some([s(19), s(86)]), Color::White));
        // We play Black: the partner is White there.
        assert!(partner_may_sit(Some([s(86), s(19)]), Color::Black));
        // Ahead but short itself: no.
        assert!(!partner_may_sit(Some([s(5), s(1)]), Color::Black));
        // No clocks known (an arbiter that does not send them): as before.
        assert!(partner_may_sit(None, Color::White));
        let many = [Role::Queen, Role::Rook, Role::Knight];
        assert_eq!(warnings(&many, true), [PartnerMsg::Sit]);
        assert_eq!(warnings(&many, false), [PartnerMsg::NoTrades]);
        assert_eq!(
            warnings(&many[..2], false),
            [
                PartnerMsg::DontGive(Role::Queen),
                PartnerMsg::DontGive(Role::Rook)
            ]
        );
        assert!(warnings(&[], true).is_empty());
    }
}
