//! A store that wraps the real SQLite store and misbehaves on demand:
//! its writes fail while `fail_writes` is set, and loads of a held game
//! wait until the game is released.

use std::{
    collections::HashSet,
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        Mutex,
    },
};

use async_trait::async_trait;
use fanorona::Color;
use fanorona_server::{
    game::Action,
    ids::{GameId, SecretHash},
    store::{GameRow, SqliteStore, Store, StoreError, StoredGame},
};
use tokio::sync::watch;

/// The real store, with switches.
#[derive(Debug)]
pub struct ControlledStore {
    inner: SqliteStore,
    /// While set, every write fails as a full disk would.
    pub fail_writes: AtomicBool,
    /// While set, the database does not answer [`Store::ready`].
    pub unreachable: AtomicBool,
    /// While set, every load fails as a database that cannot be reached.
    pub fail_reads: AtomicBool,
    /// While set, [`Store::ready`] never answers, as a database behind a
    /// network that drops every packet.
    pub stalled: AtomicBool,
    /// How many loads were asked for.
    pub loads: AtomicUsize,
    held: Mutex<HashSet<String>>,
    released: watch::Sender<u64>,
    /// Counts loads that are waiting on a held game.
    pub waiting: watch::Sender<usize>,
}

impl ControlledStore {
    /// Wraps `inner`.
    pub fn new(inner: SqliteStore) -> ControlledStore {
        ControlledStore {
            inner,
            fail_writes: AtomicBool::new(false),
            unreachable: AtomicBool::new(false),
            fail_reads: AtomicBool::new(false),
            stalled: AtomicBool::new(false),
            loads: AtomicUsize::new(0),
            held: Mutex::new(HashSet::new()),
            released: watch::Sender::new(0),
            waiting: watch::Sender::new(0),
        }
    }

    /// Makes loads of `id` wait until [`ControlledStore::release`].
    pub fn hold(&self, id: &str) {
        self.held.lock().unwrap().insert(id.to_owned());
    }

    /// Lets the loads of `id` go on.
    pub fn release(&self, id: &str) {
        self.held.lock().unwrap().remove(id);
        self.released.send_modify(|n| *n += 1);
    }

    fn write(&self) -> Result<(), StoreError> {
        if self.fail_writes.load(Ordering::SeqCst) {
            Err(StoreError::Other("disk full (test double)".into()))
        } else {
            Ok(())
        }
    }
}

#[async_trait]
impl Store for ControlledStore {
    async fn create_game(&self, row: &GameRow) -> Result<(), StoreError> {
        self.write()?;
        self.inner.create_game(row).await
    }

    async fn load_from(&self, id: &GameId, first: u64) -> Result<StoredGame, StoreError> {
        self.loads.fetch_add(1, Ordering::SeqCst);
        if self.fail_reads.load(Ordering::SeqCst) {
            return Err(StoreError::Unavailable(
                "connection refused (test double)".into(),
            ));
        }
        let mut released = self.released.subscribe();
        if self.held.lock().unwrap().contains(id.as_str()) {
            self.waiting.send_modify(|n| *n += 1);
            let _ = released
                .wait_for(|_| !self.held.lock().unwrap().contains(id.as_str()))
                .await;
        }
        self.inner.load_from(id, first).await
    }

    async fn claim_seat(
        &self,
        id: &GameId,
        color: Color,
        seat: &SecretHash,
    ) -> Result<(), StoreError> {
        self.write()?;
        self.inner.claim_seat(id, color, seat).await
    }

    async fn append_action_at(
        &self,
        id: &GameId,
        seq: u64,
        action: &Action,
        at: i64,
    ) -> Result<(), StoreError> {
        self.write()?;
        self.inner.append_action_at(id, seq, action, at).await
    }

    async fn append_rematch_at(
        &self,
        id: &GameId,
        seq: u64,
        action: &Action,
        next: &GameRow,
        at: i64,
    ) -> Result<(), StoreError> {
        self.write()?;
        self.inner
            .append_rematch_at(id, seq, action, next, at)
            .await
    }

    async fn delete_expired_invitations(&self, created_before: i64) -> Result<u64, StoreError> {
        self.write()?;
        self.inner.delete_expired_invitations(created_before).await
    }

    async fn ready(&self) -> Result<(), StoreError> {
        if self.stalled.load(Ordering::SeqCst) {
            std::future::pending::<()>().await;
        }
        if self.unreachable.load(Ordering::SeqCst) {
            return Err(StoreError::Other("connection refused (test double)".into()));
        }
        self.inner.ready().await
    }
}
