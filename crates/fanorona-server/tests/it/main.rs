//! The server's integration tests, in one binary: each module is one
//! concern (the file a test is named by in `docs/RELIABILITY.md`), and
//! `common` holds what they share: a real server on 127.0.0.1:0, its
//! clients, and the doubles of its store and processes. One binary links
//! once, which on a 2-core machine is most of the tests' build.
//!
//! Run one module with `cargo test -p fanorona-server --test it crash::`.
#![allow(clippy::unwrap_used)]

mod common;

mod api;
mod bad_input;
mod clocks;
mod compression;
mod computer;
mod connections;
mod crash;
mod docs;
mod errors;
mod failures;
mod fairness;
mod fuzz_corpus;
mod group_commit;
mod health;
mod hub;
mod invite;
mod languages;
mod layers;
mod limits;
mod match_score;
mod messages;
mod operations;
mod page_rules;
mod play;
mod preview;
mod processes;
mod proxy;
mod record;
mod restart;
mod security;
mod store;
mod watching;
