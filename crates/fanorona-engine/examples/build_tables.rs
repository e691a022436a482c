//! Builds the endgame tables and prints how long it took and their size.
//!
//! ```text
//! cargo run --release -p fanorona-engine --example build_tables [max_stones]
//! ```
//!
//! Without an argument it builds 3 stones, then 4.

use std::{process::ExitCode, time::Instant};

use fanorona_engine::Tables;

fn main() -> ExitCode {
    let sizes: Vec<usize> = match std::env::args().nth(1) {
        None => vec![3, 4],
        Some(arg) => match arg.parse() {
            Ok(n) => vec![n],
            Err(_) => {
                eprintln!("usage: build_tables [max_stones]");
                return ExitCode::FAILURE;
            }
        },
    };
    for max in sizes {
        let start = Instant::now();
        let tables = Tables::build(max);
        let elapsed = start.elapsed();
        let mut file = Vec::new();
        if let Err(e) = tables.write_to(&mut file) {
            eprintln!("write: {e}");
            return ExitCode::FAILURE;
        }
        println!(
            "up to {} stones: {:.2} s, {} entries in memory, {} bytes written",
            tables.max_stones(),
            elapsed.as_secs_f64(),
            tables.bytes(),
            file.len()
        );
    }
    ExitCode::SUCCESS
}
