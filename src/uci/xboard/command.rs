//! Engine commands as given on the command line or in a game file: a UCI
//! program (`CMD`, `uci:CMD`) or an XBoard one (`xboard:CMD`), told apart by
//! the prefix on the first word.

use crate::uci::client::split_command;

/// The prefix that marks an engine command as an XBoard engine's.
pub const XBOARD_PREFIX: &str = "xboard:";

/// An engine command as given on the command line or in a game file: a UCI
/// program (the default, or `uci:CMD`), or an XBoard one (`xboard:CMD`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineCommand {
    Uci(Vec<String>),
    Xboard(Vec<String>),
}

impl EngineCommand {
    /// Reads `CMD`, `uci:CMD` or `xboard:CMD` (words split as
    /// [`split_command`] does).
    pub fn parse(text: &str) -> Result<EngineCommand, String> {
        EngineCommand::from_words(split_command(text))
    }

    /// The same from words already split: the prefix is on the first word
    /// (`xboard:/usr/games/sjeng`, or `xboard:` alone before the program).
    pub fn from_words(words: Vec<String>) -> Result<EngineCommand, String> {
        let Some(first) = words.first() else {
            return Err("the engine command is empty".to_string());
        };
        let prefixed = |prefix: &str| -> Option<Vec<String>> {
            let head = first.get(..prefix.len())?;
            if !head.eq_ignore_ascii_case(prefix) {
                return None;
            }
            let rest = &first[prefix.len()..];
            let mut program = Vec::new();
            if !rest.is_empty() {
                program.push(rest.to_string());
            }
            program.extend(words[1..].iter().cloned());
            Some(program)
        };
        for (prefix, xboard) in [(XBOARD_PREFIX, true), ("uci:", false)] {
            if let Some(program) = prefixed(prefix) {
                if program.is_empty() {
                    return Err(format!(
                        "'{prefix}' needs the engine's command after it (e.g. {prefix}/usr/games/sjeng)"
                    ));
                }
                return Ok(if xboard {
                    EngineCommand::Xboard(program)
                } else {
                    EngineCommand::Uci(program)
                });
            }
        }
        Ok(EngineCommand::Uci(words))
    }

    /// The program and its arguments.
    pub fn words(&self) -> &[String] {
        match self {
            EngineCommand::Uci(w) | EngineCommand::Xboard(w) => w,
        }
    }

    pub fn is_xboard(&self) -> bool {
        matches!(self, EngineCommand::Xboard(_))
    }
}

/// Does the command text name an XBoard engine (`xboard:CMD`)?
pub fn is_xboard_command(text: &str) -> bool {
    text.trim_start()
        .get(..XBOARD_PREFIX.len())
        .is_some_and(|h| h.eq_ignore_ascii_case(XBOARD_PREFIX))
}
