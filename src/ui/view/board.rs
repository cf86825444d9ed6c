//! The board: squares, highlights, pieces (glyphs, letters or pixel art), coordinates.

use super::*;

/// Pixel art for large squares, `#` = piece. Drawn with half blocks (one
/// cell = two pixels stacked, so a pixel is about square), leaving a pixel
/// of room at the sides for the outline: 9 x 10 pixels in squares of 11 x 5
/// cells, 7 x 8 pixels in squares of 9 x 4.
pub const fn sprite(role: Role, large: bool) -> &'static [&'static str] {
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

pub(super) const fn sprite_small(role: Role) -> &'static [&'static str] {
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

/// A sprite as bit rows for drawing: the piece's pixels and its outline
/// (the pixels next to it), bit `x + 1` of row `y + 1` for pixel (x, y)
/// so the outline's row and column before the art fit.
#[derive(Clone, Copy)]
struct Mask {
    fill: [u16; 12],
    outline: [u16; 12],
}

const fn mask(art: &[&str]) -> Mask {
    let mut fill = [0u16; 12];
    let mut y = 0;
    while y < art.len() && y < 10 {
        let row = art[y].as_bytes();
        let mut x = 0;
        while x < row.len() && x < 14 {
            if row[x] == b'#' {
                fill[y + 1] |= 1 << (x + 1);
            }
            x += 1;
        }
        y += 1;
    }
    let mut outline = [0u16; 12];
    let mut y = 0;
    while y < 12 {
        let mut near = (fill[y] << 1) | (fill[y] >> 1);
        if y > 0 {
            near |= fill[y - 1];
        }
        if y + 1 < 12 {
            near |= fill[y + 1];
        }
        outline[y] = near & !fill[y];
        y += 1;
    }
    Mask { fill, outline }
}

const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// Every sprite's mask: small ones first, in `ROLES` order.
static MASKS: [[Mask; 6]; 2] = {
    let empty = Mask {
        fill: [0; 12],
        outline: [0; 12],
    };
    let mut out = [[empty; 6]; 2];
    let mut i = 0;
    while i < 6 {
        out[0][i] = mask(sprite(ROLES[i], false));
        out[1][i] = mask(sprite(ROLES[i], true));
        i += 1;
    }
    out
};

/// Draws a piece as pixel art centred in `r`: `fill` inside, `outline` on
/// the square's pixels next to the piece.
pub(crate) fn draw_sprite(
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
    let i = ROLES.iter().position(|&x| x == role).unwrap_or(0);
    let m = &MASKS[usize::from(large)][i];
    let ox = i32::from(r.width.saturating_sub(sprite_w) / 2);
    let oy = i32::from(r.height.saturating_sub(sprite_h / 2) / 2) * 2;
    // The colour of pixel (px, py) of the square.
    let pixel = |px: i32, py: i32| {
        let (x, y) = (px - ox + 1, py - oy + 1);
        if !(0..16).contains(&x) || !(0..12).contains(&y) {
            return square;
        }
        let bit = 1u16 << x;
        if m.fill[y as usize] & bit != 0 {
            fill
        } else if let Some(o) = outline
            && m.outline[y as usize] & bit != 0
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

/// What a board shows besides its pieces.
pub(crate) struct Scene<'a> {
    pub pieces: &'a shakmaty::Board,
    pub last: Vec<Square>,
    pub check: Option<Square>,
    pub dests: Vec<Square>,
    pub hint: Vec<Square>,
    pub selected: Option<Square>,
    pub cursor: Option<Square>,
}

/// Draws a board: squares, pieces, marks and coordinates.
pub(crate) fn draw_scene(buf: &mut Buffer, ui: &Shared, g: &BoardGeometry, scene: &Scene) {
    let theme = ui.theme();
    let ascii = ui.look.ascii || theme.ascii;
    let pieces = scene.pieces;
    let (last_squares, check_sq, dests, hint) =
        (&scene.last, scene.check, &scene.dests, &scene.hint);
    let show_cursor = scene.cursor.is_some();
    let cursor = scene.cursor.unwrap_or(Square::A1);
    for sq in Square::ALL {
        let r = g.rect_of(sq, ui.look.flipped);
        let light = (sq.file() as u32 + sq.rank() as u32) % 2 == 1;
        let mut bg = if light { theme.light } else { theme.dark };
        if last_squares.contains(&sq) {
            bg = theme.last_move;
        }
        if hint.contains(&sq) {
            bg = theme.hint;
        }
        if scene.selected == Some(sq) {
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
        if show_cursor && cursor == sq {
            let m = Style::default()
                .fg(theme.cursor)
                .bg(bg)
                .add_modifier(Modifier::BOLD);
            super::widgets::cursor_mark(buf, r, theme, m);
        }
    }
    // Coordinates.
    let cs = Style::default().fg(theme.coordinates).bg(theme.background);
    for i in 0..8u16 {
        let rank = if ui.look.flipped { i + 1 } else { 8 - i };
        buf.set_string(g.x - 2, g.y + i * g.sq_h + g.sq_h / 2, rank.to_string(), cs);
        let file = if ui.look.flipped { 7 - i } else { i };
        let ch = (b'a' + file as u8) as char;
        buf.set_string(
            g.x + i * g.sq_w + g.sq_w / 2,
            g.y + 8 * g.sq_h,
            ch.to_string(),
            cs,
        );
    }
}

/// A board without the play screen's cursor and selection: for previews
/// (the tree explorer). The square size is the largest that fits `area`;
/// `marked` squares (a move) are highlighted. Returns the board's width and
/// height in cells, or `None` when it does not fit.
pub fn draw_plain_board<V: crate::engine::Variant>(
    buf: &mut Buffer,
    area: Rect,
    board: &crate::engine::Board<V>,
    marked: &[Square],
    theme: &Theme,
    ascii: bool,
    flipped: bool,
) -> Option<(u16, u16)> {
    let (sq_w, sq_h) = [(11u16, 5u16), (9, 4), (7, 3), (5, 2), (3, 1)]
        .into_iter()
        .find(|&(w, h)| 2 + 8 * w <= area.width && 8 * h < area.height)?;
    let g = BoardGeometry {
        x: area.x + 2,
        y: area.y,
        sq_w,
        sq_h,
    };
    paint_board(buf, &g, board.board(), marked, None, theme, ascii, flipped);
    Some((2 + 8 * sq_w, 8 * sq_h + 1))
}

/// Squares, pieces and coordinates of `pieces` at `g`: `marked` squares
/// (a move) and the king in `check` highlighted.
#[allow(clippy::too_many_arguments)]
pub(crate) fn paint_board(
    buf: &mut Buffer,
    g: &BoardGeometry,
    pieces: &shakmaty::Board,
    marked: &[Square],
    check: Option<Square>,
    theme: &Theme,
    ascii: bool,
    flipped: bool,
) {
    let (sq_w, sq_h) = (g.sq_w, g.sq_h);
    for sq in Square::ALL {
        let r = g.rect_of(sq, flipped);
        let light = (sq.file() as u32 + sq.rank() as u32) % 2 == 1;
        let mut bg = if light { theme.light } else { theme.dark };
        if marked.contains(&sq) {
            bg = theme.last_move;
        }
        if check == Some(sq) {
            bg = theme.check;
        }
        let style = Style::default().bg(bg);
        buf.set_style(r, style);
        if let Some(p) = pieces.piece_at(sq) {
            let fg = match p.color {
                Color::White => theme.white_piece,
                Color::Black => theme.black_piece,
            };
            if sprite_fit(r.width, r.height).is_some() && !ascii {
                let outline = match p.color {
                    Color::White => theme.white_outline,
                    Color::Black => theme.black_outline,
                };
                draw_sprite(buf, r, p.role, fg, outline, bg);
            } else {
                buf.set_string(
                    r.x + r.width / 2,
                    r.y + r.height / 2,
                    glyph(p, ascii).to_string(),
                    style.fg(fg).add_modifier(Modifier::BOLD),
                );
            }
        }
    }
    let cs = Style::default().fg(theme.coordinates).bg(theme.background);
    for i in 0..8u16 {
        let rank = if flipped { i + 1 } else { 8 - i };
        buf.set_string(g.x - 2, g.y + i * sq_h + sq_h / 2, rank.to_string(), cs);
        let file = if flipped { 7 - i } else { i };
        buf.set_string(
            g.x + i * sq_w + sq_w / 2,
            g.y + 8 * sq_h,
            ((b'a' + file as u8) as char).to_string(),
            cs,
        );
    }
}
