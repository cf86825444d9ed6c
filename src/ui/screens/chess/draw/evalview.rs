//! The evaluation breakdown: every term of the evaluation for White and
//! Black, middlegame and endgame parts, the game phase and the tapered
//! total, for the full evaluation and Michniewski's simple one side by side
//! (one at a time, Tab to switch, when the terminal is narrow). The numbers
//! are the engine's own (`eval::trace`): the parts add up to its score.

use crate::engine::eval::{self, EvalTrace};
use crate::engine::{Engine, EvalKind};
use crate::ui::player::EngineSpec;
use crate::ui::screens::chess::draw::view::*;

const TABLE_W: u16 = 56;

fn table(t: &EvalTrace, theme: &Theme, turn: Color, level: Option<u8>) -> Vec<Line<'static>> {
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let bold = text.add_modifier(Modifier::BOLD);
    let title = match (t.kind, level) {
        (EvalKind::Full | EvalKind::Nnue, None) => "Full evaluation (tuned, tapered)".to_string(),
        (EvalKind::Full | EvalKind::Nnue, Some(l)) => {
            format!("Full evaluation (level {l}'s weights, tapered)")
        }
        (EvalKind::Simple, _) => "Simple evaluation (Michniewski)".to_string(),
    };
    let mut lines = vec![
        Line::from(Span::styled(
            title,
            Style::default()
                .fg(theme.accent)
                .add_modifier(Modifier::BOLD),
        )),
        Line::from(Span::styled(
            format!(
                "{:<20} {:>11} {:>11} {:>7}",
                "centipawns", "White", "Black", "total"
            ),
            dim,
        )),
        Line::from(Span::styled(
            format!(
                "{:<20} {:>5} {:>5} {:>5} {:>5} {:>7}",
                "", "mg", "eg", "mg", "eg", "(White)"
            ),
            dim,
        )),
    ];
    for term in &t.terms {
        let zero =
            term.white.mg == 0 && term.white.eg == 0 && term.black.mg == 0 && term.black.eg == 0;
        lines.push(Line::from(Span::styled(
            format!(
                "{:<20} {:>5} {:>5} {:>5} {:>5} {:>+7}",
                term.term.name(),
                term.white.mg,
                term.white.eg,
                term.black.mg,
                term.black.eg,
                term.net()
            ),
            if zero { dim } else { text },
        )));
    }
    let phase_name = match t.phase {
        p if p >= 20 => "opening/middlegame",
        p if p >= 8 => "middlegame",
        p if p > 0 => "endgame",
        _ => "pawn ending",
    };
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        format!(
            "phase {}/24 ({phase_name}), endgame scale {}/128",
            t.phase, t.scale
        ),
        text,
    )));
    lines.push(Line::from(Span::styled(
        format!("White − Black: mg {:+}, eg {:+}", t.mg, t.eg),
        text,
    )));
    if t.kind == EvalKind::Full {
        lines.push(Line::from(Span::styled(
            "total = (mg·phase + eg·(24−phase))/24 · scale/128",
            dim,
        )));
    }
    let stm = match turn {
        Color::White => "White",
        Color::Black => "Black",
    };
    lines.push(Line::from(Span::styled(
        format!(
            "total: {:+} for White, {:+} for {stm} to move",
            t.white, t.score
        ),
        bold,
    )));
    lines
}

pub(crate) fn draw_eval(buf: &mut Buffer, app: &ChessView<'_>, simple_first: bool, area: Rect) {
    let theme = app.ui.theme();
    let board = app.s.board();
    // Against a built-in level 1-7 the full table explains what that
    // level evaluates with: the weights it was calibrated with.
    let level = match (app.s.mode, &app.s.opponent.spec) {
        (Mode::HumanVsHuman, _) => None,
        (_, EngineSpec::BuiltIn { level }) => Some(*level).filter(|&l| {
            Level::new(l).is_some_and(|l| {
                Engine::weights_for(crate::engine::Strength::level(l)) == eval::WeightSet::Levels
            })
        }),
        _ => None,
    };
    let weights = level.map_or(eval::WeightSet::Tuned, |_| eval::WeightSet::Levels);
    let full = eval::trace_with(board.chess(), EvalKind::Full, weights);
    let simple = eval::trace(board.chess(), EvalKind::Simple);
    let both = area.width >= 2 * TABLE_W + 5;
    let (left, right) = if both {
        (
            table(&full, theme, board.turn(), level),
            Some(table(&simple, theme, board.turn(), None)),
        )
    } else if simple_first {
        (table(&simple, theme, board.turn(), None), None)
    } else {
        (table(&full, theme, board.turn(), level), None)
    };
    let rows = left.len().max(right.as_ref().map_or(0, Vec::len)) as u16;
    let w = if both { 2 * TABLE_W + 5 } else { TABLE_W + 2 };
    let r = centered(area, w, rows + 4);
    Clear.render_ref(r, buf);
    let hint = if both {
        "any key closes"
    } else {
        "Tab: the other evaluation, any other key closes"
    };
    Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(theme.border))
        .title(Span::styled(
            " Evaluation of this position ",
            Style::default()
                .fg(theme.accent)
                .add_modifier(Modifier::BOLD),
        ))
        .title_bottom(Span::styled(
            format!(" {hint} "),
            Style::default().fg(theme.dim),
        ))
        .style(Style::default().bg(theme.background))
        .render_ref(r, buf);
    let inner = Rect::new(
        r.x + 1,
        r.y + 1,
        r.width.saturating_sub(2),
        r.height.saturating_sub(2),
    );
    let lw = if both { TABLE_W } else { inner.width };
    Paragraph::new(left).render_ref(
        Rect::new(inner.x, inner.y, lw.min(inner.width), inner.height),
        buf,
    );
    if let Some(right) = right {
        let x = inner.x + TABLE_W + 3;
        Paragraph::new(right).render_ref(
            Rect::new(
                x,
                inner.y,
                inner.width.saturating_sub(TABLE_W + 3),
                inner.height,
            ),
            buf,
        );
    }
}
