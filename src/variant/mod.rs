//! Crazyhouse and Bughouse rules (placeholder until the rules layer lands).

/// The game being played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum VariantKind {
    #[default]
    Chess,
    Crazyhouse,
    Bughouse,
}

impl VariantKind {
    /// The UCI_Variant and command-line name.
    pub fn name(self) -> &'static str {
        match self {
            VariantKind::Chess => "chess",
            VariantKind::Crazyhouse => "crazyhouse",
            VariantKind::Bughouse => "bughouse",
        }
    }
}
