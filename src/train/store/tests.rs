use super::schedule::DAY;
use super::*;
use crate::train::puzzle::read_csv;

/// Twelve Lichess puzzles, rated 399 to 1430.
const CSV: &str = "\
01ig0,5kn1/5p2/2R2Pp1/1p4r1/1P1P4/r7/3R3K/8 b - - 0 37,g5f5 c6c8,399,91,100,237,endgame mate mateIn1 oneMove,https://lichess.org/hvP3GzUB/black#74,,
00Xn1,3r2k1/5pp1/2p3np/2b5/1p2P1b1/1BN3B1/1PP3PP/4KR2 w - - 0 21,c3a4 d8d1,555,86,100,345,master mate mateIn1 middlegame oneMove operaMate pillsburysMate,https://lichess.org/GK88IOTY#41,,
05smX,5rk1/1pp3p1/p2p3p/3q4/4P3/1P4Q1/P1P2rPP/5RK1 w - - 0 24,e4d5 f2f1,653,86,100,45,endgame master mate mateIn1 oneMove queenRookEndgame,https://lichess.org/CBY0kwou#47,,
08Tsx,5r1k/3Q1pp1/p6p/8/1p2P1Pn/2bB3b/2P2P1P/6KR w - - 1 30,d7e7 h4f3,758,90,100,400,mate mateIn1 middlegame oneMove,https://lichess.org/uuzLC1WR#59,,
03X0O,8/R7/3p2p1/2pPb1kp/P7/r6P/6P1/2R4K w - - 0 48,c1c4 a3a1 c4c1 a1c1,842,87,100,62,endgame mate mateIn2 short,https://lichess.org/pUtcmiTb#95,,
058Jw,4r1k1/q4pp1/b1pR3p/p4B2/2PnQ3/1PN4P/P4PP1/6K1 b - - 1 24,e8e4 d6d8 e4e8 d8e8,903,77,100,139,kingsideAttack mate mateIn2 middlegame short,https://lichess.org/jXBrQwn5/black#48,,
015fL,8/R7/p1p4P/1p6/1P6/2kP4/3N3r/1K6 w - - 0 50,b1c1 h2h1 d2f1 h1f1,947,75,100,297,endgame mate mateIn2 short,https://lichess.org/jrrGqPUC#99,,
05zc8,3R4/p7/3b4/5kp1/P2P4/1P4PK/1r5P/8 w - - 0 42,d8d6 g5g4 h3h4 b2h2,989,78,100,187,deflection endgame mate mateIn2 rookEndgame short,https://lichess.org/klX1eHhl#83,,
06wjM,r5r1/p4pnk/4P3/1pp2pR1/2p4P/2K1PN2/PP6/6R1 b - - 0 32,g7e6 g5h5,1072,76,100,788,endgame master mate mateIn1 oneMove,https://lichess.org/GGmnfCNe/black#64,,
08VCP,8/8/1B2b1k1/p6p/PbP5/1P4K1/8/3B4 w - - 4 42,g3h4 b4e1 b6f2 e1f2,1144,77,100,139,bishopEndgame endgame mate mateIn2 short,https://lichess.org/C40J2bll#83,,
09IbS,8/8/R6p/7k/6p1/2r4P/6PK/3R4 w - - 0 34,d1d6 g4g3 h2g1 c3c1 d6d1 c1d1,1237,76,100,289,endgame long mate mateIn3 rookEndgame,https://lichess.org/7GiJMWyV#67,,
09ebA,r3r1k1/1ppb1pp1/p3qP1p/2p5/2P1P3/8/PBP1Q1PP/3R1RK1 w - - 1 19,f1f5 e6f5 e4f5 e8e2,1430,76,100,1228,advantage discoveredAttack middlegame short,https://lichess.org/0mWlF1tP#37,,
";

/// A Monday at noon, 2026-11-23 (Unix seconds).
const T0: u64 = 1_795_435_200;

fn sample() -> Vec<Puzzle> {
    let r = read_csv(CSV);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.puzzles.len(), 12);
    r.puzzles
}

/// A fresh, empty folder for one test.
fn folder(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kibitz-store-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn journal_of(dir: &Path) -> PathBuf {
    dir.join(journal::FILE)
}

#[test]
fn importing_twice_adds_nothing_and_bad_puzzles_are_refused() {
    let mut s = Store::in_memory();
    let first = s.import(sample(), Source::Lichess).expect("in memory");
    assert_eq!((first.added, first.already), (12, 0));
    assert!(first.invalid.is_empty());
    let again = s.import(sample(), Source::Made).expect("in memory");
    assert_eq!((again.added, again.already), (0, 12));
    assert_eq!(s.len(), 12);
    assert_eq!(s.source("01ig0"), Some(Source::Lichess), "the first stays");

    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let illegal = Puzzle::new("bad1", start, vec!["e2e5".into(), "e7e5".into()]);
    let fine = Puzzle::new("ok1", start, vec!["e2e4".into(), "e7e5".into()]);
    let nameless = Puzzle::new("", start, vec!["e2e4".into(), "e7e5".into()]);
    let r = s
        .import(vec![illegal, fine.clone(), fine, nameless], Source::Made)
        .expect("in memory");
    assert_eq!((r.added, r.already), (1, 1));
    let refused: Vec<&str> = r.invalid.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(refused, ["bad1", ""]);
    assert_eq!(s.len(), 13);
    assert!(s.puzzle("bad1").is_none());
    assert_eq!(s.source("ok1"), Some(Source::Made));
}

#[test]
fn only_first_attempts_at_rated_puzzles_move_the_rating() {
    let mut s = Store::in_memory();
    s.import(sample(), Source::Lichess).expect("in memory");
    let o = s.record("09ebA", true, T0).expect("stored");
    assert_eq!(o.before, Rating::NEW);
    assert!(
        o.after.rating > 1500.0 && o.after.deviation < 500.0,
        "{o:?}"
    );
    assert_eq!(s.rating(), o.after);
    assert_eq!(o.next_due, None, "solved at once: never repeated");

    let o2 = s.record("09ebA", false, T0 + 60).expect("stored");
    assert_eq!(o2.after, o2.before, "a replay is not rated");
    assert_eq!(o2.next_due, Some(T0 + 60 + DAY));

    let lost = s.record("01ig0", false, T0 + 120).expect("stored");
    assert!(lost.after.rating < lost.before.rating);

    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let m = Puzzle::new("mine", start, vec!["e2e4".into(), "e7e5".into()]);
    s.import(vec![m], Source::Mistake).expect("in memory");
    let o3 = s.record("mine", false, T0 + 180).expect("stored");
    assert_eq!(o3.after, o3.before, "a mistake is not rated");

    let h: Vec<(&str, bool)> = s
        .history()
        .iter()
        .map(|a| (a.id.as_str(), a.solved))
        .collect();
    assert_eq!(
        h,
        [
            ("09ebA", true),
            ("09ebA", false),
            ("01ig0", false),
            ("mine", false)
        ]
    );
    assert_eq!(s.history()[3].rating_after, lost.after.rating);
    assert!(matches!(
        s.record("nope", true, T0),
        Err(StoreError::Unknown(_))
    ));
}

#[test]
fn idle_weeks_widen_the_deviation_before_the_next_rated_puzzle() {
    let play = |gap: u64| {
        let mut s = Store::in_memory();
        s.import(sample(), Source::Lichess).expect("in memory");
        for (k, id) in ["01ig0", "00Xn1", "05smX", "08Tsx", "03X0O"]
            .iter()
            .enumerate()
        {
            s.record(id, true, T0 + k as u64 * 60).expect("stored");
        }
        s.record("09ebA", false, T0 + 300 + gap).expect("stored")
    };
    let (soon, late) = (play(0), play(200 * DAY));
    assert_eq!(soon.before, late.before);
    // More doubt about the rating: the loss counts for more.
    assert!(late.after.rating < soon.after.rating, "{soon:?} {late:?}");
}

#[test]
fn failed_puzzles_come_back_on_schedule_and_first() {
    let mut s = Store::in_memory();
    s.import(sample(), Source::Lichess).expect("in memory");
    let o = s.record("05zc8", false, T0).expect("stored");
    assert_eq!(o.next_due, Some(T0 + DAY));
    assert_eq!(s.due(T0 + DAY - 1), 0);
    assert_eq!(s.due(T0 + DAY), 1);
    assert_eq!(s.due_at("05zc8"), Some(T0 + DAY));
    s.record("06wjM", true, T0 + 10).expect("stored");

    let mut at = T0 + DAY;
    let mut waits = Vec::new();
    loop {
        let p = s.next(&Filter::default(), at, 7).expect("a puzzle");
        assert_eq!(p.id, "05zc8", "the due repeat comes first");
        let o = s.record("05zc8", true, at).expect("stored");
        let Some(due) = o.next_due else { break };
        waits.push((due - at) / DAY);
        // Something else in between, so the repeat is not the one just played.
        let other = s
            .next(&Filter::default(), due, 1)
            .expect("unseen")
            .id
            .clone();
        assert_ne!(other, "05zc8");
        s.record(&other, true, due).expect("stored");
        at = due + 3600;
    }
    assert_eq!(waits, [3, 7, 15, 30]);
    assert_eq!(s.due(u64::MAX), 0, "learnt");

    // Failing a repeat starts it over.
    s.record("06wjM", false, at).expect("stored");
    let o = s.record("06wjM", true, at + DAY).expect("stored");
    assert_eq!(o.next_due, Some(at + 4 * DAY));
    let o = s.record("06wjM", false, at + 4 * DAY).expect("stored");
    assert_eq!(o.next_due, Some(at + 5 * DAY));
}

#[test]
fn next_chooses_near_the_rating_within_the_filter() {
    let mut s = Store::in_memory();
    s.import(sample(), Source::Lichess).expect("in memory");
    // 1500 and nothing played: the ten nearest are all but the two lowest.
    for seed in 0..50 {
        let p = s.next(&Filter::default(), T0, seed).expect("a puzzle");
        assert!(p.rating >= 653, "{} at {}", p.id, p.rating);
    }
    let chosen: std::collections::HashSet<String> = (0..200)
        .filter_map(|seed| s.next(&Filter::default(), T0, seed).map(|p| p.id.clone()))
        .collect();
    assert!(chosen.len() > 5, "random among the nearest: {chosen:?}");

    let rook = Filter {
        theme: Some("ROOKENDGAME".into()),
        source: None,
    };
    for seed in 0..20 {
        let p = s.next(&rook, T0, seed).expect("two rook endings");
        assert!(["05zc8", "09IbS"].contains(&p.id.as_str()), "{}", p.id);
    }
    let made = Filter {
        theme: None,
        source: Some(Source::Made),
    };
    assert!(s.next(&made, T0, 0).is_none());

    // Both rook endings played: none unseen, none due.
    s.record("05zc8", true, T0).expect("stored");
    assert_eq!(s.next(&rook, T0, 0).map(|p| p.id.as_str()), Some("09IbS"));
    s.record("09IbS", true, T0).expect("stored");
    assert!(s.next(&rook, T0 + 100 * DAY, 0).is_none());
    // A failed one is due a day later, but not offered right after itself.
    s.record("09IbS", false, T0).expect("stored");
    assert!(s.next(&rook, T0 + 2 * DAY, 0).is_none());
    s.record("01ig0", true, T0).expect("stored");
    let p = s.next(&rook, T0 + 2 * DAY, 0).map(|p| p.id.as_str());
    assert_eq!(p, Some("09IbS"));
}

#[test]
fn mistakes_are_due_at_once_and_counted_like_failures() {
    let mut s = Store::in_memory();
    s.import(sample(), Source::Lichess).expect("in memory");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let m = Puzzle::new("mine", start, vec!["e2e4".into(), "e7e5".into()]);
    s.import(vec![m], Source::Mistake).expect("in memory");
    assert_eq!(s.due(T0), 1);
    assert_eq!(
        s.next(&Filter::default(), T0, 3).map(|p| p.id.as_str()),
        Some("mine")
    );
    let o = s.record("mine", true, T0).expect("stored");
    assert_eq!(o.next_due, Some(T0 + 3 * DAY));
}

#[test]
fn themes_are_counted_for_the_menu() {
    let mut s = Store::in_memory();
    s.import(sample(), Source::Lichess).expect("in memory");
    let t = s.themes();
    assert_eq!(t[0], ("mate".to_string(), 11));
    assert!(t.contains(&("rookEndgame".to_string(), 2)));
    assert!(t.contains(&("advantage".to_string(), 1)));
    s.record("05zc8", true, T0).expect("stored");
    s.record("09IbS", false, T0).expect("stored");
    let stats = s.theme_stats();
    let rook = stats
        .iter()
        .find(|x| x.theme == "rookEndgame")
        .expect("a theme");
    assert_eq!((rook.puzzles, rook.attempted, rook.solved), (2, 2, 1));
    assert_eq!(stats[0].attempted, 2);
}

#[test]
fn reopening_keeps_rating_history_and_schedule() {
    let dir = folder("reopen");
    let (rating, history) = {
        let mut s = Store::open(&dir).expect("a new store");
        assert!(s.is_empty() && s.warnings().is_empty());
        s.import(sample(), Source::Lichess).expect("written");
        for (k, id) in ["01ig0", "09ebA", "05zc8", "09ebA"].iter().enumerate() {
            s.record(id, k % 2 == 0, T0 + k as u64 * 100)
                .expect("written");
        }
        (s.rating(), s.history().to_vec())
    };
    let s = Store::open(&dir).expect("reopened");
    assert!(s.warnings().is_empty(), "{:?}", s.warnings());
    assert_eq!(s.len(), 12);
    assert_eq!(s.rating(), rating, "exactly, not recomputed");
    assert_eq!(s.history(), history);
    assert_eq!(s.due_at("09ebA"), Some(T0 + 300 + DAY));
    assert_eq!(s.puzzle("09IbS"), sample().iter().find(|p| p.id == "09IbS"));
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

#[test]
fn a_crash_mid_write_loses_only_the_record_being_written() {
    let dir = folder("crash");
    let rating_before_last = {
        let mut s = Store::open(&dir).expect("a new store");
        s.import(sample(), Source::Lichess).expect("written");
        s.record("01ig0", true, T0).expect("written");
        let r = s.record("08Tsx", false, T0 + 60).expect("written").after;
        s.record("09ebA", true, T0 + 120).expect("written");
        r
    };
    // Cut the last record in the middle, as a crash during its write would.
    let path = journal_of(&dir);
    let bytes = std::fs::read(&path).expect("written");
    let last_start = bytes[..bytes.len() - 1]
        .iter()
        .rposition(|&b| b == b'\n')
        .expect("lines")
        + 1;
    let cut = last_start + (bytes.len() - last_start) / 2;
    std::fs::write(&path, &bytes[..cut]).expect("cut");

    let mut s = Store::open(&dir).expect("opens despite the cut");
    assert_eq!(s.warnings().len(), 1, "{:?}", s.warnings());
    assert!(s.warnings()[0].contains("cut short"), "{:?}", s.warnings());
    assert_eq!(s.len(), 12);
    let ids: Vec<&str> = s.history().iter().map(|a| a.id.as_str()).collect();
    assert_eq!(ids, ["01ig0", "08Tsx"]);
    assert_eq!(s.rating(), rating_before_last);
    assert_eq!(
        std::fs::metadata(&path).expect("file").len(),
        last_start as u64
    );
    s.record("09ebA", false, T0 + 180).expect("appended");
    drop(s);

    let s = Store::open(&dir).expect("reopened");
    assert!(s.warnings().is_empty(), "{:?}", s.warnings());
    let h: Vec<(&str, bool)> = s
        .history()
        .iter()
        .map(|a| (a.id.as_str(), a.solved))
        .collect();
    assert_eq!(h, [("01ig0", true), ("08Tsx", false), ("09ebA", false)]);
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

#[test]
fn a_garbage_file_is_kept_aside_and_the_store_starts_empty() {
    let dir = folder("garbage");
    std::fs::create_dir_all(&dir).expect("folder");
    let mut rng = Rng::new(42);
    let garbage: Vec<u8> = (0..5000)
        .map(|_| match rng.below(40) {
            0 => b'\n',
            1 => b'{',
            _ => rng.next_u64() as u8,
        })
        .collect();
    std::fs::write(journal_of(&dir), &garbage).expect("written");

    let mut s = Store::open(&dir).expect("opens anyway");
    assert!(s.is_empty() && s.history().is_empty());
    assert_eq!(s.warnings().len(), 1);
    assert!(s.warnings()[0].contains("kept as"), "{:?}", s.warnings());
    let aside: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().contains(".damaged-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(std::fs::read(&aside[0]).expect("kept"), garbage);

    s.import(sample(), Source::Lichess).expect("written");
    s.record("01ig0", true, T0).expect("written");
    drop(s);
    let s = Store::open(&dir).expect("reopened");
    assert!(s.warnings().is_empty(), "{:?}", s.warnings());
    assert_eq!((s.len(), s.history().len()), (12, 1));
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

#[test]
fn a_damaged_line_in_the_middle_costs_only_that_line() {
    let dir = folder("middle");
    {
        let mut s = Store::open(&dir).expect("a new store");
        s.import(sample(), Source::Lichess).expect("written");
        s.record("01ig0", true, T0).expect("written");
        s.record("00Xn1", true, T0 + 1).expect("written");
    }
    let path = journal_of(&dir);
    let text = std::fs::read_to_string(&path).expect("text");
    let mut lines: Vec<&str> = text.lines().collect();
    // Line 4 is the third puzzle; an attempt at it would now be unknown.
    assert!(lines[3].contains("05smX"));
    lines[3] = "{\"add\":{\"src\":\"lich";
    std::fs::write(&path, lines.join("\n") + "\n").expect("damaged");

    let s = Store::open(&dir).expect("opens");
    assert_eq!(s.len(), 11);
    assert_eq!(s.history().len(), 2);
    assert_eq!(s.warnings().len(), 1);
    assert!(s.warnings()[0].contains("line 4"), "{:?}", s.warnings());
    drop(s);
    let s = Store::open(&dir).expect("rewritten clean");
    assert!(s.warnings().is_empty(), "{:?}", s.warnings());
    assert_eq!((s.len(), s.history().len()), (11, 2));
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

#[test]
fn a_newer_format_is_refused_and_left_alone() {
    let dir = folder("newer");
    std::fs::create_dir_all(&dir).expect("folder");
    let text = "{\"kibitz_puzzles\":99}\n{\"future\":1}\n";
    std::fs::write(journal_of(&dir), text).expect("written");
    assert!(matches!(
        Store::open(&dir),
        Err(StoreError::Newer { found: 99, .. })
    ));
    assert_eq!(
        std::fs::read_to_string(journal_of(&dir)).expect("kept"),
        text
    );
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

#[test]
fn save_as_makes_a_store_that_opens_the_same() {
    let dir = folder("save-as");
    let mut s = Store::in_memory();
    s.import(sample(), Source::Lichess).expect("in memory");
    s.record("09IbS", false, T0).expect("in memory");
    s.record("01ig0", true, T0 + 5).expect("in memory");
    s.save_as(&dir).expect("written");
    assert!(s.save_as(&dir).is_err(), "never over an existing store");
    let t = Store::open(&dir).expect("opens");
    assert!(t.warnings().is_empty());
    assert_eq!(t.rating(), s.rating());
    assert_eq!(t.history(), s.history());
    assert_eq!(t.due(T0 + DAY), 1);
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

#[test]
fn the_lichess_sample_imports_whole() {
    let Some(data) = crate::util::shared_data_dir() else {
        eprintln!("skipped: no shared data folder");
        return;
    };
    let path = data.join("puzzles/lichess-sample-1000.csv");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: no {}", path.display());
        return;
    };
    let r = read_csv(&text);
    let n = r.puzzles.len();
    assert!(
        n >= 990,
        "{n} puzzles, {:?}",
        &r.errors[..r.errors.len().min(3)]
    );
    let dir = folder("sample");
    let mut s = Store::open(&dir).expect("a new store");
    let sum = s
        .import(r.puzzles.clone(), Source::Lichess)
        .expect("written");
    assert_eq!((sum.added, sum.already, sum.invalid.len()), (n, 0, 0));
    let again = s.import(r.puzzles, Source::Lichess).expect("written");
    assert_eq!((again.added, again.already), (0, n));
    drop(s);
    let s = Store::open(&dir).expect("reopened");
    assert_eq!(s.len(), n);
    assert!(s.warnings().is_empty());
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}
