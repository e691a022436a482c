//! The SQLite backend: one database file in WAL mode, migrated at start.
//! Reads use a small pool of connections; every write goes through the one
//! writing connection of [`writer`], on its own thread, which commits them
//! in batches.

mod file;
mod writer;

use std::{path::PathBuf, str::FromStr, time::Duration};

use async_trait::async_trait;
use fanorona::{ByColor, Color};
use sqlx::{
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
    Row, SqlitePool,
};

pub use self::file::{backup, check, Backup, Checked, CHECK_LIMIT};
use self::writer::{Write, Writer};
use super::{corrupt, decode_action, parse_color, GameRow, Store, StoreError, StoredGame};
use crate::{
    game::Action,
    ids::{GameId, SecretHash},
};

/// Games in a SQLite database file.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    /// Connections that read.
    pool: SqlitePool,
    /// The one connection that writes.
    writer: Writer,
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        match e {
            sqlx::Error::RowNotFound => StoreError::NotFound,
            sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict,
            other => StoreError::Other(Box::new(other)),
        }
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(e: sqlx::migrate::MigrateError) -> StoreError {
        StoreError::Other(Box::new(e))
    }
}

impl SqliteStore {
    /// The file of the database at `url`.
    ///
    /// # Errors
    ///
    /// A URL that is not `sqlite://`.
    pub fn path_of(url: &str) -> Result<PathBuf, StoreError> {
        Ok(SqliteConnectOptions::from_str(url)?
            .get_filename()
            .to_owned())
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
        let options = SqliteConnectOptions::from_str(url)?;
        check_at_start(options.get_filename().to_owned()).await?;
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options.clone())
            .await?;
        sqlx::migrate!("migrations/sqlite").run(&pool).await?;
        let writer = Writer::start(options.get_filename())?;
        Ok(SqliteStore { pool, writer })
    }
}

/// [`check`]s the file at `path` on a thread that may block, and logs
/// the outcome.
async fn check_at_start(path: PathBuf) -> Result<(), StoreError> {
    let started = std::time::Instant::now();
    let shown = path.display().to_string();
    let checked = tokio::task::spawn_blocking(move || check(&path, CHECK_LIMIT))
        .await
        .map_err(|e| StoreError::Other(Box::new(e)))??;
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

fn read_row(row: &sqlx::sqlite::SqliteRow) -> Result<GameRow, StoreError> {
    let id: String = row.try_get("id")?;
    Ok(GameRow {
        id: GameId::from_str(&id).map_err(|_| corrupt(format!("bad game id {id:?}")))?,
        created_at: row.try_get("created_at")?,
        start_position: row.try_get("start_position")?,
        creator: parse_color(&row.try_get::<String, _>("creator")?)?,
        seats: ByColor {
            white: parse_hash(row.try_get("white_seat")?)?,
            black: parse_hash(row.try_get("black_seat")?)?,
        },
        invite: parse_hash(Some(row.try_get("invite")?))?
            .ok_or_else(|| corrupt("no invite".into()))?,
        rematch_of: parse_id(row.try_get("rematch_of")?)?,
        next_game: parse_id(row.try_get("next_game")?)?,
    })
}

#[async_trait]
impl Store for SqliteStore {
    async fn create_game(&self, row: &GameRow) -> Result<(), StoreError> {
        self.writer.write(Write::Game(row.clone())).await.map(drop)
    }

    async fn load_game(&self, id: &GameId) -> Result<StoredGame, StoreError> {
        let mut tx = self.pool.begin().await?;
        let game = sqlx::query("SELECT * FROM games WHERE id = $1")
            .bind(id.as_str())
            .fetch_one(&mut *tx)
            .await?;
        let rows =
            sqlx::query("SELECT player, kind, step FROM actions WHERE game_id = $1 ORDER BY seq")
                .bind(id.as_str())
                .fetch_all(&mut *tx)
                .await?;
        tx.commit().await?;
        let actions = rows
            .iter()
            .map(|r| {
                let player: String = r.try_get("player")?;
                let kind: String = r.try_get("kind")?;
                let step: Option<String> = r.try_get("step")?;
                decode_action(&player, &kind, step.as_deref())
            })
            .collect::<Result<_, StoreError>>()?;
        Ok(StoredGame {
            row: read_row(&game)?,
            actions,
        })
    }

    async fn claim_seat(
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
        self.writer.write(write).await.map(drop)
    }

    async fn append_action(
        &self,
        id: &GameId,
        seq: u64,
        action: &Action,
    ) -> Result<(), StoreError> {
        let write = Write::Action {
            id: id.clone(),
            seq,
            action: *action,
        };
        self.writer.write(write).await.map(drop)
    }

    async fn append_rematch(
        &self,
        id: &GameId,
        seq: u64,
        action: &Action,
        next: &GameRow,
    ) -> Result<(), StoreError> {
        let write = Write::Rematch {
            id: id.clone(),
            seq,
            action: *action,
            next: Box::new(next.clone()),
        };
        self.writer.write(write).await.map(drop)
    }

    async fn delete_expired_invitations(&self, created_before: i64) -> Result<u64, StoreError> {
        self.writer
            .write(Write::DeleteExpired { created_before })
            .await
    }
}
