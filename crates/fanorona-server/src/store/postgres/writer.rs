//! The writes of the PostgreSQL store, committed in groups: a task takes
//! every write queued (up to [`BATCH`]), runs them in one transaction on
//! one connection, commits, and only then answers each caller.
//!
//! Why: each commit waits for its WAL flush. With every step its own
//! transaction, 1,980 steps a second on one process (9,900 games) waited
//! p50 344 ms for a connection, and two processes at twice that timed out
//! (`not_saved`); one flush for a whole batch is what the SQLite store's
//! writer does too (`docs/PERF.md`).
//!
//! A conflict (a number or a seat already taken) is a missing row, not an
//! error (`ON CONFLICT DO NOTHING`, conditional statements), so it fails
//! only its own write. Any other error (a deadlock with another process's
//! batch, a game that does not exist) rolls the batch back, and each of
//! its writes is tried again alone; but when the database cannot be
//! reached, every write of the batch fails at once with that error, rather
//! than each waiting for the database again.

use std::sync::Arc;

use fanorona::Color;
use sqlx::{Connection, PgConnection};
use tokio::sync::{mpsc, oneshot};

use super::{claim_seat, connections::Connections, insert_action, insert_game};
use crate::{
    game::Action,
    ids::{GameId, SecretHash},
    store::{GameRow, StoreError},
};

/// At most this many writes share one commit.
const BATCH: usize = 256;

/// How many writes may wait before callers wait to queue.
const QUEUE: usize = 4096;

/// One write of the store.
#[derive(Debug)]
pub(super) enum Write {
    /// A new game.
    Game(Box<GameRow>),
    /// A free seat taken.
    Seat {
        id: GameId,
        color: Color,
        seat: SecretHash,
    },
    /// An accepted action.
    Action {
        id: GameId,
        seq: u64,
        action: Action,
    },
}

struct Job {
    write: Write,
    reply: oneshot::Sender<Result<(), StoreError>>,
}

/// The queue of the writing task.
#[derive(Clone, Debug)]
pub(super) struct Writer {
    tx: mpsc::Sender<Job>,
}

fn stopped() -> StoreError {
    StoreError::Other("the database writer has stopped".into())
}

impl Writer {
    /// Starts the task that writes through `connections`, announcing on
    /// `channel`; it ends when the last handle is dropped.
    pub(super) fn start(connections: Connections, channel: Arc<str>) -> Writer {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(connections, channel, rx));
        Writer { tx }
    }

    /// Queues `write` and waits until its batch is committed (or failed).
    pub(super) async fn write(&self, write: Write) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Job { write, reply })
            .await
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

async fn run(connections: Connections, channel: Arc<str>, mut rx: mpsc::Receiver<Job>) {
    let mut jobs = Vec::with_capacity(BATCH);
    while let Some(job) = rx.recv().await {
        jobs.push(job);
        while jobs.len() < BATCH {
            match rx.try_recv() {
                Ok(job) => jobs.push(job),
                Err(_) => break,
            }
        }
        commit(&connections, &channel, &mut jobs).await;
    }
}

/// Commits the batch `jobs` (emptying it) and answers each caller; when
/// the batch fails as a whole, each write is tried again alone.
async fn commit(connections: &Connections, channel: &str, jobs: &mut Vec<Job>) {
    let error = match transaction(connections, channel, jobs).await {
        Ok(results) => {
            for (job, result) in jobs.drain(..).zip(results) {
                let _ = job.reply.send(result);
            }
            return;
        }
        Err(error) => error,
    };
    if let StoreError::Unavailable(cause) = &error {
        let cause = cause.to_string();
        for job in jobs.drain(..) {
            let _ = job
                .reply
                .send(Err(StoreError::Unavailable(cause.clone().into())));
        }
        return;
    }
    if let [_] = jobs.as_slice() {
        if let Some(job) = jobs.pop() {
            let _ = job.reply.send(Err(error));
        }
        return;
    }
    tracing::warn!(%error, writes = jobs.len(), "batch failed: writing one by one");
    for job in jobs.drain(..) {
        let result = transaction(connections, channel, std::slice::from_ref(&job))
            .await
            .and_then(|mut results| results.pop().unwrap_or_else(|| Err(stopped())));
        let _ = job.reply.send(result);
    }
}

/// Runs every write of `jobs` in one transaction: each one's result, or
/// the error that rolled them all back.
async fn transaction(
    connections: &Connections,
    channel: &str,
    jobs: &[Job],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let mut conn = connections.acquire().await?;
    let mut tx = conn.begin().await?;
    let mut results = Vec::with_capacity(jobs.len());
    for job in jobs {
        match apply(&mut tx, channel, &job.write).await {
            Err(StoreError::Conflict) => results.push(Err(StoreError::Conflict)),
            Err(error) => return Err(error),
            Ok(()) => results.push(Ok(())),
        }
    }
    tx.commit().await?;
    Ok(results)
}

async fn apply(conn: &mut PgConnection, channel: &str, write: &Write) -> Result<(), StoreError> {
    match write {
        Write::Game(row) => insert_game(conn, row).await,
        Write::Seat { id, color, seat } => claim_seat(conn, channel, id, *color, seat).await,
        Write::Action { id, seq, action } => insert_action(conn, channel, id, *seq, action).await,
    }
}
