//! `tune net`: fits the evaluation's network (`src/net/`) to the search's
//! scores of self-play positions, as a correction of the weighted
//! evaluation, and writes its weights as Rust source.

use std::{fmt::Write as _, fs};

use fanorona::{Position, Setup, Square, FIFTY_TURNS};
use fanorona_engine::{
    features,
    net::{Layers, ACTIVATION_ONE, HIDDEN, INPUTS, OUTPUT_SCALE},
    Weights, FADE_FROM,
};

use crate::Result;

/// How `net` fits.
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct NetFit {
    /// Passes over the data.
    #[arg(long, default_value_t = 20)]
    pub(crate) epochs: u32,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.002)]
    pub(crate) rate: f32,
    /// Positions a step.
    #[arg(long, default_value_t = 256)]
    pub(crate) batch: usize,
    /// Positions with at most this many stones are left out.
    #[arg(long, default_value_t = 4)]
    pub(crate) min_stones: usize,
    /// The share of positions held out to measure the fit.
    #[arg(long, default_value_t = 0.05)]
    pub(crate) holdout: f64,
    /// The seed of the first weights and of the order of the positions.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
}

/// One position: its inputs for the side to move, the weighted
/// evaluation, the fade of the counter and the target.
struct Sample {
    inputs: Vec<u8>,
    base: f32,
    fade: f32,
    target: f32,
}

/// The four symmetries of the board: each point's image.
fn symmetries() -> [[u8; Square::COUNT]; 4] {
    let mut out = [[0; Square::COUNT]; 4];
    for (s, map) in out.iter_mut().enumerate() {
        for (i, m) in map.iter_mut().enumerate() {
            let (mut f, mut r) = (i % 9, i / 9);
            if s & 1 != 0 {
                f = 8 - f;
            }
            if s & 2 != 0 {
                r = 4 - r;
            }
            *m = (r * 9 + f) as u8;
        }
    }
    out
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Reads `POSITION;RESULT;SCORE` lines (lines without a score are left
/// out), each position in its four symmetries.
fn load(path: &str, min_stones: usize) -> Result<Vec<Sample>> {
    let text = fs::read_to_string(path)?;
    let maps = symmetries();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut fields = line.split(';');
        let (Some(pos), Some(_), Some(score)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let score: f32 = score
            .parse()
            .map_err(|e| format!("line {}: {score:?}: {e}", i + 1))?;
        let pos = Position::from_setup(pos.parse::<Setup>()?)?;
        if pos.board().occupied().count() <= min_stones {
            continue;
        }
        let f = features(&pos);
        let base: i32 = f.iter().zip(Weights::DEFAULT.0).map(|(x, w)| x * w).sum();
        let quiet = pos.turns_since_capture();
        let fade = if quiet <= FADE_FROM {
            1.0
        } else {
            FIFTY_TURNS.saturating_sub(quiet) as f32 / (FIFTY_TURNS - FADE_FROM) as f32
        };
        let us = pos.board().by_color(pos.turn());
        let them = pos.board().by_color(!pos.turn());
        for map in &maps {
            let mut inputs: Vec<u8> = us.into_iter().map(|s| map[s.index()]).collect();
            inputs.extend(
                them.into_iter()
                    .map(|s| Square::COUNT as u8 + map[s.index()]),
            );
            out.push(Sample {
                inputs,
                base: base as f32,
                fade,
                target: sigmoid(score / 100.0),
            });
        }
    }
    Ok(out)
}

/// The network in floats: activations clipped to [0, 1], the output in
/// hundredths of a stone.
#[derive(Clone)]
struct Net {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

impl Net {
    fn zeros() -> Net {
        Net {
            w1: vec![0.0; INPUTS * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; HIDDEN],
            b2: 0.0,
        }
    }

    fn params(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(std::iter::once(&mut self.b2))
    }

    /// The hidden sums of `inputs`.
    fn hidden(&self, inputs: &[u8], acc: &mut [f32; HIDDEN]) {
        acc.copy_from_slice(&self.b1);
        for &i in inputs {
            let row = &self.w1[usize::from(i) * HIDDEN..][..HIDDEN];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    fn output(&self, acc: &[f32; HIDDEN]) -> f32 {
        self.b2
            + acc
                .iter()
                .zip(&self.w2)
                .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                .sum::<f32>()
    }

    /// The squared error of `s`, and with `grad` its gradient added.
    fn error(&self, s: &Sample, grad: Option<&mut Net>) -> f32 {
        let mut acc = [0.0; HIDDEN];
        self.hidden(&s.inputs, &mut acc);
        let out = self.output(&acc);
        let p = sigmoid(s.fade * (s.base + out) / 100.0);
        let e = p - s.target;
        if let Some(g) = grad {
            let d = 2.0 * e * p * (1.0 - p) * s.fade / 100.0;
            g.b2 += d;
            for (j, &a) in acc.iter().enumerate() {
                g.w2[j] += d * a.clamp(0.0, 1.0);
                if a > 0.0 && a < 1.0 {
                    let da = d * self.w2[j];
                    g.b1[j] += da;
                    for &i in &s.inputs {
                        g.w1[usize::from(i) * HIDDEN + j] += da;
                    }
                }
            }
        }
        e * e
    }

    /// The network in the engine's integers.
    fn quantized(&self) -> Quantized {
        let one = ACTIVATION_ONE as f32;
        let q = |x: f32, scale: f32| (x * scale).round().clamp(-32768.0, 32767.0) as i16;
        let row =
            |v: &[f32], scale: f32| -> [i16; HIDDEN] { std::array::from_fn(|j| q(v[j], scale)) };
        let scale = OUTPUT_SCALE as f32 / one;
        Quantized {
            w1: self.w1.chunks(HIDDEN).map(|r| row(r, one)).collect(),
            b1: row(&self.b1, one),
            w2: row(&self.w2, scale),
            b2: (self.b2 * OUTPUT_SCALE as f32).round() as i32,
        }
    }
}

/// The network's weights in the engine's integers, owned.
struct Quantized {
    w1: Vec<[i16; HIDDEN]>,
    b1: [i16; HIDDEN],
    w2: [i16; HIDDEN],
    b2: i32,
}

impl Quantized {
    fn layers(&self) -> Layers<'_> {
        Layers {
            hidden_weights: &self.w1,
            hidden_bias: &self.b1,
            output_weights: &self.w2,
            output_bias: self.b2,
        }
    }
}

/// The mean squared error over `data`, in the engine's integers: what the
/// engine will play with.
fn quantized_loss(net: &Net, data: &[Sample]) -> f64 {
    let quantized = net.quantized();
    let layers = quantized.layers();
    let mut sum = 0.0;
    for s in data {
        let out = layers.output(s.inputs.iter().map(|&i| usize::from(i)));
        let p = sigmoid(s.fade * (s.base + out as f32) / 100.0);
        sum += f64::from((p - s.target).powi(2));
    }
    sum / data.len() as f64
}

fn mean_error(net: &Net, data: &[Sample]) -> f64 {
    data.iter()
        .map(|s| f64::from(net.error(s, None)))
        .sum::<f64>()
        / data.len() as f64
}

/// Fits the network to `data` and writes its weights to `out`.
pub(crate) fn fit_net(data: &str, how: &NetFit, out: &str) -> Result<()> {
    let mut samples = load(data, how.min_stones)?;
    if samples.is_empty() {
        return Err(format!("{data}: no positions with a score").into());
    }
    // Hold out whole positions (their four symmetries are adjacent).
    let mut rng = fastrand::Rng::with_seed(how.seed);
    let positions = samples.len() / 4;
    let held = ((positions as f64 * how.holdout) as usize).max(1) * 4;
    let test: Vec<Sample> = samples.drain(samples.len() - held..).collect();
    let mut train = samples;
    let mut net = Net::zeros();
    for w in net.w1.iter_mut() {
        *w = (rng.f32() - 0.5) * 0.2;
    }
    for b in net.b1.iter_mut() {
        *b = 0.3 + 0.4 * rng.f32();
    }
    for w in net.w2.iter_mut() {
        *w = (rng.f32() - 0.5) * 2.0;
    }
    let zero = Net::zeros();
    eprintln!(
        "{} training, {} held out (four symmetries each); the weighted evaluation alone: {:.6} held out",
        train.len(),
        test.len(),
        mean_error(&zero, &test)
    );
    let mut m = Net::zeros();
    let mut v = Net::zeros();
    let (beta1, beta2) = (0.9f32, 0.999f32);
    let mut step = 0i32;
    for epoch in 1..=how.epochs {
        rng.shuffle(&mut train);
        let mut sum = 0.0;
        for batch in train.chunks(how.batch) {
            let mut g = Net::zeros();
            for s in batch {
                sum += f64::from(net.error(s, Some(&mut g)));
            }
            step += 1;
            let scale = 1.0 / batch.len() as f32;
            let c1 = 1.0 - beta1.powi(step);
            let c2 = 1.0 - beta2.powi(step);
            let grads: Vec<f32> = g.params().map(|x| *x * scale).collect();
            for (((p, m), v), g) in net.params().zip(m.params()).zip(v.params()).zip(grads) {
                *m = beta1 * *m + (1.0 - beta1) * g;
                *v = beta2 * *v + (1.0 - beta2) * g * g;
                *p -= how.rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            }
        }
        eprintln!(
            "epoch {epoch}: {:.6} training, {:.6} held out",
            sum / train.len() as f64,
            mean_error(&net, &test)
        );
    }
    eprintln!(
        "in the engine's integers: {:.6} held out",
        quantized_loss(&net, &test)
    );
    fs::write(out, source(&net, data))?;
    eprintln!("weights written to {out}");
    Ok(())
}

/// The weights as the Rust source of `src/net/weights.rs`.
fn source(net: &Net, data: &str) -> String {
    let Quantized { w1, b1, w2, b2 } = net.quantized();
    let row = |v: &[i16]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Written by `tune net --data {data}` (tune/README.md, \"The network\"): do not edit."
    );
    s.push_str("#[rustfmt::skip]\n");
    s.push_str("pub(super) const HIDDEN_WEIGHTS: [[i16; super::HIDDEN]; super::INPUTS] = [\n");
    for r in &w1 {
        let _ = writeln!(s, "    [{}],", row(r));
    }
    s.push_str("];\n#[rustfmt::skip]\n");
    let _ = writeln!(
        s,
        "pub(super) const HIDDEN_BIAS: [i16; super::HIDDEN] = [{}];",
        row(&b1)
    );
    s.push_str("#[rustfmt::skip]\n");
    let _ = writeln!(
        s,
        "pub(super) const OUTPUT_WEIGHTS: [i16; super::HIDDEN] = [{}];",
        row(&w2)
    );
    let _ = writeln!(s, "pub(super) const OUTPUT_BIAS: i32 = {b2};");
    s
}
