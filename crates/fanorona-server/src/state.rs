//! What every handler can reach.

use std::sync::{
    atomic::{AtomicBool, Ordering},
    Arc,
};

use axum::extract::FromRef;

use crate::{
    clock,
    config::Config,
    hub::Hub,
    limits::{Limits, TrustedProxy},
    store::Store,
};

/// The shared state of the server: its configuration and the game hub
/// (which owns the store).
#[derive(Clone, Debug)]
pub struct AppState {
    /// The configuration.
    pub(crate) config: Arc<Config>,
    /// Every live game.
    pub(crate) hub: Hub,
    /// Rate limits per client address.
    pub(crate) limits: Arc<Limits>,
    /// The header a trusted proxy puts the client's address in.
    trusted_proxy: TrustedProxy,
    /// What the last readiness check found.
    pub(crate) readiness: Arc<Readiness>,
}

/// What the last readiness check (`GET /readyz`) found, so that a change
/// is logged once, not at every probe: a proxy asks every few seconds.
#[derive(Debug, Default)]
pub(crate) struct Readiness {
    lost: AtomicBool,
}

impl Readiness {
    /// Records whether the database answered the check; true when that
    /// differs from the check before (before the first, it did).
    pub(crate) fn changed(&self, ready: bool) -> bool {
        self.lost.swap(!ready, Ordering::Relaxed) == ready
    }
}

impl AppState {
    /// The state for `config` over `store`.
    pub fn new(config: Config, store: Arc<dyn Store>) -> AppState {
        let config = Arc::new(config);
        AppState {
            hub: Hub::new(store, config.clone()),
            limits: Arc::new(Limits::new(&config)),
            trusted_proxy: TrustedProxy::new(&config),
            readiness: Arc::default(),
            config,
        }
    }

    /// Deletes the invitations nobody accepted within the invitation
    /// lifetime (and only those), and forgets idle rate-limit entries.
    /// Returns how many games were deleted.
    ///
    /// # Errors
    ///
    /// The store's error.
    pub async fn sweep(&self) -> Result<u64, crate::store::StoreError> {
        self.limits.sweep();
        let cutoff = self
            .hub
            .site()
            .invitations_expire_before(clock::unix_seconds());
        self.hub.store().delete_expired_invitations(cutoff).await
    }
}

impl FromRef<AppState> for Hub {
    fn from_ref(state: &AppState) -> Hub {
        state.hub.clone()
    }
}

impl FromRef<AppState> for TrustedProxy {
    fn from_ref(state: &AppState) -> TrustedProxy {
        state.trusted_proxy.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readiness_tells_only_its_changes() {
        let readiness = Readiness::default();
        let seen: Vec<bool> = [true, true, false, false, false, true, true, false]
            .into_iter()
            .map(|ready| readiness.changed(ready))
            .collect();
        assert_eq!(seen, [false, false, true, false, false, true, false, true]);
    }
}
