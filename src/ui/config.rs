//! The configuration file and remembered choices.
//!
//! `config.toml` (in the user config directory) is written by the user and
//! never by Kibitz; a broken one gives a clear message and the defaults.
//! Choices made in the app (theme, board orientation) go to `state.toml` in
//! the data directory instead.
//!
//! Key bindings: moves are typed without a prefix, so the keys that begin
//! a move ([`begins_move`]: the files a-h, the piece capitals K Q R B N P,
//! O o 0 for castling, @ for a drop) are never commands, and every command
//! key acts with one press. The config refuses a binding that would take
//! such a key. Lower-case piece letters are commands outside the move box
//! (`n` new game, `q` quit); inside it (`:` opens it empty) any spelling
//! is text (`nf3`, `n@f3`). The one exception is the cursor: `h` moves it
//! left at once, and if the next key continues a move (`h3`, `hxg5`) the
//! cursor goes back and the move box takes the whole text.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Base time and increment, written in chess notation: minutes+seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    pub const fn new(base_secs: u64, inc_secs: u64) -> TimeControl {
        TimeControl {
            base: Duration::from_secs(base_secs),
            increment: Duration::from_secs(inc_secs),
        }
    }

    /// The PGN `TimeControl` tag: seconds, `180+2`.
    pub fn pgn_tag(&self) -> String {
        format!("{}+{}", fmt_secs(self.base), fmt_secs(self.increment))
    }

    /// Parses the PGN tag form (`180+2`, `300`).
    pub fn from_pgn_tag(s: &str) -> Option<TimeControl> {
        let (b, i) = s.split_once('+').unwrap_or((s, "0"));
        let b: f64 = b.trim().parse().ok()?;
        let i: f64 = i.trim().parse().ok()?;
        (b.is_finite() && i.is_finite() && b > 0.0 && i >= 0.0 && b < 1e7 && i < 1e5).then(|| {
            TimeControl {
                base: Duration::from_secs_f64(b),
                increment: Duration::from_secs_f64(i),
            }
        })
    }

    pub fn presets() -> &'static [(&'static str, TimeControl)] {
        const P: [(&str, TimeControl); 8] = [
            ("1+0", TimeControl::new(60, 0)),
            ("3+0", TimeControl::new(180, 0)),
            ("3+2", TimeControl::new(180, 2)),
            ("5+0", TimeControl::new(300, 0)),
            ("5+3", TimeControl::new(300, 3)),
            ("10+5", TimeControl::new(600, 5)),
            ("15+10", TimeControl::new(900, 10)),
            ("30+0", TimeControl::new(1800, 0)),
        ];
        &P
    }
}

fn fmt_secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        format!("{}", d.as_secs_f64())
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let base = self.base.as_secs_f64() / 60.0;
        let base = if (base - base.round()).abs() < 1e-9 {
            format!("{}", base.round() as u64)
        } else {
            format!("{base}")
        };
        write!(f, "{base}+{}", fmt_secs(self.increment))
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;
    /// `3+2` (3 minutes + 2 seconds), `0.5+0`, `90s+5`, `10` (no increment).
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let t = s.trim();
        let (b, i) = t.split_once('+').unwrap_or((t, "0"));
        let base = if let Some(secs) = b.trim().strip_suffix('s') {
            secs.trim().parse::<f64>().ok()
        } else {
            b.trim().parse::<f64>().ok().map(|m| m * 60.0)
        }
        .ok_or_else(|| format!("'{s}' is not a time control: write minutes+seconds, e.g. 5+3"))?;
        let inc: f64 = i
            .trim()
            .trim_end_matches('s')
            .parse()
            .map_err(|_| format!("'{s}': the increment '{i}' is not a number of seconds"))?;
        if !(base.is_finite() && base > 0.0 && base <= 86_400.0) {
            return Err(format!(
                "'{s}': the base time must be more than 0 and at most 24 hours"
            ));
        }
        if !(inc.is_finite() && (0.0..=600.0).contains(&inc)) {
            return Err(format!("'{s}': the increment must be 0 to 600 seconds"));
        }
        Ok(TimeControl {
            base: Duration::from_secs_f64(base),
            increment: Duration::from_secs_f64(inc),
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Quit,
    Help,
    NewGame,
    Flip,
    CycleTheme,
    Takeback,
    Hint,
    Resign,
    OfferDraw,
    Pause,
    CopyFen,
    CopyPgn,
    WhiteView,
    EvalBreakdown,
    Explore,
    Analyse,
    MoreLines,
    FewerLines,
    Open,
    Trainer,
    Up,
    Down,
    Left,
    Right,
    Select,
    Cancel,
    ScrollUp,
    ScrollDown,
    /// Opens the move box empty (for spellings that do not begin with a
    /// move key, such as `nf3` or `n@f3`).
    TypeMove,
}

/// Whether a typed character can begin a move: a file (`e4`, `exd5`,
/// `e2e4`), a piece capital (`Nf3`, `N@f3`, `P@e4`), castling (`O-O`,
/// `o-o`, `0-0`) or a pawn drop (`@e4`). No command key may be one.
pub fn begins_move(c: char) -> bool {
    matches!(
        c,
        'a'..='h' | 'K' | 'Q' | 'R' | 'B' | 'N' | 'P' | 'O' | 'o' | '0' | '@'
    )
}

impl Action {
    pub const ALL: &'static [Action] = &[
        Action::Help,
        Action::NewGame,
        Action::Takeback,
        Action::Hint,
        Action::OfferDraw,
        Action::Resign,
        Action::Flip,
        Action::CycleTheme,
        Action::Pause,
        Action::CopyFen,
        Action::CopyPgn,
        Action::WhiteView,
        Action::EvalBreakdown,
        Action::Explore,
        Action::Analyse,
        Action::MoreLines,
        Action::FewerLines,
        Action::Open,
        Action::Trainer,
        Action::Up,
        Action::Down,
        Action::Left,
        Action::Right,
        Action::Select,
        Action::Cancel,
        Action::ScrollUp,
        Action::ScrollDown,
        Action::TypeMove,
        Action::Quit,
    ];

    /// The cursor keys, which may sit on a key that begins a move (`h`):
    /// they act at once and step back when the key turns out to begin one.
    pub fn is_cursor(self) -> bool {
        matches!(
            self,
            Action::Up | Action::Down | Action::Left | Action::Right
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Action::Quit => "quit",
            Action::Help => "help",
            Action::NewGame => "new_game",
            Action::Flip => "flip",
            Action::CycleTheme => "theme",
            Action::Takeback => "takeback",
            Action::Hint => "hint",
            Action::Resign => "resign",
            Action::OfferDraw => "draw",
            Action::Pause => "pause",
            Action::CopyFen => "copy_fen",
            Action::CopyPgn => "copy_pgn",
            Action::WhiteView => "white_view",
            Action::EvalBreakdown => "eval",
            Action::Explore => "explore",
            Action::Analyse => "analyse",
            Action::MoreLines => "more_lines",
            Action::FewerLines => "fewer_lines",
            Action::Open => "open",
            Action::Trainer => "trainer",
            Action::Up => "up",
            Action::Down => "down",
            Action::Left => "left",
            Action::Right => "right",
            Action::Select => "select",
            Action::Cancel => "cancel",
            Action::ScrollUp => "scroll_up",
            Action::ScrollDown => "scroll_down",
            Action::TypeMove => "move_box",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Action::Quit => "Quit (the game is already saved)",
            Action::Help => "Show this help",
            Action::NewGame => "New game (side, opponent, clock, start position)",
            Action::Flip => "Flip the board",
            Action::CycleTheme => "Next colour theme",
            Action::Takeback => "Take back your last move (and the engine's reply)",
            Action::Hint => "Hint: the engine's best move and line",
            Action::Resign => "Resign",
            Action::OfferDraw => "Offer a draw, or claim one (threefold, 50 moves)",
            Action::Pause => "Pause or resume (engine vs engine, clocks)",
            Action::CopyFen => "Copy the position (FEN) to the clipboard and a file",
            Action::CopyPgn => "Copy the game (PGN) to the clipboard and a file",
            Action::WhiteView => "Scores from White's view / the side to move's",
            Action::EvalBreakdown => "The evaluation term by term: full and simple side by side",
            Action::Explore => {
                "Search-tree explorer: walk a real alpha-beta search of this position"
            }
            Action::Analyse => "Analysis on/off: the engine's best lines for the position",
            Action::MoreLines => "Analysis: one more line (up to 5)",
            Action::FewerLines => "Analysis: one line fewer",
            Action::Open => "Open a game file to replay (PGN, move history)",
            Action::Trainer => "Endgame trainer: perfect defence, or your own position",
            Action::Up => "Cursor up",
            Action::Down => "Cursor down",
            Action::Left => "Cursor left",
            Action::Right => "Cursor right",
            Action::Select => "Pick up / put down the piece under the cursor",
            Action::Cancel => "Cancel the selection or the typed move",
            Action::ScrollUp => "Scroll the move list up",
            Action::ScrollDown => "Scroll the move list down",
            Action::TypeMove => "Open the move box: any spelling (nf3, n@f3, o-o)",
        }
    }

    fn default_keys(self) -> &'static [&'static str] {
        match self {
            Action::Quit => &["q"],
            Action::Help => &["?", "F1"],
            Action::NewGame => &["n"],
            Action::Flip => &["F"],
            Action::CycleTheme => &["t"],
            Action::Takeback => &["u"],
            Action::Hint => &["H"],
            Action::Resign => &["Ctrl+r"],
            Action::OfferDraw => &["D"],
            Action::Pause => &["p"],
            Action::CopyFen => &["y"],
            Action::CopyPgn => &["Y"],
            Action::WhiteView => &["w"],
            Action::EvalBreakdown => &["i"],
            Action::Explore => &["x"],
            Action::Analyse => &["A"],
            Action::MoreLines => &["+", "="],
            Action::FewerLines => &["-"],
            Action::Open => &["Ctrl+o"],
            Action::Trainer => &["T"],
            Action::Up => &["Up", "k"],
            Action::Down => &["Down", "j"],
            Action::Left => &["Left", "h"],
            Action::Right => &["Right", "l"],
            Action::Select => &["Enter", "Space"],
            Action::Cancel => &["Esc"],
            Action::ScrollUp => &["PageUp"],
            Action::ScrollDown => &["PageDown"],
            Action::TypeMove => &[":"],
        }
    }
}

/// A key as written in the config: `q`, `Q`, `Ctrl+c`, `F1`, `Esc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    code: KeyCode,
    ctrl: bool,
    alt: bool,
}

fn parse_key(s: &str) -> Option<Key> {
    let mut ctrl = false;
    let mut alt = false;
    let mut rest = s.trim();
    loop {
        let lower = rest.to_ascii_lowercase();
        if lower.starts_with("ctrl+") && rest.len() > 5 {
            ctrl = true;
            rest = &rest[5..];
        } else if lower.starts_with("alt+") && rest.len() > 4 {
            alt = true;
            rest = &rest[4..];
        } else {
            break;
        }
    }
    let code = match rest.to_ascii_lowercase().as_str() {
        "enter" | "return" => KeyCode::Enter,
        "space" => KeyCode::Char(' '),
        "esc" | "escape" => KeyCode::Esc,
        "tab" => KeyCode::Tab,
        "backtab" => KeyCode::BackTab,
        "backspace" => KeyCode::Backspace,
        "up" => KeyCode::Up,
        "down" => KeyCode::Down,
        "left" => KeyCode::Left,
        "right" => KeyCode::Right,
        "pageup" => KeyCode::PageUp,
        "pagedown" => KeyCode::PageDown,
        "home" => KeyCode::Home,
        "end" => KeyCode::End,
        "delete" | "del" => KeyCode::Delete,
        "insert" => KeyCode::Insert,
        f if f.len() >= 2 && f.starts_with('f') && f[1..].parse::<u8>().is_ok() => {
            let n: u8 = f[1..].parse().ok()?;
            if !(1..=12).contains(&n) {
                return None;
            }
            KeyCode::F(n)
        }
        _ => {
            let mut chars = rest.chars();
            let c = chars.next()?;
            if chars.next().is_some() {
                return None;
            }
            KeyCode::Char(if ctrl { c.to_ascii_lowercase() } else { c })
        }
    };
    Some(Key { code, ctrl, alt })
}

/// The key event a key name (`q`, `Ctrl+r`, `F1`, `Enter`) stands for, as
/// the terminal sends it (capitals with Shift).
pub fn key_event(name: &str) -> Option<KeyEvent> {
    let k = parse_key(name)?;
    let mut m = KeyModifiers::NONE;
    if k.ctrl {
        m |= KeyModifiers::CONTROL;
    }
    if k.alt {
        m |= KeyModifiers::ALT;
    }
    if let KeyCode::Char(c) = k.code
        && c.is_ascii_uppercase()
    {
        m |= KeyModifiers::SHIFT;
    }
    Some(KeyEvent::new(k.code, m))
}

fn key_name(k: &Key) -> String {
    let base = match k.code {
        KeyCode::Enter => "Enter".to_string(),
        KeyCode::Char(' ') => "Space".to_string(),
        KeyCode::Esc => "Esc".to_string(),
        KeyCode::Tab => "Tab".to_string(),
        KeyCode::BackTab => "BackTab".to_string(),
        KeyCode::Backspace => "Backspace".to_string(),
        KeyCode::Up => "Up".to_string(),
        KeyCode::Down => "Down".to_string(),
        KeyCode::Left => "Left".to_string(),
        KeyCode::Right => "Right".to_string(),
        KeyCode::PageUp => "PageUp".to_string(),
        KeyCode::PageDown => "PageDown".to_string(),
        KeyCode::Home => "Home".to_string(),
        KeyCode::End => "End".to_string(),
        KeyCode::Delete => "Delete".to_string(),
        KeyCode::Insert => "Insert".to_string(),
        KeyCode::F(n) => format!("F{n}"),
        KeyCode::Char(c) => c.to_string(),
        _ => "?".to_string(),
    };
    let mut s = String::new();
    if k.ctrl {
        s.push_str("Ctrl+");
    }
    if k.alt {
        s.push_str("Alt+");
    }
    s + &base
}

/// A set of actions that keys can be bound to: the play screen's
/// ([`Action`], `[keys]` in the config) and the replay screen's
/// ([`ReplayAction`], `[replay_keys]`). The two sets are separate, so one
/// key may do different things on the two screens.
pub trait Bindable: Copy + Eq + std::hash::Hash + 'static {
    /// The config table that rebinds them.
    const TABLE: &'static str;
    fn all() -> &'static [Self];
    fn name(self) -> &'static str;
    fn default_keys(self) -> &'static [&'static str];
    /// Why `c` (a key without Ctrl or Alt) cannot do this action, if it
    /// cannot.
    fn refuse(self, _c: char) -> Option<String> {
        None
    }
}

impl Bindable for Action {
    const TABLE: &'static str = "keys";
    fn all() -> &'static [Action] {
        Action::ALL
    }
    fn name(self) -> &'static str {
        Action::name(self)
    }
    fn default_keys(self) -> &'static [&'static str] {
        Action::default_keys(self)
    }
    fn refuse(self, c: char) -> Option<String> {
        (begins_move(c) && !self.is_cursor()).then(|| {
            format!(
                "'{c}' begins a move (files a-h, K Q R B N P, O o 0, @), so it cannot be a \
                 command key; use another letter, a symbol, Ctrl+{c} or a function key"
            )
        })
    }
}

/// Keys of the replay screen (the play screen's keys that make sense
/// there, like flip, theme, analyse and explore, work too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReplayAction {
    Next,
    Previous,
    First,
    Last,
    /// The variation before / after this move (its alternatives).
    VariationUp,
    VariationDown,
    Autoplay,
    Faster,
    Slower,
    GoTo,
    Games,
    Open,
    Review,
    PlayFromHere,
    Export,
}

impl ReplayAction {
    pub const ALL: &'static [ReplayAction] = &[
        ReplayAction::Next,
        ReplayAction::Previous,
        ReplayAction::First,
        ReplayAction::Last,
        ReplayAction::VariationUp,
        ReplayAction::VariationDown,
        ReplayAction::Autoplay,
        ReplayAction::Faster,
        ReplayAction::Slower,
        ReplayAction::GoTo,
        ReplayAction::Games,
        ReplayAction::Open,
        ReplayAction::Review,
        ReplayAction::PlayFromHere,
        ReplayAction::Export,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ReplayAction::Next => "next",
            ReplayAction::Previous => "previous",
            ReplayAction::First => "first",
            ReplayAction::Last => "last",
            ReplayAction::VariationUp => "variation_up",
            ReplayAction::VariationDown => "variation_down",
            ReplayAction::Autoplay => "autoplay",
            ReplayAction::Faster => "faster",
            ReplayAction::Slower => "slower",
            ReplayAction::GoTo => "go_to",
            ReplayAction::Games => "games",
            ReplayAction::Open => "open",
            ReplayAction::Review => "review",
            ReplayAction::PlayFromHere => "play_from_here",
            ReplayAction::Export => "export",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            ReplayAction::Next => "Next move",
            ReplayAction::Previous => "Previous move",
            ReplayAction::First => "Start of the game",
            ReplayAction::Last => "End of the line",
            ReplayAction::VariationUp => "Previous alternative to this move (variations)",
            ReplayAction::VariationDown => "Next alternative to this move (variations)",
            ReplayAction::Autoplay => "Autoplay on/off",
            ReplayAction::Faster => "Autoplay faster",
            ReplayAction::Slower => "Autoplay slower",
            ReplayAction::GoTo => "Go to a move number (digits also start it: 23, 23b)",
            ReplayAction::Games => "The games in this file",
            ReplayAction::Open => "Open a game file",
            ReplayAction::Review => {
                "Review the game: evaluate every move, mark mistakes (again: cancel)"
            }
            ReplayAction::PlayFromHere => "Play from here against the engine",
            ReplayAction::Export => "Save the game with the review as annotated PGN",
        }
    }

    fn default_keys(self) -> &'static [&'static str] {
        match self {
            ReplayAction::Next => &["Right", "l"],
            ReplayAction::Previous => &["Left", "h"],
            ReplayAction::First => &["Home", "g"],
            ReplayAction::Last => &["End", "G"],
            ReplayAction::VariationUp => &["Up", "k"],
            ReplayAction::VariationDown => &["Down", "j"],
            ReplayAction::Autoplay => &["Space"],
            ReplayAction::Faster => &["+", "="],
            ReplayAction::Slower => &["-"],
            ReplayAction::GoTo => &[":"],
            ReplayAction::Games => &["L"],
            ReplayAction::Open => &["o", "Ctrl+o"],
            ReplayAction::Review => &["r"],
            ReplayAction::PlayFromHere => &["P"],
            ReplayAction::Export => &["E"],
        }
    }
}

impl Bindable for ReplayAction {
    const TABLE: &'static str = "replay_keys";
    fn all() -> &'static [ReplayAction] {
        ReplayAction::ALL
    }
    fn name(self) -> &'static str {
        ReplayAction::name(self)
    }
    fn default_keys(self) -> &'static [&'static str] {
        ReplayAction::default_keys(self)
    }
}

/// Keys bound to one set of actions.
#[derive(Clone, Debug)]
pub struct Bindings<A> {
    map: HashMap<Key, A>,
}

/// The play screen's keys.
pub type KeyMap = Bindings<Action>;
/// The replay screen's keys.
pub type ReplayKeyMap = Bindings<ReplayAction>;

impl<A: Bindable> Default for Bindings<A> {
    fn default() -> Bindings<A> {
        let mut map = HashMap::new();
        for &a in A::all() {
            for k in a.default_keys() {
                if let Some(key) = parse_key(k) {
                    map.insert(key, a);
                }
            }
        }
        Bindings { map }
    }
}

impl<A: Bindable> Bindings<A> {
    pub fn action(&self, ev: &KeyEvent) -> Option<A> {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        let alt = ev.modifiers.contains(KeyModifiers::ALT);
        let code = match ev.code {
            KeyCode::Char(c) if ctrl => KeyCode::Char(c.to_ascii_lowercase()),
            c => c,
        };
        self.map.get(&Key { code, ctrl, alt }).copied()
    }

    /// The keys bound to `a`, for the help screen ("f", "Ctrl+c", "Up").
    pub fn keys_for(&self, a: A) -> Vec<String> {
        let mut v: Vec<String> = self
            .map
            .iter()
            .filter(|(_, x)| **x == a)
            .map(|(k, _)| key_name(k))
            .collect();
        // Defaults first, in their order; then the rest alphabetically.
        let defaults = a.default_keys();
        v.sort_by_key(|k| {
            (
                defaults.iter().position(|d| d == k).unwrap_or(99),
                k.clone(),
            )
        });
        v
    }

    /// Applies overrides (`[keys]` or `[replay_keys]`): each named action
    /// gets exactly the keys given (replacing its defaults).
    fn apply(&mut self, overrides: &toml::Table) -> Result<(), String> {
        let table = A::TABLE;
        let mut wanted: Vec<(A, Vec<Key>)> = Vec::new();
        for (name, value) in overrides {
            let action = A::all()
                .iter()
                .copied()
                .find(|a| a.name() == name)
                .ok_or_else(|| {
                    let names: Vec<&str> = A::all().iter().map(|a| a.name()).collect();
                    format!(
                        "[{table}] {name}: no such action (actions: {})",
                        names.join(", ")
                    )
                })?;
            let list: Vec<String> = match value {
                toml::Value::String(s) => vec![s.clone()],
                toml::Value::Array(a) => a
                    .iter()
                    .map(|v| {
                        v.as_str()
                            .map(str::to_string)
                            .ok_or_else(|| format!("[{table}] {name}: keys must be strings"))
                    })
                    .collect::<Result<_, _>>()?,
                _ => {
                    return Err(format!(
                        "[{table}] {name}: give a key like \"f\" or a list [\"f\", \"F2\"]"
                    ));
                }
            };
            let keys = list
                .iter()
                .map(|k| {
                    let key = parse_key(k)
                        .ok_or_else(|| format!("[{table}] {name}: '{k}' is not a key"))?;
                    if let (KeyCode::Char(c), false, false) = (key.code, key.ctrl, key.alt)
                        && let Some(why) = action.refuse(c)
                    {
                        return Err(format!("[{table}] {name}: {why}"));
                    }
                    Ok(key)
                })
                .collect::<Result<Vec<_>, _>>()?;
            wanted.push((action, keys));
        }
        for (action, _) in &wanted {
            self.map.retain(|_, a| a != action);
        }
        for (action, keys) in wanted {
            for k in keys {
                if let Some(other) = self.map.get(&k)
                    && *other != action
                {
                    return Err(format!(
                        "[{table}] '{}' is bound to both {} and {}",
                        key_name(&k),
                        other.name(),
                        action.name()
                    ));
                }
                self.map.insert(k, action);
            }
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceStyle {
    Unicode,
    Ascii,
}

#[derive(Clone, Debug)]
pub struct Config {
    /// Built-in engine level 1-8.
    pub level: u8,
    pub time_control: Option<TimeControl>,
    pub theme: Option<String>,
    /// External UCI engine command; when set it is the default opponent.
    pub engine: Option<PathBuf>,
    pub piece_style: PieceStyle,
    pub keys: KeyMap,
    pub replay_keys: ReplayKeyMap,
    pub autosave: bool,
    /// Engine vs engine without a clock: the least time between two moves,
    /// so the game can be followed.
    pub watch_delay: Duration,
    /// Syzygy directories for the built-in engines (`:`-separated, as the
    /// `SyzygyPath` UCI option); `None` = none.
    pub syzygy_path: Option<String>,
    /// The built-in engines use our own tablebases (the data folder's
    /// `tablebases/`) when they are there.
    pub own_tablebases: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            level: 4,
            time_control: None,
            theme: None,
            engine: None,
            piece_style: PieceStyle::Unicode,
            keys: KeyMap::default(),
            replay_keys: ReplayKeyMap::default(),
            autosave: true,
            watch_delay: Duration::from_millis(800),
            syzygy_path: None,
            own_tablebases: true,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    level: Option<i64>,
    time_control: Option<String>,
    theme: Option<String>,
    engine: Option<String>,
    pieces: Option<String>,
    autosave: Option<bool>,
    watch_delay_ms: Option<i64>,
    syzygy_path: Option<String>,
    own_tablebases: Option<bool>,
    keys: Option<toml::Table>,
    replay_keys: Option<toml::Table>,
}

impl Config {
    pub fn parse(text: &str) -> Result<Config, ConfigError> {
        let raw: RawConfig =
            toml::from_str(text).map_err(|e| ConfigError(super::theme::toml_message(&e, text)))?;
        let mut c = Config::default();
        if let Some(l) = raw.level {
            if !(1..=8).contains(&l) {
                return Err(ConfigError(format!("level = {l}: use 1 to 8")));
            }
            c.level = l as u8;
        }
        if let Some(t) = raw.time_control {
            c.time_control = match t.trim() {
                "" | "none" | "-" => None,
                s => Some(
                    s.parse()
                        .map_err(|e| ConfigError(format!("time_control: {e}")))?,
                ),
            };
        }
        c.theme = raw.theme.filter(|t| !t.trim().is_empty());
        c.engine = raw
            .engine
            .filter(|e| !e.trim().is_empty())
            .map(PathBuf::from);
        if let Some(p) = raw.pieces {
            c.piece_style = match p.to_ascii_lowercase().as_str() {
                "unicode" => PieceStyle::Unicode,
                "ascii" => PieceStyle::Ascii,
                other => {
                    return Err(ConfigError(format!(
                        "pieces = \"{other}\": use \"unicode\" or \"ascii\""
                    )));
                }
            };
        }
        if let Some(a) = raw.autosave {
            c.autosave = a;
        }
        if let Some(ms) = raw.watch_delay_ms {
            if !(0..=60_000).contains(&ms) {
                return Err(ConfigError(format!(
                    "watch_delay_ms = {ms}: use 0 to 60000 (milliseconds)"
                )));
            }
            c.watch_delay = Duration::from_millis(ms as u64);
        }
        c.syzygy_path = raw.syzygy_path.filter(|p| !p.trim().is_empty());
        if let Some(o) = raw.own_tablebases {
            c.own_tablebases = o;
        }
        if let Some(k) = raw.keys {
            c.keys.apply(&k).map_err(ConfigError)?;
        }
        if let Some(k) = raw.replay_keys {
            c.replay_keys.apply(&k).map_err(ConfigError)?;
        }
        Ok(c)
    }

    /// Missing file: defaults. Broken file: defaults and a message naming
    /// the file, line and reason. The file is never written.
    pub fn load(path: &Path) -> (Config, Option<String>) {
        match std::fs::read_to_string(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Config::default(), None),
            Err(e) => (
                Config::default(),
                Some(format!("cannot read {}: {e}", path.display())),
            ),
            Ok(text) => match Config::parse(&text) {
                Ok(c) => (c, None),
                Err(e) => (Config::default(), Some(format!("{}: {e}", path.display()))),
            },
        }
    }

    /// A commented example `config.toml`; it parses to the defaults.
    pub fn example() -> &'static str {
        r#"# Kibitz configuration. Every key is optional.

# Built-in engine level, 1 (beginner) to 8 (full strength).
level = 4

# Clock for new games: "none" or minutes+seconds, e.g. "5+3".
time_control = "none"

# Colour theme by name ("Classic wood", "High contrast", "Colour-blind safe",
# or one of yours in the themes/ folder next to this file).
# theme = "Classic wood"

# An external UCI engine to play against instead of the built-in one.
# engine = "/usr/games/stockfish"

# Pieces: "unicode" or "ascii".
pieces = "unicode"

# Save every game (PGN) after each move.
autosave = true

# Engine vs engine without a clock: at least this long between moves (ms).
watch_delay_ms = 800

# Endgame tables for the built-in engines: our own (the data folder's
# tablebases/, made by the trainer or `kibitz tb generate`), and Syzygy
# files if you have them (directories separated by ':').
own_tablebases = true
# syzygy_path = "/path/to/syzygy"

# Key bindings: action = "key" or ["key", "key"]. Keys: letters, "Ctrl+x",
# "F1".."F12", "Enter", "Space", "Esc", "Tab", "Up", "Down", "Left",
# "Right", "PageUp", "PageDown". Keys that begin a move (a-h, K Q R B N P,
# O o 0, @) cannot be commands. Actions: quit, help, new_game, flip, theme,
# takeback, hint, resign, draw, pause, copy_fen, copy_pgn, white_view, eval,
# explore, analyse, more_lines, fewer_lines, open, trainer, up, down, left,
# right, select, cancel, scroll_up, scroll_down, move_box.
[keys]
# flip = ["F", "F2"]

# The replay screen's keys (the play screen's flip, theme, analyse, explore,
# eval, white_view, copy_fen, copy_pgn, help, new_game and quit work there too).
# Actions: next, previous, first, last, variation_up, variation_down, autoplay,
# faster, slower, go_to, games, open, review, play_from_here, export.
[replay_keys]
# next = ["Right", "l"]
"#
    }
}

/// Choices remembered between runs (`state.toml` in the data directory).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub theme: Option<String>,
    #[serde(default)]
    pub flipped: bool,
}

impl State {
    pub fn load(path: &Path) -> State {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|t| toml::from_str(&t).ok())
            .unwrap_or_default()
    }

    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = toml::to_string(self).map_err(std::io::Error::other)?;
        crate::util::write_atomic(path, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(code: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, m)
    }

    #[test]
    fn the_readme_example_config_parses() {
        let readme = include_str!("../../README.md");
        let start = readme
            .find("```toml\n")
            .expect("a toml block in the README")
            + 8;
        let len = readme[start..].find("```").expect("the block ends");
        let c = Config::parse(&readme[start..start + len]).unwrap();
        assert_eq!(c.level, 4);
        assert_eq!(c.time_control, Some(TimeControl::new(300, 3)));
        assert_eq!(c.watch_delay, Duration::from_millis(800));
        assert_eq!(c.syzygy_path.as_deref(), Some("/usr/share/syzygy"));
        assert!(c.own_tablebases);
        assert_eq!(
            c.keys
                .action(&KeyEvent::new(KeyCode::F(3), KeyModifiers::NONE)),
            Some(Action::Hint)
        );
    }

    #[test]
    fn defaults_and_example() {
        let c = Config::parse(Config::example()).unwrap();
        let d = Config::default();
        assert_eq!(c.level, d.level);
        assert_eq!(c.time_control, None);
        assert_eq!(c.piece_style, PieceStyle::Unicode);
        assert!(c.autosave);
        let k = KeyMap::default();
        assert_eq!(
            k.action(&ev(KeyCode::Char('F'), KeyModifiers::SHIFT)),
            Some(Action::Flip)
        );
        assert_eq!(k.action(&ev(KeyCode::Char('f'), KeyModifiers::NONE)), None);
        assert_eq!(
            k.action(&ev(KeyCode::Char('H'), KeyModifiers::SHIFT)),
            Some(Action::Hint)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Enter, KeyModifiers::NONE)),
            Some(Action::Select)
        );
        assert_eq!(k.action(&ev(KeyCode::Char('z'), KeyModifiers::NONE)), None);
        // Every action has a key.
        for &a in Action::ALL {
            assert!(!k.keys_for(a).is_empty(), "{a:?}");
        }
        assert_eq!(k.keys_for(Action::Help), ["?", "F1"]);
    }

    #[test]
    fn overrides_errors_and_duplicates() {
        let c =
            Config::parse("level = 7\npieces = \"ascii\"\n[keys]\nflip = [\"F2\", \"Ctrl+g\"]\n")
                .unwrap();
        assert_eq!(c.level, 7);
        assert_eq!(c.piece_style, PieceStyle::Ascii);
        assert_eq!(
            c.keys.action(&ev(KeyCode::F(2), KeyModifiers::NONE)),
            Some(Action::Flip)
        );
        assert_eq!(
            c.keys
                .action(&ev(KeyCode::Char('g'), KeyModifiers::CONTROL)),
            Some(Action::Flip)
        );
        assert_eq!(
            c.keys.action(&ev(KeyCode::Char('f'), KeyModifiers::NONE)),
            None
        );
        assert_eq!(c.keys.keys_for(Action::Flip), ["Ctrl+g", "F2"]);
        // Keys that begin a move are refused for commands, with the reason;
        // the cursor may take them (h), and Ctrl+letter is always free.
        for (name, k) in [("flip", "f"), ("quit", "Q"), ("hint", "@"), ("open", "o")] {
            let e = Config::parse(&format!("[keys]\n{name} = \"{k}\"\n"))
                .unwrap_err()
                .0;
            assert!(e.contains("begins a move"), "{name} = {k}: {e}");
        }
        let c = Config::parse("[keys]\nleft = [\"Left\", \"a\"]\nflip = \"Ctrl+f\"\n").unwrap();
        assert_eq!(c.keys.keys_for(Action::Left), ["Left", "a"]);
        // No default binding breaks the rule.
        for &a in Action::ALL {
            for k in a.default_keys() {
                if let Some(KeyCode::Char(c)) = key_event(k).map(|e| e.code)
                    && parse_key(k).is_some_and(|k| !k.ctrl && !k.alt)
                {
                    assert_eq!(a.refuse(c), None, "{a:?} = {k}");
                }
            }
        }

        let e = Config::parse("[keys]\nflip = \"q\"\n").unwrap_err().0;
        assert!(e.contains("'q' is bound to both"), "{e}");
        let e = Config::parse("[keys]\nflip = \"q\"\n").unwrap_err().0;
        assert!(e.contains("'q' is bound to both"), "{e}");
        let e = Config::parse("[keys]\nfly = \"x\"\n").unwrap_err().0;
        assert!(e.contains("no such action"), "{e}");
        let e = Config::parse("[keys]\nflip = \"Ctrl+\"\n").unwrap_err().0;
        assert!(e.contains("not a key"), "{e}");
        let e = Config::parse("level = 9\n").unwrap_err().0;
        assert!(e.contains("1 to 8"), "{e}");
        let e = Config::parse("level = 3\nlevel 4\n").unwrap_err().0;
        assert!(e.contains("line 2"), "{e}");
        let e = Config::parse("colour = 1\n").unwrap_err().0;
        assert!(e.contains("colour"), "{e}");
    }

    #[test]
    fn broken_file_gives_defaults_and_is_not_touched() {
        let dir = std::env::temp_dir().join(format!("kibitz-config-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("config.toml");
        std::fs::write(&p, "level = \n").unwrap();
        let (c, err) = Config::load(&p);
        assert_eq!(c.level, 4);
        let err = err.unwrap();
        assert!(
            err.contains("config.toml") && err.contains("line 1"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "level = \n");
        let (_, none) = Config::load(&dir.join("missing.toml"));
        assert!(none.is_none());
        // State round trip.
        let s = State {
            theme: Some("High contrast".into()),
            flipped: true,
        };
        s.save(&dir.join("state.toml")).unwrap();
        assert_eq!(State::load(&dir.join("state.toml")), s);
        std::fs::write(dir.join("state.toml"), "garbage = [").unwrap();
        assert_eq!(State::load(&dir.join("state.toml")), State::default());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn time_controls() {
        let t: TimeControl = "3+2".parse().unwrap();
        assert_eq!(t, TimeControl::new(180, 2));
        assert_eq!(t.to_string(), "3+2");
        assert_eq!(t.pgn_tag(), "180+2");
        assert_eq!(TimeControl::from_pgn_tag("180+2"), Some(t));
        assert_eq!(
            "0.5+0".parse::<TimeControl>().unwrap(),
            TimeControl::new(30, 0)
        );
        assert_eq!("0.5+0".parse::<TimeControl>().unwrap().to_string(), "0.5+0");
        assert_eq!(
            "90s+5".parse::<TimeControl>().unwrap(),
            TimeControl::new(90, 5)
        );
        assert_eq!(
            "10".parse::<TimeControl>().unwrap(),
            TimeControl::new(600, 0)
        );
        assert!("x+1".parse::<TimeControl>().is_err());
        assert!("0+1".parse::<TimeControl>().is_err());
        assert!("5+-1".parse::<TimeControl>().is_err());
        assert_eq!(TimeControl::from_pgn_tag("-"), None);
        for (name, tc) in TimeControl::presets() {
            assert_eq!(&tc.to_string(), name);
        }
    }
}
