//! The endgame experiments of 5 to 8 stones: conversions with and without
//! the tables, and the tables against none.

use std::sync::Arc;

use fanorona::{Color, Position};
use fanorona_engine::{Tables, Tally, WinDrawLoss};

use crate::{
    on_every_core,
    playout::{ahead, cost, endgame_positions, play_out, result_for, PlayOut, TableSets},
    Result,
};

/// The conversion experiment, from `count` positions of `path` with 5 to 8
/// stones, one side 2 or more stones ahead, fresh from a capture: for each
/// `[ahead, behind]` in `specs`, the tables each side holds, the side
/// ahead's wins, draws and losses within the fifty-turn rule, its turns to
/// a win and its cost a turn. For each pair of specs, the positions the
/// side ahead won with one and not with the other; for each pair that are
/// each other's mirror, the first's tables against the second's, each
/// position once with each side.
pub(crate) fn convert(path: &str, count: usize, nodes: u64, specs: &[[usize; 2]]) -> Result<()> {
    let positions = endgame_positions(path, count, 2)?;
    let mut sets = TableSets::default();
    for s in specs.iter().flatten() {
        sets.load(*s)?;
    }
    let n = positions.len();
    println!("{n} positions with 5 to 8 stones, one side 2 or more ahead, {nodes} nodes a turn");
    let jobs: Vec<(usize, usize)> = (0..specs.len())
        .flat_map(|s| (0..n).map(move |i| (s, i)))
        .collect();
    let outs: Vec<PlayOut> = on_every_core(jobs.len(), |j| {
        let (s, i) = jobs[j];
        let p = positions[i];
        let a = usize::from(ahead(&p) == Color::Black);
        let mut with = [None, None];
        with[a] = sets.get(specs[s][0]);
        with[1 - a] = sets.get(specs[s][1]);
        play_out(p, nodes, with)
    });
    let of = |s: usize| &outs[s * n..(s + 1) * n];
    for (s, [a, b]) in specs.iter().enumerate() {
        let mut tally = Tally::default();
        let mut win_turns = 0;
        for (p, o) in positions.iter().zip(of(s)) {
            let r = result_for(o.winner, ahead(p));
            if r == WinDrawLoss::Win {
                win_turns += o.turns;
            }
            tally.add(r);
        }
        let (nodes_a, ms_a) = cost(positions.iter().zip(of(s)).map(|(p, o)| (o, ahead(p))));
        let (nodes_b, ms_b) = cost(positions.iter().zip(of(s)).map(|(p, o)| (o, !ahead(p))));
        println!(
            "ahead with {a}, behind with {b}: the side ahead won {}, drew {}, lost {} of {n}; \
             {:.1} turns to a win; a turn: ahead {nodes_a:.0} nodes {ms_a:.0} ms, behind {nodes_b:.0} nodes {ms_b:.0} ms",
            tally.wins,
            tally.draws,
            tally.losses,
            f64::from(win_turns) / f64::from(tally.wins.max(1))
        );
    }
    for (s, [a, b]) in specs.iter().enumerate() {
        for (t, [c, d]) in specs.iter().enumerate().skip(s + 1) {
            let won = |o: &PlayOut, p: &Position| o.winner == Some(ahead(p));
            let (mut only_s, mut only_t) = (0, 0);
            for (i, p) in positions.iter().enumerate() {
                match (won(&of(s)[i], p), won(&of(t)[i], p)) {
                    (true, false) => only_s += 1,
                    (false, true) => only_t += 1,
                    _ => {}
                }
            }
            println!(
                "the side ahead won with {a}:{b} and not with {c}:{d} in {only_s} positions, the reverse in {only_t}"
            );
        }
    }
    for (s, [a, b]) in specs.iter().enumerate() {
        let Some(m) = (s + 1..specs.len()).find(|&m| specs[m] == [*b, *a]) else {
            continue;
        };
        if a == b {
            continue;
        }
        let mut tally = Tally::default();
        for (p, (x, y)) in positions.iter().zip(of(s).iter().zip(of(m))) {
            tally.add(result_for(x.winner, ahead(p)));
            tally.add(result_for(y.winner, !ahead(p)));
        }
        println!("tables of {a} against tables of {b}, each position once with each side: {tally}");
    }
    Ok(())
}

/// The endgame experiments, from positions with at most 8 stones where one
/// side is 2 or more stones ahead: how often the side ahead wins within the
/// fifty-turn rule with both engines holding the tables, and with neither;
/// and the engine with tables against itself without, from each position
/// once with each side. Then `close` positions at most one stone apart,
/// tables against none, each colour once.
pub(crate) fn endgames(path: &str, count: usize, nodes: u64, close: usize) -> Result<()> {
    let positions = endgame_positions(path, count, 2)?;
    let close = endgame_positions(path, close, 0)?;
    let tables = Arc::new(Tables::build(4));
    // Per position, the play-outs: both with tables, neither, only the
    // side ahead, only the side behind.
    let run = |p: &Position| -> [PlayOut; 4] {
        let a = usize::from(ahead(p) == Color::Black);
        let mut only_ahead = [false, false];
        only_ahead[a] = true;
        let mut only_behind = [true, true];
        only_behind[a] = false;
        [[true, true], [false, false], only_ahead, only_behind]
            .map(|with| play_out(*p, nodes, with.map(|t| t.then_some(&tables))))
    };
    let results: Vec<[PlayOut; 4]> = on_every_core(positions.len(), |i| run(&positions[i]));
    let n = results.len();
    println!("{n} positions with at most 8 stones, one side 2 or more ahead, {nodes} nodes a turn");
    let converted = |which: usize, label: &str| {
        let won: Vec<u32> = positions
            .iter()
            .zip(&results)
            .filter(|(p, r)| r[which].winner == Some(ahead(p)))
            .map(|(_, r)| r[which].turns)
            .collect();
        let mean = f64::from(won.iter().sum::<u32>()) / won.len().max(1) as f64;
        println!(
            "{label}: {}/{n} won by the side ahead ({:.1}%), in {mean:.1} turns on average",
            won.len(),
            100.0 * won.len() as f64 / n.max(1) as f64
        );
    };
    converted(0, "conversion, both sides with tables");
    converted(1, "conversion, neither side with tables");
    converted(2, "conversion, only the side ahead with tables");
    let mut tally = Tally::default();
    for (p, r) in positions.iter().zip(&results) {
        let a = ahead(p);
        for (outcome, tables_side) in [(r[2], a), (r[3], !a)] {
            tally.add(result_for(outcome.winner, tables_side));
        }
    }
    println!("tables against no tables, each position once with each side: {tally}");
    let close_run = |p: &Position| -> [PlayOut; 2] {
        [[true, false], [false, true]]
            .map(|with| play_out(*p, nodes, with.map(|t| t.then_some(&tables))))
    };
    let results: Vec<[PlayOut; 2]> = on_every_core(close.len(), |i| close_run(&close[i]));
    let mut tally = Tally::default();
    for [a, b] in &results {
        tally.add(result_for(a.winner, Color::White));
        tally.add(result_for(b.winner, Color::Black));
    }
    println!(
        "{} close endgames (5 to 8 stones, at most one apart), tables against none, both colours: {tally}",
        results.len()
    );
    Ok(())
}
