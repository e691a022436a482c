//! The pool's threads: the searchers, the watch on their time, and the
//! one build of the endgame tables.

use std::{
    panic::{catch_unwind, AssertUnwindSafe},
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Once, OnceLock,
    },
    thread,
    time::Instant,
};

use fanorona_engine::{Config as EngineConfig, Engine, Level, Limits, Tables};

use super::{Inner, Job, Search, HINT_TIME};
use crate::ids::GameId;

/// The endgame tables, once built; shared by every pool of the process.
static TABLES: OnceLock<Arc<Tables>> = OnceLock::new();

/// Starts the threads of `inner`'s pool, and the tables' build (of the
/// size its settings give) if no pool of this process has started it.
pub(super) fn start(inner: &Arc<Inner>) {
    static BUILD: Once = Once::new();
    let stones = inner.settings.table_stones;
    BUILD.call_once(|| {
        let spawned = thread::Builder::new()
            .name("endgame-tables".into())
            .spawn(move || {
                let started = Instant::now();
                let tables = Tables::build(stones);
                tracing::info!(took = ?started.elapsed(), bytes = tables.bytes(), "endgame tables built");
                let _ = TABLES.set(Arc::new(tables));
            });
        if let Err(error) = spawned {
            tracing::error!(%error, "cannot start building the endgame tables");
        }
    });
    for index in 0..inner.settings.threads {
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

/// The next job for thread `index`, marked as running with its deadline;
/// `None` once the pool stops. Jobs cancelled while waiting are dropped.
fn next_job(inner: &Inner, index: usize) -> Option<Job> {
    let mut state = inner.lock();
    loop {
        if state.stopped {
            return None;
        }
        while let Some(job) = state.queue.pop_front() {
            if job.stop.load(Ordering::Relaxed) {
                continue;
            }
            let deadline = Instant::now() + inner.settings.max_time;
            if let Some(slot) = state.running.get_mut(index) {
                *slot = Some((deadline, job.stop.clone()));
            }
            drop(state);
            inner.watch.notify_one();
            return Some(job);
        }
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
fn search_loop(inner: &Inner, index: usize) {
    lower_priority(inner.settings.nice);
    let config = EngineConfig {
        table_bytes: inner.settings.table_bytes,
        ..EngineConfig::default()
    };
    let mut engine = Engine::new(config);
    let mut last_game: Option<GameId> = None;
    while let Some(job) = next_job(inner, index) {
        if engine.tables().is_none() {
            engine.set_tables(TABLES.get().cloned());
        }
        if last_game.as_ref() != Some(&job.game) {
            engine.new_game();
            last_game = Some(job.game.clone());
        }
        let found = catch_unwind(AssertUnwindSafe(|| search(&mut engine, inner, &job)));
        if let Some(slot) = inner.lock().running.get_mut(index) {
            *slot = None;
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

fn search(engine: &mut Engine, inner: &Inner, job: &Job) -> Option<fanorona::Turn> {
    let stop: &AtomicBool = &job.stop;
    match job.search {
        Search::Play { level, seed } => engine.play_level(&job.position, level, seed, stop).best,
        Search::Hint => {
            let limits = Limits {
                time: Some(HINT_TIME.min(inner.settings.max_time)),
                nodes: Level::MAX.spec().nodes,
                depth: None,
            };
            engine.search(&job.position, limits, stop, |_| {}).best
        }
    }
}

/// Raises the stop flag of every search past its deadline.
fn watch(inner: &Inner) {
    let mut state = inner.lock();
    loop {
        if state.stopped {
            return;
        }
        let now = Instant::now();
        let mut next: Option<Instant> = None;
        for (deadline, stop) in state.running.iter().flatten() {
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
