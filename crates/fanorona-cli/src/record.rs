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
