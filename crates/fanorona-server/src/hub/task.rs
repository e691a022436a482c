//! The task that owns one live game.

mod computer;
mod hint;
mod presence;
mod seats;
mod sync;
mod watching;

use std::{collections::HashMap, net::IpAddr, sync::Arc, time::Duration};

use axum::extract::ws::Utf8Bytes;
use fanorona::ByColor;
use tokio::{
    sync::{mpsc, watch},
    time::{sleep_until, Instant},
};

use self::{
    computer::{Computer, Opponent},
    hint::Hints,
    presence::Presence,
    sync::{end_time, replay},
    watching::Watching,
};
use super::{
    Command, Credentials, GameHandle, Hub, Invitation, JoinRequest, Joined, RecordFacts, Reply,
    Snapshot,
};
use crate::{
    clock,
    computer::{Request, Search},
    error::AppError,
    game::{Action, Game, GameError, Intent, Plan, Role},
    protocol::{LiveFacts, PlayerView, StateEncoder},
    store::{GameRow, Notice, StoreError, StoredGame},
};

/// How many commands may wait for a game's task: one block of tokio's
/// channel (32 commands), allocated with the game.
const QUEUE: usize = 32;

/// How long a player waits between two messages.
const MESSAGE_GAP: Duration = Duration::from_secs(2);

struct GameTask {
    hub: Hub,
    row: GameRow,
    game: Game,
    /// When the game ended, in seconds since the Unix epoch, while it is
    /// over.
    ended_at: Option<i64>,
    presence: ByColor<Presence>,
    /// The spectators' sockets, here and on other processes.
    watching: Watching,
    /// The `version` of the last state published: it grows with every
    /// state, and starts at the time the task started, in microseconds, so
    /// that a game loaded again (or by another process) never goes back
    /// to a version a page has already seen.
    version: u64,
    /// Whether the last state published said the player to move has
    /// abandoned the game: the deadline that publishes it is then done.
    shown_abandoned: bool,
    /// Open sockets per client address.
    sockets: HashMap<IpAddr, u32>,
    /// Memory may differ from the store: the task must stop.
    stale: bool,
    state: watch::Sender<Arc<Snapshot>>,
    /// Keeps what does not change between two states of this game.
    encoder: StateEncoder,
    /// What the computer is doing, in a game against it.
    computer: Computer,
    /// The person the computer plays, as the search threads count them.
    opponent: Opponent,
    /// The hints of a game against the computer.
    hints: Hints,
    /// When each player last said a message through this process.
    last_message: ByColor<Option<Instant>>,
    /// When this process next says again which players it holds a socket
    /// of, while it holds any.
    next_beat: Instant,
    /// The last time something other than presence happened: the game
    /// unloads after `--idle-unload` from it. Other processes' heartbeats
    /// do not keep a game nobody watches here in memory.
    active: Instant,
}

/// Replays a stored game and starts its task.
pub(super) fn spawn(hub: Hub, stored: StoredGame) -> Result<GameHandle, AppError> {
    let (game, ended_at) = replay(&stored)?;
    let now = Instant::now();
    let hints = Hints::new(hub.config().hints_per_minute);
    let (tx, rx) = mpsc::channel(QUEUE);
    let version = clock::unix_micros();
    let mut task = GameTask {
        hub,
        row: stored.row,
        game,
        ended_at,
        presence: ByColor::new_with(|_| Presence::new(now)),
        watching: Watching::new(now),
        version,
        shown_abandoned: false,
        sockets: HashMap::new(),
        stale: false,
        encoder: StateEncoder::default(),
        computer: Computer::Idle,
        opponent: Opponent::default(),
        hints,
        last_message: ByColor::default(),
        next_beat: now,
        active: now,
        state: watch::Sender::new(Arc::new(Snapshot {
            json: Utf8Bytes::from_static("{}"),
            open_since: None,
            rematch_of: None,
        })),
    };
    task.maybe_think();
    task.publish()?;
    // Those holding a player's socket on another process answer at once.
    task.announce(Notice::Ask);
    let handle = GameHandle {
        tx,
        state: task.state.subscribe(),
        sockets: task.hub.inner.sockets.clone(),
        tasks: task.hub.inner.tasks.clone(),
    };
    let tracker = task.hub.inner.tasks.clone();
    tracker.spawn(task.run(rx));
    Ok(handle)
}

impl GameTask {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        let shutdown = self.hub.shutdown_token();
        let idle = self.hub.config().idle_unload;
        loop {
            let abandon_at = self.abandon_deadline();
            let presence_at = self.presence_deadline();
            let flag_at = self.game.deadline();
            let wall = self.hub.config().wall.clone();
            let watching_at = self.watching_deadline();
            let mut active = true;
            tokio::select! {
                command = rx.recv() => match command {
                    Some(command) => {
                        active = !matches!(command, Command::Heard(..));
                        self.handle(command).await;
                    }
                    None => break,
                },
                () = sleep_until(abandon_at.unwrap_or_else(far_future)), if abandon_at.is_some() => {
                    self.publish_or_stop();
                }
                () = wall.sleep_until(flag_at.unwrap_or(i64::MAX)), if flag_at.is_some() => {
                    if self.settle_time().await {
                        self.publish_or_stop();
                    }
                }
                () = sleep_until(presence_at.unwrap_or_else(far_future)), if presence_at.is_some() => {
                    active = false;
                    self.on_presence_timer();
                }
                () = sleep_until(watching_at.unwrap_or_else(far_future)), if watching_at.is_some() => {
                    active = false;
                    self.on_watching_timer();
                }
                () = sleep_until(self.active + idle) => {
                    if self.hub.unload(&self.row.id, &self.state, &rx) {
                        tracing::debug!(game = %self.row.id, "game unloaded");
                        break;
                    }
                }
                event = self.computer.next() => self.on_computer(event).await,
                event = self.hints.next() => self.hints.on_event(event),
                () = shutdown.cancelled() => {
                    self.announce_held(Notice::Gone);
                    self.announce_no_watching();
                    break;
                }
            }
            if active {
                self.active = Instant::now();
            }
            if self.stale {
                self.hub.forget_task(&self.row.id, &self.state);
                break;
            }
        }
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Connect(request) => {
                let (secret, client, reply) = *request;
                // With other processes on the store, a socket that opens
                // sees at least what was committed before it opened: its
                // player may come from another process, where their last
                // move was acknowledged a moment ago and its notice may
                // not have reached this one yet (the crash test on
                // PostgreSQL saw such a player's own move missing).
                if self.hub.inner.shared {
                    self.resync().await;
                }
                let seat = secret.and_then(|secret| self.seat_of(&secret));
                let _ = reply.send(self.connect(seat, client));
            }
            Command::Disconnect(role, client) => self.disconnect(role, client),
            Command::Identify(secret, reply) => {
                let _ = reply.send(self.seat_of_fresh(&secret).await);
            }
            Command::Changed(seq) => {
                // Action `seq` is already here when it was this process's.
                if seq.is_none_or(|seq| seq >= self.game.seq) {
                    self.resync().await;
                }
            }
            Command::Act(by, client, intent, reply) => {
                if intent == Intent::Hint {
                    self.hint(by, client, reply).await;
                } else {
                    let result = self.act(by, client, intent).await;
                    let _ = reply.send(result);
                }
                // Even refused, an intent of the person over HTTP brings
                // them back: a turn the computer still owes them (after a
                // restart) is played.
                self.resume_computer();
            }
            Command::Summon(summons) => {
                let (client, held) = *summons;
                self.opponent.summoned(client, held);
                self.maybe_think();
                self.publish_or_stop();
            }
            Command::Join(request) => {
                let JoinRequest {
                    invite,
                    holder,
                    keyed,
                    reply,
                } = *request;
                let result = self.join(invite, holder, keyed).await;
                let _ = reply.send(result);
            }
            Command::Invitation(request) => {
                let (invite, holder, reply) = *request;
                let _ = reply.send(self.invitation(&invite, holder.as_ref()));
            }
            Command::Record(reply) => {
                let _ = reply.send(Box::new(self.record_facts()));
            }
            Command::Heard(process, notice) => self.heard(process, notice),
        }
    }

    /// Plays `intent` for `by`, from `client`.
    async fn act(
        &mut self,
        by: Credentials,
        client: IpAddr,
        intent: Intent,
    ) -> Result<Utf8Bytes, AppError> {
        let plan = self.plan(&by, client, intent).await?;
        let before = self.game.seq;
        let sender = plan.action().by;
        self.commit(plan).await?;
        match intent {
            Intent::Message { .. } => *self.last_message.get_mut(sender) = Some(Instant::now()),
            Intent::Hint | Intent::SetLevel { .. } => {
                self.computer.still_fits(before, self.game.seq)
            }
            // A takeback stops the search or the turn under way.
            Intent::Takeback => self.computer = Computer::Idle,
            _ if self.game.result.is_some() => self.computer = Computer::Idle,
            _ => {}
        }
        self.maybe_think();
        self.publish()
    }

    /// Checks `intent` for `by`, from `client`, changing nothing of the
    /// game, and says what it will do. With other processes on the store,
    /// an intent this memory refuses is checked once more after reading
    /// the game again: the refusal may come from memory that is behind
    /// (the opponent's move, made through another process, not yet
    /// heard).
    async fn plan(
        &mut self,
        by: &Credentials,
        client: IpAddr,
        intent: Intent,
    ) -> Result<Plan, AppError> {
        // A clock at zero is settled first: then every intent meets the
        // game as it is, over.
        if self.settle_time().await {
            self.publish_or_stop();
        }
        match self.try_plan(by, client, intent) {
            Err(AppError::Game(_) | AppError::WrongSecret) if self.hub.inner.shared => {
                self.resync().await;
                if self.stale {
                    return Err(AppError::Unavailable);
                }
                self.try_plan(by, client, intent)
            }
            done => done,
        }
    }

    fn try_plan(
        &mut self,
        by: &Credentials,
        client: IpAddr,
        intent: Intent,
    ) -> Result<Plan, AppError> {
        let by = match by {
            Credentials::Role(Role::Player(color)) => *color,
            Credentials::Role(Role::Spectator) | Credentials::Secret(None) => {
                return Err(AppError::NotAPlayer)
            }
            Credentials::Secret(Some(secret)) => {
                let color = self.seat_of(secret).ok_or(AppError::WrongSecret)?;
                if self.is_computer(!color) {
                    self.opponent.called(client);
                }
                color
            }
        };
        if !self.both_joined() && self.game.result.is_none() {
            return Err(GameError::WaitingForOpponent.into());
        }
        if intent == Intent::ClaimVictory
            && self.game.computer.is_none()
            && self.game.result.is_none()
            && !self.abandoned()
        {
            return Err(GameError::NotAbandoned.into());
        }
        if self.game.seq >= self.hub.config().max_game_actions && !intent.kind().plays_on() {
            return Err(AppError::GameTooLong);
        }
        if matches!(intent, Intent::Message { .. })
            && self
                .last_message
                .get(by)
                .is_some_and(|at| at.elapsed() < MESSAGE_GAP)
        {
            return Err(AppError::TooManyMessages);
        }
        Ok(self
            .game
            .plan(Action { by, intent }, self.hub.config().wall.now_ms())?)
    }

    /// In a game with a clock, once the clock of the player to move is at
    /// zero: stores their loss on time, at the moment the clock reached
    /// zero. Whether it changed the game: the first process to store it
    /// decides, and another one meets it as a conflict and reads it.
    async fn settle_time(&mut self) -> bool {
        let Some(deadline) = self.game.deadline() else {
            return false;
        };
        if self.hub.config().wall.now_ms() < deadline {
            return false;
        }
        let seq = self.game.seq;
        let by = !self.game.position.turn();
        let plan = match self.game.plan(
            Action {
                by,
                intent: Intent::Flag,
            },
            deadline,
        ) {
            Ok(plan) => plan,
            Err(error) => {
                tracing::error!(game = %self.row.id, %error, "the loss on time is refused");
                return false;
            }
        };
        match self.commit(plan).await {
            Ok(()) => tracing::info!(game = %self.row.id, loser = %!by, "lost on time"),
            Err(error) => {
                tracing::info!(game = %self.row.id, %error, "the loss on time was not stored here");
            }
        }
        self.game.seq != seq
    }

    /// Stores the action of `plan`, then applies it.
    async fn commit(&mut self, plan: Plan) -> Result<(), AppError> {
        let at = plan.at();
        let next_game = match self.write(&plan).await {
            Ok(next_game) => next_game,
            // Another process stored this action number first: the
            // database decided, and this intent lost.
            Err(StoreError::Conflict) => {
                self.resync().await;
                if self.stale {
                    return Err(AppError::Unavailable);
                }
                tracing::info!(game = %self.row.id, "intent refused: the game changed");
                return Err(AppError::GameChanged(self.state.borrow().json.clone()));
            }
            Err(error) => {
                self.resync().await;
                return Err(AppError::not_saved(error));
            }
        };
        if let Err(error) = self.game.commit(plan) {
            // Nothing else changes the game between the plan and here.
            tracing::error!(game = %self.row.id, %error, "a stored action could not be applied");
            self.stale = true;
            return Err(AppError::Unavailable);
        }
        self.ended_at = end_time(&self.game, self.ended_at, at.div_euclid(1000));
        if let Some(id) = next_game {
            self.game.next_game = Some(id.clone());
            self.row.next_game = Some(id);
        }
        Ok(())
    }

    /// What the game's record says, as the game is now.
    fn record_facts(&self) -> RecordFacts {
        RecordFacts {
            created_at: self.row.created_at,
            ended_at: self.ended_at,
            creator: self.row.creator,
            joined: ByColor::new_with(|c| self.row.seats.get(c).is_some()),
            computer: self.game.computer,
            start: self.game.start,
            moves: self.game.moves.clone(),
            result: self.game.result,
            time_control: self.row.time_control,
        }
    }

    /// Answers a hint for `by`, from `client`. A position already
    /// answered is answered again at once, and a search under way for it
    /// is shared; otherwise, within the game's budget, the hint is stored
    /// and published like any intent, then searched, and those who asked
    /// alone get the answer.
    async fn hint(&mut self, by: Credentials, client: IpAddr, reply: Reply<Utf8Bytes>) {
        let pool = self.hub.inner.computer.clone();
        let metrics = pool.metrics();
        if let Err(error) = self.plan(&by, client, Intent::Hint).await {
            let _ = reply.send(Err(error));
            return;
        }
        let position = self.game.position;
        if let Some(answer) = self.hints.known(&position) {
            metrics.hint("cached");
            let _ = reply.send(Ok(answer));
            return;
        }
        let Err(reply) = self.hints.join(&position, reply) else {
            metrics.hint("shared");
            return;
        };
        if let Err(error) = self.hints.spend() {
            metrics.hint("limited");
            let _ = reply.send(Err(error));
            return;
        }
        if !pool.has_room(client) {
            let _ = reply.send(Err(AppError::Busy));
            return;
        }
        if let Err(error) = self.act(by, client, Intent::Hint).await {
            let _ = reply.send(Err(error));
            return;
        }
        let request = Request {
            client,
            game: self.row.id.clone(),
            position,
            search: Search::Hint,
        };
        match pool.submit(request) {
            Ok(ticket) => {
                metrics.hint("searched");
                self.hints.start(position, ticket, reply);
            }
            Err(_) => {
                let _ = reply.send(Err(AppError::Busy));
            }
        }
    }

    /// [`GameTask::publish`] where nobody waits for an answer: a failure
    /// is logged there, and the task stops.
    fn publish_or_stop(&mut self) {
        let _logged = self.publish();
    }

    /// Encodes the state once and hands it to every watcher. A state that
    /// cannot be encoded (a bug) is logged and not published, and the task
    /// stops (the next visitor loads the game again); the request that
    /// caused it gets [`AppError::Unavailable`].
    fn publish(&mut self) -> Result<Utf8Bytes, AppError> {
        self.version += 1;
        self.refresh_presence();
        self.settle_computer();
        self.hints
            .follow(&self.game.position, self.game.result.is_none());
        let abandoned = self.abandoned();
        self.shown_abandoned = abandoned;
        let players = ByColor::new_with(|c| PlayerView {
            joined: self.row.seats.get(c).is_some() || self.is_computer(c),
            connected: self.presence.get(c).connected || self.is_computer(c),
        });
        let watching = self.watching.total();
        self.watching.shown(watching);
        let live = LiveFacts {
            id: &self.row.id,
            version: self.version,
            players,
            abandoned,
            thinking: self.computer.busy(),
            now: self.hub.config().wall.now_ms(),
            watching,
            score: self.score(),
        };
        let json = match self.encoder.encode(&self.game, live) {
            Ok(text) => Utf8Bytes::from(text),
            Err(error) => {
                tracing::error!(game = %self.row.id, %error, "state not published");
                self.stale = true;
                return Err(AppError::Unavailable);
            }
        };
        let snapshot = Snapshot {
            json: json.clone(),
            open_since: (!self.both_joined()).then_some(self.row.created_at),
            rematch_of: self.row.rematch_of.clone(),
        };
        self.state.send_replace(Arc::new(snapshot));
        Ok(json)
    }
}

fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86400 * 365)
}
