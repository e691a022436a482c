//! Wall-clock time: whole seconds since the Unix epoch as stored for
//! games, milliseconds for the clocks of timed games. The server reads it
//! through a [`Wall`], the system's clock in production and a
//! [`TestClock`] that a test moves by hand, so that a correspondence game
//! can be played over days in a moment.

use std::{
    sync::Arc,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use tokio::sync::watch;

/// Seconds since the Unix epoch now (0 if the clock is before 1970).
pub fn unix_seconds() -> i64 {
    unix_millis() / 1000
}

/// Milliseconds since the Unix epoch now (0 if the clock is before 1970).
pub fn unix_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// Microseconds since the Unix epoch now: the first `version` of a loaded
/// game, so versions keep growing across reloads and restarts.
pub fn unix_micros() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// The clock the server reads the time from: the system's (the default),
/// or a [`TestClock`]'s.
#[derive(Clone, Debug, Default)]
pub struct Wall {
    test: Option<watch::Receiver<i64>>,
}

impl Wall {
    /// Milliseconds since the Unix epoch now.
    pub fn now_ms(&self) -> i64 {
        match &self.test {
            Some(now) => *now.borrow(),
            None => unix_millis(),
        }
    }

    /// Seconds since the Unix epoch now.
    pub fn now_seconds(&self) -> i64 {
        self.now_ms().div_euclid(1000)
    }

    /// Completes once the time is `at` (milliseconds since the Unix
    /// epoch) or later; at once when it already is.
    pub async fn sleep_until(&self, at: i64) {
        match &self.test {
            Some(now) => {
                let mut now = now.clone();
                // The test clock only moves when a test moves it; a
                // dropped clock never moves again.
                if now.wait_for(|&now| now >= at).await.is_err() {
                    std::future::pending::<()>().await;
                }
            }
            None => loop {
                let left = at.saturating_sub(unix_millis());
                if left <= 0 {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(left.unsigned_abs())).await;
            },
        }
    }
}

/// A clock that stands still until moved: for tests of timed games.
/// Every [`Wall`] made from it reads the same time, so servers sharing it
/// (several processes on one database, or a server and the one that
/// replaces it after a restart) agree on the time.
#[derive(Clone, Debug)]
pub struct TestClock {
    now: Arc<watch::Sender<i64>>,
}

impl TestClock {
    /// A clock that reads `now_ms` (milliseconds since the Unix epoch).
    pub fn starting_at(now_ms: i64) -> TestClock {
        TestClock {
            now: Arc::new(watch::Sender::new(now_ms)),
        }
    }

    /// A wall that reads this clock.
    pub fn wall(&self) -> Wall {
        Wall {
            test: Some(self.now.subscribe()),
        }
    }

    /// The time it reads.
    pub fn now_ms(&self) -> i64 {
        *self.now.borrow()
    }

    /// Moves the clock `by` forward, waking whatever waits for that time.
    pub fn advance(&self, by: Duration) {
        let by = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.now.send_modify(|now| *now = now.saturating_add(by));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_test_clock_wakes_a_sleeper_only_once_moved_past_its_time() {
        let clock = TestClock::starting_at(1_000);
        let wall = clock.wall();
        assert_eq!(wall.now_ms(), 1_000);
        assert_eq!(wall.now_seconds(), 1);
        let sleeper = tokio::spawn(async move { wall.sleep_until(5_000).await });
        clock.advance(Duration::from_millis(3_999));
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished());
        clock.advance(Duration::from_millis(1));
        tokio::time::timeout(Duration::from_secs(10), sleeper)
            .await
            .expect("woken")
            .expect("no panic");
        assert_eq!(clock.now_ms(), 5_000);
    }

    #[tokio::test]
    async fn the_system_wall_sleeps_until_its_time() {
        let wall = Wall::default();
        let at = wall.now_ms() + 20;
        wall.sleep_until(at).await;
        assert!(wall.now_ms() >= at);
    }
}
