//! A real server on 127.0.0.1:0 with a temporary SQLite file, and small
//! HTTP and WebSocket clients to drive it. Every wait has a timeout; no
//! test sleeps.

#![allow(dead_code, unreachable_pub, clippy::unwrap_used)]

pub mod across;
pub mod doubles;
pub mod outage;
pub mod postgres;
pub mod process;
pub mod raw;
pub mod rows;

use std::{net::SocketAddr, sync::Arc, time::Duration};

use fanorona_server::{serve, store, AppState, Config};
use futures_util::{SinkExt, StreamExt};
use reqwest::{header, redirect, StatusCode};
use serde_json::{json, Value};
use tempfile::TempDir;
use tokio::{net::TcpListener, sync::oneshot, task::JoinHandle};
use tokio_tungstenite::{
    tungstenite::{client::IntoClientRequest, Message},
    MaybeTlsStream, WebSocketStream,
};

/// The tests that load the whole machine (a flood of the computer's
/// searches, servers killed again and again, thousands of sockets, a
/// process's CPU measured) hold this while they run. In one test binary
/// they would otherwise run beside one another and each time its own
/// bounds against the others' load.
static MACHINE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Waits until no other machine-loading test runs; hold the guard for the
/// whole test.
pub async fn alone() -> tokio::sync::MutexGuard<'static, ()> {
    MACHINE.lock().await
}

/// How long any wait may take before the test fails.
pub const WAIT: Duration = Duration::from_secs(10);

/// A running server and the directory of its database.
pub struct TestServer {
    pub addr: SocketAddr,
    pub http: reqwest::Client,
    /// Kept so the database outlives the server.
    pub dir: Option<Arc<TempDir>>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(redirect::Policy::none())
        .build()
        .unwrap()
}

/// The database URL of the server files in `dir`.
pub fn database_url(dir: &TempDir) -> String {
    format!("sqlite://{}", dir.path().join("fanorona.db").display())
}

/// Starts a server with a fresh database and test-friendly settings.
pub async fn start() -> TestServer {
    start_in(Arc::new(tempfile::tempdir().unwrap()), |_| {}).await
}

/// Starts a server on the database in `dir`, after `configure` has changed
/// the default test configuration (custom starts allowed, a 10 ms
/// abandonment delay, rate limits and per-address caps out of the way).
pub async fn start_in(dir: Arc<TempDir>, configure: impl FnOnce(&mut Config)) -> TestServer {
    let store = store::open(&database_url(&dir)).await.unwrap();
    start_with_store(dir, store, configure).await
}

/// Starts a server over `store` (whose files are in `dir`), after
/// `configure` has changed the default test configuration.
pub async fn start_with_store(
    dir: Arc<TempDir>,
    store: Arc<dyn store::Store>,
    configure: impl FnOnce(&mut Config),
) -> TestServer {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new("warn"))
        .with_test_writer()
        .try_init();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut config = Config::with_defaults(addr, &database_url(&dir));
    config.allow_custom_start = true;
    config.abandon_after = Duration::from_millis(10);
    config.create_per_minute = 100_000;
    config.intents_per_second = 100_000;
    config.sockets_per_address = 100_000;
    config.connections_per_address = 100_000;
    config.computer_games_per_address = 100_000;
    // The 4-stone tables, solved in a second: the 5-stone ones would take
    // a core for tens of seconds from the first computer game on.
    config.engine_table_stones = 4;
    configure(&mut config);
    let state = AppState::new(config, store);
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(serve(listener, state, async {
        let _ = stopped.await;
    }));
    TestServer {
        addr,
        http: http_client(),
        dir: Some(dir),
        stop: Some(stop),
        task: Some(task),
    }
}

impl TestServer {
    /// A client of a server running elsewhere (another process).
    pub fn remote(addr: &str) -> TestServer {
        TestServer {
            addr: addr.parse().unwrap(),
            http: http_client(),
            dir: None,
            stop: None,
            task: None,
        }
    }

    /// An HTTP client whose connections come from `local`, an address of
    /// 127.0.0.0/8: to the server, another client.
    pub fn http_from(&self, local: std::net::IpAddr) -> reqwest::Client {
        reqwest::Client::builder()
            .redirect(redirect::Policy::none())
            .local_address(local)
            .build()
            .unwrap()
    }

    /// `http://addr` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Shuts the server down and waits until it has stopped.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            tokio::time::timeout(WAIT, task)
                .await
                .expect("the server stops in time")
                .unwrap()
                .unwrap();
        }
    }

    /// POSTs JSON text; returns the status and the body as JSON.
    pub async fn post(&self, path: &str, body: &str, bearer: Option<&str>) -> (StatusCode, Value) {
        let (status, text) = self.post_text(path, body, bearer).await;
        (status, serde_json::from_str(&text).unwrap())
    }

    /// POSTs JSON text; returns the status and the body as text.
    pub async fn post_text(
        &self,
        path: &str,
        body: &str,
        bearer: Option<&str>,
    ) -> (StatusCode, String) {
        let mut req = self
            .http
            .post(self.url(path))
            .header(header::CONTENT_TYPE, "application/json")
            .body(body.to_owned());
        if let Some(secret) = bearer {
            req = req.bearer_auth(secret);
        }
        let resp = req.send().await.unwrap();
        (resp.status(), resp.text().await.unwrap())
    }

    /// Creates a game; returns the creation answer and the seat cookie.
    pub async fn create(&self, body: Value) -> (Value, String) {
        let resp = self
            .http
            .post(self.url("/api/games"))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::CREATED);
        let cookie = set_cookie(&resp).expect("a seat cookie");
        (resp.json().await.unwrap(), cookie)
    }

    /// Joins game `id` with its invitation, sending `cookie` if given.
    pub async fn join(
        &self,
        id: &str,
        invite: &str,
        cookie: Option<&str>,
    ) -> (Value, Option<String>) {
        let mut req = self
            .http
            .post(self.url(&format!("/api/games/{id}/join")))
            .json(&json!({ "invite": invite }));
        if let Some(cookie) = cookie {
            req = req.header(header::COOKIE, cookie_pair(cookie));
        }
        let resp = req.send().await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        let cookie = set_cookie(&resp);
        (resp.json().await.unwrap(), cookie)
    }

    /// The body of `GET path` (`/metrics`, a record...) as text.
    pub async fn get_text(&self, path: &str) -> String {
        self.http
            .get(self.url(path))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }

    /// The state of game `id` as raw text.
    pub async fn state_text(&self, id: &str) -> String {
        let resp = self
            .http
            .get(self.url(&format!("/api/games/{id}")))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        resp.text().await.unwrap()
    }

    /// The state of game `id`.
    pub async fn state(&self, id: &str) -> Value {
        serde_json::from_str(&self.state_text(id).await).unwrap()
    }

    /// Plays an intent over HTTP for `secret`; returns status and body.
    pub async fn intent(&self, id: &str, secret: &str, intent: Value) -> (StatusCode, Value) {
        self.post(
            &format!("/api/games/{id}/intents"),
            &intent.to_string(),
            Some(secret),
        )
        .await
    }

    /// Plays an intent that must be accepted; returns the new state.
    pub async fn play(&self, id: &str, secret: &str, intent: Value) -> Value {
        let (status, body) = self.intent(id, secret, intent.clone()).await;
        assert_eq!(status, StatusCode::OK, "{intent} refused: {body}");
        body
    }

    /// A game with both seats taken: (id, white secret, black secret).
    pub async fn two_player_game(&self, position: Option<&str>) -> (String, String, String) {
        let mut body = json!({ "first": "me" });
        if let Some(p) = position {
            body["position"] = json!(p);
        }
        let (created, _) = self.create(body).await;
        let id = created["game_id"].as_str().unwrap().to_owned();
        let (joined, _) = self.join(&id, invite_of(&created), None).await;
        assert_eq!(joined["role"], "black");
        (
            id,
            created["seat"].as_str().unwrap().to_owned(),
            joined["seat"].as_str().unwrap().to_owned(),
        )
    }
}

/// Plays `turns` complete turns, each the first legal step of the side to
/// move and then the end of its chain; returns the last state.
pub async fn play_turns(server: &TestServer, id: &str, secrets: [&str; 2], turns: usize) -> Value {
    let mut state = server.state(id).await;
    for _ in 0..turns {
        let mover = state["side_to_move"].clone();
        let secret = if mover == "white" {
            secrets[0]
        } else {
            secrets[1]
        };
        let step = state["legal_steps"][0].clone();
        let intent =
            json!({ "type": "step", "from": step["from"], "to": step["to"], "kind": step["kind"] });
        state = server.play(id, secret, intent).await;
        if state["side_to_move"] == mover && state["result"].is_null() {
            state = server.play(id, secret, json!({ "type": "end_turn" })).await;
        }
    }
    state
}

/// A state's text without what changes by itself (version, presence):
/// what an action changes.
pub fn durable(text: &str) -> Value {
    let mut state: Value = serde_json::from_str(text).unwrap();
    let object = state.as_object_mut().unwrap();
    for volatile in ["version", "players", "abandoned", "watching"] {
        object.remove(volatile);
    }
    state
}

/// The invitation token in a creation answer's invite link.
pub fn invite_of(created: &Value) -> &str {
    let link = created["invite_link"].as_str().unwrap();
    link.split("invite=").nth(1).unwrap()
}

/// The first `Set-Cookie` header of a response, whole.
pub fn set_cookie(resp: &reqwest::Response) -> Option<String> {
    resp.headers()
        .get(header::SET_COOKIE)
        .map(|v| v.to_str().unwrap().to_owned())
}

/// `name=value` of a whole `Set-Cookie` header.
pub fn cookie_pair(set_cookie: &str) -> &str {
    set_cookie.split(';').next().unwrap()
}

/// A WebSocket client of one game.
pub struct Ws {
    stream: WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>,
}

impl Ws {
    /// Connects to game `id` as the holder of `secret` (bearer header), or
    /// as a spectator.
    pub async fn connect(server: &TestServer, id: &str, secret: Option<&str>) -> Ws {
        match secret {
            Some(s) => {
                let bearer = format!("Bearer {s}");
                Ws::connect_headers(server, id, &[("authorization", &bearer)]).await
            }
            None => Ws::connect_headers(server, id, &[]).await,
        }
    }

    /// Connects to game `id` sending the given `Cookie` header.
    pub async fn connect_cookie(server: &TestServer, id: &str, cookie: &str) -> Ws {
        Ws::connect_headers(server, id, &[("cookie", cookie)]).await
    }

    /// Connects to game `id` sending the given headers.
    pub async fn connect_headers(server: &TestServer, id: &str, headers: &[(&str, &str)]) -> Ws {
        let url = format!("ws://{}/api/games/{id}/ws", server.addr);
        let mut req = url.into_client_request().unwrap();
        for (name, value) in headers {
            let name = header::HeaderName::from_bytes(name.as_bytes()).unwrap();
            req.headers_mut().insert(name, value.parse().unwrap());
        }
        let (stream, _) = tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(req))
            .await
            .expect("connects in time")
            .unwrap();
        Ws { stream }
    }

    /// Connects to game `id` from the local address `local` (of
    /// 127.0.0.0/8), as the holder of `secret` or as a spectator.
    pub async fn connect_from(
        server: &TestServer,
        id: &str,
        secret: Option<&str>,
        local: std::net::IpAddr,
    ) -> Ws {
        let url = format!("ws://{}/api/games/{id}/ws", server.addr);
        let mut req = url.into_client_request().unwrap();
        if let Some(secret) = secret {
            let bearer = format!("Bearer {secret}").parse().unwrap();
            req.headers_mut().insert(header::AUTHORIZATION, bearer);
        }
        let connect = async {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind(SocketAddr::new(local, 0))?;
            let tcp = socket.connect(server.addr).await?;
            tokio_tungstenite::client_async(req, MaybeTlsStream::Plain(tcp))
                .await
                .map_err(std::io::Error::other)
        };
        let (stream, _) = tokio::time::timeout(WAIT, connect)
            .await
            .expect("connects in time")
            .unwrap();
        Ws { stream }
    }

    /// Sends one text frame.
    pub async fn send(&mut self, text: &str) {
        self.stream.send(Message::text(text)).await.unwrap();
    }

    /// The next text frame, raw.
    pub async fn next_text(&mut self) -> String {
        loop {
            let msg = tokio::time::timeout(WAIT, self.stream.next())
                .await
                .expect("a message in time")
                .expect("the socket stays open")
                .unwrap();
            if let Message::Text(text) = msg {
                return text.to_string();
            }
        }
    }

    /// The next message, as JSON.
    pub async fn next(&mut self) -> Value {
        serde_json::from_str(&self.next_text().await).unwrap()
    }

    /// Skips messages until a state for which `pred` holds; returns its raw
    /// text and value.
    pub async fn state_where(&mut self, pred: impl Fn(&Value) -> bool) -> (String, Value) {
        loop {
            let text = self.next_text().await;
            let value: Value = serde_json::from_str(&text).unwrap();
            if value["type"] == "state" && pred(&value) {
                return (text, value);
            }
        }
    }

    /// Skips states until an error arrives.
    pub async fn error(&mut self) -> Value {
        loop {
            let value = self.next().await;
            if value["type"] == "error" {
                return value;
            }
        }
    }

    /// The underlying stream, to read frames other than text.
    pub fn into_inner(self) -> WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>> {
        self.stream
    }

    /// Closes the socket and waits for the server's close.
    pub async fn close(mut self) {
        let _ = self.stream.close(None).await;
        while let Ok(Some(Ok(_))) = tokio::time::timeout(WAIT, self.stream.next()).await {}
    }
}

/// The text of `docs/API.md`.
pub fn api_doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/API.md");
    std::fs::read_to_string(path).unwrap()
}

/// The code blocks of `docs/API.md` whose info string is `json {tag}`.
pub fn doc_blocks(tag: &str) -> Vec<String> {
    let doc = api_doc();
    let fence = format!("```json {tag}");
    let mut blocks = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if line.trim() == fence {
            let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
            blocks.push(block.join("\n"));
        }
    }
    blocks
}

/// The error table of `docs/API.md`: code to HTTP status.
pub fn documented_errors() -> std::collections::HashMap<String, u16> {
    api_doc()
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let code = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            let status = cells.get(2)?.parse().ok()?;
            Some((code.to_owned(), status))
        })
        .collect()
}

/// Replays a stored game through the rules from its start position and
/// panics, naming `what`, on the first action the rules refuse.
pub fn replay_legally(stored: &fanorona_server::store::StoredGame, what: &str) {
    let setup: fanorona::Setup = stored.row.start_position.parse().unwrap();
    let start = fanorona::Position::from_setup(setup).unwrap();
    let mut game = fanorona_server::game::Game::new(start);
    for (n, action) in stored.actions.iter().enumerate() {
        game.apply(*action)
            .unwrap_or_else(|e| panic!("{what}: action {n} is illegal: {e}"));
    }
}
