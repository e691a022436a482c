//! The search's clock: the system's monotonic clock where there is one,
//! and none in WebAssembly for the browser (`wasm32-unknown-unknown`, where
//! `std::time::Instant::now` panics). Without a clock a search reports no
//! elapsed time and a time limit cannot end it: the page that runs it
//! limits it by nodes or depth and keeps time itself.

use std::time::{Duration, Instant};

/// When a search started, if the target has a clock.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Start(Option<Instant>);

/// Whether this target has a clock.
const HAS_CLOCK: bool = !cfg!(all(target_arch = "wasm32", target_os = "unknown"));

impl Start {
    /// Now.
    pub(crate) fn now() -> Start {
        Start(HAS_CLOCK.then(Instant::now))
    }

    /// The time since the start; zero without a clock.
    pub(crate) fn elapsed(self) -> Duration {
        self.0.map_or(Duration::ZERO, |s| s.elapsed())
    }

    /// The moment `limit` after the start; none without a clock.
    pub(crate) fn deadline(self, limit: Duration) -> Option<Instant> {
        self.0.map(|s| s + limit)
    }
}
