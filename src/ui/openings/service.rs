//! The explorer's thread: it owns the open collections, brings them up to
//! date when asked, and answers positions, the newest first (a position
//! stepped past before its answer came is not looked up).

use super::{OpeningsReport, OpeningsRequest, PlayerStatus, Row};
use crate::db::build::PlayerFilter;
use crate::db::collection::{self, Answer, Collection, PlayerTree, Store};
use shakmaty::Chess;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};

/// The collections and their store.
pub struct Service {
    store: Option<Store>,
    collections: Option<Vec<Collection>>,
    /// The last player's games read, kept while the same player is asked
    /// for (read again after a load: games may have been saved since).
    player: Option<(PlayerFilter, Result<PlayerTree, String>)>,
}

impl Service {
    /// Over the data folder (`None`: no data folder, nothing to show).
    pub fn new(data: Option<PathBuf>) -> Service {
        Service {
            store: data.map(|d| Store::new(&d)),
            collections: None,
            player: None,
        }
    }

    /// Carries out one request; `report` gets what it has to say.
    pub fn handle(&mut self, req: OpeningsRequest, report: &mut dyn FnMut(OpeningsReport)) {
        match req {
            OpeningsRequest::Load => self.load(report),
            OpeningsRequest::Moves { query, pos } => {
                if self.collections.is_none() {
                    self.load(report);
                }
                let answer = match &query.player {
                    None => {
                        let collections = self.collections.get_or_insert_with(Vec::new);
                        collection::moves_in(collections, &pos).unwrap_or_default()
                    }
                    Some(filter) => self.player_moves(filter, &pos, report),
                };
                let rows = answer
                    .moves
                    .into_iter()
                    .map(|m| {
                        let mut after = (*pos).clone();
                        shakmaty::Position::play_unchecked(&mut after, m.mv);
                        Row {
                            mv: m.mv,
                            san: m.san,
                            stats: m.stats,
                            opening: crate::game::openings::name_position(&after)
                                .map(|o| o.to_string()),
                        }
                    })
                    .collect();
                report(OpeningsReport::Moves {
                    query,
                    rows,
                    total: answer.total,
                });
            }
        }
    }

    fn load(&mut self, report: &mut dyn FnMut(OpeningsReport)) {
        let Some(store) = &self.store else {
            self.collections = Some(Vec::new());
            report(OpeningsReport::Loaded {
                collections: Vec::new(),
                errors: vec!["no data folder: no games to show".into()],
            });
            return;
        };
        // The runs are reopened: a collection indexed again since is read
        // from its new run.
        self.collections = None;
        self.player = None;
        let mut last = -1.0;
        let (open, errors) = store.everything(&mut |done, total| {
            let share = done as f64 / total.max(1) as f64;
            if share - last >= 0.02 {
                last = share;
                report(OpeningsReport::Progress {
                    what: "indexing your collections".into(),
                    share,
                });
            }
        });
        report(OpeningsReport::Loaded {
            collections: open.iter().map(|c| (c.name.clone(), c.indexed())).collect(),
            errors: errors.iter().map(ToString::to_string).collect(),
        });
        self.collections = Some(open);
    }

    /// The moves from `pos` in one player's games, read first if another
    /// player's were kept.
    fn player_moves(
        &mut self,
        filter: &PlayerFilter,
        pos: &Chess,
        report: &mut dyn FnMut(OpeningsReport),
    ) -> Answer {
        if self.player.as_ref().is_none_or(|(f, _)| f != filter) {
            self.player = None;
            let tree = match &self.store {
                None => Err("no data folder: no games to show".to_string()),
                Some(store) => {
                    let mut last = -1.0;
                    store
                        .player(None, filter.clone(), &mut |done, total| {
                            let share = done as f64 / total.max(1) as f64;
                            if share - last >= 0.02 {
                                last = share;
                                report(OpeningsReport::Player {
                                    filter: filter.clone(),
                                    status: PlayerStatus::Reading(share),
                                });
                            }
                        })
                        .map_err(|e| e.to_string())
                }
            };
            report(OpeningsReport::Player {
                filter: filter.clone(),
                status: match &tree {
                    Ok(t) => PlayerStatus::Ready(t.games),
                    Err(e) => PlayerStatus::Failed(e.clone()),
                },
            });
            self.player = Some((filter.clone(), tree));
        }
        match &mut self.player {
            Some((_, Ok(tree))) => tree.moves(pos).unwrap_or_default(),
            _ => Answer::default(),
        }
    }

    /// Serves requests until the sender is dropped. Waiting requests are
    /// gathered first: a load is done once, and only the newest position
    /// is looked up.
    pub fn serve(mut self, rx: Receiver<OpeningsRequest>, mut report: impl FnMut(OpeningsReport)) {
        while let Ok(first) = rx.recv() {
            let mut load = false;
            let mut moves = None;
            for req in std::iter::once(first).chain(rx.try_iter()) {
                match req {
                    OpeningsRequest::Load => load = true,
                    m @ OpeningsRequest::Moves { .. } => moves = Some(m),
                }
            }
            if load {
                self.handle(OpeningsRequest::Load, &mut report);
            }
            if let Some(m) = moves {
                self.handle(m, &mut report);
            }
        }
    }
}

/// Starts the explorer's thread; its reports go to `send`.
pub fn spawn(
    data: Option<PathBuf>,
    send: impl FnMut(OpeningsReport) + Send + 'static,
) -> Option<Sender<OpeningsRequest>> {
    let (tx, rx) = channel();
    std::thread::Builder::new()
        .name("kibitz-openings".into())
        .spawn(move || {
            let service = Service::new(data);
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
                service.serve(rx, send)
            }));
        })
        .ok()?;
    Some(tx)
}
