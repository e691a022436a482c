//! The hub's life cycle: loading a game never makes another game's
//! visitors wait, concurrent visitors share one load, and a game nobody
//! watches leaves memory and comes back from the store intact.

use crate::common;

use std::{
    net::SocketAddr,
    sync::{atomic::Ordering, Arc},
    time::Duration,
};

use common::{doubles::ControlledStore, WAIT};
use fanorona_server::{
    hub::{First, Hub},
    store::SqliteStore,
    Config,
};
use tempfile::TempDir;

async fn hub(dir: &TempDir, configure: impl FnOnce(&mut Config)) -> (Hub, Arc<ControlledStore>) {
    let url = common::database_url(dir);
    let store = Arc::new(ControlledStore::new(SqliteStore::open(&url).await.unwrap()));
    let mut config = Config::with_defaults(SocketAddr::from(([127, 0, 0, 1], 0)), &url);
    config.engine_table_stones = 4;
    configure(&mut config);
    (Hub::new(store.clone(), Arc::new(config)), store)
}

#[tokio::test]
async fn a_slow_load_makes_no_other_game_wait() {
    let dir = tempfile::tempdir().unwrap();
    let (hub, store) = hub(&dir, |_| {}).await;
    let slow = hub.create(First::Me, None).await.unwrap().id;
    let other = hub.create(First::Me, None).await.unwrap().id;
    store.hold(slow.as_str());
    let first = tokio::spawn({
        let (hub, slow) = (hub.clone(), slow.clone());
        async move { hub.get(&slow).await.map(|h| h.snapshot().json.clone()) }
    });
    let second = tokio::spawn({
        let (hub, slow) = (hub.clone(), slow.clone());
        async move { hub.get(&slow).await.map(|h| h.snapshot().json.clone()) }
    });
    let mut waiting = store.waiting.subscribe();
    tokio::time::timeout(WAIT, waiting.wait_for(|n| *n >= 1))
        .await
        .expect("the slow load starts")
        .unwrap();

    // The slow game's load is stuck in the store: another game still loads.
    let handle = tokio::time::timeout(WAIT, hub.get(&other))
        .await
        .expect("another game is not held up by a slow load")
        .unwrap();
    assert!(handle.snapshot().json.contains(other.as_str()));

    store.release(slow.as_str());
    let (a, b) = (
        first.await.unwrap().unwrap(),
        second.await.unwrap().unwrap(),
    );
    assert!(a.contains(slow.as_str()));
    assert_eq!(a, b, "both visitors see the same live game");
    assert_eq!(store.loads.load(Ordering::SeqCst), 2, "one load per game");
}

#[tokio::test]
async fn an_unknown_game_leaves_nothing_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (hub, _) = hub(&dir, |_| {}).await;
    // A malformed id never reaches the hub: the routes' GamePath answers it.
    for id in ["0000000000", "zzzzzzzzzz"] {
        let id = id.parse().unwrap();
        assert_eq!(hub.get(&id).await.unwrap_err().code(), "game_not_found");
    }
    assert_eq!(hub.live_games(), 0);
}

#[tokio::test]
async fn an_idle_game_unloads_and_reloads_from_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let (hub, store) = hub(&dir, |c| c.idle_unload = Duration::from_millis(1)).await;
    let id = hub.create(First::Me, None).await.unwrap().id;
    let handle = hub.get(&id).await.unwrap();
    let before = handle.snapshot().json.clone();
    let stopped = handle.stopped();
    drop(handle);
    tokio::time::timeout(WAIT, stopped)
        .await
        .expect("a game nobody watches unloads");
    assert_eq!(hub.live_games(), 0);
    assert_eq!(store.loads.load(Ordering::SeqCst), 1);

    let again = hub.get(&id).await.unwrap();
    assert_eq!(store.loads.load(Ordering::SeqCst), 2, "loaded again");
    let strip = |s: &str| {
        let mut v: serde_json::Value = serde_json::from_str(s).unwrap();
        v.as_object_mut().unwrap().remove("version");
        v
    };
    assert_eq!(strip(&again.snapshot().json), strip(&before));
}
