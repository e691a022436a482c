//! Writes queued together are committed together, and a write refused in
//! a batch fails only its own caller.

use crate::common::rows::{row, seat};
use fanorona::Color;
use fanorona_server::{
    game::{Action, Intent},
    ids::GameId,
    store::{self, StoreError},
};

#[tokio::test]
async fn a_conflict_in_a_batch_fails_only_its_own_write() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("store.db").display());
    let store = store::open(&url).await.unwrap();
    let ids: Vec<GameId> = (0..3).map(|_| GameId::random().unwrap()).collect();
    for id in &ids {
        store.create_game(&row(id, seat(), seat())).await.unwrap();
    }
    let resign = Action {
        by: Color::White,
        intent: Intent::Resign,
    };
    let offer = Action {
        by: Color::White,
        intent: Intent::OfferDraw,
    };
    let again = row(&ids[1], seat(), seat());
    // Queued at once, so the writer takes them in one batch.
    let (a, b, c, d, e) = tokio::join!(
        store.append_action(&ids[0], 0, &offer),
        store.append_action(&ids[0], 0, &resign),
        store.append_action(&ids[1], 0, &offer),
        store.append_action(&ids[2], 0, &resign),
        store.create_game(&again),
    );
    assert!(a.is_ok());
    assert!(matches!(b, Err(StoreError::Conflict)));
    assert!(c.is_ok() && d.is_ok());
    assert!(matches!(e, Err(StoreError::Conflict)));
    let first = store.load_game(&ids[0]).await.unwrap();
    assert_eq!(first.actions, [offer]);
    assert_eq!(store.load_game(&ids[1]).await.unwrap().actions, [offer]);
    assert_eq!(store.load_game(&ids[2]).await.unwrap().actions, [resign]);
}

#[tokio::test]
async fn a_write_to_a_missing_game_fails_alone() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("store.db").display());
    let store = store::open(&url).await.unwrap();
    let id = GameId::random().unwrap();
    let missing = GameId::random().unwrap();
    store.create_game(&row(&id, seat(), seat())).await.unwrap();
    let resign = Action {
        by: Color::Black,
        intent: Intent::Resign,
    };
    let (ok, bad) = tokio::join!(
        store.append_action(&id, 0, &resign),
        store.append_action(&missing, 0, &resign),
    );
    assert!(ok.is_ok());
    assert!(bad.is_err());
    assert_eq!(store.load_game(&id).await.unwrap().actions, [resign]);
    assert!(matches!(
        store.load_game(&missing).await,
        Err(StoreError::NotFound)
    ));
}
