//! A scripted pair of players: creates games over HTTP and plays them over
//! two WebSockets, choosing among the legal steps the server sends, and
//! records every action the server acknowledged. Any failed connection
//! means the server was killed: wait for the next one and carry on.

use std::time::Duration;

use fanorona::Color;
use fanorona_server::{game::Intent, protocol::parse_intent};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::{net::TcpStream, sync::watch};
use tokio_tungstenite::{
    tungstenite::{client::IntoClientRequest, Message},
    MaybeTlsStream, WebSocketStream,
};

/// How long a live server may take to answer before the game counts as
/// stuck.
const STUCK: Duration = Duration::from_secs(20);

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// What the players share with the test.
#[derive(Clone)]
pub(crate) struct Shared {
    /// The servers' generation and addresses (one per process sharing
    /// the database); a new generation after each restart.
    pub server: watch::Receiver<(u64, Vec<String>)>,
    /// Counts acknowledged actions, over all games.
    pub acks: watch::Sender<u64>,
    /// Set when the players should stop.
    pub done: watch::Receiver<bool>,
}

/// One game as the players saw it.
#[derive(Debug, Default)]
pub(crate) struct Record {
    /// The game's id.
    pub id: String,
    /// The seat secrets, white then black.
    pub seats: [String; 2],
    /// Every acknowledged action: its number, its player, the intent.
    pub acked: Vec<(u64, Color, Intent)>,
    /// The game ended.
    pub finished: bool,
}

enum Outcome {
    Finished,
    Stopped,
    Broken,
}

/// Plays games one after another until told to stop; returns them all.
pub(crate) async fn play(mut shared: Shared, mut rng: fastrand::Rng) -> Vec<Record> {
    let mut records = Vec::new();
    while !*shared.done.borrow() {
        let Some(mut record) = create(&mut shared).await else {
            break;
        };
        loop {
            let (generation, addrs) = shared.server.borrow().clone();
            // White and Black on processes of their own when there are
            // several: each sees the other's moves through the database.
            let first = rng.usize(..addrs.len());
            let pair = [&addrs[first], &addrs[(first + 1) % addrs.len()]];
            let outcome = match connect(pair, &record).await {
                Ok(sockets) => drive(sockets, &mut record, &shared, &mut rng).await,
                Err(()) => Outcome::Broken,
            };
            match outcome {
                Outcome::Finished => record.finished = true,
                Outcome::Stopped => {}
                Outcome::Broken if next_server(&mut shared, generation).await => continue,
                Outcome::Broken => {}
            }
            break;
        }
        records.push(record);
    }
    records
}

/// Waits for a server newer than `generation`; false when told to stop.
async fn next_server(shared: &mut Shared, generation: u64) -> bool {
    let mut done = shared.done.clone();
    tokio::select! {
        changed = shared.server.wait_for(|(g, _)| *g > generation) => changed.is_ok(),
        _ = done.wait_for(|d| *d) => false,
    }
}

/// Creates a game and joins it, retrying across restarts.
async fn create(shared: &mut Shared) -> Option<Record> {
    let http = reqwest::Client::new();
    loop {
        let (generation, addrs) = shared.server.borrow().clone();
        if let Ok(record) = try_create(&http, &addrs[0]).await {
            return Some(record);
        }
        if !next_server(shared, generation).await {
            return None;
        }
    }
}

async fn try_create(http: &reqwest::Client, addr: &str) -> Result<Record, reqwest::Error> {
    let created: Value = http
        .post(format!("http://{addr}/api/games"))
        .json(&json!({ "first": "me" }))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let id = created["game_id"].as_str().unwrap_or_default().to_owned();
    let link = created["invite_link"].as_str().unwrap_or_default();
    let invite = link.split("invite=").nth(1).unwrap_or_default();
    let joined: Value = http
        .post(format!("http://{addr}/api/games/{id}/join"))
        .json(&json!({ "invite": invite }))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let seat = |v: &Value| v["seat"].as_str().unwrap_or_default().to_owned();
    Ok(Record {
        seats: [seat(&created), seat(&joined)],
        id,
        ..Record::default()
    })
}

async fn connect(addrs: [&String; 2], record: &Record) -> Result<[Socket; 2], ()> {
    let open = |addr: &str, secret: &str| {
        let url = format!("ws://{addr}/api/games/{}/ws", record.id);
        let mut req = url.into_client_request().map_err(|_| ())?;
        let bearer = format!("Bearer {secret}").parse().map_err(|_| ())?;
        req.headers_mut().insert("authorization", bearer);
        Ok::<_, ()>(tokio_tungstenite::connect_async(req))
    };
    let (white, _) = open(addrs[0], &record.seats[0])?.await.map_err(|_| ())?;
    let (black, _) = open(addrs[1], &record.seats[1])?.await.map_err(|_| ())?;
    Ok([white, black])
}

/// The next message on `socket` that is an error or a state newer than
/// `seq`; `None` when the connection ends.
async fn next_answer(socket: &mut Socket, seq: Option<u64>) -> Option<Value> {
    loop {
        let message = tokio::time::timeout(STUCK, socket.next())
            .await
            .expect("a live server answers: the game is stuck");
        let Some(Ok(Message::Text(text))) = message else {
            match message {
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                _ => return None,
            }
        };
        let value: Value = serde_json::from_str(&text).expect("the server sends JSON");
        let newer = value["seq"]
            .as_u64()
            .is_some_and(|s| seq.is_none_or(|q| s > q));
        if value["type"] == "error" || (value["type"] == "state" && newer) {
            return Some(value);
        }
    }
}

/// Plays `record`'s game on `sockets` until it ends, the players are told
/// to stop, or the connection breaks.
async fn drive(
    mut sockets: [Socket; 2],
    record: &mut Record,
    shared: &Shared,
    rng: &mut fastrand::Rng,
) -> Outcome {
    let Some(mut state) = next_answer(&mut sockets[0], None).await else {
        return Outcome::Broken;
    };
    loop {
        let seq = state["seq"].as_u64().expect("a state has a seq");
        assert!(
            seq >= record.acked.len() as u64,
            "{}: lost actions",
            record.id
        );
        if !state["result"].is_null() {
            return Outcome::Finished;
        }
        if *shared.done.borrow() {
            return Outcome::Stopped;
        }
        let (color, text) = choose(&state, rng);
        let socket = &mut sockets[usize::from(color == Color::Black)];
        if socket.send(Message::text(text.clone())).await.is_err() {
            return Outcome::Broken;
        }
        let Some(answer) = next_answer(socket, Some(seq)).await else {
            return Outcome::Broken;
        };
        if answer["type"] == "error" {
            let code = answer["code"].as_str().unwrap_or_default();
            assert!(
                ["not_saved", "unavailable", "rate_limited", "game_changed"].contains(&code),
                "{}: {text} refused: {answer}",
                record.id
            );
            if code == "game_changed" {
                state = answer["state"].clone();
            }
            continue;
        }
        assert_eq!(answer["seq"].as_u64(), Some(seq + 1), "{}", record.id);
        let intent = parse_intent(&text).expect("a well-formed intent");
        record.acked.push((seq, color, intent));
        shared.acks.send_modify(|n| *n += 1);
        state = answer;
    }
}

/// A random legal intent for the player to move.
fn choose(state: &Value, rng: &mut fastrand::Rng) -> (Color, String) {
    let color = if state["side_to_move"] == "white" {
        Color::White
    } else {
        Color::Black
    };
    let steps = state["legal_steps"].as_array().cloned().unwrap_or_default();
    let can_end = state["can_end_turn"] == true;
    assert!(!steps.is_empty() || can_end, "stuck: {state}");
    let intent = if steps.is_empty() || (can_end && rng.u8(0..4) == 0) {
        json!({ "type": "end_turn" })
    } else if rng.u16(0..400) == 0 {
        json!({ "type": "resign" })
    } else if state["draw_offer"].is_null() && rng.u8(0..60) == 0 {
        json!({ "type": "offer_draw" })
    } else {
        let step = &steps[rng.usize(0..steps.len())];
        json!({ "type": "step", "from": step["from"], "to": step["to"], "kind": step["kind"] })
    };
    (color, intent.to_string())
}
