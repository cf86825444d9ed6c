//! What the terminal and the environment allow, checked before the screen
//! is taken over: no terminal at all (output to a file or a pipe) and
//! `TERM=dumb` are refused with a clear message (the screen would be
//! garbage); a locale that is not UTF-8 gets plain mode (letters for
//! pieces, ASCII frames), `NO_COLOR` or a monochrome `TERM` the Plain
//! theme (the 16 standard colours), each said on the first screen.

use std::io::IsTerminal;

/// How the app adapts to the environment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Adapt {
    /// Letters for pieces and ASCII frames: the locale is not UTF-8.
    pub plain: bool,
    /// The Plain theme unless one was asked for: no colours wanted.
    pub few_colours: bool,
    /// What the user is told.
    pub notes: Vec<String>,
}

/// The environment variables that matter, read once (tests pass their own).
#[derive(Clone, Debug, Default)]
pub struct Env {
    pub term: Option<String>,
    pub no_color: Option<String>,
    pub lc_all: Option<String>,
    pub lc_ctype: Option<String>,
    pub lang: Option<String>,
    pub stdout_is_terminal: bool,
}

impl Env {
    pub fn read() -> Env {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        Env {
            term: var("TERM"),
            no_color: var("NO_COLOR"),
            lc_all: var("LC_ALL"),
            lc_ctype: var("LC_CTYPE"),
            lang: var("LANG"),
            stdout_is_terminal: std::io::stdout().is_terminal(),
        }
    }

    /// The locale that decides the character set (POSIX order), if set.
    fn locale(&self) -> Option<&str> {
        self.lc_all
            .as_deref()
            .or(self.lc_ctype.as_deref())
            .or(self.lang.as_deref())
    }
}

/// The app cannot run here (the message says why and what to do), or how
/// it adapts.
pub fn check(env: &Env) -> Result<Adapt, String> {
    if !env.stdout_is_terminal {
        return Err(
            "the board needs a terminal, and standard output is not one \
             (it goes to a file or a pipe). Run kibitz in a terminal; for scripts \
             there are `kibitz uci`, `kibitz analyse`, `kibitz annotate` and `kibitz match`."
                .into(),
        );
    }
    if env.term.as_deref() == Some("dumb") {
        return Err(
            "TERM=dumb: this terminal cannot move the cursor, so it cannot \
             draw the board. Run kibitz in a terminal emulator (or set TERM, e.g. \
             TERM=xterm-256color); for scripts there are `kibitz uci` and `kibitz analyse`."
                .into(),
        );
    }
    let mut a = Adapt::default();
    if let Some(loc) = env.locale() {
        let l = loc.to_ascii_lowercase();
        let utf8 = l.contains("utf-8") || l.contains("utf8");
        if !utf8 {
            a.plain = true;
            a.notes.push(format!(
                "The locale ({loc}) is not UTF-8: plain mode, letters for pieces and \
                 ASCII frames. Set LANG=C.UTF-8 (or your language's .UTF-8) for figurines."
            ));
        }
    }
    let mono = env
        .term
        .as_deref()
        .is_some_and(|t| t.contains("mono") || t == "vt100" || t == "vt220");
    if env.no_color.is_some() || mono {
        a.few_colours = true;
        let why = if env.no_color.is_some() {
            "NO_COLOR is set".to_string()
        } else {
            format!("TERM={} has few colours", env.term.as_deref().unwrap_or(""))
        };
        a.notes.push(format!(
            "{why}: the Plain theme (16 standard colours, letters for pieces); t changes it."
        ));
    }
    Ok(a)
}

/// Applies `a` to the app (`theme_asked`: the command line named a
/// theme, which stays) and returns the notes for the first screen.
pub(super) fn apply(a: Adapt, app: &mut super::app::App, theme_asked: bool) -> Vec<String> {
    if a.plain {
        app.ui.look.ascii = true;
        app.ui.look.plain = true;
    }
    if a.few_colours
        && !theme_asked
        && let Some(i) = app.ui.look.themes.iter().position(|t| t.name == "Plain")
    {
        app.ui.look.theme = i;
        app.ui.look.ascii = true;
    }
    a.notes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> Env {
        Env {
            term: Some("xterm-256color".into()),
            lang: Some("en_GB.UTF-8".into()),
            stdout_is_terminal: true,
            ..Env::default()
        }
    }

    #[test]
    fn a_usual_terminal_needs_nothing() {
        assert_eq!(check(&env()), Ok(Adapt::default()));
        // No locale at all: a UTF-8 terminal is assumed (containers).
        let e = Env {
            lang: None,
            ..env()
        };
        assert_eq!(check(&e), Ok(Adapt::default()));
    }

    #[test]
    fn no_terminal_and_dumb_terminals_are_refused_with_the_way_out() {
        let e = Env {
            stdout_is_terminal: false,
            ..env()
        };
        let err = check(&e).unwrap_err();
        assert!(err.contains("standard output is not one"), "{err}");
        assert!(err.contains("kibitz uci"), "{err}");
        let e = Env {
            term: Some("dumb".into()),
            ..env()
        };
        assert!(check(&e).unwrap_err().contains("TERM=dumb"));
    }

    #[test]
    fn latin1_and_c_locales_get_plain_mode_and_no_color_the_plain_theme() {
        for loc in ["C", "POSIX", "de_DE.ISO-8859-1"] {
            let e = Env {
                lang: Some(loc.into()),
                ..env()
            };
            let a = check(&e).unwrap();
            assert!(a.plain && !a.few_colours, "{loc}");
            assert!(a.notes[0].contains(loc));
        }
        // LC_ALL wins over LANG.
        let e = Env {
            lc_all: Some("C".into()),
            ..env()
        };
        assert!(check(&e).unwrap().plain);
        let e = Env {
            lc_all: Some("C.utf8".into()),
            lang: Some("C".into()),
            ..env()
        };
        assert!(!check(&e).unwrap().plain);
        let e = Env {
            no_color: Some("1".into()),
            ..env()
        };
        let a = check(&e).unwrap();
        assert!(a.few_colours && !a.plain);
        assert!(a.notes[0].contains("NO_COLOR"));
        let e = Env {
            term: Some("xterm-mono".into()),
            ..env()
        };
        assert!(check(&e).unwrap().few_colours);
    }
}
