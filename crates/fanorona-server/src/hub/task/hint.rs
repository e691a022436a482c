//! Hints in a game against the computer, budgeted: one search at a time,
//! shared by everyone who asks for the same position while it runs,
//! remembered for the positions already answered, at most
//! `--hints-per-minute` searched, and dropped as soon as nobody can use
//! the answer (the game moved on, or everyone who asked has gone).
//!
//! A hint never shares the computer's own search: a hint is for the
//! person to move, and the computer searches only positions where it is
//! to move, so the two are never of the same position.

use std::{collections::VecDeque, num::NonZeroU32};

use axum::extract::ws::Utf8Bytes;
use fanorona::{Position, Turn};
use governor::{
    clock::{Clock, DefaultClock},
    DefaultDirectRateLimiter, Quota, RateLimiter,
};
use tokio::sync::oneshot::error::RecvError;

use super::super::Reply;
use crate::{computer::Ticket, error::AppError, protocol::ServerMsg};

/// How many answers a game remembers: a takeback or two brings a player
/// back to a position they asked about.
const REMEMBERED: usize = 8;

/// How many may wait for one search: the sockets one address may hold on
/// a game, twice over, and a few requests over HTTP.
const MOST_WAITERS: usize = 64;

/// How many hints may be searched at once, before the rate applies.
const BURST: u32 = 3;

/// The hints of one game.
#[derive(Debug)]
pub(super) struct Hints {
    /// The search under way, if any.
    pending: Option<Pending>,
    /// The last answers, newest last.
    answers: VecDeque<(Position, Utf8Bytes)>,
    /// The hints searched, against `--hints-per-minute`.
    budget: DefaultDirectRateLimiter,
}

/// A hint search under way.
#[derive(Debug)]
struct Pending {
    position: Position,
    ticket: Ticket,
    waiters: Vec<Reply<Utf8Bytes>>,
}

/// What happened to the search under way.
#[derive(Debug)]
pub(super) enum Event {
    /// It answered (an error: the pool stopped).
    Answer(Result<Option<Turn>, RecvError>),
    /// Everyone who asked has gone.
    Abandoned,
}

impl Hints {
    /// No hint yet, with `per_minute` searches a minute.
    pub(super) fn new(per_minute: u32) -> Hints {
        let per_minute = NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(BURST).unwrap_or(NonZeroU32::MIN);
        Hints {
            pending: None,
            answers: VecDeque::new(),
            budget: RateLimiter::direct(Quota::per_minute(per_minute).allow_burst(burst)),
        }
    }

    /// The answer already found for `position`, if any.
    pub(super) fn known(&self, position: &Position) -> Option<Utf8Bytes> {
        self.answers
            .iter()
            .find(|(p, _)| p == position)
            .map(|(_, answer)| answer.clone())
    }

    /// Adds `reply` to those waiting for the search of `position`, if one
    /// is under way with room; otherwise gives `reply` back.
    pub(super) fn join(
        &mut self,
        position: &Position,
        reply: Reply<Utf8Bytes>,
    ) -> Result<(), Reply<Utf8Bytes>> {
        match &mut self.pending {
            Some(p) if p.position == *position && p.waiters.len() < MOST_WAITERS => {
                p.waiters.push(reply);
                Ok(())
            }
            _ => Err(reply),
        }
    }

    /// Counts one more hint searched.
    ///
    /// # Errors
    ///
    /// [`AppError::HintLimit`], with the seconds until the next, past the
    /// budget.
    pub(super) fn spend(&mut self) -> Result<(), AppError> {
        self.budget.check().map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            AppError::HintLimit(wait.as_secs() + 1)
        })
    }

    /// Follows the search of `position` in `ticket`, for `reply`.
    pub(super) fn start(&mut self, position: Position, ticket: Ticket, reply: Reply<Utf8Bytes>) {
        self.stop();
        self.pending = Some(Pending {
            position,
            ticket,
            waiters: vec![reply],
        });
    }

    /// Completes when the search under way answers or is abandoned; never
    /// when there is none.
    pub(super) async fn next(&mut self) -> Event {
        let Some(pending) = &mut self.pending else {
            return std::future::pending().await;
        };
        let waiters = &mut pending.waiters;
        let gone = async {
            for waiter in waiters.iter_mut() {
                waiter.closed().await;
            }
        };
        tokio::select! {
            answer = &mut pending.ticket.answer => Event::Answer(answer),
            () = gone => Event::Abandoned,
        }
    }

    /// Handles what happened to the search under way: an answer goes to
    /// everyone waiting and is remembered; a search nobody waits for any
    /// more is dropped, which stops it.
    pub(super) fn on_event(&mut self, event: Event) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        let answer = match event {
            Event::Answer(Ok(best)) => {
                let text = Utf8Bytes::from(message(&pending.position, best.as_ref()));
                self.answers.push_back((pending.position, text.clone()));
                if self.answers.len() > REMEMBERED {
                    self.answers.pop_front();
                }
                Some(text)
            }
            // The pool stopped: the server is shutting down.
            Event::Answer(Err(_)) => None,
            Event::Abandoned => return,
        };
        for waiter in pending.waiters {
            let _ = waiter.send(answer.clone().ok_or(AppError::Unavailable));
        }
    }

    /// Drops the search under way unless the game is still at its
    /// position and on: those waiting get [`AppError::HintOutdated`].
    pub(super) fn follow(&mut self, position: &Position, on: bool) {
        if self
            .pending
            .as_ref()
            .is_some_and(|p| !on || p.position != *position)
        {
            self.stop();
        }
    }

    /// Drops the search under way, if any: those waiting get
    /// [`AppError::HintOutdated`].
    pub(super) fn stop(&mut self) {
        if let Some(pending) = self.pending.take() {
            for waiter in pending.waiters {
                let _ = waiter.send(Err(AppError::HintOutdated));
            }
        }
    }
}

/// The hint message for `position`: the first step of `best`, or the end
/// of the turn when `best` stops the chain at once.
fn message(position: &Position, best: Option<&Turn>) -> String {
    let step = best.and_then(|turn| turn.steps().next().flatten());
    let end_turn = best.is_some() && step.is_none() && position.chain().is_some();
    ServerMsg::Hint {
        step,
        end_turn,
        turn: best.filter(|_| step.is_some()).map(ToString::to_string),
    }
    .to_json()
}
