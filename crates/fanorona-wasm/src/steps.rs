//! What the rules allow in a position with a turn perhaps begun there, as
//! the JSON that `GET /api/steps` answers: the boards of the analysis
//! page and of the puzzles play by it without asking the server. The
//! server's integration tests hold the two answers equal.

use std::fmt::Write;

use fanorona::{Color, Position, Setup, Square, Turn};

/// The answer for `input`: position text, then optionally a
/// newline and the turn so far in notation, played from the position by
/// the side to move. The JSON of `GET /api/steps`, or an error as
/// `{"code": CODE, "message": TEXT}` with the code the server would give.
pub fn steps(input: &str) -> String {
    let (text, turn) = input.split_once('\n').unwrap_or((input, ""));
    match play_so_far(text, turn) {
        Ok(played) => encode(&played),
        Err(refusal) => refused(&refusal),
    }
}

/// The position once the whole turn is played, the turn ended where its
/// notation ends (as End turn ends it): `{"position": TEXT}`, or an error
/// as [`steps`] gives one. `input` is position text, a newline, the turn.
pub fn play(input: &str) -> String {
    let (text, turn) = input.split_once('\n').unwrap_or((input, ""));
    let after = strict_position(text).and_then(|pos| {
        let turn: Turn = turn
            .parse()
            .map_err(|err| ("bad_message", format!("`turn`: {err}")))?;
        pos.play(&turn).map_err(|err| (err.code(), err.to_string()))
    });
    match after {
        Ok(pos) => format!("{{\"position\":\"{pos}\"}}"),
        Err(refusal) => refused(&refusal),
    }
}

fn refused((code, message): &Refusal) -> String {
    let mut out = format!("{{\"code\":\"{code}\",\"message\":");
    push_json_string(&mut out, message);
    out.push('}');
    out
}

/// Position text read strictly, as the server reads it: no `start`.
fn strict_position(text: &str) -> Result<Position, Refusal> {
    text.parse::<Setup>()
        .map_err(|err| err.to_string())
        .and_then(|setup| Position::from_setup(setup).map_err(|err| err.to_string()))
        .map_err(|reason| ("bad_position", reason))
}

/// A position and the turn played in it so far.
pub(crate) struct Played {
    /// Where the turn so far leads: a turn in progress, or the next
    /// side's position when it ended.
    pub(crate) position: Position,
    /// The turn in progress, or the turn just completed.
    turn: Option<Turn>,
    /// What that turn took, in order.
    captured: Vec<Square>,
}

/// Why an input is refused: the server's error code, and the reason.
pub(crate) type Refusal = (&'static str, String);

fn play_so_far(text: &str, turn: &str) -> Result<Played, Refusal> {
    played_from(strict_position(text)?, turn)
}

/// `turn`, the turn so far in notation (perhaps empty), played from
/// `start` step by step as the server checks them.
pub(crate) fn played_from(start: Position, turn: &str) -> Result<Played, Refusal> {
    let mut played = Played {
        position: start,
        turn: None,
        captured: Vec::new(),
    };
    if turn.is_empty() {
        return Ok(played);
    }
    let turn: Turn = turn
        .parse()
        .map_err(|err| ("bad_message", format!("`turn`: {err}")))?;
    let mut so_far = Turn::new(turn.origin());
    let mut from = turn.origin();
    for landing in turn.landings() {
        if played.turn.is_some() {
            return Err((
                "turn_already_over",
                format!("the turn is already over at {from}"),
            ));
        }
        if played.position.is_game_over() {
            return Err(("game_over", "the game is over".into()));
        }
        let step = played
            .position
            .check_step(from, landing.to, landing.kind)
            .map_err(|err| (err.code(), err.to_string()))?;
        played.captured.extend(played.position.captures(step));
        played.position = played.position.play_step_unchecked(step);
        so_far.push(landing.to, landing.kind);
        if played.position.chain().is_none() {
            played.turn = Some(so_far.clone());
        }
        from = landing.to;
    }
    if played.turn.is_none() {
        played.turn = Some(so_far);
    }
    Ok(played)
}

fn encode(played: &Played) -> String {
    let pos = &played.position;
    let over = pos.outcome();
    let mut out = String::with_capacity(1024);
    out.push_str("{\"position\":\"");
    out.push_str(&pos.to_string());
    let _ = write!(
        out,
        "\",\"side_to_move\":\"{}\",\"turn\":",
        pos.turn().name()
    );
    match (pos.chain(), &played.turn) {
        (Some(chain), Some(turn)) => {
            let _ = write!(out, "{{\"stone\":\"{}\",\"visited\":", chain.stone());
            push_squares(&mut out, path(turn));
            let _ = write!(
                out,
                ",\"last_direction\":\"{}\",\"captured\":",
                chain.last_direction().name()
            );
            push_squares(&mut out, played.captured.iter().copied());
            let _ = write!(out, ",\"notation\":\"{turn}\"}}");
        }
        _ => out.push_str("null"),
    }
    out.push_str(",\"legal_steps\":[");
    if over.is_none() {
        for (i, &step) in pos.legal_steps().iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "{{\"from\":\"{}\",\"to\":\"{}\",\"kind\":\"{}\",\"captures\":",
                step.from(),
                step.to(),
                step.kind().name()
            );
            push_squares(&mut out, pos.captures(step));
            out.push('}');
        }
    }
    out.push_str("],\"refused_steps\":[");
    if over.is_none() {
        for (i, r) in pos.refused_steps().iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "{{\"from\":\"{}\",\"to\":\"{}\",\"reason\":\"{}\"}}",
                r.from,
                r.to,
                r.reason.code()
            );
        }
    }
    let _ = write!(
        out,
        "],\"can_end_turn\":{},\"last_turn\":",
        over.is_none() && pos.can_end_turn()
    );
    match &played.turn {
        Some(turn) if pos.chain().is_none() => {
            let _ = write!(out, "{{\"notation\":\"{turn}\",\"path\":");
            push_squares(&mut out, path(turn));
            out.push_str(",\"captured\":");
            push_squares(&mut out, played.captured.iter().copied());
            out.push('}');
        }
        _ => out.push_str("null"),
    }
    out.push_str(",\"result\":");
    match over {
        Some(outcome) => {
            let winner = outcome
                .winner
                .map_or("null".to_owned(), |c: Color| format!("\"{}\"", c.name()));
            let _ = write!(
                out,
                "{{\"winner\":{winner},\"reason\":\"{}\"}}",
                outcome.reason.code()
            );
        }
        None => out.push_str("null"),
    }
    out.push('}');
    out
}

/// The points the turn's stone has stood on, its start first.
fn path(turn: &Turn) -> impl Iterator<Item = Square> + '_ {
    std::iter::once(turn.origin()).chain(turn.landings().iter().map(|l| l.to))
}

fn push_squares(out: &mut String, squares: impl IntoIterator<Item = Square>) {
    out.push('[');
    for (i, sq) in squares.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "\"{sq}\"");
    }
    out.push(']');
}

/// `text` as a JSON string: quotes, backslashes and control characters
/// escaped.
fn push_json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_in_progress_is_described_with_what_may_follow() {
        let out = steps("..B....../........./BW.B...../........./......... w\nb3-c3A");
        assert!(out.contains("\"notation\":\"b3-c3A\""), "{out}");
        assert!(out.contains("\"visited\":[\"b3\",\"c3\"]"), "{out}");
        assert!(
            out.contains(
                "\"legal_steps\":[{\"from\":\"c3\",\"to\":\"c4\",\"kind\":\"approach\",\"captures\":[\"c5\"]}]"
            ),
            "{out}"
        );
        assert!(
            out.contains("\"can_end_turn\":true,\"last_turn\":null"),
            "{out}"
        );
    }

    #[test]
    fn a_refusal_has_the_servers_code_and_a_message_in_json() {
        let bad: serde_json::Value =
            serde_json::from_str(&steps("nonsense \"quoted\"")).expect("JSON");
        assert_eq!(bad["code"], "bad_position");
        let message = bad["message"].as_str().expect("a message");
        assert!(!message.is_empty(), "{message}");
        let start = Position::start().to_string();
        let quoted: serde_json::Value =
            serde_json::from_str(&steps(&format!("{start}\n\"b3\"\\"))).expect("JSON");
        assert_eq!(quoted["code"], "bad_message", "{quoted}");
        assert!(steps("start").starts_with("{\"code\":\"bad_position\""));
        assert!(steps(&format!("{start}\ne2-e3X")).starts_with("{\"code\":\"bad_message\""));
        let paika = steps("........./........./...W.B.../........./W........ w\na1-b1");
        assert!(
            paika.starts_with("{\"code\":\"capture_required\""),
            "{paika}"
        );
        // e3-f3A takes g3 and nothing more can be taken from f3.
        let over = steps("B......../........./....W.B../........./......... w\ne3-f3A-f4A");
        assert!(
            over.starts_with("{\"code\":\"turn_already_over\""),
            "{over}"
        );
    }

    #[test]
    fn a_whole_turn_played_gives_the_position_after_it() {
        let chain = "..B....../........./BW.B...../........./......... w";
        // Stopped after the first capture, the turn ends there: Black to move.
        assert_eq!(
            play(&format!("{chain}\nb3-c3A")),
            "{\"position\":\"..B....../........./B.W....../........./......... b 0\"}"
        );
        let bad: serde_json::Value =
            serde_json::from_str(&play(&format!("{chain}\nb3-b4"))).expect("JSON");
        assert_eq!(bad["code"], "capture_required");
        assert!(play("start\nb3-c3A").starts_with("{\"code\":\"bad_position\""));
    }

    #[test]
    fn control_characters_are_escaped() {
        let mut out = String::new();
        push_json_string(&mut out, "a\nb\u{1}");
        assert_eq!(out, "\"a\\u000ab\\u0001\"");
    }
}
