//! The computer's searches: a bounded pool of OS threads outside the async
//! runtime, each with its own engine, fed first come, first served.
//!
//! A game's task submits a position and gets a [`Ticket`]: the answer comes
//! back on a oneshot channel, and dropping or cancelling the ticket raises
//! the search's stop flag (a takeback, an unloaded game, shutdown). Every
//! search also stops at `--engine-max-time`, watched by one more thread,
//! and then answers with the best turn found so far. The endgame tables
//! are built once per process, in the background, when the first search is
//! asked for; searches use them once they are ready.

mod worker;

use std::{
    collections::VecDeque,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Condvar, Mutex, MutexGuard, PoisonError,
    },
    time::{Duration, Instant},
};

use fanorona::{Position, Turn};
use fanorona_engine::Level;
use tokio::sync::oneshot;

use crate::{config::Config, ids::GameId};

/// The longest a hint searches (less when `--engine-max-time` is less).
pub const HINT_TIME: Duration = Duration::from_secs(1);

/// What a search is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Search {
    /// The turn the computer plays at `level`; `seed` decides the weak
    /// levels' choices, so a replayed game gets the same turns.
    Play {
        /// The computer's level.
        level: Level,
        /// Derived from the game and its count of actions: [`seed`].
        seed: u64,
    },
    /// The best turn, for a hint: the strongest level's budget, at most
    /// [`HINT_TIME`].
    Hint,
}

/// The seed of the computer's choice in game `game` after `actions`
/// actions: the same game at the same point chooses the same way.
pub fn seed(game: &GameId, actions: u64) -> u64 {
    // FNV-1a over the id, then the count mixed in.
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for byte in game.as_str().bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    (hash ^ actions).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The pool is full or stopped: the search was not queued.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the computer is busy")]
pub struct Busy;

/// A queued or running search. Dropping it stops the search.
#[derive(Debug)]
pub struct Ticket {
    /// The best turn (`None` when the game is over); an error when the
    /// search was dropped (shutdown).
    pub answer: oneshot::Receiver<Option<Turn>>,
    stop: Arc<AtomicBool>,
}

impl Ticket {
    /// Stops the search: it answers at once, or never if not started.
    pub fn cancel(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// The pool's settings, from the configuration.
#[derive(Copy, Clone, Debug)]
struct Settings {
    threads: usize,
    queue: usize,
    max_time: Duration,
    table_bytes: usize,
    nice: i32,
    table_stones: usize,
}

/// One search waiting for a thread.
#[derive(Debug)]
struct Job {
    game: GameId,
    position: Position,
    search: Search,
    stop: Arc<AtomicBool>,
    reply: oneshot::Sender<Option<Turn>>,
}

#[derive(Debug, Default)]
struct State {
    queue: VecDeque<Job>,
    /// Per thread, the deadline and stop flag of its search.
    running: Vec<Option<(Instant, Arc<AtomicBool>)>>,
    started: bool,
    stopped: bool,
}

#[derive(Debug)]
struct Inner {
    settings: Settings,
    state: Mutex<State>,
    /// Wakes a thread when a job is queued or the pool stops.
    work: Condvar,
    /// Wakes the watch thread when a search starts or the pool stops.
    watch: Condvar,
}

/// The search threads of the server, shared by every game.
#[derive(Clone, Debug)]
pub struct Pool {
    inner: Arc<Inner>,
}

impl Pool {
    /// A pool as `config` says; its threads start with the first search.
    pub fn new(config: &Config) -> Pool {
        let settings = Settings {
            threads: config.engine_threads.max(1),
            queue: config.engine_queue,
            max_time: config.engine_max_time,
            table_bytes: config.engine_table_mb << 20,
            nice: config.engine_nice,
            table_stones: usize::from(config.engine_table_stones),
        };
        Pool {
            inner: Arc::new(Inner {
                settings,
                state: Mutex::new(State::default()),
                work: Condvar::new(),
                watch: Condvar::new(),
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.inner.lock()
    }

    /// Whether a new search would be refused now.
    pub fn is_full(&self) -> bool {
        let state = self.state();
        state.stopped || state.queue.len() >= self.inner.settings.queue
    }

    /// Queues a search of `position` for game `game`.
    ///
    /// # Errors
    ///
    /// [`Busy`] when `--engine-queue` searches already wait, or the pool
    /// has stopped.
    pub fn submit(
        &self,
        game: &GameId,
        position: Position,
        search: Search,
    ) -> Result<Ticket, Busy> {
        let mut state = self.state();
        if state.stopped || state.queue.len() >= self.inner.settings.queue {
            return Err(Busy);
        }
        if !state.started {
            state.started = true;
            state.running = vec![None; self.inner.settings.threads];
            worker::start(&self.inner);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let (reply, answer) = oneshot::channel();
        state.queue.push_back(Job {
            game: game.clone(),
            position,
            search,
            stop: stop.clone(),
            reply,
        });
        drop(state);
        self.inner.work.notify_one();
        Ok(Ticket { answer, stop })
    }

    /// Stops every search and every thread; later searches are refused.
    /// The waiting searches are dropped: their tickets get an error.
    pub fn shutdown(&self) {
        let mut state = self.state();
        state.stopped = true;
        state.queue.clear();
        for (_, stop) in state.running.iter().flatten() {
            stop.store(true, Ordering::Relaxed);
        }
        drop(state);
        self.inner.work.notify_all();
        self.inner.watch.notify_all();
    }
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn pool(threads: &str, queue: &str) -> Pool {
        let config = Config::parse_from([
            "fanorona-server",
            "--engine-threads",
            threads,
            "--engine-queue",
            queue,
            "--engine-max-time",
            "2s",
            "--engine-table-mb",
            "1",
        ]);
        Pool::new(&config)
    }

    #[tokio::test]
    async fn a_search_answers_a_legal_turn_and_a_full_queue_refuses() {
        let pool = pool("1", "2");
        let id: GameId = "abcdefghij".parse().expect("an id");
        let position = Position::start();
        let level = Level::new(1).expect("a level");
        let search = Search::Play {
            level,
            seed: seed(&id, 0),
        };
        let mut ticket = pool.submit(&id, position, search).expect("queued");
        let turn = (&mut ticket.answer)
            .await
            .expect("answered")
            .expect("a turn");
        assert!(position.play(&turn).is_ok(), "{turn}");
        let mut hint = pool.submit(&id, position, Search::Hint).expect("queued");
        assert!((&mut hint.answer).await.expect("answered").is_some());
        // One thread, two places: the third waiting search is refused.
        let stuck: Vec<_> = (0..8)
            .map(|_| pool.submit(&id, position, Search::Hint))
            .collect();
        assert!(stuck.iter().any(|t| t.is_err()));
        pool.shutdown();
        assert!(pool.is_full());
        assert_eq!(pool.submit(&id, position, Search::Hint).err(), Some(Busy));
    }

    #[tokio::test]
    async fn a_search_stops_at_its_time_cap() {
        let config = Config::parse_from(["fanorona-server", "--engine-max-time", "30ms"]);
        let pool = Pool::new(&config);
        let id: GameId = "abcdefghij".parse().expect("an id");
        let position = Position::start();
        let search = Search::Play {
            level: Level::MAX,
            seed: 0,
        };
        let started = Instant::now();
        let mut ticket = pool.submit(&id, position, search).expect("queued");
        let turn = (&mut ticket.answer)
            .await
            .expect("answered")
            .expect("a turn");
        let took = started.elapsed();
        assert!(position.play(&turn).is_ok(), "{turn}");
        // Uncapped, the strongest level searches 2,000,000 nodes here: 4.85 s
        // in the test build. The bound leaves room for a busy machine.
        assert!(took < Duration::from_secs(2), "{took:?}");
        pool.shutdown();
    }

    #[test]
    fn the_seed_depends_on_the_game_and_the_count() {
        let a: GameId = "abcdefghij".parse().expect("an id");
        let b: GameId = "abcdefghik".parse().expect("an id");
        assert_eq!(seed(&a, 3), seed(&a, 3));
        assert_ne!(seed(&a, 3), seed(&a, 4));
        assert_ne!(seed(&a, 3), seed(&b, 3));
    }
}
