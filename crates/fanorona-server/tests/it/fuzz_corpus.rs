//! Runs the committed corpus of the `client_message` fuzz target
//! (`fuzz/corpus/client_message/`) through the same checks as the target,
//! so every input kept there stays a regression test without cargo-fuzz.

use std::{fs, path::PathBuf};

#[allow(unreachable_pub, dead_code)]
#[path = "../../../../fuzz/src/server_checks.rs"]
mod server_checks;

#[test]
fn client_message_corpus_keeps_its_invariants() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/client_message");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    files.sort();
    assert!(
        files.len() >= 10,
        "expected the seed corpus in {}",
        dir.display()
    );
    for path in files {
        let data = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        eprintln!("{}", path.display());
        server_checks::client_messages(&data);
    }
}
