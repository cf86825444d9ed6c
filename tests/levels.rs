//! How levels 1-7 weaken the search: capped quiescence and blind spots.
//! (Their strength against Lichess's levels is measured with `kibitz match`,
//! see the README; these tests pin the mechanisms down.)

mod common;

use common::board;
use kibitz::engine::{
    Board, Engine, GamePosition, Level, Limits, NoObserver, SearchReport, Strength,
};
use kibitz::util::Rng;
use shakmaty::Position;
use std::sync::atomic::AtomicBool;

fn search_fen(fen: &str, limits: &Limits) -> SearchReport {
    let mut engine = Engine::default();
    let stop = AtomicBool::new(false);
    engine.search(
        &GamePosition::new(board(fen)),
        limits,
        &stop,
        &mut NoObserver,
    )
}

/// The limits and MultiPV count of a search at `level` (one line asked).
fn at_level(level: Level, b: &Board, limits: &Limits, rng: &mut Rng) -> (Limits, usize) {
    match Strength::level(level).draw(rng) {
        Some(spec) => spec.adjust(b, limits, 1, rng),
        None => (limits.clone(), 1),
    }
}

fn best(r: &SearchReport) -> String {
    r.best_move.map_or("(none)".into(), Board::uci)
}

/// White's queen can take d5, which the e6 pawn defends.
const DEFENDED_PAWN: &str = "6k1/5ppp/4p3/3p4/8/8/5PPP/3Q2K1 w - - 0 1";

#[test]
fn capped_quiescence_misses_the_recapture() {
    // Depth 1 and no capture plies after it: the queen "wins" a pawn.
    let blind = Limits {
        qsearch_plies: Some(0),
        ..Limits::depth(1)
    };
    let r = search_fen(DEFENDED_PAWN, &blind);
    assert_eq!(best(&r), "d1d5", "{:?}", r.result.score);
    // One capture ply is enough to see exd5.
    for q in [Some(1), None] {
        let seeing = Limits {
            qsearch_plies: q,
            ..Limits::depth(1)
        };
        let r = search_fen(DEFENDED_PAWN, &seeing);
        assert_ne!(best(&r), "d1d5", "qsearch plies {q:?}");
    }
}

/// The same pawn, defended from afar by the a8 bishop: a long move, the
/// kind a weak player overlooks.
const FAR_DEFENDER: &str = "b5k1/5ppp/8/3p4/8/8/5PPP/3Q2K1 w - - 0 1";

#[test]
fn blind_spots_hide_a_long_range_recapture() {
    let full = search_fen(FAR_DEFENDER, &Limits::depth(4));
    assert_ne!(best(&full), "d1d5");
    // Hard-to-see moves are overlooked at the full per cent: with 100 the
    // bishop's recapture is invisible, whatever the seed, and taking the
    // pawn looks like winning it.
    let qxd5 = |blind: Option<(u8, u64)>| {
        let b = board(FAR_DEFENDER);
        let m = b
            .pos()
            .legal_moves()
            .into_iter()
            .find(|&m| Board::uci(m) == "d1d5");
        let limits = Limits {
            blind_spots: blind,
            searchmoves: m.into_iter().collect(),
            ..Limits::depth(2)
        };
        search_fen(FAR_DEFENDER, &limits).result.score.0
    };
    for seed in [1, 2, 3] {
        let s = qxd5(Some((100, seed)));
        assert!(s > 50, "seed {seed}: Qxd5 scores {s}");
    }
    // Without blind spots the same shallow search sees the queen lost.
    let s = qxd5(None);
    assert!(s < -300, "Qxd5 scores {s}");
    let r = search_fen(FAR_DEFENDER, &Limits::depth(2));
    assert_ne!(best(&r), "d1d5");
}

#[test]
fn blind_spots_never_hide_check_evasions() {
    // White's checks (Qd5+, Qd8+) leave Black king moves. A blind search
    // that also hid those evasions would take every check for mate.
    let fen = "6k1/6pp/8/8/8/8/5PPP/3Q2K1 w - - 0 1";
    for seed in [1, 2, 3] {
        let limits = Limits {
            blind_spots: Some((100, seed)),
            ..Limits::depth(2)
        };
        let r = search_fen(fen, &limits);
        assert!(
            !r.result.score.is_mate(),
            "seed {seed}: {:?}",
            r.result.score
        );
    }
}

#[test]
fn levels_overlook_some_of_their_candidate_moves() {
    let b = board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let legal: Vec<_> = b.pos().legal_moves().into_iter().collect();
    let mut rng = Rng::new(42);
    let base = Limits::default();
    for n in 1..=5 {
        let level = Level::new(n).unwrap();
        let mut total = 0;
        for _ in 0..200 {
            let (l, lines) = at_level(level, &b, &base, &mut rng);
            // Empty: it happened to overlook everything, and then looks at
            // every move rather than play a random one.
            assert!(l.searchmoves.iter().all(|m| legal.contains(m)));
            assert!(l.depth.is_some() && l.movetime.is_some());
            assert!(lines >= 1);
            total += if l.searchmoves.is_empty() {
                legal.len()
            } else {
                l.searchmoves.len()
            };
        }
        // Level 1 sees a small share of its moves, level 5 most of them.
        let share = total as f64 / (200 * legal.len()) as f64;
        match n {
            1 => assert!(share < 0.3, "level 1 sees {share:.2}"),
            5 => assert!(share > 0.8, "level 5 sees {share:.2}"),
            _ => {}
        }
    }
    // Levels 6-7 see every move; level 8 changes nothing.
    for n in [6, 7] {
        let (l, _) = at_level(Level::new(n).unwrap(), &b, &base, &mut rng);
        assert!(l.searchmoves.is_empty(), "level {n}");
        assert!(l.blind_spots.is_none());
    }
    let (l, lines) = at_level(Level::MAX, &b, &base, &mut rng);
    assert_eq!(l, base);
    assert_eq!(lines, 1);
}

#[test]
fn weaker_levels_calculate_less() {
    // Depth caps grow with the level; quiescence is capped below level 6.
    let b = board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let mut rng = Rng::new(1);
    let mut last = 0;
    for n in 1..=7 {
        let (l, _) = at_level(Level::new(n).unwrap(), &b, &Limits::default(), &mut rng);
        let d = l.depth.unwrap();
        assert!(d >= last, "level {n}: depth {d} < {last}");
        last = d;
        assert_eq!(l.qsearch_plies.is_some(), n <= 5, "level {n}");
    }
}

#[test]
fn levels_evaluate_with_the_weights_they_were_calibrated_with() {
    use kibitz::engine::eval::{WeightSet, evaluate_with};
    // A middlegame where the two weight sets disagree.
    let b = board("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8");
    let tuned = evaluate_with(b.chess(), WeightSet::Tuned);
    let calibrated = evaluate_with(b.chess(), WeightSet::Levels);
    assert_ne!(tuned, calibrated);
    let mut engine = Engine::default();
    // Full strength adds the network's correction by default; with
    // `Eval full` it is the tuned evaluation alone.
    let with_network = engine.static_eval(&b);
    engine.set_eval(kibitz::engine::EvalKind::Full);
    assert_eq!(engine.static_eval(&b), tuned, "full strength");
    // Levels 1-7 evaluate as calibrated, with either choice.
    for eval in [
        kibitz::engine::EvalKind::Full,
        kibitz::engine::EvalKind::Nnue,
    ] {
        engine.set_eval(eval);
        for n in 1..=7 {
            engine.set_level(Level::new(n).unwrap());
            assert_eq!(engine.static_eval(&b), calibrated, "level {n}, {eval:?}");
        }
        engine.set_level(Level::MAX);
    }
    assert_eq!(
        engine.static_eval(&b),
        with_network,
        "back to full strength"
    );
    engine.set_eval(kibitz::engine::EvalKind::Full);
    assert_eq!(engine.static_eval(&b), tuned, "back to full strength");
}

/// The mean depth, capture plies (a dozen for "all"), overlooked share and
/// noise of `n` moves' settings at `strength`.
fn mean_settings(strength: Strength, n: usize, rng: &mut Rng) -> [f64; 4] {
    let b = board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let moves = b.chess().legal_moves().len() as f64;
    let mut sum = [0.0; 4];
    for _ in 0..n {
        let spec = strength.draw(rng).expect("a limited strength");
        let (l, _) = spec.adjust(&b, &Limits::default(), 1, rng);
        sum[0] += f64::from(l.depth.unwrap());
        sum[1] += l.qsearch_plies.map_or(12.0, f64::from);
        sum[2] += if l.searchmoves.is_empty() {
            0.0
        } else {
            1.0 - l.searchmoves.len() as f64 / moves
        };
        sum[3] += f64::from(l.blind_spots.map_or(0, |(pct, _)| pct));
    }
    sum.map(|x| x / n as f64)
}

#[test]
fn an_elo_plays_between_the_levels_around_it() {
    let mut rng = Rng::new(7);
    // At a level's own Elo, every move is that level's.
    for n in 3..=7 {
        let level = Level::new(n).unwrap();
        let elo = Strength::level_elo(level).unwrap();
        let at_elo = Strength::elo(elo);
        for _ in 0..20 {
            assert_eq!(
                at_elo.draw(&mut rng),
                Strength::level(level).draw(&mut rng),
                "level {n} at {elo}"
            );
        }
    }
    assert_eq!(Strength::level_elo(Level::new(2).unwrap()), None);
    // The top of the scale is full strength; out-of-range Elos clamp.
    assert!(Strength::elo(Strength::ELO_MAX).is_full());
    assert!(Strength::elo(u32::MAX).is_full());
    assert_eq!(Strength::elo(0), Strength::elo(Strength::ELO_MIN));
    // Between two levels, every setting moves the right way, step by step:
    // deeper, more captures followed, fewer moves overlooked.
    let l7 = Strength::level_elo(Level::new(7).unwrap()).unwrap();
    let mut last: Option<[f64; 4]> = None;
    for elo in (Strength::ELO_MIN..=l7).step_by(25) {
        let m = mean_settings(Strength::elo(elo), 300, &mut rng);
        if let Some(p) = last {
            assert!(m[0] >= p[0] - 0.15, "depth at {elo}: {m:?} after {p:?}");
            assert!(
                m[1] >= p[1] - 0.3,
                "capture plies at {elo}: {m:?} after {p:?}"
            );
            assert!(
                m[2] <= p[2] + 0.05,
                "overlooked at {elo}: {m:?} after {p:?}"
            );
            assert!(
                m[3] <= p[3] + 1.0,
                "blind spots at {elo}: {m:?} after {p:?}"
            );
        }
        last = Some(m);
    }
    // Halfway between levels 5 and 6 (depth 4 and 7) is depth 5.5 on average.
    let (l5, l6) = (
        Strength::level_elo(Level::new(5).unwrap()).unwrap(),
        Strength::level_elo(Level::new(6).unwrap()).unwrap(),
    );
    let mid = mean_settings(Strength::elo((l5 + l6) / 2), 2000, &mut rng);
    assert!((mid[0] - 5.5).abs() < 0.15, "{mid:?}");
    // Above level 7 it evaluates as full strength does, and a higher Elo
    // searches deeper and longer.
    let mut last = (0, 0);
    for elo in (l7 + 1..Strength::ELO_MAX).step_by(5) {
        let s = Strength::elo(elo);
        assert!(s.full_eval() && !s.is_full(), "{elo}: {s:?}");
        let spec = s.draw(&mut rng).unwrap();
        let (l, _) = spec.adjust(&board(DEFENDED_PAWN), &Limits::default(), 1, &mut rng);
        let now = (l.depth.unwrap(), l.movetime.unwrap().as_millis());
        assert!(
            now.0 + 1 >= last.0 && now.1 >= last.1,
            "{elo}: {now:?} after {last:?}"
        );
        assert!(
            l.qsearch_plies.is_none() && l.blind_spots.is_none(),
            "{elo}"
        );
        last = now;
    }
}

#[test]
fn an_elo_evaluates_as_the_levels_do_up_to_level_7() {
    use kibitz::engine::eval::{WeightSet, evaluate_with};
    let b = board("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8");
    let mut engine = Engine::default();
    engine.set_eval(kibitz::engine::EvalKind::Full);
    let l7 = Strength::level_elo(Level::new(7).unwrap()).unwrap();
    for elo in [Strength::ELO_MIN, l7 - 1, l7] {
        engine.set_elo(Some(elo));
        assert!(!engine.strength().is_full());
        assert_eq!(
            engine.static_eval(&b),
            evaluate_with(b.chess(), WeightSet::Levels),
            "{elo}"
        );
    }
    // Above level 7 only the depth and time are capped.
    engine.set_elo(Some(l7 + 1));
    assert_eq!(
        engine.static_eval(&b),
        evaluate_with(b.chess(), WeightSet::Tuned)
    );
    engine.set_elo(None);
    assert!(engine.strength().is_full());
    assert_eq!(
        engine.static_eval(&b),
        evaluate_with(b.chess(), WeightSet::Tuned)
    );
}
