//! One story over the `Store` trait, run against every backend: a
//! temporary SQLite file always, and a fresh schema of the PostgreSQL
//! server of `FANORONA_TEST_POSTGRES` (see `common/postgres.rs`) whenever
//! it is reachable; a skip is printed loudly, and fails under `CI=true`.
//! Each function here takes only a URL and speaks only through
//! [`store::open`] and the trait.

use crate::common::{
    postgres,
    rows::{row, seat},
};

use std::sync::Arc;

use fanorona::{Color, Square, StepKind};
use fanorona_server::{
    game::{Action, Intent},
    ids::{GameId, Secret},
    store::{self, Change, GameRow, Store, StoreError},
};

/// Runs `story` against a new SQLite file, then against a new schema of
/// the test PostgreSQL server when it is reachable.
async fn on_every_backend<F, Fut>(test: &str, story: F)
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
    if let Some(schema) = postgres::Schema::create(test).await {
        story(schema.url()).await;
    }
}

#[tokio::test]
async fn a_game_is_created_joined_played_and_rematched() {
    on_every_backend(
        "a_game_is_created_joined_played_and_rematched",
        |url| async move {
            let store = store::open(&url).await.unwrap();
            let (id, next_id, actions, next) = create_join_play_rematch(store.clone()).await;
            // A second store on the same database sees everything committed.
            drop(store);
            let store = store::open(&url).await.unwrap();
            let loaded = store.load_game(&id).await.unwrap();
            assert_eq!(loaded.row.next_game.as_ref(), Some(&next_id));
            assert_eq!(loaded.first, 0);
            assert_eq!(loaded.actions, actions);
            assert_eq!(loaded.action_times.len(), actions.len());
            // What a process holding the first actions lacks: the row as it
            // is now, and the actions after them, numbered from there.
            for first in 0..=actions.len() + 1 {
                let tail = store.load_from(&id, first as u64).await.unwrap();
                assert_eq!(tail.row, loaded.row, "from {first}");
                assert_eq!(tail.first, first as u64);
                let lacking = actions.get(first..).unwrap_or_default();
                assert_eq!(tail.actions, lacking, "from {first}");
                assert_eq!(
                    tail.action_times,
                    loaded.action_times.get(first..).unwrap_or_default()
                );
            }
            let missing = store.load_from(&GameId::random().unwrap(), 2).await;
            assert!(matches!(missing, Err(StoreError::NotFound)));
            let rematch = store.load_game(&next_id).await.unwrap();
            assert_eq!(rematch.row, next);
            assert!(rematch.actions.is_empty());
            let missing = store.load_game(&GameId::random().unwrap()).await;
            assert!(matches!(missing, Err(StoreError::NotFound)));
        },
    )
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
    let first = row(&id, Some(white.hash()), None);
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
    let mut next = row(&next_id, Some(black.hash()), None);
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
    let mut again = row(&GameId::random().unwrap(), Some(black.hash()), None);
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
    on_every_backend(
        "the_sweep_deletes_only_invitations_nobody_accepted_in_30_days",
        |url| async move {
            let store = store::open(&url).await.unwrap();
            sweep(&url, store).await;
        },
    )
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
        let mut game = row(&id, Some(white.hash()), None);
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
    assert_eq!(
        migrations,
        [(1, true), (2, true), (3, true), (4, true), (5, true)]
    );
}

#[tokio::test]
async fn migrate_brings_a_database_up_to_date_once() {
    on_every_backend(
        "migrate_brings_a_database_up_to_date_once",
        |url| async move {
            let first = store::migrate(&url).await.unwrap();
            assert!(first >= 1, "{url}: {first} migrations");
            assert_eq!(store::migrate(&url).await.unwrap(), first);
            // A migrated database opens and answers.
            let store = store::open(&url).await.unwrap();
            store.ready().await.unwrap();
        },
    )
    .await;
    let error = store::migrate("mysql://localhost/games")
        .await
        .err()
        .unwrap();
    assert!(matches!(error, StoreError::UnknownScheme(ref s) if s == "mysql"));
}

/// A new game with both seats taken, stored in `store`.
async fn joined_game(store: &dyn Store) -> GameId {
    let id = GameId::random().unwrap();
    let mut game = row(&id, seat(), None);
    game.seats.black = Some(Secret::random().unwrap().hash());
    store.create_game(&game).await.unwrap();
    id
}

#[tokio::test]
async fn action_numbers_are_used_once_and_in_order() {
    on_every_backend(
        "action_numbers_are_used_once_and_in_order",
        |url| async move {
            let store = store::open(&url).await.unwrap();
            let id = joined_game(store.as_ref()).await;
            let resign = Action {
                by: Color::White,
                intent: Intent::Resign,
            };
            // Past the end: action 0 is missing.
            assert!(matches!(
                store.append_action(&id, 1, &resign).await,
                Err(StoreError::Conflict)
            ));
            assert!(store.load_game(&id).await.unwrap().actions.is_empty());
            store.append_action(&id, 0, &resign).await.unwrap();
            assert!(matches!(
                store.append_action(&id, 0, &resign).await,
                Err(StoreError::Conflict)
            ));
            // A game that does not exist takes no action.
            assert!(store
                .append_action(&GameId::random().unwrap(), 0, &resign)
                .await
                .is_err());
        },
    )
    .await;
}

/// Two stores on one database (two processes, as far as the database
/// knows) append the same action number at the same moment: exactly one
/// wins, every time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_stores_appending_one_number_at_once_one_wins() {
    on_every_backend(
        "two_stores_appending_one_number_at_once_one_wins",
        |url| async move {
            let a = store::open(&url).await.unwrap();
            let b = store::open(&url).await.unwrap();
            let id = joined_game(a.as_ref()).await;
            for seq in 0..30u64 {
                let by = if seq % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                let offer = Action {
                    by,
                    intent: Intent::OfferDraw,
                };
                let resign = Action {
                    by,
                    intent: Intent::Resign,
                };
                let (first, second) = tokio::join!(
                    a.append_action(&id, seq, &offer),
                    b.append_action(&id, seq, &resign)
                );
                let won = match (first, second) {
                    (Ok(()), Err(StoreError::Conflict)) => offer,
                    (Err(StoreError::Conflict), Ok(())) => resign,
                    other => panic!("{url}: action {seq}: {other:?}"),
                };
                let stored = b.load_game(&id).await.unwrap().actions;
                assert_eq!(stored.len(), usize::try_from(seq + 1).unwrap());
                assert_eq!(stored.last(), Some(&won));
            }
        },
    )
    .await;
}

#[tokio::test]
async fn every_store_of_a_shared_database_hears_each_change() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = store::open(&format!("sqlite://{}", dir.path().join("a.db").display()))
        .await
        .unwrap();
    assert!(sqlite.changes().is_none(), "one process per SQLite file");
    let Some(schema) =
        postgres::Schema::create("every_store_of_a_shared_database_hears_each_change").await
    else {
        return;
    };
    let (a, b) = (
        store::open(&schema.url()).await.unwrap(),
        store::open(&schema.url()).await.unwrap(),
    );
    let (mut heard_a, mut heard_b) = (a.changes().unwrap(), b.changes().unwrap());
    let id = GameId::random().unwrap();
    a.create_game(&row(&id, seat(), None)).await.unwrap();
    a.claim_seat(&id, Color::Black, &Secret::random().unwrap().hash())
        .await
        .unwrap();
    let resign = Action {
        by: Color::White,
        intent: Intent::Resign,
    };
    b.append_action(&id, 0, &resign).await.unwrap();
    // Refused writes say nothing.
    assert!(a.append_action(&id, 0, &resign).await.is_err());
    let seat = Change::Game {
        id: id.clone(),
        seq: None,
    };
    let action = Change::Game { id, seq: Some(0) };
    for heard in [&mut heard_a, &mut heard_b] {
        for expected in [&seat, &action] {
            let change = tokio::time::timeout(std::time::Duration::from_secs(10), heard.recv())
                .await
                .expect("heard in time")
                .unwrap();
            assert_eq!(&change, expected);
        }
        assert!(
            heard.try_recv().is_err(),
            "nothing else: {:?}",
            heard.try_recv()
        );
    }
}

#[tokio::test]
async fn a_postgres_url_that_cannot_be_read_is_refused_without_its_password() {
    let error = store::open("postgres://user:s3cret@host:notaport/db")
        .await
        .err()
        .unwrap();
    assert!(!error.to_string().contains("s3cret"), "{error}");
}

/// Writes queued together (committed in one batch by both backends) each
/// get their own answer: conflicts fail only themselves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_at_once_each_get_their_own_answer() {
    on_every_backend(
        "writes_at_once_each_get_their_own_answer",
        |url| async move {
            let store = store::open(&url).await.unwrap();
            let mut ids = Vec::new();
            for _ in 0..20 {
                ids.push(joined_game(store.as_ref()).await);
            }
            let (offer, resign) = (
                Action {
                    by: Color::White,
                    intent: Intent::OfferDraw,
                },
                Action {
                    by: Color::White,
                    intent: Intent::Resign,
                },
            );
            let mut writes = Vec::new();
            for id in &ids {
                for (seq, action) in [(0, offer), (0, resign), (5, resign)] {
                    let (store, id) = (store.clone(), id.clone());
                    writes.push(tokio::spawn(async move {
                        (seq, store.append_action(&id, seq, &action).await)
                    }));
                }
            }
            let (mut stored, mut conflicts) = (0, 0);
            for write in writes {
                match write.await.unwrap() {
                    (0, Ok(())) => stored += 1,
                    (_, Err(StoreError::Conflict)) => conflicts += 1,
                    other => panic!("{url}: {other:?}"),
                }
            }
            assert_eq!((stored, conflicts), (20, 40), "{url}");
            for id in &ids {
                assert_eq!(store.load_game(id).await.unwrap().actions.len(), 1);
            }
        },
    )
    .await;
}
