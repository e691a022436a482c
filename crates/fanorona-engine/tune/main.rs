//! Fits the evaluation weights to game results (Texel's method) and checks
//! the fit by matches. See `tune/README.md`.
//!
//! ```text
//! cargo run --release -p fanorona-engine --example tune -- positions GAMES OUT
//! cargo run --release -p fanorona-engine --example tune -- fit DATA
//! cargo run --release -p fanorona-engine --example tune -- compare GAMES DEPTH W1,W2,...
//! cargo run --release -p fanorona-engine --example tune -- endgames DATA COUNT NODES [CLOSE]
//! cargo run --release -p fanorona-engine --example tune -- tablewins COUNT NODES MIN_TURNS [STONES [WINNER,...]]
//! cargo run --release -p fanorona-engine --example tune -- datawins DATA COUNT NODES MIN_TURNS STONES WINNER,...
//! cargo run --release -p fanorona-engine --example tune -- convert DATA COUNT NODES AHEAD:BEHIND ...
//! cargo run --release -p fanorona-engine --example tune -- tablestats DATA STONES MIN_TURNS
//! ```
//!
//! Tables are given by the most stones they hold (0 for none). Tables that
//! `fanorona tables --stones N --out DIR/tables-N.bin` wrote are read from
//! there when the environment variable `TUNE_TABLES` names DIR; otherwise
//! they are solved (5 stones take about 34 s).

use std::{
    error::Error,
    fs,
    io::{BufWriter, Write},
    sync::{atomic::AtomicBool, Arc},
    time::Instant,
};

use fanorona::{Board, Color, Position, Setup, Square};
use fanorona_engine::{
    features, opening, Config, Engine, Level, Limits, Probe, TableResult, Tables, Tally, Weights,
    WinDrawLoss, FEATURES, FEATURE_COUNT,
};

type Result<T> = std::result::Result<T, Box<dyn Error>>;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| -> Result<&str> {
        args.get(i)
            .map(String::as_str)
            .ok_or_else(|| format!("missing argument {i}; see the opening comment").into())
    };
    match arg(0)? {
        "positions" => positions(arg(1)?.parse()?, arg(2)?),
        "fit" => fit(arg(1)?),
        "compare" => compare(arg(1)?.parse()?, arg(2)?.parse()?, &parse_weights(arg(3)?)?),
        "endgames" => {
            let count = arg(2)?.parse()?;
            let close = args.get(4).map_or(Ok(count), |c| c.parse())?;
            endgames(arg(1)?, count, arg(3)?.parse()?, close)
        }
        "tablewins" => {
            let stones = args.get(4).map_or(Ok(4), |s| s.parse())?;
            let winners = match args.get(5) {
                Some(list) => list
                    .split(',')
                    .map(str::parse)
                    .collect::<std::result::Result<_, _>>()?,
                None => vec![0, stones],
            };
            table_wins(
                arg(1)?.parse()?,
                arg(2)?.parse()?,
                arg(3)?.parse()?,
                stones,
                &winners,
            )
        }
        "datawins" => data_wins(
            arg(1)?,
            arg(2)?.parse()?,
            arg(3)?.parse()?,
            arg(4)?.parse()?,
            arg(5)?.parse()?,
            &arg(6)?
                .split(',')
                .map(str::parse)
                .collect::<std::result::Result<Vec<_>, _>>()?,
        ),
        "tablestats" => table_stats(arg(1)?, arg(2)?.parse()?, arg(3)?.parse()?),
        "convert" => {
            let specs = args[4.min(args.len())..]
                .iter()
                .map(|s| parse_sides(s))
                .collect::<Result<Vec<_>>>()?;
            convert(arg(1)?, arg(2)?.parse()?, arg(3)?.parse()?, &specs)
        }
        other => Err(format!("unknown command {other:?}").into()),
    }
}

/// `f(0)`, ..., `f(n - 1)` computed on every core, in that order.
fn on_every_core<R: Send>(n: usize, f: impl Fn(usize) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let f = &f;
    let mut parts: Vec<Vec<(usize, R)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|w| s.spawn(move || (w..n).step_by(threads).map(|i| (i, f(i))).collect()))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut all: Vec<(usize, R)> = parts.iter_mut().flat_map(std::mem::take).collect();
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}

fn parse_weights(text: &str) -> Result<Weights> {
    let v: Vec<i32> = text
        .split(',')
        .map(str::parse)
        .collect::<std::result::Result<_, _>>()?;
    let w: [i32; FEATURE_COUNT] = v
        .try_into()
        .map_err(|_| format!("expected {FEATURE_COUNT} weights"))?;
    Ok(Weights(w))
}

/// Plays one self-play game at level 4 (depth 4, a little noise) from a
/// random two-turn opening; returns the positions met and the result for
/// White (1, 0.5 or 0).
fn self_play(index: u32) -> (Vec<Position>, f64) {
    let mut engine = Engine::new(Config {
        table_bytes: 4 << 20,
        ..Config::default()
    });
    let stop = AtomicBool::new(false);
    let mut pos = Position::start();
    for t in opening(0x7E8E1, index, 2) {
        if let Ok(next) = pos.play(&t) {
            pos = next;
        }
    }
    let mut seen = Vec::new();
    let mut n = 0u64;
    while pos.outcome().is_none() {
        n += 1;
        if n > 4 && !pos.has_capture() {
            seen.push(pos);
        }
        let seed = u64::from(index) << 16 | n;
        let level = Level::new(4).unwrap_or(Level::MAX);
        let Some(after) = engine.play_level(&pos, level, seed, &stop).after else {
            break;
        };
        pos = after;
    }
    let result = match pos.outcome().and_then(|o| o.winner) {
        Some(Color::White) => 1.0,
        Some(Color::Black) => 0.0,
        None => 0.5,
    };
    (seen, result)
}

fn positions(games: u32, out: &str) -> Result<()> {
    let results: Vec<(Vec<Position>, f64)> = on_every_core(games as usize, |i| self_play(i as u32));
    let mut file = BufWriter::new(fs::File::create(out)?);
    let mut count = 0;
    for (seen, result) in &results {
        for p in seen {
            writeln!(file, "{p};{result}")?;
            count += 1;
        }
    }
    file.flush()?;
    eprintln!(
        "{} games, {count} positions written to {out}",
        results.len()
    );
    Ok(())
}

/// One training position: its features from White's side, its counter and
/// the result for White.
struct Sample {
    f: [f64; FEATURE_COUNT],
    fade: f64,
    result: f64,
}

fn load(path: &str) -> Result<Vec<Sample>> {
    let text = fs::read_to_string(path)?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let (pos, result) = line
            .split_once(';')
            .ok_or_else(|| format!("line {}: expected POSITION;RESULT", i + 1))?;
        let pos = Position::from_setup(pos.parse::<Setup>()?)?;
        let sign = if pos.turn() == Color::White {
            1.0
        } else {
            -1.0
        };
        let raw = features(&pos);
        let mut f = [0.0; FEATURE_COUNT];
        for (x, r) in f.iter_mut().zip(raw) {
            *x = sign * f64::from(r);
        }
        // The evaluation's fade over the last twenty turns of the counter.
        let quiet = pos.turns_since_capture();
        let fade = if quiet <= 30 {
            1.0
        } else {
            f64::from(50 - quiet.min(50)) / 20.0
        };
        out.push(Sample {
            f,
            fade,
            result: result.parse()?,
        });
    }
    Ok(out)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the predicted results with weights `w` and
/// scale `k` (per hundredth of a stone).
fn loss(data: &[Sample], w: &[f64; FEATURE_COUNT], k: f64) -> f64 {
    let sum: f64 = data
        .iter()
        .map(|s| {
            let e: f64 = s.f.iter().zip(w).map(|(x, w)| x * w).sum::<f64>() * s.fade;
            (s.result - sigmoid(k * e)).powi(2)
        })
        .sum();
    sum / data.len() as f64
}

fn fit(path: &str) -> Result<()> {
    let data = load(path)?;
    let start = Weights::DEFAULT.0.map(f64::from);
    // The scale that best fits the current weights, then the weights with
    // that scale fixed (material stays 100: it is the unit).
    let mut k = 0.01;
    let mut best = loss(&data, &start, k);
    for step in [0.004, 0.001, 0.0002] {
        loop {
            let up = loss(&data, &start, k + step);
            let down = loss(&data, &start, (k - step).max(1e-5));
            if up < best {
                k += step;
                best = up;
            } else if down < best {
                k -= step;
                best = down;
            } else {
                break;
            }
        }
    }
    eprintln!(
        "{} positions, k = {k:.4}, loss with the current weights {best:.6}",
        data.len()
    );
    let mut w = start;
    let mut lr = [0.0; FEATURE_COUNT];
    for (i, l) in lr.iter_mut().enumerate() {
        let spread = (data.iter().map(|s| s.f[i] * s.f[i]).sum::<f64>() / data.len() as f64).sqrt();
        *l = if spread > 0.0 { 2000.0 / spread } else { 0.0 };
    }
    lr[0] = 0.0;
    for epoch in 0..3000 {
        let mut grad = [0.0; FEATURE_COUNT];
        for s in &data {
            let e: f64 = s.f.iter().zip(&w).map(|(x, w)| x * w).sum::<f64>() * s.fade;
            let p = sigmoid(k * e);
            let g = -2.0 * (s.result - p) * p * (1.0 - p) * k * s.fade;
            for (gi, x) in grad.iter_mut().zip(s.f) {
                *gi += g * x;
            }
        }
        for i in 0..FEATURE_COUNT {
            w[i] -= lr[i] * grad[i] / data.len() as f64;
        }
        if epoch % 500 == 499 {
            eprintln!("epoch {}: loss {:.6}", epoch + 1, loss(&data, &w, k));
        }
    }
    let rounded: Vec<String> = w.iter().map(|x| format!("{}", x.round() as i32)).collect();
    for (name, (old, new)) in FEATURES.iter().zip(start.iter().zip(&w)) {
        eprintln!("{name:>14} {old:>6} -> {new:>8.1}");
    }
    println!("{}", rounded.join(","));
    Ok(())
}

/// Plays `games` games at a fixed depth between the default weights and
/// `candidate`, colours swapped in pairs, and prints the candidate's tally.
fn compare(games: u32, depth: u32, candidate: &Weights) -> Result<()> {
    let one = |i: u32| -> WinDrawLoss {
        let weights = [*candidate, Weights::DEFAULT];
        let mut engines = weights.map(|weights| {
            Engine::new(Config {
                table_bytes: 4 << 20,
                weights,
            })
        });
        let stop = AtomicBool::new(false);
        let candidate_plays = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut pos = Position::start();
        for t in opening(0xC0DE, i / 2, 3) {
            if let Ok(next) = pos.play(&t) {
                pos = next;
            }
        }
        while pos.outcome().is_none() {
            let who = usize::from(pos.turn() != candidate_plays);
            let r = engines[who].search(&pos, Limits::depth(depth), &stop, |_| {});
            match r.after {
                Some(after) => pos = after,
                None => break,
            }
        }
        match pos.outcome().and_then(|o| o.winner) {
            None => WinDrawLoss::Draw,
            Some(c) if c == candidate_plays => WinDrawLoss::Win,
            Some(_) => WinDrawLoss::Loss,
        }
    };
    let results: Vec<WinDrawLoss> = on_every_core(games as usize, |i| one(i as u32));
    let mut tally = Tally::default();
    for r in results {
        tally.add(r);
    }
    println!("candidate vs default at depth {depth}: {tally}");
    Ok(())
}

/// Positions from `path` with at most 8 stones, a lead of `lead` stones or
/// more (at most 1 when `lead` is 0) and no capture pending, fresh from a
/// capture: `count` of them, spread evenly through the file.
fn endgame_positions(path: &str, count: usize, lead: usize) -> Result<Vec<Position>> {
    let mut all = Vec::new();
    for (pos, _) in data_positions(path)? {
        let b = pos.board();
        let (w, k) = (b.count(Color::White), b.count(Color::Black));
        let fits = if lead == 0 {
            w.abs_diff(k) <= 1
        } else {
            w.abs_diff(k) >= lead
        };
        let fresh = !pos.has_capture() && pos.turns_since_capture() == 0;
        if (5..=8).contains(&(w + k)) && fits && fresh {
            all.push(pos);
        }
    }
    all.dedup();
    Ok(spread(all, count))
}

/// The positions of a self-play data file, a `POSITION;RESULT` line each,
/// in order, with their results as written; lines without `;` are passed
/// over.
fn data_positions(path: &str) -> Result<Vec<(Position, String)>> {
    let text = fs::read_to_string(path)?;
    let mut out = Vec::new();
    for line in text.lines() {
        let Some((pos, result)) = line.split_once(';') else {
            continue;
        };
        out.push((
            Position::from_setup(pos.parse::<Setup>()?)?,
            result.to_owned(),
        ));
    }
    Ok(out)
}

/// `count` of `all`, spread evenly through them.
fn spread<T>(all: Vec<T>, count: usize) -> Vec<T> {
    let step = (all.len() / count.max(1)).max(1);
    all.into_iter().step_by(step).take(count).collect()
}

/// How a play-out ended: the winner, if any, and the turns it took; and
/// per colour, the turns it played, the nodes searched and the time taken.
#[derive(Clone, Copy)]
struct PlayOut {
    winner: Option<Color>,
    turns: u32,
    played: [u32; 2],
    nodes: [u64; 2],
    micros: [u64; 2],
}

/// Plays `pos` out between two engines searching `nodes` nodes a turn,
/// `with[c]` the tables of colour c's engine, if any.
fn play_out(pos: Position, nodes: u64, with: [Option<&Arc<Tables>>; 2]) -> PlayOut {
    let mut engines = with.map(|t| {
        let mut e = Engine::new(Config {
            table_bytes: 8 << 20,
            ..Config::default()
        });
        e.set_tables(t.cloned());
        e
    });
    let stop = AtomicBool::new(false);
    let mut pos = pos;
    let mut out = PlayOut {
        winner: None,
        turns: 0,
        played: [0; 2],
        nodes: [0; 2],
        micros: [0; 2],
    };
    while pos.outcome().is_none() {
        let who = usize::from(pos.turn() == Color::Black);
        let started = Instant::now();
        let r = engines[who].search(&pos, Limits::nodes(nodes), &stop, |_| {});
        out.micros[who] += started.elapsed().as_micros() as u64;
        out.nodes[who] += r.info.nodes;
        out.played[who] += 1;
        match r.after {
            Some(after) => pos = after,
            None => break,
        }
        out.turns += 1;
    }
    out.winner = pos.outcome().and_then(|o| o.winner);
    out
}

/// Tables of up to `stones` stones (none for 0): read from the directory
/// that `TUNE_TABLES` names when it holds `tables-N.bin`, otherwise solved.
fn load_tables(stones: usize) -> Result<Option<Arc<Tables>>> {
    if stones == 0 {
        return Ok(None);
    }
    if let Ok(dir) = std::env::var("TUNE_TABLES") {
        let path = std::path::Path::new(&dir).join(format!("tables-{stones}.bin"));
        if path.exists() {
            let mut file = std::io::BufReader::new(fs::File::open(&path)?);
            let tables = Tables::read_from(&mut file)?;
            eprintln!(
                "tables up to {} stones read from {}",
                tables.max_stones(),
                path.display()
            );
            return Ok(Some(Arc::new(tables)));
        }
    }
    let started = Instant::now();
    let tables = Tables::build(stones);
    eprintln!(
        "tables up to {} stones solved in {:.1} s",
        tables.max_stones(),
        started.elapsed().as_secs_f64()
    );
    Ok(Some(Arc::new(tables)))
}

/// `AHEAD:BEHIND`, the tables of the side ahead and of the side behind.
fn parse_sides(text: &str) -> Result<[usize; 2]> {
    let (a, b) = text
        .split_once(':')
        .ok_or_else(|| format!("expected AHEAD:BEHIND, got {text:?}"))?;
    Ok([a.parse()?, b.parse()?])
}

/// Loaded tables by their size, each loaded once.
#[derive(Default)]
struct TableSets(Vec<(usize, Option<Arc<Tables>>)>);

impl TableSets {
    fn load(&mut self, stones: usize) -> Result<()> {
        if !self.0.iter().any(|(n, _)| *n == stones) {
            self.0.push((stones, load_tables(stones)?));
        }
        Ok(())
    }

    fn get(&self, stones: usize) -> Option<&Arc<Tables>> {
        self.0
            .iter()
            .find(|(n, _)| *n == stones)
            .and_then(|(_, t)| t.as_ref())
    }
}

/// The side with more stones.
fn ahead(p: &Position) -> Color {
    let b = p.board();
    if b.count(Color::White) > b.count(Color::Black) {
        Color::White
    } else {
        Color::Black
    }
}

/// Mean nodes and milliseconds a turn of colour `side` over `outs`.
fn cost<'a>(outs: impl Iterator<Item = (&'a PlayOut, Color)>) -> (f64, f64) {
    let (mut turns, mut nodes, mut micros) = (0u64, 0u64, 0u64);
    for (o, side) in outs {
        let i = usize::from(side == Color::Black);
        turns += u64::from(o.played[i]);
        nodes += o.nodes[i];
        micros += o.micros[i];
    }
    let t = turns.max(1) as f64;
    (nodes as f64 / t, micros as f64 / t / 1000.0)
}

/// The conversion experiment, from `count` positions of `path` with 5 to 8
/// stones, one side 2 or more stones ahead, fresh from a capture: for each
/// `[ahead, behind]` in `specs`, the tables each side holds, the side
/// ahead's wins, draws and losses within the fifty-turn rule, its turns to
/// a win and its cost a turn. For each pair of specs, the positions the
/// side ahead won with one and not with the other; for each pair that are
/// each other's mirror, the first's tables against the second's, each
/// position once with each side.
fn convert(path: &str, count: usize, nodes: u64, specs: &[[usize; 2]]) -> Result<()> {
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
fn endgames(path: &str, count: usize, nodes: u64, close: usize) -> Result<()> {
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

/// The result of a game won by `winner` (or drawn) for `side`.
fn result_for(winner: Option<Color>, side: Color) -> WinDrawLoss {
    match winner {
        None => WinDrawLoss::Draw,
        Some(c) if c == side => WinDrawLoss::Win,
        Some(_) => WinDrawLoss::Loss,
    }
}

/// `count` random positions of `stones` stones that the tables win for the
/// side to move at counter 0 in `min_turns` turns or more (to the next
/// capture or the end), played out by the side to move with each of
/// `winners` (the most stones of its tables, 0 for none) against a
/// defender with tables of `stones` stones; with each, the wins, the turns
/// to them and the winner's cost a turn.
fn table_wins(
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
        let mut board = Board::empty();
        while board.occupied().count() < stones {
            let sq = Square::new(rng.u32(0..45)).ok_or("a square")?;
            let color = if rng.bool() {
                Color::White
            } else {
                Color::Black
            };
            board.set(sq, Some(color));
        }
        let turn = if rng.bool() {
            Color::White
        } else {
            Color::Black
        };
        let setup = Setup {
            board,
            turn,
            turns_since_capture: 0,
        };
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
fn data_wins(
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
fn table_stats(path: &str, stones: usize, min_turns: u32) -> Result<()> {
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
