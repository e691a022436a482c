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
fn a_file_of_openings_is_scored_again_by_nodes() {
    let dir = scratch("openings-from");
    let from = dir.join("candidates.txt");
    let from_text = from.to_str().expect("UTF-8").to_owned();
    // The third is the first again: each position is scored once.
    std::fs::write(
        &from,
        "# candidates\nstart moves d3-e3A\nstart moves d3-e3A f4-f3A\n\
         start moves d3-e3A  # again\nstart moves f2-e3A\n",
    )
    .expect("written");
    let args = [
        "openings",
        "--from",
        &from_text,
        "--nodes",
        "3000",
        "--max-score",
        "1.5",
    ];
    let out = ok(&args);
    assert!(
        out.contains(&format!(
            "# Balanced openings: the openings of {from_text}, each scored by a search of \
             3000 nodes and kept when within 1.50 stones of level"
        )) && out.contains(&format!(
            "# Made by: fanorona openings --from {from_text} --count 100 --nodes 3000 \
             --max-score 1.5\n"
        )),
        "{out}"
    );
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    let distinct: std::collections::HashSet<&str> = lines.iter().copied().collect();
    assert!(!lines.is_empty() && distinct.len() == lines.len(), "{out}");
    for line in &lines {
        let (opening, score) = line.split_once("  # ").expect("a score");
        assert!(
            [
                "start moves d3-e3A",
                "start moves d3-e3A f4-f3A",
                "start moves f2-e3A"
            ]
            .contains(&opening),
            "{line}"
        );
        let cp: i32 = score.parse().expect("a score in hundredths");
        assert!(cp.abs() <= 150, "{line}");
    }
    assert!(
        out.ends_with(&format!("# kept {} of 4 read\n", lines.len())),
        "{out}"
    );
    // By nodes, the same file on any machine.
    assert_eq!(ok(&args), out);
    // --count stops it early.
    let one = ok(&[&args[..], &["--count", "1"]].concat());
    assert_eq!(
        one.lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>(),
        lines[..1]
    );
    let missing = dir.join("missing.txt");
    let missing_text = missing.to_str().expect("UTF-8");
    for bad in [
        vec!["openings", "--from", &from_text, "--turns", "3"],
        vec!["openings", "--from", &from_text, "--seed", "3"],
        vec!["openings", "--nodes", "0"],
        vec!["openings", "--nodes", "1000", "--depth", "3"],
        vec!["openings", "--from", missing_text],
    ] {
        let run = crate::common::fanorona(&bad);
        assert_eq!(run.code, Some(2), "{bad:?}");
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
