//! Where the players are: their sockets on this process and on the
//! others, the heartbeats that say so across processes, and the deadline
//! after which a player to move who has left has abandoned the game.

use std::{collections::HashMap, time::Duration};

use fanorona::Color;
use tokio::time::Instant;

use super::GameTask;
use crate::{game::TimeControl, store::Notice};

/// Where a player's sockets are. With other processes on the store, a
/// player counts as connected while a socket of theirs is open on any
/// process: this one's are counted, the others' are known by what those
/// processes announce.
#[derive(Clone, Debug)]
pub(super) struct Presence {
    /// The player's sockets open on this process.
    pub(super) connections: u32,
    /// The other processes that said they hold a socket of this player,
    /// and when each said so last: a process that stops saying it (it was
    /// killed, or lost its database) is forgotten after the lifetime.
    pub(super) elsewhere: HashMap<u64, Instant>,
    /// Whether the player was connected somewhere when last looked at.
    pub(super) connected: bool,
    /// Since when the player has had no socket anywhere.
    pub(super) away_since: Instant,
}

impl Presence {
    pub(super) fn new(now: Instant) -> Presence {
        Presence {
            connections: 0,
            elsewhere: HashMap::new(),
            connected: false,
            away_since: now,
        }
    }
}

impl GameTask {
    /// Says `notice` to the other processes on the store, if any.
    pub(super) fn announce(&self, notice: Notice) {
        if self.hub.inner.shared {
            self.hub.inner.store.announce(&self.row.id, notice);
        }
    }

    /// The lifetime of what another process said of a player's sockets:
    /// three heartbeats, so one or two lost notices do not make a player
    /// look away.
    pub(super) fn presence_lifetime(&self) -> Duration {
        self.hub.config().presence_heartbeat.saturating_mul(3)
    }

    /// When presence must be looked at again: this process's next
    /// heartbeat while it holds a player's or a spectator's socket, or the
    /// end of the lifetime of the oldest thing another process said.
    pub(super) fn presence_deadline(&self) -> Option<Instant> {
        if !self.hub.inner.shared {
            return None;
        }
        let lifetime = self.presence_lifetime();
        let beat = (self.watching.any_here()
            || Color::ALL
                .into_iter()
                .any(|c| self.presence.get(c).connections > 0))
        .then_some(self.next_beat);
        let expiry = Color::ALL
            .into_iter()
            .flat_map(|c| self.presence.get(c).elsewhere.values().copied())
            .chain(self.watching.oldest())
            .min()
            .map(|heard| heard + lifetime);
        beat.into_iter().chain(expiry).min()
    }

    /// Says again which players this process holds a socket of, and how
    /// many spectators', when it is time, and forgets what other processes
    /// said too long ago.
    pub(super) fn on_presence_timer(&mut self) {
        let now = Instant::now();
        if now >= self.next_beat {
            self.next_beat = now + self.hub.config().presence_heartbeat;
            self.announce_held(Notice::Here);
            self.announce_watching();
        }
        self.forget_silent_watchers(now, self.presence_lifetime());
        if self.refresh_presence() {
            // A process that played the computer for its player may have
            // fallen silent.
            self.maybe_think();
            self.publish_or_stop();
        }
    }

    /// Says `notice` of every player this process holds a socket of:
    /// [`Notice::Here`] again and again, [`Notice::Gone`] as it shuts down,
    /// so that the others need not wait for the lifetime.
    pub(super) fn announce_held(&self, notice: fn(Color) -> Notice) {
        for color in Color::ALL {
            if self.presence.get(color).connections > 0 {
                self.announce(notice(color));
            }
        }
    }

    /// What another process said of the players' sockets it holds.
    pub(super) fn heard(&mut self, process: u64, notice: Notice) {
        match notice {
            Notice::Here(color) => {
                self.presence
                    .get_mut(color)
                    .elsewhere
                    .insert(process, Instant::now());
            }
            Notice::Gone(color) => {
                self.presence.get_mut(color).elsewhere.remove(&process);
            }
            Notice::Ask => {
                self.announce_held(Notice::Here);
                self.announce_watching();
                return;
            }
            Notice::Watching(count) => {
                self.heard_watching(process, count);
                return;
            }
        }
        if self.refresh_presence() {
            // The player may have left the process that played the
            // computer for them: this one may have to now.
            self.maybe_think();
            self.publish_or_stop();
        }
    }

    /// Forgets what other processes said longer than the lifetime ago,
    /// then sees who is connected anywhere; a player who has just left
    /// the last of their sockets starts the abandonment clock. Whether
    /// anyone's `connected` changed.
    pub(super) fn refresh_presence(&mut self) -> bool {
        let now = Instant::now();
        let lifetime = self.presence_lifetime();
        let mut changed = false;
        for color in Color::ALL {
            let p = self.presence.get_mut(color);
            p.elsewhere.retain(|_, heard| *heard + lifetime > now);
            let connected = p.connections > 0 || !p.elsewhere.is_empty();
            if p.connected && !connected {
                p.away_since = now;
            }
            changed |= p.connected != connected;
            p.connected = connected;
        }
        changed
    }

    /// Whether the player to move has been away, from every process, for
    /// the configured delay.
    pub(super) fn abandoned(&self) -> bool {
        let mover = self.presence.get(self.game.position.turn());
        self.game.result.is_none()
            && self.game.computer.is_none()
            && !self.by_correspondence()
            && self.both_joined()
            && !mover.connected
            && mover.away_since.elapsed() >= self.hub.config().abandon_after
    }

    /// When the state must be published again because the player to move
    /// will have been away long enough.
    pub(super) fn abandon_deadline(&self) -> Option<Instant> {
        let mover = self.presence.get(self.game.position.turn());
        let pending = self.game.result.is_none()
            && self.game.computer.is_none()
            && !self.by_correspondence()
            && self.both_joined()
            && !mover.connected
            && !self.shown_abandoned;
        pending.then(|| mover.away_since + self.hub.config().abandon_after)
    }

    /// Whether the game is played by correspondence: its players are
    /// expected to be away, and only the clock decides who took too long.
    fn by_correspondence(&self) -> bool {
        matches!(
            self.game.clock.map(|c| c.control),
            Some(TimeControl::Correspondence { .. })
        )
    }
}
