//! The database file as a whole: checked before the server uses it, and
//! copied while it is in use. Both read through a read-only connection of
//! their own, so neither ever writes to the file.

use std::{
    fs,
    path::{Path, PathBuf},
    sync::mpsc,
    thread,
    time::{Duration, Instant},
};

use rusqlite::{Connection, ErrorCode};

use super::{connect, Access};
use crate::store::StoreError;

/// How long the check at start may take before it is cut short. The check
/// reads every page: 1.2 s for a 289 MB file of 100,000 games of 40
/// actions (debug build, file in the page cache, on the 2-core development
/// machine), so only files of gigabytes reach it, and then the server
/// starts anyway, with a warning, rather than keep visitors waiting.
pub(crate) const CHECK_LIMIT: Duration = Duration::from_secs(5);

/// The outcome of [`check`] on a file that is not damaged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Checked {
    /// There is no file yet: it will be created.
    Absent,
    /// Every page was read and is consistent.
    Sound,
    /// The check was stopped after this long, before it read every page.
    CutShort(Duration),
}

/// Runs SQLite's `PRAGMA quick_check` on the file at `path` (read-only: the
/// file is not changed, whatever is found), giving up after `limit`.
///
/// # Errors
///
/// [`StoreError::Damaged`] when the file is damaged; the file's other
/// errors (unreadable, not a database) as they are.
pub(crate) fn check(path: &Path, limit: Duration) -> Result<Checked, StoreError> {
    if !path.exists() {
        return Ok(Checked::Absent);
    }
    let damaged = |detail: String| StoreError::Damaged {
        path: path.to_owned(),
        detail,
    };
    let conn = read_only(path)?;
    let started = Instant::now();
    let result = with_limit(&conn, limit, || {
        let mut statement = conn.prepare("PRAGMA quick_check(5)")?;
        let rows = statement.query_map([], |row| row.get::<_, String>(0))?;
        rows.collect::<Result<Vec<_>, _>>()
    });
    match result {
        Ok(rows) if rows == ["ok"] => Ok(Checked::Sound),
        Ok(rows) => Err(damaged(rows.join("; "))),
        Err(rusqlite::Error::SqliteFailure(e, message)) => match e.code {
            ErrorCode::OperationInterrupted => Ok(Checked::CutShort(started.elapsed())),
            ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase => {
                Err(damaged(message.unwrap_or_else(|| e.to_string())))
            }
            _ => Err(rusqlite::Error::SqliteFailure(e, message).into()),
        },
        Err(other) => Err(other.into()),
    }
}

/// Runs `work` on `conn`, interrupting it once `limit` has passed.
fn with_limit<T>(conn: &Connection, limit: Duration, work: impl FnOnce() -> T) -> T {
    let interrupt = conn.get_interrupt_handle();
    let (finished, wait) = mpsc::channel::<()>();
    let watchdog = thread::spawn(move || {
        // An interrupt while no statement runs is lost, so it is repeated
        // until the work ends.
        let mut wait_for = limit;
        while wait.recv_timeout(wait_for) == Err(mpsc::RecvTimeoutError::Timeout) {
            interrupt.interrupt();
            wait_for = Duration::from_millis(1);
        }
    });
    let result = work();
    drop(finished);
    let _ = watchdog.join();
    result
}

fn read_only(path: &Path) -> Result<Connection, StoreError> {
    connect(path, Access::Read)
}

/// What a backup made (see [`backup_to`](crate::store::backup_to)).
#[derive(Clone, Debug)]
pub struct Backup {
    /// The database copied.
    pub source: PathBuf,
    /// The copy.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// The games in it.
    pub games: u64,
    /// The actions in it, over all games.
    pub actions: u64,
    /// How long the copy took.
    pub took: Duration,
}

/// Copies the database at `source` to the new file `target` while the
/// server may be writing to it: `VACUUM INTO` reads one consistent
/// snapshot (a read transaction of the WAL file), so the copy holds every
/// game as it was at one moment, each with a prefix of its actions. The
/// copy is written to disk (`fsync`) and then checked with
/// `PRAGMA integrity_check`.
///
/// # Errors
///
/// When `target` exists (it is never overwritten), when `source` is not a
/// database, or when the copy cannot be written or fails its check.
pub(crate) fn backup(source: &Path, target: &Path) -> Result<Backup, StoreError> {
    let started = Instant::now();
    if target.exists() {
        return Err(StoreError::Other(
            format!(
                "{} already exists: a backup never overwrites a file, name a new one",
                target.display()
            )
            .into(),
        ));
    }
    if !source.exists() {
        return Err(StoreError::Other(
            format!("there is no database at {}", source.display()).into(),
        ));
    }
    let target_text = target.to_str().ok_or_else(|| {
        StoreError::Other(format!("{} is not a UTF-8 path", target.display()).into())
    })?;
    read_only(source)?.execute("VACUUM INTO ?1", [target_text])?;
    fs::File::open(target)
        .and_then(|f| f.sync_all())
        .map_err(|e| StoreError::Other(Box::new(e)))?;
    let copy = read_only(target)?;
    let verdict: String = copy.query_row("PRAGMA integrity_check(1)", [], |row| row.get(0))?;
    if verdict != "ok" {
        return Err(StoreError::Damaged {
            path: target.to_owned(),
            detail: verdict,
        });
    }
    let count = |sql: &str| copy.query_row(sql, [], |row| row.get::<_, u64>(0));
    Ok(Backup {
        source: source.to_owned(),
        path: target.to_owned(),
        bytes: fs::metadata(target)
            .map_err(|e| StoreError::Other(Box::new(e)))?
            .len(),
        games: count("SELECT count(*) FROM games")?,
        actions: count("SELECT count(*) FROM actions")?,
        took: started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn database(dir: &Path) -> PathBuf {
        let path = dir.join("games.db");
        let conn = Connection::open(&path).expect("creates");
        conn.execute_batch(
            "CREATE TABLE t (x TEXT); \
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) \
             INSERT INTO t SELECT printf('%0100d', i) FROM n;",
        )
        .expect("fills");
        path
    }

    #[test]
    fn a_sound_file_passes_and_a_missing_one_is_absent() {
        let dir = tempfile::tempdir().expect("a directory");
        assert_eq!(
            check(&dir.path().join("none.db"), CHECK_LIMIT).ok(),
            Some(Checked::Absent)
        );
        let path = database(dir.path());
        assert_eq!(check(&path, CHECK_LIMIT).ok(), Some(Checked::Sound));
    }

    #[test]
    fn a_check_over_its_time_is_cut_short_not_failed() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = database(dir.path());
        assert!(matches!(
            check(&path, Duration::from_millis(1)),
            Ok(Checked::CutShort(_))
        ));
    }
}
