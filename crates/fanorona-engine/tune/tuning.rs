//! The tuning: self-play positions, the fit of the weights to their
//! results, and the match that checks a fit.

use std::{
    fs,
    io::{BufWriter, Write},
    sync::atomic::AtomicBool,
};

use fanorona::{Color, Position, Setup, FIFTY_TURNS};
use fanorona_engine::{
    features, opening, play_game, Config, Engine, Level, MatchConfig, Player, Tally, Weights,
    FADE_FROM, FEATURES, FEATURE_COUNT,
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

pub(crate) fn positions(games: u32, out: &str) -> Result<()> {
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
        // The evaluation's fade over the last turns of the counter.
        let quiet = pos.turns_since_capture();
        let fade = if quiet <= FADE_FROM {
            1.0
        } else {
            f64::from(FIFTY_TURNS.saturating_sub(quiet)) / f64::from(FIFTY_TURNS - FADE_FROM)
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

pub(crate) fn fit(path: &str) -> Result<()> {
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
