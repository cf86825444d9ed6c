//! Crazyhouse and Bughouse rules (placeholder until the rules layer lands).

/// The game being played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum VariantKind {
    #[default]
    Chess,
    Crazyhouse,
    Bughouse,
}
