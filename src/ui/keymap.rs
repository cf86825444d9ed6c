//! Key bindings of the play and replay screens, and how the config file
//! rebinds them.
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
//!

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::collections::HashMap;

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
    /// Saves the game to a file the user names (later moves go there too).
    SaveAs,
    WhiteView,
    EvalBreakdown,
    /// The opening explorer beside the board.
    Openings,
    /// Drill your repertoire's due positions.
    Repertoire,
    Explore,
    Analyse,
    MoreLines,
    FewerLines,
    Open,
    Trainer,
    /// Puzzles (on the puzzle screen: the list of themes to filter by).
    Puzzles,
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
        Action::SaveAs,
        Action::WhiteView,
        Action::EvalBreakdown,
        Action::Openings,
        Action::Repertoire,
        Action::Explore,
        Action::Analyse,
        Action::MoreLines,
        Action::FewerLines,
        Action::Open,
        Action::Trainer,
        Action::Puzzles,
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
            Action::SaveAs => "save_as",
            Action::WhiteView => "white_view",
            Action::EvalBreakdown => "eval",
            Action::Openings => "openings",
            Action::Repertoire => "repertoire",
            Action::Explore => "explore",
            Action::Analyse => "analyse",
            Action::MoreLines => "more_lines",
            Action::FewerLines => "fewer_lines",
            Action::Open => "open",
            Action::Trainer => "trainer",
            Action::Puzzles => "puzzles",
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
            Action::SaveAs => "Save the game to a file you name (later moves go there too)",
            Action::WhiteView => "Scores from White's view / the side to move's",
            Action::EvalBreakdown => "The evaluation term by term: full and simple side by side",
            Action::Openings => {
                "Opening explorer (↑↓ Enter play, +/- repertoire, / one player's games)"
            }
            Action::Repertoire => {
                "Drill your repertoire: play your prepared moves where they are due"
            }
            Action::Explore => {
                "Search-tree explorer: walk a real alpha-beta search of this position"
            }
            Action::Analyse => "Analysis on/off: the engine's best lines for the position",
            Action::MoreLines => "Analysis: one more line (up to 5)",
            Action::FewerLines => "Analysis: one line fewer",
            Action::Open => "Open a game file to replay (PGN, move history)",
            Action::Trainer => "Endgame trainer: perfect defence, or your own position",
            Action::Puzzles => "Puzzles near your rating (on the puzzle screen: choose a theme)",
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
            Action::SaveAs => &["S"],
            Action::WhiteView => &["w"],
            Action::EvalBreakdown => &["i"],
            Action::Openings => &["s"],
            Action::Repertoire => &["v"],
            Action::Explore => &["x"],
            Action::Analyse => &["A"],
            Action::MoreLines => &["+", "="],
            Action::FewerLines => &["-"],
            Action::Open => &["Ctrl+o"],
            Action::Trainer => &["T"],
            Action::Puzzles => &["z"],
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
            format!("'{c}' begins a move: use a key outside a-h KQRBNP Oo0 @ (or Ctrl+{c})")
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
    /// Retry White's / Black's marked mistakes (after a review).
    RetryWhite,
    RetryBlack,
    /// The tree explorer on the position after a reviewed mistake, the
    /// refutation selected.
    Refutation,
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
        ReplayAction::RetryWhite,
        ReplayAction::RetryBlack,
        ReplayAction::Refutation,
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
            ReplayAction::RetryWhite => "retry_white",
            ReplayAction::RetryBlack => "retry_black",
            ReplayAction::Refutation => "refutation",
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
            ReplayAction::RetryWhite => "Retry White's mistakes: find better moves (reviews first)",
            ReplayAction::RetryBlack => "Retry Black's mistakes: find better moves (reviews first)",
            ReplayAction::Refutation => {
                "Explore the refutation of a reviewed mistake (the search after it)"
            }
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
            ReplayAction::RetryWhite => &["m"],
            ReplayAction::RetryBlack => &["M"],
            ReplayAction::Refutation => &["X"],
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

/// A `[keys]` or `[replay_keys]` entry that could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindingProblem {
    /// The entry's name in the table (`flip`, or a misspelt `fly`).
    pub entry: String,
    /// Why, with the table, entry and value: `[keys] flip = "f": 'f' begins a move: ...`.
    pub text: String,
    /// The action that kept its default keys because of it.
    pub kept_default: Option<&'static str>,
    /// For a name that is no action: the action it is closest to.
    pub suggestion: Option<&'static str>,
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
    /// gets exactly the keys given (replacing its defaults). An entry that
    /// cannot be used (no such action, not a key, a key that begins a move,
    /// a key another action has) is left out with the reason, and its
    /// action keeps its default keys; the other entries still apply.
    pub(super) fn apply(&mut self, overrides: &toml::Table) -> Vec<BindingProblem> {
        let table = A::TABLE;
        let mut problems = Vec::new();
        // (entry name, action, keys) of the usable entries.
        let mut wanted: Vec<(&str, A, Vec<Key>)> = Vec::new();
        for (name, value) in overrides {
            let Some(action) = A::all().iter().copied().find(|a| a.name() == name) else {
                let names = A::all().iter().map(|a| a.name());
                let suggestion = crate::util::nearest(name, names.clone());
                let text = match suggestion {
                    Some(s) => format!("[{table}] {name}: no such action (did you mean {s}?)"),
                    None => format!(
                        "[{table}] {name}: no such action (actions: {})",
                        names.collect::<Vec<_>>().join(", ")
                    ),
                };
                problems.push(BindingProblem {
                    entry: name.clone(),
                    text,
                    kept_default: None,
                    suggestion,
                });
                continue;
            };
            let refused = |why: String| BindingProblem {
                entry: name.clone(),
                text: format!("[{table}] {name} = {value}: {why}"),
                kept_default: Some(action.name()),
                suggestion: None,
            };
            let list: Vec<&str> = match value {
                toml::Value::String(s) => vec![s.as_str()],
                toml::Value::Array(a) => match a.iter().map(|v| v.as_str()).collect() {
                    Some(l) => l,
                    None => {
                        problems.push(refused("keys must be strings".into()));
                        continue;
                    }
                },
                _ => {
                    problems.push(refused(
                        "give a key like \"f\" or a list [\"f\", \"F2\"]".into(),
                    ));
                    continue;
                }
            };
            let keys = list
                .iter()
                .map(|k| {
                    let key = parse_key(k).ok_or_else(|| format!("'{k}' is not a key"))?;
                    if let (KeyCode::Char(c), false, false) = (key.code, key.ctrl, key.alt)
                        && let Some(why) = action.refuse(c)
                    {
                        return Err(why);
                    }
                    Ok(key)
                })
                .collect::<Result<Vec<_>, _>>();
            match keys {
                Ok(keys) => wanted.push((name, action, keys)),
                Err(why) => problems.push(refused(why)),
            }
        }
        // A key wanted by two actions: the entry that meets the key taken
        // is left out (its action back on its defaults, which may in turn
        // clash with a later entry), until no key has two actions.
        loop {
            let mut map = self.map.clone();
            map.retain(|_, a| !wanted.iter().any(|(_, w, _)| w == a));
            let mut clash = None;
            'entries: for (i, (_, action, keys)) in wanted.iter().enumerate() {
                for k in keys {
                    if let Some(other) = map.get(k)
                        && other != action
                    {
                        clash = Some((i, *k, *other));
                        break 'entries;
                    }
                    map.insert(*k, *action);
                }
            }
            let Some((i, k, other)) = clash else {
                self.map = map;
                return problems;
            };
            let (name, action, _) = wanted.remove(i);
            problems.push(BindingProblem {
                entry: name.to_string(),
                text: format!(
                    "[{table}] {name} = {}: '{}' is bound to both {} and {}",
                    overrides[name],
                    key_name(&k),
                    other.name(),
                    action.name()
                ),
                kept_default: Some(action.name()),
                suggestion: None,
            });
        }
    }
}
