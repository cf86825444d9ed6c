//! `kibitz opening`: names the opening of moves (SAN or UCI, numbered or
//! not) or of a FEN; bad input is an error naming the move, exit status 2.

mod common;

use common::{kibitz, stderr_of, stdout_of};

#[test]
fn names_moves_and_positions() {
    let berlin = "C65 Ruy Lopez: Berlin Defense\n";
    for moves in [
        "e4 e5 Nf3 Nc6 Bb5 Nf6",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6",
        "e2e4 e7e5 g1f3 b8c6 f1b5 g8f6",
    ] {
        let o = kibitz(&["opening", "--moves", moves]);
        assert!(o.status.success(), "{moves}: {}", stderr_of(&o));
        assert_eq!(stdout_of(&o), berlin, "{moves}");
    }
    // The position after the Berlin's moves, as a FEN.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let o = kibitz(&["opening", "--fen", fen]);
    assert_eq!(stdout_of(&o), berlin, "{}", stderr_of(&o));
    let o = kibitz(&["opening", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]);
    assert!(o.status.success());
    assert_eq!(stdout_of(&o), "unknown\n");
}

#[test]
fn bad_moves_and_fens_exit_with_status_2() {
    let o = kibitz(&["opening", "--moves", "e4 e5 Nf3 Nc6 Bb6"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout_of(&o).is_empty());
    let err = stderr_of(&o);
    assert!(err.contains("move 3. Bb6:"), "{err}");
    // Ambiguous: either knight can go to d2.
    let o = kibitz(&["opening", "--moves", "1. Nf3 e6 2. d4 d6 3. Nd2"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr_of(&o);
    assert!(err.contains("3. Nd2") && err.contains("ambiguous"), "{err}");
    let o = kibitz(&["opening", "--fen", "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr_of(&o).contains("bad FEN"), "{}", stderr_of(&o));
}
