#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod bitboard;
mod board;
mod color;
mod direction;
mod movegen;
mod outcome;
mod perft;
mod position;
mod record;
mod refused;
mod score;
mod setup;
mod square;
mod step;
mod turn;

#[doc(hidden)]
pub mod testing;

#[doc = include_str!("../RULES.md")]
pub mod rules {}

pub use bitboard::{Bitboard, IntoIter as BitboardIter};
pub use board::Board;
pub use color::{ByColor, Color};
pub use direction::Direction;
pub use outcome::{EndReason, Outcome};
pub use perft::{perft, perft_steps};
pub use position::{Chain, PlayError, Position, PositionError, StepError, FIFTY_TURNS, MAX_STONES};
pub use record::{
    ParseRecordError, ParseRecordErrorKind, Record, ReplayError, ReplayErrorKind, TagError,
    POSITION_TAG, RESULT_TAG,
};
pub use refused::Refused;
pub use score::{ParseScoreError, Score};
pub use setup::{ParseSetupError, Setup};
pub use square::{ParseSquareError, Square, FILES, RANKS};
pub use step::{Step, StepKind, StepList, MAX_STEPS};
pub use turn::{Landing, ParseTurnError, ParseTurnErrorKind, Turn, MAX_LANDINGS};
