//! The engine's UCI options as one table: `uci` lists it and `setoption`
//! checks values against it (ranges, check values, combo choices), so a
//! range is written once. What an option does lives with the engine
//! (`engine.rs`), which receives a checked [`Value`].

use super::bughouse::Pace;
use crate::engine::tt::TranspositionTable;
use crate::engine::{EvalKind, MAX_THREADS, Strength};
use crate::variant::VariantKind;

/// Each option the engine offers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Id {
    Hash,
    Threads,
    MultiPv,
    MoveOverhead,
    OwnBook,
    BookFile,
    Eval,
    EvalFile,
    Level,
    LimitStrength,
    Elo,
    OwnTablebases,
    SyzygyPath,
    Variant,
    BughousePartner,
    BughouseSit,
    BughousePace,
    ClearHash,
}

/// An option's UCI type with its default and limits.
#[derive(Copy, Clone, Debug)]
pub enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check(bool),
    /// `canonical` reads a value the way the option's own type does
    /// (in any case, other names it knows too) and gives its var.
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
        canonical: fn(&str) -> Option<&'static str>,
    },
    /// A `string` option; empty by default.
    Text,
    Button,
}

#[derive(Copy, Clone, Debug)]
pub struct Spec {
    pub id: Id,
    pub name: &'static str,
    pub kind: Kind,
}

/// `UCI_Elo`'s default, until a GUI sets it.
pub const DEFAULT_ELO: u32 = 1500;

const fn spin(id: Id, name: &'static str, default: i64, min: i64, max: i64) -> Spec {
    Spec {
        id,
        name,
        kind: Kind::Spin { default, min, max },
    }
}

const fn check(id: Id, name: &'static str, default: bool) -> Spec {
    Spec {
        id,
        name,
        kind: Kind::Check(default),
    }
}

const fn combo(
    id: Id,
    name: &'static str,
    default: &'static str,
    vars: &'static [&'static str],
    canonical: fn(&str) -> Option<&'static str>,
) -> Spec {
    Spec {
        id,
        name,
        kind: Kind::Combo {
            default,
            vars,
            canonical,
        },
    }
}

const fn other(id: Id, name: &'static str, kind: Kind) -> Spec {
    Spec { id, name, kind }
}

/// Every option, in the order `uci` lists them.
pub const OPTIONS: &[Spec] = &[
    spin(
        Id::Hash,
        "Hash",
        TranspositionTable::DEFAULT_MB as i64,
        1,
        TranspositionTable::MAX_MB as i64,
    ),
    // A GUI expects one thread until it says otherwise.
    spin(Id::Threads, "Threads", 1, 1, MAX_THREADS as i64),
    spin(Id::MultiPv, "MultiPV", 1, 1, 256),
    spin(Id::MoveOverhead, "Move Overhead", 10, 0, 5000),
    check(Id::OwnBook, "OwnBook", false),
    other(Id::BookFile, "BookFile", Kind::Text),
    combo(Id::Eval, "Eval", "nnue", &["full", "simple", "nnue"], |v| {
        EvalKind::parse(v).map(EvalKind::name)
    }),
    other(Id::EvalFile, "EvalFile", Kind::Text),
    spin(Id::Level, "Level", 8, 1, 8),
    check(Id::LimitStrength, "UCI_LimitStrength", false),
    spin(
        Id::Elo,
        "UCI_Elo",
        DEFAULT_ELO as i64,
        Strength::ELO_MIN as i64,
        Strength::ELO_MAX as i64,
    ),
    check(Id::OwnTablebases, "OwnTablebases", true),
    other(Id::SyzygyPath, "SyzygyPath", Kind::Text),
    combo(
        Id::Variant,
        "UCI_Variant",
        "chess",
        &["chess", "crazyhouse", "bughouse"],
        |v| v.parse::<VariantKind>().ok().map(VariantKind::name),
    ),
    check(Id::BughousePartner, "BughousePartner", false),
    check(Id::BughouseSit, "BughouseSit", true),
    combo(
        Id::BughousePace,
        "BughousePace",
        "instant",
        &["instant", "human"],
        |v| Pace::parse(v).map(Pace::name),
    ),
    other(Id::ClearHash, "Clear Hash", Kind::Button),
];

/// A value `setoption` sent, checked against the option's [`Kind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Spin(i64),
    Check(bool),
    /// One of the combo's choices, as the table spells it.
    Combo(&'static str),
    /// A string option; `None` when empty or `<empty>`.
    Text(Option<String>),
    Button,
}

impl Value {
    /// The number of a spin option (0 for any other kind).
    pub fn int(&self) -> i64 {
        match self {
            Value::Spin(v) => *v,
            _ => 0,
        }
    }

    /// The value of a check option (`false` for any other kind).
    pub fn flag(&self) -> bool {
        matches!(self, Value::Check(true))
    }

    /// The choice of a combo option (empty for any other kind).
    pub fn choice(&self) -> &'static str {
        match self {
            Value::Combo(c) => c,
            _ => "",
        }
    }
}

impl Spec {
    /// The option's line in the answer to `uci`.
    pub fn line(&self) -> String {
        let name = self.name;
        match self.kind {
            Kind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check(default) => format!("option name {name} type check default {default}"),
            Kind::Combo { default, vars, .. } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            Kind::Text => format!("option name {name} type string default <empty>"),
            Kind::Button => format!("option name {name} type button"),
        }
    }

    /// Checks `value` against the option's kind.
    pub fn parse(&self, value: &str) -> Result<Value, String> {
        let name = self.name;
        let v = value.trim();
        match self.kind {
            Kind::Spin { min, max, .. } => {
                let n: i64 = v
                    .parse()
                    .map_err(|_| format!("option '{name}' needs a number, got '{value}'"))?;
                if (min..=max).contains(&n) {
                    Ok(Value::Spin(n))
                } else {
                    Err(format!(
                        "option '{name}' must be between {min} and {max}, got {n}"
                    ))
                }
            }
            Kind::Check(_) => match v.to_ascii_lowercase().as_str() {
                "true" => Ok(Value::Check(true)),
                "false" => Ok(Value::Check(false)),
                _ => Err(format!("option {name} is true or false, got '{value}'")),
            },
            Kind::Combo {
                vars, canonical, ..
            } => canonical(v)
                .filter(|c| vars.contains(c))
                .map(Value::Combo)
                .ok_or_else(|| format!("option {name} is {}, got '{value}'", one_of(vars))),
            Kind::Text => Ok(Value::Text(
                (!v.is_empty() && v != "<empty>").then(|| v.to_string()),
            )),
            Kind::Button => Ok(Value::Button),
        }
    }
}

/// The option called `name` (UCI option names are case-insensitive) and
/// its checked value.
pub fn parse(name: &str, value: &str) -> Result<(Id, Value), String> {
    let spec = OPTIONS
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| format!("unknown option '{name}'"))?;
    Ok((spec.id, spec.parse(value)?))
}

/// "a, b or c".
fn one_of(vars: &[&str]) -> String {
    match vars {
        [] => String::new(),
        [only] => only.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_once_and_its_default_passes_its_own_check() {
        for (i, s) in OPTIONS.iter().enumerate() {
            assert!(
                OPTIONS[i + 1..]
                    .iter()
                    .all(|t| t.id != s.id && !t.name.eq_ignore_ascii_case(s.name)),
                "{} twice",
                s.name
            );
            let default = match s.kind {
                Kind::Spin { default, .. } => default.to_string(),
                Kind::Check(b) => b.to_string(),
                Kind::Combo { default, .. } => default.to_string(),
                Kind::Text | Kind::Button => String::new(),
            };
            assert!(s.parse(&default).is_ok(), "{}: {default}", s.line());
            if let Kind::Combo { vars, .. } = s.kind {
                for var in vars {
                    assert_eq!(s.parse(var), Ok(Value::Combo(var)), "{}", s.line());
                }
            }
        }
    }

    #[test]
    fn values_are_checked_against_the_table() {
        assert_eq!(parse("hash", " 64 "), Ok((Id::Hash, Value::Spin(64))));
        let e = parse("Threads", "0").unwrap_err();
        assert!(e.contains("between 1 and 256"), "{e}");
        assert!(
            parse("MultiPV", "x")
                .unwrap_err()
                .contains("needs a number")
        );
        assert_eq!(
            parse("ownbook", "TRUE"),
            Ok((Id::OwnBook, Value::Check(true)))
        );
        assert!(parse("OwnBook", "maybe").is_err());
        assert_eq!(
            parse("uci_variant", "CrazyHouse"),
            Ok((Id::Variant, Value::Combo("crazyhouse")))
        );
        // The names the option's own type knows are understood too.
        assert_eq!(
            parse("UCI_Variant", "zh"),
            Ok((Id::Variant, Value::Combo("crazyhouse")))
        );
        assert_eq!(
            parse("Eval", "Simplified"),
            Ok((Id::Eval, Value::Combo("simple")))
        );
        let e = parse("UCI_Variant", "atomic").unwrap_err();
        assert_eq!(
            e,
            "option UCI_Variant is chess, crazyhouse or bughouse, got 'atomic'"
        );
        assert_eq!(
            parse("BookFile", "<empty>"),
            Ok((Id::BookFile, Value::Text(None)))
        );
        assert_eq!(
            parse("SyzygyPath", " /tb "),
            Ok((Id::SyzygyPath, Value::Text(Some("/tb".into()))))
        );
        assert_eq!(parse("clear hash", ""), Ok((Id::ClearHash, Value::Button)));
        assert_eq!(
            parse("NoSuchOption", "1").unwrap_err(),
            "unknown option 'NoSuchOption'"
        );
    }

    /// The README's table of UCI options names every option with its
    /// default, and nothing else.
    #[test]
    fn the_readme_lists_every_option_with_its_default() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
        let readme = std::fs::read_to_string(path).expect("README.md");
        // The table after the heading: its lines up to the first that is
        // not a table row.
        let section = readme
            .split("### UCI options")
            .nth(1)
            .expect("a '### UCI options' section");
        let rows: Vec<(String, String)> = section
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .filter_map(|l| {
                let cells: Vec<&str> = l.split('|').map(str::trim).collect();
                (cells.len() >= 4).then(|| (cells[1].to_string(), cells[2].to_string()))
            })
            .skip(2) // the header and its rule
            .collect();
        assert!(rows.len() > 10, "{rows:?}");
        for spec in OPTIONS {
            let default = match spec.kind {
                Kind::Spin { default, .. } => default.to_string(),
                Kind::Check(b) => b.to_string(),
                Kind::Combo { default, .. } => default.to_string(),
                Kind::Text => "empty".to_string(),
                Kind::Button => String::new(),
            };
            let row = rows.iter().find(|(name, _)| name == spec.name);
            assert_eq!(
                row.map(|r| r.1.as_str()),
                Some(default.as_str()),
                "README row of {}",
                spec.name
            );
        }
        for (name, _) in &rows {
            assert!(
                OPTIONS.iter().any(|s| s.name == name),
                "the README lists '{name}', which the engine does not offer"
            );
        }
    }

    #[test]
    fn lines_read_as_uci_declares_them() {
        let line = |id| {
            OPTIONS
                .iter()
                .find(|s| s.id == id)
                .map(Spec::line)
                .unwrap_or_default()
        };
        assert_eq!(
            line(Id::MultiPv),
            "option name MultiPV type spin default 1 min 1 max 256"
        );
        assert_eq!(
            line(Id::BughousePace),
            "option name BughousePace type combo default instant var instant var human"
        );
        assert_eq!(
            line(Id::EvalFile),
            "option name EvalFile type string default <empty>"
        );
        assert_eq!(line(Id::ClearHash), "option name Clear Hash type button");
        assert_eq!(
            line(Id::OwnTablebases),
            "option name OwnTablebases type check default true"
        );
    }
}
