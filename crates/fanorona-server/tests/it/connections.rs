//! Slow, half-open and silent clients cannot hold the server: the header
//! timeout closes them, the connection caps answer `503` at once, a
//! WebSocket that stops reading is dropped, and SIGTERM ends the server
//! within its bound whatever the clients hold.

use crate::common;

use std::{
    net::SocketAddr,
    sync::Arc,
    time::{Duration, Instant},
};

use common::{process, start_in, TestServer, Ws, WAIT};
use fanorona_server::Config;
use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
};
use tokio_tungstenite::tungstenite::{
    client::IntoClientRequest, protocol::frame::coding::CloseCode, Message,
};

/// Half a request: the headers never end.
const HALF_REQUEST: &[u8] = b"GET / HTTP/1.1\r\nHost: x\r\nX-";

async fn server(configure: impl FnOnce(&mut Config)) -> TestServer {
    start_in(Arc::new(tempfile::tempdir().unwrap()), configure).await
}

/// A TCP connection to `server` from the loopback address `from`.
async fn connect_from(from: &str, server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    tokio::time::timeout(WAIT, socket.connect(server))
        .await
        .expect("connects in time")
        .unwrap()
}

/// Everything the server sends until it closes the connection.
async fn until_closed(stream: &mut TcpStream) -> Vec<u8> {
    let mut all = Vec::new();
    tokio::time::timeout(WAIT, async {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stream.read(&mut buf).await {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&buf[..n]);
        }
    })
    .await
    .expect("the server closes the connection in time");
    all
}

fn is_busy(answer: &[u8]) -> bool {
    let text = String::from_utf8_lossy(answer).to_ascii_lowercase();
    text.starts_with("http/1.1 503") && text.contains("\r\nretry-after: ")
}

#[tokio::test]
async fn half_open_silent_and_idle_connections_are_closed_after_the_header_timeout() {
    let limit = Duration::from_millis(300);
    let server = server(|c| c.header_timeout = limit).await;
    let started = Instant::now();
    let mut silent = connect_from("127.0.0.1", server.addr).await;
    let mut half = connect_from("127.0.0.1", server.addr).await;
    half.write_all(HALF_REQUEST).await.unwrap();
    // A kept-alive connection: one whole request, then nothing.
    let mut idle = connect_from("127.0.0.1", server.addr).await;
    idle.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let (silent, half, idle) = tokio::join!(
        until_closed(&mut silent),
        until_closed(&mut half),
        until_closed(&mut idle)
    );
    let elapsed = started.elapsed();
    // Closed without an answer; the kept-alive one after its answer.
    assert!(silent.is_empty(), "{}", String::from_utf8_lossy(&silent));
    assert!(half.is_empty(), "{}", String::from_utf8_lossy(&half));
    assert!(String::from_utf8_lossy(&idle).starts_with("HTTP/1.1 200"));
    assert!(elapsed >= limit, "closed after {elapsed:?}");
    assert!(elapsed < limit * 5, "closed after {elapsed:?}");
    // The server still answers.
    let resp = server.http.get(server.url("/")).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    server.stop().await;
}

#[tokio::test]
async fn connections_over_a_cap_get_503_with_retry_after_at_once() {
    let server = server(|c| {
        c.connections_per_address = 2;
        c.max_connections = Some(3);
        c.header_timeout = Duration::from_secs(60);
    })
    .await;
    let _one = connect_from("127.0.0.1", server.addr).await;
    let _two = connect_from("127.0.0.1", server.addr).await;
    // A third from the same address is refused...
    let mut third = connect_from("127.0.0.1", server.addr).await;
    third.write_all(HALF_REQUEST).await.unwrap();
    assert!(is_busy(&until_closed(&mut third).await));
    // ...one from another address is served...
    let mut other = connect_from("127.0.0.2", server.addr).await;
    // ...and then the total is reached for everyone.
    let mut fourth = connect_from("127.0.0.3", server.addr).await;
    assert!(is_busy(&until_closed(&mut fourth).await));
    other
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let answer = until_closed(&mut other).await;
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
    server.stop().await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_only_the_total_cap_applies() {
    let server = server(|c| {
        c.connections_per_address = 1;
        c.max_connections = Some(3);
        c.trusted_proxy_header = Some("x-forwarded-for".into());
        c.header_timeout = Duration::from_secs(60);
    })
    .await;
    let _one = connect_from("127.0.0.1", server.addr).await;
    let _two = connect_from("127.0.0.1", server.addr).await;
    let mut three = connect_from("127.0.0.1", server.addr).await;
    three
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let answer = until_closed(&mut three).await;
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
    server.stop().await;
}

fn step_intent(step: &Value) -> String {
    json!({ "type": "step", "from": step["from"], "to": step["to"], "kind": step["kind"] })
        .to_string()
}

/// Creates a game, joins it, and plays `steps` steps over two sockets.
///
/// A step's outcome is the first state with a higher action number
/// (`seq`): the version counts every state published, presence changes
/// too, so a new version alone may be a state from before the step.
async fn play_a_few_steps(server: &TestServer, steps: usize) {
    let seq = |s: &Value| s["seq"].as_u64().expect("a state has its action number");
    let (id, white, black) = server.two_player_game(None).await;
    let mut w = Ws::connect(server, &id, Some(&white)).await;
    let mut b = Ws::connect(server, &id, Some(&black)).await;
    let (_, mut state) = w.state_where(|_| true).await;
    let mut black_has_seen = 0;
    for _ in 0..steps {
        let step = state["legal_steps"][0].clone();
        let before = seq(&state);
        let black_moves = state["side_to_move"] == "black";
        let mover = if black_moves { &mut b } else { &mut w };
        mover.send(&step_intent(&step)).await;
        state = mover.state_where(|s| seq(s) > before).await.1;
        if black_moves {
            black_has_seen = seq(&state);
        }
    }
    // The other seat hears the last step too.
    let last = seq(&state);
    if black_has_seen < last {
        b.state_where(|s| seq(s) >= last).await;
    }
}

#[tokio::test]
async fn two_thousand_held_connections_leave_room_for_players_under_a_low_descriptor_limit() {
    let _alone = common::alone().await;
    let dir = tempfile::tempdir().unwrap();
    let database = common::database_url(&dir);
    // The rate limits out of the way, but not the per-address cap.
    let mut args = process::NO_RATE_LIMITS[..6].to_vec();
    args.extend(["--connections-per-address", "8", "--header-timeout", "60s"]);
    let (mut child, address) =
        process::spawn_binary_under(&["prlimit", "--nofile=512:512", "--"], &database, &args).await;
    let addr: SocketAddr = address.parse().unwrap();
    // 2,000 connections from 40 addresses send half a request and hold.
    let (sources, per_source) = (40, 50);
    // Each connection reports its answer and how long it took to come;
    // the held ones get none and hold their stream until the test ends.
    let (answers, mut answered) = tokio::sync::mpsc::unbounded_channel();
    let mut readers = Vec::new();
    let started = Instant::now();
    for s in 0..sources {
        let from = format!("127.0.0.{}", s + 2);
        for _ in 0..per_source {
            let mut stream = connect_from(&from, addr).await;
            let sent = Instant::now();
            let _ = stream.write_all(HALF_REQUEST).await;
            let answers = answers.clone();
            readers.push(tokio::spawn(async move {
                let mut buf = [0u8; 512];
                let n = stream.read(&mut buf).await.unwrap_or(0);
                let _ = answers.send((is_busy(&buf[..n]), sent.elapsed()));
                stream
            }));
        }
    }
    let connected = started.elapsed();
    // A person still gets the page and plays.
    let player = TestServer::remote(&address);
    let resp = player.http.get(player.url("/")).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    play_a_few_steps(&player, 4).await;
    // All but 8 per address were refused at once with 503 and Retry-After.
    let held = sources * 8;
    let refused = sources * per_source - held;
    let mut slowest = Duration::ZERO;
    for _ in 0..refused {
        let (busy, took) = tokio::time::timeout(WAIT, answered.recv())
            .await
            .expect("every connection over the cap is answered")
            .unwrap();
        assert!(busy, "an answer other than 503 with Retry-After");
        slowest = slowest.max(took);
    }
    assert!(
        answered.try_recv().is_err(),
        "a held connection was answered"
    );
    // Refused at once, not held until the header timeout (60 s) like the
    // connections under the cap: the bound is that, not a speed.
    assert!(
        slowest < Duration::from_secs(30),
        "a 503 took {slowest:?}: it waited for the header timeout"
    );
    println!(
        "{} connections in {connected:?}: {refused} got 503 (the slowest in {slowest:?}), \
         {held} held; the player was served",
        sources * per_source
    );
    for reader in readers {
        reader.abort();
    }
    assert!(process::terminate(&mut child).await);
}

#[tokio::test]
async fn sigterm_ends_the_server_within_the_bound_whatever_clients_hold() {
    let dir = tempfile::tempdir().unwrap();
    let database = common::database_url(&dir);
    let mut args = process::NO_RATE_LIMITS.to_vec();
    args.extend(["--header-timeout", "60s", "--shutdown-timeout", "2s"]);
    let (mut child, address) = process::spawn_binary(&database, &args).await;
    let addr: SocketAddr = address.parse().unwrap();
    let server = TestServer::remote(&address);
    let (id, white, _) = server.two_player_game(None).await;
    let ws = Ws::connect(&server, &id, Some(&white)).await;
    let mut held = Vec::new();
    for _ in 0..5 {
        let mut half = connect_from("127.0.0.1", addr).await;
        half.write_all(HALF_REQUEST).await.unwrap();
        held.push(half);
        held.push(connect_from("127.0.0.1", addr).await);
    }
    // The server has accepted them: it accepts in order, and a later
    // connection is answered.
    let resp = server.http.get(server.url("/")).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let started = Instant::now();
    assert!(process::terminate(&mut child).await, "exit status 0");
    let elapsed = started.elapsed();
    let mut raw = ws.into_inner();
    let close = tokio::time::timeout(WAIT, async {
        while let Some(Ok(message)) = raw.next().await {
            if let Message::Close(frame) = message {
                return frame.map(|f| f.code);
            }
        }
        None
    })
    .await
    .unwrap();
    assert_eq!(close, Some(CloseCode::Restart));
    assert!(
        elapsed < Duration::from_secs(5),
        "stopped after {elapsed:?}"
    );
    println!("stopped {elapsed:?} after SIGTERM");
}

#[tokio::test]
async fn websockets_are_capped_per_address_across_games() {
    let server = server(|c| c.sockets_per_address = 3).await;
    let (a, ..) = server.two_player_game(None).await;
    let (b, ..) = server.two_player_game(None).await;
    let one = Ws::connect(&server, &a, None).await;
    let _two = Ws::connect(&server, &a, None).await;
    let _three = Ws::connect(&server, &b, None).await;
    let url = format!("ws://{}/api/games/{b}/ws", server.addr);
    let refused =
        tokio_tungstenite::connect_async(url.clone().into_client_request().unwrap()).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
            let body = String::from_utf8(resp.body().clone().unwrap_or_default()).unwrap();
            assert!(body.contains("\"code\":\"too_many_connections\""), "{body}");
        }
        other => panic!("expected 429, got {other:?}"),
    }
    // Once one closes, another may open, on any game.
    one.close().await;
    tokio::time::timeout(WAIT, async {
        loop {
            let request = url.clone().into_client_request().unwrap();
            if tokio_tungstenite::connect_async(request).await.is_ok() {
                return;
            }
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("a socket closed gives its place back");
}

/// A WebSocket client with a tiny receive buffer that never reads after
/// the handshake.
async fn non_reader(server: &TestServer, id: &str, secret: &str) -> impl Sized {
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(server.addr).await.unwrap();
    let url = format!("ws://{}/api/games/{id}/ws", server.addr);
    let mut request = url.into_client_request().unwrap();
    let bearer = format!("Bearer {secret}");
    request
        .headers_mut()
        .insert("authorization", bearer.parse().unwrap());
    tokio::time::timeout(WAIT, tokio_tungstenite::client_async(request, stream))
        .await
        .expect("connects in time")
        .unwrap()
}

#[tokio::test]
async fn a_socket_that_does_not_read_is_dropped_and_its_player_can_lose() {
    let server = server(|c| {
        c.socket_send_timeout = Duration::from_millis(300);
        c.ping_every = Duration::from_secs(3600);
        c.socket_idle = Duration::from_secs(3600);
        c.abandon_after = Duration::from_millis(100);
    })
    .await;
    let (id, white, black) = server.two_player_game(None).await;
    // White is to move and stops reading.
    let _white = non_reader(&server, &id, &white).await;
    let mut b = Ws::connect(&server, &id, Some(&black)).await;
    b.state_where(|s| s["players"]["white"]["connected"] == true)
        .await;
    // Black's other tabs come and go: every coming and going is a new
    // state for White's socket, until its buffers are full.
    let churn = {
        let server = TestServer::remote(&server.addr.to_string());
        let (id, black) = (id.clone(), black.clone());
        tokio::spawn(async move {
            loop {
                let mut tab = Ws::connect(&server, &id, Some(&black)).await;
                tab.next().await;
                tab.close().await;
            }
        })
    };
    let started = Instant::now();
    b.state_where(|s| s["players"]["white"]["connected"] == false)
        .await;
    let dropped_after = started.elapsed();
    churn.abort();
    let (_, state) = b.state_where(|s| s["abandoned"] == true).await;
    assert_eq!(state["side_to_move"], "white");
    b.send(r#"{"type":"claim_victory"}"#).await;
    let (_, state) = b.state_where(|s| !s["result"].is_null()).await;
    assert_eq!(
        state["result"],
        json!({ "winner": "black", "reason": "abandonment" })
    );
    println!("the non-reading socket was dropped {dropped_after:?} after the states began");
    server.stop().await;
}

/// User plus system CPU time of process `pid`, in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Fields after the command name (which may hold spaces): utime and
    // stime are the 12th and 13th.
    let rest = stat.rsplit(") ").next().unwrap();
    let fields: Vec<&str> = rest.split(' ').collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[tokio::test]
async fn out_of_descriptors_the_accept_loop_backs_off_and_recovers() {
    let _alone = common::alone().await;
    let dir = tempfile::tempdir().unwrap();
    let database = common::database_url(&dir);
    // A total cap above the descriptor limit, so accept itself fails.
    let args = [
        "--max-connections",
        "1000",
        "--connections-per-address",
        "1000",
        "--header-timeout",
        "60s",
    ];
    let (mut child, address) =
        process::spawn_binary_under(&["prlimit", "--nofile=64:64", "--"], &database, &args).await;
    let addr: SocketAddr = address.parse().unwrap();
    // The server compresses its files when it starts: wait until it is
    // quiet, so the second measured below holds only what accept costs.
    // A busy machine slows that down, so the wait is generous.
    let pid = child.id().unwrap();
    tokio::time::timeout(6 * WAIT, async {
        loop {
            let before = cpu_ticks(pid);
            tokio::time::sleep(Duration::from_millis(200)).await;
            if cpu_ticks(pid) - before <= 2 {
                return;
            }
        }
    })
    .await
    .expect("the server settles");
    let mut held = Vec::new();
    for _ in 0..80 {
        held.push(connect_from("127.0.0.1", addr).await);
    }
    // The kernel queues the connections the server cannot accept; a loop
    // that retried at once would burn a core meanwhile. Measured over a
    // second, since spinning is a rate; a loop that spins does so for as
    // long as the connections are held, so the quietest of three seconds
    // is taken (on a loaded machine, the work of starting up can still
    // show in the first).
    let mut seconds = Vec::new();
    for _ in 0..3 {
        let before = cpu_ticks(pid);
        tokio::time::sleep(Duration::from_secs(1)).await;
        seconds.push(cpu_ticks(pid) - before);
    }
    let spent = seconds.iter().copied().min().unwrap();
    assert!(
        spent < 30,
        "{seconds:?} ticks of CPU in each second out of descriptors"
    );
    // Once the held connections go, the server accepts again.
    drop(held);
    let server = TestServer::remote(&address);
    let resp = tokio::time::timeout(WAIT, server.http.get(server.url("/")).send())
        .await
        .expect("answered in time")
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    println!("{spent} ticks of CPU in the second out of descriptors");
    assert!(process::terminate(&mut child).await);
}
