//! Unit tests of the configuration file and the state file.
use super::lines::SETTINGS;
use super::*;
use crate::ui::keymap::*;
use crate::util::nearest;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

fn ev(code: KeyCode, m: KeyModifiers) -> KeyEvent {
    KeyEvent::new(code, m)
}

#[test]
fn the_readme_example_config_parses() {
    let readme = include_str!("../../../README.md");
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
    assert_eq!(c.engine_threads, 2);
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
    assert_eq!(c.engine_threads, d.engine_threads);
    assert_eq!(
        d.engine_threads,
        crate::engine::every_core(),
        "one per core"
    );
    for bad in ["engine_threads = 0", "engine_threads = 100000"] {
        let e = Config::parse(bad).unwrap_err().0;
        assert!(
            e.contains("engine_threads") && e.contains("use 1 to"),
            "{e}"
        );
    }
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
    assert_eq!(k.action(&ev(KeyCode::Char('V'), KeyModifiers::SHIFT)), None);
    // Every action has a key.
    for &a in Action::ALL {
        assert!(!k.keys_for(a).is_empty(), "{a:?}");
    }
    assert_eq!(k.keys_for(Action::Help), ["?", "F1"]);
}

#[test]
fn overrides_errors_and_duplicates() {
    let c = Config::parse("level = 7\npieces = \"ascii\"\n[keys]\nflip = [\"F2\", \"Ctrl+g\"]\n")
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
            if let Some(e) = key_event(k)
                && let KeyCode::Char(c) = e.code
                && !e
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
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

fn lines_of(r: &ConfigReport) -> Vec<Option<usize>> {
    r.problems.iter().map(|p| p.line).collect()
}

#[test]
fn a_misspelt_key_keeps_the_valid_setting() {
    let r = Config::check("level = 2\nlevle = 3\n");
    assert_eq!(r.config.level, 2);
    assert_eq!(
        r.problems,
        [ConfigProblem {
            line: Some(2),
            text: "levle: unknown setting (did you mean level?)".into()
        }]
    );
    // level was set, so nothing fell back.
    assert!(r.fell_back.is_empty(), "{:?}", r.fell_back);
    let m = r.message().unwrap();
    assert!(
        m.contains("line 2: levle: unknown setting (did you mean level?)"),
        "{m}"
    );
    // Without the valid line, level is the setting that fell back.
    let r = Config::check("levle = 3\n");
    assert_eq!(r.config.level, 4);
    assert_eq!(r.fell_back, ["level"]);
    // A name close to nothing lists the settings instead.
    let r = Config::check("colour = 1\n");
    assert!(
        r.problems[0]
            .text
            .starts_with("colour: unknown setting (settings: level,"),
        "{:?}",
        r.problems
    );
    assert!(r.fell_back.is_empty());
}

#[test]
fn a_syntax_error_costs_only_its_line() {
    let r = Config::check(
        "level = 2\npieces = \"ascii\"\ntime_control \"5+3\"\nwatch_delay_ms = 500\n",
    );
    assert_eq!(r.config.level, 2);
    assert_eq!(r.config.piece_style, PieceStyle::Ascii);
    assert_eq!(r.config.watch_delay, Duration::from_millis(500));
    assert_eq!(r.config.time_control, None);
    assert_eq!(lines_of(&r), [Some(3)]);
    assert!(
        r.problems[0].text.starts_with("`time_control \"5+3\"`: "),
        "{:?}",
        r.problems
    );
    assert_eq!(r.fell_back, ["time_control"]);
    // Several broken lines, an unclosed array at the end, CRLF.
    let r = Config::check("level 3\r\nautosave = false\r\nlevel = = 5\r\nflip = [\"F2\",\r\n");
    assert!(!r.config.autosave);
    assert_eq!(r.config.level, 4);
    assert_eq!(lines_of(&r), [Some(1), Some(3), Some(4)]);
    assert_eq!(r.fell_back, ["level"]);
    // A second value for a key: the first one is used.
    let r = Config::check("level = 3\nlevel = 5\n");
    assert_eq!(r.config.level, 3);
    assert_eq!(lines_of(&r), [Some(2)]);
    assert!(r.problems[0].text.contains("the first one is used"));
    assert!(r.fell_back.is_empty());
    // A broken table header: the lines under it are left out, not
    // read as top-level settings.
    let r = Config::check(
        "level = 2\n[keys\nflip = \"F2\"\n# a comment\nhint = \"F3\"\n[replay_keys]\nnext = \"n\"\n",
    );
    assert_eq!(r.config.level, 2);
    assert_eq!(lines_of(&r), [Some(2)]);
    assert!(
        r.problems[0]
            .text
            .contains("lines 3-5 under it are ignored"),
        "{:?}",
        r.problems
    );
    assert_eq!(r.fell_back, ["keys.flip", "keys.hint"]);
    assert_eq!(r.config.replay_keys.keys_for(ReplayAction::Next), ["n"]);
    assert_eq!(r.config.keys.keys_for(Action::Flip), ["F"]);
}

#[test]
fn every_problem_is_reported() {
    let r = Config::check("levle = 2\npieces = \"ascii\"\npeices = \"ascii\"\n");
    assert_eq!(r.config.piece_style, PieceStyle::Ascii);
    assert_eq!(lines_of(&r), [Some(1), Some(3)]);
    assert!(r.problems[0].text.contains("did you mean level?"));
    assert!(r.problems[1].text.contains("did you mean pieces?"));
    assert_eq!(r.fell_back, ["level"]);
    let m = r.message().unwrap();
    assert!(
        m.starts_with("2 problems: line 1: levle: ")
            && m.contains("; line 3: peices: ")
            && m.ends_with("fell back to defaults: level (the rest of the file is used)"),
        "{m}"
    );
    // The strict parse names them all too.
    let e = Config::parse("levle = 2\npeices = \"ascii\"\n")
        .unwrap_err()
        .0;
    assert!(
        e.contains("line 1: levle") && e.contains("line 2: peices"),
        "{e}"
    );
}

#[test]
fn a_bad_key_binding_keeps_the_good_ones() {
    let r = Config::check(
        "[keys]\nflip = \"F2\"\nhint = \"f\"\nquit = [\"Ctrl+q\", \"F10\"]\nfilp = \"x\"\nresign = 3\n\n[replay_keys]\nnext = \"Ctrl+\"\nlast = \"F9\"\n",
    );
    let k = &r.config.keys;
    assert_eq!(k.keys_for(Action::Flip), ["F2"]);
    assert_eq!(k.keys_for(Action::Quit), ["Ctrl+q", "F10"]);
    // The refused entries keep their defaults.
    assert_eq!(k.keys_for(Action::Hint), ["H"]);
    assert_eq!(k.keys_for(Action::Resign), ["Ctrl+r"]);
    assert_eq!(r.config.replay_keys.keys_for(ReplayAction::Last), ["F9"]);
    assert_eq!(
        r.config.replay_keys.keys_for(ReplayAction::Next),
        ["Right", "l"]
    );
    assert_eq!(lines_of(&r), [Some(3), Some(5), Some(6), Some(9)]);
    let t: Vec<&str> = r.problems.iter().map(|p| p.text.as_str()).collect();
    assert!(
        t[0].starts_with("[keys] hint = \"f\": 'f' begins a move"),
        "{t:?}"
    );
    assert_eq!(t[1], "[keys] filp: no such action (did you mean flip?)");
    assert!(t[2].starts_with("[keys] resign = 3: give a key"), "{t:?}");
    assert_eq!(t[3], "[replay_keys] next = \"Ctrl+\": 'Ctrl+' is not a key");
    // flip is set, so the misspelt filp costs nothing.
    assert_eq!(
        r.fell_back,
        ["keys.hint", "keys.resign", "replay_keys.next"]
    );
    // A key taken by another action: that entry is left out.
    let r = Config::check("[keys]\nflip = \"q\"\ntheme = \"F2\"\n");
    assert_eq!(r.config.keys.keys_for(Action::Flip), ["F"]);
    assert_eq!(r.config.keys.keys_for(Action::Quit), ["q"]);
    assert_eq!(r.config.keys.keys_for(Action::CycleTheme), ["F2"]);
    assert_eq!(lines_of(&r), [Some(2)]);
    assert!(
        r.problems[0]
            .text
            .contains("'q' is bound to both quit and flip"),
        "{:?}",
        r.problems
    );
    assert_eq!(r.fell_back, ["keys.flip"]);
}

#[test]
fn a_value_of_the_wrong_type_names_the_type() {
    let r = Config::check("autosave = false\nlevel = \"high\"\nown_tablebases = \"no\"\n");
    assert_eq!(r.config.level, 4);
    assert!(!r.config.autosave);
    assert!(r.config.own_tablebases);
    assert_eq!(
        r.problems,
        [
            ConfigProblem {
                line: Some(2),
                text: "level = \"high\": expected a whole number (1 to 8), found a string".into()
            },
            ConfigProblem {
                line: Some(3),
                text: "own_tablebases = \"no\": expected true or false, found a string".into()
            }
        ]
    );
    assert_eq!(r.fell_back, ["level", "own_tablebases"]);
    let r = Config::check("keys = 3\nlevel = 9\npieces = \"fancy\"\nlevel_ = 1\n");
    assert_eq!(lines_of(&r), [Some(1), Some(2), Some(3), Some(4)]);
    assert_eq!(r.problems[1].text, "level = 9: use 1 to 8");
    assert_eq!(r.fell_back, ["keys", "level", "pieces"]);
}

#[test]
fn load_keeps_what_it_can_and_says_what_fell_back() {
    let dir = std::env::temp_dir().join(format!("kibitz-config-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("config.toml");
    let text = "level = 2\nlevle = 3\npieces = \"ascii\"\nautosave = \"yes\"\n";
    std::fs::write(&p, text).unwrap();
    let (c, msg) = Config::load(&p);
    assert_eq!(c.level, 2);
    assert_eq!(c.piece_style, PieceStyle::Ascii);
    assert!(c.autosave);
    assert_eq!(
        msg.unwrap(),
        format!(
            "{}: 2 problems: line 2: levle: unknown setting (did you mean level?); \
             line 4: autosave = \"yes\": expected true or false, found a string; \
             fell back to defaults: autosave (the rest of the file is used)",
            p.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&p).unwrap(), text);
    std::fs::write(&p, Config::example()).unwrap();
    assert!(Config::load(&p).1.is_none());
    // A config.toml that cannot be read (a folder): all defaults.
    let folder = dir.join("folder.toml");
    std::fs::create_dir_all(&folder).unwrap();
    let (c, msg) = Config::load(&folder);
    assert_eq!(c.level, 4);
    let msg = msg.unwrap();
    assert!(
        msg.contains(": 1 problem: cannot read it: ")
            && msg.ends_with("; every setting is the default"),
        "{msg}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nearest_names() {
    let names = SETTINGS.iter().copied();
    assert_eq!(nearest("levle", names.clone()), Some("level"));
    assert_eq!(nearest("Level", names.clone()), Some("level"));
    assert_eq!(nearest("lvl", names.clone()), None);
    assert_eq!(
        nearest("watch_delay", names.clone()),
        Some("watch_delay_ms")
    );
    assert_eq!(
        nearest("engine_thread", names.clone()),
        Some("engine_threads")
    );
    assert_eq!(nearest("colour", names.clone()), None);
    assert_eq!(nearest("time", names), None);
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
