//! One engine process of either protocol behind one interface: a UCI
//! engine ([`UciClient`]) or an XBoard one ([`XboardClient`]), chosen by
//! the command (`xboard:CMD`, see [`EngineCommand`]). Matches use it, so
//! every place that takes an engine command takes both.

use super::client::{EngineInfo, GoResult, Poll, UciClient, UciError};
use super::xboard::{EngineCommand, XboardClient, ptell_line};
use std::time::Duration;

pub enum EngineClient {
    Uci(UciClient),
    Xboard(Box<XboardClient>),
}

impl EngineClient {
    /// Starts the engine of `cmd` (its first word may carry `xboard:` or
    /// `uci:`) and performs the handshake of its protocol.
    pub fn spawn(cmd: &[String], timeout: Duration) -> Result<EngineClient, UciError> {
        match EngineCommand::from_words(cmd.to_vec()).map_err(UciError::BadCommand)? {
            EngineCommand::Uci(w) => Ok(EngineClient::Uci(UciClient::spawn(&w, timeout)?)),
            EngineCommand::Xboard(w) => Ok(EngineClient::Xboard(Box::new(XboardClient::spawn(
                &w, timeout,
            )?))),
        }
    }

    pub fn name(&self) -> &str {
        match self {
            EngineClient::Uci(c) => &c.name,
            EngineClient::Xboard(c) => &c.name,
        }
    }

    pub fn set_name(&mut self, name: &str) {
        match self {
            EngineClient::Uci(c) => c.name = name.to_string(),
            EngineClient::Xboard(c) => c.name = name.to_string(),
        }
    }

    pub fn is_xboard(&self) -> bool {
        matches!(self, EngineClient::Xboard(_))
    }

    /// Does a UCI engine list the option `name`? (An XBoard engine has no
    /// list: false.)
    pub fn lists_option(&self, name: &str) -> bool {
        let prefix = format!("option name {} ", name.to_ascii_lowercase());
        match self {
            EngineClient::Uci(c) => c
                .options
                .iter()
                .any(|o| format!("{} ", o.to_ascii_lowercase()).starts_with(&prefix)),
            EngineClient::Xboard(_) => false,
        }
    }

    /// An option; `UCI_Variant` is the variant for both protocols.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), UciError> {
        match self {
            EngineClient::Uci(c) => c.set_option(name, value),
            EngineClient::Xboard(c) => c.set_option(name, value),
        }
    }

    pub fn sync(&mut self, timeout: Duration) -> Result<(), UciError> {
        match self {
            EngineClient::Uci(c) => c.sync(timeout),
            EngineClient::Xboard(c) => c.sync(timeout),
        }
    }

    pub fn new_game(&mut self, timeout: Duration) -> Result<(), UciError> {
        match self {
            EngineClient::Uci(c) => c.new_game(timeout),
            EngineClient::Xboard(c) => c.new_game(timeout),
        }
    }

    /// The position to search: a start FEN (`None`: the variant's start)
    /// and the moves since (UCI).
    pub fn position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), UciError> {
        match self {
            EngineClient::Uci(c) => c.position(fen, moves),
            EngineClient::Xboard(c) => c.position(fen, moves),
        }
    }

    /// A message from the partner: `bughouse ptell` for a UCI engine that
    /// speaks Kibitz's Bughouse extension, `ptell` for an XBoard engine.
    pub fn ptell_command(&self, text: &str) -> String {
        match self {
            EngineClient::Uci(_) => format!("bughouse ptell {text}"),
            EngineClient::Xboard(_) => ptell_line(text),
        }
    }

    pub fn send(&mut self, line: &str) -> Result<(), UciError> {
        match self {
            EngineClient::Uci(c) => c.send(line),
            EngineClient::Xboard(c) => c.send(line),
        }
    }

    /// `go` with UCI parameters (an XBoard engine gets them as its clock
    /// commands), waiting up to `timeout` for the move.
    pub fn go(
        &mut self,
        params: &str,
        timeout: Duration,
        on_info: impl FnMut(&EngineInfo),
    ) -> Result<GoResult, UciError> {
        self.go_polling(params, timeout, Poll::default, on_info)
    }

    /// See [`UciClient::go_polling`]; a message for the partner comes to
    /// `on_info` as `info string ptell TEXT` from either kind.
    pub fn go_polling(
        &mut self,
        params: &str,
        timeout: Duration,
        poll: impl FnMut() -> Poll,
        on_info: impl FnMut(&EngineInfo),
    ) -> Result<GoResult, UciError> {
        match self {
            EngineClient::Uci(c) => c.go_polling(params, timeout, poll, on_info),
            EngineClient::Xboard(c) => c.go_polling(params, timeout, poll, on_info),
        }
    }

    pub fn quit(self) {
        match self {
            EngineClient::Uci(c) => c.quit(),
            EngineClient::Xboard(c) => (*c).quit(),
        }
    }
}
