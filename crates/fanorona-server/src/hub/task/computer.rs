//! The computer's seat in a game's task: it asks the pool for a turn when
//! the computer is to move and the person it plays is here to see it,
//! then plays the turn's steps one at a time through the same plan, store
//! and publish path as a person's intents.

use std::{collections::VecDeque, net::IpAddr, time::Duration};

use fanorona::{Position, Turn};
use tokio::{
    sync::oneshot::error::RecvError,
    time::{sleep_until, Instant},
};

use crate::{
    computer::{seed, Busy, Request, Search, Ticket},
    game::{Action, Intent},
    limits::Held,
};

use super::GameTask;

/// How long a game waits to ask again when the pool's queue was full.
const RETRY: Duration = Duration::from_secs(1);

/// What the computer is doing in one game.
#[derive(Debug, Default)]
pub(super) enum Computer {
    /// Nothing: not its turn, or not a game against it.
    #[default]
    Idle,
    /// Searching the game as it was after `seq` actions, since `since`.
    Thinking {
        seq: u64,
        ticket: Ticket,
        since: Instant,
    },
    /// Playing out its turn: the steps left, the next one due `at`, on the
    /// game as it was after `seq` actions.
    Playing {
        seq: u64,
        steps: VecDeque<Intent>,
        at: Instant,
    },
    /// The pool's queue was full: ask again `at`.
    Waiting { at: Instant },
}

/// The person the computer plays against, as the search threads count
/// them: the computer's searches take that client's turn in the pool's
/// queue, and the game counts among the client's games against the
/// computer while the computer plays for them.
#[derive(Debug, Default)]
pub(super) struct Opponent {
    /// The client address of the person's latest socket or request.
    client: Option<IpAddr>,
    /// The person asked over HTTP (created the game, or sent an intent),
    /// and no socket of theirs has closed since: a program playing over
    /// HTTP, or a page about to open its socket.
    called: bool,
    /// The game's place among the client's games against the computer.
    hold: Option<Held>,
}

impl Opponent {
    /// The creator of the game is here from `client`, over HTTP, and
    /// `held` counts the game for them.
    pub(super) fn summoned(&mut self, client: IpAddr, held: Held) {
        self.client = Some(client);
        self.called = true;
        self.hold = Some(held);
    }

    /// The person sent an intent over HTTP from `client`.
    pub(super) fn called(&mut self, client: IpAddr) {
        self.client = Some(client);
        self.called = true;
    }

    /// A socket of the person opened from `client`.
    pub(super) fn connected(&mut self, client: IpAddr) {
        self.client = Some(client);
    }

    /// A socket of the person closed: they are here only while another
    /// socket of theirs is.
    pub(super) fn left(&mut self) {
        self.called = false;
    }
}

/// What woke the computer up.
#[derive(Debug)]
pub(super) enum Event {
    /// The search answered (an error: the pool stopped).
    Answer(Result<Option<Turn>, RecvError>),
    /// The next step, or the next try, is due.
    Due,
}

impl Computer {
    /// Whether the state shows the computer thinking.
    pub(super) fn busy(&self) -> bool {
        !matches!(self, Computer::Idle)
    }

    /// Completes when the computer has something to do; never when idle.
    pub(super) async fn next(&mut self) -> Event {
        match self {
            Computer::Idle => std::future::pending().await,
            Computer::Thinking { ticket, .. } => Event::Answer((&mut ticket.answer).await),
            Computer::Playing { at, .. } | Computer::Waiting { at } => {
                sleep_until(*at).await;
                Event::Due
            }
        }
    }

    /// After an action that changed nothing on the board (a hint, a new
    /// level), made when the game had `before` actions: the search or
    /// the turn under way still fits the game, now at `after`.
    pub(super) fn still_fits(&mut self, before: u64, after: u64) {
        if let Computer::Thinking { seq, .. } | Computer::Playing { seq, .. } = self {
            if *seq == before {
                *seq = after;
            }
        }
    }
}

/// The intents that play `turn` from `position`: its steps, and an end of
/// turn when its last capture leaves the chain open (or it is only that:
/// stopping a chain).
pub(super) fn intents(position: &Position, turn: &Turn) -> Option<VecDeque<Intent>> {
    let mut pos = *position;
    let mut out = VecDeque::new();
    for step in turn.steps() {
        let step = step?;
        pos = pos.play_step(step).ok()?;
        out.push_back(Intent::Step {
            from: step.from(),
            to: step.to(),
            kind: step.kind(),
        });
    }
    if pos.chain().is_some() {
        out.push_back(Intent::EndTurn);
    }
    Some(out)
}

impl GameTask {
    /// Whether this process plays the computer for the person now: the
    /// game is on, and the person has a socket here, or none anywhere and
    /// [called](Opponent::called) over HTTP.
    ///
    /// With several processes on one database, the one holding the
    /// player's socket plays the computer; the others leave it to that
    /// one, or every search would be run once per process that has the
    /// game (a spectator elsewhere is enough) and all but one thrown away.
    /// Nobody searches for a person who is not here: their searches would
    /// take the threads from those who are. A turn still owed is played
    /// when they come back.
    fn serves_computer(&self) -> bool {
        let Some(seat) = self.game.computer else {
            return false;
        };
        let person = self.presence.get(!seat.color);
        self.game.result.is_none()
            && (person.connections > 0 || (!person.connected && self.opponent.called))
    }

    /// Brings the computer in line with who is here, before a state is
    /// published: a search nobody is here for is dropped, which stops it,
    /// and the game counts among its client's games against the computer
    /// exactly while the computer plays for them.
    pub(super) fn settle_computer(&mut self) {
        if self.serves_computer() {
            if self.opponent.hold.is_none() {
                let games = &self.hub.inner.computer_games;
                self.opponent.hold = self.opponent.client.map(|c| games.acquire_anyway(c));
            }
        } else {
            self.opponent.hold = None;
            if matches!(
                self.computer,
                Computer::Thinking { .. } | Computer::Waiting { .. }
            ) {
                tracing::debug!(game = %self.row.id, "the person left: the computer's search is dropped");
                self.computer = Computer::Idle;
            }
        }
    }

    /// [`GameTask::maybe_think`], then publishes the state if the computer
    /// started thinking.
    pub(super) fn resume_computer(&mut self) {
        if !self.computer.busy() {
            self.maybe_think();
            if self.computer.busy() {
                self.publish_or_stop();
            }
        }
    }

    /// Asks the pool for the computer's turn if it is to move in a game
    /// that is on, for a person who is here, and nothing is under way. The
    /// state published next shows it thinking.
    pub(super) fn maybe_think(&mut self) {
        if self.computer.busy() || !self.game.computer_to_move() || !self.serves_computer() {
            return;
        }
        let (Some(seat), Some(client)) = (self.game.computer, self.opponent.client) else {
            return;
        };
        let request = Request {
            client,
            game: self.row.id.clone(),
            position: self.game.position,
            search: Search::Play {
                level: seat.level,
                seed: seed(&self.row.id, self.game.seq),
            },
        };
        let pool = &self.hub.inner.computer;
        self.computer = match pool.submit(request) {
            Ok(ticket) => Computer::Thinking {
                seq: self.game.seq,
                ticket,
                since: Instant::now(),
            },
            Err(Busy) => {
                tracing::warn!(game = %self.row.id, "the computer's queue is full: asking again soon");
                Computer::Waiting {
                    at: Instant::now() + RETRY,
                }
            }
        };
    }

    /// Handles what woke the computer up.
    pub(super) async fn on_computer(&mut self, event: Event) {
        match (std::mem::take(&mut self.computer), event) {
            (Computer::Thinking { seq, since, .. }, Event::Answer(Ok(Some(turn))))
                if seq == self.game.seq =>
            {
                let Some(steps) = intents(&self.game.position, &turn) else {
                    tracing::error!(game = %self.row.id, %turn, "the engine's turn does not fit");
                    self.publish_or_stop();
                    return;
                };
                let at = (since + self.hub.config().computer_min_think).max(Instant::now());
                self.computer = Computer::Playing { seq, steps, at };
            }
            (Computer::Thinking { .. }, Event::Answer(Err(_))) => {
                // The pool stopped: the server is shutting down.
                self.publish_or_stop();
            }
            (Computer::Playing { seq, steps, .. }, Event::Due) if seq == self.game.seq => {
                self.play_step(steps).await;
            }
            _ => {
                // The game changed since, or the try is due: start over.
                self.maybe_think();
                self.publish_or_stop();
            }
        }
    }

    /// Plays the first of `steps` for the computer, stored before it is
    /// published; the rest follow after the step delay.
    async fn play_step(&mut self, mut steps: VecDeque<Intent>) {
        let (Some(seat), Some(intent)) = (self.game.computer, steps.pop_front()) else {
            return;
        };
        let action = Action {
            by: seat.color,
            intent,
        };
        let plan = match self.game.plan(action, self.hub.config().wall.now_ms()) {
            Ok(plan) => plan,
            Err(error) => {
                tracing::error!(game = %self.row.id, %error, ?intent, "the computer's step is refused");
                self.publish_or_stop();
                return;
            }
        };
        if let Err(error) = self.commit(plan).await {
            tracing::warn!(game = %self.row.id, %error, "the computer's step was not played");
            self.computer = Computer::Waiting {
                at: Instant::now() + RETRY,
            };
            self.publish_or_stop();
            return;
        }
        if !steps.is_empty() && self.game.result.is_none() {
            self.computer = Computer::Playing {
                seq: self.game.seq,
                steps,
                at: Instant::now() + self.hub.config().computer_step_delay,
            };
        } else {
            self.maybe_think();
        }
        self.publish_or_stop();
    }
}
