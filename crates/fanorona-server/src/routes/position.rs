//! Position text from a request, read into a position at the edge.

use fanorona::{ParseSetupError, Position, Setup};

use crate::error::AppError;

/// Reads position text into a valid position.
///
/// # Errors
///
/// [`AppError::BadPosition`], saying what is wrong, for text that is not
/// position text or a position that cannot occur.
pub(super) fn parse_position(text: &str) -> Result<Position, AppError> {
    let setup: Setup = text
        .parse()
        .map_err(|e: ParseSetupError| AppError::BadPosition(e.to_string()))?;
    Position::from_setup(setup).map_err(|e| AppError::BadPosition(e.to_string()))
}
