//! The load tool's person plays a whole game against the computer of an
//! in-process server on 127.0.0.1 (a port from 25000, a temporary SQLite
//! file): every turn of the computer is counted once, with its reply time.

use std::{sync::atomic::Ordering, sync::Arc, time::Duration};

use fanorona_load::{
    computer::{open_game, play_game, ComputerCtx, Tally},
    echo::bind_low_port,
    game::{Pace, Phase},
    wire::Target,
};
use fanorona_server::{serve, store, AppState, Config};
use tokio::sync::{oneshot, watch, Semaphore};

/// Starts a server whose computer answers at once; returns its target and
/// the sender that stops it.
async fn server(dir: &tempfile::TempDir) -> (Target, oneshot::Sender<()>) {
    let database = format!("sqlite://{}/load.db", dir.path().display());
    let store = store::open(&database).await.expect("the store opens");
    let listener = bind_low_port(25000).await.expect("a free port");
    let address = listener.local_addr().expect("a local address");
    let mut config = Config::with_defaults(address, &database);
    // The person steps as soon as it is their turn: more than the default
    // 10 intents a second.
    config.intents_per_second = 1_000_000;
    config.computer_min_think = Duration::ZERO;
    config.computer_step_delay = Duration::ZERO;
    // The 4-stone tables, solved in a second, rather than the 5-stone
    // ones' tens of seconds of a core beside the games.
    config.engine_table_stones = 4;
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(serve(listener, AppState::new(config, store), async {
        let _ = stopped.await;
    }));
    let target = Target::parse(&format!("http://{address}")).expect("a target");
    (target, stop)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_computer_is_played_to_its_end_and_counted() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (target, stop) = server(&dir).await;
    let tally = Arc::new(Tally::new());
    let ctx = ComputerCtx {
        http: reqwest::Client::new(),
        targets: vec![target.clone()],
        pace: Pace::Closed,
        level: 1,
        tally: tally.clone(),
        setup: Semaphore::new(1),
    };
    tally.stats.set_recording(true);
    let (_phase, mut watching) = watch::channel(Phase::Measure);
    let mut rng = fastrand::Rng::with_seed(12);
    let game = open_game(&ctx, &target).await.expect("a game is created");
    assert_eq!(tally.stats.sockets.load(Ordering::Relaxed), 1);
    // A bound on a hang, not a measure of speed.
    tokio::time::timeout(
        Duration::from_secs(300),
        play_game(&ctx, game, &mut watching, &mut rng),
    )
    .await
    .expect("the game ends");
    let snap = tally.snapshot();
    assert!(snap.stats.errors.is_empty(), "{:?}", snap.stats.errors);
    assert!(
        snap.stats.disconnects.is_empty(),
        "{:?}",
        snap.stats.disconnects
    );
    assert_eq!(snap.finished, 1);
    assert!(snap.turns >= 1, "the computer never moved");
    // Each reply began one turn, and each turn ended.
    assert_eq!(snap.stats.steps, snap.turns);
    assert!(snap.stats.latency_us[0] >= 1);
    assert_eq!(tally.stats.sockets.load(Ordering::Relaxed), 0);
    let _ = stop.send(());
}
