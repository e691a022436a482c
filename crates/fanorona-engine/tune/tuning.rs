//! The tuning: self-play positions, the fit of the weights to their
//! results, and the match that checks a fit.

use std::{
    fs,
    io::{BufWriter, Write},
    sync::atomic::AtomicBool,
};

use fanorona::{Color, Position, Setup, FIFTY_TURNS};
use fanorona_engine::{
    features, opening, play_game, Config, Engine, Level, Limits, MatchConfig, Player, Score, Tally,
    Weights, FADE_FROM, FEATURES, FEATURE_COUNT,
};

use crate::{on_every_core, Result};

/// `W1,W2,...`, one weight per feature.
pub(crate) fn parse_weights(text: &str) -> std::result::Result<Weights, String> {
    let v: Vec<i32> = text
        .split(',')
        .map(str::parse)
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| format!("{text:?}: {e}"))?;
    let w: [i32; FEATURE_COUNT] = v
        .try_into()
        .map_err(|_| format!("expected {FEATURE_COUNT} weights"))?;
    Ok(Weights(w))
}

/// How the self-play games of `positions` are played.
#[derive(Copy, Clone, Debug)]
pub(crate) struct SelfPlay {
    /// Each turn a full search of this many nodes; `None`: level 4 (depth
    /// 4, a little noise).
    pub(crate) nodes: Option<u64>,
    /// Random turns from the start before the engine plays.
    pub(crate) opening_turns: u32,
    /// With `nodes`: `(deeper, stones)`, a position of at least `stones`
    /// stones searched with `deeper` nodes instead, so the middle game's
    /// scores come from a deeper search.
    pub(crate) deep: Option<(u64, usize)>,
}

/// One position met in a self-play game, with the search's score for the
/// side to move when it was a plain value (not a won or lost game).
struct Seen {
    pos: Position,
    score: Option<i32>,
}

/// Plays one self-play game from a random opening; returns the quiet
/// positions met after the opening's fourth turn and the result for White
/// (1, 0.5 or 0).
fn self_play(index: u32, how: SelfPlay) -> (Vec<Seen>, f64) {
    let mut engine = Engine::new(Config {
        table_bytes: 4 << 20,
        ..Config::default()
    });
    let stop = AtomicBool::new(false);
    let mut pos = Position::start();
    for t in opening(0x7E8E1, index, how.opening_turns) {
        if let Ok(next) = pos.play(&t) {
            pos = next;
        }
    }
    let mut seen = Vec::new();
    let mut n = 0u64;
    while pos.outcome().is_none() {
        n += 1;
        let result = match how.nodes {
            Some(nodes) => {
                let nodes = match how.deep {
                    Some((deeper, stones)) if pos.board().occupied().count() >= stones => deeper,
                    _ => nodes,
                };
                engine.search(&pos, Limits::nodes(nodes), &stop, |_| {})
            }
            None => {
                let seed = u64::from(index) << 16 | n;
                let level = Level::new(4).unwrap_or(Level::MAX);
                engine.play_level(&pos, level, seed, &stop)
            }
        };
        if n > 4 && !pos.has_capture() {
            let score = match result.info.score {
                Score::Value(v) if how.nodes.is_some() => Some(v),
                _ => None,
            };
            seen.push(Seen { pos, score });
        }
        let Some(after) = result.after else {
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

/// Writes the quiet positions of `games` self-play games to `out`, a line
/// each: `POSITION;RESULT`, the game's result for White, and with a
/// search by nodes `;SCORE`, the search's score for the side to move.
pub(crate) fn positions(games: u32, how: SelfPlay, out: &str) -> Result<()> {
    let results: Vec<(Vec<Seen>, f64)> =
        on_every_core(games as usize, |i| self_play(i as u32, how));
    let mut file = BufWriter::new(fs::File::create(out)?);
    let mut count = 0;
    for (seen, result) in &results {
        for s in seen {
            match s.score {
                Some(score) => writeln!(file, "{};{result};{score}", s.pos)?,
                None => writeln!(file, "{};{result}", s.pos)?,
            }
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

/// Reads a data file; each position's target is `lambda` times the
/// game's result plus `1 - lambda` times the search's score (through the
/// logistic curve of scale `k`), the result alone where the line has no
/// score. Positions with at most `min_stones` stones are left out (the
/// endgame tables answer for them).
fn load(path: &str, lambda: f64, k: f64, min_stones: usize) -> Result<Vec<Sample>> {
    let text = fs::read_to_string(path)?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut fields = line.split(';');
        let (Some(pos), Some(result)) = (fields.next(), fields.next()) else {
            return Err(format!("line {}: expected POSITION;RESULT[;SCORE]", i + 1).into());
        };
        let score: Option<f64> = fields.next().map(str::parse).transpose()?;
        let pos = Position::from_setup(pos.parse::<Setup>()?)?;
        if pos.board().occupied().count() <= min_stones {
            continue;
        }
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
        // The evaluation's fade over the last turns of the counter.
        let quiet = pos.turns_since_capture();
        let fade = if quiet <= FADE_FROM {
            1.0
        } else {
            f64::from(FIFTY_TURNS.saturating_sub(quiet)) / f64::from(FIFTY_TURNS - FADE_FROM)
        };
        let result: f64 = result.parse()?;
        let result = match score {
            Some(s) => lambda * result + (1.0 - lambda) * sigmoid(k * sign * s),
            None => result,
        };
        out.push(Sample { f, fade, result });
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

/// How `fit` reads its data.
#[derive(Copy, Clone, Debug)]
pub(crate) struct FitData {
    /// The weight of the game's result in each target, against the
    /// search's score (1: the result alone).
    pub(crate) lambda: f64,
    /// The scale of the logistic curve that maps a search's score to an
    /// expected result.
    pub(crate) score_scale: f64,
    /// Positions with at most this many stones are left out.
    pub(crate) min_stones: usize,
    /// Steps of gradient descent.
    pub(crate) epochs: u32,
}

pub(crate) fn fit(path: &str, how: FitData) -> Result<()> {
    let data = load(path, how.lambda, how.score_scale, how.min_stones)?;
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
    for epoch in 0..how.epochs {
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
pub(crate) fn compare(games: u32, depth: u32, candidate: &Weights) -> Result<()> {
    let config = MatchConfig {
        games,
        opening_turns: 3,
        time: None,
        seed: 0xC0DE,
        tables: None,
    };
    let (first, second) = (
        Player::Weighted(depth, *candidate),
        Player::Weighted(depth, Weights::DEFAULT),
    );
    let results = on_every_core(games as usize, |i| {
        play_game(first, second, &config, i as u32).map(|g| g.result)
    });
    let mut tally = Tally::default();
    for r in results {
        tally.add(r?);
    }
    println!("candidate vs default at depth {depth}: {tally}");
    Ok(())
}
