//! `fanorona puzzles`: the file it writes, the same for the same command,
//! and the options it refuses.

use crate::common::{fanorona, ok, scratch};

#[test]
fn puzzles_are_written_to_a_file_the_same_each_time() {
    let dir = scratch("puzzles");
    let path = dir.join("puzzles.txt");
    let path_text = path.to_str().expect("UTF-8").to_owned();
    let args = [
        "puzzles",
        "--games",
        "1",
        "--play-nodes",
        "1000",
        "--check-nodes",
        "5000",
        "--margin",
        "1",
        "--seed",
        "5",
        "--threads",
        "1",
        "--tables",
        "0",
    ];
    let out = ok(&[&args[..], &["--out", &path_text]].concat());
    assert!(
        out.ends_with(&format!("puzzles written to {path_text}\n")),
        "{out}"
    );
    let text = std::fs::read_to_string(&path).expect("written");
    assert!(text.contains(
        "# Made by: fanorona puzzles --games 1 --play-nodes 1000 --check-nodes 5000 \
         --margin 1 --seed 5 --tables 0\n"
    ));
    let written: usize = out
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a count");
    assert_eq!(
        text.lines().filter(|l| !l.starts_with('#')).count(),
        written
    );
    assert_eq!(ok(&args), text);
    for bad in [
        vec!["puzzles", "--games", "0"],
        vec!["puzzles", "--margin", "-1"],
        vec!["puzzles", "--check-nodes", "lots"],
        vec!["puzzles", "--threads", "0"],
        vec!["puzzles", "--tables", "9"],
    ] {
        assert_eq!(fanorona(&bad).code, Some(2), "{bad:?}");
    }
}
