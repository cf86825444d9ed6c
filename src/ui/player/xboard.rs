//! An XBoard (CECP) program on an engine thread (`xboard:CMD`), in any
//! variant it plays: Sjeng and Fairy-Stockfish's XBoard mode for
//! Crazyhouse and Bughouse. In Bughouse its partner's messages go to it as
//! `ptell`, its hand as `holding` whenever it changes while it thinks, and
//! what it tells its partner (`tellics ptell`) comes back as
//! [`Report::Ptell`], between searches too.

use super::external::{answer, go_params, go_timeout, on_info, poll};
use super::*;
use crate::uci::xboard::{XboardClient, holding_line};
use crate::variant::VariantKind;
use std::collections::VecDeque;
use std::sync::mpsc::RecvTimeoutError;

/// How long the handshake and `new` may take.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// How often the engine's messages are read between searches.
const IDLE: Duration = Duration::from_millis(50);

/// Runs the XBoard program `command` until asked to quit or it fails.
pub(super) fn run<V: Variant>(
    command: Vec<String>,
    rx: Receiver<Command<V>>,
    report: &dyn Fn(Report),
) {
    let fail = |e: UciError| {
        report(Report::Event(EngineEvent::Failed {
            message: e.to_string(),
        }))
    };
    let mut client = match XboardClient::spawn(&command, HANDSHAKE) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    if V::KIND != VariantKind::Chess
        && let Err(e) = client.set_option("UCI_Variant", V::KIND.name())
    {
        return fail(e);
    }
    report(Report::Event(EngineEvent::Ready {
        name: client.name.clone(),
    }));
    let ptell = |info: &crate::uci::client::EngineInfo| {
        if let Some(text) = info
            .string
            .as_deref()
            .and_then(|s| s.strip_prefix("ptell "))
        {
            report(Report::Ptell(text.trim().to_string()));
        }
    };
    let mut backlog: VecDeque<Command<V>> = VecDeque::new();
    loop {
        let cmd = match backlog.pop_front() {
            Some(c) => c,
            None => match rx.recv_timeout(IDLE) {
                Ok(c) => c,
                Err(RecvTimeoutError::Timeout) => {
                    // What it says between searches, to its partner.
                    match client.drain(ptell) {
                        Ok(()) => continue,
                        Err(e) => return fail(e),
                    }
                }
                Err(RecvTimeoutError::Disconnected) => Command::Quit,
            },
        };
        let done = match cmd {
            Command::Quit => return,
            Command::NewGame => client.new_game(HANDSHAKE),
            Command::Tell(Tell::Ptell(text)) if V::BUGHOUSE => client.ptell(&text),
            // Its board comes with the next request.
            Command::Tell(_) => Ok(()),
            Command::Go(job) => go(&mut client, *job, &rx, &mut backlog, report),
        };
        if let Err(e) = done {
            if !backlog.iter().any(|c| matches!(c, Command::Quit)) {
                fail(e);
            }
            return;
        }
    }
}

/// Runs one search and reports it.
fn go<V: Variant>(
    client: &mut XboardClient,
    job: Job<V>,
    rx: &Receiver<Command<V>>,
    backlog: &mut VecDeque<Command<V>>,
    report: &dyn Fn(Report),
) -> Result<(), UciError> {
    let Job { req, opts, stop } = job;
    let board = position_of(&req).current().clone();
    let start_fen = req.start.fen();
    let standard = start_fen == Board::<V>::start_position().fen();
    let moves: Vec<String> = req.moves.iter().map(|&m| Board::uci(m)).collect();
    client.position((!standard).then_some(start_fen.as_str()), &moves)?;
    let timeout = opts
        .timeout
        .unwrap_or_else(|| go_timeout(&req.limits, board.turn()));
    let legal = board.legal_moves().len();
    let tell = |news: &Tell<V>| -> Option<String> {
        match news {
            Tell::Update(b) if V::DROPS => holding_line(V::KIND, &b.fen()),
            Tell::Update(_) => None,
            Tell::Ptell(text) => V::BUGHOUSE.then(|| crate::uci::xboard::ptell_line(text)),
        }
    };
    let answer_ = client.go_polling(
        &go_params(&req.limits),
        timeout,
        || poll(rx, backlog, &tell, &stop),
        |info| on_info(info, &board, legal, req.id, report),
    )?;
    answer(&client.name, &answer_, &board, &req, report);
    Ok(())
}
