//! Every tuning constant of the search, in one place. Scores are in
//! hundredths of a stone; depths and plies are in turns.
//!
//! A change here changes the search: run `fanorona bench` and quote the new
//! signature in the commit (see docs/ENGINE.md, "The bench").

/// The deepest a search goes, quiescence included, in turns.
pub const MAX_DEPTH: u32 = 64;

/// The most plies from the root the search keeps tables for; a node this
/// far down is evaluated statically.
pub(crate) const MAX_PLY: usize = 96;

/// Children of a node are at most this many in practice; each ply's list
/// is allocated once with this room and grows only past it.
pub(crate) const CHILDREN_ROOM: usize = 256;

/// Nodes between two looks at the clock and the stop flag.
pub(crate) const CHECK_EVERY: u64 = 1024;

// Aspiration windows.

/// The first aspiration window, either side of the last score.
pub(crate) const ASPIRATION: i32 = 35;
/// The first depth searched with an aspiration window; shallower depths
/// use the full window.
pub(crate) const ASPIRATION_MIN_DEPTH: u32 = 4;
/// How much the window grows each time the score falls outside it.
pub(crate) const ASPIRATION_GROWTH: i32 = 4;
/// Past this width the window is opened fully.
pub(crate) const ASPIRATION_MAX: i32 = 1000;

// Extensions and reductions.

/// A forced turn (a node with one child) costs no depth while the ply is
/// below `FORCED_PLY_PER_DEPTH * depth + FORCED_PLY_SLACK`, which bounds
/// how far a run of forced turns can extend the search.
pub(crate) const FORCED_PLY_PER_DEPTH: i32 = 2;
/// See [`FORCED_PLY_PER_DEPTH`].
pub(crate) const FORCED_PLY_SLACK: i32 = 8;

/// Late move reductions apply from this remaining depth on.
pub(crate) const REDUCE_MIN_DEPTH: i32 = 3;
/// Late move reductions apply from this child on (counted from 0 in the
/// searched order), to quiet turns that are not killers.
pub(crate) const REDUCE_MIN_CHILD: usize = 3;
/// From this child on, and with at least [`REDUCE_MORE_DEPTH`] left, the
/// reduction is two turns instead of one.
pub(crate) const REDUCE_MORE_CHILD: usize = 8;
/// See [`REDUCE_MORE_CHILD`].
pub(crate) const REDUCE_MORE_DEPTH: i32 = 5;

// Quiescence.

/// The most capture turns a full search follows past its horizon.
pub(crate) const FULL_QUIESCENCE: u32 = 12;
/// What each stone a capture takes is worth to delta pruning.
pub(crate) const DELTA_STONE: i32 = 100;
/// How far above the static value plus the stones a capture takes its
/// position may still turn out, in quiescence: a capture that cannot lift
/// the static value to alpha with this margin is not searched.
pub(crate) const DELTA_MARGIN: i32 = 200;

// Move ordering.

/// The ordering score of the transposition table's best child: first.
pub(crate) const ORDER_TT: i32 = i32::MAX;
/// The base ordering score of a capture, above every quiet turn.
pub(crate) const ORDER_CAPTURE: i32 = 1 << 28;
/// The ordering score a capture gains per stone taken.
pub(crate) const ORDER_CAPTURE_STONE: i32 = 1024;
/// The most history a capture's ordering score adds, to break ties
/// between captures of as many stones (below [`ORDER_CAPTURE_STONE`]).
pub(crate) const ORDER_CAPTURE_HISTORY: i32 = 1023;
/// The ordering score of the first killer; the second is one less. Above
/// every history score ([`HISTORY_MAX`]).
pub(crate) const ORDER_KILLER: i32 = 1 << 27;

/// The killer turns remembered per ply.
pub(crate) const KILLERS: usize = 2;
/// The most a history score grows to; a cut-off at depth `d` adds `d * d`.
pub(crate) const HISTORY_MAX: i32 = 1 << 20;
/// History scores are divided by this at the start of each search, so
/// older games count less.
pub(crate) const HISTORY_DECAY: i32 = 8;
