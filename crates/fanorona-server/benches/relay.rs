//! The server's own work for one relayed step, without the network or the
//! store: reading the intent, playing it on the game, and encoding the
//! state that goes to every socket. The load tool measures the whole path;
//! this shows which part of it changed.
//!
//! Run with `cargo bench -p fanorona-server --bench relay`; compare runs
//! with criterion baselines (`-- --save-baseline before`, then
//! `-- --baseline before`).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use fanorona::{ByColor, Position};
use fanorona_server::{
    game::{Action, Game, Intent},
    ids::GameId,
    protocol::{encode_state, parse_intent, LiveFacts, StateEncoder},
};

/// The game after `plies` steps, each the `(7 * n) % count`-th legal step,
/// ending turns where a chain may stop every third step; or just before
/// the step that would end it.
fn game_after(plies: usize) -> Game {
    let mut game = Game::new(Position::start());
    for n in 0..plies {
        let before = game.clone();
        let by = game.position.turn();
        let steps = game.position.legal_steps();
        let Some(step) = steps.get(n * 7 % steps.len().max(1)) else {
            break;
        };
        let intent = Intent::Step {
            from: step.from(),
            to: step.to(),
            kind: step.kind(),
        };
        if game.apply(Action { by, intent }).is_err() {
            break;
        }
        if game.result.is_some() {
            game = before;
            break;
        }
        if game.position.chain().is_some() && n % 3 == 0 {
            let _ = game.apply(Action {
                by,
                intent: Intent::EndTurn,
            });
        }
    }
    game
}

/// The intent text of the first legal step of `game` (or `end_turn`), as a
/// browser sends it.
fn intent_text(game: &Game) -> String {
    let steps = game.position.legal_steps();
    let step = steps.first().copied();
    step.map_or_else(
        || r#"{"type":"end_turn"}"#.to_owned(),
        |s| {
            format!(
                r#"{{"type":"step","from":"{}","to":"{}","kind":"{}"}}"#,
                s.from(),
                s.to(),
                s.kind().name()
            )
        },
    )
}

fn relay(c: &mut Criterion) {
    let Ok(id) = GameId::random() else {
        return;
    };
    let live = LiveFacts {
        id: &id,
        version: 1,
        players: ByColor::default(),
        abandoned: false,
        thinking: false,
        now: 0,
        watching: 0,
        score: None,
    };
    let mut group = c.benchmark_group("relay");
    for plies in [0, 20, 60] {
        let game = game_after(plies);
        eprintln!(
            "after {plies}: {} turns played, {} legal steps",
            game.moves.len(),
            game.position.legal_steps().len()
        );
        let text = intent_text(&game);
        group.bench_function(format!("parse_intent/after_{plies}"), |b| {
            b.iter(|| parse_intent(black_box(&text)))
        });
        let by = game.position.turn();
        let intent = parse_intent(&text).ok();
        group.bench_function(format!("apply/after_{plies}"), |b| {
            b.iter_batched_ref(
                || game.clone(),
                |g| {
                    if let Some(intent) = intent {
                        let _ = g.apply(Action { by, intent });
                    }
                },
                BatchSize::SmallInput,
            )
        });
        // A game's task keeps its encoder: the moves so far are already
        // encoded, as after the previous state.
        let mut encoder = StateEncoder::default();
        if let Err(error) = encoder.encode(&game, live) {
            panic!("{error}");
        }
        group.bench_function(format!("encode_kept/after_{plies}"), |b| {
            b.iter(|| encoder.encode(black_box(&game), live))
        });
        group.bench_function(format!("encode_from_scratch/after_{plies}"), |b| {
            b.iter(|| encode_state(black_box(&game), live))
        });
    }
    group.finish();
}

criterion_group!(benches, relay);
criterion_main!(benches);
