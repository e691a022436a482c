//! Live games. Each loaded game is owned by one task: commands
//! arrive on its channel and are handled one at a time, every change is
//! stored before it is published, and the state is published once, as
//! shared bytes, on a watch channel that every socket of the game reads.

mod handle;
mod task;

use std::{
    collections::HashMap,
    future::Future,
    net::IpAddr,
    sync::{Arc, Mutex, PoisonError},
};

use axum::extract::ws::Utf8Bytes;
use fanorona::{ByColor, Color, Position};
use tokio::sync::{broadcast, mpsc, oneshot, watch, OnceCell};
use tokio_util::{sync::CancellationToken, task::TaskTracker};

pub(crate) use self::handle::Connection;
pub use self::handle::GameHandle;
use crate::{
    computer::Pool,
    config::{Config, Site},
    error::AppError,
    game::{ComputerSeat, GameResult, Intent, Level, Role, TimeControl},
    ids::{GameId, Secret},
    limits::{Held, PerClient},
    store::{Change, GameRow, Notice, Store, StoreError},
};

/// The last published state of a game.
#[derive(Debug)]
pub struct Snapshot {
    /// The state message, encoded once.
    pub json: Utf8Bytes,
    /// When the game was created, while a seat is still free.
    pub(crate) open_since: Option<i64>,
    /// The game this one is a rematch of.
    pub(crate) rematch_of: Option<GameId>,
}

/// Who moves first, as the creator chose.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum First {
    /// The creator plays White.
    Me,
    /// The friend plays White.
    Friend,
    /// The computer plays White.
    Computer,
    /// A coin toss.
    Random,
}

/// A new game as its creator sees it.
#[derive(Debug)]
pub struct Created {
    /// The game.
    pub id: GameId,
    /// The creator's colour.
    pub color: Color,
    /// The creator's seat secret.
    pub seat: Secret,
    /// The invitation token for the friend (never shown in a game
    /// against the computer).
    pub invite: Secret,
    /// The computer's seat, in a game against it.
    pub computer: Option<ComputerSeat>,
}

/// What opening an invitation gave.
#[derive(Debug)]
pub(crate) enum Joined {
    /// The visitor already holds this seat (with this secret).
    Already(Color, Secret),
    /// The visitor took the free seat and gets this secret.
    Seated(Color, Secret),
    /// The visitor's join key names the seat it took before, whose answer
    /// may have been lost: that seat again.
    Again(Color, Secret),
    /// Both seats are taken: the visitor watches.
    Spectator,
}

/// What an invitation link leads to, seen without changing anything.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Invitation {
    /// The visitor already holds this seat.
    Holder(Color),
    /// The invitation is this game's, and this seat is free; the game's
    /// time control, if it has clocks.
    Open(Color, Option<TimeControl>),
    /// The invitation is this game's, but both seats are taken.
    Used,
    /// The token is not this game's.
    Wrong,
}

/// What the sender of an intent shows to say which seat it acts for.
#[derive(Debug)]
pub(crate) enum Credentials {
    /// A socket that already knows its role.
    Role(Role),
    /// An HTTP request with these seat credentials, if any.
    Secret(Option<Secret>),
}

type Reply<T> = oneshot::Sender<Result<T, AppError>>;

/// The commands a game's task handles, one at a time. The rare ones are
/// boxed: the queue allocates room for 32 commands of the largest size.
#[derive(Debug)]
enum Command {
    Connect(Box<(Option<Secret>, IpAddr, Reply<Role>)>),
    Disconnect(Role, IpAddr),
    Identify(Secret, oneshot::Sender<Option<Color>>),
    /// An intent, from a client address.
    Act(Credentials, IpAddr, Intent, Reply<Utf8Bytes>),
    /// The creator of a game against the computer is here, over HTTP,
    /// from this client address, whose count of games against the
    /// computer holds this one.
    Summon(Box<(IpAddr, Held)>),
    Join(Box<JoinRequest>),
    Invitation(Box<(Secret, Option<Secret>, oneshot::Sender<Invitation>)>),
    Record(oneshot::Sender<Box<RecordFacts>>),
    /// Another process may have changed the game: action `seq` was
    /// stored, or (`None`) its row changed or changes were missed.
    Changed(Option<u64>),
    /// Another process said this of the players' sockets it holds.
    Heard(u64, Notice),
}

/// What a game's record tells, taken from its task at one moment.
#[derive(Clone, Debug)]
pub(crate) struct RecordFacts {
    /// When the game was created, in seconds since the Unix epoch.
    pub(crate) created_at: i64,
    /// When it ended, while it is over.
    pub(crate) ended_at: Option<i64>,
    /// The colour of the player who created it.
    pub(crate) creator: Color,
    /// Which seats a person holds.
    pub(crate) joined: ByColor<bool>,
    /// The computer's seat and its level now, in a game against it.
    pub(crate) computer: Option<ComputerSeat>,
    /// The position the game started from.
    pub(crate) start: Position,
    /// The completed turns, in notation.
    pub(crate) moves: Vec<String>,
    /// How the game ended, once it has.
    pub(crate) result: Option<GameResult>,
    /// The time control, in a game with clocks.
    pub(crate) time_control: Option<TimeControl>,
}

/// An invitation presented to a game, and who presents it.
#[derive(Debug)]
struct JoinRequest {
    invite: Secret,
    holder: Option<Secret>,
    /// The secret the joiner's key derives, if it sent one.
    keyed: Option<Secret>,
    reply: Reply<Joined>,
}

/// A game's place in the hub: filled once, by whoever loads it first.
type Slot = Arc<OnceCell<GameHandle>>;

struct HubInner {
    store: Arc<dyn Store>,
    config: Arc<Config>,
    site: Site,
    /// Held only to look up or change a slot, never across an await.
    games: Mutex<HashMap<GameId, Slot>>,
    shutdown: CancellationToken,
    tasks: TaskTracker,
    sockets: PerClient,
    /// The threads that search for the computer.
    computer: Pool,
    /// The games against the computer each client plays at once.
    computer_games: PerClient,
    /// Other processes write to the store too: memory may be behind it.
    shared: bool,
}

/// Every live game of this process.
#[derive(Clone)]
pub struct Hub {
    inner: Arc<HubInner>,
}

impl std::fmt::Debug for Hub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hub").finish_non_exhaustive()
    }
}

impl Hub {
    /// A hub with no live games over `store`.
    pub fn new(store: Arc<dyn Store>, config: Arc<Config>) -> Hub {
        Hub {
            inner: Arc::new(HubInner {
                store: store.clone(),
                games: Mutex::new(HashMap::new()),
                shutdown: CancellationToken::new(),
                tasks: TaskTracker::new(),
                sockets: PerClient::new(config.sockets_per_address),
                computer: Pool::new(&config),
                computer_games: PerClient::new(config.computer_games_per_address),
                site: Site::new(&config),
                config,
                shared: store.changes().is_some(),
            }),
        }
    }

    /// Cancelled when the server shuts down: game tasks and sockets stop.
    pub(crate) fn shutdown_token(&self) -> CancellationToken {
        self.inner.shutdown.clone()
    }

    /// The store games are kept in.
    pub(crate) fn store(&self) -> &dyn Store {
        self.inner.store.as_ref()
    }

    /// The server's configuration.
    pub(crate) fn config(&self) -> &Config {
        &self.inner.config
    }

    /// What the configuration says about the site, derived once.
    pub(crate) fn site(&self) -> &Site {
        &self.inner.site
    }

    /// Creates and stores a new game between people, from `position` or
    /// the usual start.
    ///
    /// # Errors
    ///
    /// A storage error.
    pub async fn create(
        &self,
        first: First,
        position: Option<Position>,
    ) -> Result<Created, AppError> {
        let nobody = IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED);
        self.create_game(first, position, None, None, nobody).await
    }

    /// Creates and stores a new game for `client`: between people, or
    /// against the computer at `computer`'s level. `first` is the
    /// creator's choice: `Friend` only between people, `Computer` only
    /// against the computer. `position` is the start the request asked
    /// for, read and allowed (`--allow-custom-start`) at the edge; `None`
    /// for the usual start.
    ///
    /// # Errors
    ///
    /// A `first` that does not fit the opponent, [`AppError::TooManyComputerGames`] when
    /// `client` already plays `--computer-games-per-address` games against
    /// the computer, [`AppError::Busy`] when the computer's threads have
    /// too much waiting, or a storage error.
    pub async fn create_game(
        &self,
        first: First,
        position: Option<Position>,
        computer: Option<Level>,
        clock: Option<TimeControl>,
        client: IpAddr,
    ) -> Result<Created, AppError> {
        let start = position.unwrap_or_else(Position::start);
        let color = match (first, computer) {
            (First::Me, _) => Color::White,
            (First::Friend, None) | (First::Computer, Some(_)) => Color::Black,
            (First::Random, _) => {
                let mut byte = [0u8];
                getrandom::fill(&mut byte)?;
                if byte[0] & 1 == 0 {
                    Color::White
                } else {
                    Color::Black
                }
            }
            (First::Friend, Some(_)) | (First::Computer, None) => {
                return Err(crate::protocol::ProtocolError::BadMessage {
                    kind: "request".into(),
                    detail: "`first` must be \"me\", \"random\" or, against a friend, \"friend\", against the computer, \"computer\"".into(),
                }
                .into())
            }
        };
        // Counted from now: two creations at once cannot both take the
        // last place.
        let held = match computer {
            Some(_) => Some(
                self.inner
                    .computer_games
                    .acquire(client)
                    .ok_or(AppError::TooManyComputerGames)?,
            ),
            None => None,
        };
        if computer.is_some() && !self.inner.computer.has_room(client) {
            return Err(AppError::Busy);
        }
        let computer = computer.map(|level| ComputerSeat {
            color: !color,
            level,
        });
        let (seat, invite) = (Secret::random()?, Secret::random()?);
        let mut seats = ByColor::default();
        *seats.get_mut(color) = Some(seat.hash());
        let row = GameRow {
            id: GameId::random()?,
            created_at: self.config().wall.now_seconds(),
            start_position: start.to_string(),
            creator: color,
            seats,
            invite: invite.hash(),
            rematch_of: None,
            next_game: None,
            computer,
            time_control: clock,
            score: None,
        };
        let stored = self.inner.store.create_game(&row).await;
        stored.map_err(AppError::not_saved)?;
        tracing::info!(game = %row.id, against_computer = computer.is_some(), "game created");
        if let Some(held) = held {
            // Loaded at once, so the computer starts thinking when it moves
            // first.
            self.get(&row.id).await?.summon(client, held).await?;
        }
        Ok(Created {
            id: row.id,
            color,
            seat,
            invite,
            computer,
        })
    }

    /// The live game `id`, loaded from the store and replayed if needed.
    ///
    /// No lock is held while the store is read: each game has its own slot,
    /// so a slow load delays only the visitors of that game.
    ///
    /// # Errors
    ///
    /// [`AppError::GameNotFound`], or a storage error.
    pub async fn get(&self, id: &GameId) -> Result<GameHandle, AppError> {
        // A game unloads between two looks only if its task stops meanwhile;
        // a few tries are plenty.
        for _ in 0..4 {
            if self.inner.shutdown.is_cancelled() {
                return Err(AppError::Unavailable);
            }
            let slot = match self.lookup(id) {
                Ok(handle) => return Ok(handle),
                Err(slot) => slot,
            };
            let loaded = slot.get_or_try_init(|| self.load(id)).await;
            if let Err(error) = loaded {
                self.forget(id, &slot);
                return Err(error);
            }
        }
        Err(AppError::Unavailable)
    }

    /// The live handle of `id`, cloned under the lock (so the game cannot
    /// unload in between), or the slot to fill.
    fn lookup(&self, id: &GameId) -> Result<GameHandle, Slot> {
        let mut games = self.games();
        let slot = games.entry(id.clone()).or_default();
        match slot.get() {
            Some(handle) if !handle.tx.is_closed() => Ok(handle.clone()),
            Some(_) => {
                *slot = Slot::default();
                Err(slot.clone())
            }
            None => Err(slot.clone()),
        }
    }

    async fn load(&self, id: &GameId) -> Result<GameHandle, AppError> {
        let stored = match self.inner.store.load_game(id).await {
            Err(StoreError::NotFound) => return Err(AppError::GameNotFound),
            other => other?,
        };
        task::spawn(self.clone(), stored)
    }

    /// Removes `slot` from the map if it is still the one for `id`.
    fn forget(&self, id: &GameId, slot: &Slot) {
        let mut games = self.games();
        if games.get(id).is_some_and(|s| Arc::ptr_eq(s, slot)) {
            games.remove(id);
        }
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Slot>> {
        self.inner
            .games
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Passes every change heard from the database (other processes'
    /// writes) to the live game it concerns, until shutdown; when changes
    /// were missed, every live game reads itself again from the store.
    pub(crate) async fn follow(self, mut changes: broadcast::Receiver<Change>) {
        let shutdown = self.shutdown_token();
        loop {
            let change = tokio::select! {
                change = changes.recv() => change,
                () = shutdown.cancelled() => return,
            };
            let (id, command) = match change {
                Ok(Change::Game { id, seq }) => (id, Command::Changed(seq)),
                Ok(Change::Presence {
                    id,
                    process,
                    notice,
                }) => (id, Command::Heard(process, notice)),
                Ok(Change::Missed) | Err(broadcast::error::RecvError::Lagged(_)) => {
                    let live: Vec<GameHandle> = self
                        .games()
                        .values()
                        .filter_map(|slot| slot.get().cloned())
                        .collect();
                    tracing::warn!(
                        games = live.len(),
                        "changes missed: reading every live game again"
                    );
                    for handle in &live {
                        tell(handle, Command::Changed(None));
                    }
                    continue;
                }
                Err(broadcast::error::RecvError::Closed) => return,
            };
            let live = self.games().get(&id).and_then(|slot| slot.get().cloned());
            if let Some(handle) = live {
                tell(&handle, command);
            }
        }
    }

    /// The computer's figures, in the OpenMetrics text format.
    pub(crate) fn metrics(&self) -> String {
        self.inner.computer.metrics().encode()
    }

    /// How many games are in memory.
    pub fn live_games(&self) -> usize {
        self.games().len()
    }

    /// Completes when every game task has stopped and every connection has
    /// been dropped, after shutdown.
    pub fn stopped(&self) -> impl Future<Output = ()> + Send + 'static {
        self.inner.computer.shutdown();
        let tasks = self.inner.tasks.clone();
        tasks.close();
        async move { tasks.wait().await }
    }

    /// Forgets `id` whatever watches it: its task is stopping.
    fn forget_task(&self, id: &GameId, watchers: &watch::Sender<Arc<Snapshot>>) {
        remove_task(&mut self.games(), id, watchers);
    }

    /// Forgets `id` if its task may stop: nobody but the hub watches it and
    /// no command is waiting. Called by the task itself.
    fn unload(
        &self,
        id: &GameId,
        watchers: &watch::Sender<Arc<Snapshot>>,
        rx: &mpsc::Receiver<Command>,
    ) -> bool {
        let mut games = self.games();
        if watchers.receiver_count() > 1 || !rx.is_empty() {
            return false;
        }
        remove_task(&mut games, id, watchers);
        true
    }
}

/// Tells the task of `handle` what was heard of its game; waits for room
/// in its queue on a task of its own when it is full, so that one busy
/// game never holds up the changes of the others.
fn tell(handle: &GameHandle, command: Command) {
    if let Err(mpsc::error::TrySendError::Full(command)) = handle.tx.try_send(command) {
        let tx = handle.tx.clone();
        tokio::spawn(async move { tx.send(command).await });
    }
}

/// Removes the slot of `id` if it holds the task publishing on `watchers`.
fn remove_task(
    games: &mut HashMap<GameId, Slot>,
    id: &GameId,
    watchers: &watch::Sender<Arc<Snapshot>>,
) {
    let ours = games
        .get(id)
        .and_then(|slot| slot.get())
        .is_some_and(|h| h.state.same_channel(&watchers.subscribe()));
    if ours {
        games.remove(id);
    }
}
