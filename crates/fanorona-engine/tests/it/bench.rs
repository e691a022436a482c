//! The bench signature: the total nodes of the bench positions searched
//! to the bench depth. It changes exactly when the search does.

use fanorona_engine::{bench, Config, BENCH_DEPTH};

/// The signature at [`BENCH_DEPTH`]. Update it only with a change that is
/// meant to alter the search, and quote the new number in its commit.
const SIGNATURE: u64 = 2_437_194;

#[test]
fn the_bench_signature_is_unchanged() {
    let mut lines = Vec::new();
    let total = bench(Config::default(), BENCH_DEPTH, |line| {
        lines.push(format!("{} nodes {}", line.position, line.nodes))
    });
    assert_eq!(
        total,
        SIGNATURE,
        "the search changed: the bench at depth {BENCH_DEPTH} visits {total} nodes, not \
         {SIGNATURE}.\nIf the change is meant to alter the search, set SIGNATURE in \
         crates/fanorona-engine/tests/it/bench.rs to {total} and quote `bench {total}` (from \
         `fanorona bench`) in the commit message; if it is not, it has a bug.\n{}",
        lines.join("\n")
    );
}

/// The same with the network correcting the evaluation (`--network`):
/// the network's weights are part of this signature.
const NETWORK_SIGNATURE: u64 = 1_529_400;

#[test]
fn the_bench_signature_with_the_network_is_its_own() {
    let config = Config {
        network: true,
        ..Config::default()
    };
    let total = bench(config, BENCH_DEPTH, |_| {});
    assert_eq!(
        total, NETWORK_SIGNATURE,
        "the search or the network changed: with the network the bench visits {total} \
         nodes, not {NETWORK_SIGNATURE}"
    );
}
