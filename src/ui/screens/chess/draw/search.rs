//! Watching the engine think: the search panel (one row per iteration, the
//! root move being searched, MultiPV lines), the eval bar beside the board
//! and the eval graph over the game.

use crate::engine::{Board, Bound, Score};
use crate::game::review::Judgement;
use crate::ui::player::SearchLine;
use crate::ui::screens::chess::draw::view::*;
use crate::ui::view::evalbar::paint_eval_bar;

/// A score for display, from White's view when the app asks for it.
pub fn shown(app: &ChessView<'_>, score: Score, turn: Color) -> Score {
    if app.ui.look.white_view && turn == Color::Black {
        -score
    } else {
        score
    }
}

/// Compact counts: 950, 12k, 1.2M.
pub(crate) fn human_count(n: u64) -> String {
    if n >= 10_000_000 {
        format!("{}M", n / 1_000_000)
    } else if n >= 1_000_000 {
        format!("{:.1}M", n as f64 / 1e6)
    } else if n >= 10_000 {
        format!("{}k", n / 1000)
    } else {
        n.to_string()
    }
}

fn secs(d: std::time::Duration) -> String {
    let s = d.as_secs_f64();
    if s < 10.0 {
        format!("{s:.2}s")
    } else if s < 100.0 {
        format!("{s:.1}s")
    } else {
        format!("{s:.0}s")
    }
}

/// The optional columns of the iteration table, most useful first: what
/// fits beside the line (at least 12 cells of it) is shown.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Col {
    Time,
    FirstMove,
    TtHits,
    Nps,
    Cutoffs,
}

impl Col {
    const ALL: [Col; 5] = [
        Col::Time,
        Col::FirstMove,
        Col::TtHits,
        Col::Nps,
        Col::Cutoffs,
    ];

    fn width(self) -> usize {
        match self {
            Col::Time => 7,
            Col::FirstMove | Col::TtHits => 5,
            Col::Nps | Col::Cutoffs => 6,
        }
    }

    fn title(self) -> &'static str {
        match self {
            Col::Time => "time",
            Col::FirstMove => "1st%",
            Col::TtHits => "tt%",
            Col::Nps => "nps",
            Col::Cutoffs => "cuts",
        }
    }

    fn needs_stats(self) -> bool {
        matches!(self, Col::FirstMove | Col::TtHits | Col::Cutoffs)
    }

    fn value(self, l: &SearchLine) -> String {
        let st = l.stats.as_ref();
        match self {
            Col::Time => secs(l.time),
            Col::Nps => human_count(l.nps),
            Col::FirstMove => st.map_or("-".into(), |s| {
                format!("{:.0}%", s.first_move_cutoff_rate())
            }),
            Col::TtHits => st.map_or("-".into(), |s| format!("{:.0}%", s.tt_hit_rate())),
            Col::Cutoffs => st.map_or("-".into(), |s| human_count(s.beta_cutoffs)),
        }
    }
}

/// The columns that fit a panel `w` cells wide.
struct Columns(Vec<Col>);

impl Columns {
    fn for_width(w: u16, has_stats: bool) -> Columns {
        let mut room = (w as usize).saturating_sub(5 + 7 + 6 + 2 + 12);
        let mut cols = Vec::new();
        for c in Col::ALL {
            if c.needs_stats() && !has_stats {
                continue;
            }
            if c.width() <= room {
                room -= c.width();
                cols.push(c);
            }
        }
        Columns(cols)
    }

    fn header(&self) -> String {
        let mut s = format!("{:>5} {:>6} {:>5}", "depth", "score", "nodes");
        for c in &self.0 {
            s.push_str(&format!(" {:>w$}", c.title(), w = c.width() - 1));
        }
        s.push_str("  line");
        s
    }

    fn row(&self, app: &ChessView<'_>, l: &SearchLine, turn: Color) -> String {
        let depth = format!("{}/{}", l.depth, l.seldepth);
        let score = l.score.map_or("?".to_string(), |s| {
            let mut t = score_text(shown(app, s, turn));
            match l.bound {
                Some(Bound::Lower) => t.push('+'),
                Some(Bound::Upper) => t.push('-'),
                _ => {}
            }
            t
        });
        let mut s = format!("{depth:>5} {score:>6} {:>5}", human_count(l.nodes));
        for c in &self.0 {
            s.push_str(&format!(" {:>w$}", c.value(l), w = c.width() - 1));
        }
        s
    }
}

/// The search panel: engine and status, the root move being searched, one
/// row per completed iteration (newest at the bottom), and the other
/// MultiPV lines when there are any.
pub(crate) fn draw_search(buf: &mut Buffer, app: &ChessView<'_>, area: Rect) {
    let theme = app.ui.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let accent = Style::default().fg(theme.accent);
    let s = &app.s.search;
    let name = if s.engine.is_empty() {
        app.s.opponent.spec.describe()
    } else {
        s.engine.clone()
    };
    let view = if app.ui.look.white_view {
        "White's view"
    } else {
        "side to move's view"
    };
    let inner_w = area.width.saturating_sub(2);
    // A narrow panel keeps the name whole ("Kibitz 0.1.0 (2 threads)").
    let title = if name.chars().count() + 10 > inner_w as usize {
        name
    } else {
        format!("Engine: {name}")
    };
    let mut lines: Vec<Line> = Vec::new();
    let turn = s.board.as_ref().map_or(Color::White, |b| b.turn());

    // Status and progress.
    let status = match (&s.progress, s.thinking) {
        (Some(p), true) => {
            let san = s
                .board
                .as_ref()
                .filter(|b| b.is_legal(p.mv))
                .map(|b| b.san(p.mv))
                .unwrap_or_else(|| Board::uci(p.mv));
            let of = if p.count > 0 {
                format!("{} of {}", p.number, p.count)
            } else {
                p.number.to_string()
            };
            format!("thinking: depth {}, move {of}: {san}", p.depth)
        }
        (None, true) => "thinking…".to_string(),
        _ if s.iterations.is_empty() => "no search yet".to_string(),
        _ => "done".to_string(),
    };
    // Whose view the scores take, as much as fits beside the status.
    let room = (inner_w as usize).saturating_sub(status.chars().count());
    let note = [format!("  (scores: {view})"), format!("  ({view})")]
        .into_iter()
        .find(|n| n.chars().count() <= room)
        .unwrap_or_default();
    lines.push(Line::from(vec![
        Span::styled(status, accent),
        Span::styled(note, dim),
    ]));

    let has_stats = s.iterations.iter().any(|l| l.stats.is_some());
    let cols = Columns::for_width(inner_w, has_stats);
    let multipv = s.lines.iter().filter(|l| l.depth > 0).count();
    let room = area.height.saturating_sub(2) as usize;
    // Rows for MultiPV lines (beyond the first) when there are several.
    let extra = if multipv > 1 { multipv + 1 } else { 0 };
    let iter_rows = room.saturating_sub(2 + extra);
    if !s.iterations.is_empty() && iter_rows > 0 {
        lines.push(Line::from(Span::styled(cols.header(), dim)));
        let start = s.iterations.len().saturating_sub(iter_rows);
        let last = s.iterations.len() - 1;
        for (i, l) in s.iterations.iter().enumerate().skip(start) {
            let head = cols.row(app, l, turn);
            let room_for_pv = (inner_w as usize).saturating_sub(head.chars().count() + 2);
            let pv = s
                .board
                .as_ref()
                .map(|b| fit(&san_line(b, &l.pv, 30), room_for_pv))
                .unwrap_or_default();
            let style = if i == last {
                text.add_modifier(Modifier::BOLD)
            } else {
                text
            };
            lines.push(Line::from(vec![
                Span::styled(head, style),
                Span::raw("  "),
                Span::styled(pv, if i == last { text } else { dim }),
            ]));
        }
    }
    if multipv > 1 {
        // The depth once, in words, over the lines: a "d7" beside a line
        // reads like a move. A line still at a shallower depth says so.
        let deepest = s.lines.iter().map(|l| l.depth).max().unwrap_or(0);
        let header = match deepest {
            0 => "best lines".to_string(),
            d => format!("best lines, depth {d}"),
        };
        lines.push(Line::from(Span::styled(header, dim)));
        for (i, l) in s.lines.iter().enumerate().filter(|(_, l)| l.depth > 0) {
            let score = l
                .score
                .map_or("?".to_string(), |sc| score_text(shown(app, sc, turn)));
            let behind = if l.depth < deepest {
                format!(" (depth {})", l.depth)
            } else {
                String::new()
            };
            let head = format!("{:>2}. {score:>6}{behind}", i + 1);
            let room_for_pv = (inner_w as usize).saturating_sub(head.chars().count() + 2);
            let pv = s
                .board
                .as_ref()
                .map(|b| fit(&san_line(b, &l.pv, 30), room_for_pv))
                .unwrap_or_default();
            lines.push(Line::from(vec![
                Span::styled(head, text.add_modifier(Modifier::BOLD)),
                Span::raw("  "),
                Span::styled(pv, text),
            ]));
        }
    }
    Paragraph::new(lines)
        .block(block(&title, theme))
        .render_ref(area, buf);
}

/// `s` cut to `w` characters at a word boundary, with an ellipsis.
fn fit(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        return s.to_string();
    }
    let mut out = String::new();
    for word in s.split(' ') {
        let extra = if out.is_empty() { 0 } else { 1 };
        if out.chars().count() + extra + word.chars().count() + 1 > w {
            break;
        }
        if extra == 1 {
            out.push(' ');
        }
        out.push_str(word);
    }
    if w > 0 {
        out.push('…');
    }
    out
}

/// The eval bar: a vertical bar as tall as the board, White's share from
/// White's side of the board, with the number at the centre line.
pub(crate) fn draw_eval_bar(buf: &mut Buffer, app: &ChessView<'_>, area: Rect) {
    paint_eval_bar(
        buf,
        app.ui.theme(),
        area,
        app.s.current_eval(),
        app.ui.look.flipped,
    );
}

/// The eval graph: one column per half-move (squeezed when the game is
/// longer than the box is wide), White's advantage up, Black's down,
/// clamped at +-5 pawns; the current position marked.
pub(crate) fn draw_eval_graph(buf: &mut Buffer, app: &ChessView<'_>, area: Rect) {
    let theme = app.ui.theme();
    let dim = Style::default().fg(theme.dim);
    block("Evaluation (White's view)", theme).render_ref(area, buf);
    let inner = Rect::new(
        area.x + 1,
        area.y + 1,
        area.width.saturating_sub(2),
        area.height.saturating_sub(2),
    );
    if inner.width < 4 || inner.height < 2 {
        return;
    }
    // Replaying: the whole main line, the review's marks under it.
    let (series, current, marks): (Vec<Option<Score>>, usize, Vec<(usize, Judgement)>) =
        match app.replay() {
            Some(r) => {
                let main = r.main_nodes();
                let series = main
                    .iter()
                    .map(|&n| r.evals.get(n).copied().flatten())
                    .collect();
                let marks = main
                    .iter()
                    .enumerate()
                    .filter_map(|(ply, &n)| {
                        r.reviews
                            .get(n)
                            .and_then(|x| x.as_ref())
                            .and_then(|x| x.judgement)
                            .map(|j| (ply, j))
                    })
                    .collect();
                // In a variation: where it leaves the main line, at most.
                let last = main.len() - 1;
                (series, r.tree().ply(r.cursor).min(last), marks)
            }
            None => (app.s.evals.clone(), app.s.game.moves().len(), Vec::new()),
        };
    let known: Vec<(usize, Score)> = series
        .iter()
        .enumerate()
        .filter_map(|(i, e)| e.map(|s| (i, s)))
        .collect();
    if known.is_empty() {
        let text = if app.replay().is_some() {
            "no evaluations yet: r reviews the game"
        } else {
            "no evaluations yet"
        };
        buf.set_string(inner.x, inner.y, text, dim);
        return;
    }
    let plies = series.len().saturating_sub(1).max(current).max(1);
    let width = inner.width as usize;
    // Half-cell rows above and below the zero line.
    let half_rows = inner.height as i32; // total halves = 2 * height
    let zero = half_rows; // zero line in half-cells from the top
    let cap = 500.0;
    let to_halves = |s: Score| -> i32 {
        let v = match s.mate_plies() {
            Some(p) if p > 0 => cap,
            Some(_) => -cap,
            None => (s.0 as f64).clamp(-cap, cap),
        };
        let h = (v / cap * half_rows as f64).round() as i32;
        // A visible tick for any real advantage.
        if h == 0 && v.abs() >= 10.0 {
            v.signum() as i32
        } else {
            h
        }
    };
    // The game (start position included) is stretched over the width; a
    // column shows the last evaluation known at or before its half-move.
    let n = plies + 1;
    let ply_of = |c: usize| c * n / width;
    let mut cols: Vec<Option<Score>> = vec![None; width];
    for (c, col) in cols.iter_mut().enumerate() {
        let ply = ply_of(c);
        *col = known
            .iter()
            .take_while(|(p, _)| *p <= ply)
            .last()
            .map(|&(_, s)| s);
    }
    let col_of = |ply: usize| (ply * width / n).min(width - 1);
    let light = ratatui::style::Color::Rgb(230, 230, 230);
    let darkc = ratatui::style::Color::Rgb(90, 90, 90);
    for (c, v) in cols.iter().enumerate() {
        let Some(s) = v else { continue };
        let h = to_halves(*s);
        let x = inner.x + c as u16;
        for row in 0..inner.height {
            // Halves covered by this cell: top = 2*row, bottom = 2*row+1.
            let covered = |half: i32| -> bool {
                if h >= 0 {
                    half >= zero - h && half < zero
                } else {
                    half >= zero && half < zero - h
                }
            };
            let (top, bottom) = (covered(2 * row as i32), covered(2 * row as i32 + 1));
            if !top && !bottom {
                continue;
            }
            let colour = if h >= 0 { light } else { darkc };
            if let Some(cell) = buf.cell_mut((x, inner.y + row)) {
                match (top, bottom) {
                    (true, true) => {
                        cell.set_symbol("█").set_fg(colour);
                    }
                    (true, false) => {
                        cell.set_symbol("▀").set_fg(colour);
                    }
                    _ => {
                        cell.set_symbol("▄").set_fg(colour);
                    }
                }
            }
        }
    }
    // Mistakes of the review, on the bottom row.
    for (ply, j) in marks {
        let x = inner.x + col_of(ply) as u16;
        let colour = judgement_colour(theme, j);
        if let Some(cell) = buf.cell_mut((x, inner.y + inner.height - 1)) {
            cell.set_symbol("•").set_fg(colour);
        }
    }
    // The current position.
    let cur = col_of(current);
    if cur < width {
        let x = inner.x + cur as u16;
        if let Some(cell) = buf.cell_mut((x, inner.y)) {
            cell.set_symbol("▼").set_fg(theme.accent);
        }
    }
}

/// The colour of a review's mark: blunders in the error colour, mistakes
/// in the accent colour, inaccuracies in the hint colour.
pub fn judgement_colour(theme: &Theme, j: Judgement) -> ratatui::style::Color {
    match j {
        Judgement::Blunder => theme.error,
        Judgement::Mistake => theme.accent,
        Judgement::Inaccuracy => theme.hint,
    }
}
