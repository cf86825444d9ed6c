//! The UCI protocol: [`engine`] is Kibitz as a UCI engine, [`client`] drives
//! any UCI engine (Kibitz itself included) for matches and the UI,
//! [`xboard`] an XBoard (CECP) engine given as `xboard:CMD`, [`driver`]
//! either of them behind one interface, [`process`] their processes and
//! [`error`] what can go wrong with them.

pub mod bughouse;
pub mod client;
pub mod driver;
pub mod engine;
pub mod error;
pub mod info;
pub mod options;
pub mod process;
pub mod xboard;
