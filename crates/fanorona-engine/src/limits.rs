//! How long a search may run: a time, a number of nodes, a depth, and a
//! flag another thread can raise to stop it at once.

use std::time::Duration;

/// Limits on a search. The search stops at the first one reached; with none
/// it runs to [`MAX_DEPTH`](crate::MAX_DEPTH) or until stopped.
///
/// A search limited by nodes or depth alone is deterministic: the same
/// position, engine state and limits give the same turn.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this much time.
    pub time: Option<Duration>,
    /// Stop after visiting this many nodes.
    pub nodes: Option<u64>,
    /// Search at most this many turns deep (quiescence goes further).
    pub depth: Option<u32>,
}

impl Limits {
    /// A search of `ms` milliseconds.
    pub fn time_ms(ms: u64) -> Limits {
        Limits {
            time: Some(Duration::from_millis(ms)),
            ..Limits::default()
        }
    }

    /// A search of `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A search `depth` turns deep.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
}
