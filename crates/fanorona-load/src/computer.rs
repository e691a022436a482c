//! Games against the computer, beside the games between people: one
//! WebSocket client per game plays the person's side with random legal
//! steps at the run's pace, and the server's computer replies. A game that
//! ends is followed by the next, so the computer's load stays the same
//! through the window. Their figures are counted apart from the relay's.

use std::{
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc,
    },
    time::Duration,
};

use futures_util::{SinkExt, StreamExt};
use tokio::{
    sync::{watch, Semaphore},
    time::{sleep, sleep_until, timeout, Instant},
};
use tokio_tungstenite::tungstenite::{self, Message};

use crate::{
    game::{disconnect_kind, first_state, Pace, Phase, STATE_TIMEOUT},
    reply::{Replies, Waiting},
    stats::{Snapshot, Stats},
    wire::{self, ServerMsg, Socket, Target, WireError},
};

/// How long the computer's reply may take before the game is given up.
/// Far above a reply's real worst case: every other game's search ahead
/// of it in the queue, each stopped at `--engine-max-time` (5 s), for 50
/// games on one thread.
const REPLY_TIMEOUT: Duration = Duration::from_secs(300);

/// What every slot of the games against the computer shares.
#[derive(Debug)]
pub struct ComputerCtx {
    /// The HTTP client for create.
    pub http: reqwest::Client,
    /// The servers; slot `i` uses target `i % len`.
    pub targets: Vec<Target>,
    /// The person's pace, the same as the games between people.
    pub pace: Pace,
    /// The computer's level, 1 to 6.
    pub level: u8,
    /// Counters.
    pub tally: Arc<Tally>,
    /// Limits the games being set up at once.
    pub setup: Semaphore,
}

/// The counters of the games against the computer, apart from the
/// relay's.
#[derive(Debug, Default)]
pub struct Tally {
    /// The reply times (counted as the steps' latencies, in the window
    /// only), errors, disconnects, open sockets and ready slots.
    pub stats: Stats,
    turns: AtomicU64,
    started: AtomicU64,
    finished: AtomicU64,
}

/// The counters of the games against the computer at the end of the
/// window.
#[derive(Clone, Debug)]
pub struct TallySnapshot {
    /// The computer's turns completed in the window.
    pub turns: u64,
    /// Games set up in the window.
    pub started: u64,
    /// Games played to their end in the window.
    pub finished: u64,
    /// Replies (`steps`) and their times (`latency_us`), errors and
    /// disconnects.
    pub stats: Snapshot,
}

impl Tally {
    /// Empty counters, not recording.
    pub fn new() -> Tally {
        Tally::default()
    }

    fn count(&self, counter: &AtomicU64) {
        if self.stats.recording() {
            counter.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The counters now.
    pub fn snapshot(&self) -> TallySnapshot {
        TallySnapshot {
            turns: self.turns.load(Ordering::Relaxed),
            started: self.started.load(Ordering::Relaxed),
            finished: self.finished.load(Ordering::Relaxed),
            stats: self.stats.snapshot(),
        }
    }
}

/// Whether the person steps in this phase: from the warm-up on.
fn playing(phase: Phase) -> bool {
    matches!(phase, Phase::Warm | Phase::Measure)
}

/// Plays games against the computer in slot `slot` until the phase
/// becomes [`Phase::Stop`].
pub async fn run_slot(ctx: Arc<ComputerCtx>, slot: usize, mut phase: watch::Receiver<Phase>) {
    let Some(target) = ctx.targets.get(slot % ctx.targets.len().max(1)) else {
        return;
    };
    let stats = &ctx.tally.stats;
    let mut rng = fastrand::Rng::new();
    let mut first = true;
    while *phase.borrow() != Phase::Stop {
        let setup = async {
            let _permit = ctx.setup.acquire().await;
            open_game(&ctx, target).await
        };
        let game = tokio::select! {
            game = setup => game,
            _ = phase.wait_for(|p| *p == Phase::Stop) => return,
        };
        match game {
            Ok(game) => {
                ctx.tally.count(&ctx.tally.started);
                if std::mem::take(&mut first) {
                    stats.ready.fetch_add(1, Ordering::SeqCst);
                }
                play_game(&ctx, game, &mut phase, &mut rng).await;
            }
            Err(error) => {
                stats.error(&error.kind);
                tokio::select! {
                    () = sleep(Duration::from_millis(500 + rng.u64(..1000))) => {}
                    _ = phase.wait_for(|p| *p == Phase::Stop) => return,
                }
            }
        }
    }
}

/// A game against the computer with the person connected.
#[derive(Debug)]
pub struct Game {
    socket: Socket,
    /// The person's seat: 0 for White, 1 for Black.
    me: usize,
    /// The last state seen.
    last: ServerMsg,
}

/// Creates a game against the computer at the context's level and
/// connects the person.
///
/// # Errors
///
/// A refused create, a failed connection, or no first state.
pub async fn open_game(ctx: &ComputerCtx, target: &Target) -> Result<Game, WireError> {
    let stats = &ctx.tally.stats;
    let seat = wire::create_against_computer(&ctx.http, target, ctx.level).await?;
    let url = format!("{}/api/games/{}/ws", target.ws, seat.game_id);
    let mut socket = wire::connect(&url, Some(&seat.seat)).await?;
    stats.add_sockets(1);
    match first_state(&mut socket, stats).await {
        Ok(last) => Ok(Game {
            socket,
            me: seat.me,
            last,
        }),
        Err(e) => {
            stats.add_sockets(-1);
            Err(e)
        }
    }
}

enum Event {
    Phase,
    Frame(Option<Result<Message, tungstenite::Error>>),
    StepDue,
    Late,
}

/// How a frame left the game.
#[derive(PartialEq, Eq)]
enum After {
    Playing,
    Over,
    Lost,
}

/// Plays `game` until it ends, its socket drops, a wait times out or the
/// run stops, then closes it. The person steps only in
/// [`Phase::Warm`] and [`Phase::Measure`], each step after a think time
/// drawn from the pace.
pub async fn play_game(
    ctx: &ComputerCtx,
    mut game: Game,
    phase: &mut watch::Receiver<Phase>,
    rng: &mut fastrand::Rng,
) {
    let stats = &ctx.tally.stats;
    let mut replies = Replies::new(game.me);
    let start = Instant::now();
    replies.state(game.last.seq, game.last.mover(), game.last.is_over(), start);
    let mut due = None;
    loop {
        if due.is_none() && replies.my_turn() && playing(*phase.borrow()) {
            due = Some(ctx.pace.next(Instant::now(), rng));
        }
        let waiting = replies.waiting();
        let deadline = match waiting {
            Some(Waiting::Step(at)) => at + STATE_TIMEOUT,
            Some(Waiting::Reply(at)) => at + REPLY_TIMEOUT,
            None => start,
        };
        let event = tokio::select! {
            changed = phase.changed() => match changed {
                Ok(()) => Event::Phase,
                Err(_) => break,
            },
            frame = game.socket.next() => Event::Frame(frame),
            () = sleep_until(due.unwrap_or(start)), if due.is_some() => Event::StepDue,
            () = sleep_until(deadline), if waiting.is_some() => Event::Late,
        };
        match event {
            Event::Phase => {
                let now = *phase.borrow();
                if now == Phase::Stop {
                    break;
                }
                // The first step after the ramp: spread over an interval,
                // as the games between people do when the window opens.
                if playing(now) && due.is_none() && replies.my_turn() {
                    if let Pace::Open(interval) = ctx.pace {
                        due = Some(Instant::now() + interval.mul_f64(rng.f64()));
                    }
                }
            }
            Event::Frame(frame) => match on_frame(&ctx.tally, &mut game, &mut replies, frame) {
                After::Playing => {}
                After::Over => break,
                After::Lost => {
                    stats.add_sockets(-1);
                    return;
                }
            },
            Event::StepDue => {
                due = None;
                if !send_step(stats, &mut game, &mut replies, rng).await {
                    stats.add_sockets(-1);
                    return;
                }
                if replies.my_turn() {
                    // Nothing to send: look again a little later.
                    let now = Instant::now();
                    due = Some(
                        ctx.pace
                            .next(now, rng)
                            .max(now + Duration::from_millis(100)),
                    );
                }
            }
            Event::Late => {
                let kind = match waiting {
                    Some(Waiting::Reply(_)) => "computer_reply_timeout",
                    _ => "state_timeout",
                };
                stats.error(kind);
                break;
            }
        }
    }
    let _ = timeout(Duration::from_secs(2), game.socket.close(None)).await;
    stats.add_sockets(-1);
}

/// Handles one frame of the person's socket.
fn on_frame(
    tally: &Tally,
    game: &mut Game,
    replies: &mut Replies,
    frame: Option<Result<Message, tungstenite::Error>>,
) -> After {
    let stats = &tally.stats;
    let text = match frame {
        Some(Ok(Message::Text(text))) => text,
        Some(Ok(Message::Close(_))) => {
            stats.disconnect("closed_by_server");
            return After::Lost;
        }
        Some(Ok(_)) => return After::Playing,
        Some(Err(e)) => {
            stats.disconnect(&disconnect_kind(&e));
            return After::Lost;
        }
        None => {
            stats.disconnect("stream_ended");
            return After::Lost;
        }
    };
    stats.message(text.len());
    let msg = match ServerMsg::parse(text.as_str()) {
        Ok(msg) => msg,
        Err(e) => {
            stats.error(&e.kind);
            return After::Playing;
        }
    };
    match msg.kind.as_str() {
        "state" => {
            let seen = replies.state(msg.seq, msg.mover(), msg.is_over(), Instant::now());
            if let Some(reply) = seen.reply {
                stats.step(reply);
            }
            if seen.computer_turn {
                tally.count(&tally.turns);
            }
            game.last = msg;
            if seen.over {
                tally.count(&tally.finished);
                return After::Over;
            }
        }
        "error" => {
            let code = msg.code.as_deref().unwrap_or("unknown");
            stats.error(&format!("server_error_{code}"));
            let last = &game.last;
            replies.refused(!last.is_over() && last.mover() == Some(game.me));
        }
        _ => {}
    }
    After::Playing
}

/// Sends a random legal intent for the person when it is their turn;
/// false when the socket is gone.
async fn send_step(
    stats: &Stats,
    game: &mut Game,
    replies: &mut Replies,
    rng: &mut fastrand::Rng,
) -> bool {
    if !replies.my_turn() {
        return true;
    }
    let Some(intent) = game.last.random_intent(rng) else {
        return true;
    };
    let seq = game.last.seq + 1;
    let sent = Instant::now();
    if let Err(e) = game.socket.send(Message::Text(intent.into())).await {
        stats.disconnect(&format!("send_{}", disconnect_kind(&e)));
        return false;
    }
    replies.sent(seq, sent);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_person_steps_from_the_warm_up_on() {
        assert!(!playing(Phase::Ramp));
        assert!(playing(Phase::Warm));
        assert!(playing(Phase::Measure));
        assert!(!playing(Phase::Stop));
    }

    #[test]
    fn only_the_window_is_counted() {
        let tally = Tally::new();
        tally.count(&tally.turns);
        tally.stats.set_recording(true);
        tally.count(&tally.turns);
        tally.count(&tally.finished);
        tally.stats.step(Duration::from_millis(700));
        tally.stats.set_recording(false);
        tally.count(&tally.started);
        let snap = tally.snapshot();
        assert_eq!((snap.turns, snap.finished, snap.started), (1, 1, 0));
        assert_eq!(snap.stats.steps, 1);
        assert!(snap.stats.latency_us[0] >= 699_000 && snap.stats.latency_us[0] <= 701_000);
    }
}
