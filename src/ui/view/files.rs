//! Drawing the file picker and the progress of a file being opened (the
//! overlays above every screen).

use super::widgets::*;
use super::*;
use crate::ui::screens::chess::replay::FilePicker;
use crate::ui::state::Opening;

/// The file picker.
pub(crate) fn draw_files(buf: &mut Buffer, app: &Shared, p: &FilePicker, area: Rect) {
    let theme = app.theme();
    let w = area.width.saturating_sub(4).min(90);
    // The status lines stay in sight below it: why Enter opened nothing
    // is said there.
    let h = area.height.saturating_sub(5).min(30);
    let inner = popup(buf, area, w, h, "Open a game file", theme);
    if inner.height < 4 {
        return;
    }
    let iw = inner.width as usize;
    let prompt = format!("Name or path: {}▏", p.filter);
    buf.set_stringn(
        inner.x,
        inner.y,
        &prompt,
        iw,
        Style::default().fg(theme.accent),
    );
    let shown = p.shown();
    let visible = inner.height.saturating_sub(3) as usize;
    let first = if p.selected >= visible {
        p.selected + 1 - visible
    } else {
        0
    };
    if shown.is_empty() {
        buf.set_stringn(
            inner.x,
            inner.y + 2,
            "No game files match. Type a path to a PGN or move-history file and press Enter.",
            iw,
            Style::default().fg(theme.dim),
        );
    }
    for (i, e) in shown.iter().enumerate().skip(first).take(visible) {
        let y = inner.y + 2 + (i - first) as u16;
        let name = e
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let size = if e.size >= 1 << 20 {
            format!("{:.1} MB", e.size as f64 / (1u64 << 20) as f64)
        } else {
            format!("{} KB", e.size.div_ceil(1024))
        };
        let row = format!(
            "{:<7} {:<nw$} {:>9}",
            e.place,
            fit(&name, iw.saturating_sub(20)),
            size,
            nw = iw.saturating_sub(20)
        );
        let style = if i == p.selected {
            Style::default().fg(theme.background).bg(theme.accent)
        } else {
            Style::default().fg(theme.text)
        };
        buf.set_stringn(inner.x, y, format!("{row:<iw$}"), iw, style);
    }
    buf.set_stringn(
        inner.x,
        inner.y + inner.height - 1,
        "↑↓ choose · type to filter or a path · Enter open · Esc close",
        iw,
        Style::default().fg(theme.dim),
    );
}

/// Progress of a file being opened.
pub(crate) fn draw_opening(buf: &mut Buffer, app: &Shared, o: &Opening, area: Rect) {
    let theme = app.theme();
    let name = o
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bar_w = 30usize;
    let filled = ((o.share.clamp(0.0, 1.0)) * bar_w as f64).round() as usize;
    let bar = format!(
        "{}{} {:>3.0}%",
        "█".repeat(filled),
        "░".repeat(bar_w - filled),
        o.share * 100.0
    );
    let first = format!("Indexing {}", fit(&name, 40));
    draw_message(
        buf,
        theme,
        area,
        "Opening",
        &[&first, &bar, "", "Esc cancels"],
    );
}
