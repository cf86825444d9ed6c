//! The partners' box of the Bughouse panel: the requests that stand and
//! the messages so far, the newest at the bottom.

use super::*;
use crate::ui::screens::house::Show;
use crate::ui::view::widgets::block;

/// The partners' messages so far, the newest at the bottom.
pub(super) fn draw_chat(
    buf: &mut Buffer,
    theme: &Theme,
    show: &Show,
    live: Option<&crate::ui::screens::house::live::Live>,
    chat: &[&crate::ui::screens::house::ShowChat],
    standing: &[(String, Vec<(String, String)>)],
    area: Rect,
) {
    let blk = block("Partners", theme);
    let mut inner = blk.inner(area);
    blk.render_ref(area, buf);
    // The requests that stand, one per player who asked, on top (as the
    // bughouse clients show them), wrapped on words; the messages below.
    let (who_st, text_st) = (
        Style::default()
            .fg(theme.accent)
            .add_modifier(Modifier::BOLD),
        Style::default().fg(theme.text),
    );
    for (who, what) in standing {
        // In words when they fit on a line, else the shorthand ("++n sit").
        let words: Vec<&str> = what.iter().map(|w| w.1.as_str()).collect();
        let words = words.join(" · ");
        let who = who.split(" (").next().unwrap_or(who);
        let who = if who == "You" {
            "You ask: ".to_string()
        } else {
            format!("{who} asks: ")
        };
        let text = if who.chars().count() + words.chars().count() <= inner.width as usize {
            words
        } else {
            what.iter()
                .map(|w| w.0.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let who_len = who.chars().count();
        let chars: Vec<char> = who.chars().chain(text.chars()).collect();
        let rows = crate::ui::text::wrap_ranges(&chars, usize::from(inner.width));
        // Leave a row for the messages.
        if rows.len() >= usize::from(inner.height) {
            break;
        }
        for row in rows {
            for (k, i) in row.take(usize::from(inner.width)).enumerate() {
                if let Some(cell) = buf.cell_mut((inner.x + k as u16, inner.y)) {
                    cell.set_char(chars[i])
                        .set_style(if i < who_len { who_st } else { text_st });
                }
            }
            inner.y += 1;
            inner.height -= 1;
        }
    }
    if chat.is_empty() {
        buf.set_stringn(
            inner.x,
            inner.y,
            "no messages yet",
            usize::from(inner.width),
            Style::default().fg(theme.dim),
        );
        return;
    }
    // The newest at the bottom, long ones wrapped on words: the rows of
    // the newest messages that fit, wrapped straight into the buffer.
    let (name_st, text_st) = (
        Style::default().fg(theme.accent),
        Style::default().fg(theme.text),
    );
    let height = usize::from(inner.height);
    // Per message shown: its characters, where the text starts, its rows.
    let mut shown: Vec<(Vec<char>, usize, Vec<std::ops::Range<usize>>)> = Vec::new();
    let mut count = 0;
    for c in chat.iter().rev() {
        if count >= height {
            break;
        }
        // In a game being played, named from the person's side.
        let name = match live {
            Some(l) => l.short_name(c.from.0, c.from.1),
            None => show.seat_name(c.from.0, c.from.1),
        };
        let mut chars: Vec<char> = name.chars().collect();
        chars.extend([':', ' ']);
        let text_from = chars.len();
        chars.extend(c.text.chars());
        let rows = crate::ui::text::wrap_ranges(&chars, usize::from(inner.width));
        count += rows.len();
        shown.push((chars, text_from, rows));
    }
    let mut skip = count.saturating_sub(height);
    let mut y = inner.y;
    for (chars, text_from, rows) in shown.iter().rev() {
        for row in rows {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            for (k, i) in row.clone().take(usize::from(inner.width)).enumerate() {
                if let Some(cell) = buf.cell_mut((inner.x + k as u16, y)) {
                    cell.set_char(chars[i]).set_style(if i < *text_from {
                        name_st
                    } else {
                        text_st
                    });
                }
            }
            y += 1;
        }
    }
}
