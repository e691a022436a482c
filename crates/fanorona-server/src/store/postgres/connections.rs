//! The store's connections, taken from the pool in a way that answers
//! fast when the database cannot be reached.
//!
//! Why: the pool waits up to its acquire timeout (5 s) for a connection,
//! and it cannot say why it waits. Every connection may be busy (a burst
//! of loads: waiting is right, the next one is free in milliseconds), or
//! none can be opened (PostgreSQL stopped: the pool retries a refused
//! connection until the timeout, and every visitor of a game not in
//! memory waited 5 s for a `500`). A shorter acquire timeout would refuse
//! visitors in a burst while the database is well. So the wait is left
//! as it is, and an acquire that has not ended after [`PATIENCE`] asks the
//! database directly, with one connection of its own bounded by
//! [`PROBE_TIMEOUT`]: if that one cannot be opened either, the database
//! is unavailable, and the caller is told so at once, within about a
//! second in all. If it can, the caller waits on as before. The answer is
//! shared by every caller for [`FRESH`], so a pool that stays busy costs
//! at most one extra connection a second, and only while acquires are
//! slow; a quick acquire, the usual case, costs nothing.

use std::{sync::Arc, time::Duration};

use sqlx::{
    pool::PoolConnection,
    postgres::{PgConnectOptions, PgPool},
    Connection, PgConnection, Postgres,
};
use tokio::{sync::Mutex, time::Instant};

use crate::store::StoreError;

/// How long an acquire runs before the database is asked whether it
/// answers: far above a healthy acquire (an idle connection is at hand,
/// or a new one opens in a few milliseconds on a network).
const PATIENCE: Duration = Duration::from_millis(200);

/// How long the direct connection may take to open: a few round trips
/// (TCP, TLS, startup, authentication) to a database near its site.
/// With [`PATIENCE`], under the 800 ms that `/readyz` waits.
const PROBE_TIMEOUT: Duration = Duration::from_millis(600);

/// How long one answer of the database holds for every caller.
const FRESH: Duration = Duration::from_secs(1);

/// The pool, and what was last found out of the database's reach.
#[derive(Clone)]
pub(super) struct Connections {
    pool: PgPool,
    options: Arc<PgConnectOptions>,
    /// When the database was last asked, and whether it answered. Locked
    /// across the asking, so callers at the same moment share one try.
    reach: Arc<Mutex<Option<(Instant, bool)>>>,
}

impl std::fmt::Debug for Connections {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the options: they hold the password.
        f.debug_struct("Connections")
            .field("pool", &self.pool)
            .finish_non_exhaustive()
    }
}

impl Connections {
    /// The connections of `pool`, whose database `options` names.
    pub(super) fn new(pool: PgPool, options: PgConnectOptions) -> Connections {
        Connections {
            pool,
            options: Arc::new(options),
            reach: Arc::new(Mutex::new(None)),
        }
    }

    /// The pool itself, for what holds a connection for long (the
    /// listener) or runs once at start (the migrations).
    pub(super) fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// A connection of the pool; [`StoreError::Unavailable`] within about
    /// a second when the database cannot be reached.
    pub(super) async fn acquire(&self) -> Result<PoolConnection<Postgres>, StoreError> {
        let acquire = self.pool.acquire();
        tokio::pin!(acquire);
        if let Ok(acquired) = tokio::time::timeout(PATIENCE, &mut acquire).await {
            return acquired.map_err(StoreError::from);
        }
        if !self.reachable().await {
            return Err(StoreError::Unavailable(
                "no connection to PostgreSQL can be opened".into(),
            ));
        }
        acquire.await.map_err(StoreError::from)
    }

    /// Whether the database accepts a connection: the answer of the last
    /// [`FRESH`], or of a new try.
    async fn reachable(&self) -> bool {
        let mut reach = self.reach.lock().await;
        if let Some((at, answered)) = *reach {
            if at.elapsed() < FRESH {
                return answered;
            }
        }
        let answered = probe(&self.options).await;
        *reach = Some((Instant::now(), answered));
        answered
    }
}

/// Opens one connection to the database of `options`, then closes it.
/// A database that refuses it for being full (`too_many_connections`) or
/// for a bad password still answers: only a connection that cannot be
/// made at all, or not in time, says it is unavailable.
async fn probe(options: &PgConnectOptions) -> bool {
    match tokio::time::timeout(PROBE_TIMEOUT, PgConnection::connect_with(options)).await {
        Ok(Ok(conn)) => {
            // Closed on a task of its own: the answer is known already.
            tokio::spawn(async move { drop(conn.close().await) });
            true
        }
        Ok(Err(error)) => !super::unavailable(&error),
        Err(_) => false,
    }
}
