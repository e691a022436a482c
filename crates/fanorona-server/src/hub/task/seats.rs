//! The seats: sockets that connect and disconnect, who holds which seat,
//! the invitation, joining, and the seats of a rematch.

use std::net::IpAddr;

use fanorona::{ByColor, Color};
use tokio::time::Instant;

use super::{GameTask, Invitation, Joined};
use crate::{
    error::AppError,
    game::{ComputerSeat, Role, Score},
    ids::{GameId, Secret},
    store::{GameRow, Notice, StoreError},
};

impl GameTask {
    /// Counts a connection from `client`, holding `seat` if any.
    pub(super) fn connect(
        &mut self,
        seat: Option<Color>,
        client: IpAddr,
    ) -> Result<Role, AppError> {
        let count = self.sockets.entry(client).or_default();
        if *count >= self.hub.config().sockets_per_game {
            return Err(AppError::TooManyConnections);
        }
        *count += 1;
        let role = match seat {
            Some(color) => Role::Player(color),
            None => Role::Spectator,
        };
        if let Role::Player(color) = role {
            if self.is_computer(!color) {
                self.opponent.connected(client);
            }
            let p = self.presence.get_mut(color);
            p.connections += 1;
            if p.connections == 1 {
                self.announce(Notice::Here(color));
                let now = Instant::now();
                if self.next_beat <= now {
                    self.next_beat = now + self.hub.config().presence_heartbeat;
                }
            }
            // The player is here now: this process plays the computer.
            self.maybe_think();
            self.publish_or_stop();
        } else {
            self.spectator(true);
            if self.game.deadline().is_some() {
                // A running clock is shown to it as it is now.
                self.publish_or_stop();
            }
        }
        Ok(role)
    }

    pub(super) fn disconnect(&mut self, role: Role, client: IpAddr) {
        if let Some(count) = self.sockets.get_mut(&client) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.sockets.remove(&client);
            }
        }
        if let Role::Player(color) = role {
            // A socket of the person closed: the computer plays for them
            // again when they come back.
            self.opponent.left();
            let p = self.presence.get_mut(color);
            let was = p.connections;
            p.connections = p.connections.saturating_sub(1);
            if was == 1 {
                self.announce(Notice::Gone(color));
            }
            self.publish_or_stop();
        } else {
            self.spectator(false);
        }
    }

    pub(super) fn seat_of(&self, secret: &Secret) -> Option<Color> {
        Color::ALL.into_iter().find(|&c| {
            self.row
                .seats
                .get(c)
                .as_ref()
                .is_some_and(|h| h.matches(secret))
        })
    }

    /// The seat `secret` holds. When it holds none here and another
    /// process may have given it a seat a moment ago (its notice not yet
    /// heard), the game is read again from the store first.
    pub(super) async fn seat_of_fresh(&mut self, secret: &Secret) -> Option<Color> {
        if let Some(color) = self.seat_of(secret) {
            return Some(color);
        }
        if !self.hub.inner.shared {
            return None;
        }
        self.resync().await;
        self.seat_of(secret)
    }

    /// Whether both seats are taken; the computer's counts as taken.
    pub(super) fn both_joined(&self) -> bool {
        Color::ALL
            .into_iter()
            .all(|c| self.row.seats.get(c).is_some() || self.is_computer(c))
    }

    pub(super) fn is_computer(&self, color: Color) -> bool {
        self.game.computer.is_some_and(|seat| seat.color == color)
    }

    pub(super) fn rematch_row(&self) -> Result<GameRow, AppError> {
        Ok(GameRow {
            id: GameId::random()?,
            created_at: self.hub.config().wall.now_seconds(),
            // The same start as this game: a custom one too.
            start_position: self.row.start_position.clone(),
            creator: !self.row.creator,
            seats: ByColor {
                white: self.row.seats.black,
                black: self.row.seats.white,
            },
            invite: Secret::random()?.hash(),
            rematch_of: Some(self.row.id.clone()),
            next_game: None,
            computer: self.game.computer.map(|seat| ComputerSeat {
                color: !seat.color,
                level: seat.level,
            }),
            time_control: self.row.time_control,
            // The score so far, this game's result included (a rematch
            // follows a game that is over), in the rematch's colours.
            score: Some(
                self.score_after(self.row.score.unwrap_or_default())
                    .swapped(),
            ),
        })
    }

    /// The score of the match, in this game's colours, for a rematch: the
    /// games before it, and itself once it is over; `None` for a first
    /// game.
    pub(super) fn score(&self) -> Option<Score> {
        self.row.score.map(|before| self.score_after(before))
    }

    /// `before` with this game's result once it is over.
    fn score_after(&self, before: Score) -> Score {
        self.game
            .result
            .map_or(before, |result| before.with(result))
    }

    pub(super) fn expired(&self) -> bool {
        !self.both_joined()
            && self
                .hub
                .site()
                .invitation_expired(self.row.created_at, self.hub.config().wall.now_seconds())
    }

    /// The seat free for a joiner, if any: never the computer's.
    pub(super) fn free_seat(&self) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&c| self.row.seats.get(c).is_none() && !self.is_computer(c))
    }

    pub(super) fn invitation(&self, invite: &Secret, holder: Option<&Secret>) -> Invitation {
        if let Some(color) = holder.and_then(|h| self.seat_of(h)) {
            return Invitation::Holder(color);
        }
        if !self.row.invite.matches(invite) {
            return Invitation::Wrong;
        }
        match self.free_seat() {
            Some(color) => Invitation::Open(color, self.row.time_control),
            None => Invitation::Used,
        }
    }

    pub(super) async fn join(
        &mut self,
        invite: Secret,
        holder: Option<Secret>,
        keyed: Option<Secret>,
    ) -> Result<Joined, AppError> {
        self.join_once(invite, holder, keyed, false).await
    }

    /// [`GameTask::join`], `retried` once after another process took the
    /// seat first.
    pub(super) async fn join_once(
        &mut self,
        invite: Secret,
        holder: Option<Secret>,
        keyed: Option<Secret>,
        retried: bool,
    ) -> Result<Joined, AppError> {
        if let Some(holder) = holder.as_ref() {
            if let Some(color) = self.seat_of(holder) {
                return Ok(Joined::Already(color, holder.clone()));
            }
        }
        if !self.row.invite.matches(&invite) {
            return Err(AppError::WrongInvite);
        }
        if let Some(keyed) = keyed.as_ref() {
            if let Some(color) = self.seat_of(keyed) {
                return Ok(Joined::Again(color, keyed.clone()));
            }
        }
        let Some(color) = self.free_seat() else {
            return Ok(Joined::Spectator);
        };
        if self.expired() {
            return Err(AppError::InvitationExpired);
        }
        let secret = match keyed.clone() {
            Some(secret) => secret,
            None => Secret::random()?,
        };
        let hash = secret.hash();
        let claimed = self.hub.inner.store.claim_seat(&self.row.id, color, &hash);
        match claimed.await {
            Ok(()) => {}
            // Another process gave the seat a moment ago: read the game
            // again and answer as if that had been known (the same key's
            // seat again, or a spectator).
            Err(StoreError::Conflict) if self.hub.inner.shared && !retried => {
                self.resync().await;
                if self.stale {
                    return Err(AppError::Unavailable);
                }
                return Box::pin(self.join_once(invite, holder, keyed, true)).await;
            }
            Err(error) => {
                self.resync().await;
                return Err(AppError::not_saved(error));
            }
        }
        *self.row.seats.get_mut(color) = Some(hash);
        tracing::info!(game = %self.row.id, "seat taken");
        self.publish()?;
        Ok(Joined::Seated(color, secret))
    }
}
