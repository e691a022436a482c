//! The state message, encoded once per change for every watcher of a game.
//!
//! A [`StateEncoder`] lives as long as its game's task and keeps what does
//! not change from one state to the next: the start position's text, and
//! the `moves` and `captures` lists already encoded as JSON, to which each
//! completed turn is appended once.

use fanorona::{ByColor, Color, Position, Square};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

use crate::{
    game::{Game, Score, TimeControl, TurnSoFar},
    ids::GameId,
};

/// Whether a player holds their seat and has a connection open.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// Someone holds the seat.
    pub(crate) joined: bool,
    /// At least one connection of the seat's holder is open.
    pub(crate) connected: bool,
}

/// What the state message needs besides the game itself.
#[derive(Copy, Clone, Debug)]
pub struct LiveFacts<'a> {
    /// The game's id.
    pub id: &'a GameId,
    /// Counts published states.
    pub version: u64,
    /// Both seats' presence.
    pub players: ByColor<PlayerView>,
    /// The player to move has been away long enough to be claimed against.
    pub abandoned: bool,
    /// The computer is searching or playing out its turn.
    pub thinking: bool,
    /// The time now, in milliseconds since the Unix epoch: what a running
    /// clock shows is counted to it.
    pub now: i64,
    /// The spectators' sockets open on the game, on every process.
    pub watching: u32,
    /// The match's score, in a rematch.
    pub score: Option<Score>,
}

/// The names of the 45 squares, by index.
#[rustfmt::skip]
static NAMES: [&str; Square::COUNT] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1",
    "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "i2",
    "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "i3",
    "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "i4",
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "i5",
];

pub(super) fn name(square: Square) -> &'static str {
    NAMES.get(square.index()).copied().unwrap_or("")
}

pub(super) fn color_str<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(c.name())
}

fn opt_color_str<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    match c {
        Some(c) => s.serialize_str(c.name()),
        None => s.serialize_none(),
    }
}

pub(super) fn squares<S: Serializer>(list: &[Square], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(list.iter().map(|&sq| name(sq)))
}

/// A value per colour, as `{"white": .., "black": ..}`.
#[derive(Serialize)]
struct PerColor<T> {
    white: T,
    black: T,
}

impl<T> From<ByColor<T>> for PerColor<T> {
    fn from(b: ByColor<T>) -> PerColor<T> {
        PerColor {
            white: b.white,
            black: b.black,
        }
    }
}

#[derive(Serialize)]
pub(super) struct TurnView<'a> {
    stone: &'static str,
    #[serde(serialize_with = "squares")]
    visited: Vec<Square>,
    last_direction: &'static str,
    #[serde(serialize_with = "squares")]
    captured: &'a [Square],
    notation: String,
}

#[derive(Serialize)]
pub(super) struct LastTurnView<'a> {
    notation: String,
    #[serde(serialize_with = "squares")]
    path: Vec<Square>,
    #[serde(serialize_with = "squares")]
    captured: &'a [Square],
}

#[derive(Serialize)]
pub(super) struct ResultView {
    #[serde(serialize_with = "opt_color_str")]
    winner: Option<Color>,
    reason: &'static str,
}

/// The fields before `legal_steps`, in their wire order (then come
/// `legal_steps`, `can_end_turn`, `moves` and `captures`, written by hand).
#[derive(Serialize)]
struct BeforeSteps<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    game_id: &'a GameId,
    version: u64,
    seq: u64,
    position: String,
    start_position: &'a RawValue,
    #[serde(serialize_with = "color_str")]
    side_to_move: Color,
    turn: Option<TurnView<'a>>,
}

/// The fields after `captures`, in their wire order.
#[derive(Serialize)]
struct AfterCaptures<'a> {
    last_turn: Option<LastTurnView<'a>>,
    turns_since_capture: u32,
    players: PerColor<PlayerView>,
    #[serde(serialize_with = "opt_color_str")]
    draw_offer: Option<Color>,
    #[serde(serialize_with = "opt_color_str")]
    takeback_offer: Option<Color>,
    abandoned: bool,
    clock: Option<ClockView>,
    rematch: PerColor<bool>,
    next_game: Option<&'a GameId>,
    result: Option<ResultView>,
    computer: Option<ComputerView>,
    watching: u32,
    #[serde(rename = "match")]
    score: Option<ScoreView>,
    messages: Vec<MessageView>,
}

/// One of the last messages, as the `messages` field writes it.
#[derive(Serialize)]
struct MessageView {
    #[serde(serialize_with = "color_str")]
    by: Color,
    text: &'static str,
    seq: u64,
}

/// A match's score, as the `match` field writes it.
#[derive(Serialize)]
struct ScoreView {
    white: u32,
    black: u32,
    draws: u32,
}

/// The time control of a clock, by its kind.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum ControlView {
    RealTime { minutes: u32, increment: u32 },
    Correspondence { days: u32 },
}

/// The clocks as they stand at the state's `at`.
#[derive(Serialize)]
struct ClockView {
    #[serde(flatten)]
    control: ControlView,
    /// Time left, in milliseconds.
    white: i64,
    black: i64,
    /// Whose clock runs: the player to move, once each has played a turn
    /// and while the game is on.
    #[serde(serialize_with = "opt_color_str")]
    running: Option<Color>,
    /// When the times were read, in milliseconds since the Unix epoch.
    at: i64,
}

fn clock_view(game: &Game, now: i64) -> Option<ClockView> {
    let clock = game.clock.as_ref()?;
    let mover = game.position.turn();
    let left = clock.left_at(mover, now);
    let control = match clock.control {
        TimeControl::RealTime { minutes, increment } => {
            ControlView::RealTime { minutes, increment }
        }
        TimeControl::Correspondence { days } => ControlView::Correspondence { days },
    };
    Some(ClockView {
        control,
        white: left.white,
        black: left.black,
        running: (clock.running() && game.result.is_none()).then_some(mover),
        at: now,
    })
}

#[derive(Serialize)]
struct ComputerView {
    #[serde(serialize_with = "color_str")]
    color: Color,
    level: u8,
    name: &'static str,
    thinking: bool,
}

/// Encodes the state messages of one game, keeping what does not change
/// between them. Give it every state of the same game in order; it starts
/// over by itself when the game's start or history no longer matches.
#[derive(Debug, Default)]
pub struct StateEncoder {
    /// The start position and its text, already as a JSON string.
    start: Option<(Position, Box<RawValue>)>,
    /// The completed turns encoded so far, as JSON strings joined by commas.
    moves: String,
    /// What each of those turns took, as JSON strings of point names
    /// (`"f3g3"`) joined by commas.
    captures: String,
    /// How many turns `moves` holds.
    encoded: usize,
    /// The length of the last message, to size the next one's buffer.
    last_len: usize,
}

impl StateEncoder {
    /// Forgets everything kept, as for a new game.
    pub(crate) fn reset(&mut self) {
        *self = StateEncoder::default();
    }

    /// The state message of `game` as JSON text.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] when a part cannot be written as JSON: a bug, never
    /// an empty message.
    pub fn encode(&mut self, game: &Game, live: LiveFacts<'_>) -> Result<String, EncodeError> {
        self.catch_up(game)?;
        let Some((_, start)) = &self.start else {
            return Err(EncodeError("no start position".into()));
        };
        let mut out = Vec::with_capacity(self.last_len + 64);
        serde_json::to_writer(&mut out, &head(game, live, start))?;
        out.pop();
        out.extend_from_slice(b",\"legal_steps\":[");
        if game.result.is_none() {
            write_legal_steps(&mut out, &game.position);
        }
        out.extend_from_slice(b"],\"can_end_turn\":");
        let can_end_turn = game.result.is_none() && game.position.can_end_turn();
        out.extend_from_slice(if can_end_turn { b"true" } else { b"false" });
        out.extend_from_slice(b",\"moves\":[");
        out.extend_from_slice(self.moves.as_bytes());
        out.extend_from_slice(b"],\"captures\":[");
        out.extend_from_slice(self.captures.as_bytes());
        out.extend_from_slice(b"],");
        let at = out.len();
        serde_json::to_writer(&mut out, &tail(game, live))?;
        out.remove(at);
        let text = String::from_utf8(out)?;
        self.last_len = text.len();
        Ok(text)
    }

    /// Brings the kept start text and moves up to date with `game`.
    fn catch_up(&mut self, game: &Game) -> Result<(), EncodeError> {
        let same_start = matches!(&self.start, Some((start, _)) if *start == game.start);
        if !same_start || game.moves.len() < self.encoded {
            self.reset();
            let text = serde_json::value::to_raw_value(&game.start.to_string())?;
            self.start = Some((game.start, text));
        }
        for turn in game.moves.iter().skip(self.encoded) {
            if !self.moves.is_empty() {
                self.moves.push(',');
            }
            let quoted = serde_json::to_string(turn)?;
            self.moves.push_str(&quoted);
        }
        for taken in game.captures.iter().skip(self.encoded) {
            if !self.captures.is_empty() {
                self.captures.push(',');
            }
            self.captures.push('"');
            self.captures.extend(taken.iter().map(|&sq| name(sq)));
            self.captures.push('"');
        }
        self.encoded = game.moves.len();
        Ok(())
    }
}

/// Encodes the state message of `game` from scratch; a game's task keeps a
/// [`StateEncoder`] instead, which encodes the same text for less.
///
/// # Errors
///
/// As [`StateEncoder::encode`].
pub fn encode_state(game: &Game, live: LiveFacts<'_>) -> Result<String, EncodeError> {
    StateEncoder::default().encode(game, live)
}

/// A state the encoder could not write as JSON. No part of a state should
/// ever fail to encode; if one does, the game's task logs it and publishes
/// nothing, rather than send an empty or partial message to every socket.
#[derive(Debug, thiserror::Error)]
#[error("cannot encode the state: {0}")]
pub struct EncodeError(String);

impl From<serde_json::Error> for EncodeError {
    fn from(error: serde_json::Error) -> EncodeError {
        EncodeError(error.to_string())
    }
}

impl From<std::string::FromUtf8Error> for EncodeError {
    fn from(error: std::string::FromUtf8Error) -> EncodeError {
        EncodeError(error.to_string())
    }
}

fn head<'a>(game: &'a Game, live: LiveFacts<'a>, start: &'a RawValue) -> BeforeSteps<'a> {
    BeforeSteps {
        kind: "state",
        game_id: live.id,
        version: live.version,
        seq: game.seq,
        position: game.position.to_string(),
        start_position: start,
        side_to_move: game.position.turn(),
        turn: turn_view(game),
    }
}

/// The turn in progress, as the `turn` field writes it.
pub(super) fn turn_view(game: &Game) -> Option<TurnView<'_>> {
    match (game.position.chain(), &game.current) {
        (Some(chain), Some(so_far)) => Some(TurnView {
            stone: name(chain.stone()),
            visited: so_far.path(),
            last_direction: chain.last_direction().name(),
            captured: &so_far.captured,
            notation: so_far.turn.to_string(),
        }),
        _ => None,
    }
}

/// The end of the game, as the `result` field writes it.
pub(super) fn result_view(game: &Game) -> Option<ResultView> {
    game.result.map(|r| ResultView {
        winner: r.winner,
        reason: r.reason.code(),
    })
}

/// Writes the legal steps of `pos` as the JSON objects of the
/// `legal_steps` array, comma-separated. Every string in them is a point
/// name or a kind name, which need no escaping: writing them directly
/// costs a fraction of a serializer, which escapes every key and value and
/// is the largest part of encoding a state. The test below holds it to
/// what serde writes for [`StepView`].
pub(super) fn write_legal_steps(out: &mut Vec<u8>, pos: &Position) {
    for (i, &step) in pos.legal_steps().iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"from\":\"");
        out.extend_from_slice(name(step.from()).as_bytes());
        out.extend_from_slice(b"\",\"to\":\"");
        out.extend_from_slice(name(step.to()).as_bytes());
        out.extend_from_slice(b"\",\"kind\":\"");
        out.extend_from_slice(step.kind().name().as_bytes());
        out.extend_from_slice(b"\",\"captures\":[");
        for (j, square) in pos.captures(step).into_iter().enumerate() {
            if j > 0 {
                out.push(b',');
            }
            out.push(b'"');
            out.extend_from_slice(name(square).as_bytes());
            out.push(b'"');
        }
        out.extend_from_slice(b"]}");
    }
}

fn tail<'a>(game: &'a Game, live: LiveFacts<'a>) -> AfterCaptures<'a> {
    AfterCaptures {
        last_turn: game.last.as_ref().map(last_turn_view),
        turns_since_capture: game.position.turns_since_capture(),
        players: live.players.into(),
        draw_offer: game.draw_offer,
        takeback_offer: game.takeback_offer,
        abandoned: live.abandoned,
        clock: clock_view(game, live.now),
        rematch: game.rematch.into(),
        next_game: game.next_game.as_ref(),
        result: result_view(game),
        computer: game.computer.map(|seat| ComputerView {
            color: seat.color,
            level: seat.level.number(),
            name: seat.level.name(),
            thinking: live.thinking,
        }),
        watching: live.watching,
        score: live.score.map(|s| ScoreView {
            white: s.white,
            black: s.black,
            draws: s.draws,
        }),
        messages: game
            .messages
            .iter()
            .map(|m| MessageView {
                by: m.by,
                text: m.text.key(),
                seq: m.seq,
            })
            .collect(),
    }
}

pub(super) fn last_turn_view(t: &TurnSoFar) -> LastTurnView<'_> {
    LastTurnView {
        notation: t.turn.to_string(),
        path: t.path(),
        captured: &t.captured,
    }
}

#[cfg(test)]
mod tests {
    use fanorona::{Bitboard, Position};

    use super::*;
    use crate::game::{Action, Intent};

    fn square_set<S: Serializer>(set: &Bitboard, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(set.into_iter().map(name))
    }

    /// One legal step as serde writes it, to check the hand-written one.
    #[derive(Serialize)]
    struct StepView {
        from: &'static str,
        to: &'static str,
        kind: &'static str,
        #[serde(serialize_with = "square_set")]
        captures: Bitboard,
    }

    fn serde_legal_steps(pos: &Position) -> String {
        let views: Vec<StepView> = pos
            .legal_steps()
            .iter()
            .map(|&step| StepView {
                from: name(step.from()),
                to: name(step.to()),
                kind: step.kind().name(),
                captures: pos.captures(step),
            })
            .collect();
        serde_json::to_string(&views).unwrap_or_default()
    }

    #[test]
    fn hand_written_legal_steps_are_what_serde_writes() {
        let mut pos = Position::start();
        let mut rng_state = 7_usize;
        let mut seen_captures = 0;
        for _ in 0..300 {
            let mut out = b"[".to_vec();
            write_legal_steps(&mut out, &pos);
            out.push(b']');
            let text = String::from_utf8(out).unwrap_or_default();
            assert_eq!(text, serde_legal_steps(&pos), "in {pos}");
            seen_captures += text.matches("\"captures\":[\"").count();
            let steps = pos.legal_steps();
            rng_state = rng_state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let Some(&step) = steps.get(rng_state / 65_536 % steps.len().max(1)) else {
                break;
            };
            pos = pos.play_step(step).unwrap_or(pos);
            if pos.chain().is_some() && rng_state % 3 == 0 {
                pos = pos.end_turn().unwrap_or(pos);
            }
            if pos.outcome().is_some() {
                pos = Position::start();
            }
        }
        assert!(seen_captures > 50, "captures seen: {seen_captures}");
    }

    #[test]
    fn kept_text_matches_encoding_from_scratch_all_game_long() {
        let Ok(id) = GameId::random() else {
            return;
        };
        let live = LiveFacts {
            id: &id,
            version: 3,
            players: ByColor::default(),
            abandoned: false,
            thinking: false,
            now: 0,
            watching: 0,
            score: None,
        };
        let mut game = Game::new(Position::start());
        let mut encoder = StateEncoder::default();
        for n in 0..400_usize {
            let kept = encoder.encode(&game, live).expect("encodes");
            assert_eq!(kept, encode_state(&game, live).expect("encodes"));
            let value: serde_json::Value = serde_json::from_str(&kept).unwrap_or_default();
            assert_eq!(value["moves"], serde_json::json!(game.moves));
            let captures: Vec<String> = game
                .captures
                .iter()
                .map(|taken| taken.iter().map(|&sq| name(sq)).collect())
                .collect();
            assert_eq!(value["captures"], serde_json::json!(captures));
            assert_eq!(value["start_position"], Position::start().to_string());
            let order = [
                "\"can_end_turn\":",
                "\"moves\":[",
                "],\"captures\":[",
                "\"last_turn\":",
            ];
            let at: Vec<_> = order.iter().filter_map(|k| kept.find(k)).collect();
            assert!(at.len() == 4 && at.windows(2).all(|w| w[0] < w[1]));
            let steps = game.position.legal_steps();
            let by = game.position.turn();
            let intent = match steps.get(n * 7 % steps.len().max(1)) {
                Some(s) if game.result.is_none() => Intent::Step {
                    from: s.from(),
                    to: s.to(),
                    kind: s.kind(),
                },
                _ => break,
            };
            if game.apply(Action { by, intent }).is_err() {
                break;
            }
            if game.position.chain().is_some() && n % 3 == 0 {
                let _ = game.apply(Action {
                    by,
                    intent: Intent::EndTurn,
                });
            }
        }
        assert!(game.moves.len() > 5);
        assert!(game.captures.iter().any(|taken| taken.len() > 1));
    }
}
