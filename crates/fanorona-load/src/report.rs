//! The human summary and the CSV lines.

use std::{
    fmt::Write as _,
    fs::OpenOptions,
    io::{self, Write},
    path::Path,
    time::Duration,
};

use crate::{computer::TallySnapshot, stats::Snapshot};

/// Everything measured in one phase (relay or echo).
#[derive(Clone, Debug)]
pub struct PhaseResult {
    /// `relay` or `echo`.
    pub kind: &'static str,
    /// Whether games stepped as fast as they could.
    pub closed_loop: bool,
    /// Games asked for.
    pub games: usize,
    /// Slots run (games, or echo pairs).
    pub slots: usize,
    /// Spectators per game.
    pub spectators: usize,
    /// Mean time between steps of a game (open loop).
    pub interval: Duration,
    /// Sockets open when the window started.
    pub sockets_up: i64,
    /// Sockets open when the window ended.
    pub sockets_end: i64,
    /// Time to create and connect everything.
    pub ramp: Duration,
    /// The measured window.
    pub window: Duration,
    /// Counters of the window.
    pub snapshot: Snapshot,
    /// Server RSS before any socket of the phase, KiB.
    pub rss_before_kib: u64,
    /// Server RSS with every socket up, KiB.
    pub rss_after_kib: u64,
    /// Server RSS at the end of the window, KiB.
    pub rss_end_kib: u64,
    /// Server CPU time used in the window, seconds.
    pub cpu_s: f64,
    /// The load tool's own CPU time in the window, seconds.
    pub tool_cpu_s: f64,
    /// Games started during the phase.
    pub games_started: u64,
    /// Games played to their end during the phase.
    pub games_finished: u64,
    /// `/proc/loadavg` before the phase.
    pub load_start: [f64; 3],
    /// `/proc/loadavg` after the phase.
    pub load_end: [f64; 3],
    /// The games against the computer played beside the relay's, if any.
    pub computer: Option<ComputerResult>,
}

/// What the games against the computer measured beside the relay's.
#[derive(Clone, Debug)]
pub struct ComputerResult {
    /// Games against the computer kept.
    pub games: usize,
    /// The computer's level.
    pub level: u8,
    /// Sockets open when the window started.
    pub sockets_up: i64,
    /// Sockets open when the window ended.
    pub sockets_end: i64,
    /// How long they played before the window opened.
    pub warm_up: Duration,
    /// Counters of the window.
    pub tally: TallySnapshot,
}

impl PhaseResult {
    /// Relays (or echoes) per second in the window.
    pub fn steps_per_s(&self) -> f64 {
        self.snapshot.steps as f64 / self.window.as_secs_f64().max(1e-9)
    }

    /// Server memory per connected socket, bytes.
    pub fn rss_per_socket(&self) -> f64 {
        let grown = self.rss_after_kib.saturating_sub(self.rss_before_kib) as f64 * 1024.0;
        grown / self.sockets_up.max(1) as f64
    }

    /// Server CPU time per relayed step (or echoed message), microseconds.
    pub fn cpu_per_step_us(&self) -> f64 {
        self.cpu_s * 1e6 / self.snapshot.steps.max(1) as f64
    }

    fn pace(&self) -> String {
        if self.closed_loop {
            "closed loop".to_owned()
        } else {
            format!("one step per game every {:?}", self.interval)
        }
    }
}

fn ms(us: u64) -> String {
    format!("{:.2} ms", us as f64 / 1000.0)
}

fn counts(map: &std::collections::BTreeMap<String, u64>) -> String {
    if map.is_empty() {
        return "none".to_owned();
    }
    map.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The summary of one phase, for a person.
pub fn summary(r: &PhaseResult) -> String {
    let [p50, p90, p99, max] = r.snapshot.latency_us;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}): {} slots, {} sockets up, {} at the end; ramp {:.1} s",
        r.kind,
        r.pace(),
        r.slots,
        r.sockets_up,
        r.sockets_end,
        r.ramp.as_secs_f64()
    );
    let _ = writeln!(
        out,
        "  {} steps in {:.1} s = {:.1}/s; games started {}, finished {}; mean message {} B",
        r.snapshot.steps,
        r.window.as_secs_f64(),
        r.steps_per_s(),
        r.games_started,
        r.games_finished,
        r.snapshot.mean_message_bytes
    );
    let _ = writeln!(
        out,
        "  latency: p50 {}, p90 {}, p99 {}, max {}",
        ms(p50),
        ms(p90),
        ms(p99),
        ms(max)
    );
    let _ = writeln!(
        out,
        "  server RSS {:.1} MiB before, {:.1} MiB up, {:.1} MiB at end: {:.0} B per socket",
        r.rss_before_kib as f64 / 1024.0,
        r.rss_after_kib as f64 / 1024.0,
        r.rss_end_kib as f64 / 1024.0,
        r.rss_per_socket()
    );
    let _ = writeln!(
        out,
        "  server CPU {:.2} s = {:.1} us per step; load tool CPU {:.2} s",
        r.cpu_s,
        r.cpu_per_step_us(),
        r.tool_cpu_s
    );
    let _ = writeln!(
        out,
        "  errors: {}; disconnects: {}",
        counts(&r.snapshot.errors),
        counts(&r.snapshot.disconnects)
    );
    let _ = writeln!(
        out,
        "  load average {:.2} {:.2} {:.2} -> {:.2} {:.2} {:.2}",
        r.load_start[0],
        r.load_start[1],
        r.load_start[2],
        r.load_end[0],
        r.load_end[1],
        r.load_end[2]
    );
    out
}

/// The summary of the games against the computer played beside the
/// relay's, for a person.
pub fn computer_summary(c: &ComputerResult, window: Duration) -> String {
    let t = &c.tally;
    let [p50, p90, p99, max] = t.stats.latency_us;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "computer (level {}, beside the relay): {} games, {} sockets up, {} at the end; warm-up {:.1} s",
        c.level,
        c.games,
        c.sockets_up,
        c.sockets_end,
        c.warm_up.as_secs_f64()
    );
    let _ = writeln!(
        out,
        "  {} computer turns in {:.1} s = {:.2}/s; games started {}, finished {}",
        t.turns,
        window.as_secs_f64(),
        t.turns as f64 / window.as_secs_f64().max(1e-9),
        t.started,
        t.finished
    );
    let _ = writeln!(
        out,
        "  reply, the person's last step of a turn to the computer's first (its queue and min-think included): {} replies, p50 {}, p90 {}, p99 {}, max {}",
        t.stats.steps,
        ms(p50),
        ms(p90),
        ms(p99),
        ms(max)
    );
    let _ = writeln!(
        out,
        "  errors: {}; disconnects: {}",
        counts(&t.stats.errors),
        counts(&t.stats.disconnects)
    );
    let _ = writeln!(
        out,
        "  the relay's server CPU includes the computer's searches; its memory per socket was read before they began"
    );
    out
}

/// The ratios of the relay to the echo baseline.
pub fn ratios(relay: &PhaseResult, echo: &PhaseResult) -> String {
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { f64::NAN };
    format!(
        "ratios to echo: p50 {:.2}x, p99 {:.2}x, CPU per step {:.2}x, throughput {:.2}x, memory per socket {:.2}x\n",
        ratio(relay.snapshot.latency_us[0] as f64, echo.snapshot.latency_us[0] as f64),
        ratio(relay.snapshot.latency_us[2] as f64, echo.snapshot.latency_us[2] as f64),
        ratio(relay.cpu_per_step_us(), echo.cpu_per_step_us()),
        ratio(relay.steps_per_s(), echo.steps_per_s()),
        ratio(relay.rss_per_socket(), echo.rss_per_socket()),
    )
}

/// Prints the summary of the relay and, when given, the echo and the
/// ratios.
pub fn print(relay: &PhaseResult, echo: Option<&PhaseResult>) {
    let mut out = summary(relay);
    if let Some(computer) = &relay.computer {
        out.push_str(&computer_summary(computer, relay.window));
    }
    if let Some(echo) = echo {
        out.push_str(&summary(echo));
        out.push_str(&ratios(relay, echo));
    }
    println!("{out}");
}

/// The CSV header.
pub const CSV_HEADER: &str = "label,kind,mode,games,slots,spectators,interval_ms,sockets_up,sockets_end,ramp_s,window_s,steps,steps_per_s,p50_us,p90_us,p99_us,max_us,mean_message_bytes,rss_before_kib,rss_after_kib,rss_end_kib,rss_per_socket_b,cpu_s,cpu_per_step_us,tool_cpu_s,games_started,games_finished,errors,disconnects,load_start,load_end,computer_games,computer_level,computer_turns,computer_games_finished,computer_replies,reply_p50_us,reply_p90_us,reply_p99_us,reply_max_us";

/// The CSV cells of the games against the computer: their count, level,
/// turns, games finished, replies and reply times; `0` and empty cells
/// when there were none.
fn computer_cells(computer: Option<&ComputerResult>) -> String {
    let Some(c) = computer else {
        return "0,,,,,,,,".to_owned();
    };
    let t = &c.tally;
    let [p50, p90, p99, max] = t.stats.latency_us;
    format!(
        "{},{},{},{},{},{p50},{p90},{p99},{max}",
        c.games, c.level, t.turns, t.finished, t.stats.steps
    )
}

/// One CSV line for a phase.
pub fn csv_line(label: &str, r: &PhaseResult) -> String {
    let s = &r.snapshot;
    let clean = |text: String| text.replace([',', '\n'], ";");
    format!(
        "{},{},{},{},{},{},{},{},{},{:.1},{:.1},{},{:.1},{},{},{},{},{},{},{},{},{:.0},{:.3},{:.2},{:.3},{},{},{},{},{:.2},{:.2},{}",
        clean(label.to_owned()),
        r.kind,
        if r.closed_loop { "closed" } else { "open" },
        r.games,
        r.slots,
        r.spectators,
        r.interval.as_millis(),
        r.sockets_up,
        r.sockets_end,
        r.ramp.as_secs_f64(),
        r.window.as_secs_f64(),
        s.steps,
        r.steps_per_s(),
        s.latency_us[0],
        s.latency_us[1],
        s.latency_us[2],
        s.latency_us[3],
        s.mean_message_bytes,
        r.rss_before_kib,
        r.rss_after_kib,
        r.rss_end_kib,
        r.rss_per_socket(),
        r.cpu_s,
        r.cpu_per_step_us(),
        r.tool_cpu_s,
        r.games_started,
        r.games_finished,
        clean(counts(&s.errors)),
        clean(counts(&s.disconnects)),
        r.load_start[0],
        r.load_end[0],
        computer_cells(r.computer.as_ref()),
    )
}

/// Appends the phases' lines to `path`, with the header when it is new.
///
/// # Errors
///
/// When the file cannot be opened or written.
pub fn append_csv(
    path: &Path,
    label: &str,
    relay: &PhaseResult,
    echo: Option<&PhaseResult>,
) -> io::Result<()> {
    let new = std::fs::metadata(path).map_or(true, |m| m.len() == 0);
    let mut file = OpenOptions::new().create(true).append(true).open(path)?;
    if new {
        writeln!(file, "{CSV_HEADER}")?;
    }
    writeln!(file, "{}", csv_line(label, relay))?;
    if let Some(echo) = echo {
        writeln!(file, "{}", csv_line(label, echo))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn snapshot(steps: u64, latency_us: [u64; 4]) -> Snapshot {
        Snapshot {
            steps,
            latency_us,
            errors: BTreeMap::new(),
            disconnects: BTreeMap::new(),
            mean_message_bytes: 900,
            trace: Vec::new(),
        }
    }

    fn relay(computer: Option<ComputerResult>) -> PhaseResult {
        PhaseResult {
            kind: "relay",
            closed_loop: false,
            games: 100,
            slots: 100,
            spectators: 0,
            interval: Duration::from_secs(5),
            sockets_up: 200,
            sockets_end: 200,
            ramp: Duration::from_secs(1),
            window: Duration::from_secs(20),
            snapshot: snapshot(400, [600, 1_000, 4_000, 9_000]),
            rss_before_kib: 10_000,
            rss_after_kib: 12_000,
            rss_end_kib: 12_500,
            cpu_s: 1.5,
            tool_cpu_s: 0.5,
            games_started: 100,
            games_finished: 0,
            load_start: [1.0; 3],
            load_end: [1.2; 3],
            computer,
        }
    }

    fn computer() -> ComputerResult {
        ComputerResult {
            games: 10,
            level: 6,
            sockets_up: 10,
            sockets_end: 10,
            warm_up: Duration::from_secs(10),
            tally: TallySnapshot {
                turns: 37,
                started: 2,
                finished: 3,
                stats: snapshot(38, [1_500_000, 2_200_000, 3_100_000, 3_400_000]),
            },
        }
    }

    fn cells(line: &str) -> BTreeMap<&str, &str> {
        CSV_HEADER.split(',').zip(line.split(',')).collect()
    }

    #[test]
    fn every_line_has_a_cell_per_column() {
        let columns = CSV_HEADER.split(',').count();
        assert_eq!(csv_line("a", &relay(None)).split(',').count(), columns);
        assert_eq!(
            csv_line("a", &relay(Some(computer()))).split(',').count(),
            columns
        );
    }

    #[test]
    fn the_computer_columns_stay_apart_from_the_relay() {
        let plain = csv_line("a", &relay(None));
        let beside = csv_line("a", &relay(Some(computer())));
        let (plain, beside) = (cells(&plain), cells(&beside));
        for column in [
            "steps",
            "p50_us",
            "p90_us",
            "p99_us",
            "max_us",
            "games_finished",
        ] {
            assert_eq!(plain.get(column), beside.get(column), "{column}");
        }
        assert_eq!(beside.get("p99_us"), Some(&"4000"));
        assert_eq!(plain.get("computer_games"), Some(&"0"));
        assert_eq!(plain.get("reply_p50_us"), Some(&""));
        assert_eq!(beside.get("computer_games"), Some(&"10"));
        assert_eq!(beside.get("computer_level"), Some(&"6"));
        assert_eq!(beside.get("computer_turns"), Some(&"37"));
        assert_eq!(beside.get("computer_games_finished"), Some(&"3"));
        assert_eq!(beside.get("computer_replies"), Some(&"38"));
        assert_eq!(beside.get("reply_p50_us"), Some(&"1500000"));
        assert_eq!(beside.get("reply_max_us"), Some(&"3400000"));
    }

    #[test]
    fn the_computer_summary_gives_its_turns_and_reply_times() {
        let text = computer_summary(&computer(), Duration::from_secs(20));
        assert!(text.starts_with("computer (level 6, beside the relay): 10 games"));
        assert!(text.contains("37 computer turns in 20.0 s = 1.85/s; games started 2, finished 3"));
        assert!(text.contains("38 replies, p50 1500.00 ms, p90 2200.00 ms, p99 3100.00 ms"));
        assert!(!summary(&relay(Some(computer()))).contains("computer"));
    }
}
