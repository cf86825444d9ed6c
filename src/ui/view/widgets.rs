//! Small drawing helpers shared by the views: the bordered block, text cut
//! to a width, a player's name, a key's label. The bottom layer of the
//! views: it uses nothing from the sibling view files.

use super::{Action, Shared, Theme};
use crate::ui::state::{Status, StatusKind};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders};

/// A bordered block with a bold title in the accent colour.
pub(crate) fn block<'a>(title: &'a str, theme: &Theme) -> Block<'a> {
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

/// [`block`] with a second title in its bottom border (dim, after the
/// top one: the rest of a long name).
pub(crate) fn block_with_bottom<'a>(
    title: &'a str,
    bottom: Option<String>,
    theme: &Theme,
) -> Block<'a> {
    let b = block(title, theme);
    match bottom {
        Some(rest) => b.title_bottom(Span::styled(
            format!(" {rest} "),
            Style::default().fg(theme.accent),
        )),
        None => b,
    }
}

/// A footer of keys, `spans` in pairs (the key, then " label  "), fitted to
/// `width`: the keys every screen keeps (help, quit, back) stay, and the
/// others go from the end until it fits (the help lists them all).
pub(crate) fn fit_footer(spans: Vec<Span<'_>>, width: u16) -> ratatui::text::Line<'_> {
    let kept = |label: &Span<'_>| {
        let l = label.content.trim();
        l == "help" || l == "quit" || l.starts_with("back")
    };
    let mut pairs: Vec<(Span<'_>, Span<'_>)> = Vec::new();
    let mut it = spans.into_iter();
    while let (Some(k), Some(l)) = (it.next(), it.next()) {
        pairs.push((k, l));
    }
    let len = |p: &[(Span<'_>, Span<'_>)]| {
        p.iter()
            .map(|(k, l)| k.content.chars().count() + l.content.chars().count())
            .sum::<usize>()
    };
    while len(&pairs) > usize::from(width) {
        let Some(i) = pairs.iter().rposition(|(_, l)| !kept(l)) else {
            break;
        };
        pairs.remove(i);
    }
    ratatui::text::Line::from(
        pairs
            .into_iter()
            .flat_map(|(k, l)| [k, l])
            .collect::<Vec<_>>(),
    )
}

/// `s` cut to `w` characters, with an ellipsis when cut.
pub(crate) fn fit(s: &str, w: usize) -> String {
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

/// The titles of a move list's box: the opening's name (or "Moves") on
/// the top border, the rest of a long name on the bottom border, or where
/// even that is too short, on the box's first rows (`inside`, at most two).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MovesTitles {
    pub top: String,
    pub bottom: Option<String>,
    pub inside: Vec<String>,
}

/// The titles of a move list `width` cells wide: the opening when one is
/// named ("C65 Ruy Lopez: Berlin Defense", `note` kept after it), as
/// lichess names it above its moves; else "Moves" and `note`. A name too
/// long for the top border goes on in the bottom one, split where lichess
/// splits it (after the family's colon, or else between words), or on the
/// first rows inside when it is longer still: the whole name is read.
pub(crate) fn moves_titles(opening: Option<String>, note: &str, width: u16) -> MovesTitles {
    let room = width.saturating_sub(4) as usize;
    let note_len = if note.is_empty() {
        0
    } else {
        note.chars().count() + 1
    };
    let with_note = |s: &str| {
        if note.is_empty() {
            s.to_string()
        } else {
            format!("{s} {note}")
        }
    };
    let only = |top: String| MovesTitles {
        top,
        bottom: None,
        inside: Vec::new(),
    };
    let Some(name) = opening else {
        return only(with_note("Moves"));
    };
    let top_room = room.saturating_sub(note_len);
    if name.chars().count() <= top_room {
        return only(with_note(&name));
    }
    // Where the top part may end: after the family (`: `), else after a
    // comma or a word; the longest that fits.
    let cut = name
        .rmatch_indices(": ")
        .map(|(i, _)| i + 1)
        .find(|&i| name[..i].chars().count() <= top_room)
        .or_else(|| {
            name.match_indices(' ')
                .map(|(i, _)| i)
                .rfind(|&i| i > 0 && name[..i].chars().count() <= top_room)
        });
    let Some(i) = cut else {
        return only(with_note(&fit(&name, top_room)));
    };
    let (top, rest) = name.split_at(i);
    let top = with_note(top.trim_end_matches(':'));
    let rest = rest.trim_start_matches([':', ' ']);
    if rest.chars().count() <= room {
        return MovesTitles {
            top,
            bottom: Some(rest.to_string()),
            inside: Vec::new(),
        };
    }
    // Inside the box, two rows at most (its borders take two columns).
    let inner = usize::from(width.saturating_sub(2)).max(1);
    let chars: Vec<char> = rest.chars().collect();
    let rows = crate::ui::text::wrap_ranges(&chars, inner);
    let mut inside: Vec<String> = rows
        .iter()
        .take(2)
        .map(|r| chars[r.clone()].iter().collect())
        .collect();
    if rows.len() > 2
        && let Some(last) = inside.last_mut()
    {
        *last = fit(&format!("{last} …"), inner);
    }
    MovesTitles {
        top,
        bottom: None,
        inside,
    }
}

/// The first key bound to `a`, or "-".
pub(crate) fn key_label(ui: &Shared, a: Action) -> String {
    ui.keys
        .keys_for(a)
        .first()
        .cloned()
        .unwrap_or_else(|| "-".into())
}

/// The status message as shown: an error in bold red, news plainly.
pub(crate) fn status_span(s: &Status, theme: &Theme) -> Span<'static> {
    let st = match s.kind {
        StatusKind::Error => Style::default()
            .fg(theme.error)
            .add_modifier(Modifier::BOLD),
        StatusKind::Info => Style::default().fg(theme.text),
    };
    Span::styled(s.text.clone(), st)
}

/// The keyboard cursor on the square drawn at `r`: brackets at its sides
/// (a coloured square where there is no room for them).
pub(crate) fn cursor_mark(buf: &mut Buffer, r: Rect, theme: &Theme, m: Style) {
    if r.width >= 3 {
        buf.set_string(r.x, r.y + r.height / 2, "[", m);
        buf.set_string(r.x + r.width - 1, r.y + r.height / 2, "]", m);
    } else {
        buf.set_style(r, Style::default().bg(theme.cursor));
    }
}

#[cfg(test)]
mod tests {
    use super::moves_titles;

    #[test]
    fn a_long_opening_name_goes_on_in_the_bottom_border_or_inside_whole() {
        let name = "B36 Sicilian Defense: Accelerated Dragon, Maróczy Bind";
        let titles = |w| {
            let t = moves_titles(Some(name.into()), "", w);
            (t.top, t.bottom, t.inside)
        };
        // Wide enough: all of it on top, the note after it.
        assert_eq!(
            moves_titles(Some(name.into()), "(↑2)", 80).top,
            format!("{name} (↑2)")
        );
        // At 36 columns: the family on top, the variation below.
        assert_eq!(
            titles(36),
            (
                "B36 Sicilian Defense".into(),
                Some("Accelerated Dragon, Maróczy Bind".into()),
                vec![]
            )
        );
        // At 33 (the panel at 80x24) the variation is too long for the
        // bottom border: it goes on the box's first rows.
        assert_eq!(
            titles(33),
            (
                "B36 Sicilian Defense".into(),
                None,
                vec!["Accelerated Dragon, Maróczy".into(), "Bind".into()]
            )
        );
        // No colon that fits: split between words, the rest inside.
        let (top, bottom, inside) = titles(16);
        assert_eq!((top.as_str(), bottom), ("B36 Sicilian", None));
        assert_eq!(inside, ["Defense:", "Accelerated …"]);
        // No opening: "Moves" and the note.
        assert_eq!(
            moves_titles(None, "(↑↓ variations)", 40).top,
            "Moves (↑↓ variations)"
        );
    }
}
