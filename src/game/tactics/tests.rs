//! Hand-picked positions for each motif, with the near misses that must
//! not count.

use super::*;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Square::*};

fn pos(fen: &str) -> Chess {
    let f: Fen = fen.parse().expect("test FEN");
    f.into_position(CastlingMode::Standard)
        .expect("legal test position")
}

fn mv(pos: &Chess, uci: &str) -> Move {
    let u: UciMove = uci.parse().expect("UCI");
    u.to_move(pos).expect("legal test move")
}

fn play(fen: &str, uci: &str) -> (Chess, Move, Chess) {
    let before = pos(fen);
    let m = mv(&before, uci);
    let mut after = before.clone();
    after.play_unchecked(m);
    (before, m, after)
}

#[test]
fn values_and_material() {
    assert_eq!(value(Role::Pawn), 1);
    assert_eq!(value(Role::Queen), 9);
    assert!(value(Role::King) > value(Role::Queen) + 2 * value(Role::Rook));
    let start = Chess::default();
    assert_eq!(material(start.board(), Color::White), 39);
    assert_eq!(material_diff(start.board(), Color::Black), 0);
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_eq!(material_diff(p.board(), Color::White), 5);
}

#[test]
fn castling_lands_on_the_kings_square() {
    let p = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(dest(mv(&p, "e1g1")), G1);
    assert_eq!(dest(mv(&p, "e1c1")), C1);
    assert_eq!(dest(mv(&p, "a1a8")), A8);
}

#[test]
fn knight_forks_king_and_rook() {
    // The knight on c7 checks the king on e8 and attacks the rook on a8.
    let p = pos("r3k3/2N5/8/8/8/8/8/4K3 b - - 0 1");
    let f = fork(&p, C7).expect("a fork");
    assert_eq!(f.by, C7);
    let mut targets = f.targets.clone();
    targets.sort();
    assert_eq!(targets, [A8, E8]);
    // No other piece forks.
    assert_eq!(fork(&p, E1), None);
}

#[test]
fn defended_pawns_or_equal_pieces_are_no_fork() {
    // Two pawns, both defended: pawns never count.
    let p = pos("4k3/4p3/3p1p2/8/4N3/8/8/4K3 b - - 0 1");
    assert_eq!(fork(&p, E4), None);
    // Two bishops, defended and worth no more than the forking knight.
    let p = pos("4k3/4p3/3b1b2/8/4N3/8/8/4K3 b - - 0 1");
    assert_eq!(fork(&p, E4), None);
    // The same bishops undefended: a fork.
    let p = pos("4k3/8/3b1b2/8/4N3/8/8/4K3 b - - 0 1");
    assert!(fork(&p, E4).is_some());
    // Undefended knights, but one of them takes the forking knight.
    let p = pos("4k3/8/3n1n2/8/4N3/8/8/4K3 b - - 0 1");
    assert_eq!(fork(&p, E4), None);
}

#[test]
fn a_forking_piece_that_is_simply_taken_is_no_fork() {
    // As in the first fork, but the bishop on b8 takes the knight.
    let p = pos("rb2k3/2N5/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(fork(&p, C7), None);
}

#[test]
fn a_pinned_knight_cannot_take_the_queen() {
    let p = pos("4k3/4n3/8/3Q4/8/8/8/4R1K1 b - - 0 1");
    let found = pins(p.board(), Color::Black);
    assert_eq!(
        found,
        [Pin {
            pinned: E7,
            pinner: E1,
            king: E8
        }]
    );
    assert!(found[0].ray().contains(E4) && !found[0].ray().contains(D5));
    assert_eq!(
        pin_effect(p.board(), &found[0]),
        Some(PinEffect::CannotTake { target: D5 })
    );
    assert!(pin_ray(p.board(), E7).is_some());
    // Off the line the knight is free.
    let p = pos("4k3/3n4/8/3Q4/8/8/8/4R1K1 b - - 0 1");
    assert!(pins(p.board(), Color::Black).is_empty());
    assert_eq!(pin_ray(p.board(), D7), None);
}

#[test]
fn a_pinned_queen_cannot_escape_the_rook() {
    let p = pos("4k3/4q3/8/8/8/8/8/4R1K1 b - - 0 1");
    let found = pins(p.board(), Color::Black);
    assert_eq!(found.len(), 1);
    assert_eq!(
        pin_effect(p.board(), &found[0]),
        Some(PinEffect::CannotEscape { attacker: E1 })
    );
}

#[test]
fn a_harmless_pin_has_no_effect() {
    // The rook is pinned by a queen (worth more), is defended by its king
    // and attacks nothing off the line.
    let p = pos("4k3/4r3/8/8/8/8/8/4Q1K1 b - - 0 1");
    let found = pins(p.board(), Color::Black);
    assert_eq!(found.len(), 1);
    assert_eq!(pin_effect(p.board(), &found[0]), None);
    // A piece between its king and a friendly slider is not pinned.
    let p = pos("4k3/4r3/8/8/8/8/7K/4q3 b - - 0 1");
    assert!(pins(p.board(), Color::Black).is_empty());
}

#[test]
fn rook_skewers_king_and_rook() {
    let p = pos("8/8/8/8/R2k3r/8/8/6K1 b - - 0 1");
    assert_eq!(
        skewer(&p, A4),
        Some(Skewer {
            by: A4,
            front: D4,
            behind: H4
        })
    );
    // With the rook behind defended by a pawn, the king steps away and
    // nothing is won.
    let p = pos("8/8/8/6p1/R2k3r/8/8/6K1 b - - 0 1");
    assert_eq!(skewer(&p, A4), None);
    // A knight skewers nothing.
    let p = pos("8/8/8/8/N2k3r/8/8/6K1 w - - 0 1");
    assert_eq!(skewer(&p, A4), None);
}

#[test]
fn moving_the_knight_uncovers_the_rook() {
    let (before, m, after) = play("4k3/4q3/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4g5");
    assert_eq!(
        discovered_attacks(&before, m),
        [DiscoveredAttack { by: E1, target: E7 }]
    );
    assert!(!is_discovered_check(&after, m));
    // A move along the line uncovers nothing.
    let (before, m, _) = play("4k3/4q3/8/8/4R3/8/8/6K1 w - - 0 1", "e4e5");
    assert!(discovered_attacks(&before, m).is_empty());
}

#[test]
fn discovered_and_double_check() {
    let (_, m, after) = play("4k3/8/8/8/4B3/8/8/4R1K1 w - - 0 1", "e4d5");
    assert!(is_discovered_check(&after, m));
    assert!(!is_double_check(&after));
    let (_, m, after) = play("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4f6");
    assert!(is_discovered_check(&after, m));
    assert!(is_double_check(&after));
    // A direct check is not discovered.
    let (_, m, after) = play("4k3/8/8/8/8/8/8/3R2K1 w - - 0 1", "d1e1");
    assert!(!is_discovered_check(&after, m));
}

#[test]
fn back_rank_mate_needs_the_kings_own_pieces_in_front() {
    let (_, _, after) = play("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8");
    assert!(after.is_checkmate());
    assert!(is_back_rank_mate(&after));
    // g7 is empty and held by the bishop: mate on the back rank, but the
    // king is shut in by the attacker, not by its own pawns.
    let (_, _, after) = play("6k1/5p1p/8/8/8/8/1B6/R5K1 w - - 0 1", "a1a8");
    assert!(after.is_checkmate());
    assert!(!is_back_rank_mate(&after));
    // Not mate at all.
    let (_, _, after) = play("6k1/5pp1/8/8/8/8/8/R5K1 w - - 0 1", "a1a8");
    assert!(!is_back_rank_mate(&after));
}

#[test]
fn smothered_mate() {
    let p = pos("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1");
    assert!(p.is_checkmate());
    assert!(is_smothered_mate(&p));
    assert!(!is_back_rank_mate(&p));
    // A rook's back-rank mate is not smothered.
    let (_, _, after) = play("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8");
    assert!(!is_smothered_mate(&after));
}

#[test]
fn hanging_and_defended_pieces() {
    let p = pos("4k3/8/8/3n4/8/8/8/3RK3 b - - 0 1");
    assert_eq!(hanging(p.board(), Color::Black), [D5]);
    assert!(is_in_bad_spot(p.board(), D5));
    // Defended by a pawn: not hanging, and a rook taking it loses.
    let p = pos("4k3/8/4p3/3n4/8/8/8/3RK3 b - - 0 1");
    assert!(hanging(p.board(), Color::Black).is_empty());
    assert!(!is_in_bad_spot(p.board(), D5));
    assert_eq!(defenders(p.board(), D5), Bitboard::from_square(E6));
    assert_eq!(
        attackers(p.board(), D5, Color::White),
        Bitboard::from_square(D1)
    );
    // Defended through the attacker: the rook on d1 takes back on d5.
    let p = pos("4k3/8/8/3n4/8/3R4/8/3r2K1 w - - 0 1");
    assert!(is_defended(p.board(), D5));
    assert_eq!(hanging(p.board(), Color::Black), [D1]);
    // Defended, but attacked by a cheaper piece.
    let p = pos("4k3/8/4p3/3r4/2P5/8/8/4K3 b - - 0 1");
    assert!(is_defended(p.board(), D5));
    assert!(can_be_taken_by_lower_piece(p.board(), D5));
    assert!(is_in_bad_spot(p.board(), D5));
    assert_eq!(attacked_pieces(p.board(), C4), [(D5, Role::Rook)]);
}

#[test]
fn a_bishop_trapped_on_h2() {
    let p = pos("4k3/8/8/8/8/6P1/5P1b/4K2R b K - 0 1");
    assert!(is_trapped(&p, H2));
    // Without the f2 pawn the bishop escapes by taking on g3.
    let p = pos("4k3/8/8/8/8/6P1/7b/4K2R b K - 0 1");
    assert!(!is_trapped(&p, H2));
    // Only the side to move's pieces can be trapped.
    let p = pos("4k3/8/8/8/8/6P1/5P1b/4K2R w K - 0 1");
    assert!(!is_trapped(&p, H2));
}
