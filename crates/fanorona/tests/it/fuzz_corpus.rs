//! Runs the committed fuzz corpus (`fuzz/corpus/<target>/`) through the
//! same invariant checks as the fuzz targets, so every input kept there
//! stays a regression test without cargo-fuzz.

use std::{fs, path::PathBuf};

#[allow(unreachable_pub)]
#[path = "../../../../fuzz/src/checks.rs"]
mod checks;

/// Reads every file of one target's corpus, failing when there is none.
fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let entries = fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("cannot read the corpus {}: {err}", dir.display()));
    let mut files: Vec<(PathBuf, Vec<u8>)> = entries
        .map(|entry| {
            let path = entry
                .unwrap_or_else(|err| panic!("cannot list {}: {err}", dir.display()))
                .path();
            let data = fs::read(&path)
                .unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
            (path, data)
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "{}: {} files, expected the seed corpus",
        dir.display(),
        files.len()
    );
    files
}

#[test]
fn position_text_corpus_keeps_its_invariants() {
    for (path, data) in corpus("position_text") {
        eprintln!("{}", path.display());
        checks::position_text(&data);
    }
}

#[test]
fn turn_notation_corpus_keeps_its_invariants() {
    for (path, data) in corpus("turn_notation") {
        eprintln!("{}", path.display());
        checks::turn_notation(&data);
    }
}

#[test]
fn game_record_corpus_keeps_its_invariants() {
    for (path, data) in corpus("game_record") {
        eprintln!("{}", path.display());
        checks::game_record(&data);
    }
}
