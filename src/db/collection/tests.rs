use super::*;
use shakmaty::Position;
use shakmaty::san::San;

fn data(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kbx-coll-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn after(moves: &str) -> Chess {
    let mut pos = Chess::default();
    for san in moves.split_whitespace() {
        let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    pos
}

/// "SAN games" for each move from the position.
fn shown(c: &mut Collection, moves: &str) -> Vec<String> {
    c.moves(&after(moves))
        .unwrap()
        .moves
        .iter()
        .map(|m| format!("{} {}", m.san, m.stats.games()))
        .collect()
}

fn manifest(c: &Collection) -> &Manifest {
    &c.manifest
}

#[test]
fn a_file_that_grows_has_only_its_new_games_indexed() {
    let d = data("grow");
    let pgn = d.join("games.pgn");
    std::fs::write(&pgn, "1. e4 e5 1-0\n\n1. d4 d5 0-1\n\n").unwrap();
    let store = Store::new(&d);
    let mut c = store.file(&pgn, &mut |_, _| {}).unwrap();
    assert_eq!(shown(&mut c, ""), ["d4 1", "e4 1"]);
    // Appended games: a second segment, the first one's hash kept.
    let mut f = std::fs::OpenOptions::new().append(true).open(&pgn).unwrap();
    std::io::Write::write_all(&mut f, b"[Result \"1-0\"]\n\n1. e4 c5 1-0\n\n1. e4 Nc6 *\n")
        .unwrap();
    drop(f);
    let mut c = store.file(&pgn, &mut |_, _| {}).unwrap();
    assert_eq!(manifest(&c).segments.len(), 2);
    assert_eq!((c.games(), c.indexed()), (4, 4));
    assert_eq!(shown(&mut c, ""), ["e4 3", "d4 1"]);
    assert_eq!(shown(&mut c, "e4"), ["Nc6 1", "c5 1", "e5 1"]);
    // A file read while being written, cut inside a game: its next part
    // is not a game of its own, so the whole file is indexed again.
    std::fs::write(&pgn, "1. e4 e5 1-0\n\n1. d4 d5 2. c4").unwrap();
    let c = store.file(&pgn, &mut |_, _| {}).unwrap();
    assert_eq!(c.games(), 2);
    std::fs::write(&pgn, "1. e4 e5 1-0\n\n1. d4 d5 2. c4 e6 0-1\n").unwrap();
    let mut c = store.file(&pgn, &mut |_, _| {}).unwrap();
    assert_eq!(
        (manifest(&c).segments.len(), c.games(), c.bad_count()),
        (1, 2, 0)
    );
    assert_eq!(shown(&mut c, "d4 d5 c4"), ["e6 1"]);
    // An edit inside what was indexed: everything again.
    std::fs::write(
        &pgn,
        "1. c4 e5 1-0\n\n1. d4 d5 0-1\n\n1. e4 c5 1-0\n\n1. e4 Nc6 *\n",
    )
    .unwrap();
    let mut c = store.file(&pgn, &mut |_, _| {}).unwrap();
    assert_eq!(manifest(&c).segments.len(), 1);
    assert_eq!(shown(&mut c, ""), ["e4 2", "c4 1", "d4 1"]);
    // One run in the folder: the old ones are deleted once old enough to
    // be nobody's; here they are young, so at most the ones just made.
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn a_missing_file_is_an_error_and_keeps_the_index() {
    let d = data("missing");
    let pgn = d.join("games.pgn");
    std::fs::write(&pgn, "1. e4 e5 1-0\n").unwrap();
    let store = Store::new(&d);
    store.add(&pgn, &mut |_, _| {}).unwrap();
    let index = store.index_dir(&absolute(&pgn).unwrap());
    let before = std::fs::read(index.join("manifest.json")).unwrap();
    std::fs::rename(&pgn, d.join("moved.pgn")).unwrap();
    let err = store.file(&pgn, &mut |_, _| {}).err().unwrap();
    assert!(err.to_string().contains("cannot read"), "{err}");
    assert_eq!(std::fs::read(index.join("manifest.json")).unwrap(), before);
    // Listed still, and everything() says which file failed.
    assert_eq!(store.added().len(), 1);
    let (open, errors) = store.everything(&mut |_, _| {});
    assert_eq!((open.len(), errors.len()), (1, 1));
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn added_files_are_listed_removed_and_their_indexes_deleted() {
    let d = data("registry");
    let a = d.join("a.pgn");
    let b = d.join("b.pgn");
    std::fs::write(&a, "1. e4 e5 1-0\n").unwrap();
    std::fs::write(&b, "1. d4 d5 0-1\n").unwrap();
    let store = Store::new(&d);
    store.add(&a, &mut |_, _| {}).unwrap();
    store.add(&b, &mut |_, _| {}).unwrap();
    store.add(&a, &mut |_, _| {}).unwrap();
    assert_eq!(store.added().len(), 2);
    let (mut open, errors) = store.everything(&mut |_, _| {});
    assert!(errors.is_empty());
    let all = moves_in(&mut open, &Chess::default()).unwrap();
    assert_eq!(all.total.games(), 2);
    let index = store.index_dir(&absolute(&a).unwrap());
    assert!(index.is_dir());
    store.remove(&a).unwrap();
    assert!(!index.exists());
    assert_eq!(store.added().len(), 1);
    assert!(matches!(store.remove(&a), Err(DbError::NotAdded { .. })));
    assert!(a.exists(), "the PGN file stays");
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn my_games_follow_the_games_folder() {
    let d = data("mine");
    let games = d.join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::write(games.join("1.pgn"), "[Result \"1-0\"]\n\n1. e4 e5 1-0\n").unwrap();
    let store = Store::new(&d);
    let mut c = store.my_games(&mut |_, _| {}).unwrap();
    assert_eq!(c.name, MY_GAMES);
    assert_eq!(shown(&mut c, ""), ["e4 1"]);
    // A new game: merged in.
    std::fs::write(games.join("2.pgn"), "1. d4 d5 *").unwrap();
    let mut c = store.my_games(&mut |_, _| {}).unwrap();
    assert_eq!(shown(&mut c, ""), ["d4 1", "e4 1"]);
    // A game that changed (an autosave going on): all again.
    std::fs::write(games.join("2.pgn"), "1. c4 c5 2. Nc3 *").unwrap();
    let mut c = store.my_games(&mut |_, _| {}).unwrap();
    assert_eq!(shown(&mut c, ""), ["c4 1", "e4 1"]);
    // A Crazyhouse game is left out, not reported as bad.
    std::fs::write(
        games.join("3.pgn"),
        "[Variant \"Crazyhouse\"]\n\n1. e4 e5 *",
    )
    .unwrap();
    let c = store.my_games(&mut |_, _| {}).unwrap();
    assert_eq!((c.other_variants(), c.bad_count()), (1, 0));
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn a_damaged_index_is_built_again() {
    let d = data("damaged");
    let pgn = d.join("games.pgn");
    std::fs::write(&pgn, "1. e4 e5 1-0\n").unwrap();
    let store = Store::new(&d);
    let c = store.file(&pgn, &mut |_, _| {}).unwrap();
    let run = store
        .index_dir(&absolute(&pgn).unwrap())
        .join(&c.manifest.run);
    drop(c);
    std::fs::write(&run, b"garbage").unwrap();
    // The manifest names a run that does not open: an error, not a panic.
    assert!(store.file(&pgn, &mut |_, _| {}).is_err());
    std::fs::remove_file(&run).unwrap();
    // A manifest whose run is gone: indexed again.
    let mut c = store.file(&pgn, &mut |_, _| {}).unwrap();
    assert_eq!(shown(&mut c, ""), ["e4 1"]);
    std::fs::remove_dir_all(d).unwrap();
}
