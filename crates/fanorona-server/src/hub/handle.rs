//! The way to a live game: its handle, which asks the game's task and
//! waits for the answer, and an open connection, which tells the task
//! when it closes.

use std::{future::Future, net::IpAddr, sync::Arc};

use axum::extract::ws::Utf8Bytes;
use fanorona::Color;
use tokio::sync::{mpsc, oneshot, watch};
use tokio_util::task::{task_tracker::TaskTrackerToken, TaskTracker};

use super::{Command, Credentials, Invitation, JoinRequest, Joined, RecordFacts, Snapshot};
use crate::{
    error::AppError,
    game::{Intent, Role},
    ids::Secret,
    limits::{Held, PerClient},
};

/// A way to talk to one live game.
#[derive(Clone, Debug)]
pub struct GameHandle {
    /// The task's queue of commands.
    pub(super) tx: mpsc::Sender<Command>,
    /// The states the task publishes.
    pub(super) state: watch::Receiver<Arc<Snapshot>>,
    /// The hub's count of sockets per client address, across games.
    pub(super) sockets: PerClient,
    /// The hub's tasks: an open connection counts as one, so shutdown
    /// waits for its close frame.
    pub(super) tasks: TaskTracker,
}

impl GameHandle {
    /// The last published state.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.state.borrow().clone()
    }

    /// A receiver of every future state, marked so the current one is seen
    /// first.
    pub(crate) fn subscribe(&self) -> watch::Receiver<Arc<Snapshot>> {
        let mut rx = self.state.clone();
        rx.mark_changed();
        rx
    }

    /// Completes when the game's task has stopped (unloaded or shut down).
    /// Holding this future does not keep the game in memory.
    pub fn stopped(&self) -> impl Future<Output = ()> + Send + 'static {
        let tx = self.tx.clone();
        async move { tx.closed().await }
    }

    async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<T>) -> Command,
    ) -> Result<T, AppError> {
        let (tx, rx) = oneshot::channel();
        self.tx
            .send(make(tx))
            .await
            .map_err(|_| AppError::Unavailable)?;
        rx.await.map_err(|_| AppError::Unavailable)
    }

    /// Registers a connection from `client`; a seat's holder is counted as
    /// present until the returned [`Connection`] is dropped.
    ///
    /// # Errors
    ///
    /// [`AppError::TooManyConnections`] when `client` already holds the
    /// configured number of sockets on this game or on all games;
    /// [`AppError::Unavailable`] when the game's task has stopped.
    pub(crate) async fn connect(
        &self,
        secret: Option<Secret>,
        client: IpAddr,
    ) -> Result<Connection, AppError> {
        let held = self
            .sockets
            .acquire(client)
            .ok_or(AppError::TooManyConnections)?;
        let role = self
            .ask(|tx| Command::Connect(Box::new((secret, client, tx))))
            .await??;
        Ok(Connection {
            handle: self.clone(),
            role,
            client,
            _held: held,
            _running: self.tasks.token(),
        })
    }

    /// The seat `secret` holds, if any.
    ///
    /// # Errors
    ///
    /// [`AppError::Unavailable`] when the game's task has stopped.
    pub(crate) async fn identify(&self, secret: Secret) -> Result<Option<Color>, AppError> {
        self.ask(|tx| Command::Identify(secret, tx)).await
    }

    /// Plays an intent from `client`; returns the new state (for a hint,
    /// the hint message).
    ///
    /// # Errors
    ///
    /// Why the intent is refused; nothing changed then.
    pub(crate) async fn act(
        &self,
        by: Credentials,
        client: IpAddr,
        intent: Intent,
    ) -> Result<Utf8Bytes, AppError> {
        self.ask(|tx| Command::Act(by, client, intent, tx)).await?
    }

    /// Tells a new game against the computer that its creator is here
    /// from `client`, which `held` counts it for: the computer plays for
    /// them from now on, first if it moves first.
    pub(super) async fn summon(&self, client: IpAddr, held: Held) -> Result<(), AppError> {
        self.tx
            .send(Command::Summon(Box::new((client, held))))
            .await
            .map_err(|_| AppError::Unavailable)
    }

    /// Accepts the invitation `invite` for a visitor holding `holder`.
    /// With `keyed` (the secret the joiner's key derives), a free seat is
    /// taken with that secret, and a seat already holding it is given
    /// again; without, a fresh random secret is drawn.
    ///
    /// # Errors
    ///
    /// A wrong or expired invitation.
    pub(crate) async fn join(
        &self,
        invite: Secret,
        holder: Option<Secret>,
        keyed: Option<Secret>,
    ) -> Result<Joined, AppError> {
        self.ask(|reply| {
            Command::Join(Box::new(JoinRequest {
                invite,
                holder,
                keyed,
                reply,
            }))
        })
        .await?
    }

    /// What the game's record tells now.
    ///
    /// # Errors
    ///
    /// [`AppError::Unavailable`] when the game's task has stopped.
    pub(crate) async fn record(&self) -> Result<Box<RecordFacts>, AppError> {
        self.ask(Command::Record).await
    }

    /// What the invitation `invite` offers a visitor holding `holder`;
    /// changes nothing.
    ///
    /// # Errors
    ///
    /// [`AppError::Unavailable`] when the game's task has stopped.
    pub(crate) async fn invitation(
        &self,
        invite: Secret,
        holder: Option<Secret>,
    ) -> Result<Invitation, AppError> {
        self.ask(|tx| Command::Invitation(Box::new((invite, holder, tx))))
            .await
    }
}

/// An open connection to a game; dropping it tells the game it is gone.
#[derive(Debug)]
pub(crate) struct Connection {
    /// The game.
    pub(crate) handle: GameHandle,
    /// Who the connection is.
    pub(crate) role: Role,
    /// The client address, as the limits count it.
    pub(crate) client: IpAddr,
    _held: Held,
    _running: TaskTrackerToken,
}

impl Drop for Connection {
    fn drop(&mut self) {
        let command = Command::Disconnect(self.role, self.client);
        if let Err(mpsc::error::TrySendError::Full(command)) = self.handle.tx.try_send(command) {
            let tx = self.handle.tx.clone();
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(async move { tx.send(command).await });
            }
        }
    }
}
