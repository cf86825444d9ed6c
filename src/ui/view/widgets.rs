//! Small drawing helpers shared by the views: the bordered block, text cut
//! to a width, a player's name, a key's label. The bottom layer of the
//! views: it uses nothing from the sibling view files.

use super::{Action, ChessView, Shared, Theme};
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders};
use shakmaty::Color;

/// A bordered block with a bold title in the accent colour.
pub(super) fn block<'a>(title: &'a str, theme: &Theme) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(theme.border))
        .title(Span::styled(
            format!(" {title} "),
            Style::default()
                .fg(theme.accent)
                .add_modifier(Modifier::BOLD),
        ))
}

/// `s` cut to `w` characters, with an ellipsis when cut.
pub(super) fn fit(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        s.to_string()
    } else if w > 1 {
        let mut t: String = s.chars().take(w - 1).collect();
        t.push('…');
        t
    } else {
        String::new()
    }
}

/// The name of the player of `c` from the game's headers ("White" or
/// "Black" when there is none).
pub(super) fn player_name(app: &ChessView<'_>, c: Color) -> String {
    let key = match c {
        Color::White => "White",
        Color::Black => "Black",
    };
    app.s.game.header(key).unwrap_or(key).to_string()
}

/// The first key bound to `a`, or "-".
pub(super) fn key_label(ui: &Shared, a: Action) -> String {
    ui.keys
        .keys_for(a)
        .first()
        .cloned()
        .unwrap_or_else(|| "-".into())
}
