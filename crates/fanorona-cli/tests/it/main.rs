//! The integration tests of the command line, in one binary: each module is
//! one concern, `common` what they share. One binary links once.
//!
//! Run one module with `cargo test -p fanorona-cli --test it cli::`.

mod common;

mod cli;
mod engine;
mod matches;
mod openings;
mod puzzles;
