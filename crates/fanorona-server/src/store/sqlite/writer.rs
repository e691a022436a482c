//! The one connection that writes. Every write of the store is queued here;
//! the writer takes everything queued (up to [`BATCH`] writes), commits it
//! in one transaction, and only then answers each caller (group commit).
//! SQLite allows one writer at a time: one connection that writes in
//! batches replaces many that wait for each other's lock, and one `fsync`
//! serves a whole batch.

use fanorona::Color;
use sqlx::{sqlite::SqliteConnectOptions, Connection, SqliteConnection};
use tokio::sync::{mpsc, oneshot};

use super::{insert_action, insert_game};
use crate::{
    game::Action,
    ids::{GameId, SecretHash},
    store::{GameRow, StoreError},
};

/// At most this many writes share one commit.
const BATCH: usize = 256;

/// How many writes may wait for the writer before callers wait to queue.
const QUEUE: usize = 4096;

/// One write of the store.
#[derive(Debug)]
pub(super) enum Write {
    /// A new game.
    Game(GameRow),
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
    /// The action that completes a rematch, and the new game.
    Rematch {
        id: GameId,
        seq: u64,
        action: Action,
        next: Box<GameRow>,
    },
    /// Invitations nobody accepted before `created_before`.
    DeleteExpired { created_before: i64 },
}

/// A queued write and where its answer goes: the rows it changed.
struct Job {
    write: Write,
    reply: oneshot::Sender<Result<u64, StoreError>>,
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
    /// Opens the writing connection and starts its task, which ends when
    /// the last handle is dropped.
    pub(super) async fn start(options: &SqliteConnectOptions) -> Result<Writer, StoreError> {
        let conn = SqliteConnection::connect_with(options).await?;
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(conn, rx));
        Ok(Writer { tx })
    }

    /// Queues `write` and waits until its batch is committed (or failed);
    /// returns how many rows it changed.
    pub(super) async fn write(&self, write: Write) -> Result<u64, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Job { write, reply })
            .await
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

async fn run(mut conn: SqliteConnection, mut rx: mpsc::Receiver<Job>) {
    let mut jobs = Vec::with_capacity(BATCH);
    while rx.recv_many(&mut jobs, BATCH).await > 0 {
        commit(&mut conn, &mut jobs).await;
    }
    if let Err(error) = conn.close().await {
        tracing::warn!(%error, "closing the database writer");
    }
}

/// Commits the batch `jobs` (emptying it) and answers each caller. When the
/// batch as a whole fails, each write is tried again alone, so that one bad
/// write fails only its own caller.
async fn commit(conn: &mut SqliteConnection, jobs: &mut Vec<Job>) {
    let error = match transaction(conn, jobs).await {
        Ok(results) => {
            for (job, result) in jobs.drain(..).zip(results) {
                let _ = job.reply.send(result);
            }
            return;
        }
        Err(error) => error,
    };
    if let [_] = jobs.as_slice() {
        if let Some(job) = jobs.pop() {
            let _ = job.reply.send(Err(error));
        }
        return;
    }
    tracing::warn!(%error, writes = jobs.len(), "batch failed: writing one by one");
    for job in jobs.drain(..) {
        let result = transaction(conn, std::slice::from_ref(&job))
            .await
            .and_then(|mut results| results.pop().unwrap_or_else(|| Err(stopped())));
        let _ = job.reply.send(result);
    }
}

/// Runs every write of `jobs` in one transaction. A write refused for a
/// conflict changes nothing and gets its own error, the others go on; any
/// other error rolls the whole transaction back.
async fn transaction(
    conn: &mut SqliteConnection,
    jobs: &[Job],
) -> Result<Vec<Result<u64, StoreError>>, StoreError> {
    let mut tx = conn.begin().await?;
    let mut results = Vec::with_capacity(jobs.len());
    for job in jobs {
        match apply(&mut tx, &job.write).await {
            Err(StoreError::Other(error)) => {
                if let Err(rollback) = tx.rollback().await {
                    tracing::warn!(error = %rollback, "rolling back a failed batch");
                }
                return Err(StoreError::Other(error));
            }
            result => results.push(result),
        }
    }
    tx.commit().await?;
    Ok(results)
}

async fn apply(conn: &mut SqliteConnection, write: &Write) -> Result<u64, StoreError> {
    match write {
        Write::Game(row) => insert_game(&mut *conn, row).await.map(|()| 1),
        Write::Seat { id, color, seat } => claim_seat(conn, id, *color, seat).await,
        Write::Action { id, seq, action } => insert_action(&mut *conn, id, *seq, action)
            .await
            .map(|()| 1),
        Write::Rematch {
            id,
            seq,
            action,
            next,
        } => rematch(conn, id, *seq, action, next).await,
        Write::DeleteExpired { created_before } => {
            let done = sqlx::query(DELETE_EXPIRED)
                .bind(created_before)
                .execute(&mut *conn)
                .await?;
            Ok(done.rows_affected())
        }
    }
}

async fn claim_seat(
    conn: &mut SqliteConnection,
    id: &GameId,
    color: Color,
    seat: &SecretHash,
) -> Result<u64, StoreError> {
    let sql = match color {
        Color::White => "UPDATE games SET white_seat = $1 WHERE id = $2 AND white_seat IS NULL",
        Color::Black => "UPDATE games SET black_seat = $1 WHERE id = $2 AND black_seat IS NULL",
    };
    let done = sqlx::query(sql)
        .bind(seat.to_hex())
        .bind(id.as_str())
        .execute(&mut *conn)
        .await?;
    match done.rows_affected() {
        1 => Ok(1),
        _ => Err(StoreError::Conflict),
    }
}

/// The three statements of a rematch, all or none: inside a savepoint, so
/// that a conflict undoes only them and not the rest of the batch.
async fn rematch(
    conn: &mut SqliteConnection,
    id: &GameId,
    seq: u64,
    action: &Action,
    next: &GameRow,
) -> Result<u64, StoreError> {
    sqlx::query("SAVEPOINT rematch").execute(&mut *conn).await?;
    let result = rematch_statements(conn, id, seq, action, next).await;
    if result.is_err() {
        sqlx::query("ROLLBACK TO rematch")
            .execute(&mut *conn)
            .await?;
    }
    sqlx::query("RELEASE rematch").execute(&mut *conn).await?;
    result
}

async fn rematch_statements(
    conn: &mut SqliteConnection,
    id: &GameId,
    seq: u64,
    action: &Action,
    next: &GameRow,
) -> Result<u64, StoreError> {
    insert_action(&mut *conn, id, seq, action).await?;
    insert_game(&mut *conn, next).await?;
    let done = sqlx::query("UPDATE games SET next_game = $1 WHERE id = $2 AND next_game IS NULL")
        .bind(next.id.as_str())
        .bind(id.as_str())
        .execute(&mut *conn)
        .await?;
    match done.rows_affected() {
        1 => Ok(1),
        _ => Err(StoreError::Conflict),
    }
}

/// An invitation nobody accepted: a free seat, and so no action either.
const DELETE_EXPIRED: &str = "DELETE FROM games WHERE created_at < $1 \
     AND (white_seat IS NULL OR black_seat IS NULL) \
     AND NOT EXISTS (SELECT 1 FROM actions WHERE actions.game_id = games.id)";
