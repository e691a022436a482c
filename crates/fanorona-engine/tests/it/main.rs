//! The integration tests of the engine, in one binary: each module is
//! one concern. One binary links once.
//!
//! Run one module with `cargo test -p fanorona-engine --test it bench::`.

mod bench;
mod search;
mod tables;
