//! One game slot: creates a game, connects both players (and spectators),
//! plays random legal steps at the chosen pace until the game ends or the
//! run stops, then starts the next game.

use std::{sync::Arc, time::Duration};

use futures_util::{SinkExt, StreamExt};
use tokio::{
    sync::{watch, Semaphore},
    time::{sleep, sleep_until, timeout, Instant},
};
use tokio_tungstenite::tungstenite::{self, Message};

use crate::{
    stats::Stats,
    wire::{self, ServerMsg, Socket, Target, WireError},
};

/// How long a step may wait for the new state before it counts as lost.
pub(crate) const STATE_TIMEOUT: Duration = Duration::from_secs(10);

/// The run's phases, broadcast to every slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Creating games and connecting; nobody steps yet.
    Ramp,
    /// Everything is connected; only the games against the computer play,
    /// so that the computer is as busy when the window opens as during it.
    Warm,
    /// The measured window: games step.
    Measure,
    /// Close everything.
    Stop,
}

/// How often games step.
#[derive(Clone, Copy, Debug)]
pub enum Pace {
    /// One step per game every `interval` on average, with jitter.
    Open(Duration),
    /// Each game steps as soon as both players have the last state.
    Closed,
}

impl Pace {
    /// When the next step is due, from `now`.
    pub fn next(self, now: Instant, rng: &mut fastrand::Rng) -> Instant {
        match self {
            Pace::Open(interval) => now + interval.mul_f64(0.5 + rng.f64()),
            Pace::Closed => now,
        }
    }
}

/// What every slot of a phase shares.
#[derive(Debug)]
pub struct Ctx {
    /// The HTTP client for create and join.
    pub http: reqwest::Client,
    /// The servers; slot `i` uses target `i % len`.
    pub targets: Vec<Target>,
    /// Stepping pace.
    pub pace: Pace,
    /// Spectator sockets per game.
    pub spectators: usize,
    /// Counters.
    pub stats: Arc<Stats>,
    /// Limits the games being set up at once.
    pub setup: Semaphore,
}

/// Plays games in slot `slot` until the phase becomes [`Phase::Stop`].
pub async fn run_slot(ctx: Arc<Ctx>, slot: usize, mut phase: watch::Receiver<Phase>) {
    let Some(target) = ctx.targets.get(slot % ctx.targets.len().max(1)) else {
        return;
    };
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
                ctx.stats
                    .games_started
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if std::mem::take(&mut first) {
                    ctx.stats
                        .ready
                        .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
                play(&ctx, game, &mut phase, &mut rng).await;
            }
            Err(error) => {
                ctx.stats.error(&error.kind);
                tokio::select! {
                    () = sleep(Duration::from_millis(500 + rng.u64(..1000))) => {}
                    _ = phase.wait_for(|p| *p == Phase::Stop) => return,
                }
            }
        }
    }
}

/// A game with both players connected, each having seen a state.
struct Game {
    players: [Player; 2],
    spectators: watch::Sender<bool>,
}

struct Player {
    socket: Socket,
    last: Option<ServerMsg>,
}

async fn open_game(ctx: &Ctx, target: &Target) -> Result<Game, WireError> {
    let seats = wire::create_and_join(&ctx.http, target).await?;
    let url = format!("{}/api/games/{}/ws", target.ws, seats.game_id);
    let white = wire::connect(&url, Some(&seats.white)).await?;
    ctx.stats.add_sockets(1);
    let black = match wire::connect(&url, Some(&seats.black)).await {
        Ok(black) => black,
        Err(e) => {
            ctx.stats.add_sockets(-1);
            return Err(e);
        }
    };
    ctx.stats.add_sockets(1);
    let mut players = [Player::new(white), Player::new(black)];
    for player in &mut players {
        if let Err(e) = player.first_state(&ctx.stats).await {
            ctx.stats.add_sockets(-2);
            return Err(e);
        }
    }
    let (done, watching) = watch::channel(false);
    for _ in 0..ctx.spectators {
        let socket = wire::connect(&url, None).await?;
        ctx.stats.add_sockets(1);
        tokio::spawn(spectate(socket, watching.clone(), ctx.stats.clone()));
    }
    Ok(Game {
        players,
        spectators: done,
    })
}

impl Player {
    fn new(socket: Socket) -> Player {
        Player { socket, last: None }
    }

    /// Reads until the first state.
    async fn first_state(&mut self, stats: &Stats) -> Result<(), WireError> {
        self.last = Some(first_state(&mut self.socket, stats).await?);
        Ok(())
    }
}

/// Reads `socket` until the first state, for at most [`STATE_TIMEOUT`].
pub(crate) async fn first_state(
    socket: &mut Socket,
    stats: &Stats,
) -> Result<ServerMsg, WireError> {
    let read = async {
        while let Some(frame) = socket.next().await {
            if let Ok(Message::Text(text)) = frame {
                stats.message(text.len());
                let msg = ServerMsg::parse(text.as_str())?;
                if msg.kind == "state" {
                    return Ok(msg);
                }
            } else if frame.is_err() {
                break;
            }
        }
        Err(WireError {
            kind: "closed_before_state".into(),
            detail: "no state".into(),
        })
    };
    timeout(STATE_TIMEOUT, read).await.unwrap_or(Err(WireError {
        kind: "first_state_timeout".into(),
        detail: "no state".into(),
    }))
}

/// A spectator: reads and counts until its game ends.
async fn spectate(mut socket: Socket, mut done: watch::Receiver<bool>, stats: Arc<Stats>) {
    loop {
        tokio::select! {
            frame = socket.next() => match frame {
                Some(Ok(Message::Text(text))) => stats.message(text.len()),
                Some(Ok(_)) => {}
                Some(Err(e)) => { stats.disconnect(&disconnect_kind(&e)); break; }
                None => { stats.disconnect("spectator_closed_by_server"); break; }
            },
            _ = done.changed() => {
                let _ = timeout(Duration::from_secs(2), socket.close(None)).await;
                break;
            }
        }
    }
    stats.add_sockets(-1);
}

/// The step waiting for its state.
struct Pending {
    seq: u64,
    sent: Instant,
    mover: usize,
    seen: [bool; 2],
}

enum Event {
    Phase,
    Frame(usize, Option<Result<Message, tungstenite::Error>>),
    StepDue,
    Timeout,
}

/// Plays `game` until it ends, a socket drops or the run stops.
async fn play(
    ctx: &Ctx,
    mut game: Game,
    phase: &mut watch::Receiver<Phase>,
    rng: &mut fastrand::Rng,
) {
    let stats = &ctx.stats;
    let mut pending: Option<Pending> = None;
    let mut due = ctx.pace.next(Instant::now(), rng);
    if let Pace::Open(interval) = ctx.pace {
        due = Instant::now() + interval.mul_f64(rng.f64());
    }
    loop {
        let measuring = *phase.borrow() == Phase::Measure;
        let over = game
            .players
            .iter()
            .all(|p| p.last.as_ref().is_some_and(ServerMsg::is_over));
        if over && pending.is_none() {
            stats
                .games_finished
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            break;
        }
        let can_step = measuring && pending.is_none() && !over;
        let deadline = pending.as_ref().map(|p| p.sent + STATE_TIMEOUT);
        let [white, black] = &mut game.players;
        let event = tokio::select! {
            changed = phase.changed() => match changed {
                Ok(()) => Event::Phase,
                Err(_) => break,
            },
            frame = white.socket.next() => Event::Frame(0, frame),
            frame = black.socket.next() => Event::Frame(1, frame),
            () = sleep_until(due), if can_step => Event::StepDue,
            () = sleep_until(deadline.unwrap_or(due)), if deadline.is_some() => Event::Timeout,
        };
        match event {
            Event::Phase => {
                let now = *phase.borrow();
                if now == Phase::Stop {
                    break;
                }
                // A first step drawn when the game was set up may have
                // fallen due during the ramp: draw it again from the
                // window's start, or every game of the ramp would step at
                // once when the window opens.
                if let (Phase::Measure, Pace::Open(interval)) = (now, ctx.pace) {
                    due = Instant::now() + interval.mul_f64(rng.f64());
                }
            }
            Event::Frame(i, frame) => {
                if !on_frame(stats, &mut game.players, i, frame, &mut pending) {
                    stats.add_sockets(-2);
                    let _ = game.spectators.send(true);
                    return;
                }
                if pending.is_none() {
                    if let Pace::Closed = ctx.pace {
                        due = Instant::now();
                    }
                }
            }
            Event::StepDue => {
                if let Some(p) = send_step(stats, &mut game.players, rng).await {
                    due = ctx.pace.next(p.sent, rng);
                    pending = Some(p);
                } else {
                    due = ctx
                        .pace
                        .next(Instant::now(), rng)
                        .max(Instant::now() + Duration::from_millis(100));
                }
            }
            Event::Timeout => {
                stats.error("state_timeout");
                pending = None;
            }
        }
    }
    close(game, stats).await;
}

/// Handles one frame of player `i`; false when the socket is gone.
fn on_frame(
    stats: &Stats,
    players: &mut [Player; 2],
    i: usize,
    frame: Option<Result<Message, tungstenite::Error>>,
    pending: &mut Option<Pending>,
) -> bool {
    let text = match frame {
        Some(Ok(Message::Text(text))) => text,
        Some(Ok(Message::Close(_))) => {
            stats.disconnect("closed_by_server");
            return false;
        }
        Some(Ok(_)) => return true,
        Some(Err(e)) => {
            stats.disconnect(&disconnect_kind(&e));
            return false;
        }
        None => {
            stats.disconnect("stream_ended");
            return false;
        }
    };
    stats.message(text.len());
    let msg = match ServerMsg::parse(text.as_str()) {
        Ok(msg) => msg,
        Err(e) => {
            stats.error(&e.kind);
            return true;
        }
    };
    match msg.kind.as_str() {
        "state" => {
            if let Some(p) = pending.as_mut() {
                if msg.seq >= p.seq && !p.seen[i] {
                    p.seen[i] = true;
                    if i != p.mover {
                        stats.step(p.sent.elapsed());
                    }
                }
                if p.seen == [true, true] {
                    *pending = None;
                }
            }
            if let Some(player) = players.get_mut(i) {
                player.last = Some(msg);
            }
        }
        "error" => {
            let code = msg.code.as_deref().unwrap_or("unknown");
            stats.error(&format!("server_error_{code}"));
            *pending = None;
        }
        _ => {}
    }
    true
}

/// Sends a random legal intent for the side to move.
async fn send_step(
    stats: &Stats,
    players: &mut [Player; 2],
    rng: &mut fastrand::Rng,
) -> Option<Pending> {
    let newest = players
        .iter()
        .filter_map(|p| p.last.as_ref())
        .max_by_key(|state| state.seq)?;
    let mover = newest.mover()?;
    let player = players.get_mut(mover)?;
    let state = player.last.as_ref()?;
    let intent = state.random_intent(rng)?;
    let seq = state.seq + 1;
    let sent = Instant::now();
    if let Err(e) = player.socket.send(Message::Text(intent.into())).await {
        stats.error(&format!("send_{}", disconnect_kind(&e)));
        return None;
    }
    Some(Pending {
        seq,
        sent,
        mover,
        seen: [false, false],
    })
}

async fn close(mut game: Game, stats: &Stats) {
    let _ = game.spectators.send(true);
    for player in &mut game.players {
        let _ = timeout(Duration::from_secs(2), player.socket.close(None)).await;
    }
    stats.add_sockets(-2);
}

/// A short name for a socket failure.
pub fn disconnect_kind(error: &tungstenite::Error) -> String {
    match error {
        tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed => {
            "closed".to_owned()
        }
        tungstenite::Error::Io(io) => format!("io_{:?}", io.kind()).to_lowercase(),
        tungstenite::Error::Protocol(_) => "protocol".to_owned(),
        tungstenite::Error::Capacity(_) => "capacity".to_owned(),
        _ => "other".to_owned(),
    }
}
