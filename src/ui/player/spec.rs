//! Who plays a side: the built-in engine at a level, custom limits, or an
//! external UCI command; parsed from the command line and kept in game tags.

use super::*;

/// Who plays the engine's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineSpec {
    /// The built-in engine at a strength level (8 = full strength).
    BuiltIn { level: u8 },
    /// The built-in engine at full strength with fixed limits.
    Custom {
        depth: Option<i32>,
        movetime_ms: Option<u64>,
        nodes: Option<u64>,
    },
    /// An external engine (command line): UCI, or XBoard as `xboard:CMD`.
    External { command: String },
}

impl EngineSpec {
    /// For headers and the panel: "Kibitz level 4", "Kibitz (depth 8)", the
    /// command's program name.
    pub fn describe(&self) -> String {
        match self {
            EngineSpec::BuiltIn { level } => format!("Kibitz level {level}"),
            EngineSpec::Custom {
                depth,
                movetime_ms,
                nodes,
            } => {
                let mut parts = Vec::new();
                if let Some(d) = depth {
                    parts.push(format!("depth {d}"));
                }
                if let Some(t) = movetime_ms {
                    parts.push(format!("{t} ms"));
                }
                if let Some(n) = nodes {
                    parts.push(format!("{n} nodes"));
                }
                if parts.is_empty() {
                    "Kibitz".to_string()
                } else {
                    format!("Kibitz ({})", parts.join(", "))
                }
            }
            EngineSpec::External { command } => {
                let words = EngineCommand::parse(command)
                    .map(|c| c.words().to_vec())
                    .unwrap_or_default();
                let prog = words.first().map(String::as_str).unwrap_or("engine");
                std::path::Path::new(prog)
                    .file_name()
                    .map_or(prog.to_string(), |n| n.to_string_lossy().into_owned())
            }
        }
    }

    /// The fixed limits a move search gets (on top of the clock).
    pub fn move_limits(&self) -> Limits {
        match self {
            EngineSpec::Custom {
                depth,
                movetime_ms,
                nodes,
            } => Limits {
                depth: *depth,
                movetime: movetime_ms.map(Duration::from_millis),
                nodes: *nodes,
                ..Limits::default()
            },
            _ => Limits::default(),
        }
    }
}

/// Parses `depth 8`, `movetime 500`, `nodes 20000` (any combination).
pub fn parse_limits(s: &str) -> Result<EngineSpec, String> {
    let mut depth = None;
    let mut movetime_ms = None;
    let mut nodes = None;
    let words: Vec<&str> = s.split_whitespace().collect();
    if words.is_empty() {
        return Err("give at least one of: depth N, movetime MS, nodes N".to_string());
    }
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let value = words
            .get(i + 1)
            .ok_or_else(|| format!("'{key}' needs a number after it"))?;
        let n: u64 = value
            .parse()
            .map_err(|_| format!("'{value}' is not a whole number"))?;
        if n == 0 {
            return Err(format!("{key} must be positive"));
        }
        match key {
            "depth" | "d" if n <= 64 => depth = Some(n as i32),
            "depth" | "d" => return Err("depth must be at most 64".to_string()),
            "movetime" | "ms" | "time" => movetime_ms = Some(n),
            "nodes" | "n" => nodes = Some(n),
            other => {
                return Err(format!(
                    "unknown limit '{other}' (use depth, movetime or nodes)"
                ));
            }
        }
        i += 2;
    }
    Ok(EngineSpec::Custom {
        depth,
        movetime_ms,
        nodes,
    })
}

/// How a game file names its engine (`level 4`, `custom depth 8`, `uci CMD`).
pub fn spec_tag(spec: &EngineSpec) -> String {
    match spec {
        EngineSpec::BuiltIn { level } => format!("level {level}"),
        EngineSpec::Custom {
            depth,
            movetime_ms,
            nodes,
        } => format!("custom {}", limits_text(*depth, *movetime_ms, *nodes)),
        // The protocol first: `uci CMD`, or `xboard CMD` for an XBoard
        // program (`xboard:CMD`).
        EngineSpec::External { command } => match command.strip_prefix("xboard:") {
            Some(cmd) => format!("xboard {}", cmd.trim_start()),
            None => format!("uci {}", command.strip_prefix("uci:").unwrap_or(command)),
        },
    }
}

/// Custom limits as [`parse_limits`] reads them: `depth 8 movetime 500`.
pub fn limits_text(depth: Option<i32>, movetime_ms: Option<u64>, nodes: Option<u64>) -> String {
    let mut s = Vec::new();
    if let Some(d) = depth {
        s.push(format!("depth {d}"));
    }
    if let Some(t) = movetime_ms {
        s.push(format!("movetime {t}"));
    }
    if let Some(n) = nodes {
        s.push(format!("nodes {n}"));
    }
    s.join(" ")
}

/// [`spec_tag`] read back.
pub fn parse_spec_tag(s: &str) -> Option<EngineSpec> {
    if let Some(l) = s.strip_prefix("level ") {
        let level: u8 = l.trim().parse().ok()?;
        return (1..=8)
            .contains(&level)
            .then_some(EngineSpec::BuiltIn { level });
    }
    if let Some(rest) = s.strip_prefix("custom") {
        return parse_limits(rest).ok();
    }
    if let Some(c) = s.strip_prefix("xboard ") {
        return Some(EngineSpec::External {
            command: format!("xboard:{c}"),
        });
    }
    s.strip_prefix("uci ").map(|c| EngineSpec::External {
        command: c.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tag names the protocol an engine speaks, and reads back to the
    /// same engine (an old `uci xboard:CMD` tag too).
    #[test]
    fn a_spec_tag_names_the_protocol_and_reads_back() {
        let external = |c: &str| EngineSpec::External { command: c.into() };
        let sjeng = external("xboard:/usr/games/sjeng");
        assert_eq!(spec_tag(&sjeng), "xboard /usr/games/sjeng");
        assert_eq!(
            parse_spec_tag("xboard /usr/games/sjeng"),
            Some(sjeng.clone())
        );
        assert_eq!(parse_spec_tag("uci xboard:/usr/games/sjeng"), Some(sjeng));
        let sf = external("/usr/games/stockfish");
        assert_eq!(spec_tag(&sf), "uci /usr/games/stockfish");
        assert_eq!(parse_spec_tag(&spec_tag(&sf)), Some(sf));
        assert_eq!(spec_tag(&external("uci:sf")), "uci sf");
        let level = EngineSpec::BuiltIn { level: 4 };
        assert_eq!(parse_spec_tag(&spec_tag(&level)), Some(level));
    }
}
