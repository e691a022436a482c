//! The integration tests of the rules crate, in one binary: each module is
//! one concern, `common` what they share. One binary links once.
//!
//! Run one module with `cargo test -p fanorona --test it docs::`.

mod common;

mod docs;
mod fuzz_corpus;
mod perft;
mod properties;
mod reference;
mod rules;
