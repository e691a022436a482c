//! The search checked from outside: forced wins against a plain minimax
//! over the rules crate, legal turns everywhere, limits kept, and the same
//! turn for the same limits.

use std::sync::atomic::AtomicBool;

use fanorona::{testing::random_setup, Color, Position, Setup};
use fanorona_engine::{random_turn, Config, Engine, Level, Limits, Score};

fn engine() -> Engine {
    Engine::new(Config {
        table_bytes: 1 << 20,
        ..Config::default()
    })
}

fn pos(text: &str) -> Position {
    Position::from_setup(text.parse::<Setup>().expect("text")).expect("legal")
}

/// Whether the side to move in `pos` wins within `turns` of its own turns,
/// by plain minimax over every legal turn.
fn wins_within(pos: &Position, turns: u32) -> bool {
    if turns == 0 {
        return false;
    }
    pos.legal_turns().iter().any(|t| {
        let next = pos.play(t).expect("legal turn");
        match next.outcome() {
            Some(o) => o.winner == Some(pos.turn()),
            None => loses_within(&next, turns - 1),
        }
    })
}

/// Whether the side to move in `pos` loses within `turns` of the
/// opponent's turns, whatever it plays.
fn loses_within(pos: &Position, turns: u32) -> bool {
    if let Some(o) = pos.outcome() {
        return o.winner == Some(!pos.turn());
    }
    pos.legal_turns().iter().all(|t| {
        let next = pos.play(t).expect("legal turn");
        match next.outcome() {
            Some(o) => o.winner == Some(!pos.turn()),
            None => wins_within(&next, turns),
        }
    })
}

/// A position with `white` and `black` stones on random points, White to
/// move, that is not over.
fn random_position(rng: &mut fastrand::Rng, white: usize, black: usize) -> Option<Position> {
    let mut setup = random_setup(&mut |n| rng.usize(..n), white, black);
    setup.turn = Color::White;
    let p = Position::from_setup(setup).ok()?;
    (p.outcome().is_none()).then_some(p)
}

#[test]
fn a_win_in_one_is_taken() {
    // White's e2 takes e4 by approach: Black's last stone.
    let p = pos("........./....B..../........./....W..../W........ w 0");
    let mut e = engine();
    let r = e.search(&p, Limits::depth(3), &AtomicBool::new(false), |_| {});
    assert_eq!(r.info.score, Score::Win(1));
    let after = p.play(r.best.as_ref().expect("a turn")).expect("legal");
    assert_eq!(after.board().count(Color::Black), 0);
}

#[test]
fn forced_wins_in_one_two_and_three_turns_are_found() {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut found = [0; 3];
    let mut tries = 0;
    while found.iter().any(|&n| n < 3) && tries < 20_000 {
        tries += 1;
        let (w, b) = (2 + rng.usize(..2), 2 + rng.usize(..2));
        let Some(p) = random_position(&mut rng, w, b) else {
            continue;
        };
        // The exact number of own turns the win needs, if at most 3.
        let Some(k) = (1..=3).find(|&k| wins_within(&p, k)) else {
            continue;
        };
        let slot = k as usize - 1;
        if found[slot] >= 3 {
            continue;
        }
        found[slot] += 1;
        let mut e = engine();
        let r = e.search(
            &p,
            Limits::depth(2 * k + 1),
            &AtomicBool::new(false),
            |_| {},
        );
        assert_eq!(
            r.info.score,
            Score::Win(2 * k - 1),
            "{p}: win in {k} own turns"
        );
        let best = r.best.expect("a turn");
        let after = p.play(&best).expect("legal");
        let keeps_win = match after.outcome() {
            Some(o) => o.winner == Some(Color::White),
            None => loses_within(&after, k - 1),
        };
        assert!(keeps_win, "{p}: {best} does not keep the win in {k}");
    }
    assert_eq!(found, [3, 3, 3], "after {tries} random positions");
}

#[test]
fn every_turn_chosen_is_legal() {
    let mut rng = fastrand::Rng::with_seed(11);
    let mut e = engine();
    for game in 0..40 {
        let mut p = Position::start();
        let plies = rng.usize(..60);
        for _ in 0..plies {
            let Some(t) = random_turn(&p, &mut rng) else {
                break;
            };
            p = p.play(&t).expect("random turns are legal");
        }
        if p.outcome().is_some() {
            continue;
        }
        let r = e.search(&p, Limits::nodes(3_000), &AtomicBool::new(false), |_| {});
        let best = r.best.expect("the game is not over");
        assert!(p.play(&best).is_ok(), "game {game}: {best} in {p}");
        let level = Level::new(1 + (game % 4) as u8).expect("level");
        let r = e.play_level(&p, level, game, &AtomicBool::new(false));
        let best = r.best.expect("the game is not over");
        assert!(p.play(&best).is_ok(), "level {level}: {best} in {p}");
        for s in p.legal_steps() {
            let mid = p.play_step_unchecked(s);
            if mid.chain().is_some() {
                let r = e.search(&mid, Limits::depth(2), &AtomicBool::new(false), |_| {});
                let t = r.best.expect("a chain can always end");
                assert!(mid.play(&t).is_ok(), "{t} in the middle of a turn");
            }
        }
    }
}

#[test]
fn limits_are_kept() {
    let mut e = engine();
    let start = Position::start();
    let r = e.search(
        &start,
        Limits::nodes(5_000),
        &AtomicBool::new(false),
        |_| {},
    );
    assert!(r.info.nodes <= 5_000, "{}", r.info.nodes);
    let mut depths = Vec::new();
    let r = e.search(&start, Limits::depth(3), &AtomicBool::new(false), |i| {
        depths.push(i.depth)
    });
    assert_eq!(depths, [1, 2, 3]);
    assert_eq!(r.info.depth, 3);
    // Stopped before it starts: still a legal turn.
    let r = e.search(&start, Limits::default(), &AtomicBool::new(true), |_| {});
    assert!(start.play(&r.best.expect("a turn")).is_ok());
    // Over: no turn.
    let over = pos("........./........./....W..../........./......... b 0");
    assert_eq!(
        e.search(&over, Limits::depth(2), &AtomicBool::new(false), |_| {})
            .best,
        None
    );
}

#[test]
fn the_same_limits_give_the_same_turn() {
    let middle = pos("B.B.B.B../.W...W.B./..B.W..../W..B..W../.B.....W. b 7");
    let run = |level: Option<Level>| {
        let mut e = engine();
        match level {
            Some(l) => e.play_level(&middle, l, 42, &AtomicBool::new(false)),
            None => e.search(
                &middle,
                Limits::nodes(20_000),
                &AtomicBool::new(false),
                |_| {},
            ),
        }
    };
    let (a, b) = (run(None), run(None));
    assert_eq!((a.best, a.info.nodes), (b.best, b.info.nodes));
    for level in Level::all().take(4) {
        assert_eq!(
            run(Some(level)).best,
            run(Some(level)).best,
            "level {level}"
        );
    }
}

#[test]
fn a_lead_that_needs_more_turns_than_the_counter_allows_is_a_draw() {
    // Two white stones against one on a far corner: a win with time, but
    // with the counter at 49 the next turn ends the game in a draw unless
    // it captures, and no capture is possible.
    let p = pos("B......../........./........./........./.......WW w 49");
    assert!(!p.has_capture());
    let mut e = engine();
    let r = e.search(&p, Limits::depth(4), &AtomicBool::new(false), |_| {});
    assert_eq!(r.info.score, Score::Value(0));
}

#[test]
fn with_the_tables_a_won_endgame_is_won() {
    use fanorona_engine::{TableResult, Tables};
    use std::sync::Arc;
    let tables = Arc::new(Tables::build(4));
    let mut rng = fastrand::Rng::with_seed(5);
    let mut played = 0;
    while played < 12 {
        let (w, b) = if played % 2 == 0 { (3, 1) } else { (2, 2) };
        let Some(start) = random_position(&mut rng, w, b) else {
            continue;
        };
        let Some(probe) = tables.probe(&start) else {
            continue;
        };
        if probe.result != TableResult::Win || probe.turns < 3 {
            continue;
        }
        played += 1;
        let mut e = engine();
        e.set_tables(Some(Arc::clone(&tables)));
        let mut p = start;
        while p.outcome().is_none() {
            let r = e.search(&p, Limits::depth(2), &AtomicBool::new(false), |_| {});
            if p.turn() == Color::White {
                let won = matches!(r.info.score, Score::Won | Score::Win(_));
                assert!(won, "{p} from {start}: {}", r.info.score);
            }
            p = r.after.expect("a turn");
        }
        let winner = p.outcome().and_then(|o| o.winner);
        assert_eq!(winner, Some(Color::White), "{start} ended {p}");
    }
}

#[test]
fn each_level_follows_captures_as_far_as_its_spec_says() {
    // After d3-e3A every black turn captures, and White can answer.
    let p = Position::start()
        .play(&"d3-e3A".parse().expect("notation"))
        .expect("legal");
    let mut e = engine();
    let seldepth = |e: &mut Engine, n: u8| {
        let level = Level::new(n).expect("level");
        e.play_level(&p, level, 1, &AtomicBool::new(false))
            .info
            .seldepth
    };
    assert_eq!(
        seldepth(&mut e, 1),
        1,
        "Beginner looks at its own turn only"
    );
    assert_eq!(seldepth(&mut e, 2), 2, "Casual sees the recapture");
    assert!(seldepth(&mut e, 3) > 2, "Club follows the exchange");
}
