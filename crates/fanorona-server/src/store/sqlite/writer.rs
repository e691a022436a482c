//! The one connection that writes. Every write of the store is queued
//! (see [`Batch`] for the policy); the writer takes everything queued,
//! commits it in one transaction, and only then answers each caller (group
//! commit). SQLite allows one writer at a time: one connection that writes
//! in batches replaces many that wait for each other's lock, and one
//! `fsync` serves a whole batch.
//!
//! The connection lives on its own thread and is used synchronously: a
//! batch costs one wake-up of that thread and one answer per caller, where
//! an async driver would hand every statement to its worker thread and
//! back.

use std::thread;

use fanorona::Color;
use rusqlite::{params, Connection, Transaction};
use tokio::sync::mpsc;

use crate::{
    game::Action,
    ids::{GameId, SecretHash},
    store::{
        color_text, encode_action, score_columns, seq_column,
        write::{Batch, Job, Outcome, Write, Writer},
        GameRow, StoreError,
    },
};

/// Starts the thread of `conn`, a writing connection on a migrated
/// database (see [`super::connect`]), which ends when the last handle is
/// dropped.
pub(super) fn start(conn: Connection) -> Result<Writer, StoreError> {
    let (writer, rx) = Writer::new();
    thread::Builder::new()
        .name("db-writer".into())
        .spawn(move || run(conn, rx))
        .map_err(|e| StoreError::Other(Box::new(e)))?;
    Ok(writer)
}

/// The writing thread: waits for a write, takes whatever else is queued,
/// commits, answers; until every handle is gone.
fn run(mut conn: Connection, mut rx: mpsc::Receiver<Job>) {
    let mut batch = Batch::new();
    while let Some(job) = rx.blocking_recv() {
        batch.fill(job, &mut rx);
        let outcome = transaction(&mut conn, batch.jobs());
        for job in batch.settle(outcome) {
            let alone = transaction(&mut conn, std::slice::from_ref(&job));
            job.settle(alone);
        }
    }
    if let Err((_, error)) = conn.close() {
        tracing::warn!(%error, "closing the database writer");
    }
}

/// Runs every write of `jobs` in one transaction. A write refused for a
/// conflict changes nothing and gets its own error, the others go on; any
/// other error rolls the whole transaction back (dropping an uncommitted
/// transaction rolls it back).
fn transaction(conn: &mut Connection, jobs: &[Job]) -> Result<Vec<Outcome>, StoreError> {
    let mut tx = conn.transaction()?;
    let mut results = Vec::with_capacity(jobs.len());
    for job in jobs {
        match apply(&mut tx, &job.write) {
            Err(StoreError::Other(error)) => return Err(StoreError::Other(error)),
            result => results.push(result),
        }
    }
    tx.commit()?;
    Ok(results)
}

fn apply(tx: &mut Transaction<'_>, write: &Write) -> Outcome {
    match write {
        Write::Game(row) => insert_game(tx, row).map(|()| 1),
        Write::Seat { id, color, seat } => claim_seat(tx, id, *color, seat),
        Write::Action {
            id,
            seq,
            action,
            at,
        } => insert_action(tx, id, *seq, action, *at).map(|()| 1),
        Write::Rematch {
            id,
            seq,
            action,
            at,
            next,
        } => rematch(tx, id, *seq, action, *at, next),
        Write::DeleteExpired { created_before } => {
            let done = tx
                .prepare_cached(DELETE_EXPIRED)?
                .execute(params![created_before])?;
            Ok(done as u64)
        }
    }
}

const INSERT_GAME: &str = "INSERT INTO games (id, created_at, start_position, creator, \
     white_seat, black_seat, invite, rematch_of, next_game, computer_color, computer_level, \
     time_control, match_white, match_black, match_draws) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)";

/// Stores action `?2` only when the game holds actions 0 to `?2 - 1`, as
/// the PostgreSQL store does: the primary key refuses a number already
/// used, and this condition a number past the end.
const INSERT_ACTION: &str = "INSERT INTO actions \
     (game_id, seq, player, kind, step, level, created_at, at_ms, message) \
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9 \
     WHERE ?2 = 0 OR EXISTS (SELECT 1 FROM actions WHERE game_id = ?1 AND seq = ?2 - 1)";

fn hash_text(hash: &Option<SecretHash>) -> Option<String> {
    hash.map(SecretHash::to_hex)
}

fn insert_game(conn: &Connection, row: &GameRow) -> Result<(), StoreError> {
    let [match_white, match_black, match_draws] = score_columns(row.score);
    conn.prepare_cached(INSERT_GAME)?.execute(params![
        row.id.as_str(),
        row.created_at,
        &row.start_position,
        color_text(row.creator),
        hash_text(&row.seats.white),
        hash_text(&row.seats.black),
        row.invite.to_hex(),
        row.rematch_of.as_ref().map(GameId::as_str),
        row.next_game.as_ref().map(GameId::as_str),
        row.computer.map(|c| color_text(c.color)),
        row.computer.map(|c| i64::from(c.level.number())),
        row.time_control.map(|c| c.to_string()),
        match_white,
        match_black,
        match_draws,
    ])?;
    Ok(())
}

fn insert_action(
    conn: &Connection,
    id: &GameId,
    seq: u64,
    action: &Action,
    at: i64,
) -> Result<(), StoreError> {
    let columns = encode_action(action);
    let seq = seq_column(seq)?;
    let done = conn.prepare_cached(INSERT_ACTION)?.execute(params![
        id.as_str(),
        seq,
        color_text(action.by),
        columns.kind,
        columns.step,
        columns.level,
        at.div_euclid(1000),
        at,
        columns.message,
    ])?;
    match done {
        1 => Ok(()),
        _ => Err(StoreError::Conflict),
    }
}

fn claim_seat(
    conn: &Connection,
    id: &GameId,
    color: Color,
    seat: &SecretHash,
) -> Result<u64, StoreError> {
    let sql = match color {
        Color::White => "UPDATE games SET white_seat = ?1 WHERE id = ?2 AND white_seat IS NULL",
        Color::Black => "UPDATE games SET black_seat = ?1 WHERE id = ?2 AND black_seat IS NULL",
    };
    let done = conn
        .prepare_cached(sql)?
        .execute(params![seat.to_hex(), id.as_str()])?;
    match done {
        1 => Ok(1),
        _ => Err(StoreError::Conflict),
    }
}

/// The three statements of a rematch, all or none: inside a savepoint, so
/// that a conflict undoes only them and not the rest of the batch (a
/// savepoint dropped without commit rolls back to where it started).
fn rematch(
    tx: &mut Transaction<'_>,
    id: &GameId,
    seq: u64,
    action: &Action,
    at: i64,
    next: &GameRow,
) -> Result<u64, StoreError> {
    let savepoint = tx.savepoint()?;
    insert_action(&savepoint, id, seq, action, at)?;
    insert_game(&savepoint, next)?;
    let done = savepoint
        .prepare_cached("UPDATE games SET next_game = ?1 WHERE id = ?2 AND next_game IS NULL")?
        .execute(params![next.id.as_str(), id.as_str()])?;
    if done != 1 {
        return Err(StoreError::Conflict);
    }
    savepoint.commit()?;
    Ok(1)
}

/// An invitation nobody accepted: a free seat, and so no action either.
/// A game against the computer has no invitation.
const DELETE_EXPIRED: &str = "DELETE FROM games WHERE created_at < ?1 \
     AND (white_seat IS NULL OR black_seat IS NULL) AND computer_color IS NULL \
     AND NOT EXISTS (SELECT 1 FROM actions WHERE actions.game_id = games.id)";
