//! A position seen through the table, and the words the plans share.

pub(super) use crate::game::notation::{color_name, or_list, role_name};
use crate::tablebase::{Probe, Tablebases, Wdl};
use shakmaty::san::SanPlus;
use shakmaty::{Bitboard, Color, Move, Position, Role, Square};

/// The chess positions the plans read.
pub type Chess = shakmaty::Chess;

/// A position seen through the table: its value for the side to move
/// (the trainee) and every move's.
pub(super) struct Situation<'a> {
    pub(super) tb: &'a Tablebases,
    pub(super) pos: &'a Chess,
    pub(super) me: Color,
    pub(super) value: Probe,
    /// Every legal move with its value for the mover, best first.
    pub(super) moves: Vec<(Move, Probe)>,
}

impl<'a> Situation<'a> {
    pub(super) fn new(tb: &'a Tablebases, pos: &'a Chess) -> Option<Situation<'a>> {
        let value = tb.probe_chess(pos)?;
        let moves = tb.best_moves_chess(pos)?;
        if moves.is_empty() {
            return None;
        }
        Some(Situation {
            tb,
            pos,
            me: pos.turn(),
            value,
            moves,
        })
    }

    /// The moves as good as the best.
    pub(super) fn best(&self) -> impl Iterator<Item = &Move> {
        let top = self.moves[0].1;
        self.moves
            .iter()
            .take_while(move |(_, p)| *p == top)
            .map(|(m, _)| m)
    }

    /// The moves that keep the position's result (still won, still
    /// drawn).
    pub(super) fn keeping(&self) -> impl Iterator<Item = &Move> {
        let wdl = self.value.wdl;
        self.moves
            .iter()
            .filter(move |(_, p)| p.wdl == wdl)
            .map(|(m, _)| m)
    }

    /// The moves that throw the result away.
    pub(super) fn throwing(&self) -> impl Iterator<Item = &Move> {
        let wdl = self.value.wdl;
        self.moves
            .iter()
            .filter(move |(_, p)| p.wdl != wdl)
            .map(|(m, _)| m)
    }

    pub(super) fn san(&self, m: &Move) -> String {
        SanPlus::from_move(self.pos.clone(), *m).to_string()
    }

    /// "win" or "draw": what the trainee keeps.
    pub(super) fn result(&self) -> &'static str {
        if self.value.wdl == Wdl::Win {
            "win"
        } else {
            "draw"
        }
    }

    pub(super) fn after(&self, m: &Move) -> Chess {
        let mut p = self.pos.clone();
        p.play_unchecked(*m);
        p
    }

    pub(super) fn them(&self) -> Color {
        !self.me
    }

    pub(super) fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.pos.board().by_color(color) & self.pos.board().by_role(role)
    }

    pub(super) fn first(&self, color: Color, role: Role) -> Option<Square> {
        self.pieces(color, role).first()
    }

    pub(super) fn king(&self, color: Color) -> Option<Square> {
        self.pos.board().king_of(color)
    }

    /// The position with the other side to move (a "pass"), if legal.
    pub(super) fn passed(&self) -> Option<Chess> {
        self.pos.clone().swap_turn().ok()
    }

    /// The table's line from here, best moves for both sides, at most
    /// `max` plies.
    pub(super) fn line(&self, max: usize) -> (Vec<Move>, Chess) {
        let mut pos = self.pos.clone();
        let mut line = Vec::new();
        while line.len() < max {
            let Some(m) = self
                .tb
                .best_moves_chess(&pos)
                .and_then(|v| v.first().map(|x| x.0))
            else {
                break;
            };
            pos.play_unchecked(m);
            line.push(m);
        }
        (line, pos)
    }
}

/// A square's rank counted from `color`'s side, 1 to 8.
pub(super) fn rel_rank(color: Color, sq: Square) -> u32 {
    let r = u32::from(sq.rank());
    match color {
        Color::White => r + 1,
        Color::Black => 8 - r,
    }
}

pub(super) fn ordinal(n: u32) -> &'static str {
    [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    ]
    .get(n.saturating_sub(1) as usize)
    .copied()
    .unwrap_or("last")
}

pub(super) const CORNERS: [Square; 4] = [Square::A1, Square::H1, Square::A8, Square::H8];
