//! `info` lines: formatting search progress the UCI way, and an observer
//! that prints them as the search goes.

use crate::engine::{Board, IterationInfo, SearchObserver};
use shakmaty::Move;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A thread-safe line writer (stdout for the engine, a buffer in tests).
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Writes one line and flushes. Write errors (a closed pipe) are ignored:
    /// the GUI is gone and `quit` or EOF will follow.
    pub fn line(&self, s: &str) {
        let mut w = match self.0.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(w, "{s}");
        let _ = w.flush();
    }
}

/// The `info` line for one finished iteration or MultiPV line.
pub fn format_info(info: &IterationInfo) -> String {
    let ms = info.elapsed.as_millis();
    let pv: Vec<String> = info.pv.iter().map(|&m| Board::uci(m)).collect();
    let bound = match info.bound {
        crate::engine::Bound::Lower => " lowerbound",
        crate::engine::Bound::Upper => " upperbound",
        _ => "",
    };
    format!(
        "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
        info.depth,
        info.seldepth.max(info.depth as usize),
        info.multipv,
        info.score.uci(),
        bound,
        info.nodes,
        info.nps(),
        info.hashfull,
        info.stats.tb_hits,
        ms,
        pv.join(" ")
    )
}

/// Prints `info` lines while searching; `currmove` lines only after the
/// first second, as GUIs expect.
pub struct InfoPrinter {
    out: Output,
    start: Instant,
    last_currmove: Option<Instant>,
}

impl InfoPrinter {
    pub fn new(out: Output) -> InfoPrinter {
        InfoPrinter {
            out,
            start: Instant::now(),
            last_currmove: None,
        }
    }
}

impl SearchObserver for InfoPrinter {
    fn iteration(&mut self, info: &IterationInfo) {
        self.out.line(&format_info(info));
    }

    fn root_move(&mut self, depth: i32, mv: Move, index: usize, _count: usize) {
        let now = Instant::now();
        if now.duration_since(self.start) < Duration::from_secs(1) {
            return;
        }
        if self
            .last_currmove
            .is_some_and(|t| now.duration_since(t) < Duration::from_millis(500))
        {
            return;
        }
        self.last_currmove = Some(now);
        self.out.line(&format!(
            "info depth {depth} currmove {} currmovenumber {}",
            Board::uci(mv),
            index + 1
        ));
    }
}
