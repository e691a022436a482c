//! The endpoints a reverse proxy asks each process: `/healthz` (alive)
//! and `/readyz` (its database answers), on SQLite and PostgreSQL.

use crate::common;

use std::{
    io::Write,
    sync::{atomic::Ordering, Arc, Mutex},
    time::{Duration, Instant},
};

use common::{
    doubles::ControlledStore, outage::Outage, postgres::Schema, start_with_store, TestServer, WAIT,
};
use fanorona_server::store::{self, SqliteStore};
use reqwest::StatusCode;

async fn get(server: &common::TestServer, path: &str) -> (StatusCode, String) {
    let resp = server.http.get(server.url(path)).send().await.unwrap();
    (resp.status(), resp.text().await.unwrap())
}

/// A server over the SQLite store wrapped in the test double.
async fn controlled() -> (TestServer, Arc<ControlledStore>) {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let sqlite = SqliteStore::open(&common::database_url(&dir))
        .await
        .unwrap();
    let store = Arc::new(ControlledStore::new(sqlite));
    (start_with_store(dir, store.clone(), |_| {}).await, store)
}

/// What the server logs, kept for the test to read.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl Write for Log {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Log {
    fn lines(&self) -> Vec<String> {
        let text = String::from_utf8(self.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_owned).collect()
    }
}

#[tokio::test]
async fn readyz_says_whether_the_database_answers_and_healthz_that_the_process_does() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let sqlite = SqliteStore::open(&common::database_url(&dir))
        .await
        .unwrap();
    let store = Arc::new(ControlledStore::new(sqlite));
    let server = start_with_store(dir, store.clone(), |_| {}).await;
    assert_eq!(
        get(&server, "/healthz").await,
        (StatusCode::OK, "ok\n".into())
    );
    assert_eq!(
        get(&server, "/readyz").await,
        (StatusCode::OK, "ready\n".into())
    );

    store.unreachable.store(true, Ordering::SeqCst);
    let (status, body) = get(&server, "/readyz").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body, "the database does not answer\n");
    assert_eq!(
        get(&server, "/healthz").await.0,
        StatusCode::OK,
        "still alive"
    );

    store.unreachable.store(false, Ordering::SeqCst);
    assert_eq!(get(&server, "/readyz").await.0, StatusCode::OK);
    server.stop().await;
}

#[tokio::test]
async fn readyz_asks_postgresql() {
    let Some(schema) = Schema::create("readyz_asks_postgresql").await else {
        return;
    };
    let store = store::open(&schema.url()).await.unwrap();
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_with_store(dir, store, |_| {}).await;
    assert_eq!(
        get(&server, "/readyz").await,
        (StatusCode::OK, "ready\n".into())
    );
    server.stop().await;
}

/// A database that never answers (a network dropping every packet) gets
/// `503` within the check's bound, so that a probe with a timeout of a
/// second hears it: the check waited for the store as long as the store
/// took. See: issues/21.
#[tokio::test]
async fn readyz_answers_503_within_a_second_when_the_database_hangs() {
    let (server, store) = controlled().await;
    store.stalled.store(true, Ordering::SeqCst);
    let asked = Instant::now();
    let (status, body) = tokio::time::timeout(WAIT, get(&server, "/readyz"))
        .await
        .expect("an answer");
    assert_eq!(
        (status, body.as_str()),
        (
            StatusCode::SERVICE_UNAVAILABLE,
            "the database does not answer\n"
        )
    );
    // 0.8 s is the bound; the rest is room for a slow machine.
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    store.stalled.store(false, Ordering::SeqCst);
    assert_eq!(get(&server, "/readyz").await.0, StatusCode::OK);
    server.stop().await;
}

/// Losing readiness is logged once, at WARN, and getting it back once, at
/// INFO, whatever the number of probes; the trace layer no longer logs
/// each failed probe at ERROR. See: issues/21.
#[tokio::test]
async fn readiness_lost_and_regained_is_logged_once_each_not_per_probe() {
    let log = Log::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new("info"))
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    // This test's runtime has one thread, which runs the server too.
    let _logging = tracing::subscriber::set_default(subscriber);
    let (server, store) = controlled().await;
    for _ in 0..3 {
        assert_eq!(get(&server, "/readyz").await.0, StatusCode::OK);
    }
    store.unreachable.store(true, Ordering::SeqCst);
    for _ in 0..5 {
        assert_eq!(
            get(&server, "/readyz").await.0,
            StatusCode::SERVICE_UNAVAILABLE
        );
    }
    store.unreachable.store(false, Ordering::SeqCst);
    for _ in 0..3 {
        assert_eq!(get(&server, "/readyz").await.0, StatusCode::OK);
    }
    server.stop().await;
    let lines = log.lines();
    let with = |words: &[&str]| {
        lines
            .iter()
            .filter(|l| words.iter().all(|w| l.contains(w)))
            .count()
    };
    assert_eq!(
        with(&["WARN", "not ready: the database does not answer"]),
        1,
        "{lines:#?}"
    );
    assert_eq!(with(&["INFO", "ready again"]), 1, "{lines:#?}");
    assert_eq!(with(&["ERROR"]), 0, "{lines:#?}");
}

/// PostgreSQL goes away (a proxy in front of it is cut, as when it
/// stops): `/readyz` says `503` at once, not after the pool's 5 s wait
/// for a connection, and `200` again once it is back. See: issues/21.
#[tokio::test]
async fn readyz_answers_503_at_once_while_postgresql_is_down() {
    let Some(schema) = Schema::create("readyz_answers_503_at_once_while_postgresql_is_down").await
    else {
        return;
    };
    let outage = Outage::start(&schema.url()).await;
    let store = store::open(&outage.url(&schema.url())).await.unwrap();
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_with_store(dir, store, |_| {}).await;
    assert_eq!(get(&server, "/readyz").await.0, StatusCode::OK);

    outage.cut().await;
    for _ in 0..3 {
        let asked = Instant::now();
        let (status, body) = tokio::time::timeout(WAIT, get(&server, "/readyz"))
            .await
            .expect("an answer");
        assert_eq!(
            (status, body.as_str()),
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "the database does not answer\n"
            )
        );
        assert!(
            asked.elapsed() < Duration::from_secs(2),
            "{:?}",
            asked.elapsed()
        );
    }

    outage.restore().await;
    tokio::time::timeout(WAIT, async {
        while get(&server, "/readyz").await.0 != StatusCode::OK {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("ready again once PostgreSQL is back");
    server.stop().await;
}
