//! The list of the file's games, drawn over the Crazyhouse/Bughouse
//! screen when open.

use super::*;
use crate::ui::screens::house::HouseReplay;
use crate::ui::view::widgets::block;

/// The games of the file, when the list is open.
pub(super) fn draw_list(buf: &mut Buffer, app: &Shared, h: &HouseReplay, area: Rect) {
    let Some(sel) = h.list else { return };
    let theme = app.theme();
    let w = (area.width.saturating_sub(4)).min(80);
    let rows = (h.games.len() as u16 + 2)
        .min(area.height.saturating_sub(2))
        .max(3);
    let r = centered(area, w, rows);
    Clear.render_ref(r, buf);
    let blk = block("Games: Enter shows, Esc closes", theme);
    let inner = blk.inner(r);
    blk.render_ref(r, buf);
    let visible = inner.height as usize;
    let first = sel.saturating_sub(visible.saturating_sub(1));
    for (row, i) in (first..h.games.len()).take(visible).enumerate() {
        let text = match &h.games[i] {
            Ok(s) => format!("{:>3}. {}", i + 1, s.title),
            Err(e) => format!("{:>3}. cannot be read: {e}", i + 1),
        };
        let mut st = Style::default().fg(theme.text);
        if i == sel {
            st = st.bg(theme.selected).add_modifier(Modifier::BOLD);
        }
        Paragraph::new(Span::styled(text, st)).render_ref(
            Rect::new(inner.x, inner.y + row as u16, inner.width, 1),
            buf,
        );
    }
}
