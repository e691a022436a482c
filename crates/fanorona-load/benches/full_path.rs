//! The server's full path for quick regression checks: HTTP create, join,
//! two WebSockets and 100 steps, against an in-process server on
//! 127.0.0.1 with a temporary SQLite file.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use fanorona_load::{echo::bind_low_port, quick::play_steps, wire::Target};
use fanorona_server::{serve, store, AppState, Config};

fn full_path(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let database = format!("sqlite://{}/bench.db", dir.path().display());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let address = runtime.block_on(async {
        let store = store::open(&database).await.expect("the store opens");
        let listener = bind_low_port(25000).await.expect("a free port");
        let address = listener.local_addr().expect("a local address");
        // The default limits (10 intents a second per socket, 5 games a
        // minute per address) would refuse this loop's steps: the refusal
        // goes to the mover only, and the opponent would wait for a state
        // that never comes. Every socket comes from one address, so the
        // per-address caps are lifted too.
        let mut config = Config::with_defaults(address, &database);
        config.create_per_minute = 1_000_000;
        config.intents_per_second = 1_000_000;
        config.sockets_per_address = 1_000_000;
        config.connections_per_address = 1_000_000;
        let state = AppState::new(config, store);
        tokio::spawn(serve(listener, state, async {
            let _ = stopped.await;
        }));
        address
    });
    let target = Target::parse(&format!("http://{address}")).expect("a target");
    let http = reqwest::Client::new();
    let mut rng = fastrand::Rng::with_seed(6);
    let mut group = c.benchmark_group("server");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("create_join_100_steps", |b| {
        b.iter(|| {
            runtime
                .block_on(play_steps(&http, &target, 100, &mut rng))
                .expect("the game is played")
        });
    });
    group.finish();
    let _ = stop.send(());
}

criterion_group!(benches, full_path);
criterion_main!(benches);
