//! Crazyhouse and Bughouse rules that are not the engine's: FENs with
//! pockets in the forms other programs write, the Bughouse mate rule, and
//! explanations of illegal drops. Everything here sits on shakmaty's
//! `Crazyhouse` position (pockets, drops as `Move::Put`, promoted pieces),
//! which answers every legality question: there is no second rules engine.
//!
//! Below the engine: this module knows nothing of searches, games or the UI.

pub mod fen;
pub mod rules;

use std::fmt;
use std::str::FromStr;

/// The game being played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum VariantKind {
    #[default]
    Chess,
    Crazyhouse,
    Bughouse,
}

impl VariantKind {
    pub const ALL: [VariantKind; 3] = [
        VariantKind::Chess,
        VariantKind::Crazyhouse,
        VariantKind::Bughouse,
    ];

    /// The `UCI_Variant` and command-line name.
    pub fn name(self) -> &'static str {
        match self {
            VariantKind::Chess => "chess",
            VariantKind::Crazyhouse => "crazyhouse",
            VariantKind::Bughouse => "bughouse",
        }
    }

    /// The PGN `[Variant]` tag value (`None` for standard chess).
    pub fn pgn_name(self) -> Option<&'static str> {
        match self {
            VariantKind::Chess => None,
            VariantKind::Crazyhouse => Some("Crazyhouse"),
            VariantKind::Bughouse => Some("Bughouse"),
        }
    }

    /// Pieces in hand and drops.
    pub fn drops(self) -> bool {
        self != VariantKind::Chess
    }
}

impl fmt::Display for VariantKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown variant name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{0}' (chess, crazyhouse or bughouse)")]
pub struct UnknownVariant(pub String);

impl FromStr for VariantKind {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<VariantKind, UnknownVariant> {
        match s.trim().to_ascii_lowercase().as_str() {
            "chess" | "standard" | "normal" => Ok(VariantKind::Chess),
            "crazyhouse" | "zh" => Ok(VariantKind::Crazyhouse),
            "bughouse" | "bug" => Ok(VariantKind::Bughouse),
            _ => Err(UnknownVariant(s.trim().to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for v in VariantKind::ALL {
            assert_eq!(v.name().parse::<VariantKind>(), Ok(v));
        }
        assert_eq!("ZH".parse::<VariantKind>(), Ok(VariantKind::Crazyhouse));
        assert_eq!("Standard".parse::<VariantKind>(), Ok(VariantKind::Chess));
        let e = "atomic".parse::<VariantKind>().unwrap_err();
        assert!(e.to_string().contains("unknown variant 'atomic'"));
    }
}
