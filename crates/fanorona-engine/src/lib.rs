#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod children;
mod eval;
mod tables;
mod tt;
mod zobrist;

pub use eval::{evaluate, features, Weights, FEATURES, FEATURE_COUNT};
pub use tables::{Probe, TableResult, Tables};
pub use zobrist::zobrist;
