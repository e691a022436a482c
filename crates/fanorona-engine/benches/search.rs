//! Search speed: a fixed number of nodes from the start and from a
//! middlegame (criterion reports the time; nodes per second is the node
//! count over it), and the depth a one-second search reaches is printed by
//! `fanorona analyse` (see docs/ENGINE.md).

use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fanorona::{Position, Setup};
use fanorona_engine::{Config, Engine, Limits};

const MIDDLE: &str = "B.B.B.B../.W...W.B./..B.W..../W..B..W../.B.....W. b 7";
const NODES: u64 = 200_000;

fn bench(c: &mut Criterion) {
    let middle = Position::from_setup(MIDDLE.parse::<Setup>().expect("text")).expect("legal");
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.throughput(Throughput::Elements(NODES));
    for (name, pos) in [("start", Position::start()), ("middlegame", middle)] {
        group.bench_function(format!("{name}_200k_nodes"), |b| {
            b.iter(|| {
                let mut engine = Engine::new(Config::default());
                engine.search(&pos, Limits::nodes(NODES), &AtomicBool::new(false), |_| {})
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
