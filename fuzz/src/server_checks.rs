//! The invariants of the `client_message` target: the server's message
//! decoder followed by applying the intent to a live game. Depends on
//! `fanorona`, `fanorona_server` and `std` only, so the server crate's
//! `fuzz_corpus` test can include this file by path.
//!
//! Input: one byte choosing the start position, then lines; each line's
//! first byte chooses the sender (even: White, odd: Black) and the rest is
//! the message text as a client would send it.

use fanorona::{ByColor, Color, Position, Setup};
use fanorona_server::{
    error::AppError,
    game::{Action, Game},
    ids::GameId,
    protocol::{encode_state, parse_intent, LiveFacts},
};

/// The start positions the first byte chooses from: the start, a few
/// stones with captures in reach, a position one turn from the fifty-turn
/// draw, and one stone each with Black to move.
const STARTS: [&str; 4] = [
    "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0",
    "BBB....../B.B....../.W......./W......../......... w 0",
    "........./..B....../........./......W../......... w 48",
    "........./....B..../....W..../........./......... b 0",
];

/// Reads one client message and plays it for `by` on `game`: the pure
/// part of handling an intent, as a game's task does it, with no runtime
/// and no store. A refused message leaves `game` unchanged.
fn apply_message(game: &mut Game, by: Color, text: &str) -> Result<Action, AppError> {
    let intent = parse_intent(text)?;
    let action = Action { by, intent };
    game.apply(action)?;
    Ok(action)
}

/// The state a watcher would be sent: equal texts mean equal games.
fn state_text(game: &Game) -> String {
    let id: GameId = match "fuzzgame00".parse() {
        Ok(id) => id,
        Err(_) => unreachable!("a valid game id"),
    };
    let live = LiveFacts {
        id: &id,
        version: 0,
        players: ByColor::default(),
        abandoned: false,
        thinking: false,
        now: 0,
        watching: 0,
        score: None,
    };
    match encode_state(game, live) {
        Ok(text) => text,
        Err(error) => panic!("an accepted game does not encode: {error}"),
    }
}

fn start(pick: u8) -> Option<Position> {
    let text = STARTS[usize::from(pick) % STARTS.len()];
    let setup: Setup = text.parse().ok()?;
    Position::from_setup(setup).ok()
}

/// The game is in a state the rules allow, and never stuck.
fn check_legal(game: &Game) {
    let setup = game.position.to_setup();
    let valid = Position::from_setup(setup);
    assert!(valid.is_ok(), "an accepted intent left an invalid position");
    let steps = game.position.legal_steps();
    for step in steps.iter() {
        let checked = game
            .position
            .check_step(step.from(), step.to(), step.kind());
        assert!(checked.is_ok(), "a listed step is refused");
    }
    if game.result.is_none() {
        assert!(
            !steps.is_empty() || game.position.can_end_turn(),
            "a game without a result has nothing to play"
        );
    }
}

/// Feeds every message of `data` to a game: a refused message changes
/// nothing and is a client error; an accepted one advances the game by one
/// action and leaves a legal state; replaying the accepted actions gives
/// the same game.
pub fn client_messages(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Some(start) = start(pick) else {
        // The fixed starts are valid; a failure here is a rules change.
        panic!("a fixed start position no longer parses");
    };
    let mut game = Game::new(start);
    let mut accepted = Vec::new();
    for line in rest.split(|&b| b == b'\n').take(256) {
        let Some((&who, message)) = line.split_first() else {
            continue;
        };
        let by = if who % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let text = String::from_utf8_lossy(message);
        let before = state_text(&game);
        let seq = game.seq;
        match apply_message(&mut game, by, &text) {
            Ok(action) => {
                assert_eq!(game.seq, seq + 1);
                check_legal(&game);
                accepted.push(action);
            }
            Err(error) => {
                assert!(error.status().is_client_error(), "{error:?} for {text:?}");
                assert!(!error.code().is_empty() && !error.to_string().is_empty());
                assert_eq!(
                    state_text(&game),
                    before,
                    "a refused message changed the game"
                );
            }
        }
    }
    let mut replay = Game::new(start);
    for action in accepted {
        assert!(
            replay.apply(action).is_ok(),
            "an accepted action does not replay"
        );
    }
    assert_eq!(state_text(&replay), state_text(&game), "the replay differs");
}
