//! One story over the `Store` trait, run against every backend at hand: a
//! temporary SQLite file always, and the database named by
//! `FANORONA_TEST_DATABASE_URL` when it is set. Each function here takes
//! only a URL and speaks only through [`store::open`] and the trait.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use fanorona::{ByColor, Color, Position, Square, StepKind};
use fanorona_server::{
    game::{Action, Intent},
    ids::{GameId, Secret},
    store::{self, GameRow, Store, StoreError},
};

/// A second backend's URL, when one is set up.
const OTHER_BACKEND: &str = "FANORONA_TEST_DATABASE_URL";

/// Runs `story` against a new SQLite file, then against the database of
/// [`OTHER_BACKEND`] when it is set.
async fn on_every_backend<F, Fut>(story: F)
where
    F: Fn(String) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let dir = tempfile::tempdir().unwrap();
    story(format!(
        "sqlite://{}",
        dir.path().join("store.db").display()
    ))
    .await;
    if let Ok(url) = std::env::var(OTHER_BACKEND) {
        story(url).await;
    }
}

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
        computer: None,
    }
}

#[tokio::test]
async fn a_game_is_created_joined_played_and_rematched() {
    on_every_backend(|url| async move {
        let store = store::open(&url).await.unwrap();
        let (id, next_id, actions, next) = create_join_play_rematch(store.clone()).await;
        // A second store on the same database sees everything committed.
        drop(store);
        let store = store::open(&url).await.unwrap();
        let loaded = store.load_game(&id).await.unwrap();
        assert_eq!(loaded.row.next_game.as_ref(), Some(&next_id));
        assert_eq!(loaded.actions, actions);
        let rematch = store.load_game(&next_id).await.unwrap();
        assert_eq!(rematch.row, next);
        assert!(rematch.actions.is_empty());
        let missing = store.load_game(&GameId::random().unwrap()).await;
        assert!(matches!(missing, Err(StoreError::NotFound)));
    })
    .await;
}

/// The story's writes, each checked as it returns; gives the game's id,
/// its rematch's id, its actions and the rematch's row.
async fn create_join_play_rematch(store: Arc<dyn Store>) -> (GameId, GameId, Vec<Action>, GameRow) {
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
    assert_eq!(
        store.load_game(&id).await.unwrap().row.seats.black,
        Some(black.hash())
    );

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
    // A second rematch of the same game is refused whole: neither its
    // action nor its game is stored.
    let mut again = row(&GameId::random().unwrap(), &black);
    again.rematch_of = Some(id.clone());
    assert!(matches!(
        store
            .append_rematch(&id, 4, &ask(Color::Black), &again)
            .await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        store.load_game(&again.id).await,
        Err(StoreError::NotFound)
    ));
    let actions = vec![step, resign, ask(Color::White), ask(Color::Black)];
    (id, next_id, actions, next)
}

#[tokio::test]
async fn an_unknown_database_scheme_is_a_clear_error() {
    let error = store::open("mysql://localhost/games").await.err().unwrap();
    assert!(matches!(error, StoreError::UnknownScheme(ref s) if s == "mysql"));
    assert!(error.to_string().contains("sqlite://"));
    let error = store::backup_to("mysql://localhost/games", "copy.db".into())
        .await
        .err()
        .unwrap();
    assert!(matches!(error, StoreError::UnknownScheme(ref s) if s == "mysql"));
}

#[tokio::test]
async fn the_sweep_deletes_only_invitations_nobody_accepted_in_30_days() {
    on_every_backend(|url| async move {
        let store = store::open(&url).await.unwrap();
        sweep(&url, store).await;
    })
    .await;
}

async fn sweep(url: &str, store: Arc<dyn Store>) {
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
        fanorona_server::Config::with_defaults(addr, url),
        store.clone(),
    );
    assert_eq!(state.sweep().await.unwrap(), 1);
    for (id, kept) in games {
        let found = store.load_game(&id).await;
        assert_eq!(found.is_ok(), kept, "{id}");
    }
    assert_eq!(state.sweep().await.unwrap(), 0, "nothing more to delete");
}

/// A database file made by the first release (sqlx's migrator, its
/// `_sqlx_migrations` row) opens, keeps its games and takes new actions,
/// and is not migrated again.
#[tokio::test]
async fn a_database_made_by_the_first_release_opens_and_keeps_working() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("first-release.db");
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/first-release.db"
    );
    std::fs::copy(fixture, &file).unwrap();
    let url = format!("sqlite://{}", file.display());
    let store = store::open(&url).await.unwrap();
    let id: GameId = "FirstRe1ea".parse().unwrap();
    let game = store.load_game(&id).await.unwrap();
    let by = Color::White;
    let step = Intent::Step {
        from: Square::D3,
        to: Square::E3,
        kind: StepKind::Approach,
    };
    assert_eq!(
        game.actions,
        [
            Action { by, intent: step },
            Action {
                by,
                intent: Intent::EndTurn
            }
        ]
    );
    assert_eq!(game.row.created_at, 1_764_000_000);
    let waiting = store.load_game(&"FirstRe1eb".parse().unwrap()).await;
    assert_eq!(waiting.unwrap().row.seats.black, None);
    let resign = Action {
        by: Color::Black,
        intent: Intent::Resign,
    };
    store.append_action(&id, 2, &resign).await.unwrap();
    drop(store);
    let store = store::open(&url).await.unwrap();
    assert_eq!(store.load_game(&id).await.unwrap().actions.len(), 3);
    drop(store);
    let conn = rusqlite::Connection::open(&file).unwrap();
    let migrations: Vec<(i64, bool)> = conn
        .prepare("SELECT version, success FROM _sqlx_migrations")
        .unwrap()
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    // Its first migration is not run again; the later ones are added.
    assert_eq!(migrations, [(1, true), (2, true)]);
}
