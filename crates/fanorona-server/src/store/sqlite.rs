//! The SQLite backend: one database file in WAL mode, migrated at start,
//! all through one driver (rusqlite): one set of connection settings
//! ([`configure`]), one error mapping.
//!
//! Every write goes through the one writing connection of [`writer`], on
//! its own thread, which commits them in batches (that doubled closed-loop
//! throughput over the async driver: 7,858 → 16,026 steps/s, docs/PERF.md).
//! Reads take one of a few read-only connections (an r2d2 pool) on a
//! blocking thread of tokio.
//!
//! Reads went the same way as writes because it measured faster than the
//! async driver's pool it replaces (sqlx, 4 connections): with
//! `cargo run --release -p fanorona-server --example load_game`, two runs
//! of 5 rounds each way, alternated, medians of the 10 rounds, sqlx →
//! rusqlite: a game of 1,000 actions loads in 2.0 ms → 0.31 ms, and 64
//! tasks loading games of 40 actions do 9,000 → 41,100 loads/s. The async
//! driver hands every row to the task through its worker thread; here a
//! load is one hop to a blocking thread, whose connection reads every row
//! in place.

mod file;
mod migrate;
mod writer;

use std::{
    path::{Path, PathBuf},
    str::FromStr,
    time::Duration,
};

use async_trait::async_trait;
use fanorona::{ByColor, Color};
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{ffi, Connection, ErrorCode, OpenFlags};

pub use self::file::Backup;
pub(crate) use self::file::{backup, check, Checked, CHECK_LIMIT};
use super::write::Writer;
use super::{
    corrupt, decode_action, parse_color, parse_level, parse_score, parse_time_control, seq_column,
    GameRow, Store, StoreError, StoredGame,
};
use crate::{
    game::{Action, ComputerSeat},
    ids::{GameId, SecretHash},
};

/// How long a connection waits for a lock held by another one (the
/// writer's checkpoint, a backup, another process) before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Read-only connections kept open. Loads are rare next to writes (a game
/// is loaded once, then lives in memory), so a few suffice: this is the
/// size of the pool they replace.
const READERS: u32 = 4;

/// Games in a SQLite database file.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    /// Connections that read.
    readers: r2d2::Pool<SqliteConnectionManager>,
    /// The one connection that writes.
    writer: Writer,
}

/// What a connection may do to the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Access {
    /// Read and write, creating the file if it is missing.
    Write,
    /// Only read: the file is never changed, whatever happens.
    Read,
}

impl Access {
    fn flags(self) -> OpenFlags {
        let access = match self {
            Access::Write => OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE,
            Access::Read => OpenFlags::SQLITE_OPEN_READ_ONLY,
        };
        // Each connection is used by one thread at a time.
        access | OpenFlags::SQLITE_OPEN_NO_MUTEX
    }
}

/// The settings of every connection of the store. A writing connection
/// also puts the file in WAL mode (a property of the file, kept once set)
/// and commits with `synchronous=FULL`: a commit is on disk before it
/// returns, so a crash loses no acknowledged action.
fn configure(conn: &Connection, access: Access) -> rusqlite::Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    if access == Access::Write {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
    }
    Ok(())
}

/// Opens a connection to the file at `path` with [`configure`]'s settings.
///
/// # Errors
///
/// The file cannot be opened, or (writing) cannot be put in WAL mode.
pub(super) fn connect(path: &Path, access: Access) -> Result<Connection, StoreError> {
    let conn = Connection::open_with_flags(path, access.flags())?;
    configure(&conn, access)?;
    if access == Access::Write {
        let mode: String = conn.pragma_query_value(None, "journal_mode", |row| row.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(corrupt(format!(
                "the database is in {mode} mode, expected wal"
            )));
        }
    }
    Ok(conn)
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        match &e {
            rusqlite::Error::QueryReturnedNoRows => StoreError::NotFound,
            rusqlite::Error::SqliteFailure(failure, _)
                if failure.code == ErrorCode::ConstraintViolation
                    && matches!(
                        failure.extended_code,
                        ffi::SQLITE_CONSTRAINT_PRIMARYKEY | ffi::SQLITE_CONSTRAINT_UNIQUE
                    ) =>
            {
                StoreError::Conflict
            }
            // Another connection holds the file past the busy timeout.
            rusqlite::Error::SqliteFailure(failure, _)
                if matches!(
                    failure.code,
                    ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked
                ) =>
            {
                StoreError::Unavailable(Box::new(e))
            }
            _ => StoreError::Other(Box::new(e)),
        }
    }
}

fn other(e: impl std::error::Error + Send + Sync + 'static) -> StoreError {
    StoreError::Other(Box::new(e))
}

impl SqliteStore {
    /// The file of the database at `url`: `sqlite://PATH` or `sqlite:PATH`,
    /// `%` escapes decoded.
    ///
    /// # Errors
    ///
    /// A URL that is not `sqlite:`, names no file, or has options
    /// (`?...`), which this store does not take.
    pub fn path_of(url: &str) -> Result<PathBuf, StoreError> {
        let Some(rest) = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
        else {
            let scheme = url.split(':').next().unwrap_or_default();
            return Err(StoreError::UnknownScheme(scheme.to_owned()));
        };
        if rest.contains('?') {
            return Err(StoreError::Other(
                format!("the database URL {url:?} has options (`?...`): name only the file").into(),
            ));
        }
        if rest.is_empty() || rest == ":memory:" {
            return Err(StoreError::Other(
                format!("the database URL {url:?} names no file").into(),
            ));
        }
        let path = percent_encoding::percent_decode_str(rest)
            .decode_utf8()
            .map_err(other)?;
        Ok(PathBuf::from(path.as_ref()))
    }

    /// Opens (creating if needed) the database at `url`, in WAL mode with
    /// full synchronous commits, runs the embedded migrations and starts
    /// the writing thread. An existing file is first checked, before
    /// anything writes to it (setting WAL mode writes its header).
    ///
    /// # Errors
    ///
    /// A bad URL, a damaged or unreadable file, or a failed migration.
    pub async fn open(url: &str) -> Result<SqliteStore, StoreError> {
        let path = SqliteStore::path_of(url)?;
        check_at_start(path.clone()).await?;
        tokio::task::spawn_blocking(move || SqliteStore::open_checked(&path))
            .await
            .map_err(other)?
    }

    /// Opens the database at `url` as [`SqliteStore::open`] does (which
    /// migrates it), and says how many migrations it has.
    ///
    /// # Errors
    ///
    /// Those of [`SqliteStore::open`].
    pub async fn migrate(url: &str) -> Result<usize, StoreError> {
        let store = SqliteStore::open(url).await?;
        store
            .read(|conn| {
                let n: i64 =
                    conn.query_row("SELECT count(*) FROM _sqlx_migrations", [], |r| r.get(0))?;
                Ok(usize::try_from(n).unwrap_or(0))
            })
            .await
    }

    /// Runs `read` on a reading connection, on a thread that may block.
    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let readers = self.readers.clone();
        tokio::task::spawn_blocking(move || {
            // No reading connection came within the pool's wait: every one
            // is busy, or none can be opened.
            let mut conn = readers
                .get()
                .map_err(|e| StoreError::Unavailable(Box::new(e)))?;
            read(&mut conn)
        })
        .await
        .map_err(other)?
    }

    fn open_checked(path: &Path) -> Result<SqliteStore, StoreError> {
        let mut conn = connect(path, Access::Write)?;
        migrate::run(&mut conn, migrate::MIGRATIONS)?;
        let manager = SqliteConnectionManager::file(path)
            .with_flags(Access::Read.flags())
            .with_init(|conn| configure(conn, Access::Read));
        let readers = r2d2::Pool::builder()
            .max_size(READERS)
            .build(manager)
            .map_err(other)?;
        let writer = writer::start(conn)?;
        Ok(SqliteStore { readers, writer })
    }
}

/// [`check`]s the file at `path` on a thread that may block, and logs
/// the outcome.
async fn check_at_start(path: PathBuf) -> Result<(), StoreError> {
    let started = std::time::Instant::now();
    let shown = path.display().to_string();
    let checked = tokio::task::spawn_blocking(move || check(&path, CHECK_LIMIT))
        .await
        .map_err(other)??;
    match checked {
        Checked::Absent => {}
        Checked::Sound => {
            tracing::info!(file = shown, took = ?started.elapsed(), "database checked")
        }
        Checked::CutShort(after) => tracing::warn!(
            file = shown,
            ?after,
            "the database check was cut short: the file is too large to read at every \
             start; check it while the server is stopped with `sqlite3 FILE 'PRAGMA quick_check'`"
        ),
    }
    Ok(())
}

fn parse_hash(text: Option<String>) -> Result<Option<SecretHash>, StoreError> {
    text.map(|t| SecretHash::from_hex(&t).map_err(|_| corrupt("bad seat hash".into())))
        .transpose()
}

fn parse_id(text: Option<String>) -> Result<Option<GameId>, StoreError> {
    text.map(|t| GameId::from_str(&t).map_err(|_| corrupt(format!("bad game id {t:?}"))))
        .transpose()
}

const SELECT_GAME: &str = "SELECT id, created_at, start_position, creator, white_seat, \
     black_seat, invite, rematch_of, next_game, computer_color, computer_level, time_control, \
     match_white, match_black, match_draws FROM games WHERE id = ?1";

/// An action stored before its time was kept in milliseconds has its
/// second.
const SELECT_ACTIONS: &str = "SELECT player, kind, step, level, \
     COALESCE(at_ms, created_at * 1000), message FROM actions WHERE game_id = ?1 \
     AND seq >= ?2 ORDER BY seq";

fn read_row(row: &rusqlite::Row<'_>) -> Result<GameRow, StoreError> {
    let id: String = row.get(0)?;
    Ok(GameRow {
        id: GameId::from_str(&id).map_err(|_| corrupt(format!("bad game id {id:?}")))?,
        created_at: row.get(1)?,
        start_position: row.get(2)?,
        creator: parse_color(&row.get::<_, String>(3)?)?,
        seats: ByColor {
            white: parse_hash(row.get(4)?)?,
            black: parse_hash(row.get(5)?)?,
        },
        invite: parse_hash(Some(row.get(6)?))?.ok_or_else(|| corrupt("no invite".into()))?,
        rematch_of: parse_id(row.get(7)?)?,
        next_game: parse_id(row.get(8)?)?,
        computer: parse_computer(row.get(9)?, row.get(10)?)?,
        time_control: parse_time_control(row.get(11)?)?,
        score: parse_score([row.get(12)?, row.get(13)?, row.get(14)?])?,
    })
}

fn parse_computer(
    color: Option<String>,
    level: Option<i64>,
) -> Result<Option<ComputerSeat>, StoreError> {
    match (color, level) {
        (None, None) => Ok(None),
        (Some(color), Some(level)) => Ok(Some(ComputerSeat {
            color: parse_color(&color)?,
            level: parse_level(level)?,
        })),
        _ => Err(corrupt("half a computer seat".into())),
    }
}

/// Reads game `id` and its actions in one read transaction (one snapshot
/// of both tables).
fn read_game(conn: &mut Connection, id: &GameId, first: u64) -> Result<StoredGame, StoreError> {
    let from = seq_column(first)?;
    let tx = conn.transaction()?;
    let row = {
        let mut statement = tx.prepare_cached(SELECT_GAME)?;
        let mut rows = statement.query([id.as_str()])?;
        match rows.next()? {
            Some(row) => read_row(row)?,
            None => return Err(StoreError::NotFound),
        }
    };
    let (mut actions, mut action_times) = (Vec::new(), Vec::new());
    {
        let mut statement = tx.prepare_cached(SELECT_ACTIONS)?;
        let mut rows = statement.query(rusqlite::params![id.as_str(), from])?;
        while let Some(row) = rows.next()? {
            let player: String = row.get(0)?;
            let kind: String = row.get(1)?;
            let step: Option<String> = row.get(2)?;
            let level: Option<i64> = row.get(3)?;
            let message: Option<String> = row.get(5)?;
            actions.push(decode_action(
                &player,
                &kind,
                step.as_deref(),
                level,
                message.as_deref(),
            )?);
            action_times.push(row.get(4)?);
        }
    }
    tx.commit()?;
    tracing::trace!(%id, actions = actions.len(), "game loaded");
    Ok(StoredGame {
        row,
        first,
        actions,
        action_times,
    })
}

#[async_trait]
impl Store for SqliteStore {
    async fn create_game(&self, row: &GameRow) -> Result<(), StoreError> {
        self.writer.create_game(row).await
    }

    async fn load_from(&self, id: &GameId, first: u64) -> Result<StoredGame, StoreError> {
        let id = id.clone();
        self.read(move |conn| read_game(conn, &id, first)).await
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

    async fn ready(&self) -> Result<(), StoreError> {
        self.read(|conn| {
            conn.query_row("SELECT count(*) FROM games WHERE id = ''", [], |r| {
                r.get::<_, i64>(0)
            })?;
            Ok(())
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // See: issues/21 (a locked database answered 500, not 503).
    #[test]
    fn a_busy_or_locked_database_is_unavailable() {
        for code in [
            ffi::SQLITE_BUSY,
            ffi::SQLITE_LOCKED,
            ffi::SQLITE_BUSY_SNAPSHOT,
        ] {
            let error = rusqlite::Error::SqliteFailure(ffi::Error::new(code), None);
            assert!(
                matches!(StoreError::from(error), StoreError::Unavailable(_)),
                "{code}"
            );
        }
        let full = rusqlite::Error::SqliteFailure(ffi::Error::new(ffi::SQLITE_FULL), None);
        assert!(matches!(StoreError::from(full), StoreError::Other(_)));
    }

    #[test]
    fn database_urls_name_a_file() {
        let path = |url| SqliteStore::path_of(url).map_err(|e| e.to_string());
        assert_eq!(path("sqlite://games.db"), Ok(PathBuf::from("games.db")));
        assert_eq!(path("sqlite:games.db"), Ok(PathBuf::from("games.db")));
        assert_eq!(
            path("sqlite:///srv/a%20b.db"),
            Ok(PathBuf::from("/srv/a b.db"))
        );
        assert!(matches!(
            SqliteStore::path_of("postgres://host/db"),
            Err(StoreError::UnknownScheme(s)) if s == "postgres"
        ));
        for bad in ["sqlite://", "sqlite::memory:", "sqlite://games.db?mode=ro"] {
            assert!(path(bad).is_err(), "{bad}");
        }
    }
}
