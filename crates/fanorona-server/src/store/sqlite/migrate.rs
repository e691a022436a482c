//! The embedded migrations of `migrations/sqlite/`, run at start.
//!
//! Which ones a file has had is kept in the table `_sqlx_migrations`, in the
//! form the first release wrote it (through sqlx's migrator): one row per
//! migration with its number, its description, `success` and the SHA-384
//! checksum of its SQL. So a file made by the first release opens here
//! unchanged, and a file made here still opens in the first release (a
//! migration crate that counts in `PRAGMA user_version` would have made the
//! first release run `0001` again, on tables that already exist).

use rusqlite::{params, Connection, OptionalExtension};
use sha2::{Digest, Sha384};

use crate::store::{corrupt, StoreError};

/// One numbered file of `migrations/sqlite/`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Migration {
    /// The number its file name starts with.
    pub(super) version: i64,
    /// The rest of its file name, without `.sql`, `_` read as a space.
    pub(super) description: &'static str,
    /// Its SQL, as it is in the file.
    pub(super) sql: &'static str,
}

/// Every migration, in order. A new file goes at the end and is never
/// edited once merged (its checksum is kept in every database it made);
/// `tests::the_list_is_the_directory` keeps this list and the directory
/// equal.
pub(super) const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        description: "games",
        sql: include_str!("../../../migrations/sqlite/0001_games.sql"),
    },
    Migration {
        version: 2,
        description: "computer",
        sql: include_str!("../../../migrations/sqlite/0002_computer.sql"),
    },
    Migration {
        version: 3,
        description: "clocks",
        sql: include_str!("../../../migrations/sqlite/0003_clocks.sql"),
    },
    Migration {
        version: 4,
        description: "messages",
        sql: include_str!("../../../migrations/sqlite/0004_messages.sql"),
    },
    Migration {
        version: 5,
        description: "match",
        sql: include_str!("../../../migrations/sqlite/0005_match.sql"),
    },
];

/// The bookkeeping table, as the first release created it.
const TABLE: &str = "CREATE TABLE IF NOT EXISTS _sqlx_migrations (
    version BIGINT PRIMARY KEY,
    description TEXT NOT NULL,
    installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    success BOOLEAN NOT NULL,
    checksum BLOB NOT NULL,
    execution_time BIGINT NOT NULL
)";

fn checksum(sql: &str) -> Vec<u8> {
    Sha384::digest(sql.as_bytes()).to_vec()
}

/// Brings the database of `conn` up to the last of `migrations`, each one
/// with its bookkeeping row in one transaction.
///
/// # Errors
///
/// A migration that failed half-way before (`success` false), one applied
/// that is not in `migrations` or whose SQL has changed since, or the
/// error of the one that fails now (it then changes nothing).
pub(super) fn run(conn: &mut Connection, migrations: &[Migration]) -> Result<(), StoreError> {
    conn.execute_batch(TABLE)?;
    let dirty: Option<i64> = conn
        .query_row(
            "SELECT version FROM _sqlx_migrations WHERE success = false \
             ORDER BY version LIMIT 1",
            [],
            |row| row.get(0),
        )
        .optional()?;
    if let Some(version) = dirty {
        return Err(corrupt(format!(
            "migration {version} was left half-done: restore a backup"
        )));
    }
    let applied = conn
        .prepare("SELECT version, checksum FROM _sqlx_migrations ORDER BY version")?
        .query_map([], |row| {
            Ok((row.get::<_, i64>(0)?, row.get::<_, Vec<u8>>(1)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    for (version, sum) in &applied {
        match migrations.iter().find(|m| m.version == *version) {
            None => {
                return Err(corrupt(format!(
                    "the database has migration {version}, which this server does not know: \
                     it was made by a newer release"
                )))
            }
            Some(known) if checksum(known.sql) != *sum => {
                return Err(corrupt(format!(
                    "migration {version} in the database differs from this server's"
                )))
            }
            Some(_) => {}
        }
    }
    for migration in migrations {
        if !applied
            .iter()
            .any(|(version, _)| *version == migration.version)
        {
            apply(conn, migration)?;
        }
    }
    Ok(())
}

fn apply(conn: &mut Connection, migration: &Migration) -> Result<(), StoreError> {
    let started = std::time::Instant::now();
    let tx = conn.transaction()?;
    tx.execute_batch(migration.sql)?;
    let took = i64::try_from(started.elapsed().as_nanos()).unwrap_or(i64::MAX);
    tx.execute(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (?1, ?2, TRUE, ?3, ?4)",
        params![
            migration.version,
            migration.description,
            checksum(migration.sql),
            took
        ],
    )?;
    tx.commit()?;
    tracing::info!(
        migration.version,
        migration.description,
        "database migrated"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_the_directory() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/sqlite");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .expect("the migrations")
            .map(|entry| entry.expect("an entry").file_name())
            .collect();
        files.sort();
        assert_eq!(files.len(), MIGRATIONS.len());
        for (file, migration) in files.iter().zip(MIGRATIONS) {
            let name = file.to_str().expect("a UTF-8 name");
            let (number, rest) = name.split_once('_').expect("NUMBER_NAME.sql");
            assert_eq!(
                number.parse::<i64>().ok(),
                Some(migration.version),
                "{name}"
            );
            let description = rest.trim_end_matches(".sql").replace('_', " ");
            assert_eq!(description, migration.description, "{name}");
            let sql =
                std::fs::read_to_string(std::path::Path::new(dir).join(file)).expect("readable");
            assert_eq!(sql, migration.sql, "{name}");
        }
    }

    fn memory() -> Connection {
        Connection::open_in_memory().expect("a database")
    }

    #[test]
    fn migrations_run_once() {
        let mut conn = memory();
        run(&mut conn, MIGRATIONS).expect("migrates");
        run(&mut conn, MIGRATIONS).expect("nothing to do");
        let rows: i64 = conn
            .query_row("SELECT count(*) FROM _sqlx_migrations", [], |r| r.get(0))
            .expect("counted");
        assert_eq!(rows, i64::try_from(MIGRATIONS.len()).expect("small"));
    }

    #[test]
    fn a_changed_unknown_or_half_done_migration_stops_the_start() {
        let mut conn = memory();
        run(&mut conn, MIGRATIONS).expect("migrates");
        let edited = [Migration {
            sql: "CREATE TABLE games (id TEXT);",
            ..MIGRATIONS[0]
        }];
        let error = run(&mut conn, &edited).expect_err("refused");
        assert!(error.to_string().contains("differs"), "{error}");
        let error = run(&mut conn, &[]).expect_err("refused");
        assert!(error.to_string().contains("newer release"), "{error}");
        conn.execute("UPDATE _sqlx_migrations SET success = false", [])
            .expect("marked");
        let error = run(&mut conn, MIGRATIONS).expect_err("refused");
        assert!(error.to_string().contains("half-done"), "{error}");
    }

    #[test]
    fn a_failing_migration_changes_nothing() {
        let mut conn = memory();
        let bad = [Migration {
            version: 1,
            description: "bad",
            sql: "CREATE TABLE t (x TEXT); INSERT INTO nowhere VALUES (1);",
        }];
        assert!(run(&mut conn, &bad).is_err());
        let tables: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name = 't'",
                [],
                |r| r.get(0),
            )
            .expect("counted");
        assert_eq!(tables, 0);
    }
}
