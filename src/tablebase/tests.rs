//! Unit tests: generated values agree with a one-ply search over the
//! tables themselves (every position, or a sample of big tables).

use super::*;
use shakmaty::Position;

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kibitz-tb-unit-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Every `step`-th legal position: the stored value equals the best move
/// value over its legal moves (or mate/stalemate).
fn self_consistent(tb: &Tablebases, m: &Material, step: usize) -> u64 {
    let t = tb.table(m).expect("loaded");
    let layout = &t.layout;
    let mut checked = 0;
    for stm in [Color::White, Color::Black] {
        for idx in (0..layout.size).step_by(step) {
            let r = layout.decode(idx);
            if !layout.is_canonical(idx, &r) || !generate::is_legal(&r, stm) {
                continue;
            }
            let Some(pos) = verify::chess_of(&r, stm) else {
                continue;
            };
            let stored = t.values[table::side(stm) * layout.size + idx];
            let moves = pos.legal_moves();
            let expect = if moves.is_empty() {
                if pos.is_check() { 2 } else { UNKNOWN }
            } else {
                let mut best = None;
                for mv in moves {
                    let mut c = pos.clone();
                    c.play_unchecked(mv);
                    let v = via_move(tb.probe_code(&c).expect("child table"));
                    best = Some(best.map_or(v, |b| table::better(b, v)));
                }
                best.unwrap_or(UNKNOWN)
            };
            assert_eq!(
                stored,
                expect,
                "{m}: {} stored {:?} search {:?}",
                shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal),
                Probe::from_code(stored),
                Probe::from_code(expect)
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn small_tables_are_self_consistent() {
    let dir = temp_dir("consistent");
    let mut tb = Tablebases::new(&dir);
    // One at a time: each runs alone, on every thread. (KPvKP, the table
    // with en passant, needs 14 others: see the ignored integration test.)
    for name in ["KQvK", "KRvK", "KPvK", "KNvK", "KBvK", "KRvKN", "KBBvK"] {
        let m: Material = name.parse().unwrap();
        tb.ensure(&m, &mut |_| {}).unwrap();
        let step = if m.pieces() == 3 { 3 } else { 101 };
        assert!(self_consistent(&tb, &m, step) > 1000, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn threads_do_not_change_the_tables() {
    let one = temp_dir("threads1");
    let two = temp_dir("threads2");
    for name in ["KPvK", "KRvKN", "KBBvK"] {
        let m: Material = name.parse().unwrap();
        let mut a = Tablebases::new(&one);
        a.set_threads(1);
        a.ensure(&m, &mut |_| {}).unwrap();
        let mut b = Tablebases::new(&two);
        b.set_threads(2);
        // Children first, so that the table itself runs alone on both
        // threads.
        for c in m.children() {
            b.ensure(&c, &mut |_| {}).unwrap();
        }
        b.ensure(&m, &mut |_| {}).unwrap();
        let fa = std::fs::read(a.path_of(&m)).unwrap();
        let fb = std::fs::read(b.path_of(&m)).unwrap();
        assert!(fa == fb, "{name}");
    }
    let _ = std::fs::remove_dir_all(&one);
    let _ = std::fs::remove_dir_all(&two);
}
