//! Perft over the data files in `tests/data/*.perft`: blocks of `id`,
//! `pos` and `perft <depth> <nodes>` lines separated by blank lines; `#`
//! starts a comment.
//!
//! Lines with more nodes than a limit are skipped so the test stays fast in
//! a debug build; set `FANORONA_PERFT_LIMIT` to run more, e.g.
//! `FANORONA_PERFT_LIMIT=100000000 cargo test --release -p fanorona --test it perft::`.

use crate::common;

use std::path::Path;

use common::data_files;
use fanorona::{perft, Position, Setup};

const DEFAULT_LIMIT: u64 = 2_000_000;

fn limit() -> u64 {
    std::env::var("FANORONA_PERFT_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_LIMIT)
}

/// One position of a data file and its expected counts.
#[derive(Debug)]
struct Block {
    id: String,
    pos: Position,
    lines: Vec<(u32, u64)>,
}

fn parse_file(path: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut blocks: Vec<Block> = Vec::new();
    let mut id: Option<String> = None;
    for (n, line) in text.lines().enumerate() {
        let at = || format!("{}:{}", path.display(), n + 1);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("{}: expected `<key> <value>`", at()));
        match key {
            "id" => id = Some(value.to_owned()),
            "pos" => {
                let setup: Setup = value.parse().unwrap_or_else(|e| panic!("{}: {e}", at()));
                let pos = Position::from_setup(setup).unwrap_or_else(|e| panic!("{}: {e}", at()));
                let id = id
                    .take()
                    .unwrap_or_else(|| panic!("{}: pos without id", at()));
                blocks.push(Block {
                    id,
                    pos,
                    lines: Vec::new(),
                });
            }
            "perft" => {
                let (depth, nodes) = value
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("{}: expected `perft <depth> <nodes>`", at()));
                let depth = depth.parse().unwrap_or_else(|e| panic!("{}: {e}", at()));
                let nodes = nodes.parse().unwrap_or_else(|e| panic!("{}: {e}", at()));
                blocks
                    .last_mut()
                    .unwrap_or_else(|| panic!("{}: perft before pos", at()))
                    .lines
                    .push((depth, nodes));
            }
            other => panic!("{}: unknown key {other:?}", at()),
        }
    }
    blocks
}

#[test]
fn perft_matches_every_data_file() {
    let limit = limit();
    let mut checked = 0;
    let mut failures = Vec::new();
    for file in data_files() {
        for block in parse_file(&file) {
            assert!(!block.lines.is_empty(), "{}: no perft lines", block.id);
            for &(depth, nodes) in &block.lines {
                if nodes > limit {
                    continue;
                }
                let got = perft(&block.pos, depth);
                if got != nodes {
                    failures.push(format!(
                        "{} ({}): perft {depth} = {got}, expected {nodes}",
                        block.id, block.pos
                    ));
                }
                checked += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 50, "only {checked} perft lines checked");
}

#[test]
fn data_files_cover_the_start_and_at_least_eight_other_positions() {
    let blocks: Vec<Block> = data_files().iter().flat_map(|f| parse_file(f)).collect();
    let start = blocks
        .iter()
        .find(|b| b.id == "start")
        .expect("a block with id start");
    assert_eq!(start.pos, Position::start());
    assert_eq!(start.pos.to_string(), common::START);
    assert!(start.lines.iter().any(|&(d, _)| d >= 5));
    assert!(blocks.len() >= 9, "only {} positions", blocks.len());
    let mut ids: Vec<&str> = blocks.iter().map(|b| b.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), blocks.len(), "ids must be unique");
}

#[test]
fn perft_from_the_start_matches_the_published_counts() {
    let start = Position::start();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, [5, 39, 724, 18_026]);
}
