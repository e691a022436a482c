//! `fanorona openings`: balanced openings written, the same for the same
//! command, played by a match; and the committed file is what its header
//! says.

use crate::common::{depth_one_match, fanorona, ok, scratch};

#[test]
fn balanced_openings_are_written_and_played() {
    let dir = scratch("openings");
    let path = dir.join("balanced.txt");
    let path_text = path.to_str().expect("UTF-8").to_owned();
    let out = ok(&[
        "openings",
        "--turns",
        "2",
        "--count",
        "3",
        "--depth",
        "2",
        "--max-score",
        "0.5",
        "--seed",
        "7",
        "--out",
        &path_text,
    ]);
    assert!(
        out.starts_with("kept 3 of ") && out.ends_with(&format!("written to {path_text}\n")),
        "{out}"
    );
    let text = std::fs::read_to_string(&path).expect("written");
    assert!(text.contains(
        "# Made by: fanorona openings --turns 2 --count 3 --depth 2 --max-score 0.5 --seed 7\n"
    ));
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3, "{text}");
    // The same command makes the same file.
    let again = ok(&[
        "openings",
        "--turns",
        "2",
        "--count",
        "3",
        "--depth",
        "2",
        "--max-score",
        "0.5",
        "--seed",
        "7",
    ]);
    assert!(again.starts_with(&text), "{again}");
    let out = depth_one_match(&path_text, &["--games", "2"]);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{out}"
    );
    for bad in [
        vec!["openings", "--turns", "0"],
        vec!["openings", "--max-score", "-1"],
        vec!["openings", "--depth", "99"],
        vec!["openings", "--count", "many"],
    ] {
        assert_eq!(fanorona(&bad).code, Some(2), "{bad:?}");
    }
}

#[test]
fn the_committed_balanced_openings_are_what_their_header_says() {
    // The second was asked for 1,000 and kept the 998 found balanced
    // among the 100,000 random openings the command draws at most.
    for (name, asked, count, seed) in [
        ("balanced-4.txt", 200, 200, 1),
        ("balanced-4-seed2.txt", 1000, 998, 2),
    ] {
        let path = format!(
            "{}/../fanorona-engine/openings/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("the openings file");
        assert!(
            text.contains(&format!(
                "# Made by: fanorona openings --turns 4 --count {asked} --depth 8 \
                 --max-score 0.3 --seed {seed}\n"
            )),
            "{name}"
        );
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), count, "{name}");
        let distinct: std::collections::HashSet<&str> = lines.iter().copied().collect();
        assert_eq!(distinct.len(), count, "{name}");
        for line in &lines {
            let (opening, score) = line.split_once("  # ").expect("a score");
            let words: Vec<&str> = opening.split(' ').collect();
            assert_eq!(&words[..2], ["start", "moves"], "{line}");
            assert_eq!(words.len(), 6, "{line}");
            let cp: i32 = score.parse().expect("a score in hundredths");
            assert!(cp.abs() <= 30, "{line}");
        }
        // The match reads it.
        let out = depth_one_match(&path, &["--games", "2"]);
        assert!(out.contains(&format!(", {count} openings from ")), "{out}");
    }
}
