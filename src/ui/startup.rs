//! What the command line asks for and what the app starts with: options,
//! the engine and clock set up, the sample games, an unfinished game to
//! resume.

use anyhow::{Context, Result, bail};
use app::{App, Setup};
use std::path::{Path, PathBuf};

use super::*;

/// Command-line choices for the play screen.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub fen: Option<String>,
    pub ascii: bool,
    /// External UCI engine command.
    pub engine: Option<String>,
    pub level: Option<u8>,
    /// Fixed limits for the built-in engine ("depth 8", "movetime 500").
    pub limits: Option<String>,
    /// Time control in minutes+seconds, or "none".
    pub time: Option<String>,
    /// white, black, random, engines, humans.
    pub side: Option<String>,
    pub theme: Option<String>,
    /// Do not offer to resume an unfinished game.
    pub new_game: bool,
    /// Open this game file for replay (and this game of it, from 0).
    pub replay: Option<(PathBuf, Option<usize>)>,
    /// Open the endgame trainer.
    pub train: Option<TrainOptions>,
    /// Open the puzzle screen (with this theme, or any).
    pub puzzles: Option<Option<String>>,
    /// chess (default), crazyhouse or bughouse.
    pub variant: Option<String>,
    /// Bughouse: your seat (A-white, A-black, B-white, B-black).
    pub seat: Option<String>,
    /// Bughouse: your partner (a level 1-8, `kibitz`, or an engine command).
    pub partner: Option<String>,
    /// Bughouse: the opponents (one for both, or two separated by a comma).
    pub opponents: Option<String>,
    /// Engines answer at once, clock or not (the config's `engine_pace`).
    pub fast: bool,
}

/// A player given on the command line: a level 1-8, `kibitz` (at the
/// configured level), or an engine command.
fn player_spec(text: &str, level: u8) -> crate::ui::player::EngineSpec {
    use crate::ui::player::EngineSpec;
    let t = text.trim();
    match t.parse::<u8>() {
        Ok(l) if (1..=8).contains(&l) => EngineSpec::BuiltIn { level: l },
        _ if t.eq_ignore_ascii_case("kibitz") => EngineSpec::BuiltIn { level },
        _ => EngineSpec::External {
            command: t.to_string(),
        },
    }
}

/// The Crazyhouse or Bughouse game the options ask for, if any.
pub(super) fn live_setup(
    opts: &Options,
    setup: &Setup,
    app: &App,
) -> Result<Option<crate::ui::screens::house::live::LiveSetup>> {
    use crate::variant::VariantKind;
    use shakmaty::Color;
    let kind = match opts.variant.as_deref() {
        None => return Ok(None),
        Some(v) => v.parse::<VariantKind>().map_err(|_| {
            anyhow::anyhow!("--variant must be chess, crazyhouse or bughouse, not '{v}'")
        })?,
    };
    if kind == VariantKind::Chess {
        return Ok(None);
    }
    let start = opts
        .fen
        .as_deref()
        .map(|fen| crate::ui::screens::house::live::parse_start(kind, fen))
        .transpose()
        .map_err(|e| anyhow::anyhow!("--fen: {e}"))?;
    let level = app.ui.config.level;
    if kind == VariantKind::Crazyhouse
        && (opts.seat.is_some() || opts.partner.is_some() || opts.opponents.is_some())
    {
        bail!("--seat, --partner and --opponents are for Bughouse");
    }
    let watch = setup.mode == app::Mode::EngineVsEngine;
    let person = match (kind, &setup.mode, opts.seat.as_deref()) {
        _ if watch => None,
        (VariantKind::Bughouse, _, Some(s)) => {
            let seat = crate::bughouse::Seat::parse(s).ok_or_else(|| {
                anyhow::anyhow!("--seat must be A-white, A-black, B-white or B-black, not '{s}'")
            })?;
            Some((seat.board.index(), seat.color))
        }
        (_, app::Mode::HumanVsEngine { human }, _) => Some((0, *human)),
        _ => Some((0, Color::White)),
    };
    let partner = opts
        .partner
        .as_deref()
        .map_or_else(|| setup.engine.clone(), |p| player_spec(p, level));
    let opponents = match opts.opponents.as_deref() {
        None => [setup.engine.clone(), setup.engine.clone()],
        Some(o) => {
            let parts: Vec<&str> = o.split(',').collect();
            match parts.as_slice() {
                [one] => [player_spec(one, level), player_spec(one, level)],
                [a, b] => [player_spec(a, level), player_spec(b, level)],
                _ => bail!("--opponents is one player for both, or two separated by a comma"),
            }
        }
    };
    let seating = crate::ui::screens::house::live::Seating {
        kind,
        person,
        two_people: setup.mode == app::Mode::HumanVsHuman,
        opponents,
        partner,
        time: app.ui.config.time_control,
    };
    let mut live = seating.setup().map_err(|e| anyhow::anyhow!(e))?;
    live.start = start;
    Ok(Some(live))
}

/// `kibitz train`: an ending or a position, and the menu's choices.
#[derive(Clone, Debug, Default)]
pub struct TrainOptions {
    /// An ending (`KBNvK`, `kqk`) or a FEN; `None` opens the menu.
    pub what: Option<String>,
    /// easy, medium or hard.
    pub difficulty: Option<String>,
    /// white, black or random.
    pub side: Option<String>,
}

impl TrainOptions {
    /// What the trainer starts with (`None`: the menu). Errors explain
    /// an unknown ending, a bad choice or an illegal position.
    pub fn start(&self) -> Result<Option<app::TrainerStart>> {
        use trainer::{Difficulty, ENDINGS, Ending, SideChoice};
        let difficulty = match self.difficulty.as_deref() {
            None => Difficulty::Medium,
            Some(d) => *Difficulty::ALL
                .iter()
                .find(|x| x.name() == d.to_ascii_lowercase())
                .with_context(|| format!("--difficulty must be easy, medium or hard, not '{d}'"))?,
        };
        let side = match self.side.as_deref() {
            None => SideChoice::White,
            Some(s) => *SideChoice::ALL
                .iter()
                .find(|x| x.name().eq_ignore_ascii_case(s))
                .with_context(|| format!("--side must be white, black or random, not '{s}'"))?,
        };
        let Some(what) = self.what.as_deref() else {
            return Ok(None);
        };
        if let Some(lesson) = crate::train::lessons::Lesson::find(what) {
            // A damaged progress file is set aside, and said, in the app.
            let step = crate::paths::data_dir()
                .and_then(|d| {
                    crate::train::lessons::progress::Progress::load(
                        &crate::train::lessons::progress::path(&d),
                    )
                    .ok()
                })
                .map_or(0, |p| p.next_step(lesson));
            return Ok(Some(app::TrainerStart::Lesson { lesson, step }));
        }
        if let Some(ending) = Ending::find(what) {
            return Ok(Some(app::TrainerStart::Random {
                ending,
                difficulty,
                side,
            }));
        }
        if !what.contains('/') {
            let names: Vec<&str> = ENDINGS.iter().map(|e| e.name).collect();
            let lessons: Vec<&str> = crate::train::lessons::LESSONS
                .iter()
                .map(|l| l.id)
                .collect();
            bail!(
                "'{what}' is neither a lesson, an ending nor a FEN; lessons: {}; endings: {}",
                lessons.join(", "),
                names.join(", ")
            );
        }
        let fen: shakmaty::fen::Fen = what
            .trim()
            .parse()
            .map_err(|e| anyhow::anyhow!("not a FEN ({e}): {what}"))?;
        let setup = fen.into_setup();
        match trainer::validate(&setup.board, setup.turn) {
            Ok(board) => Ok(Some(app::TrainerStart::Position(board))),
            Err(problems) => bail!("cannot train from this position: {}", problems.join(" ")),
        }
    }
}

/// The repository's sample games: `games/` in the working directory (as
/// with `cargo run`), else next to the sources this was built from.
pub fn samples_dir() -> Option<PathBuf> {
    let here = PathBuf::from("games");
    if here.is_dir() {
        return Some(here);
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    built.is_dir().then_some(built)
}

/// Everything the app needs before the terminal is taken over; errors here
/// are printed normally.
pub(super) struct Prepared {
    pub(super) app: App,
    pub(super) setup: Setup,
    pub(super) resume: Option<(PathBuf, crate::game::Game)>,
    pub(super) warnings: Vec<String>,
}

pub(super) fn prepare(opts: &Options) -> Result<Prepared> {
    let dirs = crate::paths::project_dirs();
    let config_dir = dirs.as_ref().map(|d| d.config_dir().to_path_buf());
    let data_dir = dirs.as_ref().map(|d| d.data_dir().to_path_buf());
    let mut warnings = Vec::new();
    warnings.extend(data_dir_problem(data_dir.as_deref()));
    let mut cfg = match &config_dir {
        Some(dir) => {
            let (c, err) = config::Config::load(&dir.join("config.toml"));
            // Every problem with its line, and what fell back to defaults.
            warnings.extend(err);
            c
        }
        None => config::Config::default(),
    };
    if let Some(l) = opts.level {
        if !(1..=8).contains(&l) {
            bail!("--level must be 1 to 8, not {l}");
        }
        cfg.level = l;
        cfg.engine = None;
    }
    if let Some(e) = &opts.engine {
        cfg.engine = Some(PathBuf::from(e));
    }
    if opts.ascii {
        cfg.piece_style = config::PieceStyle::Ascii;
    }
    if opts.fast {
        cfg.engine_pace = crate::ui::pace::Pace::Fast;
    }
    if let Some(t) = &opts.time {
        cfg.time_control = if t == "none" || t == "-" {
            None
        } else {
            Some(
                t.parse::<config::TimeControl>()
                    .map_err(|e| anyhow::anyhow!("--time {t}: {e}"))?,
            )
        };
    }
    let (themes, theme_warnings) =
        theme::load_all(config_dir.as_ref().map(|d| d.join("themes")).as_deref());
    warnings.extend(theme_warnings);
    if themes.is_empty() {
        bail!("no colour themes could be loaded");
    }
    let state = data_dir
        .as_ref()
        .map(|d| config::State::load(&d.join("state.toml")))
        .unwrap_or_default();
    let config_theme = cfg.theme.clone();
    let mut app = App::new(cfg, themes, data_dir.clone());
    if let Some(l) = &opts.limits {
        app.chess_mut().s.opponent.spec =
            app::parse_limits(l).map_err(|e| anyhow::anyhow!("--limits {l}: {e}"))?;
    }
    let names: Vec<&str> = app.ui.look.themes.iter().map(|t| t.name.as_str()).collect();
    if let Some(name) = &opts.theme {
        match theme_index(&names, name) {
            Some(i) => app.ui.look.theme = i,
            None => bail!("no theme '{name}' (have: {})", names.join(", ")),
        }
    } else {
        let modified =
            |p: Option<PathBuf>| p.and_then(|p| std::fs::metadata(p).ok()?.modified().ok());
        let config_newer = match (
            modified(config_dir.as_ref().map(|d| d.join("config.toml"))),
            modified(data_dir.as_ref().map(|d| d.join("state.toml"))),
        ) {
            (Some(c), Some(s)) => c > s,
            _ => false,
        };
        let (i, said) = pick_theme(
            &names,
            config_theme.as_deref(),
            state.theme.as_deref(),
            config_newer,
        );
        if let Some(i) = i {
            app.ui.look.theme = i;
        }
        warnings.extend(said);
    }
    app.ui.look.flipped = state.flipped;
    app.ui.dirs.samples = samples_dir();

    let mut setup = app.default_setup();
    // A Crazyhouse or Bughouse FEN is read with its variant (`live_setup`).
    let drops = opts
        .variant
        .as_deref()
        .and_then(|v| v.parse::<crate::variant::VariantKind>().ok())
        .is_some_and(|k| k != crate::variant::VariantKind::Chess);
    if let Some(fen) = opts.fen.as_ref().filter(|_| !drops) {
        setup.start = crate::engine::Board::from_fen(fen).map_err(|e| {
            let hint = if fen.contains('[') || e.to_string().contains("pieces in hand") {
                " (a FEN with pockets needs --variant crazyhouse or bughouse)"
            } else {
                ""
            };
            anyhow::anyhow!("--fen: {e}{hint}")
        })?;
        if shakmaty::Position::legal_moves(setup.start.chess()).is_empty() {
            bail!("--fen: the position has no legal moves (the game would already be over)");
        }
    }
    if let Some(side) = &opts.side {
        use shakmaty::Color;
        setup.mode = match side.as_str() {
            "white" => app::Mode::HumanVsEngine {
                human: Color::White,
            },
            "black" => app::Mode::HumanVsEngine {
                human: Color::Black,
            },
            "random" => app::Mode::HumanVsEngine {
                human: if crate::util::Rng::from_entropy().below(2) == 0 {
                    Color::White
                } else {
                    Color::Black
                },
            },
            "engines" => app::Mode::EngineVsEngine,
            "humans" => app::Mode::HumanVsHuman,
            other => bail!("--side must be white, black, random, engines or humans, not '{other}'"),
        };
    }
    let resume =
        if opts.new_game || opts.fen.is_some() || opts.replay.is_some() || opts.train.is_some() {
            None
        } else if let Some(d) = &data_dir {
            let (found, warning) = find_unfinished(&d.join("games"));
            warnings.extend(warning);
            found
        } else {
            None
        };
    Ok(Prepared {
        app,
        setup,
        resume,
        warnings,
    })
}

/// Why games cannot be saved as they are played, if they cannot: no home
/// folder, or a games folder that cannot be written (read-only, full, a
/// file where the folder should be). Said on the first screen; the games
/// go on in memory and `S` saves one elsewhere.
pub(super) fn data_dir_problem(data: Option<&Path>) -> Option<String> {
    let Some(data) = data else {
        return Some(
            "No home folder (HOME is not set): games are not saved as you play. \
             S saves a game to a file you name, Y copies it."
                .into(),
        );
    };
    let games = data.join("games");
    let probe = games.join(format!(".kibitz-probe-{}", std::process::id()));
    let written = std::fs::create_dir_all(&games).and_then(|()| {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&probe)
            .and_then(|mut f| std::io::Write::write_all(&mut f, b"probe"))
    });
    let _ = std::fs::remove_file(&probe);
    written.err().map(|e| {
        format!(
            "Cannot write to {}: {e}. Games are kept in memory only: \
             S saves a game to a file you name, Y copies it.",
            games.display()
        )
    })
}

/// The most recently saved game, if it is unfinished; a warning when that
/// file cannot be read (the file is left alone). Games another Kibitz has
/// open, and empty reservations, are passed over (see
/// [`crate::ui::gamefile`]); the game offered is claimed for this one, so
/// no other Kibitz is offered it too.
pub fn find_unfinished(dir: &Path) -> (Option<(PathBuf, crate::game::Game)>, Option<String>) {
    use crate::ui::gamefile;
    gamefile::sweep(dir);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (None, None);
    };
    // Crazyhouse games (saved as PGN too) are not offered here.
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "pgn"))
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(|e| Some((e.metadata().ok()?, e.path())))
        .filter(|(m, _)| m.is_file() && m.len() > 0)
        .filter_map(|(m, p)| Some((m.modified().ok()?, p)))
        .collect();
    files.sort_by(|a, b| b.cmp(a));
    let newest = files.into_iter().map(|(_, p)| p).find(|p| {
        crate::ui::screens::house::file::kind_of(p) == crate::ui::screens::house::file::Kind::Chess
            && !gamefile::claimed_elsewhere(p)
    });
    let Some(newest) = newest else {
        return (None, None);
    };
    let game = std::fs::read_to_string(&newest)
        .map_err(|e| e.to_string())
        .and_then(|text| crate::game::pgn_read::read_game(&text).map_err(|e| e.to_string()));
    let game = match game {
        Ok(g) => g,
        Err(e) => {
            let warning = format!(
                "The last saved game ({}) could not be read: {e}",
                newest.display()
            );
            return (None, Some(warning));
        }
    };
    if game.ending.is_some()
        || game.header("KibitzMode").is_none()
        || game.moves().is_empty()
        || game.rule_ending(false).is_some()
        || !gamefile::claim(&newest)
    {
        return (None, None);
    }
    (Some((newest, game)), None)
}

/// A game, or the offer to resume one.
pub(super) struct PlayStart {
    pub(super) setup: Setup,
    pub(super) resume: Option<(PathBuf, crate::game::Game)>,
}

/// What the app does first.
pub(super) enum Start {
    Play(Box<PlayStart>),
    Explore(Box<explorer::Explorer>),
    /// A game file (and the game of it to show first).
    Replay(PathBuf, Option<usize>),
    /// The endgame trainer: this start, or the menu.
    Train(Box<PlayStart>, Option<app::TrainerStart>),
    /// The puzzles (of this theme, or any).
    Puzzles(Box<PlayStart>, Option<String>),
    /// A Crazyhouse or Bughouse game.
    /// A Crazyhouse or Bughouse game (`true`: a new one, never the offer
    /// to resume).
    House(Box<crate::ui::screens::house::live::LiveSetup>, bool),
}

/// The theme named `name` (any case).
fn theme_index(names: &[&str], name: &str) -> Option<usize> {
    names.iter().position(|n| n.eq_ignore_ascii_case(name))
}

/// The theme to start with, from `config.toml`'s `theme` and the one last
/// chosen in the app (`state.toml`): when both name a theme and differ, the
/// newer choice wins (`config_newer`: the config file was written after the
/// app's choice). Also what to say: a name that is no theme (with the one
/// probably meant), and which choice won over the other.
fn pick_theme(
    names: &[&str],
    config: Option<&str>,
    remembered: Option<&str>,
    config_newer: bool,
) -> (Option<usize>, Vec<String>) {
    let mut said = Vec::new();
    let from_config = config.and_then(|name| {
        let i = theme_index(names, name);
        if i.is_none() {
            let lower: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
            let meant =
                crate::util::nearest(&name.to_lowercase(), lower.iter().map(String::as_str))
                    .and_then(|m| lower.iter().position(|l| l == m))
                    .map(|i| format!(" (did you mean {}?)", names[i]))
                    .unwrap_or_else(|| format!(" (themes: {})", names.join(", ")));
            said.push(format!("config.toml: theme '{name}' is not a theme{meant}"));
        }
        i
    });
    let from_app = remembered.and_then(|name| theme_index(names, name));
    let chosen = match (from_config, from_app) {
        (Some(c), Some(a)) if c != a => {
            let (win, lose) = if config_newer { (c, a) } else { (a, c) };
            said.push(if config_newer {
                format!(
                    "Theme {} from config.toml, which is newer than the one chosen in the app ({})",
                    names[win], names[lose]
                )
            } else {
                format!(
                    "Theme {}, chosen in the app after config.toml set {} (t changes it)",
                    names[win], names[lose]
                )
            });
            Some(win)
        }
        (c, a) => a.or(c),
    };
    (chosen, said)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 50: a theme typo is said with the name meant; a config theme
    /// and one chosen in the app: the newer wins, and which is said.
    #[test]
    fn the_theme_is_the_newer_choice_and_a_typo_is_said() {
        let names = ["Classic wood", "Dark", "Plain"];
        let (i, said) = pick_theme(&names, Some("Classic wod"), None, true);
        assert_eq!(i, None);
        assert_eq!(
            said,
            ["config.toml: theme 'Classic wod' is not a theme (did you mean Classic wood?)"]
        );
        let (i, said) = pick_theme(&names, Some("dark"), None, false);
        assert_eq!((i, said.len()), (Some(1), 0));
        // Chosen in the app (state.toml) after the config was written.
        let (i, said) = pick_theme(&names, Some("Dark"), Some("Plain"), false);
        assert_eq!(i, Some(2));
        assert!(said[0].contains("Theme Plain, chosen in the app after config.toml set Dark"));
        // The config edited since: it wins.
        let (i, said) = pick_theme(&names, Some("Dark"), Some("Plain"), true);
        assert_eq!(i, Some(1));
        assert!(said[0].contains("Theme Dark from config.toml"));
        // Agreeing, or only one: nothing to say.
        assert_eq!(
            pick_theme(&names, Some("Dark"), Some("dark"), true),
            (Some(1), vec![])
        );
        assert_eq!(
            pick_theme(&names, None, Some("Plain"), true),
            (Some(2), vec![])
        );
    }
}
