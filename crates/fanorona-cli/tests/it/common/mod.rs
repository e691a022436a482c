//! What the tests of the `fanorona` binary share: running it and checking
//! how it exits, and positions both suites use.
#![allow(dead_code)]

use std::{
    io::Write,
    process::{Command, Stdio},
};

/// Black to move with no stones left: White has won.
pub(crate) const NO_BLACK_STONES: &str = "........./........./....W..../........./......... b 3";
/// Three white stones against two black, with only paika steps, listed out
/// of byte order by the generator.
pub(crate) const QUIET: &str = "B.......B/........./....W..../........./W.......W w 7";

/// What one run of the binary gave.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) code: Option<i32>,
}

pub(crate) fn fanorona(args: &[&str]) -> Run {
    fanorona_with_input(args, b"")
}

/// Runs the binary with `input` on its standard input.
pub(crate) fn fanorona_with_input(args: &[&str], input: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fanorona binary runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    let input = input.to_vec();
    // Written by a thread of its own while the output is read: a binary
    // that answers as it reads would fill its output pipe and wait, while
    // this wrote on. A binary that does not read its input closes the pipe
    // early.
    let writer = std::thread::spawn(move || drop(stdin.write_all(&input)));
    let output = child.wait_with_output().expect("the fanorona binary ends");
    writer.join().expect("the input is written");
    let run = Run {
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
        code: output.status.code(),
    };
    assert!(!run.stderr.contains("panicked"), "{run:?}");
    run
}

/// Runs the binary, expecting success and an empty stderr; returns stdout.
pub(crate) fn ok(args: &[&str]) -> String {
    let run = fanorona(args);
    assert_eq!(run.code, Some(0), "{args:?}: {run:?}");
    assert_eq!(run.stderr, "", "{args:?}");
    run.stdout
}

/// Runs the binary, expecting `code`, nothing on stdout and exactly one
/// line on stderr; returns that line without its newline.
pub(crate) fn fails(code: i32, args: &[&str]) -> String {
    let run = fanorona(args);
    assert_eq!(run.code, Some(code), "{args:?}: {run:?}");
    assert_eq!(run.stdout, "", "{args:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {run:?}");
    run.stderr.trim_end().to_owned()
}

/// A directory of its own for one test's files, empty.
pub(crate) fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fanorona-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// The real engine over the protocol, without tables.
pub(crate) fn engine() -> String {
    format!("{} engine --tables 0", env!("CARGO_BIN_EXE_fanorona"))
}

/// `fanorona match` of [`engine`] against itself at depth 1 from the
/// openings file `openings`, with the options `more`; its output.
pub(crate) fn depth_one_match(openings: &str, more: &[&str]) -> String {
    let e = engine();
    let mut args = vec![
        "match",
        "--engine",
        &e,
        "--engine",
        &e,
        "--depth",
        "1",
        "--openings",
        openings,
    ];
    args.extend_from_slice(more);
    ok(&args)
}
