//! The help screen: its text, where it sits, and how far it scrolls.
//! Shared by the view (which draws it) and the app (which scrolls it), so
//! neither has to import the other.

use super::keymap::{Action, ReplayAction};
use super::state::Shared;
use super::text::wrap_styled;
use ratatui::layout::Rect;

/// What a piece of the help is: a key or text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Key,
    Text,
}

/// One line of the help.
pub type Row = Vec<(String, Part)>;

/// Lines of keys: their descriptions wrap to this column.
const KEY_COL: usize = 18;

/// How to close the help (its last line, and its bottom border).
pub const CLOSE: &str = "Esc or ? closes this help, and so does any key that does not scroll it.";

/// The help's title and its lines (not wrapped) for the screen shown.
pub fn content(app: &Shared, replaying: bool) -> (&'static str, Vec<Row>) {
    let key_row = |keys: &str, what: &str| {
        vec![
            (format!("{keys:>16}  "), Part::Key),
            (what.to_string(), Part::Text),
        ]
    };
    let text_row = |l: &str| vec![(l.to_string(), Part::Text)];
    let mut lines: Vec<Row> = Vec::new();
    if replaying {
        for a in ReplayAction::ALL {
            let keys = app.config.replay_keys.keys_for(*a).join(", ");
            lines.push(key_row(&keys, a.description()));
        }
        lines.push(Vec::new());
        for a in Action::ALL.iter().filter(|a| {
            !matches!(
                a,
                Action::Takeback
                    | Action::Hint
                    | Action::Resign
                    | Action::OfferDraw
                    | Action::Pause
                    | Action::Up
                    | Action::Down
                    | Action::Left
                    | Action::Right
                    | Action::Select
                    | Action::ScrollUp
                    | Action::ScrollDown
                    | Action::Open
                    | Action::TypeMove
            )
        }) {
            // Replay keys win where both are bound.
            let keys: Vec<String> = app
                .keys
                .keys_for(*a)
                .into_iter()
                .filter(|k| {
                    !ReplayAction::ALL
                        .iter()
                        .any(|r| app.config.replay_keys.keys_for(*r).contains(k))
                })
                .collect();
            if keys.is_empty() {
                continue;
            }
            lines.push(key_row(&keys.join(", "), a.description()));
        }
        lines.push(Vec::new());
        for l in [
            "Digits go to a move number (23, 23b). Click a move in the list to go there, or the eval graph. Variations are in parentheses: step into one with the arrows up/down at its first move. Try your own moves: click a piece and its square, or type one after ':'.",
            "Review marks ?! inaccuracies, ? mistakes and ?? blunders: a move that loses 5, 10 or 15 percentage points of winning chance.",
            "",
            CLOSE,
        ] {
            lines.push(text_row(l));
        }
        return ("Replay keys", lines);
    }
    for a in Action::ALL {
        let keys = app.keys.keys_for(*a).join(", ");
        lines.push(key_row(&keys, a.description()));
    }
    lines.push(Vec::new());
    for l in [
        "Type a move in SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI (e2e4) and press Enter: files a-h, piece capitals K Q R B N and O begin a move, so no command sits on them. Lower-case piece letters are commands (n, q); ':' opens the move box for any spelling (nf3).",
        "h moves the cursor unless the next key makes it a move (h3).",
        "Mouse: click a piece, then its destination, or drag it.",
        "Ctrl+C quits at any time. Games are saved after every move.",
        "",
        CLOSE,
    ] {
        lines.push(text_row(l));
    }
    ("Keys", lines)
}

/// The help laid out in `area`.
pub struct HelpView {
    pub title: &'static str,
    /// The box, border included.
    pub rect: Rect,
    /// Every line, wrapped to the box.
    pub rows: Vec<Row>,
    /// The first line shown (the scroll position, kept in range).
    pub first: usize,
    /// Lines shown at once.
    pub visible: usize,
}

impl HelpView {
    /// The furthest the help scrolls.
    pub fn max_scroll(&self) -> usize {
        self.rows.len().saturating_sub(self.visible)
    }
}

/// The help box centred in `area`: as wide as its longest line (72 at
/// least) or the screen, its lines wrapped to it, scrolled by `scroll`.
pub fn help_view(app: &Shared, replaying: bool, area: Rect, scroll: u16) -> HelpView {
    let (title, lines) = content(app, replaying);
    let longest = lines
        .iter()
        .map(|l| l.iter().map(|(s, _)| s.chars().count()).sum::<usize>())
        .filter(|&n| n <= 100)
        .max()
        .unwrap_or(0) as u16;
    let w = (longest + 2).max(72).min(area.width);
    let inner_w = w.saturating_sub(2).max(1) as usize;
    let rows: Vec<Row> = lines
        .iter()
        .flat_map(|l| {
            let indent = if l.first().is_some_and(|p| p.1 == Part::Key) {
                KEY_COL
            } else {
                0
            };
            wrap_styled(l, inner_w, indent)
        })
        .collect();
    let h = (rows.len() as u16).saturating_add(2).min(area.height);
    let visible = h.saturating_sub(2) as usize;
    let rect = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    let mut v = HelpView {
        title,
        rect,
        rows,
        first: 0,
        visible,
    };
    v.first = (scroll as usize).min(v.max_scroll());
    v
}
