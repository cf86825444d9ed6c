//! The engine with endgame tablebases: our own DTM tables in the search and
//! at the root, and Syzygy tables (skipped, with the reason printed, when
//! the shared data directory is missing).
//!
//! Tables are generated once into a temporary directory (KQvK, KRvK, KPvK
//! with the tables promotions lead to, KBNvK, KRvKR, KBvKN: about 2 s in a
//! release build).

mod common;

use common::board;
use kibitz::engine::{
    Board, Engine, GamePosition, Level, Limits, MoveSource, NoObserver, NodeInfo, NodeKind, Score,
    SearchObserver, SearchReport,
};
use kibitz::tablebase::syzygy::SyzygyTables;
use kibitz::tablebase::{Material, Tablebases, Wdl};
use kibitz::util::Rng;
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, FromSetup, Piece, Position, Role, Setup, Square,
};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kibitz-tb-engine-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The tables of these tests, generated once.
fn tables() -> Arc<Tablebases> {
    static TB: OnceLock<Arc<Tablebases>> = OnceLock::new();
    TB.get_or_init(|| {
        let dir = temp_dir("shared");
        let mut tb = Tablebases::new(&dir);
        let names: Vec<Material> = ["KQvK", "KRvK", "KPvK", "KBNvK", "KRvKR", "KBvKN"]
            .iter()
            .map(|n| n.parse().unwrap())
            .collect();
        tb.ensure_many(&names, &mut |_| {}).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        Arc::new(tb)
    })
    .clone()
}

fn engine_with_tables() -> Engine {
    let mut e = Engine::default();
    e.set_tablebases(Some(tables()));
    e.seed(1);
    e
}

fn search(engine: &mut Engine, pos: &GamePosition, limits: &Limits) -> SearchReport {
    let stop = AtomicBool::new(false);
    engine.search(pos, limits, &stop, &mut NoObserver)
}

fn uci(m: shakmaty::Move) -> String {
    Board::uci(m)
}

/// A random legal position of White's `pieces` against a lone black king
/// (pawns on ranks 2-7), White to move.
fn random_position(rng: &mut Rng, pieces: &[Role]) -> Option<Chess> {
    let mut b = shakmaty::Board::empty();
    let mut used = Bitboard::EMPTY;
    let mut place = |rng: &mut Rng, piece: Piece, b: &mut shakmaty::Board| -> Option<()> {
        let sq = Square::new(rng.below(64) as u32);
        let rank = sq.rank() as u32;
        if used.contains(sq) || (piece.role == Role::Pawn && !(1..=6).contains(&rank)) {
            return None;
        }
        used.add(sq);
        b.set_piece_at(sq, piece);
        Some(())
    };
    place(rng, Color::White.king(), &mut b)?;
    place(rng, Color::Black.king(), &mut b)?;
    for &role in pieces {
        place(
            rng,
            Piece {
                color: Color::White,
                role,
            },
            &mut b,
        )?;
    }
    let mut setup = Setup::empty();
    setup.board = b;
    setup.turn = Color::White;
    setup.promoted = Bitboard::EMPTY;
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}

/// Plays the engine (White, depth 2, with `tb`) against the tables'
/// longest defence from the won `start` until mate: every engine move
/// must come from the tables with the right mate score, and no game may
/// outlast the tables' distance or end in stalemate. Returns the plies.
fn mate_against_tables(engine: &mut Engine, tb: &Tablebases, start: &Board) -> i32 {
    let probe = tb.probe(start).unwrap();
    let mut game = GamePosition::new(start.clone());
    let mut plies = 0;
    loop {
        let b = game.current().clone();
        if b.chess().legal_moves().is_empty() {
            assert!(
                b.in_check(),
                "{}: stalemate after {plies} plies",
                start.fen()
            );
            return plies;
        }
        assert!(
            plies < probe.dtm,
            "{}: no mate after {plies} plies (table: {})",
            start.fen(),
            probe.dtm
        );
        let left = tb.probe(&b).unwrap();
        let m = if b.turn() == Color::White {
            let r = search(engine, &game, &Limits::depth(2));
            assert_eq!(
                r.result.score,
                Score::mate_in(left.dtm as usize),
                "{}: score after {plies} plies",
                start.fen()
            );
            assert_eq!(r.source, MoveSource::Tablebase);
            r.best_move.unwrap()
        } else {
            tb.best_moves(&b).unwrap()[0].0
        };
        game.push(m);
        plies += 1;
    }
}

/// Plays the engine (White, `go depth 2`) against a defender that always
/// plays the tables' longest resistance, from `count` random won
/// positions of the material; every game must end in mate after exactly
/// the tables' distance, and every engine move must report it.
fn mates_in_exactly_the_table_distance(roles: &[Role], count: usize, seed: u64) {
    let tb = tables();
    let mut engine = engine_with_tables();
    let mut rng = Rng::new(seed);
    let mut done = 0;
    let mut total_plies = 0;
    while done < count {
        let Some(start) = random_position(&mut rng, roles) else {
            continue;
        };
        let start = Board::from_chess(start);
        let probe = tb.probe(&start).unwrap();
        // Won, and not a mate in one (those prove little).
        if probe.wdl != Wdl::Win || probe.dtm < 3 {
            continue;
        }
        done += 1;
        engine.new_game();
        let plies = mate_against_tables(&mut engine, &tb, &start);
        assert_eq!(plies, probe.dtm, "{}", start.fen());
        total_plies += plies;
    }
    eprintln!("{roles:?}: {count} mates, {total_plies} plies");
}

#[test]
fn kqk_mates_in_exactly_the_table_distance() {
    mates_in_exactly_the_table_distance(&[Role::Queen], 20, 1);
}

#[test]
fn krk_mates_in_exactly_the_table_distance() {
    mates_in_exactly_the_table_distance(&[Role::Rook], 20, 2);
}

#[test]
fn kpk_mates_in_exactly_the_table_distance() {
    mates_in_exactly_the_table_distance(&[Role::Pawn], 20, 3);
}

#[test]
fn kbnk_mates_in_exactly_the_table_distance() {
    mates_in_exactly_the_table_distance(&[Role::Bishop, Role::Knight], 5, 4);
}

/// Counts the nodes the observer sees as tablebase leaves.
#[derive(Default)]
struct TbLeaves {
    enters: u64,
    leaves: u64,
    tb: u64,
}

impl SearchObserver for TbLeaves {
    const NODE_EVENTS: bool = true;
    fn enter(&mut self, node: &NodeInfo<'_>) {
        self.enters += 1;
        if node.kind == NodeKind::Tablebase {
            self.tb += 1;
            assert!(node.occupied.count() <= 4);
        }
    }
    fn leave(&mut self, _ply: usize, _score: Score, _bound: kibitz::engine::Bound) {
        self.leaves += 1;
    }
}

#[test]
fn a_capture_into_a_won_ending_beyond_the_horizon_is_scored_exactly() {
    // Five pieces (no root probe): Bxe4 wins the last pawn, and KBNvK is
    // then a long mate, far beyond a 4-ply search.
    let fen = "7k/8/8/8/4p3/3B1N2/8/4K3 w - - 0 1";
    let root = board(fen);
    let tb = tables();
    let after = tb
        .probe(&root.play(root.parse_uci("d3e4").unwrap()))
        .unwrap();
    assert_eq!(after.wdl, Wdl::Loss);
    let mate = Score::mate_in(1 + after.dtm.unsigned_abs() as usize);
    assert!(after.dtm <= -20, "the mate should be long: {after:?}");

    let pos = GamePosition::new(root.clone());
    let limits = Limits::depth(4);
    let mut with = engine_with_tables();
    let stop = AtomicBool::new(false);
    let mut obs = TbLeaves::default();
    let r = with.search(&pos, &limits, &stop, &mut obs);
    assert_eq!(r.best_move.map(uci).as_deref(), Some("d3e4"));
    assert_eq!(r.result.score, mate, "{}", r.result.score);
    assert_eq!(r.source, MoveSource::Search);
    assert!(r.result.stats.tb_hits > 0);
    // The observer saw the table's leaves (a draw by repetition would come
    // first, but there is none here), and every node was left.
    assert_eq!(obs.enters, obs.leaves);
    // (A node the tables know may still end as a draw by the rules first.)
    assert!(obs.tb >= r.result.stats.tb_hits);

    let mut without = Engine::default();
    let r = search(&mut without, &pos, &limits);
    assert!(!r.result.score.is_mate(), "{}", r.result.score);
    assert_eq!(r.result.stats.tb_hits, 0);
}

#[test]
fn a_drawn_root_plays_a_drawing_move_with_score_zero() {
    let tb = tables();
    for (fen, must_avoid) in [
        // Only one move of seven draws.
        ("8/8/8/8/3k4/8/1r6/K2R4 b - - 0 1", 6),
        ("3k4/8/8/8/8/8/r7/2K1R3 w - - 0 1", 6),
        ("8/8/8/8/8/1k6/8/KBn5 w - - 0 1", 0),
    ] {
        let b = board(fen);
        let moves = tb.best_moves(&b).unwrap();
        assert_eq!(tb.probe(&b).unwrap().wdl, Wdl::Draw, "{fen}");
        assert_eq!(
            moves.iter().filter(|(_, p)| p.wdl != Wdl::Draw).count(),
            must_avoid,
            "{fen}"
        );
        for depth in [1, 6] {
            let mut e = engine_with_tables();
            let r = search(&mut e, &GamePosition::new(b.clone()), &Limits::depth(depth));
            let m = r.best_move.unwrap();
            let p = moves.iter().find(|(mv, _)| *mv == m).unwrap().1;
            assert_eq!(p.wdl, Wdl::Draw, "{fen}: {} loses", uci(m));
            assert_eq!(r.result.score, Score::DRAW, "{fen}");
            assert_eq!(r.source, MoveSource::Search);
            assert!(r.result.stats.tb_hits > 0);
        }
    }
}

#[test]
fn the_root_follows_the_tables_and_respects_searchmoves() {
    let tb = tables();
    // KQvK: the fastest mate, its distance, and a PV to mate.
    let b = board("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1");
    let mut e = engine_with_tables();
    let r = search(&mut e, &GamePosition::new(b.clone()), &Limits::depth(1));
    assert_eq!(r.result.score, Score::mate_in(19));
    assert_eq!(r.result.pv.len(), 19);
    let mut end = b.clone();
    for &m in &r.result.pv {
        assert!(end.is_legal(m));
        end = end.play(m);
    }
    assert!(end.in_check() && end.chess().legal_moves().is_empty());
    // The defender: the longest resistance.
    let b = board("8/8/8/5k2/8/8/1Q6/K7 b - - 0 1");
    let r = search(&mut e, &GamePosition::new(b.clone()), &Limits::depth(1));
    let best = tb.best_moves(&b).unwrap()[0].1;
    assert_eq!(
        r.result.score,
        Score::mated_in(best.dtm.unsigned_abs() as usize)
    );
    let after = tb.probe(&b.play(r.best_move.unwrap())).unwrap();
    assert_eq!(after.dtm, -best.dtm - 1);

    // searchmoves: the best of the moves given, even when they throw the
    // win away.
    let b = board("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1");
    let hang = b.parse_uci("b2f6").unwrap();
    let quiet = b.parse_uci("a1a2").unwrap();
    let limits = Limits {
        searchmoves: vec![hang, quiet],
        ..Limits::depth(3)
    };
    let r = search(&mut e, &GamePosition::new(b.clone()), &limits);
    let expect = tb.probe(&b.play(quiet)).unwrap();
    assert_eq!(r.best_move, Some(quiet));
    assert_eq!(r.source, MoveSource::Tablebase);
    assert_eq!(
        r.result.score,
        Score::mate_in(expect.dtm.unsigned_abs() as usize + 1)
    );
    let limits = Limits {
        searchmoves: vec![hang],
        ..Limits::depth(3)
    };
    let r = search(&mut e, &GamePosition::new(b.clone()), &limits);
    assert_eq!(r.best_move, Some(hang));
    assert_eq!(r.result.score, Score::DRAW);

    // MultiPV: the lines in the tables' order, with their own distances.
    let mut e = engine_with_tables();
    e.set_multipv(3);
    let r = search(&mut e, &GamePosition::new(b.clone()), &Limits::depth(1));
    let moves = tb.best_moves(&b).unwrap();
    assert_eq!(r.result.lines.len(), 3);
    for (line, (m, p)) in r.result.lines.iter().zip(&moves) {
        assert_eq!(line.pv[0], *m);
        assert_eq!(line.score, Score::mate_in(p.dtm as usize));
    }
}

#[test]
fn weaker_levels_keep_their_search() {
    // Below full strength the root is searched (with the level's blind
    // spots and noise); the tables still answer inside the search.
    // The search's score is then exact from the tables one ply down: the
    // winner's children (the loser to move) and the loser's children.
    let tb = tables();
    for fen in [
        "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1",
        "8/8/8/5k2/8/8/1Q6/K7 b - - 0 1",
        "8/8/8/8/3k4/8/1r6/K2R4 b - - 0 1",
    ] {
        let b = board(fen);
        let best = tb.best_moves(&b).unwrap()[0].1;
        let exact = match best.wdl {
            Wdl::Win => Score::mate_in(best.dtm as usize),
            Wdl::Loss => Score::mated_in(best.dtm.unsigned_abs() as usize),
            Wdl::Draw => Score::DRAW,
        };
        for level in 1..=7 {
            let mut e = engine_with_tables();
            e.set_level(Level::new(level).unwrap());
            let r = search(&mut e, &GamePosition::new(b.clone()), &Limits::depth(3));
            assert_ne!(r.source, MoveSource::Tablebase, "level {level}");
            assert!(r.result.stats.tb_hits > 0, "level {level}");
            // Levels 1-5 overlook some moves, so they may miss the best
            // line; levels 6 and 7 see every move and score it exactly.
            if level >= 6 {
                assert_eq!(r.result.score, exact, "{fen} level {level}");
            }
        }
    }
}

#[test]
fn without_tables_nothing_changes() {
    // The same search with and without (unused) tables: same nodes.
    let b = board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let pos = GamePosition::new(b);
    let plain = search(&mut Engine::default(), &pos, &Limits::depth(7));
    let with = search(&mut engine_with_tables(), &pos, &Limits::depth(7));
    assert_eq!(plain.result.stats.nodes, with.result.stats.nodes);
    assert_eq!(plain.best_move, with.best_move);
    assert_eq!(with.result.stats.tb_hits, 0);
}

/// The Syzygy tables of the shared data directory, or `None` (with the
/// reason printed).
fn syzygy_dir() -> Option<PathBuf> {
    let dir = common::shared_data("Syzygy tables")?.join("syzygy");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: {} is missing", dir.display());
        None
    }
}

#[test]
fn syzygy_keeps_the_win_and_scores_captures() {
    let Some(dir) = syzygy_dir() else {
        return;
    };
    let path = dir.to_str().unwrap();
    let mut e = Engine::default();
    let n = e.set_syzygy_path(path).unwrap();
    assert!(n >= 20, "{n} WDL tables");
    let sz = e.syzygy().unwrap();
    assert_eq!(sz.max_pieces(), 4);
    assert!(sz.preloaded_bytes() > 0);
    let reference = SyzygyTables::open(path).unwrap();

    // KQvKR, White to move wins: play 12 plies against the tables' best
    // defence; every engine move keeps the win.
    let start = board("8/8/8/2k5/8/6r1/8/K6Q w - - 0 1");
    let mut game = GamePosition::new(start);
    for ply in 0..12 {
        let b = game.current().clone();
        if b.chess().legal_moves().is_empty() {
            break;
        }
        let m = if ply % 2 == 0 {
            let r = search(&mut e, &game, &Limits::depth(6));
            assert!(r.result.score.is_proven_win(), "{}", r.result.score);
            assert!(r.result.stats.tb_hits > 0);
            r.best_move.unwrap()
        } else {
            reference
                .rank_root_moves(b.chess(), &[])
                .unwrap()
                .first()
                .unwrap()
                .mv
        };
        let after = b.play(m);
        if ply % 2 == 0 && !after.chess().is_checkmate() {
            let dtz = reference.probe_dtz(after.chess()).unwrap();
            let wdl = shakmaty_syzygy::AmbiguousWdl::from_dtz_and_halfmoves(dtz, after.halfmoves());
            assert_eq!(
                wdl.after_zeroing(),
                shakmaty_syzygy::Wdl::Loss,
                "{} after {}",
                b.fen(),
                uci(m)
            );
        }
        game.push(m);
    }

    // In the search: a 5-piece position whose capture leads into a Syzygy
    // win gets a tablebase-win score (no mate score: WDL has no distance).
    let b = board("7k/8/8/8/4p3/3B1N2/8/4K3 w - - 0 1");
    let r = search(&mut e, &GamePosition::new(b), &Limits::depth(4));
    assert_eq!(r.best_move.map(uci).as_deref(), Some("d3e4"));
    assert!(r.result.score.is_tb_result(), "{}", r.result.score);
    assert_eq!(r.result.score, Score::tb_win_in(1));

    // A drawn root (KRvKR): a drawing move, score 0.
    let b = board("8/8/8/8/3k4/8/1r6/K2R4 b - - 0 1");
    let r = search(&mut e, &GamePosition::new(b.clone()), &Limits::depth(5));
    let child = b.play(r.best_move.unwrap());
    assert_eq!(
        reference.probe_wdl_after_zeroing(child.chess()),
        Some(shakmaty_syzygy::Wdl::Draw),
        "{}",
        uci(r.best_move.unwrap())
    );
    assert_eq!(r.result.score, Score::DRAW);

    // Own tables come first when both know the position.
    e.set_tablebases(Some(tables()));
    let b = board("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1");
    let r = search(&mut e, &GamePosition::new(b), &Limits::depth(2));
    assert_eq!(r.result.score, Score::mate_in(19));

    // Switching off.
    assert_eq!(e.set_syzygy_path("").unwrap(), 0);
    assert!(e.syzygy().is_none());
    assert!(e.set_syzygy_path("/no/such/dir/for/kibitz").is_err());
    assert!(e.syzygy().is_none());
}

#[test]
fn shared_loader_loads_once_in_the_background() {
    // The process-wide loader: a directory of tables is loaded once; the
    // engine uses them when they are ready.
    let dir = temp_dir("loader");
    let mut tb = Tablebases::new(&dir);
    tb.ensure(&"KQvK".parse().unwrap(), &mut |_| {}).unwrap();
    let loader = kibitz::tablebase::shared_loader();
    assert!(loader.start(Some(dir.clone())));
    // Only the first call of the process does anything.
    assert!(!loader.start(Some(PathBuf::from("/elsewhere"))));
    let loaded = loader.wait().expect("tables loaded");
    assert!(loader.is_done());
    assert_eq!(loaded.count, 1);
    assert_eq!(loaded.tables.dir(), dir.as_path());
    let mut e = Engine::default();
    e.set_tablebases(Some(loaded.tables.clone()));
    let r = search(
        &mut e,
        &GamePosition::new(board("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1")),
        &Limits::depth(1),
    );
    assert_eq!(r.result.score, Score::mate_in(19));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The engine with five-piece tables (read block by block from their
/// files): from the Lucena position it mates in exactly the table's
/// distance against the table's longest defence, reporting the right mate
/// score at every move. Needs KRPvKR and its four five-piece sub-tables
/// (minutes to make): `KIBITZ_TB_DIR=<dir> cargo test --release --test
/// engine_tablebase -- --ignored five` (made there if missing, and kept).
#[test]
#[ignore = "needs KRPvKR and its sub-tables (minutes to generate)"]
fn five_piece_tables_in_the_search_mate_from_the_lucena_position() {
    let dir = std::env::var_os("KIBITZ_TB_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/lesson-tables"));
    let mut tb = Tablebases::new(&dir);
    let m: Material = "KRPvKR".parse().unwrap();
    tb.ensure_many(&[m], &mut |_| {}).unwrap();
    let tb = Arc::new(tb);
    let mut engine = Engine::default();
    engine.set_tablebases(Some(tb.clone()));
    let start = board("3K4/3P1k2/8/8/8/8/2r5/4R3 w - - 0 1");
    let probe = tb.probe(&start).unwrap();
    assert_eq!((probe.wdl, probe.dtm), (Wdl::Win, 37));
    let plies = mate_against_tables(&mut engine, &tb, &start);
    assert_eq!(plies, probe.dtm);
}
