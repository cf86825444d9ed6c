//! Four-engine Bughouse games in real time.
//!
//! Two teams of two engines: UCI engines that speak `UCI_Variant
//! bughouse` (Kibitz itself or another), or XBoard engines (`xboard:CMD`,
//! such as Sjeng), which get `variant bughouse`, their pieces in hand as
//! `holding` before every move and whenever their hand changes, and their
//! partner's messages as `ptell`, as on a chess server. Both boards run at once, each on
//! its own thread, with real clocks: the side to move's clock runs from the
//! moment the previous move on that board was made until its `bestmove`
//! arrives. Before every `go` the engine gets the board as a FEN with both
//! hands (so pieces its partner sent are there). A capture goes to the
//! partner's hand at once; an engine that knows Kibitz's partner commands
//! (it lists the option `BughousePartner`) is also told when its hand
//! changes while it thinks (`bughouse update`), sees its partner's board
//! (`bughouse partner`) and gets its partner's messages (`bughouse ptell`),
//! which every engine may send as `info string ptell <text>`.
//!
//! A player with no legal move who is not mated (a check a drop could
//! block) waits, its clock running, until a piece arrives. The game ends
//! when either board ends: mate, flag, an illegal move or a crashed or
//! silent engine (a loss for that team), or the move limit (a draw).
//! Seats alternate: in even games team 1 has White on board A and Black
//! on board B, in odd games the other two seats. Every game is appended to
//! the BPGN file as soon as it ends.

use super::runner::{self, Engines, GameRecord, MatchEnding, Round};
use super::stats::Wdl;
use super::{MoveLimits, TimeControl};
use crate::bughouse::bpgn::write_bpgn;
use crate::bughouse::{BoardId, BugEnding, BugTermination, BughouseGame, Seat, Team};
use crate::uci::client::{GoResult, Poll, UciError};
use crate::uci::driver::EngineClient;
use crate::uci::xboard::holding_line;
use crate::variant::VariantKind;
use crate::variant::fen::write_fen;
use crate::variant::rules::BoardStatus;
use shakmaty::Color;
use shakmaty::uci::UciMove;
use std::path::PathBuf;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// One player: an engine command, its options and limits.
#[derive(Clone, Debug)]
pub struct BugPlayer {
    pub cmd: Vec<String>,
    pub name: Option<String>,
    pub options: Vec<(String, String)>,
    /// Per-move limits on top of the clock (depth, movetime, nodes).
    pub limits: MoveLimits,
}

#[derive(Clone, Debug)]
pub struct BugMatchConfig {
    /// `teams[t][0]` plays on board A, `teams[t][1]` on board B.
    pub teams: [[BugPlayer; 2]; 2],
    pub games: usize,
    pub tc: TimeControl,
    pub bpgn_out: Option<PathBuf>,
    pub event: String,
    /// Half-moves on one board after which the game is drawn.
    pub max_plies: usize,
}

impl MatchEnding for BugEnding {
    /// The first team had team 1's seats in its first-seat games.
    fn points(&self, first_seats: bool) -> f64 {
        let team = if first_seats { Team::One } else { Team::Two };
        self.result.points(team)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum BugMatchError {
    #[error(transparent)]
    Uci(#[from] UciError),
    #[error("cannot write {path}: {err}")]
    Bpgn { path: String, err: std::io::Error },
}

const HANDSHAKE: Duration = Duration::from_secs(10);

/// A started engine and whether it takes Kibitz's partner commands.
struct Player {
    client: EngineClient,
    partner_commands: bool,
    limits: MoveLimits,
    /// It crashed, hung or stopped answering in the last game: it is
    /// started again rather than asked for a new game (a hung engine
    /// would make that wait too).
    failed: bool,
}

fn start(p: &BugPlayer) -> Result<Player, UciError> {
    let mut c = EngineClient::spawn(&p.cmd, HANDSHAKE)?;
    c.set_option("UCI_Variant", VariantKind::Bughouse.name())?;
    for (k, v) in &p.options {
        c.set_option(k, v)?;
    }
    c.sync(HANDSHAKE)?;
    if let Some(n) = &p.name {
        c.set_name(n);
    }
    // An XBoard engine takes its hand and its partner's messages in its
    // own words.
    let partner_commands = c.is_xboard() || c.lists_option("BughousePartner");
    Ok(Player {
        client: c,
        partner_commands,
        limits: p.limits.clone(),
        failed: false,
    })
}

/// What both board threads share.
struct Shared {
    game: BughouseGame,
    /// Remaining time per board and colour (Black = 0, White = 1) when the
    /// current turn began.
    clocks: [[Duration; 2]; 2],
    /// When the side to move on each board started thinking.
    turn_start: [Instant; 2],
    /// Bumped when a board's hands change.
    version: [u64; 2],
    /// Messages waiting for each seat (by `seat_index`).
    inbox: [Vec<String>; 4],
    plies: [usize; 2],
}

fn seat_index(s: Seat) -> usize {
    s.board.index() * 2 + s.color as usize
}

struct Table {
    state: Mutex<Shared>,
    changed: Condvar,
}

impl Table {
    fn lock(&self) -> MutexGuard<'_, Shared> {
        match self.state.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        }
    }
}

/// The players of one game by seat: `players[board][color]`.
type Seating<'a> = [[&'a mut Player; 2]; 2];

/// Plays one board until the game ends.
fn run_board(
    table: &Table,
    board: BoardId,
    players: [&mut Player; 2],
    tc: TimeControl,
    max_plies: usize,
) {
    let mut players = players;
    loop {
        let turn = match next_turn(table, board, max_plies) {
            Next::Over => return,
            Next::Again => continue,
            Next::Think(turn) => turn,
        };
        let player = &mut players[turn.seat.color as usize];
        let (answer, said) = think(table, board, player, &turn, tc);
        player.failed |= answer.is_err();
        if !play_answer(table, board, turn.seat, answer, said, tc) {
            return;
        }
    }
}

/// What the side to move on a board thinks about.
struct Turn {
    seat: Seat,
    /// Its time left.
    left: Duration,
    /// Its board and its partner's.
    fen: String,
    partner_fen: String,
    /// The partner's board's clocks (White's, Black's) now.
    partner_clock: [Duration; 2],
    /// Its partner's messages not passed on yet.
    inbox: Vec<String>,
    wtime: Duration,
    btime: Duration,
    /// The board's hands' version when the turn was read.
    version: u64,
}

/// What a board does next.
enum Next {
    /// The game is over (perhaps just now: the move limit, a flag).
    Over,
    /// The side to move waited for a piece: look again.
    Again,
    /// The side to move thinks.
    Think(Turn),
}

/// Ends the game by the move limit or a flag when it is time, waits while
/// the side to move must wait for a piece, else reads its turn.
fn next_turn(table: &Table, board: BoardId, max_plies: usize) -> Next {
    let mut st = table.lock();
    if st.game.ending.is_some() {
        return Next::Over;
    }
    let b = board.index();
    if st.plies[b] >= max_plies {
        st.game.finish(BugEnding {
            result: crate::bughouse::BugResult::Draw,
            board,
            how: BugTermination::MoveLimit,
            loser: None,
        });
        table.changed.notify_all();
        return Next::Over;
    }
    let seat = st.game.to_move(board);
    let c = seat.color as usize;
    let elapsed = st.turn_start[b].elapsed();
    let left = st.clocks[b][c].saturating_sub(elapsed);
    if left.is_zero() {
        st.game.flag(seat);
        table.changed.notify_all();
        return Next::Over;
    }
    match st.game.status(board) {
        BoardStatus::Playing => {}
        BoardStatus::MustWait { .. } => {
            // Wait for a piece (or the flag, or the end).
            let version = st.version[b];
            let (guard, _) = table
                .changed
                .wait_timeout_while(st, left, |s| {
                    s.game.ending.is_none() && s.version[b] == version
                })
                .unwrap_or_else(|p| p.into_inner());
            drop(guard);
            return Next::Again;
        }
        // Mate is found when the move is made; stalemate does not
        // exist in Bughouse.
        _ => return Next::Over,
    }
    let fen = write_fen(st.game.board(board));
    let partner = seat.partner();
    let partner_fen = write_fen(st.game.board(partner.board));
    let partner_clock = {
        let pb = partner.board.index();
        let running = st.game.to_move(partner.board).color;
        let spent = st.turn_start[pb].elapsed();
        [Color::White, Color::Black].map(|c| {
            let t = st.clocks[pb][c as usize];
            if c == running {
                t.saturating_sub(spent)
            } else {
                t
            }
        })
    };
    let inbox = std::mem::take(&mut st.inbox[seat_index(seat)]);
    let (wtime, btime) = (
        st.clocks[b][Color::White as usize].saturating_sub(if seat.color == Color::White {
            elapsed
        } else {
            Duration::ZERO
        }),
        st.clocks[b][Color::Black as usize].saturating_sub(if seat.color == Color::Black {
            elapsed
        } else {
            Duration::ZERO
        }),
    );
    Next::Think(Turn {
        seat,
        left,
        fen,
        partner_fen,
        partner_clock,
        inbox,
        wtime,
        btime,
        version: st.version[b],
    })
}

/// Asks `player` for its move on `turn`: its clocks and limits, its board
/// and, when it takes partner commands, its partner's board and messages,
/// and news while it thinks. Returns the answer and what it told its
/// partner.
fn think(
    table: &Table,
    board: BoardId,
    player: &mut Player,
    turn: &Turn,
    tc: TimeControl,
) -> (Result<GoResult, UciError>, Vec<String>) {
    let (b, seat, c) = (board.index(), turn.seat, turn.seat.color as usize);
    let inc_ms = tc.inc.as_millis();
    let ext = player.partner_commands;
    let mut params = format!(
        "wtime {} btime {} winc {inc_ms} binc {inc_ms}",
        turn.wtime.as_millis(),
        turn.btime.as_millis()
    );
    if let Some(d) = player.limits.depth {
        params.push_str(&format!(" depth {d}"));
    }
    if let Some(mt) = player.limits.movetime {
        params.push_str(&format!(" movetime {}", mt.as_millis()));
    }
    if let Some(n) = player.limits.nodes {
        params.push_str(&format!(" nodes {n}"));
    }
    let client = &mut player.client;
    let xboard = client.is_xboard();
    let mut sent_ok = if xboard {
        client.position(Some(&turn.fen), &[])
    } else {
        client.send(&format!("position fen {}", turn.fen))
    };
    if ext && sent_ok.is_ok() {
        if !xboard {
            sent_ok = client.send(&format!("bughouse partner fen {}", turn.partner_fen));
            if sent_ok.is_ok() {
                let [w, b] = turn.partner_clock;
                sent_ok = client.send(&format!(
                    "bughouse partner clock wtime {} btime {}",
                    w.as_millis(),
                    b.as_millis()
                ));
            }
        }
        for m in &turn.inbox {
            if sent_ok.is_ok() {
                sent_ok = client.send(&client.ptell_command(m));
            }
        }
    }
    let ptell = |m: &str| {
        if xboard {
            crate::uci::xboard::ptell_line(m)
        } else {
            format!("bughouse ptell {m}")
        }
    };
    let mut seen_version = turn.version;
    let mut said: Vec<String> = Vec::new();
    let answer = sent_ok.and_then(|_| {
        client.go_polling(
            &params,
            turn.left + Duration::from_millis(500),
            || {
                let mut st = table.lock();
                let mut p = Poll {
                    stop: st.game.ending.is_some()
                        || st.turn_start[b].elapsed()
                            > st.clocks[b][c] + Duration::from_millis(300),
                    send: Vec::new(),
                };
                if ext {
                    if st.version[b] != seen_version {
                        seen_version = st.version[b];
                        let fen = write_fen(st.game.board(board));
                        if xboard {
                            p.send.extend(holding_line(VariantKind::Bughouse, &fen));
                        } else {
                            p.send.push(format!("bughouse update fen {fen}"));
                        }
                    }
                    for m in std::mem::take(&mut st.inbox[seat_index(seat)]) {
                        p.send.push(ptell(&m));
                    }
                }
                p
            },
            |info| {
                if let Some(text) = info
                    .string
                    .as_deref()
                    .and_then(|s| s.strip_prefix("ptell "))
                {
                    said.push(text.trim().to_string());
                }
            },
        )
    });
    (answer, said)
}

/// Passes on what `seat` told its partner and plays its engine's answer:
/// a move, or the loss of the game (out of time, an illegal move, an
/// engine that failed). False when the game is over.
fn play_answer(
    table: &Table,
    board: BoardId,
    seat: Seat,
    answer: Result<GoResult, UciError>,
    said: Vec<String>,
    tc: TimeControl,
) -> bool {
    let (b, c) = (board.index(), seat.color as usize);
    let mut st = table.lock();
    for text in said {
        st.game.say(seat, text.clone());
        st.inbox[seat_index(seat.partner())].push(text);
    }
    if st.game.ending.is_some() {
        return false;
    }
    let elapsed = st.turn_start[b].elapsed();
    let answer = match answer {
        Ok(a) => a,
        Err(UciError::Timeout { .. }) => {
            st.game.flag(seat);
            table.changed.notify_all();
            return false;
        }
        Err(_) => {
            st.game
                .finish(BugEnding::lost(seat, BugTermination::Abandoned));
            table.changed.notify_all();
            return false;
        }
    };
    if elapsed > st.clocks[b][c] {
        st.game.flag(seat);
        table.changed.notify_all();
        return false;
    }
    let remaining = st.clocks[b][c] - elapsed + tc.inc;
    let legal = answer
        .bestmove
        .parse::<UciMove>()
        .ok()
        .and_then(|u| u.to_move(st.game.board(board)).ok());
    let Some(mv) = legal else {
        // "(none)"/"0000" with a legal move available, or nonsense.
        st.game
            .finish(BugEnding::lost(seat, BugTermination::IllegalMove));
        table.changed.notify_all();
        return false;
    };
    match st.game.push(board, mv, Some(remaining)) {
        Ok(sent) => {
            st.clocks[b][c] = remaining;
            st.turn_start[b] = Instant::now();
            st.plies[b] += 1;
            if sent.is_some() {
                st.version[board.other().index()] += 1;
            }
        }
        Err(_) => {
            st.game
                .finish(BugEnding::lost(seat, BugTermination::IllegalMove));
        }
    }
    table.changed.notify_all();
    true
}

/// Plays one game with the given seating. Returns the finished game.
fn play_game(
    seating: Seating<'_>,
    names: [[String; 2]; 2],
    cfg: &BugMatchConfig,
    index: usize,
) -> BughouseGame {
    let mut game = BughouseGame::new();
    game.set_header("Event", cfg.event.clone());
    game.set_header("Site", "Kibitz");
    game.set_header("Date", super::pgn_date());
    game.set_header("Round", (index + 1).to_string());
    for board in BoardId::BOTH {
        for color in [Color::White, Color::Black] {
            let seat = Seat::new(board, color);
            game.set_header(&seat.tag(), names[board.index()][color as usize].clone());
        }
    }
    game.set_header("TimeControl", cfg.tc.pgn());
    game.set_header("Variant", "Bughouse");
    let now = Instant::now();
    let table = Table {
        state: Mutex::new(Shared {
            game,
            clocks: [[cfg.tc.base; 2]; 2],
            turn_start: [now, now],
            version: [0, 0],
            inbox: Default::default(),
            plies: [0, 0],
        }),
        changed: Condvar::new(),
    };
    let [[ab, aw], [bb, bw]] = seating;
    std::thread::scope(|s| {
        let t = &table;
        let tc = cfg.tc;
        let max = cfg.max_plies;
        s.spawn(move || run_board(t, BoardId::A, [ab, aw], tc, max));
        s.spawn(move || run_board(t, BoardId::B, [bb, bw], tc, max));
    });
    let st = table.lock();
    st.game.clone()
}

/// The four engines, by team and member: `players[t][m]` plays
/// `cfg.teams[t][m]`.
struct Teams<'a> {
    cfg: &'a BugMatchConfig,
    players: [[Player; 2]; 2],
}

impl<'a> Teams<'a> {
    fn start(cfg: &'a BugMatchConfig) -> Result<Teams<'a>, UciError> {
        let [[a, b], [c, d]] = &cfg.teams;
        Ok(Teams {
            cfg,
            players: [[start(a)?, start(b)?], [start(c)?, start(d)?]],
        })
    }
}

impl Engines for Teams<'_> {
    type Ending = BugEnding;
    type Error = BugMatchError;

    fn play(&mut self, round: Round) -> Result<GameRecord<BugEnding>, BugMatchError> {
        let cfg = self.cfg;
        // Restart engines that died in the last game.
        for (t, team) in self.players.iter_mut().enumerate() {
            for (m, p) in team.iter_mut().enumerate() {
                if p.failed || p.client.new_game(HANDSHAKE).is_err() {
                    *p = start(&cfg.teams[t][m])?;
                }
            }
        }
        let [first, second] = &mut self.players;
        let (team_one, team_two) = if round.first_seats {
            (first, second)
        } else {
            (second, first)
        };
        let [one_a, one_b] = team_one;
        let [two_a, two_b] = team_two;
        let name = |p: &Player| p.client.name().to_string();
        // Team 1: A White + B Black; team 2: A Black + B White.
        let names = [[name(two_a), name(one_a)], [name(one_b), name(two_b)]];
        let seating: Seating<'_> = [[two_a, one_a], [one_b, two_b]];
        let game = play_game(seating, names, cfg, round.index);
        let ending = game.ending.unwrap_or(BugEnding {
            result: crate::bughouse::BugResult::Draw,
            board: BoardId::A,
            how: BugTermination::MoveLimit,
            loser: None,
        });
        Ok(GameRecord {
            index: round.index,
            first_seats: round.first_seats,
            ending,
            players: BoardId::BOTH
                .into_iter()
                .flat_map(|b| [Color::White, Color::Black].map(|c| Seat::new(b, c)))
                .map(|seat| game.player(seat).to_string())
                .collect(),
            plies: game.moves().len(),
            text: write_bpgn(&game),
        })
    }

    fn quit(self) {
        for team in self.players {
            for p in team {
                p.client.quit();
            }
        }
    }

    fn file_error(path: String, err: std::io::Error) -> BugMatchError {
        BugMatchError::Bpgn { path, err }
    }
}

/// Plays the match; `on_game` sees each game as it ends with the totals
/// for the first team.
pub fn run_bughouse_match(
    cfg: &BugMatchConfig,
    mut on_game: impl FnMut(&GameRecord<BugEnding>, &Wdl),
) -> Result<Wdl, BugMatchError> {
    let teams = Teams::start(cfg)?;
    let rounds: Vec<usize> = (0..cfg.games).collect();
    runner::play_games(
        &rounds,
        Wdl::default(),
        vec![teams],
        cfg.bpgn_out.as_deref(),
        |rec, wdl| {
            on_game(rec, wdl);
            true
        },
    )
}
