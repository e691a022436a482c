//! The computer's figures, served at `GET /metrics` in the OpenMetrics
//! text format: whether the search threads keep up, how long people wait
//! for them, and how often a search is cut short to keep that wait within
//! `--computer-max-wait`.

use std::{fmt, sync::Arc};

use prometheus_client::{
    encoding::text::encode,
    metrics::{
        counter::Counter,
        family::Family,
        gauge::Gauge,
        histogram::{exponential_buckets, Histogram},
    },
    registry::Registry,
};

/// One label and its value.
type Label = [(&'static str, &'static str); 1];

/// The counters, gauges and histograms of one pool. Cloning shares them.
#[derive(Clone)]
pub(crate) struct Metrics {
    registry: Arc<Registry>,
    /// Searches started, by kind (`play`, `hint`).
    started: Family<Label, Counter>,
    /// Searches stopped before their own budget was spent, to answer
    /// within `--computer-max-wait`, by kind.
    shortened: Family<Label, Counter>,
    /// Searches dropped because nobody could use the answer any more
    /// (the game moved on, ended, or its player left), by where they were
    /// (`waiting`, `running`).
    dropped: Family<Label, Counter>,
    /// Searches refused because the queue was full, by why (`queue`,
    /// `client`, `stopped`).
    refused: Family<Label, Counter>,
    /// Hints asked, by how they were answered (`searched`, `shared`,
    /// `cached`, `limited`).
    hints: Family<Label, Counter>,
    /// Searches waiting for a thread now.
    waiting: Gauge,
    /// Clients with a search waiting now.
    clients: Gauge,
    /// Seconds from a search's request to its start on a thread.
    wait: Histogram,
    /// Seconds a search ran.
    run: Histogram,
}

impl fmt::Debug for Metrics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

/// What the search of a job was for, as a label.
pub(crate) fn kind_label(hint: bool) -> &'static str {
    if hint {
        "hint"
    } else {
        "play"
    }
}

impl Metrics {
    /// Figures at zero, registered under `fanorona_computer_`.
    pub(crate) fn new() -> Metrics {
        let mut registry = Registry::with_prefix("fanorona_computer");
        let started = Family::<Label, Counter>::default();
        let shortened = Family::<Label, Counter>::default();
        let dropped = Family::<Label, Counter>::default();
        let refused = Family::<Label, Counter>::default();
        let hints = Family::<Label, Counter>::default();
        let waiting = Gauge::default();
        let clients = Gauge::default();
        // 1 ms to about 33 s.
        let wait = Histogram::new(exponential_buckets(0.001, 2.0, 16));
        let run = Histogram::new(exponential_buckets(0.001, 2.0, 16));
        registry.register("searches", "Searches started", started.clone());
        registry.register(
            "searches_shortened",
            "Searches stopped early to answer within --computer-max-wait",
            shortened.clone(),
        );
        registry.register(
            "searches_dropped",
            "Searches dropped because nobody could use their answer",
            dropped.clone(),
        );
        registry.register(
            "searches_refused",
            "Searches refused because the queue was full",
            refused.clone(),
        );
        registry.register(
            "hints",
            "Hints asked, by how they were answered",
            hints.clone(),
        );
        registry.register("waiting", "Searches waiting for a thread", waiting.clone());
        registry.register(
            "clients_waiting",
            "Clients with a search waiting for a thread",
            clients.clone(),
        );
        registry.register(
            "wait_seconds",
            "Time from a search's request to its start",
            wait.clone(),
        );
        registry.register("search_seconds", "Time a search ran", run.clone());
        Metrics {
            registry: Arc::new(registry),
            started,
            shortened,
            dropped,
            refused,
            hints,
            waiting,
            clients,
            wait,
            run,
        }
    }

    /// Every figure, in the OpenMetrics text format.
    pub(crate) fn encode(&self) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }

    pub(super) fn queue(&self, waiting: usize, clients: usize) {
        self.waiting.set(i64::try_from(waiting).unwrap_or(i64::MAX));
        self.clients.set(i64::try_from(clients).unwrap_or(i64::MAX));
    }

    pub(super) fn started(&self, hint: bool, waited: f64) {
        self.started
            .get_or_create(&[("kind", kind_label(hint))])
            .inc();
        self.wait.observe(waited);
    }

    pub(super) fn finished(&self, hint: bool, ran: f64, shortened: bool) {
        self.run.observe(ran);
        if shortened {
            self.shortened
                .get_or_create(&[("kind", kind_label(hint))])
                .inc();
        }
    }

    pub(super) fn dropped(&self, running: bool) {
        let place = if running { "running" } else { "waiting" };
        self.dropped.get_or_create(&[("place", place)]).inc();
    }

    pub(super) fn refused(&self, why: &'static str) {
        self.refused.get_or_create(&[("why", why)]).inc();
    }

    /// Counts a hint answered as `how`: `searched`, `shared`, `cached` or
    /// `limited`.
    pub(crate) fn hint(&self, how: &'static str) {
        self.hints.get_or_create(&[("answer", how)]).inc();
    }
}
