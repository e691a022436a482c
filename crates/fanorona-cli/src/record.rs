//! `fanorona play --record FILE`: a game record replayed through the rules.

use std::io::{self, Read, Write};

use fanorona::{Record, ReplayErrorKind, Score};

use crate::Failure;

/// Reads the record in `source` (a file, or `-` for standard input),
/// replays it and prints the position it leads to, then how the game
/// ended: on the board, or as the record says.
///
/// A file of several games one after the other (as `fanorona match
/// --record` writes them: a game's tags start the next) replays each,
/// printing `game N` before each one's lines.
pub(crate) fn play(out: &mut impl Write, source: &str) -> Result<(), Failure> {
    let (name, text) = read(source)?;
    let games = split(&text);
    if games.len() <= 1 {
        return play_one(out, &name, &text);
    }
    for (i, game) in games.iter().enumerate() {
        writeln!(out, "game {}", i + 1)?;
        play_one(out, &format!("{name}: game {}", i + 1), game)?;
    }
    Ok(())
}

/// Splits text into games: a tag line after a turn line, or naming a tag
/// the game already has, starts a new one (a record has each tag once and
/// every tag before its turns).
fn split(text: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut names = std::collections::HashSet::new();
    let mut after_turn = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(tag) = trimmed.strip_prefix('[') {
            let name = tag
                .split(|c: char| c.is_whitespace() || c == '"')
                .next()
                .unwrap_or("");
            if after_turn || !names.insert(name.to_owned()) {
                games.push(std::mem::take(&mut current));
                names.clear();
                names.insert(name.to_owned());
                after_turn = false;
            }
        } else if !trimmed.is_empty() {
            after_turn = true;
        }
        current.push_str(line);
        current.push('\n');
    }
    if !current.trim().is_empty() || games.is_empty() {
        games.push(current);
    }
    games
}

/// Replays one game's record.
fn play_one(out: &mut impl Write, name: &str, text: &str) -> Result<(), Failure> {
    let record: Record = text
        .parse()
        .map_err(|err| Failure::Usage(format!("{name}: {err}")))?;
    if record.turns().is_empty() && record.tags().next().is_none() {
        return Err(Failure::Usage(format!(
            "{name}: empty record: expected tags like [Result \"*\"] and turns like 1. d3-e3A"
        )));
    }
    let pos = record.replay().map_err(|err| {
        let message = format!("{name}: {err}");
        match err.kind {
            ReplayErrorKind::Illegal { .. } => Failure::Illegal(message),
            _ => Failure::Usage(message),
        }
    })?;
    writeln!(out, "{pos}")?;
    if let Some(outcome) = pos.outcome() {
        writeln!(out, "{outcome}")?;
    } else if let Some(score) = record.score().filter(|s| s.is_over()) {
        match record.tag("Reason") {
            Some(reason) => writeln!(out, "{score}: {reason}")?,
            None => writeln!(out, "{}", ended(score))?,
        }
    }
    Ok(())
}

/// How a game that ended off the board ended, when its record gives no
/// reason.
fn ended(score: Score) -> String {
    match score.winner() {
        Some(winner) => format!("{score}: {winner} wins"),
        None => format!("{score}: draw"),
    }
}

/// The name to show for `source` and its text.
fn read(source: &str) -> Result<(String, String), Failure> {
    let (name, bytes) = if source == "-" {
        let mut bytes = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map_err(|err| Failure::Usage(format!("cannot read standard input: {err}")))?;
        ("standard input".to_owned(), bytes)
    } else {
        let bytes = std::fs::read(source)
            .map_err(|err| Failure::Usage(format!("cannot read the record {source:?}: {err}")))?;
        (source.to_owned(), bytes)
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok((name, text)),
        Err(_) => Err(Failure::Usage(format!(
            "{name}: not a record: not UTF-8 text"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_one_after_the_other_are_split() {
        let one = "[Result \"*\"]\n\n1. d3-e3A\n";
        assert_eq!(split(one), vec![one.to_owned()]);
        let two =
            "[Event \"m\"]\n[Result \"*\"]\n\n1. d3-e3A\n\n[Event \"m\"]\n[Result \"1-0\"]\n\n\
                   [Event \"m\"]\n[Result \"*\"]\n1. d3-e3A\n2. f4-f3A\n";
        let games = split(two);
        assert_eq!(games.len(), 3, "{games:?}");
        // The second game has no turns: its tags end it where a tag comes again.
        assert!(
            games[1].starts_with("[Event \"m\"]\n[Result \"1-0\"]"),
            "{games:?}"
        );
        assert!(games[2].ends_with("2. f4-f3A\n"), "{games:?}");
        for game in &games {
            assert!(game.parse::<Record>().is_ok(), "{game}");
        }
        // A record's own mistakes stay its own: a tag after a turn starts a
        // new game rather than being refused inside the first.
        assert_eq!(split("1. d3-e3A\n[Result \"*\"]\n").len(), 2);
        assert_eq!(split("").len(), 1);
    }

    #[test]
    fn several_games_replay_each_and_name_the_bad_one() {
        let mut out = Vec::new();
        let path =
            std::env::temp_dir().join(format!("fanorona-records-{}.txt", std::process::id()));
        std::fs::write(
            &path,
            "[Result \"*\"]\n\n1. d3-e3A\n\n[Result \"0-1\"]\n[Reason \"white resigned\"]\n",
        )
        .expect("written");
        let name = path.to_str().expect("UTF-8").to_owned();
        play(&mut out, &name).expect("both replay");
        let text = String::from_utf8(out).expect("UTF-8");
        assert!(text.starts_with("game 1\n"), "{text}");
        assert!(text.ends_with("game 2\nBBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0\n0-1: white resigned\n"), "{text}");
        std::fs::write(
            &path,
            "[Result \"*\"]\n1. d3-e3A\n[Result \"*\"]\n1. e2-e3\n",
        )
        .expect("written");
        match play(&mut Vec::new(), &name) {
            Err(Failure::Illegal(message)) => assert!(message.contains(": game 2: "), "{message}"),
            other => panic!("{other:?}"),
        }
        let _ = std::fs::remove_file(&path);
    }
}
