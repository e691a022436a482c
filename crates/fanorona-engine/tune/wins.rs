//! The long won endings the tables know: played out by the winner with
//! and without tables, and how often they come in games.

use fanorona::{testing::random_setup, Color, Position};
use fanorona_engine::{Probe, TableResult};

use crate::{
    on_every_core,
    playout::{cost, data_positions, load_tables, play_out, spread, PlayOut, TableSets},
    Result,
};

/// `count` random positions of `stones` stones that the tables win for the
/// side to move at counter 0 in `min_turns` turns or more (to the next
/// capture or the end), played out by the side to move with each of
/// `winners` (the most stones of its tables, 0 for none) against a
/// defender with tables of `stones` stones; with each, the wins, the turns
/// to them and the winner's cost a turn.
pub(crate) fn table_wins(
    count: usize,
    nodes: u64,
    min_turns: u32,
    stones: usize,
    winners: &[usize],
) -> Result<()> {
    let source = format!("random {stones}-stone positions");
    let mut sets = TableSets::default();
    sets.load(stones)?;
    for w in winners {
        sets.load(*w)?;
    }
    let tables = sets.get(stones).ok_or("tables of 2 to 5 stones")?;
    let mut rng = fastrand::Rng::with_seed(12);
    let mut positions = Vec::new();
    while positions.len() < count {
        let white = (0..stones).filter(|_| rng.bool()).count();
        let setup = random_setup(&mut |n| rng.usize(..n), white, stones - white);
        let Ok(pos) = Position::from_setup(setup) else {
            continue;
        };
        if let Some(Probe {
            result: TableResult::Win,
            turns,
        }) = tables.probe(&pos)
        {
            if turns >= min_turns && !pos.has_capture() {
                positions.push(pos);
            }
        }
    }
    win_play_outs(
        &positions, &source, nodes, min_turns, stones, winners, &sets,
    )
}

/// Like [`table_wins`], but with positions of `path` (their counters as
/// they were), `count` of them spread evenly through those that fit.
pub(crate) fn data_wins(
    path: &str,
    count: usize,
    nodes: u64,
    min_turns: u32,
    stones: usize,
    winners: &[usize],
) -> Result<()> {
    let mut sets = TableSets::default();
    sets.load(stones)?;
    for w in winners {
        sets.load(*w)?;
    }
    let tables = sets.get(stones).ok_or("tables of 2 to 5 stones")?;
    let mut all = Vec::new();
    for (pos, _) in data_positions(path)? {
        if pos.board().occupied().count() != stones || pos.has_capture() {
            continue;
        }
        if let Some(Probe {
            result: TableResult::Win,
            turns,
        }) = tables.probe(&pos)
        {
            if turns >= min_turns {
                all.push(pos);
            }
        }
    }
    all.dedup();
    let found = all.len();
    let positions = spread(all, count);
    let source = format!("{stones}-stone positions of {path} (of {found} that fit)");
    win_play_outs(
        &positions, &source, nodes, min_turns, stones, winners, &sets,
    )
}

/// Plays out `positions`, each won for the side to move, by the side to
/// move with each of `winners` against a defender with tables of
/// `stones` stones, and prints the wins, the turns and the cost.
fn win_play_outs(
    positions: &[Position],
    source: &str,
    nodes: u64,
    min_turns: u32,
    stones: usize,
    winners: &[usize],
    sets: &TableSets,
) -> Result<()> {
    let tables = sets.get(stones).ok_or("tables of 2 to 5 stones")?;
    let count = positions.len();
    let n = positions.len();
    let outs: Vec<PlayOut> = on_every_core(n * winners.len(), |j| {
        let (w, p) = (winners[j / n], positions[j % n]);
        let a = usize::from(p.turn() == Color::Black);
        let mut with = [Some(tables), Some(tables)];
        with[a] = sets.get(w);
        play_out(p, nodes, with)
    });
    println!(
        "{count} {source} won for the side to move in {min_turns} turns or more, {nodes} nodes a turn, the defender with tables of {stones} stones"
    );
    for (k, w) in winners.iter().enumerate() {
        let of = &outs[k * n..(k + 1) * n];
        let won: Vec<u32> = positions
            .iter()
            .zip(of)
            .filter(|(p, o)| o.winner == Some(p.turn()))
            .map(|(_, o)| o.turns)
            .collect();
        let lost = positions
            .iter()
            .zip(of)
            .filter(|(p, o)| o.winner == Some(!p.turn()))
            .count();
        let mean = f64::from(won.iter().sum::<u32>()) / won.len().max(1) as f64;
        let (nodes_w, ms_w) = cost(positions.iter().zip(of).map(|(p, o)| (o, p.turn())));
        println!(
            "the side to move with tables of {w}: won {}/{count} ({:.1}%), lost {lost}, in {mean:.1} turns on average; a turn: {nodes_w:.0} nodes, {ms_w:.1} ms",
            won.len(),
            100.0 * won.len() as f64 / count.max(1) as f64
        );
    }
    Ok(())
}

/// How many positions of `path` each number of stones up to `stones` has,
/// what the tables say of them at their counter (win, draw or loss for the
/// side to move), how many of the wins need `min_turns` turns or more, in
/// how many stretches of a game (one side's turns in a row), and how many
/// of those the game went on to lose or draw.
pub(crate) fn table_stats(path: &str, stones: usize, min_turns: u32) -> Result<()> {
    let tables = load_tables(stones)?.ok_or("tables of 2 to 5 stones")?;
    // Per number of stones: positions, wins, draws, losses, long wins,
    // long wins the game did not win, stretches of long wins.
    let mut counts = vec![[0u32; 7]; stones + 1];
    let mut last_long = vec![usize::MAX - 2; stones + 1];
    let data = data_positions(path)?;
    let total = data.len();
    for (index, (pos, result)) in data.into_iter().enumerate() {
        let n = pos.board().occupied().count();
        let Some(probe) = tables.probe(&pos) else {
            continue;
        };
        let c = &mut counts[n];
        c[0] += 1;
        match probe.result {
            TableResult::Win => {
                c[1] += 1;
                if probe.turns >= min_turns {
                    c[4] += 1;
                    if index.wrapping_sub(last_long[n]) > 2 {
                        c[6] += 1;
                    }
                    last_long[n] = index;
                    let white: f64 = result.parse()?;
                    let for_mover = if pos.turn() == Color::White {
                        white
                    } else {
                        1.0 - white
                    };
                    if for_mover < 1.0 {
                        c[5] += 1;
                    }
                }
            }
            TableResult::Draw => c[2] += 1,
            TableResult::Loss => c[3] += 1,
        }
    }
    println!("{total} positions in {path}");
    for (n, c) in counts.iter().enumerate().skip(2) {
        println!(
            "{n} stones: {} positions, {} won, {} drawn, {} lost for the side to move; {} won in {min_turns} turns or more, in {} stretches, of which the game did not win {}",
            c[0], c[1], c[2], c[3], c[4], c[6], c[5]
        );
    }
    Ok(())
}
