//! What reading `config.toml` found wrong: each problem with its line, and
//! the report that gathers them with the settings that fell back to their
//! defaults, as one message.
use super::Config;

/// One thing wrong in `config.toml`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigProblem {
    /// The line in the file, from 1; `None` when it is not one line's
    /// fault (the file cannot be read).
    pub line: Option<usize>,
    /// What is wrong, naming the key and value, in full.
    pub text: String,
}

impl std::fmt::Display for ConfigProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.text),
            None => f.write_str(&self.text),
        }
    }
}

/// What `config.toml` gave: every setting that could be read, the problems
/// with the rest, and the settings those problems left on their defaults.
#[derive(Clone, Debug)]
pub struct ConfigReport {
    pub config: Config,
    /// In the order of their lines.
    pub problems: Vec<ConfigProblem>,
    /// Settings the file tried to set that kept their default because of a
    /// problem: `level`, or `keys.flip` for a key binding. In the order of
    /// their lines, each once.
    pub fell_back: Vec<String>,
    /// Nothing of the file was used (it cannot be read, or TOML cannot
    /// read it and no line can be blamed): every setting is the default.
    pub ignored: bool,
}

impl ConfigReport {
    /// Every problem with its line, then what fell back to its default;
    /// `None` when the file is fine.
    pub fn message(&self) -> Option<String> {
        if self.problems.is_empty() {
            return None;
        }
        let n = self.problems.len();
        let list: Vec<String> = self.problems.iter().map(|p| p.to_string()).collect();
        let rest = if self.ignored {
            "every setting is the default".to_string()
        } else if self.fell_back.is_empty() {
            "the rest of the file is used".to_string()
        } else {
            format!(
                "fell back to defaults: {} (the rest of the file is used)",
                self.fell_back.join(", ")
            )
        };
        Some(format!(
            "{n} problem{}: {}; {rest}",
            if n == 1 { "" } else { "s" },
            list.join("; ")
        ))
    }
}
