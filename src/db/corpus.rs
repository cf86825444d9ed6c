//! A reproducible test corpus: games made up from a seed, fast, with the
//! shape of a real collection (a few popular openings reached by many
//! move orders, then games that part ways; players with ratings who meet
//! many times; a few games from a set-up position, with comments and
//! variations). Not good chess: a stand-in of the right size and form
//! for measuring and checking the index, made by one command instead of
//! kept in git.

use crate::util::Rng;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position, Role, Square};
use std::io::{self, Write};

#[derive(Clone, Debug)]
pub struct CorpusOptions {
    pub games: usize,
    pub seed: u64,
    /// Players in the pool.
    pub players: usize,
}

const FIRST: [&str; 24] = [
    "Anna", "Boris", "Carla", "David", "Elena", "Farid", "Greta", "Hikaru", "Irina", "Jonas",
    "Kira", "Levon", "Maia", "Nikolai", "Olga", "Pavel", "Qiu", "Rustam", "Sofia", "Tigran",
    "Ulla", "Viktor", "Wen", "Yusuf",
];
const LAST: [&str; 24] = [
    "Adams", "Bauer", "Costa", "Dubov", "Eriksen", "Fischer", "Gelfand", "Horvath", "Ivanov",
    "Jensen", "Kovacs", "Larsen", "Morozov", "Nowak", "Olsen", "Petrov", "Quinn", "Rossi",
    "Schmidt", "Tal", "Ueda", "Varga", "Weber", "Zhukov",
];

struct Player {
    name: String,
    rating: u16,
}

/// Writes `opts.games` games as PGN.
pub fn write_corpus(out: &mut dyn Write, opts: &CorpusOptions) -> io::Result<()> {
    let mut rng = Rng::new(opts.seed);
    let players: Vec<Player> = (0..opts.players.max(2))
        .map(|i| Player {
            name: format!(
                "{}, {}{}",
                LAST[rng.below(LAST.len())],
                FIRST[rng.below(FIRST.len())],
                if i >= 300 {
                    format!(" {}", i / 300)
                } else {
                    String::new()
                }
            ),
            rating: 1000 + rng.below(1800) as u16,
        })
        .collect();
    let mut text = String::with_capacity(4096);
    for g in 0..opts.games {
        text.clear();
        game(&mut rng, &players, g, &mut text);
        out.write_all(text.as_bytes())?;
    }
    Ok(())
}

fn game(rng: &mut Rng, players: &[Player], g: usize, text: &mut String) {
    use std::fmt::Write as _;
    let w = rng.below(players.len());
    let mut b = rng.below(players.len() - 1);
    if b >= w {
        b += 1;
    }
    let (white, black) = (&players[w], &players[b]);
    let mut pos = Chess::default();
    let from_fen = rng.below(50) == 0;
    if from_fen {
        for _ in 0..6 + rng.below(6) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    let start = pos.clone();
    // How far from its favourite moves a game strays: the lower rated
    // players, further.
    let mean = (u32::from(white.rating) + u32::from(black.rating)) / 2;
    let noise = 12.0 + (2800 - mean.min(2800)) as f64 / 40.0;
    let limit = 30 + rng.below(150);
    let mut moves: Vec<(Move, String)> = Vec::new();
    let mut scores: Vec<f64> = Vec::new();
    while moves.len() < limit {
        let legal = pos.legal_moves();
        if legal.is_empty() || pos.is_insufficient_material() || pos.halfmoves() >= 100 {
            break;
        }
        let key = super::position_key(&pos);
        scores.clear();
        scores.extend(
            legal
                .iter()
                .map(|m| score(&pos, key, m) + noise * gumbel(rng)),
        );
        let best = (0..legal.len())
            .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
            .unwrap_or(0);
        let m = legal[best];
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string();
        moves.push((m, san));
    }
    let result = if pos.is_checkmate() {
        if pos.turn() == Color::White {
            "0-1"
        } else {
            "1-0"
        }
    } else if pos.is_game_over() || rng.below(100) < 22 {
        "1/2-1/2"
    } else {
        let diff = material(&pos, Color::White) - material(&pos, Color::Black)
            + (f64::from(white.rating) - f64::from(black.rating)) / 100.0
            + rng.unit() * 6.0
            - 3.0;
        if rng.below(40) == 0 {
            "*"
        } else if diff > 0.0 {
            "1-0"
        } else {
            "0-1"
        }
    };
    let year = 1990 + rng.below(36);
    let _ = writeln!(text, "[Event \"Kibitz corpus\"]");
    let _ = writeln!(text, "[Site \"?\"]");
    let _ = writeln!(
        text,
        "[Date \"{year}.{:02}.{:02}\"]",
        1 + rng.below(12),
        1 + rng.below(28)
    );
    let _ = writeln!(text, "[Round \"{}\"]", g % 11 + 1);
    let _ = writeln!(text, "[White \"{}\"]", white.name);
    let _ = writeln!(text, "[Black \"{}\"]", black.name);
    let _ = writeln!(text, "[Result \"{result}\"]");
    if rng.below(20) != 0 {
        let _ = writeln!(text, "[WhiteElo \"{}\"]", white.rating);
        let _ = writeln!(text, "[BlackElo \"{}\"]", black.rating);
    }
    if from_fen {
        let fen = shakmaty::fen::Fen::from_position(&start, shakmaty::EnPassantMode::Legal);
        let _ = writeln!(text, "[SetUp \"1\"]");
        let _ = writeln!(text, "[FEN \"{fen}\"]");
    }
    text.push('\n');
    let mut line = String::new();
    let mut scratch = start.clone();
    let annotate = rng.below(30) == 0;
    for (i, (m, san)) in moves.iter().enumerate() {
        let mut word = String::new();
        if scratch.turn() == Color::White || i == 0 {
            let n = scratch.fullmoves().get();
            let dots = if scratch.turn() == Color::White {
                "."
            } else {
                "..."
            };
            let _ = write!(word, "{n}{dots} ");
        }
        word.push_str(san);
        if annotate && i == 9 {
            // A comment and a variation, which the index must pass over.
            let alt = scratch
                .legal_moves()
                .iter()
                .find(|o| *o != m)
                .map(|o| SanPlus::from_move(scratch.clone(), *o).to_string());
            word.push_str(" { an idea }");
            if let Some(alt) = alt {
                let n = scratch.fullmoves().get();
                let dots = if scratch.turn() == Color::White {
                    "."
                } else {
                    "..."
                };
                let _ = write!(word, " ({n}{dots} {alt})");
            }
        }
        scratch.play_unchecked(*m);
        push_word(text, &mut line, &word);
    }
    push_word(text, &mut line, result);
    text.push_str(&line);
    text.push_str("\n\n");
}

fn push_word(text: &mut String, line: &mut String, word: &str) {
    if !line.is_empty() && line.len() + 1 + word.len() > 79 {
        text.push_str(line);
        text.push('\n');
        line.clear();
    }
    if !line.is_empty() {
        line.push(' ');
    }
    line.push_str(word);
}

fn value(r: Role) -> f64 {
    match r {
        Role::Pawn => 1.0,
        Role::Knight | Role::Bishop => 3.0,
        Role::Rook => 5.0,
        Role::Queen => 9.0,
        Role::King => 0.0,
    }
}

fn material(pos: &Chess, c: Color) -> f64 {
    pos.board()
        .by_color(c)
        .into_iter()
        .filter_map(|s| pos.board().role_at(s))
        .map(value)
        .sum()
}

/// A cheap liking for a move (centipawn-like): captures by value, no
/// piece left where a pawn takes it, the centre, development and castling
/// before rook and king walks, and a fixed taste per (position, move) so
/// that each position has favourites the games agree on.
fn score(pos: &Chess, key: u64, m: &Move) -> f64 {
    let us = pos.turn();
    let mut s = 0.0;
    if let Some(c) = m.capture() {
        s += 100.0 * value(c);
    }
    let to = m.to();
    let enemy_pawns = pos.board().pawns() & pos.board().by_color(!us);
    if (shakmaty::attacks::pawn_attacks(us, to) & enemy_pawns).any() && m.role() != Role::Pawn {
        s -= 95.0 * value(m.role());
    }
    let centre = |sq: Square| {
        let f = f64::from(u8::from(sq.file())) - 3.5;
        let r = f64::from(u8::from(sq.rank())) - 3.5;
        -(f * f + r * r)
    };
    let early = pos.fullmoves().get() < 12;
    s += 4.0 * (centre(to) - m.from().map_or(0.0, centre));
    let home =
        |sq: Square| sq.rank() == shakmaty::Rank::First || sq.rank() == shakmaty::Rank::Eighth;
    match m.role() {
        _ if m.is_castle() => s += 70.0,
        Role::Knight | Role::Bishop if m.from().is_some_and(home) => s += 35.0,
        Role::Pawn if early => {
            let file = u8::from(to.file());
            if (3..=4).contains(&file) {
                s += 30.0;
            } else if !(2..=5).contains(&file) {
                s -= 20.0;
            }
        }
        Role::Rook if early => s -= 60.0,
        Role::King => s -= 70.0,
        Role::Queen if early => s -= 35.0,
        _ => {}
    }
    let taste = key ^ u64::from(super::move_code(m)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let taste = (taste.wrapping_mul(0xBF58_476D_1CE4_E5B9) >> 40) as f64 / (1u64 << 24) as f64;
    s + 60.0 * taste
}

/// A standard Gumbel sample: argmax of score + Gumbel noise picks moves
/// with softmax odds.
fn gumbel(rng: &mut Rng) -> f64 {
    -(-(rng.unit().max(1e-12)).ln()).ln()
}
