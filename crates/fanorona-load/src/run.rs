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
    computer::{self, ComputerCtx, Tally},
    echo::{self, EchoCtx},
    game::{self, Ctx, Pace, Phase},
    procinfo,
    report::{self, ComputerResult, PhaseResult},
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
    let sockets_needed = (args.games * (2 + args.spectators) + args.computer_games) as u64;
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
    let beside = (args.computer_games > 0).then(|| {
        let tally = Arc::new(Tally::new());
        let ctx = Arc::new(ComputerCtx {
            http: ctx.http.clone(),
            targets: ctx.targets.clone(),
            pace,
            level: args.computer_level,
            tally: tally.clone(),
            setup: Semaphore::new(args.setup_concurrency.max(1)),
        });
        let mut set = JoinSet::new();
        for slot in 0..args.computer_games {
            set.spawn(computer::run_slot(ctx.clone(), slot, rx.clone()));
        }
        eprintln!(
            "computer: {} games at level {} beside them",
            args.computer_games, args.computer_level
        );
        Beside { tally, set }
    });
    let phase = Slots {
        stats,
        set,
        tx,
        before,
        beside,
    };
    drive("relay", args, pid, phase).await
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
    let phase = Slots {
        stats,
        set,
        tx,
        before,
        beside: None,
    };
    let result = drive("echo", args, pid, phase).await;
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

/// The slots of one phase, started and waiting in the ramp.
struct Slots {
    /// The phase's counters.
    stats: Arc<Stats>,
    /// Its slots.
    set: JoinSet<()>,
    /// Tells every slot, those beside too, the phase.
    tx: watch::Sender<Phase>,
    /// Read before any of its sockets opened.
    before: Before,
    /// The games against the computer beside the relay's, if any.
    beside: Option<Beside>,
}

/// The games against the computer played beside the relay's.
struct Beside {
    /// Their counters, apart from the relay's.
    tally: Arc<Tally>,
    /// Their slots.
    set: JoinSet<()>,
}

impl Slots {
    /// Slots whose first game (or pair) is up, and how many there are,
    /// those beside included.
    fn ready(&self) -> (usize, usize) {
        let ready = |stats: &Stats| stats.ready.load(std::sync::atomic::Ordering::SeqCst);
        let mut up = (ready(&self.stats), self.set.len());
        if let Some(beside) = &self.beside {
            up.0 += ready(&beside.tally.stats);
            up.1 += beside.set.len();
        }
        up
    }

    /// Starts or stops counting the window, beside too.
    fn set_recording(&self, on: bool) {
        self.stats.set_recording(on);
        if let Some(beside) = &self.beside {
            beside.tally.stats.set_recording(on);
        }
    }

    /// Tells every slot to stop and waits for them, 30 s at most.
    async fn stop(mut self) {
        let _ = self.tx.send(Phase::Stop);
        let mut sets = vec![self.set];
        sets.extend(self.beside.take().map(|b| b.set));
        for mut set in sets {
            if timeout(Duration::from_secs(30), async {
                while set.join_next().await.is_some() {}
            })
            .await
            .is_err()
            {
                set.abort_all();
            }
        }
    }
}

/// The sockets open now.
fn sockets(stats: &Stats) -> i64 {
    stats.sockets.load(std::sync::atomic::Ordering::Relaxed)
}

/// How long the games against the computer play before the window opens:
/// twice the pace's mean interval, so that every person has stepped and
/// the computer's queue has filled as it will stay.
fn warm_up(interval: Duration) -> Duration {
    interval.saturating_mul(2)
}

/// Waits until every slot is up, or the ramp timeout; returns the time
/// it took.
async fn ramp(kind: &str, args: &RunArgs, slots: &Slots) -> Duration {
    let started = Instant::now();
    let mut report_at = started;
    loop {
        let (up, all) = slots.ready();
        if up >= all || started.elapsed() >= args.ramp_timeout {
            break;
        }
        if report_at.elapsed() >= Duration::from_secs(5) {
            report_at = Instant::now();
            eprintln!(
                "{kind}: {up} of {all} up, {} sockets, {:.0} s",
                sockets(&slots.stats),
                started.elapsed().as_secs_f64()
            );
        }
        sleep(Duration::from_millis(100)).await;
    }
    started.elapsed()
}

/// Waits for every slot to be up, lets the games against the computer
/// warm up, measures the window, stops the slots.
async fn drive(
    kind: &'static str,
    args: &RunArgs,
    pid: u32,
    slots: Slots,
) -> Result<PhaseResult, Box<dyn Error>> {
    let slot_count = slots.set.len();
    let ramp = ramp(kind, args, &slots).await;
    sleep(Duration::from_secs(2)).await;
    let stats = slots.stats.clone();
    let rss_after_kib = procinfo::rss_kib(pid)?;
    let sockets_up = sockets(&stats);
    let warm = if slots.beside.is_some() {
        let warm = warm_up(args.interval);
        let _ = slots.tx.send(Phase::Warm);
        eprintln!(
            "{kind}: the games against the computer play for {:.1} s before the window",
            warm.as_secs_f64()
        );
        sleep(warm).await;
        warm
    } else {
        Duration::ZERO
    };
    let computer_up = slots.beside.as_ref().map(|b| sockets(&b.tally.stats));
    let (cpu0, tool0) = (procinfo::cpu_seconds(pid)?, procinfo::own_cpu_seconds());
    let window_start = Instant::now();
    slots.set_recording(true);
    let _ = slots.tx.send(Phase::Measure);
    eprintln!(
        "{kind}: {sockets_up} sockets up after {:.1} s; measuring {:?}",
        ramp.as_secs_f64(),
        args.duration
    );
    sleep(args.duration).await;
    slots.set_recording(false);
    let window = window_start.elapsed();
    let (cpu1, tool1) = (procinfo::cpu_seconds(pid)?, procinfo::own_cpu_seconds());
    let rss_end_kib = procinfo::rss_kib(pid)?;
    let sockets_end = sockets(&stats);
    let snapshot = stats.snapshot();
    let (rss_before_kib, load_start) = (slots.before.rss_kib, slots.before.load);
    let computer = slots.beside.as_ref().map(|b| ComputerResult {
        games: args.computer_games,
        level: args.computer_level,
        sockets_up: computer_up.unwrap_or(0),
        sockets_end: sockets(&b.tally.stats),
        warm_up: warm,
        tally: b.tally.snapshot(),
    });
    slots.stop().await;
    Ok(PhaseResult {
        kind,
        closed_loop: args.closed_loop,
        games: args.games,
        slots: slot_count,
        spectators: args.spectators,
        interval: args.interval,
        sockets_up,
        sockets_end,
        ramp,
        window,
        snapshot,
        rss_before_kib,
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
        load_start,
        load_end: procinfo::loadavg(),
        computer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_computer_warms_up_for_two_intervals() {
        assert_eq!(warm_up(Duration::from_secs(5)), Duration::from_secs(10));
        assert_eq!(warm_up(Duration::MAX), Duration::MAX);
    }

    #[test]
    fn the_echo_payload_has_the_asked_size() {
        assert_eq!(payload(1500).len(), 1500);
        assert!(payload(1500).starts_with(r#"{"type":"echo""#));
    }
}
