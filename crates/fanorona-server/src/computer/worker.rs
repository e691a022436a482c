//! The pool's threads: the searchers, the watch on their time, and the
//! one build of the endgame tables (of 4 stones first when more are asked
//! for, so searches have them within seconds).

use std::{
    panic::{catch_unwind, AssertUnwindSafe},
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Once, PoisonError, RwLock,
    },
    thread,
    time::{Duration, Instant},
};

use fanorona_engine::{Config as EngineConfig, Engine, Limits, Tables};

use super::{budget::Budget, Job, Running, Search, Shared, HINT_LEVEL, HINT_TIME};
use crate::ids::GameId;

/// The endgame tables built so far, shared by every pool of the process:
/// none at first, then those of [`FIRST_TABLE_STONES`], then, when more
/// stones are asked for, the whole set, which replaces them.
static TABLES: RwLock<Option<Arc<Tables>>> = RwLock::new(None);

/// The stones of the tables built first: 4 take a second or two, 5 tens
/// of seconds, during which the searches use the 4.
const FIRST_TABLE_STONES: usize = 4;

/// The largest tables built so far.
fn built_tables() -> Option<Arc<Tables>> {
    TABLES
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

/// The sizes to build, in order: the first tables, then the whole set.
fn table_builds(stones: usize) -> Vec<usize> {
    let first = stones.min(FIRST_TABLE_STONES);
    if stones > first {
        vec![first, stones]
    } else {
        vec![first]
    }
}

/// Starts the threads of `inner`'s pool, and the tables' build (of the
/// size its settings give) if no pool of this process has started it.
pub(super) fn start(inner: &Arc<Shared>) {
    static BUILD: Once = Once::new();
    let stones = inner.settings.table_stones;
    BUILD.call_once(|| {
        let spawned = thread::Builder::new()
            .name("endgame-tables".into())
            .spawn(move || {
                for n in table_builds(stones) {
                    let started = Instant::now();
                    // The 5-stone tables grow from the 4-stone ones
                    // rather than solving their positions again.
                    let tables = match built_tables() {
                        Some(smaller) => smaller.extended(n),
                        None => Tables::build(n),
                    };
                    tracing::info!(stones = n, took = ?started.elapsed(), bytes = tables.bytes(), "endgame tables built");
                    *TABLES.write().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(tables));
                }
            });
        if let Err(error) = spawned {
            tracing::error!(%error, "cannot start building the endgame tables");
        }
    });
    for index in 0..inner.settings.bounds.threads {
        let inner = inner.clone();
        let spawned = thread::Builder::new()
            .name(format!("engine-{index}"))
            .spawn(move || search_loop(&inner, index));
        if let Err(error) = spawned {
            tracing::error!(%error, "cannot start a search thread");
        }
    }
    let inner = inner.clone();
    let spawned = thread::Builder::new()
        .name("engine-watch".into())
        .spawn(move || watch(&inner));
    if let Err(error) = spawned {
        tracing::error!(%error, "cannot start the search watch");
    }
}

/// The next job for thread `index`, its budget and its deadline, marked
/// as running; `None` once the pool stops.
fn next_job(inner: &Shared, index: usize) -> Option<(Job, Budget, Instant)> {
    let mut state = inner.lock();
    loop {
        if state.stopped {
            return None;
        }
        while let Some(job) = state.queue.pop() {
            if job.stop.load(Ordering::Relaxed) {
                inner.metrics.dropped(false);
                continue;
            }
            let now = Instant::now();
            let waited = now.saturating_duration_since(job.queued);
            let budget = inner.settings.bounds.budget(waited, state.queue.heavy());
            let deadline = now + budget.time;
            if let Some(slot) = state.running.get_mut(index) {
                *slot = Some(Running {
                    deadline,
                    stop: job.stop.clone(),
                });
            }
            inner.show_queue(&state);
            drop(state);
            inner
                .metrics
                .started(job.search == Search::Hint, waited.as_secs_f64());
            inner.watch.notify_one();
            return Some((job, budget, deadline));
        }
        inner.show_queue(&state);
        state = inner
            .work
            .wait(state)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
    }
}

/// Lowers the calling thread to `nice` (`--engine-nice`, 19 by default:
/// the lowest priority). A search keeps its core busy for up to a second,
/// and the runtime's threads that relay the games between people should
/// not wait behind it. In the load tool's runs (`docs/PERF.md`, "Games
/// against the computer beside games between people") the nice value made
/// no measurable difference; the number of search threads did. On Linux
/// the priority is the thread's own, so the server's other threads keep
/// theirs; elsewhere it would be the whole process's, so nothing changes
/// there.
fn lower_priority(nice: i32) {
    #[cfg(target_os = "linux")]
    if let Err(error) = rustix::process::setpriority_process(None, nice) {
        tracing::warn!(%error, nice, "cannot lower the priority of a search thread");
    }
    #[cfg(not(target_os = "linux"))]
    let _ = nice;
}

/// One search thread: one engine, searching job after job, at the lowest
/// priority.
fn search_loop(inner: &Shared, index: usize) {
    lower_priority(inner.settings.nice);
    let config = EngineConfig {
        table_bytes: inner.settings.table_bytes,
        ..EngineConfig::default()
    };
    let mut engine = Engine::new(config);
    let mut last_game: Option<GameId> = None;
    while let Some((job, budget, deadline)) = next_job(inner, index) {
        let built = built_tables();
        if built.as_ref().map(|t| t.max_stones()) > engine.tables().map(|t| t.max_stones()) {
            engine.set_tables(built);
        }
        if last_game.as_ref() != Some(&job.game) {
            engine.new_game();
            last_game = Some(job.game.clone());
        }
        let started = Instant::now();
        let found = catch_unwind(AssertUnwindSafe(|| search(&mut engine, &job)));
        let ended = Instant::now();
        let cancelled = job.reply.is_closed();
        if let Some(slot) = inner.lock().running.get_mut(index) {
            *slot = None;
        }
        // Ran to its deadline: the watch stopped it there.
        let shortened = budget.cut && !cancelled && ended >= deadline;
        let hint = job.search == Search::Hint;
        inner
            .metrics
            .finished(hint, (ended - started).as_secs_f64(), shortened);
        if shortened {
            note_shortened(inner, &job, budget.time);
        }
        if cancelled {
            inner.metrics.dropped(true);
        }
        match found {
            Ok(best) => {
                let _ = job.reply.send(best);
            }
            Err(_) => {
                tracing::error!(game = %job.game, position = %job.position, "the search failed");
                engine = Engine::new(config);
                last_game = None;
            }
        }
    }
}

/// How often at most the log says that searches are being shortened.
const WARN_EVERY: Duration = Duration::from_secs(10);

/// Logs a search cut short to keep the wait within
/// `--computer-max-wait`: each at debug level, and at most every
/// [`WARN_EVERY`] a warning with how many were since the last one.
fn note_shortened(inner: &Shared, job: &Job, time: Duration) {
    tracing::debug!(game = %job.game, searched = ?time, "search shortened to answer in time");
    let mut state = inner.lock();
    let (count, warned) = &mut state.shortened;
    *count += 1;
    let now = Instant::now();
    if warned.is_none_or(|at| now >= at + WARN_EVERY) {
        let shortened = *count;
        *count = 0;
        *warned = Some(now);
        let waiting = state.queue.len();
        drop(state);
        tracing::warn!(
            shortened,
            waiting,
            searched = ?time,
            "the computer is busy: searches are shortened to answer within --computer-max-wait"
        );
    }
}

fn search(engine: &mut Engine, job: &Job) -> Option<fanorona::Turn> {
    let stop: &AtomicBool = &job.stop;
    match job.search {
        Search::Play { level, seed } => engine.play_level(&job.position, level, seed, stop).best,
        Search::Hint => {
            let limits = Limits {
                time: Some(HINT_TIME),
                nodes: HINT_LEVEL.spec().nodes,
                depth: None,
            };
            engine.search(&job.position, limits, stop, |_| {}).best
        }
    }
}

/// Raises the stop flag of every search past its deadline.
fn watch(inner: &Shared) {
    let mut state = inner.lock();
    loop {
        if state.stopped {
            return;
        }
        let now = Instant::now();
        let mut next: Option<Instant> = None;
        for Running { deadline, stop } in state.running.iter().flatten() {
            if *deadline <= now {
                stop.store(true, Ordering::Relaxed);
            } else {
                next = Some(next.map_or(*deadline, |n| n.min(*deadline)));
            }
        }
        state = match next {
            Some(at) => {
                inner
                    .watch
                    .wait_timeout(state, at - now)
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .0
            }
            None => inner
                .watch
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_stone_tables_come_first_when_more_are_asked_for() {
        assert_eq!(table_builds(5), [4, 5]);
        assert_eq!(table_builds(4), [4]);
        assert_eq!(table_builds(3), [3]);
        assert_eq!(table_builds(2), [2]);
    }
}
