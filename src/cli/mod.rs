//! Subcommands of the `kibitz` binary, one module per group.

pub mod bughouse;
pub mod search;
