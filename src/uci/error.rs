//! What can go wrong with an engine process: it cannot start, closes its
//! output, does not answer in time, refuses a command. Below both the
//! process handling ([`super::process`]) and the protocols that use it.

use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum UciError {
    #[error("cannot start engine '{cmd}': {err}")]
    Spawn { cmd: String, err: std::io::Error },
    #[error("engine command is empty")]
    EmptyCommand,
    #[error(
        "engine '{0}' closed its output (crashed or quit; is it a UCI engine? Kibitz itself is 'kibitz uci')"
    )]
    Closed(String),
    #[error("engine '{name}' did not answer '{waiting_for}' within {:.1} s", .timeout.as_secs_f64())]
    Timeout {
        name: String,
        waiting_for: String,
        timeout: Duration,
    },
    #[error("cannot write to engine '{name}': {err}")]
    Write { name: String, err: std::io::Error },
    #[error("{0}")]
    BadCommand(String),
    #[error("XBoard engine '{0}' closed its output (crashed or quit; is it an XBoard engine?)")]
    XboardClosed(String),
    #[error("engine '{name}' refused '{sent}': {said}")]
    Refused {
        name: String,
        sent: String,
        said: String,
    },
}
