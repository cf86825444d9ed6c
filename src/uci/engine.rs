//! The engine side of UCI: `kibitz uci` reads commands on stdin and answers
//! on stdout. Searches run on their own thread so `stop`, `isready` and
//! `quit` are answered at once. Bad input never ends the session: it is
//! answered with `info string error: ...` and the previous state is kept.
//!
//! Our own tablebases are loaded from the data directory in the background
//! at startup (nothing happens when there are none); each `go` uses them
//! once they are ready (option `OwnTablebases`). Syzygy tables come from
//! the option `SyzygyPath`.

use super::bughouse::{BughouseSide, Live, Pace};
use super::info::{InfoPrinter, Output};
use super::options::{self, DEFAULT_ELO, Id, OPTIONS, Value};
use crate::engine::partner::PartnerMsg;
use crate::engine::variant::Variant;
use crate::engine::{
    Board, Bug, Clock, Engine, EngineOptions, EvalKind, GamePosition, Level, Limits, MoveSource,
    Std, Zh, eval, perft,
};
use crate::tablebase::shared_loader;
use crate::variant::VariantKind;
use shakmaty::Move;
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

const NAME: &str = concat!("Kibitz ", env!("CARGO_PKG_VERSION"));

struct Running {
    stop: Arc<AtomicBool>,
    /// Set by the search thread just before it prints `bestmove`: from then
    /// on the GUI may send the next `go`, and we only wait for the thread to
    /// exit (microseconds) instead of refusing.
    done: Arc<AtomicBool>,
    handle: JoinHandle<(Engine, Option<BughouseSide>)>,
    /// A Bughouse search: news from the arbiter go here.
    live: Option<Arc<Live>>,
}

/// The position set by `position`, in the variant chosen with
/// `UCI_Variant`.
#[derive(Clone, Debug)]
enum UciPosition {
    Chess(GamePosition<Std>),
    Crazyhouse(GamePosition<Zh>),
    Bughouse(GamePosition<Bug>),
}

/// Runs `$body` with `$p` bound to the game position of any variant.
macro_rules! with_pos {
    ($pos:expr, $p:ident => $body:expr) => {
        match $pos {
            UciPosition::Chess($p) => $body,
            UciPosition::Crazyhouse($p) => $body,
            UciPosition::Bughouse($p) => $body,
        }
    };
}

impl UciPosition {
    fn initial(kind: VariantKind) -> UciPosition {
        match kind {
            VariantKind::Chess => UciPosition::Chess(GamePosition::default()),
            VariantKind::Crazyhouse => UciPosition::Crazyhouse(GamePosition::initial()),
            VariantKind::Bughouse => UciPosition::Bughouse(GamePosition::initial()),
        }
    }

    fn parse(kind: VariantKind, fen: Option<&str>, moves: &[&str]) -> Result<UciPosition, String> {
        Ok(match kind {
            VariantKind::Chess => UciPosition::Chess(GamePosition::from_uci(fen, moves)?),
            VariantKind::Crazyhouse => {
                UciPosition::Crazyhouse(GamePosition::from_uci_moves(fen, moves)?)
            }
            VariantKind::Bughouse => {
                UciPosition::Bughouse(GamePosition::from_uci_moves(fen, moves)?)
            }
        })
    }

    /// A move in UCI notation, legal in the current position.
    fn parse_move(&self, s: &str) -> Result<Move, String> {
        with_pos!(self, p => p.current().parse_uci(s))
    }
}

pub struct UciEngine {
    out: Output,
    engine: Option<Engine>,
    running: Option<Running>,
    position: UciPosition,
    /// The variant `position` commands are read in (`UCI_Variant`).
    variant: VariantKind,
    /// Bughouse: the partner and the other board (see `bughouse.rs`).
    bug: BughouseSide,
    /// Use our own tablebases (once the background loader has them).
    own_tablebases: bool,
    /// The loaded tables were announced with an `info string`.
    tablebases_announced: bool,
    /// `UCI_LimitStrength` and `UCI_Elo`: when on, the Elo replaces the
    /// `Level`.
    limit_strength: bool,
    elo: u32,
}

/// Runs a UCI session until `quit` or end of input.
pub fn run(input: impl BufRead, out: Output) {
    let mut uci = UciEngine::new(out);
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !uci.handle(&line) {
            break;
        }
    }
    uci.stop_search();
}

impl UciEngine {
    pub fn new(out: Output) -> UciEngine {
        // Once per process, in the background: a move never waits for it.
        shared_loader().start(None);
        UciEngine {
            out,
            engine: Some(Engine::new(EngineOptions::default())),
            running: None,
            position: UciPosition::initial(VariantKind::Chess),
            variant: VariantKind::Chess,
            bug: BughouseSide {
                // Measured: no gain between engine partners (see the
                // CHANGELOG); on for a human partner, who reads the messages.
                aware: false,
                sit: true,
                ..BughouseSide::default()
            },
            own_tablebases: true,
            limit_strength: false,
            elo: DEFAULT_ELO,
            tablebases_announced: false,
        }
    }

    fn error(&self, msg: &str) {
        self.out.line(&format!("info string error: {msg}"));
    }

    /// Stops a running search (its thread prints `bestmove`) and takes the
    /// engine back.
    fn stop_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::SeqCst);
            if let Some(live) = &r.live {
                live.search_stop.store(true, Ordering::SeqCst);
            }
            match r.handle.join() {
                Ok((engine, side)) => {
                    self.engine = Some(engine);
                    if let Some(side) = side {
                        self.bug = side;
                    }
                }
                Err(_) => {
                    self.error("search thread failed; engine reset");
                    self.engine = Some(Engine::new(EngineOptions::default()));
                }
            }
        }
    }

    /// Takes the engine back if the search has finished by itself.
    fn reap(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished() || r.done.load(Ordering::SeqCst))
        {
            self.stop_search();
        }
    }

    /// Handles one command line; false means quit.
    pub fn handle(&mut self, line: &str) -> bool {
        self.reap();
        let line = line.trim();
        let mut tokens = line.split_whitespace();
        let Some(cmd) = tokens.next() else {
            return true;
        };
        let rest: Vec<&str> = tokens.collect();
        match cmd {
            "uci" => self.uci(),
            "isready" => self.out.line("readyok"),
            "ucinewgame" => {
                self.stop_search();
                if let Some(e) = &mut self.engine {
                    e.new_game();
                }
                self.position = UciPosition::initial(self.variant);
            }
            "position" => self.position(&rest),
            "go" => self.go(&rest),
            "stop" => self.stop_search(),
            "ponderhit" => {}
            "bughouse" => self.bughouse(&rest),
            "setoption" => self.setoption(&rest),
            "quit" => {
                self.stop_search();
                return false;
            }
            "d" => {
                let text = with_pos!(&self.position, p => p.current().to_string());
                self.out.line(&text);
            }
            "eval" => {
                let kind = self
                    .engine
                    .as_ref()
                    .map_or(EvalKind::Nnue, |e| e.options().eval);
                let trace = match &self.position {
                    UciPosition::Chess(p) => eval::trace(p.current().chess(), kind),
                    UciPosition::Crazyhouse(p) => eval::zh::trace(p.current()),
                    UciPosition::Bughouse(p) => eval::zh::trace(p.current()),
                };
                for l in trace.to_string().lines() {
                    self.out.line(l);
                }
                if let (UciPosition::Chess(p), Some(e)) = (&self.position, self.engine.as_mut())
                    && kind == EvalKind::Nnue
                {
                    let board = p.current();
                    let total = e.static_eval(board);
                    self.out.line(&format!(
                        "network: {:+} (side to move), total {:+}",
                        total
                            - if e.network_is_residual() {
                                trace.score
                            } else {
                                0
                            },
                        total
                    ));
                }
            }
            "debug" | "register" => {}
            _ => self.error(&format!("unknown command '{cmd}'")),
        }
        true
    }

    fn uci(&self) {
        self.out.line(&format!("id name {NAME}"));
        self.out.line("id author the Kibitz developers");
        for spec in OPTIONS {
            self.out.line(&spec.line());
        }
        self.out.line("uciok");
    }

    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves");
        let (head, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &args[args.len()..]),
        };
        let fen = match head.first() {
            Some(&"startpos") if head.len() == 1 => None,
            Some(&"fen") if head.len() > 1 => Some(head[1..].join(" ")),
            _ => {
                self.error("expected 'position startpos|fen <fen> [moves ...]'");
                return;
            }
        };
        match UciPosition::parse(self.variant, fen.as_deref(), moves) {
            Ok(p) => self.position = p,
            Err(e) => self.error(&format!("position ignored: {e}")),
        }
    }

    fn parse_go(&self, args: &[&str]) -> Result<(Limits, Option<u32>), String> {
        let mut limits = Limits::default();
        let mut clock = Clock::default();
        let mut has_clock = false;
        let mut perft_depth = None;
        let mut i = 0;
        fn num<T: std::str::FromStr>(args: &[&str], i: usize, what: &str) -> Result<T, String> {
            let v = args
                .get(i + 1)
                .ok_or_else(|| format!("'{what}' needs a value"))?;
            v.parse()
                .map_err(|_| format!("'{what}' needs a number, got '{v}'"))
        }
        // Clocks may be negative when a GUI lets time run out.
        fn ms(args: &[&str], i: usize, what: &str) -> Result<Duration, String> {
            let v: i64 = num(args, i, what)?;
            Ok(Duration::from_millis(v.max(0) as u64))
        }
        while i < args.len() {
            let t = args[i];
            match t {
                "wtime" => {
                    clock.wtime = Some(ms(args, i, t)?);
                    has_clock = true;
                    i += 1;
                }
                "btime" => {
                    clock.btime = Some(ms(args, i, t)?);
                    has_clock = true;
                    i += 1;
                }
                "winc" => {
                    clock.winc = ms(args, i, t)?;
                    i += 1;
                }
                "binc" => {
                    clock.binc = ms(args, i, t)?;
                    i += 1;
                }
                "movestogo" => {
                    clock.movestogo = Some(num(args, i, t)?);
                    i += 1;
                }
                "depth" => {
                    let d: i32 = num(args, i, t)?;
                    limits.depth = Some(d.max(1));
                    i += 1;
                }
                "nodes" => {
                    limits.nodes = Some(num(args, i, t)?);
                    i += 1;
                }
                "movetime" => {
                    limits.movetime = Some(ms(args, i, t)?);
                    i += 1;
                }
                "mate" => {
                    let m: u32 = num(args, i, t)?;
                    limits.mate = Some(m.max(1));
                    i += 1;
                }
                "perft" => {
                    perft_depth = Some(num(args, i, t)?);
                    i += 1;
                }
                "infinite" | "ponder" => limits.infinite = true,
                "searchmoves" => {
                    while i + 1 < args.len() {
                        match self.position.parse_move(args[i + 1]) {
                            Ok(m) => limits.searchmoves.push(m),
                            Err(_) if is_go_keyword(args[i + 1]) => break,
                            Err(e) => return Err(e),
                        }
                        i += 1;
                    }
                }
                _ => return Err(format!("unknown 'go' parameter '{t}'")),
            }
            i += 1;
        }
        if has_clock {
            limits.clock = Some(clock);
        }
        Ok((limits, perft_depth))
    }

    fn go(&mut self, args: &[&str]) {
        if self.running.is_some() {
            self.error("already searching; send 'stop' first");
            return;
        }
        let (limits, perft_depth) = match self.parse_go(args) {
            Ok(x) => x,
            Err(e) => {
                self.error(&e);
                return;
            }
        };
        if let Some(d) = perft_depth {
            let mut total = 0;
            let counts = match &self.position {
                UciPosition::Chess(p) => perft::divide(p.current().chess(), d),
                UciPosition::Crazyhouse(p) => perft::divide_in::<Zh>(p.current().pos(), d),
                UciPosition::Bughouse(p) => perft::divide_in::<Bug>(p.current().pos(), d),
            };
            for (m, n) in counts {
                self.out.line(&format!("{}: {n}", Board::uci(m)));
                total += n;
            }
            self.out.line("");
            self.out.line(&format!("nodes {total}"));
            return;
        }
        let Some(mut engine) = self.engine.take() else {
            self.error("engine unavailable");
            return;
        };
        // Our own tables, if they are loaded by now.
        let loaded = shared_loader()
            .get()
            .filter(|_| self.own_tablebases)
            .cloned();
        if let Some(l) = &loaded
            && !self.tablebases_announced
        {
            self.tablebases_announced = true;
            self.out.line(&format!(
                "info string own tablebases: {} tables from {} (loaded in {} ms)",
                l.count,
                l.tables.dir().display(),
                l.elapsed.as_millis()
            ));
        }
        engine.set_tablebases(loaded.map(|l| l.tables));
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        let done = Arc::new(AtomicBool::new(false));
        let thread_done = Arc::clone(&done);
        let out = self.out.clone();
        let pos = self.position.clone();
        let live = matches!(pos, UciPosition::Bughouse(_)).then(|| Arc::new(Live::default()));
        let thread_live = live.clone();
        let side = self.bug.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(crate::engine::SEARCH_STACK)
            .spawn(move || match (pos, thread_live) {
                (UciPosition::Bughouse(p), Some(live)) => {
                    let (engine, side) = super::bughouse::run(
                        engine,
                        p,
                        limits,
                        thread_stop,
                        thread_done,
                        out,
                        side,
                        live,
                    );
                    (engine, Some(side))
                }
                (pos, _) => {
                    let job = SearchJob {
                        engine,
                        limits,
                        stop: thread_stop,
                        done: thread_done,
                        out,
                    };
                    (with_pos!(pos, p => job.run(p)), None)
                }
            });
        match handle {
            Ok(handle) => {
                self.running = Some(Running {
                    stop,
                    done,
                    handle,
                    live,
                })
            }
            Err(e) => {
                self.error(&format!("cannot start search thread: {e}"));
                self.engine = Some(Engine::new(EngineOptions::default()));
            }
        }
    }

    /// `setoption name <id> [value <x>]`.
    fn setoption(&mut self, args: &[&str]) {
        if self.running.is_some() {
            self.error("options cannot change during a search");
            return;
        }
        if self.engine.is_none() {
            return;
        }
        if args.first() != Some(&"name") {
            self.error("expected 'setoption name <id> [value <x>]'");
            return;
        }
        let value_at = args.iter().position(|&t| t.eq_ignore_ascii_case("value"));
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at
            .map(|i| args[i + 1..].join(" "))
            .unwrap_or_default();
        if let Err(e) = self.set_option(&name, &value) {
            self.error(&e);
        }
    }

    /// Sets the option `name` (in any case) to `value`.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let Some(engine) = self.engine.as_mut() else {
            return Ok(());
        };
        let (id, value) = options::parse(name, value)?;
        let n = value.int();
        match id {
            Id::Hash => engine.set_hash(n as usize),
            Id::Threads => engine.set_threads(n as usize),
            Id::MultiPv => engine.set_multipv(n as usize),
            Id::MoveOverhead => engine.set_move_overhead(Duration::from_millis(n as u64)),
            Id::OwnBook => engine.set_own_book(value.flag()),
            Id::BookFile => {
                let Value::Text(path) = value else {
                    return Ok(());
                };
                engine
                    .set_book_file(path.map(PathBuf::from))
                    .map_err(|e| e.to_string())?;
            }
            Id::Eval => {
                if let Some(k) = EvalKind::parse(value.choice()) {
                    engine.set_eval(k);
                }
            }
            Id::EvalFile => match value {
                Value::Text(Some(path)) => {
                    let bytes =
                        std::fs::read(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
                    let net = eval::nnue::Network::from_bytes(&bytes)
                        .map_err(|e| format!("{path}: {e}"))?;
                    engine.set_network(Arc::new(net));
                }
                _ => engine.set_network(eval::nnue::Network::embedded()),
            },
            Id::OwnTablebases => self.own_tablebases = value.flag(),
            Id::SyzygyPath => {
                let path = match value {
                    Value::Text(Some(p)) => p,
                    _ => String::new(),
                };
                engine
                    .set_syzygy_path(&path)
                    .map_err(|e| format!("{e}; Syzygy tablebases off"))?;
                if let Some(t) = engine.syzygy() {
                    self.out.line(&format!(
                        "info string Syzygy: {} WDL and {} DTZ tables (up to {} pieces, {} MB in memory) in {path}",
                        t.wdl_tables(),
                        t.dtz_tables(),
                        t.max_pieces(),
                        t.preloaded_bytes().div_ceil(1 << 20),
                    ));
                }
            }
            Id::Level => {
                if let Some(l) = Level::new(n as u8) {
                    engine.set_level(l)
                }
            }
            Id::LimitStrength | Id::Elo => {
                if id == Id::Elo {
                    self.elo = n as u32;
                } else {
                    self.limit_strength = value.flag();
                }
                // The Elo waits for UCI_LimitStrength; switching that off
                // goes back to the level.
                if self.limit_strength || id == Id::LimitStrength {
                    engine.set_elo(self.limit_strength.then_some(self.elo));
                    self.out.line(&format!(
                        "info string playing at {}",
                        engine.strength().describe()
                    ));
                }
            }
            Id::ClearHash => engine.new_game(),
            Id::BughousePartner => self.bug.aware = value.flag(),
            Id::BughouseSit => self.bug.sit = value.flag(),
            Id::BughousePace => {
                if let Some(p) = Pace::parse(value.choice()) {
                    self.bug.pace = p;
                }
            }
            Id::Variant => {
                if let Ok(kind) = value.choice().parse::<VariantKind>() {
                    if kind != self.variant {
                        self.variant = kind;
                        engine.new_game();
                    }
                    self.position = UciPosition::initial(kind);
                }
            }
        }
        Ok(())
    }
}

impl UciEngine {
    /// `bughouse partner fen <FEN>`, `bughouse partner clock wtime <ms>
    /// btime <ms>`, `bughouse ptell <text>`, `bughouse update fen <FEN>`
    /// (see `bughouse.rs`).
    fn bughouse(&mut self, args: &[&str]) {
        let parse_board = |args: &[&str]| -> Result<Board<Bug>, String> {
            match args {
                ["fen", fen @ ..] if !fen.is_empty() => {
                    Board::from_variant_fen(&fen.join(" ")).map_err(|e| e.to_string())
                }
                _ => Err("expected 'fen <FEN>'".into()),
            }
        };
        match args {
            ["partner", "clock", "wtime", w, "btime", b] => {
                match (w.parse::<u64>(), b.parse::<u64>()) {
                    (Ok(w), Ok(b)) => {
                        self.bug.partner_clock =
                            Some([Duration::from_millis(w), Duration::from_millis(b)])
                    }
                    _ => self.error(&format!(
                        "bughouse partner clock ignored: '{w}' and '{b}' are not milliseconds"
                    )),
                }
            }
            ["partner", "clock", ..] => {
                self.error("bughouse partner clock ignored: expected 'wtime <ms> btime <ms>'")
            }
            ["partner", rest @ ..] => match parse_board(rest) {
                Ok(b) => self.bug.partner_board = Some(b),
                Err(e) => self.error(&format!("bughouse partner ignored: {e}")),
            },
            ["ptell", text @ ..] if !text.is_empty() => {
                let msg = PartnerMsg::parse(&text.join(" "));
                match self.running.as_ref().and_then(|r| r.live.clone()) {
                    Some(live) => {
                        if let Ok(mut m) = live.messages.lock() {
                            m.push(msg);
                        }
                        live.poke.store(true, Ordering::SeqCst);
                    }
                    None => {
                        self.bug.partner.receive(&msg);
                    }
                }
            }
            ["update", rest @ ..] => {
                let board = match parse_board(rest) {
                    Ok(b) => b,
                    Err(e) => {
                        self.error(&format!("bughouse update ignored: {e}"));
                        return;
                    }
                };
                match (self.running.as_ref(), &mut self.position) {
                    (Some(r), _) if r.live.is_some() => {
                        if let Some(live) = &r.live {
                            if let Ok(mut u) = live.update.lock() {
                                *u = Some(board.clone());
                            }
                            live.poke.store(true, Ordering::SeqCst);
                            // Stop this search: it starts again with the news.
                            live.search_stop.store(true, Ordering::SeqCst);
                        }
                        self.position = UciPosition::Bughouse(GamePosition::new(board));
                    }
                    (_, UciPosition::Bughouse(_)) => {
                        self.position = UciPosition::Bughouse(GamePosition::new(board));
                    }
                    _ => self.error("bughouse update: set UCI_Variant to bughouse first"),
                }
            }
            _ => self.error(
                "expected 'bughouse partner fen <FEN>', 'bughouse partner clock wtime <ms> \
                 btime <ms>', 'bughouse ptell <text>' or 'bughouse update fen <FEN>'",
            ),
        }
    }
}

/// One `go`, on the search thread.
struct SearchJob {
    engine: Engine,
    limits: Limits,
    stop: Arc<AtomicBool>,
    done: Arc<AtomicBool>,
    out: Output,
}

impl SearchJob {
    /// Searches, prints `bestmove` and hands the engine back.
    fn run<V: Variant>(self, pos: GamePosition<V>) -> Engine {
        let SearchJob {
            mut engine,
            limits,
            stop,
            done,
            out,
        } = self;
        let mut printer = InfoPrinter::new(out.clone());
        let report = engine.search(&pos, &limits, &stop, &mut printer);
        // In infinite mode the GUI expects bestmove only after stop.
        if limits.infinite {
            while !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        match report.source {
            MoveSource::Book => out.line("info string book move"),
            MoveSource::Level => out.line(&format!(
                "info string level {} plays a weaker move",
                engine.options().level.get()
            )),
            MoveSource::Search | MoveSource::Tablebase => {}
        }
        done.store(true, Ordering::SeqCst);
        match report.best_move {
            Some(m) => {
                let ponder = report
                    .result
                    .pv
                    .get(1)
                    .filter(|_| matches!(report.source, MoveSource::Search | MoveSource::Tablebase))
                    .map(|&p| format!(" ponder {}", Board::uci(p)))
                    .unwrap_or_default();
                out.line(&format!("bestmove {}{ponder}", Board::uci(m)));
            }
            None => out.line("bestmove 0000"),
        }
        engine
    }
}

fn is_go_keyword(t: &str) -> bool {
    matches!(
        t,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "movetime"
            | "mate"
            | "infinite"
            | "ponder"
            | "perft"
    )
}
