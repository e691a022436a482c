//! The server's protocol as the load tool speaks it: HTTP create and
//! join, WebSocket connect, state messages and intents.

use std::{
    fmt,
    net::{IpAddr, SocketAddr},
};

use serde::Deserialize;
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::{
    client_async_with_config, connect_async_with_config,
    tungstenite::{
        client::IntoClientRequest,
        handshake::client::Request,
        http::{header::AUTHORIZATION, HeaderValue},
        protocol::WebSocketConfig,
    },
    MaybeTlsStream, WebSocketStream,
};

/// A client WebSocket.
pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Read buffer of the tool's own sockets: states are a few KiB.
const READ_BUFFER: usize = 4 * 1024;

/// Why a request or a socket failed, with a short kind for the counters.
#[derive(Debug)]
pub struct WireError {
    /// Short stable name of what failed, like `create_http_429`.
    pub kind: String,
    /// Details for a person.
    pub detail: String,
}

impl WireError {
    fn new(kind: impl Into<String>, detail: impl fmt::Display) -> WireError {
        WireError {
            kind: kind.into(),
            detail: detail.to_string(),
        }
    }
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.detail)
    }
}

impl std::error::Error for WireError {}

/// A server to load: its HTTP and WebSocket bases.
#[derive(Clone, Debug)]
pub struct Target {
    /// Like `http://127.0.0.1:8080`.
    pub http: String,
    /// Like `ws://127.0.0.1:8080`.
    pub ws: String,
}

impl Target {
    /// The target at `url` (`http://host:port`, without a path).
    ///
    /// # Errors
    ///
    /// When `url` is not an `http://` URL.
    pub fn parse(url: &str) -> Result<Target, WireError> {
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| WireError::new("bad_url", format!("{url:?}: use http://HOST:PORT")))?;
        let host = rest.trim_end_matches('/');
        if host.is_empty() || host.contains('/') {
            return Err(WireError::new(
                "bad_url",
                format!("{url:?}: no path allowed"),
            ));
        }
        Ok(Target {
            http: format!("http://{host}"),
            ws: format!("ws://{host}"),
        })
    }

    /// The `host:port` part.
    pub fn authority(&self) -> &str {
        self.http.trim_start_matches("http://")
    }

    /// The socket address, when the host is an IP address.
    ///
    /// # Errors
    ///
    /// When the host is a name, or the port is missing.
    pub fn socket_addr(&self) -> Result<SocketAddr, WireError> {
        self.authority().parse().map_err(|_| {
            WireError::new(
                "bad_url",
                format!("{}: use an IP address and a port", self.http),
            )
        })
    }
}

/// Both seats of a new game, joined.
#[derive(Debug)]
pub struct Seats {
    /// The game id.
    pub game_id: String,
    /// White's seat secret (the creator's).
    pub white: String,
    /// Black's seat secret (the joiner's).
    pub black: String,
}

#[derive(Deserialize)]
struct Created {
    game_id: String,
    seat: String,
    invite_link: String,
}

#[derive(Deserialize)]
struct Joined {
    seat: Option<String>,
}

/// Creates a game (the creator plays White) and joins it as Black.
///
/// # Errors
///
/// Transport errors and any answer other than the documented success.
pub async fn create_and_join(http: &reqwest::Client, target: &Target) -> Result<Seats, WireError> {
    let answer = http
        .post(format!("{}/api/games", target.http))
        .json(&serde_json::json!({"first": "me"}))
        .send()
        .await
        .map_err(|e| WireError::new("create_request", e))?;
    if answer.status().as_u16() != 201 {
        return Err(WireError::new(
            format!("create_http_{}", answer.status().as_u16()),
            "create refused",
        ));
    }
    let created: Created = answer
        .json()
        .await
        .map_err(|e| WireError::new("create_body", e))?;
    let invite = created
        .invite_link
        .rsplit_once("invite=")
        .map(|(_, token)| token.to_owned())
        .ok_or_else(|| WireError::new("create_body", "no invite token in invite_link"))?;
    let answer = http
        .post(format!(
            "{}/api/games/{}/join",
            target.http, created.game_id
        ))
        .json(&serde_json::json!({ "invite": invite }))
        .send()
        .await
        .map_err(|e| WireError::new("join_request", e))?;
    if !answer.status().is_success() {
        return Err(WireError::new(
            format!("join_http_{}", answer.status().as_u16()),
            "join refused",
        ));
    }
    let joined: Joined = answer
        .json()
        .await
        .map_err(|e| WireError::new("join_body", e))?;
    let black = joined
        .seat
        .ok_or_else(|| WireError::new("join_body", "joined as a spectator"))?;
    Ok(Seats {
        game_id: created.game_id,
        white: created.seat,
        black,
    })
}

/// The person's seat in a new game against the computer.
#[derive(Debug)]
pub struct ComputerSeat {
    /// The game id.
    pub game_id: String,
    /// The person's seat secret.
    pub seat: String,
    /// The person's seat index: 0 for White, 1 for Black.
    pub me: usize,
}

#[derive(Deserialize)]
struct CreatedAgainstComputer {
    game_id: String,
    seat: String,
    color: String,
}

/// Creates a game against the computer at `level`, the creator (the
/// person) moving first.
///
/// # Errors
///
/// Transport errors and any answer other than the documented success
/// (`503 busy` when the computer's queue is full, as `create_http_503`).
pub async fn create_against_computer(
    http: &reqwest::Client,
    target: &Target,
    level: u8,
) -> Result<ComputerSeat, WireError> {
    let answer = http
        .post(format!("{}/api/games", target.http))
        .json(&serde_json::json!({"opponent": "computer", "level": level, "first": "me"}))
        .send()
        .await
        .map_err(|e| WireError::new("create_request", e))?;
    if answer.status().as_u16() != 201 {
        return Err(WireError::new(
            format!("create_http_{}", answer.status().as_u16()),
            "create refused",
        ));
    }
    let created: CreatedAgainstComputer = answer
        .json()
        .await
        .map_err(|e| WireError::new("create_body", e))?;
    let me = seat_index(&created.color)
        .ok_or_else(|| WireError::new("create_body", format!("colour {:?}", created.color)))?;
    Ok(ComputerSeat {
        game_id: created.game_id,
        seat: created.seat,
        me,
    })
}

/// The seat index of a colour's name: 0 for `white`, 1 for `black`.
fn seat_index(color: &str) -> Option<usize> {
    match color {
        "white" => Some(0),
        "black" => Some(1),
        _ => None,
    }
}

/// Opens a WebSocket to `url`, with `Authorization: Bearer {seat}` when a
/// seat is given. The read buffer is small and writes are not buffered,
/// as in the server.
///
/// # Errors
///
/// A bad URL or secret, or a failed connection or handshake.
pub async fn connect(url: &str, seat: Option<&str>) -> Result<Socket, WireError> {
    let (socket, _) = connect_async_with_config(request(url, seat)?, Some(config()), true)
        .await
        .map_err(|e| WireError::new("ws_connect", e))?;
    Ok(socket)
}

/// The upgrade request to `url`, holding the seat's bearer if any.
fn request(url: &str, seat: Option<&str>) -> Result<Request, WireError> {
    let mut request = url
        .into_client_request()
        .map_err(|e| WireError::new("bad_url", e))?;
    if let Some(seat) = seat {
        let value = HeaderValue::from_str(&format!("Bearer {seat}"))
            .map_err(|e| WireError::new("bad_secret", e))?;
        request.headers_mut().insert(AUTHORIZATION, value);
    }
    Ok(request)
}

/// The tool's socket settings.
fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
}

/// [`connect`], the connection coming from the local address `local`
/// (one of 127.0.0.0/8, to look like another client to a server on
/// loopback) to the server at `server`.
///
/// # Errors
///
/// A bad URL or secret, an address that cannot be bound, or a failed
/// connection or handshake.
pub async fn connect_from(
    url: &str,
    seat: Option<&str>,
    server: SocketAddr,
    local: IpAddr,
) -> Result<Socket, WireError> {
    let request = request(url, seat)?;
    let socket = match local {
        IpAddr::V4(_) => TcpSocket::new_v4(),
        IpAddr::V6(_) => TcpSocket::new_v6(),
    }
    .map_err(|e| WireError::new("tcp_socket", e))?;
    socket
        .bind(SocketAddr::new(local, 0))
        .map_err(|e| WireError::new("tcp_bind", e))?;
    let tcp = socket
        .connect(server)
        .await
        .map_err(|e| WireError::new("tcp_connect", e))?;
    let (socket, _) = client_async_with_config(request, MaybeTlsStream::Plain(tcp), Some(config()))
        .await
        .map_err(|e| WireError::new("ws_connect", e))?;
    Ok(socket)
}

/// One legal step as the state lists it.
#[derive(Clone, Debug, Deserialize)]
pub struct LegalStep {
    /// Origin square.
    pub from: String,
    /// Landing square.
    pub to: String,
    /// `paika`, `approach` or `withdrawal`.
    pub kind: String,
}

/// The fields of a server message the load tool reads; others are
/// skipped.
#[derive(Debug, Deserialize)]
pub struct ServerMsg {
    /// `welcome`, `state` or `error`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Number of accepted actions (states only).
    #[serde(default)]
    pub seq: u64,
    /// `white` or `black` (states only).
    #[serde(default)]
    pub side_to_move: Option<String>,
    /// Every legal step for the side to move.
    #[serde(default)]
    pub legal_steps: Vec<LegalStep>,
    /// Whether `end_turn` is possible now.
    #[serde(default)]
    pub can_end_turn: bool,
    /// Present (not null) once the game has ended.
    #[serde(default)]
    pub result: Option<serde::de::IgnoredAny>,
    /// The error code (errors only).
    #[serde(default)]
    pub code: Option<String>,
}

impl ServerMsg {
    /// Parses one text frame.
    ///
    /// # Errors
    ///
    /// When the frame is not a JSON object with a `type`.
    pub fn parse(text: &str) -> Result<ServerMsg, WireError> {
        serde_json::from_str(text).map_err(|e| WireError::new("bad_server_json", e))
    }

    /// The seat index of the side to move: 0 for White, 1 for Black.
    pub fn mover(&self) -> Option<usize> {
        self.side_to_move.as_deref().and_then(seat_index)
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// A random legal intent: one of the legal steps, or `end_turn` when
    /// allowed, each equally likely; `None` when nothing is legal.
    pub fn random_intent(&self, rng: &mut fastrand::Rng) -> Option<String> {
        if self.is_over() {
            return None;
        }
        let choices = self.legal_steps.len() + usize::from(self.can_end_turn);
        if choices == 0 {
            return None;
        }
        let pick = rng.usize(..choices);
        Some(match self.legal_steps.get(pick) {
            Some(step) => format!(
                r#"{{"type":"step","from":"{}","to":"{}","kind":"{}"}}"#,
                step.from, step.to, step.kind
            ),
            None => r#"{"type":"end_turn"}"#.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_gives_a_legal_intent() {
        let text = r#"{"type":"state","seq":3,"side_to_move":"black","result":null,
            "legal_steps":[{"from":"e3","to":"f3","kind":"approach","captures":["g3"]}],
            "can_end_turn":false,"moves":[]}"#;
        let msg = ServerMsg::parse(text).expect("test data");
        assert_eq!(msg.mover(), Some(1));
        assert!(!msg.is_over());
        let intent = msg
            .random_intent(&mut fastrand::Rng::with_seed(1))
            .expect("test data");
        assert_eq!(
            intent,
            r#"{"type":"step","from":"e3","to":"f3","kind":"approach"}"#
        );
    }

    #[test]
    fn a_finished_game_has_no_intent() {
        let text = r#"{"type":"state","seq":9,"side_to_move":"white",
            "legal_steps":[],"can_end_turn":false,"result":{"winner":"black"}}"#;
        let msg = ServerMsg::parse(text).expect("test data");
        assert!(msg.is_over());
        assert_eq!(msg.random_intent(&mut fastrand::Rng::with_seed(1)), None);
    }

    #[test]
    fn only_http_urls_are_targets() {
        assert_eq!(
            Target::parse("http://127.0.0.1:8080/")
                .expect("test data")
                .ws,
            "ws://127.0.0.1:8080"
        );
        assert!(Target::parse("https://example.com").is_err());
        assert!(Target::parse("http://127.0.0.1:8080/x").is_err());
    }
}
