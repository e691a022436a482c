//! Memory and the store kept equal: a stored game replayed, the actions
//! another process stored played on, and an action written.

use fanorona::{Position, Setup};

use super::{computer::Computer, GameTask};
use crate::{
    error::AppError,
    game::{Game, Plan},
    ids::GameId,
    store::{StoreError, StoredGame},
};

/// Replays a stored game: the game, and when it ended if it is over.
pub(super) fn replay(stored: &StoredGame) -> Result<(Game, Option<i64>), AppError> {
    let setup: Setup = stored
        .row
        .start_position
        .parse()
        .map_err(|e| corrupt(format!("game {}: {e}", stored.row.id)))?;
    let start =
        Position::from_setup(setup).map_err(|e| corrupt(format!("game {}: {e}", stored.row.id)))?;
    let game = Game::with_computer(start, stored.row.computer).with_clock(stored.row.time_control);
    let ended_at = end_time(&game, None, stored.row.created_at);
    play_on(game, ended_at, stored)
}

/// Plays the stored actions of `stored` on `game`, which has the ones
/// before them and ended at `ended_at` if it is over: the game after
/// them, and when it ended.
pub(super) fn play_on(
    mut game: Game,
    mut ended_at: Option<i64>,
    stored: &StoredGame,
) -> Result<(Game, Option<i64>), AppError> {
    let id = &stored.row.id;
    if stored.first != game.seq {
        return Err(corrupt(format!(
            "game {id}: actions from {} do not follow the {} held",
            stored.first, game.seq
        )));
    }
    for (i, action) in stored.actions.iter().enumerate() {
        let n = stored.first + i as u64;
        let at = stored
            .action_times
            .get(i)
            .copied()
            .unwrap_or(stored.row.created_at.saturating_mul(1000));
        game.apply_at(*action, at)
            .map_err(|e| corrupt(format!("game {id} action {n}: {e}")))?;
        ended_at = end_time(&game, ended_at, at.div_euclid(1000));
    }
    game.next_game = stored.row.next_game.clone();
    Ok((game, ended_at))
}

/// A stored game that the rules refuse to replay.
fn corrupt(what: String) -> AppError {
    AppError::Store(StoreError::Other(what.into()))
}

/// When `game` ended, after an action at `now` (seconds since the Unix
/// epoch): the time it ended as long as it stays over, `now` if it has
/// just ended, none while it goes on (a takeback can take the end back).
pub(super) fn end_time(game: &Game, ended_at: Option<i64>, now: i64) -> Option<i64> {
    game.result.map(|_| ended_at.unwrap_or(now))
}

impl GameTask {
    /// Stores the action of `plan`; a rematch also creates the new game,
    /// in the same transaction, and returns its id.
    pub(super) async fn write(&mut self, plan: &Plan) -> Result<Option<GameId>, StoreError> {
        let store = &self.hub.inner.store;
        let action = plan.action();
        if !plan.completes_rematch() {
            store
                .append_action_at(&self.row.id, self.game.seq, &action, plan.at())
                .await?;
            return Ok(None);
        }
        let row = self
            .rematch_row()
            .map_err(|e| StoreError::Other(e.into()))?;
        store
            .append_rematch_at(&self.row.id, self.game.seq, &action, &row, plan.at())
            .await?;
        tracing::info!(game = %self.row.id, next = %row.id, "rematch started");
        Ok(Some(row.id))
    }

    /// Makes memory equal to the store again: after another process's
    /// change, or a failed write (one reported as failed may still have
    /// been committed). Memory holds a prefix of the stored actions (an
    /// action enters memory only once stored), so the row and the actions
    /// after it are read and played on; a game whose stored actions do not
    /// follow is loaded whole. When the store cannot be read, the task
    /// stops, so the next visitor reloads.
    pub(super) async fn resync(&mut self) {
        let store = &self.hub.inner.store;
        let tail = match store.load_from(&self.row.id, self.game.seq).await {
            Ok(tail) => tail,
            Err(error) => {
                tracing::warn!(game = %self.row.id, %error, "cannot read the game from the store");
                self.stale = true;
                return;
            }
        };
        let loaded = match play_on(self.game.clone(), self.ended_at, &tail) {
            Ok(caught_up) => Ok((caught_up, tail.row)),
            Err(error) => {
                tracing::warn!(game = %self.row.id, %error, "the stored actions do not follow: loading the game whole");
                store
                    .load_game(&self.row.id)
                    .await
                    .map_err(AppError::from)
                    .and_then(|s| Ok((replay(&s)?, s.row)))
            }
        };
        match loaded {
            Ok(((game, ended_at), row)) => {
                let changed = game.seq != self.game.seq || row != self.row;
                self.game = game;
                self.ended_at = ended_at;
                self.row = row;
                self.encoder.reset();
                if changed {
                    self.computer = Computer::Idle;
                    self.maybe_think();
                    self.publish_or_stop();
                }
            }
            Err(error) => {
                tracing::warn!(game = %self.row.id, %error, "cannot reload the game from the store");
                self.stale = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use fanorona::{ByColor, Color};

    use super::*;
    use crate::{
        game::{Action, Intent},
        ids::Secret,
        store::GameRow,
    };

    /// A game of up to `turns` steps or ends of turn (the first legal step
    /// each time), a refused draw offer after the fourth, and a
    /// resignation if the game has not ended by then.
    fn actions(turns: usize) -> Vec<Action> {
        let mut game = Game::with_computer(Position::start(), None);
        let mut out = Vec::new();
        let mut play = |game: &mut Game, action: Action| {
            game.apply(action).expect("a legal action");
            out.push(action);
        };
        for i in 0..turns {
            if game.result.is_some() {
                break;
            }
            let position = game.position;
            let intent = match position.legal_steps().first() {
                Some(step) => Intent::Step {
                    from: step.from(),
                    to: step.to(),
                    kind: step.kind(),
                },
                None => Intent::EndTurn,
            };
            let by = position.turn();
            play(&mut game, Action { by, intent });
            if i == 3 {
                let by = game.position.turn();
                play(
                    &mut game,
                    Action {
                        by,
                        intent: Intent::OfferDraw,
                    },
                );
                let intent = Intent::DeclineDraw;
                play(&mut game, Action { by: !by, intent });
            }
        }
        if game.result.is_none() {
            let by = game.position.turn();
            play(
                &mut game,
                Action {
                    by,
                    intent: Intent::Resign,
                },
            );
        }
        out
    }

    /// The stored game: its row and its actions from number `first`, each
    /// stored a second after the one before.
    fn stored(actions: &[Action], first: usize) -> StoredGame {
        let created_at = 1_700_000_000;
        let row = GameRow {
            id: "Catchup123".parse().expect("an id"),
            created_at,
            start_position: Position::start().to_string(),
            creator: Color::White,
            seats: ByColor::new_with(|_| Some(Secret::random().expect("a secret").hash())),
            invite: Secret::random().expect("a secret").hash(),
            rematch_of: None,
            next_game: None,
            computer: None,
            time_control: None,
            score: None,
        };
        let times = (0..actions.len()).map(|i| (created_at + 1 + i as i64) * 1000);
        StoredGame {
            row,
            first: first as u64,
            actions: actions[first..].to_vec(),
            action_times: times.skip(first).collect(),
        }
    }

    #[test]
    fn a_game_caught_up_from_any_action_equals_the_game_loaded_whole() {
        let actions = actions(40);
        let (whole, whole_end) = replay(&stored(&actions, 0)).expect("replays");
        assert!(whole.result.is_some(), "the game ends");
        assert!(actions.len() > 20, "{} actions", actions.len());
        assert_eq!(whole.seq, actions.len() as u64);
        for held in 0..=actions.len() {
            let (game, ended_at) = replay(&stored(&actions[..held], 0)).expect("replays");
            let (game, ended_at) =
                play_on(game, ended_at, &stored(&actions, held)).expect("follows");
            assert_eq!(game.seq, whole.seq, "held {held}");
            assert_eq!(game.position, whole.position, "held {held}");
            assert_eq!(game.moves, whole.moves, "held {held}");
            assert_eq!(game.result, whole.result, "held {held}");
            assert_eq!(ended_at, whole_end, "held {held}");
        }
    }

    #[test]
    fn actions_that_do_not_follow_the_ones_held_are_refused() {
        let actions = actions(10);
        let (game, ended_at) = replay(&stored(&actions[..4], 0)).expect("replays");
        for first in [0, 3, 5] {
            let error = play_on(game.clone(), ended_at, &stored(&actions, first));
            assert!(error.is_err(), "from {first} on a game holding 4");
        }
        let (game, ended_at) = play_on(game, ended_at, &stored(&actions, 4)).expect("follows");
        assert_eq!(game.seq, actions.len() as u64);
        // The resignation, the last action, ended the game when it was stored.
        assert_eq!(ended_at, Some(1_700_000_000 + actions.len() as i64));
    }
}
