//! Driving an XBoard (CECP v2) engine the way the UCI client drives a UCI
//! one, so the same callers can use either: `xboard` and `protover 2`
//! (features until `done=1`), `new`, `variant`, `force`, moves in
//! coordinates (`e2e4`, `e7e8q`, drops `P@e4`), `setboard` for a start
//! that is not the variant's own, `holding [WHITE] [black]` before every
//! search in the drop variants (an XBoard Bughouse engine such as Sjeng
//! learns its pieces in hand only that way), the clock as `level`, `time`
//! and `otim` (centiseconds), `st` and `sd`, then `go`; the answer is
//! `move X`. Any line sent while it thinks makes it move now (`?`).
//!
//! Messages for the partner (`tellics ptell TEXT` or `ptell TEXT`) come
//! back as `info string ptell TEXT` lines would from a UCI engine, and a
//! partner's message goes to the engine as `ptell TEXT`, as a FICS
//! interface passes it on.
//!
//! The engine keeps its own game: the client remembers what it has sent and
//! sends only the moves since; a position given as a FEN alone is reached
//! by one move from the last one when it can be, else the game is set up
//! again (`new`, `setboard`).

mod command;
#[cfg(all(test, unix))]
pub(crate) mod fake;
mod position;
mod protocol;
mod session;
#[cfg(test)]
mod tests;

pub use command::{EngineCommand, XBOARD_PREFIX, is_xboard_command};
pub use position::holding_line;
pub(crate) use protocol::read_engine_line;
pub use protocol::{Features, partner_text, ptell_line};
pub use session::XboardClient;
