#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod children;
mod eval;
mod tt;
mod zobrist;

pub use eval::{evaluate, features, Weights, FEATURES, FEATURE_COUNT};
pub use zobrist::zobrist;
