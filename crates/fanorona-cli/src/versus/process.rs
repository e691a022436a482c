//! One engine's process in a match: started with pipes, sent protocol
//! lines, read with a deadline, told `quit` when dropped.

use std::{
    io::{BufRead, BufReader, Read, Write},
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc,
    thread,
    time::{Duration, Instant},
};

use super::EngineCommand;

/// One engine's process.
pub(super) struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

/// Why an engine lost a game off the board.
pub(super) type Fault = String;

impl Process {
    pub(super) fn start(command: &EngineCommand) -> Result<Process, Fault> {
        let mut child = Command::new(&command.program)
            .args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|err| format!("could not be started: {err}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("could not be started: no pipes".into());
        };
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                // A line is at most 64 KiB; a longer one is cut there.
                match Read::take(&mut reader, 1 << 16).read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&bytes).trim().to_owned();
                        if send.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines,
        })
    }

    pub(super) fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| "exited (its input is closed)".to_owned())
    }

    /// Reads lines until `wanted` takes one, an `error` line comes, the
    /// engine exits or `timeout` passes.
    pub(super) fn expect<T>(
        &mut self,
        timeout: Duration,
        what: &str,
        mut wanted: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, Fault> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(found) = wanted(&line) {
                        return Ok(found);
                    }
                    if line.starts_with("error") {
                        return Err(format!("answered {}", crate::echo::quote(&line)));
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "did not answer {what} within {} ms",
                        timeout.as_millis()
                    ))
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(match self.child.try_wait() {
                        Ok(Some(status)) => format!("exited ({status}) before {what}"),
                        _ => format!("closed its output before {what}"),
                    })
                }
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        for _ in 0..20 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
