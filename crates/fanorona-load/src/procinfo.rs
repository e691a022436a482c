//! What `/proc` tells about a process and the machine.

use std::{fs, io};

/// Clock ticks per second of `/proc/<pid>/stat` times (`getconf CLK_TCK`;
/// 100 on Linux for x86-64 and arm64).
const TICKS_PER_SECOND: f64 = 100.0;

/// Resident memory of `pid` in KiB (`VmRSS`).
///
/// # Errors
///
/// When the process is gone or its status unreadable.
pub fn rss_kib(pid: u32) -> io::Result<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status"))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .ok_or_else(|| io::Error::other(format!("no VmRSS for pid {pid}")))
}

/// User plus system CPU time of `pid` (all its threads), in seconds.
///
/// # Errors
///
/// When the process is gone or its stat unreadable.
pub fn cpu_seconds(pid: u32) -> io::Result<f64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat"))?;
    parse_cpu(&stat).ok_or_else(|| io::Error::other(format!("bad stat for pid {pid}")))
}

/// CPU time of this process, in seconds.
pub fn own_cpu_seconds() -> f64 {
    fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|stat| parse_cpu(&stat))
        .unwrap_or(0.0)
}

fn parse_cpu(stat: &str) -> Option<f64> {
    // Fields after the parenthesised command name: state is 3rd overall,
    // utime the 14th and stime the 15th.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) as f64 / TICKS_PER_SECOND)
}

/// The 1, 5 and 15 minute load averages.
pub fn loadavg() -> [f64; 3] {
    let text = fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let mut values = text.split_whitespace().map(|v| v.parse().unwrap_or(0.0));
    [
        values.next().unwrap_or(0.0),
        values.next().unwrap_or(0.0),
        values.next().unwrap_or(0.0),
    ]
}

/// The machine: CPU model, cores and memory, for the report.
pub fn machine() -> String {
    let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|rest| rest.trim_start_matches([' ', '\t', ':']).to_owned())
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let meminfo = fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let mem_gib = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse::<f64>().ok())
        .map_or(0.0, |kib| kib / 1024.0 / 1024.0);
    format!("{model}, {cores} cores, {mem_gib:.1} GiB")
}

/// The process listening on TCP `port`: the socket's inode from
/// `/proc/net/tcp` (and `tcp6`), then the process holding it among those
/// this user may inspect.
///
/// # Errors
///
/// When no listening socket or no visible owner is found.
pub fn pid_listening_on(port: u16) -> io::Result<u32> {
    let inode = ["/proc/net/tcp", "/proc/net/tcp6"]
        .iter()
        .filter_map(|path| fs::read_to_string(path).ok())
        .find_map(|table| listening_inode(&table, port))
        .ok_or_else(|| io::Error::other(format!("nothing listens on port {port}")))?;
    let target = format!("socket:[{inode}]");
    for entry in fs::read_dir("/proc")?.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(fds) = fs::read_dir(entry.path().join("fd")) else {
            continue;
        };
        for fd in fds.flatten() {
            if fs::read_link(fd.path()).is_ok_and(|link| link.as_os_str() == target.as_str()) {
                return Ok(pid);
            }
        }
    }
    Err(io::Error::other(format!(
        "no visible process holds the socket on port {port}: pass --pid"
    )))
}

fn listening_inode(table: &str, port: u16) -> Option<u64> {
    let wanted = format!(":{port:04X}");
    table.lines().skip(1).find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let local = fields.get(1)?;
        let listening = fields.get(3) == Some(&"0A");
        (listening && local.ends_with(&wanted)).then(|| fields.get(9)?.parse().ok())?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_is_read_after_the_command_name() {
        let stat = "42 (a (b) c) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 3 0";
        assert_eq!(parse_cpu(stat), Some(3.0));
    }

    #[test]
    fn the_listening_socket_is_found() {
        let table = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   \
            0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 12345 1\n   \
            1: 0100007F:1F90 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 999 1\n";
        assert_eq!(listening_inode(table, 8080), Some(12345));
        assert_eq!(listening_inode(table, 8081), None);
    }

    #[test]
    fn this_process_has_memory() {
        assert!(rss_kib(std::process::id()).is_ok_and(|kib| kib > 0));
    }
}
