//! The endgame tables against a naive second solution over the rules
//! crate: `Position::legal_turns`, `play` and `outcome`, with the real
//! counter of turns since a capture.

use std::{collections::HashMap, sync::OnceLock};

use fanorona::{
    testing::random_setup, Board, Color, Outcome, Position, Setup, Square, FIFTY_TURNS,
};
use fanorona_engine::{Probe, TableResult, Tables};

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables::build(4))
}

/// +1 the side to move wins, 0 draw, -1 it loses.
type Score = i8;

const COUNTERS: usize = FIFTY_TURNS as usize + 1;

fn score_of(outcome: Outcome, to_move: Color) -> Score {
    match outcome.winner {
        None => 0,
        Some(c) if c == to_move => 1,
        Some(_) => -1,
    }
}

fn result_of(score: Score) -> TableResult {
    match score {
        1 => TableResult::Win,
        -1 => TableResult::Loss,
        _ => TableResult::Draw,
    }
}

fn at_counter(pos: &Position, counter: u32) -> Position {
    let mut setup = pos.to_setup();
    setup.turns_since_capture = counter;
    Position::from_setup(setup).expect("a counter up to 50 is legal")
}

fn key(pos: &Position) -> (u64, u64, Color) {
    let b = pos.board();
    (
        b.by_color(Color::White).0,
        b.by_color(Color::Black).0,
        pos.turn(),
    )
}

/// Where a turn leads: the child's index (`None`: it has no stones left)
/// and whether the turn captured (the counter goes back to 0).
type Edge = (Option<usize>, bool);

/// Every position with 2 or 3 stones (each side at least one) and its
/// score at every counter, by plain dynamic programming over the counter,
/// from 50 down to 0.
struct Reference {
    positions: Vec<Position>,
    index: HashMap<(u64, u64, Color), usize>,
    /// `scores[i][c]`: position `i` with counter `c`.
    scores: Vec<[Score; COUNTERS]>,
}

impl Reference {
    fn score(&self, pos: &Position) -> Score {
        if let Some(outcome) = pos.outcome() {
            return score_of(outcome, pos.turn());
        }
        let i = self.index[&key(pos)];
        self.scores[i][pos.turns_since_capture() as usize]
    }

    fn edges(&self, pos: &Position) -> Vec<Edge> {
        let turns = pos.legal_turns();
        assert!(!turns.is_empty() || pos.is_game_over(), "{pos}");
        turns
            .iter()
            .map(|t| {
                let child = pos.play(t).expect("a legal turn");
                let mover = child.board().by_color(child.turn());
                let index = mover.any().then(|| self.index[&key(&child)]);
                (index, child.turns_since_capture() == 0)
            })
            .collect()
    }
}

fn placements(stones: usize) -> Vec<Position> {
    fn choose(from: usize, left: usize, chosen: &mut Vec<Square>, out: &mut Vec<Vec<Square>>) {
        if left == 0 {
            out.push(chosen.clone());
            return;
        }
        for i in from..Square::COUNT {
            chosen.push(Square::new(i as u32).expect("0..45"));
            choose(i + 1, left - 1, chosen, out);
            chosen.pop();
        }
    }
    let mut sets = Vec::new();
    choose(0, stones, &mut Vec::new(), &mut sets);
    let mut out = Vec::new();
    for set in sets {
        for colours in 1..(1u32 << stones) - 1 {
            let mut board = Board::empty();
            for (k, &sq) in set.iter().enumerate() {
                let c = if colours >> k & 1 == 1 {
                    Color::White
                } else {
                    Color::Black
                };
                board.set(sq, Some(c));
            }
            for turn in Color::ALL {
                let setup = Setup {
                    board,
                    turn,
                    turns_since_capture: 0,
                };
                out.push(Position::from_setup(setup).expect("both sides have stones"));
            }
        }
    }
    out
}

fn reference() -> &'static Reference {
    static REFERENCE: OnceLock<Reference> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let mut r = Reference {
            positions: Vec::new(),
            index: HashMap::new(),
            scores: Vec::new(),
        };
        for stones in 2..=3 {
            let first = r.positions.len();
            for pos in placements(stones) {
                r.index.insert(key(&pos), r.positions.len());
                r.positions.push(pos);
                r.scores.push([0; COUNTERS]);
            }
            let edges: Vec<Vec<Edge>> = (first..r.positions.len())
                .map(|i| r.edges(&r.positions[i]))
                .collect();
            for c in (0..=FIFTY_TURNS as usize).rev() {
                for i in first..r.positions.len() {
                    let pos = at_counter(&r.positions[i], c as u32);
                    r.scores[i][c] = match pos.outcome() {
                        Some(outcome) => score_of(outcome, pos.turn()),
                        None => edges[i - first]
                            .iter()
                            .map(|&(child, captured)| match child {
                                None => 1,
                                Some(j) => -r.scores[j][if captured { 0 } else { c + 1 }],
                            })
                            .max()
                            .expect("a position not over has a turn"),
                    };
                }
            }
        }
        r
    })
}

/// A plain recursive search with the real counter, memoised on the
/// position (counter included); 3 stones or fewer come from the reference.
fn brute(pos: &Position, memo: &mut HashMap<Position, Score>) -> Score {
    if let Some(outcome) = pos.outcome() {
        return score_of(outcome, pos.turn());
    }
    if pos.board().occupied().count() <= 3 {
        return reference().score(pos);
    }
    if let Some(&s) = memo.get(pos) {
        return s;
    }
    let mut best = -1;
    for turn in pos.legal_turns() {
        let child = pos.play(&turn).expect("a legal turn");
        best = best.max(-brute(&child, memo));
        if best == 1 {
            break;
        }
    }
    memo.insert(*pos, best);
    best
}

fn random_position(rng: &mut fastrand::Rng, stones: usize) -> Position {
    loop {
        let white = (0..stones).filter(|_| rng.bool()).count();
        if white == 0 || white == stones {
            continue;
        }
        let setup = random_setup(&mut |n| rng.usize(..n), white, stones - white);
        return Position::from_setup(setup).expect("both sides have stones");
    }
}

#[test]
fn every_position_of_up_to_three_stones_at_every_counter_agrees_with_the_reference() {
    let tables = tables();
    let r = reference();
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for (i, base) in r.positions.iter().enumerate() {
        for c in 0..=FIFTY_TURNS {
            let pos = at_counter(base, c);
            let probe = tables.probe(&pos);
            if pos.is_game_over() {
                assert_eq!(probe, None, "{pos}");
                continue;
            }
            let probe = probe.expect("in the tables");
            let want = result_of(r.scores[i][c as usize]);
            assert_eq!(probe.result, want, "{pos}");
            if want == TableResult::Draw {
                draws += 1;
                assert_eq!(probe.turns, 0, "{pos}");
                continue;
            }
            if want == TableResult::Win {
                wins += 1;
            } else {
                losses += 1;
            }
            // In time with `turns` left, too late with one fewer.
            let t = probe.turns;
            assert!((1..=FIFTY_TURNS - c).contains(&t), "{pos}: {t}");
            let on_time = r.scores[i][(FIFTY_TURNS - t) as usize];
            assert_eq!(result_of(on_time), want, "{pos}");
            let late = r.scores[i][(FIFTY_TURNS + 1 - t) as usize];
            assert_ne!(result_of(late), want, "{pos}");
        }
    }
    // All three occur often, so the comparison is not vacuous.
    assert!(
        wins > 1000 && losses > 1000 && draws > 1000,
        "{wins} {losses} {draws}"
    );
}

#[test]
fn random_positions_at_high_counters_agree_with_a_plain_search() {
    let tables = tables();
    let mut rng = fastrand::Rng::with_seed(4);
    let mut memo = HashMap::new();
    let mut seen = HashMap::new();
    for n in 0..3000 {
        let base = random_position(&mut rng, if n % 4 == 0 { 3 } else { 4 });
        let c = if n % 10 == 0 {
            rng.u32(40..44)
        } else {
            rng.u32(44..50)
        };
        let pos = at_counter(&base, c);
        let Some(probe) = tables.probe(&pos) else {
            assert!(pos.is_game_over(), "{pos}");
            continue;
        };
        let want = result_of(brute(&pos, &mut memo));
        assert_eq!(probe.result, want, "{pos}");
        *seen.entry(format!("{want:?}")).or_insert(0) += 1;
        if want != TableResult::Draw {
            let t = probe.turns;
            let on_time = brute(&at_counter(&base, FIFTY_TURNS - t), &mut memo);
            assert_eq!(result_of(on_time), want, "{pos}");
            let late = brute(&at_counter(&base, FIFTY_TURNS + 1 - t), &mut memo);
            assert_ne!(result_of(late), want, "{pos}");
        }
    }
    assert!(
        seen.len() == 3 && seen.values().all(|&k| k > 100),
        "{seen:?}"
    );
}

#[test]
fn four_stone_results_at_counter_0_stop_exactly_at_their_turns() {
    // From counter 0 the plain search is too slow, but a short win or loss
    // says at which counter it stops, which a search with few turns left
    // can check.
    let tables = tables();
    let mut rng = fastrand::Rng::with_seed(44);
    let mut memo = HashMap::new();
    let mut checked = 0;
    while checked < 300 {
        let base = random_position(&mut rng, 4);
        let Some(Probe { result, turns }) = tables.probe(&base) else {
            continue;
        };
        if result == TableResult::Draw || turns > 8 {
            continue;
        }
        let want = if result == TableResult::Win { 1 } else { -1 };
        let on_time = brute(&at_counter(&base, FIFTY_TURNS - turns), &mut memo);
        assert_eq!(on_time, want, "{base}");
        let late = brute(&at_counter(&base, FIFTY_TURNS + 1 - turns), &mut memo);
        assert_ne!(late, want, "{base}");
        checked += 1;
    }
}

/// The best turn for one side as the tables see it: the winner takes the
/// quickest win, the loser the longest loss.
fn best_child(tables: &Tables, pos: &Position, winning: bool) -> Position {
    let mut best: Option<(i64, Position)> = None;
    for turn in pos.legal_turns() {
        let child = pos.play(&turn).expect("a legal turn");
        let rank = match (child.outcome(), tables.probe(&child)) {
            (Some(o), _) if o.winner == Some(pos.turn()) => i64::MAX,
            (
                _,
                Some(Probe {
                    result: TableResult::Loss,
                    turns,
                }),
            ) if winning => -i64::from(turns),
            (
                _,
                Some(Probe {
                    result: TableResult::Win,
                    turns,
                }),
            ) if !winning => i64::from(turns),
            _ if winning => continue,
            other => panic!("{pos}: {turn} leads to {child}, {other:?}, not a loss"),
        };
        if best.as_ref().is_none_or(|(r, _)| rank > *r) {
            best = Some((rank, child));
        }
    }
    best.expect("a won position has a winning turn").1
}

#[test]
fn won_positions_played_out_end_in_a_win_within_the_fifty_turn_rule() {
    let tables = tables();
    let mut rng = fastrand::Rng::with_seed(50);
    let mut games = 0;
    while games < 400 {
        let base = random_position(&mut rng, if games % 3 == 0 { 3 } else { 4 });
        let pos = at_counter(&base, rng.u32(0..50));
        let Some(Probe {
            result: TableResult::Win,
            mut turns,
        }) = tables.probe(&pos)
        else {
            continue;
        };
        let winner = pos.turn();
        let mut at = pos;
        for _ in 0..1000 {
            if at.is_game_over() {
                break;
            }
            let next = best_child(tables, &at, at.turn() == winner);
            at = next;
            if next.is_game_over() {
                break;
            }
            let probe = tables
                .probe(&next)
                .expect("fewer stones stay in the tables");
            let want = if next.turn() == winner {
                TableResult::Win
            } else {
                TableResult::Loss
            };
            assert_eq!(probe.result, want, "{pos} reached {next}");
            if next.turns_since_capture() > 0 {
                // A paika: one turn closer.
                assert_eq!(probe.turns + 1, turns, "{pos} reached {next}");
            }
            turns = probe.turns;
        }
        let outcome = at.outcome().expect("the game ended");
        assert_eq!(outcome.winner, Some(winner), "{pos} ended in {at}");
        games += 1;
    }
}

#[test]
fn probe_declines_big_positions_chains_and_ended_games() {
    let tables = tables();
    assert_eq!(Tables::build(0).max_stones(), 2);
    assert_eq!(tables.max_stones(), 4);
    assert_eq!(tables.probe(&Position::start()), None);
    let text = |t: &str| Position::from_setup(t.parse::<Setup>().expect("text")).expect("legal");
    let five = text("B.B.B..../........./........./....W..../...W..... w 0");
    assert_eq!(tables.probe(&five), None);
    // Two stones in opposite corners: a draw at 49, the game over at 50.
    let over = text("B......../........./........./........./........W w 50");
    assert!(over.is_game_over());
    assert_eq!(tables.probe(&over), None);
    let at_49 = at_counter(&over, 49).to_string();
    let probe = tables.probe(&text(&at_49)).map(|p| p.result);
    assert_eq!(probe, Some(TableResult::Draw));
    let chain = text("........./....B..../......B../....W..../......... w 0");
    let mid = chain
        .play_step(chain.legal_steps()[0])
        .expect("a legal step");
    assert!(mid.chain().is_some());
    assert_eq!(tables.probe(&mid), None);
    // No legal step: White's lone stone in the corner is shut in.
    let stuck = text("........./........./........./BB......./WB....... w 0");
    assert_eq!(stuck.legal_steps().len(), 0);
    assert_eq!(tables.probe(&stuck), None);
}

#[test]
fn tables_round_trip_and_bad_data_is_an_error() {
    let tables = tables();
    let mut bytes = Vec::new();
    tables.write_to(&mut bytes).expect("to memory");
    assert_eq!(bytes.len(), 10 + 3 * 8 + tables.bytes() + 8);
    let back = Tables::read_from(&mut bytes.as_slice()).expect("reads back");
    assert_eq!(&back, tables);
    let invalid = |data: &[u8]| {
        let err = Tables::read_from(&mut &data[..]).expect_err("bad data");
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData, "{err}");
    };
    let n = bytes.len();
    for len in [0, 3, 8, 9, 10, 17, 18, 1000, n / 2, n - 9, n - 1] {
        invalid(&bytes[..len]);
    }
    let changed = |at: usize, byte: u8| {
        let mut data = bytes.clone();
        data[at] = byte;
        data
    };
    invalid(&changed(0, b'X'));
    invalid(&changed(8, 2));
    invalid(&changed(9, 9));
    invalid(&changed(9, 1));
    // A count of entries far too large.
    invalid(&changed(17, 0xff));
    let mid = n / 2;
    // No such entry.
    invalid(&changed(mid, 0xff));
    // A valid entry in the wrong place: only the check finds it.
    let other = if bytes[mid] == 0x41 { 0x81 } else { 0x41 };
    invalid(&changed(mid, other));
    invalid(&changed(n - 1, bytes[n - 1] ^ 1));
}

#[test]
fn extended_tables_are_the_tables_built_whole() {
    let four = tables();
    let three = Tables::build(3);
    assert_eq!(three.max_stones(), 3);
    assert!(&three != four);
    // Grown from 3 stones to 4: the same entries as built whole.
    let grown = three.extended(4);
    assert_eq!(grown.max_stones(), 4);
    assert!(&grown == four);
    // Asked for fewer stones than held: cut down, not solved again.
    let cut = four.extended(3);
    assert_eq!(cut.max_stones(), 3);
    assert!(cut == three);
    assert!(four.extended(4) == *four);
    // Out of range: clamped like `Tables::build`.
    assert_eq!(three.extended(0).max_stones(), 2);
}
