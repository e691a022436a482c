//! Times the store's read path: `load_game` of one game with many actions,
//! one call after the other; `load_from` of that game's last action only,
//! as a process reads a change another made; and `load_game` of many short
//! games from 64 tasks at once (as when a server restarts and every player
//! reconnects). On a temporary SQLite file, or on the database of the URL
//! given (which it writes to: give it an empty one).
//!
//! ```sh
//! cargo run --release -p fanorona-server --example load_game
//! cargo run --release -p fanorona-server --example load_game -- postgres://postgres@127.0.0.1/empty
//! ```
#![allow(clippy::unwrap_used)]

#[allow(unreachable_pub)]
#[path = "../tests/it/common/rows.rs"]
mod rows;

use std::{sync::Arc, time::Instant};

use fanorona::{Color, Square, StepKind};
use fanorona_server::{
    game::{Action, Intent},
    ids::GameId,
    store::{self, Store},
};
use rows::{row, seat};

/// Actions in the long game.
const LONG: u64 = 1_000;
/// Short games, and their actions.
const GAMES: usize = 500;
const SHORT: u64 = 40;
/// Loads of the long game per round; loads of short games per round.
const LONG_LOADS: u32 = 300;
const TASKS: usize = 64;
const SHORT_LOADS: usize = 20_032;

fn action(n: u64) -> Action {
    let by = if n % 2 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let intent = match n % 3 {
        0 => Intent::EndTurn,
        _ => Intent::Step {
            from: Square::D3,
            to: Square::E3,
            kind: StepKind::Approach,
        },
    };
    Action { by, intent }
}

/// A game of `actions` actions, written in order (a store refuses an
/// action number past the end).
async fn game(store: Arc<dyn Store>, actions: u64) -> GameId {
    let id = GameId::random().unwrap();
    store.create_game(&row(&id, seat(), seat())).await.unwrap();
    for n in 0..actions {
        store.append_action(&id, n, &action(n)).await.unwrap();
    }
    id
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let url = std::env::args()
        .nth(1)
        .unwrap_or_else(|| format!("sqlite://{}", dir.path().join("games.db").display()));
    let store = store::open(&url).await.unwrap();
    let long = game(store.clone(), LONG).await;
    // The short games are written side by side, so their writes share commits.
    let writers: Vec<_> = (0..GAMES)
        .map(|_| tokio::spawn(game(store.clone(), SHORT)))
        .collect();
    let mut short = Vec::with_capacity(GAMES);
    for writer in writers {
        short.push(writer.await.unwrap());
    }
    let short = Arc::new(short);
    for round in 1..=5 {
        let started = Instant::now();
        for _ in 0..LONG_LOADS {
            let loaded = store.load_game(&long).await.unwrap();
            assert_eq!(loaded.actions.len() as u64, LONG);
        }
        let per_load = started.elapsed() / LONG_LOADS;

        let started = Instant::now();
        for _ in 0..LONG_LOADS {
            let tail = store.load_from(&long, LONG - 1).await.unwrap();
            assert_eq!(tail.actions.len(), 1);
        }
        let per_tail = started.elapsed() / LONG_LOADS;

        let started = Instant::now();
        let tasks = (0..TASKS).map(|task| {
            let (store, short) = (store.clone(), short.clone());
            tokio::spawn(async move {
                for i in 0..SHORT_LOADS / TASKS {
                    let id = &short[(task * 131 + i * 7) % short.len()];
                    let loaded = store.load_game(id).await.unwrap();
                    assert_eq!(loaded.actions.len() as u64, SHORT);
                }
            })
        });
        for task in tasks.collect::<Vec<_>>() {
            task.await.unwrap();
        }
        let per_second = SHORT_LOADS as f64 / started.elapsed().as_secs_f64();
        println!(
            "round {round}: a game of {LONG} actions {per_load:.1?} per load, \
             its last action alone {per_tail:.1?}; \
             {TASKS} tasks, games of {SHORT} actions: {per_second:.0} loads/s"
        );
    }
}
