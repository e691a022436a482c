//! What an operator relies on, against the real binary: a damaged database
//! is refused at start and left as it is, no log level writes a secret,
//! and a backup taken while games are played restores every game.

use crate::common;
use crate::crash::player;

use std::{
    path::Path,
    process::Stdio,
    sync::{Arc, Mutex},
    time::Duration,
};

use common::{
    invite_of,
    process::{spawn_binary, terminate, NO_RATE_LIMITS},
    TestServer, Ws, WAIT,
};
use fanorona_server::{
    ids::GameId,
    store::{SqliteStore, Store, StoreError},
};
use player::{Record, Shared};
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_during_play_restores_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let database = common::database_url(&dir);
    let copy = dir.path().join("backup.db");
    let (mut child, addr) = spawn_binary(&database, &NO_RATE_LIMITS).await;
    let (_server_tx, server) = watch::channel((0, vec![addr]));
    let (acks, mut acked) = watch::channel(0u64);
    let (done_tx, done) = watch::channel(false);
    let shared = Shared { server, acks, done };
    let mut rng = fastrand::Rng::with_seed(11);
    let players: Vec<_> = (0..6)
        .map(|_| tokio::spawn(player::play(shared.clone(), rng.fork())))
        .collect();
    progress(&mut acked, 60).await;

    let backup = |file: &Path| {
        Command::new(BINARY)
            .args(["--database", &database, "backup"])
            .arg(file)
            .output()
    };
    let made = backup(&copy).await.unwrap();
    let said = String::from_utf8_lossy(&made.stdout);
    assert!(
        made.status.success(),
        "{said} {}",
        String::from_utf8_lossy(&made.stderr)
    );
    assert!(
        said.starts_with("backed up ") && said.contains("integrity ok"),
        "{said}"
    );
    let kept = sha256(&copy);
    let again = backup(&copy).await.unwrap();
    assert!(
        !again.status.success(),
        "an existing file is not overwritten"
    );
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    assert_eq!(sha256(&copy), kept);

    progress(&mut acked, 20).await;
    done_tx.send_replace(true);
    let mut records = Vec::new();
    for player in players {
        records.extend(player.await.unwrap());
    }
    assert!(terminate(&mut child).await);

    let restored = check_backup(&database, &copy, &records).await;
    assert!(restored > 0, "the backup holds games");
    check_playable(&copy, &records).await;
}

/// Waits until the players have had `n` more actions acknowledged.
async fn progress(acked: &mut watch::Receiver<u64>, n: u64) {
    let target = *acked.borrow() + n;
    tokio::time::timeout(Duration::from_secs(60), acked.wait_for(|a| *a >= target))
        .await
        .expect("the players make progress")
        .unwrap();
}

/// Every game of the backup has a prefix of the actions the live database
/// holds now, and replays legally; returns how many games it holds.
async fn check_backup(database: &str, copy: &Path, records: &[Record]) -> usize {
    let live = SqliteStore::open(database).await.unwrap();
    let backup = SqliteStore::open(&format!("sqlite://{}", copy.display()))
        .await
        .unwrap();
    let mut restored = 0;
    for record in records {
        let id: GameId = record.id.parse().unwrap();
        let now = live.load_game(&id).await.unwrap();
        let then = match backup.load_game(&id).await {
            Ok(game) => game,
            // Created after the backup.
            Err(StoreError::NotFound) => continue,
            Err(e) => panic!("{id}: {e}"),
        };
        restored += 1;
        assert_eq!(
            (&then.row.id, &then.row.start_position),
            (&now.row.id, &now.row.start_position),
            "{id}: the game's row"
        );
        assert!(
            now.actions.starts_with(&then.actions),
            "{id}: the backup's actions are not a prefix of the game's"
        );
        common::replay_legally(&then, &format!("{id}: the backup"));
    }
    restored
}

/// A server started on the backup continues its unfinished games.
async fn check_playable(copy: &Path, records: &[Record]) {
    let url = format!("sqlite://{}", copy.display());
    let (mut child, addr) = spawn_binary(&url, &NO_RATE_LIMITS).await;
    let server = TestServer::remote(&addr);
    let mut played = 0;
    for record in records {
        let resp = server
            .http
            .get(server.url(&format!("/api/games/{}", record.id)))
            .send()
            .await
            .unwrap();
        if resp.status() == reqwest::StatusCode::NOT_FOUND {
            continue;
        }
        let state: Value = resp.json().await.unwrap();
        if !state["result"].is_null() || state["players"]["black"]["joined"] != true {
            continue;
        }
        let mover = usize::from(state["side_to_move"] == "black");
        let intent = match state["legal_steps"].get(0) {
            Some(s) => {
                json!({ "type": "step", "from": s["from"], "to": s["to"], "kind": s["kind"] })
            }
            None => json!({ "type": "end_turn" }),
        };
        let after = server.play(&record.id, &record.seats[mover], intent).await;
        assert_eq!(after["seq"].as_u64(), state["seq"].as_u64().map(|s| s + 1));
        played += 1;
    }
    assert!(played > 0, "some game of the backup was unfinished");
    assert!(terminate(&mut child).await);
}
