//! Drawing: a pure function of the app state (`draw` never changes it).

use super::app::{
    App, DIALOG_FIELDS, Mode, NewGameDialog, Overlay, PROMOTIONS, SIDES, StatusKind, color_name,
    describe_ending, san_line, score_text, shown_to, time_choices,
};
use super::config::Action;
use super::theme::Theme;
use crate::engine::Level;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use shakmaty::{Color, Piece, Position, Role, Square};
use std::time::Instant;

/// The smallest terminal the app draws in.
pub const MIN_W: u16 = 58;
pub const MIN_H: u16 = 12;
const PANEL_MIN_W: u16 = 30;
const STATUS_H: u16 = 2;

/// Where the board sits on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardGeometry {
    /// Top-left of the a8 square (h1 when flipped).
    pub x: u16,
    pub y: u16,
    pub sq_w: u16,
    pub sq_h: u16,
}

impl BoardGeometry {
    /// The square under a screen cell.
    pub fn square_at(&self, col: u16, row: u16, flipped: bool) -> Option<Square> {
        if col < self.x || row < self.y {
            return None;
        }
        let c = (col - self.x) / self.sq_w;
        let r = (row - self.y) / self.sq_h;
        if c >= 8 || r >= 8 {
            return None;
        }
        let (file, rank) = if flipped { (7 - c, r) } else { (c, 7 - r) };
        Some(Square::from_coords(
            shakmaty::File::new(u32::from(file)),
            shakmaty::Rank::new(u32::from(rank)),
        ))
    }

    /// Screen rectangle of a square.
    pub fn rect_of(&self, sq: Square, flipped: bool) -> Rect {
        let (f, r) = (sq.file() as u16, sq.rank() as u16);
        let (c, row) = if flipped { (7 - f, r) } else { (f, 7 - r) };
        Rect::new(
            self.x + c * self.sq_w,
            self.y + row * self.sq_h,
            self.sq_w,
            self.sq_h,
        )
    }
}

pub struct Layout {
    pub board: BoardGeometry,
    pub panel: Rect,
    pub status: Rect,
}

/// Square sizes from large to small: (width, height) in cells.
const SIZES: [(u16, u16); 5] = [(11, 5), (9, 4), (7, 3), (5, 2), (3, 1)];

/// The screen layout, or `None` when the terminal is too small.
pub fn layout(area: Rect) -> Option<Layout> {
    if area.width < MIN_W || area.height < MIN_H {
        return None;
    }
    let avail_h = area.height - STATUS_H;
    let (sq_w, sq_h) = SIZES
        .iter()
        .copied()
        .find(|&(w, h)| 2 + 8 * w + 1 + PANEL_MIN_W <= area.width && 8 * h < avail_h)?;
    let board_w = 2 + 8 * sq_w;
    let board_h = 8 * sq_h + 1;
    let top = area.y + (avail_h - board_h) / 2;
    let board = BoardGeometry {
        x: area.x + 2,
        y: top,
        sq_w,
        sq_h,
    };
    let panel_x = area.x + board_w + 1;
    let panel = Rect::new(panel_x, area.y, area.width - (panel_x - area.x), avail_h);
    let status = Rect::new(area.x, area.y + avail_h, area.width, STATUS_H);
    Some(Layout {
        board,
        panel,
        status,
    })
}

/// Draws everything.
pub fn draw(frame: &mut Frame, app: &App, now: Instant) {
    let area = frame.area();
    let buf = frame.buffer_mut();
    draw_to(buf, area, app, now);
}

/// Draws into a buffer (used by `draw`, render tests and the benchmark).
pub fn draw_to(buf: &mut Buffer, area: Rect, app: &App, now: Instant) {
    let theme = app.theme();
    let base = Style::default().fg(theme.text).bg(theme.background);
    buf.set_style(area, base);
    let Some(l) = layout(area) else {
        let msg = format!(
            "Terminal too small (needs {MIN_W} x {MIN_H}, have {} x {}). Enlarge it or press q to quit.",
            area.width, area.height
        );
        Paragraph::new(msg)
            .wrap(Wrap { trim: true })
            .alignment(Alignment::Center)
            .style(base)
            .render_ref(area, buf);
        return;
    };
    draw_board(buf, app, &l.board);
    draw_panel(buf, app, l.panel, now);
    draw_status(buf, app, l.status);
    match &app.overlay {
        Overlay::None => {}
        Overlay::Help => draw_help(buf, app, area),
        Overlay::NewGame(d) => draw_dialog(buf, app, d, area),
        Overlay::Promotion { choice, .. } => draw_promotion(buf, app, *choice, area),
        Overlay::ConfirmResign => draw_message(
            buf,
            theme,
            area,
            "Resign",
            &[
                "Resign this game?",
                "",
                "y = resign    any other key = play on",
            ],
        ),
        Overlay::DrawOffer => {
            let offering = color_name(app.board().turn());
            let answering = color_name(!app.board().turn());
            let line = format!("{offering} offers a draw. {answering}, do you accept?");
            draw_message(
                buf,
                theme,
                area,
                "Draw offer",
                &[&line, "", "y = accept    any other key = decline"],
            );
        }
        Overlay::Resume { summary, .. } => draw_message(
            buf,
            theme,
            area,
            "Unfinished game",
            &[
                "An unfinished game was found:",
                summary,
                "",
                "Enter or y = resume    n = new game    q = quit",
            ],
        ),
    }
}

/// Small extension so widgets render by reference into a buffer.
trait RenderRef {
    fn render_ref(self, area: Rect, buf: &mut Buffer);
}

impl<W: ratatui::widgets::Widget> RenderRef for W {
    fn render_ref(self, area: Rect, buf: &mut Buffer) {
        self.render(area, buf);
    }
}

/// Pixel art for large squares, `#` = piece. Drawn with half blocks (one
/// cell = two pixels stacked, so a pixel is about square), leaving a pixel
/// of room at the sides for the outline: 9 x 10 pixels in squares of 11 x 5
/// cells, 7 x 8 pixels in squares of 9 x 4.
pub fn sprite(role: Role, large: bool) -> &'static [&'static str] {
    if !large {
        return sprite_small(role);
    }
    match role {
        Role::Pawn => &[
            ".........",
            ".........",
            "....#....",
            "...###...",
            "...###...",
            "....#....",
            "...###...",
            "..#####..",
            "..#####..",
            ".........",
        ],
        Role::Knight => &[
            ".........",
            "....#.#..",
            "...#####.",
            "..##.####",
            ".########",
            ".###.####",
            ".....####",
            "....####.",
            "...######",
            ".........",
        ],
        Role::Bishop => &[
            ".........",
            "....#....",
            "...##....",
            "..##.##..",
            "..#####..",
            "...###...",
            "....#....",
            "..#####..",
            "..#####..",
            ".........",
        ],
        Role::Rook => &[
            ".........",
            "..#.#.#..",
            "..#####..",
            "...###...",
            "...###...",
            "...###...",
            "...###...",
            "..#####..",
            "..#####..",
            ".........",
        ],
        Role::Queen => &[
            ".........",
            ".#..#..#.",
            ".##.#.##.",
            "..#####..",
            "..#####..",
            "...###...",
            "...###...",
            "..#####..",
            ".#######.",
            ".........",
        ],
        Role::King => &[
            "....#....",
            "...###...",
            "....#....",
            "..#####..",
            ".#######.",
            ".#######.",
            "..#####..",
            "..#####..",
            ".#######.",
            ".........",
        ],
    }
}

fn sprite_small(role: Role) -> &'static [&'static str] {
    match role {
        Role::Pawn => &[
            ".......", ".......", "...#...", "..###..", "...#...", "..###..", ".#####.", ".......",
        ],
        Role::Knight => &[
            ".......", "...#.#.", "..####.", ".##.###", ".######", "....###", "..#####", ".......",
        ],
        Role::Bishop => &[
            ".......", "...#...", "..##...", ".##.##.", "..###..", "...#...", ".#####.", ".......",
        ],
        Role::Rook => &[
            ".......", ".#.#.#.", ".#####.", "..###..", "..###..", "..###..", ".#####.", ".......",
        ],
        Role::Queen => &[
            ".......", "#..#..#", "##.#.##", ".#####.", "..###..", "..###..", ".#####.", ".......",
        ],
        Role::King => &[
            "...#...", "..###..", "...#...", ".#####.", ".#####.", "..###..", ".#####.", ".......",
        ],
    }
}

/// The pixel-art size that fits a square of `w` x `h` cells, if any:
/// (large, sprite width, sprite height in pixels).
pub fn sprite_fit(w: u16, h: u16) -> Option<(bool, u16, u16)> {
    if w >= 11 && h >= 5 {
        Some((true, 9, 10))
    } else if w >= 9 && h >= 4 {
        Some((false, 7, 8))
    } else {
        None
    }
}

/// Draws a piece as pixel art centred in `r`: `fill` inside, `outline` on
/// the square's pixels next to the piece.
fn draw_sprite(
    buf: &mut Buffer,
    r: Rect,
    role: Role,
    fill: ratatui::style::Color,
    outline: Option<ratatui::style::Color>,
    square: ratatui::style::Color,
) {
    let Some((large, sprite_w, sprite_h)) = sprite_fit(r.width, r.height) else {
        return;
    };
    let art = sprite(role, large);
    let at = |x: i32, y: i32| -> bool {
        x >= 0
            && y >= 0
            && art
                .get(y as usize)
                .and_then(|row| row.as_bytes().get(x as usize))
                == Some(&b'#')
    };
    let ox = i32::from(r.width.saturating_sub(sprite_w) / 2);
    let oy = i32::from(r.height.saturating_sub(sprite_h / 2) / 2) * 2;
    let pixel = |px: i32, py: i32| {
        let (x, y) = (px - ox, py - oy);
        if at(x, y) {
            fill
        } else if let Some(o) = outline
            && (at(x - 1, y) || at(x + 1, y) || at(x, y - 1) || at(x, y + 1))
        {
            o
        } else {
            square
        }
    };
    for cy in 0..r.height {
        for cx in 0..r.width {
            let (px, py) = (i32::from(cx), i32::from(cy) * 2);
            let (top, bottom) = (pixel(px, py), pixel(px, py + 1));
            if top == square && bottom == square {
                continue;
            }
            if let Some(cell) = buf.cell_mut((r.x + cx, r.y + cy)) {
                if top == bottom {
                    cell.set_symbol(" ").set_bg(top);
                } else {
                    cell.set_symbol("▀").set_fg(top).set_bg(bottom);
                }
            }
        }
    }
}

pub fn glyph(piece: Piece, ascii: bool) -> char {
    if ascii {
        let c = piece.role.char();
        match piece.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    } else {
        // Solid glyphs for both sides, coloured by side: they read better
        // than outline glyphs on coloured squares.
        match piece.role {
            Role::King => '♚',
            Role::Queen => '♛',
            Role::Rook => '♜',
            Role::Bishop => '♝',
            Role::Knight => '♞',
            Role::Pawn => '♟',
        }
    }
}

fn draw_board(buf: &mut Buffer, app: &App, g: &BoardGeometry) {
    let theme = app.theme();
    let board = app.board();
    let pieces = board.board();
    let last = app.game.moves().last().copied();
    let last_squares: Vec<Square> = last
        .map(|m| {
            let mut v = vec![shown_to(m)];
            if let Some(f) = m.from() {
                v.push(f);
            }
            v
        })
        .unwrap_or_default();
    let check_sq = board
        .in_check()
        .then(|| pieces.king_of(board.turn()))
        .flatten();
    let dests = app
        .selected
        .map(|s| app.destinations(s))
        .unwrap_or_default();
    let hint: Vec<Square> = app
        .hint
        .as_ref()
        .filter(|h| h.ply == app.game.moves().len())
        .map(|h| {
            let mut v = vec![shown_to(h.mv)];
            if let Some(f) = h.mv.from() {
                v.push(f);
            }
            v
        })
        .unwrap_or_default();
    let show_cursor = app.human_to_move();
    let ascii = app.ascii || theme.ascii;

    for sq in Square::ALL {
        let r = g.rect_of(sq, app.flipped);
        let light = (sq.file() as u32 + sq.rank() as u32) % 2 == 1;
        let mut bg = if light { theme.light } else { theme.dark };
        if last_squares.contains(&sq) {
            bg = theme.last_move;
        }
        if hint.contains(&sq) {
            bg = theme.hint;
        }
        if app.selected == Some(sq) {
            bg = theme.selected;
        }
        if Some(sq) == check_sq {
            bg = theme.check;
        }
        let style = Style::default().bg(bg);
        buf.set_style(r, style);
        let piece = pieces.piece_at(sq);
        if let Some(p) = piece {
            let fg = match p.color {
                Color::White => theme.white_piece,
                Color::Black => theme.black_piece,
            };
            let pstyle = style.fg(fg).add_modifier(Modifier::BOLD);
            if sprite_fit(g.sq_w, g.sq_h).is_some() && !ascii {
                let outline = match p.color {
                    Color::White => theme.white_outline,
                    Color::Black => theme.black_outline,
                };
                draw_sprite(buf, r, p.role, fg, outline, bg);
            } else {
                let c = glyph(p, ascii);
                buf.set_string(r.x + r.width / 2, r.y + r.height / 2, c.to_string(), pstyle);
            }
        } else if dests.contains(&sq) {
            let dot = if r.width >= 7 { "●" } else { "•" };
            buf.set_string(
                r.x + r.width / 2,
                r.y + r.height / 2,
                dot,
                style.fg(theme.destination).add_modifier(Modifier::BOLD),
            );
        }
        if dests.contains(&sq) && piece.is_some() {
            // A capture: mark the corners.
            let m = style.fg(theme.destination).add_modifier(Modifier::BOLD);
            buf.set_string(r.x, r.y, "◤", m);
            if r.width > 2 {
                buf.set_string(r.x + r.width - 1, r.y + r.height - 1, "◢", m);
            }
        }
        if show_cursor && app.cursor == sq {
            let m = Style::default()
                .fg(theme.cursor)
                .bg(bg)
                .add_modifier(Modifier::BOLD);
            if r.width >= 3 {
                buf.set_string(r.x, r.y + r.height / 2, "[", m);
                buf.set_string(r.x + r.width - 1, r.y + r.height / 2, "]", m);
            } else {
                buf.set_style(r, Style::default().bg(theme.cursor));
            }
        }
    }
    // Coordinates.
    let cs = Style::default().fg(theme.coordinates).bg(theme.background);
    for i in 0..8u16 {
        let rank = if app.flipped { i + 1 } else { 8 - i };
        buf.set_string(g.x - 2, g.y + i * g.sq_h + g.sq_h / 2, rank.to_string(), cs);
        let file = if app.flipped { 7 - i } else { i };
        let ch = (b'a' + file as u8) as char;
        buf.set_string(
            g.x + i * g.sq_w + g.sq_w / 2,
            g.y + 8 * g.sq_h,
            ch.to_string(),
            cs,
        );
    }
}

fn block<'a>(title: &'a str, theme: &Theme) -> Block<'a> {
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

fn player_name(app: &App, c: Color) -> String {
    let key = match c {
        Color::White => "White",
        Color::Black => "Black",
    };
    app.game.header(key).unwrap_or(key).to_string()
}

fn draw_panel(buf: &mut Buffer, app: &App, area: Rect, now: Instant) {
    let theme = app.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    // Players and clocks.
    let mut lines = Vec::new();
    let turn = app.board().turn();
    for c in [Color::White, Color::Black] {
        let marker = if !app.is_over() && c == turn {
            "▶ "
        } else {
            "  "
        };
        let name = player_name(app, c);
        let clock = app.clock_text(c, now).unwrap_or_default();
        let width = area.width.saturating_sub(4) as usize;
        let left = format!(
            "{marker}{} {name}",
            if c == Color::White { "○" } else { "●" }
        );
        let pad = width.saturating_sub(left.chars().count() + clock.chars().count());
        let mut style = text;
        if c == turn && !app.is_over() {
            style = style.add_modifier(Modifier::BOLD);
        }
        let low = app
            .clocks
            .as_ref()
            .is_some_and(|k| k.remaining(c, now).as_secs() < 10);
        lines.push(Line::from(vec![
            Span::styled(left, style),
            Span::raw(" ".repeat(pad)),
            Span::styled(
                clock,
                if low {
                    Style::default()
                        .fg(theme.error)
                        .add_modifier(Modifier::BOLD)
                } else {
                    style
                },
            ),
        ]));
    }
    let state = if let Some(e) = app.game.ending {
        Span::styled(
            format!("{}  {}", e.result.pgn(), describe_ending(e)),
            Style::default()
                .fg(theme.accent)
                .add_modifier(Modifier::BOLD),
        )
    } else if app.paused {
        Span::styled("Paused", Style::default().fg(theme.accent))
    } else if app.board().in_check() {
        Span::styled(
            format!("{} is in check", color_name(turn)),
            Style::default().fg(theme.error),
        )
    } else {
        let tc = app
            .time
            .map_or("no clock".to_string(), |t| format!("{t} clock"));
        Span::styled(tc, dim)
    };
    lines.push(Line::from(state));
    let game_h = 5u16.min(area.height);
    let game_area = Rect::new(area.x, area.y, area.width, game_h);
    Paragraph::new(lines)
        .block(block("Game", theme))
        .render_ref(game_area, buf);

    // Engine.
    let engine_h = if area.height >= 20 { 6 } else { 4 };
    let engine_h = engine_h.min(area.height.saturating_sub(game_h));
    let engine_area = Rect::new(area.x, area.y + game_h, area.width, engine_h);
    let s = &app.search;
    let mut el = Vec::new();
    let name = if s.engine.is_empty() {
        app.spec.describe()
    } else {
        s.engine.clone()
    };
    let status = if s.thinking { "thinking…" } else { "" };
    el.push(Line::from(vec![
        Span::styled(name, text.add_modifier(Modifier::BOLD)),
        Span::raw("  "),
        Span::styled(status, Style::default().fg(theme.accent)),
    ]));
    if let Some(line) = s.lines.first() {
        let score = line.score.map(score_text).unwrap_or_else(|| "?".into());
        el.push(Line::from(Span::styled(
            format!(
                "depth {}/{}  score {}  nodes {}  {} nps",
                line.depth,
                line.seldepth,
                score,
                human_count(line.nodes),
                human_count(line.nps)
            ),
            text,
        )));
        if let Some(b) = &s.board {
            el.push(Line::from(Span::styled(san_line(b, &line.pv, 12), dim)));
        }
    } else {
        el.push(Line::from(Span::styled("no search yet", dim)));
    }
    Paragraph::new(el)
        .wrap(Wrap { trim: true })
        .block(block("Engine", theme))
        .render_ref(engine_area, buf);

    // Moves.
    let moves_area = Rect::new(
        area.x,
        area.y + game_h + engine_h,
        area.width,
        area.height.saturating_sub(game_h + engine_h),
    );
    if moves_area.height < 3 {
        return;
    }
    let rows = move_rows(app);
    let visible = moves_area.height.saturating_sub(2) as usize;
    let max_scroll = rows.len().saturating_sub(visible);
    let scroll = app.scroll.min(max_scroll);
    let end = rows.len() - scroll;
    let start = end.saturating_sub(visible);
    let lines: Vec<Line> = rows[start..end]
        .iter()
        .map(|r| Line::from(Span::styled(r.clone(), text)))
        .collect();
    let title = if scroll > 0 {
        format!("Moves (↑{scroll})")
    } else {
        "Moves".to_string()
    };
    Paragraph::new(lines)
        .block(block(&title, theme))
        .render_ref(moves_area, buf);
}

/// "1. e4 e5" rows of the move list.
pub fn move_rows(app: &App) -> Vec<String> {
    let mut rows = Vec::new();
    let mut b = app.game.start().clone();
    let mut cur = String::new();
    for (i, &m) in app.game.moves().iter().enumerate() {
        let n = b.chess().fullmoves().get();
        let san = b.san(m);
        if b.turn() == Color::White {
            cur = format!("{n:>3}. {san:<8}");
        } else if i == 0 {
            cur = format!("{n:>3}. {:<8}{san}", "...");
            rows.push(std::mem::take(&mut cur));
        } else {
            cur.push_str(&san);
            rows.push(std::mem::take(&mut cur));
        }
        b = b.play(m);
    }
    if !cur.is_empty() {
        rows.push(cur);
    }
    rows
}

fn human_count(n: u64) -> String {
    if n >= 10_000_000 {
        format!("{}M", n / 1_000_000)
    } else if n >= 1_000_000 {
        format!("{:.1}M", n as f64 / 1e6)
    } else if n >= 10_000 {
        format!("{}k", n / 1000)
    } else {
        n.to_string()
    }
}

fn key_label(app: &App, a: Action) -> String {
    app.keys
        .keys_for(a)
        .first()
        .cloned()
        .unwrap_or_else(|| "-".into())
}

fn draw_status(buf: &mut Buffer, app: &App, area: Rect) {
    let theme = app.theme();
    let line1 = if !app.input.is_empty() {
        let mut spans = vec![
            Span::styled("Move: ", Style::default().fg(theme.accent)),
            Span::styled(
                format!("{}▏", app.input),
                Style::default().fg(theme.text).add_modifier(Modifier::BOLD),
            ),
        ];
        if let Some(s) = &app.status {
            let st = match s.kind {
                StatusKind::Error => Style::default().fg(theme.error),
                StatusKind::Info => Style::default().fg(theme.dim),
            };
            spans.push(Span::raw("  "));
            spans.push(Span::styled(s.text.clone(), st));
        }
        Line::from(spans)
    } else if let Some(s) = &app.status {
        let st = match s.kind {
            StatusKind::Error => Style::default()
                .fg(theme.error)
                .add_modifier(Modifier::BOLD),
            StatusKind::Info => Style::default().fg(theme.text),
        };
        Line::from(Span::styled(s.text.clone(), st))
    } else if app.human_to_move() {
        Line::from(Span::styled(
            format!(
                "{} to move: type a move (e4, Nf3, O-O) or pick squares with arrows+Enter or the mouse",
                color_name(app.board().turn())
            ),
            Style::default().fg(theme.dim),
        ))
    } else {
        Line::from("")
    };
    let hints = [
        (Action::Help, "help"),
        (Action::NewGame, "new"),
        (Action::Takeback, "takeback"),
        (Action::Hint, "hint"),
        (Action::Flip, "flip"),
        (Action::OfferDraw, "draw"),
        (Action::Resign, "resign"),
        (Action::Quit, "quit"),
    ];
    let mut spans = Vec::new();
    for (a, label) in hints {
        if app.mode == Mode::EngineVsEngine
            && matches!(
                a,
                Action::Takeback | Action::Hint | Action::Resign | Action::OfferDraw
            )
        {
            continue;
        }
        spans.push(Span::styled(
            key_label(app, a),
            Style::default()
                .fg(theme.accent)
                .add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::styled(
            format!(" {label}  "),
            Style::default().fg(theme.dim),
        ));
    }
    if app.mode == Mode::EngineVsEngine {
        spans.push(Span::styled(
            key_label(app, Action::Pause),
            Style::default()
                .fg(theme.accent)
                .add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::styled(" pause", Style::default().fg(theme.dim)));
    }
    Paragraph::new(vec![line1, Line::from(spans)]).render_ref(area, buf);
}

fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

fn draw_message(buf: &mut Buffer, theme: &Theme, area: Rect, title: &str, lines: &[&str]) {
    let w = lines.iter().map(|l| l.chars().count()).max().unwrap_or(10) as u16 + 6;
    let r = centered(area, w.max(30), lines.len() as u16 + 2);
    Clear.render_ref(r, buf);
    let text: Vec<Line> = lines
        .iter()
        .map(|l| Line::from(Span::styled(l.to_string(), Style::default().fg(theme.text))))
        .collect();
    Paragraph::new(text)
        .alignment(Alignment::Center)
        .style(Style::default().bg(theme.background))
        .block(block(title, theme))
        .render_ref(r, buf);
}

fn draw_help(buf: &mut Buffer, app: &App, area: Rect) {
    let theme = app.theme();
    let mut lines: Vec<Line> = Vec::new();
    let key = Style::default()
        .fg(theme.accent)
        .add_modifier(Modifier::BOLD);
    let text = Style::default().fg(theme.text);
    for a in Action::ALL {
        let keys = app.keys.keys_for(*a).join(", ");
        lines.push(Line::from(vec![
            Span::styled(format!("{keys:>16}  "), key),
            Span::styled(a.description().to_string(), text),
        ]));
    }
    lines.push(Line::from(""));
    for l in [
        "Type a move in SAN (e4, Nf3, exd5, O-O, e8=Q; lowercase is fine)",
        "or UCI (e2e4) and press Enter. A letter that is also a command",
        "starts the move box when it is your move: press Enter right",
        "after it to run the command instead. h j k l move the cursor",
        "unless the next key makes them a move (h3, kd2).",
        "Mouse: click a piece, then its destination, or drag it.",
        "Ctrl+C quits at any time. Games are saved after every move.",
        "",
        "Press any key to close this help.",
    ] {
        lines.push(Line::from(Span::styled(l, text)));
    }
    let h = lines.len() as u16 + 2;
    let r = centered(area, 72, h);
    Clear.render_ref(r, buf);
    Paragraph::new(lines)
        .style(Style::default().bg(theme.background))
        .block(block("Keys", theme))
        .render_ref(r, buf);
}

fn draw_promotion(buf: &mut Buffer, app: &App, choice: usize, area: Rect) {
    let theme = app.theme();
    let color = app.board().turn();
    let mut spans = Vec::new();
    for (i, role) in PROMOTIONS.iter().enumerate() {
        let p = Piece { color, role: *role };
        let label = format!(
            " {} {} ",
            glyph(p, app.ascii || theme.ascii),
            super::app::role_name(*role)
        );
        let st = if i == choice {
            Style::default()
                .fg(theme.background)
                .bg(theme.accent)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::default().fg(theme.text)
        };
        spans.push(Span::styled(label, st));
    }
    let r = centered(area, 48, 5);
    Clear.render_ref(r, buf);
    Paragraph::new(vec![
        Line::from(spans),
        Line::from(Span::styled(
            "←/→ choose, Enter confirm, q r b n, Esc cancel",
            Style::default().fg(theme.dim),
        )),
    ])
    .alignment(Alignment::Center)
    .style(Style::default().bg(theme.background))
    .block(block("Promote to", theme))
    .render_ref(r, buf);
}

fn draw_dialog(buf: &mut Buffer, app: &App, d: &NewGameDialog, area: Rect) {
    let theme = app.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let sel = Style::default()
        .fg(theme.background)
        .bg(theme.accent)
        .add_modifier(Modifier::BOLD);
    let opponent = match d.opponent {
        0..=7 => {
            let l = d.opponent as u8 + 1;
            let desc = Level::new(l).map(|x| x.describe()).unwrap_or_default();
            format!("Level {l} ({desc})")
        }
        8 => "Custom limits".to_string(),
        _ => format!(
            "External: {}",
            app.external_command().unwrap_or_else(|| "?".into())
        ),
    };
    let times = time_choices();
    let values = [
        format!("◀ {} ▶", SIDES[d.side.min(SIDES.len() - 1)]),
        format!("◀ {opponent} ▶"),
        format!("{}▏", d.limits),
        format!("◀ {} ▶", times.get(d.time).map_or("?", String::as_str)),
        format!("{}▏", d.custom_time),
        if d.fen.is_empty() {
            "(standard start)▏".to_string()
        } else {
            format!("{}▏", d.fen)
        },
    ];
    let mut lines = Vec::new();
    for (i, (name, value)) in DIALOG_FIELDS.iter().zip(values.iter()).enumerate() {
        let active = i == d.field;
        let relevant = match i {
            2 => d.opponent == 8,
            4 => times.get(d.time).is_some_and(|t| t == "custom"),
            _ => true,
        };
        let vstyle = if active {
            sel
        } else if relevant {
            text
        } else {
            dim
        };
        lines.push(Line::from(vec![
            Span::styled(
                format!("{name:>14}  "),
                if active {
                    text.add_modifier(Modifier::BOLD)
                } else {
                    dim
                },
            ),
            Span::styled(value.clone(), vstyle),
        ]));
    }
    lines.push(Line::from(""));
    match &d.error {
        Some(e) => lines.push(Line::from(Span::styled(
            e.clone(),
            Style::default()
                .fg(theme.error)
                .add_modifier(Modifier::BOLD),
        ))),
        None => lines.push(Line::from(Span::styled(
            "↑/↓ field  ←/→ change  type in text fields  Enter start  Esc cancel",
            dim,
        ))),
    }
    lines.push(Line::from(Span::styled(
        "Limits: e.g. 'depth 8', 'movetime 500', 'nodes 20000'. Time: minutes+seconds, e.g. 5+3.",
        dim,
    )));
    let w = area.width.min(100);
    let r = centered(area, w, lines.len() as u16 + 2);
    Clear.render_ref(r, buf);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .style(Style::default().bg(theme.background))
        .block(block("New game", theme))
        .render_ref(r, buf);
}
