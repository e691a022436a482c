//! The one error type of the server, and how it becomes a response.

use axum::{
    extract::rejection::JsonRejection,
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};
use fanorona::PlayError;

use crate::{
    game::GameError,
    protocol::{EncodeError, ProtocolError, ServerMsg},
    store::StoreError,
};

/// Everything a request or a message can fail with. Each has a stable code
/// and status; internal details are logged, never sent.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The game refuses the intent.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The message could not be read.
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// No game has this id.
    #[error("there is no game with this id")]
    GameNotFound,
    /// Nobody joined the game in time.
    #[error("this invitation has expired: start a new game")]
    InvitationExpired,
    /// The invitation token does not belong to this game.
    #[error("this invitation link is not valid for this game")]
    WrongInvite,
    /// No seat credentials were given: spectators cannot act.
    #[error("only the two players can do this, and you are watching")]
    NotAPlayer,
    /// Seat credentials were given but match neither seat.
    #[error("this seat secret does not belong to a player of this game")]
    WrongSecret,
    /// A start position was given but the server does not allow them.
    #[error("this server does not allow custom start positions")]
    CustomStartDisabled,
    /// The custom start position is not valid.
    #[error("invalid start position: {0}")]
    BadPosition(String),
    /// The time control asked for is outside the limits.
    #[error(transparent)]
    BadTimeControl(#[from] crate::game::BadTimeControl),
    /// A game record sent to be read is not one, or its turns do not
    /// follow the rules.
    #[error("this is not a game record that can be replayed: {0}")]
    BadRecord(String),
    /// The server is shutting down or the game's task has stopped.
    #[error("the server is busy or shutting down, try again")]
    Unavailable,
    /// The database cannot be reached or is locked, so the game could not
    /// be read: nothing changed, the client may try again after
    /// five seconds (`Retry-After`).
    #[error("the database cannot be reached just now: try again in a moment")]
    DatabaseUnavailable,
    /// Storing the change failed (disk full, database locked or busy):
    /// nothing changed, the sender may try again.
    #[error("not saved, try again: the server could not store this")]
    NotSaved,
    /// Another server process changed the game first (a step for the
    /// same turn stored a moment before): nothing of this intent was
    /// played. Holds the game's new state message.
    #[error("the game changed before this arrived: here is its new state")]
    GameChanged(axum::extract::ws::Utf8Bytes),
    /// Too many searches wait for the computer's threads.
    #[error("the computer is busy: try again in a moment")]
    Busy,
    /// This client already plays as many games against the computer as
    /// it may at once.
    #[error("you are already playing as many games against the computer as one address may: finish one, or close its page")]
    TooManyComputerGames,
    /// This game has had as many hints searched as it may for now; the
    /// next is possible after this many seconds.
    #[error("too many hints in this game: wait a moment")]
    HintLimit(u64),
    /// The game moved on (a step, a takeback, the end) before the hint
    /// asked for was found.
    #[error("the game moved on before the hint was found")]
    HintOutdated,
    /// The game holds as many actions as it may: only what plays it to its
    /// end is still accepted.
    #[error("this game has reached its limit of actions: only steps, ends of turn and resigning are still possible")]
    GameTooLong,
    /// Too many requests from this address or socket.
    #[error("too many requests: slow down and try again in a moment")]
    RateLimited,
    /// This player sent a message less than two seconds ago.
    #[error("one message at a time: wait a moment before the next")]
    TooManyMessages,
    /// Too many connections to this game from this address.
    #[error("too many connections to this game")]
    TooManyConnections,
    /// The request body is larger than the server accepts.
    #[error("the request is too large")]
    TooLarge,
    /// The request body is not declared as JSON.
    #[error("send the body as JSON, with the header Content-Type: application/json")]
    UnsupportedMediaType,
    /// Storage failed (not by being unavailable: that is
    /// [`AppError::DatabaseUnavailable`]).
    #[error("internal error")]
    Store(StoreError),
    /// The random source failed.
    #[error("internal error")]
    Random(#[from] getrandom::Error),
    /// A game could not be written as a record (a bug; logged).
    #[error("internal error")]
    Record(String),
    /// An answer could not be written as JSON (a bug; logged).
    #[error("internal error")]
    Encode(EncodeError),
}

impl AppError {
    /// A stable snake_case identifier.
    pub fn code(&self) -> &'static str {
        match self {
            AppError::Game(e) => e.code(),
            AppError::Protocol(e) => e.code(),
            AppError::GameNotFound => "game_not_found",
            AppError::InvitationExpired => "invitation_expired",
            AppError::WrongInvite => "wrong_invite",
            AppError::NotAPlayer => "not_a_player",
            AppError::WrongSecret => "wrong_secret",
            AppError::CustomStartDisabled => "custom_start_disabled",
            AppError::BadPosition(_) => "bad_position",
            AppError::BadTimeControl(_) => "bad_time_control",
            AppError::BadRecord(_) => "bad_record",
            AppError::Unavailable => "unavailable",
            AppError::DatabaseUnavailable => "database_unavailable",
            AppError::NotSaved => "not_saved",
            AppError::GameChanged(_) => "game_changed",
            AppError::Busy => "busy",
            AppError::TooManyComputerGames => "too_many_computer_games",
            AppError::HintLimit(_) => "hint_limit",
            AppError::HintOutdated => "hint_outdated",
            AppError::GameTooLong => "game_too_long",
            AppError::RateLimited => "rate_limited",
            AppError::TooManyMessages => "too_many_messages",
            AppError::TooManyConnections => "too_many_connections",
            AppError::TooLarge => "too_large",
            AppError::UnsupportedMediaType => "unsupported_media_type",
            AppError::Store(_)
            | AppError::Random(_)
            | AppError::Record(_)
            | AppError::Encode(_) => "internal",
        }
    }

    /// The HTTP status for the error.
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::Game(GameError::Play(PlayError::GameOver(_))) => StatusCode::CONFLICT,
            AppError::Game(GameError::Play(_)) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Game(_)
            | AppError::GameChanged(_)
            | AppError::HintOutdated
            | AppError::GameTooLong => StatusCode::CONFLICT,
            AppError::Protocol(_) => StatusCode::BAD_REQUEST,
            AppError::GameNotFound => StatusCode::NOT_FOUND,
            AppError::InvitationExpired => StatusCode::GONE,
            AppError::WrongInvite
            | AppError::NotAPlayer
            | AppError::WrongSecret
            | AppError::CustomStartDisabled => StatusCode::FORBIDDEN,
            AppError::BadPosition(_) | AppError::BadRecord(_) | AppError::BadTimeControl(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            AppError::Unavailable
            | AppError::DatabaseUnavailable
            | AppError::NotSaved
            | AppError::Busy => StatusCode::SERVICE_UNAVAILABLE,
            AppError::RateLimited
            | AppError::TooManyMessages
            | AppError::TooManyConnections
            | AppError::TooManyComputerGames
            | AppError::HintLimit(_) => StatusCode::TOO_MANY_REQUESTS,
            AppError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::Store(_)
            | AppError::Random(_)
            | AppError::Record(_)
            | AppError::Encode(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The seconds a client should wait before it tries again, sent as
    /// `Retry-After` over HTTP, when the error says so.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            AppError::Busy | AppError::DatabaseUnavailable => Some(RETRY_AFTER),
            AppError::HintLimit(seconds) => Some(*seconds),
            _ => None,
        }
    }

    /// Adds the headers the error calls for to an answer made of it:
    /// `Retry-After` when there is a time to wait.
    pub(crate) fn mark(&self, headers: &mut HeaderMap) {
        if let Some(seconds) = self.retry_after() {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
    }

    /// A failed write, logged here, becomes [`AppError::NotSaved`].
    pub(crate) fn not_saved(error: StoreError) -> AppError {
        tracing::warn!(%error, "write failed");
        AppError::NotSaved
    }

    /// The error message as sent: `{"type":"error","code":..,"message":..}`.
    pub(crate) fn to_json(&self) -> String {
        if self.status() == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(error = ?self, "request failed");
        }
        let state = match self {
            AppError::GameChanged(state) => Some(state.as_str()),
            _ => None,
        };
        ServerMsg::Error {
            code: self.code(),
            message: self.to_string(),
            state,
        }
        .to_json()
    }
}

/// The `Retry-After` of [`AppError::DatabaseUnavailable`] and
/// [`AppError::Busy`], in seconds: as long as a connection refused for the
/// server's own caps waits, about what a database restart takes, and the
/// searches ahead of a refused one (`--computer-max-wait`'s default).
pub(crate) const RETRY_AFTER: u64 = 5;

impl From<StoreError> for AppError {
    fn from(error: StoreError) -> AppError {
        match error {
            StoreError::Unavailable(error) => {
                tracing::debug!(%error, "the database is unavailable");
                AppError::DatabaseUnavailable
            }
            other => AppError::Store(other),
        }
    }
}

impl From<JsonRejection> for AppError {
    fn from(rejection: JsonRejection) -> AppError {
        match rejection {
            r if r.status() == StatusCode::PAYLOAD_TOO_LARGE => AppError::TooLarge,
            JsonRejection::MissingJsonContentType(_) => AppError::UnsupportedMediaType,
            JsonRejection::JsonDataError(e) => AppError::Protocol(ProtocolError::BadMessage {
                kind: "request".into(),
                detail: e.body_text(),
            }),
            _ => AppError::Protocol(ProtocolError::BadJson),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let body = self.to_json();
        let mut response = (
            self.status(),
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response();
        self.mark(response.headers_mut());
        response
    }
}
