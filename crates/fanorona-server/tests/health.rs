//! The endpoints a reverse proxy asks each process: `/healthz` (alive)
//! and `/readyz` (its database answers), on SQLite and PostgreSQL.
#![allow(clippy::unwrap_used)]

mod common;

use std::sync::{atomic::Ordering, Arc};

use common::{doubles::ControlledStore, postgres::Schema, start_with_store};
use fanorona_server::store::{self, SqliteStore};
use reqwest::StatusCode;

async fn get(server: &common::TestServer, path: &str) -> (StatusCode, String) {
    let resp = server.http.get(server.url(path)).send().await.unwrap();
    (resp.status(), resp.text().await.unwrap())
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
