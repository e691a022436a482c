//! The store's writes, once for both backends: their vocabulary
//! ([`Write`]), the queue callers put them on and wait at ([`Writer`]),
//! and the policy that commits them in groups ([`Batch`]). Each backend's
//! writer keeps only its driver calls: it takes a batch from the queue,
//! runs its writes in one transaction, and hands the outcome to
//! [`Batch::settle`].
//!
//! Why groups: each commit waits for its flush to disk (SQLite's `fsync`,
//! PostgreSQL's WAL); one commit for a whole batch is what lets thousands
//! of steps a second be stored (`docs/PERF.md`).
//!
//! A conflict (a number or a seat already taken) fails only its own
//! write. Any other error rolls the batch back, and each of its writes is
//! tried again alone, so that one bad write fails only its own caller;
//! but when the database cannot be reached, every write of the batch fails
//! at once with that error, rather than each waiting for the database
//! again.

use fanorona::Color;
use tokio::sync::{mpsc, oneshot};

use super::{GameRow, StoreError};
use crate::{
    game::Action,
    ids::{GameId, SecretHash},
};

/// At most this many writes share one commit.
const BATCH: usize = 256;

/// How many writes may wait for the writer before callers wait to queue.
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
    /// An accepted action, and when it was accepted (milliseconds since
    /// the Unix epoch).
    Action {
        id: GameId,
        seq: u64,
        action: Action,
        at: i64,
    },
    /// The action that completes a rematch, and the new game: all or
    /// none.
    Rematch {
        id: GameId,
        seq: u64,
        action: Action,
        at: i64,
        next: Box<GameRow>,
    },
    /// Invitations nobody accepted before `created_before`.
    DeleteExpired { created_before: i64 },
}

/// What a transaction says of each write of its batch: the rows it
/// changed, or why it was refused.
pub(super) type Outcome = Result<u64, StoreError>;

/// A queued write and where its answer goes.
#[derive(Debug)]
pub(super) struct Job {
    /// The write.
    pub(super) write: Write,
    reply: oneshot::Sender<Outcome>,
}

/// The queue of a backend's writer: each call queues one write and waits
/// until its batch is committed (or failed).
#[derive(Clone, Debug)]
pub(super) struct Writer {
    tx: mpsc::Sender<Job>,
}

fn stopped() -> StoreError {
    StoreError::Other("the database writer has stopped".into())
}

impl Writer {
    /// A queue, and its other end for the backend's writer, which ends
    /// when the last handle is dropped.
    pub(super) fn new() -> (Writer, mpsc::Receiver<Job>) {
        let (tx, rx) = mpsc::channel(QUEUE);
        (Writer { tx }, rx)
    }

    /// Queues `write` and waits for its outcome.
    async fn write(&self, write: Write) -> Outcome {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Job { write, reply })
            .await
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// Stores a new game.
    pub(super) async fn create_game(&self, row: &GameRow) -> Result<(), StoreError> {
        self.write(Write::Game(Box::new(row.clone())))
            .await
            .map(drop)
    }

    /// Gives the free seat `color` of game `id` to the holder of `seat`.
    pub(super) async fn claim_seat(
        &self,
        id: &GameId,
        color: Color,
        seat: &SecretHash,
    ) -> Result<(), StoreError> {
        let write = Write::Seat {
            id: id.clone(),
            color,
            seat: *seat,
        };
        self.write(write).await.map(drop)
    }

    /// Stores action number `seq` of game `id`, accepted at `at`.
    pub(super) async fn append_action(
        &self,
        id: &GameId,
        seq: u64,
        action: &Action,
        at: i64,
    ) -> Result<(), StoreError> {
        let write = Write::Action {
            id: id.clone(),
            seq,
            action: *action,
            at,
        };
        self.write(write).await.map(drop)
    }

    /// Stores the action that completes a rematch and the new game.
    pub(super) async fn append_rematch(
        &self,
        id: &GameId,
        seq: u64,
        action: &Action,
        next: &GameRow,
        at: i64,
    ) -> Result<(), StoreError> {
        let write = Write::Rematch {
            id: id.clone(),
            seq,
            action: *action,
            at,
            next: Box::new(next.clone()),
        };
        self.write(write).await.map(drop)
    }

    /// Deletes the invitations nobody accepted before `created_before`:
    /// how many games went.
    pub(super) async fn delete_expired(&self, created_before: i64) -> Result<u64, StoreError> {
        self.write(Write::DeleteExpired { created_before }).await
    }
}

/// The writes that share one commit.
#[derive(Debug)]
pub(super) struct Batch {
    jobs: Vec<Job>,
}

impl Batch {
    /// An empty batch, with room for the most writes one may hold.
    pub(super) fn new() -> Batch {
        Batch {
            jobs: Vec::with_capacity(BATCH),
        }
    }

    /// Puts `first` and whatever else is queued on `rx` (up to [`BATCH`])
    /// in the batch.
    pub(super) fn fill(&mut self, first: Job, rx: &mut mpsc::Receiver<Job>) {
        self.jobs.push(first);
        while self.jobs.len() < BATCH {
            match rx.try_recv() {
                Ok(job) => self.jobs.push(job),
                Err(_) => break,
            }
        }
    }

    /// The writes of the batch, in the order they were queued.
    pub(super) fn jobs(&self) -> &[Job] {
        &self.jobs
    }

    /// Answers every caller from `outcome`, what the batch's transaction
    /// gave (each write's outcome, or the error that rolled them all
    /// back), and empties the batch. Returns the writes to try again
    /// alone, each with [`Job::settle`]: all of them when the batch failed
    /// as a whole for another reason than the database being out of
    /// reach, none otherwise.
    pub(super) fn settle(&mut self, outcome: Result<Vec<Outcome>, StoreError>) -> Vec<Job> {
        let error = match outcome {
            Ok(results) => {
                tracing::trace!(writes = self.jobs.len(), "batch committed");
                for (job, result) in self.jobs.drain(..).zip(results) {
                    let _ = job.reply.send(result);
                }
                return Vec::new();
            }
            Err(error) => error,
        };
        if let StoreError::Unavailable(cause) = &error {
            let cause = cause.to_string();
            for job in self.jobs.drain(..) {
                let _ = job
                    .reply
                    .send(Err(StoreError::Unavailable(cause.clone().into())));
            }
            return Vec::new();
        }
        if let [_] = self.jobs.as_slice() {
            if let Some(job) = self.jobs.pop() {
                let _ = job.reply.send(Err(error));
            }
            return Vec::new();
        }
        tracing::warn!(%error, writes = self.jobs.len(), "batch failed: writing one by one");
        self.jobs.drain(..).collect()
    }
}

impl Job {
    /// Answers the caller from `outcome`, what the transaction of this
    /// write alone gave.
    pub(super) fn settle(self, outcome: Result<Vec<Outcome>, StoreError>) {
        let result =
            outcome.and_then(|mut results| results.pop().unwrap_or_else(|| Err(stopped())));
        let _ = self.reply.send(result);
    }
}
