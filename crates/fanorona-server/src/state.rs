//! What every handler can reach.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::{config::Config, hub::Hub, store::Store};

/// The shared state of the server: its configuration and the game hub
/// (which owns the store).
#[derive(Clone, Debug)]
pub struct AppState {
    /// The configuration.
    pub config: Arc<Config>,
    /// Every live game.
    pub hub: Hub,
}

impl AppState {
    /// The state for `config` over `store`.
    pub fn new(config: Config, store: Arc<dyn Store>) -> AppState {
        let config = Arc::new(config);
        AppState {
            hub: Hub::new(store, config.clone()),
            config,
        }
    }
}

impl FromRef<AppState> for Hub {
    fn from_ref(state: &AppState) -> Hub {
        state.hub.clone()
    }
}
