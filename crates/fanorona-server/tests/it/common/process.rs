//! The real server binary as a child process on 127.0.0.1:0.

use std::process::Stdio;

use tokio::{
    io::{AsyncBufReadExt, BufReader},
    process::{Child, Command},
};

use super::WAIT;

/// Rate limits and per-address caps out of the way of scripted players,
/// who all come from one address.
pub const NO_RATE_LIMITS: [&str; 8] = [
    "--create-per-minute",
    "100000",
    "--intents-per-second",
    "100000",
    "--sockets-per-address",
    "100000",
    "--connections-per-address",
    "100000",
];

/// Starts the real binary on port 0 over `database`, with `args` added;
/// returns it and its address once it listens.
pub async fn spawn_binary(database: &str, args: &[&str]) -> (Child, String) {
    spawn_binary_under(&[], database, args).await
}

/// Like [`spawn_binary`], run by the command `wrapper` (like `prlimit
/// --nofile=512:512 --`) when it is not empty.
pub async fn spawn_binary_under(
    wrapper: &[&str],
    database: &str,
    args: &[&str],
) -> (Child, String) {
    let binary = env!("CARGO_BIN_EXE_fanorona-server");
    let mut command = match wrapper.split_first() {
        Some((program, rest)) => {
            let mut command = Command::new(program);
            command.args(rest).arg(binary);
            command
        }
        None => Command::new(binary),
    };
    let mut child = command
        .args([
            "--listen",
            "127.0.0.1:0",
            "--database",
            database,
            "--log",
            "info",
            // The 4-stone tables, solved in a second, rather than the
            // 5-stone ones' tens of seconds of a core.
            "--engine-table-stones",
            "4",
        ])
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let address = tokio::time::timeout(WAIT, async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some(rest) = line.split("listening on http://").nth(1) {
                return rest.split_whitespace().next().unwrap().to_owned();
            }
        }
        panic!("the server exited before listening");
    })
    .await
    .expect("the server starts in time");
    // Keep reading the log so the child never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, address)
}

/// Sends SIGTERM to `child` and waits for it to exit; returns whether it
/// exited successfully.
pub async fn terminate(child: &mut Child) -> bool {
    let pid = child.id().unwrap().to_string();
    let sent = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .await
        .unwrap();
    assert!(sent.success(), "kill -TERM {pid}");
    tokio::time::timeout(WAIT, child.wait())
        .await
        .expect("the server stops in time after SIGTERM")
        .unwrap()
        .success()
}
