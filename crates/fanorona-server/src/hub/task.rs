//! The task that owns one live game.

mod computer;
mod hint;

use std::{collections::HashMap, net::IpAddr, sync::Arc, time::Duration};

use axum::extract::ws::Utf8Bytes;
use fanorona::{ByColor, Color, Position, Setup};
use tokio::{
    sync::{mpsc, watch},
    time::{sleep_until, Instant},
};

use self::{
    computer::{Computer, Opponent},
    hint::Hints,
};
use super::{
    Command, GameHandle, Hub, Invitation, JoinRequest, Joined, RecordFacts, Reply, Sender, Snapshot,
};
use crate::{
    clock,
    computer::{Request, Search},
    error::AppError,
    game::{Action, ComputerSeat, Game, GameError, Intent, Plan, Role},
    ids::{GameId, Secret},
    protocol::{Live, PlayerView, StateEncoder},
    store::{GameRow, Notice, StoreError, StoredGame},
};

/// How many commands may wait for a game's task: one block of tokio's
/// channel (32 commands), allocated with the game.
const QUEUE: usize = 32;

/// Where a player's sockets are. With other processes on the store, a
/// player counts as connected while a socket of theirs is open on any
/// process: this one's are counted, the others' are known by what those
/// processes announce.
#[derive(Clone, Debug)]
struct Presence {
    /// The player's sockets open on this process.
    connections: u32,
    /// The other processes that said they hold a socket of this player,
    /// and when each said so last: a process that stops saying it (it was
    /// killed, or lost its database) is forgotten after the lifetime.
    elsewhere: HashMap<u64, Instant>,
    /// Whether the player was connected somewhere when last looked at.
    connected: bool,
    /// Since when the player has had no socket anywhere.
    away_since: Instant,
}

impl Presence {
    fn new(now: Instant) -> Presence {
        Presence {
            connections: 0,
            elsewhere: HashMap::new(),
            connected: false,
            away_since: now,
        }
    }
}

struct GameTask {
    hub: Hub,
    row: GameRow,
    game: Game,
    /// When the game ended, in seconds since the Unix epoch, while it is
    /// over.
    ended_at: Option<i64>,
    presence: ByColor<Presence>,
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
        version,
        shown_abandoned: false,
        sockets: HashMap::new(),
        stale: false,
        encoder: StateEncoder::default(),
        computer: Computer::Idle,
        opponent: Opponent::default(),
        hints,
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

/// Replays a stored game: the game, and when it ended if it is over.
fn replay(stored: &StoredGame) -> Result<(Game, Option<i64>), AppError> {
    let setup: Setup = stored
        .row
        .start_position
        .parse()
        .map_err(|e| corrupt(format!("game {}: {e}", stored.row.id)))?;
    let start =
        Position::from_setup(setup).map_err(|e| corrupt(format!("game {}: {e}", stored.row.id)))?;
    let game = Game::with_computer(start, stored.row.computer);
    let ended_at = end_time(&game, None, stored.row.created_at);
    play_on(game, ended_at, stored)
}

/// Plays the stored actions of `stored` on `game`, which has the ones
/// before them and ended at `ended_at` if it is over: the game after
/// them, and when it ended.
fn play_on(
    mut game: Game,
    mut ended_at: Option<i64>,
    stored: &StoredGame,
) -> Result<(Game, Option<i64>), AppError> {
    let id = &stored.row.id;
    if stored.first != game.seq {
        return Err(corrupt(format!(
            "game {id}: actions from {} do not follow the {} held",
            stored.first, game.seq
        )));
    }
    for (i, action) in stored.actions.iter().enumerate() {
        let n = stored.first + i as u64;
        game.apply(*action)
            .map_err(|e| corrupt(format!("game {id} action {n}: {e}")))?;
        let at = stored.action_times.get(i).copied();
        ended_at = end_time(&game, ended_at, at.unwrap_or(stored.row.created_at));
    }
    game.next_game = stored.row.next_game.clone();
    Ok((game, ended_at))
}

/// A stored game that the rules refuse to replay.
fn corrupt(what: String) -> AppError {
    AppError::Store(StoreError::Other(what.into()))
}

/// When `game` ended, after an action at `now` (seconds since the Unix
/// epoch): the time it ended as long as it stays over, `now` if it has
/// just ended, none while it goes on (a takeback can take the end back).
fn end_time(game: &Game, ended_at: Option<i64>, now: i64) -> Option<i64> {
    game.result.map(|_| ended_at.unwrap_or(now))
}

impl GameTask {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        let shutdown = self.hub.shutdown_token();
        let idle = self.hub.config().idle_unload;
        loop {
            let abandon_at = self.abandon_deadline();
            let presence_at = self.presence_deadline();
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
                () = sleep_until(presence_at.unwrap_or_else(far_future)), if presence_at.is_some() => {
                    active = false;
                    self.on_presence_timer();
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

    /// Says `notice` to the other processes on the store, if any.
    fn announce(&self, notice: Notice) {
        if self.hub.inner.shared {
            self.hub.inner.store.announce(&self.row.id, notice);
        }
    }

    /// The lifetime of what another process said of a player's sockets:
    /// three heartbeats, so one or two lost notices do not make a player
    /// look away.
    fn presence_lifetime(&self) -> Duration {
        self.hub.config().presence_heartbeat.saturating_mul(3)
    }

    /// When presence must be looked at again: this process's next
    /// heartbeat while it holds a player's socket, or the end of the
    /// lifetime of the oldest thing another process said.
    fn presence_deadline(&self) -> Option<Instant> {
        if !self.hub.inner.shared {
            return None;
        }
        let lifetime = self.presence_lifetime();
        let beat = Color::ALL
            .into_iter()
            .any(|c| self.presence.get(c).connections > 0)
            .then_some(self.next_beat);
        let expiry = Color::ALL
            .into_iter()
            .flat_map(|c| self.presence.get(c).elsewhere.values())
            .min()
            .map(|&heard| heard + lifetime);
        beat.into_iter().chain(expiry).min()
    }

    /// Says again which players this process holds a socket of when it is
    /// time, and forgets what other processes said too long ago.
    fn on_presence_timer(&mut self) {
        let now = Instant::now();
        if now >= self.next_beat {
            self.next_beat = now + self.hub.config().presence_heartbeat;
            self.announce_held(Notice::Here);
        }
        if self.refresh_presence() {
            // A process that played the computer for its player may have
            // fallen silent.
            self.maybe_think();
            self.publish_or_stop();
        }
    }

    /// Says `notice` of every player this process holds a socket of:
    /// [`Notice::Here`] again and again, [`Notice::Gone`] as it shuts down,
    /// so that the others need not wait for the lifetime.
    fn announce_held(&self, notice: fn(Color) -> Notice) {
        for color in Color::ALL {
            if self.presence.get(color).connections > 0 {
                self.announce(notice(color));
            }
        }
    }

    /// What another process said of the players' sockets it holds.
    fn heard(&mut self, process: u64, notice: Notice) {
        match notice {
            Notice::Here(color) => {
                self.presence
                    .get_mut(color)
                    .elsewhere
                    .insert(process, Instant::now());
            }
            Notice::Gone(color) => {
                self.presence.get_mut(color).elsewhere.remove(&process);
            }
            Notice::Ask => {
                self.announce_held(Notice::Here);
                return;
            }
        }
        if self.refresh_presence() {
            // The player may have left the process that played the
            // computer for them: this one may have to now.
            self.maybe_think();
            self.publish_or_stop();
        }
    }

    /// Forgets what other processes said longer than the lifetime ago,
    /// then sees who is connected anywhere; a player who has just left
    /// the last of their sockets starts the abandonment clock. Whether
    /// anyone's `connected` changed.
    fn refresh_presence(&mut self) -> bool {
        let now = Instant::now();
        let lifetime = self.presence_lifetime();
        let mut changed = false;
        for color in Color::ALL {
            let p = self.presence.get_mut(color);
            p.elsewhere.retain(|_, heard| *heard + lifetime > now);
            let connected = p.connections > 0 || !p.elsewhere.is_empty();
            if p.connected && !connected {
                p.away_since = now;
            }
            changed |= p.connected != connected;
            p.connected = connected;
        }
        changed
    }

    /// Counts a connection from `client`, holding `seat` if any.
    fn connect(&mut self, seat: Option<Color>, client: IpAddr) -> Result<Role, AppError> {
        let count = self.sockets.entry(client).or_default();
        if *count >= self.hub.config().sockets_per_game {
            return Err(AppError::TooManyConnections);
        }
        *count += 1;
        let role = match seat {
            Some(color) => Role::Player(color),
            None => Role::Spectator,
        };
        if let Role::Player(color) = role {
            if self.is_computer(!color) {
                self.opponent.connected(client);
            }
            let p = self.presence.get_mut(color);
            p.connections += 1;
            if p.connections == 1 {
                self.announce(Notice::Here(color));
                let now = Instant::now();
                if self.next_beat <= now {
                    self.next_beat = now + self.hub.config().presence_heartbeat;
                }
            }
            // The player is here now: this process plays the computer.
            self.maybe_think();
            self.publish_or_stop();
        }
        Ok(role)
    }

    fn disconnect(&mut self, role: Role, client: IpAddr) {
        if let Some(count) = self.sockets.get_mut(&client) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.sockets.remove(&client);
            }
        }
        if let Role::Player(color) = role {
            // A socket of the person closed: the computer plays for them
            // again when they come back.
            self.opponent.left();
            let p = self.presence.get_mut(color);
            let was = p.connections;
            p.connections = p.connections.saturating_sub(1);
            if was == 1 {
                self.announce(Notice::Gone(color));
            }
            self.publish_or_stop();
        }
    }

    fn seat_of(&self, secret: &Secret) -> Option<Color> {
        Color::ALL.into_iter().find(|&c| {
            self.row
                .seats
                .get(c)
                .as_ref()
                .is_some_and(|h| h.matches(secret))
        })
    }

    /// The seat `secret` holds. When it holds none here and another
    /// process may have given it a seat a moment ago (its notice not yet
    /// heard), the game is read again from the store first.
    async fn seat_of_fresh(&mut self, secret: &Secret) -> Option<Color> {
        if let Some(color) = self.seat_of(secret) {
            return Some(color);
        }
        if !self.hub.inner.shared {
            return None;
        }
        self.resync().await;
        self.seat_of(secret)
    }

    /// Whether both seats are taken; the computer's counts as taken.
    fn both_joined(&self) -> bool {
        Color::ALL
            .into_iter()
            .all(|c| self.row.seats.get(c).is_some() || self.is_computer(c))
    }

    fn is_computer(&self, color: Color) -> bool {
        self.game.computer.is_some_and(|seat| seat.color == color)
    }

    /// Whether the player to move has been away, from every process, for
    /// the configured delay.
    fn abandoned(&self) -> bool {
        let mover = self.presence.get(self.game.position.turn());
        self.game.result.is_none()
            && self.game.computer.is_none()
            && self.both_joined()
            && !mover.connected
            && mover.away_since.elapsed() >= self.hub.config().abandon_after
    }

    /// When the state must be published again because the player to move
    /// will have been away long enough.
    fn abandon_deadline(&self) -> Option<Instant> {
        let mover = self.presence.get(self.game.position.turn());
        let pending = self.game.result.is_none()
            && self.game.computer.is_none()
            && self.both_joined()
            && !mover.connected
            && !self.shown_abandoned;
        pending.then(|| mover.away_since + self.hub.config().abandon_after)
    }

    /// Plays `intent` for `by`, from `client`.
    async fn act(
        &mut self,
        by: Sender,
        client: IpAddr,
        intent: Intent,
    ) -> Result<Utf8Bytes, AppError> {
        let plan = self.plan(&by, client, intent).await?;
        let before = self.game.seq;
        self.commit(plan).await?;
        match intent {
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
        by: &Sender,
        client: IpAddr,
        intent: Intent,
    ) -> Result<Plan, AppError> {
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

    fn try_plan(&mut self, by: &Sender, client: IpAddr, intent: Intent) -> Result<Plan, AppError> {
        let by = match by {
            Sender::Role(Role::Player(color)) => *color,
            Sender::Role(Role::Spectator) | Sender::Secret(None) => {
                return Err(AppError::NotAPlayer)
            }
            Sender::Secret(Some(secret)) => {
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
        Ok(self.game.plan(Action { by, intent })?)
    }

    /// Stores the action of `plan`, then applies it.
    async fn commit(&mut self, plan: Plan) -> Result<(), AppError> {
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
        self.ended_at = end_time(&self.game, self.ended_at, clock::unix_seconds());
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
        }
    }

    /// Answers a hint for `by`, from `client`. A position already
    /// answered is answered again at once, and a search under way for it
    /// is shared; otherwise, within the game's budget, the hint is stored
    /// and published like any intent, then searched, and those who asked
    /// alone get the answer.
    async fn hint(&mut self, by: Sender, client: IpAddr, reply: Reply<Utf8Bytes>) {
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

    /// Stores the action of `plan`; a rematch also creates the new game,
    /// in the same transaction, and returns its id.
    async fn write(&mut self, plan: &Plan) -> Result<Option<GameId>, StoreError> {
        let store = &self.hub.inner.store;
        let action = plan.action();
        if !plan.completes_rematch() {
            store
                .append_action(&self.row.id, self.game.seq, &action)
                .await?;
            return Ok(None);
        }
        let row = self
            .rematch_row()
            .map_err(|e| StoreError::Other(e.into()))?;
        store
            .append_rematch(&self.row.id, self.game.seq, &action, &row)
            .await?;
        tracing::info!(game = %self.row.id, next = %row.id, "rematch started");
        Ok(Some(row.id))
    }

    /// Makes memory equal to the store again: after another process's
    /// change, or a failed write (one reported as failed may still have
    /// been committed). Memory holds a prefix of the stored actions (an
    /// action enters memory only once stored), so the row and the actions
    /// after it are read and played on; a game whose stored actions do not
    /// follow is loaded whole. When the store cannot be read, the task
    /// stops, so the next visitor reloads.
    async fn resync(&mut self) {
        let store = &self.hub.inner.store;
        let tail = match store.load_from(&self.row.id, self.game.seq).await {
            Ok(tail) => tail,
            Err(error) => {
                tracing::warn!(game = %self.row.id, %error, "cannot read the game from the store");
                self.stale = true;
                return;
            }
        };
        let loaded = match play_on(self.game.clone(), self.ended_at, &tail) {
            Ok(caught_up) => Ok((caught_up, tail.row)),
            Err(error) => {
                tracing::warn!(game = %self.row.id, %error, "the stored actions do not follow: loading the game whole");
                store
                    .load_game(&self.row.id)
                    .await
                    .map_err(AppError::from)
                    .and_then(|s| Ok((replay(&s)?, s.row)))
            }
        };
        match loaded {
            Ok(((game, ended_at), row)) => {
                let changed = game.seq != self.game.seq || row != self.row;
                self.game = game;
                self.ended_at = ended_at;
                self.row = row;
                self.encoder.reset();
                if changed {
                    self.computer = Computer::Idle;
                    self.maybe_think();
                    self.publish_or_stop();
                }
            }
            Err(error) => {
                tracing::warn!(game = %self.row.id, %error, "cannot reload the game from the store");
                self.stale = true;
            }
        }
    }

    fn rematch_row(&self) -> Result<GameRow, AppError> {
        Ok(GameRow {
            id: GameId::random()?,
            created_at: clock::unix_seconds(),
            // The same start as this game: a custom one too.
            start_position: self.row.start_position.clone(),
            creator: !self.row.creator,
            seats: ByColor {
                white: self.row.seats.black,
                black: self.row.seats.white,
            },
            invite: Secret::random()?.hash(),
            rematch_of: Some(self.row.id.clone()),
            next_game: None,
            computer: self.game.computer.map(|seat| ComputerSeat {
                color: !seat.color,
                level: seat.level,
            }),
        })
    }

    fn expired(&self) -> bool {
        !self.both_joined()
            && self
                .hub
                .site()
                .invitation_expired(self.row.created_at, clock::unix_seconds())
    }

    /// The seat free for a joiner, if any: never the computer's.
    fn free_seat(&self) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&c| self.row.seats.get(c).is_none() && !self.is_computer(c))
    }

    fn invitation(&self, invite: &Secret, holder: Option<&Secret>) -> Invitation {
        if let Some(color) = holder.and_then(|h| self.seat_of(h)) {
            return Invitation::Holder(color);
        }
        match self.free_seat() {
            Some(color) if self.row.invite.matches(invite) => Invitation::Open(color),
            _ => Invitation::Closed,
        }
    }

    async fn join(
        &mut self,
        invite: Secret,
        holder: Option<Secret>,
        keyed: Option<Secret>,
    ) -> Result<Joined, AppError> {
        self.join_once(invite, holder, keyed, false).await
    }

    /// [`GameTask::join`], `retried` once after another process took the
    /// seat first.
    async fn join_once(
        &mut self,
        invite: Secret,
        holder: Option<Secret>,
        keyed: Option<Secret>,
        retried: bool,
    ) -> Result<Joined, AppError> {
        if let Some(holder) = holder.as_ref() {
            if let Some(color) = self.seat_of(holder) {
                return Ok(Joined::Already(color, holder.clone()));
            }
        }
        if !self.row.invite.matches(&invite) {
            return Err(AppError::WrongInvite);
        }
        if let Some(keyed) = keyed.as_ref() {
            if let Some(color) = self.seat_of(keyed) {
                return Ok(Joined::Again(color, keyed.clone()));
            }
        }
        let Some(color) = self.free_seat() else {
            return Ok(Joined::Spectator);
        };
        if self.expired() {
            return Err(AppError::InvitationExpired);
        }
        let secret = match keyed.clone() {
            Some(secret) => secret,
            None => Secret::random()?,
        };
        let hash = secret.hash();
        let claimed = self.hub.inner.store.claim_seat(&self.row.id, color, &hash);
        match claimed.await {
            Ok(()) => {}
            // Another process gave the seat a moment ago: read the game
            // again and answer as if that had been known (the same key's
            // seat again, or a spectator).
            Err(StoreError::Conflict) if self.hub.inner.shared && !retried => {
                self.resync().await;
                if self.stale {
                    return Err(AppError::Unavailable);
                }
                return Box::pin(self.join_once(invite, holder, keyed, true)).await;
            }
            Err(error) => {
                self.resync().await;
                return Err(AppError::not_saved(error));
            }
        }
        *self.row.seats.get_mut(color) = Some(hash);
        tracing::info!(game = %self.row.id, "seat taken");
        self.publish()?;
        Ok(Joined::Seated(color, secret))
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
        let live = Live {
            id: &self.row.id,
            version: self.version,
            players,
            abandoned,
            thinking: self.computer.busy(),
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

#[cfg(test)]
mod tests {
    use fanorona::Color;

    use super::*;
    use crate::{
        game::{Action, Intent},
        ids::Secret,
    };

    /// A game of up to `turns` steps or ends of turn (the first legal step
    /// each time), a refused draw offer after the fourth, and a
    /// resignation if the game has not ended by then.
    fn actions(turns: usize) -> Vec<Action> {
        let mut game = Game::with_computer(Position::start(), None);
        let mut out = Vec::new();
        let mut play = |game: &mut Game, action: Action| {
            game.apply(action).expect("a legal action");
            out.push(action);
        };
        for i in 0..turns {
            if game.result.is_some() {
                break;
            }
            let position = game.position;
            let intent = match position.legal_steps().first() {
                Some(step) => Intent::Step {
                    from: step.from(),
                    to: step.to(),
                    kind: step.kind(),
                },
                None => Intent::EndTurn,
            };
            let by = position.turn();
            play(&mut game, Action { by, intent });
            if i == 3 {
                let by = game.position.turn();
                play(
                    &mut game,
                    Action {
                        by,
                        intent: Intent::OfferDraw,
                    },
                );
                let intent = Intent::DeclineDraw;
                play(&mut game, Action { by: !by, intent });
            }
        }
        if game.result.is_none() {
            let by = game.position.turn();
            play(
                &mut game,
                Action {
                    by,
                    intent: Intent::Resign,
                },
            );
        }
        out
    }

    /// The stored game: its row and its actions from number `first`, each
    /// stored a second after the one before.
    fn stored(actions: &[Action], first: usize) -> StoredGame {
        let created_at = 1_700_000_000;
        let row = GameRow {
            id: "Catchup123".parse().expect("an id"),
            created_at,
            start_position: Position::start().to_string(),
            creator: Color::White,
            seats: ByColor::new_with(|_| Some(Secret::random().expect("a secret").hash())),
            invite: Secret::random().expect("a secret").hash(),
            rematch_of: None,
            next_game: None,
            computer: None,
        };
        let times = (0..actions.len()).map(|i| created_at + 1 + i as i64);
        StoredGame {
            row,
            first: first as u64,
            actions: actions[first..].to_vec(),
            action_times: times.skip(first).collect(),
        }
    }

    #[test]
    fn a_game_caught_up_from_any_action_equals_the_game_loaded_whole() {
        let actions = actions(40);
        let (whole, whole_end) = replay(&stored(&actions, 0)).expect("replays");
        assert!(whole.result.is_some(), "the game ends");
        assert!(actions.len() > 20, "{} actions", actions.len());
        assert_eq!(whole.seq, actions.len() as u64);
        for held in 0..=actions.len() {
            let (game, ended_at) = replay(&stored(&actions[..held], 0)).expect("replays");
            let (game, ended_at) =
                play_on(game, ended_at, &stored(&actions, held)).expect("follows");
            assert_eq!(game.seq, whole.seq, "held {held}");
            assert_eq!(game.position, whole.position, "held {held}");
            assert_eq!(game.moves, whole.moves, "held {held}");
            assert_eq!(game.result, whole.result, "held {held}");
            assert_eq!(ended_at, whole_end, "held {held}");
        }
    }

    #[test]
    fn actions_that_do_not_follow_the_ones_held_are_refused() {
        let actions = actions(10);
        let (game, ended_at) = replay(&stored(&actions[..4], 0)).expect("replays");
        for first in [0, 3, 5] {
            let error = play_on(game.clone(), ended_at, &stored(&actions, first));
            assert!(error.is_err(), "from {first} on a game holding 4");
        }
        let (game, ended_at) = play_on(game, ended_at, &stored(&actions, 4)).expect("follows");
        assert_eq!(game.seq, actions.len() as u64);
        // The resignation, the last action, ended the game when it was stored.
        assert_eq!(ended_at, Some(1_700_000_000 + actions.len() as i64));
    }
}
