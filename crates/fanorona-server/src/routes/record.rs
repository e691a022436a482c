//! `GET /api/games/{id}/record`: a game written down as a text record
//! (the format of the rules crate's [`Record`]), finished or running, for
//! anyone with the game's link. The sentences in its header come from the
//! catalog of the request's language, as the page would say them; the
//! tags' names are the format's, the same in every language.
//!
//! `POST /api/records`: a record read back and replayed by the rules, turn
//! by turn, for a page that steps through it. Nothing is stored.

use std::time::{Duration, UNIX_EPOCH};

use axum::{
    extract::State,
    http::header,
    response::{IntoResponse, Response},
    Json,
};
use fanorona::{Color, Record, Score, Square, TagError, Turn};
use serde::{Deserialize, Serialize};

use super::{
    api::Body,
    i18n::{fill, Catalog, Choice},
};
use crate::{
    error::AppError,
    extract::GamePath,
    game::{Action, Game, GameResult, Intent},
    hub::{Hub, RecordFacts},
    ids::GameId,
};

/// What the `Rules` tag says before the catalog's one-line rules.
const GAME: &str = "fanoron-tsivy (9x5).";

/// Answers the record of game `id` as a file to save.
pub(super) async fn get_record(
    GamePath(id): GamePath,
    State(hub): State<Hub>,
    choice: Choice,
) -> Result<Response, AppError> {
    let handle = hub.get(&id).await?;
    let facts = handle.record().await?;
    let catalog = Catalog::of(choice.lang);
    let text = record(&facts, &hub.site().origin, &id, catalog)?.to_string();
    let disposition = format!("attachment; filename=\"fanorona-{id}.txt\"");
    let mut response = (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, "no-cache".to_owned()),
        ],
        text,
    )
        .into_response();
    choice.label(response.headers_mut());
    Ok(response)
}

/// `POST /api/records`: the record to read.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ReadRecord {
    record: String,
}

/// A record read back: its tags in their order, its start, and each turn
/// with the position after it.
#[derive(Debug, Serialize)]
pub(super) struct RecordView {
    tags: Vec<(String, String)>,
    start_position: String,
    turns: Vec<TurnView>,
    /// The position after the last turn.
    position: String,
    /// `1-0`, `0-1`, `1/2-1/2`, `*`, or `null` without a `Result` tag.
    result: Option<&'static str>,
}

/// One turn of a record, as the rules played it.
#[derive(Debug, Serialize)]
struct TurnView {
    notation: String,
    /// The points the stone stood on, its start first.
    path: Vec<String>,
    /// The stones the turn took, in order.
    captured: Vec<String>,
    /// The position after the turn.
    position: String,
}

/// Reads a record and replays it: every turn is played step by step as a
/// game plays a player's steps, so a turn the rules refuse is refused here
/// with the game's reason.
pub(super) async fn read_record(Body(req): Body<ReadRecord>) -> Result<Json<RecordView>, AppError> {
    let bad = |detail: String| AppError::BadRecord(detail);
    let record: Record = req.record.parse().map_err(|e| bad(format!("{e}")))?;
    let start = record.start().map_err(|e| bad(format!("its start: {e}")))?;
    let mut game = Game::new(start);
    let mut turns = Vec::with_capacity(record.turns().len());
    for (n, turn) in record.turns().iter().enumerate() {
        let refused = |why: String| bad(format!("turn {}: {why}", n + 1));
        if game.result.is_some() {
            return Err(refused("the game was already over".into()));
        }
        let by = game.position.turn();
        for step in turn.steps() {
            let step =
                step.ok_or_else(|| refused("a step that is not a line of the board".into()))?;
            let intent = Intent::Step {
                from: step.from(),
                to: step.to(),
                kind: step.kind(),
            };
            game.apply(Action { by, intent })
                .map_err(|e| refused(e.to_string()))?;
        }
        if game.current.is_some() {
            game.apply(Action {
                by,
                intent: Intent::EndTurn,
            })
            .map_err(|e| refused(e.to_string()))?;
        }
        let names = |squares: &[Square]| squares.iter().map(ToString::to_string).collect();
        let (path, captured) = match &game.last {
            Some(last) => (names(&last.path()), names(&last.captured)),
            None => (Vec::new(), Vec::new()),
        };
        turns.push(TurnView {
            notation: turn.to_string(),
            path,
            captured,
            position: game.position.to_string(),
        });
    }
    Ok(Json(RecordView {
        tags: record
            .tags()
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .collect(),
        start_position: start.to_string(),
        turns,
        position: game.position.to_string(),
        result: record.score().map(Score::token),
    }))
}

/// The record of a game: its header, its sentences from `catalog`, then
/// its completed turns.
///
/// # Errors
///
/// [`AppError::Record`] when a turn or a tag cannot be written, which
/// only a bug can cause.
pub(super) fn record(
    facts: &RecordFacts,
    origin: &str,
    id: &GameId,
    catalog: &Catalog,
) -> Result<Record, AppError> {
    let bug = |e: TagError| AppError::Record(e.to_string());
    let mut record = Record::new();
    let mut tags = vec![
        ("Site", format!("{origin}/g/{id}")),
        ("Created", timestamp(facts.created_at)),
    ];
    if let Some(ended) = facts.ended_at {
        tags.push(("Ended", timestamp(ended)));
    }
    tags.push(("White", player(facts, Color::White, catalog)));
    tags.push(("Black", player(facts, Color::Black, catalog)));
    let score = facts
        .result
        .map_or(Score::Unfinished, |r| Score::of_finished(r.winner));
    tags.push((fanorona::RESULT_TAG, score.token().to_owned()));
    if let Some(result) = facts.result {
        tags.push(("Reason", reason(result, catalog)));
    }
    if let Some(control) = facts.time_control {
        tags.push(("TimeControl", control.to_string()));
    }
    tags.push((
        "Rules",
        format!("{GAME} {}", catalog.text("which.summary.p")),
    ));
    // A catalog's no-break spaces keep words together on the page; a
    // record is plain text, read by programs too.
    for (name, value) in tags {
        record
            .set_tag(name, &value.replace('\u{a0}', " "))
            .map_err(bug)?;
    }
    record.set_start(&facts.start);
    for text in &facts.moves {
        let turn: Turn = text
            .parse()
            .map_err(|e| AppError::Record(format!("turn {text:?}: {e}")))?;
        record.push(turn);
    }
    Ok(record)
}

/// Seconds since the Unix epoch as `2025-06-01T14:03:09Z`.
fn timestamp(seconds: i64) -> String {
    let since = Duration::from_secs(u64::try_from(seconds).unwrap_or(0));
    humantime::format_rfc3339_seconds(UNIX_EPOCH + since).to_string()
}

/// Who played `color`: the computer and its level, the player who started
/// the game, the invited friend, or nobody yet.
fn player(facts: &RecordFacts, color: Color, catalog: &Catalog) -> String {
    if let Some(seat) = facts.computer.filter(|seat| seat.color == color) {
        let level = seat.level.number().to_string();
        let name = catalog.text(&format!("level.{level}")).to_owned();
        return fill(
            catalog.text("game.computer"),
            &[("name", &name), ("level", &level)],
        );
    }
    let key = if color == facts.creator {
        "record.creator"
    } else if *facts.joined.get(color) {
        "record.friend"
    } else {
        "record.open"
    };
    catalog.text(key).to_owned()
}

/// Who won and why, as the page says it: "Black wins. By resignation."
fn reason(result: GameResult, catalog: &Catalog) -> String {
    let title = match result.winner {
        Some(color) => {
            let key = format!("color.{}", color.name());
            fill(catalog.text("result.win"), &[("color", catalog.text(&key))])
        }
        None => catalog.text("result.draw").to_owned(),
    };
    let why = format!("reason.{}", result.reason.code());
    fill(
        catalog.text("record.result"),
        &[("result", &title), ("reason", catalog.text(&why))],
    )
}

#[cfg(test)]
mod tests {
    use fanorona::{ByColor, Position};

    use super::*;
    use crate::{
        game::{ComputerSeat, Level, Reason},
        routes::i18n::Lang,
    };

    fn facts() -> RecordFacts {
        RecordFacts {
            created_at: 1_748_786_589,
            ended_at: None,
            creator: Color::White,
            joined: ByColor {
                white: true,
                black: false,
            },
            computer: None,
            start: Position::start(),
            moves: Vec::new(),
            result: None,
            time_control: None,
        }
    }

    fn written(facts: &RecordFacts) -> String {
        let id: GameId = "d04EUAqNQF".parse().expect("an id");
        record(
            facts,
            "https://fanorona.example",
            &id,
            Catalog::of(Lang::En),
        )
        .expect("a record")
        .to_string()
    }

    #[test]
    fn a_game_nobody_joined_yet_is_recorded_as_open() {
        assert_eq!(
            written(&facts()),
            "[Site \"https://fanorona.example/g/d04EUAqNQF\"]\n\
             [Created \"2025-06-01T14:03:09Z\"]\n\
             [White \"the player who started the game\"]\n\
             [Black \"nobody yet: the invitation is open\"]\n\
             [Result \"*\"]\n\
             [Rules \"fanoron-tsivy (9x5). ICGA rules: capture is compulsory, continuing a \
             capture is optional, 50 turns without capture is a draw.\"]\n"
        );
    }

    #[test]
    fn a_finished_game_against_the_computer_says_who_won_why_and_when() {
        let mut facts = facts();
        facts.creator = Color::Black;
        facts.computer = Some(ComputerSeat {
            color: Color::White,
            level: Level::new(6).expect("a level"),
        });
        facts.moves = vec!["d3-e3A".into(), "f4-f3A".into()];
        facts.ended_at = Some(1_748_788_300);
        facts.result = Some(GameResult {
            winner: Some(Color::White),
            reason: Reason::Resignation,
        });
        let text = written(&facts);
        for line in [
            "[Ended \"2025-06-01T14:31:40Z\"]\n",
            "[White \"Computer · Strongest (level 6)\"]\n",
            "[Black \"the player who started the game\"]\n",
            "[Result \"1-0\"]\n[Reason \"White wins. By resignation.\"]\n",
            "\n1. d3-e3A\n2. f4-f3A\n",
        ] {
            assert!(text.contains(line), "{line:?} not in {text}");
        }
        let draw = GameResult {
            winner: None,
            reason: Reason::Agreement,
        };
        assert_eq!(reason(draw, Catalog::of(Lang::En)), "Draw. By agreement.");
    }

    #[test]
    fn a_game_lost_on_time_gives_its_time_control_and_the_reason() {
        let mut facts = facts();
        facts.joined.black = true;
        facts.time_control = crate::game::TimeControl::real_time(5, 3).ok();
        facts.moves = vec!["d3-e3A".into(), "f4-f3A".into()];
        facts.ended_at = Some(1_748_788_300);
        facts.result = Some(GameResult {
            winner: Some(Color::Black),
            reason: Reason::Time,
        });
        let text = written(&facts);
        let line = "[Reason \"Black wins. On time.\"]\n[TimeControl \"300+3\"]\n";
        assert!(text.contains(line), "{line:?} not in {text}");
        facts.time_control = crate::game::TimeControl::correspondence(3).ok();
        assert!(written(&facts).contains("[TimeControl \"1/259200\"]\n"));
    }

    #[test]
    fn a_custom_start_is_in_the_record_and_a_bad_turn_is_an_error() {
        let mut facts = facts();
        let text = "........./....B..../........./....W..../......... w";
        facts.start = Position::from_setup(text.parse().expect("setup")).expect("legal");
        assert!(written(&facts).contains(&format!("[Position \"{text} 0\"]\n")));
        facts.moves = vec!["e2e3".into()];
        let id: GameId = "d04EUAqNQF".parse().expect("an id");
        let err = record(
            &facts,
            "https://fanorona.example",
            &id,
            Catalog::of(Lang::En),
        )
        .expect_err("not notation");
        assert_eq!(err.code(), "internal");
    }
}
