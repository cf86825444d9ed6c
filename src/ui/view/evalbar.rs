//! The evaluation bar: White's share of the winning chances as a column
//! (the chess and the Crazyhouse/Bughouse screens draw it).

use super::*;
use crate::engine::Score;

/// White's winning chances from a White-view score (as Lichess draws its
/// bar): 0.5 at equality, 0.73 at +1.6 pawns, 1 for a mate.
pub fn white_share(s: Score) -> f64 {
    match s.mate_plies() {
        Some(p) if p > 0 => 1.0,
        Some(_) => 0.0,
        None => 1.0 / (1.0 + (-0.00368208 * s.0 as f64).exp()),
    }
}

/// The bar's number, White's view with its sign as the panel writes it:
/// "+0.4", "-9.7", "+13", "#3" (White mates), "#-12".
pub fn bar_label(score: Score) -> String {
    match score.mate_moves() {
        Some(n) => format!("#{n}"),
        None => {
            let pawns = score.0 as f64 / 100.0;
            if pawns.abs() >= 9.95 {
                format!("{pawns:+.0}")
            } else {
                format!("{pawns:+.1}")
            }
        }
    }
}

/// The eval bar of `score` (White's view; none yet: a thin line), White's
/// part at the bottom unless `white_on_top` (the board is flipped). Shared
/// by the chess and the Crazyhouse/Bughouse screens.
pub(crate) fn paint_eval_bar(
    buf: &mut Buffer,
    theme: &Theme,
    area: Rect,
    score: Option<Score>,
    white_on_top: bool,
) {
    let Some(score) = score else {
        let st = Style::default().fg(theme.dim).bg(theme.background);
        for y in area.y..area.y + area.height {
            buf.set_string(area.x, y, "│", st);
        }
        return;
    };
    let white = ratatui::style::Color::Rgb(236, 236, 236);
    let black = ratatui::style::Color::Rgb(48, 48, 48);
    // In half-cells from the top; White's part lies on White's side of the
    // board (the bottom unless the board is flipped).
    let total = area.height * 2;
    let white_halves = (white_share(score) * f64::from(total)).round() as u16;
    let is_white = |half: u16| {
        if white_on_top {
            half < white_halves
        } else {
            half >= total - white_halves
        }
    };
    let c = |w: bool| if w { white } else { black };
    for i in 0..area.height {
        let (top, bottom) = (is_white(2 * i), is_white(2 * i + 1));
        for x in area.x..area.x + area.width {
            if let Some(cell) = buf.cell_mut((x, area.y + i)) {
                if top == bottom {
                    cell.set_symbol(" ").set_bg(c(top));
                } else {
                    cell.set_symbol("▀").set_fg(c(top)).set_bg(c(bottom));
                }
            }
        }
    }
    // The number, on the losing side's colour for contrast, mid-board.
    let label = bar_label(score);
    let y = area.y + area.height / 2;
    let (fg, bg) = if score.0 >= 0 {
        (black, white)
    } else {
        (white, black)
    };
    // Centred in the bar; a number wider than the bar ("+1.5" in three
    // cells) reaches into the gap beside it, its digits in the bar.
    let len = label.chars().count() as u16;
    let st = Style::default().fg(fg).bg(bg).add_modifier(Modifier::BOLD);
    if len <= area.width {
        let text = format!("{label:^w$}", w = area.width as usize);
        buf.set_string(area.x, y, text, st);
    } else {
        let x = (area.x + area.width).saturating_sub(len);
        buf.set_string(area.x, y, " ".repeat(area.width as usize), st);
        buf.set_stringn(x, y, &label, usize::from(len), st);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_says_who_is_better() {
        assert_eq!(bar_label(Score(40)), "+0.4");
        assert_eq!(bar_label(Score(-973)), "-9.7");
        assert_eq!(bar_label(Score(-166)), "-1.7");
        assert_eq!(bar_label(Score(1320)), "+13");
        assert_eq!(bar_label(Score(0)), "+0.0");
        assert_eq!(bar_label(Score::mate_in(5)), "#3");
        assert_eq!(bar_label(Score::mated_in(4)), "#-2");
    }
}
