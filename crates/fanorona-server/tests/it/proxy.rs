//! Two processes of the real binary on one PostgreSQL database, nginx in
//! front of them with the configuration `docs/DEPLOY.md` shows
//! (`deploy/nginx.conf`). White plays through process 1, Black through
//! process 2, a spectator watches through the proxy: a full game. Then
//! intents for the same turn sent to both processes at once, many times:
//! exactly one is played each time. Then, in a second game, process 1 is
//! killed (SIGKILL) and White reconnects through the proxy, which leads it
//! to process 2, and the game is finished.
//!
//! The limits of the same configuration count per client address for the
//! whole site: one address past `limit_conn` (requests held half sent) or
//! past `limit_req` (a burst) is refused with `429` at nginx, while
//! another address plays on.
//!
//! Needs PostgreSQL (see `common/postgres.rs`) and nginx (Debian's
//! package; `.ci/run` installs it). Without either it is skipped with a
//! loud line on stderr, and fails under `CI=true`.

use crate::common;

use std::{
    io::Write,
    net::{IpAddr, Ipv4Addr, SocketAddr},
    path::Path,
    process::Stdio,
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        Arc,
    },
    time::Duration,
};

use common::{
    across::{game_across, race, some_intent},
    durable,
    postgres::Schema,
    process::{spawn_binary, terminate, NO_RATE_LIMITS},
    TestServer, Ws, WAIT,
};
use serde_json::Value;
use tokio::{
    io::AsyncWriteExt,
    net::{TcpSocket, TcpStream},
    process::{Child, Command},
};

/// The configuration the docs show, as this test runs it.
const CONFIG: &str = include_str!("../../../../deploy/nginx.conf");

/// Prints why the test is skipped, or fails under `CI=true`.
fn skip(why: &str) {
    let line = format!("SKIPPED: {why}: tests/it/proxy.rs did not run");
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{line} (.ci/run installs it)"
    );
    let _ = writeln!(std::io::stderr(), "\n!!!!!!!! {line}\n");
}

/// The nginx binary, if installed.
fn nginx() -> Option<String> {
    ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .map(str::to_owned)
}

/// A free port below 32768 (the ports above are the clients' here).
fn free_port() -> u16 {
    let mut rng = fastrand::Rng::new();
    for _ in 0..200 {
        let port = rng.u16(20_000..32_000);
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port below 32768");
}

/// `CONFIG` with its four lines that name this machine replaced; each
/// must be there, so the file cannot drift from what is tested.
fn config(upstreams: [&str; 2], port: u16, dir: &Path) -> String {
    let replace = |text: String, from: &str, to: &str| {
        assert!(text.contains(from), "deploy/nginx.conf has no {from:?}");
        text.replacen(from, to, 1)
    };
    let mut text = CONFIG.to_owned();
    text = replace(text, "127.0.0.1:8081", upstreams[0]);
    text = replace(text, "127.0.0.1:8082", upstreams[1]);
    text = replace(text, "listen 80;", &format!("listen 127.0.0.1:{port};"));
    let pid = format!("pid {};", dir.join("nginx.pid").display());
    text = replace(text, "pid /run/nginx-fanorona.pid;", &pid);
    let log = format!("error_log {} warn;", dir.join("error.log").display());
    replace(
        text,
        "error_log /var/log/nginx/fanorona-error.log warn;",
        &log,
    )
}

/// Starts nginx in the foreground, as one process, on `port`; returns it
/// once it answers.
async fn start_nginx(binary: &str, conf: &str, port: u16, dir: &Path) -> (Child, TestServer) {
    let file = dir.join("nginx.conf");
    std::fs::write(&file, conf).unwrap();
    let mut child = Command::new(binary)
        .args(["-p", &dir.display().to_string(), "-c"])
        .arg(&file)
        // One process: killing it (at the end, or on a panic when it is
        // dropped) leaves no worker behind, as a killed master would.
        .args(["-g", "daemon off; master_process off;"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let proxy = TestServer::remote(&format!("127.0.0.1:{port}"));
    let up = tokio::time::timeout(WAIT, async {
        loop {
            if let Ok(resp) = proxy.http.get(proxy.url("/healthz")).send().await {
                return resp.status();
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!("nginx exited: {status}");
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("nginx answers in time");
    assert_eq!(up, reqwest::StatusCode::OK);
    (child, proxy)
}

/// Plays game `id` on `sockets` (White's, Black's, then watchers') from
/// action `seq` until it ends or reaches `until` actions; every socket
/// must see every state, identical. Returns the last state.
async fn play(sockets: &mut [Ws], mut seq: u64, until: u64, rng: &mut fastrand::Rng) -> Value {
    loop {
        let mut seen = Vec::new();
        for socket in sockets.iter_mut() {
            let (text, _) = socket.state_where(|s| s["seq"] == seq).await;
            seen.push(durable(&text));
        }
        assert!(seen.windows(2).all(|w| w[0] == w[1]), "action {seq}");
        let state = seen.pop().unwrap();
        if !state["result"].is_null() || seq == until {
            return state;
        }
        let mover = usize::from(state["side_to_move"] == "black");
        sockets[mover]
            .send(&some_intent(&state, rng).to_string())
            .await;
        seq += 1;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_behind_nginx_play_race_and_survive_a_kill() {
    let Some(binary) = nginx() else {
        skip("nginx is not installed (apt-get install nginx)");
        return;
    };
    let Some(schema) =
        Schema::create("two_processes_behind_nginx_play_race_and_survive_a_kill").await
    else {
        return;
    };
    let url = schema.url();
    let mut args = NO_RATE_LIMITS.to_vec();
    args.extend(["--trusted-proxy-header", "x-forwarded-for"]);
    let (mut one, addr_one) = spawn_binary(&url, &args).await;
    let (mut two, addr_two) = spawn_binary(&url, &args).await;
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let conf = config([&addr_one, &addr_two], port, dir.path());
    let (mut nginx, proxy) = start_nginx(&binary, &conf, port, dir.path()).await;
    let (p1, p2) = (TestServer::remote(&addr_one), TestServer::remote(&addr_two));
    let mut rng = fastrand::Rng::with_seed(2026);
    let ready = proxy.http.get(proxy.url("/readyz")).send().await.unwrap();
    assert_eq!(ready.status(), reqwest::StatusCode::OK);
    // The figures are each process's, for monitoring, not the public's.
    let figures = proxy.http.get(proxy.url("/metrics")).send().await.unwrap();
    assert_eq!(figures.status(), reqwest::StatusCode::FORBIDDEN);
    let figures = p1.http.get(p1.url("/metrics")).send().await.unwrap();
    assert_eq!(figures.status(), reqwest::StatusCode::OK);

    // A full game: White through process 1, Black through process 2, a
    // spectator through the proxy.
    let (id, white, black) = game_across(&proxy, &p2).await;
    let mut sockets = [
        Ws::connect(&p1, &id, Some(&white)).await,
        Ws::connect(&p2, &id, Some(&black)).await,
        Ws::connect(&proxy, &id, None).await,
    ];
    let end = play(&mut sockets, 0, u64::MAX, &mut rng).await;
    assert!(!end["result"].is_null());
    let actions = end["seq"].as_u64().unwrap();

    // Intents for the same turn at both processes at once.
    let (mut tries, mut changed) = (0, 0);
    while tries < 40 {
        let (id, white, black) = game_across(&p1, &p2).await;
        let mut state = p1.state(&id).await;
        while state["result"].is_null() && tries < 40 {
            let secret = if state["side_to_move"] == "white" {
                &white
            } else {
                &black
            };
            let (won, lost_as_changed) = race((&p1, &p2), &id, secret, &state, &mut rng).await;
            tries += 1;
            changed += usize::from(lost_as_changed);
            state = won;
        }
    }

    // A second game; process 1 is killed in its middle.
    let (id, white, black) = game_across(&p1, &p2).await;
    let mut sockets = [
        Ws::connect(&p1, &id, Some(&white)).await,
        Ws::connect(&p2, &id, Some(&black)).await,
        Ws::connect(&proxy, &id, None).await,
    ];
    let middle = play(&mut sockets, 0, 12, &mut rng).await;
    one.start_kill().unwrap();
    one.wait().await.unwrap();
    let [_, black_socket, _] = sockets;
    // White and a spectator come back through the proxy: only process 2
    // is left to answer.
    let mut sockets = [
        Ws::connect(&proxy, &id, Some(&white)).await,
        black_socket,
        Ws::connect(&proxy, &id, None).await,
    ];
    let seq = middle["seq"].as_u64().unwrap();
    let last = play(&mut sockets, seq, u64::MAX, &mut rng).await;
    assert!(!last["result"].is_null(), "finished after the kill");
    assert_eq!(durable(&p2.state_text(&id).await), last);

    println!(
        "through nginx: a game of {actions} actions; {tries} races, one winner each \
         ({changed} refused as game_changed); a game of {} actions finished after a kill",
        last["seq"]
    );
    assert!(terminate(&mut two).await, "SIGTERM stops process 2 cleanly");
    nginx.start_kill().unwrap();
    nginx.wait().await.unwrap();
}

/// The limits of `deploy/nginx.conf`, as it ships: one address may have
/// this many requests in progress (`limit_conn`), and send this many at
/// once (`limit_req`'s burst).
const REQUESTS_IN_PROGRESS: usize = 256;
const BURST: usize = 500;

/// A client of the proxy from another address of the loopback network,
/// as another person's would be: nginx counts its limits per address.
fn client_from(address: Ipv4Addr) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(address))
        .build()
        .unwrap()
}

/// A request from `from` that sends its headers and the first byte of its
/// body, then waits: a request in progress at nginx, which reads its body
/// before passing it on.
async fn half_sent(from: Ipv4Addr, proxy: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(IpAddr::V4(from), 0)).unwrap();
    let mut stream = socket.connect(proxy).await.unwrap();
    let head = "POST /api/games HTTP/1.1\r\nHost: fanorona\r\n\
                Content-Type: application/json\r\nContent-Length: 4096\r\n\r\n{";
    stream.write_all(head.as_bytes()).await.unwrap();
    stream
}

/// Asks `path` of the proxy from `client` until the answer is `429`;
/// returns how many were answered otherwise first, and the refusal.
async fn until_refused(
    proxy: &TestServer,
    client: &reqwest::Client,
    path: &str,
    at_once: usize,
) -> (usize, Value) {
    let passed = Arc::new(AtomicUsize::new(0));
    let refused = Arc::new(AtomicBool::new(false));
    let askers = (0..at_once).map(|_| {
        let (client, url) = (client.clone(), proxy.url(path));
        let (passed, refused) = (passed.clone(), refused.clone());
        tokio::spawn(async move {
            while !refused.load(Ordering::SeqCst) {
                let resp = client.get(&url).send().await.unwrap();
                if resp.status() == reqwest::StatusCode::TOO_MANY_REQUESTS {
                    refused.store(true, Ordering::SeqCst);
                    return Some(resp.json::<Value>().await.unwrap());
                }
                assert_eq!(resp.status(), reqwest::StatusCode::OK);
                passed.fetch_add(1, Ordering::SeqCst);
            }
            None
        })
    });
    let answers = tokio::time::timeout(WAIT, futures_util::future::join_all(askers))
        .await
        .expect("refused in time");
    let refusal = answers.into_iter().find_map(|a| a.unwrap()).unwrap();
    (passed.load(Ordering::SeqCst), refusal)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nginx_refuses_one_address_past_its_limits_while_another_plays() {
    let Some(binary) = nginx() else {
        skip("nginx is not installed (apt-get install nginx)");
        return;
    };
    let test = "nginx_refuses_one_address_past_its_limits_while_another_plays";
    let Some(schema) = Schema::create(test).await else {
        return;
    };
    let url = schema.url();
    let mut args = NO_RATE_LIMITS.to_vec();
    args.extend(["--trusted-proxy-header", "x-forwarded-for"]);
    let (mut one, addr_one) = spawn_binary(&url, &args).await;
    let (mut two, addr_two) = spawn_binary(&url, &args).await;
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let conf = config([&addr_one, &addr_two], port, dir.path());
    let (mut nginx, proxy) = start_nginx(&binary, &conf, port, dir.path()).await;
    let mut rng = fastrand::Rng::with_seed(21);

    // One address holds more requests half sent than it may; the body
    // goes on a byte at a time, as a slow client's would, so that nginx
    // does not time them out meanwhile.
    let holder = Ipv4Addr::new(127, 0, 0, 2);
    let mut held = Vec::new();
    for _ in 0..REQUESTS_IN_PROGRESS + 20 {
        held.push(half_sent(holder, proxy.addr).await);
    }
    let trickle = tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(2));
        loop {
            every.tick().await;
            for stream in &mut held {
                let _ = stream.write_all(b" ").await;
            }
        }
    });
    let (_, refusal) = until_refused(&proxy, &client_from(holder), "/healthz", 1).await;
    assert_eq!(refusal["code"], "rate_limited", "{refusal}");

    // Another address plays a game through the proxy meanwhile, with a
    // spectator's tab open too.
    let (id, white, black) = game_across(&proxy, &proxy).await;
    let mut sockets = [
        Ws::connect(&proxy, &id, Some(&white)).await,
        Ws::connect(&proxy, &id, Some(&black)).await,
        Ws::connect(&proxy, &id, None).await,
    ];
    let state = play(&mut sockets, 0, 6, &mut rng).await;
    assert_eq!(state["seq"], 6);
    trickle.abort();

    // A third address sends requests as fast as it can: the burst passes,
    // then nginx refuses; the player's address is still served.
    let flood = client_from(Ipv4Addr::new(127, 0, 0, 3));
    let (passed, refusal) = until_refused(&proxy, &flood, "/healthz", 8).await;
    assert!(passed >= BURST, "only {passed} passed before the first 429");
    assert_eq!(refusal["code"], "rate_limited", "{refusal}");
    let health = proxy.http.get(proxy.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), reqwest::StatusCode::OK);
    assert_eq!(proxy.state(&id).await["seq"], 6);
    println!("through nginx: {passed} requests of a burst passed before the first 429");

    assert!(terminate(&mut one).await, "SIGTERM stops process 1 cleanly");
    assert!(terminate(&mut two).await, "SIGTERM stops process 2 cleanly");
    nginx.start_kill().unwrap();
    nginx.wait().await.unwrap();
}
