//! What an operator relies on, against the real binary: a damaged database
//! is refused at start and left as it is, and no log level writes a
//! secret.
#![allow(clippy::unwrap_used)]

mod common;

use std::{
    path::Path,
    process::Stdio,
    sync::{Arc, Mutex},
};

use common::{
    invite_of,
    process::{spawn_binary, terminate, NO_RATE_LIMITS},
    TestServer, Ws, WAIT,
};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio::{
    io::AsyncReadExt,
    process::{Child, Command},
    sync::watch,
};

const BINARY: &str = env!("CARGO_BIN_EXE_fanorona-server");

fn sha256(path: &Path) -> Vec<u8> {
    Sha256::digest(std::fs::read(path).unwrap()).to_vec()
}

/// Plays `n` games over HTTP with a few steps each, so the file has many
/// pages.
async fn fill(server: &TestServer, n: usize) {
    for _ in 0..n {
        let (id, white, black) = server.two_player_game(None).await;
        let mut seats = [white, black].into_iter().cycle();
        let mut state = server.state(&id).await;
        for _ in 0..4 {
            let seat = seats.next().unwrap();
            let step = &state["legal_steps"][0];
            let intent = json!({ "type": "step", "from": step["from"], "to": step["to"], "kind": step["kind"] });
            state = server.play(&id, &seat, intent).await;
            if state["can_end_turn"] == true {
                state = server.play(&id, &seat, json!({ "type": "end_turn" })).await;
            }
        }
    }
}

#[tokio::test]
async fn a_damaged_database_is_refused_at_start_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let database = common::database_url(&dir);
    let file = dir.path().join("fanorona.db");
    let (mut child, addr) = spawn_binary(&database, &NO_RATE_LIMITS).await;
    fill(&TestServer::remote(&addr), 40).await;
    assert!(terminate(&mut child).await);
    // Everything into the main file, so the page below is live data.
    let conn = rusqlite::Connection::open(&file).unwrap();
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .unwrap();
    let pages: u64 = conn
        .query_row("PRAGMA page_count", [], |row| row.get(0))
        .unwrap();
    let page_size: u64 = conn
        .query_row("PRAGMA page_size", [], |row| row.get(0))
        .unwrap();
    drop(conn);
    assert!(pages >= 8, "only {pages} pages");
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = usize::try_from(pages / 2 * page_size).unwrap();
    let mut rng = fastrand::Rng::with_seed(7);
    for byte in &mut bytes[middle..middle + usize::try_from(page_size).unwrap()] {
        *byte = rng.u8(..);
    }
    std::fs::write(&file, &bytes).unwrap();
    assert_eq!(&bytes[..16], b"SQLite format 3\0", "the header is intact");
    let before = sha256(&file);

    let output = tokio::time::timeout(
        WAIT,
        Command::new(BINARY)
            .args(["--listen", "127.0.0.1:0", "--database", &database])
            .env("NO_COLOR", "1")
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("the server gives up in time")
    .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "it must not start: {stderr}");
    assert!(
        stderr.contains(&format!("{} is damaged", file.display())),
        "{stderr}"
    );
    assert!(stderr.contains("restore your last backup"), "{stderr}");
    assert!(
        !String::from_utf8_lossy(&output.stdout).contains("listening on"),
        "it never listened"
    );
    assert_eq!(sha256(&file), before, "the file is untouched");
}

/// The real binary with everything it writes (stdout and stderr) kept.
struct Logged {
    child: Child,
    output: Arc<Mutex<Vec<u8>>>,
    grew: watch::Receiver<usize>,
}

impl Logged {
    async fn spawn(database: &str, args: &[&str], env: &[(&str, &str)]) -> (Logged, String) {
        let mut child = Command::new(BINARY)
            .args(["--listen", "127.0.0.1:0", "--database", database])
            .args(NO_RATE_LIMITS)
            .args(args)
            .envs(env.iter().copied())
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let output = Arc::new(Mutex::new(Vec::new()));
        let (tell, grew) = watch::channel(0);
        let tell = Arc::new(tell);
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        for mut pipe in [
            Box::new(stdout) as Box<dyn tokio::io::AsyncRead + Unpin + Send>,
            Box::new(stderr),
        ] {
            let (output, tell) = (output.clone(), tell.clone());
            tokio::spawn(async move {
                let mut buffer = [0u8; 8192];
                while let Ok(n @ 1..) = pipe.read(&mut buffer).await {
                    let mut all = output.lock().unwrap();
                    all.extend_from_slice(&buffer[..n]);
                    tell.send_replace(all.len());
                }
            });
        }
        let mut logged = Logged {
            child,
            output,
            grew,
        };
        let address = tokio::time::timeout(WAIT, async {
            loop {
                if let Some(address) = logged.text().split("listening on http://").nth(1) {
                    if let Some(address) = address.split_whitespace().next() {
                        return address.to_owned();
                    }
                }
                logged.grew.changed().await.expect("the server listens");
            }
        })
        .await
        .expect("the server starts in time");
        (logged, address)
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
    }
}

/// Plays a game the way people do, touching every path a secret takes:
/// creation, both links opened, joining, sockets for both seats, steps
/// over the socket and HTTP, refused messages. Returns the secrets.
async fn play_with_secrets(server: &TestServer) -> Vec<String> {
    let (created, _) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap().to_owned();
    let white = created["seat"].as_str().unwrap().to_owned();
    let invite = invite_of(&created).to_owned();
    let path_of = |link: &str| {
        let url = created[link].as_str().unwrap().to_owned();
        url.split_once(&server.addr.to_string())
            .unwrap()
            .1
            .to_owned()
    };
    for link in ["seat_link", "spectator_link"] {
        server
            .http
            .get(server.url(&path_of(link)))
            .send()
            .await
            .unwrap();
    }
    // Opening the invitation link may take the free seat (with a cookie);
    // joining with that cookie, or without one, gives the seat.
    let opened = server
        .http
        .get(server.url(&path_of("invite_link")))
        .send()
        .await
        .unwrap();
    let mut join = server
        .http
        .post(server.url(&format!("/api/games/{id}/join")))
        .json(&json!({ "invite": invite }));
    if let Some(cookie) = common::set_cookie(&opened) {
        join = join.header("cookie", common::cookie_pair(&cookie).to_owned());
    }
    let joined: Value = join.send().await.unwrap().json().await.unwrap();
    let black = joined["seat"]
        .as_str()
        .expect("the friend's seat")
        .to_owned();
    let mut white_ws = Ws::connect(server, &id, Some(&white)).await;
    let mut black_ws = Ws::connect(server, &id, Some(&black)).await;
    white_ws
        .send(r#"{"type":"step","from":"d3","to":"e3","kind":"approach"}"#)
        .await;
    let (_, mut state) = white_ws.state_where(|s| s["seq"] == 1).await;
    if state["side_to_move"] == "white" {
        white_ws.send(r#"{"type":"end_turn"}"#).await;
        state = white_ws.state_where(|s| s["seq"] == 2).await.1;
    }
    white_ws.send(&format!(r#"{{"type":"{white}"}}"#)).await;
    assert_eq!(white_ws.error().await["code"], "unknown_type");
    let (status, _) = server
        .post(
            &format!("/api/games/{id}/intents"),
            &format!(r#"{{"type":"step","from":"{black}"}}"#),
            Some(&black),
        )
        .await;
    assert_eq!(status, reqwest::StatusCode::BAD_REQUEST);
    let step = &state["legal_steps"][0];
    let seq = state["seq"].as_u64().unwrap();
    black_ws
        .send(&json!({ "type": "step", "from": step["from"], "to": step["to"], "kind": step["kind"] }).to_string())
        .await;
    black_ws.state_where(|s| s["seq"] == seq + 1).await;
    // Accepted or not, it goes through the log.
    let _ = server
        .intent(&id, &black, json!({ "type": "offer_draw" }))
        .await;
    white_ws.close().await;
    black_ws.close().await;
    vec![white, black, invite]
}

#[tokio::test]
async fn no_log_level_writes_a_secret() {
    for (args, env) in [
        (&["--log", "trace"][..], &[][..]),
        (&[][..], &[("FANORONA_LOG", "trace")][..]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (mut logged, addr) = Logged::spawn(&common::database_url(&dir), args, env).await;
        let secrets = play_with_secrets(&TestServer::remote(&addr)).await;
        assert!(terminate(&mut logged.child).await);
        let text = logged.text();
        assert!(
            text.contains("TRACE"),
            "{args:?} {env:?} logs at trace level"
        );
        for secret in &secrets {
            assert!(
                !text.contains(secret.as_str()),
                "{args:?} {env:?}: a secret is in the log: {}",
                text.lines().find(|l| l.contains(secret.as_str())).unwrap()
            );
        }
    }
}
