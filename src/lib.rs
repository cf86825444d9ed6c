//! Kibitz: a terminal chess trainer with its own engine.
//!
//! Layers, bottom up:
//! - [`engine`]: the chess engine (search, evaluation, book); knows nothing
//!   about terminals or protocols.
//! - [`uci`]: the UCI protocol, both the engine side (`kibitz uci`) and the
//!   client side that drives external engines.
//! - [`matchplay`]: engine-vs-engine matches with Elo estimates, and the
//!   four-engine Bughouse arbiter.
//! - [`variant`]: Crazyhouse and Bughouse rules on shakmaty's Crazyhouse
//!   (FENs with pockets, the Bughouse mate rule, drops explained); below
//!   the engine.
//! - [`paths`]: where the user's files live (data and config folders).
//! - [`bughouse`]: a Bughouse game as data (two boards, four seats) and
//!   BPGN.

// With `strip-observer` the hook calls vanish, leaving some values unused.
#![cfg_attr(feature = "strip-observer", allow(unused))]

pub mod bughouse;
pub mod engine;
pub mod game;
pub mod matchplay;
pub mod paths;
pub mod tablebase;
pub mod tune;
pub mod uci;
pub mod ui;
pub mod util;
pub mod variant;
