//! The computer's searches: a bounded pool of OS threads outside the async
//! runtime, each with its own engine, shared fairly by every client.
//!
//! A game's task submits a position for a client (the person it plays
//! for, or who asked a hint) and gets a [`Ticket`]: the answer comes back
//! on a oneshot channel, and dropping the ticket takes the search out of
//! the queue or stops it (a takeback, a game that moved on, a player who
//! left, an unloaded game, shutdown). The waiting searches are served one
//! client at a time, in turn (`queue.rs`), and each stops within its
//! budget (`budget.rs`): its level's own, or less when others wait, so that
//! nobody waits longer than `--computer-max-wait` for a thread. Every
//! search also stops at `--engine-max-time`. One more thread watches the
//! deadlines and raises the stop flags. The endgame tables are built once
//! per process, in the background, when the first search is asked for;
//! searches use them once they are ready (with 5 stones, the 4-stone ones
//! until the 5-stone ones are).

mod budget;
mod metrics;
mod queue;
mod worker;

use std::{
    net::IpAddr,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Condvar, Mutex, MutexGuard, PoisonError, Weak,
    },
    time::{Duration, Instant},
};

use fanorona::{Position, Turn};
use fanorona_engine::Level;
use tokio::sync::oneshot;

pub(crate) use self::metrics::Metrics;
use self::{
    budget::Bounds,
    queue::{Queue, Queued},
};
use crate::{config::Config, ids::GameId};

/// The longest a hint searches (less when `--engine-max-time` is less, or
/// others wait).
pub const HINT_TIME: Duration = Duration::from_secs(1);

/// The level whose node budget a hint has: a hint is the strongest help a
/// player gets, but it is free to ask, so it searches less than the
/// strongest level plays.
pub const HINT_LEVEL: Level = match Level::new(5) {
    Some(level) => level,
    None => Level::MAX,
};

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
    /// The best turn, for a hint: [`HINT_LEVEL`]'s node budget, at most
    /// [`HINT_TIME`].
    Hint,
}

impl Search {
    /// Whether the search may take long: by nodes, not a few turns deep.
    fn heavy(self) -> bool {
        match self {
            Search::Play { level, .. } => level.spec().nodes.is_some(),
            Search::Hint => true,
        }
    }
}

/// A search to queue: of `position`, in `game`, for `client` (the
/// address the limits count), whose turn in the queue it takes.
#[derive(Clone, Debug)]
pub struct Request {
    /// The client the search is for.
    pub client: IpAddr,
    /// The game it is for.
    pub game: GameId,
    /// The position to search.
    pub position: Position,
    /// What for.
    pub search: Search,
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

/// A queued or running search. Dropping it takes the search out of the
/// queue, or stops it if it runs.
#[derive(Debug)]
pub struct Ticket {
    /// The best turn (`None` when the game is over); an error when the
    /// search was dropped (shutdown).
    pub answer: oneshot::Receiver<Option<Turn>>,
    stop: Arc<AtomicBool>,
    id: u64,
    client: IpAddr,
    pool: Weak<Shared>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(inner) = self.pool.upgrade() {
            let mut state = inner.lock();
            if state.queue.remove(self.client, self.id).is_some() {
                inner.metrics.dropped(false);
                inner.show_queue(&state);
            }
        }
    }
}

/// The pool's settings, from the configuration.
#[derive(Copy, Clone, Debug)]
struct Settings {
    bounds: Bounds,
    /// The most searches waiting in all.
    queue: usize,
    /// The most searches one client may have waiting.
    per_client: usize,
    table_bytes: usize,
    nice: i32,
    table_stones: usize,
}

/// One search waiting for a thread.
#[derive(Debug)]
struct Job {
    id: u64,
    game: GameId,
    position: Position,
    search: Search,
    stop: Arc<AtomicBool>,
    reply: oneshot::Sender<Option<Turn>>,
    /// When it was asked for.
    queued: Instant,
}

impl Queued for Job {
    fn id(&self) -> u64 {
        self.id
    }

    fn heavy(&self) -> bool {
        self.search.heavy()
    }
}

/// A search on a thread: when it must stop, and its stop flag.
#[derive(Clone, Debug)]
struct Running {
    deadline: Instant,
    stop: Arc<AtomicBool>,
}

/// What the search threads have to do and are doing: the queue, the
/// search each thread runs, and the pool's life. Behind the pool's one
/// mutex.
#[derive(Debug, Default)]
struct Schedule {
    queue: Queue<Job>,
    /// Per thread, the search it runs.
    running: Vec<Option<Running>>,
    /// The number of the next job.
    next_id: u64,
    started: bool,
    stopped: bool,
    /// Searches shortened since the last warning about it, and when that
    /// was.
    shortened: (u64, Option<Instant>),
}

/// What the pool's handles and its threads share.
#[derive(Debug)]
struct Shared {
    settings: Settings,
    state: Mutex<Schedule>,
    /// Wakes a thread when a job is queued or the pool stops.
    work: Condvar,
    /// Wakes the watch thread when a search starts or the pool stops.
    watch: Condvar,
    metrics: Metrics,
}

/// The search threads of the server, shared by every game.
#[derive(Clone, Debug)]
pub struct Pool {
    inner: Arc<Shared>,
}

impl Pool {
    /// A pool as `config` says; its threads start with the first search.
    pub fn new(config: &Config) -> Pool {
        let threads = config.engine_threads.max(1);
        let bounds = Bounds {
            max_time: config.engine_max_time,
            max_wait: config.computer_max_wait,
            threads,
        };
        let settings = Settings {
            bounds,
            queue: config.engine_queue.min(bounds.most_waiting()),
            per_client: usize::try_from(config.computer_games_per_address)
                .unwrap_or(usize::MAX)
                .max(1),
            table_bytes: config.engine_table_mb << 20,
            nice: config.engine_nice,
            table_stones: usize::from(config.engine_table_stones),
        };
        Pool {
            inner: Arc::new(Shared {
                settings,
                state: Mutex::new(Schedule::default()),
                work: Condvar::new(),
                watch: Condvar::new(),
                metrics: Metrics::new(),
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, Schedule> {
        self.inner.lock()
    }

    /// The pool's figures.
    pub(crate) fn metrics(&self) -> &Metrics {
        &self.inner.metrics
    }

    /// Why a search for `client` would be refused now, if it would.
    fn refusal(&self, state: &Schedule, client: IpAddr) -> Option<&'static str> {
        if state.stopped {
            Some("stopped")
        } else if state.queue.len() >= self.inner.settings.queue {
            Some("queue")
        } else if state.queue.waiting_for(client) >= self.inner.settings.per_client {
            Some("client")
        } else {
            None
        }
    }

    /// Whether a search for `client` would be queued now.
    pub fn has_room(&self, client: IpAddr) -> bool {
        self.refusal(&self.state(), client).is_none()
    }

    /// Queues the search of `request`, behind the client's own searches
    /// and in turn with the other clients'.
    ///
    /// # Errors
    ///
    /// [`Busy`] when `--engine-queue` searches already wait (or as many as
    /// `--computer-max-wait` can serve), when the client already has
    /// `--computer-games-per-address` waiting, or when the pool has
    /// stopped.
    pub fn submit(&self, request: Request) -> Result<Ticket, Busy> {
        let Request {
            client,
            game,
            position,
            search,
        } = request;
        let mut state = self.state();
        if let Some(why) = self.refusal(&state, client) {
            self.inner.metrics.refused(why);
            return Err(Busy);
        }
        if !state.started {
            state.started = true;
            state.running = vec![None; self.inner.settings.bounds.threads];
            worker::start(&self.inner);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let (reply, answer) = oneshot::channel();
        let id = state.next_id;
        state.next_id += 1;
        let job = Job {
            id,
            game,
            position,
            search,
            stop: stop.clone(),
            reply,
            queued: Instant::now(),
        };
        state.queue.push(client, job);
        self.inner.show_queue(&state);
        drop(state);
        self.inner.work.notify_one();
        Ok(Ticket {
            answer,
            stop,
            id,
            client,
            pool: Arc::downgrade(&self.inner),
        })
    }

    /// Stops every search and every thread; later searches are refused.
    /// The waiting searches are dropped: their tickets get an error.
    pub fn shutdown(&self) {
        let mut state = self.state();
        state.stopped = true;
        drop(state.queue.drain());
        for running in state.running.iter().flatten() {
            running.stop.store(true, Ordering::Relaxed);
        }
        self.inner.show_queue(&state);
        drop(state);
        self.inner.work.notify_all();
        self.inner.watch.notify_all();
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Schedule> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Shows the queue's length in the figures.
    fn show_queue(&self, state: &Schedule) {
        self.metrics.queue(state.queue.len(), state.queue.clients());
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;

    use super::*;
    use clap::Parser;
    use tokio::sync::oneshot::error::TryRecvError;

    fn pool(args: &[&str]) -> Pool {
        let mut all = vec![
            "fanorona-server",
            "--engine-table-mb",
            "1",
            "--engine-table-stones",
            "4",
        ];
        all.extend_from_slice(args);
        Pool::new(&Config::parse_from(all))
    }

    fn client(n: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
    }

    fn game(n: u8) -> GameId {
        format!("abcdefghi{}", char::from(b'a' + n))
            .parse()
            .expect("an id")
    }

    fn play(level: u8) -> Search {
        Search::Play {
            level: Level::new(level).expect("a level"),
            seed: 7,
        }
    }

    /// Where the searches here start: four turns into a game, past the
    /// opening book, so that the strongest level searches its whole budget.
    fn past_the_book() -> Position {
        let setup = "BB.B.B.BB/BBB.B.BBB/BWBW.B..W/....B.W.W/WWWW.WW.. w 0"
            .parse()
            .expect("position text");
        Position::from_setup(setup).expect("a legal position")
    }

    fn request(client_n: u8, game_n: u8, search: Search) -> Request {
        Request {
            client: client(client_n),
            game: game(game_n),
            position: past_the_book(),
            search,
        }
    }

    impl Pool {
        fn waiting(&self) -> usize {
            self.state().queue.len()
        }

        /// Waits until a thread has taken every search queued.
        async fn taken(&self) {
            for _ in 0..2000 {
                if self.waiting() == 0 {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            panic!("no thread took the search");
        }
    }

    #[tokio::test]
    async fn a_search_answers_a_legal_turn_and_a_full_queue_refuses() {
        let pool = pool(&["--engine-queue", "2", "--engine-max-time", "2s"]);
        let mut ticket = pool.submit(request(1, 1, play(1))).expect("queued");
        let turn = (&mut ticket.answer)
            .await
            .expect("answered")
            .expect("a turn");
        assert!(past_the_book().play(&turn).is_ok(), "{turn}");
        let mut hint = pool.submit(request(1, 1, Search::Hint)).expect("queued");
        assert!((&mut hint.answer).await.expect("answered").is_some());
        // One thread, two places: the third waiting search is refused,
        // whoever asks. Searches of the strongest level, so that the
        // thread is still on the first when room is looked at (hints at
        // the start are answered in a moment, and the queue could empty
        // before the look).
        let mut stuck = Vec::new();
        let mut full = false;
        for n in 0..64 {
            let submitted = pool.submit(request(n + 2, n, play(6)));
            // Looked at the moment one is refused: the thread may finish
            // a search at any time and make room again.
            if submitted.is_err() && !pool.has_room(client(99)) {
                full = true;
                break;
            }
            stuck.push(submitted);
        }
        assert!(full, "a full queue refuses, whoever asks");
        pool.shutdown();
        assert!(!pool.has_room(client(1)));
        assert_eq!(pool.submit(request(1, 1, Search::Hint)).err(), Some(Busy));
    }

    #[tokio::test]
    async fn a_search_stops_at_its_time_cap() {
        let pool = pool(&["--engine-max-time", "30ms"]);
        let started = Instant::now();
        let mut ticket = pool.submit(request(1, 1, play(6))).expect("queued");
        let turn = (&mut ticket.answer)
            .await
            .expect("answered")
            .expect("a turn");
        let took = started.elapsed();
        assert!(past_the_book().play(&turn).is_ok(), "{turn}");
        // Uncapped, the strongest level searches its whole node budget
        // here, about a second. The bound leaves room for a busy machine.
        assert!(took < Duration::from_secs(2), "{took:?}");
        pool.shutdown();
    }

    #[tokio::test]
    async fn clients_take_turns_whatever_one_of_them_queued_first() {
        let pool = pool(&["--computer-games-per-address", "8"]);
        // Client 1 queues three searches of the strongest level, in three
        // games, before client 2 queues one of the weakest.
        let mut heavy: Vec<_> = (0..3)
            .map(|g| pool.submit(request(1, g, play(6))).expect("queued"))
            .collect();
        let mut light = pool.submit(request(2, 9, play(1))).expect("queued");
        let turn = (&mut light.answer).await.expect("answered");
        assert!(turn.is_some());
        // The first of client 1's searches was taken before, the second
        // only after: it has not answered yet.
        assert!(matches!(
            heavy[1].answer.try_recv(),
            Err(TryRecvError::Empty)
        ));
        assert!(matches!(
            heavy[2].answer.try_recv(),
            Err(TryRecvError::Empty)
        ));
        for ticket in &mut heavy {
            assert!((&mut ticket.answer).await.expect("answered").is_some());
        }
        pool.shutdown();
    }

    #[tokio::test]
    async fn a_client_has_at_most_its_share_of_the_queue() {
        let pool = pool(&["--computer-games-per-address", "2"]);
        let running = pool.submit(request(1, 0, play(6))).expect("queued");
        pool.taken().await;
        let waiting: Vec<_> = (1..3)
            .map(|g| pool.submit(request(1, g, play(6))).expect("queued"))
            .collect();
        assert_eq!(pool.submit(request(1, 3, play(6))).err(), Some(Busy));
        assert!(!pool.has_room(client(1)));
        // Another client still has room.
        assert!(pool.has_room(client(2)));
        let other = pool.submit(request(2, 4, play(1))).expect("queued");
        assert!(pool
            .metrics()
            .encode()
            .contains(r#"searches_refused_total{why="client"} 1"#));
        drop((running, waiting, other));
        pool.shutdown();
    }

    #[tokio::test]
    async fn a_dropped_ticket_leaves_the_queue_at_once() {
        let pool = pool(&[]);
        let running = pool.submit(request(1, 0, play(6))).expect("queued");
        pool.taken().await;
        let waiting = pool.submit(request(1, 1, play(6))).expect("queued");
        let behind = pool.submit(request(2, 2, play(6))).expect("queued");
        assert_eq!(pool.waiting(), 2);
        drop(waiting);
        drop(behind);
        assert_eq!(pool.waiting(), 0);
        let figures = pool.metrics().encode();
        assert!(
            figures.contains(r#"searches_dropped_total{place="waiting"} 2"#),
            "{figures}"
        );
        // The running one stops too, and says so.
        drop(running);
        for _ in 0..1000 {
            if pool.metrics().encode().contains(r#"place="running"} 1"#) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert!(pool.metrics().encode().contains(r#"place="running"} 1"#));
        pool.shutdown();
    }

    #[tokio::test]
    async fn searches_are_cut_short_when_others_wait() {
        // A second and a half for everyone, four searches of the
        // strongest level from four clients: each gets a share.
        let pool = pool(&["--computer-max-wait", "1500ms"]);
        let mut tickets: Vec<_> = (0..4)
            .map(|n| pool.submit(request(n, n, play(6))).expect("queued"))
            .collect();
        for ticket in &mut tickets {
            assert!((&mut ticket.answer).await.expect("answered").is_some());
        }
        let figures = pool.metrics().encode();
        // The strongest level's node budget takes far more than a few
        // hundred milliseconds on any machine.
        let shortened = figures
            .lines()
            .find_map(|l| {
                l.strip_prefix(r#"fanorona_computer_searches_shortened_total{kind="play"} "#)
            })
            .and_then(|n| n.parse::<u64>().ok());
        assert!(shortened.is_some_and(|n| n >= 3), "{figures}");
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
