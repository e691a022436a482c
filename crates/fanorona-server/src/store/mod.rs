//! Storage behind a small trait: a game is its row plus its ordered actions.
//!
//! The backend is chosen from the database URL's scheme by [`open`]; the
//! hub sees only [`Store`], which speaks in the server's own types, so a
//! backend comes and goes without touching it. One module per backend:
//! [`sqlite`](SqliteStore), the one-command default, and
//! [`postgres`](PgStore), which several server processes share.

mod postgres;
mod sqlite;
mod write;

use std::{path::PathBuf, sync::Arc};

use async_trait::async_trait;
use fanorona::{Color, Turn};
use tokio::sync::broadcast;

pub(crate) use self::sqlite::backup;
pub use self::{
    postgres::PgStore,
    sqlite::{Backup, SqliteStore},
};
use crate::{
    game::{Action, ComputerSeat, Intent, IntentKind, Level, MessageText, Score, TimeControl},
    ids::{GameId, SecretHash},
};

/// The stored facts of one game, apart from its actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The game's id.
    pub id: GameId,
    /// When it was created, in seconds since the Unix epoch.
    pub created_at: i64,
    /// The start position as position text.
    pub start_position: String,
    /// The colour of the player who created it.
    pub creator: Color,
    /// The hashes of the two seats' secrets; `None` while a seat is free.
    pub seats: fanorona::ByColor<Option<SecretHash>>,
    /// The hash of the invitation token.
    pub invite: SecretHash,
    /// The game this one is a rematch of.
    pub rematch_of: Option<GameId>,
    /// The rematch of this game, once both players asked.
    pub next_game: Option<GameId>,
    /// The computer's seat and its level at the start, in a game against
    /// it (its level now comes from the actions).
    pub computer: Option<ComputerSeat>,
    /// The time control, in a game with clocks.
    pub time_control: Option<TimeControl>,
    /// In a rematch, the score of the games before it, in this game's
    /// colours; `None` in a first game.
    pub score: Option<Score>,
}

/// A game as loaded: its row and its accepted actions, in order, from
/// action number `first` on (0 when loaded whole).
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// The game's row.
    pub row: GameRow,
    /// The number of the first action in `actions`.
    pub first: u64,
    /// Its actions from number `first`, oldest first.
    pub actions: Vec<Action>,
    /// When each action was accepted, in milliseconds since the Unix
    /// epoch: one entry per action, in the same order.
    pub action_times: Vec<i64>,
}

/// What can go wrong in storage.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No such game.
    #[error("not found")]
    NotFound,
    /// Someone else wrote first: the seat is taken or the action number used.
    #[error("conflict")]
    Conflict,
    /// The database URL names no supported backend.
    #[error("unsupported database URL scheme {0:?}: use sqlite:// or postgres://")]
    UnknownScheme(String),
    /// The database file is damaged: the server must not use it.
    #[error(
        "the database file {} is damaged ({detail}). It was left as it is. \
         Stop here: keep a copy of it, restore your last backup in its place \
         (see \"Backups\" in docs/RELIABILITY.md), then start again",
        path.display()
    )]
    Damaged {
        /// The file.
        path: std::path::PathBuf,
        /// What SQLite found.
        detail: String,
    },
    /// The database cannot be reached now (PostgreSQL down or refusing
    /// connections, or no connection free within the pool's wait), or is
    /// locked (SQLite busy): nothing was read or written, and the same
    /// call may succeed in a moment.
    #[error("the database is unavailable: {0}")]
    Unavailable(Box<dyn std::error::Error + Send + Sync>),
    /// Anything else: the backend's error.
    #[error("storage error: {0}")]
    Other(Box<dyn std::error::Error + Send + Sync>),
}

/// The storage of games.
///
/// What every backend promises:
/// - every method commits before it returns `Ok`: what it wrote survives a
///   crash of the process a moment later, and every later call sees it;
/// - a refused write (`Err`) changed nothing;
/// - [`StoreError::Conflict`] comes from the database itself (a unique key,
///   a conditional update), never from memory of this process, so it holds
///   when several server processes share one database;
/// - arguments and results are the server's types only, never a driver's.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// Stores a new game.
    async fn create_game(&self, row: &GameRow) -> Result<(), StoreError>;

    /// Loads a game with all its actions, or [`StoreError::NotFound`].
    async fn load_game(&self, id: &GameId) -> Result<StoredGame, StoreError> {
        self.load_from(id, 0).await
    }

    /// Loads a game's row and its actions from number `first` on (none
    /// when it has no more), or [`StoreError::NotFound`]: what a process
    /// that already holds the first `first` actions lacks.
    async fn load_from(&self, id: &GameId, first: u64) -> Result<StoredGame, StoreError>;

    /// Gives the free seat of `color` to the holder of `seat`, or
    /// [`StoreError::Conflict`] when it is already taken.
    async fn claim_seat(
        &self,
        id: &GameId,
        color: Color,
        seat: &SecretHash,
    ) -> Result<(), StoreError>;

    /// Appends action number `seq` (0-based), accepted at `at`
    /// (milliseconds since the Unix epoch), or [`StoreError::Conflict`]
    /// when that number is already used.
    async fn append_action_at(
        &self,
        id: &GameId,
        seq: u64,
        action: &Action,
        at: i64,
    ) -> Result<(), StoreError>;

    /// [`Store::append_action_at`] the system's time now.
    async fn append_action(
        &self,
        id: &GameId,
        seq: u64,
        action: &Action,
    ) -> Result<(), StoreError> {
        self.append_action_at(id, seq, action, crate::clock::unix_millis())
            .await
    }

    /// Appends the action that completes a rematch, accepted at `at`
    /// (milliseconds since the Unix epoch), and creates the new game, in
    /// one transaction.
    async fn append_rematch_at(
        &self,
        id: &GameId,
        seq: u64,
        action: &Action,
        next: &GameRow,
        at: i64,
    ) -> Result<(), StoreError>;

    /// [`Store::append_rematch_at`] the system's time now.
    async fn append_rematch(
        &self,
        id: &GameId,
        seq: u64,
        action: &Action,
        next: &GameRow,
    ) -> Result<(), StoreError> {
        self.append_rematch_at(id, seq, action, next, crate::clock::unix_millis())
            .await
    }

    /// Deletes every game created before `created_before` (seconds since
    /// the Unix epoch) whose second seat was never taken; returns how many.
    /// Games that both players joined, finished or not, are never deleted.
    async fn delete_expired_invitations(&self, created_before: i64) -> Result<u64, StoreError>;

    /// Whether the database answers now: the readiness a proxy asks for.
    async fn ready(&self) -> Result<(), StoreError>;

    /// The changes every process sharing the database makes, this one's
    /// too, as they commit; `None` when no other process can write to it
    /// (SQLite), so memory never goes stale.
    fn changes(&self) -> Option<broadcast::Receiver<Change>> {
        None
    }

    /// Tells the other processes sharing the database what this one knows
    /// of the players' and spectators' sockets in game `id`. Sent in order, without
    /// waiting, and may be lost (the next heartbeat repeats it); nothing
    /// when no other process can share the database (SQLite).
    fn announce(&self, _id: &GameId, _notice: Notice) {}
}

/// What a process says of the players' sockets it holds in one game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// It holds at least one socket of this player (said again at every
    /// heartbeat while it does).
    Here(Color),
    /// It holds none of this player's sockets any more.
    Gone(Color),
    /// It has just loaded the game: every process holding a player's
    /// socket should say [`Notice::Here`] at once rather than at its next
    /// heartbeat.
    Ask,
    /// It holds this many spectators' sockets (said when the number
    /// changes, 0 included, and again at every heartbeat while it is not 0).
    Watching(u32),
}

/// A change to the stored games, heard from the database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Game `id` changed: action number `seq` was stored, or (`None`) its
    /// row, like a seat taken.
    Game {
        /// The game.
        id: GameId,
        /// The action stored.
        seq: Option<u64>,
    },
    /// Another process said something of the players' sockets in game
    /// `id`; this process's own notices are not passed on.
    Presence {
        /// The game.
        id: GameId,
        /// The process that said it: random, drawn when its store opened.
        process: u64,
        /// What it said.
        notice: Notice,
    },
    /// Changes may have been missed (the database restarted, or this
    /// process fell behind): every game in memory must be read again.
    Missed,
}

impl Change {
    /// The notification's text: the game id, then a space and the action
    /// number when there is one; for presence, a word no game id can be
    /// (ids have ten characters), the process in hexadecimal, the game id
    /// and the colour or the number of spectators if any, like
    /// `here 1f2e3d4c5b6a7980 FirstRe1ea white` or `watch 2a FirstRe1ea 3`.
    fn payload(&self) -> String {
        match self {
            Change::Game { id, seq: Some(seq) } => format!("{id} {seq}"),
            Change::Game { id, seq: None } => id.to_string(),
            Change::Presence {
                id,
                process,
                notice,
            } => match notice {
                Notice::Here(color) => format!("here {process:x} {id} {}", color_text(*color)),
                Notice::Gone(color) => format!("gone {process:x} {id} {}", color_text(*color)),
                Notice::Ask => format!("ask {process:x} {id}"),
                Notice::Watching(n) => format!("watch {process:x} {id} {n}"),
            },
            Change::Missed => String::new(),
        }
    }

    /// Reads [`Change::payload`]'s text back.
    fn parse(text: &str) -> Option<Change> {
        let mut words = text.split(' ');
        if let Some(kind @ ("here" | "gone" | "ask" | "watch")) = words.next() {
            let process = u64::from_str_radix(words.next()?, 16).ok()?;
            let id = words.next()?.parse().ok()?;
            let notice = match kind {
                "ask" => Notice::Ask,
                "watch" => Notice::Watching(words.next()?.parse().ok()?),
                _ => {
                    let color = parse_color(words.next()?).ok()?;
                    if kind == "here" {
                        Notice::Here(color)
                    } else {
                        Notice::Gone(color)
                    }
                }
            };
            return words.next().is_none().then_some(Change::Presence {
                id,
                process,
                notice,
            });
        }
        let (id, seq) = match text.split_once(' ') {
            Some((id, seq)) => (id, Some(seq.parse().ok()?)),
            None => (text, None),
        };
        Some(Change::Game {
            id: id.parse().ok()?,
            seq,
        })
    }
}

/// Opens the store named by `url`, the backend chosen by its scheme:
/// `sqlite://path` (created and migrated when absent) or
/// `postgres://user@host/database` (`postgresql://` too; migrated).
///
/// # Errors
///
/// [`StoreError::UnknownScheme`] for any other scheme, or the backend's
/// error.
pub async fn open(url: &str) -> Result<Arc<dyn Store>, StoreError> {
    let scheme = url.split(':').next().unwrap_or_default();
    match scheme {
        "sqlite" => Ok(Arc::new(SqliteStore::open(url).await?)),
        "postgres" | "postgresql" => Ok(Arc::new(PgStore::open(url).await?)),
        other => Err(StoreError::UnknownScheme(other.to_owned())),
    }
}

/// Runs the migrations the database at `url` lacks, without serving;
/// returns how many it has now. `open` runs them too: this is for
/// operators who migrate before they start the processes.
///
/// # Errors
///
/// [`StoreError::UnknownScheme`] for a scheme that is not a database's,
/// or the backend's error.
pub async fn migrate(url: &str) -> Result<usize, StoreError> {
    let scheme = url.split(':').next().unwrap_or_default();
    match scheme {
        "sqlite" => SqliteStore::migrate(url).await,
        "postgres" | "postgresql" => PgStore::migrate(url).await,
        other => Err(StoreError::UnknownScheme(other.to_owned())),
    }
}

/// Copies the database named by `url` to the new file `target` while the
/// server may be using it, on a thread that may block: `VACUUM INTO`,
/// then a sync and an integrity check of the copy.
///
/// # Errors
///
/// A URL that is not `sqlite://`, or the copy's error.
pub async fn backup_to(url: &str, target: PathBuf) -> Result<Backup, StoreError> {
    let scheme = url.split(':').next().unwrap_or_default();
    if scheme != "sqlite" {
        return Err(StoreError::UnknownScheme(scheme.to_owned()));
    }
    let source = SqliteStore::path_of(url)?;
    tokio::task::spawn_blocking(move || backup(&source, &target))
        .await
        .map_err(|e| StoreError::Other(Box::new(e)))?
}

/// The stored name of a colour.
fn color_text(color: Color) -> &'static str {
    color.name()
}

/// Reads a stored colour name.
fn parse_color(text: &str) -> Result<Color, StoreError> {
    match text {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(corrupt(format!("bad colour {other:?}"))),
    }
}

fn corrupt(message: String) -> StoreError {
    StoreError::Other(message.into())
}

/// The stored columns of a match's score: White's wins, Black's, the
/// draws; all `None` in a first game.
fn score_columns(score: Option<Score>) -> [Option<i64>; 3] {
    match score {
        Some(s) => [s.white, s.black, s.draws].map(|n| Some(i64::from(n))),
        None => [None; 3],
    }
}

/// Reads a match's score back from its stored columns.
fn parse_score(columns: [Option<i64>; 3]) -> Result<Option<Score>, StoreError> {
    let count = |n: i64| u32::try_from(n).map_err(|_| corrupt(format!("bad score {n}")));
    match columns {
        [None, None, None] => Ok(None),
        [Some(white), Some(black), Some(draws)] => Ok(Some(Score {
            white: count(white)?,
            black: count(black)?,
            draws: count(draws)?,
        })),
        _ => Err(corrupt("part of a score".into())),
    }
}

/// Action number `seq` as both databases store it, a signed 64-bit
/// integer.
fn seq_column(seq: u64) -> Result<i64, StoreError> {
    i64::try_from(seq).map_err(|_| corrupt("action number overflow".into()))
}

/// The stored columns of an action.
struct ActionColumns {
    /// Its kind.
    kind: &'static str,
    /// Its step in notation.
    step: Option<String>,
    /// The level it chose.
    level: Option<i64>,
    /// The key of the message it said.
    message: Option<&'static str>,
}

/// The stored columns of `action`.
fn encode_action(action: &Action) -> ActionColumns {
    let mut columns = ActionColumns {
        kind: action.intent.name(),
        step: None,
        level: None,
        message: None,
    };
    match action.intent {
        Intent::Step { from, to, kind } => {
            columns.step = Some(format!("{from}-{to}{}", kind.suffix()));
        }
        Intent::SetLevel { level } => columns.level = Some(i64::from(level.number())),
        Intent::Message { text } => columns.message = Some(text.key()),
        _ => {}
    }
    columns
}

/// Reads a stored time control (`None` for a game without clocks).
fn parse_time_control(text: Option<String>) -> Result<Option<TimeControl>, StoreError> {
    text.map(|t| {
        t.parse()
            .map_err(|_| corrupt(format!("bad time control {t:?}")))
    })
    .transpose()
}

/// Reads a stored level.
fn parse_level(n: i64) -> Result<Level, StoreError> {
    u8::try_from(n)
        .ok()
        .and_then(Level::new)
        .ok_or_else(|| corrupt(format!("bad level {n}")))
}

/// Reads an action back from its stored columns: the player, then as
/// [`ActionColumns`].
fn decode_action(
    player: &str,
    kind: &str,
    step: Option<&str>,
    level: Option<i64>,
    message: Option<&str>,
) -> Result<Action, StoreError> {
    let by = parse_color(player)?;
    let kind =
        IntentKind::from_name(kind).ok_or_else(|| corrupt(format!("bad action {kind:?}")))?;
    let intent = match (Intent::without_fields(kind), step, level) {
        (Some(intent), _, _) => intent,
        (None, Some(text), _) if kind == IntentKind::Step => decode_step(text)?,
        (None, _, Some(n)) if kind == IntentKind::SetLevel => Intent::SetLevel {
            level: parse_level(n)?,
        },
        (None, _, _) if kind == IntentKind::Message => {
            let key = message.unwrap_or_default();
            Intent::Message {
                text: MessageText::from_key(key)
                    .ok_or_else(|| corrupt(format!("bad message {key:?}")))?,
            }
        }
        _ => return Err(corrupt(format!("bad action {:?}", kind.name()))),
    };
    Ok(Action { by, intent })
}

fn decode_step(text: &str) -> Result<Intent, StoreError> {
    let turn: Turn = text
        .parse()
        .map_err(|_| corrupt(format!("bad step {text:?}")))?;
    match turn.landings() {
        [landing] => Ok(Intent::Step {
            from: turn.origin(),
            to: landing.to,
            kind: landing.kind,
        }),
        _ => Err(corrupt(format!("bad step {text:?}"))),
    }
}

#[cfg(test)]
mod tests {
    use fanorona::{Square, StepKind};

    use super::*;

    #[test]
    fn actions_round_trip_through_their_columns() {
        let intents = [
            Intent::Step {
                from: Square::D3,
                to: Square::E3,
                kind: StepKind::Withdrawal,
            },
            Intent::Step {
                from: Square::E2,
                to: Square::E3,
                kind: StepKind::Paika,
            },
            Intent::EndTurn,
            Intent::Resign,
            Intent::OfferDraw,
            Intent::AcceptDraw,
            Intent::DeclineDraw,
            Intent::ClaimVictory,
            Intent::Rematch,
            Intent::Takeback,
            Intent::Hint,
            Intent::SetLevel {
                level: Level::new(5).expect("a level"),
            },
        ]
        .into_iter()
        .chain(
            MessageText::ALL
                .iter()
                .map(|&text| Intent::Message { text }),
        );
        for intent in intents {
            let action = Action {
                by: Color::Black,
                intent,
            };
            let c = encode_action(&action);
            let back = decode_action("black", c.kind, c.step.as_deref(), c.level, c.message)
                .expect("decodes");
            assert_eq!(back, action);
        }
        assert!(decode_action("white", "message", None, None, None).is_err());
        assert!(decode_action("white", "message", None, None, Some("hello")).is_err());
        assert!(decode_action("black", "fly", None, None, None).is_err());
        assert!(decode_action("black", "step", None, None, None).is_err());
        assert!(decode_action("black", "set_level", None, None, None).is_err());
        assert!(decode_action("black", "set_level", None, Some(7), None).is_err());
        assert!(decode_action("pink", "resign", None, None, None).is_err());
    }

    #[test]
    fn scores_round_trip_through_their_columns() {
        let score = Score {
            white: 2,
            black: 0,
            draws: 7,
        };
        for score in [None, Some(score), Some(Score::default())] {
            assert_eq!(parse_score(score_columns(score)).ok(), Some(score));
        }
        assert!(parse_score([Some(1), None, Some(0)]).is_err());
        assert!(parse_score([Some(-1), Some(0), Some(0)]).is_err());
    }

    #[test]
    fn changes_round_trip_through_their_payload() {
        let id: GameId = "FirstRe1ea".parse().expect("an id");
        for seq in [Some(0), Some(417), None] {
            let change = Change::Game {
                id: id.clone(),
                seq,
            };
            assert_eq!(Change::parse(&change.payload()), Some(change));
        }
        for notice in [
            Notice::Here(Color::White),
            Notice::Gone(Color::Black),
            Notice::Ask,
            Notice::Watching(0),
            Notice::Watching(u32::MAX),
        ] {
            let change = Change::Presence {
                id: id.clone(),
                process: u64::MAX - 5,
                notice,
            };
            assert_eq!(Change::parse(&change.payload()), Some(change));
        }
        for bad in [
            "",
            "FirstRe1ea x",
            "FirstRe1ea -1",
            "not an id 3",
            "FirstRe1ea 1 2",
            "here 12 FirstRe1ea",
            "here 12 FirstRe1ea pink",
            "gone xyz FirstRe1ea white",
            "ask 12 FirstRe1ea white",
            "here 12 FirstRe1ea white 3",
            "watch 12 FirstRe1ea",
            "watch 12 FirstRe1ea -1",
            "watch 12 FirstRe1ea 2 3",
            "watch 12 FirstRe1ea white",
        ] {
            assert_eq!(Change::parse(bad), None, "{bad:?}");
        }
    }
}
