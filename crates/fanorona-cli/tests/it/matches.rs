//! `fanorona match --engine`: real engine processes over the protocol,
//! engines that fail, the SPRT's stop and the record file it writes.

use std::path::Path;

use crate::common::{depth_one_match, engine, fails, fanorona, ok, scratch};

const BIN: &str = env!("CARGO_BIN_EXE_fanorona");

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("written");
    path.to_str().expect("a UTF-8 path").to_owned()
}

/// The engine at its quickest: depth 1 is the match's, no tables to build.
/// A protocol engine written in sh: it answers `isready` and plays
/// `go_answer` (shell text that prints one line) to every `go`.
fn script_engine(dir: &Path, name: &str, go_answer: &str) -> String {
    let script = format!(
        "while read -r cmd rest; do\n\
         case \"$cmd\" in\n\
         isready) echo readyok ;;\n\
         position) line=\"$rest\" ;;\n\
         go) {go_answer} ;;\n\
         quit) exit 0 ;;\n\
         esac\n\
         done\n"
    );
    format!("sh {}", write(dir, name, &script))
}

/// The first legal turn in sorted order, as `fanorona moves` lists them,
/// from the openings used here (all `start moves ...`).
fn first_turn_engine(dir: &Path) -> String {
    script_engine(dir, "first.sh", &first_turn_answer())
}

/// The shell lines of [`first_turn_engine`] that answer a `go`.
fn first_turn_answer() -> String {
    format!(
        "set -- $line; shift; shift; pos=$({BIN} play start \"$@\" | head -n 1); \
         t=$({BIN} moves \"$pos\" | head -n 1); echo \"bestturn ${{t:-none}}\""
    )
}

const TWO_OPENINGS: &str =
    "# two openings\nstart moves d3-e3A\n\nstart moves d3-e3A f4-f3A  # cp 0\n";

#[test]
fn two_engines_play_each_opening_with_both_colours_and_the_record_replays() {
    let dir = scratch("real");
    let openings = write(&dir, "openings.txt", TWO_OPENINGS);
    let record = dir.join("games.txt");
    let record_text = record.to_str().expect("UTF-8").to_owned();
    let (first, second) = (engine(), format!("{BIN} engine --tables 2"));
    let out = ok(&[
        "match",
        "--engine",
        &first,
        "--engine",
        &second,
        "--depth",
        "1",
        "--openings",
        &openings,
        "--games",
        "4",
        "--concurrency",
        "2",
        "--record",
        &record_text,
    ]);
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 4, "{out}");
    for (i, colour, opening) in [
        (1, "white", 1),
        (2, "black", 1),
        (3, "white", 2),
        (4, "black", 2),
    ] {
        let line = games
            .iter()
            .find(|l| l.starts_with(&format!("game {i} ")))
            .expect("every game has a line");
        assert!(
            line.starts_with(&format!(
                "game {i} (opening {opening}): {first} as {colour} vs {second}: "
            )),
            "{line}"
        );
    }
    let tally = out
        .lines()
        .find(|l| l.starts_with("tally "))
        .expect("a tally");
    assert!(tally.contains(" in 4 games, pairs "), "{tally}");
    // A progress line per pair, as each pair's second game ends (games
    // end in any order, two at a time).
    let progress: Vec<&str> = out.lines().filter(|l| l.starts_with("games ")).collect();
    assert_eq!(progress.len(), 2, "a progress line per pair: {out}");
    assert!(
        progress[0].contains(" pairs ") && !progress[0].contains(" pairs 0-0-0-0-0 "),
        "{out}"
    );
    assert!(progress[1].starts_with("games 4 "), "{out}");

    // Every game is in the record file, with its engines and opening, and
    // replays to an end the rules agree with.
    let text = std::fs::read_to_string(&record).expect("the record file");
    assert_eq!(
        text.matches("[Event \"fanorona match\"]").count(),
        4,
        "{text}"
    );
    for round in 1..=4 {
        let (white, black) = if round % 2 == 1 {
            (&first, &second)
        } else {
            (&second, &first)
        };
        assert!(
            text.contains(&format!(
                "[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n"
            )),
            "{text}"
        );
    }
    assert!(text.contains(&format!(
        "[Opening \"{openings} 2: start moves d3-e3A f4-f3A\"]"
    )));
    assert!(text.contains("[TimeControl \"go depth 1\"]"));
    let replayed = ok(&["play", "--record", &record_text]);
    let lines: Vec<&str> = replayed.lines().collect();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("game ")).count(),
        4,
        "{replayed}"
    );
    // Each game ends on the board: a position line then its outcome.
    assert_eq!(lines.len(), 12, "{replayed}");
    for game in lines.chunks(3) {
        assert!(
            game[2].contains("wins") || game[2].starts_with("draw"),
            "{replayed}"
        );
    }
}

#[test]
fn engines_play_as_their_own_level_when_told_a_level() {
    let dir = scratch("level");
    let openings = write(&dir, "openings.txt", TWO_OPENINGS);
    let log = dir.join("heard.txt");
    // The real engine, with every line it is sent written down first.
    let logged = write(
        &dir,
        "logged.sh",
        &format!(
            "tee -a {} | {BIN} engine --tables 0\n",
            log.to_str().expect("UTF-8")
        ),
    );
    let logged = format!("sh {logged}");
    let record = dir.join("games.txt");
    let record_text = record.to_str().expect("UTF-8").to_owned();
    let out = ok(&[
        "match",
        "--engine",
        &logged,
        "--engine",
        &engine(),
        "--level",
        "2",
        "--openings",
        &openings,
        "--games",
        "2",
        // One game at a time: two logged engines at once would interleave
        // their lines in the one log.
        "--concurrency",
        "1",
        "--record",
        &record_text,
    ]);
    assert!(out.contains(": level 2, go, 2 openings from "), "{out}");
    assert!(out.contains(" in 2 games, pairs "), "{out}");
    let heard = std::fs::read_to_string(&log).expect("the engine's input");
    let lines: Vec<&str> = heard.lines().collect();
    let gos = lines.iter().filter(|l| l.starts_with("go")).count();
    assert!(gos > 0, "{heard}");
    // Every `go` is plain and comes right after `level 2`.
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("go") {
            assert_eq!(*line, "go", "{heard}");
            assert_eq!(lines[i - 1], "level 2", "{heard}");
        }
    }
    let text = std::fs::read_to_string(&record).expect("the record file");
    assert_eq!(
        text.matches("[TimeControl \"level 2, go\"]").count(),
        2,
        "{text}"
    );
    let e = engine();
    let err = fails(
        2,
        &[
            "match", "--engine", &e, "--engine", &e, "--level", "7", "--games", "2",
        ],
    );
    assert!(err.contains("invalid level \"7\""), "{err}");
    // In-process matches choose their levels with --white and --black.
    let run = fanorona(&["match", "--white", "1", "--black", "2", "--level", "2"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("--level"), "{run:?}");
}

#[test]
fn an_engine_that_plays_an_illegal_turn_loses_and_is_named() {
    let dir = scratch("illegal");
    let openings = write(&dir, "openings.txt", TWO_OPENINGS);
    let cheat = script_engine(
        &dir,
        "cheat.sh",
        "echo 'info depth 1'; echo 'bestturn a1-a2'",
    );
    let run = fanorona(&[
        "match",
        "--engine",
        &engine(),
        "--engine",
        &cheat,
        "--depth",
        "1",
        "--openings",
        &openings,
        "--games",
        "2",
        "--concurrency",
        "1",
    ]);
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stderr.contains("an engine failed"), "{run:?}");
    let games: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("game "))
        .collect();
    assert_eq!(games.len(), 2, "{run:?}");
    for line in games {
        assert!(line.contains(": win, "), "{line}");
        assert!(
            line.contains(&format!("{cheat} lost: played the illegal turn a1-a2 in ")),
            "{line}"
        );
    }
    assert!(
        run.stdout.contains("+2 =0 -0 in 2 games, pairs 0-0-0-0-1"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains(", 2 lost by a failing engine"),
        "{run:?}"
    );
}

#[test]
fn engines_that_exit_stall_answer_nonsense_or_do_not_start_lose() {
    let dir = scratch("failing");
    let openings = write(&dir, "openings.txt", TWO_OPENINGS);
    let silent = script_engine(&dir, "silent.sh", "sleep 3");
    let nonsense = script_engine(&dir, "nonsense.sh", "echo 'bestturn hello'");
    let error = script_engine(&dir, "error.sh", "echo 'error no idea'");
    let none = script_engine(&dir, "none.sh", "echo 'bestturn none'");
    let missing = dir
        .join("no-such-engine")
        .to_str()
        .expect("UTF-8")
        .to_owned();
    for (second, why) in [
        ("sh -c exit".to_owned(), "sh -c exit lost: "),
        (
            silent,
            "lost: did not answer go with a bestturn within 1000 ms",
        ),
        (nonsense, "lost: answered bestturn \"hello\", not a turn"),
        (error, "lost: answered \"error no idea\""),
        (none, "lost: found no turn in "),
        (missing, "lost: could not be started: "),
    ] {
        let run = fanorona(&[
            "match",
            "--engine",
            &engine(),
            "--engine",
            &second,
            "--depth",
            "1",
            "--openings",
            &openings,
            "--games",
            "2",
            "--timeout",
            "1000",
        ]);
        assert_eq!(run.code, Some(1), "{second}: {run:?}");
        let games: Vec<&str> = run
            .stdout
            .lines()
            .filter(|l| l.starts_with("game "))
            .collect();
        assert_eq!(games.len(), 2, "{second}: {run:?}");
        for line in games {
            assert!(
                line.contains(": win, ") && line.contains(why),
                "{second}: {line}"
            );
        }
    }
}

#[test]
fn sprt_accepts_h1_against_a_weak_mover_and_stops() {
    let dir = scratch("sprt");
    // Twenty openings: by depth an opening played again is the same two
    // games, so the match has at most forty to play.
    let openings = dir.join("openings.txt");
    let openings = openings.to_str().expect("UTF-8").to_owned();
    ok(&[
        "openings",
        "--turns",
        "2",
        "--count",
        "20",
        "--depth",
        "1",
        "--max-score",
        "50",
        "--out",
        &openings,
    ]);
    let weak = first_turn_engine(&dir);
    let out = ok(&[
        "match",
        "--engine",
        &engine(),
        "--engine",
        &weak,
        "--depth",
        "2",
        "--openings",
        &openings,
        "--sprt",
        "elo0=0,elo1=400",
        "--games",
        "40",
        "--concurrency",
        "2",
    ]);
    let verdict = out.lines().last().expect("a verdict");
    assert!(
        verdict.starts_with("sprt elo0=0,elo1=400,alpha=0.05,beta=0.05: H1 accepted, llr "),
        "{out}"
    );
    let games = out.lines().filter(|l| l.starts_with("game ")).count();
    assert!((6..40).contains(&games), "stopped early: {out}");
    let progress = out
        .lines()
        .rfind(|l| l.starts_with("games "))
        .expect("progress");
    assert!(
        progress.contains(" llr ") && progress.contains(" [-2.94, 2.94] "),
        "{progress}"
    );
}

/// The first legal turn, as [`first_turn_engine`], chosen with the score
/// `cp` on an `info` line before it.
fn scoring_engine(dir: &Path, name: &str, cp: i32) -> String {
    let answer = format!(
        "echo \"info depth 1 seldepth 1 score cp {cp} nodes 1 nps 1 time 0 pv\"; {}",
        first_turn_answer()
    );
    script_engine(dir, name, &answer)
}

#[test]
fn a_game_both_engines_score_as_level_is_adjudicated_a_draw() {
    let dir = scratch("adjudicate");
    let openings = write(&dir, "openings.txt", TWO_OPENINGS);
    let record = dir.join("games.txt");
    let record_text = record.to_str().expect("UTF-8").to_owned();
    let level = scoring_engine(&dir, "level.sh", -5);
    let ahead = scoring_engine(&dir, "ahead.sh", 40);
    let run = |first: &str, second: &str, rule: &str, record: &[&str]| {
        ok(&[
            &[
                "match",
                "--engine",
                first,
                "--engine",
                second,
                "--depth",
                "1",
                "--openings",
                &openings,
                "--games",
                "2",
                "--concurrency",
                "1",
                "--adjudicate-draw",
                rule,
            ][..],
            record,
        ]
        .concat())
    };
    // Both engines within 0.05 stones: each game ends three turns after
    // its opening's one, at the fourth turn the rule asks for.
    let out = run(
        &level,
        &level,
        "after=4,turns=3,score=5",
        &["--record", &record_text],
    );
    assert!(
        out.contains("\ndraws adjudicated: after=4,turns=3,score=5\n"),
        "{out}"
    );
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{out}");
    for line in &games {
        assert!(
            line.ends_with(
                ": draw, 3 turns (draw by adjudication: the last 3 turns were each scored \
                 within 5 hundredths of a stone of level)"
            ),
            "{line}"
        );
    }
    // The record says why; it replays legally to where it stopped.
    let text = std::fs::read_to_string(&record).expect("the record file");
    assert_eq!(text.matches("[Result \"1/2-1/2\"]").count(), 2, "{text}");
    assert_eq!(text.matches("[Reason \"draw by adjudication: ").count(), 2);
    let replayed = ok(&["play", "--record", &record_text]);
    assert_eq!(
        replayed.matches("1/2-1/2: draw by adjudication").count(),
        2,
        "{replayed}"
    );

    // One engine scoring itself 0.40 stones ahead: never adjudicated, the
    // games are played to their end; nor when the rule waits past them.
    for (first, rule) in [
        (&ahead, "after=0,turns=2,score=39"),
        (&level, "after=1000,turns=1,score=5"),
    ] {
        let out = run(first, &level, rule, &[]);
        assert!(!out.contains("by adjudication"), "{rule}: {out}");
        assert_eq!(out.lines().filter(|l| l.starts_with("game ")).count(), 2);
    }
}

#[test]
fn by_depth_nodes_or_level_each_opening_is_played_once_with_each_colour() {
    let dir = scratch("replay");
    let openings = write(&dir, "openings.txt", TWO_OPENINGS);
    for games in [&["--games", "10"][..], &[]] {
        let out = depth_one_match(&openings, &[&["--sprt", "elo0=0,elo1=5"], games].concat());
        assert!(
            out.contains(
                "go depth 1: an opening played again replays the same two games, \
                 so the match stops after 4 games, each opening played with both colours"
            ),
            "{out}"
        );
        let played = out.lines().filter(|l| l.starts_with("game ")).count();
        assert_eq!(played, 4, "{out}");
        assert!(out.contains(" in 4 games, pairs "), "{out}");
    }
    // Within the openings, nothing is said and the count asked is played.
    let out = depth_one_match(&openings, &["--games", "2"]);
    assert!(!out.contains("played again"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("game ")).count(), 2);
}

#[test]
fn sprt_undecided_after_the_games_run_out() {
    let dir = scratch("undecided");
    let openings = write(&dir, "openings.txt", TWO_OPENINGS);
    let out = depth_one_match(&openings, &["--sprt", "elo0=0,elo1=5", "--games", "2"]);
    assert!(
        out.lines()
            .last()
            .is_some_and(|l| l.contains(": undecided, llr ")),
        "{out}"
    );
    // The same engine twice is told apart.
    assert!(
        out.contains(&format!("{} #1 as white vs {} #2", engine(), engine())),
        "{out}"
    );
}

#[test]
fn bad_match_options_are_usage_errors() {
    let dir = scratch("usage");
    let openings = write(&dir, "openings.txt", TWO_OPENINGS);
    let bad_openings = write(&dir, "bad.txt", "start moves e2-e3\n");
    let e = engine();
    for (args, message) in [
        (
            vec!["--engine", &e, "--depth", "1", "--games", "2"],
            "--engine is given 1 times",
        ),
        (
            vec!["--engine", &e, "--engine", &e, "--games", "2"],
            "expected --time MS, --nodes N, --depth D or --level L",
        ),
        (
            vec![
                "--engine",
                &e,
                "--engine",
                &e,
                "--depth",
                "1",
                "--sprt",
                "elo0=5,elo1=0",
            ],
            "invalid --sprt",
        ),
        (
            vec![
                "--engine",
                &e,
                "--engine",
                &e,
                "--depth",
                "1",
                "--games",
                "2",
                "--adjudicate-draw",
                "after=40,turns=0,score=10",
            ],
            "invalid --adjudicate-draw \"after=40,turns=0,score=10\"",
        ),
        (
            vec![
                "--engine", &e, "--engine", &e, "--depth", "0", "--games", "2",
            ],
            "invalid depth",
        ),
        (
            vec![
                "--engine",
                &e,
                "--engine",
                &e,
                "--depth",
                "1",
                "--games",
                "2",
                "--openings",
                "nowhere.txt",
            ],
            "cannot read the openings",
        ),
        (
            vec![
                "--engine",
                &e,
                "--engine",
                &e,
                "--depth",
                "1",
                "--games",
                "2",
                "--openings",
                &bad_openings,
            ],
            "line 1: turn 1 (e2-e3)",
        ),
        (
            vec![
                "--engine",
                &e,
                "--engine",
                &e,
                "--depth",
                "1",
                "--games",
                "2",
                "--openings",
                &openings,
                "--concurrency",
                "0",
            ],
            "invalid concurrency",
        ),
        (
            vec![
                "--engine", "  ", "--engine", &e, "--depth", "1", "--games", "2",
            ],
            "expected a command",
        ),
    ] {
        let mut all = vec!["match"];
        all.extend(args);
        let run = fanorona(&all);
        assert_eq!(run.code, Some(2), "{all:?}: {run:?}");
        assert!(run.stderr.contains(message), "{all:?}: {run:?}");
        assert_eq!(run.stdout, "", "{all:?}");
    }
    // clap's own: the in-process players and the engines do not mix, and
    // the engine-only options need engines.
    for args in [
        vec!["match", "--white", "1", "--engine", &e, "--games", "2"],
        vec![
            "match",
            "--white",
            "1",
            "--black",
            "2",
            "--games",
            "2",
            "--sprt",
            "elo0=0,elo1=5",
        ],
        vec![
            "match", "--white", "1", "--black", "2", "--games", "2", "--depth", "2",
        ],
        vec![
            "match", "--engine", &e, "--engine", &e, "--depth", "1", "--time", "5",
        ],
    ] {
        assert_eq!(fanorona(&args).code, Some(2), "{args:?}");
    }
}

#[test]
fn in_process_matches_still_need_their_players() {
    let run = fanorona(&["match", "--white", "random", "--black", "greedy"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    let out = ok(&[
        "match", "--white", "random", "--black", "greedy", "--games", "2", "--tables", "0",
    ]);
    assert!(out.contains("tally random: "), "{out}");
}

#[test]
fn an_opening_from_position_text_is_recorded_with_its_position() {
    let dir = scratch("text");
    let openings = write(&dir, "openings.txt", &format!("{}\n", crate::common::QUIET));
    let record = dir.join("games.txt");
    let record_text = record.to_str().expect("UTF-8").to_owned();
    let out = ok(&[
        "match",
        "--engine",
        &engine(),
        "--engine",
        &engine(),
        "--depth",
        "2",
        "--openings",
        &openings,
        "--games",
        "2",
        "--record",
        &record_text,
    ]);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{out}"
    );
    let text = std::fs::read_to_string(&record).expect("the record file");
    assert_eq!(
        text.matches(&format!("[Position \"{}\"]", crate::common::QUIET))
            .count(),
        2,
        "{text}"
    );
    let replayed = ok(&["play", "--record", &record_text]);
    assert_eq!(
        replayed.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{replayed}"
    );
}
