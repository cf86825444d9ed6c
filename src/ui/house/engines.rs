//! The engines of a Crazyhouse or Bughouse game, one per engine seat, each
//! a UCI process on its own thread for the whole game: Kibitz itself (this
//! program's `uci`, which speaks both variants and Kibitz's Bughouse
//! extension) or any other program that knows `UCI_Variant`. The app sends
//! [`EngineJob`]s; answers come back as [`EngineNews`] through `send`, so
//! no frame ever waits on an engine.

use super::live::{EngineJob, EngineNews};
use crate::uci::client::{Poll, UciClient, split_command};
use crate::ui::player::EngineSpec;
use crate::variant::VariantKind;
use std::collections::HashMap;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::Duration;

const HANDSHAKE: Duration = Duration::from_secs(10);

enum Job {
    Go {
        id: u64,
        fen: String,
        partner_fen: Option<String>,
        params: String,
    },
    Update(String),
    Ptell(String),
    Stop,
}

/// The running engines by seat.
#[derive(Default)]
pub struct Engines {
    workers: HashMap<usize, Sender<Job>>,
}

impl Engines {
    /// Carries out `job`; news goes to `send(seat, news)`.
    pub fn handle<F>(&mut self, job: EngineJob, send: F)
    where
        F: Fn(usize, EngineNews) + Send + Clone + 'static,
    {
        match job {
            EngineJob::Start {
                seat,
                spec,
                kind,
                partner_human,
            } => {
                let (tx, rx) = channel();
                self.workers.insert(seat, tx);
                let to_worker = send.clone();
                let spawned = std::thread::Builder::new()
                    .name(format!("house-engine-{seat}"))
                    .spawn(move || worker(seat, spec, kind, partner_human, rx, to_worker));
                if let Err(e) = spawned {
                    self.workers.remove(&seat);
                    send(seat, EngineNews::Failed(e.to_string()));
                }
            }
            EngineJob::Go {
                seat,
                id,
                fen,
                partner_fen,
                wtime,
                btime,
                inc,
                infinite,
            } => {
                let mut params = if infinite {
                    "infinite".to_string()
                } else {
                    String::new()
                };
                if let (Some(w), Some(b)) = (wtime, btime) {
                    params = format!(
                        "wtime {} btime {} winc {} binc {}",
                        w.as_millis(),
                        b.as_millis(),
                        inc.as_millis(),
                        inc.as_millis()
                    );
                }
                self.to(
                    seat,
                    Job::Go {
                        id,
                        fen,
                        partner_fen,
                        params,
                    },
                );
            }
            EngineJob::Update { seat, fen } => self.to(seat, Job::Update(fen)),
            EngineJob::Ptell { seat, text } => self.to(seat, Job::Ptell(text)),
            EngineJob::Stop { seat } => self.to(seat, Job::Stop),
            EngineJob::QuitAll => self.workers.clear(),
        }
    }

    fn to(&self, seat: usize, job: Job) {
        if let Some(tx) = self.workers.get(&seat) {
            let _ = tx.send(job);
        }
    }
}

/// The command line of an engine seat.
fn command(spec: &EngineSpec) -> Vec<String> {
    match spec {
        EngineSpec::External { command } => split_command(command),
        _ => {
            let exe = std::env::current_exe()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|_| "kibitz".into());
            vec![exe, "uci".into()]
        }
    }
}

fn worker<F>(
    seat: usize,
    spec: EngineSpec,
    kind: VariantKind,
    partner_human: bool,
    rx: Receiver<Job>,
    send: F,
) where
    F: Fn(usize, EngineNews),
{
    let mut client = match UciClient::spawn(&command(&spec), HANDSHAKE) {
        Ok(c) => c,
        Err(e) => return send(seat, EngineNews::Failed(e.to_string())),
    };
    let has = |c: &UciClient, name: &str| {
        c.options.iter().any(|o| {
            o.to_ascii_lowercase()
                .starts_with(&format!("option name {}", name.to_ascii_lowercase()))
        })
    };
    let ext = has(&client, "BughousePartner");
    let mut setup = client.set_option("UCI_Variant", kind.name());
    if let EngineSpec::BuiltIn { level } = spec {
        setup = setup.and_then(|_| client.set_option("Level", &level.to_string()));
    }
    if has(&client, "OwnTablebases") {
        // The endgame tables are for standard chess.
        setup = setup.and_then(|_| client.set_option("OwnTablebases", "false"));
    }
    if ext && kind == VariantKind::Bughouse {
        let on = if partner_human { "true" } else { "false" };
        setup = setup.and_then(|_| client.set_option("BughousePartner", on));
        if partner_human {
            setup = setup.and_then(|_| client.set_option("BughousePace", "human"));
        }
    }
    if let Err(e) = setup.and_then(|_| client.new_game(HANDSHAKE)) {
        return send(seat, EngineNews::Failed(e.to_string()));
    }
    if let EngineSpec::External { .. } = spec {
        send(seat, EngineNews::Name(client.name.clone()));
    }
    let limits = match &spec {
        EngineSpec::Custom {
            depth,
            movetime_ms,
            nodes,
        } => {
            let mut s = String::new();
            if let Some(d) = depth {
                s.push_str(&format!(" depth {d}"));
            }
            if let Some(t) = movetime_ms {
                s.push_str(&format!(" movetime {t}"));
            }
            if let Some(n) = nodes {
                s.push_str(&format!(" nodes {n}"));
            }
            s
        }
        _ => String::new(),
    };
    // Jobs that came while a search ran (a new search supersedes it).
    let mut backlog: std::collections::VecDeque<Job> = std::collections::VecDeque::new();
    loop {
        let job = match backlog.pop_front() {
            Some(j) => j,
            None => match rx.recv() {
                Ok(j) => j,
                Err(_) => return,
            },
        };
        let (id, fen, partner_fen, params) = match job {
            Job::Go {
                id,
                fen,
                partner_fen,
                params,
            } => (id, fen, partner_fen, params),
            Job::Ptell(text) if ext => {
                if client.send(&format!("bughouse ptell {text}")).is_err() {
                    return send(seat, EngineNews::Failed("it stopped answering".into()));
                }
                continue;
            }
            _ => continue,
        };
        let mut ok = client.send(&format!("position fen {fen}"));
        if ext && let Some(p) = &partner_fen {
            ok = ok.and_then(|_| client.send(&format!("bughouse partner fen {p}")));
        }
        if let Err(e) = ok {
            return send(seat, EngineNews::Failed(e.to_string()));
        }
        let params = format!("{params}{limits}");
        let params = if params.trim().is_empty() {
            "movetime 1000".to_string()
        } else {
            params
        };
        let mut stopped = false;
        let mut gone = false;
        let answer = client.go_polling(
            params.trim(),
            Duration::from_secs(3600),
            || {
                let mut p = Poll::default();
                loop {
                    match rx.try_recv() {
                        Ok(Job::Update(f)) if ext => {
                            p.send.push(format!("bughouse update fen {f}"))
                        }
                        Ok(Job::Ptell(t)) if ext => p.send.push(format!("bughouse ptell {t}")),
                        Ok(Job::Stop) => {
                            stopped = true;
                            p.stop = true;
                        }
                        Ok(go @ Job::Go { .. }) => {
                            // A new question: this search's answer is stale.
                            backlog.push_back(go);
                            stopped = true;
                            p.stop = true;
                        }
                        Ok(_) => {}
                        Err(TryRecvError::Empty) => break,
                        Err(TryRecvError::Disconnected) => {
                            gone = true;
                            p.stop = true;
                            break;
                        }
                    }
                }
                p
            },
            |info| {
                if let Some(t) = info
                    .string
                    .as_deref()
                    .and_then(|s| s.strip_prefix("ptell "))
                {
                    send(seat, EngineNews::Ptell(t.trim().to_string()));
                }
                if let (Some(depth), Some(score), false) =
                    (info.depth, info.score, info.pv.is_empty())
                    && info.multipv.unwrap_or(1) == 1
                {
                    send(
                        seat,
                        EngineNews::Info {
                            id,
                            depth,
                            score,
                            nodes: info.nodes.unwrap_or(0),
                            pv: info.pv.clone(),
                        },
                    );
                }
            },
        );
        if gone {
            return;
        }
        match answer {
            Ok(a) if !stopped => send(
                seat,
                EngineNews::Best {
                    id,
                    uci: a.bestmove,
                },
            ),
            Ok(_) => {}
            Err(e) => return send(seat, EngineNews::Failed(e.to_string())),
        }
    }
}
