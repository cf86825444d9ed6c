//! Drawing the repertoire drill's panel.

use super::RepertoireDrill;
use crate::ui::screens::chess::draw::view::*;

/// The drill's panel: whose repertoire, the verdict, the score so far.
pub(crate) fn draw_repertoire_panel(
    buf: &mut Buffer,
    app: &ChessView<'_>,
    d: &RepertoireDrill,
    area: Rect,
) {
    let theme = app.ui.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let mut lines = Vec::new();
    let title = match &d.asking {
        Some((side, _)) => {
            lines.push(Line::from(Span::styled(
                format!("Your {} repertoire: your move.", color_name(*side)),
                text,
            )));
            format!("Repertoire drill · {}", color_name(*side))
        }
        None => {
            lines.push(Line::from(Span::styled("Nothing due now.", text)));
            "Repertoire drill".to_string()
        }
    };
    if let Some((right, words)) = &d.verdict {
        let style = if *right {
            Style::default()
                .fg(theme.accent)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::default().fg(theme.error)
        };
        lines.push(Line::from(Span::styled(words.clone(), style)));
    }
    lines.push(Line::from(Span::styled(
        format!(
            "This time: {} right, {} wrong · due now: {}",
            d.right,
            d.wrong,
            d.due_now()
        ),
        dim,
    )));
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        format!(
            "{} shows your move (counts as wrong) · {} next position · {} leaves",
            app.ui.keys_hint(Action::Hint),
            app.ui.keys_hint(Action::NewGame),
            app.ui.keys_hint(Action::Quit)
        ),
        dim,
    )));
    Paragraph::new(lines)
        .wrap(ratatui::widgets::Wrap { trim: true })
        .block(block(&title, theme))
        .render_ref(area, buf);
}
