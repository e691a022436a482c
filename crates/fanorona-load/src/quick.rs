//! A single game played step after step, as fast as the server answers:
//! the full path (HTTP create, join, two WebSockets, steps) for the
//! regression benchmark.

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use crate::wire::{self, ServerMsg, Socket, Target, WireError};

fn lost(what: &str) -> WireError {
    WireError {
        kind: "quick_game".into(),
        detail: what.into(),
    }
}

/// Reads `socket` until a state with `seq` at least `at_least`, for at
/// most 10 seconds.
async fn state_at(socket: &mut Socket, at_least: u64) -> Result<ServerMsg, WireError> {
    tokio::time::timeout(
        std::time::Duration::from_secs(10),
        read_state(socket, at_least),
    )
    .await
    .map_err(|_| lost("no state within 10 s"))?
}

async fn read_state(socket: &mut Socket, at_least: u64) -> Result<ServerMsg, WireError> {
    while let Some(frame) = socket.next().await {
        let frame = frame.map_err(|e| lost(&e.to_string()))?;
        if let Message::Text(text) = frame {
            let msg = ServerMsg::parse(text.as_str())?;
            match msg.kind.as_str() {
                "state" if msg.seq >= at_least => return Ok(msg),
                "error" => return Err(lost(msg.code.as_deref().unwrap_or("error"))),
                _ => {}
            }
        }
    }
    Err(lost("socket closed"))
}

/// Plays `steps` random legal steps, starting a new game whenever one
/// ends; returns the number of games used.
///
/// # Errors
///
/// Any refused request, socket failure or refused step.
pub async fn play_steps(
    http: &reqwest::Client,
    target: &Target,
    steps: u32,
    rng: &mut fastrand::Rng,
) -> Result<u32, WireError> {
    let mut played = 0;
    let mut games = 0;
    while played < steps {
        games += 1;
        let seats = wire::create_and_join(http, target).await?;
        let url = format!("{}/api/games/{}/ws", target.ws, seats.game_id);
        let mut sockets = [
            wire::connect(&url, Some(&seats.white)).await?,
            wire::connect(&url, Some(&seats.black)).await?,
        ];
        let mut state = state_at(&mut sockets[1], 0).await?;
        while played < steps {
            let (Some(mover), Some(intent)) = (state.mover(), state.random_intent(rng)) else {
                break;
            };
            let seq = state.seq + 1;
            let socket = sockets.get_mut(mover).ok_or_else(|| lost("bad side"))?;
            socket
                .send(Message::Text(intent.into()))
                .await
                .map_err(|e| lost(&e.to_string()))?;
            let other = sockets.get_mut(1 - mover).ok_or_else(|| lost("bad side"))?;
            state_at(other, seq).await?;
            let socket = sockets.get_mut(mover).ok_or_else(|| lost("bad side"))?;
            state = state_at(socket, seq).await?;
            played += 1;
        }
        for socket in &mut sockets {
            let _ = socket.close(None).await;
        }
    }
    Ok(games)
}
