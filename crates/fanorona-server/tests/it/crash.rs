//! The crash test: scripted players play many games at once through the
//! real server binary over real sockets while the server is killed with
//! SIGKILL at random moments and started again on the same database file.
//! Afterwards every acknowledged action must be stored, in order, every
//! stored game must replay legally, and every unfinished game must still
//! accept a move.
//!
//! The short form runs in `cargo test`. The long form is the same test
//! with more games and kills, see `docs/RELIABILITY.md`:
//! `FANORONA_CRASH_GAMES=24 FANORONA_CRASH_KILLS=300 cargo test --release
//! -p fanorona-server --test it crash:: -- --nocapture`.

use crate::common;
pub(crate) mod player;

use std::time::Duration;

use common::{
    process::{spawn_binary, terminate, NO_RATE_LIMITS},
    TestServer,
};
use fanorona_server::{game::Action, ids::GameId, store};
use player::{Record, Shared};
use serde_json::json;
use tokio::sync::watch;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Totals over every game.
#[derive(Debug, Default)]
struct Tally {
    games: usize,
    finished: usize,
    acknowledged: usize,
    stored: usize,
    lost: usize,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_servers_lose_no_acknowledged_action() {
    let _alone = common::alone().await;
    let dir = tempfile::tempdir().unwrap();
    crash(&common::database_url(&dir), 1).await;
}

/// The same on PostgreSQL with two processes of the binary: one of them
/// at a time is killed and started again, while the players of each game
/// play through both (White through one, Black through the other).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_processes_on_postgres_lose_no_acknowledged_action() {
    let _alone = common::alone().await;
    let test = "killed_processes_on_postgres_lose_no_acknowledged_action";
    let Some(schema) = common::postgres::Schema::create(test).await else {
        return;
    };
    crash(&schema.url(), 2).await;
}

/// Plays games through `processes` servers on `database` while killing
/// one of them at a time, then checks the store.
async fn crash(database: &str, processes: usize) {
    let games = setting("FANORONA_CRASH_GAMES", 12);
    let kills = setting("FANORONA_CRASH_KILLS", 25);
    let seed = setting("FANORONA_CRASH_SEED", fastrand::u64(..));
    let mut rng = fastrand::Rng::with_seed(seed);

    let mut children = Vec::new();
    let mut addrs = Vec::new();
    for _ in 0..processes {
        let (child, addr) = spawn_binary(database, &NO_RATE_LIMITS).await;
        children.push(child);
        addrs.push(addr);
    }
    let (server_tx, server) = watch::channel((0, addrs.clone()));
    let (acks, mut acked) = watch::channel(0u64);
    let (done_tx, done) = watch::channel(false);
    let shared = Shared { server, acks, done };
    let players: Vec<_> = (0..games)
        .map(|_| tokio::spawn(player::play(shared.clone(), rng.fork())))
        .collect();

    for generation in 1..=kills {
        let target = *acked.borrow() + rng.u64(2..40);
        tokio::time::timeout(Duration::from_secs(60), acked.wait_for(|n| *n >= target))
            .await
            .expect("the players make progress")
            .unwrap();
        for _ in 0..rng.u32(0..200) {
            tokio::task::yield_now().await;
        }
        let victim = rng.usize(..processes);
        children[victim].start_kill().unwrap();
        children[victim].wait().await.unwrap();
        let (next, addr) = spawn_binary(database, &NO_RATE_LIMITS).await;
        children[victim] = next;
        addrs[victim] = addr;
        server_tx.send_replace((generation, addrs.clone()));
    }
    let target = *acked.borrow() + 10;
    let _ = tokio::time::timeout(Duration::from_secs(60), acked.wait_for(|n| *n >= target)).await;
    done_tx.send_replace(true);
    let mut records = Vec::new();
    for player in players {
        records.extend(player.await.unwrap());
    }
    for child in &mut children {
        assert!(terminate(child).await, "SIGTERM stops the server cleanly");
    }

    let tally = check_store(database, &records).await;
    check_playable(database, &records).await;
    println!(
        "crash test (seed {seed}, {processes} process(es) on {}): {} games ({} finished), \
         {} actions acknowledged, {} stored (the rest were in flight at a kill), {kills} kills, \
         {} actions lost",
        database.split(':').next().unwrap_or_default(),
        tally.games,
        tally.finished,
        tally.acknowledged,
        tally.stored,
        tally.lost
    );
    assert_eq!(tally.lost, 0, "seed {seed}");
    assert!(tally.acknowledged > 0);
}

/// Every acknowledged action is stored at its number, and every stored game
/// replays legally through the rules.
async fn check_store(database: &str, records: &[Record]) -> Tally {
    let store = store::open(database).await.unwrap();
    let mut tally = Tally::default();
    for record in records {
        let id: GameId = record.id.parse().unwrap();
        let stored = store.load_game(&id).await.unwrap();
        tally.games += 1;
        tally.finished += usize::from(record.finished);
        tally.acknowledged += record.acked.len();
        tally.stored += stored.actions.len();
        for &(seq, by, intent) in &record.acked {
            let kept = stored.actions.get(usize::try_from(seq).unwrap());
            if kept != Some(&Action { by, intent }) {
                eprintln!("{id}: action {seq} {intent:?} by {by:?} lost, stored {kept:?}");
                tally.lost += 1;
            }
        }
        common::replay_legally(&stored, &format!("{id}: stored game"));
    }
    tally
}

/// A fresh server continues every unfinished game: the player to move can
/// play one of the listed steps.
async fn check_playable(database: &str, records: &[Record]) {
    let (mut child, addr) = spawn_binary(database, &NO_RATE_LIMITS).await;
    let server = TestServer::remote(&addr);
    for record in records.iter().filter(|r| !r.finished) {
        let state = server.state(&record.id).await;
        if !state["result"].is_null() {
            continue;
        }
        let mover = usize::from(state["side_to_move"] == "black");
        let intent = match state["legal_steps"].get(0) {
            Some(s) => {
                json!({ "type": "step", "from": s["from"], "to": s["to"], "kind": s["kind"] })
            }
            None => json!({ "type": "end_turn" }),
        };
        let after = server.play(&record.id, &record.seats[mover], intent).await;
        assert_eq!(after["seq"].as_u64(), state["seq"].as_u64().map(|s| s + 1));
    }
    assert!(terminate(&mut child).await);
}
