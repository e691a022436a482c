//! Runs the built `fanorona` binary and checks what it prints and how it
//! exits.

use crate::common;

use common::{fails, fanorona, fanorona_with_input, ok, NO_BLACK_STONES, QUIET};

const START: &str = "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0";
/// Fifty turns without a capture: a draw.
const FIFTY: &str = "B.......B/........./....W..../........./W.......W w 50";
/// White's e2 takes e1 by withdrawal, then may go on to take g3.
const CHAIN: &str = "....B..../........./......B../....W..../....B.... w";

#[test]
fn moves_lists_the_five_opening_captures() {
    let expected = "d2-e3A\nd3-e3A\nd3-e3W\ne2-e3A\nf2-e3A\n";
    assert_eq!(ok(&["moves", START]), expected);
    assert_eq!(ok(&["moves", "-"]), expected);
    assert_eq!(ok(&["moves", "start"]), expected);
}

#[test]
fn moves_are_sorted_by_bytes() {
    let out = ok(&["moves", QUIET]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "a1-a2", "a1-b1", "a1-b2", "e3-d2", "e3-d3", "e3-d4", "e3-e2", "e3-e4", "e3-f2",
            "e3-f3", "e3-f4", "i1-h1", "i1-h2", "i1-i2",
        ]
    );
}

#[test]
fn moves_list_every_stopping_point_of_a_chain() {
    assert_eq!(ok(&["moves", CHAIN]), "e2-e3W\ne2-e3W-f3A\n");
}

#[test]
fn moves_of_a_finished_game_print_nothing() {
    assert_eq!(ok(&["moves", NO_BLACK_STONES]), "");
    assert_eq!(ok(&["moves", FIFTY]), "");
}

#[test]
fn perft_counts_each_depth_from_the_start() {
    assert_eq!(ok(&["perft", "3"]), "1 5\n2 39\n3 724\n");
    assert_eq!(ok(&["perft", "4", "-"]), "1 5\n2 39\n3 724\n4 18026\n");
}

#[test]
fn perft_counts_steps_with_the_steps_flag() {
    // Depth 2 counts, after each of the five captures, every continuation
    // or the end of the turn.
    let expected = "1 5\n2 17\n3 64\n";
    assert_eq!(ok(&["perft", "--steps", "3"]), expected);
    assert_eq!(ok(&["perft", "3", "start", "--steps"]), expected);
}

#[test]
fn perft_of_a_given_position() {
    assert_eq!(ok(&["perft", "1", QUIET]), "1 14\n");
    assert_eq!(ok(&["perft", "2", NO_BLACK_STONES]), "1 0\n2 0\n");
}

#[test]
fn show_draws_the_start() {
    let expected = "\
5  B---B---B---B---B---B---B---B---B
   | \\ | / | \\ | / | \\ | / | \\ | / |
4  B---B---B---B---B---B---B---B---B
   | / | \\ | / | \\ | / | \\ | / | \\ |
3  B---W---B---W---.---B---W---B---W
   | \\ | / | \\ | / | \\ | / | \\ | / |
2  W---W---W---W---W---W---W---W---W
   | / | \\ | / | \\ | / | \\ | / | \\ |
1  W---W---W---W---W---W---W---W---W
   a   b   c   d   e   f   g   h   i
white to move
turns since the last capture: 0
";
    assert_eq!(ok(&["show", "-"]), expected);
}

#[test]
fn show_tells_the_result_of_a_finished_game() {
    let out = ok(&["show", NO_BLACK_STONES]);
    assert!(
        out.contains("3  .---.---.---.---W---.---.---.---.\n"),
        "{out}"
    );
    assert!(out.ends_with(
        "black to move\nturns since the last capture: 3\nresult: white wins: black has no stones left\n"
    ));
    let out = ok(&["show", FIFTY]);
    assert!(
        out.ends_with("result: draw: fifty turns without a capture\n"),
        "{out}"
    );
}

#[test]
fn play_prints_the_resulting_position() {
    assert_eq!(
        ok(&["play", "-", "d3-e3A"]),
        "BBBBBBBBB/BBBBBBBBB/BWB.W.WBW/WWWWWWWWW/WWWWWWWWW b 0\n"
    );
    // f4-f3A takes the white line f2, f1 up to the edge.
    assert_eq!(
        ok(&["play", "start", "d3-e3A", "f4-f3A"]),
        "BBBBBBBBB/BBBBB.BBB/BWB.WBWBW/WWWWW.WWW/WWWWW.WWW w 0\n"
    );
}

#[test]
fn play_stops_a_chain_where_the_turn_says() {
    assert_eq!(
        ok(&["play", CHAIN, "e2-e3W"]),
        "....B..../........./....W.B../........./......... b 0\n"
    );
    assert_eq!(
        ok(&["play", CHAIN, "e2-e3W-f3A"]),
        "....B..../........./.....W.../........./......... b 0\n"
    );
}

#[test]
fn play_tells_the_result_when_the_game_ends() {
    assert_eq!(
        ok(&[
            "play",
            "........./....B..../........./....W..../......... w",
            "e2-e3A"
        ]),
        "........./........./....W..../........./......... b 0\n\
         white wins: black has no stones left\n"
    );
}

#[test]
fn bad_position_text_is_a_usage_error() {
    assert_eq!(
        fails(
            2,
            &[
                "moves",
                "BBBBBBBBB/BBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w"
            ]
        ),
        "fanorona: invalid position \"BBBBBBBBB/BBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w\": \
         row 4 has 8 points, expected 9"
    );
    assert_eq!(
        fails(2, &["show", ""]),
        "fanorona: invalid position \"\": empty position text"
    );
    let message = fails(2, &["perft", "1", "BBB w"]);
    assert!(message.contains("the board has 1 rows"), "{message}");
    let message = fails(
        2,
        &[
            "play",
            "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW x",
            "d3-e3A",
        ],
    );
    assert!(message.contains("invalid side to move \"x\""), "{message}");
}

#[test]
fn illegal_position_is_a_usage_error() {
    assert_eq!(
        fails(
            2,
            &[
                "moves",
                "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWB w 0"
            ]
        ),
        "fanorona: illegal position \"BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWB w 0\": \
         black has 23 stones, at most 22 allowed"
    );
    let message = fails(
        2,
        &[
            "show",
            "........./........./....W..../........./......... w",
        ],
    );
    assert!(message.ends_with("black has no stones, so it cannot have made the last move"));
    let message = fails(2, &["perft", "1", &START.replace(" 0", " 51")]);
    assert!(message.ends_with("51 turns since the last capture, at most 50 allowed"));
}

#[test]
fn bad_depth_is_a_usage_error() {
    for depth in ["x", "0", "-1", "99999999999"] {
        assert_eq!(
            fails(2, &["perft", depth]),
            format!(
                "fanorona: invalid depth {depth:?}: expected a whole number of turns, 1 or more"
            )
        );
    }
}

#[test]
fn bad_turn_notation_is_a_usage_error() {
    assert_eq!(
        fails(2, &["play", "-", "d3-e3A", "e4e3"]),
        "fanorona: turn 2 (\"e4e3\"): expected '-' between squares, at character 3"
    );
    assert_eq!(
        fails(2, &["play", "-", ""]),
        "fanorona: turn 1 (\"\"): empty turn"
    );
}

#[test]
fn illegal_turn_exits_with_one() {
    assert_eq!(
        fails(1, &["play", CHAIN, "e2-e3W-e4A"]),
        "fanorona: turn 1 (e2-e3W-e4A): e3-e4A repeats the previous direction"
    );
    assert_eq!(
        fails(1, &["play", "-", "d3-e3A", "e4-d3"]),
        "fanorona: turn 2 (e4-d3): e4-d3: no line joins e4 and d3"
    );
    assert_eq!(
        fails(1, &["play", "-", "e2-e3"]),
        "fanorona: turn 1 (e2-e3): a capture is available, so a paika move is not allowed"
    );
}

#[test]
fn playing_on_after_the_end_exits_with_one() {
    assert_eq!(
        fails(1, &["play", NO_BLACK_STONES, "e4-e5"]),
        "fanorona: turn 1 (e4-e5): the game is over (white wins: black has no stones left)"
    );
}

#[test]
fn clap_usage_errors_exit_with_two() {
    for args in [
        &["moves"][..],
        &["play", "-"],
        &["perft"],
        &["solve", "-"],
        &["moves", "-", "extra"],
    ] {
        let run = fanorona(args);
        assert_eq!(run.code, Some(2), "{args:?}: {run:?}");
        assert_eq!(run.stdout, "", "{args:?}");
        assert!(run.stderr.starts_with("error:"), "{args:?}: {run:?}");
    }
}

#[test]
fn help_goes_to_stdout() {
    let out = ok(&["--help"]);
    assert!(out.contains("moves"), "{out}");
    assert!(out.contains("perft"), "{out}");
}

/// A record file in the temporary directory, removed when dropped.
struct RecordFile(std::path::PathBuf);

impl RecordFile {
    fn new(name: &str, bytes: &[u8]) -> RecordFile {
        let path =
            std::env::temp_dir().join(format!("fanorona-cli-{}-{name}.txt", std::process::id()));
        std::fs::write(&path, bytes).expect("the temporary directory is writable");
        RecordFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 path")
    }
}

impl Drop for RecordFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A record as the site writes it, of a game Black won by resignation.
const RESIGNED: &str = "\
[Site \"https://fanorona.example/g/d04EUAqNQF\"]
[Created \"2025-06-01T14:03:09Z\"]
[Ended \"2025-06-01T14:31:40Z\"]
[White \"the player who started the game\"]
[Black \"Computer · Strongest (level 6)\"]
[Result \"0-1\"]
[Reason \"Black wins. By resignation.\"]

1. d3-e3A
2. f4-f3A
3. e3-f4A
";

#[test]
fn play_replays_a_record_and_tells_how_it_ended() {
    let file = RecordFile::new("resigned", RESIGNED.as_bytes());
    let expected = "BBBBBB.BB/BBBBBWBBB/BWB..BWBW/WWWWW.WWW/WWWWW.WWW b 0\n\
                    0-1: Black wins. By resignation.\n";
    assert_eq!(ok(&["play", "--record", file.path()]), expected);
    // The same turns as arguments lead to the same position.
    assert_eq!(
        ok(&["play", "start", "d3-e3A", "f4-f3A", "e3-f4A"]),
        "BBBBBB.BB/BBBBBWBBB/BWB..BWBW/WWWWW.WWW/WWWWW.WWW b 0\n"
    );
    // Without a reason, the result alone; a running game, nothing more.
    let file = RecordFile::new("no-reason", RESIGNED.replace("[Reason", "[Note").as_bytes());
    assert!(ok(&["play", "--record", file.path()]).ends_with(" b 0\n0-1: black wins\n"));
    let file = RecordFile::new("running", RESIGNED.replace("0-1", "*").as_bytes());
    assert!(ok(&["play", "--record", file.path()]).ends_with(" b 0\n"));
}

#[test]
fn play_reads_a_record_on_standard_input_and_checks_its_result() {
    let record = "[Position \"........./....B..../........./....W..../......... w\"]\n\
                  [Result \"1-0\"]\n\n1. e2-e3A\n";
    let run = fanorona_with_input(&["play", "--record", "-"], record.as_bytes());
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        run.stdout,
        "........./........./....W..../........./......... b 0\n\
         white wins: black has no stones left\n"
    );
    let run = fanorona_with_input(
        &["play", "--record", "-"],
        record.replace("1-0", "1/2-1/2").as_bytes(),
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(
        run.stderr,
        "fanorona: standard input: line 2: the Result tag says 1/2-1/2, but the game ended \
         on the board: white wins: black has no stones left\n"
    );
}

#[test]
fn a_bad_record_is_refused_naming_its_line() {
    let cases: [(&str, &[u8], i32, &str); 7] = [
        (
            "bad-tag",
            b"[Site https://fanorona.example]\n1. d3-e3A\n",
            2,
            "line 1: expected a tag like [Name \"value\"]",
        ),
        (
            "bad-result",
            b"[Result \"white\"]\n",
            2,
            "line 1: invalid Result tag: expected a result of 1-0, 0-1, 1/2-1/2 or *",
        ),
        (
            "bad-turn",
            b"[Result \"*\"]\n\n1. d3-e3A\n2. f4f3A\n",
            2,
            "line 4: turn 2 (\"f4f3A\"): expected '-' between squares, at character 3",
        ),
        (
            "gap",
            b"1. d3-e3A\n3. f4-f3A\n",
            2,
            "line 2: turn number 3, expected 2",
        ),
        (
            "illegal",
            b"[Result \"*\"]\n\n1. d3-e3A\n2. e4-d3\n",
            1,
            "line 4: turn 2 (e4-d3): e4-d3: no line joins e4 and d3",
        ),
        (
            "empty",
            b"\n\n",
            2,
            "empty record: expected tags like [Result \"*\"] and turns like 1. d3-e3A",
        ),
        (
            "binary",
            b"\xff\xfe1. d3",
            2,
            "not a record: not UTF-8 text",
        ),
    ];
    for (name, bytes, code, message) in cases {
        let file = RecordFile::new(name, bytes);
        let line = fails(code, &["play", "--record", file.path()]);
        assert_eq!(
            line,
            format!("fanorona: {}: {message}", file.path()),
            "{name}"
        );
    }
    let missing = fails(2, &["play", "--record", "/no/such/record.txt"]);
    assert!(
        missing.starts_with("fanorona: cannot read the record \"/no/such/record.txt\": "),
        "{missing}"
    );
}

#[test]
fn a_record_comes_without_a_position_or_turns() {
    for args in [
        &["play", "--record", "-", "start"][..],
        &["play", "start", "d3-e3A", "--record", "-"],
    ] {
        let run = fanorona(args);
        assert_eq!(run.code, Some(2), "{args:?}: {run:?}");
        assert!(run.stderr.contains("cannot be used with"), "{run:?}");
    }
}

#[test]
fn bench_prints_a_line_per_position_and_the_total() {
    let out = ok(&["bench", "--depth", "1"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 17, "{out}");
    assert!(lines[0].starts_with("1 nodes "), "{out}");
    assert!(lines[0].ends_with(&format!("position {START}")), "{out}");
    let total: u64 = lines[..16]
        .iter()
        .map(|l| l.split(' ').nth(2).and_then(|n| n.parse::<u64>().ok()))
        .map(|n| n.expect("a node count"))
        .sum();
    assert!(
        lines[16].starts_with(&format!("bench {total} nodes nps ")),
        "{out}"
    );
    assert_eq!(
        ok(&["bench", "--depth", "1"])
            .lines()
            .last()
            .map(|l| l.split(' ').nth(1)),
        lines.last().map(|l| l.split(' ').nth(1))
    );
}

#[test]
fn bench_refuses_a_bad_depth() {
    assert_eq!(
        fails(2, &["bench", "--depth", "0"]),
        "fanorona: invalid depth \"0\": expected a whole number of turns, 1 to 64"
    );
}
