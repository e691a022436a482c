//! Limits against abuse: rate limits per client address and per socket,
//! counts of what each client holds open, and the client address itself,
//! which comes from the peer of the TCP connection or, behind a reverse
//! proxy, from one configured header only.
//!
//! Every limit keys a client by [`client_key`]: an IPv6 client by its /64,
//! since one home or phone gets a whole /64 and could otherwise take a new
//! address for every request.

use std::{
    collections::HashMap,
    convert::Infallible,
    net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr},
    num::NonZeroU32,
    sync::{Arc, Mutex, PoisonError},
};

use axum::{
    extract::{ConnectInfo, FromRef, FromRequestParts},
    http::{request::Parts, HeaderMap},
};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::{config::Config, error::AppError};

/// The largest HTTP request body the server reads: 16 KiB.
pub(crate) const MAX_BODY: usize = 16 * 1024;

/// The per-address rate limiters of the server.
#[derive(Debug)]
pub(crate) struct Limits {
    create: DefaultKeyedRateLimiter<IpAddr>,
    intents: DefaultKeyedRateLimiter<IpAddr>,
    intent_quota: Quota,
}

fn at_least_one(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN)
}

impl Limits {
    /// The limiters `config` asks for.
    pub(crate) fn new(config: &Config) -> Limits {
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
    pub(crate) fn create(&self, client: IpAddr) -> Result<(), AppError> {
        self.create
            .check_key(&client)
            .map_err(|_| AppError::RateLimited)
    }

    /// Counts an HTTP intent or join by `client`.
    ///
    /// # Errors
    ///
    /// [`AppError::RateLimited`] past the configured rate.
    pub(crate) fn intent(&self, client: IpAddr) -> Result<(), AppError> {
        self.intents
            .check_key(&client)
            .map_err(|_| AppError::RateLimited)
    }

    /// A limiter for the intents of one socket.
    pub(crate) fn socket(&self) -> DefaultDirectRateLimiter {
        RateLimiter::direct(self.intent_quota)
    }

    /// Forgets addresses that are back to a full allowance.
    pub(crate) fn sweep(&self) {
        self.create.retain_recent();
        self.intents.retain_recent();
    }
}

/// The address limits count a client as: an IPv4 address as itself (an
/// IPv4-mapped IPv6 address too, as the IPv4 address it maps), an IPv6
/// address as its /64 network with the host half zeroed.
pub(crate) fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !u128::from(u64::MAX))),
        },
    }
}

/// How many of something (connections, sockets) each client holds open,
/// against a cap per client. Cloning shares the counts.
#[derive(Clone, Debug)]
pub(crate) struct PerClient {
    held: Arc<Mutex<HashMap<IpAddr, u32>>>,
    cap: u32,
}

impl PerClient {
    /// Counts with at most `cap` held per client.
    pub(crate) fn new(cap: u32) -> PerClient {
        PerClient {
            held: Arc::default(),
            cap,
        }
    }

    /// Counts one more for `client` (keyed by [`client_key`]) until the
    /// returned [`Held`] is dropped; `None` when it already holds the cap.
    pub(crate) fn acquire(&self, client: IpAddr) -> Option<Held> {
        let client = client_key(client);
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let count = held.entry(client).or_default();
        if *count >= self.cap {
            if *count == 0 {
                held.remove(&client);
            }
            return None;
        }
        *count += 1;
        Some(Held {
            held: self.held.clone(),
            client,
        })
    }

    /// Counts one more for `client` even past the cap: for what was
    /// already allowed once and comes back (a player who reconnects to a
    /// game), which a cap must not shut out.
    pub(crate) fn acquire_anyway(&self, client: IpAddr) -> Held {
        let client = client_key(client);
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        *held.entry(client).or_default() += 1;
        Held {
            held: self.held.clone(),
            client,
        }
    }

    /// How many `client` holds.
    #[cfg(test)]
    pub(crate) fn held(&self, client: IpAddr) -> u32 {
        let held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.get(&client_key(client)).copied().unwrap_or(0)
    }
}

/// One thing counted by a [`PerClient`]; dropping it gives it back.
#[derive(Debug)]
pub(crate) struct Held {
    held: Arc<Mutex<HashMap<IpAddr, u32>>>,
    client: IpAddr,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = held.get_mut(&self.client) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                held.remove(&self.client);
            }
        }
    }
}

/// The request header that holds the client's address, set by a trusted
/// reverse proxy (`--trusted-proxy-header`); `None` without a proxy. A
/// small value of the server's state, so that [`ClientAddr`] works with
/// any state that can give it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TrustedProxy(pub(crate) Option<Arc<str>>);

impl TrustedProxy {
    /// The header `config` names, if any.
    pub(crate) fn new(config: &Config) -> TrustedProxy {
        TrustedProxy(config.trusted_proxy_header.as_deref().map(Arc::from))
    }
}

/// The address of the client as limits count it ([`client_key`]): the
/// configured trusted header's value when there is one, else the TCP peer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClientAddr(pub(crate) IpAddr);

impl<S> FromRequestParts<S> for ClientAddr
where
    S: Send + Sync,
    TrustedProxy: FromRef<S>,
{
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Infallible> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        let TrustedProxy(header) = TrustedProxy::from_ref(state);
        Ok(ClientAddr(client_key(client_addr(
            &parts.headers,
            header.as_deref(),
            peer,
        ))))
    }
}

/// The client address: the last address of the `trusted` header (the one
/// the proxy added; earlier ones are the client's own claims), else `peer`.
pub(crate) fn client_addr(headers: &HeaderMap, trusted: Option<&str>, peer: IpAddr) -> IpAddr {
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

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
    }

    #[test]
    fn ipv6_clients_are_keyed_by_their_64_and_mapped_ipv4_as_ipv4() {
        assert_eq!(client_key(ip("203.0.113.7")), ip("203.0.113.7"));
        assert_eq!(client_key(ip("::ffff:203.0.113.7")), ip("203.0.113.7"));
        let home = client_key(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd"));
        assert_eq!(home, ip("2001:db8:1:2::"));
        assert_eq!(client_key(ip("2001:db8:1:2::1")), home);
        assert_ne!(client_key(ip("2001:db8:1:3::1")), home);
        assert_eq!(client_key(ip("::1")), ip("::"));
    }

    #[test]
    fn a_client_holds_at_most_the_cap_and_gets_it_back_on_drop() {
        let sockets = PerClient::new(2);
        let one = sockets.acquire(ip("2001:db8::1"));
        let two = sockets.acquire(ip("2001:db8::2"));
        assert!(one.is_some() && two.is_some());
        // Another address of the same /64 is the same client.
        assert!(sockets.acquire(ip("2001:db8::ffff")).is_none());
        assert!(sockets.acquire(ip("2001:db8:0:1::1")).is_some());
        drop(one);
        assert_eq!(sockets.held(ip("2001:db8::9")), 1);
        assert!(sockets.acquire(ip("2001:db8::3")).is_some());
        drop(two);
        assert_eq!(sockets.held(ip("2001:db8::9")), 0);
        // Past the cap only on purpose, and given back all the same.
        let held: Vec<_> = (0..3)
            .map(|_| sockets.acquire_anyway(ip("2001:db8::1")))
            .collect();
        assert_eq!(sockets.held(ip("2001:db8::9")), 3);
        assert!(sockets.acquire(ip("2001:db8::3")).is_none());
        drop(held);
        assert_eq!(sockets.held(ip("2001:db8::9")), 0);
        assert!(PerClient::new(0).acquire(ip("10.0.0.1")).is_none());
    }
}
