//! `fairness`: whether one client flooding the computer within its limits
//! takes it from another.
//!
//! A victim address plays a game against the computer at a weak level,
//! first alone (its quiet figure), then while attacker addresses keep as
//! many games of the strongest level busy as they may and ask hints on
//! sockets and over HTTP as fast as their limits allow, and last just
//! after they stop: how long the newcomer's first computer turn takes,
//! and how long the queue takes to drain. Every client comes from its own
//! local address of 127.0.0.0/8, which the server counts as a client of
//! its own, so the server must listen on loopback and run with its limits
//! as shipped.

use std::{
    collections::BTreeMap,
    error::Error,
    net::IpAddr,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::{
    sync::watch,
    task::JoinSet,
    time::{interval, sleep, timeout, Instant},
};
use tokio_tungstenite::tungstenite::Message;

use crate::{
    cli::FairnessArgs,
    wire::{self, Socket, Target},
};

/// The longest wait for any one message: far above any bound the server
/// keeps, so that a starved victim shows as a long reply, not an error.
const MESSAGE_TIMEOUT: Duration = Duration::from_secs(120);

/// How long the run waits for the queue to drain after the flood.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(60);

/// Answers counted by what they were, like `http 200` or `socket
/// hint_limit`.
#[derive(Debug, Default)]
struct Counts(Mutex<BTreeMap<String, u64>>);

impl Counts {
    fn add(&self, what: String) {
        let mut counts = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        *counts.entry(what).or_default() += 1;
    }

    fn text(&self) -> String {
        let counts = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if counts.is_empty() {
            return "none".into();
        }
        counts
            .iter()
            .map(|(what, n)| format!("{what} x{n}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The reply times of one phase, in order.
#[derive(Debug, Default)]
struct Phase {
    times: Vec<Duration>,
    /// The phase ended on a reply that did not come within
    /// [`MESSAGE_TIMEOUT`].
    starved: bool,
}

impl Phase {
    /// The nearest-rank percentile `p` (0 to 100).
    fn percentile(&self, p: usize) -> Duration {
        let mut sorted = self.times.clone();
        sorted.sort();
        if sorted.is_empty() {
            return Duration::ZERO;
        }
        let rank = (p * sorted.len()).div_ceil(100).clamp(1, sorted.len());
        sorted[rank - 1]
    }

    fn line(&self, name: &str) -> String {
        let mut line = format!(
            "{name:<8} {:>5} {:>9.3} {:>9.3} {:>9.3}",
            self.times.len(),
            self.percentile(50).as_secs_f64(),
            self.percentile(99).as_secs_f64(),
            self.percentile(100).as_secs_f64(),
        );
        if self.starved {
            let wait = MESSAGE_TIMEOUT.as_secs();
            line.push_str(&format!(
                "  then no reply within {wait} s: the phase ended there"
            ));
        }
        line
    }
}

/// No reply from the computer within [`MESSAGE_TIMEOUT`].
#[derive(Debug)]
struct Starved;

impl std::fmt::Display for Starved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no reply from the computer within {MESSAGE_TIMEOUT:?}")
    }
}

impl Error for Starved {}

/// What every task of the run needs.
#[derive(Debug)]
struct Ctx {
    target: Target,
    server: std::net::SocketAddr,
    answers: Counts,
}

/// A new game against the computer from `from`: (id, seat, colour), or
/// the refusal's status and code.
async fn create(
    ctx: &Ctx,
    from: IpAddr,
    level: u8,
    first: &str,
) -> Result<(String, String, String), String> {
    let http = reqwest::Client::builder()
        .local_address(from)
        .build()
        .map_err(|e| e.to_string())?;
    let resp = http
        .post(format!("{}/api/games", ctx.target.http))
        .json(&json!({ "opponent": "computer", "level": level, "first": first }))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = resp.status().as_u16();
    let body: Value = resp.json().await.unwrap_or(Value::Null);
    let text = |key: &str| body[key].as_str().map(str::to_owned);
    match (status, text("game_id"), text("seat"), text("color")) {
        (201, Some(id), Some(seat), Some(color)) => Ok((id, seat, color)),
        _ => Err(format!("{status} {}", text("code").unwrap_or_default())),
    }
}

async fn connect(ctx: &Ctx, id: &str, seat: &str, from: IpAddr) -> Result<Socket, Box<dyn Error>> {
    let url = format!("{}/api/games/{id}/ws", ctx.target.ws);
    Ok(wire::connect_from(&url, Some(seat), ctx.server, from).await?)
}

/// The next state on `socket`; `None` when it closed or nothing came in
/// time.
async fn next_state(socket: &mut Socket) -> Option<Value> {
    loop {
        let frame = timeout(MESSAGE_TIMEOUT, socket.next()).await.ok()??;
        if let Message::Text(text) = frame.ok()? {
            let value: Value = serde_json::from_str(text.as_str()).ok()?;
            if value["type"] == "state" {
                return Some(value);
            }
        }
    }
}

fn my_turn(state: &Value, me: &str) -> bool {
    state["result"].is_null()
        && state["side_to_move"] == me
        && state["computer"]["thinking"] == false
}

/// The intent that plays on: the first legal step, or the end of the
/// chain.
fn next_intent(state: &Value) -> String {
    match state["legal_steps"].as_array().and_then(|s| s.first()) {
        Some(step) => {
            json!({ "type": "step", "from": step["from"], "to": step["to"], "kind": step["kind"] })
                .to_string()
        }
        None => json!({ "type": "end_turn" }).to_string(),
    }
}

/// The victim: plays its games against the computer from its address,
/// timing each reply from the state where the computer is to move to the
/// state where the person is again.
struct Victim {
    socket: Socket,
    me: String,
    /// The state of the person's turn, when one is waiting.
    ready: Option<Value>,
}

impl Victim {
    async fn new(ctx: &Ctx, args: &FairnessArgs) -> Result<Victim, Box<dyn Error>> {
        let (id, seat, me) = create(ctx, args.victim, args.victim_level, "me").await?;
        let socket = connect(ctx, &id, &seat, args.victim).await?;
        Ok(Victim {
            socket,
            me,
            ready: None,
        })
    }

    /// One turn and the computer's reply: its time, `None` when the game
    /// ended, or [`Starved`] when the reply did not come in time.
    async fn turn(&mut self) -> Result<Option<Duration>, Box<dyn Error>> {
        let mut state = match self.ready.take() {
            Some(state) => state,
            None => loop {
                let state = next_state(&mut self.socket)
                    .await
                    .ok_or("the victim's socket")?;
                if !state["result"].is_null() {
                    return Ok(None);
                }
                if my_turn(&state, &self.me) {
                    break state;
                }
            },
        };
        let mut since: Option<Instant> = None;
        loop {
            if my_turn(&state, &self.me) {
                if let Some(since) = since {
                    self.ready = Some(state);
                    return Ok(Some(since.elapsed()));
                }
                self.socket.send(Message::text(next_intent(&state))).await?;
            }
            state = next_state(&mut self.socket).await.ok_or(Starved)?;
            if !state["result"].is_null() {
                return Ok(None);
            }
            if state["side_to_move"] != self.me.as_str() {
                since.get_or_insert_with(Instant::now);
            }
        }
    }

    /// `turns` replies, starting new games as they end, or fewer when a
    /// reply does not come in time.
    async fn play(&mut self, ctx: &Ctx, args: &FairnessArgs) -> Result<Phase, Box<dyn Error>> {
        let mut phase = Phase::default();
        while phase.times.len() < args.turns {
            match self.turn().await {
                Ok(Some(time)) => phase.times.push(time),
                Ok(None) => *self = Victim::new(ctx, args).await?,
                Err(error) if error.is::<Starved>() => {
                    phase.starved = true;
                    break;
                }
                Err(error) => return Err(error),
            }
        }
        Ok(phase)
    }
}

/// Keeps one game's computer searching: plays the person's side `pause`
/// after each of its turns comes, until `stop`.
async fn keep_busy(
    mut socket: Socket,
    me: String,
    pause: Duration,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        tokio::select! {
            state = next_state(&mut socket) => match state {
                Some(state) if my_turn(&state, &me) => {
                    sleep(pause).await;
                    if socket.send(Message::text(next_intent(&state))).await.is_err() {
                        break;
                    }
                }
                Some(_) => {}
                None => break,
            },
            _ = stop.changed() => break,
        }
    }
    let _ = timeout(Duration::from_secs(2), socket.close(None)).await;
}

/// Asks a hint ten times a second on `socket` (a socket's limit), and
/// counts the answers, until `stop`.
async fn ask_hints(ctx: Arc<Ctx>, socket: Socket, mut stop: watch::Receiver<bool>) {
    let (mut tx, mut rx) = socket.split();
    let mut every = interval(Duration::from_millis(100));
    loop {
        tokio::select! {
            _ = every.tick() => {
                if tx.send(Message::text(r#"{"type":"hint"}"#)).await.is_err() {
                    break;
                }
            }
            frame = rx.next() => match frame {
                Some(Ok(Message::Text(text))) => {
                    let value: Value = serde_json::from_str(text.as_str()).unwrap_or(Value::Null);
                    match value["type"].as_str() {
                        Some("hint") => ctx.answers.add("socket hint".into()),
                        Some("error") => ctx.answers.add(format!("socket {}", value["code"].as_str().unwrap_or("?"))),
                        _ => {}
                    }
                }
                Some(Ok(_)) => {}
                _ => break,
            },
            _ = stop.changed() => break,
        }
    }
    let _ = tx.close().await;
}

/// Asks hints over HTTP from `from`, `per_second` a second, each without
/// waiting for the one before, until `stop`; counts the answers by status
/// and code.
async fn http_hints(
    ctx: Arc<Ctx>,
    from: IpAddr,
    id: String,
    seat: String,
    per_second: u32,
    mut stop: watch::Receiver<bool>,
) {
    let Ok(http) = reqwest::Client::builder().local_address(from).build() else {
        return;
    };
    let url = format!("{}/api/games/{id}/intents", ctx.target.http);
    let mut every = interval(Duration::from_secs(1) / per_second.max(1));
    let mut asked = JoinSet::new();
    loop {
        tokio::select! {
            _ = every.tick() => {
                let request = http
                    .post(&url)
                    .bearer_auth(&seat)
                    .header("content-type", "application/json")
                    .body(r#"{"type":"hint"}"#)
                    .send();
                let ctx = ctx.clone();
                asked.spawn(async move {
                    let answer = match request.await {
                        Ok(resp) => {
                            let status = resp.status().as_u16();
                            let body: Value = resp.json().await.unwrap_or(Value::Null);
                            format!("http {status} {}", body["code"].as_str().unwrap_or(""))
                        }
                        Err(e) if e.is_timeout() => "http timeout".to_owned(),
                        Err(_) => "http failed".to_owned(),
                    };
                    ctx.answers.add(answer.trim_end().to_owned());
                });
            }
            _ = stop.changed() => break,
        }
    }
    while asked.join_next().await.is_some() {}
}

/// The figure `name` of the server's `/metrics`, if it has one.
async fn figure(target: &Target, name: &str) -> Option<f64> {
    let text = reqwest::get(format!("{}/metrics", target.http))
        .await
        .ok()?
        .text()
        .await
        .ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

/// Starts every attacker's flood; the tasks end when `stop` is sent.
async fn flood(
    ctx: &Arc<Ctx>,
    args: &FairnessArgs,
    stop: &watch::Receiver<bool>,
    tasks: &mut JoinSet<()>,
) -> Result<Counts, Box<dyn Error>> {
    let creates = Counts::default();
    for &from in &args.attackers {
        let mut games = Vec::new();
        for n in 0..args.attacker_games + 1 {
            match create(ctx, from, args.attacker_level, "computer").await {
                Ok((id, seat, me)) => {
                    creates.add("201".into());
                    let socket = connect(ctx, &id, &seat, from).await?;
                    // The game the hints are asked in waits a second before
                    // each turn, so that they come on the attacker's turn.
                    let pause = Duration::from_secs(u64::from(n == 0));
                    tasks.spawn(keep_busy(socket, me, pause, stop.clone()));
                    games.push((id, seat));
                }
                Err(refused) => creates.add(refused),
            }
        }
        let Some((id, seat)) = games.first().cloned() else {
            continue;
        };
        for _ in 0..args.hint_sockets {
            let socket = connect(ctx, &id, &seat, from).await?;
            tasks.spawn(ask_hints(ctx.clone(), socket, stop.clone()));
        }
        if args.http_hints > 0 {
            let http = http_hints(ctx.clone(), from, id, seat, args.http_hints, stop.clone());
            tasks.spawn(http);
        }
    }
    Ok(creates)
}

/// Runs the three phases and prints what each measured.
///
/// # Errors
///
/// A bad URL, or a victim whose game cannot be created or whose socket
/// fails.
pub async fn fairness(args: FairnessArgs) -> Result<(), Box<dyn Error>> {
    let target = Target::parse(&args.url)?;
    let ctx = Arc::new(Ctx {
        server: target.socket_addr()?,
        target,
        answers: Counts::default(),
    });
    let shortened = r#"fanorona_computer_searches_shortened_total{kind="play"}"#;
    eprintln!("quiet: the victim alone, {} turns", args.turns);
    let mut victim = Victim::new(&ctx, &args).await?;
    let quiet = victim.play(&ctx, &args).await?;
    let before = figure(&ctx.target, shortened).await.unwrap_or(0.0);

    eprintln!("flood: {} attacker address(es)", args.attackers.len());
    let (stop, stopped) = watch::channel(false);
    let mut tasks = JoinSet::new();
    let creates = flood(&ctx, &args, &stopped, &mut tasks).await?;
    sleep(args.ramp).await;
    let flooded = victim.play(&ctx, &args).await?;
    let during = figure(&ctx.target, shortened).await.unwrap_or(0.0) - before;

    eprintln!("drain: the flood stops");
    stop.send_replace(true);
    while tasks.join_next().await.is_some() {}
    drop(victim);
    let stopped_at = Instant::now();
    let (id, seat, me) = create(&ctx, args.victim, args.victim_level, "computer").await?;
    let mut newcomer = connect(&ctx, &id, &seat, args.victim).await?;
    let first = loop {
        match next_state(&mut newcomer).await {
            Some(state) if my_turn(&state, &me) => break Some(stopped_at.elapsed()),
            Some(_) => {}
            None => break None,
        }
    };
    let mut empty = None;
    while stopped_at.elapsed() < DRAIN_TIMEOUT {
        if figure(&ctx.target, "fanorona_computer_waiting").await == Some(0.0) {
            empty = Some(stopped_at.elapsed());
            break;
        }
        sleep(Duration::from_millis(50)).await;
    }

    println!(
        "victim at level {}, the computer's reply in seconds",
        args.victim_level
    );
    println!(
        "{:<8} {:>5} {:>9} {:>9} {:>9}",
        "phase", "turns", "p50", "p99", "max"
    );
    println!("{}", quiet.line("quiet"));
    println!("{}", flooded.line("flood"));
    let seconds = |t: Duration| format!("{:.3} s", t.as_secs_f64());
    println!(
        "after the flood: the newcomer's first computer turn in {}; queue empty after {}",
        first.map_or(
            format!("more than {} s", MESSAGE_TIMEOUT.as_secs()),
            seconds
        ),
        empty.map_or("more than 60 s (or no /metrics)".into(), seconds),
    );
    println!(
        "attacker: level {}, creates {}; searches shortened during the flood: {during}",
        args.attacker_level,
        creates.text()
    );
    println!("attacker's hints: {}", ctx.answers.text());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let phase = Phase {
            times: (1..=20).rev().map(Duration::from_millis).collect(),
            starved: false,
        };
        assert_eq!(phase.percentile(50), Duration::from_millis(10));
        assert_eq!(phase.percentile(99), Duration::from_millis(20));
        assert_eq!(phase.percentile(100), Duration::from_millis(20));
        assert_eq!(Phase::default().percentile(50), Duration::ZERO);
    }

    #[test]
    fn answers_are_counted_by_what_they_were() {
        let counts = Counts::default();
        assert_eq!(counts.text(), "none");
        counts.add("http 200".into());
        counts.add("http 429 hint_limit".into());
        counts.add("http 200".into());
        assert_eq!(counts.text(), "http 200 x2, http 429 hint_limit x1");
    }
}
