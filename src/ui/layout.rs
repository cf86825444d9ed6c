//! Where things sit on screen: the board, eval bar, panel and status line
//! for a terminal size, and the replay panel's parts. Shared by the views
//! (which draw there) and the app (which maps mouse clicks back), so
//! neither has to import the other.

use super::screens::chess::replay::{self as rp, Placed, Replay};
use ratatui::layout::Rect;
use shakmaty::Square;

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
    /// The eval bar beside the board, when there is room.
    pub eval_bar: Option<Rect>,
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
    // The eval bar takes four columns (a gap and three for the bar, room
    // for "1.5" or "M12").
    let bar = board_w + 1 + 4 + PANEL_MIN_W <= area.width;
    let eval_bar = bar.then(|| Rect::new(area.x + board_w + 1, top, 3, 8 * sq_h));
    let panel_x = area.x + board_w + if bar { 5 } else { 1 };
    let panel = Rect::new(panel_x, area.y, area.width - (panel_x - area.x), avail_h);
    let status = Rect::new(area.x, area.y + avail_h, area.width, STATUS_H);
    Some(Layout {
        board,
        eval_bar,
        panel,
        status,
    })
}

/// Where the replay panel's parts are (shared with the mouse handler).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayPanel {
    pub game: Rect,
    pub search: Rect,
    pub graph: Option<Rect>,
    pub moves: Option<Rect>,
}

const GAME_H: u16 = 6;
/// Rows at the bottom of the move list for the current move's notes.
const NOTE_H: u16 = 3;

pub fn replay_panel(area: Rect) -> ReplayPanel {
    let game_h = GAME_H.min(area.height);
    let rest = area.height.saturating_sub(game_h);
    let graph_h = if rest >= 24 { 7 } else { 0 };
    let search_h = ((rest - graph_h) * 40 / 100).max(5).min(rest - graph_h);
    let moves_h = rest.saturating_sub(search_h + graph_h);
    let y = area.y + game_h;
    ReplayPanel {
        game: Rect::new(area.x, area.y, area.width, game_h),
        search: Rect::new(area.x, y, area.width, search_h),
        graph: (graph_h > 0).then(|| Rect::new(area.x, y + search_h, area.width, graph_h)),
        moves: (moves_h >= 3)
            .then(|| Rect::new(area.x, y + search_h + graph_h, area.width, moves_h)),
    }
}

/// Inside the move list's box: (rows of moves, first row shown, where the
/// rows go); `head`: rows at the top of the box kept for the rest of a
/// long opening name.
pub fn replay_rows(r: &Replay, moves: Rect, head: u16) -> (Vec<Vec<Placed>>, usize, Rect) {
    let head = if moves.height >= 8 { head } else { 0 };
    let moves = Rect::new(
        moves.x,
        moves.y + head,
        moves.width,
        moves.height.saturating_sub(head),
    );
    let inner_h = moves.height.saturating_sub(2);
    let note_h = if inner_h >= 8 {
        note_rows(r, moves.width.saturating_sub(2), inner_h)
    } else {
        0
    };
    let inner = Rect::new(
        moves.x + 1,
        moves.y + 1,
        moves.width.saturating_sub(2),
        inner_h - note_h,
    );
    let result = r.parsed.game.header("Result").filter(|r| !r.is_empty());
    let toks = rp::tokens(r.tree(), &r.reviews, result);
    let rows = rp::wrap(&toks, inner.width);
    let focus = rp::row_of(&rows, r.cursor);
    let first = rp::first_row(rows.len(), focus, inner.height as usize);
    (rows, first, inner)
}

/// Rows for the current move's notes (the rule included): [`NOTE_H`], or
/// more when the move has a reason, so the verdict and the reason show
/// whole (at 80x24 the panel is 31 columns wide), leaving at least three
/// rows of moves.
fn note_rows(r: &Replay, width: u16, inner_h: u16) -> u16 {
    // The verdict before the reason: "Blunder (+0.35 → +4.65, −40%
    // winning chance): ".
    const VERDICT: usize = 48;
    let max = inner_h.saturating_sub(3).max(NOTE_H);
    let Some(reason) = r
        .reviews
        .get(r.cursor)
        .and_then(|x| x.as_ref())
        .and_then(|x| x.reason.as_deref())
    else {
        return NOTE_H;
    };
    let width = usize::from(width.max(1));
    // One row more than the characters need: wrapping breaks at words.
    let text_rows = (VERDICT + reason.chars().count()).div_ceil(width) + 1;
    u16::try_from(text_rows + 1)
        .unwrap_or(max)
        .clamp(NOTE_H, max)
}

/// One board of the Crazyhouse/Bughouse screen: the squares, and the
/// strips above and below it (player, clock, pocket).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HouseBoard {
    pub board: BoardGeometry,
    /// The strip above the board (the player at the top): the name and
    /// clock on its first row, the pocket's pieces as tall as the strip.
    pub top: Rect,
    /// The strip below the file letters (the player at the bottom): the
    /// name and clock on its last row.
    pub bottom: Rect,
}

impl HouseBoard {
    /// The size of one pocket piece: a square where the board is pixel
    /// art (the piece drawn as on the board), else one row.
    pub fn pocket_piece(&self) -> (u16, u16) {
        pocket_piece((self.board.sq_w, self.board.sq_h))
    }
}

/// Squares this large are drawn as pixel art (see `view::sprite_fit`).
pub fn pixel_squares(sq_w: u16, sq_h: u16) -> bool {
    sq_w >= 9 && sq_h >= 4
}

/// One pocket piece's cells for squares of `(w, h)`: a square where the
/// board is pixel art, else a glyph on one row (its width then depends on
/// the count, see `ui::screens::house::pocket_cells`).
fn pocket_piece((w, h): (u16, u16)) -> (u16, u16) {
    if pixel_squares(w, h) { (w, h) } else { (3, 1) }
}

/// The Crazyhouse/Bughouse screen: the main board, the partner's board
/// (Bughouse), the panel (moves, messages) when there is room, the status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HouseLayout {
    /// The main board first, then the partner's.
    pub boards: Vec<HouseBoard>,
    /// The eval bar beside the main board, when asked for and there is
    /// room.
    pub eval_bar: Option<Rect>,
    pub panel: Option<Rect>,
    pub status: Rect,
}

/// The smallest terminal for two boards (the smallest squares, no panel).
pub const HOUSE_MIN_W: u16 = 2 * (2 + 8 * 3) + 2;
pub const HOUSE_MIN_H: u16 = 8 + 3 + STATUS_H;
const HOUSE_PANEL_MIN_W: u16 = 22;
/// A panel beside the boards this wide holds a partner's message on a
/// line or two; the partner's board shrinks a size more for it.
const HOUSE_PANEL_GOOD_W: u16 = 32;
/// The smallest panel under the partner's board: the moves and a line of
/// messages.
const HOUSE_COLUMN_MIN_H: u16 = 7;
/// The eval bar's columns beside the main board: a gap and the bar (the
/// gap after it is the one between the boards).
const HOUSE_BAR_W: u16 = 4;

/// Where the panel goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PanelAt {
    /// Right of the boards, full height.
    Beside,
    /// Under both boards (they stand at the top).
    Below,
    /// Bughouse: under the partner's board, right of the main board.
    UnderPartner,
    /// No room.
    Nowhere,
}

/// The layout of `boards` (1 or 2) boards, or `None` when they do not fit;
/// `bar`: an eval bar beside the main board if there is room for it.
/// The main board gets the largest squares; with two boards the partner's
/// board is as large as still leaves room for the panel, and the panel
/// gives way before the boards shrink to their smallest. Where the squares
/// are pixel art the pockets are a square tall.
pub fn house_layout(area: Rect, boards: usize, bar: bool) -> Option<HouseLayout> {
    if bar && let Some(l) = house_layout_with(area, boards, true) {
        return Some(l);
    }
    house_layout_with(area, boards, false)
}

fn house_layout_with(area: Rect, boards: usize, bar: bool) -> Option<HouseLayout> {
    let avail_h = area.height.checked_sub(STATUS_H)?;
    let block_w = |(w, _): (u16, u16)| 2 + 8 * w;
    // The board, the file letters and a strip above and below.
    let block_h = |s: (u16, u16)| 8 * s.1 + 1 + 2 * pocket_piece(s).1;
    let fits_h = |s: (u16, u16)| block_h(s) <= avail_h;
    // Main board (and bar) to the partner's board.
    let (bar_w, gap) = if bar { (HOUSE_BAR_W, 1) } else { (0, 2) };
    let main_w = |s: (u16, u16)| block_w(s) + bar_w;
    // The partner's board is the main board's size or `smaller` smaller.
    let partners_upto = |i: usize, smaller: usize| -> Vec<Option<(u16, u16)>> {
        if boards >= 2 {
            SIZES[i..(i + 1 + smaller).min(SIZES.len())]
                .iter()
                .copied()
                .map(Some)
                .collect()
        } else {
            vec![None]
        }
    };
    let partners = |i: usize| partners_upto(i, 1);
    let row_w =
        |main, partner: Option<(u16, u16)>| main_w(main) + partner.map_or(0, |p| gap + block_w(p));
    // Candidates in order of preference: (main size, partner size, panel).
    let mut choice = None;
    // The panel beside the boards; two boards keep 7x3 squares or more
    // beside a panel, below that the boards come first. The largest main
    // board; beside it a panel of a good width first (the partner's board
    // up to two sizes smaller), else of the least.
    'beside: for (i, &main) in SIZES.iter().enumerate() {
        if !fits_h(main) || (boards >= 2 && i > 2) {
            continue;
        }
        for (panel_w, smaller) in [(HOUSE_PANEL_GOOD_W, 2), (HOUSE_PANEL_MIN_W, 1)] {
            for partner in partners_upto(i, smaller) {
                if row_w(main, partner) + 1 + panel_w <= area.width {
                    choice = Some((main, partner, PanelAt::Beside));
                    break 'beside;
                }
            }
        }
    }
    // Else the largest boards with the panel under them, or under the
    // partner's board; else with no panel.
    if choice.is_none() {
        'rest: for (i, &main) in SIZES.iter().enumerate() {
            if !fits_h(main) {
                continue;
            }
            for partner in partners(i) {
                let row = row_w(main, partner) <= area.width;
                if row && avail_h >= block_h(main) + 6 {
                    choice = Some((main, partner, PanelAt::Below));
                    break 'rest;
                }
                if let Some(p) = partner {
                    let column = area.width.saturating_sub(main_w(main) + gap);
                    if column >= block_w(p).max(HOUSE_PANEL_MIN_W)
                        && avail_h >= block_h(p) + HOUSE_COLUMN_MIN_H
                    {
                        choice = Some((main, partner, PanelAt::UnderPartner));
                        break 'rest;
                    }
                }
            }
        }
    }
    if choice.is_none() {
        'none: for (i, &main) in SIZES.iter().enumerate() {
            if !fits_h(main) {
                continue;
            }
            for partner in partners(i) {
                if row_w(main, partner) <= area.width {
                    choice = Some((main, partner, PanelAt::Nowhere));
                    break 'none;
                }
            }
        }
    }
    let (main, partner, panel_at) = choice?;
    let top_aligned = matches!(panel_at, PanelAt::Below | PanelAt::UnderPartner);
    let place = |x: u16, s: (u16, u16)| {
        let (w, h) = s;
        let strip = pocket_piece(s).1;
        let top_y = if top_aligned {
            area.y
        } else {
            area.y + (avail_h - block_h(s)) / 2
        };
        HouseBoard {
            board: BoardGeometry {
                x: x + 2,
                y: top_y + strip,
                sq_w: w,
                sq_h: h,
            },
            top: Rect::new(x, top_y, 2 + 8 * w, strip),
            bottom: Rect::new(x, top_y + strip + 8 * h + 1, 2 + 8 * w, strip),
        }
    };
    let first = place(area.x, main);
    let eval_bar = bar.then(|| {
        Rect::new(
            area.x + block_w(main) + 1,
            first.board.y,
            HOUSE_BAR_W - 1,
            8 * main.1,
        )
    });
    let mut out = vec![first];
    let partner_x = area.x + main_w(main) + gap;
    if let Some(p) = partner {
        out.push(place(partner_x, p));
    }
    let panel = match panel_at {
        PanelAt::Beside => {
            let x = area.x + row_w(main, partner) + 1;
            Some(Rect::new(x, area.y, area.width - (x - area.x), avail_h))
        }
        PanelAt::Below => {
            let y = area.y + block_h(main);
            Some(Rect::new(area.x, y, area.width, avail_h - block_h(main)))
        }
        PanelAt::UnderPartner => partner.map(|p| {
            let y = area.y + block_h(p);
            Rect::new(
                partner_x,
                y,
                area.width - (partner_x - area.x),
                avail_h - block_h(p),
            )
        }),
        PanelAt::Nowhere => None,
    };
    Some(HouseLayout {
        boards: out,
        eval_bar,
        panel,
        status: Rect::new(area.x, area.y + avail_h, area.width, STATUS_H),
    })
}
