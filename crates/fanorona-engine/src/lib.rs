#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod arena;
mod bench;
mod book;
mod children;
mod clock;
mod eval;
mod level;
mod limits;
pub mod net;
mod players;
mod score;
mod search;
mod tables;
mod tt;
mod zobrist;

pub use arena::{elo, opening, play_game, GameRecord, MatchConfig, Player, Tally, WinDrawLoss};
pub use bench::{bench, BenchLine, BENCH_DEPTH, BENCH_POSITIONS};
pub use eval::{evaluate, features, Weights, FADE_FROM, FEATURES, FEATURE_COUNT};
pub use level::{Level, LevelSpec};
pub use limits::Limits;
pub use players::{greedy_turn, random_turn};
pub use score::Score;
pub use search::{Config, Engine, Info, SearchResult, MAX_DEPTH};
pub use tables::{Probe, TableResult, Tables};
pub use zobrist::zobrist;
