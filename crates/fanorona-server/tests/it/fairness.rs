//! The computer is shared fairly between clients. One client flooding it
//! within its limits (games of the strongest level, hints over HTTP and
//! over WebSockets) does not take it from another client: that one's game
//! gets every computer turn within a few seconds of its quiet figure, and
//! the queue drains within seconds of the flood stopping. Every client
//! comes from its own address of 127.0.0.0/8, to the server's limits a
//! client of its own.
// See: issue 21

use crate::common;

use std::{
    net::{IpAddr, Ipv4Addr},
    sync::{Arc, Mutex},
    time::Duration,
};

use common::{start, start_in, TestServer, Ws, WAIT};
use futures_util::{SinkExt, StreamExt};
use reqwest::{header, StatusCode};
use serde_json::{json, Value};
use tokio::{
    sync::watch,
    task::JoinHandle,
    time::{interval, timeout, Instant},
};
use tokio_tungstenite::tungstenite::Message;

const ATTACKER: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
const VICTIM: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3));
const LATECOMER: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 4));

/// `--computer-max-wait` in these tests.
const MAX_WAIT: Duration = Duration::from_secs(2);

/// What a reply may take beyond the bound: the victim's own search, the
/// relay, and a slow machine.
const SLACK: Duration = Duration::from_secs(3);

/// How long the attacker's HTTP hints, and then its sockets, may take to
/// end once the flood stops, on a loaded machine.
const FLOOD_ENDS: Duration = Duration::from_secs(90);

/// The server's limits as shipped (the test defaults lift them), one
/// search thread, and the computer answering as soon as it has searched.
fn shipped_limits(config: &mut fanorona_server::Config) {
    config.create_per_minute = 5;
    config.intents_per_second = 10;
    config.sockets_per_game = 32;
    config.sockets_per_address = 128;
    config.connections_per_address = 256;
    config.engine_threads = 1;
    config.computer_max_wait = MAX_WAIT;
    config.computer_min_think = Duration::ZERO;
    config.computer_step_delay = Duration::ZERO;
    config.computer_games_per_address = 4;
    config.hints_per_minute = 10;
}

async fn server() -> TestServer {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    start_in(dir, shipped_limits).await
}

/// Where the strongest level's games here start: four turns into a game,
/// past the opening book, so that each of its turns is a full search.
const PAST_THE_BOOK: &str = "BB.B.B.BB/BBB.B.BBB/BWBW.B..W/....B.W.W/WWWW.WW.. w 0";

/// Creates a game against the computer from `from`: (status, answer).
async fn create_from(
    server: &TestServer,
    from: IpAddr,
    level: u8,
    first: &str,
) -> (StatusCode, Value) {
    let mut body = json!({ "opponent": "computer", "level": level, "first": first });
    if level == 6 {
        body["position"] = json!(PAST_THE_BOOK);
    }
    let resp = server
        .http_from(from)
        .post(server.url("/api/games"))
        .json(&body)
        .send()
        .await
        .unwrap();
    (resp.status(), resp.json().await.unwrap())
}

/// Creates a game from `from` that must be created: (id, seat, colour).
async fn game_from(
    server: &TestServer,
    from: IpAddr,
    level: u8,
    first: &str,
) -> (String, String, String) {
    let (status, created) = create_from(server, from, level, first).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let text = |key: &str| created[key].as_str().unwrap().to_owned();
    (text("game_id"), text("seat"), text("color"))
}

/// The intent that plays on from a state of the sender's turn: its first
/// legal step, or the end of its capture chain.
fn next_intent(state: &Value) -> String {
    match state["legal_steps"].as_array().and_then(|s| s.first()) {
        Some(step) => {
            json!({ "type": "step", "from": step["from"], "to": step["to"], "kind": step["kind"] })
                .to_string()
        }
        None => json!({ "type": "end_turn" }).to_string(),
    }
}

fn my_turn(state: &Value, me: &str) -> bool {
    state["type"] == "state"
        && state["result"].is_null()
        && state["side_to_move"] == me
        && state["computer"]["thinking"] == false
}

/// A person playing one game against the computer on a socket.
struct Person {
    ws: Ws,
    me: String,
    /// The last state, once it is the person's turn.
    ready: Option<Value>,
}

impl Person {
    async fn join(server: &TestServer, id: &str, seat: &str, me: &str, from: IpAddr) -> Person {
        let ws = Ws::connect_from(server, id, Some(seat), from).await;
        Person {
            ws,
            me: me.to_owned(),
            ready: None,
        }
    }

    /// Waits for the person's turn: its state, `None` when the game ended.
    async fn wait_turn(&mut self) -> Option<Value> {
        if let Some(state) = self.ready.take() {
            return Some(state);
        }
        loop {
            let state = self.ws.next().await;
            if state["type"] == "state" && !state["result"].is_null() {
                return None;
            }
            if my_turn(&state, &self.me) {
                return Some(state);
            }
        }
    }

    /// Plays the person's turn and waits for the computer's reply: the
    /// time from the first state where the computer is to move to the
    /// state where the person is again. `None` when the game ended.
    async fn one_turn(&mut self) -> Option<Duration> {
        let mut state = self.wait_turn().await?;
        let mut since: Option<Instant> = None;
        loop {
            if my_turn(&state, &self.me) {
                if let Some(since) = since {
                    self.ready = Some(state);
                    return Some(since.elapsed());
                }
                self.ws.send(&next_intent(&state)).await;
            }
            loop {
                state = self.ws.next().await;
                if state["type"] == "state" {
                    break;
                }
            }
            if !state["result"].is_null() {
                return None;
            }
            if state["side_to_move"] != self.me.as_str() {
                since.get_or_insert_with(Instant::now);
            }
        }
    }
}

/// Plays `turns` turns of level-1 games from the victim's address: the
/// computer's reply times.
async fn victim_turns(server: &TestServer, person: &mut Person, turns: usize) -> Vec<Duration> {
    let mut times = Vec::new();
    while times.len() < turns {
        match person.one_turn().await {
            Some(time) => times.push(time),
            None => {
                // The game ended: the next one.
                let (id, seat, color) = game_from(server, VICTIM, 1, "me").await;
                *person = Person::join(server, &id, &seat, &color, VICTIM).await;
            }
        }
    }
    times
}

/// Keeps the computer of one game searching: plays the person's side on
/// `ws` `pause` after it becomes their turn, until `stop`.
fn keep_busy(
    mut ws: Ws,
    me: String,
    pause: Duration,
    mut stop: watch::Receiver<bool>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            tokio::select! {
                state = ws.next() => if my_turn(&state, &me) {
                    tokio::time::sleep(pause).await;
                    ws.send(&next_intent(&state)).await;
                },
                _ = stop.changed() => break,
            }
        }
        ws.close().await;
    })
}

/// Asks for a hint ten times a second on `ws` (its socket's limit), and
/// reads whatever comes back, until `stop`.
fn ask_hints(ws: Ws, mut stop: watch::Receiver<bool>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let (mut tx, mut rx) = ws.into_inner().split();
        let mut every = interval(Duration::from_millis(100));
        loop {
            tokio::select! {
                _ = every.tick() => {
                    if tx.send(Message::text(r#"{"type":"hint"}"#)).await.is_err() {
                        break;
                    }
                }
                message = rx.next() => if !matches!(message, Some(Ok(_))) {
                    break;
                },
                _ = stop.changed() => break,
            }
        }
        let _ = tx.close().await;
    })
}

/// What the hints asked over HTTP got: status, code and whether a
/// `Retry-After` came with it.
type Answers = Arc<Mutex<Vec<(StatusCode, String, bool)>>>;

/// Asks for a hint over HTTP ten times a second from the attacker (the
/// address's limit), each without waiting for the one before, until
/// `stop`.
fn http_hints(
    server: &TestServer,
    id: &str,
    seat: &str,
    answers: Answers,
    mut stop: watch::Receiver<bool>,
) -> JoinHandle<()> {
    let http = server.http_from(ATTACKER);
    let url = server.url(&format!("/api/games/{id}/intents"));
    let seat = seat.to_owned();
    tokio::spawn(async move {
        let mut every = interval(Duration::from_millis(100));
        let mut asked = Vec::new();
        loop {
            tokio::select! {
                _ = every.tick() => {
                    let request = http
                        .post(&url)
                        .bearer_auth(&seat)
                        .header(header::CONTENT_TYPE, "application/json")
                        .body(r#"{"type":"hint"}"#)
                        .send();
                    let answers = answers.clone();
                    asked.push(tokio::spawn(async move {
                        let resp = request.await.unwrap();
                        let status = resp.status();
                        let retry = resp.headers().contains_key(header::RETRY_AFTER);
                        let body: Value = serde_json::from_str(&resp.text().await.unwrap())
                            .unwrap_or(Value::Null);
                        let code = body["code"].as_str().unwrap_or("").to_owned();
                        answers.lock().unwrap().push((status, code, retry));
                    }));
                }
                _ = stop.changed() => break,
            }
        }
        for request in asked {
            timeout(Duration::from_secs(60), request)
                .await
                .expect("every hint is answered")
                .unwrap();
        }
    })
}

/// The figure `name` (with its labels) of the server's `/metrics`.
async fn figure(server: &TestServer, name: &str) -> Option<f64> {
    let text = server.get_text("/metrics").await;
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

fn longest(times: &[Duration]) -> Duration {
    times.iter().copied().max().unwrap_or_default()
}

#[tokio::test]
async fn one_client_flooding_the_computer_does_not_take_it_from_another() {
    let _alone = common::alone().await;
    let server = server().await;

    // The victim's quiet figure: a game of the weakest level, alone.
    let (id, seat, me) = game_from(&server, VICTIM, 1, "me").await;
    let mut victim = Person::join(&server, &id, &seat, &me, VICTIM).await;
    let quiet = victim_turns(&server, &mut victim, 3).await;

    // The attacker: as many games of the strongest level as one address
    // may play, in which the computer moves first and the attacker plays
    // on at once (in the last, three seconds after its turn comes, so
    // that hints asked there can be answered on a loaded machine); then 31
    // more sockets on that last one asking hints ten times a second each,
    // and hints over HTTP ten times a second.
    let (stop, stopped) = watch::channel(false);
    let mut tasks = Vec::new();
    let mut games = Vec::new();
    for n in 0..4 {
        let (id, seat, color) = game_from(&server, ATTACKER, 6, "computer").await;
        let ws = Ws::connect_from(&server, &id, Some(&seat), ATTACKER).await;
        let pause = Duration::from_secs(if n == 3 { 3 } else { 0 });
        tasks.push(keep_busy(ws, color, pause, stopped.clone()));
        games.push((id, seat));
    }
    let (status, refused) = create_from(&server, ATTACKER, 6, "me").await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (
            StatusCode::TOO_MANY_REQUESTS,
            Some("too_many_computer_games")
        ),
        "{refused}"
    );
    let (hinted, hinted_seat) = &games[3];
    for _ in 0..31 {
        let ws = Ws::connect_from(&server, hinted, Some(hinted_seat), ATTACKER).await;
        tasks.push(ask_hints(ws, stopped.clone()));
    }
    let answers = Answers::default();
    let over_http = http_hints(
        &server,
        hinted,
        hinted_seat,
        answers.clone(),
        stopped.clone(),
    );

    // Under the flood, the victim plays on.
    let flooded = victim_turns(&server, &mut victim, 6).await;
    let bound = longest(&quiet) + MAX_WAIT + SLACK;
    assert!(
        longest(&flooded) <= bound,
        "quiet {quiet:?}, flooded {flooded:?}, bound {bound:?}"
    );
    let shortened = figure(
        &server,
        r#"fanorona_computer_searches_shortened_total{kind="play"}"#,
    )
    .await
    .unwrap_or(0.0);
    assert!(
        shortened > 0.0,
        "the strongest level's searches were shortened"
    );

    // The flood stops: the attacker's searches are dropped with its
    // sockets, and a newcomer's game gets its first turn at once.
    stop.send_replace(true);
    timeout(FLOOD_ENDS, over_http)
        .await
        .expect("the HTTP hints end")
        .unwrap();
    // Each attacker socket closes (one may first finish a turn it was
    // waiting to play, or wait for its last hint); all of them together
    // get the HTTP hints' limit, since on a loaded machine the close
    // handshakes queue behind the searches still being dropped.
    let closed = timeout(FLOOD_ENDS, futures_util::future::join_all(tasks))
        .await
        .expect("the attacker's sockets close");
    for task in closed {
        task.expect("an attacker socket closes cleanly");
    }
    drop(victim);
    let stopped_at = Instant::now();
    let (id, seat, me) = game_from(&server, LATECOMER, 1, "computer").await;
    let mut latecomer = Ws::connect_from(&server, &id, Some(&seat), LATECOMER).await;
    loop {
        let state = latecomer.next().await;
        if my_turn(&state, &me) {
            break;
        }
    }
    let first = stopped_at.elapsed();
    assert!(
        first <= MAX_WAIT + SLACK,
        "the first turn after the flood: {first:?}"
    );

    // Every hint over HTTP got an answer it could act on: never a timeout
    // or a server error, and a refusal for load says when to come back.
    let answers = answers.lock().unwrap().clone();
    assert!(answers.len() > 20, "{} hints asked", answers.len());
    assert!(
        answers.iter().any(|(s, ..)| *s == StatusCode::OK),
        "{answers:?}"
    );
    for (status, code, retry) in &answers {
        match (status.as_u16(), code.as_str()) {
            (200, "") | (409, "not_your_turn" | "hint_outdated") | (429, "rate_limited") => {}
            (429, "hint_limit") | (503, "busy") => assert!(retry, "{status} {code}"),
            _ => panic!("a hint got {status} {code}"),
        }
    }
}

#[tokio::test]
async fn the_same_position_is_searched_once_for_every_hint_asked() {
    let server = server().await;
    let (id, seat, _) = game_from(&server, VICTIM, 1, "me").await;
    let mut sockets = Vec::new();
    for _ in 0..8 {
        sockets.push(Ws::connect_from(&server, &id, Some(&seat), VICTIM).await);
    }
    for ws in &mut sockets {
        ws.send(r#"{"type":"hint"}"#).await;
    }
    let mut answers = Vec::new();
    for ws in &mut sockets {
        loop {
            let message = ws.next().await;
            if message["type"] == "hint" {
                answers.push(message);
                break;
            }
        }
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
    // Asked again over HTTP: the same answer, not searched again.
    let (status, again) = server.intent(&id, &seat, json!({ "type": "hint" })).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again, answers[0]);
    let searches = figure(&server, r#"fanorona_computer_searches_total{kind="hint"}"#).await;
    assert_eq!(searches, Some(1.0));
    // One hint is stored, the first.
    assert_eq!(server.state(&id).await["seq"], 1);
}

#[tokio::test]
async fn hints_are_budgeted_per_game() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_in(dir, |c| {
        shipped_limits(c);
        c.hints_per_minute = 1;
    })
    .await;
    let (id, seat, me) = game_from(&server, VICTIM, 1, "me").await;
    let mut person = Person::join(&server, &id, &seat, &me, VICTIM).await;
    // Three hints in a burst, each for a new position (a step each time).
    let mut answered = 0;
    let refused = loop {
        let (status, body) = server.intent(&id, &seat, json!({ "type": "hint" })).await;
        if status != StatusCode::OK {
            break (status, body);
        }
        answered += 1;
        assert!(answered <= 3, "more hints than the burst");
        person.one_turn().await.expect("the game goes on");
    };
    assert_eq!(answered, 3);
    assert_eq!(
        (refused.0, refused.1["code"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("hint_limit")),
        "{}",
        refused.1
    );
    let resp = server
        .http
        .post(server.url(&format!("/api/games/{id}/intents")))
        .bearer_auth(&seat)
        .header(header::CONTENT_TYPE, "application/json")
        .body(r#"{"type":"hint"}"#)
        .send()
        .await
        .unwrap();
    let retry: u64 = resp.headers()[header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
}

#[tokio::test]
async fn a_game_holds_at_most_its_cap_of_actions_and_can_still_be_played_out() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_in(dir, |c| {
        shipped_limits(c);
        c.intents_per_second = 100_000;
        c.max_game_actions = 20;
    })
    .await;
    let (id, seat, _) = game_from(&server, VICTIM, 1, "me").await;
    for n in 0..20 {
        let level = json!({ "type": "set_level", "level": 1 + n % 6 });
        server.play(&id, &seat, level).await;
    }
    let before = server.state_text(&id).await;
    for intent in [
        json!({ "type": "set_level", "level": 2 }),
        json!({ "type": "hint" }),
        json!({ "type": "takeback" }),
    ] {
        let (status, error) = server.intent(&id, &seat, intent.clone()).await;
        assert_eq!(
            (status, error["code"].as_str()),
            (StatusCode::CONFLICT, Some("game_too_long")),
            "{intent}: {error}"
        );
    }
    assert_eq!(
        common::durable(&server.state_text(&id).await),
        common::durable(&before)
    );
    // Steps and resigning still play the game to its end.
    let state = server.state(&id).await;
    let step: Value = serde_json::from_str(&next_intent(&state)).unwrap();
    let state = server.play(&id, &seat, step).await;
    assert_eq!(state["seq"], 21);
    let state = server.play(&id, &seat, json!({ "type": "resign" })).await;
    assert_eq!(state["result"]["reason"], "resignation");
}

#[tokio::test]
async fn a_search_is_dropped_when_its_player_leaves_and_resumed_when_they_return() {
    let server = server().await;
    // The strongest level searches for about a second: the person
    // leaves while it does.
    let (id, seat, me) = game_from(&server, VICTIM, 6, "computer").await;
    let mut ws = Ws::connect_from(&server, &id, Some(&seat), VICTIM).await;
    let (_, thinking) = ws.state_where(|s| s["computer"]["thinking"] == true).await;
    assert_eq!(thinking["seq"], 0);
    ws.close().await;
    // Nobody is here: the computer's search stops, and it stays unplayed.
    let (_, away) = Ws::connect_from(&server, &id, None, LATECOMER)
        .await
        .state_where(|s| s["computer"]["thinking"] == false)
        .await;
    assert_eq!(away["seq"], 0, "{away}");
    // Dropped where it was: still waiting for the thread (a busy machine
    // runs the search threads last), or running.
    let dropped = || async {
        let mut sum = 0.0;
        for place in ["waiting", "running"] {
            let name = format!("fanorona_computer_searches_dropped_total{{place=\"{place}\"}}");
            sum += figure(&server, &name).await.unwrap_or(0.0);
        }
        sum
    };
    let waited = Instant::now();
    while dropped().await == 0.0 && waited.elapsed() < WAIT {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(dropped().await, 1.0);
    // The person comes back: the computer plays its turn.
    let mut ws = Ws::connect_from(&server, &id, Some(&seat), VICTIM).await;
    let (_, back) = ws.state_where(|s| my_turn(s, &me)).await;
    assert_eq!(back["moves"].as_array().unwrap().len(), 1, "{back}");
}

#[tokio::test]
async fn the_computer_figures_are_served_for_monitoring() {
    let server = start().await;
    let resp = server
        .http
        .get(server.url("/metrics"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let kind = resp.headers()[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(kind.starts_with("application/openmetrics-text"), "{kind}");
    let text = resp.text().await.unwrap();
    for name in [
        "fanorona_computer_waiting ",
        "fanorona_computer_clients_waiting ",
        "fanorona_computer_wait_seconds_count ",
        "fanorona_computer_search_seconds_count ",
    ] {
        assert!(text.contains(name), "{name} in {text}");
    }
    assert!(text.ends_with("# EOF\n"), "{text}");
}
