//! The analysis box of the Crazyhouse/Bughouse panel: the analysis when
//! on, else the search of the engine playing on the watched board (with a
//! note for an engine below full strength).

use super::*;
use crate::ui::screens::house::Show;
use crate::ui::view::widgets::block;
use crate::variant::VariantKind;

/// The lines to show under the moves, their title and a note: the
/// analysis when on, else the search of the engine that plays on the
/// watched board (noted when it plays at a level below full strength,
/// which may then play another move: the move it chose, once it moved).
pub(super) fn panel_analysis<'a>(
    live: Option<&'a crate::ui::screens::house::live::Live>,
    show: &Show,
    width: u16,
) -> (
    Option<&'a crate::ui::screens::house::live::Analysis>,
    String,
    Option<String>,
) {
    match live.and_then(|l| l.assistant.analysis.as_ref()) {
        Some(a) => {
            let t = if show.kind == VariantKind::Bughouse {
                format!("Analysis, board {}", if a.board == 0 { 'A' } else { 'B' })
            } else {
                "Analysis".to_string()
            };
            (Some(a), t, None)
        }
        None => match live.and_then(|l| l.search.as_ref()) {
            Some((seat, a)) => {
                let (b, c) = crate::ui::screens::house::live::seat_of(*seat);
                let name = show
                    .players
                    .get(b)
                    .map_or(String::new(), |p| p[usize::from(c == Color::Black)].clone());
                let note = live.and_then(|l| weak_note(l, show, *seat, a));
                // The box's title: "Search: " between its corners.
                let name = crate::ui::text::fit_name(&name, usize::from(width.saturating_sub(12)));
                (Some(a), format!("Search: {name}"), note)
            }
            None => (None, String::new(), None),
        },
    }
}

/// For an engine playing below full strength: the search shown is its
/// level's, and the move it chose once it moved ("level 2 played Nf3"),
/// else that it may play another move than the line's first.
fn weak_note(
    l: &crate::ui::screens::house::live::Live,
    show: &Show,
    seat: usize,
    a: &crate::ui::screens::house::live::Analysis,
) -> Option<String> {
    use crate::ui::player::EngineSpec;
    use crate::ui::screens::house::live::Player;
    let (b, c) = crate::ui::screens::house::live::seat_of(seat);
    let level = match l.player(b, c) {
        Player::Engine(EngineSpec::BuiltIn { level })
            if *level < crate::engine::Level::MAX.get() =>
        {
            *level
        }
        _ => return None,
    };
    // It moved once its side is no longer to move on the board searched:
    // its move is the board's last.
    let played = (b == a.board && l.board(b).turn() != c)
        .then(|| {
            show.moves
                .iter()
                .rev()
                .find(|m| m.board == b && m.color == c)
        })
        .flatten();
    Some(match played {
        Some(m) => format!("level {level}'s search; it played {}", m.san),
        None => format!("level {level}'s search: it may play another move"),
    })
}

/// The analysis box: a note, the point of view, then depth, score, nodes
/// and line, deepest first.
pub(super) fn draw_analysis(
    buf: &mut Buffer,
    theme: &Theme,
    a: &crate::ui::screens::house::live::Analysis,
    title: &str,
    note: Option<&str>,
    r: Rect,
) {
    let blk = block(title, theme);
    let mut inner = blk.inner(r);
    blk.render_ref(r, buf);
    let dim = Style::default().fg(theme.dim);
    let accent = Style::default().fg(theme.accent);
    for (text, st) in [(note, accent), (Some("scores: White's view"), dim)] {
        let Some(text) = text else { continue };
        // Wrapped on words, leaving a row for the lines.
        let chars: Vec<char> = text.chars().collect();
        for row in crate::ui::text::wrap_ranges(&chars, usize::from(inner.width)) {
            if inner.height <= 1 {
                break;
            }
            let piece: String = chars[row].iter().collect();
            buf.set_stringn(inner.x, inner.y, piece, usize::from(inner.width), st);
            inner.y += 1;
            inner.height -= 1;
        }
    }
    let lines: Vec<Line> = a
        .lines
        .iter()
        .rev()
        .take(inner.height as usize)
        .map(|(depth, score, nodes, line)| {
            Line::from(vec![
                Span::styled(format!("{depth:>2} "), Style::default().fg(theme.dim)),
                Span::styled(
                    format!("{:>6} ", score_text(*score)),
                    Style::default().fg(theme.text).add_modifier(Modifier::BOLD),
                ),
                Span::styled(
                    format!("{:>6} ", short_count(*nodes)),
                    Style::default().fg(theme.dim),
                ),
                Span::styled(line.clone(), Style::default().fg(theme.text)),
            ])
        })
        .collect();
    if lines.is_empty() {
        Paragraph::new(Span::styled("thinking...", Style::default().fg(theme.dim)))
            .render_ref(inner, buf);
    } else {
        Paragraph::new(lines).render_ref(inner, buf);
    }
}

/// 1234 -> "1234", 1234567 -> "1.2M".
fn short_count(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{}k", n / 1000),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}
