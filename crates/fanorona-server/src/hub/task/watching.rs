//! How many are watching: the spectators' sockets of a game, on this
//! process and on the others. Counted across processes as the players'
//! presence is: each process says its own count when it changes and at
//! every heartbeat while it is not zero, and what a process that has
//! fallen silent said is forgotten after the same lifetime.

use std::{collections::HashMap, time::Duration};

use tokio::time::Instant;

use super::GameTask;
use crate::store::Notice;

/// How often a change of the count alone is published, and said to the
/// other processes. Every socket of the game gets each new state: a
/// crowd arriving at once (a link shared in a group chat) costs one state
/// a second to each socket, not one per arrival.
const EVERY: Duration = Duration::from_secs(1);

/// The spectators' sockets of one game.
#[derive(Debug)]
pub(super) struct Watching {
    /// Those open on this process.
    here: u32,
    /// What each other process last said it holds, and when it said so.
    elsewhere: HashMap<u64, (u32, Instant)>,
    /// The count the last state published said.
    shown: u32,
    /// The count of `here` last said to the other processes.
    said: u32,
    /// Whether a change waits for `next` to be published or said.
    pending: bool,
    /// When a change of the count may next go out.
    next: Instant,
}

impl Watching {
    pub(super) fn new(now: Instant) -> Watching {
        Watching {
            here: 0,
            elsewhere: HashMap::new(),
            shown: 0,
            said: 0,
            pending: false,
            next: now,
        }
    }

    /// The spectators' sockets on every process.
    pub(super) fn total(&self) -> u32 {
        self.elsewhere
            .values()
            .fold(self.here, |sum, (n, _)| sum.saturating_add(*n))
    }

    /// Whether this process holds a spectator's socket.
    pub(super) fn any_here(&self) -> bool {
        self.here > 0
    }

    /// When what another process said is next to be forgotten.
    pub(super) fn oldest(&self) -> Option<Instant> {
        self.elsewhere.values().map(|(_, heard)| *heard).min()
    }

    /// Notes that the last state published says `total`.
    pub(super) fn shown(&mut self, total: u32) {
        self.shown = total;
    }
}

impl GameTask {
    /// A spectator's socket opened here (`true`) or closed.
    pub(super) fn spectator(&mut self, opened: bool) {
        let w = &mut self.watching;
        w.here = if opened {
            w.here.saturating_add(1)
        } else {
            w.here.saturating_sub(1)
        };
        if opened && w.here == 1 {
            let now = Instant::now();
            if self.next_beat <= now {
                self.next_beat = now + self.hub.config().presence_heartbeat;
            }
        }
        self.watching.pending = true;
    }

    /// When a change of the count waits to go out.
    pub(super) fn watching_deadline(&self) -> Option<Instant> {
        self.watching.pending.then_some(self.watching.next)
    }

    /// Says this process's count to the others and publishes the total,
    /// each only if it changed since last time.
    pub(super) fn on_watching_timer(&mut self) {
        let w = &mut self.watching;
        w.pending = false;
        w.next = Instant::now() + EVERY;
        if w.here != w.said {
            let here = w.here;
            w.said = here;
            self.announce(Notice::Watching(here));
        }
        if self.watching.total() != self.watching.shown {
            self.publish_or_stop();
        }
    }

    /// Says this process's count again, at a heartbeat or when asked,
    /// while it is not zero.
    pub(super) fn announce_watching(&mut self) {
        if self.watching.here > 0 {
            self.watching.said = self.watching.here;
            self.announce(Notice::Watching(self.watching.here));
        }
    }

    /// Says that this process, shutting down, holds no spectator any more.
    pub(super) fn announce_no_watching(&self) {
        if self.watching.here > 0 {
            self.announce(Notice::Watching(0));
        }
    }

    /// What another process said of the spectators' sockets it holds.
    pub(super) fn heard_watching(&mut self, process: u64, count: u32) {
        let w = &mut self.watching;
        if count == 0 {
            w.elsewhere.remove(&process);
        } else {
            w.elsewhere.insert(process, (count, Instant::now()));
        }
        if w.total() != w.shown {
            w.pending = true;
        }
    }

    /// Forgets what other processes said longer than the lifetime ago.
    pub(super) fn forget_silent_watchers(&mut self, now: Instant, lifetime: Duration) {
        let w = &mut self.watching;
        w.elsewhere.retain(|_, (_, heard)| *heard + lifetime > now);
        if w.total() != w.shown {
            w.pending = true;
        }
    }
}
