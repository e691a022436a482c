//! One story over the `Store` trait, on a temporary SQLite file.
#![allow(clippy::unwrap_used)]

use fanorona::{ByColor, Color, Position, Square, StepKind};
use fanorona_server::{
    game::{Action, Intent},
    ids::{GameId, Secret},
    store::{self, GameRow, StoreError},
};

fn row(id: &GameId, white: &Secret) -> GameRow {
    GameRow {
        id: id.clone(),
        created_at: 1_700_000_000,
        start_position: Position::start().to_string(),
        creator: Color::White,
        seats: ByColor {
            white: Some(white.hash()),
            black: None,
        },
        invite: Secret::random().unwrap().hash(),
        rematch_of: None,
        next_game: None,
    }
}

#[tokio::test]
async fn a_game_is_created_joined_played_and_rematched() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("store.db").display());
    let store = store::open(&url).await.unwrap();
    let (id, white, black) = (
        GameId::random().unwrap(),
        Secret::random().unwrap(),
        Secret::random().unwrap(),
    );
    let first = row(&id, &white);
    store.create_game(&first).await.unwrap();
    assert!(matches!(
        store.create_game(&first).await,
        Err(StoreError::Conflict)
    ));

    store
        .claim_seat(&id, Color::Black, &black.hash())
        .await
        .unwrap();
    let taken = store
        .claim_seat(&id, Color::Black, &Secret::random().unwrap().hash())
        .await;
    assert!(matches!(taken, Err(StoreError::Conflict)));

    let step = Action {
        by: Color::White,
        intent: Intent::Step {
            from: Square::D3,
            to: Square::E3,
            kind: StepKind::Withdrawal,
        },
    };
    let resign = Action {
        by: Color::Black,
        intent: Intent::Resign,
    };
    store.append_action(&id, 0, &step).await.unwrap();
    assert!(matches!(
        store.append_action(&id, 0, &resign).await,
        Err(StoreError::Conflict)
    ));
    store.append_action(&id, 1, &resign).await.unwrap();

    let next_id = GameId::random().unwrap();
    let mut next = row(&next_id, &black);
    next.seats.black = Some(white.hash());
    next.rematch_of = Some(id.clone());
    let ask = |by| Action {
        by,
        intent: Intent::Rematch,
    };
    store
        .append_action(&id, 2, &ask(Color::White))
        .await
        .unwrap();
    store
        .append_rematch(&id, 3, &ask(Color::Black), &next)
        .await
        .unwrap();

    // A second store on the same file sees everything committed.
    drop(store);
    let store = store::open(&url).await.unwrap();
    let loaded = store.load_game(&id).await.unwrap();
    assert_eq!(loaded.row.seats.black, Some(black.hash()));
    assert_eq!(loaded.row.next_game.as_ref(), Some(&next_id));
    assert_eq!(
        loaded.actions,
        [step, resign, ask(Color::White), ask(Color::Black)]
    );
    let rematch = store.load_game(&next_id).await.unwrap();
    assert_eq!(rematch.row, next);
    assert!(rematch.actions.is_empty());
    let missing = store.load_game(&GameId::random().unwrap()).await;
    assert!(matches!(missing, Err(StoreError::NotFound)));
}

#[tokio::test]
async fn an_unknown_database_scheme_is_a_clear_error() {
    let error = store::open("mysql://localhost/games").await.err().unwrap();
    assert!(matches!(error, StoreError::UnknownScheme(ref s) if s == "mysql"));
    assert!(error.to_string().contains("sqlite://"));
}

#[tokio::test]
async fn the_sweep_deletes_only_invitations_nobody_accepted_in_30_days() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("store.db").display());
    let store = store::open(&url).await.unwrap();
    let now = fanorona_server::clock::unix_seconds();
    let day = 86_400;
    let mut games = Vec::new();
    // (age in days, joined, finished, kept)
    for (age, joined, finished, kept) in [
        (31, false, false, false),
        (29, false, false, true),
        (400, true, false, true),
        (400, true, true, true),
    ] {
        let (id, white) = (GameId::random().unwrap(), Secret::random().unwrap());
        let mut game = row(&id, &white);
        game.created_at = now - age * day;
        store.create_game(&game).await.unwrap();
        if joined {
            let black = Secret::random().unwrap().hash();
            store.claim_seat(&id, Color::Black, &black).await.unwrap();
        }
        if finished {
            let resign = Action {
                by: Color::White,
                intent: Intent::Resign,
            };
            store.append_action(&id, 0, &resign).await.unwrap();
        }
        games.push((id, kept));
    }
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    let state = fanorona_server::AppState::new(
        fanorona_server::Config::with_defaults(addr, &url),
        store.clone(),
    );
    assert_eq!(state.sweep().await.unwrap(), 1);
    for (id, kept) in games {
        let found = store.load_game(&id).await;
        assert_eq!(found.is_ok(), kept, "{id}");
    }
    assert_eq!(state.sweep().await.unwrap(), 0, "nothing more to delete");
}
