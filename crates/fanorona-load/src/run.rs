//! `run`: the relay phase against the given servers, then the echo
//! baseline on the same stack, measured the same way.

use std::{error::Error, process::Stdio, sync::Arc, time::Duration};

use tokio::{
    io::{AsyncBufReadExt, BufReader},
    sync::{watch, Semaphore},
    task::JoinSet,
    time::{sleep, timeout, Instant},
};

use crate::{
    cli::RunArgs,
    echo::{self, EchoCtx},
    game::{self, Ctx, Pace, Phase},
    procinfo,
    report::{self, PhaseResult},
    stats::Stats,
    wire::Target,
};

/// The open-file limit the tool asks for itself.
const WANTED_FILES: u64 = 65536;

/// Runs the relay phase, then the echo phase, prints the summary and
/// appends the CSV lines.
///
/// # Errors
///
/// Bad URLs, a server process that cannot be found, an echo server that
/// does not start, or a CSV file that cannot be written.
pub async fn run(args: RunArgs) -> Result<(), Box<dyn Error>> {
    let files = raise_nofile();
    let targets = args
        .urls
        .iter()
        .map(|url| Target::parse(url))
        .collect::<Result<Vec<_>, _>>()?;
    let pid = match args.pid {
        Some(pid) => pid,
        None => {
            let first = targets.first().ok_or("no --url given")?;
            let port = first
                .authority()
                .rsplit_once(':')
                .and_then(|(_, p)| p.parse::<u16>().ok())
                .ok_or("the URL has no port: pass --pid")?;
            procinfo::pid_listening_on(port)?
        }
    };
    let sockets_needed = (args.games * (2 + args.spectators)) as u64;
    eprintln!(
        "machine: {}; open-file limit {files}; server pid {pid}",
        procinfo::machine()
    );
    if files < sockets_needed + 256 {
        eprintln!("warning: {sockets_needed} sockets need a higher open-file limit (ulimit -n)");
    }
    eprintln!(
        "the server needs one descriptor per socket: start it after `ulimit -n {WANTED_FILES}`"
    );
    let pace = if args.closed_loop {
        Pace::Closed
    } else {
        Pace::Open(args.interval)
    };
    let relay = relay_phase(&args, targets, pid, pace).await?;
    report::print(&relay, None);
    if let Some(path) = &args.trace {
        write_trace(path, &relay.snapshot.trace)?;
        eprintln!(
            "relay: {} steps traced in {}",
            relay.snapshot.trace.len(),
            path.display()
        );
    }
    let echo = if args.no_echo {
        None
    } else {
        let size = usize::try_from(relay.snapshot.mean_message_bytes).unwrap_or(1024);
        Some(echo_phase(&args, pace, size.max(64)).await?)
    };
    if let Some(echo) = &echo {
        println!("{}{}", report::summary(echo), report::ratios(&relay, echo));
    }
    if let Some(path) = &args.csv {
        report::append_csv(path, &args.label, &relay, echo.as_ref())?;
    }
    Ok(())
}

/// Writes the steps of a window as CSV: `completed_us,latency_us`.
fn write_trace(path: &std::path::Path, trace: &[(u64, u64)]) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(out, "completed_us,latency_us")?;
    for (at, latency) in trace {
        writeln!(out, "{at},{latency}")?;
    }
    out.flush()
}

/// Raises this process's open-file limit as far as allowed; returns it.
fn raise_nofile() -> u64 {
    if rlimit::setrlimit(rlimit::Resource::NOFILE, WANTED_FILES, WANTED_FILES).is_err() {
        let _ = rlimit::increase_nofile_limit(WANTED_FILES);
    }
    rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(0, |(soft, _)| soft)
}

async fn relay_phase(
    args: &RunArgs,
    targets: Vec<Target>,
    pid: u32,
    pace: Pace,
) -> Result<PhaseResult, Box<dyn Error>> {
    let stats = Arc::new(if args.trace.is_some() {
        Stats::with_trace()
    } else {
        Stats::new()
    });
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(args.setup_concurrency)
        .timeout(Duration::from_secs(30))
        .build()?;
    let ctx = Arc::new(Ctx {
        http,
        targets,
        pace,
        spectators: args.spectators,
        stats: stats.clone(),
        setup: Semaphore::new(args.setup_concurrency.max(1)),
    });
    let before = Before::now(pid)?;
    let (tx, rx) = watch::channel(Phase::Ramp);
    let mut set = JoinSet::new();
    for slot in 0..args.games {
        set.spawn(game::run_slot(ctx.clone(), slot, rx.clone()));
    }
    eprintln!("relay: {} games, pid {pid}", args.games);
    drive("relay", args, pid, &stats, before, tx, set).await
}

async fn echo_phase(
    args: &RunArgs,
    pace: Pace,
    size: usize,
) -> Result<PhaseResult, Box<dyn Error>> {
    let exe = std::env::current_exe()?;
    let mut child = tokio::process::Command::new(exe)
        .args(["echo-server", "--port", &args.echo_port.to_string()])
        .stdout(Stdio::piped())
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .spawn()?;
    let pid = child.id().ok_or("the echo server exited at once")?;
    let stdout = child
        .stdout
        .take()
        .ok_or("no output from the echo server")?;
    let mut lines = BufReader::new(stdout).lines();
    let line = timeout(Duration::from_secs(10), lines.next_line())
        .await
        .map_err(|_| "the echo server did not start")??
        .ok_or("the echo server exited")?;
    let address = line
        .strip_prefix("listening on http://")
        .ok_or("unexpected output from the echo server")?
        .to_owned();
    let stats = Arc::new(Stats::new());
    let ctx = Arc::new(EchoCtx {
        url: format!("ws://{address}/ws"),
        payload: payload(size),
        pace,
        stats: stats.clone(),
        setup: Semaphore::new(args.setup_concurrency.max(1)),
    });
    let before = Before::now(pid)?;
    let (tx, rx) = watch::channel(Phase::Ramp);
    let mut set = JoinSet::new();
    for _ in 0..args.games * (1 + args.spectators / 2).max(1) {
        set.spawn(echo::run_pair(ctx.clone(), rx.clone()));
    }
    eprintln!(
        "echo: {} pairs of {size}-byte messages on {address}, pid {pid}",
        set.len()
    );
    let result = drive("echo", args, pid, &stats, before, tx, set).await;
    let _ = child.kill().await;
    result
}

/// A JSON text message of exactly `size` bytes.
fn payload(size: usize) -> String {
    let frame = r#"{"type":"echo","pad":""}"#;
    let pad = size.saturating_sub(frame.len());
    format!(r#"{{"type":"echo","pad":"{}"}}"#, "x".repeat(pad))
}

/// What is read before any socket of a phase opens.
struct Before {
    rss_kib: u64,
    load: [f64; 3],
}

impl Before {
    fn now(pid: u32) -> std::io::Result<Before> {
        Ok(Before {
            rss_kib: procinfo::rss_kib(pid)?,
            load: procinfo::loadavg(),
        })
    }
}

/// Waits for every slot to be up, measures the window, stops the slots.
async fn drive(
    kind: &'static str,
    args: &RunArgs,
    pid: u32,
    stats: &Stats,
    before: Before,
    tx: watch::Sender<Phase>,
    mut set: JoinSet<()>,
) -> Result<PhaseResult, Box<dyn Error>> {
    let slots = set.len();
    let started = Instant::now();
    let mut report_at = started;
    while stats.ready.load(std::sync::atomic::Ordering::SeqCst) < slots
        && started.elapsed() < args.ramp_timeout
    {
        if report_at.elapsed() >= Duration::from_secs(5) {
            report_at = Instant::now();
            eprintln!(
                "{kind}: {} of {slots} up, {} sockets, {:.0} s",
                stats.ready.load(std::sync::atomic::Ordering::SeqCst),
                stats.sockets.load(std::sync::atomic::Ordering::Relaxed),
                started.elapsed().as_secs_f64()
            );
        }
        sleep(Duration::from_millis(100)).await;
    }
    let ramp = started.elapsed();
    sleep(Duration::from_secs(2)).await;
    let rss_after_kib = procinfo::rss_kib(pid)?;
    let sockets_up = stats.sockets.load(std::sync::atomic::Ordering::Relaxed);
    let (cpu0, tool0) = (procinfo::cpu_seconds(pid)?, procinfo::own_cpu_seconds());
    let window_start = Instant::now();
    stats.set_recording(true);
    let _ = tx.send(Phase::Measure);
    eprintln!(
        "{kind}: {sockets_up} sockets up after {:.1} s; measuring {:?}",
        ramp.as_secs_f64(),
        args.duration
    );
    sleep(args.duration).await;
    stats.set_recording(false);
    let window = window_start.elapsed();
    let (cpu1, tool1) = (procinfo::cpu_seconds(pid)?, procinfo::own_cpu_seconds());
    let rss_end_kib = procinfo::rss_kib(pid)?;
    let sockets_end = stats.sockets.load(std::sync::atomic::Ordering::Relaxed);
    let snapshot = stats.snapshot();
    let _ = tx.send(Phase::Stop);
    if timeout(Duration::from_secs(30), async {
        while set.join_next().await.is_some() {}
    })
    .await
    .is_err()
    {
        set.abort_all();
    }
    Ok(PhaseResult {
        kind,
        closed_loop: args.closed_loop,
        games: args.games,
        slots,
        spectators: args.spectators,
        interval: args.interval,
        sockets_up,
        sockets_end,
        ramp,
        window,
        snapshot,
        rss_before_kib: before.rss_kib,
        rss_after_kib,
        rss_end_kib,
        cpu_s: cpu1 - cpu0,
        tool_cpu_s: tool1 - tool0,
        games_started: stats
            .games_started
            .load(std::sync::atomic::Ordering::Relaxed),
        games_finished: stats
            .games_finished
            .load(std::sync::atomic::Ordering::Relaxed),
        load_start: before.load,
        load_end: procinfo::loadavg(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_echo_payload_has_the_asked_size() {
        assert_eq!(payload(1500).len(), 1500);
        assert!(payload(1500).starts_with(r#"{"type":"echo""#));
    }
}
