//! Lessons: the endings every player must know, taught on the trainer's
//! screen. A lesson says in a few plain lines what its ending is about,
//! then sets positions of rising difficulty against perfect defence from
//! the tablebases; each move is judged by the table and the hint says the
//! plan in words ([`plan`]), read off what the table shows in the
//! position on the board.
//!
//! The catalogue ([`LESSONS`]) is data: every position's value is checked
//! against the tables by the tests (`tests.rs`), and so is the plan said
//! in the positions the lesson names.

pub mod plan;
pub mod progress;
#[cfg(test)]
mod tests;

use crate::tablebase::Material;

/// What a lesson's position asks of the trainee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Win material or promote (the position changes material) and keep
    /// the win; or mate.
    Convert,
    /// Give mate.
    Mate,
    /// Keep the draw for this many of your moves (or until the game ends
    /// drawn).
    Hold(u32),
}

impl Goal {
    /// The goal in words, for the trainer's panel.
    pub fn words(self) -> String {
        match self {
            Goal::Convert => "win material or promote, and keep the win".to_string(),
            Goal::Mate => "give mate".to_string(),
            Goal::Hold(n) => format!("hold the draw for {n} moves"),
        }
    }
}

/// One position of a lesson.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The trainee plays the side to move.
    pub fen: &'static str,
    pub goal: Goal,
    /// What this position is about, one line.
    pub note: &'static str,
}

/// A lesson: an ending, what it is about, its positions, and the plans
/// its hints may say (in the order they are tried).
#[derive(Debug)]
pub struct Lesson {
    /// The name `kibitz train <id>` takes.
    pub id: &'static str,
    pub title: &'static str,
    /// The table the positions need (its sub-tables come with it).
    pub material: &'static str,
    /// One line for `kibitz train --list`.
    pub line: &'static str,
    /// What the ending is about, a few plain lines.
    pub intro: &'static [&'static str],
    pub steps: &'static [Step],
    pub plans: &'static [plan::Plan],
}

impl Lesson {
    pub fn material(&self) -> Material {
        // Valid signatures (tested).
        self.material.parse().unwrap_or(Material::KVK)
    }

    /// Looks a lesson up by its id, case-insensitive (`lucena`,
    /// `Philidor`).
    pub fn find(id: &str) -> Option<&'static Lesson> {
        let id = id.trim();
        LESSONS.iter().find(|l| l.id.eq_ignore_ascii_case(id))
    }

    /// Does this lesson need a five-piece table (minutes to generate)?
    pub fn five_pieces(&self) -> bool {
        self.material().pieces() >= 5
    }
}

use plan::Plan as P;

pub static LESSONS: &[Lesson] = &[
    Lesson {
        id: "kpk",
        title: "King and pawn against king",
        material: "KPvK",
        line: "the opposition and the key squares: when one pawn wins",
        intro: &[
            "King and pawn against king is won or drawn by the kings alone.",
            "The key squares: two squares in front of the pawn and one to each side. \
             Your king on one of them wins, whoever is to move.",
            "The opposition: kings facing each other with one square between; \
             the side to move must give way. The defender draws by keeping it.",
        ],
        steps: &[
            Step {
                fen: "8/8/8/4k3/8/2K5/3P4/8 w - - 0 1",
                goal: Goal::Convert,
                note: "Bring your king to a key square before the pawn moves.",
            },
            Step {
                fen: "4k3/8/8/3K4/3P4/8/8/8 w - - 0 1",
                goal: Goal::Convert,
                note: "The pawn has advanced: its key squares moved up with it.",
            },
            Step {
                fen: "3k4/8/8/3K4/3P4/8/8/8 b - - 0 1",
                goal: Goal::Hold(10),
                note: "Defend: keep the opposition and stay in front of the pawn.",
            },
            Step {
                fen: "8/8/8/4k3/8/8/3KP3/8 w - - 0 1",
                goal: Goal::Convert,
                note: "Only one move wins here: the one that takes the opposition.",
            },
        ],
        plans: &[
            P::KeySquare,
            P::Opposition,
            P::Zugzwang,
            P::PawnWaits,
            P::FrontOfPawn,
            P::Promote,
            P::OnlyMove,
            P::Pitfalls,
        ],
    },
    Lesson {
        id: "kqkp",
        title: "Queen against pawn on the seventh",
        material: "KQvKP",
        line: "win against a centre pawn, draw against a rook's or bishop's pawn",
        intro: &[
            "A pawn on its seventh rank with its king beside it can hold a queen.",
            "Against a centre or knight's pawn the queen wins: check until the king \
             has to stand in front of its pawn, then use the free move to bring your king.",
            "Against a rook's pawn, or a bishop's pawn with the king going to the corner, \
             the defender draws: taking or blocking the pawn stalemates.",
        ],
        steps: &[
            Step {
                fen: "7K/8/8/8/8/8/3pk3/7Q w - - 0 1",
                goal: Goal::Convert,
                note: "A centre pawn: check the king in front of it, then bring your king.",
            },
            Step {
                fen: "7K/8/8/8/8/8/p1k5/6Q1 b - - 0 1",
                goal: Goal::Hold(10),
                note: "Defend the rook's pawn: stay beside it and toward the corner.",
            },
            Step {
                fen: "7K/8/8/8/8/1Q6/2pk4/8 b - - 0 1",
                goal: Goal::Hold(10),
                note: "Defend the bishop's pawn: the corner saves you by stalemate.",
            },
        ],
        plans: &[
            P::BlockedPawn,
            P::Corner,
            P::QueenCheck,
            P::Capture,
            P::OnlyMove,
            P::Pitfalls,
        ],
    },
    Lesson {
        id: "kbnk",
        title: "Bishop and knight mate",
        material: "KBNvK",
        line: "mate in the bishop's corner; the W manoeuvre",
        intro: &[
            "Bishop, knight and king mate a lone king only in a corner of the bishop's colour.",
            "First drive the king to the edge; if it runs to the wrong corner, walk it along \
             the edge to the right one.",
            "The W manoeuvre: the knight hops in a W (f7-e5-d7-c5) to keep the king on \
             the edge while bishop and king take the squares behind it.",
        ],
        steps: &[
            Step {
                fen: "k7/8/1K6/8/8/3B4/8/4N3 w - - 0 1",
                goal: Goal::Mate,
                note: "The king is already in the right corner: finish it.",
            },
            Step {
                fen: "3k4/8/3K4/8/8/8/8/5BN1 w - - 0 1",
                goal: Goal::Mate,
                note: "On the edge: push the king to a corner of your bishop's colour.",
            },
            Step {
                fen: "5k2/5N2/5K2/5B2/8/8/8/8 w - - 0 1",
                goal: Goal::Mate,
                note: "The king sits near the wrong corner: the W manoeuvre brings it over.",
            },
        ],
        plans: &[P::KnightRoute, P::RightCorner, P::OnlyMove, P::Pitfalls],
    },
    Lesson {
        id: "kqkr",
        title: "Queen against rook",
        material: "KQvKR",
        line: "win: separate king and rook, then fork or zugzwang",
        intro: &[
            "The queen beats the rook, but the defence is stubborn: king and rook stay together.",
            "Drive the king to the edge; look for a check that also hits the rook.",
            "In the Philidor position the defender loses only because it must move: \
             lose a move with the queen to hand the move over.",
        ],
        steps: &[
            Step {
                fen: "8/8/8/8/3k2r1/1Q6/7K/8 w - - 0 1",
                goal: Goal::Convert,
                note: "King and rook stand apart: find the check that wins the rook.",
            },
            Step {
                fen: "1k6/1r6/2K5/Q7/8/8/8/8 w - - 0 1",
                goal: Goal::Convert,
                note: "The Philidor position: with Black to move it would be lost at once.",
            },
            Step {
                fen: "8/8/4k3/8/2r5/8/8/4K2Q w - - 0 1",
                goal: Goal::Convert,
                note: "From the middle: king to the edge first, then separate king and rook.",
            },
        ],
        plans: &[
            P::Fork,
            P::Capture,
            P::Zugzwang,
            P::Squares,
            P::BringKing,
            P::OnlyMove,
            P::Pitfalls,
        ],
    },
    Lesson {
        id: "krkb",
        title: "Rook against bishop",
        material: "KRvKB",
        line: "draw: the corner the bishop does not cover",
        intro: &[
            "Rook against bishop is a draw if the defending king finds the right corner.",
            "The right corner is the one of the other colour than your bishop: next to it \
             the bishop can block checks, and pins only give stalemate.",
            "In the corner of the bishop's colour the king is mated.",
        ],
        steps: &[
            Step {
                fen: "8/8/8/4k3/2b5/4K3/8/7R b - - 0 1",
                goal: Goal::Hold(10),
                note: "In the middle many moves hold: head for the right corner.",
            },
            Step {
                fen: "6k1/8/5K2/8/8/8/2b5/R7 b - - 0 1",
                goal: Goal::Hold(10),
                note: "On the edge: only the corner of the other colour saves you.",
            },
            Step {
                fen: "8/8/8/8/8/4K3/5R2/3b2k1 b - - 0 1",
                goal: Goal::Hold(10),
                note: "The king is cut off: only the bishop's moves keep the draw.",
            },
        ],
        plans: &[P::SafeCorner, P::OnlyMove, P::Pitfalls],
    },
    Lesson {
        id: "krkn",
        title: "Rook against knight",
        material: "KRvKN",
        line: "draw: keep the knight next to your king",
        intro: &[
            "Rook against knight is usually a draw.",
            "Keep the knight close to your king: alone, it is trapped by the rook; \
             far from the knight, the king is mated.",
            "Stay away from the corners, where the knight has few squares.",
        ],
        steps: &[
            Step {
                fen: "8/8/3k4/4n3/8/4K3/8/1R6 b - - 0 1",
                goal: Goal::Hold(10),
                note: "King and knight together in the middle: keep them so.",
            },
            Step {
                fen: "8/8/8/3k4/8/3K4/1R6/6n1 b - - 0 1",
                goal: Goal::Hold(10),
                note: "The knight is far away: bring king and knight together.",
            },
            Step {
                fen: "2k5/8/1n1K4/8/8/8/8/7R b - - 0 1",
                goal: Goal::Hold(10),
                note: "On the edge: few moves hold.",
            },
        ],
        plans: &[P::KnightNear, P::OnlyMove, P::Pitfalls],
    },
    Lesson {
        id: "lucena",
        title: "Lucena position",
        material: "KRPvKR",
        line: "rook and pawn against rook, win: build a bridge",
        intro: &[
            "Your pawn is on the seventh, your king in front of it, the enemy king cut off.",
            "First check the enemy king one more file away, then put your rook on the \
             fourth rank: the bridge.",
            "Your king steps out; when the checks come, your rook blocks them.",
        ],
        steps: &[
            Step {
                fen: "3K4/3P2k1/8/8/5R2/8/8/2r5 w - - 0 1",
                goal: Goal::Convert,
                note: "The bridge is built: step out with your king.",
            },
            Step {
                fen: "3K4/3P2k1/8/8/8/8/2r5/5R2 w - - 0 1",
                goal: Goal::Convert,
                note: "Build the bridge, then step out.",
            },
            Step {
                fen: "3K4/3P1k2/8/8/8/8/2r5/4R3 w - - 0 1",
                goal: Goal::Convert,
                note: "The enemy king is too close: check it away first.",
            },
        ],
        plans: &[
            P::BlockCheck,
            P::Bridge,
            P::CutOff,
            P::KingOut,
            P::Promote,
            P::OnlyMove,
            P::Pitfalls,
        ],
    },
    Lesson {
        id: "philidor",
        title: "Philidor position",
        material: "KRPvKR",
        line: "rook and pawn against rook, draw: third-rank defence, then checks from behind",
        intro: &[
            "Your king stands in front of the pawn; the attacker's king is not yet on your \
             third rank.",
            "Keep your rook on your third rank: the enemy king cannot come forward.",
            "When the pawn steps onto your third rank, your rook goes far back and checks \
             from behind: the king has no shelter any more.",
        ],
        steps: &[
            Step {
                fen: "3k4/7R/2r5/3PK3/8/8/8/8 b - - 0 1",
                goal: Goal::Hold(10),
                note: "The third-rank defence: keep your rook on the sixth rank.",
            },
            Step {
                fen: "3k4/7R/1r1P4/4K3/8/8/8/8 b - - 0 1",
                goal: Goal::Hold(10),
                note: "The pawn came to the sixth: now check from behind.",
            },
            Step {
                fen: "3k4/7R/8/3P4/4K3/8/8/1r6 b - - 0 1",
                goal: Goal::Hold(10),
                note: "Set up the defence yourself.",
            },
        ],
        plans: &[
            P::ThirdRank,
            P::FromBehind,
            P::FrontOfPawn,
            P::OnlyMove,
            P::Pitfalls,
        ],
    },
];
