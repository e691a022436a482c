//! Hears what every process of the site stores: one connection `LISTEN`s
//! on the store's channel and passes each notification on as a
//! [`Change`]. A lost connection (a database restart) is opened again,
//! after a pause that grows to [`MAX_PAUSE`], and then says
//! [`Change::Missed`]: what was committed meanwhile was never heard.

use std::{sync::Arc, time::Duration};

use sqlx::postgres::{PgListener, PgPool};
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use crate::store::Change;

/// The first pause before connecting again.
const FIRST_PAUSE: Duration = Duration::from_millis(100);

/// The longest pause between two tries to connect.
const MAX_PAUSE: Duration = Duration::from_secs(5);

/// Listens on `channel` until `stop`, passing every change to `changes`,
/// but the presence notices of this `process`.
pub(super) async fn run(
    pool: PgPool,
    channel: Arc<str>,
    changes: broadcast::Sender<Change>,
    process: u64,
    stop: CancellationToken,
) {
    let mut pause = FIRST_PAUSE;
    let mut first = true;
    loop {
        let heard = tokio::select! {
            heard = listen(&pool, &channel, &changes, process, first) => heard,
            () = stop.cancelled() => return,
        };
        match heard {
            // Connected, then lost: try again at once.
            Ok(()) => pause = FIRST_PAUSE,
            Err(error) => {
                tracing::warn!(%error, ?pause, "cannot listen for changes: trying again");
                tokio::select! {
                    () = tokio::time::sleep(pause) => {}
                    () = stop.cancelled() => return,
                }
                pause = (pause * 2).min(MAX_PAUSE);
            }
        }
        first = false;
    }
}

/// Opens a listening connection and passes on what it hears, until the
/// connection is lost (`Ok`) or cannot be opened (`Err`). Unless this is
/// the `first` connection, what happened before it opened was missed.
/// What this `process` said of presence is not passed back to it.
async fn listen(
    pool: &PgPool,
    channel: &str,
    changes: &broadcast::Sender<Change>,
    process: u64,
    first: bool,
) -> Result<(), sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    // `try_recv` then says when the connection is lost instead of opening
    // another by itself: a new one is opened here, and the loss told.
    listener.eager_reconnect(false);
    listener.listen(channel).await?;
    if !first {
        tracing::info!("listening for changes again");
        let _ = changes.send(Change::Missed);
    }
    while let Some(notification) = listener.try_recv().await? {
        match Change::parse(notification.payload()) {
            Some(Change::Presence { process: from, .. }) if from == process => {}
            Some(change) => {
                // No receiver (a process with no hub yet) is not an error.
                let _ = changes.send(change);
            }
            None => tracing::warn!(payload = notification.payload(), "unknown notification"),
        }
    }
    tracing::warn!("lost the connection that listens for changes");
    Ok(())
}
