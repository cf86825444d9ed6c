//! An explorer of any variant: the screen holds one, and its work and
//! results travel wrapped by variant.

use super::{CompareResult, Explorer, Request};
use crate::engine::Std;
use crate::engine::tree::Recording;
use crossterm::event::KeyEvent;

/// An explorer of a position of any variant: the explorer screen holds
/// one, and its work and results travel as [`AnyRequest`] and
/// [`AnyRecording`].
pub enum AnyExplorer {
    Chess(Box<Explorer<Std>>),
    Zh(Box<Explorer<crate::engine::Zh>>),
    Bug(Box<Explorer<crate::engine::Bug>>),
}

/// Work for an [`AnyExplorer`].
#[derive(Clone, Debug)]
pub enum AnyRequest {
    Chess(Request<Std>),
    Zh(Request<crate::engine::Zh>),
    Bug(Request<crate::engine::Bug>),
}

/// A recording for an [`AnyExplorer`].
#[derive(Clone, Debug)]
pub enum AnyRecording {
    Chess(Box<Recording<Std>>),
    Zh(Box<Recording<crate::engine::Zh>>),
    Bug(Box<Recording<crate::engine::Bug>>),
}

/// Runs `$body` with `$e` bound to the explorer of whichever variant.
macro_rules! with_explorer {
    ($any:expr, $e:ident => $body:expr) => {
        match $any {
            AnyExplorer::Chess($e) => $body,
            AnyExplorer::Zh($e) => $body,
            AnyExplorer::Bug($e) => $body,
        }
    };
}

impl AnyExplorer {
    /// A key: the work it asks for.
    pub fn key(&mut self, k: KeyEvent, next_id: &mut u64) -> Option<AnyRequest> {
        match self {
            AnyExplorer::Chess(e) => e.key(k, next_id).map(AnyRequest::Chess),
            AnyExplorer::Zh(e) => e.key(k, next_id).map(AnyRequest::Zh),
            AnyExplorer::Bug(e) => e.key(k, next_id).map(AnyRequest::Bug),
        }
    }

    /// The first recording to ask for.
    pub fn start(&mut self, id: u64) -> AnyRequest {
        match self {
            AnyExplorer::Chess(e) => AnyRequest::Chess(e.start(id)),
            AnyExplorer::Zh(e) => AnyRequest::Zh(e.start(id)),
            AnyExplorer::Bug(e) => AnyRequest::Bug(e.start(id)),
        }
    }

    /// A recording arrived: the next work to ask for, if any.
    pub fn recorded(
        &mut self,
        id: u64,
        rec: AnyRecording,
        next_id: &mut u64,
    ) -> Option<AnyRequest> {
        match (self, rec) {
            (AnyExplorer::Chess(e), AnyRecording::Chess(r)) => {
                e.recorded(id, *r, next_id).map(AnyRequest::Chess)
            }
            (AnyExplorer::Zh(e), AnyRecording::Zh(r)) => {
                e.recorded(id, *r, next_id).map(AnyRequest::Zh)
            }
            (AnyExplorer::Bug(e), AnyRecording::Bug(r)) => {
                e.recorded(id, *r, next_id).map(AnyRequest::Bug)
            }
            _ => None,
        }
    }

    pub fn compared(&mut self, id: u64, row: usize, result: CompareResult) {
        with_explorer!(self, e => e.compared(id, row, result))
    }

    /// The app started on this explorer: leaving it quits.
    pub fn standalone(&self) -> bool {
        with_explorer!(self, e => e.standalone)
    }

    /// Work to stop what this explorer asked for.
    pub fn cancel(&self) -> AnyRequest {
        match self {
            AnyExplorer::Chess(_) => AnyRequest::Chess(Request::Cancel),
            AnyExplorer::Zh(_) => AnyRequest::Zh(Request::Cancel),
            AnyExplorer::Bug(_) => AnyRequest::Bug(Request::Cancel),
        }
    }
}

impl AnyRequest {
    /// Whether this asks to leave the explorer.
    pub fn is_close(&self) -> bool {
        matches!(
            self,
            AnyRequest::Chess(Request::Close)
                | AnyRequest::Zh(Request::Close)
                | AnyRequest::Bug(Request::Close)
        )
    }
}
