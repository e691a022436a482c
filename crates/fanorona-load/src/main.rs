//! `fanorona-load`: drives live games against a running server.

fn main() {}
