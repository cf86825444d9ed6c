//! Drawing the replay screen: the players, the game and where it stands,
//! the move list with variations and notes, the games of the file.

use crate::game::library::Status as GameStatus;
use crate::game::review::Judgement;
use crate::ui::screens::chess::draw::search::{draw_eval_graph, draw_search, judgement_colour};
use crate::ui::screens::chess::draw::view::*;
use crate::ui::screens::chess::replay::{self as rp, Replay, ReviewState, TokKind};

/// The pieces `color` has more of than the other side (the material
/// imbalance, as lichess shows it: promotions and odd start positions
/// come out right), most valuable first.
fn extra_pieces(b: &shakmaty::Board, color: Color) -> Vec<Role> {
    let mut out = Vec::new();
    for role in [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ] {
        let mine = (b.by_color(color) & b.by_role(role)).count();
        let theirs = (b.by_color(!color) & b.by_role(role)).count();
        for _ in theirs..mine {
            out.push(role);
        }
    }
    out
}

fn material(b: &shakmaty::Board, color: Color) -> i32 {
    [
        (Role::Pawn, 1),
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ]
    .iter()
    .map(|&(role, v)| (b.by_color(color) & b.by_role(role)).count() as i32 * v)
    .sum()
}

/// The replay panel: the game box (players, event, where we are), the
/// engine's search and eval graph, the moves with the current move's notes.
pub(crate) fn draw_replay_panel(
    buf: &mut Buffer,
    app: &ChessView<'_>,
    r: &Replay,
    area: Rect,
    now: Instant,
) {
    let theme = app.ui.theme();
    let parts = replay_panel(area);
    let width = area.width.saturating_sub(4) as usize;
    let mut lines: Vec<Line> = [Color::White, Color::Black]
        .into_iter()
        .map(|c| player_line(app, c, width, now))
        .collect();
    lines.push(game_info(app, r, width));
    lines.push(replay_state(app, r));
    let title = format!(
        "Replay · game {}/{} · {}",
        r.index + 1,
        r.library.entries.len(),
        r.library.name
    );
    let title = fit(&title, area.width.saturating_sub(6) as usize);
    Paragraph::new(lines)
        .block(block(&title, theme))
        .render_ref(parts.game, buf);

    if app.ui.openings.shown {
        draw_openings_here(buf, app, parts.search);
    } else {
        draw_search(buf, app, parts.search);
    }
    if let Some(gr) = parts.graph {
        draw_eval_graph(buf, app, gr);
    }
    if let Some(moves) = parts.moves {
        draw_replay_moves(buf, app, r, moves);
    }
}

/// "▶ ○ Name (Elo)  ♟♟ +2     1:00" for `color`: the player, what they
/// have taken, their material lead and clock, in `width` cells.
fn player_line(app: &ChessView<'_>, c: Color, width: usize, now: Instant) -> Line<'static> {
    let theme = app.ui.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let board = app.s.board();
    let name = player_name(app, c);
    let elo = app
        .s
        .game
        .header(if c == Color::White {
            "WhiteElo"
        } else {
            "BlackElo"
        })
        .filter(|e| !e.is_empty() && *e != "?" && *e != "-")
        .map(|e| format!(" ({e})"))
        .unwrap_or_default();
    let took: String = extra_pieces(board.board(), c)
        .into_iter()
        .map(|role| glyph(Piece { color: !c, role }, app.ui.look.ascii))
        .collect();
    let diff = material(board.board(), c) - material(board.board(), !c);
    let plus = if diff > 0 {
        format!(" +{diff}")
    } else {
        String::new()
    };
    let clock = app.clock_text(c, now).unwrap_or_default();
    let marker = if c == board.turn() { "▶ " } else { "  " };
    let left = format!(
        "{marker}{} {name}{elo}",
        if c == Color::White { "○" } else { "●" }
    );
    let mid = format!("{took}{plus}");
    let room = width.saturating_sub(clock.chars().count() + 1);
    let left = fit(&left, room.saturating_sub(mid.chars().count() + 1).max(8));
    let mid = fit(&mid, room.saturating_sub(left.chars().count() + 1));
    let pad = width
        .saturating_sub(left.chars().count() + mid.chars().count() + clock.chars().count() + 1);
    let mut style = text;
    if c == board.turn() {
        style = style.add_modifier(Modifier::BOLD);
    }
    Line::from(vec![
        Span::styled(left, style),
        Span::raw(" "),
        Span::styled(mid, dim),
        Span::raw(" ".repeat(pad)),
        Span::styled(clock, style),
    ])
}

/// Event, site, date, round and opening of the game, cut to `width`.
fn game_info(app: &ChessView<'_>, r: &Replay, width: usize) -> Line<'static> {
    let dim = Style::default().fg(app.ui.theme().dim);
    let g = &r.parsed.game;
    let mut info: Vec<String> = Vec::new();
    for key in ["Event", "Site", "Date", "Round"] {
        if let Some(v) = g
            .header(key)
            .filter(|v| !v.is_empty() && !v.starts_with('?') && *v != "-")
        {
            info.push(if key == "Round" {
                format!("round {v}")
            } else {
                v.to_string()
            });
        }
    }
    let opening = match (g.header("ECO"), g.header("Opening")) {
        (Some(e), Some(o)) => format!("{e} {o}"),
        (Some(e), None) => e.to_string(),
        (None, Some(o)) => o.to_string(),
        (None, None) => String::new(),
    };
    if !opening.is_empty() {
        info.push(opening);
    }
    Line::from(Span::styled(fit(&info.join(" · "), width), dim))
}

/// Where we are: the move shown and its ply, in a variation or not, the
/// ending, autoplay and the review's progress or counts.
fn replay_state(app: &ChessView<'_>, r: &Replay) -> Line<'static> {
    let theme = app.ui.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let accent = Style::default().fg(theme.accent);
    let tree = r.tree();
    let total = tree.main_line().len();
    let mut state: Vec<Span> = Vec::new();
    let here = if r.cursor == 0 {
        "Start".to_string()
    } else {
        let (n, c) = tree.move_number(r.cursor);
        let dots = if c == Color::White { "." } else { "..." };
        format!("{n}{dots} {}", tree.node(r.cursor).san)
    };
    state.push(Span::styled(
        format!("{here} ({}/{total})", tree.ply(r.cursor)),
        text.add_modifier(Modifier::BOLD),
    ));
    if !tree.on_main_line(r.cursor) {
        state.push(Span::styled("  variation", accent));
    }
    if let Some(e) = app.s.game.ending {
        state.push(Span::styled(format!("  {}", describe_ending(e)), accent));
    }
    if r.autoplay.is_some() {
        state.push(Span::styled(
            format!("  ▶ {:.2}s", r.delay().as_secs_f64()),
            accent,
        ));
    }
    match &r.review {
        ReviewState::Running { done, total, .. } => state.push(Span::styled(
            format!("  review {}%", done * 100 / (*total).max(1)),
            accent,
        )),
        ReviewState::Done => {
            let [w, b] = r.judgement_counts();
            state.push(Span::styled(
                format!(
                    "  ?! ? ?? W {}/{}/{} B {}/{}/{}",
                    w.0, w.1, w.2, b.0, b.1, b.2
                ),
                dim,
            ));
        }
        ReviewState::Cancelled { done, total } => state.push(Span::styled(
            format!("  review stopped {done}/{total}"),
            dim,
        )),
        ReviewState::Idle => {}
    }
    Line::from(state)
}

/// The moves box: the game's moves with their variations and comments, the
/// current move highlighted, and under them its notes.
fn draw_replay_moves(buf: &mut Buffer, app: &ChessView<'_>, r: &Replay, moves: Rect) {
    let theme = app.ui.theme();
    let titles = replay_titles(app.s.opening.text(), r, moves.width);
    let (rows, first, inner) = replay_rows(r, moves, titles.inside.len() as u16);
    block_with_bottom(&titles.top, titles.bottom, theme).render_ref(moves, buf);
    // The rest of a long opening name, above the moves.
    if inner.y > moves.y + 1 {
        for (i, row) in titles.inside.iter().enumerate() {
            buf.set_stringn(
                moves.x + 1,
                moves.y + 1 + i as u16,
                row,
                usize::from(inner.width),
                Style::default().fg(theme.accent),
            );
        }
    }
    for (i, row) in rows
        .iter()
        .skip(first)
        .take(inner.height as usize)
        .enumerate()
    {
        let y = inner.y + i as u16;
        for p in row {
            let x = inner.x + p.x;
            let w = inner.width.saturating_sub(p.x) as usize;
            buf.set_stringn(x, y, &p.tok.text, w, token_style(theme, r, p));
        }
    }
    if rows.is_empty() {
        buf.set_string(
            inner.x,
            inner.y,
            "(no moves)",
            Style::default().fg(theme.dim),
        );
    }
    draw_move_note(buf, theme, r, inner, moves);
}

/// The titles of the replay's move list: the opening, and whether there
/// are variations to walk with ↑↓.
pub(crate) fn replay_titles(opening: Option<String>, r: &Replay, width: u16) -> MovesTitles {
    let variations = r.tree().nodes.iter().skip(1).any(|n| {
        n.parent
            .is_some_and(|p| r.tree().node(p).children.len() > 1)
    });
    let note = match (variations, &opening) {
        (false, _) => "",
        (true, Some(_)) => "(↑↓)",
        (true, None) => "(↑↓ variations)",
    };
    moves_titles(opening, note, width)
}

/// How a word of the moves list looks: the current move highlighted, moves
/// in the review's colours, variations dim, comments italic.
fn token_style(theme: &Theme, r: &Replay, p: &rp::Placed) -> Style {
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let accent = Style::default().fg(theme.accent);
    match p.tok.kind {
        TokKind::Move(id) if id == r.cursor => Style::default()
            .fg(theme.background)
            .bg(theme.accent)
            .add_modifier(Modifier::BOLD),
        TokKind::Move(id) => {
            let judged = r
                .reviews
                .get(id)
                .and_then(|x| x.as_ref())
                .and_then(|x| x.judgement);
            match judged {
                Some(j) => Style::default().fg(judgement_colour(theme, j)),
                None if p.tok.depth > 0 => dim,
                None => text,
            }
        }
        TokKind::Comment => dim.add_modifier(Modifier::ITALIC),
        TokKind::Result => accent.add_modifier(Modifier::BOLD),
    }
}

/// The current move's notes below the moves (`inner`: the rows of moves,
/// in the box `moves`), under a rule; nothing when there are none.
fn draw_move_note(buf: &mut Buffer, theme: &Theme, r: &Replay, inner: Rect, moves: Rect) {
    let note_top = inner.y + inner.height;
    let note_h = (moves.y + moves.height).saturating_sub(1 + note_top);
    if note_h == 0 {
        return;
    }
    let note = move_note(theme, r);
    if note.is_empty() {
        return;
    }
    let rule = "─".repeat(inner.width as usize);
    buf.set_string(inner.x, note_top, &rule, Style::default().fg(theme.border));
    Paragraph::new(Line::from(note))
        .wrap(Wrap { trim: true })
        .render_ref(
            Rect::new(inner.x, note_top + 1, inner.width, note_h.saturating_sub(1)),
            buf,
        );
}

/// The current move's notes: the review's verdict (or else an evaluation
/// the file records), then its comments.
fn move_note(theme: &Theme, r: &Replay) -> Vec<Span<'static>> {
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let tree = r.tree();
    let mut note: Vec<Span> = Vec::new();
    if let Some(rev) = r.reviews.get(r.cursor).and_then(|x| x.as_ref()) {
        let before_board = tree
            .node(r.cursor)
            .parent
            .map(|p| tree.board_at(p))
            .unwrap_or_else(|| tree.start.clone());
        let verdict = rev.judgement.map(Judgement::name).unwrap_or("Fine");
        let best = match rev.best {
            Some(b) if Some(b) != tree.node(r.cursor).mv => format!(
                " Best was {}: {}.",
                before_board.san(b),
                san_line(&before_board, &rev.best_line, 6)
            ),
            _ => String::new(),
        };
        let colour = rev
            .judgement
            .map(|j| judgement_colour(theme, j))
            .unwrap_or(theme.dim);
        // The reason right after the verdict: on a small screen the note
        // is cut at the bottom, and the why matters more than the line.
        let reason = match rev.reason.as_deref().filter(|t| !t.is_empty()) {
            Some(t) if t.ends_with('…') => format!(": {t}"),
            Some(t) => format!(": {t}."),
            None => ".".to_string(),
        };
        let swing = swing_text(rev.before, rev.after, rev.loss);
        note.push(Span::styled(
            format!("{verdict} {swing}{reason}{best} "),
            Style::default().fg(colour),
        ));
    }
    // The move that left the opening book (unless the file says so already,
    // as an export of ours does).
    if let Some((node, book)) = &r.book_exit
        && *node == r.cursor
        && !tree
            .node(r.cursor)
            .comments
            .iter()
            .any(|c| crate::game::openings::is_book_comment(c))
    {
        note.push(Span::styled(format!("{}. ", capitalise(book)), dim));
    }
    // The move that left your repertoire.
    if let Some((node, words)) = &r.repertoire_exit
        && *node == r.cursor
    {
        note.push(Span::styled(
            format!("{words}. "),
            Style::default().fg(theme.accent),
        ));
    }
    // An evaluation the file records ([%eval]), when there is no review.
    if note.is_empty()
        && let Some(e) = tree
            .node(r.cursor)
            .comments
            .iter()
            .find_map(|c| crate::game::review::parse_eval_comment(c))
    {
        note.push(Span::styled(
            format!("Evaluation in the file: {} (White's view). ", score_text(e)),
            dim,
        ));
    }
    let comments: Vec<String> = tree
        .node(r.cursor)
        .comments
        .iter()
        .map(|c| rp::comment_text(c))
        .filter(|c| !c.is_empty())
        .collect();
    if !comments.is_empty() {
        note.push(Span::styled(
            comments.join(" "),
            text.add_modifier(Modifier::ITALIC),
        ));
    }
    note
}

/// The games of the open file: a row per game (narrower than 100
/// columns, the year for the date and no move count, so the opening keeps
/// its room), and under them the chosen game whole: players, event, date,
/// length and the opening's full name, or why the game cannot be read.
pub(crate) fn draw_games(
    buf: &mut Buffer,
    app: &ChessView<'_>,
    r: &Replay,
    selected: usize,
    area: Rect,
) {
    let theme = app.ui.theme();
    let w = area.width.saturating_sub(4).min(140);
    let h = area.height.saturating_sub(2);
    let title = format!("Games in {} ({})", r.library.name, r.file_summary());
    let title = fit(&title, w.saturating_sub(6) as usize);
    let inner = popup(buf, area, w, h, &title, theme);
    if inner.height < 3 {
        return;
    }
    let iw = inner.width as usize;
    let cols = GameColumns::new(iw);
    let header = cols.header();
    buf.set_stringn(
        inner.x,
        inner.y,
        &header,
        iw,
        Style::default()
            .fg(theme.accent)
            .add_modifier(Modifier::BOLD),
    );
    // The chosen game in full under the rows, when there is room.
    let whole_h: u16 = if inner.height >= 8 { 3 } else { 0 };
    let visible = inner.height.saturating_sub(2 + whole_h) as usize;
    let n = r.library.entries.len();
    let first = if selected >= visible {
        (selected + 1 - visible).min(n.saturating_sub(visible))
    } else {
        0
    };
    for (i, e) in r
        .library
        .entries
        .iter()
        .enumerate()
        .skip(first)
        .take(visible)
    {
        let y = inner.y + 1 + (i - first) as u16;
        let mut row = cols.row(e);
        // ≠: the game leaves your repertoire (the number's first column
        // is blank below 1,000 games).
        if r.left_repertoire.contains_key(&i) && row.starts_with(' ') {
            row.replace_range(..1, "≠");
        }
        let style = if i == selected {
            Style::default().fg(theme.background).bg(theme.accent)
        } else if matches!(e.status, GameStatus::Bad { .. }) {
            Style::default().fg(theme.error)
        } else if i == r.index {
            Style::default().fg(theme.text).add_modifier(Modifier::BOLD)
        } else {
            Style::default().fg(theme.text)
        };
        let padded = format!("{row:<iw$}");
        buf.set_stringn(inner.x, y, &padded, iw, style);
    }
    if whole_h > 0
        && let Some(e) = r.library.entries.get(selected)
    {
        let y = inner.y + inner.height - 1 - whole_h;
        let rule = "─".repeat(iw);
        buf.set_string(inner.x, y, &rule, Style::default().fg(theme.border));
        let mut whole = game_whole(e);
        if let Some(words) = r.left_repertoire.get(&selected) {
            whole = format!("≠ {words}. {whole}");
        }
        Paragraph::new(whole)
            .wrap(Wrap { trim: true })
            .style(Style::default().fg(theme.text))
            .render_ref(Rect::new(inner.x, y + 1, inner.width, whole_h - 1), buf);
    }
    let help = "↑↓ PgUp PgDn Home End choose · Enter open · o another file · Esc close";
    buf.set_stringn(
        inner.x,
        inner.y + inner.height - 1,
        help,
        iw,
        Style::default().fg(theme.dim),
    );
}

/// The columns of the games list for a width: narrower than 100 columns,
/// surnames, the year for the date, no move count, and the opening before
/// the event (the line under the rows says the game whole).
struct GameColumns {
    wide: bool,
    name_w: usize,
}

impl GameColumns {
    fn new(width: usize) -> GameColumns {
        let wide = width >= 100;
        let name_w = if wide {
            ((width.saturating_sub(40)) / 4).clamp(8, 24)
        } else {
            ((width.saturating_sub(45)) / 2).clamp(8, 12)
        };
        GameColumns { wide, name_w }
    }

    /// A name in its column: the surname when the whole name is too long,
    /// as a crosstable says it.
    fn name(&self, n: &str) -> String {
        if n.chars().count() <= self.name_w {
            fit(n, self.name_w)
        } else {
            fit(surname(n), self.name_w)
        }
    }

    /// The columns before the event and opening.
    fn line(&self, num: &str, [white, black, result, date, moves]: [&str; 5]) -> String {
        let nw = self.name_w;
        let (white, black) = (self.name(white), self.name(black));
        if self.wide {
            format!(
                "{num:>5} {white:<nw$} {black:<nw$} {:<7} {:<10} {moves:>5}  ",
                fit(result, 7),
                fit(date, 10),
            )
        } else {
            format!(
                "{num:>4} {white:<nw$} {black:<nw$} {:<7} {:<4}  ",
                fit(result, 7),
                date.get(..4).unwrap_or(date),
            )
        }
    }

    fn header(&self) -> String {
        let date = if self.wide { "Date" } else { "Year" };
        let last = if self.wide {
            "Event · opening / problem"
        } else {
            "Opening / problem · event"
        };
        let line = self.line("#", ["White", "Black", "Result", date, "Moves"]);
        format!("{line}{last}")
    }

    /// A game's row: its columns, then its event and opening (or why it
    /// cannot be read).
    fn row(&self, e: &crate::game::library::Entry) -> String {
        let tag = |k: &str| e.tag(k).unwrap_or("");
        let moves = if e.plies > 0 {
            e.plies.div_ceil(2).to_string()
        } else {
            String::new()
        };
        let (event, opening, bad) = game_words(e);
        let extra = bad.unwrap_or_else(|| {
            let parts = if self.wide {
                [event, opening]
            } else {
                [opening, event]
            };
            parts
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" · ")
        });
        let line = self.line(
            &e.number.to_string(),
            [
                tag("White"),
                tag("Black"),
                tag("Result"),
                tag("Date"),
                &moves,
            ],
        );
        format!("{line}{extra}")
    }
}

/// A player's surname: before the comma of "Anderssen, Adolf", else the
/// last word of "Adolf Anderssen" (a "(Computer)" after it left out).
fn surname(name: &str) -> &str {
    if let Some((last, _)) = name.split_once(',') {
        return last.trim();
    }
    let plain = name.split('(').next().unwrap_or(name).trim();
    plain.rsplit(' ').next().unwrap_or(plain)
}

/// A game's event and opening as its row says them, and why it cannot be
/// read if it cannot.
fn game_words(e: &crate::game::library::Entry) -> (String, String, Option<String>) {
    if let GameStatus::Bad { line, reason } = &e.status {
        return (
            String::new(),
            String::new(),
            Some(format!("✗ line {line}: {reason}")),
        );
    }
    let event = e
        .tag("Event")
        .filter(|ev| !ev.is_empty() && *ev != "?")
        .unwrap_or("")
        .to_string();
    // The file's own names first; else the table's, once the game was read.
    let opening = match (e.tag("ECO"), e.tag("Opening")) {
        (Some(a), Some(b)) => format!("{a} {b}"),
        (Some(a), None) => a.to_string(),
        (None, Some(b)) => b.to_string(),
        _ => e.opening.map(|o| o.to_string()).unwrap_or_default(),
    };
    (event, opening, None)
}

/// The chosen game in a sentence: "Adolf Anderssen – Lionel Kieseritzky
/// 1-0 · London, 1851.06.21 · 23 moves · C33 King's Gambit Accepted:
/// Bishop's Gambit, Bryan Countergambit".
fn game_whole(e: &crate::game::library::Entry) -> String {
    let tag = |k: &str| {
        e.tag(k)
            .filter(|v| !v.is_empty() && *v != "?" && !v.starts_with("????"))
            .map(str::to_string)
    };
    let (_, opening, bad) = game_words(e);
    let mut parts = vec![format!(
        "{} – {}{}",
        tag("White").unwrap_or_else(|| "?".into()),
        tag("Black").unwrap_or_else(|| "?".into()),
        tag("Result")
            .filter(|r| r != "*")
            .map(|r| format!(" {r}"))
            .unwrap_or_default()
    )];
    let place: Vec<String> = ["Event", "Site", "Date"]
        .iter()
        .filter_map(|k| tag(k))
        .collect();
    if !place.is_empty() {
        parts.push(place.join(", "));
    }
    if e.plies > 0 {
        parts.push(format!("{} moves", e.plies.div_ceil(2)));
    }
    parts.extend(bad);
    if !opening.is_empty() {
        parts.push(opening);
    }
    parts.join(" · ")
}

/// A move's swing in the review: "(+0.25 → -1.40, −30% winning chance)";
/// a loss that rounds to nothing is said so, not "−0%".
fn swing_text(before: crate::engine::Score, after: crate::engine::Score, loss: f64) -> String {
    let pct = (loss * 100.0).round();
    let lost = if pct < 1.0 {
        "no winning chance lost".to_string()
    } else {
        format!("−{pct:.0}% winning chance")
    };
    format!("({} → {}, {lost})", score_text(before), score_text(after))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Score;

    #[test]
    fn a_swing_that_costs_nothing_says_so() {
        assert_eq!(
            swing_text(Score(-25), Score(-26), 0.002),
            "(-0.25 → -0.26, no winning chance lost)"
        );
        assert_eq!(
            swing_text(Score(25), Score(-140), 0.304),
            "(+0.25 → -1.40, −30% winning chance)"
        );
    }
}
