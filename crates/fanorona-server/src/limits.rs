//! Limits against abuse: rate limits per client address and per socket,
//! and the client address itself, which comes from the peer of the TCP
//! connection or, behind a reverse proxy, from one configured header only.

use std::{
    net::{IpAddr, Ipv4Addr, SocketAddr},
    num::NonZeroU32,
};

use axum::{
    extract::{ConnectInfo, FromRequestParts},
    http::{request::Parts, HeaderMap},
};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::{config::Config, error::AppError, state::AppState};

/// The largest HTTP request body the server reads: 16 KiB.
pub const MAX_BODY: usize = 16 * 1024;

/// The per-address rate limiters of the server.
#[derive(Debug)]
pub struct Limits {
    create: DefaultKeyedRateLimiter<IpAddr>,
    intents: DefaultKeyedRateLimiter<IpAddr>,
    intent_quota: Quota,
}

fn at_least_one(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN)
}

impl Limits {
    /// The limiters `config` asks for.
    pub fn new(config: &Config) -> Limits {
        let create = Quota::per_minute(at_least_one(config.create_per_minute));
        let per_second = at_least_one(config.intents_per_second);
        let intent_quota = Quota::per_second(per_second)
            .allow_burst(per_second.saturating_mul(NonZeroU32::new(2).unwrap_or(per_second)));
        Limits {
            create: RateLimiter::keyed(create),
            intents: RateLimiter::keyed(intent_quota),
            intent_quota,
        }
    }

    /// Counts a game creation by `client`.
    ///
    /// # Errors
    ///
    /// [`AppError::RateLimited`] past the configured rate.
    pub fn create(&self, client: IpAddr) -> Result<(), AppError> {
        self.create
            .check_key(&client)
            .map_err(|_| AppError::RateLimited)
    }

    /// Counts an HTTP intent or join by `client`.
    ///
    /// # Errors
    ///
    /// [`AppError::RateLimited`] past the configured rate.
    pub fn intent(&self, client: IpAddr) -> Result<(), AppError> {
        self.intents
            .check_key(&client)
            .map_err(|_| AppError::RateLimited)
    }

    /// A limiter for the intents of one socket.
    pub fn socket(&self) -> DefaultDirectRateLimiter {
        RateLimiter::direct(self.intent_quota)
    }

    /// Forgets addresses that are back to a full allowance.
    pub fn sweep(&self) {
        self.create.retain_recent();
        self.intents.retain_recent();
    }
}

/// The address of the client: the configured trusted header's value when
/// there is one, else the TCP peer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        let header = state.config.trusted_proxy_header.as_deref();
        Ok(ClientAddr(client_addr(&parts.headers, header, peer)))
    }
}

/// The client address: the last address of the `trusted` header (the one
/// the proxy added; earlier ones are the client's own claims), else `peer`.
pub fn client_addr(headers: &HeaderMap, trusted: Option<&str>, peer: IpAddr) -> IpAddr {
    let Some(name) = trusted else {
        return peer;
    };
    headers
        .get_all(name)
        .iter()
        .next_back()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(peer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, axum::http::HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn the_client_address_comes_from_the_trusted_header_only() {
        let peer: IpAddr = "10.0.0.1"
            .parse()
            .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
        let forged = headers(&[("x-forwarded-for", "1.2.3.4")]);
        assert_eq!(client_addr(&forged, None, peer), peer);
        let proxied = headers(&[("x-forwarded-for", "6.6.6.6, 203.0.113.7")]);
        let addr = client_addr(&proxied, Some("x-forwarded-for"), peer);
        assert_eq!(addr.to_string(), "203.0.113.7");
        assert_eq!(client_addr(&proxied, Some("x-real-ip"), peer), peer);
        let garbage = headers(&[("x-real-ip", "not an address")]);
        assert_eq!(client_addr(&garbage, Some("x-real-ip"), peer), peer);
    }
}
