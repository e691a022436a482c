//! Counters and the latency histogram shared by every game of a phase.

use std::{
    collections::BTreeMap,
    sync::{
        atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering},
        Mutex, PoisonError,
    },
    time::{Duration, Instant},
};

use hdrhistogram::Histogram;

/// What every game of one phase reports to.
#[derive(Debug)]
pub struct Stats {
    /// Whether steps and latencies are being counted (the measured window).
    recording: AtomicBool,
    /// Slots whose first game has both players connected.
    pub ready: AtomicUsize,
    /// Sockets open now.
    pub sockets: AtomicI64,
    /// Games started.
    pub games_started: AtomicU64,
    /// Games played to their end.
    pub games_finished: AtomicU64,
    inner: Mutex<Inner>,
}

#[derive(Debug)]
struct Inner {
    latency: Histogram<u64>,
    steps: u64,
    errors: BTreeMap<String, u64>,
    disconnects: BTreeMap<String, u64>,
    message_bytes: u64,
    messages: u64,
    /// When the window opened, for the trace.
    window_start: Option<Instant>,
    /// Every step of the window when tracing: when it completed after the
    /// window opened, and its latency, both in microseconds.
    trace: Option<Vec<(u64, u64)>>,
}

/// The counters at the end of the measured window.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// Relayed steps (or echoed messages) completed in the window.
    pub steps: u64,
    /// Latency percentiles in microseconds: p50, p90, p99, max.
    pub latency_us: [u64; 4],
    /// Errors by kind, over the whole phase.
    pub errors: BTreeMap<String, u64>,
    /// Sockets closed by the other side or failed, by kind.
    pub disconnects: BTreeMap<String, u64>,
    /// Mean size of the state (or echo) messages received, in bytes.
    pub mean_message_bytes: u64,
    /// Each step of the window, when tracing: its completion time after
    /// the window opened and its latency, in microseconds, in order.
    pub trace: Vec<(u64, u64)>,
}

impl Default for Stats {
    fn default() -> Stats {
        Stats::new()
    }
}

impl Stats {
    /// Empty counters, not recording.
    pub fn new() -> Stats {
        let latency = Histogram::new_with_bounds(1, 120_000_000, 3)
            .unwrap_or_else(|_| Histogram::new(3).unwrap_or_else(|_| unreachable!()));
        Stats {
            recording: AtomicBool::new(false),
            ready: AtomicUsize::new(0),
            sockets: AtomicI64::new(0),
            games_started: AtomicU64::new(0),
            games_finished: AtomicU64::new(0),
            inner: Mutex::new(Inner {
                latency,
                steps: 0,
                errors: BTreeMap::new(),
                disconnects: BTreeMap::new(),
                message_bytes: 0,
                messages: 0,
                window_start: None,
                trace: None,
            }),
        }
    }

    /// Empty counters that also keep every step of the window.
    pub fn with_trace() -> Stats {
        let stats = Stats::new();
        stats.lock().trace = Some(Vec::new());
        stats
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts or stops counting steps and latencies.
    pub fn set_recording(&self, on: bool) {
        if on {
            self.lock().window_start = Some(Instant::now());
        }
        self.recording.store(on, Ordering::SeqCst);
    }

    /// Whether the measured window is open.
    pub fn recording(&self) -> bool {
        self.recording.load(Ordering::Relaxed)
    }

    /// Counts one completed relay (or echo) that took `latency`.
    pub fn step(&self, latency: Duration) {
        if !self.recording() {
            return;
        }
        let micros = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX);
        let mut inner = self.lock();
        inner.latency.saturating_record(micros.max(1));
        inner.steps += 1;
        if let (Some(start), Some(trace)) = (inner.window_start, inner.trace.as_mut()) {
            let at = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
            trace.push((at, micros));
        }
    }

    /// Counts a received message of `bytes`.
    pub fn message(&self, bytes: usize) {
        let mut inner = self.lock();
        inner.messages += 1;
        inner.message_bytes += bytes as u64;
    }

    /// Counts an error of `kind`.
    pub fn error(&self, kind: &str) {
        *self.lock().errors.entry(kind.to_owned()).or_default() += 1;
    }

    /// Counts a socket lost for the reason `kind`.
    pub fn disconnect(&self, kind: &str) {
        *self.lock().disconnects.entry(kind.to_owned()).or_default() += 1;
    }

    /// Adds `n` to the open-socket gauge (negative to remove).
    pub fn add_sockets(&self, n: i64) {
        self.sockets.fetch_add(n, Ordering::Relaxed);
    }

    /// The counters now.
    pub fn snapshot(&self) -> Snapshot {
        let inner = self.lock();
        let h = &inner.latency;
        let latency_us = if h.is_empty() {
            [0; 4]
        } else {
            [
                h.value_at_quantile(0.50),
                h.value_at_quantile(0.90),
                h.value_at_quantile(0.99),
                h.max(),
            ]
        };
        Snapshot {
            steps: inner.steps,
            latency_us,
            errors: inner.errors.clone(),
            disconnects: inner.disconnects.clone(),
            mean_message_bytes: inner.message_bytes.checked_div(inner.messages).unwrap_or(0),
            trace: inner.trace.clone().unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_window_is_counted() {
        let stats = Stats::new();
        stats.step(Duration::from_millis(50));
        stats.set_recording(true);
        stats.step(Duration::from_micros(100));
        stats.step(Duration::from_micros(300));
        stats.set_recording(false);
        stats.step(Duration::from_millis(50));
        let snap = stats.snapshot();
        assert_eq!(snap.steps, 2);
        assert_eq!(snap.latency_us[0], 100);
        assert!(snap.latency_us[3] >= 300 && snap.latency_us[3] < 301);
    }

    #[test]
    fn a_trace_keeps_each_step_of_the_window_in_order() {
        let stats = Stats::with_trace();
        stats.step(Duration::from_millis(50));
        stats.set_recording(true);
        stats.step(Duration::from_micros(100));
        stats.step(Duration::from_micros(300));
        stats.set_recording(false);
        let trace = stats.snapshot().trace;
        assert_eq!(trace.iter().map(|t| t.1).collect::<Vec<_>>(), [100, 300]);
        assert!(trace[0].0 <= trace[1].0);
        assert!(Stats::new().snapshot().trace.is_empty());
    }

    #[test]
    fn errors_are_counted_by_kind() {
        let stats = Stats::new();
        stats.error("ws_connect");
        stats.error("ws_connect");
        stats.disconnect("reset");
        let snap = stats.snapshot();
        assert_eq!(snap.errors.get("ws_connect"), Some(&2));
        assert_eq!(snap.disconnects.get("reset"), Some(&1));
    }
}
