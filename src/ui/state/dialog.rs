//! The new-game dialog's state and the choices it offers.

use super::*;

/// The new-game dialog.
#[derive(Clone, Debug)]
pub struct NewGameDialog {
    pub field: usize,
    /// 0 White, 1 Black, 2 Random, 3 engine vs engine, 4 two players.
    pub side: usize,
    /// 0..=7 levels 1-8, 8 custom limits, 9 external engine (if any).
    pub opponent: usize,
    pub limits: String,
    /// Index into [`time_choices`]; the last one is "custom".
    pub time: usize,
    pub custom_time: String,
    pub fen: String,
    /// Index into [`VARIANTS`].
    pub variant: usize,
    pub error: Option<String>,
    /// The external engine offered, if any.
    pub external: Option<String>,
    /// The letter that opened the dialog, when a move can begin with it
    /// (`n` of `nf3`): a next key that continues the move closes the
    /// dialog and the move is typed.
    pub typed: Option<char>,
    /// The game in progress a new game would leave, in words: Enter asks
    /// first.
    pub leaves: Option<String>,
    /// Enter was pressed once over a game in progress: the next Enter
    /// starts the new game.
    pub armed: bool,
}

pub const VARIANTS: [&str; 3] = ["Chess", "Crazyhouse", "Bughouse"];

pub const SIDES: [&str; 5] = [
    "White",
    "Black",
    "Random",
    "Engine vs engine",
    "Two players",
];
pub const DIALOG_FIELDS: [&str; 7] = [
    "Play as",
    "Opponent",
    "Custom limits",
    "Time control",
    "Custom time",
    "Start FEN",
    "Variant",
];

/// Choices of the time-control field: "none", the presets, "custom".
pub fn time_choices() -> Vec<String> {
    let mut v = vec!["none".to_string()];
    v.extend(TimeControl::presets().iter().map(|(n, _)| n.to_string()));
    v.push("custom".to_string());
    v
}

/// The external engine to offer: the one playing now, else the configured one.
pub fn external_command(spec: &EngineSpec, config: &Config) -> Option<String> {
    match spec {
        EngineSpec::External { command } => Some(command.clone()),
        _ => config
            .engine
            .as_ref()
            .map(|p| p.to_string_lossy().into_owned()),
    }
}

impl NewGameDialog {
    /// The dialog filled in with the settings of the game shown (`mode`,
    /// `spec`, `time`; `variant` an index into [`VARIANTS`]).
    pub fn new(
        mode: Mode,
        spec: &EngineSpec,
        time_control: Option<TimeControl>,
        variant: usize,
        config: &Config,
    ) -> NewGameDialog {
        let side = match mode {
            Mode::HumanVsEngine {
                human: Color::White,
            } => 0,
            Mode::HumanVsEngine {
                human: Color::Black,
            } => 1,
            Mode::EngineVsEngine => 3,
            Mode::HumanVsHuman => 4,
        };
        let (opponent, limits) = match spec {
            EngineSpec::BuiltIn { level } => ((*level as usize).clamp(1, 8) - 1, String::new()),
            EngineSpec::Custom {
                depth,
                movetime_ms,
                nodes,
            } => (
                8,
                crate::ui::player::limits_text(*depth, *movetime_ms, *nodes),
            ),
            EngineSpec::External { .. } => (9, String::new()),
        };
        let choices = time_choices();
        let time = match time_control {
            None => 0,
            Some(t) => choices
                .iter()
                .position(|c| c == &t.to_string())
                .unwrap_or(choices.len() - 1),
        };
        NewGameDialog {
            field: 0,
            side,
            opponent,
            limits: if limits.is_empty() {
                "depth 8".to_string()
            } else {
                limits
            },
            time,
            custom_time: time_control.map_or("10+5".to_string(), |t| t.to_string()),
            fen: String::new(),
            variant,
            error: None,
            external: external_command(spec, config),
            typed: None,
            leaves: None,
            armed: false,
        }
    }

    pub fn opponent_choices(&self) -> usize {
        if self.external.is_some() { 10 } else { 9 }
    }

    /// A Crazyhouse or Bughouse game from the dialog: you play the chosen
    /// side (on board A in Bughouse) against the chosen engine, which also
    /// plays your Bughouse partner.
    pub fn live_setup(&self) -> Result<crate::ui::screens::house::live::LiveSetup, String> {
        let kind = if self.variant == 2 {
            crate::variant::VariantKind::Bughouse
        } else {
            crate::variant::VariantKind::Crazyhouse
        };
        // The FEN is read with the variant's rules, not as chess.
        let fen = self.fen.trim();
        let start = (!fen.is_empty())
            .then(|| crate::ui::screens::house::live::parse_start(kind, fen))
            .transpose()
            .map_err(|e| format!("Start FEN: {e}"))?;
        let mut plain = self.clone();
        plain.fen.clear();
        let setup = plain.setup()?;
        let person = match setup.mode {
            Mode::HumanVsEngine { human } => Some((0, human)),
            Mode::HumanVsHuman => Some((0, Color::White)),
            Mode::EngineVsEngine => None,
        };
        crate::ui::screens::house::live::Seating {
            kind,
            person,
            two_people: setup.mode == Mode::HumanVsHuman,
            opponents: [setup.engine.clone(), setup.engine.clone()],
            partner: setup.engine,
            time: setup.time,
        }
        .setup()
        .map(|l| crate::ui::screens::house::live::LiveSetup { start, ..l })
    }

    /// Validates the dialog; the error names the field and the reason.
    pub fn setup(&self) -> Result<Setup, String> {
        let d = self;
        let mode = match d.side {
            0 => Mode::HumanVsEngine {
                human: Color::White,
            },
            1 => Mode::HumanVsEngine {
                human: Color::Black,
            },
            2 => Mode::HumanVsEngine {
                human: if crate::util::Rng::from_entropy().below(2) == 0 {
                    Color::White
                } else {
                    Color::Black
                },
            },
            3 => Mode::EngineVsEngine,
            _ => Mode::HumanVsHuman,
        };
        let engine = match d.opponent {
            0..=7 => EngineSpec::BuiltIn {
                level: d.opponent as u8 + 1,
            },
            8 => parse_limits(&d.limits).map_err(|e| format!("Custom limits: {e}"))?,
            _ => EngineSpec::External {
                command: self
                    .external
                    .clone()
                    .ok_or("no external engine configured")?,
            },
        };
        let choices = time_choices();
        let time = match choices.get(d.time).map(String::as_str) {
            Some("none") | None => None,
            Some("custom") => Some(
                d.custom_time
                    .trim()
                    .parse::<TimeControl>()
                    .map_err(|e| format!("Custom time: {e}"))?,
            ),
            Some(name) => TimeControl::presets()
                .iter()
                .find(|(n, _)| n == &name)
                .map(|(_, t)| *t),
        };
        let fen = d.fen.trim();
        let start = if fen.is_empty() {
            Board::startpos()
        } else {
            Board::from_fen(fen).map_err(|e| format!("Start FEN: {e}"))?
        };
        if start.chess().legal_moves().is_empty() {
            return Err("Start FEN: the position is already over (no legal moves).".to_string());
        }
        Ok(Setup {
            mode,
            engine,
            time,
            start,
        })
    }
}
