//! Compare mode of the explorer: the same position searched with one
//! idea switched off per row, against a reference row.

use super::*;

pub(super) fn draw_compare<V: crate::engine::Variant>(
    buf: &mut Buffer,
    app: &Shared,
    ex: &Explorer<V>,
    area: Rect,
) {
    let theme = app.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let root = ex.pos.current();
    let mut lines = vec![
        Line::from(Span::styled(
            format!(
                "The same position searched to depth {} with one idea switched off (fresh engine each time):",
                ex.depth
            ),
            text,
        )),
        Line::from(""),
        Line::from(Span::styled(
            format!(
                "{:<40} {:>11} {:>9} {:>8} {:>8} {:>7}  {}",
                "search", "nodes", "× nodes", "time", "score", "best", "same answer?"
            ),
            dim,
        )),
    ];
    for r in &ex.compare {
        let base = ex.compare.get(r.reference).and_then(|b| b.result.clone());
        let row = match &r.result {
            None => format!("{:<40} {:>11}", r.label, "searching…"),
            Some(res) => {
                let ratio = base
                    .as_ref()
                    .filter(|b| b.nodes > 0)
                    .map(|b| format!("{:.1}", res.nodes as f64 / b.nodes as f64))
                    .unwrap_or_default();
                let best = res
                    .best
                    .filter(|&m| root.is_legal(m))
                    .map(|m| root.san(m))
                    .unwrap_or_else(|| "-".into());
                let same = match &base {
                    _ if res.stopped => format!(
                        "stopped at {}M nodes",
                        crate::ui::screens::explorer::COMPARE_NODE_LIMIT / 1_000_000
                    ),
                    Some(b) if b.best == res.best && b.score == res.score => "yes".into(),
                    Some(b) if b.best == res.best => "same move, other score".into(),
                    Some(_) => "different move".into(),
                    None => String::new(),
                };
                let vs = if r.reference == 0 {
                    String::new()
                } else {
                    format!(" (vs row {})", r.reference + 1)
                };
                format!(
                    "{:<40} {:>11} {:>9} {:>7.0}ms {:>8} {:>7}  {same}{vs}",
                    r.label,
                    res.nodes,
                    ratio,
                    res.time.as_secs_f64() * 1000.0,
                    show(res.score.0),
                    best
                )
            }
        };
        lines.push(Line::from(Span::styled(row, text)));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        "Alpha-beta changes the work, not the answer: plain minimax agrees with bare alpha-beta \
         (the last two rows) after many times the nodes. The selective ideas (null move, reductions, \
         pruning, quiescence) change what is searched, so they may change the score too.",
        dim,
    )));
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render_ref(area, buf);
}
