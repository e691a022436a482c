//! What an operator relies on, against the real binary: a damaged database
//! is refused at start and left as it is.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use common::{
    process::{spawn_binary, terminate, NO_RATE_LIMITS},
    TestServer, WAIT,
};
use serde_json::json;
use sha2::{Digest, Sha256};
use tokio::process::Command;

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
