//! The PostgreSQL backend, for several server processes sharing one
//! database: a pool of connections (each keeps the statements it has
//! prepared), migrations of `migrations/postgres/` run at start, writes
//! committed in groups ([`writer`]), and every write that changes a game
//! announced with `NOTIFY` when it commits ([`listen`] turns those into
//! [`Change`]s for the hub).
//!
//! Queries are plain `sqlx::query` with binds: the checked macros would
//! need a database at build time.

mod connections;
mod listen;
mod writer;

use std::{str::FromStr, sync::Arc, time::Duration};

use async_trait::async_trait;
use fanorona::{ByColor, Color};
use sqlx::{
    postgres::{PgConnectOptions, PgPoolOptions, PgRow},
    Connection, PgConnection, Row,
};
use tokio::sync::{broadcast, mpsc};
use tokio_util::sync::{CancellationToken, DropGuard};

use self::connections::Connections;
use super::{
    color_text, corrupt, decode_action, encode_action, parse_color, parse_level, parse_score,
    parse_time_control, score_columns, seq_column, write::Writer, Change, GameRow, Notice, Store,
    StoreError, StoredGame,
};
use crate::{
    game::{Action, ComputerSeat},
    ids::{GameId, SecretHash},
};

/// The migrations of `migrations/postgres/`, embedded. sqlx's migrator
/// holds an advisory lock while it runs, so processes started together
/// migrate one after the other.
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// Connections per process: the writer's one at a time, and the loads of
/// games (once per game a process holds); four processes at this size
/// stay below PostgreSQL's default limit of 100 connections.
const CONNECTIONS: u32 = 16;

/// How long a request waits for a free connection, every one being busy,
/// before it fails (and the player gets `not_saved`, or
/// `database_unavailable` for a read) rather than hanging. A database that
/// cannot be reached fails sooner ([`connections`]).
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// How many changes may wait for the hub before the slowest reader misses
/// some (and then resynchronises every live game).
const CHANGES: usize = 4096;

/// How many presence notices may wait to be sent; past it they are
/// dropped, and the next heartbeat repeats what they said.
const NOTICES: usize = 4096;

/// Games in a PostgreSQL database.
#[derive(Clone, Debug)]
pub struct PgStore {
    connections: Connections,
    /// The `NOTIFY` channel of this database and schema.
    channel: Arc<str>,
    changes: broadcast::Sender<Change>,
    /// The connection that writes games, seats and actions in batches.
    writer: Writer,
    /// This process among those sharing the database: drawn at random
    /// when the store opens, so a restarted process is a new one.
    process: u64,
    /// The presence notices to send, in order.
    notices: mpsc::Sender<String>,
    /// Stops the listener when the last clone of the store is dropped.
    _listening: Arc<DropGuard>,
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        match &e {
            sqlx::Error::RowNotFound => StoreError::NotFound,
            sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict,
            _ if unavailable(&e) => StoreError::Unavailable(Box::new(e)),
            _ => StoreError::Other(Box::new(e)),
        }
    }
}

/// Whether `e` says the database cannot be reached now, rather than that
/// a statement is wrong: no connection in time (refused meanwhile), a
/// connection lost or refused, or PostgreSQL shutting down, starting up or
/// in recovery (SQLSTATE class 08, 57P01 to 57P03).
fn unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_) => true,
        sqlx::Error::Database(db) => db.code().is_some_and(|code| {
            code.starts_with("08") || matches!(&*code, "57P01" | "57P02" | "57P03")
        }),
        _ => false,
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(e: sqlx::migrate::MigrateError) -> StoreError {
        StoreError::Other(Box::new(e))
    }
}

/// An error of a write statement: never [`StoreError::Conflict`], which
/// the write statements give only as a missing row. A batch goes on after
/// a conflict, and must not after an error (the transaction is aborted).
fn failed(e: sqlx::Error) -> StoreError {
    if unavailable(&e) {
        StoreError::Unavailable(Box::new(e))
    } else {
        StoreError::Other(Box::new(e))
    }
}

/// What a write statement that returns a row when it writes says: done,
/// or [`StoreError::Conflict`] (no row: the statement's condition or
/// `ON CONFLICT DO NOTHING` kept it from writing).
fn written(row: Option<PgRow>) -> Result<(), StoreError> {
    row.map(drop).ok_or(StoreError::Conflict)
}

/// The connection settings of `url` (`postgres://` or `postgresql://`).
fn options(url: &str) -> Result<PgConnectOptions, StoreError> {
    PgConnectOptions::from_str(url).map_err(|e| match e {
        // The driver's message would quote the URL, password included.
        sqlx::Error::Configuration(_) => {
            StoreError::Other("the PostgreSQL URL cannot be read".into())
        }
        other => other.into(),
    })
}

impl PgStore {
    /// Connects to the database at `url`, runs the embedded migrations and
    /// starts listening for other processes' changes.
    ///
    /// # Errors
    ///
    /// A bad URL, an unreachable database, or a failed migration.
    pub async fn open(url: &str) -> Result<PgStore, StoreError> {
        let store = PgStore::connect(url).await?;
        MIGRATOR.run(store.connections.pool()).await?;
        let stop = CancellationToken::new();
        tokio::spawn(listen::run(
            store.connections.pool().clone(),
            store.channel.clone(),
            store.changes.clone(),
            store.process,
            stop.clone(),
        ));
        Ok(PgStore {
            _listening: Arc::new(stop.drop_guard()),
            ..store
        })
    }

    /// Connects without migrating or listening.
    async fn connect(url: &str) -> Result<PgStore, StoreError> {
        let options = options(url)?;
        let pool = PgPoolOptions::new()
            .max_connections(CONNECTIONS)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            // A ping before every statement doubled the round trips of a
            // step; a dead connection fails its statement instead, and
            // the player gets `not_saved`.
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await?;
        let connections = Connections::new(pool.clone(), options);
        // Channels belong to the database, not to a schema: two sites in
        // two schemas of one database must not hear each other.
        let schema: String = sqlx::query_scalar("SELECT current_schema()::text")
            .fetch_one(&pool)
            .await?;
        let channel: Arc<str> = format!("fanorona.{schema}").into();
        let mut process = [0u8; 8];
        getrandom::fill(&mut process).map_err(|e| StoreError::Other(e.to_string().into()))?;
        let (notices, queued) = mpsc::channel(NOTICES);
        tokio::spawn(send_notices(connections.clone(), channel.clone(), queued));
        Ok(PgStore {
            writer: writer::start(connections.clone(), channel.clone()),
            process: u64::from_le_bytes(process),
            notices,
            connections,
            channel,
            changes: broadcast::channel(CHANGES).0,
            _listening: Arc::new(CancellationToken::new().drop_guard()),
        })
    }

    /// Runs the migrations that the database at `url` lacks, and says how
    /// many it has now.
    ///
    /// # Errors
    ///
    /// A bad URL, an unreachable database, or a failed migration.
    pub async fn migrate(url: &str) -> Result<usize, StoreError> {
        let mut conn = PgConnection::connect_with(&options(url)?).await?;
        MIGRATOR.run(&mut conn).await?;
        let applied: i64 = sqlx::query_scalar("SELECT count(*) FROM _sqlx_migrations")
            .fetch_one(&mut conn)
            .await?;
        conn.close().await?;
        Ok(usize::try_from(applied).unwrap_or(0))
    }

    /// The notice that game `id` changed: action `seq` was stored, or
    /// (with `None`) its row.
    fn notice(id: &GameId, seq: Option<u64>) -> String {
        Change::Game {
            id: id.clone(),
            seq,
        }
        .payload()
    }
}

/// Sends every presence notice of `queued` on `channel`, one after the
/// other so they arrive in the order they were said, until the store is
/// dropped. A notice that fails is not sent again: presence is repeated
/// by the heartbeats, and a player's last word is never older than their
/// lifetime.
async fn send_notices(
    connections: Connections,
    channel: Arc<str>,
    mut queued: mpsc::Receiver<String>,
) {
    while let Some(payload) = queued.recv().await {
        let sent = match connections.acquire().await {
            Ok(mut conn) => sqlx::query("SELECT pg_notify($1, $2)")
                .bind(channel.as_ref())
                .bind(&payload)
                .execute(&mut *conn)
                .await
                .map(drop)
                .map_err(StoreError::from),
            Err(error) => Err(error),
        };
        if let Err(error) = sent {
            tracing::debug!(%error, payload, "presence notice not sent");
        }
    }
}

/// A new game; no row when the id is taken. `ON CONFLICT DO NOTHING`
/// here and in [`INSERT_ACTION`] makes a conflict a missing row, not an
/// error, so it does not abort the other writes of its batch
/// ([`writer`]).
const INSERT_GAME: &str = "INSERT INTO games (id, created_at, start_position, creator, \
     white_seat, black_seat, invite, rematch_of, next_game, computer_color, computer_level, \
     time_control, match_white, match_black, match_draws) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) \
     ON CONFLICT DO NOTHING RETURNING id";

/// Stores action `$2` only when the game holds actions 0 to `$2 - 1`: the
/// primary key refuses a number already used (the second of two
/// processes waits for the first to commit, then fails), and this
/// condition a number past the end; either way no row comes back. The
/// same statement announces it on channel `$9` with payload `$10` when its
/// transaction commits. `$11` is the message's key, last as it came last.
const INSERT_ACTION: &str = "WITH stored AS (INSERT INTO actions \
     (game_id, seq, player, kind, step, level, created_at, at_ms, message) \
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $11 \
     WHERE $2 = 0 OR EXISTS (SELECT 1 FROM actions WHERE game_id = $1 AND seq = $2 - 1) \
     ON CONFLICT DO NOTHING RETURNING seq) \
     SELECT pg_notify($9, $10) FROM stored";

/// A game and its actions in one statement, so in one snapshot and one
/// round trip: the game's columns (0 to 11, and its score 17 to 19) on
/// every row, an action's (12 to 16, and its message 20) on each, or NULL
/// on the one row of a game without any. An action stored before its
/// time was kept in milliseconds has its second.
const SELECT_GAME: &str = "SELECT g.id, g.created_at, g.start_position, g.creator, \
     g.white_seat, g.black_seat, g.invite, g.rematch_of, g.next_game, g.computer_color, \
     g.computer_level, g.time_control, a.player, a.kind, a.step, a.level, \
     COALESCE(a.at_ms, a.created_at * 1000), g.match_white, g.match_black, g.match_draws, \
     a.message \
     FROM games g LEFT JOIN actions a ON a.game_id = g.id AND a.seq >= $2 \
     WHERE g.id = $1 ORDER BY a.seq";

/// The same condition as SQLite's sweep (`store/sqlite/writer.rs`).
pub(super) const DELETE_EXPIRED: &str = "DELETE FROM games WHERE created_at < $1 \
     AND (white_seat IS NULL OR black_seat IS NULL) AND computer_color IS NULL \
     AND NOT EXISTS (SELECT 1 FROM actions WHERE actions.game_id = games.id)";

/// Stores a new game, or [`StoreError::Conflict`] when its id is taken.
async fn insert_game(conn: &mut PgConnection, row: &GameRow) -> Result<(), StoreError> {
    let [match_white, match_black, match_draws] = score_columns(row.score);
    let done = sqlx::query(INSERT_GAME)
        .bind(row.id.as_str())
        .bind(row.created_at)
        .bind(&row.start_position)
        .bind(color_text(row.creator))
        .bind(row.seats.white.map(|h| h.to_hex()))
        .bind(row.seats.black.map(|h| h.to_hex()))
        .bind(row.invite.to_hex())
        .bind(row.rematch_of.as_ref().map(GameId::as_str))
        .bind(row.next_game.as_ref().map(GameId::as_str))
        .bind(row.computer.map(|c| color_text(c.color)))
        .bind(row.computer.map(|c| i64::from(c.level.number())))
        .bind(row.time_control.map(|c| c.to_string()))
        .bind(match_white)
        .bind(match_black)
        .bind(match_draws)
        .fetch_optional(conn)
        .await
        .map_err(failed)?;
    written(done)
}

/// Gives the free seat of `color` to `seat` and announces it on
/// `channel`, or [`StoreError::Conflict`] when it is taken.
async fn claim_seat(
    conn: &mut PgConnection,
    channel: &str,
    id: &GameId,
    color: Color,
    seat: &SecretHash,
) -> Result<(), StoreError> {
    let sql = match color {
        Color::White => {
            "WITH taken AS (UPDATE games SET white_seat = $1 \
             WHERE id = $2 AND white_seat IS NULL RETURNING id) \
             SELECT pg_notify($3, $4) FROM taken"
        }
        Color::Black => {
            "WITH taken AS (UPDATE games SET black_seat = $1 \
             WHERE id = $2 AND black_seat IS NULL RETURNING id) \
             SELECT pg_notify($3, $4) FROM taken"
        }
    };
    let done = sqlx::query(sql)
        .bind(seat.to_hex())
        .bind(id.as_str())
        .bind(channel)
        .bind(PgStore::notice(id, None))
        .fetch_optional(conn)
        .await
        .map_err(failed)?;
    written(done)
}

/// Stores action `seq` of game `id` and announces it on `channel` when
/// the statement's transaction commits.
async fn insert_action(
    conn: &mut PgConnection,
    channel: &str,
    id: &GameId,
    seq: u64,
    action: &Action,
    at: i64,
) -> Result<(), StoreError> {
    let columns = encode_action(action);
    let number = seq_column(seq)?;
    let done = sqlx::query(INSERT_ACTION)
        .bind(id.as_str())
        .bind(number)
        .bind(color_text(action.by))
        .bind(columns.kind)
        .bind(columns.step)
        .bind(columns.level)
        .bind(at.div_euclid(1000))
        .bind(at)
        .bind(channel)
        .bind(PgStore::notice(id, Some(seq)))
        .bind(columns.message)
        .fetch_optional(conn)
        .await
        .map_err(failed)?;
    written(done)
}

fn parse_hash(text: Option<String>) -> Result<Option<SecretHash>, StoreError> {
    text.map(|t| SecretHash::from_hex(&t).map_err(|_| corrupt("bad seat hash".into())))
        .transpose()
}

fn parse_id(text: Option<String>) -> Result<Option<GameId>, StoreError> {
    text.map(|t| GameId::from_str(&t).map_err(|_| corrupt(format!("bad game id {t:?}"))))
        .transpose()
}

fn read_row(row: &PgRow) -> Result<GameRow, StoreError> {
    let id: String = row.try_get(0)?;
    let computer = match (
        row.try_get::<Option<String>, _>(9)?,
        row.try_get::<Option<i64>, _>(10)?,
    ) {
        (None, None) => None,
        (Some(color), Some(level)) => Some(ComputerSeat {
            color: parse_color(&color)?,
            level: parse_level(level)?,
        }),
        _ => return Err(corrupt("half a computer seat".into())),
    };
    Ok(GameRow {
        id: GameId::from_str(&id).map_err(|_| corrupt(format!("bad game id {id:?}")))?,
        created_at: row.try_get(1)?,
        start_position: row.try_get(2)?,
        creator: parse_color(row.try_get(3)?)?,
        seats: ByColor {
            white: parse_hash(row.try_get(4)?)?,
            black: parse_hash(row.try_get(5)?)?,
        },
        invite: parse_hash(Some(row.try_get(6)?))?.ok_or_else(|| corrupt("no invite".into()))?,
        rematch_of: parse_id(row.try_get(7)?)?,
        next_game: parse_id(row.try_get(8)?)?,
        computer,
        time_control: parse_time_control(row.try_get(11)?)?,
        score: parse_score([row.try_get(17)?, row.try_get(18)?, row.try_get(19)?])?,
    })
}

#[async_trait]
impl Store for PgStore {
    async fn create_game(&self, row: &GameRow) -> Result<(), StoreError> {
        self.writer.create_game(row).await
    }

    async fn load_from(&self, id: &GameId, first: u64) -> Result<StoredGame, StoreError> {
        let from = seq_column(first)?;
        let mut conn = self.connections.acquire().await?;
        let rows = sqlx::query(SELECT_GAME)
            .bind(id.as_str())
            .bind(from)
            .fetch_all(&mut *conn)
            .await?;
        drop(conn);
        let row = read_row(rows.first().ok_or(StoreError::NotFound)?)?;
        let (mut actions, mut action_times) = (
            Vec::with_capacity(rows.len()),
            Vec::with_capacity(rows.len()),
        );
        for action in &rows {
            let Some(player) = action.try_get::<Option<&str>, _>(12)? else {
                continue;
            };
            let kind: &str = action.try_get(13)?;
            let step: Option<&str> = action.try_get(14)?;
            let level: Option<i64> = action.try_get(15)?;
            let message: Option<&str> = action.try_get(20)?;
            actions.push(decode_action(player, kind, step, level, message)?);
            action_times.push(action.try_get(16)?);
        }
        Ok(StoredGame {
            row,
            first,
            actions,
            action_times,
        })
    }

    async fn claim_seat(
        &self,
        id: &GameId,
        color: Color,
        seat: &SecretHash,
    ) -> Result<(), StoreError> {
        self.writer.claim_seat(id, color, seat).await
    }

    async fn append_action_at(
        &self,
        id: &GameId,
        seq: u64,
        action: &Action,
        at: i64,
    ) -> Result<(), StoreError> {
        self.writer.append_action(id, seq, action, at).await
    }

    async fn append_rematch_at(
        &self,
        id: &GameId,
        seq: u64,
        action: &Action,
        next: &GameRow,
        at: i64,
    ) -> Result<(), StoreError> {
        self.writer.append_rematch(id, seq, action, next, at).await
    }

    async fn delete_expired_invitations(&self, created_before: i64) -> Result<u64, StoreError> {
        self.writer.delete_expired(created_before).await
    }

    fn changes(&self) -> Option<broadcast::Receiver<Change>> {
        Some(self.changes.subscribe())
    }

    fn announce(&self, id: &GameId, notice: Notice) {
        let payload = Change::Presence {
            id: id.clone(),
            process: self.process,
            notice,
        }
        .payload();
        if self.notices.try_send(payload).is_err() {
            tracing::debug!(game = %id, "presence notice dropped: too many waiting");
        }
    }

    async fn ready(&self) -> Result<(), StoreError> {
        let mut conn = self.connections.acquire().await?;
        sqlx::query("SELECT 1").execute(&mut *conn).await?;
        Ok(())
    }
}
