//! Colour themes: the built-in ones from `themes/` and the user's own.
//!
//! A theme is a small TOML file (see `themes/classic.toml`). Every key but
//! `name` is optional in a user theme; missing keys take the classic
//! theme's value, so a theme can change just the board colours.

use ratatui::style::Color;
use serde::Deserialize;
use std::path::Path;

#[derive(Clone, Debug, PartialEq)]
pub struct Theme {
    pub name: String,
    pub light: Color,
    pub dark: Color,
    pub coordinates: Color,
    pub white_piece: Color,
    pub black_piece: Color,
    /// Outlines of the large piece drawings (none: no outline).
    pub white_outline: Option<Color>,
    pub black_outline: Option<Color>,
    /// Pieces as letters (for terminals without chess glyphs).
    pub ascii: bool,
    pub last_move: Color,
    pub check: Color,
    pub selected: Color,
    pub destination: Color,
    pub cursor: Color,
    pub hint: Color,
    pub background: Color,
    pub text: Color,
    pub dim: Color,
    pub accent: Color,
    pub border: Color,
    pub error: Color,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThemeError {
    #[error("{0}")]
    Toml(String),
    #[error("the theme has no name (add name = \"...\")")]
    NoName,
    #[error(
        "{key}: '{value}' is not a colour (use #rrggbb or a colour name like red, darkgray, reset)"
    )]
    BadColour { key: String, value: String },
    #[error("pieces.style: '{0}' is not a piece style (use \"unicode\" or \"ascii\")")]
    BadStyle(String),
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Raw {
    name: Option<String>,
    #[serde(default)]
    board: RawBoard,
    #[serde(default)]
    pieces: RawPieces,
    #[serde(default)]
    highlight: RawHighlight,
    #[serde(default)]
    ui: RawUi,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    light: Option<String>,
    dark: Option<String>,
    coordinates: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawPieces {
    white: Option<String>,
    black: Option<String>,
    white_outline: Option<String>,
    black_outline: Option<String>,
    /// "unicode" or "ascii".
    style: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawHighlight {
    last_move: Option<String>,
    check: Option<String>,
    selected: Option<String>,
    destination: Option<String>,
    cursor: Option<String>,
    hint: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawUi {
    background: Option<String>,
    text: Option<String>,
    dim: Option<String>,
    accent: Option<String>,
    border: Option<String>,
    error: Option<String>,
}

/// `#rrggbb`, `#rgb` or one of the 16 ANSI colour names (and `reset`).
pub fn parse_colour(s: &str) -> Option<Color> {
    let s = s.trim();
    if let Some(hex) = s.strip_prefix('#') {
        let v = u32::from_str_radix(hex, 16).ok()?;
        return match hex.len() {
            6 => Some(Color::Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8)),
            3 => {
                let (r, g, b) = ((v >> 8) & 15, (v >> 4) & 15, v & 15);
                Some(Color::Rgb((r * 17) as u8, (g * 17) as u8, (b * 17) as u8))
            }
            _ => None,
        };
    }
    Some(
        match s.to_ascii_lowercase().replace(['_', '-', ' '], "").as_str() {
            "reset" | "default" => Color::Reset,
            "black" => Color::Black,
            "red" => Color::Red,
            "green" => Color::Green,
            "yellow" => Color::Yellow,
            "blue" => Color::Blue,
            "magenta" => Color::Magenta,
            "cyan" => Color::Cyan,
            "gray" | "grey" => Color::Gray,
            "darkgray" | "darkgrey" => Color::DarkGray,
            "lightred" => Color::LightRed,
            "lightgreen" => Color::LightGreen,
            "lightyellow" => Color::LightYellow,
            "lightblue" => Color::LightBlue,
            "lightmagenta" => Color::LightMagenta,
            "lightcyan" => Color::LightCyan,
            "white" => Color::White,
            _ => return None,
        },
    )
}

const CLASSIC: &str = include_str!("../../themes/classic.toml");
const HIGH_CONTRAST: &str = include_str!("../../themes/high-contrast.toml");
const COLORBLIND: &str = include_str!("../../themes/colorblind.toml");
const PLAIN: &str = include_str!("../../themes/plain.toml");

impl Theme {
    pub fn parse(text: &str) -> Result<Theme, ThemeError> {
        let raw: Raw =
            toml::from_str(text).map_err(|e| ThemeError::Toml(toml_message(&e, text)))?;
        let base = if std::ptr::eq(text, CLASSIC) {
            None
        } else {
            Theme::parse(CLASSIC).ok()
        };
        let name = raw.name.clone().ok_or(ThemeError::NoName)?;
        let pick =
            |key: &str, v: &Option<String>, fallback: Option<Color>| -> Result<Color, ThemeError> {
                match v {
                    Some(s) => parse_colour(s).ok_or_else(|| ThemeError::BadColour {
                        key: key.to_string(),
                        value: s.clone(),
                    }),
                    None => Ok(fallback.unwrap_or(Color::Reset)),
                }
            };
        let b = base.as_ref();
        let outline = |key: &str,
                       v: &Option<String>,
                       fallback: Option<Color>|
         -> Result<Option<Color>, ThemeError> {
            match v.as_deref().map(str::trim) {
                Some("none") => Ok(None),
                Some(s) => parse_colour(s)
                    .map(Some)
                    .ok_or_else(|| ThemeError::BadColour {
                        key: key.to_string(),
                        value: s.to_string(),
                    }),
                None => Ok(fallback),
            }
        };
        let ascii = match raw.pieces.style.as_deref().map(str::trim) {
            None | Some("unicode") => false,
            Some("ascii") => true,
            Some(other) => return Err(ThemeError::BadStyle(other.to_string())),
        };
        Ok(Theme {
            name,
            light: pick("board.light", &raw.board.light, b.map(|t| t.light))?,
            dark: pick("board.dark", &raw.board.dark, b.map(|t| t.dark))?,
            coordinates: pick(
                "board.coordinates",
                &raw.board.coordinates,
                b.map(|t| t.coordinates),
            )?,
            white_piece: pick("pieces.white", &raw.pieces.white, b.map(|t| t.white_piece))?,
            black_piece: pick("pieces.black", &raw.pieces.black, b.map(|t| t.black_piece))?,
            white_outline: outline(
                "pieces.white_outline",
                &raw.pieces.white_outline,
                b.and_then(|t| t.white_outline),
            )?,
            black_outline: outline(
                "pieces.black_outline",
                &raw.pieces.black_outline,
                b.and_then(|t| t.black_outline),
            )?,
            ascii,
            last_move: pick(
                "highlight.last_move",
                &raw.highlight.last_move,
                b.map(|t| t.last_move),
            )?,
            check: pick("highlight.check", &raw.highlight.check, b.map(|t| t.check))?,
            selected: pick(
                "highlight.selected",
                &raw.highlight.selected,
                b.map(|t| t.selected),
            )?,
            destination: pick(
                "highlight.destination",
                &raw.highlight.destination,
                b.map(|t| t.destination),
            )?,
            cursor: pick(
                "highlight.cursor",
                &raw.highlight.cursor,
                b.map(|t| t.cursor),
            )?,
            hint: pick("highlight.hint", &raw.highlight.hint, b.map(|t| t.hint))?,
            background: pick("ui.background", &raw.ui.background, b.map(|t| t.background))?,
            text: pick("ui.text", &raw.ui.text, b.map(|t| t.text))?,
            dim: pick("ui.dim", &raw.ui.dim, b.map(|t| t.dim))?,
            accent: pick("ui.accent", &raw.ui.accent, b.map(|t| t.accent))?,
            border: pick("ui.border", &raw.ui.border, b.map(|t| t.border))?,
            error: pick("ui.error", &raw.ui.error, b.map(|t| t.error))?,
        })
    }
}

/// "line 3: ..." from a TOML error.
pub fn toml_message(e: &toml::de::Error, text: &str) -> String {
    let msg = e.message().to_string();
    match e.span() {
        Some(span) => {
            let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
            format!("line {line}: {msg}")
        }
        None => msg,
    }
}

/// The themes shipped in `themes/`: classic, high contrast, colour-blind
/// safe, and plain (16 colours and letters, for limited terminals).
pub fn builtin() -> Vec<Theme> {
    [CLASSIC, HIGH_CONTRAST, COLORBLIND, PLAIN]
        .iter()
        .filter_map(|t| Theme::parse(t).ok())
        .collect()
}

/// Built-ins plus every `*.toml` in `user_dir`; a user theme with a
/// built-in's name replaces it. Broken files are skipped with a warning.
pub fn load_all(user_dir: Option<&Path>) -> (Vec<Theme>, Vec<String>) {
    let mut themes = builtin();
    let mut warnings = Vec::new();
    let Some(dir) = user_dir else {
        return (themes, warnings);
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (themes, warnings);
    };
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    for p in paths {
        let parsed = std::fs::read_to_string(&p)
            .map_err(|e| e.to_string())
            .and_then(|t| Theme::parse(&t).map_err(|e| e.to_string()));
        match parsed {
            Ok(t) => match themes.iter().position(|x| x.name == t.name) {
                Some(i) => themes[i] = t,
                None => themes.push(t),
            },
            Err(e) => warnings.push(format!("theme {}: {e}", p.display())),
        }
    }
    (themes, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgb(c: Color) -> (i32, i32, i32) {
        match c {
            Color::Rgb(r, g, b) => (r as i32, g as i32, b as i32),
            other => panic!("expected an RGB colour, got {other:?}"),
        }
    }

    #[test]
    fn builtins_parse_with_distinct_names() {
        let t = builtin();
        assert_eq!(t.len(), 4);
        let mut names: Vec<&str> = t.iter().map(|x| x.name.as_str()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 4);
        assert!(t.iter().any(|x| x.ascii), "the plain theme draws letters");
    }

    #[test]
    fn colourblind_theme_avoids_red_green_pairs() {
        let t = builtin()
            .into_iter()
            .find(|t| t.name.to_lowercase().contains("colo"))
            .unwrap();
        // Highlights that must be told apart differ along the blue-yellow
        // axis (b - (r+g)/2), not only along red-green.
        let by = |c: Color| {
            let (r, g, b) = rgb(c);
            b - (r + g) / 2
        };
        for (a, b) in [
            (t.check, t.last_move),
            (t.destination, t.check),
            (t.selected, t.cursor),
        ] {
            assert!((by(a) - by(b)).abs() >= 60, "{a:?} vs {b:?}");
        }
    }

    /// WCAG relative luminance of an sRGB colour.
    fn luminance(c: Color) -> f64 {
        let (r, g, b) = rgb(c);
        let lin = |v: i32| {
            let v = f64::from(v) / 255.0;
            if v <= 0.039_28 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    }

    fn contrast(a: Color, b: Color) -> f64 {
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    #[test]
    fn pieces_read_on_every_square_colour() {
        // Both sides' pieces must stand out on both square colours and on
        // the highlights; the two square colours must differ clearly. (The
        // plain theme uses the terminal's own 16 colours: no fixed values.)
        for t in builtin().iter().filter(|t| !t.ascii) {
            assert!(
                contrast(t.light, t.dark) >= 2.3,
                "{}: squares too alike",
                t.name
            );
            for (what, sq) in [
                ("light", t.light),
                ("dark", t.dark),
                ("last move", t.last_move),
                ("selected", t.selected),
                ("check", t.check),
                ("hint", t.hint),
            ] {
                for (side, p) in [("white", t.white_piece), ("black", t.black_piece)] {
                    let c = contrast(p, sq);
                    assert!(
                        c >= 2.0,
                        "{}: {side} pieces on {what} squares: {c:.2}",
                        t.name
                    );
                }
            }
        }
    }

    #[test]
    fn theme_piece_options() {
        let t = Theme::parse(
            "name = \"X\"\n[pieces]\nstyle = \"ascii\"\nwhite_outline = \"none\"\nblack_outline = \"#ffffff\"\n",
        )
        .unwrap();
        assert!(t.ascii);
        assert_eq!(t.white_outline, None);
        assert_eq!(t.black_outline, Some(Color::Rgb(255, 255, 255)));
        let e = Theme::parse("name = \"X\"\n[pieces]\nstyle = \"fancy\"\n").unwrap_err();
        assert!(e.to_string().contains("fancy"), "{e}");
    }

    #[test]
    fn user_theme_overrides_and_broken_files_warn() {
        let dir = std::env::temp_dir().join(format!("kibitz-themes-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("mine.toml"),
            "name = \"Mine\"\n[board]\nlight = \"#ffffff\"\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("bad.toml"),
            "name = \"Bad\"\n[board]\nlight = \"purpleish\"\n",
        )
        .unwrap();
        std::fs::write(dir.join("worse.toml"), "name = \n").unwrap();
        let (themes, warnings) = load_all(Some(&dir));
        let mine = themes.iter().find(|t| t.name == "Mine").unwrap();
        assert_eq!(mine.light, Color::Rgb(255, 255, 255));
        assert_eq!(
            mine.dark,
            builtin()[0].dark,
            "missing keys fall back to classic"
        );
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("board.light") && w.contains("purpleish"))
        );
        assert!(
            warnings.iter().any(|w| w.contains("line 1")),
            "{warnings:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn colours() {
        assert_eq!(parse_colour("#102030"), Some(Color::Rgb(16, 32, 48)));
        assert_eq!(parse_colour("#fff"), Some(Color::Rgb(255, 255, 255)));
        assert_eq!(parse_colour("DarkGray"), Some(Color::DarkGray));
        assert_eq!(parse_colour("reset"), Some(Color::Reset));
        assert_eq!(parse_colour("#12345"), None);
        assert_eq!(parse_colour("nope"), None);
        assert!(matches!(Theme::parse("[board]\n"), Err(ThemeError::NoName)));
    }
}
