//! How bad a move was, by the drop in the mover's chance of winning: the
//! scale the review judges by and the explanations name (below both).

/// A drop of at least this much in the mover's winning chance (0..1) is an
/// inaccuracy (`?!`, NAG 6). Lichess' 0.1 on its -1..1 scale.
pub const INACCURACY: f64 = 0.05;
/// A drop of at least this much is a mistake (`?`, NAG 2). Lichess' 0.2.
pub const MISTAKE: f64 = 0.10;
/// A drop of at least this much is a blunder (`??`, NAG 4). Lichess' 0.3.
pub const BLUNDER: f64 = 0.15;

/// How bad a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// The PGN glyph: 6 (`?!`), 2 (`?`) or 4 (`??`).
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }

    /// The judgement for a drop in winning chance (0..1), by the
    /// [`INACCURACY`], [`MISTAKE`] and [`BLUNDER`] thresholds.
    pub fn from_loss(loss: f64) -> Option<Judgement> {
        if loss >= BLUNDER {
            Some(Judgement::Blunder)
        } else if loss >= MISTAKE {
            Some(Judgement::Mistake)
        } else if loss >= INACCURACY {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }
}
