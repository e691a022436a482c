//! Speed of the rules: capture detection, step generation, turn
//! enumeration, perft from the start and random playouts.
//!
//! Run with `cargo bench -p fanorona`; compare runs with criterion
//! baselines (`-- --save-baseline before`, then `-- --baseline before`).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fanorona::{perft, Position, StepList};

/// A small xorshift generator: reproducible and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

/// Plays one game from `pos` choosing each action uniformly among the legal
/// steps plus 'end turn' where allowed. Returns the number of actions.
fn playout(mut pos: Position, rng: &mut Rng, steps: &mut StepList) -> u32 {
    let mut actions = 0;
    loop {
        pos.legal_steps_into(steps);
        let n = steps.len() + usize::from(pos.can_end_turn());
        if n == 0 {
            return actions;
        }
        let k = rng.below(n);
        pos = match steps.get(k) {
            Some(&step) => pos.play_step_unchecked(step),
            None => match pos.end_turn() {
                Ok(next) => next,
                Err(_) => return actions,
            },
        };
        actions += 1;
    }
}

/// Positions met in real play: the start and positions after random plies.
fn sample_positions() -> Vec<(String, Position)> {
    let mut out = vec![("start".to_owned(), Position::start())];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut steps = StepList::new();
    for plies in [6, 12, 20, 30] {
        let mut pos = Position::start();
        let mut played = 0;
        while played < plies {
            pos.legal_steps_into(&mut steps);
            if steps.is_empty() {
                break;
            }
            let step = steps[rng.below(steps.len())];
            pos = pos.play_step_unchecked(step);
            if let Ok(ended) = pos.end_turn() {
                pos = ended;
            }
            played += 1;
        }
        out.push((format!("after {plies} turns"), pos));
    }
    out
}

fn bench_generation(c: &mut Criterion) {
    let positions = sample_positions();
    let mut group = c.benchmark_group("has_capture");
    for (name, pos) in &positions {
        group.bench_with_input(BenchmarkId::from_parameter(name), pos, |b, pos| {
            b.iter(|| black_box(pos).has_capture())
        });
    }
    group.finish();

    let mut group = c.benchmark_group("legal_steps");
    for (name, pos) in &positions {
        group.bench_with_input(BenchmarkId::from_parameter(name), pos, |b, pos| {
            let mut steps = StepList::new();
            b.iter(|| {
                black_box(pos).legal_steps_into(&mut steps);
                steps.len()
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("turn_enumeration");
    for (name, pos) in &positions {
        group.bench_with_input(BenchmarkId::from_parameter(name), pos, |b, pos| {
            b.iter(|| {
                let mut n = 0u32;
                black_box(pos).for_each_turn(|_| n += 1);
                n
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("validate_and_play_step");
    for (name, pos) in &positions {
        let steps = pos.legal_steps();
        let step = steps[steps.len() / 2];
        group.bench_with_input(BenchmarkId::from_parameter(name), pos, |b, pos| {
            b.iter(|| black_box(pos).play_step(black_box(step)))
        });
    }
    group.finish();
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft_start");
    group.sample_size(10);
    for (depth, nodes) in [(4, 18_026), (5, 431_852), (6, 9_205_774)] {
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(BenchmarkId::from_parameter(depth), |b| {
            b.iter(|| {
                let n = perft(&Position::start(), depth);
                assert_eq!(n, nodes, "perft({depth}) from the start");
                n
            })
        });
    }
    group.finish();
}

fn bench_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_playout");
    group.throughput(Throughput::Elements(1));
    group.bench_function("from_start", |b| {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut steps = StepList::new();
        b.iter(|| playout(Position::start(), &mut rng, &mut steps))
    });
    group.finish();
}

criterion_group!(benches, bench_generation, bench_perft, bench_playouts);
criterion_main!(benches);
